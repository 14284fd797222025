// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-patchify-convs))' | FileCheck %s

// ViT's patch embedding (2 x 2 patches here): the image's patches times the
// weights packed as [C * kh * kw, O] (w[o, c, i, j] at row (c * kh + i) *
// kw + j), plus the bias; the flatten to tokens after it cancels against
// the transpose back to [N, O, Ho, Wo].
// CHECK-LABEL: func.func @patch_embedding
// CHECK-DAG: %[[W:.+]] = brrr.constant dense<{{\[}}[0.000000e+00, 4.000000e+00], [1.000000e+00, 5.000000e+00], [2.000000e+00, 6.000000e+00], [3.000000e+00, 7.000000e+00]]> : tensor<4x2xf32>
// CHECK: %[[R:.+]] = brrr.reshape %arg0 : tensor<3x1x4x6xf32> -> tensor<3x1x2x2x3x2xf32>
// CHECK: %[[T:.+]] = brrr.transpose %[[R]] {perm = array<i64: 0, 2, 4, 1, 3, 5>} : tensor<3x1x2x2x3x2xf32> -> tensor<3x2x3x1x2x2xf32>
// CHECK: %[[P:.+]] = brrr.reshape %[[T]] : tensor<3x2x3x1x2x2xf32> -> tensor<3x6x4xf32>
// CHECK: %[[M:.+]] = brrr.matmul %[[P]], %[[W]] : tensor<3x6x4xf32>, tensor<4x2xf32> -> tensor<3x6x2xf32>
// CHECK: %[[A:.+]] = brrr.add %[[M]], %arg1 : tensor<3x6x2xf32>, tensor<2xf32> -> tensor<3x6x2xf32>
// CHECK-NOT: brrr.transpose
// CHECK-NOT: brrr.conv2d
// CHECK: return %[[A]]
func.func @patch_embedding(%x: tensor<3x1x4x6xf32>, %b: tensor<2xf32>) -> tensor<3x6x2xf32> {
  %w = brrr.constant dense<[[[[0.0, 1.0], [2.0, 3.0]]], [[[4.0, 5.0], [6.0, 7.0]]]]> : tensor<2x1x2x2xf32>
  %c = brrr.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x1x4x6xf32>, tensor<2x1x2x2xf32>, tensor<2xf32>) -> tensor<3x2x2x3xf32>
  %r = brrr.reshape %c : tensor<3x2x2x3xf32> -> tensor<3x2x6xf32>
  %t = brrr.transpose %r {perm = array<i64: 0, 2, 1>} : tensor<3x2x6xf32> -> tensor<3x6x2xf32>
  return %t : tensor<3x6x2xf32>
}

// -----

// Overlapping windows, padding, dilation, groups, a kernel that does not
// divide the image, too many channels, or varying weights: convolutions.
// CHECK-LABEL: func.func @convolutions_stay
// CHECK-COUNT-7: brrr.conv2d
// CHECK-NOT: brrr.matmul
func.func @convolutions_stay(%x: tensor<1x2x8x8xf16>, %x9: tensor<1x2x9x8xf16>, %x16: tensor<1x16x8x8xf16>, %wv: tensor<4x2x2x2xf16>) -> (tensor<1x4x4x4xf16>, tensor<1x4x5x5xf16>, tensor<1x4x3x3xf16>, tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>) {
  %w = brrr.constant dense<1.0> : tensor<4x2x2x2xf16>
  %wg = brrr.constant dense<1.0> : tensor<4x1x2x2xf16>
  %w16 = brrr.constant dense<1.0> : tensor<4x16x2x2xf16>
  %0 = brrr.conv2d %x, %w {strides = array<i64: 2, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x8x8xf16>, tensor<4x2x2x2xf16>) -> tensor<1x4x4x7xf16>
  %1 = brrr.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x8x8xf16>, tensor<4x2x2x2xf16>) -> tensor<1x4x5x5xf16>
  %2 = brrr.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x2x8x8xf16>, tensor<4x2x2x2xf16>) -> tensor<1x4x3x3xf16>
  %3 = brrr.conv2d %x, %wg {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x2x8x8xf16>, tensor<4x1x2x2xf16>) -> tensor<1x4x4x4xf16>
  %4 = brrr.conv2d %x9, %w {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x9x8xf16>, tensor<4x2x2x2xf16>) -> tensor<1x4x4x4xf16>
  %5 = brrr.conv2d %x16, %w16 {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x8x8xf16>, tensor<4x16x2x2xf16>) -> tensor<1x4x4x4xf16>
  %6 = brrr.conv2d %x, %wv {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x8x8xf16>, tensor<4x2x2x2xf16>) -> tensor<1x4x4x4xf16>
  %s = brrr.slice %0 {sizes = array<i64: 1, 4, 4, 4>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<1x4x4x7xf16> -> tensor<1x4x4x4xf16>
  return %s, %1, %2, %3, %4, %5, %6 : tensor<1x4x4x4xf16>, tensor<1x4x5x5xf16>, tensor<1x4x3x3xf16>, tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>
}
