// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels{early-fitting=false prefetch-weights=never})' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s --check-prefix=FIT
// RUN: not brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels{prefetch-weights=sometimes})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels{programmatic-launch=false})' | FileCheck %s --check-prefix=SERIAL
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-programmatic.mlir.

// The rule without its refinements (early-fitting, prefetch-weights; their
// defaults below, FIT): on sm_90a every kernel first lets the next one
// launch. Kernels that can stack several blocks on a multiprocessor (a
// softmax row kernel, then a transpose with its exp) launch normally: they
// neither wait nor carry brrr.programmatic.
// CHECK-LABEL: func.func @main
// CHECK-NOT: brrr.programmatic
// CHECK: gpu.func @fusion_0(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NOT: nvvm.griddepcontrol wait
// CHECK: gpu.func @fusion_1(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NOT: nvvm.griddepcontrol wait
// By default (early-fitting) the transpose's one block fits beside the
// row kernel's one: it launches early and waits at its start.
// FIT-LABEL: func.func @main
// FIT: brrr.fusion row
// FIT-NOT: brrr.programmatic
// FIT-SAME: {
// FIT: brrr.fusion pointwise{{.*}}brrr.programmatic
// FIT: gpu.func @fusion_1(
// FIT-NEXT: nvvm.griddepcontrol launch_dependents
// FIT-NEXT: nvvm.griddepcontrol wait
// BAD: error: prefetch-weights takes auto, always or never; got 'sometimes'
// With programmatic-launch=false, no kernel has any of it.
// SERIAL-LABEL: func.func @main
// SERIAL-NOT: brrr.programmatic
// SERIAL-NOT: nvvm.griddepcontrol
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<8x64xf32>) -> tensor<64x8xf32> {
    %0 = brrr.fusion row(%arg0) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [8, 16], vector = 4, grid = [1, 1, 1]>} : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%arg1: tensor<8x64xf32>):
      %2 = brrr.softmax %arg1 {axis = 1 : i64} : tensor<8x64xf32>
      brrr.yield %2 : tensor<8x64xf32>
    }
    %1 = brrr.fusion pointwise(%0) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>} : (tensor<8x64xf32>) -> tensor<64x8xf32> {
    ^bb0(%arg1: tensor<8x64xf32>):
      %2 = brrr.transpose %arg1 {perm = array<i64: 1, 0>} : tensor<8x64xf32> -> tensor<64x8xf32>
      %3 = brrr.exp %2 : tensor<64x8xf32>
      brrr.yield %3 : tensor<64x8xf32>
    }
    return %1 : tensor<64x8xf32>
  }
}

// -----

// A wgmma product (one block per multiprocessor) of one wave after a
// kernel of one wave launches early: its fusion says so for the launch
// plan, and the kernel waits for the one before it ahead of everything
// else. Here BERT's MLP at 128 tokens: 96 blocks (48 tiles of 128 x 64
// split over clusters of 2), then 96 (12 tiles over 8).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul{{.*}}brrr.grid = array<i64: 96, 1, 1>, brrr.kernel = "fusion_0"{{.*}}brrr.programmatic
// CHECK: brrr.fusion matmul{{.*}}brrr.grid = array<i64: 96, 1, 1>, brrr.kernel = "fusion_1"{{.*}}brrr.programmatic
// CHECK: gpu.func @fusion_0(
// CHECK: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @fusion_1(
// CHECK: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// SERIAL-LABEL: func.func @main
// SERIAL-NOT: brrr.programmatic
// SERIAL-NOT: nvvm.griddepcontrol
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<128x768xf16>, %arg1: tensor<768x3072xf16>, %arg2: tensor<3072x768xf16>) -> tensor<128x768xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, cluster = 2, grid = [96, 1, 1]>} : (tensor<128x768xf16>, tensor<768x3072xf16>) -> tensor<128x3072xf16> {
    ^bb0(%arg3: tensor<128x768xf16>, %arg4: tensor<768x3072xf16>):
      %2 = brrr.matmul %arg3, %arg4 : tensor<128x768xf16>, tensor<768x3072xf16> -> tensor<128x3072xf16>
      %3 = brrr.relu %2 : tensor<128x3072xf16>
      brrr.yield %3 : tensor<128x3072xf16>
    }
    %1 = brrr.fusion matmul(%0, %arg2) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 6, cluster = 8, grid = [96, 1, 1]>} : (tensor<128x3072xf16>, tensor<3072x768xf16>) -> tensor<128x768xf16> {
    ^bb0(%arg3: tensor<128x3072xf16>, %arg4: tensor<3072x768xf16>):
      %2 = brrr.matmul %arg3, %arg4 : tensor<128x3072xf16>, tensor<3072x768xf16> -> tensor<128x768xf16>
      brrr.yield %2 : tensor<128x768xf16>
    }
    return %1 : tensor<128x768xf16>
  }
}

// -----

// An MLP of 512 channels at 4096 tokens: the first product runs 384 blocks
// (several waves; 512 deep, too shallow to overlap its epilogue) and the
// second follows it, so both launch normally.
// CHECK-LABEL: func.func @main
// CHECK-NOT: brrr.programmatic
// CHECK: gpu.func @fusion_0(
// CHECK-NOT: nvvm.griddepcontrol wait
// CHECK: gpu.func @fusion_1(
// CHECK-NOT: nvvm.griddepcontrol wait
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<4096x512xf16>, %arg1: tensor<512x3072xf16>, %arg2: tensor<3072x512xf16>) -> tensor<4096x512xf16> {
    %0 = brrr.fusion matmul(%arg0, %arg1) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 256, 64], stages = 4, grid = [384, 1, 1]>} : (tensor<4096x512xf16>, tensor<512x3072xf16>) -> tensor<4096x3072xf16> {
    ^bb0(%arg3: tensor<4096x512xf16>, %arg4: tensor<512x3072xf16>):
      %2 = brrr.matmul %arg3, %arg4 : tensor<4096x512xf16>, tensor<512x3072xf16> -> tensor<4096x3072xf16>
      %3 = brrr.relu %2 : tensor<4096x3072xf16>
      brrr.yield %3 : tensor<4096x3072xf16>
    }
    %1 = brrr.fusion matmul(%0, %arg2) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [128, 1, 1]>} : (tensor<4096x3072xf16>, tensor<3072x512xf16>) -> tensor<4096x512xf16> {
    ^bb0(%arg3: tensor<4096x3072xf16>, %arg4: tensor<3072x512xf16>):
      %2 = brrr.matmul %arg3, %arg4 : tensor<4096x3072xf16>, tensor<3072x512xf16> -> tensor<4096x512xf16>
      brrr.yield %2 : tensor<4096x512xf16>
    }
    return %1 : tensor<4096x512xf16>
  }
}

// -----

// griddepcontrol needs sm_90: an sm_80 module, or one without a target,
// launches plainly.
// CHECK-LABEL: func.func @main
// CHECK-NOT: brrr.programmatic
// CHECK-NOT: nvvm.griddepcontrol
// CHECK-LABEL: func.func @main
// CHECK-NOT: brrr.programmatic
// CHECK-NOT: nvvm.griddepcontrol
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync>} {
  func.func @main(%arg0: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = brrr.fusion pointwise(%arg0) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>} : (tensor<1024xf32>) -> tensor<1024xf32> {
    ^bb0(%arg1: tensor<1024xf32>):
      %1 = brrr.cos %arg1 : tensor<1024xf32>
      brrr.yield %1 : tensor<1024xf32>
    }
    return %0 : tensor<1024xf32>
  }
}

// -----

func.func @main(%arg0: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = brrr.fusion pointwise(%arg0) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>} : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%arg1: tensor<1024xf32>):
    %1 = brrr.cos %arg1 : tensor<1024xf32>
    brrr.yield %1 : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}
