// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels.mlir, which starts from them pinned.

// One gpu.func per fusion; the fusion records its kernel and launch shape.
// Same-shaped f32 operands move as 16-byte vectors (4 lanes per thread).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>
func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = brrr.cos %x : tensor<1024xf32>
  %1 = brrr.sin %0 : tensor<1024xf32>
  return %1 : tensor<1024xf32>
}

// -----

// f16 is loaded 8 lanes at a time and computed in f32; a broadcast operand
// whose rows are the kernel's is read as a vector from its broadcast index,
// one that broadcasts along the row as one element for all lanes; a ragged
// size falls back to 1 lane.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, grid = [1, 1, 1]>
func.func @main(%x: tensor<4x64xf16>, %b: tensor<64xf16>, %c: tensor<4x1xf16>, %r: tensor<7xf32>) -> (tensor<4x64xf16>, tensor<7xf32>) {
  %0 = brrr.add %x, %b : tensor<4x64xf16>, tensor<64xf16> -> tensor<4x64xf16>
  %1 = brrr.mul %0, %c : tensor<4x64xf16>, tensor<4x1xf16> -> tensor<4x64xf16>
  %2 = brrr.relu %r : tensor<7xf32>
  return %1, %2 : tensor<4x64xf16>, tensor<7xf32>
}

// -----

// A transposed input is read per lane at its permuted coordinates (the
// kernel's in 32 bits, as every tensor fits; input strides 4 and 1,
// swapped), the same-shaped input by one vector.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>
func.func @main(%x: tensor<8x4xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = brrr.transpose %x {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %s = brrr.add %t, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// Rotary embeddings as transformers write them: a product viewed as heads,
// the heads moved before the rows, and half of each head rotated (two
// slices, one negated, concatenated the other way round). One kernel reads
// the product through its views, twice: the lanes stay whole rows of 8
// through the transpose (it keeps the head dimension innermost) and through
// the concatenation (its halves are whole vectors), so both reads are one
// 16-byte load, the rotated one in a branch per half.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>
func.func @main(%p: tensor<2x16x64xf16>, %cos: tensor<16x32xf16>, %sin: tensor<16x32xf16>) -> tensor<2x2x16x32xf16> {
  %v = brrr.reshape %p : tensor<2x16x64xf16> -> tensor<2x16x2x32xf16>
  %q = brrr.transpose %v {perm = array<i64: 0, 2, 1, 3>} : tensor<2x16x2x32xf16> -> tensor<2x2x16x32xf16>
  %a = brrr.mul %q, %cos : tensor<2x2x16x32xf16>, tensor<16x32xf16> -> tensor<2x2x16x32xf16>
  %lo = brrr.slice %q {sizes = array<i64: 2, 2, 16, 16>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x2x16x32xf16> -> tensor<2x2x16x16xf16>
  %hi = brrr.slice %q {sizes = array<i64: 2, 2, 16, 16>, starts = array<i64: 0, 0, 0, 16>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x2x16x32xf16> -> tensor<2x2x16x16xf16>
  %n = brrr.neg %hi : tensor<2x2x16x16xf16>
  %r = brrr.concat %n, %lo {axis = 3 : i64} : (tensor<2x2x16x16xf16>, tensor<2x2x16x16xf16>) -> tensor<2x2x16x32xf16>
  %b = brrr.mul %r, %sin : tensor<2x2x16x32xf16>, tensor<16x32xf16> -> tensor<2x2x16x32xf16>
  %y = brrr.add %a, %b : tensor<2x2x16x32xf16>, tensor<2x2x16x32xf16> -> tensor<2x2x16x32xf16>
  return %y : tensor<2x2x16x32xf16>
}

// -----

// Parts of a concatenation that do not start at whole vectors: each lane
// picks its part alone, and a constant pad selects its fill for the lanes
// outside its input.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>
func.func @main(%x: tensor<4x12xf16>, %y: tensor<4x20xf16>, %z: tensor<4x28xf16>) -> (tensor<4x32xf16>, tensor<4x32xf16>) {
  %c = brrr.concat %x, %y {axis = 1 : i64} : (tensor<4x12xf16>, tensor<4x20xf16>) -> tensor<4x32xf16>
  %r = brrr.relu %c : tensor<4x32xf16>
  %p = brrr.pad constant %z {high = array<i64: 0, 0>, low = array<i64: 0, 4>, value = 1.0 : f64} : tensor<4x28xf16> -> tensor<4x32xf16>
  %e = brrr.exp %p : tensor<4x32xf16>
  return %r, %e : tensor<4x32xf16>, tensor<4x32xf16>
}

// -----

// An f32 GELU keeps libdevice's erf; an f16 or bf16 one computes its tail
// probability by Abramowitz & Stegun 7.1.26 (an approximate reciprocal, a
// polynomial and exp2; at most one f16 ulp from the correctly rounded
// GELU) and returns max(x, 0) - |x| tail in one fma, without a branch.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>
func.func @main(%x: tensor<64xf32>, %h: tensor<64xf16>, %g: tensor<64xbf16>) -> (tensor<64xf32>, tensor<64xf16>, tensor<64xbf16>) {
  %0 = brrr.gelu none %x : tensor<64xf32>
  %1 = brrr.gelu none %h : tensor<64xf16>
  %2 = brrr.gelu none %g : tensor<64xbf16>
  return %0, %1, %2 : tensor<64xf32>, tensor<64xf16>, tensor<64xbf16>
}
