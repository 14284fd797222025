// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-matmul,brrr-fuse-elementwise))' | FileCheck %s

// Each matmul is a Tensor Core kernel; its bias epilogue is still a
// pointwise kernel of its own.
// CHECK-LABEL: func.func @MatmulThenBias
// CHECK: %[[M:.+]] = brrr.fusion "matmul"(%{{.+}}, %{{.+}}) : (tensor<2x16x64xf16>, tensor<64x32xf16>) -> tensor<2x16x32xf16> {
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   brrr.matmul
// CHECK: brrr.fusion "pointwise"(%[[M]], %{{.+}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   brrr.add
func.func @MatmulThenBias(%x: tensor<2x16x64xf16>, %w: tensor<64x32xf16>, %b: tensor<32xf16>) -> tensor<2x16x32xf16> {
  %0 = brrr.matmul %x, %w : tensor<2x16x64xf16>, tensor<64x32xf16> -> tensor<2x16x32xf16>
  %1 = brrr.add %0, %b : tensor<2x16x32xf16>, tensor<32xf16> -> tensor<2x16x32xf16>
  return %1 : tensor<2x16x32xf16>
}
