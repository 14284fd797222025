// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-matmul.mlir, which starts from them pinned.

// Rows that are not whole 16-byte chunks (N = 30) take the untiled
// warp_mma body: one warp per 16x8 output tile (grid: N/8, M/16, batch), K
// in steps of 16 through mma.sync m16n8k16 with f32 accumulators.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [4, 2, 3]>
func.func @main(%a: tensor<3x32x64xf16>, %b: tensor<3x64x30xf16>) -> tensor<3x32x30xf16> {
  %0 = brrr.matmul %a, %b : tensor<3x32x64xf16>, tensor<3x64x30xf16> -> tensor<3x32x30xf16>
  return %0 : tensor<3x32x30xf16>
}

// -----

// With B shared by every batch (no batch dimensions of its own), A's 3 x 32
// rows fold into one product of 96 rows: grid 4 x 6 x 1, each row's
// operand and output offsets plain row-major.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [4, 6, 1]>
func.func @main(%a: tensor<3x32x64xf16>, %b: tensor<64x30xf16>) -> tensor<3x32x30xf16> {
  %0 = brrr.matmul %a, %b : tensor<3x32x64xf16>, tensor<64x30xf16> -> tensor<3x32x30xf16>
  return %0 : tensor<3x32x30xf16>
}

// -----

// A's batches fold only where its rows stay evenly spaced: through a
// transposed view they do not (batches 64 elements apart, rows 256), and the
// product keeps its 4 batches.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [4, 2, 4]>
func.func @main(%a: tensor<32x4x64xf16>, %b: tensor<64x30xf16>) -> tensor<4x32x30xf16> {
  %t = brrr.transpose %a {perm = array<i64: 1, 0, 2>} : tensor<32x4x64xf16> -> tensor<4x32x64xf16>
  %0 = brrr.matmul %t, %b : tensor<4x32x64xf16>, tensor<64x30xf16> -> tensor<4x32x30xf16>
  return %0 : tensor<4x32x30xf16>
}

// -----

// f32 operands split into tf32 high and low parts: three products per step.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [64, 64, 16], stages = 3, grid = [1, 1, 1]>
func.func @main(%a: tensor<16x8xf32>, %b: tensor<8x8xf32>) -> tensor<16x8xf32> {
  %0 = brrr.matmul %a, %b : tensor<16x8xf32>, tensor<8x8xf32> -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// A fused epilogue runs on the accumulators: the bias is read at its
// broadcast index, the tanh GELU computed in f32, one f16 store.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [4, 2, 1]>
func.func @main(%a: tensor<32x64xf16>, %b: tensor<64x30xf16>, %bias: tensor<30xf16>) -> tensor<32x30xf16> {
  %0 = brrr.matmul %a, %b : tensor<32x64xf16>, tensor<64x30xf16> -> tensor<32x30xf16>
  %1 = brrr.add %0, %bias : tensor<32x30xf16>, tensor<30xf16> -> tensor<32x30xf16>
  %2 = brrr.gelu tanh %1 : tensor<32x30xf16>
  return %2 : tensor<32x30xf16>
}

// -----

// An f32 product too small to fill sm_90a with 64 x 64 tiles (2 x 12 of
// them) splits each tile's 24 k-slices over a cluster of 4 blocks (6
// each; grid x = 12 tiles x 4). Each block stages its accumulators in
// "partials", the cluster synchronizes, and each block sums its quarter of
// the warp tiles over the 4 blocks' partials (mapa into each peer's shared
// memory) before the epilogue; a last cluster barrier keeps every block's
// partials alive until all are read.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [64, 64, 32], stages = 3, cluster = 4, grid = [48, 2, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%a: tensor<128x768xf32>, %b: tensor<768x768xf32>) -> tensor<128x768xf32> {
    %0 = brrr.matmul %a, %b : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
    return %0 : tensor<128x768xf32>
  }
}
