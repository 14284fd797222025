// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-matmul,brrr-select-kernel-config))' -verify-diagnostics | FileCheck %s

// The f32 tile is the largest candidate whose two stages fit the budget:
// without a target (48 KiB) a product that 128 x 128 tiles would fill gets
// 64 x 64 ones; under a 24000-byte cap only 16-deep slices fit.
// CHECK-LABEL: func.func @no_target
// CHECK: body = mma_sync, threads = 128, tile = [64, 64, 32], stages = 2, grid = [64, 64, 1]>
func.func @no_target(%a: tensor<4096x256xf32>, %b: tensor<256x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = brrr.matmul %a, %b : tensor<4096x256xf32>, tensor<256x4096xf32> -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// -----

// CHECK-LABEL: func.func @capped
// CHECK: body = mma_sync, threads = 128, tile = [64, 64, 16], stages = 2, grid = [64, 64, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>, brrr.shared_memory_limit = 24000 : i64} {
  func.func @capped(%a: tensor<4096x256xf32>, %b: tensor<256x4096xf32>) -> tensor<4096x4096xf32> {
    %0 = brrr.matmul %a, %b : tensor<4096x256xf32>, tensor<256x4096xf32> -> tensor<4096x4096xf32>
    return %0 : tensor<4096x4096xf32>
  }
}

// -----

// Below two 64 x 64 x 16 stages no f32 tile fits: a clear error, not a
// body that cannot run f32.
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>, brrr.shared_memory_limit = 16000 : i64} {
  func.func @too_tight(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    // expected-error @+1 {{multiplies f32 on a staged tile, whose two stages need at least 20480 bytes of shared memory; the budget is 16000}}
    %0 = brrr.matmul %a, %a : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}
