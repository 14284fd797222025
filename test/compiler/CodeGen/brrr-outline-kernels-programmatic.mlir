// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-select-kernel-config,brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-rows,brrr-select-kernel-config,brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels{programmatic-launch=false})' | FileCheck %s --check-prefix=SERIAL

// On sm_90a every kernel (here a softmax row kernel, then a transpose with
// its exp) is a programmatic dependent of the one before it:
// the fusion says so for the launch plan, and the kernel's first two
// operations release the next kernel and wait for the previous one, before
// anything touches memory.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion "row"{{.*}}brrr.kernel = "fusion_0"{{.*}}brrr.programmatic
// CHECK: brrr.fusion "pointwise"{{.*}}brrr.kernel = "fusion_1"{{.*}}brrr.programmatic
// CHECK: gpu.func @fusion_0(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK: gpu.func @fusion_1(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NOT: nvvm.griddepcontrol
// With programmatic-launch=false, kernels start after the one before ends.
// SERIAL-LABEL: func.func @main
// SERIAL-NOT: brrr.programmatic
// SERIAL-NOT: nvvm.griddepcontrol
module attributes {brrr.target = "sm_90a"} {
  func.func @main(%x: tensor<8x64xf32>) -> tensor<64x8xf32> {
    %0 = brrr.softmax %x {axis = 1 : i64} : tensor<8x64xf32>
    %1 = brrr.transpose %0 {perm = array<i64: 1, 0>} : tensor<8x64xf32> -> tensor<64x8xf32>
    %2 = brrr.exp %1 : tensor<64x8xf32>
    return %2 : tensor<64x8xf32>
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
module attributes {brrr.target = "sm_80"} {
  func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = brrr.cos %x : tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
}

// -----

func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = brrr.cos %x : tensor<1024xf32>
  return %0 : tensor<1024xf32>
}
