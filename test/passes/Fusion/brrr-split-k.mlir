// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-split-k))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-split-k,brrr-fuse-elementwise,brrr-fuse-matmul,brrr-fuse-rows))' | FileCheck %s --check-prefix=KERNELS

// BERT's second MLP product at batch 1 (128 x 3072 -> 768) fills 6 of 132
// multiprocessors: it becomes 8 products over K = 384, summed in f32 into
// the product's shape. The bias and GELU stay on the result.
// CHECK-LABEL: func.func @SkinnyProduct
// CHECK-SAME: (%[[A:.+]]: tensor<1x128x3072xf16>, %[[W:.+]]: tensor<3072x768xf16>, %[[B:.+]]: tensor<768xf16>)
// CHECK: %[[A3:.+]] = brrr.reshape %[[A]] : tensor<1x128x3072xf16> -> tensor<128x8x384xf16>
// CHECK: %[[AT:.+]] = brrr.transpose %[[A3]] {perm = array<i64: 1, 0, 2>} : tensor<128x8x384xf16> -> tensor<8x128x384xf16>
// CHECK: %[[W3:.+]] = brrr.reshape %[[W]] : tensor<3072x768xf16> -> tensor<8x384x768xf16>
// CHECK: %[[P:.+]] = brrr.matmul %[[AT]], %[[W3]] : tensor<8x128x384xf16>, tensor<8x384x768xf16> -> tensor<8x128x768xf16>
// CHECK: %[[P32:.+]] = brrr.cast %[[P]] : tensor<8x128x768xf16> -> tensor<8x128x768xf32>
// CHECK: %[[P4:.+]] = brrr.reshape %[[P32]] : tensor<8x128x768xf32> -> tensor<8x1x128x768xf32>
// CHECK: %[[S:.+]] = brrr.reduce sum %[[P4]] {axes = array<i64: 0>, keepdims = false} : tensor<8x1x128x768xf32> -> tensor<1x128x768xf32>
// CHECK: %[[C:.+]] = brrr.cast %[[S]] : tensor<1x128x768xf32> -> tensor<1x128x768xf16>
// CHECK: brrr.add %[[C]], %[[B]]
// Kernels: the partial products with their f32 cast as epilogue (A and W
// read through the views), then the reduction with the cast, bias and
// GELU as its epilogue.
// KERNELS-LABEL: func.func @SkinnyProduct
// KERNELS: %[[P:.+]] = brrr.fusion "matmul"(%arg0, %arg1) : (tensor<1x128x3072xf16>, tensor<3072x768xf16>) -> tensor<8x128x768xf32>
// KERNELS: brrr.matmul
// KERNELS-NEXT: brrr.cast
// KERNELS: %[[P4:.+]] = brrr.reshape %[[P]] : tensor<8x128x768xf32> -> tensor<8x1x128x768xf32>
// KERNELS: brrr.fusion "reduce"(%[[P4]], %arg2) : (tensor<8x1x128x768xf32>, tensor<768xf16>) -> tensor<1x128x768xf16>
// KERNELS-NEXT: ^bb0
// KERNELS-NEXT: brrr.reduce sum
// KERNELS-NEXT: brrr.cast
// KERNELS: brrr.add
// KERNELS: brrr.gelu
// KERNELS-NOT: brrr.fusion
// KERNELS: return
module attributes {brrr.target = "sm_90a"} {
  func.func @SkinnyProduct(%a: tensor<1x128x3072xf16>, %w: tensor<3072x768xf16>, %b: tensor<768xf16>) -> tensor<1x128x768xf16> {
    %0 = brrr.matmul %a, %w : tensor<1x128x3072xf16>, tensor<3072x768xf16> -> tensor<1x128x768xf16>
    %1 = brrr.add %0, %b : tensor<1x128x768xf16>, tensor<768xf16> -> tensor<1x128x768xf16>
    %2 = brrr.gelu none %1 : tensor<1x128x768xf16>
    return %2 : tensor<1x128x768xf16>
  }
}

// -----

// Products that stay whole: enough tiles to fill the GPU (4096 rows), a K
// too short to split into 256-deep parts, f32 operands, batched operands,
// and any product without the sm_90a target.
// CHECK-LABEL: func.func @NoSplit
// CHECK-COUNT-4: brrr.matmul
// CHECK-NOT: brrr.reduce
module attributes {brrr.target = "sm_90a"} {
  func.func @NoSplit(%big: tensor<4096x3072xf16>, %w: tensor<3072x768xf16>, %short: tensor<128x256xf16>, %ws: tensor<256x768xf16>,
                     %f: tensor<128x3072xf32>, %wf: tensor<3072x768xf32>, %batched: tensor<2x128x3072xf16>, %wb: tensor<2x3072x768xf16>)
      -> (tensor<4096x768xf16>, tensor<128x768xf16>, tensor<128x768xf32>, tensor<2x128x768xf16>) {
    %0 = brrr.matmul %big, %w : tensor<4096x3072xf16>, tensor<3072x768xf16> -> tensor<4096x768xf16>
    %1 = brrr.matmul %short, %ws : tensor<128x256xf16>, tensor<256x768xf16> -> tensor<128x768xf16>
    %2 = brrr.matmul %f, %wf : tensor<128x3072xf32>, tensor<3072x768xf32> -> tensor<128x768xf32>
    %3 = brrr.matmul %batched, %wb : tensor<2x128x3072xf16>, tensor<2x3072x768xf16> -> tensor<2x128x768xf16>
    return %0, %1, %2, %3 : tensor<4096x768xf16>, tensor<128x768xf16>, tensor<128x768xf32>, tensor<2x128x768xf16>
  }
}

// -----

// CHECK-LABEL: func.func @NoTarget
// CHECK-NOT: brrr.reduce
func.func @NoTarget(%a: tensor<128x3072xf16>, %w: tensor<3072x768xf16>) -> tensor<128x768xf16> {
  %0 = brrr.matmul %a, %w : tensor<128x3072xf16>, tensor<3072x768xf16> -> tensor<128x768xf16>
  return %0 : tensor<128x768xf16>
}
