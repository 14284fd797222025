// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-split-reductions{decompose-rows=true}))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-split-reductions))' | FileCheck %s --check-prefix=KEEP
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-split-reductions{min-count=1000000000}))' | FileCheck %s --check-prefix=OFF

// One output of 2M elements (T5's check of a whole activation): 1024
// groups of 2048, then the groups. Max splits as itself, in f16.
// CHECK-LABEL: func.func @whole
// CHECK: %[[G:.+]] = brrr.reshape %arg0 : tensor<32x128x512xf16> -> tensor<1024x2048xf16>
// CHECK: %[[P:.+]] = brrr.reduce max %[[G]] {axes = array<i64: 1>, keepdims = false} : tensor<1024x2048xf16> -> tensor<1024xf16>
// CHECK: %[[R:.+]] = brrr.reduce max %[[P]] {axes = array<i64: 0>, keepdims = false} : tensor<1024xf16> -> tensor<f16>
// CHECK: return %[[R]]
// OFF-LABEL: func.func @whole
// OFF: brrr.reduce max %arg0 {axes = array<i64: 0, 1, 2>
func.func @whole(%x: tensor<32x128x512xf16>) -> tensor<f16> {
  %0 = brrr.reduce max %x {axes = array<i64: 0, 1, 2>, keepdims = false} : tensor<32x128x512xf16> -> tensor<f16>
  return %0 : tensor<f16>
}

// -----

// Two outputs of 256K elements each, kept dimensions: 128 groups of 2048
// per output, and an f16 sum is computed in f32 between two casts.
// CHECK-LABEL: func.func @sum_keepdims
// CHECK: %[[W:.+]] = brrr.cast %arg0 : tensor<2x256x1024xf16> -> tensor<2x256x1024xf32>
// CHECK: %[[G:.+]] = brrr.reshape %[[W]] : tensor<2x256x1024xf32> -> tensor<2x128x2048xf32>
// CHECK: %[[P:.+]] = brrr.reduce sum %[[G]] {axes = array<i64: 2>, keepdims = false} : tensor<2x128x2048xf32> -> tensor<2x128xf32>
// CHECK: %[[S:.+]] = brrr.reduce sum %[[P]] {axes = array<i64: 1>, keepdims = false} : tensor<2x128xf32> -> tensor<2xf32>
// CHECK: %[[N:.+]] = brrr.cast %[[S]] : tensor<2xf32> -> tensor<2xf16>
// CHECK: %[[K:.+]] = brrr.reshape %[[N]] : tensor<2xf16> -> tensor<2x1x1xf16>
// CHECK: return %[[K]]
func.func @sum_keepdims(%x: tensor<2x256x1024xf16>) -> tensor<2x1x1xf16> {
  %0 = brrr.reduce sum %x {axes = array<i64: 1, 2>, keepdims = true} : tensor<2x256x1024xf16> -> tensor<2x1x1xf16>
  return %0 : tensor<2x1x1xf16>
}

// -----

// A mean splits into means of equal groups (f32 stays f32). Left alone:
// too many outputs, too few elements, a count with no power-of-two group
// of 2048 or more, and axes that are not a trailing run.
// CHECK-LABEL: func.func @others
// CHECK: brrr.reshape %arg0 : tensor<4x65536xf32> -> tensor<4x32x2048xf32>
// CHECK: brrr.reduce mean {{.+}} : tensor<4x32x2048xf32> -> tensor<4x32xf32>
// CHECK: brrr.reduce mean {{.+}} : tensor<4x32xf32> -> tensor<4xf32>
// CHECK: brrr.reduce sum %arg1 {axes = array<i64: 1>, keepdims = false} : tensor<64x65536xf32> -> tensor<64xf32>
// CHECK: brrr.reduce sum %arg2 {axes = array<i64: 0>, keepdims = false} : tensor<60000xf32> -> tensor<f32>
// CHECK: brrr.reduce sum %arg3 {axes = array<i64: 0>, keepdims = false} : tensor<65537xf32> -> tensor<f32>
// CHECK: brrr.reduce max %arg4 {axes = array<i64: 0>, keepdims = false} : tensor<65536x2xf32> -> tensor<2xf32>
// CHECK-NOT: brrr.reshape
func.func @others(%a: tensor<4x65536xf32>, %b: tensor<64x65536xf32>, %c: tensor<60000xf32>, %d: tensor<65537xf32>, %e: tensor<65536x2xf32>) -> (tensor<4xf32>, tensor<64xf32>, tensor<f32>, tensor<f32>, tensor<2xf32>) {
  %0 = brrr.reduce mean %a {axes = array<i64: 1>, keepdims = false} : tensor<4x65536xf32> -> tensor<4xf32>
  %1 = brrr.reduce sum %b {axes = array<i64: 1>, keepdims = false} : tensor<64x65536xf32> -> tensor<64xf32>
  %2 = brrr.reduce sum %c {axes = array<i64: 0>, keepdims = false} : tensor<60000xf32> -> tensor<f32>
  %3 = brrr.reduce sum %d {axes = array<i64: 0>, keepdims = false} : tensor<65537xf32> -> tensor<f32>
  %4 = brrr.reduce max %e {axes = array<i64: 0>, keepdims = false} : tensor<65536x2xf32> -> tensor<2xf32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<64xf32>, tensor<f32>, tensor<f32>, tensor<2xf32>
}

// -----

// A softmax over a vocabulary (50257 f16, odd: one element a vector, 197
// a thread at 256 threads) is too long for the register-resident row
// kernel: it is written as max, exp(x - max), sum and a division, in f32,
// over its axis. A softmax over 1024 stays.
// CHECK-LABEL: func.func @VocabularySoftmaxIsDecomposed
// CHECK-SAME: (%[[X:.+]]: tensor<8x50257xf16>, %[[S:.+]]: tensor<8x1024xf16>)
// CHECK: %[[W:.+]] = brrr.cast %[[X]] : tensor<8x50257xf16> -> tensor<8x50257xf32>
// CHECK: %[[M:.+]] = brrr.reduce max %[[W]] {axes = array<i64: 1>, keepdims = true} : tensor<8x50257xf32> -> tensor<8x1xf32>
// CHECK: %[[D:.+]] = brrr.sub %[[W]], %[[M]]
// CHECK: %[[E:.+]] = brrr.exp %[[D]]
// CHECK: %[[Z:.+]] = brrr.reduce sum %[[E]] {axes = array<i64: 1>, keepdims = true}
// CHECK: %[[Q:.+]] = brrr.div %[[E]], %[[Z]]
// CHECK: %[[Y:.+]] = brrr.cast %[[Q]] : tensor<8x50257xf32> -> tensor<8x50257xf16>
// CHECK: brrr.softmax %[[S]] {axis = 1 : i64} : tensor<8x1024xf16>
// CHECK-NOT: brrr.softmax
// Without decompose-rows (the run before attention is fused) it stays.
// KEEP-LABEL: func.func @VocabularySoftmaxIsDecomposed
// KEEP: brrr.softmax %{{.+}} {axis = 1 : i64} : tensor<8x50257xf16>
func.func @VocabularySoftmaxIsDecomposed(%x: tensor<8x50257xf16>, %s: tensor<8x1024xf16>) -> (tensor<8x50257xf16>, tensor<8x1024xf16>) {
  %0 = brrr.softmax %x {axis = 1 : i64} : tensor<8x50257xf16>
  %1 = brrr.softmax %s {axis = 1 : i64} : tensor<8x1024xf16>
  return %0, %1 : tensor<8x50257xf16>, tensor<8x1024xf16>
}

// -----

// A layer norm over 200704 elements a row (PoolFormer's one-group
// GroupNorm over 64 x 56 x 56): mean, centred values, the mean of their
// squares plus epsilon, its reciprocal square root, scale and bias, in f32.
// The two row means of 200704 each then split as any huge reduction does.
// CHECK-LABEL: func.func @LongLayerNormIsDecomposed
// CHECK: %[[W:.+]] = brrr.cast %{{.+}} : tensor<2x1x200704xf16> -> tensor<2x1x200704xf32>
// CHECK: brrr.reduce mean %{{.+}} {axes = array<i64: 3>, keepdims = false} : tensor<2x1x64x3136xf32> -> tensor<2x1x64xf32>
// CHECK: brrr.reduce mean %{{.+}} {axes = array<i64: 2>, keepdims = false} : tensor<2x1x64xf32> -> tensor<2x1xf32>
// CHECK: %[[C:.+]] = brrr.sub %[[W]], %{{.+}} : tensor<2x1x200704xf32>, tensor<2x1x1xf32> -> tensor<2x1x200704xf32>
// CHECK: brrr.mul %[[C]], %[[C]]
// CHECK: brrr.add %{{.+}}, %{{.+}} : tensor<2x1x1xf32>, tensor<f32> -> tensor<2x1x1xf32>
// CHECK: brrr.rsqrt
// CHECK: brrr.mul %[[C]]
// CHECK: brrr.mul
// CHECK: brrr.add
// CHECK: brrr.cast %{{.+}} : tensor<2x1x200704xf32> -> tensor<2x1x200704xf16>
// CHECK-NOT: brrr.layer_norm
func.func @LongLayerNormIsDecomposed(%x: tensor<2x1x200704xf16>, %g: tensor<200704xf16>, %b: tensor<200704xf16>) -> tensor<2x1x200704xf16> {
  %0 = brrr.layer_norm %x, %g, %b {axis = 2 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x1x200704xf16>, tensor<200704xf16>, tensor<200704xf16>) -> tensor<2x1x200704xf16>
  return %0 : tensor<2x1x200704xf16>
}

// -----

// An L2 normalization of rows too long for a row kernel (F.normalize over
// 40000 f32): the sum of squares, its square root clamped by epsilon, its
// reciprocal, times the row and the unit scale; not centred.
// CHECK-LABEL: func.func @LongL2NormIsDecomposed
// CHECK-NOT: brrr.sub
// CHECK: %[[SQ:.+]] = brrr.mul %arg0, %arg0
// CHECK: brrr.reduce sum %[[SQ]]
// CHECK: %[[R:.+]] = brrr.sqrt
// CHECK: %[[M:.+]] = brrr.max %[[R]], %{{.+}} : tensor<3x1xf32>, tensor<f32> -> tensor<3x1xf32>
// CHECK: %[[I:.+]] = brrr.reciprocal %[[M]]
// CHECK: brrr.mul %arg0, %[[I]]
// CHECK-NOT: brrr.layer_norm
func.func @LongL2NormIsDecomposed(%x: tensor<3x40000xf32>, %g: tensor<40000xf32>) -> tensor<3x40000xf32> {
  %0 = brrr.layer_norm %x, %g {axis = 1 : i64, epsilon = 1.0e-12 : f64, l2} : (tensor<3x40000xf32>, tensor<40000xf32>) -> tensor<3x40000xf32>
  return %0 : tensor<3x40000xf32>
}

// -----

// A softmax and a log-softmax along a symbolic axis that attention does not
// take, at any length: max, exp(x - max), sum over the actual rows, their
// types keeping the symbols (the statistics [batch, 1]); the first run
// (no decompose-rows) leaves them. A rank-4 softmax over its last axis is
// attention's (brrr-fuse-attention reports it when it does not fuse).
// CHECK-LABEL: func.func @SymbolicRowsAreDecomposed
// CHECK: %[[W:.+]] = brrr.cast %arg0 : tensor<?x?xf16, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x?xf32, #brrr.extents<()[s0, s1] -> (s0, s1)>>
// CHECK: %[[M:.+]] = brrr.reduce max %[[W]] {axes = array<i64: 1>, keepdims = true} : tensor<?x?xf32, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x1xf32, #brrr.extents<()[s0] -> (s0, 1)>>
// CHECK: %[[S:.+]] = brrr.sub %[[W]], %[[M]]
// CHECK: %[[E:.+]] = brrr.exp %[[S]]
// CHECK: %[[N:.+]] = brrr.reduce sum %[[E]] {axes = array<i64: 1>, keepdims = true}
// CHECK: %[[D:.+]] = brrr.div %[[E]], %[[N]]
// CHECK: brrr.cast %[[D]] : tensor<?x?xf32, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x?xf16, #brrr.extents<()[s0, s1] -> (s0, s1)>>
// CHECK: brrr.reduce max %arg1 {axes = array<i64: 1>, keepdims = true} : tensor<?x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4)>> -> tensor<?x1x4xf32, #brrr.extents<()[s0] -> (s0, 1, 4)>>
// CHECK: brrr.log
// CHECK-NOT: brrr.log_softmax
// CHECK: brrr.softmax %arg2 {axis = 3 : i64}
// KEEP-LABEL: func.func @SymbolicRowsAreDecomposed
// KEEP: brrr.softmax %arg0
// KEEP: brrr.log_softmax %arg1
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
  func.func @SymbolicRowsAreDecomposed(%x: tensor<?x?xf16, #brrr.extents<()[s0, s1] -> (s0, s1)>>, %y: tensor<?x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4)>>, %z: tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>) -> (tensor<?x?xf16, #brrr.extents<()[s0, s1] -> (s0, s1)>>, tensor<?x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4)>>, tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>) {
    %0 = brrr.softmax %x {axis = 1 : i64} : tensor<?x?xf16, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %1 = brrr.log_softmax %y {axis = 1 : i64} : tensor<?x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4)>>
    %2 = brrr.softmax %z {axis = 3 : i64} : tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>
    return %0, %1, %2 : tensor<?x?xf16, #brrr.extents<()[s0, s1] -> (s0, s1)>>, tensor<?x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4)>>, tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>
  }
}
