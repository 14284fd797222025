// RUN: brrr-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-matmul-wgmma-8bit.mlir.

// Float8 sums promoted slice by slice: each 128-deep slice's four k32
// products start from fresh registers (the first ignores them: D scale
// zero); once the group before frees its stage, the consumer waits for
// this slice's products too (wait 0) and adds the sums to its f32
// accumulators, 96 a thread for its 64 x 192 half of the tile.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: scf.for {{.+}} iter_args
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 192, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 192, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-96: arith.addf {{.+}} : f32
// CHECK-NEXT: llvm.insertvalue
// CHECK-NEXT: scf.yield
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<4096x1024xf8E4M3FN>, %arg1: tensor<2048x1024xf8E4M3FN>) -> tensor<4096x2048xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 128], stages = 4, precision = promoted, grid = [352, 1, 1]>} : (tensor<4096x1024xf8E4M3FN>, tensor<2048x1024xf8E4M3FN>) -> tensor<4096x2048xf16> {
    ^bb0(%arg2: tensor<4096x1024xf8E4M3FN>, %arg3: tensor<2048x1024xf8E4M3FN>):
      %1 = brrr.transpose %arg3 {perm = array<i64: 1, 0>} : tensor<2048x1024xf8E4M3FN> -> tensor<1024x2048xf8E4M3FN>
      %2 = brrr.matmul %arg2, %1 : tensor<4096x1024xf8E4M3FN>, tensor<1024x2048xf8E4M3FN> -> tensor<4096x2048xf32>
      %3 = brrr.constant dense<2.500000e-01> : tensor<f32>
      %4 = brrr.mul %2, %3 : tensor<4096x2048xf32>, tensor<f32> -> tensor<4096x2048xf32>
      %5 = brrr.cast %4 : tensor<4096x2048xf32> -> tensor<4096x2048xf16>
      brrr.yield %5 : tensor<4096x2048xf16>
    }
    return %0 : tensor<4096x2048xf16>
  }
}

// -----

// Persistent, the stage of a tile's last slice is freed after the loop,
// as in a chain of products, and only then does the epilogue start.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: nvvm.wgmma.mma_async {{.+}} D[<f32>, <zero>]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// CHECK: nvvm.barrier id
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<4096x1024xf8E4M3FN>, %arg1: tensor<2048x1024xf8E4M3FN>) -> tensor<4096x2048xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 128], stages = 4, precision = promoted, persistent = 132, epilogue = 128, grid = [132, 1, 1]>} : (tensor<4096x1024xf8E4M3FN>, tensor<2048x1024xf8E4M3FN>) -> tensor<4096x2048xf16> {
    ^bb0(%arg2: tensor<4096x1024xf8E4M3FN>, %arg3: tensor<2048x1024xf8E4M3FN>):
      %1 = brrr.transpose %arg3 {perm = array<i64: 1, 0>} : tensor<2048x1024xf8E4M3FN> -> tensor<1024x2048xf8E4M3FN>
      %2 = brrr.matmul %arg2, %1 : tensor<4096x1024xf8E4M3FN>, tensor<1024x2048xf8E4M3FN> -> tensor<4096x2048xf32>
      %3 = brrr.constant dense<2.500000e-01> : tensor<f32>
      %4 = brrr.mul %2, %3 : tensor<4096x2048xf32>, tensor<f32> -> tensor<4096x2048xf32>
      %5 = brrr.cast %4 : tensor<4096x2048xf32> -> tensor<4096x2048xf16>
      brrr.yield %5 : tensor<4096x2048xf16>
    }
    return %0 : tensor<4096x2048xf16>
  }
}

// -----

// With fast sums the Tensor Cores accumulate the whole contraction: one
// chain of wgmmas over the loop's accumulators, the group before freed.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 256, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT: arith.addf
// CHECK: scf.yield
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<4096x1024xf8E4M3FN>, %arg1: tensor<2048x1024xf8E4M3FN>) -> tensor<4096x2048xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 128], stages = 4, precision = fast, grid = [256, 1, 1]>} : (tensor<4096x1024xf8E4M3FN>, tensor<2048x1024xf8E4M3FN>) -> tensor<4096x2048xf16> {
    ^bb0(%arg2: tensor<4096x1024xf8E4M3FN>, %arg3: tensor<2048x1024xf8E4M3FN>):
      %1 = brrr.transpose %arg3 {perm = array<i64: 1, 0>} : tensor<2048x1024xf8E4M3FN> -> tensor<1024x2048xf8E4M3FN>
      %2 = brrr.matmul %arg2, %1 : tensor<4096x1024xf8E4M3FN>, tensor<1024x2048xf8E4M3FN> -> tensor<4096x2048xf32>
      %3 = brrr.constant dense<2.500000e-01> : tensor<f32>
      %4 = brrr.mul %2, %3 : tensor<4096x2048xf32>, tensor<f32> -> tensor<4096x2048xf32>
      %5 = brrr.cast %4 : tensor<4096x2048xf32> -> tensor<4096x2048xf16>
      brrr.yield %5 : tensor<4096x2048xf16>
    }
    return %0 : tensor<4096x2048xf16>
  }
}

// -----

// A float8 product whose config says nothing of its sums (as an INT8 or
// 16-bit one's would) is refused, and so is an INT8 one that says `fast`.
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<4096x1024xf8E4M3FN>, %arg1: tensor<2048x1024xf8E4M3FN>) -> tensor<4096x2048xf32> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 128], stages = 4, grid = [512, 1, 1]>} : (tensor<4096x1024xf8E4M3FN>, tensor<2048x1024xf8E4M3FN>) -> tensor<4096x2048xf32> {
    ^bb0(%arg2: tensor<4096x1024xf8E4M3FN>, %arg3: tensor<2048x1024xf8E4M3FN>):
      %1 = brrr.transpose %arg3 {perm = array<i64: 1, 0>} : tensor<2048x1024xf8E4M3FN> -> tensor<1024x2048xf8E4M3FN>
      // expected-error @+1 {{'brrr.matmul' op the wgmma body sums float8 products promoted or fast, but its config says exact}}
      %2 = brrr.matmul %arg2, %1 : tensor<4096x1024xf8E4M3FN>, tensor<1024x2048xf8E4M3FN> -> tensor<4096x2048xf32>
      brrr.yield %2 : tensor<4096x2048xf32>
    }
    return %0 : tensor<4096x2048xf32>
  }
}

// -----

module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<4096x1024xi8>, %arg1: tensor<2048x1024xi8>) -> tensor<4096x2048xf32> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 128], stages = 4, precision = fast, grid = [256, 1, 1]>} : (tensor<4096x1024xi8>, tensor<2048x1024xi8>) -> tensor<4096x2048xf32> {
    ^bb0(%arg2: tensor<4096x1024xi8>, %arg3: tensor<2048x1024xi8>):
      %1 = brrr.transpose %arg3 {perm = array<i64: 1, 0>} : tensor<2048x1024xi8> -> tensor<1024x2048xi8>
      // expected-error @+1 {{'brrr.matmul' op the wgmma body sums 16-bit and INT8 products exactly, but its config says fast}}
      %2 = brrr.matmul %arg2, %1 : tensor<4096x1024xi8>, tensor<1024x2048xi8> -> tensor<4096x2048xf32>
      brrr.yield %2 : tensor<4096x2048xf32>
    }
    return %0 : tensor<4096x2048xf32>
  }
}
