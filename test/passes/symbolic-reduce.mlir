// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-fuse-rows,brrr-fuse-movement,brrr-select-kernel-config,brrr-plan-shared-memory,brrr-plan-global-memory))' | FileCheck %s
// Reductions over a symbolic sequence ([batch][seq][64] to [batch][64]: a
// sentence embedding's mean over its tokens) run split rows
// ([outer][rows][inner]): a block per batch entry's vectors of 64, its
// groups of threads walking the actual rows (a kernel parameter), however
// few the largest shape's rows or many its outputs; the grid is the actual
// batch's blocks. A masked mean's division joins the sum's kernel as its
// epilogue. Rows up to the innermost axis take split rows of one element
// where they are symbolic (the last case).

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
  func.func @main(%x: tensor<?x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 64)>>, %m: tensor<?x?x1xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 1)>>) -> tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>> {
    %p = brrr.mul %x, %m : tensor<?x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 64)>>, tensor<?x?x1xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 1)>> -> tensor<?x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 64)>>
    %n = brrr.reduce sum %p {axes = array<i64: 1>, keepdims = false} : tensor<?x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 64)>> -> tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>
    %c = brrr.reduce sum %m {axes = array<i64: 1>, keepdims = false} : tensor<?x?x1xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 1)>> -> tensor<?x1xf16, #brrr.extents<()[s0] -> (s0, 1)>>
    %y = brrr.div %n, %c : tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>, tensor<?x1xf16, #brrr.extents<()[s0] -> (s0, 1)>> -> tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>
    return %y : tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>
  }
}
// CHECK: #[[GRID:map[0-9]*]] = affine_map<()[s0, s1] -> (s0, 1, 1)>
// CHECK-LABEL: func.func @main
// CHECK: %[[P:.+]] = brrr.fusion pointwise
// CHECK: brrr.mul
// CHECK: %[[C:.+]] = brrr.fusion reduce(%arg1) {brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 512, tile = [1, 512], grid = [8, 1, 1], grid_extents = #[[GRID]]>
// CHECK: brrr.reduce sum
// CHECK: brrr.fusion reduce(%[[P]], %[[C]]) {brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 1024, tile = [8, 128], vector = 8, grid = [8, 1, 1], grid_extents = #[[GRID]]>
// CHECK: brrr.reduce sum
// CHECK-NEXT: brrr.div
// CHECK-NEXT: brrr.yield

// -----

// A maximum over the sequence of a batch fixed at 2: the outputs are
// static, the rows not; split rows all the same, and never over a cluster.
module attributes {brrr.dims = [#brrr.dim<"seq", 1, 4096>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<2x?x64xf32, #brrr.extents<()[s0] -> (2, s0, 64)>>) -> tensor<2x1x64xf32> {
    %y = brrr.reduce max %x {axes = array<i64: 1>, keepdims = true} : tensor<2x?x64xf32, #brrr.extents<()[s0] -> (2, s0, 64)>> -> tensor<2x1x64xf32>
    return %y : tensor<2x1x64xf32>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion reduce(%arg0) {brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 1024, tile = [16, 64], vector = 4, grid = [2, 1, 1]{{(, grid_extents = #map[0-9]*)?}}>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.reduce max

// -----

// Symbolic rows up to the innermost axis (a padding mask's lengths, [batch,
// seq] summed over the sequence) are rows of one element: split rows of
// one lane, the groups walking the actual sequence.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
  func.func @main(%m: tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>) -> tensor<?xi64, #brrr.extents<()[s0] -> (s0)>> {
    %y = brrr.reduce sum %m {axes = array<i64: 1>, keepdims = false} : tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?xi64, #brrr.extents<()[s0] -> (s0)>>
    return %y : tensor<?xi64, #brrr.extents<()[s0] -> (s0)>>
  }
}
// CHECK: #[[GRID:map[0-9]*]] = affine_map<()[s0, s1] -> (s0, 1, 1)>
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion reduce(%arg0) {brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 512, tile = [1, 512], grid = [8, 1, 1], grid_extents = #[[GRID]]>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.reduce sum
