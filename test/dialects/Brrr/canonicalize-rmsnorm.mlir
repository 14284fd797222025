// RUN: brrr-opt %s -split-input-file --canonicalize | FileCheck %s
// RMSNorm written out (transformers' LlamaRMSNorm: the f32 mean of
// squares over the last axis, plus epsilon, its inverse square root, the
// product cast back and scaled) is one `layer_norm {rms}`.

// CHECK-LABEL: func.func @llama_rms_norm
// CHECK-SAME: (%[[X:.+]]: tensor<2x5x64xf16>, %[[W:.+]]: tensor<64xf16>)
// CHECK-NEXT: %[[Y:.+]] = brrr.layer_norm %[[X]], %[[W]] {axis = 2 : i64, epsilon = 9.9999999747524271E-7 : f64, rms} : (tensor<2x5x64xf16>, tensor<64xf16>) -> tensor<2x5x64xf16>
// CHECK-NEXT: return %[[Y]]
func.func @llama_rms_norm(%x: tensor<2x5x64xf16>, %w: tensor<64xf16>) -> tensor<2x5x64xf16> {
  %eps = brrr.constant dense<1.0e-6> : tensor<f32>
  %xf = brrr.cast %x : tensor<2x5x64xf16> -> tensor<2x5x64xf32>
  %sq = brrr.mul %xf, %xf : tensor<2x5x64xf32>, tensor<2x5x64xf32> -> tensor<2x5x64xf32>
  %m = brrr.reduce mean %sq {axes = array<i64: 2>, keepdims = true} : tensor<2x5x64xf32> -> tensor<2x5x1xf32>
  %a = brrr.add %m, %eps : tensor<2x5x1xf32>, tensor<f32> -> tensor<2x5x1xf32>
  %s = brrr.sqrt %a : tensor<2x5x1xf32>
  %r = brrr.reciprocal %s : tensor<2x5x1xf32>
  %n = brrr.mul %xf, %r : tensor<2x5x64xf32>, tensor<2x5x1xf32> -> tensor<2x5x64xf32>
  %h = brrr.cast %n : tensor<2x5x64xf32> -> tensor<2x5x64xf16>
  %y = brrr.mul %w, %h : tensor<64xf16>, tensor<2x5x64xf16> -> tensor<2x5x64xf16>
  return %y : tensor<2x5x64xf16>
}

// -----

// An f32 model's norm has no casts; rsqrt counts as 1 / sqrt.
// CHECK-LABEL: func.func @f32_rms_norm
// CHECK-NEXT: brrr.layer_norm %arg0, %arg1 {axis = 1 : i64, epsilon = 9.9999997473787516E-6 : f64, rms}
// CHECK-NEXT: return
func.func @f32_rms_norm(%x: tensor<7x96xf32>, %w: tensor<96xf32>) -> tensor<7x96xf32> {
  %eps = brrr.constant dense<1.0e-5> : tensor<f32>
  %sq = brrr.mul %x, %x : tensor<7x96xf32>, tensor<7x96xf32> -> tensor<7x96xf32>
  %m = brrr.reduce mean %sq {axes = array<i64: 1>, keepdims = true} : tensor<7x96xf32> -> tensor<7x1xf32>
  %a = brrr.add %eps, %m : tensor<f32>, tensor<7x1xf32> -> tensor<7x1xf32>
  %r = brrr.rsqrt %a : tensor<7x1xf32>
  %n = brrr.mul %r, %x : tensor<7x1xf32>, tensor<7x96xf32> -> tensor<7x96xf32>
  %y = brrr.mul %n, %w : tensor<7x96xf32>, tensor<96xf32> -> tensor<7x96xf32>
  return %y : tensor<7x96xf32>
}

// -----

// Not an RMS norm: a mean over a leading axis, a square of something else,
// a sum instead of a mean, and a scale of the wrong shape all stay.
// CHECK-LABEL: func.func @not_rms_norms
// CHECK-NOT: brrr.layer_norm
// CHECK: return
func.func @not_rms_norms(%x: tensor<7x96xf32>, %z: tensor<7x96xf32>, %w: tensor<96xf32>, %w7: tensor<7x1xf32>) -> (tensor<7x96xf32>, tensor<7x96xf32>, tensor<7x96xf32>, tensor<7x96xf32>) {
  %eps = brrr.constant dense<1.0e-5> : tensor<f32>
  %sq = brrr.mul %x, %x : tensor<7x96xf32>, tensor<7x96xf32> -> tensor<7x96xf32>
  %m0 = brrr.reduce mean %sq {axes = array<i64: 0>, keepdims = true} : tensor<7x96xf32> -> tensor<1x96xf32>
  %a0 = brrr.add %m0, %eps : tensor<1x96xf32>, tensor<f32> -> tensor<1x96xf32>
  %r0 = brrr.rsqrt %a0 : tensor<1x96xf32>
  %n0 = brrr.mul %x, %r0 : tensor<7x96xf32>, tensor<1x96xf32> -> tensor<7x96xf32>
  %y0 = brrr.mul %n0, %w : tensor<7x96xf32>, tensor<96xf32> -> tensor<7x96xf32>
  %m1 = brrr.reduce mean %sq {axes = array<i64: 1>, keepdims = true} : tensor<7x96xf32> -> tensor<7x1xf32>
  %a1 = brrr.add %m1, %eps : tensor<7x1xf32>, tensor<f32> -> tensor<7x1xf32>
  %r1 = brrr.rsqrt %a1 : tensor<7x1xf32>
  %n1 = brrr.mul %z, %r1 : tensor<7x96xf32>, tensor<7x1xf32> -> tensor<7x96xf32>
  %y1 = brrr.mul %n1, %w : tensor<7x96xf32>, tensor<96xf32> -> tensor<7x96xf32>
  %m2 = brrr.reduce sum %sq {axes = array<i64: 1>, keepdims = true} : tensor<7x96xf32> -> tensor<7x1xf32>
  %a2 = brrr.add %m2, %eps : tensor<7x1xf32>, tensor<f32> -> tensor<7x1xf32>
  %r2 = brrr.rsqrt %a2 : tensor<7x1xf32>
  %n2 = brrr.mul %x, %r2 : tensor<7x96xf32>, tensor<7x1xf32> -> tensor<7x96xf32>
  %y2 = brrr.mul %n2, %w : tensor<7x96xf32>, tensor<96xf32> -> tensor<7x96xf32>
  %n3 = brrr.mul %x, %r1 : tensor<7x96xf32>, tensor<7x1xf32> -> tensor<7x96xf32>
  %y3 = brrr.mul %n3, %w7 : tensor<7x96xf32>, tensor<7x1xf32> -> tensor<7x96xf32>
  return %y0, %y1, %y2, %y3 : tensor<7x96xf32>, tensor<7x96xf32>, tensor<7x96xf32>, tensor<7x96xf32>
}
