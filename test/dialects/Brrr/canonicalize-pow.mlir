// RUN: brrr-opt %s -split-input-file --canonicalize | FileCheck %s
// pow(x, c) with a splat constant c of 1, 2, 3 or 4 becomes multiplications
// (GPT-2's GELU cubes its input with Pow); any other exponent, an integer
// base, or a broadcast that grows x keeps the pow.

// CHECK-LABEL: func.func @small_whole_exponents
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[H:.+]]: tensor<8xf16>)
// CHECK-NOT: brrr.pow
// CHECK: %[[S:.+]] = brrr.mul %[[X]], %[[X]] : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK: %[[C:.+]] = brrr.mul %[[S]], %[[X]] : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK: %[[H2:.+]] = brrr.mul %[[H]], %[[H]] : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
// CHECK: %[[S4:.+]] = brrr.mul %[[X]], %[[X]]
// CHECK: %[[Q:.+]] = brrr.mul %[[S4]], %[[S4]]
// CHECK-NOT: brrr.pow
// CHECK: return %[[C]], %[[H2]], %[[Q]], %[[X]]
func.func @small_whole_exponents(%x: tensor<4x8xf32>, %h: tensor<8xf16>) -> (tensor<4x8xf32>, tensor<8xf16>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %three = brrr.constant dense<3.0> : tensor<f32>
  %0 = brrr.pow %x, %three : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %two = brrr.constant dense<2.0> : tensor<8xf16>
  %1 = brrr.pow %h, %two : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  %four = brrr.constant dense<4.0> : tensor<1x8xf32>
  %2 = brrr.pow %x, %four : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %one = brrr.constant dense<1.0> : tensor<f32>
  %3 = brrr.pow %x, %one : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<8xf16>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @other_pows_stay
// CHECK-COUNT-6: brrr.pow
// CHECK-NOT: brrr.mul
func.func @other_pows_stay(%x: tensor<8xf32>, %i: tensor<8xi64>, %e: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x8xf32>, tensor<8xi64>, tensor<8xf32>) {
  %half = brrr.constant dense<0.5> : tensor<f32>
  %0 = brrr.pow %x, %half : tensor<8xf32>, tensor<f32> -> tensor<8xf32>
  %five = brrr.constant dense<5.0> : tensor<f32>
  %1 = brrr.pow %x, %five : tensor<8xf32>, tensor<f32> -> tensor<8xf32>
  %mixed = brrr.constant dense<[2.0, 3.0, 2.0, 3.0, 2.0, 3.0, 2.0, 3.0]> : tensor<8xf32>
  %2 = brrr.pow %x, %mixed : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  %wide = brrr.constant dense<2.0> : tensor<2x8xf32>
  %3 = brrr.pow %x, %wide : tensor<8xf32>, tensor<2x8xf32> -> tensor<2x8xf32>
  %itwo = brrr.constant dense<2> : tensor<i64>
  %4 = brrr.pow %i, %itwo : tensor<8xi64>, tensor<i64> -> tensor<8xi64>
  %5 = brrr.pow %x, %e : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x8xf32>, tensor<8xi64>, tensor<8xf32>
}
