// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-matmul-wgmma-pingpong.mlir.

// A ping-pong wgmma kernel: 6 batches x 6 row tiles x 8 column tiles of
// 128x128 (288) walked by 132 blocks, each consumer warpgroup computing
// whole tiles, every other one of its block's.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, persistent = 132, epilogue = 128, schedule = pingpong, grid = [132, 1, 1]>{{.*}}brrr.grid = array<i64: 132, 1, 1>
// CHECK: gpu.func @fusion_0
// A stage is released by the four warps of the one warpgroup that reads
// it.
// CHECK-COUNT-4: nvvm.mbarrier.init {{.+}}, %c4_i32
// The producer streams every tile of the block through the one ring.
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: scf.for
// CHECK: scf.for
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// Consumer warpgroup c (0 or 1) takes the block's tiles c, c + 2, ...
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: %[[C:.+]] = arith.subi %{{.+}}, %c1 : index
// CHECK: scf.for %{{.+}} = %[[C]] to %{{.+}} step %c2
// After its first, it waits its turn: named barrier 3 + c, where the
// other warpgroup arrives once it has issued its tile's products.
// CHECK: scf.if
// CHECK: %[[WAIT:.+]] = arith.addi %[[C]], %c3
// CHECK: %[[WAITID:.+]] = arith.index_castui %[[WAIT]]
// CHECK: nvvm.barrier id = %[[WAITID]] number_of_threads = %c256_i32
// Both 64-row halves of the tile accumulate, each k16 step a wgmma of
// each.
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[Z:.+]], %{{.+}} = %[[Z]])
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 128, k = 16>
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// Issued: the other warpgroup's turn (named barrier 4 - c), if a tile of
// the block follows.
// CHECK: arith.cmpi ult
// CHECK: scf.if
// CHECK: %[[GO:.+]] = arith.subi %c4{{.*}}, %[[C]]
// CHECK: %[[GOID:.+]] = arith.index_castui %[[GO]]
// CHECK: nvvm.barrier.arrive id = %[[GOID]] number_of_threads = %c256_i32
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// Then the epilogue of each half through the warpgroup's own 64 staged
// rows, between barriers of its 128 threads: 32 f32 pairs a thread each.
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK-COUNT-32: llvm.store {{.+}} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK: llvm.store {{.+}} : vector<4xf16>, !llvm.ptr<1>
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK-COUNT-32: llvm.store {{.+}} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.return
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<6x700x136xf16>, %arg1: tensor<6x136x1024xf16>, %arg2: tensor<1024xf16>, %arg3: tensor<6x700x1024xf16>) -> tensor<6x700x1024xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1, %arg2, %arg3) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, persistent = 132, epilogue = 128, schedule = pingpong, grid = [132, 1, 1]>} : (tensor<6x700x136xf16>, tensor<6x136x1024xf16>, tensor<1024xf16>, tensor<6x700x1024xf16>) -> tensor<6x700x1024xf16> {
    ^bb0(%arg4: tensor<6x700x136xf16>, %arg5: tensor<6x136x1024xf16>, %arg6: tensor<1024xf16>, %arg7: tensor<6x700x1024xf16>):
      %1 = brrr.matmul %arg4, %arg5 : tensor<6x700x136xf16>, tensor<6x136x1024xf16> -> tensor<6x700x1024xf16>
      %2 = brrr.add %1, %arg6 : tensor<6x700x1024xf16>, tensor<1024xf16> -> tensor<6x700x1024xf16>
      %3 = brrr.add %2, %arg7 : tensor<6x700x1024xf16>, tensor<6x700x1024xf16> -> tensor<6x700x1024xf16>
      brrr.yield %3 : tensor<6x700x1024xf16>
    }
    return %0 : tensor<6x700x1024xf16>
  }
}
