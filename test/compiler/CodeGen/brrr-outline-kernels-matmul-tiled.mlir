// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-matmul-tiled.mlir.

// On sm_80, a staged f16 product with a bias epilogue: 128 threads per 128x128
// block tile (grid: N/128, M/128, batch; B has no batch, so A's 2 x 300
// rows are one product of 600), 56832 bytes of dynamic shared
// memory. Each stage takes 8 16-byte cp.async copies per thread (A:
// 128x32 halves = 512 chunks, 4 per thread; B: 32x128, 4 per thread); the
// loop waits for the oldest slice, copies the next, and runs 2 x 32
// mma.sync on fragments from ldmatrix (B transposed).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.block = array<i64: 128, 1, 1>{{.*}}brrr.grid = array<i64: 2, 5, 1>
// CHECK: gpu.func @fusion_0({{.+}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK-COUNT-8: nvvm.cp.async.shared.global {{.+}}, 16, cache = cg
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: gpu.barrier
// CHECK: nvvm.ldmatrix {{.+}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK: nvvm.ldmatrix {{.+}} layout = #nvvm.mma_layout<col>
// CHECK-COUNT-64: nvvm.mma.sync
// CHECK: scf.yield
// CHECK: arith.addf
// CHECK: llvm.store
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync>} {
  func.func @main(%arg0: tensor<2x300x64xf16>, %arg1: tensor<64x256xf16>, %arg2: tensor<256xf16>) -> tensor<2x300x256xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 3, grid = [2, 5, 1]>} : (tensor<2x300x64xf16>, tensor<64x256xf16>, tensor<256xf16>) -> tensor<2x300x256xf16> {
    ^bb0(%arg3: tensor<2x300x64xf16>, %arg4: tensor<64x256xf16>, %arg5: tensor<256xf16>):
      %1 = brrr.matmul %arg3, %arg4 : tensor<2x300x64xf16>, tensor<64x256xf16> -> tensor<2x300x256xf16>
      %2 = brrr.add %1, %arg5 : tensor<2x300x256xf16>, tensor<256xf16> -> tensor<2x300x256xf16>
      brrr.yield %2 : tensor<2x300x256xf16>
    }
    return %0 : tensor<2x300x256xf16>
  }
}
