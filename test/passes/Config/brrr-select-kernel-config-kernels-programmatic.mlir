// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-fuse-matmul,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-programmatic.mlir, which starts from them pinned.

// On sm_90a every kernel first lets the next one launch. Kernels that can
// stack several blocks on a multiprocessor (a softmax row kernel, then a
// transpose with its exp) launch normally: they neither wait nor carry
// brrr.programmatic.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [8, 16], vector = 4, grid = [1, 1, 1]>
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<8x64xf32>) -> tensor<64x8xf32> {
    %0 = brrr.softmax %x {axis = 1 : i64} : tensor<8x64xf32>
    %1 = brrr.transpose %0 {perm = array<i64: 1, 0>} : tensor<8x64xf32> -> tensor<64x8xf32>
    %2 = brrr.exp %1 : tensor<64x8xf32>
    return %2 : tensor<64x8xf32>
  }
}

// -----

// A wgmma product (one block per multiprocessor) of one wave after a
// kernel of one wave launches early: its fusion says so for the launch
// plan, and the kernel waits for the one before it ahead of everything
// else. Here BERT's MLP at 128 tokens: 96 blocks (48 tiles of 128 x 64
// split over clusters of 2), then 96 (12 tiles over 8).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, cluster = 2, grid = [96, 1, 1]>
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, cluster = 8, grid = [96, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<128x768xf16>, %w1: tensor<768x3072xf16>, %w2: tensor<3072x768xf16>) -> tensor<128x768xf16> {
    %0 = brrr.matmul %x, %w1 : tensor<128x768xf16>, tensor<768x3072xf16> -> tensor<128x3072xf16>
    %1 = brrr.relu %0 : tensor<128x3072xf16>
    %2 = brrr.matmul %1, %w2 : tensor<128x3072xf16>, tensor<3072x768xf16> -> tensor<128x768xf16>
    return %2 : tensor<128x768xf16>
  }
}

// -----

// An MLP of 512 channels at 4096 tokens: the first product runs 384 blocks
// (several waves; 512 deep, too shallow to overlap its epilogue) and the
// second follows it, so both launch normally.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, grid = [384, 1, 1]>
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [128, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<4096x512xf16>, %w1: tensor<512x3072xf16>, %w2: tensor<3072x512xf16>) -> tensor<4096x512xf16> {
    %0 = brrr.matmul %x, %w1 : tensor<4096x512xf16>, tensor<512x3072xf16> -> tensor<4096x3072xf16>
    %1 = brrr.relu %0 : tensor<4096x3072xf16>
    %2 = brrr.matmul %1, %w2 : tensor<4096x3072xf16>, tensor<3072x512xf16> -> tensor<4096x512xf16>
    return %2 : tensor<4096x512xf16>
  }
}

// -----

// griddepcontrol needs sm_90: an sm_80 module, or one without a target,
// launches plainly.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
  func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = brrr.cos %x : tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}

// -----

// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>
func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = brrr.cos %x : tensor<1024xf32>
  return %0 : tensor<1024xf32>
}
