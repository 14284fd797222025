// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows))' | FileCheck %s

// The residual add before a layer norm is computed as the row loads, and
// the product after it, which reads both the sum and the norm, runs on the
// registers before the store: one kernel reads x and a once and writes y.
// CHECK-LABEL: func.func @ResidualAddAndProductAroundLayerNorm
// CHECK-SAME: (%[[X:.+]]: tensor<4x64xf32>, %[[A:.+]]: tensor<4x64xf32>, %[[G:.+]]: tensor<64xf32>)
// CHECK-NEXT: %[[F:.+]] = brrr.fusion row(%[[X]], %[[A]], %[[G]]) : (tensor<4x64xf32>, tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32> {
// CHECK-NEXT: ^bb0(%[[X1:.+]]: tensor<4x64xf32>, %[[A1:.+]]: tensor<4x64xf32>, %[[G1:.+]]: tensor<64xf32>):
// CHECK-NEXT:   %[[R:.+]] = brrr.add %[[X1]], %[[A1]]
// CHECK-NEXT:   %[[N:.+]] = brrr.layer_norm %[[R]], %[[G1]]
// CHECK-NEXT:   %[[Y:.+]] = brrr.mul %[[R]], %[[N]]
// CHECK-NEXT:   brrr.yield %[[Y]]
// CHECK-NOT: brrr.fusion
// CHECK: return %[[F]]
func.func @ResidualAddAndProductAroundLayerNorm(%x: tensor<4x64xf32>, %a: tensor<4x64xf32>, %g: tensor<64xf32>) -> tensor<4x64xf32> {
  %r = brrr.add %x, %a : tensor<4x64xf32>, tensor<4x64xf32> -> tensor<4x64xf32>
  %n = brrr.layer_norm %r, %g {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %y = brrr.mul %r, %n : tensor<4x64xf32>, tensor<4x64xf32> -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// Attention's scaling before the softmax is its prologue, the cast after
// it its epilogue: one kernel, one read and one write of the scores.
// CHECK-LABEL: func.func @ScaleAndCastAroundSoftmax
// CHECK-NEXT: %[[F:.+]] = brrr.fusion row
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   brrr.constant
// CHECK-NEXT:   %[[D:.+]] = brrr.div
// CHECK-NEXT:   %[[S:.+]] = brrr.softmax %[[D]]
// CHECK-NEXT:   %[[C:.+]] = brrr.cast %[[S]]
// CHECK-NEXT:   brrr.yield %[[C]] : tensor<2x8x8xf16>
// CHECK-NOT: brrr.fusion
// CHECK: return %[[F]]
func.func @ScaleAndCastAroundSoftmax(%x: tensor<2x8x8xf32>) -> tensor<2x8x8xf16> {
  %c = brrr.constant dense<4.0> : tensor<f32>
  %d = brrr.div %x, %c : tensor<2x8x8xf32>, tensor<f32> -> tensor<2x8x8xf32>
  %s = brrr.softmax %d {axis = 2 : i64} : tensor<2x8x8xf32>
  %h = brrr.cast %s : tensor<2x8x8xf32> -> tensor<2x8x8xf16>
  return %h : tensor<2x8x8xf16>
}

// -----

// A reduction takes its producer as prologue (a sum of squares reads x
// once); its per-row result gets no epilogue.
// CHECK-LABEL: func.func @SquareBecomesReductionPrologue
// CHECK-NEXT: %[[F:.+]] = brrr.fusion row
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   brrr.mul
// CHECK-NEXT:   brrr.reduce sum
// CHECK-NEXT:   brrr.yield
// CHECK: brrr.fusion pointwise(%[[F]])
func.func @SquareBecomesReductionPrologue(%x: tensor<16x100xf32>) -> tensor<16xf32> {
  %q = brrr.mul %x, %x : tensor<16x100xf32>, tensor<16x100xf32> -> tensor<16x100xf32>
  %s = brrr.reduce sum %q {axes = array<i64: 1>, keepdims = false} : tensor<16x100xf32> -> tensor<16xf32>
  %r = brrr.sqrt %s : tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// A prologue value that a later kernel also reads (the transformer's
// residual stream) becomes a second output of the row kernel: written
// once, never read back by the row.
// CHECK-LABEL: func.func @PrologueReadElsewhereIsASecondOutput
// CHECK: %[[F:.+]]:2 = brrr.fusion row
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[E:.+]] = brrr.exp
// CHECK-NEXT:   %[[S:.+]] = brrr.softmax %[[E]]
// CHECK-NEXT:   brrr.yield %[[E]], %[[S]]
// CHECK: brrr.fusion pointwise(%{{.+}}, %[[F]]#0)
// CHECK: return %[[F]]#1
func.func @PrologueReadElsewhereIsASecondOutput(%x: tensor<4x64xf32>, %b: tensor<3x4x64xf32>) -> (tensor<4x64xf32>, tensor<3x4x64xf32>) {
  %e = brrr.exp %x : tensor<4x64xf32>
  %w = brrr.add %b, %e : tensor<3x4x64xf32>, tensor<4x64xf32> -> tensor<3x4x64xf32>
  %s = brrr.softmax %e {axis = 1 : i64} : tensor<4x64xf32>
  return %s, %w : tensor<4x64xf32>, tensor<3x4x64xf32>
}

// -----

// A softmax result read by two kernels: the pointwise one runs on the
// registers before the store, and the row kernel stores both (one read of
// x, two writes, one launch).
// CHECK-LABEL: func.func @EpilogueOfSharedResultIsASecondOutput
// CHECK-NEXT: %[[F:.+]]:2 = brrr.fusion row(%{{.+}}) : (tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[S:.+]] = brrr.softmax
// CHECK-NEXT:   %[[L:.+]] = brrr.log %[[S]]
// CHECK-NEXT:   brrr.yield %[[S]], %[[L]]
// CHECK-NOT: brrr.fusion
// CHECK: return %[[F]]#0, %[[F]]#1
func.func @EpilogueOfSharedResultIsASecondOutput(%x: tensor<4x64xf32>) -> (tensor<4x64xf32>, tensor<4x64xf32>) {
  %s = brrr.softmax %x {axis = 1 : i64} : tensor<4x64xf32>
  %l = brrr.log %s : tensor<4x64xf32>
  return %s, %l : tensor<4x64xf32>, tensor<4x64xf32>
}

// -----

// A layer norm's output that the graph returns (or a residual add in a
// product's epilogue reads) and products read quantized, to float8 and to
// int8: the row kernel stores it and both quantized copies.
// CHECK-LABEL: func.func @LayerNormStoresItsQuantizedCopies
// CHECK: %[[F:.+]]:3 = brrr.fusion row({{.+}}) : ({{.+}}) -> (tensor<4x64xf16>, tensor<4x64xi8>, tensor<4x64xf8E4M3FN>) {
// CHECK:   %[[N:.+]] = brrr.layer_norm
// CHECK:   %[[QI:.+]] = brrr.quantize %[[N]], {{.+}} -> tensor<4x64xi8>
// CHECK:   %[[Q:.+]] = brrr.quantize %[[N]], {{.+}} -> tensor<4x64xf8E4M3FN>
// CHECK-NEXT:   brrr.yield %[[N]], %[[QI]], %[[Q]]
// CHECK-NOT: brrr.fusion
// CHECK: return %[[F]]#0, %[[F]]#2, %[[F]]#1
func.func @LayerNormStoresItsQuantizedCopies(%x: tensor<4x64xf16>, %g: tensor<64xf16>) -> (tensor<4x64xf16>, tensor<4x64xf8E4M3FN>, tensor<4x64xi8>) {
  %n = brrr.layer_norm %x, %g {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<4x64xf16>, tensor<64xf16>) -> tensor<4x64xf16>
  %s = brrr.constant dense<0.125> : tensor<f16>
  %z = brrr.constant dense<0.0> : tensor<f8E4M3FN>
  %q = brrr.quantize %n, %s, %z : tensor<4x64xf16>, tensor<f16>, tensor<f8E4M3FN> -> tensor<4x64xf8E4M3FN>
  %zi = brrr.constant dense<0> : tensor<i8>
  %qi = brrr.quantize %n, %s, %zi : tensor<4x64xf16>, tensor<f16>, tensor<i8> -> tensor<4x64xi8>
  return %n, %q, %qi : tensor<4x64xf16>, tensor<4x64xf8E4M3FN>, tensor<4x64xi8>
}

// -----

// A leading-axis reduction is a reduce kernel; the pointwise kernel that
// alone reads its result (relu and a cast) runs on it before the store.
// CHECK-LABEL: func.func @ReduceEpilogue
// CHECK: brrr.fusion reduce(%arg0) : (tensor<6x33xf32>) -> tensor<33xf16>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.reduce sum
// CHECK-NEXT: brrr.relu
// CHECK-NEXT: brrr.cast
// CHECK-NEXT: brrr.yield
func.func @ReduceEpilogue(%x: tensor<6x33xf32>) -> tensor<33xf16> {
  %0 = brrr.reduce sum %x {axes = array<i64: 0>, keepdims = false} : tensor<6x33xf32> -> tensor<33xf32>
  %1 = brrr.relu %0 : tensor<33xf32>
  %2 = brrr.cast %1 : tensor<33xf32> -> tensor<33xf16>
  return %2 : tensor<33xf16>
}
