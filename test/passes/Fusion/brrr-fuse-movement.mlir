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
