// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-conv,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-conv-wgmma.mlir, which starts from them pinned.

// On sm_90a a channels-last f16 convolution with a bias and a ReLU runs
// the TMA + wgmma body as an implicit GEMM: 2 x 14 x 14 = 392 output
// pixels (4 row tiles of 128) by 64 channels (one 64-wide tile), K =
// 3 x 3 taps of 64 channels (9 k-slices). A is an im2col map over the N x H x W x C input
// (dims innermost first: C, W, H, N): 128 pixels of 64 channels per copy,
// the bounding box inset by the padding (lower corner -1, -1) and by the
// window's reach (upper corner 1 - 2 = -1), element strides of the
// convolution's strides (1, 2 along W and H). B is the packed
// KH x KW x O x I weights as a tiled 3-D map, one tap's 64 x 64 box at a
// time.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [4, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<2x28x14x64xf16>, %w: tensor<3x3x64x64xf16>, %b: tensor<64xf16>) -> tensor<2x14x14x64xf16> {
    %c = brrr.conv2d %x, %w, %b {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>} : (tensor<2x28x14x64xf16>, tensor<3x3x64x64xf16>, tensor<64xf16>) -> tensor<2x14x14x64xf16>
    %r = brrr.relu %c : tensor<2x14x14x64xf16>
    return %r : tensor<2x14x14x64xf16>
  }
}

// -----

// A stem over 3 channels (padded to 8): a 64-channel slice would be 7/8
// zeros, so each slice holds 16 channels of four taps instead, each chunk
// swizzled over 32 bytes: an im2col map of 16 channels per pixel and a
// 16-channel weight box, both with the 32-byte swizzle, four copies of
// each per slice (49 taps: 13 slices), and descriptors in swizzle mode 3.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [4, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<2x30x30x8xf16>, %w: tensor<7x7x64x8xf16>, %b: tensor<64xf16>) -> tensor<2x15x15x64xf16> {
    %c = brrr.conv2d %x, %w, %b {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x30x30x8xf16>, tensor<7x7x64x8xf16>, tensor<64xf16>) -> tensor<2x15x15x64xf16>
    return %c : tensor<2x15x15x64xf16>
  }
}

// -----

// A convolution of 2 groups of 64 input channels and 128 outputs (split
// K's partial convolutions have this form): the weight map spans one
// group's 64 channels of all 256 outputs, and a block's A copies start
// at its group's channels, (col0 / 128) * 64, added to the slice's
// channel block before the im2col copy.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [2, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<1x7x7x128xf16>, %w: tensor<3x3x256x64xf16>) -> tensor<1x7x7x256xf16> {
    %c = brrr.conv2d %x, %w {channels_last, dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x128xf16>, tensor<3x3x256x64xf16>) -> tensor<1x7x7x256xf16>
    return %c : tensor<1x7x7x256xf16>
  }
}
