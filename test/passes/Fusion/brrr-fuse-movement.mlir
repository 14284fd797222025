// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-movement))' | FileCheck %s

// Each data-movement op is a kernel of its own; a reshape stays a view.
// CHECK-LABEL: func.func @MovementOpsBecomeKernels
// CHECK: %[[T:.+]] = brrr.fusion "movement"(%{{.+}}) : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<2x3xf32>):
// CHECK-NEXT:   brrr.transpose %[[A]] {perm = array<i64: 1, 0>}
// CHECK: %[[R:.+]] = brrr.reshape %[[T]] : tensor<3x2xf32> -> tensor<6xf32>
// CHECK: brrr.fusion "movement"(%[[R]], %{{.+}}) : (tensor<6xf32>, tensor<4xi64>) -> tensor<4xf32>
// CHECK: brrr.gather
// CHECK: brrr.fusion "movement"
// CHECK: brrr.concat
func.func @MovementOpsBecomeKernels(%x: tensor<2x3xf32>, %i: tensor<4xi64>) -> tensor<8xf32> {
  %0 = brrr.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = brrr.reshape %0 : tensor<3x2xf32> -> tensor<6xf32>
  %2 = brrr.gather %1, %i {axis = 0 : i64} : (tensor<6xf32>, tensor<4xi64>) -> tensor<4xf32>
  %3 = brrr.concat %2, %2 {axis = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// Ops already in a kernel are left alone.
// CHECK-LABEL: func.func @LeaveFusedOpsAlone
// CHECK: brrr.fusion "pointwise"
// CHECK-NOT: brrr.fusion "movement"
func.func @LeaveFusedOpsAlone(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = brrr.fusion "pointwise"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %1 = brrr.relu %a : tensor<4xf32>
    brrr.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Index-driven ops are movement kernels too: gathers by element and by
// tuple, and scatters (which combine as they move).
// CHECK-LABEL: func.func @IndexDrivenOpsBecomeMovementKernels
// CHECK: brrr.fusion "movement"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.gather_elements
// CHECK: brrr.fusion "movement"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.gather_nd
// CHECK: brrr.fusion "movement"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.scatter_elements
// CHECK: brrr.fusion "movement"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.scatter_nd
func.func @IndexDrivenOpsBecomeMovementKernels(%x: tensor<4x6xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xf32>, %t: tensor<3x1xi64>, %v: tensor<3x6xf32>)
    -> (tensor<4x2xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %0 = brrr.gather_elements %x, %i {axis = 1 : i64} : (tensor<4x6xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  %1 = brrr.gather_nd %x, %t {batch_dims = 0 : i64} : (tensor<4x6xf32>, tensor<3x1xi64>) -> tensor<3x6xf32>
  %2 = brrr.scatter_elements add %x, %i, %u {axis = 1 : i64} : (tensor<4x6xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x6xf32>
  %3 = brrr.scatter_nd none %x, %t, %1 : (tensor<4x6xf32>, tensor<3x1xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
  return %0, %2, %3, %3 : tensor<4x2xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// A chain of index maps, each read only by the next, with two or more
// copies in it is one kernel (a stem's input preparation: NCHW to NHWC,
// pad, space to depth, pad the channels), the reshapes between them
// inside it.
// CHECK-LABEL: func.func @ChainIsOneKernel
// CHECK: %[[K:.+]] = brrr.fusion "movement"(%arg0) : (tensor<2x3x8x8xf16>) -> tensor<2x5x5x16xf16>
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<2x3x8x8xf16>):
// CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[A]]
// CHECK-NEXT: %[[P:.+]] = brrr.pad constant %[[T]]
// CHECK-NEXT: %[[R:.+]] = brrr.reshape %[[P]]
// CHECK-NEXT: %[[T6:.+]] = brrr.transpose %[[R]]
// CHECK-NEXT: %[[R4:.+]] = brrr.reshape %[[T6]]
// CHECK-NEXT: %[[P16:.+]] = brrr.pad constant %[[R4]]
// CHECK-NEXT: brrr.yield %[[P16]]
// CHECK-NOT: brrr.fusion
// CHECK: return %[[K]]
func.func @ChainIsOneKernel(%x: tensor<2x3x8x8xf16>) -> tensor<2x5x5x16xf16> {
  %0 = brrr.transpose %x {perm = array<i64: 0, 2, 3, 1>} : tensor<2x3x8x8xf16> -> tensor<2x8x8x3xf16>
  %1 = brrr.pad constant %0 {high = array<i64: 0, 1, 1, 0>, low = array<i64: 0, 1, 1, 0>, value = 0.0 : f64} : tensor<2x8x8x3xf16> -> tensor<2x10x10x3xf16>
  %2 = brrr.reshape %1 : tensor<2x10x10x3xf16> -> tensor<2x5x2x5x2x3xf16>
  %3 = brrr.transpose %2 {perm = array<i64: 0, 1, 3, 2, 4, 5>} : tensor<2x5x2x5x2x3xf16> -> tensor<2x5x5x2x2x3xf16>
  %4 = brrr.reshape %3 : tensor<2x5x5x2x2x3xf16> -> tensor<2x5x5x12xf16>
  %5 = brrr.pad constant %4 {high = array<i64: 0, 0, 0, 4>, low = array<i64: 0, 0, 0, 0>, value = 0.0 : f64} : tensor<2x5x5x12xf16> -> tensor<2x5x5x16xf16>
  return %5 : tensor<2x5x5x16xf16>
}

// -----

// Chains stay apart where a copy is a tiled transpose (its 32 x 32 shared
// tiles coalesce both sides; a per-element chain would not), where an
// intermediate has another reader, and where the chain holds one copy
// (a reshape after a transpose stays a view).
// CHECK-LABEL: func.func @ChainsKeptApart
// CHECK: %[[T:.+]] = brrr.fusion "movement"(%arg0)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.yield
// CHECK: brrr.fusion "movement"(%[[T]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.pad
// CHECK-NEXT: brrr.yield
// CHECK: %[[S:.+]] = brrr.fusion "movement"(%arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.yield
// CHECK: brrr.fusion "movement"(%[[S]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.pad
// CHECK-NEXT: brrr.yield
// CHECK: %[[U:.+]] = brrr.fusion "movement"(%arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.yield
// CHECK: brrr.reshape %[[U]]
func.func @ChainsKeptApart(%x: tensor<2x64x10x10xf16>, %y: tensor<4x6xf32>) -> (tensor<2x10x10x72xf16>, tensor<3x6xf32>, tensor<2x6xf32>, tensor<24xf32>) {
  %0 = brrr.transpose %x {perm = array<i64: 0, 2, 3, 1>} : tensor<2x64x10x10xf16> -> tensor<2x10x10x64xf16>
  %1 = brrr.pad constant %0 {high = array<i64: 0, 0, 0, 8>, low = array<i64: 0, 0, 0, 0>, value = 0.0 : f64} : tensor<2x10x10x64xf16> -> tensor<2x10x10x72xf16>
  %2 = brrr.slice %y {sizes = array<i64: 2, 6>, starts = array<i64: 0, 0>, steps = array<i64: 2, 1>} : tensor<4x6xf32> -> tensor<2x6xf32>
  %3 = brrr.pad constant %2 {high = array<i64: 1, 0>, low = array<i64: 0, 0>, value = 0.0 : f64} : tensor<2x6xf32> -> tensor<3x6xf32>
  %4 = brrr.transpose %y {perm = array<i64: 1, 0>} : tensor<4x6xf32> -> tensor<6x4xf32>
  %5 = brrr.reshape %4 : tensor<6x4xf32> -> tensor<24xf32>
  return %1, %3, %2, %5 : tensor<2x10x10x72xf16>, tensor<3x6xf32>, tensor<2x6xf32>, tensor<24xf32>
}
