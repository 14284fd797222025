// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-attention,brrr-fuse-elementwise,brrr-fuse-matmul,brrr-select-kernel-config,brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s

// BERT's attention from its projection: heads split by a reshape and
// transposes the kernel reads through, merged back by the transpose it
// stores through. 64 queries per block of 4 warps (grid: 2 query blocks, 3
// heads, batch 2); queries, two key and value buffers (9216 bytes each, 72
// halves a row), and the output staging over them after the loop.
// Prologue: the queries (2 copies a thread) and the first key and value
// block (4 + 4); the loop waits for its block, copies the next, and runs
// 4 x 4 x 2 products for the scores and as many with the values.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion attention(%arg0, %arg1, %arg2, %arg3)
// CHECK-SAME: brrr.block = array<i64: 128, 1, 1>
// CHECK-SAME: brrr.config = #brrr.kernel<family = attention, body = mma_sync, threads = 128, tile = [64, 64], stages = 2>
// CHECK-SAME: brrr.grid = array<i64: 2, 3, 2>
// CHECK-SAME: brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = query, offset = 0, bytes = 9216>, #brrr.buffer<role = key, offset = 9216, bytes = 9216>, #brrr.buffer<role = value, offset = 18432, bytes = 9216>, #brrr.buffer<role = key, index = 1, offset = 27648, bytes = 9216>, #brrr.buffer<role = value, index = 1, offset = 36864, bytes = 9216>, #brrr.buffer<role = output, offset = 0, bytes = 17408>], bytes = 46080>
// CHECK-SAME: (tensor<2x77x192xf16>, tensor<2x77x192xf16>, tensor<2x77x192xf16>, tensor<2x1x1x77xf16>) -> tensor<2x77x3x64xf16>
// CHECK: brrr.attention {{.*}} {scale = 2.500000e-01 : f64, zero_nan}
// CHECK: brrr.transpose {{.*}} {perm = array<i64: 0, 2, 1, 3>} : tensor<2x3x77x64xf16> -> tensor<2x77x3x64xf16>
// CHECK: gpu.func @fusion_0({{.+}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK-COUNT-2: nvvm.cp.async.shared.global {{.+}}, 16, cache = cg
// CHECK: nvvm.cp.async.commit.group
// CHECK-COUNT-8: nvvm.cp.async.shared.global {{.+}}, 16, cache = cg
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.ldmatrix {{.+}} layout = #nvvm.mma_layout<row>
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: gpu.barrier
// CHECK-COUNT-32: nvvm.mma.sync
// CHECK: math.exp2
// CHECK: nvvm.ldmatrix {{.+}} layout = #nvvm.mma_layout<col>
// CHECK-COUNT-32: nvvm.mma.sync
// CHECK: scf.yield
// CHECK: gpu.barrier
// CHECK: llvm.store {{.*}} : vector<2xf16>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
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
// CHECK: brrr.fusion attention
// CHECK: brrr.attention {{.*}} {causal, scale = 1.000000e+00 : f64}
// CHECK-NEXT: brrr.gelu
// CHECK: gpu.func @fusion_0
// CHECK: arith.minui
// CHECK: scf.for
// CHECK: scf.yield
// CHECK-NOT: vector<4xi32>
// The f16 GELU's erfc: an approximate reciprocal and exp2, no erf.
// CHECK-NOT: math.erf
// CHECK: arith.divf {{.*}} fastmath<afn> : f32
// CHECK: math.exp2 {{.*}} fastmath<afn> : f32
// CHECK: llvm.store {{.*}} : f16, !llvm.ptr<1>
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
// CHECK: gpu.func @fusion_1
// CHECK: %[[Z:.+]] = gpu.block_id  z
// CHECK-DAG: arith.divui %[[Z]], %{{.+}} : index
// CHECK-DAG: arith.remui %[[Z]], %{{.+}} : index
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f16
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
