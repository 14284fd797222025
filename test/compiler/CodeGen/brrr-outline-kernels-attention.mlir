// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-attention.mlir.

// BERT's attention from its projection: heads split by a reshape and
// transposes the kernel reads through, merged back by the transpose it
// stores through. 64 queries per block of 4 warps (grid: 2 query blocks, 3
// heads, batch 2); queries, two key and value buffers (9216 bytes each, 72
// halves a row), and the output staging over them after the loop.
// Prologue: the queries (2 copies a thread) and the first key and value
// block (4 + 4); the loop waits for its block, copies the next, and runs
// 4 x 4 x 2 products for the scores and as many with the values.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion attention(%arg0, %arg1, %arg2, %arg3)
// CHECK-SAME: brrr.block = array<i64: 128, 1, 1>
// CHECK-SAME: brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2, grid = [2, 3, 2]>
// CHECK-SAME: brrr.grid = array<i64: 2, 3, 2>
// CHECK-SAME: brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = query, offset = 0, bytes = 9216>, #brrr.buffer<role = key, offset = 9216, bytes = 9216>, #brrr.buffer<role = value, offset = 18432, bytes = 9216>, #brrr.buffer<role = key, index = 1, offset = 27648, bytes = 9216>, #brrr.buffer<role = value, index = 1, offset = 36864, bytes = 9216>, #brrr.buffer<role = output, offset = 0, bytes = 17408>], bytes = 46080>
// CHECK-SAME: (tensor<2x77x192xf16>, tensor<2x77x192xf16>, tensor<2x77x192xf16>, tensor<2x1x1x77xf16>) -> tensor<2x77x3x64xf16>
// CHECK: brrr.attention {{.*}} {scale = 2.500000e-01 : f64, zero_nan}
// CHECK: brrr.transpose {{.*}} {perm = array<i64: 0, 2, 1, 3>} : tensor<2x3x77x64xf16> -> tensor<2x77x3x64xf16>
// CHECK: gpu.func @fusion_0({{.+}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK-COUNT-2: nvvm.cp.async.shared.global {{.+}}, 16, cache = cg
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-8: nvvm.cp.async.shared.global {{.+}}, 16, cache = cg
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.ldmatrix {{.+}} layout = #nvvm.mma_layout<row>
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: gpu.barrier
// CHECK-COUNT-32: nvvm.mma.sync
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK: nvvm.ldmatrix {{.+}} layout = #nvvm.mma_layout<col>
// CHECK-COUNT-32: nvvm.mma.sync
// CHECK: scf.yield
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : vector<2xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
func.func @main(%arg0: tensor<2x77x192xf16>, %arg1: tensor<2x77x192xf16>, %arg2: tensor<2x77x192xf16>, %arg3: tensor<2x1x1x77xf16>) -> tensor<2x77x192xf16> {
  %0 = brrr.fusion attention(%arg0, %arg1, %arg2, %arg3) {brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2, grid = [2, 3, 2]>} : (tensor<2x77x192xf16>, tensor<2x77x192xf16>, tensor<2x77x192xf16>, tensor<2x1x1x77xf16>) -> tensor<2x77x3x64xf16> {
  ^bb0(%arg4: tensor<2x77x192xf16>, %arg5: tensor<2x77x192xf16>, %arg6: tensor<2x77x192xf16>, %arg7: tensor<2x1x1x77xf16>):
    %2 = brrr.reshape %arg4 : tensor<2x77x192xf16> -> tensor<2x77x3x64xf16>
    %3 = brrr.transpose %2 {perm = array<i64: 0, 2, 1, 3>} : tensor<2x77x3x64xf16> -> tensor<2x3x77x64xf16>
    %4 = brrr.reshape %arg5 : tensor<2x77x192xf16> -> tensor<2x77x3x64xf16>
    %5 = brrr.transpose %4 {perm = array<i64: 0, 2, 3, 1>} : tensor<2x77x3x64xf16> -> tensor<2x3x64x77xf16>
    %6 = brrr.transpose %5 {perm = array<i64: 0, 1, 3, 2>} : tensor<2x3x64x77xf16> -> tensor<2x3x77x64xf16>
    %7 = brrr.reshape %arg6 : tensor<2x77x192xf16> -> tensor<2x77x3x64xf16>
    %8 = brrr.transpose %7 {perm = array<i64: 0, 2, 1, 3>} : tensor<2x77x3x64xf16> -> tensor<2x3x77x64xf16>
    %9 = brrr.attention %3, %6, %8 bias %arg7 {scale = 2.500000e-01 : f64, zero_nan} : tensor<2x3x77x64xf16>, tensor<2x3x77x64xf16>, tensor<2x3x77x64xf16>, tensor<2x1x1x77xf16> -> tensor<2x3x77x64xf16>
    %10 = brrr.transpose %9 {perm = array<i64: 0, 2, 1, 3>} : tensor<2x3x77x64xf16> -> tensor<2x77x3x64xf16>
    brrr.yield %10 : tensor<2x77x3x64xf16>
  }
  %1 = brrr.reshape %0 : tensor<2x77x3x64xf16> -> tensor<2x77x192xf16>
  return %1 : tensor<2x77x192xf16>
}

// -----

// A causal attention whose output feeds a GELU: the pointwise kernel joins
// as the epilogue, so each element is stored on its own. The loop ends at
// the last key block a query block's last query sees.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion attention
// CHECK: brrr.attention {{.*}} {causal, scale = 1.000000e+00 : f64}
// CHECK-NEXT: brrr.gelu
// CHECK: gpu.func @fusion_0
// CHECK: arith.minui
// CHECK: scf.for
// CHECK: scf.yield
// CHECK-NOT: vector<4xi32>
// The f16 GELU's tail: exp2 of a polynomial, no erf and no reciprocal
// (the softmax's exp2 comes before it).
// CHECK-NOT: math.erf
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-NOT: math.erf
// CHECK-NOT: rcp.approx
// CHECK: arith.minimumf %{{.+}}, %{{.+}} : f32
// CHECK-COUNT-8: math.fma
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-NOT: rcp.approx
// CHECK: llvm.store {{.*}} : f16, !llvm.ptr<1>
func.func @main(%arg0: tensor<1x2x96x32xf16>, %arg1: tensor<1x2x32x96xf16>, %arg2: tensor<1x2x96x32xf16>) -> tensor<1x2x96x32xf16> {
  %0 = brrr.transpose %arg1 {perm = array<i64: 0, 1, 3, 2>} : tensor<1x2x32x96xf16> -> tensor<1x2x96x32xf16>
  %1 = brrr.fusion attention(%arg0, %0, %arg2) {brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2, grid = [2, 2, 1]>} : (tensor<1x2x96x32xf16>, tensor<1x2x96x32xf16>, tensor<1x2x96x32xf16>) -> tensor<1x2x96x32xf16> {
  ^bb0(%arg3: tensor<1x2x96x32xf16>, %arg4: tensor<1x2x96x32xf16>, %arg5: tensor<1x2x96x32xf16>):
    %2 = brrr.attention %arg3, %arg4, %arg5 {causal, scale = 1.000000e+00 : f64} : tensor<1x2x96x32xf16>, tensor<1x2x96x32xf16>, tensor<1x2x96x32xf16> -> tensor<1x2x96x32xf16>
    %3 = brrr.gelu none %2 : tensor<1x2x96x32xf16>
    brrr.yield %3 : tensor<1x2x96x32xf16>
  }
  return %1 : tensor<1x2x96x32xf16>
}

// -----

// A rank-5 bias (a mask for each of 4 windows, 2 heads) splits the batch
// entry, the grid's z: the kernel reads the bias at (z / 4, z % 4, head).
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_1
// CHECK: %[[Z:.+]] = gpu.block_id  z
// CHECK-DAG: arith.divui %[[Z]], %{{.+}} : index
// CHECK-DAG: arith.remui %[[Z]], %{{.+}} : index
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f16
func.func @main(%arg0: tensor<8x2x49x32xf16>, %arg1: tensor<8x2x32x49xf16>, %arg2: tensor<8x2x49x32xf16>, %arg3: tensor<1x2x49x49xf16>, %arg4: tensor<4x49x49xf16>) -> tensor<8x2x49x32xf16> {
  %0 = brrr.reshape %arg4 : tensor<4x49x49xf16> -> tensor<1x4x1x49x49xf16>
  %1 = brrr.transpose %arg1 {perm = array<i64: 0, 1, 3, 2>} : tensor<8x2x32x49xf16> -> tensor<8x2x49x32xf16>
  %2 = brrr.reshape %arg3 : tensor<1x2x49x49xf16> -> tensor<1x1x2x49x49xf16>
  %3 = brrr.fusion pointwise(%2, %0) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [10, 1, 1]>} : (tensor<1x1x2x49x49xf16>, tensor<1x4x1x49x49xf16>) -> tensor<1x4x2x49x49xf16> {
  ^bb0(%arg5: tensor<1x1x2x49x49xf16>, %arg6: tensor<1x4x1x49x49xf16>):
    %5 = brrr.add %arg5, %arg6 : tensor<1x1x2x49x49xf16>, tensor<1x4x1x49x49xf16> -> tensor<1x4x2x49x49xf16>
    brrr.yield %5 : tensor<1x4x2x49x49xf16>
  }
  %4 = brrr.fusion attention(%arg0, %1, %arg2, %3) {brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2, grid = [1, 2, 8]>} : (tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16>, tensor<1x4x2x49x49xf16>) -> tensor<8x2x49x32xf16> {
  ^bb0(%arg5: tensor<8x2x49x32xf16>, %arg6: tensor<8x2x49x32xf16>, %arg7: tensor<8x2x49x32xf16>, %arg8: tensor<1x4x2x49x49xf16>):
    %5 = brrr.attention %arg5, %arg6, %arg7 bias %arg8 {scale = 1.000000e+00 : f64} : tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16>, tensor<1x4x2x49x49xf16> -> tensor<8x2x49x32xf16>
    brrr.yield %5 : tensor<8x2x49x32xf16>
  }
  return %4 : tensor<8x2x49x32xf16>
}
