// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-movement.mlir.

// A transpose reads the element whose permuted coordinates it writes. Each
// thread writes a vector of 4 consecutive elements (16 bytes) with one
// store; the innermost dimension does not stay innermost, so each lane
// loads its element alone.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion movement{{.*}}brrr.block = array<i64: 256, 1, 1>{{.*}}brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [1], vector = 4, grid = [1, 1, 1]>{{.*}}brrr.grid = array<i64: 1, 1, 1>, brrr.kernel = "fusion_0"
// CHECK: gpu.func @fusion_0(%[[IN:.+]]: !llvm.ptr<1>, %[[OUT:.+]]: !llvm.ptr<1>) kernel
// CHECK: arith.divui
// CHECK: arith.remui
// CHECK-COUNT-4: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK-NOT: llvm.load
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
func.func @main(%arg0: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = brrr.fusion movement(%arg0) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [1], vector = 4, grid = [1, 1, 1]>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  ^bb0(%arg1: tensor<2x3x4xf32>):
    %1 = brrr.transpose %arg1 {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
    brrr.yield %1 : tensor<4x2x3xf32>
  }
  return %0 : tensor<4x2x3xf32>
}

// -----

// A transpose that swaps two groups of dimensions (NCHW -> NHWC: [2][64][100]
// -> [2][100][64]) moves 32 x 32 tiles through a padded shared tile, so
// that reads and writes are both coalesced: a block of 32 x 8 threads per
// tile, 2 x 4 tiles per image, an image per grid z.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion movement{{.*}}brrr.block = array<i64: 256, 1, 1>{{.*}}brrr.grid = array<i64: 8, 1, 2>, brrr.kernel = "fusion_0"
// CHECK: llvm.mlir.global internal @fusion_0_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1056 x f16>
// CHECK: gpu.func @fusion_0
// CHECK-COUNT-4: llvm.store {{.+}} !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK-COUNT-4: llvm.load {{.+}} !llvm.ptr<3>
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<2x64x10x10xf16>) -> tensor<2x10x10x64xf16> {
    %0 = brrr.fusion movement(%arg0) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [32, 8], grid = [8, 1, 2]>} : (tensor<2x64x10x10xf16>) -> tensor<2x10x10x64xf16> {
    ^bb0(%arg1: tensor<2x64x10x10xf16>):
      %1 = brrr.transpose %arg1 {perm = array<i64: 0, 2, 3, 1>} : tensor<2x64x10x10xf16> -> tensor<2x10x10x64xf16>
      brrr.yield %1 : tensor<2x10x10x64xf16>
    }
    return %0 : tensor<2x10x10x64xf16>
  }
}

// -----

// Gather normalizes negative indices and clamps into range; constant
// padding selects the fill value outside the input.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> i64
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: gpu.func @fusion_1
// CHECK: arith.constant 1.500000e+00 : f32
// CHECK: arith.select
func.func @main(%arg0: tensor<6xf32>, %arg1: tensor<3xi64>) -> (tensor<3xf32>, tensor<9xf32>) {
  %0 = brrr.fusion movement(%arg0, %arg1) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<6xf32>, tensor<3xi64>) -> tensor<3xf32> {
  ^bb0(%arg2: tensor<6xf32>, %arg3: tensor<3xi64>):
    %2 = brrr.gather %arg2, %arg3 {axis = 0 : i64} : (tensor<6xf32>, tensor<3xi64>) -> tensor<3xf32>
    brrr.yield %2 : tensor<3xf32>
  }
  %1 = brrr.fusion movement(%arg0) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<6xf32>) -> tensor<9xf32> {
  ^bb0(%arg2: tensor<6xf32>):
    %2 = brrr.pad constant %arg2 {high = array<i64: 2>, low = array<i64: 1>, value = 1.500000e+00 : f64} : tensor<6xf32> -> tensor<9xf32>
    brrr.yield %2 : tensor<9xf32>
  }
  return %0, %1 : tensor<3xf32>, tensor<9xf32>
}

// -----

// gather_nd reads each tuple entry (normalized, clamped) and then the
// slice element. scatter_nd starts from the input's element and walks every
// index tuple in order, keeping the combined update where the tuple names
// this element; scatter_elements walks only its line along the axis and
// combines integers with their signed maximum.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK-COUNT-2: llvm.load %{{.+}} : !llvm.ptr<1> -> i32
// CHECK: arith.minsi
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f16
// CHECK: gpu.func @fusion_1
// CHECK: %[[INIT:.+]] = llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[TUPLES:.+]] step %{{.+}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (f32)
// CHECK: arith.cmpi eq
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %{{.+}} : f32
// CHECK: arith.select %{{.+}}, %[[SUM]], %[[ACC]] : f32
// CHECK: gpu.func @fusion_2
// CHECK: scf.for
// CHECK: arith.maxsi %{{.+}}, %{{.+}} : i64
func.func @main(%arg0: tensor<4x5x6xf16>, %arg1: tensor<3x2xi32>, %arg2: tensor<7x3xf32>, %arg3: tensor<4x1xi64>, %arg4: tensor<4x3xf32>, %arg5: tensor<3x5xi64>, %arg6: tensor<2x5xi64>) -> (tensor<3x6xf16>, tensor<7x3xf32>, tensor<3x5xi64>) {
  %0 = brrr.fusion movement(%arg0, %arg1) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<4x5x6xf16>, tensor<3x2xi32>) -> tensor<3x6xf16> {
  ^bb0(%arg7: tensor<4x5x6xf16>, %arg8: tensor<3x2xi32>):
    %3 = brrr.gather_nd %arg7, %arg8 {batch_dims = 0 : i64} : (tensor<4x5x6xf16>, tensor<3x2xi32>) -> tensor<3x6xf16>
    brrr.yield %3 : tensor<3x6xf16>
  }
  %1 = brrr.fusion movement(%arg2, %arg3, %arg4) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<7x3xf32>, tensor<4x1xi64>, tensor<4x3xf32>) -> tensor<7x3xf32> {
  ^bb0(%arg7: tensor<7x3xf32>, %arg8: tensor<4x1xi64>, %arg9: tensor<4x3xf32>):
    %3 = brrr.scatter_nd add %arg7, %arg8, %arg9 : (tensor<7x3xf32>, tensor<4x1xi64>, tensor<4x3xf32>) -> tensor<7x3xf32>
    brrr.yield %3 : tensor<7x3xf32>
  }
  %2 = brrr.fusion movement(%arg5, %arg6) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<3x5xi64>, tensor<2x5xi64>) -> tensor<3x5xi64> {
  ^bb0(%arg7: tensor<3x5xi64>, %arg8: tensor<2x5xi64>):
    %3 = brrr.scatter_elements max %arg7, %arg8, %arg8 {axis = 0 : i64} : (tensor<3x5xi64>, tensor<2x5xi64>, tensor<2x5xi64>) -> tensor<3x5xi64>
    brrr.yield %3 : tensor<3x5xi64>
  }
  return %0, %1, %2 : tensor<3x6xf16>, tensor<7x3xf32>, tensor<3x5xi64>
}

// -----

// A chain of index maps is one kernel: each thread walks its element back
// through the chain (the constant pad's bounds, the reshape through the
// linear index, the reflect pad's bounce, the transpose's permutation),
// loads the one input element, and selects the fill where the element
// lies in the constant padding. The tensors fit 32 bits, so the index
// arithmetic is i32 (a 64-bit division by a constant costs several times
// more), widened for the address.
// The 54 elements make vectors of 2, whose two lanes walk back alone.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion movement{{.*}}vector = 2, grid = [1, 1, 1]>{{.*}}brrr.grid = array<i64: 1, 1, 1>, brrr.kernel = "fusion_0"
// CHECK: gpu.func @fusion_0(%[[IN:.+]]: !llvm.ptr<1>, %[[OUT:.+]]: !llvm.ptr<1>) kernel
// CHECK: arith.index_castui %{{.+}} : index to i32
// CHECK: arith.cmpi sge, %{{.+}}, %{{.+}} : i32
// CHECK: arith.cmpi slt, %{{.+}}, %{{.+}} : i32
// CHECK: arith.maxsi %{{.+}}, %{{.+}} : i32
// CHECK: arith.minsi %{{.+}}, %{{.+}} : i32
// CHECK: arith.divui %{{.+}}, %{{.+}} : i32
// CHECK: arith.remui %{{.+}}, %{{.+}} : i32
// CHECK: arith.select
// CHECK: arith.select
// CHECK: arith.extui %{{.+}} : i32 to i64
// CHECK: %[[V0:.+]] = llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK: %[[V1:.+]] = llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK-NOT: llvm.load
// CHECK: %[[FILL:.+]] = arith.constant 7.000000e+00 : f32
// CHECK: arith.select %{{.+}}, %[[V0]], %[[FILL]] : f32
// CHECK: arith.select %{{.+}}, %[[V1]], %[[FILL]] : f32
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NOT: gpu.func
func.func @main(%arg0: tensor<2x3x4xf32>) -> tensor<3x9x2xf32> {
  %0 = brrr.fusion movement(%arg0) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [1], vector = 2, grid = [1, 1, 1]>} : (tensor<2x3x4xf32>) -> tensor<3x9x2xf32> {
  ^bb0(%arg1: tensor<2x3x4xf32>):
    %1 = brrr.transpose %arg1 {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
    %2 = brrr.pad reflect %1 {high = array<i64: 0, 0, 1>, low = array<i64: 0, 0, 0>, value = 0.000000e+00 : f64} : tensor<4x2x3xf32> -> tensor<4x2x4xf32>
    %3 = brrr.reshape %2 : tensor<4x2x4xf32> -> tensor<2x8x2xf32>
    %4 = brrr.pad constant %3 {high = array<i64: 1, 0, 0>, low = array<i64: 0, 1, 0>, value = 7.000000e+00 : f64} : tensor<2x8x2xf32> -> tensor<3x9x2xf32>
    brrr.yield %4 : tensor<3x9x2xf32>
  }
  return %0 : tensor<3x9x2xf32>
}

// -----

// A chain over 2^31 elements keeps its arithmetic in 64 bits.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK-NOT: : i32
// CHECK: arith.divui %{{.+}}, %{{.+}} : index
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> i8
func.func @main(%arg0: tensor<2x32768x32768xi8>) -> tensor<32768x2x32769xi8> {
  %0 = brrr.fusion movement(%arg0) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [4], vector = 16, grid = [131076, 1, 1]>} : (tensor<2x32768x32768xi8>) -> tensor<32768x2x32769xi8> {
  ^bb0(%arg1: tensor<2x32768x32768xi8>):
    %1 = brrr.transpose %arg1 {perm = array<i64: 1, 0, 2>} : tensor<2x32768x32768xi8> -> tensor<32768x2x32768xi8>
    %2 = brrr.pad constant %1 {high = array<i64: 0, 0, 1>, low = array<i64: 0, 0, 0>, value = 0.000000e+00 : f64} : tensor<32768x2x32768xi8> -> tensor<32768x2x32769xi8>
    brrr.yield %2 : tensor<32768x2x32769xi8>
  }
  return %0 : tensor<32768x2x32769xi8>
}

// -----

// A tree walks back to one load: a concatenation branches (scf.if) to the
// operand that holds the element along its axis, here the two slices of a
// roll, each a load from the one input at its start. The concatenation is
// along rows of 16, so a vector of 8 lanes (16 bytes) lies in one part and
// is loaded whole.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion movement{{.*}}vector = 8, grid = [1, 1, 1]>
// CHECK: gpu.func @fusion_0(%[[IN:.+]]: !llvm.ptr<1>, %[[OUT:.+]]: !llvm.ptr<1>) kernel
// CHECK: arith.cmpi ult, %{{.+}}, %{{.+}} : i32
// CHECK: scf.if %{{.+}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: } else {
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-NOT: gpu.func
func.func @main(%arg0: tensor<2x14x16xf16>) -> tensor<2x7x2x16xf16> {
  %0 = brrr.fusion movement(%arg0) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [1], vector = 8, grid = [1, 1, 1]>} : (tensor<2x14x16xf16>) -> tensor<2x7x2x16xf16> {
  ^bb0(%arg1: tensor<2x14x16xf16>):
    %1 = brrr.slice %arg1 {sizes = array<i64: 2, 11, 16>, starts = array<i64: 0, 3, 0>, steps = array<i64: 1, 1, 1>} : tensor<2x14x16xf16> -> tensor<2x11x16xf16>
    %2 = brrr.slice %arg1 {sizes = array<i64: 2, 3, 16>, starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : tensor<2x14x16xf16> -> tensor<2x3x16xf16>
    %3 = brrr.concat %1, %2 {axis = 1 : i64} : (tensor<2x11x16xf16>, tensor<2x3x16xf16>) -> tensor<2x14x16xf16>
    %4 = brrr.reshape %3 : tensor<2x14x16xf16> -> tensor<2x2x7x16xf16>
    %5 = brrr.transpose %4 {perm = array<i64: 0, 2, 1, 3>} : tensor<2x2x7x16xf16> -> tensor<2x7x2x16xf16>
    brrr.yield %5 : tensor<2x7x2x16xf16>
  }
  return %0 : tensor<2x7x2x16xf16>
}

// -----

// A linear resize (half_pixel, from sizes: scales 13/7 and 20/9): a thread
// per output element maps its H and W coordinates into the input in f64,
// clamps them into [0, extent - 1], and sums the cell's four corners
// weighted by (1 - w) and w along each dimension, in f32, stored as f16.
// The batch and channel dimensions pass through.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0(%[[IN:.+]]: !llvm.ptr<1>, %[[OUT:.+]]: !llvm.ptr<1>) kernel
// CHECK: %[[C:.+]] = arith.constant 1.8571428571428572 : f64
// CHECK: arith.divf %{{.+}}, %[[C]] : f64
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: math.floor
// CHECK: arith.truncf %{{.+}} : f64 to f32
// CHECK: arith.fptosi
// CHECK: %[[D:.+]] = arith.constant 2.2222222222222223 : f64
// CHECK: arith.divf %{{.+}}, %[[D]] : f64
// CHECK: math.floor
// CHECK-COUNT-4: llvm.load %{{.+}} : !llvm.ptr<1> -> f16
// CHECK-NOT: llvm.load
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: llvm.store %{{.+}}, %{{.+}} : f16, !llvm.ptr<1>
func.func @main(%arg0: tensor<2x5x7x9xf16>) -> tensor<2x5x13x20xf16> {
  %0 = brrr.fusion movement(%arg0) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [11, 1, 1]>} : (tensor<2x5x7x9xf16>) -> tensor<2x5x13x20xf16> {
  ^bb0(%arg1: tensor<2x5x7x9xf16>):
    %1 = brrr.resize linear %arg1 half_pixel round_prefer_floor : tensor<2x5x7x9xf16> -> tensor<2x5x13x20xf16>
    brrr.yield %1 : tensor<2x5x13x20xf16>
  }
  return %0 : tensor<2x5x13x20xf16>
}

// -----

// A nearest resize by the model's scales (asymmetric, rounding halves
// down): the source coordinate (f64) divides by the scale given (1.5), not by
// output / input (7 / 5 = 1.4), rounds as ceil(x - 0.5), clamps, and reads
// the one element.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: %[[S:.+]] = arith.constant 1.500000e+00 : f64
// CHECK: arith.divf %{{.+}}, %[[S]] : f64
// CHECK: arith.subf
// CHECK: math.ceil
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptosi
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK-NOT: llvm.load
// CHECK: llvm.store
func.func @main(%arg0: tensor<3x5xf32>) -> tensor<3x7xf32> {
  %0 = brrr.fusion movement(%arg0) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<3x5xf32>) -> tensor<3x7xf32> {
  ^bb0(%arg1: tensor<3x5xf32>):
    %1 = brrr.resize nearest %arg1 asymmetric round_prefer_floor {scales = array<f64: 1.0, 1.5>} : tensor<3x5xf32> -> tensor<3x7xf32>
    brrr.yield %1 : tensor<3x7xf32>
  }
  return %0 : tensor<3x7xf32>
}
