// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-conv))' | FileCheck %s

// The pointwise kernel that alone reads the convolution (residual add and
// relu) becomes its epilogue; the shortcut is an extra kernel input.
// CHECK-LABEL: func.func @MergeResidualReluEpilogue
// CHECK-SAME: (%[[X:.+]]: tensor<1x4x8x8xf32>, %[[W:.+]]: tensor<4x4x3x3xf32>, %[[R:.+]]: tensor<1x4x8x8xf32>)
// CHECK-NEXT: %[[F:.+]] = brrr.fusion conv(%[[X]], %[[W]], %[[R]])
// CHECK-NEXT: ^bb0(%[[A0:.+]]: tensor<1x4x8x8xf32>, %[[A1:.+]]: tensor<4x4x3x3xf32>, %[[A2:.+]]: tensor<1x4x8x8xf32>):
// CHECK-NEXT:   %[[C:.+]] = brrr.conv2d %[[A0]], %[[A1]]
// CHECK-NEXT:   %[[S:.+]] = brrr.add %[[C]], %[[A2]]
// CHECK-NEXT:   %[[Y:.+]] = brrr.relu %[[S]]
// CHECK-NEXT:   brrr.yield %[[Y]]
// CHECK-NOT: brrr.fusion
// CHECK: return %[[F]]
func.func @MergeResidualReluEpilogue(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %r: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %0 = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = brrr.add %0, %r : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  %2 = brrr.relu %1 : tensor<1x4x8x8xf32>
  return %2 : tensor<1x4x8x8xf32>
}

// -----

// Pooling is a kernel of its own kind, and takes a pointwise epilogue too.
// CHECK-LABEL: func.func @PoolWithEpilogue
// CHECK: %[[P:.+]] = brrr.fusion pool
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.max_pool2d
// CHECK-NEXT: brrr.relu
// CHECK-NEXT: brrr.yield
// CHECK-NOT: brrr.fusion
// CHECK: return %[[P]]
func.func @PoolWithEpilogue(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %0 = brrr.max_pool2d %x {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  %1 = brrr.relu %0 : tensor<1x4x4x4xf32>
  return %1 : tensor<1x4x4x4xf32>
}

// -----

// A convolution also read by a second consumer is written as it is; the
// pointwise kernel stays separate.
// CHECK-LABEL: func.func @DoNotMergeWhenConvIsReadTwice
// CHECK: %[[C:.+]] = brrr.fusion conv
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.conv2d
// CHECK-NEXT: brrr.yield
// CHECK: brrr.fusion pointwise(%[[C]])
// CHECK: brrr.fusion pool(%[[C]])
func.func @DoNotMergeWhenConvIsReadTwice(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x1x1xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>) {
  %0 = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %1 = brrr.relu %0 : tensor<1x4x8x8xf32>
  %2 = brrr.avg_pool2d %0 {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  return %1, %2 : tensor<1x4x8x8xf32>, tensor<1x4x4x4xf32>
}
