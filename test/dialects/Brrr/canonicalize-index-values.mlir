// RUN: brrr-opt %s -split-input-file --canonicalize | FileCheck %s
// Index arithmetic over a symbolic sequence (IndexValues): what is one
// value at every shape folds to that value, filled; what varies stays.

// A decoder export's packed-sequence check (transformers' causal mask):
// positions p = arange(seq), q = concat(p[:, :1] - 1, p), and
// cumsum(q[:, 1:] - q[:, :-1] != 1) compared between query and key. The
// differences are 1 everywhere, so the sums are 0 and the comparison is
// true; the causal comparison, which varies, is all that is left.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 16>]} {
  // CHECK-LABEL: func.func @packed_sequences
  // CHECK: %[[R:.+]] = brrr.slice
  // CHECK-DAG: %[[I:.+]] = brrr.reshape %[[R]] : {{.+}} -> tensor<1x1x?x1xi64
  // CHECK-DAG: %[[J:.+]] = brrr.reshape %[[R]] : {{.+}} -> tensor<1x1x1x?xi64
  // CHECK: %[[C:.+]] = brrr.compare le %[[J]], %[[I]]
  // CHECK-NEXT: %[[E:.+]] = brrr.expand %[[C]]
  // CHECK-NEXT: return %[[E]]
  // CHECK-NOT: brrr.concat
  // CHECK-NOT: brrr.reduce
  func.func @packed_sequences() -> tensor<?x1x?x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>> {
    %range = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>
    %one = brrr.constant dense<1> : tensor<i64>
    %zero = brrr.constant dense<0> : tensor<i64>
    %r = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<16xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %p1 = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>>
    %p = brrr.expand %p1 : tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>> -> tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %first = brrr.slice %p {extents = #brrr.extents<()[s0] -> (s0, 1)>, sizes = array<i64: -9223372036854775808, 1>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>
    %before = brrr.sub %first, %one : tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>, tensor<i64> -> tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>
    %q = brrr.concat %before, %p {axis = 1 : i64} : (tensor<?x1xi64, #brrr.extents<()[s0] -> (s0, 1)>>, tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>) -> tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1 + 1)>>
    %lo = brrr.slice %q {extents = #brrr.extents<()[s0, s1] -> (s0, s1)>, sizes = array<i64: -9223372036854775808, -9223372036854775808>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1 + 1)>> -> tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %hi = brrr.slice %q {extents = #brrr.extents<()[s0, s1] -> (s0, s1)>, sizes = array<i64: -9223372036854775808, -9223372036854775808>, starts = array<i64: 0, 1>, steps = array<i64: 1, 1>} : tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1 + 1)>> -> tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %d = brrr.sub %hi, %lo : tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>, tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %step = brrr.compare eq %d, %one : tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>, tensor<i64> -> tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %jump = brrr.not %step : tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %n = brrr.cast %jump : tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %row = brrr.reshape %n : tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, s1)>>
    %ci = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<?x1xi64, #brrr.extents<()[s0, s1] -> (s1, 1)>>
    %cj = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>>
    %upto = brrr.compare le %cj, %ci : tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>>, tensor<?x1xi64, #brrr.extents<()[s0, s1] -> (s1, 1)>> -> tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s1, s1)>>
    %masked = brrr.where %upto, %row, %zero : tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s1, s1)>>, tensor<?x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, s1)>>, tensor<i64> -> tensor<?x?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1, s1)>>
    %cum = brrr.reduce sum %masked {axes = array<i64: 2>, keepdims = false} : tensor<?x?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1, s1)>> -> tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>>
    %qi = brrr.reshape %cum : tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x1x?x1xi64, #brrr.extents<()[s0, s1] -> (s0, 1, s1, 1)>>
    %kj = brrr.reshape %cum : tensor<?x?xi64, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?x1x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>>
    %same = brrr.compare eq %qi, %kj : tensor<?x1x?x1xi64, #brrr.extents<()[s0, s1] -> (s0, 1, s1, 1)>>, tensor<?x1x1x?xi64, #brrr.extents<()[s0, s1] -> (s0, 1, 1, s1)>> -> tensor<?x1x?x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>>
    %i = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>
    %j = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>
    %causal = brrr.compare le %j, %i : tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>, tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>> -> tensor<1x1x?x?xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>
    %mask = brrr.and %causal, %same : tensor<1x1x?x?xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>, tensor<?x1x?x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>> -> tensor<?x1x?x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>>
    return %mask : tensor<?x1x?x?xi1, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>>
  }
}

// -----

// Comparisons the bounds decide at every shape: positions below the
// largest sequence, and none at or past it; the difference of two
// positions over one symbol. What the bounds leave open stays.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 16>]} {
  // CHECK-LABEL: func.func @bounds
  // CHECK-DAG: %[[T:.+]] = brrr.constant dense<true> : tensor<1xi1>
  // CHECK-DAG: %[[F:.+]] = brrr.constant dense<false> : tensor<1xi1>
  // CHECK-DAG: %[[OPEN:.+]] = brrr.compare lt %{{.+}}, %{{.+}} : {{.+}}, tensor<i64> -> tensor<?xi1
  // CHECK-DAG: brrr.expand %[[T]]
  // CHECK-DAG: brrr.expand %[[F]]
  // CHECK: return
  func.func @bounds() -> (tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>) {
    %range = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>
    %sixteen = brrr.constant dense<16> : tensor<i64>
    %eight = brrr.constant dense<8> : tensor<i64>
    %r = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<16xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %below = brrr.compare lt %r, %sixteen : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<i64> -> tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>
    %past = brrr.compare ge %r, %sixteen : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<i64> -> tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>
    %open = brrr.compare lt %r, %eight : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<i64> -> tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>
    return %below, %past, %open : tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>
  }
}

// -----

// What must not fold. In i8, sixteen times a position past 7 wraps
// negative, so `16 * p >= 0` holds mathematically but not in the model's
// arithmetic; a lookup that may read past its table (12 rows, positions up
// to 15) is no known value; pieces that do not continue one another (-5,
// then 0, 1, ...) are no run, though the second alone is `p - 1 >= -1`.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 16>]} {
  // CHECK-LABEL: func.func @unknown
  // CHECK: brrr.compare ge
  // CHECK: brrr.gather
  // CHECK: brrr.compare eq
  // CHECK: brrr.concat
  // CHECK: brrr.compare ge
  func.func @unknown() -> (tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1 + 1)>>) {
    %range = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>
    %zero = brrr.constant dense<0> : tensor<i64>
    %r = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<16xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %small = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi8>
    %b = brrr.slice %small {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<16xi8> -> tensor<?xi8, #brrr.extents<()[s0, s1] -> (s1)>>
    %sixteen = brrr.constant dense<16> : tensor<i8>
    %b16 = brrr.mul %b, %sixteen : tensor<?xi8, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<i8> -> tensor<?xi8, #brrr.extents<()[s0, s1] -> (s1)>>
    %bz = brrr.constant dense<0> : tensor<i8>
    %wraps = brrr.compare ge %b16, %bz : tensor<?xi8, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<i8> -> tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>
    %table = brrr.constant dense<0> : tensor<12xi64>
    %g = brrr.gather %table, %r {axis = 0 : i64} : (tensor<12xi64>, tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>) -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %past = brrr.compare eq %g, %zero : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<i64> -> tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>
    %m5 = brrr.constant dense<-5> : tensor<1xi64>
    %m1 = brrr.constant dense<-1> : tensor<i64>
    %c = brrr.concat %m5, %r {axis = 0 : i64} : (tensor<1xi64>, tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>) -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1 + 1)>>
    %cz = brrr.compare ge %c, %m1 : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1 + 1)>>, tensor<i64> -> tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1 + 1)>>
    return %wraps, %past, %cz : tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1 + 1)>>
  }
}

// -----

// A lookup by index tuples (0, p) into a table whose element is its column:
// position p, at every shape, when the tuples stay inside the table (16
// columns for positions up to 15); a table of 12 columns may be read past
// its end, and the lookup stays.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 16>]} {
  // CHECK-LABEL: func.func @tuples
  // CHECK: %[[T:.+]] = brrr.constant dense<true> : tensor<1xi1>
  // CHECK: %[[E:.+]] = brrr.expand %[[T]]
  // CHECK: %[[G:.+]] = brrr.gather_nd
  // CHECK: %[[C:.+]] = brrr.compare eq %[[G]]
  // CHECK: return %[[E]], %[[C]]
  func.func @tuples() -> (tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>) {
    %range = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi64>
    %cols = brrr.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]> : tensor<2x16xi64>
    %short = brrr.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]> : tensor<2x12xi64>
    %zero = brrr.constant dense<0> : tensor<1x1xi64>
    %r = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<16xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %col = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<?x1xi64, #brrr.extents<()[s0, s1] -> (s1, 1)>>
    %row = brrr.expand %zero : tensor<1x1xi64> -> tensor<?x1xi64, #brrr.extents<()[s0, s1] -> (s1, 1)>>
    %tuples = brrr.concat %row, %col {axis = 1 : i64} : (tensor<?x1xi64, #brrr.extents<()[s0, s1] -> (s1, 1)>>, tensor<?x1xi64, #brrr.extents<()[s0, s1] -> (s1, 1)>>) -> tensor<?x2xi64, #brrr.extents<()[s0, s1] -> (s1, 2)>>
    %g = brrr.gather_nd %cols, %tuples {batch_dims = 0 : i64} : (tensor<2x16xi64>, tensor<?x2xi64, #brrr.extents<()[s0, s1] -> (s1, 2)>>) -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %same = brrr.compare eq %g, %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>
    %h = brrr.gather_nd %short, %tuples {batch_dims = 0 : i64} : (tensor<2x12xi64>, tensor<?x2xi64, #brrr.extents<()[s0, s1] -> (s1, 2)>>) -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
    %past = brrr.compare eq %h, %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>
    return %same, %past : tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>, tensor<?xi1, #brrr.extents<()[s0, s1] -> (s1)>>
  }
}
