// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-matmul.mlir.

// Rows that are not whole 16-byte chunks (N = 30) take the untiled
// warp_mma body: one warp per 16x8 output tile (grid: N/8, M/16, batch), K
// in steps of 16 through mma.sync m16n8k16 with f32 accumulators.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.block = array<i64: 32, 1, 1>{{.*}}brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [4, 2, 3]>, brrr.flops = 368640 : i64, brrr.grid = array<i64: 4, 2, 3>, brrr.kernel = "fusion_0"
// CHECK: gpu.func @fusion_0(%{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>) kernel attributes {known_block_size = array<i32: 32, 1, 1>}
// CHECK: scf.for
// CHECK: nvvm.mma.sync {{.+}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @main(%arg0: tensor<3x32x64xf16>, %arg1: tensor<3x64x30xf16>) -> tensor<3x32x30xf16> {
  %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [4, 2, 3]>} : (tensor<3x32x64xf16>, tensor<3x64x30xf16>) -> tensor<3x32x30xf16> {
  ^bb0(%arg2: tensor<3x32x64xf16>, %arg3: tensor<3x64x30xf16>):
    %1 = brrr.matmul %arg2, %arg3 : tensor<3x32x64xf16>, tensor<3x64x30xf16> -> tensor<3x32x30xf16>
    brrr.yield %1 : tensor<3x32x30xf16>
  }
  return %0 : tensor<3x32x30xf16>
}

// -----

// With B shared by every batch (no batch dimensions of its own), A's 3 x 32
// rows fold into one product of 96 rows: grid 4 x 6 x 1, each row's
// operand and output offsets plain row-major.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.flops = 368640 : i64, brrr.grid = array<i64: 4, 6, 1>
func.func @main(%arg0: tensor<3x32x64xf16>, %arg1: tensor<64x30xf16>) -> tensor<3x32x30xf16> {
  %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [4, 6, 1]>} : (tensor<3x32x64xf16>, tensor<64x30xf16>) -> tensor<3x32x30xf16> {
  ^bb0(%arg2: tensor<3x32x64xf16>, %arg3: tensor<64x30xf16>):
    %1 = brrr.matmul %arg2, %arg3 : tensor<3x32x64xf16>, tensor<64x30xf16> -> tensor<3x32x30xf16>
    brrr.yield %1 : tensor<3x32x30xf16>
  }
  return %0 : tensor<3x32x30xf16>
}

// -----

// A's batches fold only where its rows stay evenly spaced: through a
// transposed view they do not (batches 64 elements apart, rows 256), and the
// product keeps its 4 batches.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.grid = array<i64: 4, 2, 4>
func.func @main(%arg0: tensor<32x4x64xf16>, %arg1: tensor<64x30xf16>) -> tensor<4x32x30xf16> {
  %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [4, 2, 4]>} : (tensor<32x4x64xf16>, tensor<64x30xf16>) -> tensor<4x32x30xf16> {
  ^bb0(%arg2: tensor<32x4x64xf16>, %arg3: tensor<64x30xf16>):
    %1 = brrr.transpose %arg2 {perm = array<i64: 1, 0, 2>} : tensor<32x4x64xf16> -> tensor<4x32x64xf16>
    %2 = brrr.matmul %1, %arg3 : tensor<4x32x64xf16>, tensor<64x30xf16> -> tensor<4x32x30xf16>
    brrr.yield %2 : tensor<4x32x30xf16>
  }
  return %0 : tensor<4x32x30xf16>
}

// -----

// f32 operands split into tf32 high and low parts: three products per step.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: arith.constant -8192 : i32
// CHECK-COUNT-3: nvvm.mma.sync {{.+}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
func.func @main(%arg0: tensor<16x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<16x8xf32> {
  %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [64, 64, 16], stages = 3, grid = [1, 1, 1]>} : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32> {
  ^bb0(%arg2: tensor<16x8xf32>, %arg3: tensor<8x8xf32>):
    %1 = brrr.matmul %arg2, %arg3 : tensor<16x8xf32>, tensor<8x8xf32> -> tensor<16x8xf32>
    brrr.yield %1 : tensor<16x8xf32>
  }
  return %0 : tensor<16x8xf32>
}

// -----

// A fused epilogue runs on the accumulators: the bias is read at its
// broadcast index, the tanh GELU computed in f32 as x sigmoid(2u) (an
// exp2 and a reciprocal, no tanh), one f16 store.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0(%{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>) kernel
// CHECK: nvvm.mma.sync
// CHECK: arith.remui
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f16
// CHECK: arith.extf
// CHECK-NOT: math.tanh
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"
// CHECK-NOT: math.tanh
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: llvm.store
// CHECK-NOT: gpu.func @fusion_1
func.func @main(%arg0: tensor<32x64xf16>, %arg1: tensor<64x30xf16>, %arg2: tensor<30xf16>) -> tensor<32x30xf16> {
  %0 = brrr.fusion matmul(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [4, 2, 1]>} : (tensor<32x64xf16>, tensor<64x30xf16>, tensor<30xf16>) -> tensor<32x30xf16> {
  ^bb0(%arg3: tensor<32x64xf16>, %arg4: tensor<64x30xf16>, %arg5: tensor<30xf16>):
    %1 = brrr.matmul %arg3, %arg4 : tensor<32x64xf16>, tensor<64x30xf16> -> tensor<32x30xf16>
    %2 = brrr.add %1, %arg5 : tensor<32x30xf16>, tensor<30xf16> -> tensor<32x30xf16>
    %3 = brrr.gelu tanh %2 : tensor<32x30xf16>
    brrr.yield %3 : tensor<32x30xf16>
  }
  return %0 : tensor<32x30xf16>
}

// -----

// An f32 product too small to fill sm_90a with 64 x 64 tiles (2 x 12 of
// them) splits each tile's 24 k-slices over a cluster of 4 blocks (6
// each; grid x = 12 tiles x 4). Each block stages its accumulators in
// "partials", the cluster synchronizes, and each block sums its quarter of
// the warp tiles over the 4 blocks' partials (mapa into each peer's shared
// memory) before the epilogue; a last cluster barrier keeps every block's
// partials alive until all are read.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}body = mma_sync, threads = 128, tile = [64, 64, 32], stages = 3, cluster = 4, grid = [48, 2, 1]>{{.*}}brrr.grid = array<i64: 48, 2, 1>{{.*}}#brrr.buffer<role = partials
// CHECK: gpu.func @fusion_0({{.+}} kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.cluster_dim = array<i32: 4, 1, 1>, nvvm.minctasm = 2 : i32}
// CHECK: scf.for
// CHECK-COUNT-3: nvvm.mma.sync {{.+}}shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// CHECK: gpu.barrier
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: arith.cmpi eq
// CHECK-NEXT: scf.if
// CHECK-COUNT-4: nvvm.mapa
// CHECK: llvm.store
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.return
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<128x768xf32>, %arg1: tensor<768x768xf32>) -> tensor<128x768xf32> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [64, 64, 32], stages = 3, cluster = 4, grid = [48, 2, 1]>} : (tensor<128x768xf32>, tensor<768x768xf32>) -> tensor<128x768xf32> {
    ^bb0(%arg2: tensor<128x768xf32>, %arg3: tensor<768x768xf32>):
      %1 = brrr.matmul %arg2, %arg3 : tensor<128x768xf32>, tensor<768x768xf32> -> tensor<128x768xf32>
      brrr.yield %1 : tensor<128x768xf32>
    }
    return %0 : tensor<128x768xf32>
  }
}
