// RUN: brrr-opt %s -split-input-file --canonicalize | FileCheck %s
// Llama's rotary frequencies over a symbolic sequence: inv_freq [1, 8, 1]
// times positions [1, 1, seq] as a product of one term is a multiply, and
// its transpose to [1, seq, 8] moves only units of each operand, so the
// multiply computes in that order: no product kernel, no transpose.

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
  // CHECK-LABEL: func.func @frequencies
  // CHECK-SAME: (%[[F:.+]]: tensor<1x8x1xf32>, %[[P:.+]]: tensor<1x1x?xf32
  // CHECK-DAG: %[[FT:.+]] = brrr.reshape %[[F]] : tensor<1x8x1xf32> -> tensor<1x1x8xf32>
  // CHECK-DAG: %[[PT:.+]] = brrr.reshape %[[P]] : {{.+}} -> tensor<1x?x1xf32, #brrr.extents<()[s0, s1] -> (1, s1, 1)>>
  // CHECK: %[[M:.+]] = brrr.mul %[[FT]], %[[PT]] : tensor<1x1x8xf32>, tensor<1x?x1xf32{{.+}}> -> tensor<1x?x8xf32
  // CHECK-NEXT: return %[[M]]
  // CHECK-NOT: brrr.matmul
  // CHECK-NOT: brrr.transpose
  func.func @frequencies(%f: tensor<1x8x1xf32>, %p: tensor<1x1x?xf32, #brrr.extents<()[s0, s1] -> (1, 1, s1)>>) -> tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>> {
    %m = brrr.matmul %f, %p : tensor<1x8x1xf32>, tensor<1x1x?xf32, #brrr.extents<()[s0, s1] -> (1, 1, s1)>> -> tensor<1x8x?xf32, #brrr.extents<()[s0, s1] -> (1, 8, s1)>>
    %t = brrr.transpose %m {perm = array<i64: 0, 2, 1>} : tensor<1x8x?xf32, #brrr.extents<()[s0, s1] -> (1, 8, s1)>> -> tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>>
    return %t : tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>>
  }
}

// -----

// What stays: a product of more than one term, and a transpose that moves
// an operand's extents above 1 (a head transpose of [batch, seq, 4, 16]).
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
  // CHECK-LABEL: func.func @stays
  // CHECK: brrr.matmul
  // CHECK: brrr.mul
  // CHECK: brrr.transpose
  func.func @stays(%f: tensor<1x8x2xf32>, %p: tensor<1x2x?xf32, #brrr.extents<()[s0, s1] -> (1, 2, s1)>>, %x: tensor<?x?x4x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>, %c: tensor<f32>) -> (tensor<1x8x?xf32, #brrr.extents<()[s0, s1] -> (1, 8, s1)>>, tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>) {
    %m = brrr.matmul %f, %p : tensor<1x8x2xf32>, tensor<1x2x?xf32, #brrr.extents<()[s0, s1] -> (1, 2, s1)>> -> tensor<1x8x?xf32, #brrr.extents<()[s0, s1] -> (1, 8, s1)>>
    %s = brrr.mul %x, %c : tensor<?x?x4x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>, tensor<f32> -> tensor<?x?x4x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>
    %t = brrr.transpose %s {perm = array<i64: 0, 2, 1, 3>} : tensor<?x?x4x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>> -> tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
    return %m, %t : tensor<1x8x?xf32, #brrr.extents<()[s0, s1] -> (1, 8, s1)>>, tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
  }
}

// -----

// The rotary embedding after the head transpose: q [batch, seq, 4, 16]
// read as [batch, 4, seq, 16], q * cos + rotate_half(q) * sin with cos
// and sin [1, 1, seq, 16]. The slices, the negation, the concatenation,
// the products and the sum move before the transpose, over q's own order
// (cos and sin read as [1, seq, 1, 16]); one transpose is left, for
// attention to read through. A scale by one value stays after it.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
  // CHECK-LABEL: func.func @rotary
  // CHECK-SAME: (%[[Q:[^:]+]]: tensor<?x?x4x16xf32
  // CHECK-DAG: %[[LO:.+]] = brrr.slice %[[Q]] {extents = #brrr.extents<()[s0, s1] -> (s0, s1, 4, 8)>, sizes = array<i64: -9223372036854775808, -9223372036854775808, 4, 8>, starts = array<i64: 0, 0, 0, 0>
  // CHECK-DAG: %[[HI:.+]] = brrr.slice %[[Q]] {{.+}} starts = array<i64: 0, 0, 0, 8>
  // CHECK-DAG: %[[NEG:.+]] = brrr.neg %[[HI]] : tensor<?x?x4x8xf32
  // CHECK-DAG: %[[ROT:.+]] = brrr.concat %[[NEG]], %[[LO]] {axis = 3 : i64} : {{.+}} -> tensor<?x?x4x16xf32
  // CHECK-DAG: %[[COS:.+]] = brrr.reshape %{{.+}} : tensor<1x1x?x16xf32{{.+}} -> tensor<1x?x1x16xf32
  // CHECK-DAG: brrr.mul %[[Q]], %[[COS]] : tensor<?x?x4x16xf32
  // CHECK: %[[SUM:.+]] = brrr.add {{.+}} -> tensor<?x?x4x16xf32
  // CHECK: %[[T:.+]] = brrr.transpose %[[SUM]] {perm = array<i64: 0, 2, 1, 3>}
  // CHECK: %[[S:.+]] = brrr.mul %[[T]], %{{.+}} : tensor<?x4x?x16xf32{{.+}}, tensor<f32>
  // CHECK: return %[[S]]
  func.func @rotary(%q: tensor<?x?x4x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>, %cos: tensor<1x1x?x16xf32, #brrr.extents<()[s0, s1] -> (1, 1, s1, 16)>>, %sin: tensor<1x1x?x16xf32, #brrr.extents<()[s0, s1] -> (1, 1, s1, 16)>>, %scale: tensor<f32>) -> tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>> {
    %t = brrr.transpose %q {perm = array<i64: 0, 2, 1, 3>} : tensor<?x?x4x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>> -> tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
    %c = brrr.mul %t, %cos : tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>, tensor<1x1x?x16xf32, #brrr.extents<()[s0, s1] -> (1, 1, s1, 16)>> -> tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
    %lo = brrr.slice %t {extents = #brrr.extents<()[s0, s1] -> (s0, 4, s1, 8)>, sizes = array<i64: -9223372036854775808, 4, -9223372036854775808, 8>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>> -> tensor<?x4x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 8)>>
    %hi = brrr.slice %t {extents = #brrr.extents<()[s0, s1] -> (s0, 4, s1, 8)>, sizes = array<i64: -9223372036854775808, 4, -9223372036854775808, 8>, starts = array<i64: 0, 0, 0, 8>, steps = array<i64: 1, 1, 1, 1>} : tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>> -> tensor<?x4x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 8)>>
    %n = brrr.neg %hi : tensor<?x4x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 8)>>
    %r = brrr.concat %n, %lo {axis = 3 : i64} : (tensor<?x4x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 8)>>, tensor<?x4x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 8)>>) -> tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
    %rs = brrr.mul %r, %sin : tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>, tensor<1x1x?x16xf32, #brrr.extents<()[s0, s1] -> (1, 1, s1, 16)>> -> tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
    %sum = brrr.add %c, %rs : tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>, tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>> -> tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
    %y = brrr.mul %sum, %scale : tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>, tensor<f32> -> tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
    return %y : tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
  }
}
