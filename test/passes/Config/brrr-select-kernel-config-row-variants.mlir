// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-matmul,brrr-select-kernel-config))' | FileCheck %s
// A matmul over symbolic rows takes a kernel for each range of rows whose
// config differs from the next range's, the ranges split at each power of
// two and at three quarters of it. BERT-base's 768 -> 2304 product over 1 to
// 4096 rows: each range takes the config a static compile of its largest
// rows would. From 1537 rows the tiles outnumber the 132 multiprocessors
// and the product (768 deep, no epilogue) runs the overlapped persistent
// schedule of 192-wide tiles, its blocks walking the actual rows' tiles;
// at 1025 to 1536 rows 108 tiles 256 wide fill one wave. The largest
// range's config is the fusion's own. Its weight is read along N: no
// range runs the few-rows body.
// CHECK: #[[PERSISTENT:.+]] = affine_map<()[s0] -> (132, 1, 1)>
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul
// CHECK-SAME: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1], grid_extents = #[[PERSISTENT]]>
// CHECK-SAME: brrr.variants = [{config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, cluster = 2, {{.*}}>, rows = 128 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, {{.*}}>, rows = 384 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, {{.*}}>, rows = 768 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 64], stages = 4, {{.*}}>, rows = 1024 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, grid = [288, 1, 1], {{.*}}>, rows = 1536 : i64}]}
module attributes {brrr.dims = [#brrr.dim<"rows", 1, 4096>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x768xf16, #brrr.extents<()[s0] -> (s0, 768)>>, %w: tensor<768x2304xf16>) -> tensor<?x2304xf16, #brrr.extents<()[s0] -> (s0, 2304)>> {
    %0 = brrr.matmul %x, %w : tensor<?x768xf16, #brrr.extents<()[s0] -> (s0, 768)>>, tensor<768x2304xf16> -> tensor<?x2304xf16, #brrr.extents<()[s0] -> (s0, 2304)>>
    return %0 : tensor<?x2304xf16, #brrr.extents<()[s0] -> (s0, 2304)>>
  }
}

// -----

// The same product with its weight K-major (brrr-align-products stores a
// constant one so where the rows go down to one): the ranges of 1, 2 and
// 3 to 4 rows run the few-rows body, a warp a column of all the range's
// rows (rounded up to a power of two), 8 columns a block, in 16-byte
// vectors; from 5 rows the ranges are the wgmma ones above.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul
// CHECK-SAME: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped
// CHECK-SAME: brrr.variants = [{config = #brrr.kernel<family = matmul, body = simt, threads = 256, tile = [1, 8], vector = 8, grid = [288, 1, 1]>, rows = 1 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = simt, threads = 256, tile = [2, 8], vector = 8, grid = [288, 1, 1]>, rows = 2 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = simt, threads = 256, tile = [4, 8], vector = 8, grid = [288, 1, 1]>, rows = 4 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, cluster = 2, {{.*}}>, rows = 128 : i64},
module attributes {brrr.dims = [#brrr.dim<"rows", 1, 4096>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x768xf16, #brrr.extents<()[s0] -> (s0, 768)>>, %wt: tensor<2304x768xf16>) -> tensor<?x2304xf16, #brrr.extents<()[s0] -> (s0, 2304)>> {
    %w = brrr.transpose %wt {perm = array<i64: 1, 0>} : tensor<2304x768xf16> -> tensor<768x2304xf16>
    %0 = brrr.matmul %x, %w : tensor<?x768xf16, #brrr.extents<()[s0] -> (s0, 768)>>, tensor<768x2304xf16> -> tensor<?x2304xf16, #brrr.extents<()[s0] -> (s0, 2304)>>
    return %0 : tensor<?x2304xf16, #brrr.extents<()[s0] -> (s0, 2304)>>
  }
}

// -----

// Rows from 8: no range takes the few-rows body.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul
// CHECK-NOT: body = simt
// CHECK: return
module attributes {brrr.dims = [#brrr.dim<"rows", 1, 512>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x768xf16, #brrr.extents<()[s0] -> (s0 * 8, 768)>>, %wt: tensor<2304x768xf16>) -> tensor<?x2304xf16, #brrr.extents<()[s0] -> (s0 * 8, 2304)>> {
    %w = brrr.transpose %wt {perm = array<i64: 1, 0>} : tensor<2304x768xf16> -> tensor<768x2304xf16>
    %0 = brrr.matmul %x, %w : tensor<?x768xf16, #brrr.extents<()[s0] -> (s0 * 8, 768)>>, tensor<768x2304xf16> -> tensor<?x2304xf16, #brrr.extents<()[s0] -> (s0 * 8, 2304)>>
    return %0 : tensor<?x2304xf16, #brrr.extents<()[s0] -> (s0 * 8, 2304)>>
  }
}
