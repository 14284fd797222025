// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-rows,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-row.mlir, which starts from them pinned.

// One block per row: 4096 f16 columns are 512 16-byte vectors, so 128
// threads hold 4 each; the max and the sum are block reductions through
// warp shuffles and the planned scratch in dynamic shared memory (4 warps:
// 16 bytes each; the sum's scratch at byte 16, float 4).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, vector = 8, grid = [64, 1, 1]>
func.func @main(%x: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  %0 = brrr.softmax %x {axis = 1 : i64} : tensor<64x4096xf16>
  return %0 : tensor<64x4096xf16>
}

// -----

// A ragged row (999 columns) uses scalar lanes masked past the end.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 256, grid = [3, 1, 1]>
func.func @main(%x: tensor<3x999xf32>, %g: tensor<999xf32>) -> tensor<3x999xf32> {
  %0 = brrr.layer_norm %x, %g {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<3x999xf32>, tensor<999xf32>) -> tensor<3x999xf32>
  return %0 : tensor<3x999xf32>
}

// -----

// A trailing reduction writes one value per row from lane 0 of its row: 49
// one-wide vectors take a warp, four rows a block.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [4, 32], grid = [4, 1, 1]>
func.func @main(%x: tensor<2x8x7x7xf16>) -> tensor<2x8x1x1xf16> {
  %0 = brrr.reduce max %x {axes = array<i64: 2, 3>, keepdims = true} : tensor<2x8x7x7xf16> -> tensor<2x8x1x1xf16>
  return %0 : tensor<2x8x1x1xf16>
}

// -----

// A reduction over a leading axis: one thread per output element (8*7 = 56
// of a 256-thread block) walks the 2 reduced elements, 56 apart.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256, grid = [1, 1, 1]>
func.func @main(%x: tensor<2x8x7xf16>) -> tensor<8x7xf16> {
  %0 = brrr.reduce mean %x {axes = array<i64: 0>, keepdims = false} : tensor<2x8x7xf16> -> tensor<8x7xf16>
  return %0 : tensor<8x7xf16>
}

// -----

// Integer reductions take the signed combiner of their element type.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256, grid = [1, 1, 1]>
func.func @main(%x: tensor<5x6xi64>) -> tensor<5xi64> {
  %0 = brrr.reduce max %x {axes = array<i64: 1>, keepdims = false} : tensor<5x6xi64> -> tensor<5xi64>
  return %0 : tensor<5xi64>
}

// -----

// A whole tensor reduced to one value: one block cooperates on it. Thread t
// walks elements t, t + 256, ..., then the partial results combine in a
// tree through the shared slots (widths 128 down to 1, a barrier after
// each) and thread 0 stores the sum.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256, tile = [256], grid = [1, 1, 1]>
func.func @main(%x: tensor<3x1001xi32>) -> tensor<i32> {
  %0 = brrr.reduce sum %x {axes = array<i64: 0, 1>, keepdims = false} : tensor<3x1001xi32> -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

// A mean over H and W of NHWC splits its rows: a block per batch element
// (grid 2) takes the 64 channels as 8 lanes of 8-element vectors, and 100
// groups (800 threads) walk the 100 rows, four loads in flight per step.
// Each thread leaves its 8 sums in shared slots; the groups combine in a
// tree (widths 64 down to 1: 7 levels, a barrier after each, after the
// first stores' one) and the 8 threads of group 0 divide and store their
// vectors.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 800, tile = [8, 100], vector = 8, grid = [2, 1, 1]>
func.func @main(%x: tensor<2x10x10x64xf16>) -> tensor<2x1x1x64xf16> {
  %0 = brrr.reduce mean %x {axes = array<i64: 1, 2>, keepdims = true} : tensor<2x10x10x64xf16> -> tensor<2x1x1x64xf16>
  return %0 : tensor<2x1x1x64xf16>
}

// -----

// An RMS norm reduces once (the mean square: no mean, no centring), then
// scales each element by rsqrt and the weight. A layer norm over the same
// row reduces twice.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 64, vector = 8, grid = [16, 1, 1]>
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 64, vector = 8, grid = [16, 1, 1]>
func.func @main(%x: tensor<16x2048xf16>, %g: tensor<2048xf16>) -> (tensor<16x2048xf16>, tensor<16x2048xf16>) {
  %0 = brrr.layer_norm %x, %g {axis = 1 : i64, epsilon = 1.0e-06 : f64, rms} : (tensor<16x2048xf16>, tensor<2048xf16>) -> tensor<16x2048xf16>
  %1 = brrr.layer_norm %x, %g {axis = 1 : i64, epsilon = 1.0e-06 : f64} : (tensor<16x2048xf16>, tensor<2048xf16>) -> tensor<16x2048xf16>
  return %0, %1 : tensor<16x2048xf16>, tensor<16x2048xf16>
}

// -----

// Split rows whose blocks would leave the multiprocessors idle split their
// rows over a cluster: a squeeze-and-excitation pool at batch 1 (5625 rows
// of 144 channels, one block of 18 lanes and 56 groups) over 8 blocks, a
// sum of 361 rows of 816 f32 channels (7 blocks of 32 lanes of 4-element
// vectors) over 2, each thread keeping
// four rows or more. A max, and the same mean on a target without
// clusters, keep one block.
// CHECK-LABEL: func.func @ClusterRows
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 1024, tile = [18, 56], vector = 8, cluster = 8, grid = [8, 1, 1]>
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 1024, tile = [32, 32], vector = 4, cluster = 2, grid = [14, 1, 1]>
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 1024, tile = [18, 56], vector = 8, grid = [1, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @ClusterRows(%x: tensor<1x75x75x144xf16>, %y: tensor<1x19x19x816xf32>) -> (tensor<1x1x1x144xf16>, tensor<1x816xf32>, tensor<1x1x1x144xf16>) {
  %0 = brrr.reduce mean %x {axes = array<i64: 1, 2>, keepdims = true} : tensor<1x75x75x144xf16> -> tensor<1x1x1x144xf16>
  %1 = brrr.reduce sum %y {axes = array<i64: 1, 2>, keepdims = false} : tensor<1x19x19x816xf32> -> tensor<1x816xf32>
  %2 = brrr.reduce max %x {axes = array<i64: 1, 2>, keepdims = true} : tensor<1x75x75x144xf16> -> tensor<1x1x1x144xf16>
  return %0, %1, %2 : tensor<1x1x1x144xf16>, tensor<1x816xf32>, tensor<1x1x1x144xf16>
}
}

// -----

// CHECK-LABEL: func.func @NoClusters
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 1024, tile = [18, 56], vector = 8, grid = [1, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
func.func @NoClusters(%x: tensor<1x75x75x144xf16>) -> tensor<1x1x1x144xf16> {
  %0 = brrr.reduce mean %x {axes = array<i64: 1, 2>, keepdims = true} : tensor<1x75x75x144xf16> -> tensor<1x1x1x144xf16>
  return %0 : tensor<1x1x1x144xf16>
}
}
