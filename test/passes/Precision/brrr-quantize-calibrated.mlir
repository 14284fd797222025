// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-quantize-calibrated))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-quantize-calibrated{precision=int8}))' | FileCheck %s --check-prefix=INT8
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-quantize-calibrated{residuals=false}))' | FileCheck %s --check-prefix=NORES

// Float8: the activation's range 4 (the table's entry under the node's
// name) gives the scale 2^-6, the power of two at or above 4 / 448
// (8.9e-3); each weight column is scaled by its largest magnitude over 448
// (2 / 448, 0.5 / 448), so 2, -1, 0.5 become 448, -224, 112 (E4M3FN 0x7E,
// 0xF6, 0x6E) and 0.5, 0.25, -0.125 the same codes' 448, 224, -112 (0x7E,
// 0x76, 0xEE). The epilogue's scales are the products: 2^-6 * 2 / 448 =
// 6.975e-5 and 2^-6 * 0.5 / 448 = 1.744e-5.
// CHECK-LABEL: func.func @Float8
// CHECK: %[[S:.+]] = brrr.constant dense<1.562500e-02> : tensor<f16>
// CHECK: %[[Z:.+]] = brrr.constant dense<0.000000e+00> : tensor<f8E4M3FN>
// CHECK: %[[Q:.+]] = brrr.quantize %arg0, %[[S]], %[[Z]] : tensor<4x16xf16>, tensor<f16>, tensor<f8E4M3FN> -> tensor<4x16xf8E4M3FN>
// CHECK: %[[W:.+]] = brrr.constant dense_resource<weight_k_major> : tensor<2x16xf8E4M3FN>
// CHECK: %[[T:.+]] = brrr.transpose %[[W]]
// CHECK: %[[P:.+]] = brrr.matmul %[[Q]], %[[T]] : tensor<4x16xf8E4M3FN>, tensor<16x2xf8E4M3FN> -> tensor<4x2xf32>
// CHECK: %[[E:.+]] = brrr.constant dense<[6.97544674E-5, 1.74386169E-5]> : tensor<2xf32>
// CHECK: %[[M:.+]] = brrr.mul %[[P]], %[[E]]
// CHECK: brrr.cast %[[M]] : tensor<4x2xf32> -> tensor<4x2xf16>
// CHECK: weight_k_major: "0x080000007EF66E000000000000000000000000007E76EE00000000000000000000000000"
// With precision=int8, the same over 127: 2, -1, 0.5 become 127, -63.5
// -> -64 (half to even), 31.75 -> 32 (0x7F, 0xC0, 0x20); 0.5, 0.25,
// -0.125 the same (0x7F, 0x40, 0xE0); the activation's scale is 4 / 127,
// not a power of two (that would cost INT8 up to a bit).
// INT8-LABEL: func.func @Float8
// INT8: brrr.constant dense<3.149410e-02> : tensor<f16>
// INT8: brrr.quantize %arg0, %{{.+}}, %{{.+}} : tensor<4x16xf16>, tensor<f16>, tensor<i8> -> tensor<4x16xi8>
// INT8: brrr.matmul %{{.+}}, %{{.+}} : tensor<4x16xi8>, tensor<16x2xi8> -> tensor<4x2xf32>
// INT8: weight_k_major: "0x080000007FC020000000000000000000000000007F40E000000000000000000000000000"
module attributes {brrr.calibration = {fc1 = 4.0 : f64}, brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @Float8(%x: tensor<4x16xf16>) -> tensor<4x2xf16> {
    %w = brrr.constant dense<[[2.0, 0.5], [-1.0, 0.25], [0.5, -0.125], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]> : tensor<16x2xf16>
    %y = brrr.matmul %x, %w : tensor<4x16xf16>, tensor<16x2xf16> -> tensor<4x2xf16> loc("fc1")
    return %y : tensor<4x2xf16>
  }
}

// -----

// Two products of one activation (a Gemm's transposed weight, and a plain
// one) share one quantize, under the first one's key; the second name is
// not looked up. A contraction of 24 (not a multiple of 16) and a product
// of two computed tensors stay in f32.
// CHECK-LABEL: func.func @SharedActivation
// CHECK: brrr.quantize %arg0
// CHECK-NOT: brrr.quantize
// CHECK: brrr.matmul %{{.+}}, %{{.+}} : tensor<2x32xf8E4M3FN>, tensor<32x16xf8E4M3FN> -> tensor<2x16xf32>
// CHECK: brrr.matmul %{{.+}}, %{{.+}} : tensor<2x32xf8E4M3FN>, tensor<32x16xf8E4M3FN> -> tensor<2x16xf32>
// CHECK: brrr.matmul %arg1, %{{.+}} : tensor<2x24xf32>, tensor<24x16xf32> -> tensor<2x16xf32>
// CHECK: brrr.matmul %{{.+}}, %{{.+}} : tensor<2x16xf32>, tensor<16x2xf32> -> tensor<2x2xf32>
module attributes {brrr.calibration = {q = 1.0 : f64}, brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @SharedActivation(%x: tensor<2x32xf32>, %z: tensor<2x24xf32>) -> (tensor<2x16xf32>, tensor<2x16xf32>, tensor<2x2xf32>) {
    %wq = brrr.constant dense<0.5> : tensor<16x32xf32>
    %wqt = brrr.transpose %wq {perm = array<i64: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>
    %q = brrr.matmul %x, %wqt : tensor<2x32xf32>, tensor<32x16xf32> -> tensor<2x16xf32> loc("q")
    %wk = brrr.constant dense<0.25> : tensor<32x16xf32>
    %k = brrr.matmul %x, %wk : tensor<2x32xf32>, tensor<32x16xf32> -> tensor<2x16xf32> loc("k")
    %wo = brrr.constant dense<1.0> : tensor<24x16xf32>
    %o = brrr.matmul %z, %wo : tensor<2x24xf32>, tensor<24x16xf32> -> tensor<2x16xf32> loc("odd")
    %kt = brrr.transpose %k {perm = array<i64: 1, 0>} : tensor<2x16xf32> -> tensor<16x2xf32>
    %s = brrr.matmul %q, %kt : tensor<2x16xf32>, tensor<16x2xf32> -> tensor<2x2xf32> loc("scores")
    return %o, %q, %s : tensor<2x16xf32>, tensor<2x16xf32>, tensor<2x2xf32>
  }
}

// -----

// An activation that was 0 on every calibration input keeps its product
// in float, and says why.
// CHECK-LABEL: func.func @ZeroRange
// CHECK-NOT: brrr.quantize
// CHECK: brrr.matmul {{.+}} {brrr.quantized_unfused = "its activation was 0 on every calibration input"} : tensor<2x16xf32>, tensor<16x16xf32>
module attributes {brrr.calibration = {fc = 0.0 : f64}, brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @ZeroRange(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
    %w = brrr.constant dense<0.5> : tensor<16x16xf32>
    %y = brrr.matmul %x, %w : tensor<2x16xf32>, tensor<16x16xf32> -> tensor<2x16xf32> loc("fc")
    return %y : tensor<2x16xf32>
  }
}

// -----

// A residual connection: the addition reads the activation the
// convolution reads, dequantized from its 8-bit copy; a second addition of
// another shape (a broadcast) and the return read it as it is. With
// residuals=false the additions read it as it is too.
// CHECK-LABEL: func.func @Residual
// CHECK: %[[Q:.+]] = brrr.quantize %arg0
// CHECK: %[[D:.+]] = brrr.dequantize %[[Q]]
// CHECK: %[[C:.+]] = brrr.conv2d %[[D]], %{{.+}} {dilations
// CHECK: brrr.add %[[C]], %[[D]]
// CHECK: brrr.add %arg0, %{{.+}} : tensor<1x32x4x4xf16>, tensor<32x1x1xf16>
// NORES-LABEL: func.func @Residual
// NORES: %[[C:.+]] = brrr.conv2d
// NORES: brrr.add %[[C]], %arg0
module attributes {brrr.calibration = {conv = 2.0 : f64}, brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @Residual(%x: tensor<1x32x4x4xf16>) -> (tensor<1x32x4x4xf16>, tensor<1x32x4x4xf16>, tensor<1x32x4x4xf16>) {
    %w = brrr.constant dense<0.5> : tensor<32x32x1x1xf16>
    %c = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x4x4xf16>, tensor<32x32x1x1xf16>) -> tensor<1x32x4x4xf16> loc("conv")
    %y = brrr.add %c, %x : tensor<1x32x4x4xf16>, tensor<1x32x4x4xf16> -> tensor<1x32x4x4xf16>
    %b = brrr.constant dense<1.0> : tensor<32x1x1xf16>
    %z = brrr.add %x, %b : tensor<1x32x4x4xf16>, tensor<32x1x1xf16> -> tensor<1x32x4x4xf16>
    return %y, %z, %x : tensor<1x32x4x4xf16>, tensor<1x32x4x4xf16>, tensor<1x32x4x4xf16>
  }
}
