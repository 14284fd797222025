// RUN: brrr-opt %s --canonicalize | FileCheck %s
// A transposed weight blob (Gemm's transB, exported Linear layers) is
// permuted once at compile time into a new blob; no kernel moves it.
// [[1, 2, 3], [4, 5, 6]] transposed is [[1, 4], [2, 5], [3, 6]].

// CHECK-LABEL: func.func @transposed_weight_blob_folds
// CHECK-NEXT: %[[W:.+]] = brrr.constant dense_resource<w_t> : tensor<3x2xf32>
// CHECK-NEXT: return %[[W]]
func.func @transposed_weight_blob_folds() -> tensor<3x2xf32> {
  %w = brrr.constant dense_resource<w> : tensor<2x3xf32>
  %0 = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// A small float weight blob cast to another float type (TorchScript's f16
// layer norms cast their f32 scale and bias) folds into a blob of that type
// (17 halves: sixteen 1.0 and a -2.0), or inline values when it has 16 or
// fewer elements.
// CHECK-LABEL: func.func @cast_weight_blob_folds
// CHECK-NEXT: %[[B:.+]] = brrr.constant dense_resource<h.f32> : tensor<17xf32>
// CHECK-NEXT: %[[S:.+]] = brrr.constant dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[B]], %[[S]]
func.func @cast_weight_blob_folds() -> (tensor<17xf32>, tensor<2xf32>) {
  %h = brrr.constant dense_resource<h> : tensor<17xf16>
  %0 = brrr.cast %h : tensor<17xf16> -> tensor<17xf32>
  %s = brrr.constant dense_resource<s> : tensor<2xf16>
  %1 = brrr.cast %s : tensor<2xf16> -> tensor<2xf32>
  return %0, %1 : tensor<17xf32>, tensor<2xf32>
}

// A splat of any size casts as its one value (ConstantOfShape's weights,
// cast to f16): 1e-2 rounds to the nearest half; 300 does not fit an i8,
// so that cast is left to the kernel.
// CHECK-LABEL: func.func @cast_large_splat_folds
// CHECK-DAG: %[[H:.+]] = brrr.constant dense<1.000210e-02> : tensor<512x16x3x3xf16>
// CHECK-DAG: %[[F:.+]] = brrr.constant dense<3.000000e+02> : tensor<100000xf32>
// CHECK: %[[I:.+]] = brrr.cast %[[F]] : tensor<100000xf32> -> tensor<100000xi8>
// CHECK-NEXT: return %[[H]], %[[I]]
func.func @cast_large_splat_folds() -> (tensor<512x16x3x3xf16>, tensor<100000xi8>) {
  %w = brrr.constant dense<1.000000e-02> : tensor<512x16x3x3xf32>
  %0 = brrr.cast %w : tensor<512x16x3x3xf32> -> tensor<512x16x3x3xf16>
  %f = brrr.constant dense<3.000000e+02> : tensor<100000xf32>
  %1 = brrr.cast %f : tensor<100000xf32> -> tensor<100000xi8>
  return %0, %1 : tensor<512x16x3x3xf16>, tensor<100000xi8>
}

// CHECK: w_t: "0x080000000000803F00008040000000400000A040000040400000C040"
// CHECK: h.f32: "0x080000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F000000C0"
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F0000004000004040000080400000A0400000C040",
      h: "0x02000000003C003C003C003C003C003C003C003C003C003C003C003C003C003C003C003C00C0",
      s: "0x02000000003C00C0"
    }
  }
#-}
