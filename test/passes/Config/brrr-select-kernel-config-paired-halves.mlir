// RUN: brrr-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config))' | FileCheck %s
// RUN: brrr-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{pingpong=true multicast=always}))' | FileCheck %s --check-prefix=FORCED
// RUN: not brrr-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{matmul-tile=128,192,4}))' 2>&1 | FileCheck %s --check-prefix=PINNED

// A gated unit at 8 x 512 tokens (1536 -> 2 x 2048): the paired product
// of 4096 columns takes tiles of 256 columns, 128 of each half
// (wgmmaTileWidth's wave model: 32 x 16 tiles), overlapped (1536 deep,
// SiLU), never narrowed to 192 (whose halves would split a 64-column
// box of B). Asked for ping-pong and multicast, it keeps the overlapped
// schedule's cooperative consumers and copies its own B. A pinned tile of
// 192 columns is refused.
// CHECK-LABEL: func.func @Gated
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = 256, schedule = overlapped, grid = [132, 1, 1]>
// CHECK: brrr.slice
// FORCED-LABEL: func.func @Gated
// FORCED: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 3, persistent = 132, epilogue = {{[0-9]+}}, grid = [132, 1, 1]>
// PINNED: error: 'brrr.matmul' op pairs the halves of its columns, which takes tiles of 128 or 256 columns on the cooperative or overlapped schedule
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @Gated(%x: tensor<8x512x1536xf16>) -> tensor<8x512x2048xf16> {
    %wg = brrr.constant dense<1.0> : tensor<1536x2048xf16>
    %wu = brrr.constant dense<2.0> : tensor<1536x2048xf16>
    %g = brrr.matmul %x, %wg : tensor<8x512x1536xf16>, tensor<1536x2048xf16> -> tensor<8x512x2048xf16>
    %u = brrr.matmul %x, %wu : tensor<8x512x1536xf16>, tensor<1536x2048xf16> -> tensor<8x512x2048xf16>
    %s = brrr.sigmoid %g : tensor<8x512x2048xf16>
    %a = brrr.mul %g, %s : tensor<8x512x2048xf16>, tensor<8x512x2048xf16> -> tensor<8x512x2048xf16>
    %y = brrr.mul %a, %u : tensor<8x512x2048xf16>, tensor<8x512x2048xf16> -> tensor<8x512x2048xf16>
    return %y : tensor<8x512x2048xf16>
  }
}

// -----

// 300 rows of 136 columns a half, a residual: 128-wide tiles (3 x 3 of
// 64 columns a half, the last ragged), one block a tile (256 deep).
// CHECK-LABEL: func.func @Small
// CHECK: brrr.fusion matmul{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [9, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @Small(%x: tensor<300x256xf16>, %r: tensor<300x136xf16>) -> tensor<300x136xf16> {
    %wg = brrr.constant dense<1.0> : tensor<256x136xf16>
    %wu = brrr.constant dense<2.0> : tensor<256x136xf16>
    %g = brrr.matmul %x, %wg : tensor<300x256xf16>, tensor<256x136xf16> -> tensor<300x136xf16>
    %u = brrr.matmul %x, %wu : tensor<300x256xf16>, tensor<256x136xf16> -> tensor<300x136xf16>
    %a = brrr.gelu none %g : tensor<300x136xf16>
    %m = brrr.mul %u, %a : tensor<300x136xf16>, tensor<300x136xf16> -> tensor<300x136xf16>
    %y = brrr.add %m, %r : tensor<300x136xf16>, tensor<300x136xf16> -> tensor<300x136xf16>
    return %y : tensor<300x136xf16>
  }
}
