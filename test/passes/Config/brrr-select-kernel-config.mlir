// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-fuse-matmul,brrr-fuse-conv,brrr-select-kernel-config))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-fuse-matmul,brrr-fuse-conv,brrr-select-kernel-config{matmul-tile=128,128,3}))' | FileCheck %s --check-prefix=PINNED
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-fuse-matmul,brrr-fuse-conv,brrr-select-kernel-config{persistent=true}))' | FileCheck %s --check-prefix=PERSIST
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-fuse-matmul,brrr-fuse-conv,brrr-select-kernel-config{persistent=true matmul-tile=128,128,3}))' | FileCheck %s --check-prefix=PINNEDPERSIST
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-fuse-matmul,brrr-fuse-conv,brrr-select-kernel-config{pingpong=true}))' | FileCheck %s --check-prefix=PINGPONG
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-fuse-matmul,brrr-fuse-conv,brrr-select-kernel-config{overlap=true}))' | FileCheck %s --check-prefix=OVERLAP
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-fuse-matmul,brrr-fuse-conv,brrr-select-kernel-config{drain-warpgroup=always}))' | FileCheck %s --check-prefix=DRAIN
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-movement,brrr-select-kernel-config))' | FileCheck %s --check-prefix=MOVE
// RUN: not brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-select-kernel-config{matmul-tile=128,128}))' 2>&1 | FileCheck %s --check-prefix=BADPIN
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-matmul,brrr-select-kernel-config{attention-tile=64,128,2}))' | FileCheck %s --check-prefix=ATTENTIONPIN
// RUN: not brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-select-kernel-config{attention-tile=64,64}))' 2>&1 | FileCheck %s --check-prefix=BADATTENTIONPIN
// BADATTENTIONPIN: attention-tile takes rows,keys,warps; got 2 values

// What brrr-select-kernel-config chooses; what is built from it is checked
// by the planner's and the code generator's tests.

// Pointwise kernels: 256 threads, 16-byte vectors of the widest element
// (4 f32, 8 f16), narrowed until they divide the element count (999 f16
// elements: 1).
// CHECK-LABEL: func.func @PointwiseVectorWidths
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, grid = [4, 1, 1]>
// BADPIN: matmul-tile takes m,n,stages; got 2 values
func.func @PointwiseVectorWidths(%x: tensor<1024xf32>, %h: tensor<1024xf16>, %o: tensor<999xf16>) -> (tensor<1024xf32>, tensor<1024xf16>, tensor<999xf16>) {
  %0 = brrr.exp %x : tensor<1024xf32>
  %1 = brrr.exp %h : tensor<1024xf16>
  %2 = brrr.exp %o : tensor<999xf16>
  return %0, %1, %2 : tensor<1024xf32>, tensor<1024xf16>, tensor<999xf16>
}

// -----

// A thread computes four vectors, all loaded first, once the grid still
// holds 1056 blocks (4M f32 elements; 8M f16); two where the body calls sin
// or cos (their slow path's registers).
// CHECK-LABEL: func.func @VectorsPerThread
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, tile = [4], vector = 4, grid = [1056, 1, 1]>
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, tile = [2], vector = 8, grid = [2112, 1, 1]>
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [4220, 1, 1]>
func.func @VectorsPerThread(%x: tensor<4096x1056xf32>, %h: tensor<8192x1056xf16>, %s: tensor<4096x1055xf32>) -> (tensor<4096x1056xf32>, tensor<8192x1056xf16>, tensor<4096x1055xf32>) {
  %0 = brrr.exp %x : tensor<4096x1056xf32>
  %1 = brrr.cos %h : tensor<8192x1056xf16>
  %2 = brrr.exp %s : tensor<4096x1055xf32>
  return %0, %1, %2 : tensor<4096x1056xf32>, tensor<8192x1056xf16>, tensor<4096x1055xf32>
}

// -----

// Row kernels: the block size and vector width of the register-resident
// row (4096 f32: 256 threads of 4-wide vectors).
// CHECK-LABEL: func.func @RowGeometry
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 256, vector = 4, grid = [2, 1, 1]>
func.func @RowGeometry(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  %0 = brrr.softmax %x {axis = 1 : i64} : tensor<2x4096xf32>
  return %0 : tensor<2x4096xf32>
}

// Rows of at most 16 vectors are packed into 128-thread blocks: a ConvNeXt
// layer norm over 96 f16 channels (12 vectors) takes 16 lanes, 8 rows a
// block. Rows of 17 to 128 vectors take a warp each, four a block: 17 f32
// columns (17 one-wide vectors), BERT's layer norm over 768 f16 channels
// (96 vectors, three a lane) and a softmax over 1024 (128). Longer rows
// take more threads, one row a block: 2048 f16 columns, 64 threads. So do
// rows of more than 64 vectors summed from two tensors (a residual's layer
// norm over 768), one warp a block; over 384 (48 vectors) they take a warp
// each, four a block.
// CHECK-LABEL: func.func @PackedRows
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [8, 16], vector = 8, grid = [392, 1, 1]>
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [4, 32], grid = [2, 1, 1]>
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [4, 32], vector = 8, grid = [4, 1, 1]>
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [4, 32], vector = 8, grid = [3, 1, 1]>
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 64, vector = 8, grid = [9, 1, 1]>
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 32, vector = 8, grid = [16, 1, 1]>
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [4, 32], vector = 8, grid = [4, 1, 1]>
func.func @PackedRows(%x: tensor<3136x96xf16>, %g: tensor<96xf16>, %b: tensor<96xf16>, %y: tensor<5x17xf32>, %z: tensor<16x768xf16>, %g2: tensor<768xf16>, %s: tensor<9x1024xf16>, %w: tensor<9x2048xf16>, %r: tensor<16x768xf16>, %h: tensor<15x384xf16>, %v: tensor<15x384xf16>, %g3: tensor<384xf16>) -> (tensor<3136x96xf16>, tensor<5x17xf32>, tensor<16x768xf16>, tensor<9x1024xf16>, tensor<9x2048xf16>, tensor<16x768xf16>, tensor<15x384xf16>) {
  %0 = brrr.layer_norm %x, %g, %b {axis = 1 : i64, epsilon = 1.0e-6 : f64} : (tensor<3136x96xf16>, tensor<96xf16>, tensor<96xf16>) -> tensor<3136x96xf16>
  %1 = brrr.softmax %y {axis = 1 : i64} : tensor<5x17xf32>
  %2 = brrr.layer_norm %z, %g2 {axis = 1 : i64, epsilon = 1.0e-12 : f64} : (tensor<16x768xf16>, tensor<768xf16>) -> tensor<16x768xf16>
  %3 = brrr.softmax %s {axis = 1 : i64} : tensor<9x1024xf16>
  %4 = brrr.softmax %w {axis = 1 : i64} : tensor<9x2048xf16>
  %5 = brrr.add %z, %r : tensor<16x768xf16>, tensor<16x768xf16> -> tensor<16x768xf16>
  %6 = brrr.layer_norm %5, %g2 {axis = 1 : i64, epsilon = 1.0e-12 : f64} : (tensor<16x768xf16>, tensor<768xf16>) -> tensor<16x768xf16>
  %7 = brrr.layer_norm %h, %g3 {axis = 1 : i64, epsilon = 1.0e-5 : f64} : (tensor<15x384xf16>, tensor<384xf16>) -> tensor<15x384xf16>
  %8 = brrr.add %v, %7 : tensor<15x384xf16>, tensor<15x384xf16> -> tensor<15x384xf16>
  return %0, %1, %2, %3, %4, %6, %8 : tensor<3136x96xf16>, tensor<5x17xf32>, tensor<16x768xf16>, tensor<9x1024xf16>, tensor<9x2048xf16>, tensor<16x768xf16>, tensor<15x384xf16>
}

// -----

// On sm_90a, an f16 product TMA can read runs the wgmma body, 4 stages
// deep. The tile width minimizes waves x time per tile: BERT's 4096x3072
// MLP product takes 128x256 (384 tiles, 3 waves; 128x128 would need 6
// waves of 0.8-rate tiles); a product of a few tiles takes 128x128, then
// narrows to 128x64 with a ring as deep as its one slice (two stages):
// eight blocks instead of four (@ClusterSplits shows the estimate).
// With `persistent`, tiles that outnumber the 132 multiprocessors make the
// kernel persistent: 132 blocks, the epilogue staged in the widest column
// chunk that fits beside the stages, with a ring one stage shorter where
// that makes it 64 or more (128 of 256 beside three 48 KiB stages, where
// four would leave room for 32; the whole 128 beside three 32 KiB ones,
// pinned). A pinned tile is made persistent or not for its own tile count;
// 4 tiles never are. With `pingpong`, the tile narrows to 128 columns (768
// tiles), four stages, and its consumer warpgroups take turns. With
// `overlap`, the whole tile is staged for the producer warpgroup's
// epilogue warps, as it is by default for this product (768 deep, no
// epilogue; see @OverlapByDefault): 256 columns in f16 (66 KiB) would
// leave room for three 48 KiB stages, so the tile narrows to 192 columns
// (50 KiB) beside four 40 KiB ones, 3072 being as many 192-column tiles.
// CHECK-LABEL: func.func @WgmmaTiles
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 2, grid = [8, 1, 1]>
// PINNED-LABEL: func.func @WgmmaTiles
// PINNED: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 3, grid = [4, 1, 1]>
// PINNED: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 3, grid = [768, 1, 1]>
// PERSIST-LABEL: func.func @WgmmaTiles
// PERSIST: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, grid = [132, 1, 1]>
// PERSIST: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 2, grid = [8, 1, 1]>
// PINGPONG-LABEL: func.func @WgmmaTiles
// PINGPONG: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, persistent = 132, epilogue = 128, schedule = pingpong, grid = [132, 1, 1]>
// PINGPONG: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 2, grid = [8, 1, 1]>
// OVERLAP-LABEL: func.func @WgmmaTiles
// OVERLAP: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// OVERLAP: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 2, grid = [8, 1, 1]>
// PINNEDPERSIST-LABEL: func.func @WgmmaTiles
// PINNEDPERSIST: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 3, persistent = 132, epilogue = 128, grid = [132, 1, 1]>
// PINNEDPERSIST: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 3, grid = [4, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @WgmmaTiles(%a: tensor<4096x768xf16>, %b: tensor<768x3072xf16>, %c: tensor<256x64xf16>, %d: tensor<64x256xf16>) -> (tensor<4096x3072xf16>, tensor<256x256xf16>) {
    %0 = brrr.matmul %a, %b : tensor<4096x768xf16>, tensor<768x3072xf16> -> tensor<4096x3072xf16>
    %1 = brrr.matmul %c, %d : tensor<256x64xf16>, tensor<64x256xf16> -> tensor<256x256xf16>
    return %0, %1 : tensor<4096x3072xf16>, tensor<256x256xf16>
  }
}

// -----

// 192-wide tiles where they save a wave: 4096 x 768 makes 128 of them (one
// wave of 132; 96 of 256 would leave 36 multiprocessors idle), 4096 x 2304
// three full waves of 384 (288 of 256 also take three, the last a sixth
// full); 4096 x 3072 stays at 256 (384 tiles, three full waves). The last
// two outnumber the multiprocessors and run overlapped, where 4096 x 3072
// narrows to 192 columns too: four stages beside the staged tile, where
// 256 columns leave room for three.
// CHECK-LABEL: func.func @WgmmaTileWidths
// CHECK: tile = [128, 192, 64], stages = 4, grid = [128, 1, 1]>
// CHECK-SAME: -> tensor<4096x768xf16>
// CHECK: tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// CHECK-SAME: -> tensor<4096x2304xf16>
// CHECK: tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// CHECK-SAME: -> tensor<4096x3072xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @WgmmaTileWidths(%a: tensor<4096x768xf16>, %b: tensor<768x768xf16>, %c: tensor<768x2304xf16>, %d: tensor<768x3072xf16>) -> (tensor<4096x768xf16>, tensor<4096x2304xf16>, tensor<4096x3072xf16>) {
    %0 = brrr.matmul %a, %b : tensor<4096x768xf16>, tensor<768x768xf16> -> tensor<4096x768xf16>
    %1 = brrr.matmul %a, %c : tensor<4096x768xf16>, tensor<768x2304xf16> -> tensor<4096x2304xf16>
    %2 = brrr.matmul %a, %d : tensor<4096x768xf16>, tensor<768x3072xf16> -> tensor<4096x3072xf16>
    return %0, %1, %2 : tensor<4096x768xf16>, tensor<4096x2304xf16>, tensor<4096x3072xf16>
  }
}

// -----

// Products whose tiles outnumber the multiprocessors run overlapped by
// default where each tile's main loop is 768 deep or more and the epilogue
// light (a bias: an add), or 1536 deep or more with a heavier epilogue. An
// epilogue that reads a residual, or a heavier one under 1536 deep (an
// erf 768 deep), runs it with a drain warpgroup of its own (512 threads,
// 192-wide tiles): three epilogue warps would fall behind the consumers.
// A 512-deep product keeps one block per tile.
// CHECK-LABEL: func.func @OverlapByDefault
// CHECK: threads = 512, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// CHECK: brrr.add
// CHECK-NEXT: brrr.add
// CHECK: threads = 512, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// CHECK: brrr.erf
// CHECK: threads = 384, tile = [128, 256, 64], stages = 4, grid = [384, 1, 1]>
// CHECK-SAME: -> tensor<4096x3072xf16>
// CHECK: schedule = overlapped, grid = [132, 1, 1]>
// CHECK: brrr.erf
// CHECK-SAME: tensor<4096x3072xf16>
// CHECK: tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.matmul
// CHECK-NEXT: brrr.add
// CHECK-NEXT: brrr.yield
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @OverlapByDefault(%a: tensor<4096x768xf16>, %w: tensor<768x3072xf16>, %bias: tensor<3072xf16>, %r: tensor<4096x3072xf16>, %a2: tensor<4096x512xf16>, %w2: tensor<512x3072xf16>, %a3: tensor<4096x1536xf16>, %w3: tensor<1536x3072xf16>) -> (tensor<4096x3072xf16>, tensor<4096x3072xf16>, tensor<4096x3072xf16>, tensor<4096x3072xf16>, tensor<4096x3072xf16>) {
    %0 = brrr.matmul %a, %w : tensor<4096x768xf16>, tensor<768x3072xf16> -> tensor<4096x3072xf16>
    %1 = brrr.add %0, %bias : tensor<4096x3072xf16>, tensor<3072xf16> -> tensor<4096x3072xf16>
    %2 = brrr.add %1, %r : tensor<4096x3072xf16>, tensor<4096x3072xf16> -> tensor<4096x3072xf16>
    %3 = brrr.matmul %a, %w : tensor<4096x768xf16>, tensor<768x3072xf16> -> tensor<4096x3072xf16>
    %4 = brrr.erf %3 : tensor<4096x3072xf16>
    %5 = brrr.matmul %a2, %w2 : tensor<4096x512xf16>, tensor<512x3072xf16> -> tensor<4096x3072xf16>
    %6 = brrr.matmul %a3, %w3 : tensor<4096x1536xf16>, tensor<1536x3072xf16> -> tensor<4096x3072xf16>
    %7 = brrr.erf %6 : tensor<4096x3072xf16>
    %8 = brrr.matmul %a, %w : tensor<4096x768xf16>, tensor<768x3072xf16> -> tensor<4096x3072xf16>
    %9 = brrr.add %8, %bias : tensor<4096x3072xf16>, tensor<3072xf16> -> tensor<4096x3072xf16>
    return %2, %4, %5, %7, %9 : tensor<4096x3072xf16>, tensor<4096x3072xf16>, tensor<4096x3072xf16>, tensor<4096x3072xf16>, tensor<4096x3072xf16>
  }
}

// -----

// A drain warpgroup's narrower tiles must keep pace with the wider ones
// whose consumers would store their own epilogue. A Llama-style decoder's
// down projection (4096 x 5504 -> 2048, a residual) makes 256 tiles of
// 256 columns, two a multiprocessor, or 352 of 192, three: it stays
// cooperative at 256 (a drain warpgroup only where forced). BERT-base's
// second MLP product at batch 128 (16384 x 3072 -> 768, a residual) makes
// three of 256 a multiprocessor or four of 192, which the drain pays for.
// CHECK-LABEL: func.func @DrainKeepsPace
// CHECK: threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, grid = [132, 1, 1]>
// CHECK-SAME: -> tensor<4096x2048xf16>
// CHECK: threads = 512, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// CHECK-SAME: -> tensor<16384x768xf16>
// DRAIN-LABEL: func.func @DrainKeepsPace
// DRAIN: threads = 512, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// DRAIN-SAME: -> tensor<4096x2048xf16>
// DRAIN: threads = 512, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// DRAIN-SAME: -> tensor<16384x768xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @DrainKeepsPace(%a: tensor<4096x5504xf16>, %w: tensor<5504x2048xf16>, %r: tensor<4096x2048xf16>, %h: tensor<16384x3072xf16>, %w2: tensor<3072x768xf16>, %r2: tensor<16384x768xf16>) -> (tensor<4096x2048xf16>, tensor<16384x768xf16>) {
    %0 = brrr.matmul %a, %w : tensor<4096x5504xf16>, tensor<5504x2048xf16> -> tensor<4096x2048xf16>
    %1 = brrr.add %0, %r : tensor<4096x2048xf16>, tensor<4096x2048xf16> -> tensor<4096x2048xf16>
    %2 = brrr.matmul %h, %w2 : tensor<16384x3072xf16>, tensor<3072x768xf16> -> tensor<16384x768xf16>
    %3 = brrr.add %2, %r2 : tensor<16384x768xf16>, tensor<16384x768xf16> -> tensor<16384x768xf16>
    return %1, %3 : tensor<4096x2048xf16>, tensor<16384x768xf16>
  }
}

// -----

// Products whose tiles leave most multiprocessors idle split each tile's
// k-slices over the blocks of a cluster, as many as the estimate favours
// among 2, 4 and 8 that divide the slices and keep the blocks within one
// wave, and narrow to 128 x 64 tiles where those still make one wave and,
// split the same way, finish sooner by that estimate: 128 x 3072 -> 768
// (12 tiles of 64, 48 slices) over 8; 512 x 768 -> 768 (48 tiles, 12
// slices) over 2; 500 x 768 -> 1536 (96 tiles) whole; each ring as deep as
// its block's run of slices, at most six stages. 512 x 768 -> 2304 (144
// tiles of 64 would need a second wave, its 72 of 128 cannot split within
// one) and 4096 rows keep their wide tiles, whole. A pinned tile keeps its
// width and is split all the same; `persistent` changes nothing here.
// CHECK-LABEL: func.func @ClusterSplits
// CHECK: tile = [128, 64, 64], stages = 6, cluster = 8, grid = [96, 1, 1]>
// CHECK: tile = [128, 64, 64], stages = 6, cluster = 2, grid = [96, 1, 1]>
// CHECK: tile = [128, 64, 64], stages = 6, grid = [96, 1, 1]>
// CHECK: tile = [128, 128, 64], stages = 4, grid = [72, 1, 1]>
// CHECK: tile = [128, 192, 64], stages = 4, grid = [128, 1, 1]>
// PINNED-LABEL: func.func @ClusterSplits
// PINNED: tile = [128, 128, 64], stages = 3, cluster = 8, grid = [48, 1, 1]>
// PERSIST-LABEL: func.func @ClusterSplits
// PERSIST: tile = [128, 64, 64], stages = 6, cluster = 8, grid = [96, 1, 1]>
// PERSIST: tile = [128, 64, 64], stages = 6, cluster = 2, grid = [96, 1, 1]>
// PERSIST: tile = [128, 64, 64], stages = 6, grid = [96, 1, 1]>
// PERSIST: tile = [128, 128, 64], stages = 4, grid = [72, 1, 1]>
// PERSIST: tile = [128, 192, 64], stages = 4, grid = [128, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @ClusterSplits(%x: tensor<128x3072xf16>, %w: tensor<3072x768xf16>, %m: tensor<512x768xf16>, %w2: tensor<768x768xf16>, %h: tensor<500x768xf16>, %w3: tensor<768x1536xf16>, %w4: tensor<768x2304xf16>, %big: tensor<4096x768xf16>)
      -> (tensor<128x768xf16>, tensor<512x768xf16>, tensor<500x1536xf16>, tensor<512x2304xf16>, tensor<4096x768xf16>) {
    %0 = brrr.matmul %x, %w : tensor<128x3072xf16>, tensor<3072x768xf16> -> tensor<128x768xf16>
    %1 = brrr.matmul %m, %w2 : tensor<512x768xf16>, tensor<768x768xf16> -> tensor<512x768xf16>
    %2 = brrr.matmul %h, %w3 : tensor<500x768xf16>, tensor<768x1536xf16> -> tensor<500x1536xf16>
    %3 = brrr.matmul %m, %w4 : tensor<512x768xf16>, tensor<768x2304xf16> -> tensor<512x2304xf16>
    %4 = brrr.matmul %big, %w2 : tensor<4096x768xf16>, tensor<768x768xf16> -> tensor<4096x768xf16>
    return %0, %1, %2, %3, %4 : tensor<128x768xf16>, tensor<512x768xf16>, tensor<500x1536xf16>, tensor<512x2304xf16>, tensor<4096x768xf16>
  }
}

// -----

// Clusters of 4 or 8 blocks stay within a GPC, and one wave holds 120 of
// their blocks, not 132: 128 x 3072 -> 1920 (30 tiles of 64) splits over 4
// (120 blocks); 128 x 3072 -> 2048 (32 tiles of 64) cannot, nor its 16
// tiles of 128 over 8, so it keeps 128-wide tiles over 4 (64 blocks).
// CHECK-LABEL: func.func @ClusterWave
// CHECK: tile = [128, 64, 64], stages = 6, cluster = 4, grid = [120, 1, 1]>
// CHECK: tile = [128, 128, 64], stages = 4, cluster = 4, grid = [64, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @ClusterWave(%x: tensor<128x3072xf16>, %w: tensor<3072x1920xf16>, %v: tensor<3072x2048xf16>) -> (tensor<128x1920xf16>, tensor<128x2048xf16>) {
    %0 = brrr.matmul %x, %w : tensor<128x3072xf16>, tensor<3072x1920xf16> -> tensor<128x1920xf16>
    %1 = brrr.matmul %x, %v : tensor<128x3072xf16>, tensor<3072x2048xf16> -> tensor<128x2048xf16>
    return %0, %1 : tensor<128x1920xf16>, tensor<128x2048xf16>
  }
}

// -----

// A tighter shared-memory limit leaves fewer wgmma stages: (100000 - 1088)
// / 32768 = 3 (128 tiles of 128 x 128: 64 columns would take two waves).
// CHECK-LABEL: func.func @WgmmaStagesFitTheLimit
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 3, grid = [128, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>, brrr.shared_memory_limit = 100000 : i64} {
  func.func @WgmmaStagesFitTheLimit(%c: tensor<8192x64xf16>, %d: tensor<64x256xf16>) -> tensor<8192x256xf16> {
    %0 = brrr.matmul %c, %d : tensor<8192x64xf16>, tensor<64x256xf16> -> tensor<8192x256xf16>
    return %0 : tensor<8192x256xf16>
  }
}

// -----

// On sm_80 the same product runs the staged mma_sync tile (3 stages);
// without a target too, in the 2 stages 48 KiB hold.
// CHECK-LABEL: func.func @MmaSyncOnAmpere
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 3, grid = [2, 2, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
  func.func @MmaSyncOnAmpere(%c: tensor<256x64xf16>, %d: tensor<64x256xf16>) -> tensor<256x256xf16> {
    %0 = brrr.matmul %c, %d : tensor<256x64xf16>, tensor<64x256xf16> -> tensor<256x256xf16>
    return %0 : tensor<256x256xf16>
  }
}

// -----

// CHECK-LABEL: func.func @MmaSyncWithoutTarget
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 2, grid = [2, 2, 1]>
func.func @MmaSyncWithoutTarget(%c: tensor<256x64xf16>, %d: tensor<64x256xf16>) -> tensor<256x256xf16> {
  %0 = brrr.matmul %c, %d : tensor<256x64xf16>, tensor<64x256xf16> -> tensor<256x256xf16>
  return %0 : tensor<256x256xf16>
}

// -----

// f32 products and convolutions run the staged mma_sync body on tf32:
// 128 x 128 tiles where they fill the multiprocessors (128 x 64 for 64
// columns), of 64 x 32 warps; 64 x 64 where even 128 x 64 would not, of
// four 32 x 32 warps; 16-deep slices for K = 16; a fourth stage where a
// tile has exactly three slices (the 72-deep convolution), so that the main
// loop copies none of them. f16 rows that are not whole
// 16-byte chunks run the untiled warp_mma body, even on sm_90a.
// The pin (16-bit tiles) leaves them all alone.
// CHECK-LABEL: func.func @UntiledBodies
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [64, 64, 32], stages = 3, grid = [1, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [8, 4, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = mma_sync, threads = 128, tile = [64, 64, 32], stages = 4, grid = [1, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 256, tile = [128, 128, 32], stages = 3, grid = [16, 16, 1]>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 64, 32], stages = 3, grid = [4, 34, 1]>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 64, 32], stages = 3, grid = [1, 132, 1]>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [64, 64, 16], stages = 3, grid = [2, 4, 1]>
// PINNED-LABEL: func.func @UntiledBodies
// PINNED: body = mma_sync, threads = 128, tile = [64, 64, 32]
// PINNED: body = warp_mma, threads = 32, grid = [8, 4, 1]>
// PINNED: body = mma_sync, threads = 128, tile = [64, 64, 32]
// PINNED: body = mma_sync, threads = 256, tile = [128, 128, 32]
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @UntiledBodies(%a: tensor<64x64xf32>, %h: tensor<64x50xf16>, %w: tensor<50x64xf16>, %x: tensor<1x8x10x10xf32>, %k: tensor<8x8x3x3xf32>, %l: tensor<2048x256xf32>, %r: tensor<256x2048xf32>, %m: tensor<4352x256xf32>, %n: tensor<256x256xf32>, %q: tensor<16896x256xf32>, %o: tensor<256x64xf32>, %u: tensor<256x16xf32>, %v: tensor<16x128xf32>) -> (tensor<64x64xf32>, tensor<64x64xf16>, tensor<1x8x8x8xf32>, tensor<2048x2048xf32>, tensor<4352x256xf32>, tensor<16896x64xf32>, tensor<256x128xf32>) {
    %0 = brrr.matmul %a, %a : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    %1 = brrr.matmul %h, %w : tensor<64x50xf16>, tensor<50x64xf16> -> tensor<64x64xf16>
    %2 = brrr.conv2d %x, %k {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x8xf32>
    %3 = brrr.matmul %l, %r : tensor<2048x256xf32>, tensor<256x2048xf32> -> tensor<2048x2048xf32>
    %4 = brrr.matmul %m, %n : tensor<4352x256xf32>, tensor<256x256xf32> -> tensor<4352x256xf32>
    %5 = brrr.matmul %q, %o : tensor<16896x256xf32>, tensor<256x64xf32> -> tensor<16896x64xf32>
    %6 = brrr.matmul %u, %v : tensor<256x16xf32>, tensor<16x128xf32> -> tensor<256x128xf32>
    return %0, %1, %2, %3, %4, %5, %6 : tensor<64x64xf32>, tensor<64x64xf16>, tensor<1x8x8x8xf32>, tensor<2048x2048xf32>, tensor<4352x256xf32>, tensor<16896x64xf32>, tensor<256x128xf32>
  }
}

// -----

// On sm_90a a channels-last f16 convolution (brrr-channels-last) runs the
// wgmma body over its implicit GEMM: 128 output pixels by 64 output
// channels where it has no more, else 128 or 256 (the matmul wave model),
// 64-channel k-slices, four stages. One whose padding leaves its bounding box outside the 8-bit
// corners of a 4-D im2col map, an NCHW one, and any on sm_80, run warp_mma.
// CHECK-LABEL: func.func @ConvBodies
// The 784 tiles of the second walk 132 blocks, persistent with or without
// the option: a convolution always is where its tiles outnumber the
// multiprocessors. Its epilogue stages 128 columns at a time beside a ring
// of three 48 KiB stages (four would leave room for 32). With `pingpong`
// the tile narrows to 128 columns, four stages, the consumers taking turns;
// with `overlap` the whole tile is staged beside three stages.
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [4, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, grid = [132, 1, 1]>
// PERSIST-LABEL: func.func @ConvBodies
// PERSIST: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [4, 1, 1]>
// PERSIST: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, grid = [132, 1, 1]>
// PINGPONG-LABEL: func.func @ConvBodies
// PINGPONG: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [4, 1, 1]>
// PINGPONG: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, persistent = 132, epilogue = 128, schedule = pingpong, grid = [132, 1, 1]>
// OVERLAP-LABEL: func.func @ConvBodies
// OVERLAP: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [4, 1, 1]>
// OVERLAP: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 256, schedule = overlapped, grid = [132, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = warp_mma, threads = 32, grid = [8, 476, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = warp_mma, threads = 32, grid = [1, 4, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @ConvBodies(%x: tensor<2x14x14x64xf16>, %w: tensor<3x3x64x64xf16>, %b: tensor<64xf16>, %y: tensor<32x56x56x64xf16>, %w2: tensor<1x1x256x64xf16>, %xn: tensor<1x8x10x10xf16>, %kn: tensor<8x8x3x3xf16>) -> (tensor<2x14x14x64xf16>, tensor<32x56x56x256xf16>, tensor<2x272x14x64xf16>, tensor<1x8x8x8xf16>) {
    %0 = brrr.conv2d %x, %w, %b {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x14x14x64xf16>, tensor<3x3x64x64xf16>, tensor<64xf16>) -> tensor<2x14x14x64xf16>
    %1 = brrr.conv2d %y, %w2 {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<32x56x56x64xf16>, tensor<1x1x256x64xf16>) -> tensor<32x56x56x256xf16>
    %2 = brrr.conv2d %x, %w, %b {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 130, 1, 130, 1>, strides = array<i64: 1, 1>} : (tensor<2x14x14x64xf16>, tensor<3x3x64x64xf16>, tensor<64xf16>) -> tensor<2x272x14x64xf16>
    %3 = brrr.conv2d %xn, %kn {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x8x10x10xf16>, tensor<8x8x3x3xf16>) -> tensor<1x8x8x8xf16>
    return %0, %1, %2, %3 : tensor<2x14x14x64xf16>, tensor<32x56x56x256xf16>, tensor<2x272x14x64xf16>, tensor<1x8x8x8xf16>
  }
}

// -----

// Grouped channels-last convolutions (split K's partial convolutions, and
// models' own groups) run the wgmma body: no tile straddles two groups, so
// a width of 256 is taken only where it divides a group's outputs (8
// groups of 512 here, where the wave model prefers 256; 8 groups of 384
// take 128). Groups of 32 or 64 channels (partial slices, 64 outputs) take
// tiles 64 wide.
// CHECK-LABEL: func.func @GroupedConvBodies
// Their tiles (counted over the groups) walk 132 blocks.
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, grid = [132, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, persistent = 132, epilogue = 128, grid = [132, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, persistent = 132, epilogue = 64, grid = [132, 1, 1]>
// CHECK-SAME: -> tensor<32x14x14x512xf16>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, persistent = 132, epilogue = 64, grid = [132, 1, 1]>
// CHECK-SAME: -> tensor<32x14x14x512xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @GroupedConvBodies(%x: tensor<32x14x14x512xf16>, %w: tensor<3x3x4096x64xf16>, %w3: tensor<3x3x3072x64xf16>, %w32: tensor<3x3x512x32xf16>, %w64: tensor<3x3x512x64xf16>) -> (tensor<32x14x14x4096xf16>, tensor<32x14x14x3072xf16>, tensor<32x14x14x512xf16>, tensor<32x14x14x512xf16>) {
    %0 = brrr.conv2d %x, %w {channels_last, dilations = array<i64: 1, 1>, groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<32x14x14x512xf16>, tensor<3x3x4096x64xf16>) -> tensor<32x14x14x4096xf16>
    %1 = brrr.conv2d %x, %w3 {channels_last, dilations = array<i64: 1, 1>, groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<32x14x14x512xf16>, tensor<3x3x3072x64xf16>) -> tensor<32x14x14x3072xf16>
    %2 = brrr.conv2d %x, %w32 {channels_last, dilations = array<i64: 1, 1>, groups = 16 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<32x14x14x512xf16>, tensor<3x3x512x32xf16>) -> tensor<32x14x14x512xf16>
    %3 = brrr.conv2d %x, %w64 {channels_last, dilations = array<i64: 1, 1>, groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<32x14x14x512xf16>, tensor<3x3x512x64xf16>) -> tensor<32x14x14x512xf16>
    return %0, %1, %2, %3 : tensor<32x14x14x4096xf16>, tensor<32x14x14x3072xf16>, tensor<32x14x14x512xf16>, tensor<32x14x14x512xf16>
  }
}

// -----

// A convolution of one group whose tiles leave most multiprocessors idle
// splits its k-slices over a cluster and narrows its tile like a product:
// ResNet-50's last 3 x 3 at batch 1 (8 tiles of 128 x 64 over 72 slices)
// over 8 blocks, 9 slices each. A grouped one splits its slices too (a
// tile lies in one group) but keeps its tile as wide as its group: 4 tiles
// of 128 over 4 blocks each. One with enough tiles (batch 32 at 14 x 14:
// 98 tiles of 256) stays whole and wide.
// CHECK-LABEL: func.func @ConvClusterSplits
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, cluster = 8, grid = [64, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, cluster = 4, grid = [16, 1, 1]>
// CHECK-SAME: -> tensor<1x7x7x512xf16>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, grid = [98, 1, 1]>
// CHECK-SAME: -> tensor<32x14x14x512xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @ConvClusterSplits(%x: tensor<1x7x7x512xf16>, %w: tensor<3x3x512x512xf16>, %wg: tensor<3x3x512x256xf16>, %xb: tensor<32x14x14x512xf16>) -> (tensor<1x7x7x512xf16>, tensor<1x7x7x512xf16>, tensor<32x14x14x512xf16>) {
    %0 = brrr.conv2d %x, %w {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x512xf16>, tensor<3x3x512x512xf16>) -> tensor<1x7x7x512xf16>
    %1 = brrr.conv2d %x, %wg {channels_last, dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x512xf16>, tensor<3x3x512x256xf16>) -> tensor<1x7x7x512xf16>
    %2 = brrr.conv2d %xb, %w {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<32x14x14x512xf16>, tensor<3x3x512x512xf16>) -> tensor<32x14x14x512xf16>
    return %0, %1, %2 : tensor<1x7x7x512xf16>, tensor<1x7x7x512xf16>, tensor<32x14x14x512xf16>
  }
}

// -----

// Groups whose channels are not whole 64-channel slices, or whose outputs
// are not whole tiles, run the wgmma body padded: each group's columns
// start a tile of their own, the narrowest of 64, 128, 192 and 256 that
// holds them. RegNetX-8GF's 6 groups of 120 at batch 1 (2 row tiles x 6
// groups, 18 slices split over 2 blocks), RegNetX-32GF's 2 groups of 168
// at stride 2 (one 192-wide tile each) and RegNetY's 37 groups of 24 (one
// 64-wide tile each).
// CHECK-LABEL: func.func @PaddedGroupBodies
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, cluster = 2, grid = [24, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 192, 64], stages = 4, grid = [2, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [37, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @PaddedGroupBodies(%x: tensor<1x14x14x720xf16>, %w: tensor<3x3x720x120xf16>, %y: tensor<2x15x13x336xf16>, %w2: tensor<3x3x336x168xf16>, %z: tensor<1x7x7x888xf16>, %w3: tensor<3x3x888x24xf16>) -> (tensor<1x14x14x720xf16>, tensor<2x8x7x336xf16>, tensor<1x7x7x888xf16>) {
    %0 = brrr.conv2d %x, %w {channels_last, dilations = array<i64: 1, 1>, groups = 6 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x14x14x720xf16>, tensor<3x3x720x120xf16>) -> tensor<1x14x14x720xf16>
    %1 = brrr.conv2d %y, %w2 {channels_last, dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x15x13x336xf16>, tensor<3x3x336x168xf16>) -> tensor<2x8x7x336xf16>
    %2 = brrr.conv2d %z, %w3 {channels_last, dilations = array<i64: 1, 1>, groups = 37 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x888xf16>, tensor<3x3x888x24xf16>) -> tensor<1x7x7x888xf16>
    return %0, %1, %2 : tensor<1x14x14x720xf16>, tensor<2x8x7x336xf16>, tensor<1x7x7x888xf16>
  }
}

// -----

// Grouped convolutions of at most 8 input channels a group run the direct
// body, on any target. A channels-last depthwise convolution reads 16-byte
// vectors of channels, narrowed until they divide the channel count (24
// f16: 8, 12 bf16: 4, 6 f16: 2); NCHW, a channel multiplier (2 outputs a
// group) or 8-channel groups read one channel a thread. 16-channel groups
// are a product again (the untiled Tensor Core body).
// CHECK-LABEL: func.func @DirectConvs
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, vector = 2, grid = [1, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, grid = [3, 1, 1]>
// CHECK-SAME: -> tensor<1x24x5x5xf32>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, grid = [5, 1, 1]>
// CHECK-SAME: -> tensor<1x5x5x48xf16>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, grid = [2, 1, 1]>
// CHECK-SAME: -> tensor<1x5x5x16xf16>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = warp_mma, threads = 32, grid = [1, 2, 2]>
// CHECK-SAME: -> tensor<1x5x5x16xf16>
func.func @DirectConvs(%x: tensor<1x5x5x24xf16>, %w: tensor<3x3x24x1xf16>, %xb: tensor<1x5x5x12xbf16>, %wb: tensor<3x3x12x1xbf16>, %x6: tensor<1x5x5x6xf16>, %w6: tensor<3x3x6x1xf16>, %xf: tensor<1x24x5x5xf32>, %wf: tensor<24x1x3x3xf32>, %wm: tensor<3x3x48x1xf16>, %x32: tensor<1x5x5x32xf16>, %w8: tensor<1x1x16x8xf16>, %w16: tensor<1x1x16x16xf16>) -> (tensor<1x5x5x24xf16>, tensor<1x5x5x12xbf16>, tensor<1x5x5x6xf16>, tensor<1x24x5x5xf32>, tensor<1x5x5x48xf16>, tensor<1x5x5x16xf16>, tensor<1x5x5x16xf16>) {
  %0 = brrr.conv2d %x, %w {channels_last, dilations = array<i64: 1, 1>, groups = 24 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x5x5x24xf16>, tensor<3x3x24x1xf16>) -> tensor<1x5x5x24xf16>
  %1 = brrr.conv2d %xb, %wb {channels_last, dilations = array<i64: 1, 1>, groups = 12 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x5x5x12xbf16>, tensor<3x3x12x1xbf16>) -> tensor<1x5x5x12xbf16>
  %2 = brrr.conv2d %x6, %w6 {channels_last, dilations = array<i64: 1, 1>, groups = 6 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x5x5x6xf16>, tensor<3x3x6x1xf16>) -> tensor<1x5x5x6xf16>
  %3 = brrr.conv2d %xf, %wf {dilations = array<i64: 1, 1>, groups = 24 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x24x5x5xf32>, tensor<24x1x3x3xf32>) -> tensor<1x24x5x5xf32>
  %4 = brrr.conv2d %x, %wm {channels_last, dilations = array<i64: 1, 1>, groups = 24 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x5x5x24xf16>, tensor<3x3x48x1xf16>) -> tensor<1x5x5x48xf16>
  %5 = brrr.conv2d %x32, %w8 {channels_last, dilations = array<i64: 1, 1>, groups = 4 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x5x5x32xf16>, tensor<1x1x16x8xf16>) -> tensor<1x5x5x16xf16>
  %6 = brrr.conv2d %x32, %w16 {channels_last, dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x5x5x32xf16>, tensor<1x1x16x16xf16>) -> tensor<1x5x5x16xf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<1x5x5x24xf16>, tensor<1x5x5x12xbf16>, tensor<1x5x5x6xf16>, tensor<1x24x5x5xf32>, tensor<1x5x5x48xf16>, tensor<1x5x5x16xf16>, tensor<1x5x5x16xf16>
}

// -----

// Under --precision=tf32 (the module's brrr.precision) f32 products
// multiply once in tf32; 16-bit products are not affected.
// CHECK-LABEL: func.func @Tf32Products
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [64, 64, 32], stages = 2, precision = tf32, grid = [1, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32, grid = [8, 4, 1]>
module attributes {brrr.precision = "tf32"} {
  func.func @Tf32Products(%a: tensor<64x64xf32>, %h: tensor<64x50xf16>, %w: tensor<50x64xf16>) -> (tensor<64x64xf32>, tensor<64x64xf16>) {
    %0 = brrr.matmul %a, %a : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    %1 = brrr.matmul %h, %w : tensor<64x50xf16>, tensor<50x64xf16> -> tensor<64x64xf16>
    return %0, %1 : tensor<64x64xf32>, tensor<64x64xf16>
  }
}

// -----

// A config already on a fusion is kept.
// CHECK-LABEL: func.func @ExistingConfigIsKept
// CHECK: brrr.config = #brrr.kernel<family = row, body = simt, threads = 1024, vector = 4, grid = [2, 1, 1]>
func.func @ExistingConfigIsKept(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  %0 = brrr.fusion row(%x) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 1024, vector = 4>} : (tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  ^bb0(%a: tensor<2x4096xf32>):
    %1 = brrr.softmax %a {axis = 1 : i64} : tensor<2x4096xf32>
    brrr.yield %1 : tensor<2x4096xf32>
  }
  return %0 : tensor<2x4096xf32>
}

// -----

// General reductions: one thread per output, unless that leaves the GPU
// idle. A whole tensor reduced to one value, and a few outputs each over
// many elements of interleaved axes, get a block per output. A run of 64 or more rows
// before a kept innermost axis, for fewer than 65536 outputs, splits its
// rows over a block (tile [lanes, groups]): 16-byte vectors narrowed until
// they divide the innermost axis (3 f32: 1; 4096 f32: 4; 7 i32: 1; 64 f16:
// 8), up to 32 lanes of them, and as many groups as fill 1024 threads but
// not the rows. Few rows (8), or 65536 outputs, stay one thread each.
// CHECK-LABEL: func.func @ReduceCooperation
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256, tile = [256], grid = [1, 1, 1]>
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256, tile = [256], grid = [3, 1, 1]>
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 1024, tile = [3, 341], grid = [1, 1, 1]>
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 1024, tile = [32, 32], vector = 4, grid = [32, 1, 1]>
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 704, tile = [7, 100], grid = [1, 1, 1]>
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 1024, tile = [8, 128], vector = 8, grid = [32, 1, 1]>
// CHECK-SAME: tensor<32x1x1x64xf16>
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256, grid = [1, 1, 1]>
// CHECK: brrr.fusion reduce{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256, grid = [256, 1, 1]>
func.func @ReduceCooperation(%a: tensor<128x512xi64>, %r: tensor<4096x3x2xf32>, %b: tensor<4096x3xf32>, %c: tensor<512x4096xf32>, %d: tensor<100x7xi32>, %n: tensor<32x56x56x64xf16>, %few: tensor<8x64xf32>, %many: tensor<128x65536xf32>)
    -> (tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<4096xf32>, tensor<7xi32>, tensor<32x1x1x64xf16>, tensor<64xf32>, tensor<65536xf32>) {
  %0 = brrr.reduce max %a {axes = array<i64: 0, 1>, keepdims = false} : tensor<128x512xi64> -> tensor<i64>
  %1 = brrr.reduce sum %r {axes = array<i64: 0, 2>, keepdims = false} : tensor<4096x3x2xf32> -> tensor<3xf32>
  %2 = brrr.reduce sum %b {axes = array<i64: 0>, keepdims = false} : tensor<4096x3xf32> -> tensor<3xf32>
  %3 = brrr.reduce sum %c {axes = array<i64: 0>, keepdims = false} : tensor<512x4096xf32> -> tensor<4096xf32>
  %4 = brrr.reduce sum %d {axes = array<i64: 0>, keepdims = false} : tensor<100x7xi32> -> tensor<7xi32>
  %5 = brrr.reduce mean %n {axes = array<i64: 1, 2>, keepdims = true} : tensor<32x56x56x64xf16> -> tensor<32x1x1x64xf16>
  %6 = brrr.reduce sum %few {axes = array<i64: 0>, keepdims = false} : tensor<8x64xf32> -> tensor<64xf32>
  %7 = brrr.reduce sum %many {axes = array<i64: 0>, keepdims = false} : tensor<128x65536xf32> -> tensor<65536xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<4096xf32>, tensor<7xi32>, tensor<32x1x1x64xf16>, tensor<64xf32>, tensor<65536xf32>
}

// -----

// Attention kernels: 64 queries per block over 4 warps, key blocks of 64
// through two buffers, whatever the shape (test/gpu/NOTES.md has the
// sweep); the pinned tile replaces it.
// CHECK-LABEL: func.func @AttentionTile
// CHECK: brrr.fusion attention{{.*}}brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2, grid = [8, 12, 1]>
// ATTENTIONPIN: brrr.fusion attention{{.*}}brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 64, tile = [64, 128], stages = 2, grid = [8, 12, 1]>
func.func @AttentionTile(%q: tensor<1x12x512x64xf16>, %k: tensor<1x12x512x64xf16>, %v: tensor<1x12x512x64xf16>) -> tensor<1x12x512x64xf16> {
  %0 = brrr.attention %q, %k, %v {causal, scale = 0.125 : f64} : tensor<1x12x512x64xf16>, tensor<1x12x512x64xf16>, tensor<1x12x512x64xf16> -> tensor<1x12x512x64xf16>
  return %0 : tensor<1x12x512x64xf16>
}

// -----

// A channels-last depthwise convolution's threads compute 4 pixels along a
// row where that still leaves a wave of 256-thread blocks (132 x 256 =
// 33792 threads): 32 x 56 x 14 x 12 = 301056; else 2 (8 x 40 x 19 x 8 =
// 48640, where 4 would make 25600); else 1 (batch 1 at 14 x 14 x 384: 2688
// or 4704 threads). A window of more than 64 taps keeps one pixel a thread.
// CHECK-LABEL: func.func @DirectConvPixels
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [4], vector = 8, grid = [1176, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [2], vector = 8, grid = [190, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, vector = 8, grid = [37, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, vector = 8, grid = [4704, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @DirectConvPixels(%a: tensor<32x56x56x96xf16>, %wa: tensor<7x7x96x1xf16>, %b: tensor<8x40x37x64xbf16>, %wb: tensor<5x5x64x1xbf16>, %c: tensor<1x14x14x384xf16>, %wc: tensor<7x7x384x1xf16>, %wd: tensor<9x9x96x1xf16>) -> (tensor<32x56x56x96xf16>, tensor<8x40x37x64xbf16>, tensor<1x14x14x384xf16>, tensor<32x56x56x96xf16>) {
    %0 = brrr.conv2d %a, %wa {channels_last, dilations = array<i64: 1, 1>, groups = 96 : i64, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 1, 1>} : (tensor<32x56x56x96xf16>, tensor<7x7x96x1xf16>) -> tensor<32x56x56x96xf16>
    %1 = brrr.conv2d %b, %wb {channels_last, dilations = array<i64: 2, 2>, groups = 64 : i64, pads = array<i64: 4, 4, 4, 4>, strides = array<i64: 1, 1>} : (tensor<8x40x37x64xbf16>, tensor<5x5x64x1xbf16>) -> tensor<8x40x37x64xbf16>
    %2 = brrr.conv2d %c, %wc {channels_last, dilations = array<i64: 1, 1>, groups = 384 : i64, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 1, 1>} : (tensor<1x14x14x384xf16>, tensor<7x7x384x1xf16>) -> tensor<1x14x14x384xf16>
    %3 = brrr.conv2d %a, %wd {channels_last, dilations = array<i64: 1, 1>, groups = 96 : i64, pads = array<i64: 4, 4, 4, 4>, strides = array<i64: 1, 1>} : (tensor<32x56x56x96xf16>, tensor<9x9x96x1xf16>) -> tensor<32x56x56x96xf16>
    return %0, %1, %2, %3 : tensor<32x56x56x96xf16>, tensor<8x40x37x64xbf16>, tensor<1x14x14x384xf16>, tensor<32x56x56x96xf16>
  }
}

// -----

// Movement kernels that copy a tree of index maps write 16-byte vectors
// where they divide the output: a ResNet stem's input preparation (NHWC
// pad, space to depth, channels padded to 16) writes 8 f16 a store, 9 f32
// elements one (tile = [1] vector a thread, of one element). A transpose
// through shared tiles names its tile, and a gather keeps one thread per
// element.
// MOVE-LABEL: func.func @MovementVectors
// MOVE: brrr.fusion movement{{.*}}brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [1], vector = 8, grid = [1, 1, 1]>
// MOVE: brrr.fusion movement{{.*}}brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [1], grid = [1, 1, 1]>
// MOVE: brrr.fusion movement{{.*}}brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [32, 8], grid = [8, 1, 2]>
// MOVE-SAME: tensor<2x10x10x64xf16>
// MOVE: brrr.fusion movement{{.*}}brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>
// MOVE-SAME: tensor<3xf32>
func.func @MovementVectors(%x: tensor<2x8x8x3xf16>, %y: tensor<6xf32>, %z: tensor<2x64x10x10xf16>, %i: tensor<3xi64>) -> (tensor<2x7x7x16xf16>, tensor<9xf32>, tensor<2x10x10x64xf16>, tensor<3xf32>) {
  %0 = brrr.pad constant %x {high = array<i64: 0, 3, 3, 0>, low = array<i64: 0, 3, 3, 0>, value = 0.0 : f64} : tensor<2x8x8x3xf16> -> tensor<2x14x14x3xf16>
  %1 = brrr.reshape %0 : tensor<2x14x14x3xf16> -> tensor<2x7x2x7x2x3xf16>
  %2 = brrr.transpose %1 {perm = array<i64: 0, 1, 3, 2, 4, 5>} : tensor<2x7x2x7x2x3xf16> -> tensor<2x7x7x2x2x3xf16>
  %3 = brrr.reshape %2 : tensor<2x7x7x2x2x3xf16> -> tensor<2x7x7x12xf16>
  %4 = brrr.pad constant %3 {high = array<i64: 0, 0, 0, 4>, low = array<i64: 0, 0, 0, 0>, value = 0.0 : f64} : tensor<2x7x7x12xf16> -> tensor<2x7x7x16xf16>
  %5 = brrr.pad constant %y {high = array<i64: 2>, low = array<i64: 1>, value = 1.5 : f64} : tensor<6xf32> -> tensor<9xf32>
  %6 = brrr.transpose %z {perm = array<i64: 0, 2, 3, 1>} : tensor<2x64x10x10xf16> -> tensor<2x10x10x64xf16>
  %7 = brrr.gather %y, %i {axis = 0 : i64} : (tensor<6xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %4, %5, %6, %7 : tensor<2x7x7x16xf16>, tensor<9xf32>, tensor<2x10x10x64xf16>, tensor<3xf32>
}

// -----

// 1 x 1 convolutions of one pixel and at most 4 rows (squeeze-and-
// excitation blocks at batch 1 to 4) run the one-pixel body: a warp an
// output channel, 8 a block, its lanes reading 16-byte vectors of the
// group's channels (8 f16 or bf16; 2 f32 of 58 channels). 8 rows take a
// Tensor Core body.
// CHECK-LABEL: func.func @OnePixelConvs
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [1, 8], vector = 8, grid = [8, 1, 1]>
// CHECK: brrr.sigmoid
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [3, 8], vector = 8, grid = [25, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [2, 8], vector = 2, grid = [42, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = conv, body = warp_mma
// CHECK-SAME: -> tensor<8x64x1x1xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @OnePixelConvs(%a: tensor<1x1536x1x1xf16>, %wa: tensor<64x1536x1x1xf16>, %ba: tensor<64xf16>, %b: tensor<3x256x1x1xbf16>, %wb: tensor<200x128x1x1xbf16>, %c: tensor<2x58x1x1xf32>, %wc: tensor<333x58x1x1xf32>, %d: tensor<8x1536x1x1xf16>) -> (tensor<1x64x1x1xf16>, tensor<3x200x1x1xbf16>, tensor<2x333x1x1xf32>, tensor<8x64x1x1xf16>) {
    %0 = brrr.conv2d %a, %wa, %ba {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1536x1x1xf16>, tensor<64x1536x1x1xf16>, tensor<64xf16>) -> tensor<1x64x1x1xf16>
    %s = brrr.sigmoid %0 : tensor<1x64x1x1xf16>
    %1 = brrr.conv2d %b, %wb {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<3x256x1x1xbf16>, tensor<200x128x1x1xbf16>) -> tensor<3x200x1x1xbf16>
    %2 = brrr.conv2d %c, %wc {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x58x1x1xf32>, tensor<333x58x1x1xf32>) -> tensor<2x333x1x1xf32>
    %3 = brrr.conv2d %d, %wa {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<8x1536x1x1xf16>, tensor<64x1536x1x1xf16>) -> tensor<8x64x1x1xf16>
    return %s, %1, %2, %3 : tensor<1x64x1x1xf16>, tensor<3x200x1x1xbf16>, tensor<2x333x1x1xf32>, tensor<8x64x1x1xf16>
  }
}

// -----

// Products of at most 4 rows read along K run the few-rows body: a warp a
// column, 8 a block. A classifier at batch 1 (Gemm's transposed weight,
// 16-byte vectors of 8 f16) with bias and ReLU, 3 bf16 rows of a 3-D input
// 100 deep (vectors of 4: 8 do not divide the rows' starts), and 2 f32 rows
// (one element a load, 517 deep). 5 rows take the few-rows body on Tensor
// Cores (few-rows-mma=auto, the rows rounded up to 8), a weight read along
// N the wgmma body.
// CHECK-LABEL: func.func @FewRows
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = simt, threads = 256, tile = [1, 8], vector = 8, grid = [126, 1, 1]>
// CHECK: brrr.relu
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = simt, threads = 256, tile = [3, 8], vector = 4, grid = [8, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = simt, threads = 256, tile = [2, 8], grid = [38, 1, 1]>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 128, tile = [8, 16], vector = 8, grid = [4, 1, 1]>
// CHECK-SAME: -> tensor<5x64xf16>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma
// CHECK-SAME: -> tensor<1x64xf16>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @FewRows(%x: tensor<1x9216xf16>, %w: tensor<1003x9216xf16>, %b: tensor<1003xf16>, %y: tensor<1x3x100xbf16>, %wy: tensor<64x100xbf16>, %z: tensor<2x517xf32>, %wz: tensor<300x517xf32>, %v: tensor<5x128xf16>, %wv: tensor<64x128xf16>, %u: tensor<1x128xf16>, %wu: tensor<128x64xf16>) -> (tensor<1x1003xf16>, tensor<1x3x64xbf16>, tensor<2x300xf32>, tensor<5x64xf16>, tensor<1x64xf16>) {
    %t = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<1003x9216xf16> -> tensor<9216x1003xf16>
    %0 = brrr.matmul %x, %t : tensor<1x9216xf16>, tensor<9216x1003xf16> -> tensor<1x1003xf16>
    %1 = brrr.add %0, %b : tensor<1x1003xf16>, tensor<1003xf16> -> tensor<1x1003xf16>
    %2 = brrr.relu %1 : tensor<1x1003xf16>
    %ty = brrr.transpose %wy {perm = array<i64: 1, 0>} : tensor<64x100xbf16> -> tensor<100x64xbf16>
    %3 = brrr.matmul %y, %ty : tensor<1x3x100xbf16>, tensor<100x64xbf16> -> tensor<1x3x64xbf16>
    %tz = brrr.transpose %wz {perm = array<i64: 1, 0>} : tensor<300x517xf32> -> tensor<517x300xf32>
    %4 = brrr.matmul %z, %tz : tensor<2x517xf32>, tensor<517x300xf32> -> tensor<2x300xf32>
    %tv = brrr.transpose %wv {perm = array<i64: 1, 0>} : tensor<64x128xf16> -> tensor<128x64xf16>
    %5 = brrr.matmul %v, %tv : tensor<5x128xf16>, tensor<128x64xf16> -> tensor<5x64xf16>
    %6 = brrr.matmul %u, %wu : tensor<1x128xf16>, tensor<128x64xf16> -> tensor<1x64xf16>
    return %2, %3, %4, %5, %6 : tensor<1x1003xf16>, tensor<1x3x64xbf16>, tensor<2x300xf32>, tensor<5x64xf16>, tensor<1x64xf16>
  }
}
