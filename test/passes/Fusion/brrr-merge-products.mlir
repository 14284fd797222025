// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-merge-products))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-merge-products{max-columns=3}))' | FileCheck %s --check-prefix=NARROW

// Query, key and value projections of one input, each with its bias and
// read by attention through reshapes and transposes: one product by the
// weights side by side, one bias, and a slice for each; the old weights go.
// CHECK-LABEL: func.func @qkv
// CHECK-NOT: brrr.constant dense<{{\[}}[1.000000e+00, 2.000000e+00]
// CHECK: %[[W:.+]] = brrr.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 5.000000e+00, 7.000000e+00], [3.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00]]> : tensor<2x4xf16>
// CHECK: %[[M:.+]] = brrr.matmul %arg0, %[[W]] : tensor<1x4x2xf16>, tensor<2x4xf16> -> tensor<1x4x4xf16>
// CHECK: %[[B:.+]] = brrr.constant dense<[9.997550e-02, 1.999510e-01, 3.000490e-01, 3.999020e-01]> : tensor<4xf16>
// CHECK: %[[A:.+]] = brrr.add %[[M]], %[[B]] : tensor<1x4x4xf16>, tensor<4xf16> -> tensor<1x4x4xf16>
// CHECK: %[[Q:.+]] = brrr.slice %[[A]] {sizes = array<i64: 1, 4, 2>, starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : tensor<1x4x4xf16> -> tensor<1x4x2xf16>
// CHECK: %[[K:.+]] = brrr.slice %[[A]] {sizes = array<i64: 1, 4, 1>, starts = array<i64: 0, 0, 2>, steps = array<i64: 1, 1, 1>} : tensor<1x4x4xf16> -> tensor<1x4x1xf16>
// CHECK: %[[V:.+]] = brrr.slice %[[A]] {sizes = array<i64: 1, 4, 1>, starts = array<i64: 0, 0, 3>, steps = array<i64: 1, 1, 1>} : tensor<1x4x4xf16> -> tensor<1x4x1xf16>
// CHECK-NOT: brrr.matmul
// CHECK: brrr.reshape %[[Q]]
// CHECK: brrr.reshape %[[K]]
// CHECK: brrr.reshape %[[V]]
// With at most 3 columns a merge, the first two merge and the third stays.
// NARROW-LABEL: func.func @qkv
// NARROW: brrr.matmul %arg0, %{{.+}} : tensor<1x4x2xf16>, tensor<2x3xf16> -> tensor<1x4x3xf16>
// NARROW: brrr.matmul %arg0, %{{.+}} : tensor<1x4x2xf16>, tensor<2x1xf16> -> tensor<1x4x1xf16>
func.func @qkv(%x: tensor<1x4x2xf16>) -> tensor<1x2x4x1xf16> {
  %wq = brrr.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  %wk = brrr.constant dense<[[5.0], [6.0]]> : tensor<2x1xf16>
  %wv = brrr.constant dense<[[7.0], [8.0]]> : tensor<2x1xf16>
  %bq = brrr.constant dense<[0.1, 0.2]> : tensor<2xf16>
  %bk = brrr.constant dense<[0.3]> : tensor<1xf16>
  %bv = brrr.constant dense<[0.4]> : tensor<1xf16>
  %q = brrr.matmul %x, %wq : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %q1 = brrr.add %q, %bq : tensor<1x4x2xf16>, tensor<2xf16> -> tensor<1x4x2xf16>
  %k = brrr.matmul %x, %wk : tensor<1x4x2xf16>, tensor<2x1xf16> -> tensor<1x4x1xf16>
  %k1 = brrr.add %bk, %k : tensor<1xf16>, tensor<1x4x1xf16> -> tensor<1x4x1xf16>
  %v = brrr.matmul %x, %wv : tensor<1x4x2xf16>, tensor<2x1xf16> -> tensor<1x4x1xf16>
  %v1 = brrr.add %v, %bv : tensor<1x4x1xf16>, tensor<1xf16> -> tensor<1x4x1xf16>
  %q4 = brrr.reshape %q1 : tensor<1x4x2xf16> -> tensor<1x4x2x1xf16>
  %qt = brrr.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : tensor<1x4x2x1xf16> -> tensor<1x2x4x1xf16>
  %k4 = brrr.reshape %k1 : tensor<1x4x1xf16> -> tensor<1x1x4x1xf16>
  %v4 = brrr.reshape %v1 : tensor<1x4x1xf16> -> tensor<1x1x4x1xf16>
  %kq = brrr.transpose %k4 {perm = array<i64: 1, 0, 2, 3>} : tensor<1x1x4x1xf16> -> tensor<1x1x4x1xf16>
  %q1h = brrr.reshape %qt : tensor<1x2x4x1xf16> -> tensor<2x1x4x1xf16>
  %qh = brrr.transpose %q1h {perm = array<i64: 1, 0, 2, 3>} : tensor<2x1x4x1xf16> -> tensor<1x2x4x1xf16>
  %o = brrr.attention %qh, %kq, %v4 {scale = 1.0 : f64} : tensor<1x2x4x1xf16>, tensor<1x1x4x1xf16>, tensor<1x1x4x1xf16> -> tensor<1x2x4x1xf16>
  return %o : tensor<1x2x4x1xf16>
}

// -----

// Products read other than by attention stay apart (a slice of a merged
// product would be copied), as do products of other depths, types or
// inputs, or by weights that are not constants. A product without a bias
// merges with one that has it: -0.0 on its columns.
// CHECK-LABEL: func.func @only_attention_siblings
// CHECK-COUNT-2: brrr.matmul %arg0, %{{.+}} : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
// CHECK: %[[W:.+]] = brrr.constant dense<{{\[}}[3.000000e+00, 3.000000e+00, 1.000000e+00, 1.000000e+00], [3.000000e+00, 3.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<2x4xf16>
// CHECK: %[[M:.+]] = brrr.matmul %arg0, %[[W]]
// CHECK: %[[B:.+]] = brrr.constant dense<[5.000000e-01, 5.000000e-01, -0.000000e+00, -0.000000e+00]> : tensor<4xf16>
// CHECK: brrr.add %[[M]], %[[B]]
// CHECK-COUNT-2: brrr.slice
// CHECK-COUNT-2: brrr.matmul
// CHECK-NOT: brrr.matmul
// CHECK-NOT: brrr.slice
func.func @only_attention_siblings(%x: tensor<1x4x2xf16>, %y: tensor<1x4x2xf16>, %w: tensor<2x2xf16>) -> (tensor<1x4x2xf16>, tensor<1x4x2xf16>, tensor<1x1x4x2xf16>) {
  %w1 = brrr.constant dense<1.0> : tensor<2x2xf16>
  %w2 = brrr.constant dense<2.0> : tensor<2x2xf16>
  %w3 = brrr.constant dense<3.0> : tensor<2x2xf16>
  %b3 = brrr.constant dense<0.5> : tensor<2xf16>
  %gate = brrr.matmul %x, %w1 : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %up = brrr.matmul %x, %w2 : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %q = brrr.matmul %x, %w3 : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %qb = brrr.add %q, %b3 : tensor<1x4x2xf16>, tensor<2xf16> -> tensor<1x4x2xf16>
  %k = brrr.matmul %x, %w1 : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %v = brrr.matmul %x, %w : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %k2 = brrr.matmul %y, %w2 : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %q4 = brrr.reshape %qb : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %k4 = brrr.reshape %k : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %v4 = brrr.reshape %v : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %k24 = brrr.reshape %k2 : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %o = brrr.attention %q4, %k4, %v4 {scale = 1.0 : f64} : tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16> -> tensor<1x1x4x2xf16>
  %o2 = brrr.attention %o, %k24, %v4 {scale = 1.0 : f64} : tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16> -> tensor<1x1x4x2xf16>
  return %gate, %up, %o2 : tensor<1x4x2xf16>, tensor<1x4x2xf16>, tensor<1x1x4x2xf16>
}

// -----

// An f16 product of an f32 model is cast, biased in f32 and cast back: the
// merged product goes through the same chain, with the f32 biases side by
// side.
// CHECK-LABEL: func.func @cast_bias_chain
// CHECK: %[[M:.+]] = brrr.matmul %arg0, %{{.+}} : tensor<1x4x2xf16>, tensor<2x4xf16> -> tensor<1x4x4xf16>
// CHECK: %[[C:.+]] = brrr.cast %[[M]] : tensor<1x4x4xf16> -> tensor<1x4x4xf32>
// CHECK: %[[B:.+]] = brrr.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK: %[[A:.+]] = brrr.add %[[C]], %[[B]] : tensor<1x4x4xf32>, tensor<4xf32> -> tensor<1x4x4xf32>
// CHECK: %[[H:.+]] = brrr.cast %[[A]] : tensor<1x4x4xf32> -> tensor<1x4x4xf16>
// CHECK: brrr.slice %[[H]] {sizes = array<i64: 1, 4, 2>, starts = array<i64: 0, 0, 0>
// CHECK: brrr.slice %[[H]] {sizes = array<i64: 1, 4, 2>, starts = array<i64: 0, 0, 2>
// CHECK-NOT: brrr.matmul
func.func @cast_bias_chain(%x: tensor<1x4x2xf16>, %v: tensor<1x1x4x2xf16>) -> tensor<1x1x4x2xf16> {
  %wq = brrr.constant dense<1.0> : tensor<2x2xf16>
  %wk = brrr.constant dense<2.0> : tensor<2x2xf16>
  %bq = brrr.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %bk = brrr.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %q = brrr.matmul %x, %wq : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %q32 = brrr.cast %q : tensor<1x4x2xf16> -> tensor<1x4x2xf32>
  %qb = brrr.add %q32, %bq : tensor<1x4x2xf32>, tensor<2xf32> -> tensor<1x4x2xf32>
  %q16 = brrr.cast %qb : tensor<1x4x2xf32> -> tensor<1x4x2xf16>
  %k = brrr.matmul %x, %wk : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %k32 = brrr.cast %k : tensor<1x4x2xf16> -> tensor<1x4x2xf32>
  %kb = brrr.add %bk, %k32 : tensor<2xf32>, tensor<1x4x2xf32> -> tensor<1x4x2xf32>
  %k16 = brrr.cast %kb : tensor<1x4x2xf32> -> tensor<1x4x2xf16>
  %q4 = brrr.reshape %q16 : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %k4 = brrr.reshape %k16 : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %o = brrr.attention %q4, %k4, %v {scale = 1.0 : f64} : tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16> -> tensor<1x1x4x2xf16>
  return %o : tensor<1x1x4x2xf16>
}

// -----

// Llama's queries and keys are rotated before attention (rotary
// embeddings: pointwise ops and slices behind the head views), which a
// pointwise kernel reads through: the three projections still merge. The
// gate and up projections of its MLP are read by pointwise ops directly,
// which stay their epilogues: they do not merge.
// CHECK-LABEL: func.func @rotary_queries_and_keys
// CHECK: %[[M:.+]] = brrr.matmul %arg0, %{{.+}} : tensor<1x4x8xf16>, tensor<8x12xf16> -> tensor<1x4x12xf16>
// CHECK: %[[Q:.+]] = brrr.slice %[[M]] {{.+}} -> tensor<1x4x4xf16>
// CHECK: %[[K:.+]] = brrr.slice %[[M]] {{.+}} -> tensor<1x4x4xf16>
// CHECK: %[[V:.+]] = brrr.slice %[[M]] {{.+}} -> tensor<1x4x4xf16>
// CHECK: brrr.matmul %arg0, %{{.+}} : tensor<1x4x8xf16>, tensor<8x4xf16> -> tensor<1x4x4xf16>
// CHECK: brrr.matmul %arg0, %{{.+}} : tensor<1x4x8xf16>, tensor<8x4xf16> -> tensor<1x4x4xf16>
// CHECK: brrr.reshape %[[Q]]
// CHECK: brrr.reshape %[[K]]
// CHECK: brrr.reshape %[[V]]
func.func @rotary_queries_and_keys(%x: tensor<1x4x8xf16>, %cos: tensor<4x4xf16>) -> (tensor<1x1x4x4xf16>, tensor<1x4x4xf16>) {
  %wq = brrr.constant dense<1.0> : tensor<8x4xf16>
  %wk = brrr.constant dense<2.0> : tensor<8x4xf16>
  %wv = brrr.constant dense<3.0> : tensor<8x4xf16>
  %wg = brrr.constant dense<4.0> : tensor<8x4xf16>
  %wu = brrr.constant dense<5.0> : tensor<8x4xf16>
  %q = brrr.matmul %x, %wq : tensor<1x4x8xf16>, tensor<8x4xf16> -> tensor<1x4x4xf16>
  %k = brrr.matmul %x, %wk : tensor<1x4x8xf16>, tensor<8x4xf16> -> tensor<1x4x4xf16>
  %v = brrr.matmul %x, %wv : tensor<1x4x8xf16>, tensor<8x4xf16> -> tensor<1x4x4xf16>
  %g = brrr.matmul %x, %wg : tensor<1x4x8xf16>, tensor<8x4xf16> -> tensor<1x4x4xf16>
  %u = brrr.matmul %x, %wu : tensor<1x4x8xf16>, tensor<8x4xf16> -> tensor<1x4x4xf16>
  %q4 = brrr.reshape %q : tensor<1x4x4xf16> -> tensor<1x1x4x4xf16>
  %k4 = brrr.reshape %k : tensor<1x4x4xf16> -> tensor<1x1x4x4xf16>
  %v4 = brrr.reshape %v : tensor<1x4x4xf16> -> tensor<1x1x4x4xf16>
  %qr = brrr.mul %q4, %cos : tensor<1x1x4x4xf16>, tensor<4x4xf16> -> tensor<1x1x4x4xf16>
  %k0 = brrr.slice %k4 {sizes = array<i64: 1, 1, 4, 2>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<1x1x4x4xf16> -> tensor<1x1x4x2xf16>
  %k1 = brrr.slice %k4 {sizes = array<i64: 1, 1, 4, 2>, starts = array<i64: 0, 0, 0, 2>, steps = array<i64: 1, 1, 1, 1>} : tensor<1x1x4x4xf16> -> tensor<1x1x4x2xf16>
  %kr = brrr.concat %k1, %k0 {axis = 3 : i64} : (tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16>) -> tensor<1x1x4x4xf16>
  %o = brrr.attention %qr, %kr, %v4 {scale = 1.0 : f64} : tensor<1x1x4x4xf16>, tensor<1x1x4x4xf16>, tensor<1x1x4x4xf16> -> tensor<1x1x4x4xf16>
  %s = brrr.silu %g : tensor<1x4x4xf16>
  %m = brrr.mul %s, %u : tensor<1x4x4xf16>, tensor<1x4x4xf16> -> tensor<1x4x4xf16>
  return %o, %m : tensor<1x1x4x4xf16>, tensor<1x4x4xf16>
}

// -----

// 8-bit products (brrr-quantized-products' form: K-major weights read
// through a transpose, the scales multiplied in f32, a cast, a bias) merge
// too: the K-major rows stacked (Q's two rows of 1.0, K's of 2.0, V's of
// -1.0: E4M3FN 0x38, 0x40, 0xB8), the scales side by side (K's and V's one
// scale each, expanded to their columns), then the cast and the biases.
// CHECK-LABEL: func.func @qkv_float8
// CHECK: %[[W:.+]] = brrr.constant dense_resource<merged_weight> : tensor<4x16xf8E4M3FN>
// CHECK: %[[T:.+]] = brrr.transpose %[[W]] {perm = array<i64: 1, 0>} : tensor<4x16xf8E4M3FN> -> tensor<16x4xf8E4M3FN>
// CHECK: %[[M:.+]] = brrr.matmul %arg0, %[[T]] : tensor<1x4x16xf8E4M3FN>, tensor<16x4xf8E4M3FN> -> tensor<1x4x4xf32>
// CHECK: %[[S:.+]] = brrr.constant dense<[5.000000e-01, 2.500000e-01, 2.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK: %[[MS:.+]] = brrr.mul %[[M]], %[[S]] : tensor<1x4x4xf32>, tensor<4xf32> -> tensor<1x4x4xf32>
// CHECK: %[[C:.+]] = brrr.cast %[[MS]] : tensor<1x4x4xf32> -> tensor<1x4x4xf16>
// CHECK: brrr.add %[[C]], %{{.+}} : tensor<1x4x4xf16>, tensor<4xf16> -> tensor<1x4x4xf16>
// CHECK-COUNT-3: brrr.slice
// CHECK-NOT: brrr.matmul
// CHECK: merged_weight: "0x08000000383838383838383838383838383838383838383838383838383838383838383840404040404040404040404040404040B8B8B8B8B8B8B8B8B8B8B8B8B8B8B8B8"
func.func @qkv_float8(%x: tensor<1x4x16xf8E4M3FN>) -> tensor<1x2x4x1xf16> {
  %wq = brrr.constant dense<1.0> : tensor<2x16xf8E4M3FN>
  %wk = brrr.constant dense<2.0> : tensor<1x16xf8E4M3FN>
  %wv = brrr.constant dense<-1.0> : tensor<1x16xf8E4M3FN>
  %tq = brrr.transpose %wq {perm = array<i64: 1, 0>} : tensor<2x16xf8E4M3FN> -> tensor<16x2xf8E4M3FN>
  %tk = brrr.transpose %wk {perm = array<i64: 1, 0>} : tensor<1x16xf8E4M3FN> -> tensor<16x1xf8E4M3FN>
  %tv = brrr.transpose %wv {perm = array<i64: 1, 0>} : tensor<1x16xf8E4M3FN> -> tensor<16x1xf8E4M3FN>
  %sq = brrr.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %sk = brrr.constant dense<2.0> : tensor<f32>
  %sv = brrr.constant dense<4.0> : tensor<f32>
  %bq = brrr.constant dense<[0.1, 0.2]> : tensor<2xf16>
  %bk = brrr.constant dense<[0.3]> : tensor<1xf16>
  %bv = brrr.constant dense<[0.4]> : tensor<1xf16>
  %q = brrr.matmul %x, %tq : tensor<1x4x16xf8E4M3FN>, tensor<16x2xf8E4M3FN> -> tensor<1x4x2xf32>
  %q1 = brrr.mul %q, %sq : tensor<1x4x2xf32>, tensor<2xf32> -> tensor<1x4x2xf32>
  %q2 = brrr.cast %q1 : tensor<1x4x2xf32> -> tensor<1x4x2xf16>
  %q3 = brrr.add %q2, %bq : tensor<1x4x2xf16>, tensor<2xf16> -> tensor<1x4x2xf16>
  %k = brrr.matmul %x, %tk : tensor<1x4x16xf8E4M3FN>, tensor<16x1xf8E4M3FN> -> tensor<1x4x1xf32>
  %k1 = brrr.mul %k, %sk : tensor<1x4x1xf32>, tensor<f32> -> tensor<1x4x1xf32>
  %k2 = brrr.cast %k1 : tensor<1x4x1xf32> -> tensor<1x4x1xf16>
  %k3 = brrr.add %k2, %bk : tensor<1x4x1xf16>, tensor<1xf16> -> tensor<1x4x1xf16>
  %v = brrr.matmul %x, %tv : tensor<1x4x16xf8E4M3FN>, tensor<16x1xf8E4M3FN> -> tensor<1x4x1xf32>
  %v1 = brrr.mul %v, %sv : tensor<1x4x1xf32>, tensor<f32> -> tensor<1x4x1xf32>
  %v2 = brrr.cast %v1 : tensor<1x4x1xf32> -> tensor<1x4x1xf16>
  %v3 = brrr.add %v2, %bv : tensor<1x4x1xf16>, tensor<1xf16> -> tensor<1x4x1xf16>
  %q4 = brrr.reshape %q3 : tensor<1x4x2xf16> -> tensor<1x4x2x1xf16>
  %qh = brrr.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : tensor<1x4x2x1xf16> -> tensor<1x2x4x1xf16>
  %k4 = brrr.reshape %k3 : tensor<1x4x1xf16> -> tensor<1x1x4x1xf16>
  %v4 = brrr.reshape %v3 : tensor<1x4x1xf16> -> tensor<1x1x4x1xf16>
  %o = brrr.attention %qh, %k4, %v4 {scale = 1.0 : f64} : tensor<1x2x4x1xf16>, tensor<1x1x4x1xf16>, tensor<1x1x4x1xf16> -> tensor<1x2x4x1xf16>
  return %o : tensor<1x2x4x1xf16>
}

// -----

// Whisper's projections: the query biased then scaled, the key with
// neither, the value biased. They run as the query's chain: the key's
// columns add -0.0, and the key's and value's are scaled by 1.0.
// CHECK-LABEL: func.func @missing_bias_and_scale
// CHECK: %[[M:.+]] = brrr.matmul %arg0, %{{.+}} : tensor<1x4x2xf16>, tensor<2x6xf16> -> tensor<1x4x6xf16>
// CHECK: %[[B:.+]] = brrr.constant dense<[1.000000e+00, 2.000000e+00, -0.000000e+00, -0.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<6xf16>
// CHECK: %[[A:.+]] = brrr.add %[[M]], %[[B]] : tensor<1x4x6xf16>, tensor<6xf16> -> tensor<1x4x6xf16>
// CHECK: %[[S:.+]] = brrr.constant dense<[1.250000e-01, 1.250000e-01, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]> : tensor<6xf16>
// CHECK: %[[X:.+]] = brrr.mul %[[A]], %[[S]] : tensor<1x4x6xf16>, tensor<6xf16> -> tensor<1x4x6xf16>
// CHECK-COUNT-3: brrr.slice %[[X]]
// CHECK-NOT: brrr.matmul
func.func @missing_bias_and_scale(%x: tensor<1x4x2xf16>) -> tensor<1x1x4x2xf16> {
  %wq = brrr.constant dense<1.0> : tensor<2x2xf16>
  %wk = brrr.constant dense<2.0> : tensor<2x2xf16>
  %wv = brrr.constant dense<3.0> : tensor<2x2xf16>
  %bq = brrr.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %bv = brrr.constant dense<[3.0, 4.0]> : tensor<2xf16>
  %s = brrr.constant dense<0.125> : tensor<f16>
  %q = brrr.matmul %x, %wq : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %qb = brrr.add %q, %bq : tensor<1x4x2xf16>, tensor<2xf16> -> tensor<1x4x2xf16>
  %qs = brrr.mul %qb, %s : tensor<1x4x2xf16>, tensor<f16> -> tensor<1x4x2xf16>
  %k = brrr.matmul %x, %wk : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %v = brrr.matmul %x, %wv : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %vb = brrr.add %bv, %v : tensor<2xf16>, tensor<1x4x2xf16> -> tensor<1x4x2xf16>
  %q4 = brrr.reshape %qs : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %k4 = brrr.reshape %k : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %v4 = brrr.reshape %vb : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %o = brrr.attention %q4, %k4, %v4 {scale = 1.0 : f64} : tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16> -> tensor<1x1x4x2xf16>
  return %o : tensor<1x1x4x2xf16>
}

// -----

// Chains that hold each other in neither order stay apart: a scale then a
// bias is not a bias then a scale, and a product cast to f32 is not one
// kept in f16.
// CHECK-LABEL: func.func @chains_apart
// CHECK-COUNT-3: brrr.matmul
// CHECK-NOT: brrr.slice
func.func @chains_apart(%x: tensor<1x4x2xf16>) -> tensor<1x1x4x2xf16> {
  %wq = brrr.constant dense<1.0> : tensor<2x2xf16>
  %wk = brrr.constant dense<2.0> : tensor<2x2xf16>
  %wv = brrr.constant dense<3.0> : tensor<2x2xf16>
  %b = brrr.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %s = brrr.constant dense<0.125> : tensor<f16>
  %q = brrr.matmul %x, %wq : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %qb = brrr.add %q, %b : tensor<1x4x2xf16>, tensor<2xf16> -> tensor<1x4x2xf16>
  %qs = brrr.mul %qb, %s : tensor<1x4x2xf16>, tensor<f16> -> tensor<1x4x2xf16>
  %k = brrr.matmul %x, %wk : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %ks = brrr.mul %k, %s : tensor<1x4x2xf16>, tensor<f16> -> tensor<1x4x2xf16>
  %kb = brrr.add %ks, %b : tensor<1x4x2xf16>, tensor<2xf16> -> tensor<1x4x2xf16>
  %v = brrr.matmul %x, %wv : tensor<1x4x2xf16>, tensor<2x2xf16> -> tensor<1x4x2xf16>
  %v32 = brrr.cast %v : tensor<1x4x2xf16> -> tensor<1x4x2xf32>
  %v16 = brrr.cast %v32 : tensor<1x4x2xf32> -> tensor<1x4x2xf16>
  %q4 = brrr.reshape %qs : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %k4 = brrr.reshape %kb : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %v4 = brrr.reshape %v16 : tensor<1x4x2xf16> -> tensor<1x1x4x2xf16>
  %o = brrr.attention %q4, %k4, %v4 {scale = 1.0 : f64} : tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16>, tensor<1x1x4x2xf16> -> tensor<1x1x4x2xf16>
  return %o : tensor<1x1x4x2xf16>
}
