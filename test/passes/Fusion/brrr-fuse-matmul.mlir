// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul))' | FileCheck %s

// The pointwise kernel that reads the product becomes the matmul kernel's
// epilogue: bias, activation and residual on the accumulators.
// CHECK-LABEL: func.func @MergeBiasActivationResidualEpilogue
// CHECK-SAME: (%[[X:.+]]: tensor<2x16x64xf16>, %[[W:.+]]: tensor<64x32xf16>, %[[B:.+]]: tensor<32xf16>, %[[R:.+]]: tensor<2x16x32xf16>)
// CHECK-NEXT: %[[F:.+]] = brrr.fusion matmul(%[[X]], %[[W]], %[[B]], %[[R]]) : (tensor<2x16x64xf16>, tensor<64x32xf16>, tensor<32xf16>, tensor<2x16x32xf16>) -> tensor<2x16x32xf16> {
// CHECK-NEXT: ^bb0(%[[A0:.+]]: tensor<2x16x64xf16>, %[[A1:.+]]: tensor<64x32xf16>, %[[A2:.+]]: tensor<32xf16>, %[[A3:.+]]: tensor<2x16x32xf16>):
// CHECK-NEXT:   %[[M:.+]] = brrr.matmul %[[A0]], %[[A1]]
// CHECK-NEXT:   %[[S:.+]] = brrr.add %[[M]], %[[A2]]
// CHECK-NEXT:   %[[G:.+]] = brrr.gelu tanh %[[S]]
// CHECK-NEXT:   %[[Y:.+]] = brrr.add %[[G]], %[[A3]]
// CHECK-NEXT:   brrr.yield %[[Y]]
// CHECK-NOT: brrr.fusion
// CHECK: return %[[F]]
func.func @MergeBiasActivationResidualEpilogue(%x: tensor<2x16x64xf16>, %w: tensor<64x32xf16>, %b: tensor<32xf16>, %r: tensor<2x16x32xf16>) -> tensor<2x16x32xf16> {
  %0 = brrr.matmul %x, %w : tensor<2x16x64xf16>, tensor<64x32xf16> -> tensor<2x16x32xf16>
  %1 = brrr.add %0, %b : tensor<2x16x32xf16>, tensor<32xf16> -> tensor<2x16x32xf16>
  %2 = brrr.gelu tanh %1 : tensor<2x16x32xf16>
  %3 = brrr.add %2, %r : tensor<2x16x32xf16>, tensor<2x16x32xf16> -> tensor<2x16x32xf16>
  return %3 : tensor<2x16x32xf16>
}

// -----

// A product that is also returned must be written: no epilogue merge.
// CHECK-LABEL: func.func @DoNotMergeWhenProductIsReadElsewhere
// CHECK: %[[M:.+]] = brrr.fusion matmul
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.matmul
// CHECK-NEXT: brrr.yield
// CHECK: brrr.fusion pointwise(%[[M]])
func.func @DoNotMergeWhenProductIsReadElsewhere(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %0 = brrr.matmul %x, %x : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %1 = brrr.relu %0 : tensor<16x16xf32>
  return %0, %1 : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// An epilogue that changes the shape (here a broadcast to a larger output)
// stays a kernel of its own.
// CHECK-LABEL: func.func @DoNotMergeShapeChangingEpilogue
// CHECK: brrr.fusion matmul
// CHECK: brrr.fusion pointwise
func.func @DoNotMergeShapeChangingEpilogue(%x: tensor<16x16xf32>, %y: tensor<4x16x16xf32>) -> tensor<4x16x16xf32> {
  %0 = brrr.matmul %x, %x : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %1 = brrr.add %y, %0 : tensor<4x16x16xf32>, tensor<16x16xf32> -> tensor<4x16x16xf32>
  return %1 : tensor<4x16x16xf32>
}

// -----

// Transposes only the product reads become part of its kernel: it reads
// their inputs through permuted strides, and the transposed copies are
// never written.
// CHECK-LABEL: func.func @TransposedOperandsAreReadThrough
// CHECK-SAME: (%[[Q:.+]]: tensor<2x16x4x8xf32>, %[[K:.+]]: tensor<2x16x4x8xf32>)
// CHECK-NEXT: %[[F:.+]] = brrr.fusion matmul(%[[Q]], %[[K]])
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<2x16x4x8xf32>, %[[B:.+]]: tensor<2x16x4x8xf32>):
// CHECK-NEXT:   %[[QT:.+]] = brrr.transpose %[[A]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT:   %[[KT:.+]] = brrr.transpose %[[B]] {perm = array<i64: 0, 2, 3, 1>}
// CHECK-NEXT:   %[[S:.+]] = brrr.matmul %[[QT]], %[[KT]]
// CHECK-NEXT:   brrr.yield %[[S]]
// CHECK-NOT: brrr.fusion
func.func @TransposedOperandsAreReadThrough(%q: tensor<2x16x4x8xf32>, %k: tensor<2x16x4x8xf32>) -> tensor<2x4x16x16xf32> {
  %qt = brrr.transpose %q {perm = array<i64: 0, 2, 1, 3>} : tensor<2x16x4x8xf32> -> tensor<2x4x16x8xf32>
  %kt = brrr.transpose %k {perm = array<i64: 0, 2, 3, 1>} : tensor<2x16x4x8xf32> -> tensor<2x4x8x16xf32>
  %s = brrr.matmul %qt, %kt : tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32> -> tensor<2x4x16x16xf32>
  return %s : tensor<2x4x16x16xf32>
}

// -----

// An f16 product with contiguous rows runs the staged body; reading B
// through a transpose that makes its rows strided would lose it, so that
// transpose stays a kernel. The head transpose of A keeps rows contiguous
// and joins.
// CHECK-LABEL: func.func @KeepTheStagedBody
// CHECK: %[[BT:.+]] = brrr.transpose %{{.+}} {perm = array<i64: 0, 1, 3, 2>}
// CHECK: brrr.fusion matmul(%{{.+}}, %[[BT]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   brrr.transpose %{{.+}} {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT:   brrr.matmul
func.func @KeepTheStagedBody(%q: tensor<2x16x4x32xf16>, %w: tensor<2x4x64x32xf16>) -> tensor<2x4x16x64xf16> {
  %qt = brrr.transpose %q {perm = array<i64: 0, 2, 1, 3>} : tensor<2x16x4x32xf16> -> tensor<2x4x16x32xf16>
  %wt = brrr.transpose %w {perm = array<i64: 0, 1, 3, 2>} : tensor<2x4x64x32xf16> -> tensor<2x4x32x64xf16>
  %s = brrr.matmul %qt, %wt : tensor<2x4x16x32xf16>, tensor<2x4x32x64xf16> -> tensor<2x4x16x64xf16>
  return %s : tensor<2x4x16x64xf16>
}

// -----

// On sm_90a, TMA reads a K-contiguous B as well (wgmma's transpose-free
// B), so a weight transpose joins the product there; without the target
// it stays a kernel, as for the staged body.
// CHECK-LABEL: func.func @TmaReadsTransposedWeights
// CHECK-NOT: brrr.transpose
// CHECK: brrr.fusion matmul(%{{.+}}, %{{.+}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   brrr.transpose %{{.+}} {perm = array<i64: 1, 0>}
// CHECK-NEXT:   brrr.matmul
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @TmaReadsTransposedWeights(%x: tensor<64x32xf16>, %w: tensor<128x32xf16>) -> tensor<64x128xf16> {
    %wt = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<128x32xf16> -> tensor<32x128xf16>
    %y = brrr.matmul %x, %wt : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf16>
    return %y : tensor<64x128xf16>
  }
}

// -----

// CHECK-LABEL: func.func @StagingKeepsWeightTranspose
// CHECK: %[[WT:.+]] = brrr.transpose %{{.+}} {perm = array<i64: 1, 0>}
// CHECK: brrr.fusion matmul(%{{.+}}, %[[WT]])
func.func @StagingKeepsWeightTranspose(%x: tensor<64x32xf16>, %w: tensor<128x32xf16>) -> tensor<64x128xf16> {
  %wt = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<128x32xf16> -> tensor<32x128xf16>
  %y = brrr.matmul %x, %wt : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf16>
  return %y : tensor<64x128xf16>
}

// -----

// The split, head reshape and transpose of a fused qkv product are views:
// the kernel reads the product at an offset (64 elements) through strides.
// CHECK-LABEL: func.func @SliceReshapeTransposeAreReadThrough
// CHECK-SAME: (%[[QKV:.+]]: tensor<2x16x192xf32>, %[[P:.+]]: tensor<2x4x16x16xf32>)
// CHECK-NEXT: brrr.fusion matmul(%[[P]], %[[QKV]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   brrr.slice
// CHECK-NEXT:   brrr.reshape
// CHECK-NEXT:   brrr.transpose
// CHECK-NEXT:   brrr.matmul
func.func @SliceReshapeTransposeAreReadThrough(%qkv: tensor<2x16x192xf32>, %p: tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32> {
  %v = brrr.slice %qkv {sizes = array<i64: 2, 16, 64>, starts = array<i64: 0, 0, 64>, steps = array<i64: 1, 1, 1>} : tensor<2x16x192xf32> -> tensor<2x16x64xf32>
  %h = brrr.reshape %v : tensor<2x16x64xf32> -> tensor<2x16x4x16xf32>
  %t = brrr.transpose %h {perm = array<i64: 0, 2, 1, 3>} : tensor<2x16x4x16xf32> -> tensor<2x4x16x16xf32>
  %o = brrr.matmul %p, %t : tensor<2x4x16x16xf32>, tensor<2x4x16x16xf32> -> tensor<2x4x16x16xf32>
  return %o : tensor<2x4x16x16xf32>
}

// -----

// Merging the heads of a transposed tensor is not a view (no single stride
// covers both dimensions): the chain stops there, so the transpose is
// materialized and the kernel reads the reshaped copy.
// CHECK-LABEL: func.func @ReshapeThatNeedsACopyStops
// CHECK: %[[T:.+]] = brrr.transpose
// CHECK: %[[R:.+]] = brrr.reshape %[[T]]
// CHECK: brrr.fusion matmul(%[[R]], %{{.+}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   brrr.matmul
func.func @ReshapeThatNeedsACopyStops(%x: tensor<2x4x16x16xf32>, %w: tensor<64x8xf32>) -> tensor<2x16x8xf32> {
  %t = brrr.transpose %x {perm = array<i64: 0, 2, 1, 3>} : tensor<2x4x16x16xf32> -> tensor<2x16x4x16xf32>
  %r = brrr.reshape %t : tensor<2x16x4x16xf32> -> tensor<2x16x64xf32>
  %y = brrr.matmul %r, %w : tensor<2x16x64xf32>, tensor<64x8xf32> -> tensor<2x16x8xf32>
  return %y : tensor<2x16x8xf32>
}

// -----

// A transpose that alone reads the product (attention merging its heads)
// is applied as the kernel stores: the kernel yields the transposed
// result, no copy is made.
// CHECK-LABEL: func.func @ProductStoredThroughTranspose
// CHECK-NEXT: %[[F:.+]] = brrr.fusion matmul{{.+}} -> tensor<2x16x4x8xf32>
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[M:.+]] = brrr.matmul
// CHECK-NEXT:   %[[T:.+]] = brrr.transpose %[[M]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT:   brrr.yield %[[T]]
// CHECK: brrr.reshape %[[F]]
func.func @ProductStoredThroughTranspose(%p: tensor<2x4x16x16xf32>, %v: tensor<2x4x16x8xf32>) -> tensor<2x16x32xf32> {
  %o = brrr.matmul %p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32> -> tensor<2x4x16x8xf32>
  %t = brrr.transpose %o {perm = array<i64: 0, 2, 1, 3>} : tensor<2x4x16x8xf32> -> tensor<2x16x4x8xf32>
  %r = brrr.reshape %t : tensor<2x16x4x8xf32> -> tensor<2x16x32xf32>
  return %r : tensor<2x16x32xf32>
}

// -----

// An attention kernel reads its operands through the views that keep rows
// of whole, aligned 16-byte chunks (the key's head split and transposes),
// not through one that makes the head strided (the query's transpose of
// its last two dimensions stays a kernel of its own); the bias is read as
// it is, and the transpose that merges the heads back is where the kernel
// stores.
// CHECK-LABEL: func.func @AttentionOperandViews
// CHECK-SAME: (%[[QT:.+]]: tensor<2x3x64x40xf16>, %[[K:.+]]: tensor<2x40x192xf16>, %[[V:.+]]: tensor<2x3x40x64xf16>, %[[M:.+]]: tensor<2x1x1x40xf32>)
// CHECK: %[[Q:.+]] = brrr.transpose %[[QT]] {perm = array<i64: 0, 1, 3, 2>}
// CHECK: brrr.fusion attention(%[[Q]], %[[K]], %[[V]], %[[M]]) : (tensor<2x3x40x64xf16>, tensor<2x40x192xf16>, tensor<2x3x40x64xf16>, tensor<2x1x1x40xf32>) -> tensor<2x40x3x64xf16>
// CHECK-NEXT: ^bb0(%[[A0:.+]]: tensor<2x3x40x64xf16>, %[[A1:.+]]: tensor<2x40x192xf16>, %[[A2:.+]]: tensor<2x3x40x64xf16>, %[[A3:.+]]: tensor<2x1x1x40xf32>):
// CHECK-NEXT:   %[[R:.+]] = brrr.reshape %[[A1]]
// CHECK-NEXT:   %[[T:.+]] = brrr.transpose %[[R]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT:   %[[O:.+]] = brrr.attention %[[A0]], %[[T]], %[[A2]] bias %[[A3]]
// CHECK-NEXT:   %[[S:.+]] = brrr.transpose %[[O]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT:   brrr.yield %[[S]]
func.func @AttentionOperandViews(%qt: tensor<2x3x64x40xf16>, %k: tensor<2x40x192xf16>, %v: tensor<2x3x40x64xf16>, %m: tensor<2x1x1x40xf32>) -> tensor<2x40x3x64xf16> {
  %q = brrr.transpose %qt {perm = array<i64: 0, 1, 3, 2>} : tensor<2x3x64x40xf16> -> tensor<2x3x40x64xf16>
  %k4 = brrr.reshape %k : tensor<2x40x192xf16> -> tensor<2x40x3x64xf16>
  %kh = brrr.transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : tensor<2x40x3x64xf16> -> tensor<2x3x40x64xf16>
  %o = brrr.attention %q, %kh, %v bias %m {scale = 0.125 : f64} : tensor<2x3x40x64xf16>, tensor<2x3x40x64xf16>, tensor<2x3x40x64xf16>, tensor<2x1x1x40xf32> -> tensor<2x3x40x64xf16>
  %ot = brrr.transpose %o {perm = array<i64: 0, 2, 1, 3>} : tensor<2x3x40x64xf16> -> tensor<2x40x3x64xf16>
  return %ot : tensor<2x40x3x64xf16>
}

// -----

// A view that only other views read is read through by each of them (the
// stacked query, key and value of Swin's projection, permuted once and
// split by slices): the kernel takes the projection itself, clones the
// shared permutation once, and nothing is left outside. A view also read
// by something else stays, and that reader keeps it.
// CHECK-LABEL: func.func @AttentionSharedViews
// CHECK-SAME: (%[[P:.+]]: tensor<8x49x192xf16>)
// CHECK: brrr.fusion attention(%[[P]]) : (tensor<8x49x192xf16>) -> tensor<8x2x49x32xf16>
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<8x49x192xf16>):
// CHECK-NEXT:   %[[R:.+]] = brrr.reshape %[[A]]
// CHECK-NEXT:   %[[T:.+]] = brrr.transpose %[[R]] {perm = array<i64: 2, 0, 3, 1, 4>}
// CHECK-NEXT:   brrr.slice %[[T]]
// CHECK-NEXT:   brrr.reshape
// CHECK-NEXT:   brrr.slice %[[T]]
// CHECK-NEXT:   brrr.reshape
// CHECK-NEXT:   brrr.slice %[[T]]
// CHECK-NEXT:   brrr.reshape
// CHECK-NEXT:   brrr.attention
// CHECK-NEXT:   brrr.yield
// CHECK-NOT: brrr.transpose
// CHECK: %[[R2:.+]] = brrr.reshape %[[P]]
// CHECK-NEXT: %[[T2:.+]] = brrr.transpose %[[R2]]
// CHECK: brrr.fusion attention
// CHECK: return %{{.+}}, %{{.+}}, %[[T2]]
func.func @AttentionSharedViews(%p: tensor<8x49x192xf16>) -> (tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16>, tensor<3x8x2x49x32xf16>) {
  %r = brrr.reshape %p : tensor<8x49x192xf16> -> tensor<8x49x3x2x32xf16>
  %t = brrr.transpose %r {perm = array<i64: 2, 0, 3, 1, 4>} : tensor<8x49x3x2x32xf16> -> tensor<3x8x2x49x32xf16>
  %q0 = brrr.slice %t {sizes = array<i64: 1, 8, 2, 49, 32>, starts = array<i64: 0, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : tensor<3x8x2x49x32xf16> -> tensor<1x8x2x49x32xf16>
  %q = brrr.reshape %q0 : tensor<1x8x2x49x32xf16> -> tensor<8x2x49x32xf16>
  %k0 = brrr.slice %t {sizes = array<i64: 1, 8, 2, 49, 32>, starts = array<i64: 1, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : tensor<3x8x2x49x32xf16> -> tensor<1x8x2x49x32xf16>
  %k = brrr.reshape %k0 : tensor<1x8x2x49x32xf16> -> tensor<8x2x49x32xf16>
  %v0 = brrr.slice %t {sizes = array<i64: 1, 8, 2, 49, 32>, starts = array<i64: 2, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : tensor<3x8x2x49x32xf16> -> tensor<1x8x2x49x32xf16>
  %v = brrr.reshape %v0 : tensor<1x8x2x49x32xf16> -> tensor<8x2x49x32xf16>
  %o = brrr.attention %q, %k, %v {scale = 0.125 : f64} : tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16> -> tensor<8x2x49x32xf16>
  %r2 = brrr.reshape %p : tensor<8x49x192xf16> -> tensor<8x49x3x2x32xf16>
  %t2 = brrr.transpose %r2 {perm = array<i64: 2, 0, 3, 1, 4>} : tensor<8x49x3x2x32xf16> -> tensor<3x8x2x49x32xf16>
  %a0 = brrr.slice %t2 {sizes = array<i64: 1, 8, 2, 49, 32>, starts = array<i64: 0, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : tensor<3x8x2x49x32xf16> -> tensor<1x8x2x49x32xf16>
  %a = brrr.reshape %a0 : tensor<1x8x2x49x32xf16> -> tensor<8x2x49x32xf16>
  %o2 = brrr.attention %a, %a, %a {scale = 0.125 : f64} : tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16> -> tensor<8x2x49x32xf16>
  return %o, %o2, %t2 : tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16>, tensor<3x8x2x49x32xf16>
}
