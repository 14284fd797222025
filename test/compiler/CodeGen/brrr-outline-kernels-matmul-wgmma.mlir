// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-matmul-wgmma.mlir.

// On sm_90a, a batched f16 product with a bias epilogue runs the TMA +
// wgmma body. The fusion records the operands' tensor maps for the runtime:
// A (12 x 300 rows of 64 halves, 128 bytes apart, batches 38400 bytes
// apart) in 64 x 128 boxes, and B (12 x 64 rows of 256 halves, batches
// 32768 bytes apart) in 64 x 64 boxes, both with the 128-byte swizzle. The
// kernel takes both maps by value before its buffers; 384 threads (a
// producer and two consumer warpgroups), one block per 128x128 tile (grid:
// 3 row tiles x 2 column tiles, 12 batches: too many to narrow).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.block = array<i64: 384, 1, 1>{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [6, 1, 12]>{{.*}}brrr.grid = array<i64: 6, 1, 12>
// CHECK-SAME: brrr.tensor_maps = [{box = array<i64: 64, 128, 1>, dims = array<i64: 64, 300, 12>, input = 0 : i64, offset = 0 : i64, strides = array<i64: 128, 38400>, swizzle = 128 : i64}, {box = array<i64: 64, 64, 1>, dims = array<i64: 256, 64, 12>, input = 1 : i64, offset = 0 : i64, strides = array<i64: 512, 32768>, swizzle = 128 : i64}]
// CHECK: gpu.func @fusion_0(%{{.+}}: !llvm.ptr {llvm.align = 64 : i64}, %{{.+}}: !llvm.ptr {llvm.align = 64 : i64}, %{{.+}}: !llvm.ptr<1>
// CHECK-SAME: brrr.by_value = array<i32: 0, 1>
// CHECK-SAME: nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32
// Barriers: one full (the producer's arrival plus the bytes) and one empty
// (the 8 consumer warps) per stage.
// CHECK-COUNT-8: nvvm.mbarrier.init {{.+}}, %{{.+}} : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx
// Both maps are 3-d (their batches advance); B's 128 columns are two
// 64-column boxes.
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.+}} box[{{.+}}, {{.+}}, {{.+}}]
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// The epilogue stages the tile in shared memory between two consumer
// barriers, then adds the bias and stores, row by row.
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}}
// CHECK-COUNT-32: llvm.store {{.+}} : vector<2xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}}
// CHECK: scf.for
// CHECK: arith.addf
// CHECK: llvm.store
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<12x300x64xf16>, %arg1: tensor<12x64x256xf16>, %arg2: tensor<256xf16>) -> tensor<12x300x256xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [6, 1, 12]>} : (tensor<12x300x64xf16>, tensor<12x64x256xf16>, tensor<256xf16>) -> tensor<12x300x256xf16> {
    ^bb0(%arg3: tensor<12x300x64xf16>, %arg4: tensor<12x64x256xf16>, %arg5: tensor<256xf16>):
      %1 = brrr.matmul %arg3, %arg4 : tensor<12x300x64xf16>, tensor<12x64x256xf16> -> tensor<12x300x256xf16>
      %2 = brrr.add %1, %arg5 : tensor<12x300x256xf16>, tensor<256xf16> -> tensor<12x300x256xf16>
      brrr.yield %2 : tensor<12x300x256xf16>
    }
    return %0 : tensor<12x300x256xf16>
  }
}

// -----

// A Linear layer over a 4-d activation: B has no batch dimensions, so A's
// 4 x 7 x 56 rows fold into one product of 1568 rows (13 row tiles, whole:
// two slices are too few to split; one 2-d map), not 28 products of 56
// rows each padded to a 128-row tile.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.grid = array<i64: 13, 1, 1>
// CHECK-SAME: brrr.tensor_maps = [{box = array<i64: 64, 128>, dims = array<i64: 96, 1568>, input = 0 : i64, offset = 0 : i64, strides = array<i64: 192>, swizzle = 128 : i64}
// CHECK: gpu.func @fusion_0
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.+}} box[{{.+}}, {{.+}}]
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<4x7x56x96xf16>, %arg1: tensor<96x64xf16>) -> tensor<4x7x56x64xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [13, 1, 1]>} : (tensor<4x7x56x96xf16>, tensor<96x64xf16>) -> tensor<4x7x56x64xf16> {
    ^bb0(%arg2: tensor<4x7x56x96xf16>, %arg3: tensor<96x64xf16>):
      %1 = brrr.matmul %arg2, %arg3 : tensor<4x7x56x96xf16>, tensor<96x64xf16> -> tensor<4x7x56x64xf16>
      brrr.yield %1 : tensor<4x7x56x64xf16>
    }
    return %0 : tensor<4x7x56x64xf16>
  }
}
