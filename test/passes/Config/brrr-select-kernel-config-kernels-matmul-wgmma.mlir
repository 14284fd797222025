// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-matmul-wgmma.mlir, which starts from them pinned.

// On sm_90a, a batched f16 product with a bias epilogue runs the TMA +
// wgmma body. The fusion records the operands' tensor maps for the runtime:
// A (12 x 300 rows of 64 halves, 128 bytes apart, batches 38400 bytes
// apart) in 64 x 128 boxes, and B (12 x 64 rows of 256 halves, batches
// 32768 bytes apart) in 64 x 64 boxes, both with the 128-byte swizzle. The
// kernel takes both maps by value before its buffers; 384 threads (a
// producer and two consumer warpgroups), one block per 128x128 tile (grid:
// 3 row tiles x 2 column tiles, 12 batches: too many to narrow).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [6, 1, 12]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%a: tensor<12x300x64xf16>, %b: tensor<12x64x256xf16>, %bias: tensor<256xf16>) -> tensor<12x300x256xf16> {
    %0 = brrr.matmul %a, %b : tensor<12x300x64xf16>, tensor<12x64x256xf16> -> tensor<12x300x256xf16>
    %1 = brrr.add %0, %bias : tensor<12x300x256xf16>, tensor<256xf16> -> tensor<12x300x256xf16>
    return %1 : tensor<12x300x256xf16>
  }
}

// -----

// A Linear layer over a 4-d activation: B has no batch dimensions, so A's
// 4 x 7 x 56 rows fold into one product of 1568 rows (13 row tiles, whole:
// two slices are too few to split; one 2-d map), not 28 products of 56
// rows each padded to a 128-row tile.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [13, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%a: tensor<4x7x56x96xf16>, %b: tensor<96x64xf16>) -> tensor<4x7x56x64xf16> {
    %0 = brrr.matmul %a, %b : tensor<4x7x56x96xf16>, tensor<96x64xf16> -> tensor<4x7x56x64xf16>
    return %0 : tensor<4x7x56x64xf16>
  }
}
