// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-matmul-wgmma-persistent.mlir.

// A persistent wgmma kernel: 6 batches (of both operands) x 6 row tiles x
// 4 column tiles of 128x256 (144, more than the 132 multiprocessors)
// walked by 132 blocks, one grid dimension (the batch comes from the tile
// index). The pinned four stages become three, which leave room for an
// epilogue of 128 columns at a time.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, grid = [132, 1, 1]>{{.*}}brrr.grid = array<i64: 132, 1, 1>
// CHECK: gpu.func @fusion_0
// CHECK-NOT: gpu.block_id z
// The producer walks the block's tiles, and in each the k-slices, through
// one ring: the next tile's first slices stream in while the consumers
// finish this one.
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: scf.for
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// The consumers walk the same tiles; each starts from zero accumulators,
// releases each slice's stage once the group after it is issued, and the
// last slice's once its group retires.
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: scf.for
// CHECK: llvm.mlir.zero
// CHECK: scf.for {{.+}} iter_args
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 256, k = 16>
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.mbarrier.arrive
// The epilogue stages 128 of the 256 columns at a time (32 f32 pairs per
// thread) in its own buffer, between barriers of the consumer warpgroup
// alone (128 threads), then adds the bias and residual and stores 4
// columns per thread access, in one vector store.
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK-COUNT-32: llvm.store {{.+}} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK: llvm.load {{.+}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: llvm.load {{.+}} : !llvm.ptr<1> -> vector<4xf16>
// CHECK: arith.addf
// CHECK: llvm.store {{.+}} : vector<4xf16>, !llvm.ptr<1>
// One more chunk, two barriers.
// CHECK-COUNT-2: nvvm.barrier id = %{{.+}} number_of_threads = %c128_i32
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.return
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<6x700x136xf16>, %arg1: tensor<6x136x1024xf16>, %arg2: tensor<1024xf16>, %arg3: tensor<6x700x1024xf16>) -> tensor<6x700x1024xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1, %arg2, %arg3) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, grid = [132, 1, 1]>} : (tensor<6x700x136xf16>, tensor<6x136x1024xf16>, tensor<1024xf16>, tensor<6x700x1024xf16>) -> tensor<6x700x1024xf16> {
    ^bb0(%arg4: tensor<6x700x136xf16>, %arg5: tensor<6x136x1024xf16>, %arg6: tensor<1024xf16>, %arg7: tensor<6x700x1024xf16>):
      %1 = brrr.matmul %arg4, %arg5 : tensor<6x700x136xf16>, tensor<6x136x1024xf16> -> tensor<6x700x1024xf16>
      %2 = brrr.add %1, %arg6 : tensor<6x700x1024xf16>, tensor<1024xf16> -> tensor<6x700x1024xf16>
      %3 = brrr.add %2, %arg7 : tensor<6x700x1024xf16>, tensor<6x700x1024xf16> -> tensor<6x700x1024xf16>
      brrr.yield %3 : tensor<6x700x1024xf16>
    }
    return %0 : tensor<6x700x1024xf16>
  }
}
