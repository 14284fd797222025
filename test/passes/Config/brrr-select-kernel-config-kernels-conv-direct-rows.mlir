// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-conv,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-conv-direct-rows.mlir, which starts from them pinned.

// A channels-last depthwise 7x7 over 16 x 30 x 30 x 96 f16 (ConvNeXt's,
// ragged rows): each thread computes 8 channels of 4 pixels along a row
// (tile = [4]): 16 * 30 * 8 groups * 12 channel vectors = 46080 threads,
// 180 blocks. One window row at a time (a loop of 7 carrying the 32
// accumulators): its 7 weight vectors, then the 10 input vectors its 4
// pixels' windows cover, each added into every pixel that reads it, 7 x 4
// x 8 fmas. Then the bias, and 4 vector stores, those of pixels 1 to 3
// inside the row only (30 = 7 x 4 + 2).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [4], vector = 8, grid = [180, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @main(%x: tensor<16x30x30x96xf16>, %w: tensor<7x7x96x1xf16>, %b: tensor<96xf16>) -> tensor<16x30x30x96xf16> {
  %0 = brrr.conv2d %x, %w, %b {channels_last, dilations = array<i64: 1, 1>, groups = 96 : i64, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 1, 1>} : (tensor<16x30x30x96xf16>, tensor<7x7x96x1xf16>, tensor<96xf16>) -> tensor<16x30x30x96xf16>
  return %0 : tensor<16x30x30x96xf16>
}
}

// -----

// Stride 2 (3x3 over 32 x 57 x 57 x 96, 29 outputs a row): pixel r's tap
// kw reads column 2r + kw, so 4 pixels read 9 input columns; 3 weight
// vectors, 3 x 4 x 8 fmas a window row.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [4], vector = 8, grid = [348, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @main(%x: tensor<32x57x57x96xf16>, %w: tensor<3x3x96x1xf16>) -> tensor<32x29x29x96xf16> {
  %0 = brrr.conv2d %x, %w {channels_last, dilations = array<i64: 1, 1>, groups = 96 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<32x57x57x96xf16>, tensor<3x3x96x1xf16>) -> tensor<32x29x29x96xf16>
  return %0 : tensor<32x29x29x96xf16>
}
}
