// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-channels-last,canonicalize,brrr-fuse-elementwise,brrr-fuse-matmul,brrr-fuse-conv,brrr-fuse-rows,brrr-fuse-movement,brrr-select-kernel-config))' | FileCheck %s
// Images over a symbolic batch: the channels-last layout carries the
// batch's extent through its transposes and pads, and every kernel family
// an image network needs takes it (symbolic-shapes-gate.mlir has what is
// refused). Configs are the largest shape's.

module attributes {brrr.dims = [#brrr.dim<"n", 1, 128>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x64x16x16xf16, #brrr.extents<()[s0] -> (s0, 64, 16, 16)>>, %w: tensor<64x64x3x3xf16>, %b: tensor<64xf16>) -> tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>> {
    %0 = brrr.conv2d %x, %w, %b {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x64x16x16xf16, #brrr.extents<()[s0] -> (s0, 64, 16, 16)>>, tensor<64x64x3x3xf16>, tensor<64xf16>) -> tensor<?x64x16x16xf16, #brrr.extents<()[s0] -> (s0, 64, 16, 16)>>
    %1 = brrr.relu %0 : tensor<?x64x16x16xf16, #brrr.extents<()[s0] -> (s0, 64, 16, 16)>>
    %2 = brrr.max_pool2d %1 {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<?x64x16x16xf16, #brrr.extents<()[s0] -> (s0, 64, 16, 16)>> -> tensor<?x64x8x8xf16, #brrr.extents<()[s0] -> (s0, 64, 8, 8)>>
    %3 = brrr.reduce mean %2 {axes = array<i64: 2, 3>, keepdims = false} : tensor<?x64x8x8xf16, #brrr.extents<()[s0] -> (s0, 64, 8, 8)>> -> tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>
    return %3 : tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>
  }
}
// Launch grids read at run time: the transpose's 16 tiles of each image;
// 132 persistent blocks at any batch; two
// blocks an image (of 128-row tiles, and of the pool's 256 threads, 8
// channels each, over 8 x 8 x 64 outputs); one block an image.
// CHECK: #[[BATCHES:map]] = affine_map<()[s0] -> (16, 1, s0)>
// CHECK: #[[PERSISTENT:map[0-9]*]] = affine_map<()[s0] -> (132, 1, 1)>
// CHECK: #[[PIXELS:map[0-9]*]] = affine_map<()[s0] -> (s0 * 256)>
// CHECK: #[[TWO_A_IMAGE:map[0-9]*]] = affine_map<()[s0] -> (s0 * 2, 1, 1)>
// CHECK: #[[ONE_AN_IMAGE:map[0-9]*]] = affine_map<()[s0] -> (s0, 1, 1)>
// CHECK-LABEL: func.func @main
// The NHWC copy of the input keeps the batch's extent.
// CHECK: brrr.fusion movement
// CHECK-SAME: brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [32, 8], grid = [16, 1, 128], grid_extents = #[[BATCHES]]>
// CHECK: brrr.transpose %{{.+}} {perm = array<i64: 0, 2, 3, 1>} : tensor<?x64x16x16xf16, #brrr.extents<()[s0] -> (s0, 64, 16, 16)>> -> tensor<?x16x16x64xf16, #brrr.extents<()[s0] -> (s0, 16, 16, 64)>>
// 256 tiles of 128 rows at the largest batch: persistent, as a static
// compile of that batch runs them, 132 blocks walking the actual rows'
// tiles; up to 16384 rows (64 images, 128 tiles), one block a tile, as a
// static compile of 64 images would.
// CHECK: brrr.fusion conv
// CHECK-SAME: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, persistent = 132, epilogue = 64, grid = [132, 1, 1], grid_extents = #[[PERSISTENT]]>, brrr.variant_rows = #[[PIXELS]], brrr.variants = [{config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [256, 1, 1], grid_extents = #[[TWO_A_IMAGE]]>, rows = 16384 : i64}]}
// CHECK: brrr.conv2d {{.+}} {channels_last,
// CHECK-SAME: -> tensor<?x16x16x64xf16, #brrr.extents<()[s0] -> (s0, 16, 16, 64)>>
// CHECK: brrr.fusion pool
// CHECK-SAME: brrr.config = #brrr.kernel<family = pool, body = simt, threads = 256, vector = 8, grid = [256, 1, 1], grid_extents = #[[TWO_A_IMAGE]]>
// CHECK: brrr.max_pool2d {{.+}} -> tensor<?x8x8x64xf16, #brrr.extents<()[s0] -> (s0, 8, 8, 64)>>
// The global mean reads the channels-last map in split rows ([n][64][64]:
// 8 lanes of 8-element vectors, 64 groups of rows), whose grid follows n.
// CHECK: brrr.fusion reduce
// CHECK-SAME: brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 512, tile = [8, 64], vector = 8, grid = [128, 1, 1], grid_extents = #[[ONE_AN_IMAGE]]>
// CHECK: brrr.reduce mean %{{.+}} {axes = array<i64: 1, 2>, keepdims = false} : tensor<?x8x8x64xf16, #brrr.extents<()[s0] -> (s0, 8, 8, 64)>> -> tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>

// -----

// An f32 product over symbolic rows runs the staged 3xTF32 body, and 16-bit
// rows TMA cannot read (10 columns: 20-byte rows) the untiled one.
module attributes {brrr.dims = [#brrr.dim<"n", 1, 128>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x64xf32, #brrr.extents<()[s0] -> (s0, 64)>>, %w: tensor<64x32xf32>, %h: tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>, %v: tensor<64x10xf16>) -> (tensor<?x32xf32, #brrr.extents<()[s0] -> (s0, 32)>>, tensor<?x10xf16, #brrr.extents<()[s0] -> (s0, 10)>>) {
    %0 = brrr.matmul %x, %w : tensor<?x64xf32, #brrr.extents<()[s0] -> (s0, 64)>>, tensor<64x32xf32> -> tensor<?x32xf32, #brrr.extents<()[s0] -> (s0, 32)>>
    %1 = brrr.matmul %h, %v : tensor<?x64xf16, #brrr.extents<()[s0] -> (s0, 64)>>, tensor<64x10xf16> -> tensor<?x10xf16, #brrr.extents<()[s0] -> (s0, 10)>>
    return %0, %1 : tensor<?x32xf32, #brrr.extents<()[s0] -> (s0, 32)>>, tensor<?x10xf16, #brrr.extents<()[s0] -> (s0, 10)>>
  }
}
// Their grids' rows: tiles of 64 rows, and warps of 16 rows.
// CHECK: #[[TILES:map]] = affine_map<()[s0] -> (1, s0 ceildiv 64, 1)>
// CHECK: #[[WARPS:map[0-9]*]] = affine_map<()[s0] -> (2, s0 ceildiv 16, 1)>
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul
// CHECK-SAME: brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [64, 64, 32], stages = 3, grid = [1, 2, 1], grid_extents = #[[TILES]]>
// CHECK: brrr.fusion matmul
// CHECK-SAME: brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [2, 8, 1], grid_extents = #[[WARPS]]>

// -----

// A ShuffleNetV2 block over a symbolic batch: the split, the concatenation
// and the shuffle run channels-last with the batch's extent, the slice of
// the branch a kernel of its own, the rest of the block one tree.
module attributes {brrr.dims = [#brrr.dim<"n", 1, 64>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x32x6x6xf16, #brrr.extents<()[s0] -> (s0, 32, 6, 6)>>, %w: tensor<32x32x1x1xf16>, %w1: tensor<16x16x1x1xf16>) -> tensor<?x32x6x6xf16, #brrr.extents<()[s0] -> (s0, 32, 6, 6)>> {
    %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x32x6x6xf16, #brrr.extents<()[s0] -> (s0, 32, 6, 6)>>, tensor<32x32x1x1xf16>) -> tensor<?x32x6x6xf16, #brrr.extents<()[s0] -> (s0, 32, 6, 6)>>
    %x1 = brrr.slice %c {sizes = array<i64: -9223372036854775808, 16, 6, 6>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>, extents = #brrr.extents<()[s0] -> (s0, 16, 6, 6)>} : tensor<?x32x6x6xf16, #brrr.extents<()[s0] -> (s0, 32, 6, 6)>> -> tensor<?x16x6x6xf16, #brrr.extents<()[s0] -> (s0, 16, 6, 6)>>
    %x2 = brrr.slice %c {sizes = array<i64: -9223372036854775808, 16, 6, 6>, starts = array<i64: 0, 16, 0, 0>, steps = array<i64: 1, 1, 1, 1>, extents = #brrr.extents<()[s0] -> (s0, 16, 6, 6)>} : tensor<?x32x6x6xf16, #brrr.extents<()[s0] -> (s0, 32, 6, 6)>> -> tensor<?x16x6x6xf16, #brrr.extents<()[s0] -> (s0, 16, 6, 6)>>
    %b = brrr.conv2d %x2, %w1 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x16x6x6xf16, #brrr.extents<()[s0] -> (s0, 16, 6, 6)>>, tensor<16x16x1x1xf16>) -> tensor<?x16x6x6xf16, #brrr.extents<()[s0] -> (s0, 16, 6, 6)>>
    %cat = brrr.concat %x1, %b {axis = 1 : i64} : (tensor<?x16x6x6xf16, #brrr.extents<()[s0] -> (s0, 16, 6, 6)>>, tensor<?x16x6x6xf16, #brrr.extents<()[s0] -> (s0, 16, 6, 6)>>) -> tensor<?x32x6x6xf16, #brrr.extents<()[s0] -> (s0, 32, 6, 6)>>
    %g = brrr.reshape %cat : tensor<?x32x6x6xf16, #brrr.extents<()[s0] -> (s0, 32, 6, 6)>> -> tensor<?x2x16x6x6xf16, #brrr.extents<()[s0] -> (s0, 2, 16, 6, 6)>>
    %t = brrr.transpose %g {perm = array<i64: 0, 2, 1, 3, 4>} : tensor<?x2x16x6x6xf16, #brrr.extents<()[s0] -> (s0, 2, 16, 6, 6)>> -> tensor<?x16x2x6x6xf16, #brrr.extents<()[s0] -> (s0, 16, 2, 6, 6)>>
    %y = brrr.reshape %t : tensor<?x16x2x6x6xf16, #brrr.extents<()[s0] -> (s0, 16, 2, 6, 6)>> -> tensor<?x32x6x6xf16, #brrr.extents<()[s0] -> (s0, 32, 6, 6)>>
    return %y : tensor<?x32x6x6xf16, #brrr.extents<()[s0] -> (s0, 32, 6, 6)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion movement
// CHECK: brrr.slice %{{.+}} {extents = #brrr.extents<()[s0] -> (s0, 6, 6, 16)>, sizes = array<i64: -9223372036854775808, 6, 6, 16>, starts = array<i64: 0, 0, 0, 16>, steps = array<i64: 1, 1, 1, 1>}
// CHECK: brrr.fusion movement
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.concat %{{.+}}, %{{.+}} {axis = 3 : i64}
// CHECK-NEXT: brrr.reshape %{{.+}} -> tensor<?x6x6x2x16xf16, #brrr.extents<()[s0] -> (s0, 6, 6, 2, 16)>>
// CHECK-NEXT: brrr.transpose %{{.+}} {perm = array<i64: 0, 1, 2, 4, 3>}
// CHECK-NEXT: brrr.reshape %{{.+}} -> tensor<?x6x6x32xf16, #brrr.extents<()[s0] -> (s0, 6, 6, 32)>>

// -----

// A squeeze-and-excitation block's two 1 x 1 convolutions of one pixel over
// a symbolic batch: the ranges of 1, 2, and 3 to 4 images run the
// one-pixel body (a warp an output channel, 8 a block, a tile of the
// range's rows rounded up to a power of two, 16-byte vectors of the input
// channels), the larger ranges the wgmma body.
module attributes {brrr.dims = [#brrr.dim<"n", 1, 128>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%p: tensor<?x64x1x1xf16, #brrr.extents<()[s0] -> (s0, 64, 1, 1)>>, %w1: tensor<16x64x1x1xf16>, %b1: tensor<16xf16>, %w2: tensor<64x16x1x1xf16>, %b2: tensor<64xf16>) -> tensor<?x64x1x1xf16, #brrr.extents<()[s0] -> (s0, 64, 1, 1)>> {
    %c1 = brrr.conv2d %p, %w1, %b1 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x64x1x1xf16, #brrr.extents<()[s0] -> (s0, 64, 1, 1)>>, tensor<16x64x1x1xf16>, tensor<16xf16>) -> tensor<?x16x1x1xf16, #brrr.extents<()[s0] -> (s0, 16, 1, 1)>>
    %r = brrr.relu %c1 : tensor<?x16x1x1xf16, #brrr.extents<()[s0] -> (s0, 16, 1, 1)>>
    %c2 = brrr.conv2d %r, %w2, %b2 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x16x1x1xf16, #brrr.extents<()[s0] -> (s0, 16, 1, 1)>>, tensor<64x16x1x1xf16>, tensor<64xf16>) -> tensor<?x64x1x1xf16, #brrr.extents<()[s0] -> (s0, 64, 1, 1)>>
    %s = brrr.sigmoid %c2 : tensor<?x64x1x1xf16, #brrr.extents<()[s0] -> (s0, 64, 1, 1)>>
    return %s : tensor<?x64x1x1xf16, #brrr.extents<()[s0] -> (s0, 64, 1, 1)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv
// CHECK-SAME: brrr.config = #brrr.kernel<family = conv, body = wgmma
// CHECK-SAME: brrr.variants = [{config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [1, 8], vector = 8, grid = [2, 1, 1]>, rows = 1 : i64}, {config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [2, 8], vector = 8, grid = [2, 1, 1]>, rows = 2 : i64}, {config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [4, 8], vector = 8, grid = [2, 1, 1]>, rows = 4 : i64}]
// CHECK: brrr.fusion conv
// CHECK-SAME: brrr.config = #brrr.kernel<family = conv, body = wgmma
// CHECK-SAME: brrr.variants = [{config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [1, 8], vector = 8, grid = [8, 1, 1]>, rows = 1 : i64}, {config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [2, 8], vector = 8, grid = [8, 1, 1]>, rows = 2 : i64}, {config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [4, 8], vector = 8, grid = [8, 1, 1]>, rows = 4 : i64}]
