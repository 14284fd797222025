// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-rows))' | FileCheck %s

// Softmax over the last axis is one row kernel.
// CHECK-LABEL: func.func @SoftmaxIsOneRowKernel
// CHECK-SAME: (%[[X:.+]]: tensor<8x128xf16>)
// CHECK-NEXT: %[[F:.+]] = brrr.fusion row(%[[X]]) : (tensor<8x128xf16>) -> tensor<8x128xf16> {
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<8x128xf16>):
// CHECK-NEXT:   %[[S:.+]] = brrr.softmax %[[A]] {axis = 1 : i64}
// CHECK-NEXT:   brrr.yield %[[S]]
// CHECK: return %[[F]]
func.func @SoftmaxIsOneRowKernel(%x: tensor<8x128xf16>) -> tensor<8x128xf16> {
  %0 = brrr.softmax %x {axis = 1 : i64} : tensor<8x128xf16>
  return %0 : tensor<8x128xf16>
}

// -----

// Layer norm keeps scale and bias (even splat constants) as kernel inputs.
// CHECK-LABEL: func.func @LayerNormKeepsParametersAsInputs
// CHECK: %[[ONE:.+]] = brrr.constant dense<1.000000e+00> : tensor<4x16xf32>
// CHECK: brrr.fusion row(%{{.+}}, %[[ONE]], %{{.+}}) : (tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<2x4x16xf32>
// CHECK: brrr.layer_norm
func.func @LayerNormKeepsParametersAsInputs(%x: tensor<2x4x16xf32>, %b: tensor<4x16xf32>) -> tensor<2x4x16xf32> {
  %one = brrr.constant dense<1.0> : tensor<4x16xf32>
  %0 = brrr.layer_norm %x, %one, %b {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

// -----

// A softmax over a leading axis is not a row of contiguous memory: the
// axis is moved last, normalized by a row kernel, and moved back.
// CHECK-LABEL: func.func @SoftmaxOverLeadingAxisIsTransposed
// CHECK-SAME: (%[[X:.+]]: tensor<8x128xf32>)
// CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[X]] {perm = array<i64: 1, 0>} : tensor<8x128xf32> -> tensor<128x8xf32>
// CHECK-NEXT: %[[F:.+]] = brrr.fusion row(%[[T]])
// CHECK:   brrr.softmax %{{.+}} {axis = 1 : i64} : tensor<128x8xf32>
// CHECK: %[[B:.+]] = brrr.transpose %[[F]] {perm = array<i64: 1, 0>} : tensor<128x8xf32> -> tensor<8x128xf32>
// CHECK-NEXT: return %[[B]]
func.func @SoftmaxOverLeadingAxisIsTransposed(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %0 = brrr.softmax %x {axis = 0 : i64} : tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// -----

// A log-softmax over a middle axis (a CoaT's softmax over tokens): the
// axis moves last and back; the other axes keep their order.
// CHECK-LABEL: func.func @LogSoftmaxOverMiddleAxisIsTransposed
// CHECK: brrr.transpose %{{.+}} {perm = array<i64: 0, 2, 3, 1>} : tensor<2x5x3x4xf16> -> tensor<2x3x4x5xf16>
// CHECK: brrr.fusion row
// CHECK:   brrr.log_softmax %{{.+}} {axis = 3 : i64} : tensor<2x3x4x5xf16>
// CHECK: brrr.transpose %{{.+}} {perm = array<i64: 0, 3, 1, 2>} : tensor<2x3x4x5xf16> -> tensor<2x5x3x4xf16>
func.func @LogSoftmaxOverMiddleAxisIsTransposed(%x: tensor<2x5x3x4xf16>) -> tensor<2x5x3x4xf16> {
  %0 = brrr.log_softmax %x {axis = 1 : i64} : tensor<2x5x3x4xf16>
  return %0 : tensor<2x5x3x4xf16>
}

// -----

// A float reduction over trailing axes (global average pooling) is a row
// kernel; one over a leading axis is a general reduction kernel.
// CHECK-LABEL: func.func @TrailingReductionIsARowKernel
// CHECK: brrr.fusion row(%{{.+}}) : (tensor<2x8x7x7xf32>) -> tensor<2x8x1x1xf32>
// CHECK: brrr.reduce mean
// CHECK: brrr.fusion reduce(%{{.+}}) : (tensor<2x8x7x7xf32>) -> tensor<8x7x7xf32>
// CHECK: brrr.reduce sum
func.func @TrailingReductionIsARowKernel(%x: tensor<2x8x7x7xf32>) -> (tensor<2x8x1x1xf32>, tensor<8x7x7xf32>) {
  %0 = brrr.reduce mean %x {axes = array<i64: 2, 3>, keepdims = true} : tensor<2x8x7x7xf32> -> tensor<2x8x1x1xf32>
  %1 = brrr.reduce sum %x {axes = array<i64: 0>, keepdims = false} : tensor<2x8x7x7xf32> -> tensor<8x7x7xf32>
  return %0, %1 : tensor<2x8x1x1xf32>, tensor<8x7x7xf32>
}

// -----

// A mean over rows too long for the register-resident row kernel (40000
// f32: 10000 vectors, 40 a thread at 256 threads) is a general reduction
// kernel, which walks its rows; one over 4096 is a row kernel.
// CHECK-LABEL: func.func @LongRowsAreGeneralReductions
// CHECK: brrr.fusion reduce
// CHECK: brrr.reduce mean %{{.+}} : tensor<64x40000xf32> -> tensor<64xf32>
// CHECK: brrr.fusion row
// CHECK: brrr.reduce mean %{{.+}} : tensor<64x4096xf32> -> tensor<64xf32>
func.func @LongRowsAreGeneralReductions(%x: tensor<64x40000xf32>, %y: tensor<64x4096xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %0 = brrr.reduce mean %x {axes = array<i64: 1>, keepdims = false} : tensor<64x40000xf32> -> tensor<64xf32>
  %1 = brrr.reduce mean %y {axes = array<i64: 1>, keepdims = false} : tensor<64x4096xf32> -> tensor<64xf32>
  return %0, %1 : tensor<64xf32>, tensor<64xf32>
}
