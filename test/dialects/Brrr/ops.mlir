// RUN: brrr-opt %s | brrr-opt | FileCheck %s
// RUN: brrr-opt %s --mlir-print-op-generic | brrr-opt | FileCheck %s
// Every brrr op parses, verifies and prints back in its custom form.

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x8xf32>, %i: tensor<4xi32>, %b: tensor<3xi1>) {
  // CHECK: brrr.abs %{{.+}} : tensor<4xi32>
  %0 = brrr.abs %i : tensor<4xi32>
  // CHECK: brrr.ceil %{{.+}} : tensor<2x8xf32>
  %1 = brrr.ceil %x : tensor<2x8xf32>
  // CHECK: brrr.cos
  %2 = brrr.cos %x : tensor<2x8xf32>
  // CHECK: brrr.erf
  %3 = brrr.erf %x : tensor<2x8xf32>
  // CHECK: brrr.exp
  %4 = brrr.exp %x : tensor<2x8xf32>
  // CHECK: brrr.floor
  %5 = brrr.floor %x : tensor<2x8xf32>
  // CHECK: brrr.log
  %6 = brrr.log %x : tensor<2x8xf32>
  // CHECK: brrr.neg %{{.+}} : tensor<4xi32>
  %7 = brrr.neg %i : tensor<4xi32>
  // CHECK: brrr.not %{{.+}} : tensor<3xi1>
  %8 = brrr.not %b : tensor<3xi1>
  // CHECK: brrr.reciprocal
  %9 = brrr.reciprocal %x : tensor<2x8xf32>
  // CHECK: brrr.relu
  %10 = brrr.relu %x : tensor<2x8xf32>
  // CHECK: brrr.rsqrt
  %11 = brrr.rsqrt %x : tensor<2x8xf32>
  // CHECK: brrr.sigmoid
  %12 = brrr.sigmoid %x : tensor<2x8xf32>
  // CHECK: brrr.silu
  %13 = brrr.silu %x : tensor<2x8xf32>
  // CHECK: brrr.sin
  %14 = brrr.sin %x : tensor<2x8xf32>
  // CHECK: brrr.sqrt
  %15 = brrr.sqrt %x : tensor<2x8xf32>
  // CHECK: brrr.tanh
  %16 = brrr.tanh %x : tensor<2x8xf32>
  // CHECK: brrr.gelu none %{{.+}} : tensor<2x8xf32>
  %17 = brrr.gelu none %x : tensor<2x8xf32>
  // CHECK: brrr.gelu tanh %{{.+}} : tensor<2x8xf32>
  %18 = brrr.gelu tanh %x : tensor<2x8xf32>
  // CHECK: brrr.clip %{{.+}} {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<2x8xf32>
  %19 = brrr.clip %x {min = 0.0 : f64, max = 6.0 : f64} : tensor<2x8xf32>
  // CHECK: brrr.clip %{{.+}} {min = 1.000000e+00 : f64} : tensor<4xi32>
  %20 = brrr.clip %i {min = 1.0 : f64} : tensor<4xi32>
  // CHECK: brrr.cast %{{.+}} : tensor<2x8xf32> -> tensor<2x8xf16>
  %21 = brrr.cast %x : tensor<2x8xf32> -> tensor<2x8xf16>
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%x: tensor<4x8xf32>, %y: tensor<8xf32>, %s: tensor<f32>,
                  %b: tensor<4x1xi1>, %c: tensor<8xi1>) {
  // CHECK: brrr.add %{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %0 = brrr.add %x, %y : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: brrr.sub %{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %1 = brrr.sub %x, %s : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  // CHECK: brrr.mul
  %2 = brrr.mul %y, %x : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: brrr.div
  %3 = brrr.div %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: brrr.pow
  %4 = brrr.pow %x, %s : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  // CHECK: brrr.rem %{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %rem = brrr.rem %x, %y : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: brrr.max
  %5 = brrr.max %x, %y : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: brrr.min
  %6 = brrr.min %x, %y : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: brrr.and %{{.+}}, %{{.+}} : tensor<4x1xi1>, tensor<8xi1> -> tensor<4x8xi1>
  %7 = brrr.and %b, %c : tensor<4x1xi1>, tensor<8xi1> -> tensor<4x8xi1>
  // CHECK: brrr.or
  %8 = brrr.or %b, %c : tensor<4x1xi1>, tensor<8xi1> -> tensor<4x8xi1>
  // CHECK: brrr.xor
  %9 = brrr.xor %b, %c : tensor<4x1xi1>, tensor<8xi1> -> tensor<4x8xi1>
  // CHECK: brrr.compare ge %{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  %10 = brrr.compare ge %x, %y : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  // CHECK: brrr.where %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x1xi1>, tensor<8xf32>, tensor<f32> -> tensor<4x8xf32>
  %11 = brrr.where %b, %y, %s : tensor<4x1xi1>, tensor<8xf32>, tensor<f32> -> tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @nn
func.func @nn(%a: tensor<8x128x64xf16>, %w: tensor<64x32xf16>,
              %img: tensor<1x4x9x9xf32>, %k: tensor<8x2x3x3xf32>,
              %bias: tensor<8xf32>, %c: tensor<4xf32>,
              %seq: tensor<2x16x64xf32>, %g: tensor<64xf32>) {
  // CHECK: brrr.matmul %{{.+}}, %{{.+}} : tensor<8x128x64xf16>, tensor<64x32xf16> -> tensor<8x128x32xf16>
  %0 = brrr.matmul %a, %w : tensor<8x128x64xf16>, tensor<64x32xf16> -> tensor<8x128x32xf16>
  // CHECK: brrr.conv2d %{{.+}}, %{{.+}}, %{{.+}} {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x9x9xf32>, tensor<8x2x3x3xf32>, tensor<8xf32>) -> tensor<1x8x5x5xf32>
  %1 = brrr.conv2d %img, %k, %bias {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x9x9xf32>, tensor<8x2x3x3xf32>, tensor<8xf32>) -> tensor<1x8x5x5xf32>
  // CHECK: brrr.conv2d %{{[^,]+}}, %{{[^,]+}} {
  %2 = brrr.conv2d %img, %k {dilations = array<i64: 2, 2>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x5x5xf32>
  // CHECK: brrr.max_pool2d %{{.+}} : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  %3 = brrr.max_pool2d %img {ceil_mode = true, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  // CHECK: brrr.avg_pool2d %{{.+}} : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  %4 = brrr.avg_pool2d %img {ceil_mode = false, count_include_pad = true, dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  // CHECK: brrr.batch_norm %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {epsilon = 1.000000e-05 : f64}
  %5 = brrr.batch_norm %img, %c, %c, %c, %c {epsilon = 1.0e-05 : f64} : (tensor<1x4x9x9xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x9x9xf32>
  // CHECK: brrr.layer_norm %{{.+}}, %{{.+}}, %{{.+}} {axis = 2 : i64, epsilon = 1.000000e-05 : f64}
  %6 = brrr.layer_norm %seq, %g, %g {axis = 2 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x16x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // CHECK: brrr.layer_norm %{{[^,]+}}, %{{[^,]+}} {axis = 2 : i64
  %7 = brrr.layer_norm %seq, %g {axis = 2 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x16x64xf32>, tensor<64xf32>) -> tensor<2x16x64xf32>
  // CHECK: brrr.softmax %{{.+}} {axis = 2 : i64} : tensor<2x16x64xf32>
  %8 = brrr.softmax %seq {axis = 2 : i64} : tensor<2x16x64xf32>
  // CHECK: brrr.log_softmax %{{.+}} {axis = 0 : i64} : tensor<2x16x64xf32>
  %9 = brrr.log_softmax %seq {axis = 0 : i64} : tensor<2x16x64xf32>
  // CHECK: brrr.reduce mean %{{.+}} {axes = array<i64: 2, 3>, keepdims = true} : tensor<1x4x9x9xf32> -> tensor<1x4x1x1xf32>
  %10 = brrr.reduce mean %img {axes = array<i64: 2, 3>, keepdims = true} : tensor<1x4x9x9xf32> -> tensor<1x4x1x1xf32>
  // CHECK: brrr.reduce prod %{{.+}} {axes = array<i64: 0, 2>, keepdims = false} : tensor<2x16x64xf32> -> tensor<16xf32>
  %11 = brrr.reduce prod %seq {axes = array<i64: 0, 2>, keepdims = false} : tensor<2x16x64xf32> -> tensor<16xf32>
  return
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>,
                         %t: tensor<1000x64xf32>, %ids: tensor<2x16xi64>) {
  // CHECK: brrr.concat %{{.+}}, %{{.+}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  %0 = brrr.concat %x, %y {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  // CHECK: brrr.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %1 = brrr.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: brrr.expand %{{.+}} : tensor<2x3x4xf32> -> tensor<5x2x3x4xf32>
  %2 = brrr.expand %x : tensor<2x3x4xf32> -> tensor<5x2x3x4xf32>
  // CHECK: brrr.gather %{{.+}}, %{{.+}} {axis = 0 : i64} : (tensor<1000x64xf32>, tensor<2x16xi64>) -> tensor<2x16x64xf32>
  %3 = brrr.gather %t, %ids {axis = 0 : i64} : (tensor<1000x64xf32>, tensor<2x16xi64>) -> tensor<2x16x64xf32>
  // CHECK: brrr.pad reflect %{{.+}} {high = array<i64: 0, 1, 2>, low = array<i64: 1, 0, -1>, value = 0.000000e+00 : f64} : tensor<2x3x4xf32> -> tensor<3x4x5xf32>
  %4 = brrr.pad reflect %x {high = array<i64: 0, 1, 2>, low = array<i64: 1, 0, -1>, value = 0.0 : f64} : tensor<2x3x4xf32> -> tensor<3x4x5xf32>
  // CHECK: brrr.reshape %{{.+}} : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %5 = brrr.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  // CHECK: brrr.resize linear %{{.+}} half_pixel round_prefer_floor : tensor<2x3x4xf32> -> tensor<2x6x8xf32>
  %6 = brrr.resize linear %x half_pixel round_prefer_floor : tensor<2x3x4xf32> -> tensor<2x6x8xf32>
  // CHECK: brrr.slice %{{.+}} {sizes = array<i64: 2, 2, 2>, starts = array<i64: 0, 2, 3>, steps = array<i64: 1, -1, -2>} : tensor<2x3x4xf32> -> tensor<2x2x2xf32>
  %7 = brrr.slice %x {sizes = array<i64: 2, 2, 2>, starts = array<i64: 0, 2, 3>, steps = array<i64: 1, -1, -2>} : tensor<2x3x4xf32> -> tensor<2x2x2xf32>
  // CHECK: brrr.transpose %{{.+}} {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %8 = brrr.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return
}

// Attention with and without a bias; grouped-query heads (2 key and value
// heads for 4 query heads), values of another width, an f32 result.
// CHECK-LABEL: func.func @attention
func.func @attention(%q: tensor<2x4x10x64xf16>, %k: tensor<2x2x12x64xf16>, %v: tensor<2x2x12x32xf16>, %m: tensor<2x1x1x12xf32>) {
  // CHECK: brrr.attention %{{.+}}, %{{.+}}, %{{.+}} bias %{{.+}} {scale = 1.250000e-01 : f64, zero_nan} : tensor<2x4x10x64xf16>, tensor<2x2x12x64xf16>, tensor<2x2x12x32xf16>, tensor<2x1x1x12xf32> -> tensor<2x4x10x32xf16>
  %0 = brrr.attention %q, %k, %v bias %m {scale = 0.125 : f64, zero_nan} : tensor<2x4x10x64xf16>, tensor<2x2x12x64xf16>, tensor<2x2x12x32xf16>, tensor<2x1x1x12xf32> -> tensor<2x4x10x32xf16>
  // CHECK: brrr.attention %{{[^,]+}}, %{{[^,]+}}, %{{[^ ]+}} {causal, scale = 1.000000e+00 : f64} : tensor<2x4x10x64xf16>, tensor<2x2x12x64xf16>, tensor<2x2x12x32xf16> -> tensor<2x4x10x32xf32>
  %1 = brrr.attention %q, %k, %v {causal, scale = 1.0 : f64} : tensor<2x4x10x64xf16>, tensor<2x2x12x64xf16>, tensor<2x2x12x32xf16> -> tensor<2x4x10x32xf32>
  return
}

// A rank-5 bias splits the batch: a mask for each of 2 windows.
// CHECK-LABEL: func.func @attention_windows
// CHECK: brrr.attention {{.+}} bias %{{.+}} {scale = 1.250000e-01 : f64} : {{.+}}, tensor<1x2x4x10x12xf16> -> tensor<2x4x10x32xf16>
func.func @attention_windows(%q: tensor<2x4x10x64xf16>, %k: tensor<2x2x12x64xf16>, %v: tensor<2x2x12x32xf16>, %m: tensor<1x2x4x10x12xf16>) {
  %0 = brrr.attention %q, %k, %v bias %m {scale = 0.125 : f64} : tensor<2x4x10x64xf16>, tensor<2x2x12x64xf16>, tensor<2x2x12x32xf16>, tensor<1x2x4x10x12xf16> -> tensor<2x4x10x32xf16>
  return
}

// Kernel configs round-trip; defaults (no tile, 0 stages, vector and
// cluster 1) are not printed.
// CHECK-LABEL: func.func @kernel_configs
// CHECK-SAME: a = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4>
// CHECK-SAME: b = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8>
// CHECK-SAME: c = #brrr.kernel<family = conv, body = warp_mma, threads = 32>
// CHECK-SAME: d = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [128, 64], stages = 2>
// CHECK-SAME: e = #brrr.kernel<family = attention, body = wgmma, threads = 256, tile = [128, 64], stages = 2>
// CHECK-SAME: f = #brrr.kernel<family = attention, body = wgmma, threads = 128, tile = [64, 64], stages = 3, schedule = overlapped>
// An overlapped product with a drain warpgroup of its own: 512 threads.
// CHECK-SAME: g = #brrr.kernel<family = matmul, body = wgmma, threads = 512, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped>
func.func @kernel_configs() attributes {g = #brrr.kernel<family = matmul, body = wgmma, threads = 512, tile = [128, 192, 64], stages = 4, persistent = 132, epilogue = 192, schedule = overlapped>, a = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, vector = 1, cluster = 1>, b = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8>, c = #brrr.kernel<family = conv, body = warp_mma, threads = 32>, d = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [128, 64], stages = 2>, e = #brrr.kernel<family = attention, body = wgmma, threads = 256, tile = [128, 64], stages = 2>, f = #brrr.kernel<family = attention, body = wgmma, threads = 128, tile = [64, 64], stages = 3, schedule = overlapped>} {
  return
}

// Targets round-trip; no features are not printed.
// CHECK-LABEL: func.func @targets
// CHECK-SAME: a = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>
// CHECK-SAME: b = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync>
func.func @targets() attributes {a = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>, b = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
  return
}

// Shared-memory plans round-trip; index 0 is not printed.
// CHECK-LABEL: func.func @shared_plans
// CHECK-SAME: a = #brrr.shared<buffers = [#brrr.buffer<role = reduction, offset = 0, bytes = 32>, #brrr.buffer<role = reduction, index = 1, offset = 32, bytes = 32>], bytes = 64>
// CHECK-SAME: b = #brrr.shared<buffers = [], bytes = 0>
func.func @shared_plans() attributes {a = #brrr.shared<buffers = [#brrr.buffer<role = reduction, index = 0, offset = 0, bytes = 32>, #brrr.buffer<role = reduction, index = 1, offset = 32, bytes = 32>], bytes = 64>, b = #brrr.shared<buffers = [], bytes = 0>} {
  return
}

// Fusions print their kernel family as a keyword.
// CHECK-LABEL: func.func @fusion_family
// CHECK: brrr.fusion row(%{{.+}}) : (tensor<8xf32>) -> tensor<8xf32>
func.func @fusion_family(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = brrr.fusion row(%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>):
    brrr.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @indexing
func.func @indexing(%x: tensor<4x5x6xf32>, %i2: tensor<3x2xi64>, %ie: tensor<4x5x2xi32>,
                    %ue: tensor<4x5x2xf32>, %u: tensor<3x6xf32>) {
  // CHECK: brrr.gather_elements %{{.+}}, %{{.+}} {axis = 2 : i64} : (tensor<4x5x6xf32>, tensor<4x5x2xi32>) -> tensor<4x5x2xf32>
  %0 = brrr.gather_elements %x, %ie {axis = 2 : i64} : (tensor<4x5x6xf32>, tensor<4x5x2xi32>) -> tensor<4x5x2xf32>
  // CHECK: brrr.gather_nd %{{.+}}, %{{.+}} {batch_dims = 0 : i64} : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  %1 = brrr.gather_nd %x, %i2 {batch_dims = 0 : i64} : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  // CHECK: brrr.scatter_elements add %{{.+}}, %{{.+}}, %{{.+}} {axis = 2 : i64} : (tensor<4x5x6xf32>, tensor<4x5x2xi32>, tensor<4x5x2xf32>) -> tensor<4x5x6xf32>
  %2 = brrr.scatter_elements add %x, %ie, %ue {axis = 2 : i64} : (tensor<4x5x6xf32>, tensor<4x5x2xi32>, tensor<4x5x2xf32>) -> tensor<4x5x6xf32>
  // CHECK: brrr.scatter_nd min %{{.+}}, %{{.+}}, %{{.+}} : (tensor<4x5x6xf32>, tensor<3x2xi64>, tensor<3x6xf32>) -> tensor<4x5x6xf32>
  %3 = brrr.scatter_nd min %x, %i2, %u : (tensor<4x5x6xf32>, tensor<3x2xi64>, tensor<3x6xf32>) -> tensor<4x5x6xf32>
  return
}

// CHECK-LABEL: func.func @quantization
func.func @quantization(%x: tensor<4x8xf32>, %s: tensor<1x8xf32>, %z: tensor<1x8xi8>,
                        %h: tensor<4x8xf16>, %hs: tensor<f16>, %f8z: tensor<f8E4M3FN>,
                        %b: tensor<8xi32>, %bs: tensor<8xf32>, %bz: tensor<i32>) {
  // CHECK: brrr.quantize %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<1x8xf32>, tensor<1x8xi8> -> tensor<4x8xi8>
  %0 = brrr.quantize %x, %s, %z : tensor<4x8xf32>, tensor<1x8xf32>, tensor<1x8xi8> -> tensor<4x8xi8>
  // CHECK: brrr.dequantize %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x8xi8>, tensor<1x8xf32>, tensor<1x8xi8> -> tensor<4x8xf32>
  %1 = brrr.dequantize %0, %s, %z : tensor<4x8xi8>, tensor<1x8xf32>, tensor<1x8xi8> -> tensor<4x8xf32>
  // CHECK: brrr.quantize %{{.+}}, %{{.+}}, %{{.+}} {saturate = false} : tensor<4x8xf16>, tensor<f16>, tensor<f8E4M3FN> -> tensor<4x8xf8E4M3FN>
  %2 = brrr.quantize %h, %hs, %f8z {saturate = false} : tensor<4x8xf16>, tensor<f16>, tensor<f8E4M3FN> -> tensor<4x8xf8E4M3FN>
  // CHECK: brrr.dequantize %{{.+}}, %{{.+}}, %{{.+}} : tensor<4x8xf8E4M3FN>, tensor<f16>, tensor<f8E4M3FN> -> tensor<4x8xf16>
  %3 = brrr.dequantize %2, %hs, %f8z : tensor<4x8xf8E4M3FN>, tensor<f16>, tensor<f8E4M3FN> -> tensor<4x8xf16>
  // CHECK: brrr.dequantize %{{.+}}, %{{.+}}, %{{.+}} : tensor<8xi32>, tensor<8xf32>, tensor<i32> -> tensor<8xf32>
  %4 = brrr.dequantize %b, %bs, %bz : tensor<8xi32>, tensor<8xf32>, tensor<i32> -> tensor<8xf32>
  return
}
