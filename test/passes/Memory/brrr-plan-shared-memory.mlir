// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-select-kernel-config,brrr-plan-shared-memory))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-select-kernel-config{persistent=true},brrr-plan-shared-memory))' | FileCheck %s --check-prefix=PERSIST

// A softmax over 4096 f32 columns runs 256 threads (8 warps): the max and
// the sum each need 8 floats of scratch, alive in overlapping phases, so
// they get separate bytes: 64 in all.
// CHECK-LABEL: func.func @SoftmaxScratchPerReduction
// CHECK: brrr.fusion row{{.*}}brrr.config = #brrr.kernel<family = row, body = simt, threads = 256, vector = 4, grid = [2, 1, 1]>, brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = reduction, offset = 0, bytes = 32>, #brrr.buffer<role = reduction, index = 1, offset = 32, bytes = 32>], bytes = 64>}
func.func @SoftmaxScratchPerReduction(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  %0 = brrr.softmax %x {axis = 1 : i64} : tensor<2x4096xf32>
  return %0 : tensor<2x4096xf32>
}

// -----

// A row that one warp covers reduces with shuffles alone: no shared memory
// (a warp a row of 512 f16, four rows a block); neither do narrower packed
// rows (8 lanes a row of 64 f16, 16 rows a block), which reduce within
// their lanes.
// CHECK-LABEL: func.func @OneWarpRowNeedsNoSharedMemory
// CHECK: brrr.fusion row{{.*}}threads = 128, tile = [4, 32], vector = 8, grid = [1, 1, 1]>, brrr.shared = #brrr.shared<buffers = [], bytes = 0>}
// CHECK: brrr.fusion row{{.*}}threads = 128, tile = [16, 8], vector = 8, grid = [1, 1, 1]>, brrr.shared = #brrr.shared<buffers = [], bytes = 0>}
func.func @OneWarpRowNeedsNoSharedMemory(%x: tensor<2x512xf16>, %y: tensor<2x64xf16>) -> (tensor<2x512xf16>, tensor<2x64xf16>) {
  %0 = brrr.softmax %x {axis = 1 : i64} : tensor<2x512xf16>
  %1 = brrr.softmax %y {axis = 1 : i64} : tensor<2x64xf16>
  return %0, %1 : tensor<2x512xf16>, tensor<2x64xf16>
}

// -----

// Other families have no shared buffers yet; their plan is empty.
// CHECK-LABEL: func.func @PointwisePlanIsEmpty
// CHECK: brrr.fusion pointwise{{.*}}brrr.shared = #brrr.shared<buffers = [], bytes = 0>
func.func @PointwisePlanIsEmpty(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = brrr.exp %x : tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// A block size already chosen is kept, and the scratch follows it: 1024
// threads are 32 warps, 128 bytes per reduction.
// CHECK-LABEL: func.func @ChosenThreadsAreKept
// CHECK: brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = reduction, offset = 0, bytes = 128>, #brrr.buffer<role = reduction, index = 1, offset = 128, bytes = 128>], bytes = 256>}
func.func @ChosenThreadsAreKept(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  %0 = brrr.fusion row(%x) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 1024, vector = 4>} : (tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  ^bb0(%a: tensor<2x4096xf32>):
    %1 = brrr.softmax %a {axis = 1 : i64} : tensor<2x4096xf32>
    brrr.yield %1 : tensor<2x4096xf32>
  }
  return %0 : tensor<2x4096xf32>
}

// -----

// On sm_80 an f16 matmul whose rows are whole 16-byte chunks is staged
// for mma.sync: a 128x128 block tile (4 warps of 64x64) streams 32-deep
// slices of A (128 rows of 32 + 8 padding halves: 10240 bytes) and B (32
// rows of 128 + 8: 8704 bytes) through 3 buffer pairs, all alive for the
// whole kernel.
// CHECK-LABEL: func.func @StagedMatmulBuffers
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 3, grid = [2, 2, 1]>, brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = a, offset = 0, bytes = 10240>, #brrr.buffer<role = b, offset = 30720, bytes = 8704>, #brrr.buffer<role = a, index = 1, offset = 10240, bytes = 10240>, #brrr.buffer<role = b, index = 1, offset = 39424, bytes = 8704>, #brrr.buffer<role = a, index = 2, offset = 20480, bytes = 10240>, #brrr.buffer<role = b, index = 2, offset = 48128, bytes = 8704>], bytes = 56832>}
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
  func.func @StagedMatmulBuffers(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>) -> tensor<256x256xf16> {
    %0 = brrr.fusion matmul(%a, %b) : (tensor<256x64xf16>, tensor<64x256xf16>) -> tensor<256x256xf16> {
    ^bb0(%x: tensor<256x64xf16>, %y: tensor<64x256xf16>):
      %1 = brrr.matmul %x, %y : tensor<256x64xf16>, tensor<64x256xf16> -> tensor<256x256xf16>
      brrr.yield %1 : tensor<256x256xf16>
    }
    return %0 : tensor<256x256xf16>
  }
}

// -----

// On sm_90a the same product runs the TMA + wgmma body: a producer and two
// consumer warpgroups (384 threads) over a 128x128 tile (the config given
// here, as a tile sweep pins it), 64-deep slices of 16 KiB each for A and
// B, 1024-byte aligned for the 128-byte swizzle, in
// 4 stages, with 8 mbarriers (alive through the epilogue) after them and
// 1024 bytes to align the base. The f32 epilogue staging (128 rows of 128
// + 8 floats) lives after the main loop, over the slices.
// CHECK-LABEL: func.func @WgmmaMatmulBuffers
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [4, 1, 1]>, brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = a, offset = 0, bytes = 16384>, #brrr.buffer<role = b, offset = 16384, bytes = 16384>
// CHECK-SAME: #brrr.buffer<role = b, index = 3, offset = 114688, bytes = 16384>, #brrr.buffer<role = barriers, offset = 131072, bytes = 64>, #brrr.buffer<role = epilogue, offset = 0, bytes = 69632>], bytes = 132160>}
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @WgmmaMatmulBuffers(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>) -> tensor<256x256xf16> {
    %0 = brrr.fusion matmul(%a, %b) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4>} : (tensor<256x64xf16>, tensor<64x256xf16>) -> tensor<256x256xf16> {
    ^bb0(%x: tensor<256x64xf16>, %y: tensor<64x256xf16>):
      %1 = brrr.matmul %x, %y : tensor<256x64xf16>, tensor<64x256xf16> -> tensor<256x256xf16>
      brrr.yield %1 : tensor<256x256xf16>
    }
    return %0 : tensor<256x256xf16>
  }
}

// -----

// A 128x256 tile takes 48 KiB a stage (A 16, B 32). Its 384 tiles, 768
// deep with no epilogue, run overlapped by default, the whole tile staged
// in f16, where 256 columns leave room for three stages only: the tile
// narrows to 192 columns, four 40 KiB stages (A 16, B 24) beside
// 128 x (192 + 8) halves in bytes of their own, and two more mbarriers
// (80 bytes for four stages). Persistent (cooperative), its ring is one
// stage shorter so that its epilogue stages 128 columns at a time,
// 128 x (128 + 8) floats in bytes of their own (the stages' are busy with
// the next tile's slices meanwhile).
// CHECK-LABEL: func.func @WgmmaWideTile
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, grid = [132, 1, 1]>
// CHECK-SAME: #brrr.buffer<role = b, index = 3, offset = 124928, bytes = 24576>
// CHECK-SAME: #brrr.buffer<role = barriers, offset = 215040, bytes = 80>
// CHECK-SAME: #brrr.buffer<role = epilogue, offset = 0, bytes = 51200>], bytes = 216144>}
// PERSIST-LABEL: func.func @WgmmaWideTile
// PERSIST: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 128, grid = [132, 1, 1]>
// PERSIST-SAME: #brrr.buffer<role = b, index = 2, offset = 135168, bytes = 32768>
// PERSIST-SAME: #brrr.buffer<role = epilogue, offset = 0, bytes = 69632>], bytes = 218160>}
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @WgmmaWideTile(%a: tensor<4096x768xf16>, %b: tensor<768x3072xf16>) -> tensor<4096x3072xf16> {
    %0 = brrr.fusion matmul(%a, %b) : (tensor<4096x768xf16>, tensor<768x3072xf16>) -> tensor<4096x3072xf16> {
    ^bb0(%x: tensor<4096x768xf16>, %y: tensor<768x3072xf16>):
      %1 = brrr.matmul %x, %y : tensor<4096x768xf16>, tensor<768x3072xf16> -> tensor<4096x3072xf16>
      brrr.yield %1 : tensor<4096x3072xf16>
    }
    return %0 : tensor<4096x3072xf16>
  }
}

// -----

// Operands TMA cannot read (A's rows 100 bytes apart, not a multiple of
// 16) keep the mma.sync body on sm_90a... which needs whole 16-byte rows
// too, so the product is untiled.
// CHECK-LABEL: func.func @WgmmaNeedsAlignedRows
// CHECK: brrr.fusion matmul{{.*}}brrr.shared = #brrr.shared<buffers = [], bytes = 0>}
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @WgmmaNeedsAlignedRows(%a: tensor<64x50xf16>, %b: tensor<50x64xf16>) -> tensor<64x64xf16> {
    %0 = brrr.fusion matmul(%a, %b) : (tensor<64x50xf16>, tensor<50x64xf16>) -> tensor<64x64xf16> {
    ^bb0(%x: tensor<64x50xf16>, %y: tensor<50x64xf16>):
      %1 = brrr.matmul %x, %y : tensor<64x50xf16>, tensor<50x64xf16> -> tensor<64x64xf16>
      brrr.yield %1 : tensor<64x64xf16>
    }
    return %0 : tensor<64x64xf16>
  }
}

// -----

// Without a target the budget is 48 KiB: the same product is staged in 2
// buffer pairs (37888 bytes), not 3.
// CHECK-LABEL: func.func @StagesFitTheBudget
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 2, grid = [2, 2, 1]>
// CHECK-SAME: bytes = 37888>}
func.func @StagesFitTheBudget(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>) -> tensor<256x256xf16> {
  %0 = brrr.fusion matmul(%a, %b) : (tensor<256x64xf16>, tensor<64x256xf16>) -> tensor<256x256xf16> {
  ^bb0(%x: tensor<256x64xf16>, %y: tensor<64x256xf16>):
    %1 = brrr.matmul %x, %y : tensor<256x64xf16>, tensor<64x256xf16> -> tensor<256x256xf16>
    brrr.yield %1 : tensor<256x256xf16>
  }
  return %0 : tensor<256x256xf16>
}

// -----

// f32 operands stage 32-deep slices of f32, each with room for either
// layout (64 rows x 36 or 32 x 72: 9216 bytes), through two stages without
// a target. Rows that are not whole 16-byte chunks (N = 30) keep the
// untiled body: no tile, no staging.
// CHECK-LABEL: func.func @UnstagedMatmuls
// CHECK: brrr.fusion matmul{{.*}}tile = [64, 64, 32], stages = 2, grid = [1, 1, 1]>, brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = a, offset = 0, bytes = 9216>, #brrr.buffer<role = b, offset = 9216, bytes = 9216>, #brrr.buffer<role = a, index = 1, offset = 18432, bytes = 9216>, #brrr.buffer<role = b, index = 1, offset = 27648, bytes = 9216>], bytes = 36864>}
// CHECK: brrr.fusion matmul{{.*}}brrr.shared = #brrr.shared<buffers = [], bytes = 0>}
func.func @UnstagedMatmuls(%a: tensor<64x64xf32>, %h: tensor<64x64xf16>, %w: tensor<64x30xf16>) -> (tensor<64x64xf32>, tensor<64x30xf16>) {
  %0 = brrr.fusion matmul(%a) : (tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%x: tensor<64x64xf32>):
    %1 = brrr.matmul %x, %x : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    brrr.yield %1 : tensor<64x64xf32>
  }
  %2 = brrr.fusion matmul(%h, %w) : (tensor<64x64xf16>, tensor<64x30xf16>) -> tensor<64x30xf16> {
  ^bb0(%x: tensor<64x64xf16>, %y: tensor<64x30xf16>):
    %3 = brrr.matmul %x, %y : tensor<64x64xf16>, tensor<64x30xf16> -> tensor<64x30xf16>
    brrr.yield %3 : tensor<64x30xf16>
  }
  return %0, %2 : tensor<64x64xf32>, tensor<64x30xf16>
}

// -----

// A cooperative reduction combines its block's partial results through one
// 8-byte slot per thread, a split-rows one through 32 bytes per thread (a
// 16-byte vector held in a type up to twice as wide); a thread-per-output
// one needs no shared memory.
// CHECK-LABEL: func.func @CooperativeReducePartials
// CHECK: brrr.fusion reduce{{.*}}tile = [256], grid = [1, 1, 1]>, brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = partials, offset = 0, bytes = 2048>], bytes = 2048>}
// CHECK: brrr.fusion reduce{{.*}}tile = [7, 100], grid = [1, 1, 1]>, brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = partials, offset = 0, bytes = 22528>], bytes = 22528>}
// CHECK: brrr.fusion reduce{{.*}}brrr.shared = #brrr.shared<buffers = [], bytes = 0>}
func.func @CooperativeReducePartials(%a: tensor<128x512xi64>, %d: tensor<100x7xi32>, %few: tensor<8x64xf32>) -> (tensor<i64>, tensor<7xi32>, tensor<64xf32>) {
  %0 = brrr.reduce max %a {axes = array<i64: 0, 1>, keepdims = false} : tensor<128x512xi64> -> tensor<i64>
  %1 = brrr.reduce sum %d {axes = array<i64: 0>, keepdims = false} : tensor<100x7xi32> -> tensor<7xi32>
  %2 = brrr.reduce sum %few {axes = array<i64: 0>, keepdims = false} : tensor<8x64xf32> -> tensor<64xf32>
  return %0, %1, %2 : tensor<i64>, tensor<7xi32>, tensor<64xf32>
}
