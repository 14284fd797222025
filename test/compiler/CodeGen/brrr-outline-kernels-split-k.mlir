// RUN: brrr-opt %s --pass-pipeline='builtin.module(func.func(brrr-split-k,brrr-fuse-elementwise,brrr-fuse-matmul,brrr-fuse-rows,brrr-select-kernel-config,brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s

// A split product's two kernels: the partial products on the wgmma body
// (8 batches of 128 x 384 x 768, A read through its split view by a tensor
// map whose batch stride is 384 elements), and the reduction in which one
// thread per output sums the 8 f32 partial products, adds the bias,
// applies GELU and stores f16.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion "matmul"{{.*}}brrr.config = #brrr.kernel<family = matmul, body = wgmma
// CHECK-SAME: brrr.grid = array<i64: 6, 1, 8>
// CHECK-SAME: brrr.tensor_maps = [{box = array<i64: 64, 128, 1>, dims = array<i64: 384, 128, 8>, input = 0 : i64, offset = 0 : i64, strides = array<i64: 6144, 768>
// CHECK: brrr.fusion "reduce"{{.*}}brrr.config = #brrr.kernel<family = reduce, body = simt, threads = 256>
// CHECK: gpu.func @fusion_1
// CHECK: scf.for %{{.+}} = %{{.+}} to %c8 step %c1
// CHECK: llvm.load {{.*}} -> f32
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK: llvm.load {{.*}} -> f16
// CHECK: math.erf
// CHECK: llvm.store {{.*}} : f16, !llvm.ptr<1>
module attributes {brrr.target = "sm_90a"} {
  func.func @main(%a: tensor<1x128x3072xf16>, %w: tensor<3072x768xf16>, %b: tensor<768xf16>) -> tensor<1x128x768xf16> {
    %0 = brrr.matmul %a, %w : tensor<1x128x3072xf16>, tensor<3072x768xf16> -> tensor<1x128x768xf16>
    %1 = brrr.add %0, %b : tensor<1x128x768xf16>, tensor<768xf16> -> tensor<1x128x768xf16>
    %2 = brrr.gelu none %1 : tensor<1x128x768xf16>
    return %2 : tensor<1x128x768xf16>
  }
}
