// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise))' | FileCheck %s

// A chain with a broadcast operand and a splat constant is one kernel; the
// constant is copied into the region, the bias stays an input.
// CHECK-LABEL: func.func @FuseChainWithBroadcastAndSplat
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK-NEXT: %[[F:.+]] = brrr.fusion pointwise(%[[X]], %[[B]]) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[A0:.+]]: tensor<4x8xf32>, %[[A1:.+]]: tensor<8xf32>):
// CHECK-NEXT:   %[[C:.+]] = brrr.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:   %[[ADD:.+]] = brrr.add %[[A0]], %[[A1]]
// CHECK-NEXT:   %[[MUL:.+]] = brrr.mul %[[ADD]], %[[C]]
// CHECK-NEXT:   %[[R:.+]] = brrr.tanh %[[MUL]]
// CHECK-NEXT:   brrr.yield %[[R]] : tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @FuseChainWithBroadcastAndSplat(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %h = brrr.constant dense<0.5> : tensor<f32>
  %0 = brrr.add %x, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = brrr.mul %0, %h : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %2 = brrr.tanh %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A DAG (x feeds two branches that meet again) is one kernel reading x once.
// CHECK-LABEL: func.func @FuseDiamond
// CHECK: brrr.fusion pointwise(%{{[^,]+}}) : (tensor<16xf32>) -> tensor<16xf32>
// CHECK: brrr.exp
// CHECK: brrr.neg
// CHECK: brrr.add
// CHECK-NOT: brrr.fusion
func.func @FuseDiamond(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = brrr.exp %x : tensor<16xf32>
  %1 = brrr.neg %x : tensor<16xf32>
  %2 = brrr.add %0, %1 : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// -----

// A producer whose result is also returned is written anyway: it becomes a
// second output of the consumer's kernel (multi-output fusion), which
// saves reading it back and one launch.
// CHECK-LABEL: func.func @MultiOutputWhenProducerIsAlsoReturned
// CHECK: %[[F:.+]]:2 = brrr.fusion pointwise(%{{.+}}) : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<16xf32>):
// CHECK-NEXT:   %[[C:.+]] = brrr.cos %[[A]]
// CHECK-NEXT:   %[[S:.+]] = brrr.sin %[[C]]
// CHECK-NEXT:   brrr.yield %[[S]], %[[C]]
// CHECK: return %[[F]]#1, %[[F]]#0
func.func @MultiOutputWhenProducerIsAlsoReturned(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = brrr.cos %x : tensor<16xf32>
  %1 = brrr.sin %0 : tensor<16xf32>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// A producer read by an op before the consumer cannot move into the
// consumer's kernel: it stays a kernel of its own.
// CHECK-LABEL: func.func @DoNotFuseProducerReadBeforeTheGroup
// CHECK: %[[E:.+]] = brrr.fusion pointwise
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.exp
// CHECK: brrr.matmul %[[E]], %[[E]]
// CHECK: brrr.fusion pointwise(%[[E]], %{{.+}})
func.func @DoNotFuseProducerReadBeforeTheGroup(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = brrr.exp %x : tensor<4x4xf32>
  %1 = brrr.matmul %0, %0 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %2 = brrr.add %0, %1 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// -----

// A broadcast producer that is also returned has another shape than the
// kernel's: no index map covers both, so it is not fused.
// CHECK-LABEL: func.func @DoNotFuseBroadcastProducerWithOutsideUser
// CHECK: %[[P:.+]] = brrr.fusion pointwise(%{{.+}}) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: brrr.fusion pointwise(%{{.+}}, %[[P]]) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
func.func @DoNotFuseBroadcastProducerWithOutsideUser(%x: tensor<8xf32>, %y: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4x8xf32>) {
  %0 = brrr.exp %x : tensor<8xf32>
  %1 = brrr.add %y, %0 : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %0, %1 : tensor<8xf32>, tensor<4x8xf32>
}

// -----

// Non-pointwise ops split the graph into separate kernels around them.
// CHECK-LABEL: func.func @DoNotFuseAcrossMatmul
// CHECK: brrr.fusion pointwise
// CHECK: brrr.matmul
// CHECK: brrr.fusion pointwise
func.func @DoNotFuseAcrossMatmul(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = brrr.relu %x : tensor<4x4xf32>
  %1 = brrr.matmul %0, %0 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %2 = brrr.relu %1 : tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// -----

// Comparisons, where and casts fuse too; a non-splat constant is an input.
// CHECK-LABEL: func.func @FuseMaskingChain
// CHECK: %[[T:.+]] = brrr.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK: brrr.fusion pointwise(%{{.+}}, %[[T]])
// CHECK: brrr.compare gt
// CHECK: brrr.where
// CHECK: brrr.cast
// CHECK-NOT: brrr.fusion
func.func @FuseMaskingChain(%x: tensor<4xf32>) -> tensor<4xf16> {
  %t = brrr.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %m = brrr.compare gt %x, %t : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %0 = brrr.where %m, %x, %t : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = brrr.cast %0 : tensor<4xf32> -> tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// A transpose of an input joins the pointwise kernel as a leaf: the kernel
// reads x through the permutation, so the transposed copy never exists.
// CHECK-LABEL: func.func @TransposeIsReadThrough
// CHECK-SAME: (%[[X:.+]]: tensor<8x4xf32>, %[[Y:.+]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[F:.+]] = brrr.fusion pointwise(%[[X]], %[[Y]])
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<8x4xf32>, %[[B:.+]]: tensor<4x8xf32>):
// CHECK-NEXT:   %[[T:.+]] = brrr.transpose %[[A]] {perm = array<i64: 1, 0>}
// CHECK-NEXT:   %[[S:.+]] = brrr.add %[[T]], %[[B]]
// CHECK-NEXT:   %[[R:.+]] = brrr.relu %[[S]]
// CHECK-NEXT:   brrr.yield %[[R]]
// CHECK: return %[[F]]
func.func @TransposeIsReadThrough(%x: tensor<8x4xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = brrr.transpose %x {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %s = brrr.add %t, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = brrr.relu %s : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Nothing before a transpose joins through it: the transpose moves below
// the neg that reads it instead (views sink below pointwise ops), so exp and
// neg are one kernel and the transpose permutes its result.
// CHECK-LABEL: func.func @DoNotFuseThroughTranspose
// CHECK: %[[E:.+]] = brrr.fusion pointwise
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.exp
// CHECK-NEXT: brrr.neg
// CHECK-NEXT: brrr.yield
// CHECK: brrr.transpose %[[E]] {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
func.func @DoNotFuseThroughTranspose(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %e = brrr.exp %x : tensor<8x4xf32>
  %t = brrr.transpose %e {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %n = brrr.neg %t : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// -----

// Views sink below pointwise ops that are their only readers, so that the
// ops between a product and its consumer are one chain (TorchScript's f16
// exports reshape a product before its erf-expanded GELU, then cast it
// back): scalars broadcast either way; both operands of the final multiply
// are the same reshape, which sinks once. A transpose of an argument stays
// a strided input of the kernel (below it, it would be a copy).
// CHECK-LABEL: func.func @SinkViews
// CHECK: %[[P:.+]] = brrr.fusion pointwise(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf16>
// CHECK-NEXT: ^bb0
// CHECK-NOT: brrr.reshape
// CHECK: brrr.erf
// CHECK-NOT: brrr.reshape
// CHECK: brrr.cast
// CHECK-NEXT: brrr.yield
// CHECK: %[[R:.+]] = brrr.reshape %[[P]] : tensor<4x8xf16> -> tensor<32xf16>
// CHECK: brrr.fusion pointwise(%arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.relu
// CHECK: return %[[R]]
func.func @SinkViews(%m: tensor<4x8xf32>, %a: tensor<8x4xf32>) -> (tensor<32xf16>, tensor<4x8xf32>) {
  %half = brrr.constant dense<5.000000e-01> : tensor<f32>
  %one = brrr.constant dense<1.000000e+00> : tensor<1xf32>
  %s2 = brrr.constant dense<1.41421354> : tensor<f32>
  %t = brrr.reshape %m : tensor<4x8xf32> -> tensor<32xf32>
  %h = brrr.mul %t, %half : tensor<32xf32>, tensor<f32> -> tensor<32xf32>
  %d = brrr.div %t, %s2 : tensor<32xf32>, tensor<f32> -> tensor<32xf32>
  %e = brrr.erf %d : tensor<32xf32>
  %p = brrr.add %e, %one : tensor<32xf32>, tensor<1xf32> -> tensor<32xf32>
  %g = brrr.mul %h, %p : tensor<32xf32>, tensor<32xf32> -> tensor<32xf32>
  %c = brrr.cast %g : tensor<32xf32> -> tensor<32xf16>
  %at = brrr.transpose %a {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %r = brrr.relu %at : tensor<4x8xf32>
  return %c, %r : tensor<32xf16>, tensor<4x8xf32>
}

// -----

// A transposed tensor also read elsewhere is materialized once; a
// transpose that broadcasts into the kernel is read through, at the
// coordinates each element broadcasts from.
// CHECK-LABEL: func.func @DoNotFuseSharedTranspose
// CHECK-SAME: (%[[X:.+]]: tensor<8x4xf32>, %[[Y:.+]]: tensor<8x1xf32>)
// CHECK: %[[T:.+]] = brrr.transpose %[[X]]
// CHECK-NEXT: brrr.fusion pointwise(%[[Y]], %[[T]])
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<8x1xf32>, %[[B:.+]]: tensor<4x8xf32>):
// CHECK-NEXT:   %[[U:.+]] = brrr.transpose %[[A]] {perm = array<i64: 1, 0>} : tensor<8x1xf32> -> tensor<1x8xf32>
// CHECK-NEXT:   brrr.add %[[B]], %[[U]]
func.func @DoNotFuseSharedTranspose(%x: tensor<8x4xf32>, %y: tensor<8x1xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %t = brrr.transpose %x {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %u = brrr.transpose %y {perm = array<i64: 1, 0>} : tensor<8x1xf32> -> tensor<1x8xf32>
  %s = brrr.add %t, %u : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  return %s, %t : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A tensor read only through chains of views that each end in a cast to
// one type is cast once, before the views (TorchScript's f16 exports slice
// an f32 query-key-value product into heads, each cast to f16): one kernel
// casts it, and the slices read the f16 result. A tensor also read without
// a cast, or only in part, keeps its casts where they are: each cast's
// kernel reads through its slice.
// CHECK-LABEL: func.func @HoistCastAboveViews
// CHECK: %[[H:.+]] = brrr.fusion pointwise(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf16>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.cast
// CHECK-NEXT: brrr.yield
// CHECK: %[[A:.+]] = brrr.slice %[[H]] {{.*}} : tensor<4x8xf16> -> tensor<4x4xf16>
// CHECK: %[[B:.+]] = brrr.slice %[[H]] {{.*}} : tensor<4x8xf16> -> tensor<4x4xf16>
// CHECK: %[[BT:.+]] = brrr.transpose %[[B]] {perm = array<i64: 1, 0>} : tensor<4x4xf16> -> tensor<4x4xf16>
// CHECK: brrr.fusion pointwise(%arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.cast
// CHECK: brrr.fusion pointwise(%arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.relu
// CHECK: brrr.fusion pointwise(%arg2)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice %{{.+}} {{.*}} : tensor<4x12xf32> -> tensor<4x4xf32>
// CHECK: return %[[A]], %[[BT]]
func.func @HoistCastAboveViews(%qk: tensor<4x8xf32>, %other: tensor<4x12xf32>, %part: tensor<4x12xf32>) -> (tensor<4x4xf16>, tensor<4x4xf16>, tensor<4x4xf16>, tensor<4x12xf32>, tensor<4x4xf16>) {
  %a = brrr.slice %qk {sizes = array<i64: 4, 4>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<4x4xf32>
  %b = brrr.slice %qk {sizes = array<i64: 4, 4>, starts = array<i64: 0, 4>, steps = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<4x4xf32>
  %bt = brrr.transpose %b {perm = array<i64: 1, 0>} : tensor<4x4xf32> -> tensor<4x4xf32>
  %a16 = brrr.cast %a : tensor<4x4xf32> -> tensor<4x4xf16>
  %b16 = brrr.cast %bt : tensor<4x4xf32> -> tensor<4x4xf16>
  %c = brrr.slice %other {sizes = array<i64: 4, 4>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<4x12xf32> -> tensor<4x4xf32>
  %c16 = brrr.cast %c : tensor<4x4xf32> -> tensor<4x4xf16>
  %r = brrr.relu %other : tensor<4x12xf32>
  %p = brrr.slice %part {sizes = array<i64: 4, 4>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<4x12xf32> -> tensor<4x4xf32>
  %p16 = brrr.cast %p : tensor<4x4xf32> -> tensor<4x4xf16>
  return %a16, %b16, %c16, %r, %p16 : tensor<4x4xf16>, tensor<4x4xf16>, tensor<4x4xf16>, tensor<4x12xf32>, tensor<4x4xf16>
}

// -----

// Rotary embeddings as transformers write them (a product viewed as heads,
// the heads moved before the rows, half of each head rotated by two slices,
// a negation and a concatenation): one kernel reads the product through
// every view (the head view outside it: the same bytes), and none of the
// copies is made.
// CHECK-LABEL: func.func @ReadThroughRotaryEmbedding
// CHECK-SAME: (%[[P:.+]]: tensor<2x16x64xf16>, %[[COS:.+]]: tensor<16x32xf16>, %[[SIN:.+]]: tensor<16x32xf16>)
// CHECK-NEXT: %[[H:.+]] = brrr.reshape %[[P]]
// CHECK-NEXT: %[[F:.+]] = brrr.fusion pointwise(%[[H]], %[[COS]], %[[SIN]])
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<2x16x2x32xf16>, %{{.+}}: tensor<16x32xf16>, %{{.+}}: tensor<16x32xf16>):
// CHECK-NEXT:   %[[Q:.+]] = brrr.transpose %[[A]]
// CHECK-NEXT:   brrr.mul %[[Q]]
// CHECK-NEXT:   brrr.slice %[[Q]]
// CHECK-NEXT:   brrr.slice %[[Q]]
// CHECK-NEXT:   brrr.neg
// CHECK-NEXT:   brrr.concat
// CHECK-NEXT:   brrr.mul
// CHECK-NEXT:   brrr.add
// CHECK-NEXT:   brrr.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]
func.func @ReadThroughRotaryEmbedding(%p: tensor<2x16x64xf16>, %cos: tensor<16x32xf16>, %sin: tensor<16x32xf16>) -> tensor<2x2x16x32xf16> {
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

// A movement op that something outside the group also reads is not read
// through: its result has no element at the kernel's own index, so it could
// not be an extra output, and the other reader needs it made.
// CHECK-LABEL: func.func @DoNotReadThroughMovementReadElsewhere
// CHECK: %[[C:.+]] = brrr.concat
// CHECK-NEXT: %[[F:.+]] = brrr.fusion pointwise(%[[C]])
// CHECK: return %[[F]], %[[C]]
func.func @DoNotReadThroughMovementReadElsewhere(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %c = brrr.concat %x, %y {axis = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %r = brrr.relu %c : tensor<4x16xf32>
  return %r, %c : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// A pointwise op behind a movement op is computed at the coordinates the
// movement maps the kernel's elements to, not at its own: also read outside
// the group, it stays a kernel of its own (written once, read by both).
// CHECK-LABEL: func.func @DoNotFuseMovedProducerReadElsewhere
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[Y:.+]]: tensor<4x4xf32>)
// CHECK: %[[N:.+]] = brrr.fusion pointwise(%[[X]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.neg
// CHECK-NEXT: brrr.yield
// CHECK: %[[F:.+]] = brrr.fusion pointwise(%[[N]], %[[Y]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.add
// CHECK: return %[[F]], %[[N]]
func.func @DoNotFuseMovedProducerReadElsewhere(%x: tensor<4x8xf32>, %y: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x8xf32>) {
  %n = brrr.neg %x : tensor<4x8xf32>
  %s = brrr.slice %n {sizes = array<i64: 4, 4>, starts = array<i64: 0, 4>, steps = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<4x4xf32>
  %a = brrr.add %s, %y : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %a, %n : tensor<4x4xf32>, tensor<4x8xf32>
}

// -----

// A transpose of two long dimensions read through a reshape would read
// across rows: its own kernel moves it through shared memory, coalesced,
// and the pointwise kernel reads its result through the reshape.
// CHECK-LABEL: func.func @DoNotReadThroughTiledTranspose
// CHECK: %[[T:.+]] = brrr.transpose
// CHECK-NEXT: brrr.fusion pointwise(%[[T]], %{{.+}})
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.reshape
// CHECK-NEXT: brrr.add
func.func @DoNotReadThroughTiledTranspose(%x: tensor<2x64x64xf16>, %y: tensor<2x4096xf16>) -> tensor<2x4096xf16> {
  %t = brrr.transpose %x {perm = array<i64: 0, 2, 1>} : tensor<2x64x64xf16> -> tensor<2x64x64xf16>
  %v = brrr.reshape %t : tensor<2x64x64xf16> -> tensor<2x4096xf16>
  %r = brrr.add %v, %y : tensor<2x4096xf16>, tensor<2x4096xf16> -> tensor<2x4096xf16>
  return %r : tensor<2x4096xf16>
}

// -----

// A reshape of a kernel's result is a view the kernel reads as it is: it
// stays outside, so the group (pointwise ops alone) can still become a
// row kernel's prologue or a product's epilogue (GPT-2's residual adds). A
// reshape between data movement and the group joins (a slice of a merged
// product viewed as heads), or the slice would be copied.
// CHECK-LABEL: func.func @ReshapesJoinOnlyBehindMovement
// CHECK-SAME: (%[[X:.+]]: tensor<512x64xf16>, %[[R:.+]]: tensor<1x512x64xf16>, %[[M:.+]]: tensor<512x128xf16>)
// CHECK: %[[V:.+]] = brrr.reshape %[[X]]
// CHECK-NEXT: brrr.fusion pointwise(%[[V]], %[[R]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.add
// CHECK-NEXT: brrr.yield
// CHECK: brrr.fusion pointwise(%[[M]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.reshape
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.neg
func.func @ReshapesJoinOnlyBehindMovement(%x: tensor<512x64xf16>, %r: tensor<1x512x64xf16>, %m: tensor<512x128xf16>) -> (tensor<1x512x64xf16>, tensor<2x512x32xf16>) {
  %v = brrr.reshape %x : tensor<512x64xf16> -> tensor<1x512x64xf16>
  %a = brrr.add %v, %r : tensor<1x512x64xf16>, tensor<1x512x64xf16> -> tensor<1x512x64xf16>
  %s = brrr.slice %m {sizes = array<i64: 512, 64>, starts = array<i64: 0, 64>, steps = array<i64: 1, 1>} : tensor<512x128xf16> -> tensor<512x64xf16>
  %h = brrr.reshape %s : tensor<512x64xf16> -> tensor<512x2x32xf16>
  %t = brrr.transpose %h {perm = array<i64: 1, 0, 2>} : tensor<512x2x32xf16> -> tensor<2x512x32xf16>
  %n = brrr.neg %t : tensor<2x512x32xf16>
  return %a, %n : tensor<1x512x64xf16>, tensor<2x512x32xf16>
}
