// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-calibration-outputs))' | FileCheck %s

// Each activation brrr-quantize-calibrated would quantize becomes one more
// result, named after the first product that reads it: the input x (read
// by fc1 and fc1b: one output, key fc1), relu(fc1) (read by fc2) and fc1b's
// result, read by a second node also named fc2 (key fc2#2). The original
// result stays first.
// CHECK-LABEL: func.func @Mlp
// CHECK-SAME: -> (tensor<2x16xf16> {brrr.name = "y"}, tensor<2x32xf16> {brrr.name = "brrr.calibration:fc1"}, tensor<2x16xf16> {brrr.name = "brrr.calibration:fc2"}, tensor<2x16xf16> {brrr.name = "brrr.calibration:fc2#2"})
// CHECK: brrr.matmul %arg0, %{{.+}} : tensor<2x32xf16>, tensor<32x16xf16>
// CHECK: %[[B:.+]] = brrr.matmul %arg0, %{{.+}} : tensor<2x32xf16>, tensor<32x16xf16>
// CHECK: %[[R:.+]] = brrr.relu
// CHECK: %[[S:.+]] = brrr.add
// CHECK: return %[[S]], %arg0, %[[R]], %[[B]] :
func.func @Mlp(%x: tensor<2x32xf16> {brrr.name = "x"}) -> (tensor<2x16xf16> {brrr.name = "y"}) {
  %wq = brrr.constant dense<0.5> : tensor<16x32xf16>
  %wqt = brrr.transpose %wq {perm = array<i64: 1, 0>} : tensor<16x32xf16> -> tensor<32x16xf16>
  %q = brrr.matmul %x, %wqt : tensor<2x32xf16>, tensor<32x16xf16> -> tensor<2x16xf16> loc("fc1")
  %wk = brrr.constant dense<0.25> : tensor<32x16xf16>
  %k = brrr.matmul %x, %wk : tensor<2x32xf16>, tensor<32x16xf16> -> tensor<2x16xf16> loc("fc1b")
  %r = brrr.relu %q : tensor<2x16xf16>
  %w2 = brrr.constant dense<0.25> : tensor<16x16xf16>
  %y = brrr.matmul %r, %w2 : tensor<2x16xf16>, tensor<16x16xf16> -> tensor<2x16xf16> loc("fc2")
  %w3 = brrr.constant dense<0.25> : tensor<16x16xf16>
  %y2 = brrr.matmul %k, %w3 : tensor<2x16xf16>, tensor<16x16xf16> -> tensor<2x16xf16> loc("fc2")
  %s = brrr.add %y, %y2 : tensor<2x16xf16>, tensor<2x16xf16> -> tensor<2x16xf16>
  return %s : tensor<2x16xf16>
}

// -----

// Nothing to quantize (a product of two computed tensors; a contraction of
// 8): the function is unchanged.
// CHECK-LABEL: func.func @Nothing
// CHECK-SAME: -> tensor<2x2xf32>
func.func @Nothing(%a: tensor<2x16xf32>, %b: tensor<16x2xf32>, %c: tensor<2x8xf32>) -> tensor<2x2xf32> {
  %p = brrr.matmul %a, %b : tensor<2x16xf32>, tensor<16x2xf32> -> tensor<2x2xf32> loc("scores")
  %w = brrr.constant dense<1.0> : tensor<8x2xf32>
  %q = brrr.matmul %c, %w : tensor<2x8xf32>, tensor<8x2xf32> -> tensor<2x2xf32> loc("narrow")
  %s = brrr.add %p, %q : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}
