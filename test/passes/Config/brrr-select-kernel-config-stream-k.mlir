// RUN: brrr-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config))' | FileCheck %s --check-prefix=NEVER
// RUN: brrr-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{stream-k=auto}))' | FileCheck %s --check-prefix=AUTO
// RUN: brrr-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{stream-k=always}))' | FileCheck %s --check-prefix=ALWAYS
// RUN: brrr-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config{stream-k=auto},brrr-plan-shared-memory,brrr-plan-global-memory))' | FileCheck %s --check-prefix=PLAN
// RUN: brrr-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-conv,brrr-select-kernel-config{stream-k=auto}))' | FileCheck %s --check-prefix=CONV
// RUN: not brrr-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(brrr-select-kernel-config{stream-k=sometimes}))' 2>&1 | FileCheck %s --check-prefix=BAD

// ViT-B/16's output projection at batch 32 (6304 x 768 x 768, a bias and
// a residual): 200 tiles of 128 x 192 over 132 blocks leave the second
// wave half empty. Split evenly, a block runs 2400 / 132 = 18.2 of the
// 12-slice tiles' slices, plus two for the partials, against 24 a block
// whole: stream_k with `auto`, on the overlapped schedule it has anyway.
// Never by default. The plan gives the partial tiles (132 x 128 x 192 x
// 4 bytes) a place of their own while the kernel runs, and the flags (132
// x 4 bytes) the arena's first bytes for good.
// NEVER-LABEL: func.func @VitProjection
// NEVER-NOT: stream_k
// AUTO-LABEL: func.func @VitProjection
// AUTO: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 512, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped, stream_k = true, grid = [132, 1, 1]>
// ALWAYS-LABEL: func.func @VitProjection
// ALWAYS: stream_k = true
// PLAN-LABEL: func.func @VitProjection
// PLAN-SAME: brrr.arena_bytes = 12976896
// PLAN: brrr.memory = [#brrr.placement<storage = output, offset = 0, bytes = 9682944>]
// PLAN-SAME: brrr.workspace = [#brrr.placement<storage = arena, offset = 768, bytes = 12976128>, #brrr.placement<storage = arena, offset = 0, bytes = 528>]
// BAD: error: stream-k takes auto, always or never; got 'sometimes'
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @VitProjection(%x: tensor<6304x768xf16>, %r: tensor<6304x768xf16>) -> tensor<6304x768xf16> {
    %w = brrr.constant dense<1.0> : tensor<768x768xf16>
    %b = brrr.constant dense<0.5> : tensor<768xf16>
    %m = brrr.matmul %x, %w : tensor<6304x768xf16>, tensor<768x768xf16> -> tensor<6304x768xf16>
    %a = brrr.add %m, %b : tensor<6304x768xf16>, tensor<768xf16> -> tensor<6304x768xf16>
    %y = brrr.add %a, %r : tensor<6304x768xf16>, tensor<6304x768xf16> -> tensor<6304x768xf16>
    return %y : tensor<6304x768xf16>
  }
}

// -----

// BERT-base's output projection at batch 128 (16384 rows): 512 tiles make
// 3.9 waves, whose last is nearly full (48 slices a block whole, 49 split):
// whole tiles with `auto`, split only with `always`.
// AUTO-LABEL: func.func @BertProjection
// AUTO-NOT: stream_k
// ALWAYS-LABEL: func.func @BertProjection
// ALWAYS: stream_k = true
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @BertProjection(%x: tensor<16384x768xf16>) -> tensor<16384x768xf16> {
    %w = brrr.constant dense<1.0> : tensor<768x768xf16>
    %m = brrr.matmul %x, %w : tensor<16384x768xf16>, tensor<768x768xf16> -> tensor<16384x768xf16>
    return %m : tensor<16384x768xf16>
  }
}

// -----

// Tiles that divide evenly between the multiprocessors (4224 x 1536: 33
// x 8 tiles of 128 x 192, one block a tile, two waves) never split.
// ALWAYS-LABEL: func.func @WholeWaves
// ALWAYS-NOT: stream_k
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @WholeWaves(%x: tensor<4224x256xf16>) -> tensor<4224x1536xf16> {
    %w = brrr.constant dense<1.0> : tensor<256x1536xf16>
    %m = brrr.matmul %x, %w : tensor<4224x256xf16>, tensor<256x1536xf16> -> tensor<4224x1536xf16>
    return %m : tensor<4224x1536xf16>
  }
}

// -----

// Fewer tiles than multiprocessors, one block a tile by default: Whisper's
// output projection at one clip (1500 x 768 x 768, a bias and a residual:
// 72 tiles of 128 x 128 over 12 k-slices) becomes a persistent grid of 132
// blocks of 6-7 slices each with `auto` (9 with the partials' 2, against
// 12), on the cooperative schedule. 1024 rows narrowed to 128 x 64 tiles
// (96 of them) would gain too little (11 against 12): with `always` only.
// NEVER-LABEL: func.func @FewTiles
// NEVER: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [72, 1, 1]>
// AUTO-LABEL: func.func @FewTiles
// AUTO: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, persistent = 132, epilogue = 128, stream_k = true, grid = [132, 1, 1]>
// ALWAYS-LABEL: func.func @FewTiles
// ALWAYS: stream_k = true
// AUTO-LABEL: func.func @NarrowTiles
// AUTO-NOT: stream_k
// ALWAYS-LABEL: func.func @NarrowTiles
// ALWAYS: brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, persistent = 132, epilogue = 64, stream_k = true, grid = [132, 1, 1]>
// PLAN-LABEL: func.func @FewTiles
// PLAN: brrr.workspace = [#brrr.placement<storage = arena, offset = {{[0-9]+}}, bytes = 8650752>, #brrr.placement<storage = arena, offset = 0, bytes = 528>]
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @FewTiles(%x: tensor<1500x768xf16>, %r: tensor<1500x768xf16>) -> tensor<1500x768xf16> {
    %w = brrr.constant dense<1.0> : tensor<768x768xf16>
    %b = brrr.constant dense<0.5> : tensor<768xf16>
    %m = brrr.matmul %x, %w : tensor<1500x768xf16>, tensor<768x768xf16> -> tensor<1500x768xf16>
    %a = brrr.add %m, %b : tensor<1500x768xf16>, tensor<768xf16> -> tensor<1500x768xf16>
    %y = brrr.add %a, %r : tensor<1500x768xf16>, tensor<1500x768xf16> -> tensor<1500x768xf16>
    return %y : tensor<1500x768xf16>
  }
  func.func @NarrowTiles(%x: tensor<1024x768xf16>) -> tensor<1024x768xf16> {
    %w = brrr.constant dense<1.0> : tensor<768x768xf16>
    %m = brrr.matmul %x, %w : tensor<1024x768xf16>, tensor<768x768xf16> -> tensor<1024x768xf16>
    return %m : tensor<1024x768xf16>
  }
}

// -----

// Fewer k-slices than multiprocessors (256 x 256 x 256: 8 tiles of 128 x
// 64 over 4 k-slices, 32 in all) leave blocks with none of their own:
// never split, not even with `always`.
// AUTO-LABEL: func.func @FewSlices
// AUTO-NOT: stream_k
// ALWAYS-LABEL: func.func @FewSlices
// ALWAYS-NOT: stream_k
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @FewSlices(%x: tensor<256x256xf16>) -> tensor<256x256xf16> {
    %w = brrr.constant dense<1.0> : tensor<256x256xf16>
    %m = brrr.matmul %x, %w : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
    return %m : tensor<256x256xf16>
  }
}

// -----

// ResNet-50's third-stage 3 x 3 convolutions at batch 32 (6272 pixels x
// 256 channels, 2304 deep): 98 tiles of 128 x 128, one block a tile,
// leave 34 of 132 multiprocessors idle. With `auto`, a persistent grid of
// all 132 splits the 98 x 36 k-slices (27 a block, 29 with the partials',
// against 36).
// CONV-LABEL: func.func @ResNetLayer3
// CONV: brrr.fusion conv{{.*}}brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, persistent = 132, epilogue = 128, stream_k = true, grid = [132, 1, 1]>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @ResNetLayer3(%x: tensor<32x14x14x256xf16>, %w: tensor<3x3x256x256xf16>, %b: tensor<256xf16>) -> tensor<32x14x14x256xf16> {
    %c = brrr.conv2d %x, %w, %b {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<32x14x14x256xf16>, tensor<3x3x256x256xf16>, tensor<256xf16>) -> tensor<32x14x14x256xf16>
    %r = brrr.relu %c : tensor<32x14x14x256xf16>
    return %r : tensor<32x14x14x256xf16>
  }
}
