// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-lower-precision))' | FileCheck %s

// fp16: the f32 product multiplies f16 operands, the weight converted at
// compile time, the activation cast where it is read, the product cast
// back to f32 for the bias and the output.
// CHECK-LABEL: func.func @MatmulInHalf
// CHECK-DAG: %[[W:.+]] = brrr.constant dense<{{\[}}[1.000000e+00, 5.000000e-01], [2.500000e-01, -2.000000e+00]]> : tensor<2x2xf16>
// CHECK-DAG: %[[X:.+]] = brrr.cast %arg0 : tensor<4x2xf32> -> tensor<4x2xf16>
// CHECK: %[[P:.+]] = brrr.matmul %[[X]], %[[W]] : tensor<4x2xf16>, tensor<2x2xf16> -> tensor<4x2xf16>
// CHECK: %[[F:.+]] = brrr.cast %[[P]] : tensor<4x2xf16> -> tensor<4x2xf32>
// CHECK: brrr.add %[[F]], %arg1
module attributes {brrr.precision = "fp16"} {
  func.func @MatmulInHalf(%x: tensor<4x2xf32>, %b: tensor<2xf32>) -> tensor<4x2xf32> {
    %w = brrr.constant dense<[[1.0, 0.5], [0.25, -2.0]]> : tensor<2x2xf32>
    %0 = brrr.matmul %x, %w : tensor<4x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
    %1 = brrr.add %0, %b : tensor<4x2xf32>, tensor<2xf32> -> tensor<4x2xf32>
    return %1 : tensor<4x2xf32>
  }
}

// -----

// bf16: a convolution's input, weight and bias, rounded to nearest even
// (1.00390625 lies halfway between 1 and 1.0078125 and rounds to 1); the
// f32 weights, read by nothing else, are gone.
// CHECK-LABEL: func.func @ConvInBfloat(
// CHECK-NOT: brrr.constant {{.+}}xf32>
// CHECK-DAG: brrr.constant dense<1.000000e+00> : tensor<2x1x1x1xbf16>
// CHECK-DAG: brrr.constant dense<[5.000000e-01, 1.007810e+00]> : tensor<2xbf16>
// CHECK-DAG: brrr.cast %arg0 : tensor<1x1x3x3xf32> -> tensor<1x1x3x3xbf16>
// CHECK: %[[C:.+]] = brrr.conv2d {{.+}} -> tensor<1x2x3x3xbf16>
// CHECK: brrr.cast %[[C]] : tensor<1x2x3x3xbf16> -> tensor<1x2x3x3xf32>
module attributes {brrr.precision = "bf16"} {
  func.func @ConvInBfloat(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
    %w = brrr.constant dense<1.00390625> : tensor<2x1x1x1xf32>
    %b = brrr.constant dense<[0.5, 1.0078125]> : tensor<2xf32>
    %0 = brrr.conv2d %x, %w, %b {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
    return %0 : tensor<1x2x3x3xf32>
  }
}

// -----

// Products already in a 16-bit type, and every product under fp32 or tf32
// (a kernel config, not a graph change), stay as they are.
// CHECK-LABEL: func.func @HalfProductUntouched
// CHECK-NOT: brrr.cast
// CHECK: brrr.matmul %arg0, %arg1 : tensor<4x8xf16>, tensor<8x2xf16> -> tensor<4x2xf16>
module attributes {brrr.precision = "fp16"} {
  func.func @HalfProductUntouched(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>) -> tensor<4x2xf16> {
    %0 = brrr.matmul %a, %b : tensor<4x8xf16>, tensor<8x2xf16> -> tensor<4x2xf16>
    return %0 : tensor<4x2xf16>
  }
}

// -----

// CHECK-LABEL: func.func @Tf32LeavesTheGraph
// CHECK-NOT: brrr.cast
module attributes {brrr.precision = "tf32"} {
  func.func @Tf32LeavesTheGraph(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
    %0 = brrr.matmul %a, %b : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
    return %0 : tensor<4x2xf32>
  }
}
