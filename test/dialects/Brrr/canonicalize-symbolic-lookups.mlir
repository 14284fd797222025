// RUN: brrr-opt %s -split-input-file --canonicalize | FileCheck %s
// What the exporters write for a transformer's embeddings and mask over a
// symbolic sequence, made views and broadcasts: token type ids gathered
// from a buffer of zeros are that zero, filled; position embeddings looked
// up by `arange(max)[:seq]` are the table's first rows, sliced in place;
// `arange(seq) >= 0` is true everywhere, and a where on it picks its first
// side; two expands are one, and a sum broadcasts what an expand would.

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 32>]} {
  // CHECK-LABEL: func.func @embeddings
  // CHECK-SAME: (%[[IDS:.+]]: tensor<?x?xi64
  func.func @embeddings(%ids: tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>, %words: tensor<64x16xf32>, %types: tensor<2x16xf32>, %positions: tensor<32x16xf32>) -> tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>> {
    %range = brrr.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]]> : tensor<1x32xi64>
    %zeros = brrr.constant dense<0> : tensor<1x32xi64>
    %pos = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (1, s1)>, sizes = array<i64: 1, -9223372036854775808>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<1x32xi64> -> tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>>
    %tt = brrr.gather_elements %zeros, %pos {axis = 1 : i64} : (tensor<1x32xi64>, tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>>) -> tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>>
    %ttb = brrr.expand %tt : tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>> -> tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %w = brrr.gather %words, %ids {axis = 0 : i64} : (tensor<64x16xf32>, tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>) -> tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>
    %t = brrr.gather %types, %ttb {axis = 0 : i64} : (tensor<2x16xf32>, tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>) -> tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>
    %p = brrr.gather %positions, %pos {axis = 0 : i64} : (tensor<32x16xf32>, tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>>) -> tensor<1x?x16xf32, #brrr.extents<()[s0, s1] -> (1, s1, 16)>>
    %a = brrr.add %w, %t : tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>, tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>> -> tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>
    %y = brrr.add %a, %p : tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>, tensor<1x?x16xf32, #brrr.extents<()[s0, s1] -> (1, s1, 16)>> -> tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>
    return %y : tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>
  }
  // The token types: row 0 of the table, which the sum broadcasts.
  // CHECK: %[[ROW:.+]] = brrr.slice %{{.+}} {sizes = array<i64: 1, 16>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<2x16xf32> -> tensor<1x16xf32>
  // CHECK: %[[TYPES:.+]] = brrr.reshape %[[ROW]] : tensor<1x16xf32> -> tensor<1x1x16xf32>
  // The positions: the table's first seq rows, in place.
  // CHECK: %[[ROWS:.+]] = brrr.slice %{{.+}} {extents = #brrr.extents<()[s0, s1] -> (s1, 16)>, sizes = array<i64: -9223372036854775808, 16>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<32x16xf32> -> tensor<?x16xf32
  // CHECK: %[[POS:.+]] = brrr.reshape %[[ROWS]] : {{.+}} -> tensor<1x?x16xf32
  // CHECK: %[[SUM:.+]] = brrr.add %{{.+}}, %[[TYPES]] : {{.+}}, tensor<1x1x16xf32>
  // CHECK: brrr.add %[[SUM]], %[[POS]]
  // CHECK-NOT: brrr.expand
  // CHECK-NOT: brrr.gather_elements
  // CHECK-NOT: brrr.gather %{{.+}}, %{{.+}} {axis = 0 : i64} : (tensor<32x16xf32>
}

// -----

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 32>]} {
  // CHECK-LABEL: func.func @mask
  // CHECK-SAME: (%[[S:.+]]: tensor<?x2x?x?xf32
  // CHECK-NOT: brrr.compare
  // CHECK-NOT: brrr.where
  // CHECK: %[[Z:.+]] = brrr.constant dense<0.000000e+00> : tensor<f32>
  // CHECK: brrr.add %[[S]], %[[Z]]
  // CHECK-NOT: brrr.expand
  func.func @mask(%scores: tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>) -> tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>> {
    %range = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : tensor<32xi64>
    %zero = brrr.constant dense<0> : tensor<i64>
    %keep = brrr.constant dense<0.0> : tensor<f32>
    %drop = brrr.constant dense<-3.40282347E+38> : tensor<f32>
    %s = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<32xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %r = brrr.reshape %s : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>
    %c = brrr.compare ge %r, %zero : tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>, tensor<i64> -> tensor<1x1x?x1xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>
    %e = brrr.expand %c : tensor<1x1x?x1xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>> -> tensor<?x1x?x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>>
    %m = brrr.where %e, %keep, %drop : tensor<?x1x?x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>>, tensor<f32>, tensor<f32> -> tensor<?x1x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>>
    %y = brrr.add %scores, %m : tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<?x1x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>> -> tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
    return %y : tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  }
}

// -----

// Neither fold where it would not hold: a comparison with two outcomes
// stays, and so does a lookup of a splat by an index outside the table
// (the kernel reports it).
module attributes {brrr.dims = [#brrr.dim<"seq", 1, 4>]} {
  // CHECK-LABEL: func.func @kept
  // CHECK: brrr.compare ge
  // CHECK: brrr.gather_elements
  func.func @kept() -> (tensor<?xi1, #brrr.extents<()[s0] -> (s0)>>, tensor<1x?xi64, #brrr.extents<()[s0] -> (1, s0)>>) {
    %range = brrr.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
    %two = brrr.constant dense<2> : tensor<i64>
    %s = brrr.slice %range {extents = #brrr.extents<()[s0] -> (s0)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<4xi64> -> tensor<?xi64, #brrr.extents<()[s0] -> (s0)>>
    %c = brrr.compare ge %s, %two : tensor<?xi64, #brrr.extents<()[s0] -> (s0)>>, tensor<i64> -> tensor<?xi1, #brrr.extents<()[s0] -> (s0)>>
    %bad = brrr.constant dense<[[0, 7, 1, 2]]> : tensor<1x4xi64>
    %zeros = brrr.constant dense<0> : tensor<1x4xi64>
    %i = brrr.slice %bad {extents = #brrr.extents<()[s0] -> (1, s0)>, sizes = array<i64: 1, -9223372036854775808>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<1x4xi64> -> tensor<1x?xi64, #brrr.extents<()[s0] -> (1, s0)>>
    %g = brrr.gather_elements %zeros, %i {axis = 1 : i64} : (tensor<1x4xi64>, tensor<1x?xi64, #brrr.extents<()[s0] -> (1, s0)>>) -> tensor<1x?xi64, #brrr.extents<()[s0] -> (1, s0)>>
    return %c, %g : tensor<?xi1, #brrr.extents<()[s0] -> (s0)>>, tensor<1x?xi64, #brrr.extents<()[s0] -> (1, s0)>>
  }
}

// -----

// transformers' padding mask as the dynamo exporter writes it: the mask
// [batch, seq] looked up at (arange(batch), arange(seq)) over a [batch, 1,
// 1, seq] grid is a view of it; `and` with a filled true is the other
// side; the select runs over the mask's own [batch, 1, 1, seq] elements
// and the scores broadcast it, so nothing is filled to [batch, 1, seq,
// seq].
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 32>]} {
  // CHECK-LABEL: func.func @padding
  // CHECK-SAME: (%[[S:.+]]: tensor<?x2x?x?xf32{{.+}}, %[[M:.+]]: tensor<?x?xi64
  // CHECK: %[[B:.+]] = brrr.cast %[[M]]
  // CHECK: %[[V:.+]] = brrr.reshape %[[B]] : {{.+}} -> tensor<?x1x1x?xi1
  // CHECK: %[[W:.+]] = brrr.where %[[V]], %{{.+}}, %{{.+}} : tensor<?x1x1x?xi1, {{.+}} -> tensor<?x1x1x?xf32
  // CHECK: brrr.add %[[S]], %[[W]] : tensor<?x2x?x?xf32, {{.+}}, tensor<?x1x1x?xf32
  // CHECK-NOT: brrr.gather_nd
  // CHECK-NOT: brrr.and
  func.func @padding(%scores: tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, %mask: tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>) -> tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>> {
    %true = brrr.constant dense<true> : tensor<1x1x1x1xi1>
    %rb = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
    %rs = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : tensor<32xi64>
    %keep = brrr.constant dense<0.0> : tensor<f32>
    %drop = brrr.constant dense<-3.40282347E+38> : tensor<f32>
    %m = brrr.cast %mask : tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %b = brrr.slice %rb {extents = #brrr.extents<()[s0] -> (s0)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<8xi64> -> tensor<?xi64, #brrr.extents<()[s0] -> (s0)>>
    %s = brrr.slice %rs {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<32xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %b4 = brrr.reshape %b : tensor<?xi64, #brrr.extents<()[s0] -> (s0)>> -> tensor<?x1x1x1xi64, #brrr.extents<()[s0] -> (s0, 1, 1, 1)>>
    %s4 = brrr.reshape %s : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>
    %bg = brrr.expand %b4 : tensor<?x1x1x1xi64, #brrr.extents<()[s0] -> (s0, 1, 1, 1)>> -> tensor<?x1x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>>
    %sg = brrr.expand %s4 : tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>> -> tensor<?x1x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>>
    %b5 = brrr.reshape %bg : tensor<?x1x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>> -> tensor<?x1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 1)>>
    %s5 = brrr.reshape %sg : tensor<?x1x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>> -> tensor<?x1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 1)>>
    %tuples = brrr.concat %b5, %s5 {axis = 4 : i64} : (tensor<?x1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 1)>>, tensor<?x1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 1)>>) -> tensor<?x1x1x?x2xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 2)>>
    %pad = brrr.gather_nd %m, %tuples {batch_dims = 0 : i64} : (tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s0, s1)>>, tensor<?x1x1x?x2xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 2)>>) -> tensor<?x1x1x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>>
    %t = brrr.expand %true : tensor<1x1x1x1xi1> -> tensor<1x1x?x1xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>
    %both = brrr.and %t, %pad : tensor<1x1x?x1xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>, tensor<?x1x1x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>> -> tensor<?x1x?x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>>
    %bias = brrr.where %both, %keep, %drop : tensor<?x1x?x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>>, tensor<f32>, tensor<f32> -> tensor<?x1x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>>
    %y = brrr.add %scores, %bias : tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<?x1x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>> -> tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
    return %y : tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  }
}

// -----

// The TorchScript exporter's padding mask: [batch, seq] flattened to [batch
// * seq, 1] and gathered at arange(batch) * seq + arange(seq) over a
// [batch, 1, 1, seq] grid: every element in order, a view of the mask.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 32>]} {
  // CHECK-LABEL: func.func @flattened
  // CHECK-SAME: (%[[M:.+]]: tensor<?x?xi1
  // CHECK: %[[V:.+]] = brrr.reshape %[[M]] : {{.+}} -> tensor<?x1x1x?x1xi1
  // CHECK-NEXT: return %[[V]]
  func.func @flattened(%mask: tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s0, s1)>>) -> tensor<?x1x1x?x1xi1, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 1)>> {
    %rb = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
    %rs = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : tensor<32xi64>
    %seq = brrr.symbolic_constant <()[s0, s1] -> (s1)> -> tensor<1xi64>
    %flat = brrr.reshape %mask : tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x1xi1, #brrr.extents<()[s0, s1] -> (s0 * s1, 1)>>
    %b = brrr.slice %rb {extents = #brrr.extents<()[s0] -> (s0)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<8xi64> -> tensor<?xi64, #brrr.extents<()[s0] -> (s0)>>
    %s = brrr.slice %rs {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<32xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %b4 = brrr.reshape %b : tensor<?xi64, #brrr.extents<()[s0] -> (s0)>> -> tensor<?x1x1x1xi64, #brrr.extents<()[s0] -> (s0, 1, 1, 1)>>
    %s4 = brrr.reshape %s : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>
    %row = brrr.mul %b4, %seq : tensor<?x1x1x1xi64, #brrr.extents<()[s0] -> (s0, 1, 1, 1)>>, tensor<1xi64> -> tensor<?x1x1x1xi64, #brrr.extents<()[s0] -> (s0, 1, 1, 1)>>
    %at = brrr.add %s4, %row : tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>, tensor<?x1x1x1xi64, #brrr.extents<()[s0] -> (s0, 1, 1, 1)>> -> tensor<?x1x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>>
    %g = brrr.gather %flat, %at {axis = 0 : i64} : (tensor<?x1xi1, #brrr.extents<()[s0, s1] -> (s0 * s1, 1)>>, tensor<?x1x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>>) -> tensor<?x1x1x?x1xi1, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 1)>>
    return %g : tensor<?x1x1x?x1xi1, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 1)>>
  }
}

// -----

// Not a view where the stride is not the next dimension's extent: the
// lookup stays.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 32>]} {
  // CHECK-LABEL: func.func @strided
  // CHECK: brrr.gather
  func.func @strided(%mask: tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s0, s1)>>) -> tensor<?x1x1x?x1xi1, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 1)>> {
    %rb = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>
    %rs = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : tensor<32xi64>
    %two = brrr.constant dense<2> : tensor<1xi64>
    %flat = brrr.reshape %mask : tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x1xi1, #brrr.extents<()[s0, s1] -> (s0 * s1, 1)>>
    %b = brrr.slice %rb {extents = #brrr.extents<()[s0] -> (s0)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<8xi64> -> tensor<?xi64, #brrr.extents<()[s0] -> (s0)>>
    %s = brrr.slice %rs {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<32xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %b4 = brrr.reshape %b : tensor<?xi64, #brrr.extents<()[s0] -> (s0)>> -> tensor<?x1x1x1xi64, #brrr.extents<()[s0] -> (s0, 1, 1, 1)>>
    %s4 = brrr.reshape %s : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>
    %row = brrr.mul %b4, %two : tensor<?x1x1x1xi64, #brrr.extents<()[s0] -> (s0, 1, 1, 1)>>, tensor<1xi64> -> tensor<?x1x1x1xi64, #brrr.extents<()[s0] -> (s0, 1, 1, 1)>>
    %at = brrr.add %s4, %row : tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>, tensor<?x1x1x1xi64, #brrr.extents<()[s0] -> (s0, 1, 1, 1)>> -> tensor<?x1x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>>
    %g = brrr.gather %flat, %at {axis = 0 : i64} : (tensor<?x1xi1, #brrr.extents<()[s0, s1] -> (s0 * s1, 1)>>, tensor<?x1x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>>) -> tensor<?x1x1x?x1xi1, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 1)>>
    return %g : tensor<?x1x1x?x1xi1, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1, 1)>>
  }
}

// -----

// Each sequence's last token ([batch, seq, d] at (arange(batch), last)):
// with one batch dimension, and as tuples stacked from their parts
// (torch's advanced indexing). The table is symbolic past its first
// indexed dimension, so the lookup becomes one along the first axis of
// the table viewed as [batch * seq, d], at batch * seq + last: the batch
// positions are a slice of 0 .. 7, the sequence's length is a symbolic
// extent, and a negative component counts from the end (last + seq).
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 32>]} {
  // CHECK-LABEL: func.func @lastTokenByBatch
  // CHECK-SAME: (%[[X:.+]]: tensor<?x?x16xf32{{.+}}, %[[LAST:.+]]: tensor<?x1xi64
  // CHECK-DAG: %[[ZERO:.+]] = brrr.constant dense<0> : tensor<i64>
  // CHECK-DAG: %[[SEQ:.+]] = brrr.symbolic_constant <()[s0, s1] -> (s1)> -> tensor<i64>
  // CHECK-DAG: %[[ROWS:.+]] = brrr.constant dense<{{\[}}[0], [1], [2], [3], [4], [5], [6], [7]]> : tensor<8x1xi64>
  // CHECK: %[[B:.+]] = brrr.slice %[[ROWS]] {extents = #brrr.extents<()[s0] -> (s0, 1)>
  // CHECK: %[[BS:.+]] = brrr.mul %[[B]], %[[SEQ]]
  // CHECK: %[[NEG:.+]] = brrr.compare lt %[[LAST]], %[[ZERO]]
  // CHECK: %[[END:.+]] = brrr.add %[[LAST]], %[[SEQ]]
  // CHECK: %[[POS:.+]] = brrr.where %[[NEG]], %[[END]], %[[LAST]]
  // CHECK: %[[AT:.+]] = brrr.add %[[BS]], %[[POS]]
  // CHECK: %[[I:.+]] = brrr.reshape %[[AT]] : {{.+}} -> tensor<?xi64, #brrr.extents<()[s0] -> (s0)>>
  // CHECK: %[[FLAT:.+]] = brrr.reshape %[[X]] : {{.+}} -> tensor<?x16xf32, #brrr.extents<()[s0, s1] -> (s0 * s1, 16)>>
  // CHECK: brrr.gather %[[FLAT]], %[[I]] {axis = 0 : i64}
  // CHECK-NOT: brrr.gather_nd
  func.func @lastTokenByBatch(%x: tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>, %last: tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>) -> tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>> {
    %y = brrr.gather_nd %x, %last {batch_dims = 1 : i64} : (tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>, tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>) -> tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
    return %y : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
  }

  // CHECK-LABEL: func.func @lastTokenByTuples
  // CHECK-SAME: (%[[X:.+]]: tensor<?x?x16xf32{{.+}}, %[[B:.+]]: tensor<?x1xi64{{.+}}, %[[LAST:.+]]: tensor<?x1xi64
  // CHECK-DAG: %[[SEQ:.+]] = brrr.symbolic_constant <()[s0, s1] -> (s1)> -> tensor<i64>
  // CHECK-DAG: %[[BATCH:.+]] = brrr.symbolic_constant <()[s0] -> (s0)> -> tensor<i64>
  // CHECK: brrr.compare lt %[[B]]
  // CHECK: brrr.add %[[B]], %[[BATCH]]
  // CHECK: %[[BW:.+]] = brrr.where
  // CHECK: brrr.mul %[[BW]], %[[SEQ]]
  // CHECK: brrr.compare lt %[[LAST]]
  // CHECK: brrr.add %[[LAST]], %[[SEQ]]
  // CHECK-NOT: brrr.concat
  // CHECK: brrr.gather {{.+}} {axis = 0 : i64}
  // CHECK-NOT: brrr.gather_nd
  func.func @lastTokenByTuples(%x: tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>, %b: tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>, %last: tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>) -> tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>> {
    %t = brrr.concat %b, %last {axis = 1 : i64} : (tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>, tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>) -> tensor<?x2xi64, #brrr.extents<()[s0] -> (s0, 2)>>
    %y = brrr.gather_nd %x, %t {batch_dims = 0 : i64} : (tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>, tensor<?x2xi64, #brrr.extents<()[s0] -> (s0, 2)>>) -> tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
    return %y : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
  }

  // Batch dimensions over a table symbolic in its first dimension only
  // (a token per row of [batch, 16, 8]): the flattened table's rows are
  // batch * 16, the batch's stride the constant 16.
  // CHECK-LABEL: func.func @byBatchStaticRows
  // CHECK: %[[SIXTEEN:.+]] = brrr.constant dense<16> : tensor<i64>
  // CHECK: brrr.mul %{{.+}}, %[[SIXTEEN]]
  // CHECK: brrr.reshape %{{.+}} -> tensor<?x8xf32, #brrr.extents<()[s0] -> (s0 * 16, 8)>>
  // CHECK: brrr.gather
  // CHECK-NOT: brrr.gather_nd
  func.func @byBatchStaticRows(%x: tensor<?x16x8xf32, #brrr.extents<()[s0] -> (s0, 16, 8)>>, %i: tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>) -> tensor<?x8xf32, #brrr.extents<()[s0] -> (s0, 8)>> {
    %y = brrr.gather_nd %x, %i {batch_dims = 1 : i64} : (tensor<?x16x8xf32, #brrr.extents<()[s0] -> (s0, 16, 8)>>, tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>) -> tensor<?x8xf32, #brrr.extents<()[s0] -> (s0, 8)>>
    return %y : tensor<?x8xf32, #brrr.extents<()[s0] -> (s0, 8)>>
  }

  // A table symbolic in its first dimension only is read as it is.
  // CHECK-LABEL: func.func @firstDimensionOnly
  // CHECK: brrr.gather_nd
  func.func @firstDimensionOnly(%x: tensor<?x16xf32, #brrr.extents<()[s0, s1] -> (s1, 16)>>, %i: tensor<4x1xi64>) -> tensor<4x16xf32> {
    %y = brrr.gather_nd %x, %i {batch_dims = 0 : i64} : (tensor<?x16xf32, #brrr.extents<()[s0, s1] -> (s1, 16)>>, tensor<4x1xi64>) -> tensor<4x16xf32>
    return %y : tensor<4x16xf32>
  }
}
