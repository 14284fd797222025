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
