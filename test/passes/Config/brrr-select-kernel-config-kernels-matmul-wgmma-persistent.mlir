// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{persistent=true matmul-tile=128,256,4}))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-matmul-wgmma-persistent.mlir, which starts from them pinned.

// A persistent wgmma kernel: 6 batches (of both operands) x 6 row tiles x
// 4 column tiles of 128x256 (144, more than the 132 multiprocessors)
// walked by 132 blocks, one grid dimension (the batch comes from the tile
// index). The pinned four stages become three, which leave room for an
// epilogue of 128 columns at a time.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, grid = [132, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%a: tensor<6x700x136xf16>, %b: tensor<6x136x1024xf16>, %bias: tensor<1024xf16>, %r: tensor<6x700x1024xf16>) -> tensor<6x700x1024xf16> {
    %0 = brrr.matmul %a, %b : tensor<6x700x136xf16>, tensor<6x136x1024xf16> -> tensor<6x700x1024xf16>
    %1 = brrr.add %0, %bias : tensor<6x700x1024xf16>, tensor<1024xf16> -> tensor<6x700x1024xf16>
    %2 = brrr.add %1, %r : tensor<6x700x1024xf16>, tensor<6x700x1024xf16> -> tensor<6x700x1024xf16>
    return %2 : tensor<6x700x1024xf16>
  }
}
