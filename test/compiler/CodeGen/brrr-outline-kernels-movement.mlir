// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-movement,brrr-select-kernel-config,brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s

// A transpose reads the element whose permuted coordinates it writes.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion "movement"{{.*}}brrr.block = array<i64: 256, 1, 1>{{.*}}brrr.grid = array<i64: 1, 1, 1>, brrr.kernel = "fusion_0"
// CHECK: gpu.func @fusion_0(%[[IN:.+]]: !llvm.ptr<1>, %[[OUT:.+]]: !llvm.ptr<1>) kernel
// CHECK: arith.divui
// CHECK: arith.remui
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr<1>
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = brrr.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// Gather normalizes negative indices and clamps into range; constant
// padding selects the fill value outside the input.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> i64
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: gpu.func @fusion_1
// CHECK: arith.constant 1.500000e+00 : f32
// CHECK: arith.select
func.func @main(%x: tensor<6xf32>, %i: tensor<3xi64>) -> (tensor<3xf32>, tensor<9xf32>) {
  %0 = brrr.gather %x, %i {axis = 0 : i64} : (tensor<6xf32>, tensor<3xi64>) -> tensor<3xf32>
  %1 = brrr.pad constant %x {high = array<i64: 2>, low = array<i64: 1>, value = 1.5 : f64} : tensor<6xf32> -> tensor<9xf32>
  return %0, %1 : tensor<3xf32>, tensor<9xf32>
}
