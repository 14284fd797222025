// RUN: brrr-opt %s --canonicalize | FileCheck %s
// Shape arithmetic folds over symbolic constants: gathers, concatenations,
// slices and reshapes move their extents; sums, products and quotients by
// positive constants compute new ones; comparisons and max/min fold where
// the ranges decide them (batch >= 1, so batch == -1 is false), and stay
// where they do not. A fold that ends in constants is a dense constant.

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>, #brrr.dim<"seq", 1, 512>]} {
  // CHECK-LABEL: func.func @arithmetic
  // CHECK-DAG: brrr.symbolic_constant <()[s0, s1] -> (s0, s1 * 2, 12)> -> tensor<3xi64>
  // CHECK-DAG: brrr.symbolic_constant <()[s0, s1] -> (s1 floordiv 2)> -> tensor<1xi64>
  // CHECK-DAG: brrr.constant dense<false> : tensor<1xi1>
  // CHECK-DAG: brrr.symbolic_constant <()[s0] -> (s0)> -> tensor<1xi64>
  // CHECK-NOT: brrr.concat
  // CHECK-NOT: brrr.gather
  // CHECK-NOT: brrr.div
  // CHECK-NOT: brrr.where
  func.func @arithmetic() -> (tensor<3xi64>, tensor<1xi64>, tensor<1xi1>, tensor<1xi64>) {
    %shape = brrr.symbolic_constant #brrr.extents<()[s0, s1] -> (s0, s1)> -> tensor<2xi64>
    %i1 = brrr.constant dense<1> : tensor<1xi64>
    %two = brrr.constant dense<2> : tensor<1xi64>
    %twelve = brrr.constant dense<12> : tensor<1xi64>
    %minus = brrr.constant dense<-1> : tensor<1xi64>
    %b = brrr.slice %shape {sizes = array<i64: 1>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<2xi64> -> tensor<1xi64>
    %s = brrr.gather %shape, %i1 {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
    %s2 = brrr.mul %s, %two : tensor<1xi64>, tensor<1xi64> -> tensor<1xi64>
    %cat = brrr.concat %b, %s2, %twelve {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
    %half = brrr.div %s, %two : tensor<1xi64>, tensor<1xi64> -> tensor<1xi64>
    %neg = brrr.compare eq %b, %minus : tensor<1xi64>, tensor<1xi64> -> tensor<1xi1>
    %pick = brrr.where %neg, %i1, %b : tensor<1xi1>, tensor<1xi64>, tensor<1xi64> -> tensor<1xi64>
    return %cat, %half, %neg, %pick : tensor<3xi64>, tensor<1xi64>, tensor<1xi1>, tensor<1xi64>
  }

  // Reshapes and transposes of symbolic extents keep them: the patterns
  // that reason about static sizes leave them alone.
  // CHECK-LABEL: func.func @heads
  // CHECK: brrr.reshape {{.+}} -> tensor<?x?x2x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 2, 4)>>
  // CHECK: brrr.transpose {{.+}} -> tensor<?x2x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 4)>>
  // CHECK: brrr.reshape {{.+}} -> tensor<?x4xf32, #brrr.extents<()[s0, s1] -> ((s0 * s1) * 2, 4)>>
  func.func @heads(%x: tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>) -> tensor<?x4xf32, #brrr.extents<()[s0, s1] -> ((s0 * s1) * 2, 4)>> {
    %r = brrr.reshape %x : tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>> -> tensor<?x?x2x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 2, 4)>>
    %t = brrr.transpose %r {perm = array<i64: 0, 2, 1, 3>} : tensor<?x?x2x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 2, 4)>> -> tensor<?x2x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 4)>>
    %o = brrr.reshape %t : tensor<?x2x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 4)>> -> tensor<?x4xf32, #brrr.extents<()[s0, s1] -> ((s0 * s1) * 2, 4)>>
    return %o : tensor<?x4xf32, #brrr.extents<()[s0, s1] -> ((s0 * s1) * 2, 4)>>
  }

  // K^T through [batch * heads, s, d] over a symbolic batch: the batch
  // stands for a prime no static size shares, so no reshape cuts it and
  // the chain is one transpose of the unmerged keys, as attention reads
  // them. A product split around a symbol ([batch * 3, 2] of [batch, 6])
  // is a view of the input and one transpose.
  // CHECK-LABEL: func.func @merged_keys
  // CHECK-SAME: (%[[K:[a-z0-9]+]]: tensor<?x4x128x16xf16{{.+}}, %[[X:[a-z0-9]+]]: tensor<?x6xf32
  // CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[K]] {perm = array<i64: 0, 1, 3, 2>} : tensor<?x4x128x16xf16, #brrr.extents<()[s0] -> (s0, 4, 128, 16)>> -> tensor<?x4x16x128xf16, #brrr.extents<()[s0] -> (s0, 4, 16, 128)>>
  // CHECK-NEXT: %[[V:.+]] = brrr.reshape %[[X]] : tensor<?x6xf32, #brrr.extents<()[s0] -> (s0, 6)>> -> tensor<?x3x2xf32, #brrr.extents<()[s0] -> (s0, 3, 2)>>
  // CHECK-NEXT: %[[U:.+]] = brrr.transpose %[[V]] {perm = array<i64: 2, 0, 1>} : tensor<?x3x2xf32, #brrr.extents<()[s0] -> (s0, 3, 2)>> -> tensor<2x?x3xf32, #brrr.extents<()[s0] -> (2, s0, 3)>>
  // CHECK-NEXT: return %[[T]], %[[U]]
  func.func @merged_keys(%k: tensor<?x4x128x16xf16, #brrr.extents<()[s0] -> (s0, 4, 128, 16)>>, %x: tensor<?x6xf32, #brrr.extents<()[s0] -> (s0, 6)>>) -> (tensor<?x4x16x128xf16, #brrr.extents<()[s0] -> (s0, 4, 16, 128)>>, tensor<2x?x3xf32, #brrr.extents<()[s0] -> (2, s0, 3)>>) {
    %0 = brrr.reshape %k : tensor<?x4x128x16xf16, #brrr.extents<()[s0] -> (s0, 4, 128, 16)>> -> tensor<?x128x16xf16, #brrr.extents<()[s0] -> (s0 * 4, 128, 16)>>
    %1 = brrr.transpose %0 {perm = array<i64: 0, 2, 1>} : tensor<?x128x16xf16, #brrr.extents<()[s0] -> (s0 * 4, 128, 16)>> -> tensor<?x16x128xf16, #brrr.extents<()[s0] -> (s0 * 4, 16, 128)>>
    %2 = brrr.reshape %1 : tensor<?x16x128xf16, #brrr.extents<()[s0] -> (s0 * 4, 16, 128)>> -> tensor<?x4x16x128xf16, #brrr.extents<()[s0] -> (s0, 4, 16, 128)>>
    %3 = brrr.reshape %x : tensor<?x6xf32, #brrr.extents<()[s0] -> (s0, 6)>> -> tensor<?x2xf32, #brrr.extents<()[s0] -> (s0 * 3, 2)>>
    %4 = brrr.transpose %3 {perm = array<i64: 1, 0>} : tensor<?x2xf32, #brrr.extents<()[s0] -> (s0 * 3, 2)>> -> tensor<2x?xf32, #brrr.extents<()[s0] -> (2, s0 * 3)>>
    %5 = brrr.reshape %4 : tensor<2x?xf32, #brrr.extents<()[s0] -> (2, s0 * 3)>> -> tensor<2x?x3xf32, #brrr.extents<()[s0] -> (2, s0, 3)>>
    return %2, %5 : tensor<?x4x16x128xf16, #brrr.extents<()[s0] -> (s0, 4, 16, 128)>>, tensor<2x?x3xf32, #brrr.extents<()[s0] -> (2, s0, 3)>>
  }

  // batch < seq is undecided over the ranges, and the extents' difference
  // is all that decides it: the comparison stays. seq - seq + 1 is 1.
  // CHECK-LABEL: func.func @undecided
  // CHECK-DAG: brrr.compare lt
  // CHECK-DAG: brrr.constant dense<1> : tensor<1xi64>
  func.func @undecided() -> (tensor<1xi1>, tensor<1xi64>) {
    %b = brrr.symbolic_constant #brrr.extents<()[s0, s1] -> (s0)> -> tensor<1xi64>
    %s = brrr.symbolic_constant #brrr.extents<()[s0, s1] -> (s1)> -> tensor<1xi64>
    %sp1 = brrr.symbolic_constant #brrr.extents<()[s0, s1] -> (s1 + 1)> -> tensor<1xi64>
    %lt = brrr.compare lt %b, %s : tensor<1xi64>, tensor<1xi64> -> tensor<1xi1>
    %one = brrr.sub %sp1, %s : tensor<1xi64>, tensor<1xi64> -> tensor<1xi64>
    return %lt, %one : tensor<1xi1>, tensor<1xi64>
  }
}
