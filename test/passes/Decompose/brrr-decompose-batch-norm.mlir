// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-decompose-batch-norm))' | FileCheck %s

// Constant parameters fold to a = scale / sqrt(var + eps) and
// c = bias - mean * a at compile time: a = [2/sqrt(4), 1/sqrt(1)] = [1, 1],
// c = [1 - 2*1, 0 - 1*1] = [-1, -1] (eps = 0).
// CHECK-LABEL: func.func @FoldConstantParameters
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x3x3xf32>)
// CHECK-DAG: %[[A:.+]] = brrr.constant dense<1.000000e+00> : tensor<2x1x1xf32>
// CHECK-DAG: %[[C:.+]] = brrr.constant dense<-1.000000e+00> : tensor<2x1x1xf32>
// CHECK: %[[M:.+]] = brrr.mul %[[X]], %[[A]] : tensor<1x2x3x3xf32>, tensor<2x1x1xf32> -> tensor<1x2x3x3xf32>
// CHECK: %[[Y:.+]] = brrr.add %[[M]], %[[C]]
// CHECK-NOT: brrr.batch_norm
// CHECK: return %[[Y]]
func.func @FoldConstantParameters(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %s = brrr.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %b = brrr.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %m = brrr.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %v = brrr.constant dense<[4.0, 1.0]> : tensor<2xf32>
  %0 = brrr.batch_norm %x, %s, %b, %m, %v {epsilon = 0.0 : f64} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// Runtime parameters: the same arithmetic as ops on the [C] vectors (for a
// rank-2 input [C] already broadcasts along dimension 1).
// CHECK-LABEL: func.func @RuntimeParameters
// CHECK: brrr.add %{{.+}}, %{{.+}} : tensor<4xf16>, tensor<f16> -> tensor<4xf16>
// CHECK: brrr.rsqrt
// CHECK: brrr.mul %{{.+}}, %{{.+}} : tensor<2x4xf16>, tensor<4xf16> -> tensor<2x4xf16>
func.func @RuntimeParameters(%x: tensor<2x4xf16>, %s: tensor<4xf16>, %b: tensor<4xf16>, %m: tensor<4xf16>, %v: tensor<4xf16>) -> tensor<2x4xf16> {
  %0 = brrr.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f64} : (tensor<2x4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>, tensor<4xf16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

// A batch norm after a convolution with constant weights disappears into
// them: W' = W * a per output channel, b' = b * a + c. Scale [2, 1],
// var [0, 3], eps 1 give a = [2, 0.5]; W = [1, 2] -> [2, 1];
// c = bias - mean * a = [1 - 1 * 2, 0 - 2 * 0.5] = [-1, -1];
// conv bias [1, 3] -> [1 * 2 - 1, 3 * 0.5 - 1] = [1, 0.5].
// CHECK-LABEL: func.func @FoldIntoConvWeights
// CHECK-SAME: (%[[X:.+]]: tensor<1x1x4x4xf32>)
// CHECK-DAG: %[[W:.+]] = brrr.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.+]] = brrr.constant dense<[1.000000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK: %[[Y:.+]] = brrr.conv2d %[[X]], %[[W]], %[[B]]
// CHECK-NOT: brrr.batch_norm
// CHECK-NOT: brrr.mul
// CHECK: return %[[Y]]
func.func @FoldIntoConvWeights(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = brrr.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %cb = brrr.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %c = brrr.conv2d %x, %w, %cb {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %s = brrr.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %b = brrr.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %m = brrr.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = brrr.constant dense<[0.0, 3.0]> : tensor<2xf32>
  %0 = brrr.batch_norm %c, %s, %b, %m, %v {epsilon = 1.0 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// A convolution whose output is also read elsewhere keeps its weights; the
// batch norm becomes the multiply-add.
// CHECK-LABEL: func.func @DoNotFoldIntoConvReadTwice
// CHECK: %[[C:.+]] = brrr.conv2d
// CHECK: brrr.mul %[[C]]
// CHECK: return
func.func @DoNotFoldIntoConvReadTwice(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = brrr.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %s = brrr.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %0 = brrr.batch_norm %c, %s, %s, %s, %s {epsilon = 1.0 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %0, %c : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// Weights that arrive at run time cannot be folded.
// CHECK-LABEL: func.func @DoNotFoldIntoRuntimeConvWeights
// CHECK: %[[C:.+]] = brrr.conv2d
// CHECK: brrr.mul %[[C]]
func.func @DoNotFoldIntoRuntimeConvWeights(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %s = brrr.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %0 = brrr.batch_norm %c, %s, %s, %s, %s {epsilon = 1.0 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// After a 2-D matmul with constant weights, a scales the weight columns
// and + c stays (it fuses into the matmul's epilogue): a = [2, 0.5],
// W = [[1, 1]] -> [[2, 0.5]], c = [-1, -1].
// CHECK-LABEL: func.func @FoldIntoMatmulColumns
// CHECK-SAME: (%[[X:.+]]: tensor<3x1xf32>)
// CHECK-DAG: %[[W:.+]] = brrr.constant dense<{{\[\[}}2.000000e+00, 5.000000e-01]]> : tensor<1x2xf32>
// CHECK-DAG: %[[C:.+]] = brrr.constant dense<-1.000000e+00> : tensor<2xf32>
// CHECK: %[[M:.+]] = brrr.matmul %[[X]], %[[W]]
// CHECK: %[[Y:.+]] = brrr.add %[[M]], %[[C]]
// CHECK: return %[[Y]]
func.func @FoldIntoMatmulColumns(%x: tensor<3x1xf32>) -> tensor<3x2xf32> {
  %w = brrr.constant dense<[[1.0, 1.0]]> : tensor<1x2xf32>
  %p = brrr.matmul %x, %w : tensor<3x1xf32>, tensor<1x2xf32> -> tensor<3x2xf32>
  %s = brrr.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %b = brrr.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %m = brrr.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = brrr.constant dense<[0.0, 3.0]> : tensor<2xf32>
  %0 = brrr.batch_norm %p, %s, %b, %m, %v {epsilon = 1.0 : f64} : (tensor<3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
