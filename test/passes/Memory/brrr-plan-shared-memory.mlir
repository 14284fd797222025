// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-plan-shared-memory))' | FileCheck %s

// A softmax over 4096 f32 columns runs 256 threads (8 warps): the max and
// the sum each need 8 floats of scratch, alive in overlapping phases, so
// they get separate bytes: 64 in all.
// CHECK-LABEL: func.func @SoftmaxScratchPerReduction
// CHECK: brrr.fusion "row"{{.*}}brrr.shared = [{bytes = 32 : i64, name = "reduce0", offset = 0 : i64}, {bytes = 32 : i64, name = "reduce1", offset = 32 : i64}], brrr.shared_bytes = 64 : i64, brrr.threads = 256 : i64
func.func @SoftmaxScratchPerReduction(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  %0 = brrr.softmax %x {axis = 1 : i64} : tensor<2x4096xf32>
  return %0 : tensor<2x4096xf32>
}

// -----

// A row that one warp covers reduces with shuffles alone: no shared memory.
// CHECK-LABEL: func.func @OneWarpRowNeedsNoSharedMemory
// CHECK: brrr.fusion "row"{{.*}}brrr.shared = [], brrr.shared_bytes = 0 : i64, brrr.threads = 32 : i64
func.func @OneWarpRowNeedsNoSharedMemory(%x: tensor<2x64xf16>) -> tensor<2x64xf16> {
  %0 = brrr.softmax %x {axis = 1 : i64} : tensor<2x64xf16>
  return %0 : tensor<2x64xf16>
}

// -----

// Other families have no shared buffers yet; their plan is empty.
// CHECK-LABEL: func.func @PointwisePlanIsEmpty
// CHECK: brrr.fusion "pointwise"{{.*}}brrr.shared = [], brrr.shared_bytes = 0 : i64
func.func @PointwisePlanIsEmpty(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = brrr.exp %x : tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// A block size already chosen is kept, and the scratch follows it: 1024
// threads are 32 warps, 128 bytes per reduction.
// CHECK-LABEL: func.func @ChosenThreadsAreKept
// CHECK: brrr.shared = [{bytes = 128 : i64, name = "reduce0", offset = 0 : i64}, {bytes = 128 : i64, name = "reduce1", offset = 128 : i64}], brrr.shared_bytes = 256 : i64, brrr.threads = 1024 : i64
func.func @ChosenThreadsAreKept(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  %0 = brrr.fusion "row"(%x) {brrr.threads = 1024 : i64} : (tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  ^bb0(%a: tensor<2x4096xf32>):
    %1 = brrr.softmax %a {axis = 1 : i64} : tensor<2x4096xf32>
    brrr.yield %1 : tensor<2x4096xf32>
  }
  return %0 : tensor<2x4096xf32>
}
