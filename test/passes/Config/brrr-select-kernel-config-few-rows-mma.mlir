// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{few-rows-mma=always},brrr-plan-shared-memory))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config))' | FileCheck %s --check-prefix=AUTO
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{few-rows-mma=never}))' | FileCheck %s --check-prefix=NEVER
// RUN: not brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-select-kernel-config{few-rows-mma=sometimes}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-select-kernel-config{multicast=sometimes}))' 2>&1 | FileCheck %s --check-prefix=BAD-MULTICAST
// With few-rows-mma=always, 16-bit products of 5 to 64 rows read along K run the
// few-rows body on Tensor Cores: a block of 16 columns whose warps split K,
// the rows rounded up to 8, 16-byte vectors; the partials buffer holds
// each warp's sums of the block's tile. A decoder's query projection at 16
// tokens (2048 -> 2048: 128 blocks, 16 warps for eight a multiprocessor,
// partials of 16 warps' [16, 16] tiles of f32),
// BERT's up-projection at 5 rows with bias and GELU (192 blocks: 8 warps),
// a bf16 product of 64 rows over a 3-D input, and a product 64 deep (2
// chunks: 2 warps). 65 rows, f32 operands, or a weight read along N keep
// the default bodies. By default (auto) up to 32 rows take it, and the
// product of 64 rows takes wgmma tiles; with never, 5 to 64 rows take wgmma
// tiles.
// CHECK-LABEL: func.func @FewRowsMma
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [16, 16], vector = 8, grid = [128, 1, 1]>
// CHECK-SAME: brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = partials, offset = 0, bytes = 16384>], bytes = 16384>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 256, tile = [8, 16], vector = 8, grid = [192, 1, 1]>
// CHECK-SAME: brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = partials, offset = 0, bytes = 4096>], bytes = 4096>
// CHECK: brrr.gelu
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [64, 16], vector = 8, grid = [16, 1, 1]>
// CHECK-SAME: -> tensor<1x64x256xbf16>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 64, tile = [24, 16], vector = 8, grid = [4, 1, 1]>
// CHECK-SAME: -> tensor<20x64xf16>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma
// CHECK-SAME: -> tensor<65x2048xf16>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = mma_sync
// CHECK-SAME: -> tensor<16x256xf32>
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma
// CHECK-SAME: -> tensor<16x2048xf16>
// AUTO-LABEL: func.func @FewRowsMma
// AUTO: body = warp_mma, threads = 512, tile = [16, 16]
// AUTO-SAME: -> tensor<16x2048xf16>
// AUTO: body = warp_mma, threads = 256, tile = [8, 16]
// AUTO-SAME: -> tensor<5x3072xf16>
// AUTO: body = wgmma
// AUTO-SAME: -> tensor<1x64x256xbf16>
// AUTO: body = warp_mma, threads = 64, tile = [24, 16]
// AUTO-SAME: -> tensor<20x64xf16>
// AUTO: body = wgmma
// AUTO-SAME: -> tensor<65x2048xf16>
// NEVER-LABEL: func.func @FewRowsMma
// NEVER-NOT: body = warp_mma
// NEVER: return
// BAD: error: few-rows-mma takes auto, always or never; got 'sometimes'
// BAD-MULTICAST: error: multicast takes auto, always or never; got 'sometimes'
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @FewRowsMma(%x: tensor<16x2048xf16>, %wq: tensor<2048x2048xf16>, %v: tensor<5x768xf16>, %wv: tensor<3072x768xf16>, %bv: tensor<3072xf16>, %y: tensor<1x64x512xbf16>, %wy: tensor<256x512xbf16>, %s: tensor<20x64xf16>, %ws: tensor<64x64xf16>, %z: tensor<65x2048xf16>, %wz: tensor<2048x2048xf16>, %f: tensor<16x256xf32>, %wf: tensor<256x256xf32>, %wn: tensor<2048x2048xf16>) -> (tensor<16x2048xf16>, tensor<5x3072xf16>, tensor<1x64x256xbf16>, tensor<20x64xf16>, tensor<65x2048xf16>, tensor<16x256xf32>, tensor<16x2048xf16>) {
    %tq = brrr.transpose %wq {perm = array<i64: 1, 0>} : tensor<2048x2048xf16> -> tensor<2048x2048xf16>
    %0 = brrr.matmul %x, %tq : tensor<16x2048xf16>, tensor<2048x2048xf16> -> tensor<16x2048xf16>
    %tv = brrr.transpose %wv {perm = array<i64: 1, 0>} : tensor<3072x768xf16> -> tensor<768x3072xf16>
    %1 = brrr.matmul %v, %tv : tensor<5x768xf16>, tensor<768x3072xf16> -> tensor<5x3072xf16>
    %2 = brrr.add %1, %bv : tensor<5x3072xf16>, tensor<3072xf16> -> tensor<5x3072xf16>
    %3 = brrr.gelu none %2 : tensor<5x3072xf16>
    %ty = brrr.transpose %wy {perm = array<i64: 1, 0>} : tensor<256x512xbf16> -> tensor<512x256xbf16>
    %4 = brrr.matmul %y, %ty : tensor<1x64x512xbf16>, tensor<512x256xbf16> -> tensor<1x64x256xbf16>
    %ts = brrr.transpose %ws {perm = array<i64: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %5 = brrr.matmul %s, %ts : tensor<20x64xf16>, tensor<64x64xf16> -> tensor<20x64xf16>
    %tz = brrr.transpose %wz {perm = array<i64: 1, 0>} : tensor<2048x2048xf16> -> tensor<2048x2048xf16>
    %6 = brrr.matmul %z, %tz : tensor<65x2048xf16>, tensor<2048x2048xf16> -> tensor<65x2048xf16>
    %tf = brrr.transpose %wf {perm = array<i64: 1, 0>} : tensor<256x256xf32> -> tensor<256x256xf32>
    %7 = brrr.matmul %f, %tf : tensor<16x256xf32>, tensor<256x256xf32> -> tensor<16x256xf32>
    %8 = brrr.matmul %x, %wn : tensor<16x2048xf16>, tensor<2048x2048xf16> -> tensor<16x2048xf16>
    return %0, %3, %4, %5, %6, %7, %8 : tensor<16x2048xf16>, tensor<5x3072xf16>, tensor<1x64x256xbf16>, tensor<20x64xf16>, tensor<65x2048xf16>, tensor<16x256xf32>, tensor<16x2048xf16>
  }
}

// -----

// Over symbolic rows of 1 to 512 with the weight K-major (brrr-align-
// products stores a constant one so): the ranges of 1, 2 and 3 to 4 rows
// run the few-rows body on plain threads, those up to 64 on Tensor Cores
// (a range's rows rounded up to 8: 5 to 8 one kernel, 9 to 16 another,
// then 24, 32, 48 and 64), the rest wgmma tiles. By default the ranges up
// to 32 rows take it, then 33 to 128 rows a wgmma tile; with never, the
// ranges from 5 rows are wgmma ones.
// CHECK-LABEL: func.func @main
// CHECK: brrr.variants = [{config = #brrr.kernel<family = matmul, body = simt, threads = 256, tile = [1, 8], vector = 8, grid = [128, 1, 1]>, rows = 1 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = simt, threads = 256, tile = [2, 8], vector = 8, grid = [128, 1, 1]>, rows = 2 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = simt, threads = 256, tile = [4, 8], vector = 8, grid = [128, 1, 1]>, rows = 4 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [8, 16], vector = 8, grid = [64, 1, 1]>, rows = 8 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [16, 16], vector = 8, grid = [64, 1, 1]>, rows = 16 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [24, 16], vector = 8, grid = [64, 1, 1]>, rows = 24 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [32, 16], vector = 8, grid = [64, 1, 1]>, rows = 32 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [48, 16], vector = 8, grid = [64, 1, 1]>, rows = 48 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [64, 16], vector = 8, grid = [64, 1, 1]>, rows = 64 : i64},
// CHECK-SAME: {config = #brrr.kernel<family = matmul, body = wgmma
// AUTO-LABEL: func.func @main
// AUTO: brrr.variants = [{config = #brrr.kernel<family = matmul, body = simt, {{.*}}rows = 1 : i64}, {config = #brrr.kernel<family = matmul, body = simt, {{.*}}rows = 2 : i64}, {config = #brrr.kernel<family = matmul, body = simt, {{.*}}rows = 4 : i64},
// AUTO-SAME: {config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [8, 16], vector = 8, grid = [64, 1, 1]>, rows = 8 : i64},
// AUTO-SAME: {config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [16, 16], vector = 8, grid = [64, 1, 1]>, rows = 16 : i64},
// AUTO-SAME: {config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [24, 16], vector = 8, grid = [64, 1, 1]>, rows = 24 : i64},
// AUTO-SAME: {config = #brrr.kernel<family = matmul, body = warp_mma, threads = 512, tile = [32, 16], vector = 8, grid = [64, 1, 1]>, rows = 32 : i64},
// AUTO-SAME: {config = #brrr.kernel<family = matmul, body = wgmma, {{.*}}rows = 128 : i64}
// NEVER-LABEL: func.func @main
// NEVER: brrr.variants = [{config = #brrr.kernel<family = matmul, body = simt, {{.*}}rows = 1 : i64}, {config = #brrr.kernel<family = matmul, body = simt, {{.*}}rows = 2 : i64}, {config = #brrr.kernel<family = matmul, body = simt, {{.*}}rows = 4 : i64}, {config = #brrr.kernel<family = matmul, body = wgmma
// NEVER-NOT: warp_mma
module attributes {brrr.dims = [#brrr.dim<"rows", 1, 512>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x2048xf16, #brrr.extents<()[s0] -> (s0, 2048)>>, %wt: tensor<1024x2048xf16>) -> tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>> {
    %w = brrr.transpose %wt {perm = array<i64: 1, 0>} : tensor<1024x2048xf16> -> tensor<2048x1024xf16>
    %0 = brrr.matmul %x, %w : tensor<?x2048xf16, #brrr.extents<()[s0] -> (s0, 2048)>>, tensor<2048x1024xf16> -> tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>
    return %0 : tensor<?x1024xf16, #brrr.extents<()[s0] -> (s0, 1024)>>
  }
}
