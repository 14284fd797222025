// RUN: brrr-opt %s -split-input-file --canonicalize | FileCheck %s
// Folders remove identity data movement and evaluate small constant tensors
// (the shape subgraphs of exported models); large tensors are never copied.

// CHECK-LABEL: func.func @identity_reshape_folds
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity_reshape_folds(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = brrr.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A pad of nothing on every side (torchvision's Swin pads its windows to a
// multiple of the window: nothing when the image already is one) is its
// input, whatever the mode; a pad that crops on one side and pads the
// other keeps its shape but not its elements, and stays.
// CHECK-LABEL: func.func @empty_pad_folds
// CHECK-SAME: (%[[X:.+]]: tensor<2x5xf16>)
// CHECK-NEXT: %[[P:.+]] = brrr.pad edge %[[X]]
// CHECK-NEXT: return %[[X]], %[[X]], %[[P]]
func.func @empty_pad_folds(%x: tensor<2x5xf16>) -> (tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>) {
  %0 = brrr.pad constant %x {high = array<i64: 0, 0>, low = array<i64: 0, 0>, value = 0.0 : f64} : tensor<2x5xf16> -> tensor<2x5xf16>
  %1 = brrr.pad reflect %x {high = array<i64: 0, 0>, low = array<i64: 0, 0>, value = 0.0 : f64} : tensor<2x5xf16> -> tensor<2x5xf16>
  %2 = brrr.pad edge %x {high = array<i64: 0, 1>, low = array<i64: 0, -1>, value = 0.0 : f64} : tensor<2x5xf16> -> tensor<2x5xf16>
  return %0, %1, %2 : tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>
}

// -----

// CHECK-LABEL: func.func @reshape_chain_collapses
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.+]] = brrr.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_chain_collapses(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = brrr.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = brrr.reshape %0 : tensor<24xf32> -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_of_constant_folds
// CHECK-NEXT: %[[C:.+]] = brrr.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi64>
// CHECK-NEXT: return %[[C]]
func.func @reshape_of_constant_folds() -> tensor<2x2xi64> {
  %c = brrr.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %0 = brrr.reshape %c : tensor<4xi64> -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// CHECK-LABEL: func.func @identity_transpose_folds
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity_transpose_folds(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = brrr.transpose %x {perm = array<i64: 0, 1>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_chain_composes
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[X]] {perm = array<i64: 2, 1, 0>} : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_chain_composes(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = brrr.transpose %x {perm = array<i64: 1, 2, 0>} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = brrr.transpose %0 {perm = array<i64: 1, 0, 2>} : tensor<3x4x2xf32> -> tensor<4x3x2xf32>
  return %1 : tensor<4x3x2xf32>
}

// -----

// A transpose that moves only size-1 dimensions keeps every element in
// place: a reshape (a view, no kernel), as a pooled [N, C, 1, 1] read
// channels-last is. One that reorders larger dimensions stays.
// CHECK-LABEL: func.func @unit_dims_transpose_is_a_reshape
// CHECK-SAME: (%[[X:.+]]: tensor<32x96x1x1xf16>, %[[Y:.+]]: tensor<1x4x1x8xf32>)
// CHECK-NEXT: %[[R:.+]] = brrr.reshape %[[X]] : tensor<32x96x1x1xf16> -> tensor<32x1x1x96xf16>
// CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[Y]] {perm = array<i64: 0, 3, 2, 1>} : tensor<1x4x1x8xf32> -> tensor<1x8x1x4xf32>
// CHECK-NEXT: return %[[R]], %[[T]]
func.func @unit_dims_transpose_is_a_reshape(%x: tensor<32x96x1x1xf16>, %y: tensor<1x4x1x8xf32>) -> (tensor<32x1x1x96xf16>, tensor<1x8x1x4xf32>) {
  %0 = brrr.transpose %x {perm = array<i64: 0, 2, 3, 1>} : tensor<32x96x1x1xf16> -> tensor<32x1x1x96xf16>
  %1 = brrr.transpose %y {perm = array<i64: 0, 3, 2, 1>} : tensor<1x4x1x8xf32> -> tensor<1x8x1x4xf32>
  return %0, %1 : tensor<32x1x1x96xf16>, tensor<1x8x1x4xf32>
}

// -----

// The exporters' K^T through [batch * heads, s, d]: merging batch and
// heads, swapping the last two dimensions and splitting them back is one
// transpose of the unmerged keys, and with the transpose after it nothing.
// CHECK-LABEL: func.func @merged_transpose_split_back
// CHECK-SAME: (%[[K:.+]]: tensor<2x4x128x16xf16>, %[[X:.+]]: tensor<2x3x5x7xf32>)
// CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[X]] {perm = array<i64: 3, 0, 1, 2>} : tensor<2x3x5x7xf32> -> tensor<7x2x3x5xf32>
// CHECK-NEXT: return %[[K]], %[[T]]
func.func @merged_transpose_split_back(%k: tensor<2x4x128x16xf16>, %x: tensor<2x3x5x7xf32>) -> (tensor<2x4x128x16xf16>, tensor<7x2x3x5xf32>) {
  %0 = brrr.reshape %k : tensor<2x4x128x16xf16> -> tensor<8x128x16xf16>
  %1 = brrr.transpose %0 {perm = array<i64: 0, 2, 1>} : tensor<8x128x16xf16> -> tensor<8x16x128xf16>
  %2 = brrr.reshape %1 : tensor<8x16x128xf16> -> tensor<2x4x16x128xf16>
  %3 = brrr.transpose %2 {perm = array<i64: 0, 1, 3, 2>} : tensor<2x4x16x128xf16> -> tensor<2x4x128x16xf16>
  %4 = brrr.reshape %x : tensor<2x3x5x7xf32> -> tensor<30x7xf32>
  %5 = brrr.transpose %4 {perm = array<i64: 1, 0>} : tensor<30x7xf32> -> tensor<7x30xf32>
  %6 = brrr.reshape %5 : tensor<7x30xf32> -> tensor<7x2x3x5xf32>
  return %3, %6 : tensor<2x4x128x16xf16>, tensor<7x2x3x5xf32>
}

// The mirror image: a product's [N, Ho * Wo, O] split to [N, Ho, Wo, O],
// transposed to [N, O, Ho, Wo] and flattened back to [N, O, Ho * Wo] is
// one transpose of the product (and with the exporters' transpose to
// tokens after it, nothing).
// CHECK-LABEL: func.func @split_transpose_merged_back
// CHECK-SAME: (%[[Y:.+]]: tensor<2x12x5xf32>)
// CHECK-NEXT: return %[[Y]]
func.func @split_transpose_merged_back(%y: tensor<2x12x5xf32>) -> tensor<2x12x5xf32> {
  %0 = brrr.reshape %y : tensor<2x12x5xf32> -> tensor<2x3x4x5xf32>
  %1 = brrr.transpose %0 {perm = array<i64: 0, 3, 1, 2>} : tensor<2x3x4x5xf32> -> tensor<2x5x3x4xf32>
  %2 = brrr.reshape %1 : tensor<2x5x3x4xf32> -> tensor<2x5x12xf32>
  %3 = brrr.transpose %2 {perm = array<i64: 0, 2, 1>} : tensor<2x5x12xf32> -> tensor<2x12x5xf32>
  return %3 : tensor<2x12x5xf32>
}

// A run split and moved apart (3 and 4 swapped) is no transpose of the
// unsplit tensor: the three ops stay.
// CHECK-LABEL: func.func @split_runs_reordered_stay
// CHECK-NEXT: brrr.reshape
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.reshape
func.func @split_runs_reordered_stay(%y: tensor<2x12x5xf32>) -> tensor<2x5x12xf32> {
  %0 = brrr.reshape %y : tensor<2x12x5xf32> -> tensor<2x3x4x5xf32>
  %1 = brrr.transpose %0 {perm = array<i64: 0, 3, 2, 1>} : tensor<2x3x4x5xf32> -> tensor<2x5x4x3xf32>
  %2 = brrr.reshape %1 : tensor<2x5x4x3xf32> -> tensor<2x5x12xf32>
  return %2 : tensor<2x5x12xf32>
}

// torchvision's MultiheadAttention projects its tokens transposed to
// [s, b, e]: the product reads them as they are, its bias comes along, and
// its rows are transposed after it. A transpose that moves the contracted
// dimension, or a batched right operand, stays before the product.
// CHECK-LABEL: func.func @transpose_after_product
// CHECK-SAME: (%[[X:.+]]: tensor<2x5x4xf16>, %[[W:.+]]: tensor<4x6xf16>, %[[B:.+]]: tensor<5x4x6xf16>, %[[W5:.+]]: tensor<5x6xf16>, %[[C:.+]]: tensor<6xf16>)
// CHECK-NEXT: %[[L:.+]] = brrr.transpose %[[X]] {perm = array<i64: 1, 0, 2>}
// CHECK-NEXT: %[[M:.+]] = brrr.matmul %[[X]], %[[W]] : tensor<2x5x4xf16>, tensor<4x6xf16> -> tensor<2x5x6xf16>
// CHECK-NEXT: %[[A:.+]] = brrr.add %[[M]], %[[C]] : tensor<2x5x6xf16>, tensor<6xf16> -> tensor<2x5x6xf16>
// CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[A]] {perm = array<i64: 1, 0, 2>} : tensor<2x5x6xf16> -> tensor<5x2x6xf16>
// CHECK-NEXT: %[[K:.+]] = brrr.transpose %[[X]] {perm = array<i64: 0, 2, 1>}
// CHECK-NEXT: brrr.matmul %[[K]], %[[W5]] : tensor<2x4x5xf16>
// CHECK-NEXT: brrr.matmul %[[L]], %[[B]] : tensor<5x2x4xf16>, tensor<5x4x6xf16>
func.func @transpose_after_product(%x: tensor<2x5x4xf16>, %w: tensor<4x6xf16>, %b: tensor<5x4x6xf16>, %w56: tensor<5x6xf16>, %c: tensor<6xf16>) -> (tensor<5x2x6xf16>, tensor<2x4x6xf16>, tensor<5x2x6xf16>) {
  %0 = brrr.transpose %x {perm = array<i64: 1, 0, 2>} : tensor<2x5x4xf16> -> tensor<5x2x4xf16>
  %1 = brrr.matmul %0, %w : tensor<5x2x4xf16>, tensor<4x6xf16> -> tensor<5x2x6xf16>
  %b1 = brrr.add %1, %c : tensor<5x2x6xf16>, tensor<6xf16> -> tensor<5x2x6xf16>
  %2 = brrr.transpose %x {perm = array<i64: 0, 2, 1>} : tensor<2x5x4xf16> -> tensor<2x4x5xf16>
  %3 = brrr.matmul %2, %w56 : tensor<2x4x5xf16>, tensor<5x6xf16> -> tensor<2x4x6xf16>
  %4 = brrr.matmul %0, %b : tensor<5x2x4xf16>, tensor<5x4x6xf16> -> tensor<5x2x6xf16>
  return %b1, %3, %4 : tensor<5x2x6xf16>, tensor<2x4x6xf16>, tensor<5x2x6xf16>
}

// One constant index along an axis is a slice of it, reshaped to drop the
// axis (negative indices count from the end); other gathers stay.
// CHECK-LABEL: func.func @gather_of_one_index
// CHECK: %[[S:.+]] = brrr.slice %arg0 {sizes = array<i64: 1, 5, 4>, starts = array<i64: 2, 0, 0>, steps = array<i64: 1, 1, 1>} : tensor<3x5x4xf16> -> tensor<1x5x4xf16>
// CHECK-NEXT: %[[R:.+]] = brrr.reshape %[[S]] : tensor<1x5x4xf16> -> tensor<5x4xf16>
// CHECK: brrr.gather
// CHECK: brrr.gather
// CHECK-NOT: brrr.gather
func.func @gather_of_one_index(%x: tensor<3x5x4xf16>, %i: tensor<i64>) -> (tensor<5x4xf16>, tensor<5x4xf16>, tensor<3x5x2xf16>) {
  %last = brrr.constant dense<-1> : tensor<i64>
  %0 = brrr.gather %x, %last {axis = 0 : i64} : (tensor<3x5x4xf16>, tensor<i64>) -> tensor<5x4xf16>
  %1 = brrr.gather %x, %i {axis = 0 : i64} : (tensor<3x5x4xf16>, tensor<i64>) -> tensor<5x4xf16>
  %two = brrr.constant dense<[0, 3]> : tensor<2xi64>
  %2 = brrr.gather %x, %two {axis = 2 : i64} : (tensor<3x5x4xf16>, tensor<2xi64>) -> tensor<3x5x2xf16>
  return %0, %1, %2 : tensor<5x4xf16>, tensor<5x4xf16>, tensor<3x5x2xf16>
}

// A split that is not the merge undone is still a view of x permuted:
// [2, 4] merged to 8 and split to [4, 2] is x's leading elements read as
// [4, 2]. Reshapes that cut each other's dimensions ([6, 4] read as
// [4, 6]) keep all three ops.
// CHECK-LABEL: func.func @other_splits_stay
// CHECK-SAME: (%[[K:.+]]: tensor<2x4x128x16xf16>, %[[Y:.+]]: tensor<6x4xf32>)
// CHECK-NEXT: %[[V:.+]] = brrr.reshape %[[K]] : tensor<2x4x128x16xf16> -> tensor<4x2x128x16xf16>
// CHECK-NEXT: brrr.transpose %[[V]] {perm = array<i64: 0, 1, 3, 2>} : tensor<4x2x128x16xf16> -> tensor<4x2x16x128xf16>
// CHECK-NEXT: brrr.reshape %[[Y]]
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.reshape
func.func @other_splits_stay(%k: tensor<2x4x128x16xf16>, %y: tensor<6x4xf32>) -> (tensor<4x2x16x128xf16>, tensor<2x3x4xf32>) {
  %0 = brrr.reshape %k : tensor<2x4x128x16xf16> -> tensor<8x128x16xf16>
  %1 = brrr.transpose %0 {perm = array<i64: 0, 2, 1>} : tensor<8x128x16xf16> -> tensor<8x16x128xf16>
  %2 = brrr.reshape %1 : tensor<8x16x128xf16> -> tensor<4x2x16x128xf16>
  %3 = brrr.reshape %y : tensor<6x4xf32> -> tensor<4x6xf32>
  %4 = brrr.transpose %3 {perm = array<i64: 1, 0>} : tensor<4x6xf32> -> tensor<6x4xf32>
  %5 = brrr.reshape %4 : tensor<6x4xf32> -> tensor<2x3x4xf32>
  return %2, %5 : tensor<4x2x16x128xf16>, tensor<2x3x4xf32>
}

// -----

// torchvision's attention heads: the query [1, s, b, e] of a stacked
// projection is reshaped to [s, b * h, d], transposed to [b * h, s, d] and
// split to [b, h, s, d]. It is [s, b, h, d] permuted: x split, never
// merged, so the attention kernel can read it in place.
// CHECK-LABEL: func.func @torchvision_heads
// CHECK-SAME: (%[[Q:.+]]: tensor<1x197x2x64xf16>)
// CHECK-NEXT: %[[V:.+]] = brrr.reshape %[[Q]] : tensor<1x197x2x64xf16> -> tensor<197x2x2x32xf16>
// CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[V]] {perm = array<i64: 1, 2, 0, 3>} : tensor<197x2x2x32xf16> -> tensor<2x2x197x32xf16>
// CHECK-NEXT: return %[[T]]
func.func @torchvision_heads(%q: tensor<1x197x2x64xf16>) -> tensor<2x2x197x32xf16> {
  %0 = brrr.reshape %q : tensor<1x197x2x64xf16> -> tensor<197x4x32xf16>
  %1 = brrr.transpose %0 {perm = array<i64: 1, 0, 2>} : tensor<197x4x32xf16> -> tensor<4x197x32xf16>
  %2 = brrr.reshape %1 : tensor<4x197x32xf16> -> tensor<2x2x197x32xf16>
  return %2 : tensor<2x2x197x32xf16>
}

// -----

// A batch-1 export's K^T through [heads, s, d] of repeated key heads: the
// size-1 batch stays in front, so the keys are [1, h, s, d] transposed in
// their last two dimensions, as attention reads them.
// CHECK-LABEL: func.func @batch1_keys
// CHECK-SAME: (%[[K:.+]]: tensor<1x2x2x512x16xf16>)
// CHECK-NEXT: %[[V:.+]] = brrr.reshape %[[K]] : tensor<1x2x2x512x16xf16> -> tensor<1x4x512x16xf16>
// CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[V]] {perm = array<i64: 0, 1, 3, 2>} : tensor<1x4x512x16xf16> -> tensor<1x4x16x512xf16>
// CHECK-NEXT: return %[[T]]
func.func @batch1_keys(%k: tensor<1x2x2x512x16xf16>) -> tensor<1x4x16x512xf16> {
  %0 = brrr.reshape %k : tensor<1x2x2x512x16xf16> -> tensor<4x512x16xf16>
  %1 = brrr.transpose %0 {perm = array<i64: 0, 2, 1>} : tensor<4x512x16xf16> -> tensor<4x16x512xf16>
  %2 = brrr.reshape %1 : tensor<4x16x512xf16> -> tensor<1x4x16x512xf16>
  return %2 : tensor<1x4x16x512xf16>
}

// -----

// CHECK-LABEL: func.func @transpose_of_constant_folds
// CHECK-NEXT: brrr.constant dense<{{\[\[}}1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
func.func @transpose_of_constant_folds() -> tensor<3x2xi32> {
  %c = brrr.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = brrr.transpose %c {perm = array<i64: 1, 0>} : tensor<2x3xi32> -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @expand_of_splat_folds
// CHECK-NEXT: brrr.constant dense<1.500000e+00> : tensor<64x64xf32>
func.func @expand_of_splat_folds() -> tensor<64x64xf32> {
  %c = brrr.constant dense<1.5> : tensor<1x64xf32>
  %0 = brrr.expand %c : tensor<1x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// CHECK-LABEL: func.func @expand_of_constant_folds
// CHECK-NEXT: brrr.constant dense<{{\[\[}}1, 2], [1, 2]]> : tensor<2x2xi64>
func.func @expand_of_constant_folds() -> tensor<2x2xi64> {
  %c = brrr.constant dense<[1, 2]> : tensor<2xi64>
  %0 = brrr.expand %c : tensor<2xi64> -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// CHECK-LABEL: func.func @cast_truncates_toward_zero
// CHECK-NEXT: brrr.constant dense<[2, -2, 0]> : tensor<3xi64>
func.func @cast_truncates_toward_zero() -> tensor<3xi64> {
  %c = brrr.constant dense<[2.7, -2.7, 0.5]> : tensor<3xf32>
  %0 = brrr.cast %c : tensor<3xf32> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// CHECK-LABEL: func.func @identity_cast_folds
// CHECK-SAME: (%[[X:.+]]: tensor<3xf16>)
// CHECK-NEXT: return %[[X]]
func.func @identity_cast_folds(%x: tensor<3xf16>) -> tensor<3xf16> {
  %0 = brrr.cast %x : tensor<3xf16> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// -----

// A value widened exactly and narrowed back is itself (f16 through f32, i8
// through i32); narrowing first, or a widening that rounds (f16 to bf16),
// is not.
// CHECK-LABEL: func.func @cast_round_trip_folds
// CHECK-SAME: (%[[H:.+]]: tensor<3xf16>, %[[I:.+]]: tensor<3xi8>, %[[F:.+]]: tensor<3xf32>)
// CHECK-NEXT: %[[N:.+]] = brrr.cast %[[F]] : tensor<3xf32> -> tensor<3xf16>
// CHECK-NEXT: %[[W:.+]] = brrr.cast %[[N]] : tensor<3xf16> -> tensor<3xf32>
// CHECK-NEXT: %[[B:.+]] = brrr.cast %[[H]] : tensor<3xf16> -> tensor<3xbf16>
// CHECK-NEXT: %[[H2:.+]] = brrr.cast %[[B]] : tensor<3xbf16> -> tensor<3xf16>
// CHECK-NEXT: return %[[H]], %[[I]], %[[W]], %[[H2]]
func.func @cast_round_trip_folds(%h: tensor<3xf16>, %i: tensor<3xi8>, %f: tensor<3xf32>) -> (tensor<3xf16>, tensor<3xi8>, tensor<3xf32>, tensor<3xf16>) {
  %0 = brrr.cast %h : tensor<3xf16> -> tensor<3xf32>
  %1 = brrr.cast %0 : tensor<3xf32> -> tensor<3xf16>
  %2 = brrr.cast %i : tensor<3xi8> -> tensor<3xi32>
  %3 = brrr.cast %2 : tensor<3xi32> -> tensor<3xi8>
  %4 = brrr.cast %f : tensor<3xf32> -> tensor<3xf16>
  %5 = brrr.cast %4 : tensor<3xf16> -> tensor<3xf32>
  %6 = brrr.cast %h : tensor<3xf16> -> tensor<3xbf16>
  %7 = brrr.cast %6 : tensor<3xbf16> -> tensor<3xf16>
  return %1, %3, %5, %7 : tensor<3xf16>, tensor<3xi8>, tensor<3xf32>, tensor<3xf16>
}

// -----

// CHECK-LABEL: func.func @integer_arithmetic_folds_with_broadcast
// CHECK-NEXT: brrr.constant dense<{{\[\[}}2, 4], [4, 8]]> : tensor<2x2xi64>
// CHECK-NOT: brrr.mul
func.func @integer_arithmetic_folds_with_broadcast() -> tensor<2x2xi64> {
  %a = brrr.constant dense<[[1, 2], [2, 4]]> : tensor<2x2xi64>
  %b = brrr.constant dense<2> : tensor<i64>
  %0 = brrr.mul %a, %b : tensor<2x2xi64>, tensor<i64> -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// CHECK-LABEL: func.func @float_arithmetic_folds
// CHECK-NEXT: brrr.constant dense<[2.500000e+00, -1.000000e+00]> : tensor<2xf32>
func.func @float_arithmetic_folds() -> tensor<2xf32> {
  %a = brrr.constant dense<[5.0, -3.0]> : tensor<2xf32>
  %b = brrr.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %0 = brrr.div %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @integer_division_by_zero_does_not_fold
// CHECK: brrr.div
func.func @integer_division_by_zero_does_not_fold() -> tensor<2xi32> {
  %a = brrr.constant dense<[4, 6]> : tensor<2xi32>
  %b = brrr.constant dense<[2, 0]> : tensor<2xi32>
  %0 = brrr.div %a, %b : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @large_constants_do_not_fold
// CHECK: brrr.add
func.func @large_constants_do_not_fold() -> tensor<32768xf32> {
  %a = brrr.constant dense<1.0> : tensor<32768xf32>
  %0 = brrr.add %a, %a : tensor<32768xf32>, tensor<32768xf32> -> tensor<32768xf32>
  return %0 : tensor<32768xf32>
}

// -----

// CHECK-LABEL: func.func @compare_and_where_fold
// CHECK-NEXT: brrr.constant dense<[10, 2, 30]> : tensor<3xi64>
func.func @compare_and_where_fold() -> tensor<3xi64> {
  %a = brrr.constant dense<[1, 2, 3]> : tensor<3xi64>
  %b = brrr.constant dense<2> : tensor<i64>
  %m = brrr.compare ne %a, %b : tensor<3xi64>, tensor<i64> -> tensor<3xi1>
  %t = brrr.constant dense<[10, 20, 30]> : tensor<3xi64>
  %0 = brrr.where %m, %t, %a : tensor<3xi1>, tensor<3xi64>, tensor<3xi64> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// CHECK-LABEL: func.func @concat_of_constants_folds
// CHECK-NEXT: brrr.constant dense<[1, 2, 3]> : tensor<3xi64>
func.func @concat_of_constants_folds() -> tensor<3xi64> {
  %a = brrr.constant dense<[1]> : tensor<1xi64>
  %b = brrr.constant dense<[2, 3]> : tensor<2xi64>
  %0 = brrr.concat %a, %b {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// CHECK-LABEL: func.func @single_operand_concat_folds
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @single_operand_concat_folds(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = brrr.concat %x {axis = 0 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A shape lookup: Gather with a negative index counts from the end.
// CHECK-LABEL: func.func @gather_of_constants_folds
// CHECK-NEXT: brrr.constant dense<[8, 2]> : tensor<2xi64>
func.func @gather_of_constants_folds() -> tensor<2xi64> {
  %shape = brrr.constant dense<[2, 4, 8]> : tensor<3xi64>
  %idx = brrr.constant dense<[-1, 0]> : tensor<2xi64>
  %0 = brrr.gather %shape, %idx {axis = 0 : i64} : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @gather_out_of_range_does_not_fold
// CHECK: brrr.gather
func.func @gather_out_of_range_does_not_fold() -> tensor<1xi64> {
  %shape = brrr.constant dense<[2, 4, 8]> : tensor<3xi64>
  %idx = brrr.constant dense<[3]> : tensor<1xi64>
  %0 = brrr.gather %shape, %idx {axis = 0 : i64} : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  return %0 : tensor<1xi64>
}

// -----

// CHECK-LABEL: func.func @reversing_slice_of_constant_folds
// CHECK-NEXT: brrr.constant dense<[4, 2]> : tensor<2xi64>
func.func @reversing_slice_of_constant_folds() -> tensor<2xi64> {
  %c = brrr.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %0 = brrr.slice %c {sizes = array<i64: 2>, starts = array<i64: 3>, steps = array<i64: -2>} : tensor<4xi64> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @full_slice_folds
// CHECK-SAME: (%[[X:.+]]: tensor<4x2xf32>)
// CHECK-NEXT: return %[[X]]
func.func @full_slice_folds(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = brrr.slice %x {sizes = array<i64: 4, 2>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<4x2xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Operations on runtime values stay.
// CHECK-LABEL: func.func @runtime_values_stay
// CHECK: brrr.add
// CHECK: brrr.transpose
func.func @runtime_values_stay(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = brrr.add %x, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = brrr.transpose %0 {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// -----

// The truncated remainder of small constants folds, with the sign of x.
// CHECK-LABEL: func.func @rem_of_constants_folds
// CHECK-NEXT: brrr.constant dense<[1, -1, 1, -1]> : tensor<4xi64>
func.func @rem_of_constants_folds() -> tensor<4xi64> {
  %x = brrr.constant dense<[7, -7, 7, -7]> : tensor<4xi64>
  %y = brrr.constant dense<[3, 3, -3, -3]> : tensor<4xi64>
  %0 = brrr.rem %x, %y : tensor<4xi64>, tensor<4xi64> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// x != x is true exactly at NaN: IsNaN of a constant folds.
// CHECK-LABEL: func.func @isnan_of_constant_folds
// CHECK-NEXT: %[[C:.+]] = brrr.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-NEXT: return %[[C]]
func.func @isnan_of_constant_folds() -> tensor<3xi1> {
  %a = brrr.constant dense<[0x7FC00000, 0x7F800000, 1.0]> : tensor<3xf32>
  %0 = brrr.compare ne %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

// A scatter of a weight blob into a constant folds (exporters build masks
// this way): [0, 0, 0, 0] with blob [7, 9] at 2 and -1 is [0, 0, 7, 9].
// CHECK-LABEL: func.func @scatter_nd_of_blob_folds
// CHECK-NEXT: %[[C:.+]] = brrr.constant dense<[0.000000e+00, 0.000000e+00, 7.000000e+00, 9.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @scatter_nd_of_blob_folds() -> tensor<4xf32> {
  %d = brrr.constant dense<0.0> : tensor<4xf32>
  %i = brrr.constant dense<[[2], [-1]]> : tensor<2x1xi64>
  %u = brrr.constant dense_resource<upd> : tensor<2xf32>
  %0 = brrr.scatter_nd none %d, %i, %u : (tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      upd: "0x040000000000E04000001041"
    }
  }
#-}

// -----

// An index out of range writes nothing: only the 5 at 0 lands.
// CHECK-LABEL: func.func @scatter_nd_out_of_range_writes_nothing
// CHECK-NEXT: %[[C:.+]] = brrr.constant dense<[5, 1, 1]> : tensor<3xi32>
// CHECK-NEXT: return %[[C]]
func.func @scatter_nd_out_of_range_writes_nothing() -> tensor<3xi32> {
  %d = brrr.constant dense<1> : tensor<3xi32>
  %i = brrr.constant dense<[[0], [3], [-4]]> : tensor<3x1xi64>
  %u = brrr.constant dense<[5, 6, 7]> : tensor<3xi32>
  %0 = brrr.scatter_nd none %d, %i, %u : (tensor<3xi32>, tensor<3x1xi64>, tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Integer scatter reductions use the type's own arithmetic: i8 add wraps
// (100 + 100 = -56) and unsigned max compares unsigned (200 > 3).
// CHECK-LABEL: func.func @scatter_elements_integer_arithmetic
// CHECK-DAG: brrr.constant dense<[-56, 0]> : tensor<2xi8>
// CHECK-DAG: brrr.constant dense<[200, 0]> : tensor<2xui8>
func.func @scatter_elements_integer_arithmetic() -> (tensor<2xi8>, tensor<2xui8>) {
  %d = brrr.constant dense<[100, 0]> : tensor<2xi8>
  %i = brrr.constant dense<[0]> : tensor<1xi64>
  %u = brrr.constant dense<[100]> : tensor<1xi8>
  %0 = brrr.scatter_elements add %d, %i, %u {axis = 0 : i64} : (tensor<2xi8>, tensor<1xi64>, tensor<1xi8>) -> tensor<2xi8>
  %du = brrr.constant dense<[3, 0]> : tensor<2xui8>
  %uu = brrr.constant dense<[200]> : tensor<1xui8>
  %1 = brrr.scatter_elements max %du, %i, %uu {axis = 0 : i64} : (tensor<2xui8>, tensor<1xi64>, tensor<1xui8>) -> tensor<2xui8>
  return %0, %1 : tensor<2xi8>, tensor<2xui8>
}

// -----

// A constant gather_elements index out of range is left to the kernel,
// which clamps; the folder never invents a value.
// CHECK-LABEL: func.func @gather_elements_out_of_range_does_not_fold
// CHECK: brrr.gather_elements
func.func @gather_elements_out_of_range_does_not_fold() -> tensor<1xf32> {
  %d = brrr.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %i = brrr.constant dense<[2]> : tensor<1xi64>
  %0 = brrr.gather_elements %d, %i {axis = 0 : i64} : (tensor<2xf32>, tensor<1xi64>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

// gather_nd with batch dimensions folds: row b takes column i[b].
// CHECK-LABEL: func.func @gather_nd_batch_folds
// CHECK-NEXT: %[[C:.+]] = brrr.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]]
func.func @gather_nd_batch_folds() -> tensor<2xi64> {
  %d = brrr.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %i = brrr.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %0 = brrr.gather_nd %d, %i {batch_dims = 1 : i64} : (tensor<2x2xi64>, tensor<2x1xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
