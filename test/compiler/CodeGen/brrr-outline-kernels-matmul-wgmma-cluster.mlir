// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-matmul-wgmma-cluster.mlir.

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
// CHECK-SAME: brrr.grid = array<i64: 96, 1, 1>
// CHECK-NOT: brrr.fusion reduce
// CHECK: gpu.func @fusion_0
// CHECK-SAME: nvvm.cluster_dim = array<i32: 8, 1, 1>
// CHECK: %[[RANK:.+]] = arith.remui %block_id_x, %c8
// CHECK: %[[TILE:.+]] = arith.divui %block_id_x, %c8
// Producer: 6 slices, starting at slice 6 * rank.
// CHECK: scf.for %{{.+}} = %{{.+}} to %c6 step
// CHECK: arith.muli %[[RANK]], %c6
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// Consumers: 6 slices, then the staging and the exchange.
// CHECK: scf.for %{{.+}} = %{{.+}} to %c6 step
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// CHECK: llvm.store {{.*}} : vector<2xf32>, !llvm.ptr<3>
// CHECK-NOT: nvvm.barrier id
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: scf.for %{{.+}} = %{{.+}} to %c1{{(_[0-9]+)?}} step
// CHECK: arith.addi %{{.+}}, %[[RANK]]
// CHECK: nvvm.mapa %{{.+}}, %c0_i32{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.load {{.*}} : !llvm.ptr<7> -> vector<4xf32>
// CHECK-COUNT-7: arith.addf {{.*}} : vector<4xf32>
// CHECK-NOT: math.erf
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: llvm.store {{.*}} : vector<4xf16>, !llvm.ptr<1>
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: gpu.return
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<1x128x3072xf16>, %arg1: tensor<3072x768xf16>, %arg2: tensor<768xf16>) -> tensor<1x128x768xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, cluster = 8, grid = [96, 1, 1]>} : (tensor<1x128x3072xf16>, tensor<3072x768xf16>, tensor<768xf16>) -> tensor<1x128x768xf16> {
    ^bb0(%arg3: tensor<1x128x3072xf16>, %arg4: tensor<3072x768xf16>, %arg5: tensor<768xf16>):
      %1 = brrr.matmul %arg3, %arg4 : tensor<1x128x3072xf16>, tensor<3072x768xf16> -> tensor<1x128x768xf16>
      %2 = brrr.add %1, %arg5 : tensor<1x128x768xf16>, tensor<768xf16> -> tensor<1x128x768xf16>
      %3 = brrr.gelu none %2 : tensor<1x128x768xf16>
      brrr.yield %3 : tensor<1x128x768xf16>
    }
    return %0 : tensor<1x128x768xf16>
  }
}
