// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-rows,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-shared.mlir, which starts from them pinned.

// Kernels that are the same code but for their names are compiled once: the
// two softmaxes over same-shaped rows launch fusion_0 twice, with their own
// buffers; the softmax over longer rows has a kernel of its own. The
// erased fusion_1 leaves a gap in the names.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [8, 16], vector = 4, grid = [1, 1, 1]>
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [8, 16], vector = 4, grid = [1, 1, 1]>
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [4, 32], vector = 4, grid = [2, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>, %z: tensor<8x128xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x128xf32>) {
    %0 = brrr.softmax %x {axis = 1 : i64} : tensor<8x64xf32>
    %1 = brrr.softmax %y {axis = 1 : i64} : tensor<8x64xf32>
    %2 = brrr.softmax %z {axis = 1 : i64} : tensor<8x128xf32>
    return %0, %1, %2 : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x128xf32>
  }
}
