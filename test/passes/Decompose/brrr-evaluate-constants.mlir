// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-evaluate-constants))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-evaluate-constants{max-elements=4}))' | FileCheck %s --check-prefix=SMALL

// Rotary-style tables from positions: cast, a product of one term, cos,
// the cast to f16, computed on the host (cos(1) = 0.5403023 rounds to
// 0.540527 in f16); the add that reads them stays. The constants read only
// by what was computed go too. Over 4 elements (max-elements=4), nothing is
// computed.
// CHECK-LABEL: func.func @static
// CHECK-NEXT: %[[T:.+]] = brrr.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00], [5.405270e-01, 1.000000e+00], [-4.162600e-01, 1.000000e+00], [-9.902340e-01, 9.995110e-01]]> : tensor<4x2xf16>
// CHECK-NEXT: brrr.add %{{.+}}, %[[T]]
// CHECK-NEXT: return
// SMALL-LABEL: func.func @static
// SMALL: brrr.cos
func.func @static(%x: tensor<4x2xf16>) -> tensor<4x2xf16> {
  %p = brrr.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
  %f = brrr.cast %p : tensor<4xi64> -> tensor<4xf32>
  %r = brrr.reshape %f : tensor<4xf32> -> tensor<4x1xf32>
  %inv = brrr.constant dense<[[1.0, 0.01]]> : tensor<1x2xf32>
  %m = brrr.mul %r, %inv : tensor<4x1xf32>, tensor<1x2xf32> -> tensor<4x2xf32>
  %c = brrr.cos %m : tensor<4x2xf32>
  %h = brrr.cast %c : tensor<4x2xf32> -> tensor<4x2xf16>
  %y = brrr.add %x, %h : tensor<4x2xf16>, tensor<4x2xf16> -> tensor<4x2xf16>
  return %y : tensor<4x2xf16>
}

// -----

// Over a symbolic sequence the positions are a prefix of a constant range
// (the importer's Range). The table is computed at the largest extent
// (sin of [8, 2] positions times [1.0, 0.5]) and read through a slice from
// 0 of the actual extent.
// CHECK-LABEL: func.func @prefix
// CHECK-NEXT: %[[T:.+]] = brrr.constant dense<{{\[\[}}0.000000e+00, 0.000000e+00], [0.841470957, 0.47942555], [0.909297406, 0.841470957], [1.411200e-01, 0.997494995], [-0.756802499, 0.909297406], [-0.958924293, 0.598472118], [-0.279415488, 1.411200e-01], [0.656986594, -0.350783229]]> : tensor<8x2xf32>
// CHECK-NEXT: %[[S:.+]] = brrr.slice %[[T]] {extents = #brrr.extents<()[s0] -> (s0, 2)>, sizes = array<i64: -9223372036854775808, 2>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<8x2xf32> -> tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>>
// CHECK-NEXT: brrr.mul %{{.+}}, %[[S]]
// CHECK-NEXT: return
module attributes {brrr.dims = [#brrr.dim<"seq", 1, 8>]} {
  func.func @prefix(%x: tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>>) -> tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>> {
    %a = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
    %p = brrr.slice %a {extents = #brrr.extents<()[s0] -> (s0)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<8xi64> -> tensor<?xi64, #brrr.extents<()[s0] -> (s0)>>
    %f = brrr.cast %p : tensor<?xi64, #brrr.extents<()[s0] -> (s0)>> -> tensor<?xf32, #brrr.extents<()[s0] -> (s0)>>
    %r = brrr.reshape %f : tensor<?xf32, #brrr.extents<()[s0] -> (s0)>> -> tensor<?x1xf32, #brrr.extents<()[s0] -> (s0, 1)>>
    %inv = brrr.constant dense<[[1.0, 0.5]]> : tensor<1x2xf32>
    %m = brrr.mul %r, %inv : tensor<?x1xf32, #brrr.extents<()[s0] -> (s0, 1)>>, tensor<1x2xf32> -> tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>>
    %s = brrr.sin %m : tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>>
    %y = brrr.mul %x, %s : tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>>, tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>> -> tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>>
    return %y : tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>>
  }
}

// -----

// What stays a kernel's: a table whose symbolic dimension follows one of 2
// (its prefix is no prefix in memory: [2, seq] at 3 is not the first 6 of
// [2, 8]), a concatenation along the symbolic dimension, integer
// arithmetic, a value of an argument, and a constant only moved.
// CHECK-LABEL: func.func @stays
// CHECK: %[[T:.+]] = brrr.transpose
// CHECK: brrr.cos %[[T]]
// CHECK: %[[C:.+]] = brrr.concat
// CHECK: brrr.exp %[[C]]
// CHECK: %[[I:.+]] = brrr.add %{{.+}}, %{{.+}} : tensor<4xi64>
// CHECK: brrr.cast %[[I]]
// CHECK: brrr.neg %arg0
// CHECK: %[[W:.+]] = brrr.transpose %{{.+}} : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK: return {{.+}}, %[[W]]
module attributes {brrr.dims = [#brrr.dim<"seq", 1, 8>]} {
  func.func @stays(%x: tensor<4xf32>) -> (tensor<2x?xf32, #brrr.extents<()[s0] -> (2, s0)>>, tensor<?x1xf32, #brrr.extents<()[s0] -> (s0 + 1, 1)>>, tensor<4xf32>, tensor<4xf32>, tensor<3x2xf32>) {
    %a = brrr.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
    %p = brrr.slice %a {extents = #brrr.extents<()[s0] -> (s0)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<8xf32> -> tensor<?xf32, #brrr.extents<()[s0] -> (s0)>>
    %r = brrr.reshape %p : tensor<?xf32, #brrr.extents<()[s0] -> (s0)>> -> tensor<?x1xf32, #brrr.extents<()[s0] -> (s0, 1)>>
    %two = brrr.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
    %m = brrr.mul %r, %two : tensor<?x1xf32, #brrr.extents<()[s0] -> (s0, 1)>>, tensor<1x2xf32> -> tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>>
    %t = brrr.transpose %m {perm = array<i64: 1, 0>} : tensor<?x2xf32, #brrr.extents<()[s0] -> (s0, 2)>> -> tensor<2x?xf32, #brrr.extents<()[s0] -> (2, s0)>>
    %c = brrr.cos %t : tensor<2x?xf32, #brrr.extents<()[s0] -> (2, s0)>>
    %one = brrr.constant dense<[[9.0]]> : tensor<1x1xf32>
    %k = brrr.concat %one, %r {axis = 0 : i64} : (tensor<1x1xf32>, tensor<?x1xf32, #brrr.extents<()[s0] -> (s0, 1)>>) -> tensor<?x1xf32, #brrr.extents<()[s0] -> (s0 + 1, 1)>>
    %e = brrr.exp %k : tensor<?x1xf32, #brrr.extents<()[s0] -> (s0 + 1, 1)>>
    %i = brrr.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
    %j = brrr.add %i, %i : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
    %jf = brrr.cast %j : tensor<4xi64> -> tensor<4xf32>
    %n = brrr.neg %x : tensor<4xf32>
    %w = brrr.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %wt = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
    return %c, %e, %jf, %n, %wt : tensor<2x?xf32, #brrr.extents<()[s0] -> (2, s0)>>, tensor<?x1xf32, #brrr.extents<()[s0] -> (s0 + 1, 1)>>, tensor<4xf32>, tensor<4xf32>, tensor<3x2xf32>
  }
}

// -----

// A product of constants, batched over a broadcast operand, rounded once
// to f32 from its exact sum: [[1, 2], [3, 4]] @ [[0.5], [0.25]] and the
// same times 2 for the second batch.
// CHECK-LABEL: func.func @product
// CHECK-NEXT: %[[P:.+]] = brrr.constant dense<{{\[\[\[}}1.000000e+00], [2.500000e+00]], {{\[\[}}2.000000e+00], [5.000000e+00]]]> : tensor<2x2x1xf32>
// CHECK-NEXT: brrr.add %{{.+}}, %[[P]]
func.func @product(%x: tensor<2x2x1xf32>) -> tensor<2x2x1xf32> {
  %a = brrr.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = brrr.constant dense<[[[0.5], [0.25]], [[1.0], [0.5]]]> : tensor<2x2x1xf32>
  %m = brrr.matmul %a, %b : tensor<2x2xf32>, tensor<2x2x1xf32> -> tensor<2x2x1xf32>
  %y = brrr.add %x, %m : tensor<2x2x1xf32>, tensor<2x2x1xf32> -> tensor<2x2x1xf32>
  return %y : tensor<2x2x1xf32>
}

// -----

// Swin V2's continuous position bias: a small MLP over a constant table
// (relu between its products), rows gathered by a constant index (-1
// from the end). All computed on the host: relu of the table is [[0, 2],
// [0, 0], [3, 1]], times [[1], [3]] is [[6], [0], [6]], gathered as rows
// 2, 1, 2. A gather with an index out of range stays for its kernel to
// report, and with it what it reads.
// CHECK-LABEL: func.func @gathered
// CHECK: %[[M:.+]] = brrr.matmul
// CHECK-NEXT: %[[G:.+]] = brrr.constant dense<{{\[\[}}6.000000e+00], [0.000000e+00], [6.000000e+00]]> : tensor<3x1xf32>
// CHECK-NEXT: brrr.add %arg0, %[[G]]
// CHECK: %[[BAD:.+]] = brrr.gather %[[M]], %{{.+}} {axis = 0 : i64} : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<2x1xf32>
// CHECK: return {{.+}}, %[[BAD]]
func.func @gathered(%x: tensor<3x1xf32>) -> (tensor<3x1xf32>, tensor<2x1xf32>) {
  %t = brrr.constant dense<[[-1.0, 2.0], [-2.0, -1.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %r = brrr.relu %t : tensor<3x2xf32>
  %w = brrr.constant dense<[[1.0], [3.0]]> : tensor<2x1xf32>
  %m = brrr.matmul %r, %w : tensor<3x2xf32>, tensor<2x1xf32> -> tensor<3x1xf32>
  %i = brrr.constant dense<[-1, 1, 2]> : tensor<3xi64>
  %g = brrr.gather %m, %i {axis = 0 : i64} : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<3x1xf32>
  %y = brrr.add %x, %g : tensor<3x1xf32>, tensor<3x1xf32> -> tensor<3x1xf32>
  %j = brrr.constant dense<[0, 3]> : tensor<2xi64>
  %b = brrr.gather %m, %j {axis = 0 : i64} : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<2x1xf32>
  return %y, %b : tensor<3x1xf32>, tensor<2x1xf32>
}

// -----

// Swin V2's position bias as torch's dynamo export picks its rows: by
// index tuples (GatherND; here tuples of one index, -1 from the end), of a
// computed value. Rows 2 and 0 of [[0, 1], [2, 3], [4, 5]]; with
// batch_dims 1, tuple [1] of batch entry 0 and [0] of entry 1: [1, 2].
// Both computed on the host.
// CHECK-LABEL: func.func @gathered_nd
// CHECK-NEXT: %[[A:.+]] = brrr.constant dense<{{\[\[}}4.000000e+00, 5.000000e+00], [0.000000e+00, 1.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: %[[B:.+]] = brrr.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @gathered_nd() -> (tensor<2x2xf32>, tensor<2xf32>) {
  %t = brrr.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]> : tensor<3x2xf32>
  %one = brrr.constant dense<1.0> : tensor<f32>
  %u = brrr.mul %t, %one : tensor<3x2xf32>, tensor<f32> -> tensor<3x2xf32>
  %i = brrr.constant dense<[[-1], [0]]> : tensor<2x1xi64>
  %g = brrr.gather_nd %u, %i {batch_dims = 0 : i64} : (tensor<3x2xf32>, tensor<2x1xi64>) -> tensor<2x2xf32>
  %u2 = brrr.slice %u {sizes = array<i64: 2, 2>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<3x2xf32> -> tensor<2x2xf32>
  %j = brrr.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %h = brrr.gather_nd %u2, %j {batch_dims = 1 : i64} : (tensor<2x2xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  return %g, %h : tensor<2x2xf32>, tensor<2xf32>
}
