// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-movement,brrr-select-kernel-config))' | FileCheck %s
// Over a symbolic element count, a pointwise kernel (or a movement tree of
// vectors) whose largest count unrolls four vectors a thread also takes a
// kernel of one vector a thread for the counts below the first that
// unrolls (8 f16 x 256 threads x 4 x 1056 blocks = 8650752 elements), as a
// static compile of each count would choose: at one row of 1024 it
// launches one block, not a quarter of one. Its range is the result's
// element count (brrr.variant_rows).

// CHECK-DAG: #[[MAIN:map[0-9]*]] = affine_map<()[s0] -> ((s0 * 1024) ceildiv 8192, 1, 1)>
// CHECK-DAG: #[[ROWS:map[0-9]*]] = affine_map<()[s0] -> (s0 * 1024)>
// CHECK-DAG: #[[ONE:map[0-9]*]] = affine_map<()[s0] -> ((s0 * 1024) ceildiv 2048, 1, 1)>
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise
// CHECK-SAME: brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, tile = [4], vector = 8, grid = [2048, 1, 1], grid_extents = #[[MAIN]]>
// CHECK-SAME: brrr.variant_rows = #[[ROWS]]
// CHECK-SAME: brrr.variants = [{config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [8192, 1, 1], grid_extents = #[[ONE]]>, rows = 8650751 : i64}]
// CHECK: brrr.fusion movement
// CHECK-SAME: brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [4], vector = 8, grid = [2048, 1, 1], grid_extents = #[[MAIN]]>
// CHECK-SAME: brrr.variant_rows = #[[ROWS]]
// CHECK-SAME: brrr.variants = [{config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [1], vector = 8, grid = [8192, 1, 1], grid_extents = #[[ONE]]>, rows = 8650751 : i64}]
module attributes {brrr.dims = [#brrr.dim<"rows", 1, 16384>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>, %p: tensor<?x1020xf16, #brrr.extents<()[s0] -> (s0, 1020)>>) -> (tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>, tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>) {
    %0 = brrr.exp %x : tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>
    %1 = brrr.pad constant %p {high = array<i64: 0, 4>, low = array<i64: 0, 0>, value = 0.0 : f64} : tensor<?x1020xf16, #brrr.extents<()[s0] -> (s0, 1020)>> -> tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>
    return %0, %1 : tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>, tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>
  }
}

// -----

// Where even the smallest count unrolls, or the largest does not, one
// kernel serves every count.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise
// CHECK-SAME: tile = [4]
// CHECK-NOT: brrr.variants
// CHECK: brrr.fusion pointwise
// CHECK-NOT: brrr.variants
// CHECK: return
module attributes {brrr.dims = [#brrr.dim<"rows", 8448, 16384>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>, %y: tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>) -> (tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>, tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>) {
    %0 = brrr.exp %x : tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>
    %1 = brrr.exp %y : tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>
    return %0, %1 : tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>, tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>
  }
}
