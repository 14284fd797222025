// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise{max-ops=2}))' | FileCheck %s
// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise{max-ops=12}))' | FileCheck %s --check-prefix=EVAL

// A chain longer than max-ops splits into kernels of at most max-ops ops,
// the one nearest the result first: five ops become kernels of 1, 2 and 2
// (last to first: 2, 2, 1), each reading the previous kernel's result.
// CHECK-LABEL: func.func @LongChainSplitsAtMaxOps
// CHECK-SAME: (%[[X:.+]]: tensor<16xf32>)
// CHECK:      %[[F0:.+]] = brrr.fusion pointwise(%[[X]]) : (tensor<16xf32>) -> tensor<16xf32> {
// CHECK:        brrr.exp
// CHECK-NEXT:   brrr.yield
// CHECK:      %[[F1:.+]] = brrr.fusion pointwise(%[[F0]], %[[X]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
// CHECK:        brrr.neg
// CHECK-NEXT:   brrr.add
// CHECK-NEXT:   brrr.yield
// CHECK:      %[[F2:.+]] = brrr.fusion pointwise(%[[F1]], %[[X]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
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

// Data movement read through makes the kernel compute what lies behind it
// once per place it is read from: behind a roll of two axes (two slices
// concatenated, twice), exp would be computed four times per element. With
// max-ops=12 the group may hold its 8 ops but not their 14 evaluations, so
// exp stays a kernel of its own and the roll (4 loads a element) joins the
// relu.
// EVAL-LABEL: func.func @EvaluationsBoundTheGroup
// EVAL: %[[E:.+]] = brrr.fusion pointwise(%{{.+}})
// EVAL-NEXT: ^bb0
// EVAL-NEXT: brrr.exp
// EVAL-NEXT: brrr.yield
// EVAL: brrr.fusion pointwise(%[[E]])
// EVAL-COUNT-2: brrr.slice
// EVAL-NEXT: brrr.concat
// EVAL-COUNT-2: brrr.slice
// EVAL-NEXT: brrr.concat
// EVAL-NEXT: brrr.relu
func.func @EvaluationsBoundTheGroup(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %a = brrr.exp %x : tensor<8x8xf32>
  %s0 = brrr.slice %a {sizes = array<i64: 6, 8>, starts = array<i64: 2, 0>, steps = array<i64: 1, 1>} : tensor<8x8xf32> -> tensor<6x8xf32>
  %s1 = brrr.slice %a {sizes = array<i64: 2, 8>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<8x8xf32> -> tensor<2x8xf32>
  %c0 = brrr.concat %s0, %s1 {axis = 0 : i64} : (tensor<6x8xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
  %t0 = brrr.slice %c0 {sizes = array<i64: 8, 5>, starts = array<i64: 0, 3>, steps = array<i64: 1, 1>} : tensor<8x8xf32> -> tensor<8x5xf32>
  %t1 = brrr.slice %c0 {sizes = array<i64: 8, 3>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<8x8xf32> -> tensor<8x3xf32>
  %c1 = brrr.concat %t0, %t1 {axis = 1 : i64} : (tensor<8x5xf32>, tensor<8x3xf32>) -> tensor<8x8xf32>
  %r = brrr.relu %c1 : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
