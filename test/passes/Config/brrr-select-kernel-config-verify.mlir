// RUN: brrr-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(brrr-select-kernel-config))'

// Each family's rules verify a config for its fusion (verifyFor): here,
// configs pinned by hand that the attribute's own verifier accepts but the
// family's code generator cannot lay out for the fusion they are on. The
// same checks run again before code generation.

func.func @pointwise_vector_not_dividing(%arg0: tensor<100xf16>) -> tensor<100xf16> {
  // expected-error @+1 {{vector width 8 does not divide the 100 elements}}
  %0 = brrr.fusion pointwise(%arg0) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8>} : (tensor<100xf16>) -> tensor<100xf16> {
  ^bb0(%arg1: tensor<100xf16>):
    %1 = brrr.relu %arg1 : tensor<100xf16>
    brrr.yield %1 : tensor<100xf16>
  }
  return %0 : tensor<100xf16>
}

// -----

func.func @pool_vectors_nchw(%arg0: tensor<1x64x8x8xf16>) -> tensor<1x64x4x4xf16> {
  // expected-error @+1 {{a pool of vectors of 8 reads whole vectors of channels-last channels}}
  %0 = brrr.fusion pool(%arg0) {brrr.config = #brrr.kernel<family = pool, body = simt, threads = 256, vector = 8>} : (tensor<1x64x8x8xf16>) -> tensor<1x64x4x4xf16> {
  ^bb0(%arg1: tensor<1x64x8x8xf16>):
    %1 = brrr.max_pool2d %arg1 {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x64x8x8xf16> -> tensor<1x64x4x4xf16>
    brrr.yield %1 : tensor<1x64x4x4xf16>
  }
  return %0 : tensor<1x64x4x4xf16>
}

// -----

func.func @row_vector_not_geometry(%arg0: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  // expected-error @+1 {{a row kernel of 128 threads reads vectors of 8, not 2}}
  %0 = brrr.fusion row(%arg0) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, vector = 2>} : (tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  ^bb0(%arg1: tensor<64x4096xf16>):
    %1 = brrr.softmax %arg1 {axis = 1 : i64} : tensor<64x4096xf16>
    brrr.yield %1 : tensor<64x4096xf16>
  }
  return %0 : tensor<64x4096xf16>
}

// -----

func.func @transpose_tiles_too_small(%arg0: tensor<4x8xf16>) -> tensor<8x4xf16> {
  // expected-error @+1 {{only a transpose of two groups of dimensions of at least 32 moves through shared tiles}}
  %0 = brrr.fusion movement(%arg0) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [32, 8]>} : (tensor<4x8xf16>) -> tensor<8x4xf16> {
  ^bb0(%arg1: tensor<4x8xf16>):
    %1 = brrr.transpose %arg1 {perm = array<i64: 1, 0>} : tensor<4x8xf16> -> tensor<8x4xf16>
    brrr.yield %1 : tensor<8x4xf16>
  }
  return %0 : tensor<8x4xf16>
}

// -----

func.func @attention_f64(%arg0: tensor<1x2x64x64xf64>) -> tensor<1x2x64x64xf64> {
  %0 = brrr.fusion attention(%arg0, %arg0, %arg0) {brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2>} : (tensor<1x2x64x64xf64>, tensor<1x2x64x64xf64>, tensor<1x2x64x64xf64>) -> tensor<1x2x64x64xf64> {
  ^bb0(%arg1: tensor<1x2x64x64xf64>, %arg2: tensor<1x2x64x64xf64>, %arg3: tensor<1x2x64x64xf64>):
    // expected-error @+1 {{the attention kernel multiplies f16, bf16 or f32, not 'f64'}}
    %1 = brrr.attention %arg1, %arg2, %arg3 {scale = 1.000000e+00 : f64} : tensor<1x2x64x64xf64>, tensor<1x2x64x64xf64>, tensor<1x2x64x64xf64> -> tensor<1x2x64x64xf64>
    brrr.yield %1 : tensor<1x2x64x64xf64>
  }
  return %0 : tensor<1x2x64x64xf64>
}

// -----

// f32 heads go in mma steps of 8.
func.func @attention_f32_head(%arg0: tensor<1x2x64x12xf32>) -> tensor<1x2x64x12xf32> {
  %0 = brrr.fusion attention(%arg0, %arg0, %arg0) {brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2>} : (tensor<1x2x64x12xf32>, tensor<1x2x64x12xf32>, tensor<1x2x64x12xf32>) -> tensor<1x2x64x12xf32> {
  ^bb0(%arg1: tensor<1x2x64x12xf32>, %arg2: tensor<1x2x64x12xf32>, %arg3: tensor<1x2x64x12xf32>):
    // expected-error @+1 {{the attention kernel takes head sizes that are multiples of 8 up to 128, got 12 and 12}}
    %1 = brrr.attention %arg1, %arg2, %arg3 {scale = 1.000000e+00 : f64} : tensor<1x2x64x12xf32>, tensor<1x2x64x12xf32>, tensor<1x2x64x12xf32> -> tensor<1x2x64x12xf32>
    brrr.yield %1 : tensor<1x2x64x12xf32>
  }
  return %0 : tensor<1x2x64x12xf32>
}

// -----

// An f32 16-byte copy holds 4 elements: 16 keys of 8 are 32 copies, not a
// round of 128 threads.
func.func @attention_f32_copies_not_whole(%arg0: tensor<1x2x64x8xf32>) -> tensor<1x2x64x8xf32> {
  // expected-error @+1 {{does not split 16 rows of 8 into whole 16-byte copies per thread}}
  %0 = brrr.fusion attention(%arg0, %arg0, %arg0) {brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 16], stages = 2>} : (tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>) -> tensor<1x2x64x8xf32> {
  ^bb0(%arg1: tensor<1x2x64x8xf32>, %arg2: tensor<1x2x64x8xf32>, %arg3: tensor<1x2x64x8xf32>):
    %1 = brrr.attention %arg1, %arg2, %arg3 {scale = 1.000000e+00 : f64} : tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32> -> tensor<1x2x64x8xf32>
    brrr.yield %1 : tensor<1x2x64x8xf32>
  }
  return %0 : tensor<1x2x64x8xf32>
}

// -----

func.func @attention_copies_not_whole(%arg0: tensor<1x2x64x16xf16>) -> tensor<1x2x64x16xf16> {
  // expected-error @+1 {{does not split 16 rows of 16 into whole 16-byte copies per thread}}
  %0 = brrr.fusion attention(%arg0, %arg0, %arg0) {brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 16], stages = 2>} : (tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>) -> tensor<1x2x64x16xf16> {
  ^bb0(%arg1: tensor<1x2x64x16xf16>, %arg2: tensor<1x2x64x16xf16>, %arg3: tensor<1x2x64x16xf16>):
    %1 = brrr.attention %arg1, %arg2, %arg3 {scale = 1.000000e+00 : f64} : tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16>, tensor<1x2x64x16xf16> -> tensor<1x2x64x16xf16>
    brrr.yield %1 : tensor<1x2x64x16xf16>
  }
  return %0 : tensor<1x2x64x16xf16>
}

// -----

// The wgmma body runs attention on sm_90a only, multiplying f16 or bf16
// heads of a multiple of 16 up to 128.
func.func @attention_wgmma_untargeted(%arg0: tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16> {
  // expected-error @+1 {{the wgmma body needs an sm_90a target}}
  %0 = brrr.fusion attention(%arg0, %arg0, %arg0) {brrr.config = #brrr.kernel<family = attention, body = wgmma, threads = 128, tile = [64, 64], stages = 2>} : (tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16> {
  ^bb0(%arg1: tensor<1x2x64x64xf16>, %arg2: tensor<1x2x64x64xf16>, %arg3: tensor<1x2x64x64xf16>):
    %1 = brrr.attention %arg1, %arg2, %arg3 {scale = 1.000000e+00 : f64} : tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16> -> tensor<1x2x64x64xf16>
    brrr.yield %1 : tensor<1x2x64x64xf16>
  }
  return %0 : tensor<1x2x64x64xf16>
}

// -----

module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @attention_wgmma_f32(%arg0: tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32> {
    // expected-error @+1 {{the wgmma body multiplies f16 or bf16}}
    %0 = brrr.fusion attention(%arg0, %arg0, %arg0) {brrr.config = #brrr.kernel<family = attention, body = wgmma, threads = 128, tile = [64, 64], stages = 2>} : (tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32> {
    ^bb0(%arg1: tensor<1x2x64x64xf32>, %arg2: tensor<1x2x64x64xf32>, %arg3: tensor<1x2x64x64xf32>):
      %1 = brrr.attention %arg1, %arg2, %arg3 {scale = 1.000000e+00 : f64} : tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32>, tensor<1x2x64x64xf32> -> tensor<1x2x64x64xf32>
      brrr.yield %1 : tensor<1x2x64x64xf32>
    }
    return %0 : tensor<1x2x64x64xf32>
  }
}

// -----

// Heads past 128 on the wgmma body take key blocks of at most 32.
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @attention_wgmma_head256_keys64(%arg0: tensor<1x2x64x256xf16>) -> tensor<1x2x64x256xf16> {
    // expected-error @+1 {{the wgmma body holds the outputs of heads past 128 beside key blocks of at most 32, not 64}}
    %0 = brrr.fusion attention(%arg0, %arg0, %arg0) {brrr.config = #brrr.kernel<family = attention, body = wgmma, threads = 128, tile = [64, 64], stages = 2>} : (tensor<1x2x64x256xf16>, tensor<1x2x64x256xf16>, tensor<1x2x64x256xf16>) -> tensor<1x2x64x256xf16> {
    ^bb0(%arg1: tensor<1x2x64x256xf16>, %arg2: tensor<1x2x64x256xf16>, %arg3: tensor<1x2x64x256xf16>):
      %1 = brrr.attention %arg1, %arg2, %arg3 {scale = 1.000000e+00 : f64} : tensor<1x2x64x256xf16>, tensor<1x2x64x256xf16>, tensor<1x2x64x256xf16> -> tensor<1x2x64x256xf16>
      brrr.yield %1 : tensor<1x2x64x256xf16>
    }
    return %0 : tensor<1x2x64x256xf16>
  }
}

// -----

module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @attention_wgmma_head272(%arg0: tensor<1x2x64x272xf16>) -> tensor<1x2x64x272xf16> {
    // expected-error @+1 {{the wgmma body takes heads of a multiple of 16 up to 256, not 272}}
    %0 = brrr.fusion attention(%arg0, %arg0, %arg0) {brrr.config = #brrr.kernel<family = attention, body = wgmma, threads = 128, tile = [64, 64], stages = 2>} : (tensor<1x2x64x272xf16>, tensor<1x2x64x272xf16>, tensor<1x2x64x272xf16>) -> tensor<1x2x64x272xf16> {
    ^bb0(%arg1: tensor<1x2x64x272xf16>, %arg2: tensor<1x2x64x272xf16>, %arg3: tensor<1x2x64x272xf16>):
      %1 = brrr.attention %arg1, %arg2, %arg3 {scale = 1.000000e+00 : f64} : tensor<1x2x64x272xf16>, tensor<1x2x64x272xf16>, tensor<1x2x64x272xf16> -> tensor<1x2x64x272xf16>
      brrr.yield %1 : tensor<1x2x64x272xf16>
    }
    return %0 : tensor<1x2x64x272xf16>
  }
}

// -----

func.func @warp_mma_f32(%arg0: tensor<64x64xf32>, %arg1: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 32>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%arg2: tensor<64x64xf32>, %arg3: tensor<64x64xf32>):
    // expected-error @+1 {{the untiled Tensor Core body takes f16 or bf16 operands (f32 runs the staged mma_sync body), got 'f32'}}
    %1 = brrr.matmul %arg2, %arg3 : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
    brrr.yield %1 : tensor<64x64xf32>
  }
  return %0 : tensor<64x64xf32>
}

// -----

func.func @tiled_warps_not_64x64(%arg0: tensor<256x256xf16>, %arg1: tensor<256x256xf16>) -> tensor<256x256xf16> {
  // expected-error @+1 {{a 16-bit mma_sync tile runs one warp per 64x64 in one block}}
  %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 256, tile = [128, 128, 32], stages = 3>} : (tensor<256x256xf16>, tensor<256x256xf16>) -> tensor<256x256xf16> {
  ^bb0(%arg2: tensor<256x256xf16>, %arg3: tensor<256x256xf16>):
    %1 = brrr.matmul %arg2, %arg3 : tensor<256x256xf16>, tensor<256x256xf16> -> tensor<256x256xf16>
    brrr.yield %1 : tensor<256x256xf16>
  }
  return %0 : tensor<256x256xf16>
}

// -----

func.func @f32_tile_warps(%arg0: tensor<256x256xf32>, %arg1: tensor<256x256xf32>) -> tensor<256x256xf32> {
  // expected-error @+1 {{unsupported f32 tile}}
  %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 3>} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32> {
  ^bb0(%arg2: tensor<256x256xf32>, %arg3: tensor<256x256xf32>):
    %1 = brrr.matmul %arg2, %arg3 : tensor<256x256xf32>, tensor<256x256xf32> -> tensor<256x256xf32>
    brrr.yield %1 : tensor<256x256xf32>
  }
  return %0 : tensor<256x256xf32>
}

// -----

module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @wgmma_cluster_uneven(%arg0: tensor<128x192xf16>, %arg1: tensor<192x128xf16>) -> tensor<128x128xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 3, cluster = 2>} : (tensor<128x192xf16>, tensor<192x128xf16>) -> tensor<128x128xf16> {
    ^bb0(%arg2: tensor<128x192xf16>, %arg3: tensor<192x128xf16>):
      // expected-error @+1 {{cannot split 3 k-slices evenly between 2 blocks of a cluster}}
      %1 = brrr.matmul %arg2, %arg3 : tensor<128x192xf16>, tensor<192x128xf16> -> tensor<128x128xf16>
      brrr.yield %1 : tensor<128x128xf16>
    }
    return %0 : tensor<128x128xf16>
  }
}

// -----

module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @wgmma_unaligned_rows(%arg0: tensor<128x100xf16>, %arg1: tensor<100x128xf16>) -> tensor<128x128xf16> {
    // expected-error @+1 {{has a wgmma tile but operands TMA cannot read}}
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 3>} : (tensor<128x100xf16>, tensor<100x128xf16>) -> tensor<128x128xf16> {
    ^bb0(%arg2: tensor<128x100xf16>, %arg3: tensor<100x128xf16>):
      %1 = brrr.matmul %arg2, %arg3 : tensor<128x100xf16>, tensor<100x128xf16> -> tensor<128x128xf16>
      brrr.yield %1 : tensor<128x128xf16>
    }
    return %0 : tensor<128x128xf16>
  }
}

// -----

module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @wgmma_conv_nchw(%arg0: tensor<2x64x14x14xf16>, %arg1: tensor<64x64x3x3xf16>) -> tensor<2x64x14x14xf16> {
    // expected-error @+1 {{a wgmma conv kernel starts with a channels-last brrr.conv2d}}
    %0 = brrr.fusion conv(%arg0, %arg1) {brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4>} : (tensor<2x64x14x14xf16>, tensor<64x64x3x3xf16>) -> tensor<2x64x14x14xf16> {
    ^bb0(%arg2: tensor<2x64x14x14xf16>, %arg3: tensor<64x64x3x3xf16>):
      %1 = brrr.conv2d %arg2, %arg3 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x64x14x14xf16>, tensor<64x64x3x3xf16>) -> tensor<2x64x14x14xf16>
      brrr.yield %1 : tensor<2x64x14x14xf16>
    }
    return %0 : tensor<2x64x14x14xf16>
  }
}

// -----

func.func @conv_mma_sync_f16(%arg0: tensor<2x64x14x14xf16>, %arg1: tensor<64x64x3x3xf16>) -> tensor<2x64x14x14xf16> {
  // expected-error @+1 {{a convolution's mma_sync body takes f32 operands (16-bit ones run the untiled warp_mma body or the wgmma body), not 'f16'}}
  %0 = brrr.fusion conv(%arg0, %arg1) {brrr.config = #brrr.kernel<family = conv, body = mma_sync, threads = 128, tile = [128, 128, 32], stages = 3>} : (tensor<2x64x14x14xf16>, tensor<64x64x3x3xf16>) -> tensor<2x64x14x14xf16> {
  ^bb0(%arg2: tensor<2x64x14x14xf16>, %arg3: tensor<64x64x3x3xf16>):
    %1 = brrr.conv2d %arg2, %arg3 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x64x14x14xf16>, tensor<64x64x3x3xf16>) -> tensor<2x64x14x14xf16>
    brrr.yield %1 : tensor<2x64x14x14xf16>
  }
  return %0 : tensor<2x64x14x14xf16>
}

// -----

func.func @direct_conv_vectors_nchw(%arg0: tensor<2x64x14x14xf16>, %arg1: tensor<64x1x3x3xf16>) -> tensor<2x64x14x14xf16> {
  %0 = brrr.fusion conv(%arg0, %arg1) {brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, vector = 8>} : (tensor<2x64x14x14xf16>, tensor<64x1x3x3xf16>) -> tensor<2x64x14x14xf16> {
  ^bb0(%arg2: tensor<2x64x14x14xf16>, %arg3: tensor<64x1x3x3xf16>):
    // expected-error @+1 {{a direct convolution reads vectors of 8 channels only channels-last, one channel per group, and a channel count they divide}}
    %1 = brrr.conv2d %arg2, %arg3 {dilations = array<i64: 1, 1>, groups = 64 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x64x14x14xf16>, tensor<64x1x3x3xf16>) -> tensor<2x64x14x14xf16>
    brrr.yield %1 : tensor<2x64x14x14xf16>
  }
  return %0 : tensor<2x64x14x14xf16>
}

// -----

// Pairs of blocks multicast B only where their tiles pair up vertically:
// not over an odd count of row tiles (a B read along N pairs too, each
// block copying half of each box's k rows: ptx-wgmma-multicast-along-n.test).
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @wgmma_multicast_odd_rows(%arg0: tensor<384x256xf16>, %arg1: tensor<512x256xf16>) -> tensor<384x512xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, multicast = 2>} : (tensor<384x256xf16>, tensor<512x256xf16>) -> tensor<384x512xf16> {
    ^bb0(%arg2: tensor<384x256xf16>, %arg3: tensor<512x256xf16>):
      %t = brrr.transpose %arg3 {perm = array<i64: 1, 0>} : tensor<512x256xf16> -> tensor<256x512xf16>
      // expected-error @+1 {{cannot multicast B between pairs of blocks: its row tiles are odd}}
      %1 = brrr.matmul %arg2, %t : tensor<384x256xf16>, tensor<256x512xf16> -> tensor<384x512xf16>
      brrr.yield %1 : tensor<384x512xf16>
    }
    return %0 : tensor<384x512xf16>
  }
}

// -----

// A persistent grid of an odd count of blocks would leave one block
// without its pair.
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @wgmma_multicast_odd_persistent(%arg0: tensor<4096x256xf16>, %arg1: tensor<1024x256xf16>) -> tensor<4096x1024xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, persistent = 131, epilogue = 128, multicast = 2>} : (tensor<4096x256xf16>, tensor<1024x256xf16>) -> tensor<4096x1024xf16> {
    ^bb0(%arg2: tensor<4096x256xf16>, %arg3: tensor<1024x256xf16>):
      %t = brrr.transpose %arg3 {perm = array<i64: 1, 0>} : tensor<1024x256xf16> -> tensor<256x1024xf16>
      // expected-error @+1 {{cannot multicast B between pairs of blocks: its persistent grid is odd}}
      %1 = brrr.matmul %arg2, %t : tensor<4096x256xf16>, tensor<256x1024xf16> -> tensor<4096x1024xf16>
      brrr.yield %1 : tensor<4096x1024xf16>
    }
    return %0 : tensor<4096x1024xf16>
  }
}

// -----

module attributes {brrr.dims = [#brrr.dim<"seq", 1, 512>]} {
  func.func @reduce_symbolic_rows_per_thread(%arg0: tensor<2x?x64xf32, #brrr.extents<()[s0] -> (2, s0, 64)>>) -> tensor<2x64xf32> {
    %0 = brrr.fusion reduce(%arg0) {brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256>} : (tensor<2x?x64xf32, #brrr.extents<()[s0] -> (2, s0, 64)>>) -> tensor<2x64xf32> {
    ^bb0(%arg1: tensor<2x?x64xf32, #brrr.extents<()[s0] -> (2, s0, 64)>>):
      // expected-error @+1 {{symbolic rows reduce in split rows (tile [lanes, groups]), one block an outer index's vectors}}
      %1 = brrr.reduce sum %arg1 {axes = array<i64: 1>, keepdims = false} : tensor<2x?x64xf32, #brrr.extents<()[s0] -> (2, s0, 64)>> -> tensor<2x64xf32>
      brrr.yield %1 : tensor<2x64xf32>
    }
    return %0 : tensor<2x64xf32>
  }
}
