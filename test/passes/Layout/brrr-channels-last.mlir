// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-channels-last))' | FileCheck %s

// A ResNet basic block in f16: both convolutions run channels-last, the
// ReLU and the residual add move with them, and only the block's edges
// keep a transpose. The weights are packed to KH x KW x O x I at compile
// time.
// CHECK-LABEL: func.func @BasicBlock
// CHECK-SAME: (%[[X:.+]]: tensor<2x64x14x14xf16>)
// CHECK: %[[XL:.+]] = brrr.transpose %[[X]] {perm = array<i64: 0, 2, 3, 1>} : tensor<2x64x14x14xf16> -> tensor<2x14x14x64xf16>
// CHECK-NOT: brrr.transpose
// CHECK: %[[C1:.+]] = brrr.conv2d %[[XL]], %{{.+}}, %{{.+}} {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x14x14x64xf16>, tensor<3x3x64x64xf16>, tensor<64xf16>) -> tensor<2x14x14x64xf16>
// CHECK: %[[R1:.+]] = brrr.relu %[[C1]] : tensor<2x14x14x64xf16>
// CHECK: %[[C2:.+]] = brrr.conv2d %[[R1]], %{{.+}}, %{{.+}} {channels_last
// CHECK: %[[S:.+]] = brrr.add %[[C2]], %[[XL]] : tensor<2x14x14x64xf16>, tensor<2x14x14x64xf16> -> tensor<2x14x14x64xf16>
// CHECK: %[[R2:.+]] = brrr.relu %[[S]] : tensor<2x14x14x64xf16>
// CHECK: %[[Y:.+]] = brrr.transpose %[[R2]] {perm = array<i64: 0, 3, 1, 2>} : tensor<2x14x14x64xf16> -> tensor<2x64x14x14xf16>
// CHECK: return %[[Y]]
// CHECK-NOT: brrr.transpose
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @BasicBlock(%x: tensor<2x64x14x14xf16>) -> tensor<2x64x14x14xf16> {
  %w1 = brrr.constant dense<1.0> : tensor<64x64x3x3xf16>
  %b1 = brrr.constant dense<0.5> : tensor<64xf16>
  %w2 = brrr.constant dense<2.0> : tensor<64x64x3x3xf16>
  %b2 = brrr.constant dense<0.25> : tensor<64xf16>
  %c1 = brrr.conv2d %x, %w1, %b1 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x64x14x14xf16>, tensor<64x64x3x3xf16>, tensor<64xf16>) -> tensor<2x64x14x14xf16>
  %r1 = brrr.relu %c1 : tensor<2x64x14x14xf16>
  %c2 = brrr.conv2d %r1, %w2, %b2 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x64x14x14xf16>, tensor<64x64x3x3xf16>, tensor<64xf16>) -> tensor<2x64x14x14xf16>
  %s = brrr.add %c2, %x : tensor<2x64x14x14xf16>, tensor<2x64x14x14xf16> -> tensor<2x64x14x14xf16>
  %r2 = brrr.relu %s : tensor<2x64x14x14xf16>
  return %r2 : tensor<2x64x14x14xf16>
}
}

// -----

// The packed weights are the OIHW weights permuted: w'[kh][kw][o][i] =
// w[o][i][kh][kw]. A per-channel constant and a scalar follow the layout.
// CHECK-LABEL: func.func @PackAndConstants
// CHECK-DAG: %[[K:.+]] = brrr.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00]]]]> : tensor<1x1x1x2xf16>
// CHECK-DAG: %[[W:.+]] = brrr.constant dense<{{\[\[\[\[}}0.000000e+00, 0.000000e+00, {{.*}}], [2.000000e+00, {{.*}}]], {{\[\[}}1.000000e+00, {{.*}}], [3.000000e+00, {{.*}}]]]]> : tensor<1x2x2x16xf16>
// CHECK: %[[C:.+]] = brrr.conv2d %{{.+}}, %[[W]] {channels_last{{.+}} : (tensor<1x4x4x16xf16>, tensor<1x2x2x16xf16>) -> tensor<1x4x4x2xf16>
// CHECK: %[[M:.+]] = brrr.mul %[[C]], %[[K]] : tensor<1x4x4x2xf16>, tensor<1x1x1x2xf16>
// CHECK: %[[A:.+]] = brrr.add %[[M]], %{{.+}} : tensor<1x4x4x2xf16>, tensor<f16>
// CHECK: brrr.transpose %[[A]] {perm = array<i64: 0, 3, 1, 2>}
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @PackAndConstants(%x: tensor<1x16x4x4xf16>) -> tensor<1x2x4x4xf16> {
  %w = brrr.constant dense<[[[[0.0, 1.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]]], [[[2.0, 3.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0]]]]> : tensor<2x16x1x2xf16>
  %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 1>, strides = array<i64: 1, 1>} : (tensor<1x16x4x4xf16>, tensor<2x16x1x2xf16>) -> tensor<1x2x4x4xf16>
  %k = brrr.constant dense<[[[[1.0]], [[2.0]]]]> : tensor<1x2x1x1xf16>
  %h = brrr.constant dense<0.5> : tensor<f16>
  %m = brrr.mul %c, %k : tensor<1x2x4x4xf16>, tensor<1x2x1x1xf16> -> tensor<1x2x4x4xf16>
  %a = brrr.add %m, %h : tensor<1x2x4x4xf16>, tensor<f16> -> tensor<1x2x4x4xf16>
  return %a : tensor<1x2x4x4xf16>
}
}

// -----

// ConvNeXt's block: a depthwise convolution, the NHWC part of the block
// (here one add), the layer scale as a [C, 1, 1] constant multiplying the
// NCHW view, and the residual add of the block's input. Constants of
// fewer dimensions than the view are rewritten NHWC at compile time
// (gamma[c] at [0, 0, 0, c]; a [C, H, W] one permuted), so the block's
// output stays NHWC: the residual stream needs one NHWC copy of the input
// and one transpose back at the end, none between blocks.
// CHECK-LABEL: func.func @LayerScale
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x2x2xf16>)
// CHECK-DAG: %[[G:.+]] = brrr.constant dense<{{\[\[\[\[}}5.000000e-01, 2.000000e+00]]]]> : tensor<1x1x1x2xf16>
// CHECK-DAG: %[[P:.+]] = brrr.constant dense<{{\[\[\[\[}}1.000000e+00, 5.000000e+00], [2.000000e+00, 6.000000e+00]], {{\[\[}}3.000000e+00, 7.000000e+00], [4.000000e+00, 8.000000e+00]]]]> : tensor<1x2x2x2xf16>
// CHECK: %[[XL:.+]] = brrr.transpose %[[X]] {perm = array<i64: 0, 2, 3, 1>}
// CHECK: %[[C:.+]] = brrr.conv2d %[[XL]]
// CHECK: %[[M:.+]] = brrr.mul %[[C]], %[[G]] : tensor<1x2x2x2xf16>, tensor<1x1x1x2xf16>
// CHECK: %[[Q:.+]] = brrr.mul %[[M]], %[[P]] : tensor<1x2x2x2xf16>, tensor<1x2x2x2xf16>
// CHECK: %[[A:.+]] = brrr.add %[[Q]], %[[XL]] : tensor<1x2x2x2xf16>, tensor<1x2x2x2xf16>
// CHECK: %[[C2:.+]] = brrr.conv2d %[[A]]
// CHECK: %[[A2:.+]] = brrr.add %[[C2]], %[[A]]
// CHECK: %[[OUT:.+]] = brrr.transpose %[[A2]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK: return %[[OUT]]
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @LayerScale(%x: tensor<1x2x2x2xf16>) -> tensor<1x2x2x2xf16> {
  %w = brrr.constant dense<1.0> : tensor<2x1x3x3xf16>
  %g = brrr.constant dense<[[[0.5]], [[2.0]]]> : tensor<2x1x1xf16>
  %p = brrr.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf16>
  %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x2x2xf16>, tensor<2x1x3x3xf16>) -> tensor<1x2x2x2xf16>
  %m = brrr.mul %g, %c : tensor<2x1x1xf16>, tensor<1x2x2x2xf16> -> tensor<1x2x2x2xf16>
  %q = brrr.mul %m, %p : tensor<1x2x2x2xf16>, tensor<2x2x2xf16> -> tensor<1x2x2x2xf16>
  %a = brrr.add %q, %x : tensor<1x2x2x2xf16>, tensor<1x2x2x2xf16> -> tensor<1x2x2x2xf16>
  %c2 = brrr.conv2d %a, %w {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x2x2xf16>, tensor<2x1x3x3xf16>) -> tensor<1x2x2x2xf16>
  %a2 = brrr.add %c2, %a : tensor<1x2x2x2xf16>, tensor<1x2x2x2xf16> -> tensor<1x2x2x2xf16>
  return %a2 : tensor<1x2x2x2xf16>
}
}

// -----

// Left NCHW: f32 products, and grouped convolutions whose groups are
// neither whole 16-byte chunks of channels (the wgmma body) nor narrow
// enough for the direct body (12 channels a group here).
// CHECK-LABEL: func.func @Kept
// CHECK-NOT: channels_last
// CHECK-NOT: brrr.transpose
// CHECK: return
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @Kept(%x: tensor<1x8x4x4xf32>, %y: tensor<1x24x4x4xf16>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf16>) {
  %w = brrr.constant dense<1.0> : tensor<8x8x1x1xf32>
  %a = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %wg = brrr.constant dense<1.0> : tensor<8x12x1x1xf16>
  %b = brrr.conv2d %y, %wg {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x24x4x4xf16>, tensor<8x12x1x1xf16>) -> tensor<1x8x4x4xf16>
  return %a, %b : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf16>
}
}

// -----

// Depthwise and narrow-group convolutions (the direct body) run
// channels-last too, with their channels as they are (no padding to 16)
// and the weights packed to KH x KW x O x I/G: the depthwise [24][1][3][3]
// to 3 x 3 x 24 x 1, the 4-channel groups [12][4][1][1] to 1 x 1 x 12 x 4.
// Between them the layout stays NHWC.
// CHECK-LABEL: func.func @Direct
// CHECK: %[[X:.+]] = brrr.transpose %{{.+}} {perm = array<i64: 0, 2, 3, 1>} : tensor<1x24x5x5xf16> -> tensor<1x5x5x24xf16>
// CHECK: %[[D:.+]] = brrr.conv2d %[[X]], %{{.+}} {channels_last{{.+}}groups = 24{{.+}} : (tensor<1x5x5x24xf16>, tensor<3x3x24x1xf16>) -> tensor<1x5x5x24xf16>
// CHECK: %[[R:.+]] = brrr.relu %[[D]] : tensor<1x5x5x24xf16>
// CHECK: %[[G:.+]] = brrr.conv2d %[[R]], %{{.+}} {channels_last{{.+}}groups = 6{{.+}} : (tensor<1x5x5x24xf16>, tensor<1x1x12x4xf16>) -> tensor<1x5x5x12xf16>
// CHECK: brrr.transpose %[[G]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK-NOT: brrr.transpose
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @Direct(%x: tensor<1x24x5x5xf16>) -> tensor<1x12x5x5xf16> {
  %wd = brrr.constant dense<0.5> : tensor<24x1x3x3xf16>
  %d = brrr.conv2d %x, %wd {dilations = array<i64: 1, 1>, groups = 24 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x24x5x5xf16>, tensor<24x1x3x3xf16>) -> tensor<1x24x5x5xf16>
  %r = brrr.relu %d : tensor<1x24x5x5xf16>
  %wg = brrr.constant dense<0.25> : tensor<12x4x1x1xf16>
  %g = brrr.conv2d %r, %wg {dilations = array<i64: 1, 1>, groups = 6 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x24x5x5xf16>, tensor<12x4x1x1xf16>) -> tensor<1x12x5x5xf16>
  return %g : tensor<1x12x5x5xf16>
}
}

// -----

// Groups of 64 input channels and 128 outputs run channels-last (the
// wgmma body takes one group per tile): the OIHW weights [256][64][3][3]
// pack to KH x KW x O x I/G = 3 x 3 x 256 x 64, no channel padding.
// CHECK-LABEL: func.func @Grouped
// CHECK: %[[XL:.+]] = brrr.transpose %arg0 {perm = array<i64: 0, 2, 3, 1>} : tensor<1x128x8x8xf16> -> tensor<1x8x8x128xf16>
// CHECK: %[[WL:.+]] = brrr.transpose %arg1 {perm = array<i64: 2, 3, 0, 1>} : tensor<256x64x3x3xf16> -> tensor<3x3x256x64xf16>
// CHECK: brrr.conv2d %[[XL]], %[[WL]] {channels_last, dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x8x128xf16>, tensor<3x3x256x64xf16>) -> tensor<1x8x8x256xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @Grouped(%x: tensor<1x128x8x8xf16>, %w: tensor<256x64x3x3xf16>) -> tensor<1x256x8x8xf16> {
  %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x128x8x8xf16>, tensor<256x64x3x3xf16>) -> tensor<1x256x8x8xf16>
  return %c : tensor<1x256x8x8xf16>
}
}

// -----

// A stem over 3 channels: rows of channels are padded with zeros to 16
// (whole 32-byte pixels), the input by a pad after its transpose, the
// constant weights when they are packed (w'[kh][kw][o][i] =
// w[o][i][kh][kw], 0 for i >= 3). The max pool after it runs
// channels-last, and a global average pool of its result reduces H and W
// of the NHWC tensor (one channel: the same tensor in both layouts).
// CHECK-LABEL: func.func @StemAndPool
// CHECK-DAG: %[[W:.+]] = brrr.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]]]> : tensor<1x1x1x16xf16>
// CHECK: %[[XT:.+]] = brrr.transpose %arg0 {perm = array<i64: 0, 2, 3, 1>} : tensor<2x3x6x6xf16> -> tensor<2x6x6x3xf16>
// CHECK: %[[XP:.+]] = brrr.pad constant %[[XT]] {high = array<i64: 0, 0, 0, 13>, low = array<i64: 0, 0, 0, 0>, value = 0.000000e+00 : f64} : tensor<2x6x6x3xf16> -> tensor<2x6x6x16xf16>
// CHECK: %[[C:.+]] = brrr.conv2d %[[XP]], %[[W]] {channels_last{{.+}} -> tensor<2x6x6x1xf16>
// CHECK: %[[R:.+]] = brrr.relu %[[C]]
// CHECK: %[[P:.+]] = brrr.max_pool2d %[[R]] {ceil_mode = false, channels_last, count_include_pad = false, {{.+}}} : tensor<2x6x6x1xf16> -> tensor<2x3x3x1xf16>
// CHECK: %[[M:.+]] = brrr.reduce mean %[[P]] {axes = array<i64: 1, 2>, keepdims = true} : tensor<2x3x3x1xf16> -> tensor<2x1x1x1xf16>
// CHECK: return %[[M]]
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @StemAndPool(%x: tensor<2x3x6x6xf16>) -> tensor<2x1x1x1xf16> {
  %w = brrr.constant dense<[[[[1.0]], [[2.0]], [[3.0]]]]> : tensor<1x3x1x1xf16>
  %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x3x6x6xf16>, tensor<1x3x1x1xf16>) -> tensor<2x1x6x6xf16>
  %r = brrr.relu %c : tensor<2x1x6x6xf16>
  %p = brrr.max_pool2d %r {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<2x1x6x6xf16> -> tensor<2x1x3x3xf16>
  %m = brrr.reduce mean %p {axes = array<i64: 2, 3>, keepdims = true} : tensor<2x1x3x3xf16> -> tensor<2x1x1x1xf16>
  return %m : tensor<2x1x1x1xf16>
}
}

// -----

// CHECK-LABEL: func.func @OtherTarget
// CHECK-NOT: channels_last
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
func.func @OtherTarget(%y: tensor<1x8x4x4xf16>) -> tensor<1x8x4x4xf16> {
  %w = brrr.constant dense<1.0> : tensor<8x8x1x1xf16>
  %b = brrr.conv2d %y, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x8x4x4xf16>, tensor<8x8x1x1xf16>) -> tensor<1x8x4x4xf16>
  return %b : tensor<1x8x4x4xf16>
}
}

// -----

// A global average pool over an NCHW view reduces H and W of the NHWC
// tensor; its N x 1 x 1 x C result is the N x C x 1 x 1 one reshaped (only
// size-1 dimensions move).
// CHECK-LABEL: func.func @GlobalPool
// CHECK: %[[C:.+]] = brrr.conv2d {{.+}}channels_last{{.+}} -> tensor<2x6x6x2xf16>
// CHECK: %[[M:.+]] = brrr.reduce mean %[[C]] {axes = array<i64: 1, 2>, keepdims = true} : tensor<2x6x6x2xf16> -> tensor<2x1x1x2xf16>
// CHECK: %[[Y:.+]] = brrr.reshape %[[M]] : tensor<2x1x1x2xf16> -> tensor<2x2x1x1xf16>
// CHECK: return %[[Y]]
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @GlobalPool(%x: tensor<2x16x6x6xf16>) -> tensor<2x2x1x1xf16> {
  %w = brrr.constant dense<0.5> : tensor<2x16x1x1xf16>
  %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x16x6x6xf16>, tensor<2x16x1x1xf16>) -> tensor<2x2x6x6xf16>
  %m = brrr.reduce mean %c {axes = array<i64: 2, 3>, keepdims = true} : tensor<2x2x6x6xf16> -> tensor<2x2x1x1xf16>
  return %m : tensor<2x2x1x1xf16>
}
}

// -----

// A stem with constant weights (stride 2 over 3 channels) runs space to
// depth: the input is padded to 2 (OH - 1 + ceil(K/2)) = 12 rows and
// columns, each 2 x 2 block of pixels becomes one cell of 12 channels
// (padded to 16), and the 3 x 3 window a 2 x 2 window of cells. The two
// cells of a window row lie side by side in the channels (two slices of
// the cells, one column apart, concatenated), so the convolution is 2 x 1
// over 32 channels at stride 1 without padding, its weights
// w'[kh'][0][o][16 kw' + (dy * 2 + dx) * 3 + c] = w[o][c][2 kh' + dy][2 kw'
// + dx].
// CHECK-LABEL: func.func @SpaceToDepthStem
// CHECK: %[[W:.+]] = brrr.constant dense_resource<space_to_depth_weight> : tensor<2x1x2x32xf16>
// CHECK: %[[XT:.+]] = brrr.transpose %arg0 {perm = array<i64: 0, 2, 3, 1>} : tensor<1x3x9x9xf16> -> tensor<1x9x9x3xf16>
// CHECK: %[[XP:.+]] = brrr.pad constant %[[XT]] {high = array<i64: 0, 2, 2, 0>, low = array<i64: 0, 1, 1, 0>, value = 0.000000e+00 : f64} : tensor<1x9x9x3xf16> -> tensor<1x12x12x3xf16>
// CHECK: %[[R6:.+]] = brrr.reshape %[[XP]] : tensor<1x12x12x3xf16> -> tensor<1x6x2x6x2x3xf16>
// CHECK: %[[T6:.+]] = brrr.transpose %[[R6]] {perm = array<i64: 0, 1, 3, 2, 4, 5>} : tensor<1x6x2x6x2x3xf16> -> tensor<1x6x6x2x2x3xf16>
// CHECK: %[[S:.+]] = brrr.reshape %[[T6]] : tensor<1x6x6x2x2x3xf16> -> tensor<1x6x6x12xf16>
// CHECK: %[[SP:.+]] = brrr.pad constant %[[S]] {high = array<i64: 0, 0, 0, 4>, {{.+}}} : tensor<1x6x6x12xf16> -> tensor<1x6x6x16xf16>
// CHECK: %[[L:.+]] = brrr.slice %[[SP]] {sizes = array<i64: 1, 6, 5, 16>, starts = array<i64: 0, 0, 0, 0>, {{.+}}} : tensor<1x6x6x16xf16> -> tensor<1x6x5x16xf16>
// CHECK: %[[R:.+]] = brrr.slice %[[SP]] {sizes = array<i64: 1, 6, 5, 16>, starts = array<i64: 0, 0, 1, 0>, {{.+}}} : tensor<1x6x6x16xf16> -> tensor<1x6x5x16xf16>
// CHECK: %[[ROW:.+]] = brrr.concat %[[L]], %[[R]] {axis = 3 : i64} : (tensor<1x6x5x16xf16>, tensor<1x6x5x16xf16>) -> tensor<1x6x5x32xf16>
// CHECK: brrr.conv2d %[[ROW]], %[[W]] {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x6x5x32xf16>, tensor<2x1x2x32xf16>) -> tensor<1x5x5x2xf16>
// The packed weights: row 0 of output channel 0 holds w[0][c][dy][dx] =
// 1 + c + 10 dy + 20 dx at channel (dy * 2 + dx) * 3 + c of the first cell
// (f16 bytes: 1, 2, 3, 21, 22, 23, 11, 12, 13, 31, 32, 33, then 4 zeros),
// and the window's third column (dx = 0 of the second cell) at 16 + dy * 6
// + c (41, 42, 43, three zeros, 51, 52, 53, then zeros).
// CHECK: space_to_depth_weight: "0x08000000003C00400042404D804DC04D8049004A804AC04F00502050000000000000000020514051605100000000000060528052A052000000000000000000000000
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @SpaceToDepthStem(%x: tensor<1x3x9x9xf16>) -> tensor<1x2x5x5xf16> {
  %w = brrr.constant dense<[[[[1.0, 21.0, 41.0], [11.0, 31.0, 51.0], [21.0, 41.0, 61.0]], [[2.0, 22.0, 42.0], [12.0, 32.0, 52.0], [22.0, 42.0, 62.0]], [[3.0, 23.0, 43.0], [13.0, 33.0, 53.0], [23.0, 43.0, 63.0]]], [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<2x3x3x3xf16>
  %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x9x9xf16>, tensor<2x3x3x3xf16>) -> tensor<1x2x5x5xf16>
  return %c : tensor<1x2x5x5xf16>
}
}

// -----

// A squeeze-and-excitation block: the second convolution reads 4 channels
// padded to 16 (TMA's 16-byte rows). The first computes the 12 padded
// channels itself instead, with zero weights and bias (its weights widen
// to O = 16, the first 4 x 16 of them its own), the SiLU runs on all 16,
// and the pad goes: the second convolution's weights are zero there, and
// SiLU keeps a zero finite. x * sigmoid(x) is a SiLU too.
// CHECK-LABEL: func.func @SqueezeExcite
// CHECK-NOT: brrr.pad
// CHECK: %[[B1:.+]] = brrr.constant dense<[2.500000e-01, 2.500000e-01, 2.500000e-01, 2.500000e-01, 0.000000e+00, {{.+}}]> : tensor<16xf16>
// CHECK: %[[C1:.+]] = brrr.conv2d %{{.+}}, %{{.+}}, %[[B1]] {channels_last{{.+}} : (tensor<1x1x1x16xf16>, tensor<1x1x16x16xf16>, tensor<16xf16>) -> tensor<1x1x1x16xf16>
// CHECK: %[[S:.+]] = brrr.silu %[[C1]] : tensor<1x1x1x16xf16>
// CHECK: brrr.conv2d %[[S]], %{{.+}}, %{{.+}} {channels_last{{.+}} : (tensor<1x1x1x16xf16>, tensor<1x1x16x16xf16>, tensor<16xf16>) -> tensor<1x1x1x16xf16>
// CHECK: %[[D1:.+]] = brrr.conv2d {{.+}} -> tensor<1x1x1x16xf16>
// CHECK: %[[G:.+]] = brrr.sigmoid %[[D1]] : tensor<1x1x1x16xf16>
// CHECK: %[[M:.+]] = brrr.mul %[[D1]], %[[G]] : tensor<1x1x1x16xf16>, tensor<1x1x1x16xf16> -> tensor<1x1x1x16xf16>
// CHECK: brrr.conv2d %[[M]], {{.+}} : (tensor<1x1x1x16xf16>, tensor<1x1x16x16xf16>, tensor<16xf16>) -> tensor<1x1x1x16xf16>
// CHECK-NOT: brrr.pad
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @SqueezeExcite(%x: tensor<1x16x3x3xf16>) -> (tensor<1x16x3x3xf16>, tensor<1x16x1x1xf16>) {
  %w1 = brrr.constant dense<0.5> : tensor<4x16x1x1xf16>
  %b1 = brrr.constant dense<0.25> : tensor<4xf16>
  %w2 = brrr.constant dense<2.0> : tensor<16x4x1x1xf16>
  %b2 = brrr.constant dense<1.0> : tensor<16xf16>
  %m = brrr.reduce mean %x {axes = array<i64: 2, 3>, keepdims = true} : tensor<1x16x3x3xf16> -> tensor<1x16x1x1xf16>
  %c1 = brrr.conv2d %m, %w1, %b1 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x16x1x1xf16>, tensor<4x16x1x1xf16>, tensor<4xf16>) -> tensor<1x4x1x1xf16>
  %s = brrr.silu %c1 : tensor<1x4x1x1xf16>
  %c2 = brrr.conv2d %s, %w2, %b2 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x1x1xf16>, tensor<16x4x1x1xf16>, tensor<16xf16>) -> tensor<1x16x1x1xf16>
  %g = brrr.sigmoid %c2 : tensor<1x16x1x1xf16>
  %y = brrr.mul %x, %g : tensor<1x16x3x3xf16>, tensor<1x16x1x1xf16> -> tensor<1x16x3x3xf16>
  %d1 = brrr.conv2d %m, %w1, %b1 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x16x1x1xf16>, tensor<4x16x1x1xf16>, tensor<4xf16>) -> tensor<1x4x1x1xf16>
  %dg = brrr.sigmoid %d1 : tensor<1x4x1x1xf16>
  %ds = brrr.mul %d1, %dg : tensor<1x4x1x1xf16>, tensor<1x4x1x1xf16> -> tensor<1x4x1x1xf16>
  %d2 = brrr.conv2d %ds, %w2, %b2 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x1x1xf16>, tensor<16x4x1x1xf16>, tensor<16xf16>) -> tensor<1x16x1x1xf16>
  return %y, %d2 : tensor<1x16x3x3xf16>, tensor<1x16x1x1xf16>
}
}

// -----

// The pad stays where the padded channels could not cancel, a reciprocal
// making 1 / 0 of a zero channel; where the narrow tensor has other
// readers, the ReLU's 4 channels also being a result; and where the
// convolution's weights are no constant to widen.
// CHECK-LABEL: func.func @PadsThatStay
// CHECK: brrr.conv2d {{.+}} -> tensor<1x1x1x4xf16>
// CHECK: brrr.reciprocal
// CHECK: brrr.pad constant {{.+}} : tensor<1x1x1x4xf16> -> tensor<1x1x1x16xf16>
// CHECK: brrr.conv2d {{.+}} -> tensor<1x1x1x4xf16>
// CHECK: brrr.relu
// CHECK: brrr.pad constant {{.+}} : tensor<1x1x1x4xf16> -> tensor<1x1x1x16xf16>
// CHECK: brrr.conv2d {{.+}} -> tensor<1x1x1x4xf16>
// CHECK: brrr.silu
// CHECK: brrr.pad constant {{.+}} : tensor<1x1x1x4xf16> -> tensor<1x1x1x16xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @PadsThatStay(%m: tensor<1x16x1x1xf16>, %wv: tensor<4x16x1x1xf16>) -> (tensor<1x16x1x1xf16>, tensor<1x16x1x1xf16>, tensor<1x4x1x1xf16>, tensor<1x16x1x1xf16>) {
  %w1 = brrr.constant dense<0.5> : tensor<4x16x1x1xf16>
  %w2 = brrr.constant dense<2.0> : tensor<16x4x1x1xf16>
  %c1 = brrr.conv2d %m, %w1 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x16x1x1xf16>, tensor<4x16x1x1xf16>) -> tensor<1x4x1x1xf16>
  %r = brrr.reciprocal %c1 : tensor<1x4x1x1xf16>
  %c2 = brrr.conv2d %r, %w2 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x1x1xf16>, tensor<16x4x1x1xf16>) -> tensor<1x16x1x1xf16>
  %d1 = brrr.conv2d %m, %w1 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x16x1x1xf16>, tensor<4x16x1x1xf16>) -> tensor<1x4x1x1xf16>
  %dr = brrr.relu %d1 : tensor<1x4x1x1xf16>
  %d2 = brrr.conv2d %dr, %w2 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x1x1xf16>, tensor<16x4x1x1xf16>) -> tensor<1x16x1x1xf16>
  %e1 = brrr.conv2d %m, %wv {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x16x1x1xf16>, tensor<4x16x1x1xf16>) -> tensor<1x4x1x1xf16>
  %es = brrr.silu %e1 : tensor<1x4x1x1xf16>
  %e2 = brrr.conv2d %es, %w2 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x1x1xf16>, tensor<16x4x1x1xf16>) -> tensor<1x16x1x1xf16>
  return %c2, %d2, %dr, %e2 : tensor<1x16x1x1xf16>, tensor<1x16x1x1xf16>, tensor<1x4x1x1xf16>, tensor<1x16x1x1xf16>
}
}

// -----

// Groups of 16 channels (whole 16-byte chunks) run the wgmma body padded:
// channels-last, the weights packed per group (KH x KW x O x 16).
// CHECK-LABEL: func.func @PaddedGroups
// CHECK: brrr.conv2d {{.*}}channels_last{{.*}}groups = 2 : i64{{.*}}(tensor<1x4x4x32xf16>, tensor<1x1x8x16xf16>) -> tensor<1x4x4x8xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @PaddedGroups(%y: tensor<1x32x4x4xf16>) -> tensor<1x8x4x4xf16> {
  %wg = brrr.constant dense<1.0> : tensor<8x16x1x1xf16>
  %b = brrr.conv2d %y, %wg {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x4x4xf16>, tensor<8x16x1x1xf16>) -> tensor<1x8x4x4xf16>
  return %b : tensor<1x8x4x4xf16>
}
}

// -----

// A ShuffleNetV2 block after a convolution: the layout travels through the
// split of the channels (two slices), the concatenation and the channel
// shuffle (reshape, transpose, reshape: moved to the channels' own
// factors, N x H x W x 2 x 12), so only the block's edges keep a transpose.
// The branch's 12 channels pad to 16 for the first 1x1 convolution; the
// depthwise convolution computes the second one's padding itself, with the
// 1x1 before it (both widen to 16 channels, zero weights and bias).
// CHECK-LABEL: func.func @ShuffleBlock
// CHECK: %[[C0:.+]] = brrr.conv2d {{.+}} -> tensor<1x4x4x24xf16>
// CHECK: %[[R0:.+]] = brrr.relu %[[C0]]
// CHECK-DAG: %[[X1:.+]] = brrr.slice %[[R0]] {sizes = array<i64: 1, 4, 4, 12>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<1x4x4x24xf16> -> tensor<1x4x4x12xf16>
// CHECK-DAG: %[[X2:.+]] = brrr.slice %[[R0]] {sizes = array<i64: 1, 4, 4, 12>, starts = array<i64: 0, 0, 0, 12>, steps = array<i64: 1, 1, 1, 1>} : tensor<1x4x4x24xf16> -> tensor<1x4x4x12xf16>
// CHECK: %[[P:.+]] = brrr.pad constant %[[X2]] {{.+}} : tensor<1x4x4x12xf16> -> tensor<1x4x4x16xf16>
// CHECK: %[[C1:.+]] = brrr.conv2d %[[P]], {{.+}} : (tensor<1x4x4x16xf16>, tensor<1x1x16x16xf16>, tensor<16xf16>) -> tensor<1x4x4x16xf16>
// CHECK: %[[R1:.+]] = brrr.relu %[[C1]] : tensor<1x4x4x16xf16>
// CHECK: %[[D:.+]] = brrr.conv2d %[[R1]], {{.+}}groups = 16 : i64{{.+}} : (tensor<1x4x4x16xf16>, tensor<3x3x16x1xf16>, tensor<16xf16>) -> tensor<1x4x4x16xf16>
// CHECK-NOT: brrr.pad
// CHECK: %[[C2:.+]] = brrr.conv2d %[[D]], {{.+}} : (tensor<1x4x4x16xf16>, tensor<1x1x12x16xf16>) -> tensor<1x4x4x12xf16>
// CHECK: %[[CAT:.+]] = brrr.concat %[[X1]], %[[C2]] {axis = 3 : i64} : (tensor<1x4x4x12xf16>, tensor<1x4x4x12xf16>) -> tensor<1x4x4x24xf16>
// CHECK: %[[G:.+]] = brrr.reshape %[[CAT]] : tensor<1x4x4x24xf16> -> tensor<1x4x4x2x12xf16>
// CHECK: %[[T:.+]] = brrr.transpose %[[G]] {perm = array<i64: 0, 1, 2, 4, 3>} : tensor<1x4x4x2x12xf16> -> tensor<1x4x4x12x2xf16>
// CHECK: %[[M:.+]] = brrr.reshape %[[T]] : tensor<1x4x4x12x2xf16> -> tensor<1x4x4x24xf16>
// CHECK: %[[Y:.+]] = brrr.transpose %[[M]] {perm = array<i64: 0, 3, 1, 2>} : tensor<1x4x4x24xf16> -> tensor<1x24x4x4xf16>
// CHECK: return %[[Y]]
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @ShuffleBlock(%x: tensor<1x24x4x4xf16>) -> tensor<1x24x4x4xf16> {
  %w0 = brrr.constant dense<0.5> : tensor<24x24x1x1xf16>
  %w1 = brrr.constant dense<0.25> : tensor<12x12x1x1xf16>
  %b1 = brrr.constant dense<1.0> : tensor<12xf16>
  %wd = brrr.constant dense<2.0> : tensor<12x1x3x3xf16>
  %bd = brrr.constant dense<-1.0> : tensor<12xf16>
  %w2 = brrr.constant dense<0.125> : tensor<12x12x1x1xf16>
  %c0 = brrr.conv2d %x, %w0 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x24x4x4xf16>, tensor<24x24x1x1xf16>) -> tensor<1x24x4x4xf16>
  %r0 = brrr.relu %c0 : tensor<1x24x4x4xf16>
  %x1 = brrr.slice %r0 {sizes = array<i64: 1, 12, 4, 4>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<1x24x4x4xf16> -> tensor<1x12x4x4xf16>
  %x2 = brrr.slice %r0 {sizes = array<i64: 1, 12, 4, 4>, starts = array<i64: 0, 12, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<1x24x4x4xf16> -> tensor<1x12x4x4xf16>
  %c1 = brrr.conv2d %x2, %w1, %b1 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x12x4x4xf16>, tensor<12x12x1x1xf16>, tensor<12xf16>) -> tensor<1x12x4x4xf16>
  %r1 = brrr.relu %c1 : tensor<1x12x4x4xf16>
  %d = brrr.conv2d %r1, %wd, %bd {dilations = array<i64: 1, 1>, groups = 12 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x12x4x4xf16>, tensor<12x1x3x3xf16>, tensor<12xf16>) -> tensor<1x12x4x4xf16>
  %c2 = brrr.conv2d %d, %w2 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x12x4x4xf16>, tensor<12x12x1x1xf16>) -> tensor<1x12x4x4xf16>
  %cat = brrr.concat %x1, %c2 {axis = 1 : i64} : (tensor<1x12x4x4xf16>, tensor<1x12x4x4xf16>) -> tensor<1x24x4x4xf16>
  %g = brrr.reshape %cat : tensor<1x24x4x4xf16> -> tensor<1x2x12x4x4xf16>
  %t = brrr.transpose %g {perm = array<i64: 0, 2, 1, 3, 4>} : tensor<1x2x12x4x4xf16> -> tensor<1x12x2x4x4xf16>
  %y = brrr.reshape %t : tensor<1x12x2x4x4xf16> -> tensor<1x24x4x4xf16>
  return %y : tensor<1x24x4x4xf16>
}
}

// -----

// DenseNet's growing feature maps: a concatenation of the block's input
// (which the convolution reads channels-last: its NHWC copy) and the
// convolution's output runs channels-last along the channels, and so does
// the batch norm after it. A reshape that is no channel permutation (the
// 16 channels spread over H) and a concatenation of a tensor without an
// NHWC copy keep NCHW.
// CHECK-LABEL: func.func @DenseConcat
// CHECK: %[[XL:.+]] = brrr.transpose %{{.+}} {perm = array<i64: 0, 2, 3, 1>} : tensor<2x16x4x4xf16> -> tensor<2x4x4x16xf16>
// CHECK: %[[C:.+]] = brrr.conv2d %[[XL]], {{.+}} -> tensor<2x4x4x8xf16>
// CHECK: %[[K:.+]] = brrr.concat %[[XL]], %[[C]] {axis = 3 : i64} : (tensor<2x4x4x16xf16>, tensor<2x4x4x8xf16>) -> tensor<2x4x4x24xf16>
// CHECK: %[[S:.+]] = brrr.mul %[[K]], %{{.+}} : tensor<2x4x4x24xf16>, tensor<1x1x1x24xf16> -> tensor<2x4x4x24xf16>
// CHECK: brrr.transpose %[[S]] {perm = array<i64: 0, 3, 1, 2>}
// CHECK: brrr.concat {{.+}} {axis = 1 : i64} : (tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16>) -> tensor<2x16x4x4xf16>
// CHECK: brrr.reshape {{.+}} : tensor<2x8x4x4xf16> -> tensor<2x2x4x4x4xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @DenseConcat(%x: tensor<2x16x4x4xf16>, %w: tensor<8x16x3x3xf16>, %z: tensor<2x8x4x4xf16>) -> (tensor<2x24x4x4xf16>, tensor<2x16x4x4xf16>, tensor<2x2x4x4x4xf16>) {
  %s = brrr.constant dense<0.5> : tensor<1x24x1x1xf16>
  %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x16x4x4xf16>, tensor<8x16x3x3xf16>) -> tensor<2x8x4x4xf16>
  %k = brrr.concat %x, %c {axis = 1 : i64} : (tensor<2x16x4x4xf16>, tensor<2x8x4x4xf16>) -> tensor<2x24x4x4xf16>
  %m = brrr.mul %k, %s : tensor<2x24x4x4xf16>, tensor<1x24x1x1xf16> -> tensor<2x24x4x4xf16>
  %o = brrr.concat %z, %c {axis = 1 : i64} : (tensor<2x8x4x4xf16>, tensor<2x8x4x4xf16>) -> tensor<2x16x4x4xf16>
  %r = brrr.reshape %c : tensor<2x8x4x4xf16> -> tensor<2x2x4x4x4xf16>
  return %m, %o, %r : tensor<2x24x4x4xf16>, tensor<2x16x4x4xf16>, tensor<2x2x4x4x4xf16>
}
}
