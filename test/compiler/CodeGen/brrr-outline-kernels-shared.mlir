// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels{early-fitting=false})' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-shared.mlir.

// Kernels that are the same code but for their names are compiled once: the
// two softmaxes over same-shaped rows launch fusion_0 twice, with their own
// buffers; the softmax over longer rows has a kernel of its own. The
// erased fusion_1 leaves a gap in the names. (early-fitting=false: by
// default the second softmax fits beside the first, launches early and
// waits for it, which makes its code differ.)
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row(%arg0){{.*}}brrr.kernel = "fusion_0"
// CHECK: brrr.fusion row(%arg1){{.*}}brrr.kernel = "fusion_0"
// CHECK: brrr.fusion row(%arg2){{.*}}brrr.kernel = "fusion_2"
// CHECK: gpu.module @brrr_kernels
// CHECK: gpu.func @fusion_0(
// CHECK-NOT: gpu.func @fusion_1(
// CHECK: gpu.func @fusion_2(
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<8x64xf32>, %arg1: tensor<8x64xf32>, %arg2: tensor<8x128xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x128xf32>) {
    %0 = brrr.fusion row(%arg0) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [8, 16], vector = 4, grid = [1, 1, 1]>} : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%arg3: tensor<8x64xf32>):
      %3 = brrr.softmax %arg3 {axis = 1 : i64} : tensor<8x64xf32>
      brrr.yield %3 : tensor<8x64xf32>
    }
    %1 = brrr.fusion row(%arg1) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [8, 16], vector = 4, grid = [1, 1, 1]>} : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%arg3: tensor<8x64xf32>):
      %3 = brrr.softmax %arg3 {axis = 1 : i64} : tensor<8x64xf32>
      brrr.yield %3 : tensor<8x64xf32>
    }
    %2 = brrr.fusion row(%arg2) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 32, vector = 4, grid = [8, 1, 1]>} : (tensor<8x128xf32>) -> tensor<8x128xf32> {
    ^bb0(%arg3: tensor<8x128xf32>):
      %3 = brrr.softmax %arg3 {axis = 1 : i64} : tensor<8x128xf32>
      brrr.yield %3 : tensor<8x128xf32>
    }
    return %0, %1, %2 : tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x128xf32>
  }
}
