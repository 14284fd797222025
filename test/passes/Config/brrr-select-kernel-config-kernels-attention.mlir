// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-attention,brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-attention.mlir, which starts from them pinned.

// BERT's attention from its projection: heads split by a reshape and
// transposes the kernel reads through, merged back by the transpose it
// stores through. 64 queries per block of 4 warps (grid: 2 query blocks, 3
// heads, batch 2); queries, two key and value buffers (9216 bytes each, 72
// halves a row), and the output staging over them after the loop.
// Prologue: the queries (2 copies a thread) and the first key and value
// block (4 + 4); the loop waits for its block, copies the next, and runs
// 4 x 4 x 2 products for the scores and as many with the values.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion attention{{.*}}brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2, grid = [2, 3, 2]>
func.func @main(%q: tensor<2x77x192xf16>, %k: tensor<2x77x192xf16>, %v: tensor<2x77x192xf16>, %m: tensor<2x1x1x77xf16>) -> tensor<2x77x192xf16> {
  %c = brrr.constant dense<0.5> : tensor<f16>
  %z = brrr.constant dense<0.0> : tensor<f16>
  %q4 = brrr.reshape %q : tensor<2x77x192xf16> -> tensor<2x77x3x64xf16>
  %qt = brrr.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : tensor<2x77x3x64xf16> -> tensor<2x3x77x64xf16>
  %k4 = brrr.reshape %k : tensor<2x77x192xf16> -> tensor<2x77x3x64xf16>
  %kt = brrr.transpose %k4 {perm = array<i64: 0, 2, 3, 1>} : tensor<2x77x3x64xf16> -> tensor<2x3x64x77xf16>
  %v4 = brrr.reshape %v : tensor<2x77x192xf16> -> tensor<2x77x3x64xf16>
  %vt = brrr.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : tensor<2x77x3x64xf16> -> tensor<2x3x77x64xf16>
  %qs = brrr.mul %qt, %c : tensor<2x3x77x64xf16>, tensor<f16> -> tensor<2x3x77x64xf16>
  %ks = brrr.mul %kt, %c : tensor<2x3x64x77xf16>, tensor<f16> -> tensor<2x3x64x77xf16>
  %s = brrr.matmul %qs, %ks : tensor<2x3x77x64xf16>, tensor<2x3x64x77xf16> -> tensor<2x3x77x77xf16>
  %x = brrr.add %s, %m : tensor<2x3x77x77xf16>, tensor<2x1x1x77xf16> -> tensor<2x3x77x77xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<2x3x77x77xf16>
  %n = brrr.compare ne %p, %p : tensor<2x3x77x77xf16>, tensor<2x3x77x77xf16> -> tensor<2x3x77x77xi1>
  %pc = brrr.where %n, %z, %p : tensor<2x3x77x77xi1>, tensor<f16>, tensor<2x3x77x77xf16> -> tensor<2x3x77x77xf16>
  %o = brrr.matmul %pc, %vt : tensor<2x3x77x77xf16>, tensor<2x3x77x64xf16> -> tensor<2x3x77x64xf16>
  %ot = brrr.transpose %o {perm = array<i64: 0, 2, 1, 3>} : tensor<2x3x77x64xf16> -> tensor<2x77x3x64xf16>
  %y = brrr.reshape %ot : tensor<2x77x3x64xf16> -> tensor<2x77x192xf16>
  return %y : tensor<2x77x192xf16>
}

// -----

// A causal attention whose output feeds a GELU: the pointwise kernel joins
// as the epilogue, so each element is stored on its own. The loop ends at
// the last key block a query block's last query sees.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion attention{{.*}}brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2, grid = [2, 2, 1]>
module {
  func.func @main(%q: tensor<1x2x96x32xf16>, %kt: tensor<1x2x32x96xf16>, %v: tensor<1x2x96x32xf16>) -> tensor<1x2x96x32xf16> {
    %cols = brrr.constant dense<[[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95]]]]> : tensor<1x1x1x96xi64>
    %rows = brrr.constant dense<[[[[0], [1], [2], [3], [4], [5], [6], [7], [8], [9], [10], [11], [12], [13], [14], [15], [16], [17], [18], [19], [20], [21], [22], [23], [24], [25], [26], [27], [28], [29], [30], [31], [32], [33], [34], [35], [36], [37], [38], [39], [40], [41], [42], [43], [44], [45], [46], [47], [48], [49], [50], [51], [52], [53], [54], [55], [56], [57], [58], [59], [60], [61], [62], [63], [64], [65], [66], [67], [68], [69], [70], [71], [72], [73], [74], [75], [76], [77], [78], [79], [80], [81], [82], [83], [84], [85], [86], [87], [88], [89], [90], [91], [92], [93], [94], [95]]]]> : tensor<1x1x96x1xi64>
    %cond = brrr.compare le %cols, %rows : tensor<1x1x1x96xi64>, tensor<1x1x96x1xi64> -> tensor<1x1x96x96xi1>
    %z = brrr.constant dense<0.0> : tensor<f16>
    %low = brrr.constant dense<0xFC00> : tensor<f16>
    %bias = brrr.where %cond, %z, %low : tensor<1x1x96x96xi1>, tensor<f16>, tensor<f16> -> tensor<1x1x96x96xf16>
    %s = brrr.matmul %q, %kt : tensor<1x2x96x32xf16>, tensor<1x2x32x96xf16> -> tensor<1x2x96x96xf16>
    %x = brrr.add %s, %bias : tensor<1x2x96x96xf16>, tensor<1x1x96x96xf16> -> tensor<1x2x96x96xf16>
    %p = brrr.softmax %x {axis = 3 : i64} : tensor<1x2x96x96xf16>
    %o = brrr.matmul %p, %v : tensor<1x2x96x96xf16>, tensor<1x2x96x32xf16> -> tensor<1x2x96x32xf16>
    %g = brrr.gelu none %o : tensor<1x2x96x32xf16>
    return %g : tensor<1x2x96x32xf16>
  }
}

// -----

// A rank-5 bias (a mask for each of 4 windows, 2 heads) splits the batch
// entry, the grid's z: the kernel reads the bias at (z / 4, z % 4, head).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise{{.*}}brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [10, 1, 1]>
// CHECK: brrr.fusion attention{{.*}}brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2, grid = [1, 2, 8]>
func.func @main(%q: tensor<8x2x49x32xf16>, %kt: tensor<8x2x32x49xf16>, %v: tensor<8x2x49x32xf16>, %rel: tensor<1x2x49x49xf16>, %m: tensor<4x49x49xf16>) -> tensor<8x2x49x32xf16> {
  %s = brrr.matmul %q, %kt : tensor<8x2x49x32xf16>, tensor<8x2x32x49xf16> -> tensor<8x2x49x49xf16>
  %a = brrr.add %s, %rel : tensor<8x2x49x49xf16>, tensor<1x2x49x49xf16> -> tensor<8x2x49x49xf16>
  %r = brrr.reshape %a : tensor<8x2x49x49xf16> -> tensor<2x4x2x49x49xf16>
  %m5 = brrr.reshape %m : tensor<4x49x49xf16> -> tensor<1x4x1x49x49xf16>
  %a2 = brrr.add %r, %m5 : tensor<2x4x2x49x49xf16>, tensor<1x4x1x49x49xf16> -> tensor<2x4x2x49x49xf16>
  %x = brrr.reshape %a2 : tensor<2x4x2x49x49xf16> -> tensor<8x2x49x49xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<8x2x49x49xf16>
  %o = brrr.matmul %p, %v : tensor<8x2x49x49xf16>, tensor<8x2x49x32xf16> -> tensor<8x2x49x32xf16>
  return %o : tensor<8x2x49x32xf16>
}
