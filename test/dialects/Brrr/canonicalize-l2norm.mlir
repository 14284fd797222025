// RUN: brrr-opt %s -split-input-file --canonicalize | FileCheck %s
// F.normalize written out (x over max(sqrt(sum(x * x)), eps), the length
// expanded to x's shape) is one `layer_norm {l2}` of a unit scale.

// Swin V2's queries, as the ONNX importer writes ReduceL2 (square, sum,
// square root) in f16, the clamp a max by a constant.
// CHECK-LABEL: func.func @normalize_f16
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x64x32xf16>)
// CHECK-NEXT: %[[U:.+]] = brrr.constant dense<1.000000e+00> : tensor<32xf16>
// CHECK-NEXT: %[[Y:.+]] = brrr.layer_norm %[[X]], %[[U]] {axis = 3 : i64, epsilon = 5.9604644775390625E-8 : f64, l2} : (tensor<2x3x64x32xf16>, tensor<32xf16>) -> tensor<2x3x64x32xf16>
// CHECK-NEXT: return %[[Y]]
func.func @normalize_f16(%x: tensor<2x3x64x32xf16>) -> tensor<2x3x64x32xf16> {
  %eps = brrr.constant dense<5.9604644775390625E-8> : tensor<f16>
  %sq = brrr.mul %x, %x : tensor<2x3x64x32xf16>, tensor<2x3x64x32xf16> -> tensor<2x3x64x32xf16>
  %s = brrr.reduce sum %sq {axes = array<i64: 3>, keepdims = true} : tensor<2x3x64x32xf16> -> tensor<2x3x64x1xf16>
  %n = brrr.sqrt %s : tensor<2x3x64x1xf16>
  %c = brrr.max %n, %eps : tensor<2x3x64x1xf16>, tensor<f16> -> tensor<2x3x64x1xf16>
  %e = brrr.expand %c : tensor<2x3x64x1xf16> -> tensor<2x3x64x32xf16>
  %y = brrr.div %x, %e : tensor<2x3x64x32xf16>, tensor<2x3x64x32xf16> -> tensor<2x3x64x32xf16>
  return %y : tensor<2x3x64x32xf16>
}

// -----

// Summed in f32 and cast back, the clamp a clip from below (its bound
// rounded to f16, as the clip in f16 applies it), over the last two axes.
// CHECK-LABEL: func.func @normalize_widened_clip
// CHECK-NEXT: brrr.constant dense<1.000000e+00> : tensor<4x8xf16>
// CHECK-NEXT: brrr.layer_norm %arg0, %{{.+}} {axis = 1 : i64, epsilon = 0.0010004043579101563 : f64, l2}
// CHECK-NEXT: return
func.func @normalize_widened_clip(%x: tensor<5x4x8xf16>) -> tensor<5x4x8xf16> {
  %xf = brrr.cast %x : tensor<5x4x8xf16> -> tensor<5x4x8xf32>
  %sq = brrr.mul %xf, %xf : tensor<5x4x8xf32>, tensor<5x4x8xf32> -> tensor<5x4x8xf32>
  %s = brrr.reduce sum %sq {axes = array<i64: 1, 2>, keepdims = true} : tensor<5x4x8xf32> -> tensor<5x1x1xf32>
  %n = brrr.sqrt %s : tensor<5x1x1xf32>
  %h = brrr.cast %n : tensor<5x1x1xf32> -> tensor<5x1x1xf16>
  %c = brrr.clip %h {min = 0.001 : f64} : tensor<5x1x1xf16>
  %y = brrr.div %x, %c : tensor<5x4x8xf16>, tensor<5x1x1xf16> -> tensor<5x4x8xf16>
  return %y : tensor<5x4x8xf16>
}

// -----

// Not an L2 normalization, left as written: a sum over a leading axis,
// squares of another value, a clamp by a value that is not a constant,
// a mean of squares (the RMS norm's), f64 rows (the row kernel computes in
// f32).
// CHECK-LABEL: func.func @not_normalize
// CHECK-NOT: brrr.layer_norm
// CHECK: return
func.func @not_normalize(%x: tensor<4x8xf32>, %z: tensor<4x8xf32>, %k: tensor<f32>, %w: tensor<4x8xf64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf64>) {
  %sq = brrr.mul %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %s0 = brrr.reduce sum %sq {axes = array<i64: 0>, keepdims = true} : tensor<4x8xf32> -> tensor<1x8xf32>
  %n0 = brrr.sqrt %s0 : tensor<1x8xf32>
  %y0 = brrr.div %x, %n0 : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %s1 = brrr.reduce sum %sq {axes = array<i64: 1>, keepdims = true} : tensor<4x8xf32> -> tensor<4x1xf32>
  %n1 = brrr.sqrt %s1 : tensor<4x1xf32>
  %y1 = brrr.div %z, %n1 : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %c2 = brrr.max %n1, %k : tensor<4x1xf32>, tensor<f32> -> tensor<4x1xf32>
  %y2 = brrr.div %x, %c2 : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %m3 = brrr.reduce mean %sq {axes = array<i64: 1>, keepdims = true} : tensor<4x8xf32> -> tensor<4x1xf32>
  %n3 = brrr.sqrt %m3 : tensor<4x1xf32>
  %y3 = brrr.div %x, %n3 : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %sq4 = brrr.mul %w, %w : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %s4 = brrr.reduce sum %sq4 {axes = array<i64: 1>, keepdims = true} : tensor<4x8xf64> -> tensor<4x1xf64>
  %n4 = brrr.sqrt %s4 : tensor<4x1xf64>
  %y4 = brrr.div %w, %n4 : tensor<4x8xf64>, tensor<4x1xf64> -> tensor<4x8xf64>
  return %y0, %y1, %y2, %y3, %y4 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf64>
}
