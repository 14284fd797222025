// RUN: brrr-opt %s -split-input-file --canonicalize | FileCheck %s
// Constants fold in their element type's own arithmetic, as numpy computes
// them: integers wrap, unsigned 64-bit values keep their top bit, and values
// beyond 2^53 never pass through double. A result with no defined value
// (integer division by zero, a float cast to an integer that cannot hold
// it) is left to the kernel.

// INT64_MIN / -1 wraps to INT64_MIN; the remainder is 0 (no trap).
// CHECK-LABEL: func.func @int64_min_div_minus_one_wraps
// CHECK-DAG: brrr.constant dense<[-9223372036854775808, -7]> : tensor<2xi64>
// CHECK-DAG: brrr.constant dense<0> : tensor<2xi64>
// CHECK-NOT: brrr.div
// CHECK-NOT: brrr.rem
func.func @int64_min_div_minus_one_wraps() -> (tensor<2xi64>, tensor<2xi64>) {
  %a = brrr.constant dense<[-9223372036854775808, 7]> : tensor<2xi64>
  %b = brrr.constant dense<-1> : tensor<2xi64>
  %0 = brrr.div %a, %b : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
  %1 = brrr.rem %a, %b : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
  return %0, %1 : tensor<2xi64>, tensor<2xi64>
}

// -----

// Signed overflow wraps: INT64_MAX + INT64_MAX = -2, INT64_MAX * INT64_MAX
// = 1, INT32_MIN - 1 = INT32_MAX, 3^41 in i64 keeps its low 64 bits.
// CHECK-LABEL: func.func @signed_overflow_wraps
// CHECK-DAG: brrr.constant dense<-2> : tensor<i64>
// CHECK-DAG: brrr.constant dense<1> : tensor<i64>
// CHECK-DAG: brrr.constant dense<2147483647> : tensor<i32>
// CHECK-DAG: brrr.constant dense<-420491770248316829> : tensor<i64>
func.func @signed_overflow_wraps() -> (tensor<i64>, tensor<i64>, tensor<i32>, tensor<i64>) {
  %max = brrr.constant dense<9223372036854775807> : tensor<i64>
  %0 = brrr.add %max, %max : tensor<i64>, tensor<i64> -> tensor<i64>
  %1 = brrr.mul %max, %max : tensor<i64>, tensor<i64> -> tensor<i64>
  %min = brrr.constant dense<-2147483648> : tensor<i32>
  %one = brrr.constant dense<1> : tensor<i32>
  %2 = brrr.sub %min, %one : tensor<i32>, tensor<i32> -> tensor<i32>
  %three = brrr.constant dense<3> : tensor<i64>
  %e = brrr.constant dense<41> : tensor<i64>
  %3 = brrr.pow %three, %e : tensor<i64>, tensor<i64> -> tensor<i64>
  return %0, %1, %2, %3 : tensor<i64>, tensor<i64>, tensor<i32>, tensor<i64>
}

// -----

// uint64 values at or above 2^63 compare, divide and pick max/min as
// unsigned numbers, and cast to f32 as 2^64 - 2 rounds.
// CHECK-LABEL: func.func @uint64_above_2_63
// CHECK-DAG: brrr.constant dense<18446744073709551614> : tensor<ui64>
// CHECK-DAG: brrr.constant dense<2> : tensor<ui64>
// CHECK-DAG: brrr.constant dense<9223372036854775807> : tensor<ui64>
// CHECK-DAG: brrr.constant dense<0> : tensor<ui64>
// CHECK-DAG: brrr.constant dense<false> : tensor<i1>
// CHECK-DAG: brrr.constant dense<true> : tensor<i1>
// CHECK-DAG: brrr.constant dense<1.84467441E+19> : tensor<f32>
// CHECK-NOT: brrr.{{max|min|div|rem|compare|cast}}
func.func @uint64_above_2_63() -> (tensor<ui64>, tensor<ui64>, tensor<ui64>, tensor<ui64>, tensor<i1>, tensor<i1>, tensor<f32>) {
  %big = brrr.constant dense<18446744073709551614> : tensor<ui64>
  %two = brrr.constant dense<2> : tensor<ui64>
  %0 = brrr.max %big, %two : tensor<ui64>, tensor<ui64> -> tensor<ui64>
  %1 = brrr.min %big, %two : tensor<ui64>, tensor<ui64> -> tensor<ui64>
  %2 = brrr.div %big, %two : tensor<ui64>, tensor<ui64> -> tensor<ui64>
  %3 = brrr.rem %big, %two : tensor<ui64>, tensor<ui64> -> tensor<ui64>
  %4 = brrr.compare lt %big, %two : tensor<ui64>, tensor<ui64> -> tensor<i1>
  %5 = brrr.compare ge %big, %two : tensor<ui64>, tensor<ui64> -> tensor<i1>
  %6 = brrr.cast %big : tensor<ui64> -> tensor<f32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<ui64>, tensor<ui64>, tensor<ui64>, tensor<ui64>, tensor<i1>, tensor<i1>, tensor<f32>
}

// -----

// 2^53 + 1 survives integer casts exactly (through double it would round
// to 2^53); narrowing keeps the low bits, widening an unsigned value
// zero-extends.
// CHECK-LABEL: func.func @int_casts_keep_bits
// CHECK-DAG: brrr.constant dense<9007199254740993> : tensor<ui64>
// CHECK-DAG: brrr.constant dense<1> : tensor<i32>
// CHECK-DAG: brrr.constant dense<255> : tensor<i64>
// CHECK-DAG: brrr.constant dense<9.00719925E+15> : tensor<f32>
func.func @int_casts_keep_bits() -> (tensor<ui64>, tensor<i32>, tensor<i64>, tensor<f32>) {
  %v = brrr.constant dense<9007199254740993> : tensor<i64>
  %0 = brrr.cast %v : tensor<i64> -> tensor<ui64>
  %1 = brrr.cast %v : tensor<i64> -> tensor<i32>
  %u = brrr.constant dense<255> : tensor<ui8>
  %2 = brrr.cast %u : tensor<ui8> -> tensor<i64>
  %3 = brrr.cast %v : tensor<i64> -> tensor<f32>
  return %0, %1, %2, %3 : tensor<ui64>, tensor<i32>, tensor<i64>, tensor<f32>
}

// -----

// Float casts truncate toward zero and NaN is true as a boolean; f16
// arithmetic rounds in f16 (2048 + 1 is 2048).
// CHECK-LABEL: func.func @float_casts_and_half_arithmetic
// CHECK-DAG: brrr.constant dense<[-2, 2]> : tensor<2xi8>
// CHECK-DAG: brrr.constant dense<true> : tensor<2xi1>
// CHECK-DAG: brrr.constant dense<2.048000e+03> : tensor<f16>
func.func @float_casts_and_half_arithmetic() -> (tensor<2xi8>, tensor<2xi1>, tensor<f16>) {
  %f = brrr.constant dense<[-2.9, 2.9]> : tensor<2xf32>
  %0 = brrr.cast %f : tensor<2xf32> -> tensor<2xi8>
  %n = brrr.constant dense<[0x7FC00000, -1.0]> : tensor<2xf32>
  %1 = brrr.cast %n : tensor<2xf32> -> tensor<2xi1>
  %a = brrr.constant dense<2048.0> : tensor<f16>
  %b = brrr.constant dense<1.0> : tensor<f16>
  %2 = brrr.add %a, %b : tensor<f16>, tensor<f16> -> tensor<f16>
  return %0, %1, %2 : tensor<2xi8>, tensor<2xi1>, tensor<f16>
}

// -----

// NaN propagates through max and min; NaN compares unequal to itself.
// CHECK-LABEL: func.func @nan_propagates
// CHECK-DAG: brrr.constant dense<0x7FC00000> : tensor<f32>
// CHECK-DAG: brrr.constant dense<true> : tensor<i1>
// CHECK-DAG: brrr.constant dense<false> : tensor<i1>
func.func @nan_propagates() -> (tensor<f32>, tensor<f32>, tensor<i1>, tensor<i1>) {
  %nan = brrr.constant dense<0x7FC00000> : tensor<f32>
  %one = brrr.constant dense<1.0> : tensor<f32>
  %0 = brrr.max %nan, %one : tensor<f32>, tensor<f32> -> tensor<f32>
  %1 = brrr.min %one, %nan : tensor<f32>, tensor<f32> -> tensor<f32>
  %2 = brrr.compare ne %nan, %nan : tensor<f32>, tensor<f32> -> tensor<i1>
  %3 = brrr.compare eq %nan, %nan : tensor<f32>, tensor<f32> -> tensor<i1>
  return %0, %1, %2, %3 : tensor<f32>, tensor<f32>, tensor<i1>, tensor<i1>
}

// -----

// Undefined results stay in the IR for the kernel: integer division and
// remainder by zero, a negative integer exponent, and floats that no value
// of the integer type holds (NaN, infinity, 300 in i8).
// CHECK-LABEL: func.func @undefined_results_do_not_fold
// CHECK: brrr.div
// CHECK: brrr.rem
// CHECK: brrr.pow
// CHECK: brrr.cast
// CHECK: brrr.cast
// CHECK: brrr.cast
func.func @undefined_results_do_not_fold() -> (tensor<i64>, tensor<i64>, tensor<i64>, tensor<i32>, tensor<i32>, tensor<i8>) {
  %a = brrr.constant dense<7> : tensor<i64>
  %zero = brrr.constant dense<0> : tensor<i64>
  %0 = brrr.div %a, %zero : tensor<i64>, tensor<i64> -> tensor<i64>
  %1 = brrr.rem %a, %zero : tensor<i64>, tensor<i64> -> tensor<i64>
  %m = brrr.constant dense<-1> : tensor<i64>
  %2 = brrr.pow %a, %m : tensor<i64>, tensor<i64> -> tensor<i64>
  %nan = brrr.constant dense<0x7FC00000> : tensor<f32>
  %3 = brrr.cast %nan : tensor<f32> -> tensor<i32>
  %inf = brrr.constant dense<0x7F800000> : tensor<f32>
  %4 = brrr.cast %inf : tensor<f32> -> tensor<i32>
  %big = brrr.constant dense<300.0> : tensor<f32>
  %5 = brrr.cast %big : tensor<f32> -> tensor<i8>
  return %0, %1, %2, %3, %4, %5 : tensor<i64>, tensor<i64>, tensor<i64>, tensor<i32>, tensor<i32>, tensor<i8>
}
