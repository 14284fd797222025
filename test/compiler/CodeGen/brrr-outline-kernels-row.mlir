// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-row.mlir.

// One block per row: 4096 f16 columns are 512 16-byte vectors, so 128
// threads hold 4 each; the max and the sum are block reductions through
// warp shuffles and the planned scratch in dynamic shared memory (4 warps:
// 16 bytes each; the sum's scratch at byte 16, float 4).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row{{.*}}brrr.block = array<i64: 128, 1, 1>{{.*}}brrr.grid = array<i64: 64, 1, 1>, brrr.kernel = "fusion_0"
// CHECK: gpu.module @brrr_kernels
// CHECK: llvm.mlir.global external @brrr_dynamic_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: gpu.func @fusion_0({{.+}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK-COUNT-4: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: gpu.shuffle  xor
// CHECK: gpu.barrier
// CHECK: math.exp
// CHECK: gpu.shuffle  xor
// CHECK: arith.constant 4 : index
// CHECK: gpu.barrier
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
func.func @main(%arg0: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  %0 = brrr.fusion row(%arg0) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, vector = 8, grid = [64, 1, 1]>} : (tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  ^bb0(%arg1: tensor<64x4096xf16>):
    %1 = brrr.softmax %arg1 {axis = 1 : i64} : tensor<64x4096xf16>
    brrr.yield %1 : tensor<64x4096xf16>
  }
  return %0 : tensor<64x4096xf16>
}

// -----

// A ragged row (999 columns) uses scalar lanes masked past the end.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: arith.minui
// CHECK: llvm.load %{{.+}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK: arith.select
// CHECK: math.rsqrt
func.func @main(%arg0: tensor<3x999xf32>, %arg1: tensor<999xf32>) -> tensor<3x999xf32> {
  %0 = brrr.fusion row(%arg0, %arg1) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 256, grid = [3, 1, 1]>} : (tensor<3x999xf32>, tensor<999xf32>) -> tensor<3x999xf32> {
  ^bb0(%arg2: tensor<3x999xf32>, %arg3: tensor<999xf32>):
    %1 = brrr.layer_norm %arg2, %arg3 {axis = 1 : i64, epsilon = 1.000000e-05 : f64} : (tensor<3x999xf32>, tensor<999xf32>) -> tensor<3x999xf32>
    brrr.yield %1 : tensor<3x999xf32>
  }
  return %0 : tensor<3x999xf32>
}

// -----

// A trailing reduction writes one value per row from thread 0.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row{{.*}}brrr.grid = array<i64: 16, 1, 1>
// CHECK: gpu.func @fusion_0
// CHECK: gpu.shuffle  xor
// CHECK: arith.maximumf
// CHECK: arith.cmpi eq
// CHECK: llvm.store %{{.+}}, %{{.+}} : f16, !llvm.ptr<1>
func.func @main(%arg0: tensor<2x8x7x7xf16>) -> tensor<2x8x1x1xf16> {
  %0 = brrr.fusion row(%arg0) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 32, grid = [16, 1, 1]>} : (tensor<2x8x7x7xf16>) -> tensor<2x8x1x1xf16> {
  ^bb0(%arg1: tensor<2x8x7x7xf16>):
    %1 = brrr.reduce max %arg1 {axes = array<i64: 2, 3>, keepdims = true} : tensor<2x8x7x7xf16> -> tensor<2x8x1x1xf16>
    brrr.yield %1 : tensor<2x8x1x1xf16>
  }
  return %0 : tensor<2x8x1x1xf16>
}

// -----

// A reduction over a leading axis: one thread per output element (8*7 = 56
// of a 256-thread block) walks the 2 reduced elements, 56 apart.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion reduce{{.*}}brrr.block = array<i64: 256, 1, 1>{{.*}}brrr.grid = array<i64: 1, 1, 1>
// CHECK: gpu.func @fusion_0(%{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>) kernel
// CHECK: scf.for
// CHECK: arith.constant 56 : index
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f16
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: llvm.store %{{.+}}, %{{.+}} : f16, !llvm.ptr<1>
func.func @main(%arg0: tensor<2x8x7xf16>) -> tensor<8x7xf16> {
  %0 = brrr.fusion reduce(%arg0) {brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<2x8x7xf16>) -> tensor<8x7xf16> {
  ^bb0(%arg1: tensor<2x8x7xf16>):
    %1 = brrr.reduce mean %arg1 {axes = array<i64: 0>, keepdims = false} : tensor<2x8x7xf16> -> tensor<8x7xf16>
    brrr.yield %1 : tensor<8x7xf16>
  }
  return %0 : tensor<8x7xf16>
}

// -----

// Integer reductions take the signed combiner of their element type.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion reduce
// CHECK: gpu.func @fusion_0
// CHECK: arith.constant -9223372036854775808 : i64
// CHECK: arith.maxsi
func.func @main(%arg0: tensor<5x6xi64>) -> tensor<5xi64> {
  %0 = brrr.fusion reduce(%arg0) {brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<5x6xi64>) -> tensor<5xi64> {
  ^bb0(%arg1: tensor<5x6xi64>):
    %1 = brrr.reduce max %arg1 {axes = array<i64: 1>, keepdims = false} : tensor<5x6xi64> -> tensor<5xi64>
    brrr.yield %1 : tensor<5xi64>
  }
  return %0 : tensor<5xi64>
}

// -----

// A whole tensor reduced to one value: one block cooperates on it. Thread t
// walks elements t, t + 256, ..., then the partial results combine in a
// tree through the shared slots (widths 128 down to 1, a barrier after
// each) and thread 0 stores the sum.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion reduce{{.*}}brrr.block = array<i64: 256, 1, 1>{{.*}}brrr.grid = array<i64: 1, 1, 1>
// CHECK: gpu.func @fusion_0
// CHECK: %[[T:.+]] = gpu.thread_id  x
// CHECK: scf.for %{{.+}} = %[[T]] to %{{.+}} step %{{.+}} iter_args
// CHECK: arith.addi %{{.+}}, %{{.+}} : i32
// CHECK: llvm.store %{{.+}}, %{{.+}} : i32, !llvm.ptr<3>
// CHECK-NEXT: gpu.barrier
// CHECK: arith.constant 128 : index
// CHECK: llvm.load %{{.+}} : !llvm.ptr<3> -> i32
// CHECK-COUNT-8: gpu.barrier
// CHECK: arith.cmpi eq
// CHECK: llvm.store %{{.+}}, %{{.+}} : i32, !llvm.ptr<1>
func.func @main(%arg0: tensor<3x1001xi32>) -> tensor<i32> {
  %0 = brrr.fusion reduce(%arg0) {brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256, tile = [256], grid = [1, 1, 1]>} : (tensor<3x1001xi32>) -> tensor<i32> {
  ^bb0(%arg1: tensor<3x1001xi32>):
    %1 = brrr.reduce sum %arg1 {axes = array<i64: 0, 1>, keepdims = false} : tensor<3x1001xi32> -> tensor<i32>
    brrr.yield %1 : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

// A mean over H and W of NHWC splits its rows: a block per batch element
// (grid 2) takes the 64 channels as 8 lanes of 8-element vectors, and 100
// groups (800 threads) walk the 100 rows, four loads in flight per step.
// Each thread leaves its 8 sums in shared slots; the groups combine in a
// tree (widths 64 down to 1: 7 levels, a barrier after each, after the
// first stores' one) and the 8 threads of group 0 divide and store their
// vectors.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion reduce{{.*}}brrr.block = array<i64: 800, 1, 1>{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 800, tile = [8, 100], vector = 8, grid = [2, 1, 1]>{{.*}}brrr.grid = array<i64: 2, 1, 1>
// CHECK: gpu.func @fusion_0
// CHECK: scf.for {{.+}} step %{{.+}} iter_args
// CHECK-COUNT-4: llvm.load {{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: scf.yield
// CHECK-COUNT-8: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr<3>
// CHECK-COUNT-8: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-8: arith.divf
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
func.func @main(%arg0: tensor<2x10x10x64xf16>) -> tensor<2x1x1x64xf16> {
  %0 = brrr.fusion reduce(%arg0) {brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 800, tile = [8, 100], vector = 8, grid = [2, 1, 1]>} : (tensor<2x10x10x64xf16>) -> tensor<2x1x1x64xf16> {
  ^bb0(%arg1: tensor<2x10x10x64xf16>):
    %1 = brrr.reduce mean %arg1 {axes = array<i64: 1, 2>, keepdims = true} : tensor<2x10x10x64xf16> -> tensor<2x1x1x64xf16>
    brrr.yield %1 : tensor<2x1x1x64xf16>
  }
  return %0 : tensor<2x1x1x64xf16>
}

// -----

// An RMS norm reduces once (the mean square: no mean, no centring), then
// scales each element by rsqrt and the weight. A layer norm over the same
// row reduces twice.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: gpu.shuffle  xor
// CHECK-NOT: arith.subf
// CHECK: math.rsqrt
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
// CHECK: gpu.func @fusion_1
// CHECK: arith.subf
// CHECK: math.rsqrt
func.func @main(%arg0: tensor<16x2048xf16>, %arg1: tensor<2048xf16>) -> (tensor<16x2048xf16>, tensor<16x2048xf16>) {
  %0 = brrr.fusion row(%arg0, %arg1) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 64, vector = 8, grid = [16, 1, 1]>} : (tensor<16x2048xf16>, tensor<2048xf16>) -> tensor<16x2048xf16> {
  ^bb0(%arg2: tensor<16x2048xf16>, %arg3: tensor<2048xf16>):
    %2 = brrr.layer_norm %arg2, %arg3 {axis = 1 : i64, epsilon = 9.9999999999999995E-7 : f64, rms} : (tensor<16x2048xf16>, tensor<2048xf16>) -> tensor<16x2048xf16>
    brrr.yield %2 : tensor<16x2048xf16>
  }
  %1 = brrr.fusion row(%arg0, %arg1) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 64, vector = 8, grid = [16, 1, 1]>} : (tensor<16x2048xf16>, tensor<2048xf16>) -> tensor<16x2048xf16> {
  ^bb0(%arg2: tensor<16x2048xf16>, %arg3: tensor<2048xf16>):
    %2 = brrr.layer_norm %arg2, %arg3 {axis = 1 : i64, epsilon = 9.9999999999999995E-7 : f64} : (tensor<16x2048xf16>, tensor<2048xf16>) -> tensor<16x2048xf16>
    brrr.yield %2 : tensor<16x2048xf16>
  }
  return %0, %1 : tensor<16x2048xf16>, tensor<16x2048xf16>
}
