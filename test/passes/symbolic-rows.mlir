// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-fuse-rows,brrr-fuse-movement,brrr-select-kernel-config,brrr-plan-shared-memory,brrr-plan-global-memory))' | FileCheck %s
// Row kernels (softmax, log-softmax, layer norm) compile over symbolic
// extents that hold the rows apart: the fusion takes its pointwise
// prologue and epilogue, the config and the shared-memory plan are the
// largest shape's (rows of 768 f32: 64 threads, one row a block; rows of
// 96 f16: 8 packed rows of 16 lanes), and the memory plan reserves the
// largest shape.

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
  func.func @main(%x: tensor<?x?x768xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>>, %r: tensor<?x?x768xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<?x?x768xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>> {
    %0 = brrr.add %x, %r : tensor<?x?x768xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>>, tensor<?x?x768xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>> -> tensor<?x?x768xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>>
    %1 = brrr.layer_norm %0, %g, %b {axis = 2 : i64, epsilon = 1.0e-05 : f64} : (tensor<?x?x768xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x?x768xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>>
    %2 = brrr.relu %1 : tensor<?x?x768xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>>
    return %2 : tensor<?x?x768xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 768)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row({{.+}}) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 64, vector = 4, grid = [4096, 1, 1], grid_extents = #map>, brrr.memory = [#brrr.placement<storage = output, offset = 0, bytes = 12582912>]
// CHECK: brrr.add
// CHECK: brrr.layer_norm
// CHECK: brrr.relu
// CHECK-NOT: brrr.fusion

// -----

module attributes {brrr.dims = [#brrr.dim<"n", 1, 1000>]} {
  func.func @main(%x: tensor<?x96xf16, #brrr.extents<()[s0] -> (s0, 96)>>) -> tensor<?x96xf16, #brrr.extents<()[s0] -> (s0, 96)>> {
    %0 = brrr.softmax %x {axis = 1 : i64} : tensor<?x96xf16, #brrr.extents<()[s0] -> (s0, 96)>>
    return %0 : tensor<?x96xf16, #brrr.extents<()[s0] -> (s0, 96)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion row({{.+}}) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, tile = [8, 16], vector = 8, grid = [125, 1, 1], grid_extents = #map>, brrr.memory = [#brrr.placement<storage = output, offset = 0, bytes = 192000>]
