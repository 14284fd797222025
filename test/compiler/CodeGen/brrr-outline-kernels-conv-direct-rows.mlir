// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s --check-prefix=LOADS
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s --check-prefix=FMAS
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-conv-direct-rows.mlir.

// A channels-last depthwise 7x7 over 16 x 30 x 30 x 96 f16 (ConvNeXt's,
// ragged rows): each thread computes 8 channels of 4 pixels along a row
// (tile = [4]): 16 * 30 * 8 groups * 12 channel vectors = 46080 threads,
// 180 blocks. One window row at a time (a loop of 7 carrying the 32
// accumulators): its 7 weight vectors, then the 10 input vectors its 4
// pixels' windows cover, each added into every pixel that reads it, 7 x 4
// x 8 fmas. Then the bias, and 4 vector stores, those of pixels 1 to 3
// inside the row only (30 = 7 x 4 + 2).
// CHECK-LABEL: func.func @main
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [4], vector = 8, grid = [180, 1, 1]>, brrr.flops = 135475200 : i64, brrr.grid = array<i64: 180, 1, 1>
// CHECK: gpu.func @fusion_0
// CHECK: %{{.+}}:32 = scf.for %{{.+}} = %c0 to %c7 step %c1 iter_args(
// LOADS: gpu.func @fusion_0
// LOADS-COUNT-17: llvm.load {{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// LOADS: scf.yield
// LOADS: llvm.load {{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// LOADS-NOT: llvm.load
// LOADS: gpu.return
// FMAS: gpu.func @fusion_0
// FMAS-COUNT-224: math.fma
// FMAS-NOT: math.fma
// FMAS: gpu.return
// CHECK: scf.yield
// CHECK-NOT: scf.if
// CHECK: llvm.store {{.+}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK: scf.if
// CHECK: llvm.store
// CHECK: scf.if
// CHECK: llvm.store
// CHECK: scf.if
// CHECK: llvm.store
// CHECK-NOT: llvm.store
// CHECK: gpu.return
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<16x30x30x96xf16>, %arg1: tensor<7x7x96x1xf16>, %arg2: tensor<96xf16>) -> tensor<16x30x30x96xf16> {
    %0 = brrr.fusion conv(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [4], vector = 8, grid = [180, 1, 1]>} : (tensor<16x30x30x96xf16>, tensor<7x7x96x1xf16>, tensor<96xf16>) -> tensor<16x30x30x96xf16> {
    ^bb0(%arg3: tensor<16x30x30x96xf16>, %arg4: tensor<7x7x96x1xf16>, %arg5: tensor<96xf16>):
      %1 = brrr.conv2d %arg3, %arg4, %arg5 {channels_last, dilations = array<i64: 1, 1>, groups = 96 : i64, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 1, 1>} : (tensor<16x30x30x96xf16>, tensor<7x7x96x1xf16>, tensor<96xf16>) -> tensor<16x30x30x96xf16>
      brrr.yield %1 : tensor<16x30x30x96xf16>
    }
    return %0 : tensor<16x30x30x96xf16>
  }
}

// -----

// Stride 2 (3x3 over 32 x 57 x 57 x 96, 29 outputs a row): pixel r's tap
// kw reads column 2r + kw, so 4 pixels read 9 input columns; 3 weight
// vectors, 3 x 4 x 8 fmas a window row.
// CHECK-LABEL: func.func @main
// CHECK: brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [4], vector = 8, grid = [348, 1, 1]>
// CHECK: scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK: scf.yield
// LOADS: gpu.func @fusion_0
// LOADS-COUNT-12: llvm.load {{.+}} : !llvm.ptr<1> -> vector<8xf16>
// LOADS: scf.yield
// LOADS-NOT: llvm.load {{.+}} vector<8xf16>
// FMAS: gpu.func @fusion_0
// FMAS-COUNT-96: math.fma
// FMAS-NOT: math.fma
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<32x57x57x96xf16>, %arg1: tensor<3x3x96x1xf16>) -> tensor<32x29x29x96xf16> {
    %0 = brrr.fusion conv(%arg0, %arg1) {brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, tile = [4], vector = 8, grid = [348, 1, 1]>} : (tensor<32x57x57x96xf16>, tensor<3x3x96x1xf16>) -> tensor<32x29x29x96xf16> {
    ^bb0(%arg2: tensor<32x57x57x96xf16>, %arg3: tensor<3x3x96x1xf16>):
      %1 = brrr.conv2d %arg2, %arg3 {channels_last, dilations = array<i64: 1, 1>, groups = 96 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<32x57x57x96xf16>, tensor<3x3x96x1xf16>) -> tensor<32x29x29x96xf16>
      brrr.yield %1 : tensor<32x29x29x96xf16>
    }
    return %0 : tensor<32x29x29x96xf16>
  }
}
