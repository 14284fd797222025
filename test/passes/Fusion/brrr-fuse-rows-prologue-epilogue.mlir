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

// -----

// Swin V2's post-norm residual: the windows' output, put back in place
// (reshape, transpose, reshape) and rolled back (slices concatenated along
// the rows and the columns), is the layer norm's row. Each row stays 48
// contiguous channels of the windows' output: the kernel reads it there,
// and the residual add after the norm is its epilogue. One kernel, no copy.
// CHECK-LABEL: func.func @PostNormThroughWindowReverse
// CHECK-SAME: (%[[W:.+]]: tensor<8x49x48xf16>, %[[X:.+]]: tensor<2x14x14x48xf16>, %[[G:.+]]: tensor<48xf16>)
// CHECK-NEXT: %[[F:.+]] = brrr.fusion row(%[[W]], %[[G]], %[[X]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   brrr.reshape
// CHECK-NEXT:   brrr.transpose
// CHECK-NEXT:   brrr.reshape
// CHECK-COUNT-2: brrr.slice
// CHECK-NEXT:   brrr.concat
// CHECK-COUNT-2: brrr.slice
// CHECK-NEXT:   %[[R:.+]] = brrr.concat
// CHECK-NEXT:   %[[N:.+]] = brrr.layer_norm %[[R]]
// CHECK-NEXT:   %[[Y:.+]] = brrr.add
// CHECK-NEXT:   brrr.yield %[[Y]]
// CHECK-NOT: brrr.fusion
// CHECK-NOT: brrr.transpose
// CHECK: return %[[F]]
func.func @PostNormThroughWindowReverse(%w: tensor<8x49x48xf16>, %x: tensor<2x14x14x48xf16>, %g: tensor<48xf16>) -> tensor<2x14x14x48xf16> {
  %0 = brrr.reshape %w : tensor<8x49x48xf16> -> tensor<2x2x2x7x7x48xf16>
  %1 = brrr.transpose %0 {perm = array<i64: 0, 1, 3, 2, 4, 5>} : tensor<2x2x2x7x7x48xf16> -> tensor<2x2x7x2x7x48xf16>
  %2 = brrr.reshape %1 : tensor<2x2x7x2x7x48xf16> -> tensor<2x14x14x48xf16>
  %3 = brrr.slice %2 {sizes = array<i64: 2, 3, 14, 48>, starts = array<i64: 0, 11, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x48xf16> -> tensor<2x3x14x48xf16>
  %4 = brrr.slice %2 {sizes = array<i64: 2, 11, 14, 48>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x48xf16> -> tensor<2x11x14x48xf16>
  %5 = brrr.concat %3, %4 {axis = 1 : i64} : (tensor<2x3x14x48xf16>, tensor<2x11x14x48xf16>) -> tensor<2x14x14x48xf16>
  %6 = brrr.slice %5 {sizes = array<i64: 2, 14, 3, 48>, starts = array<i64: 0, 0, 11, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x48xf16> -> tensor<2x14x3x48xf16>
  %7 = brrr.slice %5 {sizes = array<i64: 2, 14, 11, 48>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x48xf16> -> tensor<2x14x11x48xf16>
  %8 = brrr.concat %6, %7 {axis = 2 : i64} : (tensor<2x14x3x48xf16>, tensor<2x14x11x48xf16>) -> tensor<2x14x14x48xf16>
  %9 = brrr.layer_norm %8, %g {axis = 3 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x14x14x48xf16>, tensor<48xf16>) -> tensor<2x14x14x48xf16>
  %y = brrr.add %x, %9 : tensor<2x14x14x48xf16>, tensor<2x14x14x48xf16> -> tensor<2x14x14x48xf16>
  return %y : tensor<2x14x14x48xf16>
}

// -----

// Queries sliced from the transposed projections (q = qkv.permute(2, 0, 3,
// 1, 4)[0]) are normalized where they lie; the values' slice, which a
// kernel reads, keeps the transpose for itself.
// CHECK-LABEL: func.func @NormalizeSlicedQueries
// CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[QKV:.+]] {perm
// CHECK-NEXT: %[[V:.+]] = brrr.slice %[[T]]
// CHECK-NEXT: %[[F:.+]] = brrr.fusion row(%[[QKV]], %{{.+}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   brrr.transpose
// CHECK-NEXT:   brrr.slice
// CHECK-NEXT:   brrr.reshape
// CHECK-NEXT:   brrr.layer_norm {{.+}} l2
// CHECK: return %[[F]], %[[V]]
func.func @NormalizeSlicedQueries(%qkv: tensor<4x49x3x3x32xf16>, %one: tensor<32xf16>) -> (tensor<4x3x49x32xf16>, tensor<1x4x3x49x32xf16>) {
  %t = brrr.transpose %qkv {perm = array<i64: 2, 0, 3, 1, 4>} : tensor<4x49x3x3x32xf16> -> tensor<3x4x3x49x32xf16>
  %q = brrr.slice %t {sizes = array<i64: 1, 4, 3, 49, 32>, starts = array<i64: 0, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : tensor<3x4x3x49x32xf16> -> tensor<1x4x3x49x32xf16>
  %v = brrr.slice %t {sizes = array<i64: 1, 4, 3, 49, 32>, starts = array<i64: 2, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : tensor<3x4x3x49x32xf16> -> tensor<1x4x3x49x32xf16>
  %r = brrr.reshape %q : tensor<1x4x3x49x32xf16> -> tensor<4x3x49x32xf16>
  %n = brrr.layer_norm %r, %one {axis = 3 : i64, epsilon = 0.0 : f64, l2} : (tensor<4x3x49x32xf16>, tensor<32xf16>) -> tensor<4x3x49x32xf16>
  return %n, %v : tensor<4x3x49x32xf16>, tensor<1x4x3x49x32xf16>
}

// -----

// A row whose elements the movement scatters (a transpose that moves the
// innermost dimension), or a moved tensor that is also a result, is copied
// first: the kernel reads the copy.
// CHECK-LABEL: func.func @RowsNotReadThroughMovement
// CHECK-NEXT: %[[T:.+]] = brrr.transpose
// CHECK-NEXT: brrr.fusion row(%[[T]])
// CHECK: %[[U:.+]] = brrr.transpose
// CHECK-NEXT: brrr.fusion row(%[[U]])
// CHECK: return
func.func @RowsNotReadThroughMovement(%x: tensor<8x16xf32>, %z: tensor<4x8x16xf32>) -> (tensor<16x8xf32>, tensor<8x4x16xf32>, tensor<8x4x16xf32>) {
  %t = brrr.transpose %x {perm = array<i64: 1, 0>} : tensor<8x16xf32> -> tensor<16x8xf32>
  %s = brrr.softmax %t {axis = 1 : i64} : tensor<16x8xf32>
  %u = brrr.transpose %z {perm = array<i64: 1, 0, 2>} : tensor<4x8x16xf32> -> tensor<8x4x16xf32>
  %v = brrr.softmax %u {axis = 2 : i64} : tensor<8x4x16xf32>
  return %s, %v, %u : tensor<16x8xf32>, tensor<8x4x16xf32>, tensor<8x4x16xf32>
}

// -----

// Swin's layer norm before its roll and window partition: the norm acts on
// each row alone and the movement only reorders rows, so the norm moves
// below it and reads its rows through it, writing the windows in place.
// One kernel: no copy of the rolled, partitioned tensor.
// CHECK-LABEL: func.func @LayerNormSinksBelowWindowPartition
// CHECK-SAME: (%[[X:.+]]: tensor<2x14x14x48xf16>, %[[G:.+]]: tensor<48xf16>, %[[B:.+]]: tensor<48xf16>)
// CHECK-NEXT: %[[F:.+]] = brrr.fusion row(%[[X]], %[[G]], %[[B]])
// CHECK-NEXT: ^bb0
// CHECK-COUNT-2: brrr.slice
// CHECK-NEXT:   brrr.concat
// CHECK-COUNT-2: brrr.slice
// CHECK-NEXT:   brrr.concat
// CHECK-NEXT:   brrr.reshape
// CHECK-NEXT:   brrr.transpose
// CHECK-NEXT:   %[[W:.+]] = brrr.reshape {{.+}} -> tensor<8x49x48xf16>
// CHECK-NEXT:   %[[N:.+]] = brrr.layer_norm %[[W]], {{.+}} {axis = 2 : i64
// CHECK-NEXT:   brrr.yield %[[N]]
// CHECK-NOT: brrr.fusion
// CHECK: return %[[F]]
func.func @LayerNormSinksBelowWindowPartition(%x: tensor<2x14x14x48xf16>, %g: tensor<48xf16>, %b: tensor<48xf16>) -> tensor<8x49x48xf16> {
  %l = brrr.layer_norm %x, %g, %b {axis = 3 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x14x14x48xf16>, tensor<48xf16>, tensor<48xf16>) -> tensor<2x14x14x48xf16>
  %0 = brrr.slice %l {sizes = array<i64: 2, 11, 14, 48>, starts = array<i64: 0, 3, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x48xf16> -> tensor<2x11x14x48xf16>
  %1 = brrr.slice %l {sizes = array<i64: 2, 3, 14, 48>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x48xf16> -> tensor<2x3x14x48xf16>
  %2 = brrr.concat %0, %1 {axis = 1 : i64} : (tensor<2x11x14x48xf16>, tensor<2x3x14x48xf16>) -> tensor<2x14x14x48xf16>
  %3 = brrr.slice %2 {sizes = array<i64: 2, 14, 11, 48>, starts = array<i64: 0, 0, 3, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x48xf16> -> tensor<2x14x11x48xf16>
  %4 = brrr.slice %2 {sizes = array<i64: 2, 14, 3, 48>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x48xf16> -> tensor<2x14x3x48xf16>
  %5 = brrr.concat %3, %4 {axis = 2 : i64} : (tensor<2x14x11x48xf16>, tensor<2x14x3x48xf16>) -> tensor<2x14x14x48xf16>
  %6 = brrr.reshape %5 : tensor<2x14x14x48xf16> -> tensor<2x2x7x2x7x48xf16>
  %7 = brrr.transpose %6 {perm = array<i64: 0, 1, 3, 2, 4, 5>} : tensor<2x2x7x2x7x48xf16> -> tensor<2x2x2x7x7x48xf16>
  %8 = brrr.reshape %7 : tensor<2x2x2x7x7x48xf16> -> tensor<8x49x48xf16>
  return %8 : tensor<8x49x48xf16>
}

// -----

// A norm that is also read where it stands, or whose moved rows are
// concatenated with other rows, stays above the movement.
// CHECK-LABEL: func.func @RowOpsThatStay
// CHECK: brrr.fusion row(%arg0)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.softmax
// CHECK: brrr.fusion row(%arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.softmax
// CHECK: brrr.transpose
// CHECK: brrr.concat
func.func @RowOpsThatStay(%x: tensor<4x8x16xf32>, %y: tensor<4x8x16xf32>, %z: tensor<8x4x16xf32>) -> (tensor<4x8x16xf32>, tensor<8x4x16xf32>, tensor<16x4x16xf32>) {
  %s = brrr.softmax %x {axis = 2 : i64} : tensor<4x8x16xf32>
  %t = brrr.transpose %s {perm = array<i64: 1, 0, 2>} : tensor<4x8x16xf32> -> tensor<8x4x16xf32>
  %u = brrr.softmax %y {axis = 2 : i64} : tensor<4x8x16xf32>
  %v = brrr.transpose %u {perm = array<i64: 1, 0, 2>} : tensor<4x8x16xf32> -> tensor<8x4x16xf32>
  %w = brrr.concat %v, %z {axis = 0 : i64} : (tensor<8x4x16xf32>, tensor<8x4x16xf32>) -> tensor<16x4x16xf32>
  return %s, %t, %w : tensor<4x8x16xf32>, tensor<8x4x16xf32>, tensor<16x4x16xf32>
}
