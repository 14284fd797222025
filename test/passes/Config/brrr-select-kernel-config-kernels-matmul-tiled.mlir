// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-matmul-tiled.mlir, which starts from them pinned.

// On sm_80, a staged f16 product with a bias epilogue: 128 threads per 128x128
// block tile (grid: N/128, M/128, batch; B has no batch, so A's 2 x 300
// rows are one product of 600), 56832 bytes of dynamic shared
// memory. Each stage takes 8 16-byte cp.async copies per thread (A:
// 128x32 halves = 512 chunks, 4 per thread; B: 32x128, 4 per thread); the
// loop waits for the oldest slice, copies the next, and runs 2 x 32
// mma.sync on fragments from ldmatrix (B transposed).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 3, grid = [2, 5, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
  func.func @main(%a: tensor<2x300x64xf16>, %b: tensor<64x256xf16>, %bias: tensor<256xf16>) -> tensor<2x300x256xf16> {
    %0 = brrr.matmul %a, %b : tensor<2x300x64xf16>, tensor<64x256xf16> -> tensor<2x300x256xf16>
    %1 = brrr.add %0, %bias : tensor<2x300x256xf16>, tensor<256xf16> -> tensor<2x300x256xf16>
    return %1 : tensor<2x300x256xf16>
  }
}
