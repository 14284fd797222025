// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-fuse-rows,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-matmul-wgmma-cluster.mlir, which starts from them pinned.

// BERT's second MLP product at batch 1 (128 x 3072 -> 768, 12 tiles of
// 128x64) as one kernel whose tiles are each split over a cluster of 8
// blocks: 96 blocks, block x computing k-slices 6 (x % 8) ... 6 (x % 8) + 5
// of tile x / 8, all six in flight at once (six stages). After the main
// loop each block stages its partial tile in its own shared memory; a
// cluster barrier makes every staging visible, then each block sums the
// 8 partials of its 16 rows (two a warp, 16 lanes of 4 columns a row)
// through distributed shared memory (mapa), in block order, and applies the bias and GELU. A last cluster barrier
// keeps every block alive until the others have read its staging.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, cluster = 8, grid = [96, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%a: tensor<1x128x3072xf16>, %w: tensor<3072x768xf16>, %b: tensor<768xf16>) -> tensor<1x128x768xf16> {
    %0 = brrr.matmul %a, %w : tensor<1x128x3072xf16>, tensor<3072x768xf16> -> tensor<1x128x768xf16>
    %1 = brrr.add %0, %b : tensor<1x128x768xf16>, tensor<768xf16> -> tensor<1x128x768xf16>
    %2 = brrr.gelu none %1 : tensor<1x128x768xf16>
    return %2 : tensor<1x128x768xf16>
  }
}
