// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{fp8-fast-accumulation=true}))' | FileCheck %s --check-prefix=FAST
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{persistent=true}))' | FileCheck %s --check-prefix=PERSISTENT
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{pingpong=true}))' | FileCheck %s --check-prefix=PINGPONG
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{overlap=true},brrr-plan-shared-memory))' | FileCheck %s --check-prefix=OVERLAP
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{multicast=always}))' | FileCheck %s --check-prefix=ALWAYS

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-matmul-wgmma-8bit.mlir, which
// starts from them pinned.

// A float8 product (4096 x 2048, 1024 deep) sums each 128-deep slice's
// products apart and adds them to f32 accumulators (`precision =
// promoted`): both are held in registers, so the tile is at most 192 wide
// (the wave cost model's choice up to that width) where a 16-bit or INT8
// one would be 256. Its tiles outnumber the multiprocessors, so it runs a
// persistent grid, cooperative (with `persistent` too; with `pingpong`,
// 128 x 64 tiles: a ping-pong warpgroup holds a whole tile's accumulators
// and the slice's sums beside them). With
// fp8-fast-accumulation the Tensor Cores sum the whole contraction
// (`precision = fast`) over the 256-wide tile, one block a tile. 8-bit
// products pair their blocks to multicast B only with multicast=always
// (`multicast = 2`): paired, they ran 1.3-1.8x slower.
// ALWAYS-LABEL: func.func @main
// ALWAYS: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 128], stages = 4, precision = promoted, persistent = 132, epilogue = 64, multicast = 2, grid = [132, 1, 1]>
// CHECK-LABEL: func.func @main
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 128], stages = 4, precision = promoted, persistent = 132, epilogue = 64, grid = [132, 1, 1]>
// FAST-LABEL: func.func @main
// FAST: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 128], stages = 4, precision = fast, grid = [256, 1, 1]>
// PERSISTENT-LABEL: func.func @main
// PERSISTENT: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 192, 128], stages = 4, precision = promoted, persistent = 132, epilogue = 64, grid = [132, 1, 1]>
// PINGPONG-LABEL: func.func @main
// PINGPONG: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 128], stages = 4, precision = promoted, persistent = 132, epilogue = 64, schedule = pingpong, grid = [132, 1, 1]>
// With `overlap`, the overlapped schedule stages each tile's f32 sums for
// the producer's drain warps (the scales applied there): 128 columns, the
// consumers' fewer registers holding 64 + 64 a thread, staged in 128 rows
// of 136 f32 (69632 bytes) beside four stages.
// OVERLAP-LABEL: func.func @main
// OVERLAP: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 128], stages = 4, precision = promoted, persistent = 132, epilogue = 128, schedule = overlapped, grid = [132, 1, 1]>
// OVERLAP-SAME: #brrr.buffer<role = epilogue, offset = 0, bytes = 69632>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%a: tensor<4096x1024xf8E4M3FN>, %w: tensor<2048x1024xf8E4M3FN>) -> tensor<4096x2048xf16> {
    %t = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<2048x1024xf8E4M3FN> -> tensor<1024x2048xf8E4M3FN>
    %p = brrr.matmul %a, %t : tensor<4096x1024xf8E4M3FN>, tensor<1024x2048xf8E4M3FN> -> tensor<4096x2048xf32>
    %s = brrr.constant dense<0.25> : tensor<f32>
    %m = brrr.mul %p, %s : tensor<4096x2048xf32>, tensor<f32> -> tensor<4096x2048xf32>
    %c = brrr.cast %m : tensor<4096x2048xf32> -> tensor<4096x2048xf16>
    return %c : tensor<4096x2048xf16>
  }
}

// -----

// 1024 columns: 128-wide tiles make two waves of 256 (192-wide ones two
// waves of 192, each tile slower), so the promoted tile is 128 wide.
// CHECK-LABEL: func.func @main
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 128], stages = 4, precision = promoted, persistent = 132, epilogue = 128, grid = [132, 1, 1]>
// FAST-LABEL: func.func @main
// FAST: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 128], stages = 4, precision = fast, grid = [128, 1, 1]>
// OVERLAP-LABEL: func.func @main
// OVERLAP: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 128], stages = 4, precision = promoted, persistent = 132, epilogue = 128, schedule = overlapped, grid = [132, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%a: tensor<4096x1024xf8E4M3FN>, %w: tensor<1024x1024xf8E4M3FN>) -> tensor<4096x1024xf32> {
    %t = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<1024x1024xf8E4M3FN> -> tensor<1024x1024xf8E4M3FN>
    %p = brrr.matmul %a, %t : tensor<4096x1024xf8E4M3FN>, tensor<1024x1024xf8E4M3FN> -> tensor<4096x1024xf32>
    return %p : tensor<4096x1024xf32>
  }
}

// -----

// INT8 sums are exact in 32-bit integers: the default precision (not
// printed) and the 256-wide tile, with or without fp8-fast-accumulation.
// CHECK-LABEL: func.func @main
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 128], stages = 4, grid = [256, 1, 1]>
// FAST-LABEL: func.func @main
// FAST: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 128], stages = 4, grid = [256, 1, 1]>
// PINGPONG-LABEL: func.func @main
// PINGPONG: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 128], stages = 4, persistent = 132, epilogue = 128, schedule = pingpong, grid = [132, 1, 1]>
// OVERLAP-LABEL: func.func @main
// OVERLAP: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 128], stages = 4, persistent = 132, epilogue = 128, schedule = overlapped, grid = [132, 1, 1]>
// OVERLAP-SAME: #brrr.buffer<role = epilogue, offset = 0, bytes = 69632>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%a: tensor<4096x1024xi8>, %w: tensor<2048x1024xi8>) -> tensor<4096x2048xf16> {
    %t = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<2048x1024xi8> -> tensor<1024x2048xi8>
    %p = brrr.matmul %a, %t : tensor<4096x1024xi8>, tensor<1024x2048xi8> -> tensor<4096x2048xf32>
    %s = brrr.constant dense<0.25> : tensor<f32>
    %m = brrr.mul %p, %s : tensor<4096x2048xf32>, tensor<f32> -> tensor<4096x2048xf32>
    %c = brrr.cast %m : tensor<4096x2048xf32> -> tensor<4096x2048xf16>
    return %c : tensor<4096x2048xf16>
  }
}

// -----

// A product of few tiles (300 x 200, 256 deep: 3 x 4 tiles of 128 x 64)
// narrows to 64 columns as a 16-bit one would, and keeps its promoted
// sums.
// CHECK-LABEL: func.func @main
// CHECK: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 128], stages = 2, precision = promoted, grid = [12, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%a: tensor<300x256xf8E4M3FN>, %w: tensor<200x256xf8E4M3FN>) -> tensor<300x200xf32> {
    %t = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<200x256xf8E4M3FN> -> tensor<256x200xf8E4M3FN>
    %p = brrr.matmul %a, %t : tensor<300x256xf8E4M3FN>, tensor<256x200xf8E4M3FN> -> tensor<300x200xf32>
    return %p : tensor<300x200xf32>
  }
}
