// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise{max-ops=2}))' | FileCheck %s

// A chain longer than max-ops splits into kernels of at most max-ops ops,
// the one nearest the result first: five ops become kernels of 1, 2 and 2
// (last to first: 2, 2, 1), each reading the previous kernel's result.
// CHECK-LABEL: func.func @LongChainSplitsAtMaxOps
// CHECK-SAME: (%[[X:.+]]: tensor<16xf32>)
// CHECK:      %[[F0:.+]] = brrr.fusion "pointwise"(%[[X]]) : (tensor<16xf32>) -> tensor<16xf32> {
// CHECK:        brrr.exp
// CHECK-NEXT:   brrr.yield
// CHECK:      %[[F1:.+]] = brrr.fusion "pointwise"(%[[F0]], %[[X]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
// CHECK:        brrr.neg
// CHECK-NEXT:   brrr.add
// CHECK-NEXT:   brrr.yield
// CHECK:      %[[F2:.+]] = brrr.fusion "pointwise"(%[[F1]], %[[X]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
// CHECK:        brrr.tanh
// CHECK-NEXT:   brrr.mul
// CHECK-NEXT:   brrr.yield
// CHECK:      return %[[F2]]
func.func @LongChainSplitsAtMaxOps(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = brrr.exp %x : tensor<16xf32>
  %1 = brrr.neg %0 : tensor<16xf32>
  %2 = brrr.add %1, %x : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  %3 = brrr.tanh %2 : tensor<16xf32>
  %4 = brrr.mul %3, %x : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  return %4 : tensor<16xf32>
}
