// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-quantized-products))' | FileCheck %s

// INT8, one scale per output column: the product multiplies the 8-bit
// activation by the weight stored K-major (2 x 32: column 0's 32 values,
// then column 1's) and read through a transpose, sums in f32, and one f32
// constant of the combined scales (0.125 * 0.5, 0.125 * 0.25) rescales it
// before the cast back to f16. No dequantize is left.
// CHECK-LABEL: func.func @Int8PerColumn
// CHECK-NOT: brrr.dequantize
// CHECK: %[[W:.+]] = brrr.constant dense_resource<weight_k_major> : tensor<2x32xi8>
// CHECK: %[[T:.+]] = brrr.transpose %[[W]] {{.*}}perm = array<i64: 1, 0>{{.*}} -> tensor<32x2xi8>
// CHECK: %[[P:.+]] = brrr.matmul %[[Q:.+]], %[[T]] : tensor<4x32xi8>, tensor<32x2xi8> -> tensor<4x2xf32>
// CHECK: %[[S:.+]] = brrr.constant dense<[6.250000e-02, 3.125000e-02]> : tensor<2xf32>
// CHECK: %[[M:.+]] = brrr.mul %[[P]], %[[S]]
// CHECK: brrr.cast %[[M]] : tensor<4x2xf32> -> tensor<4x2xf16>
// CHECK: weight_k_major: "0x08000000000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F00FFFEFDFCFBFAF9F8F7F6F5F4F3F2F1F0EFEEEDECEBEAE9E8E7E6E5E4E3E2E1"
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @Int8PerColumn(%x: tensor<4x32xf16>) -> tensor<4x2xf16> {
    %sa = brrr.constant dense<0.125> : tensor<f16>
    %z = brrr.constant dense<0> : tensor<i8>
    %q = brrr.quantize %x, %sa, %z : tensor<4x32xf16>, tensor<f16>, tensor<i8> -> tensor<4x32xi8>
    %a = brrr.dequantize %q, %sa, %z : tensor<4x32xi8>, tensor<f16>, tensor<i8> -> tensor<4x32xf16>
    %wq = brrr.constant dense<[[0, 0], [1, -1], [2, -2], [3, -3], [4, -4], [5, -5], [6, -6], [7, -7], [8, -8], [9, -9], [10, -10], [11, -11], [12, -12], [13, -13], [14, -14], [15, -15], [16, -16], [17, -17], [18, -18], [19, -19], [20, -20], [21, -21], [22, -22], [23, -23], [24, -24], [25, -25], [26, -26], [27, -27], [28, -28], [29, -29], [30, -30], [31, -31]]> : tensor<32x2xi8>
    %sw = brrr.constant dense<[[0.5, 0.25]]> : tensor<1x2xf16>
    %zw = brrr.constant dense<0> : tensor<1x2xi8>
    %w = brrr.dequantize %wq, %sw, %zw : tensor<32x2xi8>, tensor<1x2xf16>, tensor<1x2xi8> -> tensor<32x2xf16>
    %y = brrr.matmul %a, %w : tensor<4x32xf16>, tensor<32x2xf16> -> tensor<4x2xf16>
    return %y : tensor<4x2xf16>
  }
}

// -----

// Float8, a Gemm's transposed weight (already K-major: its 2 x 16 bytes
// stay in order) and one scale each: a scalar rescale, no cast (the
// product is f32). How its sums are kept is the kernel config's choice
// (brrr-select-kernel-config-float8.mlir).
// CHECK-LABEL: func.func @Float8Transposed
// CHECK-NOT: brrr.dequantize
// CHECK: %[[W:.+]] = brrr.constant dense_resource<weight_k_major> : tensor<2x16xf8E4M3FN>
// CHECK: %[[T:.+]] = brrr.transpose %[[W]]
// CHECK: %[[P:.+]] = brrr.matmul %{{.+}}, %[[T]] : tensor<3x16xf8E4M3FN>, tensor<16x2xf8E4M3FN> -> tensor<3x2xf32>
// CHECK: %[[S:.+]] = brrr.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[M:.+]] = brrr.mul %[[P]], %[[S]] : tensor<3x2xf32>, tensor<f32> -> tensor<3x2xf32>
// CHECK-NEXT: return %[[M]]
// The bytes of 1.0, -2.0, 0.5 and 448.0 in E4M3FN.
// CHECK: weight_k_major: "0x0800000038C0307E38C0307E38C0307E38C0307E38C0307E38C0307E38C0307E38C0307E"
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @Float8Transposed(%x: tensor<3x16xf32>) -> tensor<3x2xf32> {
    %sa = brrr.constant dense<0.5> : tensor<f32>
    %z = brrr.constant dense<0.0> : tensor<f8E4M3FN>
    %q = brrr.quantize %x, %sa, %z {saturate = true} : tensor<3x16xf32>, tensor<f32>, tensor<f8E4M3FN> -> tensor<3x16xf8E4M3FN>
    %a = brrr.dequantize %q, %sa, %z : tensor<3x16xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN> -> tensor<3x16xf32>
    %wr = brrr.constant dense<[[1.0, -2.0, 0.5, 448.0, 1.0, -2.0, 0.5, 448.0, 1.0, -2.0, 0.5, 448.0, 1.0, -2.0, 0.5, 448.0], [1.0, -2.0, 0.5, 448.0, 1.0, -2.0, 0.5, 448.0, 1.0, -2.0, 0.5, 448.0, 1.0, -2.0, 0.5, 448.0]]> : tensor<2x16xf8E4M3FN>
    %sw = brrr.constant dense<2.0> : tensor<f32>
    %w = brrr.dequantize %wr, %sw, %z : tensor<2x16xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN> -> tensor<2x16xf32>
    %wt = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<2x16xf32> -> tensor<16x2xf32>
    %y = brrr.matmul %a, %wt : tensor<3x16xf32>, tensor<16x2xf32> -> tensor<3x2xf32>
    return %y : tensor<3x2xf32>
  }
}

// -----

// An activation zero point z other than zero: sum (q - z) w is the 8-bit
// product less z times each column's sum of W (3 * -8), an f32 constant
// subtracted in the epilogue before the scales (0.125 * 0.5).
// CHECK-LABEL: func.func @ActivationZeroPoint
// CHECK-NOT: brrr.dequantize
// CHECK: %[[P:.+]] = brrr.matmul %{{.+}}, %{{.+}} : tensor<4x16xi8>, tensor<16x1xi8> -> tensor<4x1xf32>
// CHECK: %[[O:.+]] = brrr.constant dense<-2.400000e+01> : tensor<1xf32>
// CHECK: %[[D:.+]] = brrr.sub %[[P]], %[[O]] : tensor<4x1xf32>, tensor<1xf32> -> tensor<4x1xf32>
// CHECK: %[[S:.+]] = brrr.constant dense<6.250000e-02> : tensor<f32>
// CHECK: brrr.mul %[[D]], %[[S]]
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @ActivationZeroPoint(%q: tensor<4x16xi8>) -> tensor<4x1xf32> {
    %sa = brrr.constant dense<0.125> : tensor<f32>
    %za = brrr.constant dense<3> : tensor<i8>
    %z = brrr.constant dense<0> : tensor<i8>
    %a = brrr.dequantize %q, %sa, %za : tensor<4x16xi8>, tensor<f32>, tensor<i8> -> tensor<4x16xf32>
    %wq = brrr.constant dense<[[-8], [-7], [-6], [-5], [-4], [-3], [-2], [-1], [0], [1], [2], [3], [4], [5], [6], [7]]> : tensor<16x1xi8>
    %sw = brrr.constant dense<0.5> : tensor<f32>
    %w = brrr.dequantize %wq, %sw, %z : tensor<16x1xi8>, tensor<f32>, tensor<i8> -> tensor<16x1xf32>
    %y = brrr.matmul %a, %w : tensor<4x16xf32>, tensor<16x1xf32> -> tensor<4x1xf32>
    return %y : tensor<4x1xf32>
  }
}

// -----

// A contraction of 8 bytes (TMA reads rows of whole 16 bytes), and any
// product on a target without the 8-bit wgmma: float products.
// CHECK-LABEL: func.func @ShortContraction
// CHECK: brrr.matmul %{{.+}}, %{{.+}} {brrr.quantized_unfused = "its contraction of 8 is not a positive multiple of 16"} : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @ShortContraction(%q: tensor<4x8xi8>) -> tensor<4x2xf32> {
    %s = brrr.constant dense<0.125> : tensor<f32>
    %z = brrr.constant dense<0> : tensor<i8>
    %a = brrr.dequantize %q, %s, %z : tensor<4x8xi8>, tensor<f32>, tensor<i8> -> tensor<4x8xf32>
    %wq = brrr.constant dense<1> : tensor<8x2xi8>
    %w = brrr.dequantize %wq, %s, %z : tensor<8x2xi8>, tensor<f32>, tensor<i8> -> tensor<8x2xf32>
    %y = brrr.matmul %a, %w : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
    return %y : tensor<4x2xf32>
  }
}

// -----

// CHECK-LABEL: func.func @NoEightBitTensorCores
// CHECK-NOT: weight_k_major
// CHECK: brrr.matmul %{{.+}}, %{{.+}} {brrr.quantized_unfused = "target sm_80 has no 8-bit wgmma"} : tensor<4x16xf32>, tensor<16x2xf32> -> tensor<4x2xf32>
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
  func.func @NoEightBitTensorCores(%q: tensor<4x16xi8>) -> tensor<4x2xf32> {
    %s = brrr.constant dense<0.125> : tensor<f32>
    %z = brrr.constant dense<0> : tensor<i8>
    %a = brrr.dequantize %q, %s, %z : tensor<4x16xi8>, tensor<f32>, tensor<i8> -> tensor<4x16xf32>
    %wq = brrr.constant dense<1> : tensor<16x2xi8>
    %w = brrr.dequantize %wq, %s, %z : tensor<16x2xi8>, tensor<f32>, tensor<i8> -> tensor<16x2xf32>
    %y = brrr.matmul %a, %w : tensor<4x16xf32>, tensor<16x2xf32> -> tensor<4x2xf32>
    return %y : tensor<4x2xf32>
  }
}

// -----

// A UINT8 activation (onnxruntime's default) quantized in the model is
// read as INT8, 128 less: a second quantize of the same input writes INT8
// with the zero point 128 lower (100 - 128), and the product subtracts
// (100 - 128) times each column's sum of W (16). One the model does not
// quantize (an input) stays in float, and says why.
// CHECK-LABEL: func.func @Uint8Activation
// CHECK: %[[Z:.+]] = brrr.constant dense<-28> : tensor<i8>
// CHECK: %[[Q:.+]] = brrr.quantize %arg0, %{{.+}}, %[[Z]] : tensor<4x16xf32>, tensor<f32>, tensor<i8> -> tensor<4x16xi8>
// CHECK: %[[P:.+]] = brrr.matmul %[[Q]], %{{.+}} : tensor<4x16xi8>, tensor<16x2xi8> -> tensor<4x2xf32>
// CHECK: %[[O:.+]] = brrr.constant dense<-4.480000e+02> : tensor<2xf32>
// CHECK: brrr.sub %[[P]], %[[O]]
// CHECK: brrr.matmul %{{.+}}, %{{.+}} {brrr.quantized_unfused = "its UINT8 activation is not quantized in the model by one zero point"} : tensor<4x16xf32>, tensor<16x2xf32> -> tensor<4x2xf32>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @Uint8Activation(%x: tensor<4x16xf32>, %q: tensor<4x16xui8>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
    %s = brrr.constant dense<0.125> : tensor<f32>
    %za = brrr.constant dense<100> : tensor<ui8>
    %z = brrr.constant dense<0> : tensor<i8>
    %qx = brrr.quantize %x, %s, %za : tensor<4x16xf32>, tensor<f32>, tensor<ui8> -> tensor<4x16xui8>
    %ax = brrr.dequantize %qx, %s, %za : tensor<4x16xui8>, tensor<f32>, tensor<ui8> -> tensor<4x16xf32>
    %a = brrr.dequantize %q, %s, %za : tensor<4x16xui8>, tensor<f32>, tensor<ui8> -> tensor<4x16xf32>
    %wq = brrr.constant dense<1> : tensor<16x2xi8>
    %w = brrr.dequantize %wq, %s, %z : tensor<16x2xi8>, tensor<f32>, tensor<i8> -> tensor<16x2xf32>
    %y = brrr.matmul %ax, %w : tensor<4x16xf32>, tensor<16x2xf32> -> tensor<4x2xf32>
    %y2 = brrr.matmul %a, %w : tensor<4x16xf32>, tensor<16x2xf32> -> tensor<4x2xf32>
    return %y, %y2 : tensor<4x2xf32>, tensor<4x2xf32>
  }
}

// -----

// Two computed operands (attention's scores): float, and why.
// CHECK-LABEL: func.func @TwoActivations
// CHECK: brrr.matmul %{{.+}}, %{{.+}} {brrr.quantized_unfused = "it multiplies two computed tensors; 8-bit products take a constant weight"}
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @TwoActivations(%q: tensor<4x16xi8>, %k: tensor<16x4xi8>) -> tensor<4x4xf32> {
    %s = brrr.constant dense<0.125> : tensor<f32>
    %z = brrr.constant dense<0> : tensor<i8>
    %a = brrr.dequantize %q, %s, %z : tensor<4x16xi8>, tensor<f32>, tensor<i8> -> tensor<4x16xf32>
    %b = brrr.dequantize %k, %s, %z : tensor<16x4xi8>, tensor<f32>, tensor<i8> -> tensor<16x4xf32>
    %y = brrr.matmul %a, %b : tensor<4x16xf32>, tensor<16x4xf32> -> tensor<4x4xf32>
    return %y : tensor<4x4xf32>
  }
}

// -----

// An 8-bit convolution: a UINT8 activation (zero point 130, read as INT8
// with 2) through a padded 3 x 3 window, INT8 weights of ones. It becomes a
// channels-last conv2d of the 8-bit activation and the weights packed
// KH x KW x O x I, between NCHW views; the zero point's correction is 2
// times the weights each output pixel's window covers inside the image
// (32 channels x 4, 6 or 9 taps: corners, edges, the centre), then the
// scales (0.5 * 0.25), then the bias.
// CHECK-LABEL: func.func @ConvUint8Padded
// CHECK-NOT: brrr.dequantize
// CHECK: %[[Q:.+]] = brrr.quantize %arg0, %{{.+}}, %{{.+}} : tensor<1x32x3x3xf32>, tensor<f32>, tensor<i8> -> tensor<1x32x3x3xi8>
// CHECK: %[[W:.+]] = brrr.constant dense_resource<channels_last_weight> : tensor<3x3x1x32xi8>
// CHECK: %[[X:.+]] = brrr.transpose %[[Q]] {perm = array<i64: 0, 2, 3, 1>} : tensor<1x32x3x3xi8> -> tensor<1x3x3x32xi8>
// CHECK: %[[C:.+]] = brrr.conv2d %[[X]], %[[W]] {channels_last, {{.*}}pads = array<i64: 1, 1, 1, 1>{{.*}}} : (tensor<1x3x3x32xi8>, tensor<3x3x1x32xi8>) -> tensor<1x3x3x1xf32>
// CHECK: %[[Z:.+]] = brrr.constant dense<{{\[\[\[\[}}2.560000e+02], [3.840000e+02], [2.560000e+02]], {{\[\[}}3.840000e+02], [5.760000e+02], [3.840000e+02]], {{\[\[}}2.560000e+02], [3.840000e+02], [2.560000e+02]]]]> : tensor<1x3x3x1xf32>
// CHECK: %[[S:.+]] = brrr.sub %[[C]], %[[Z]]
// CHECK: %[[K:.+]] = brrr.constant dense<1.250000e-01> : tensor<f32>
// CHECK: %[[M:.+]] = brrr.mul %[[S]], %[[K]]
// CHECK: %[[B:.+]] = brrr.add %[[M]], %{{.+}} : tensor<1x3x3x1xf32>, tensor<1xf32>
// CHECK: brrr.transpose %[[B]] {perm = array<i64: 0, 3, 1, 2>} : tensor<1x3x3x1xf32> -> tensor<1x1x3x3xf32>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @ConvUint8Padded(%x: tensor<1x32x3x3xf32>) -> tensor<1x1x3x3xf32> {
    %sa = brrr.constant dense<0.5> : tensor<f32>
    %za = brrr.constant dense<130> : tensor<ui8>
    %q = brrr.quantize %x, %sa, %za : tensor<1x32x3x3xf32>, tensor<f32>, tensor<ui8> -> tensor<1x32x3x3xui8>
    %a = brrr.dequantize %q, %sa, %za : tensor<1x32x3x3xui8>, tensor<f32>, tensor<ui8> -> tensor<1x32x3x3xf32>
    %wq = brrr.constant dense<1> : tensor<1x32x3x3xi8>
    %sw = brrr.constant dense<0.25> : tensor<1x1x1x1xf32>
    %zw = brrr.constant dense<0> : tensor<1x1x1x1xi8>
    %w = brrr.dequantize %wq, %sw, %zw : tensor<1x32x3x3xi8>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xi8> -> tensor<1x32x3x3xf32>
    %b = brrr.constant dense<3.0> : tensor<1xf32>
    %y = brrr.conv2d %a, %w, %b {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x3x3xf32>, tensor<1x32x3x3xf32>, tensor<1xf32>) -> tensor<1x1x3x3xf32>
    return %y : tensor<1x1x3x3xf32>
  }
}

// -----

// Float8, 1 x 1 with no padding, a scale per output channel: no zero
// point to correct, a vector of scales. Two groups stay in float and say
// why.
// CHECK-LABEL: func.func @ConvFloat8
// CHECK: brrr.conv2d %{{.+}}, %{{.+}} {channels_last, {{.*}}} : (tensor<2x4x4x32xf8E4M3FN>, tensor<1x1x2x32xf8E4M3FN>) -> tensor<2x4x4x2xf32>
// CHECK-NOT: brrr.sub
// CHECK: brrr.constant dense<[5.000000e-01, 2.500000e-01]> : tensor<2xf32>
// CHECK-LABEL: func.func @ConvGroups
// CHECK: brrr.conv2d {{.*}}brrr.quantized_unfused = "it has 2 groups; 8-bit convolutions have one"
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @ConvFloat8(%x: tensor<2x32x4x4xf32>) -> tensor<2x2x4x4xf32> {
    %sa = brrr.constant dense<1.0> : tensor<f32>
    %za = brrr.constant dense<0.0> : tensor<f8E4M3FN>
    %q = brrr.quantize %x, %sa, %za : tensor<2x32x4x4xf32>, tensor<f32>, tensor<f8E4M3FN> -> tensor<2x32x4x4xf8E4M3FN>
    %a = brrr.dequantize %q, %sa, %za : tensor<2x32x4x4xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN> -> tensor<2x32x4x4xf32>
    %wq = brrr.constant dense<1.0> : tensor<2x32x1x1xf8E4M3FN>
    %sw = brrr.constant dense<[[[[0.5]]], [[[0.25]]]]> : tensor<2x1x1x1xf32>
    %zw = brrr.constant dense<0.0> : tensor<2x1x1x1xf8E4M3FN>
    %w = brrr.dequantize %wq, %sw, %zw : tensor<2x32x1x1xf8E4M3FN>, tensor<2x1x1x1xf32>, tensor<2x1x1x1xf8E4M3FN> -> tensor<2x32x1x1xf32>
    %y = brrr.conv2d %a, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x32x4x4xf32>, tensor<2x32x1x1xf32>) -> tensor<2x2x4x4xf32>
    return %y : tensor<2x2x4x4xf32>
  }
  func.func @ConvGroups(%x: tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32> {
    %sa = brrr.constant dense<0.5> : tensor<f32>
    %za = brrr.constant dense<0> : tensor<i8>
    %q = brrr.quantize %x, %sa, %za : tensor<1x64x4x4xf32>, tensor<f32>, tensor<i8> -> tensor<1x64x4x4xi8>
    %a = brrr.dequantize %q, %sa, %za : tensor<1x64x4x4xi8>, tensor<f32>, tensor<i8> -> tensor<1x64x4x4xf32>
    %wq = brrr.constant dense<1> : tensor<64x32x1x1xi8>
    %sw = brrr.constant dense<0.25> : tensor<f32>
    %zw = brrr.constant dense<0> : tensor<i8>
    %w = brrr.dequantize %wq, %sw, %zw : tensor<64x32x1x1xi8>, tensor<f32>, tensor<i8> -> tensor<64x32x1x1xf32>
    %y = brrr.conv2d %a, %w {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x64x4x4xf32>, tensor<64x32x1x1xf32>) -> tensor<1x64x4x4xf32>
    return %y : tensor<1x64x4x4xf32>
  }
}
