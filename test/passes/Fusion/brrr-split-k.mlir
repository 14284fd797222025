// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-split-k))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-split-k,brrr-fuse-elementwise,brrr-fuse-matmul,brrr-fuse-conv,brrr-fuse-rows,brrr-fuse-movement))' | FileCheck %s --check-prefix=KERNELS

// Matrix products stay whole here, however few tiles they make (BERT's
// second MLP product at batch 1, 128 x 3072 -> 768, fills 6 of 132
// multiprocessors): their kernel splits K over the blocks of a cluster
// (brrr-select-kernel-config's `cluster`).
// CHECK-LABEL: func.func @ProductsStayWhole
// CHECK: brrr.matmul %arg0, %arg1 : tensor<1x128x3072xf16>, tensor<3072x768xf16> -> tensor<1x128x768xf16>
// CHECK-NOT: brrr.reduce
// KERNELS-LABEL: func.func @ProductsStayWhole
// KERNELS: brrr.fusion "matmul"(%arg0, %arg1, %arg2) : (tensor<1x128x3072xf16>, tensor<3072x768xf16>, tensor<768xf16>) -> tensor<1x128x768xf16>
// KERNELS: brrr.gelu
// KERNELS-NOT: brrr.fusion
// KERNELS: return
module attributes {brrr.target = "sm_90a"} {
  func.func @ProductsStayWhole(%a: tensor<1x128x3072xf16>, %w: tensor<3072x768xf16>, %b: tensor<768xf16>) -> tensor<1x128x768xf16> {
    %0 = brrr.matmul %a, %w : tensor<1x128x3072xf16>, tensor<3072x768xf16> -> tensor<1x128x768xf16>
    %1 = brrr.add %0, %b : tensor<1x128x768xf16>, tensor<768xf16> -> tensor<1x128x768xf16>
    %2 = brrr.gelu none %1 : tensor<1x128x768xf16>
    return %2 : tensor<1x128x768xf16>
  }
}

// -----

// ResNet-50's last-stage 3 x 3 convolution at batch 1 makes 4 tiles over
// K = 4608: it becomes a convolution of 8 groups of 64 input channels,
// each computing all 512 outputs over K = 576 (weights rearranged so that
// group s holds channels 64 s ... 64 s + 63 of every output), whose
// partial sums are added in f32 with the bias before the residual and
// ReLU. Weights that are a graph input are rearranged by views.
// CHECK-LABEL: func.func @DeepConv
// CHECK-SAME: (%[[X:.+]]: tensor<1x7x7x512xf16>, %[[W:.+]]: tensor<3x3x512x512xf16>, %[[B:.+]]: tensor<512xf16>, %[[R:.+]]: tensor<1x7x7x512xf16>)
// CHECK: %[[W5:.+]] = brrr.reshape %[[W]] : tensor<3x3x512x512xf16> -> tensor<3x3x512x8x64xf16>
// CHECK: %[[WT:.+]] = brrr.transpose %[[W5]] {perm = array<i64: 0, 1, 3, 2, 4>} : tensor<3x3x512x8x64xf16> -> tensor<3x3x8x512x64xf16>
// CHECK: %[[WS:.+]] = brrr.reshape %[[WT]] : tensor<3x3x8x512x64xf16> -> tensor<3x3x4096x64xf16>
// CHECK: %[[P:.+]] = brrr.conv2d %[[X]], %[[WS]] {channels_last, dilations = array<i64: 1, 1>, groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x512xf16>, tensor<3x3x4096x64xf16>) -> tensor<1x7x7x4096xf16>
// CHECK: %[[P32:.+]] = brrr.cast %[[P]] : tensor<1x7x7x4096xf16> -> tensor<1x7x7x4096xf32>
// CHECK: %[[P5:.+]] = brrr.reshape %[[P32]] : tensor<1x7x7x4096xf32> -> tensor<1x7x7x8x512xf32>
// CHECK: %[[S:.+]] = brrr.reduce sum %[[P5]] {axes = array<i64: 3>, keepdims = false} : tensor<1x7x7x8x512xf32> -> tensor<1x7x7x512xf32>
// CHECK: %[[B32:.+]] = brrr.cast %[[B]] : tensor<512xf16> -> tensor<512xf32>
// CHECK: %[[SB:.+]] = brrr.add %[[S]], %[[B32]] : tensor<1x7x7x512xf32>, tensor<512xf32> -> tensor<1x7x7x512xf32>
// CHECK: %[[C:.+]] = brrr.cast %[[SB]] : tensor<1x7x7x512xf32> -> tensor<1x7x7x512xf16>
// CHECK: brrr.add %[[C]], %[[R]]
// Kernels: the partial convolution with its f32 cast as epilogue, then
// the reduction with the bias, cast, residual and ReLU as its epilogue.
// KERNELS-LABEL: func.func @DeepConv
// KERNELS: brrr.fusion "movement"
// KERNELS: %[[P:.+]] = brrr.fusion "conv"(%arg0, %{{.+}}) : (tensor<1x7x7x512xf16>, tensor<3x3x4096x64xf16>) -> tensor<1x7x7x4096xf32>
// KERNELS: brrr.conv2d {{.+}} groups = 8
// KERNELS-NEXT: brrr.cast
// KERNELS: %[[P5:.+]] = brrr.reshape %[[P]] : tensor<1x7x7x4096xf32> -> tensor<1x7x7x8x512xf32>
// KERNELS: brrr.fusion "reduce"(%[[P5]], %arg2, %arg3) : (tensor<1x7x7x8x512xf32>, tensor<512xf16>, tensor<1x7x7x512xf16>) -> tensor<1x7x7x512xf16>
// KERNELS-NEXT: ^bb0
// KERNELS-NEXT: brrr.reduce sum
// KERNELS: brrr.add
// KERNELS: brrr.relu
// KERNELS-NOT: brrr.fusion
// KERNELS: return
module attributes {brrr.target = "sm_90a"} {
  func.func @DeepConv(%x: tensor<1x7x7x512xf16>, %w: tensor<3x3x512x512xf16>, %b: tensor<512xf16>, %r: tensor<1x7x7x512xf16>) -> tensor<1x7x7x512xf16> {
    %0 = brrr.conv2d %x, %w, %b {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x512xf16>, tensor<3x3x512x512xf16>, tensor<512xf16>) -> tensor<1x7x7x512xf16>
    %1 = brrr.add %0, %r : tensor<1x7x7x512xf16>, tensor<1x7x7x512xf16> -> tensor<1x7x7x512xf16>
    %2 = brrr.relu %1 : tensor<1x7x7x512xf16>
    return %2 : tensor<1x7x7x512xf16>
  }
}

// -----

// Constant weights are rearranged at compile time into one new blob
// (w'[kh][kw][s O + o][c] = w[kh][kw][o][s C/S + c]; the GPU checks hold
// the order), and the first arrangement goes. The bias-free sum is cast
// back directly.
// CHECK-LABEL: func.func @ConstantWeights
// CHECK-NOT: brrr.transpose
// CHECK: %[[W:.+]] = brrr.constant dense_resource<split_k_weight> : tensor<3x3x512x64xf16>
// CHECK-NOT: brrr.constant
// CHECK: brrr.conv2d %arg0, %[[W]] {channels_last, {{.+}}groups = 2 : i64{{.+}} -> tensor<1x4x4x512xf16>
// CHECK: brrr.reduce sum {{.+}} {axes = array<i64: 3>, keepdims = false} : tensor<1x4x4x2x256xf32> -> tensor<1x4x4x256xf32>
// CHECK-NOT: brrr.add
// CHECK: brrr.cast {{.+}} : tensor<1x4x4x256xf32> -> tensor<1x4x4x256xf16>
module attributes {brrr.target = "sm_90a"} {
  func.func @ConstantWeights(%x: tensor<1x4x4x128xf16>) -> tensor<1x4x4x256xf16> {
    %w = brrr.constant dense<0.5> : tensor<3x3x256x128xf16>
    %0 = brrr.conv2d %x, %w {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x4x128xf16>, tensor<3x3x256x128xf16>) -> tensor<1x4x4x256xf16>
    return %0 : tensor<1x4x4x256xf16>
  }
}

// -----

// Convolutions that stay whole: enough tiles to fill the GPU (batch 32),
// 64 input channels (no whole 64-channel part to split into), 192
// outputs (not whole 128-wide tiles per part), a K too short, f32, NCHW,
// already grouped, and without the sm_90a target.
// CHECK-LABEL: func.func @NoConvSplit
// CHECK-COUNT-7: brrr.conv2d
// CHECK-NOT: brrr.reduce
module attributes {brrr.target = "sm_90a"} {
  func.func @NoConvSplit(%big: tensor<32x56x56x256xf16>, %wbig: tensor<3x3x256x256xf16>,
                         %c64: tensor<1x7x7x64xf16>, %w64: tensor<3x3x512x64xf16>,
                         %x: tensor<1x7x7x512xf16>, %w192: tensor<3x3x192x512xf16>, %c256: tensor<1x7x7x256xf16>, %w1: tensor<1x1x512x256xf16>,
                         %xf: tensor<1x7x7x512xf32>, %wf: tensor<3x3x512x512xf32>,
                         %xn: tensor<1x512x7x7xf16>, %wn: tensor<512x512x3x3xf16>,
                         %wg: tensor<3x3x512x256xf16>)
      -> (tensor<32x56x56x256xf16>, tensor<1x7x7x512xf16>, tensor<1x7x7x192xf16>, tensor<1x7x7x512xf16>,
          tensor<1x7x7x512xf32>, tensor<1x512x7x7xf16>, tensor<1x7x7x512xf16>) {
    %0 = brrr.conv2d %big, %wbig {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<32x56x56x256xf16>, tensor<3x3x256x256xf16>) -> tensor<32x56x56x256xf16>
    %1 = brrr.conv2d %c64, %w64 {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x64xf16>, tensor<3x3x512x64xf16>) -> tensor<1x7x7x512xf16>
    %2 = brrr.conv2d %x, %w192 {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x512xf16>, tensor<3x3x192x512xf16>) -> tensor<1x7x7x192xf16>
    %3 = brrr.conv2d %c256, %w1 {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x7x7x256xf16>, tensor<1x1x512x256xf16>) -> tensor<1x7x7x512xf16>
    %4 = brrr.conv2d %xf, %wf {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x512xf32>, tensor<3x3x512x512xf32>) -> tensor<1x7x7x512xf32>
    %5 = brrr.conv2d %xn, %wn {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x512x7x7xf16>, tensor<512x512x3x3xf16>) -> tensor<1x512x7x7xf16>
    %6 = brrr.conv2d %x, %wg {channels_last, dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x512xf16>, tensor<3x3x512x256xf16>) -> tensor<1x7x7x512xf16>
    return %0, %1, %2, %3, %4, %5, %6 : tensor<32x56x56x256xf16>, tensor<1x7x7x512xf16>, tensor<1x7x7x192xf16>, tensor<1x7x7x512xf16>, tensor<1x7x7x512xf32>, tensor<1x512x7x7xf16>, tensor<1x7x7x512xf16>
  }
}

// -----

// CHECK-LABEL: func.func @NoConvTarget
// CHECK-NOT: brrr.reduce
func.func @NoConvTarget(%x: tensor<1x7x7x512xf16>, %w: tensor<3x3x512x512xf16>) -> tensor<1x7x7x512xf16> {
  %0 = brrr.conv2d %x, %w {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x512xf16>, tensor<3x3x512x512xf16>) -> tensor<1x7x7x512xf16>
  return %0 : tensor<1x7x7x512xf16>
}
