// RUN: brrr-opt %s -split-input-file | brrr-opt -split-input-file | FileCheck %s
// Symbolic dimensions: `?` dims whose #brrr.extents encoding names the
// module's `brrr.dims`. Type inference carries the extents through the ops
// that take them, and the IR round-trips.

#b = #brrr.extents<()[s0] -> (s0, 16)>
#bs = #brrr.extents<()[s0, s1] -> (s0, s1, 16)>
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>, #brrr.dim<"sequence", 1, 512>]} {
  // CHECK-LABEL: module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>, #brrr.dim<"sequence", 1, 512>]}
  // CHECK-LABEL: func.func @carried
  // CHECK-SAME: (%[[X:[^:]+]]: tensor<?x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>, %[[W:[^:]+]]: tensor<16x8xf16>,
  func.func @carried(%x: tensor<?x?x16xf16, #bs>, %w: tensor<16x8xf16>,
                     %bias: tensor<16xf16>) -> tensor<?x8xf32, #brrr.extents<()[s0, s1] -> (s0 * s1, 8)>> {
    // CHECK: brrr.add %[[X]], %{{.+}} : tensor<?x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>, tensor<16xf16> -> tensor<?x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>
    %a = brrr.add %x, %bias : tensor<?x?x16xf16, #bs>, tensor<16xf16> -> tensor<?x?x16xf16, #bs>
    // CHECK: brrr.reshape %{{.+}} : tensor<?x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>> -> tensor<?x16xf16, #brrr.extents<()[s0, s1] -> (s0 * s1, 16)>>
    %f = brrr.reshape %a : tensor<?x?x16xf16, #bs> -> tensor<?x16xf16, #brrr.extents<()[s0, s1] -> (s0 * s1, 16)>>
    // CHECK: brrr.matmul %{{.+}}, %[[W]] : tensor<?x16xf16, #brrr.extents<()[s0, s1] -> (s0 * s1, 16)>>, tensor<16x8xf16> -> tensor<?x8xf16, #brrr.extents<()[s0, s1] -> (s0 * s1, 8)>>
    %m = brrr.matmul %f, %w : tensor<?x16xf16, #brrr.extents<()[s0, s1] -> (s0 * s1, 16)>>, tensor<16x8xf16> -> tensor<?x8xf16, #brrr.extents<()[s0, s1] -> (s0 * s1, 8)>>
    // CHECK: brrr.cast %{{.+}} : tensor<?x8xf16, #brrr.extents<()[s0, s1] -> (s0 * s1, 8)>> -> tensor<?x8xf32, #brrr.extents<()[s0, s1] -> (s0 * s1, 8)>>
    %c = brrr.cast %m : tensor<?x8xf16, #brrr.extents<()[s0, s1] -> (s0 * s1, 8)>> -> tensor<?x8xf32, #brrr.extents<()[s0, s1] -> (s0 * s1, 8)>>
    return %c : tensor<?x8xf32, #brrr.extents<()[s0, s1] -> (s0 * s1, 8)>>
  }

  // A reduction over the symbolic axis makes the extent static; a
  // transpose moves it.
  // CHECK-LABEL: func.func @reduced
  // CHECK: brrr.transpose %{{.+}} {perm = array<i64: 1, 0>} : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>> -> tensor<16x?xf32, #brrr.extents<()[s0] -> (16, s0)>>
  // CHECK: brrr.reduce sum %{{.+}} {axes = array<i64: 1>, keepdims = true} : tensor<16x?xf32, #brrr.extents<()[s0] -> (16, s0)>> -> tensor<16x1xf32>
  func.func @reduced(%x: tensor<?x16xf32, #b>) -> tensor<16x1xf32> {
    %t = brrr.transpose %x {perm = array<i64: 1, 0>} : tensor<?x16xf32, #b> -> tensor<16x?xf32, #brrr.extents<()[s0] -> (16, s0)>>
    %r = brrr.reduce sum %t {axes = array<i64: 1>, keepdims = true} : tensor<16x?xf32, #brrr.extents<()[s0] -> (16, s0)>> -> tensor<16x1xf32>
    return %r : tensor<16x1xf32>
  }
}

// -----

// A slice that drops the last element of a symbolic axis (`x[:, :-1]`):
// size seq - 1, empty at seq = 1, where it reads nothing; otherwise its
// last index, seq - 2, lies inside.
module attributes {brrr.dims = [#brrr.dim<"seq", 1, 32>]} {
  // CHECK-LABEL: func.func @drop_last
  // CHECK: brrr.slice {{.+}} -> tensor<1x?xf32, #brrr.extents<()[s0] -> (1, s0 - 1)>>
  func.func @drop_last(%x: tensor<1x?xf32, #brrr.extents<()[s0] -> (1, s0)>>) -> tensor<1x?xf32, #brrr.extents<()[s0] -> (1, s0 - 1)>> {
    %0 = brrr.slice %x {extents = #brrr.extents<()[s0] -> (1, s0 - 1)>, sizes = array<i64: 1, -9223372036854775808>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<1x?xf32, #brrr.extents<()[s0] -> (1, s0)>> -> tensor<1x?xf32, #brrr.extents<()[s0] -> (1, s0 - 1)>>
    return %0 : tensor<1x?xf32, #brrr.extents<()[s0] -> (1, s0 - 1)>>
  }
}

// -----

// Quantization over symbolic rows: static scales and zero points (per
// tensor, or per column of the fixed last axis) broadcast to the symbolic
// input, and the result keeps its extents.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>]} {
  // CHECK-LABEL: func.func @quantized
  // CHECK: brrr.quantize {{.+}} -> tensor<?x16xi8, #brrr.extents<()[s0] -> (s0 * 4, 16)>>
  // CHECK: brrr.dequantize {{.+}} -> tensor<?x16xf16, #brrr.extents<()[s0] -> (s0 * 4, 16)>>
  func.func @quantized(%x: tensor<?x16xf16, #brrr.extents<()[s0] -> (s0 * 4, 16)>>, %s: tensor<f16>, %z: tensor<i8>, %sc: tensor<1x16xf16>, %zc: tensor<1x16xi8>) -> tensor<?x16xf16, #brrr.extents<()[s0] -> (s0 * 4, 16)>> {
    %q = brrr.quantize %x, %s, %z : tensor<?x16xf16, #brrr.extents<()[s0] -> (s0 * 4, 16)>>, tensor<f16>, tensor<i8> -> tensor<?x16xi8, #brrr.extents<()[s0] -> (s0 * 4, 16)>>
    %d = brrr.dequantize %q, %sc, %zc : tensor<?x16xi8, #brrr.extents<()[s0] -> (s0 * 4, 16)>>, tensor<1x16xf16>, tensor<1x16xi8> -> tensor<?x16xf16, #brrr.extents<()[s0] -> (s0 * 4, 16)>>
    return %d : tensor<?x16xf16, #brrr.extents<()[s0] -> (s0 * 4, 16)>>
  }
}
