// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{overlap=true matmul-tile=128,256,4}))' | FileCheck %s
// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{overlap=true drain-warpgroup=always matmul-tile=128,256,4}))' | FileCheck %s --check-prefix=DRAIN

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-matmul-wgmma-overlapped.mlir, which starts from them pinned.

// An overlapped wgmma kernel: the persistent walk of
// brrr-outline-kernels-matmul-wgmma-persistent.mlir (144 tiles of 128x256,
// 132 blocks), its whole tile staged in f16 (128 rows of 264, 67584
// bytes) beside three stages; two more mbarriers ("staged", 256 consumer
// arrivals, and "drained", 96 epilogue ones) follow each stage's pair.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 256, schedule = overlapped, grid = [132, 1, 1]>
// With a drain warpgroup (drain-warpgroup): 512 threads, the pinned
// 256-wide tile narrowed to 192 (kDrainGroupWidth), four stages beside it.
// DRAIN: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 512, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%a: tensor<6x700x136xf16>, %b: tensor<6x136x1024xf16>, %bias: tensor<1024xf16>, %r: tensor<6x700x1024xf16>) -> tensor<6x700x1024xf16> {
    %0 = brrr.matmul %a, %b : tensor<6x700x136xf16>, tensor<6x136x1024xf16> -> tensor<6x700x1024xf16>
    %1 = brrr.add %0, %bias : tensor<6x700x1024xf16>, tensor<1024xf16> -> tensor<6x700x1024xf16>
    %2 = brrr.add %1, %r : tensor<6x700x1024xf16>, tensor<6x700x1024xf16> -> tensor<6x700x1024xf16>
    return %2 : tensor<6x700x1024xf16>
  }
}
