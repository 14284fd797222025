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
