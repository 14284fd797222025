// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-matmul-wgmma-overlapped.mlir.

// An overlapped wgmma kernel: the persistent walk of
// brrr-outline-kernels-matmul-wgmma-persistent.mlir (144 tiles of 128x256,
// 132 blocks), its whole tile staged in f16 (128 rows of 264, 67584
// bytes) beside three stages; two more mbarriers ("staged", 256 consumer
// arrivals, and "drained", 96 epilogue ones) follow each stage's pair.
// CHECK-LABEL: func.func @main
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 256, schedule = overlapped, grid = [132, 1, 1]>
// CHECK-SAME: #brrr.buffer<role = barriers, offset = {{[0-9]+}}, bytes = 64>
// CHECK-SAME: #brrr.buffer<role = epilogue, offset = {{[0-9]+}}, bytes = 67584>
// CHECK: gpu.func @fusion_0
// CHECK-COUNT-3: nvvm.mbarrier.init %{{.+}}, %c8_i32
// CHECK: nvvm.mbarrier.init %{{.+}}, %c256_i32
// CHECK: nvvm.mbarrier.init %{{.+}}, %c96_i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// The producer warpgroup keeps 152 registers: warps 1-3 walk the block's
// tiles, wait for each to be staged, and store it with the bias and
// residual, 8 columns a lane (16-byte reads of the staging, the residual
// and bias, 16-byte stores), two rows a step, then report it drained.
// CHECK: nvvm.setmaxregister  decrease 152
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: scf.for
// CHECK: llvm.load {{.+}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: llvm.load {{.+}} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.load {{.+}} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.load {{.+}} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: llvm.store {{.+}} : vector<8xf16>, !llvm.ptr<1>
// CHECK: llvm.store {{.+}} : vector<8xf16>, !llvm.ptr<1>
// CHECK: nvvm.mbarrier.arrive
// Warp 0's thread 0 streams the k-slices as in a cooperative kernel.
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// The consumers (176 registers) wait for the previous tile to be drained,
// stage their accumulators as 64 f16 pairs a thread, and arrive.
// CHECK: nvvm.setmaxregister  increase 176
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-64: llvm.store {{.+}} : vector<2xf16>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.mbarrier.arrive
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.return
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<6x700x136xf16>, %arg1: tensor<6x136x1024xf16>, %arg2: tensor<1024xf16>, %arg3: tensor<6x700x1024xf16>) -> tensor<6x700x1024xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1, %arg2, %arg3) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 256, schedule = overlapped, grid = [132, 1, 1]>} : (tensor<6x700x136xf16>, tensor<6x136x1024xf16>, tensor<1024xf16>, tensor<6x700x1024xf16>) -> tensor<6x700x1024xf16> {
    ^bb0(%arg4: tensor<6x700x136xf16>, %arg5: tensor<6x136x1024xf16>, %arg6: tensor<1024xf16>, %arg7: tensor<6x700x1024xf16>):
      %1 = brrr.matmul %arg4, %arg5 : tensor<6x700x136xf16>, tensor<6x136x1024xf16> -> tensor<6x700x1024xf16>
      %2 = brrr.add %1, %arg6 : tensor<6x700x1024xf16>, tensor<1024xf16> -> tensor<6x700x1024xf16>
      %3 = brrr.add %2, %arg7 : tensor<6x700x1024xf16>, tensor<6x700x1024xf16> -> tensor<6x700x1024xf16>
      brrr.yield %3 : tensor<6x700x1024xf16>
    }
    return %0 : tensor<6x700x1024xf16>
  }
}
