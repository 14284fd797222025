// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul))' | FileCheck %s

// The pointwise kernel that reads the product becomes the matmul kernel's
// epilogue: bias, activation and residual on the accumulators.
// CHECK-LABEL: func.func @MergeBiasActivationResidualEpilogue
// CHECK-SAME: (%[[X:.+]]: tensor<2x16x64xf16>, %[[W:.+]]: tensor<64x32xf16>, %[[B:.+]]: tensor<32xf16>, %[[R:.+]]: tensor<2x16x32xf16>)
// CHECK-NEXT: %[[F:.+]] = brrr.fusion "matmul"(%[[X]], %[[W]], %[[B]], %[[R]]) : (tensor<2x16x64xf16>, tensor<64x32xf16>, tensor<32xf16>, tensor<2x16x32xf16>) -> tensor<2x16x32xf16> {
// CHECK-NEXT: ^bb0(%[[A0:.+]]: tensor<2x16x64xf16>, %[[A1:.+]]: tensor<64x32xf16>, %[[A2:.+]]: tensor<32xf16>, %[[A3:.+]]: tensor<2x16x32xf16>):
// CHECK-NEXT:   %[[M:.+]] = brrr.matmul %[[A0]], %[[A1]]
// CHECK-NEXT:   %[[S:.+]] = brrr.add %[[M]], %[[A2]]
// CHECK-NEXT:   %[[G:.+]] = brrr.gelu tanh %[[S]]
// CHECK-NEXT:   %[[Y:.+]] = brrr.add %[[G]], %[[A3]]
// CHECK-NEXT:   brrr.yield %[[Y]]
// CHECK-NOT: brrr.fusion
// CHECK: return %[[F]]
func.func @MergeBiasActivationResidualEpilogue(%x: tensor<2x16x64xf16>, %w: tensor<64x32xf16>, %b: tensor<32xf16>, %r: tensor<2x16x32xf16>) -> tensor<2x16x32xf16> {
  %0 = brrr.matmul %x, %w : tensor<2x16x64xf16>, tensor<64x32xf16> -> tensor<2x16x32xf16>
  %1 = brrr.add %0, %b : tensor<2x16x32xf16>, tensor<32xf16> -> tensor<2x16x32xf16>
  %2 = brrr.gelu tanh %1 : tensor<2x16x32xf16>
  %3 = brrr.add %2, %r : tensor<2x16x32xf16>, tensor<2x16x32xf16> -> tensor<2x16x32xf16>
  return %3 : tensor<2x16x32xf16>
}

// -----

// A product that is also returned must be written: no epilogue merge.
// CHECK-LABEL: func.func @DoNotMergeWhenProductIsReadElsewhere
// CHECK: %[[M:.+]] = brrr.fusion "matmul"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.matmul
// CHECK-NEXT: brrr.yield
// CHECK: brrr.fusion "pointwise"(%[[M]])
func.func @DoNotMergeWhenProductIsReadElsewhere(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %0 = brrr.matmul %x, %x : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %1 = brrr.relu %0 : tensor<16x16xf32>
  return %0, %1 : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// An epilogue that changes the shape (here a broadcast to a larger output)
// stays a kernel of its own.
// CHECK-LABEL: func.func @DoNotMergeShapeChangingEpilogue
// CHECK: brrr.fusion "matmul"
// CHECK: brrr.fusion "pointwise"
func.func @DoNotMergeShapeChangingEpilogue(%x: tensor<16x16xf32>, %y: tensor<4x16x16xf32>) -> tensor<4x16x16xf32> {
  %0 = brrr.matmul %x, %x : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %1 = brrr.add %y, %0 : tensor<4x16x16xf32>, tensor<16x16xf32> -> tensor<4x16x16xf32>
  return %1 : tensor<4x16x16xf32>
}
