// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-conv-wgmma.mlir.

// On sm_90a a channels-last f16 convolution with a bias and a ReLU runs
// the TMA + wgmma body as an implicit GEMM: 2 x 14 x 14 = 392 output
// pixels (4 row tiles of 128) by 64 channels (one 64-wide tile), K =
// 3 x 3 taps of 64 channels (9 k-slices). A is an im2col map over the N x H x W x C input
// (dims innermost first: C, W, H, N): 128 pixels of 64 channels per copy,
// the bounding box inset by the padding (lower corner -1, -1) and by the
// window's reach (upper corner 1 - 2 = -1), element strides of the
// convolution's strides (1, 2 along W and H). B is the packed
// KH x KW x O x I weights as a tiled 3-D map, one tap's 64 x 64 box at a
// time.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.block = array<i64: 384, 1, 1>{{.*}}brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [4, 1, 1]>
// CHECK-SAME: brrr.grid = array<i64: 4, 1, 1>
// CHECK-SAME: brrr.tensor_maps = [{channels = 64 : i64, dims = array<i64: 64, 14, 28, 2>, element_strides = array<i64: 1, 1, 2, 1>, input = 0 : i64, lower = array<i64: -1, -1>, mode = "im2col", offset = 0 : i64, pixels = 128 : i64, strides = array<i64: 128, 1792, 50176>, swizzle = 128 : i64, upper = array<i64: -1, -1>}, {box = array<i64: 64, 64, 1>, dims = array<i64: 64, 64, 9>, input = 1 : i64, offset = 0 : i64, strides = array<i64: 128, 8192>, swizzle = 128 : i64}]
// CHECK: gpu.func @fusion_0(%{{.+}}: !llvm.ptr {llvm.align = 64 : i64}, %{{.+}}: !llvm.ptr {llvm.align = 64 : i64}, %{{.+}}: !llvm.ptr<1>
// CHECK-SAME: brrr.by_value = array<i32: 0, 1>
// The producer's k-loop: a tap's im2col copy with its two 16-bit offsets
// (kw, kh), then the tap's weights.
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: scf.for
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.+}} box[{{.+}}, {{.+}}, {{.+}}, {{.+}}] im2col[{{.+}}, {{.+}}] {{.+}}mode = #nvvm.tma_load_mode<im2col>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.+}} box[{{[^,]+}}, {{[^,]+}}, {{[^,]+}}] :
// CHECK: nvvm.setmaxregister  increase 232
// K-major B (the weights' rows are K): the col layout.
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// The epilogue adds the bias and applies the ReLU before the only store.
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: llvm.store
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<2x28x14x64xf16>, %arg1: tensor<3x3x64x64xf16>, %arg2: tensor<64xf16>) -> tensor<2x14x14x64xf16> {
    %0 = brrr.fusion conv(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [4, 1, 1]>} : (tensor<2x28x14x64xf16>, tensor<3x3x64x64xf16>, tensor<64xf16>) -> tensor<2x14x14x64xf16> {
    ^bb0(%arg3: tensor<2x28x14x64xf16>, %arg4: tensor<3x3x64x64xf16>, %arg5: tensor<64xf16>):
      %1 = brrr.conv2d %arg3, %arg4, %arg5 {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>} : (tensor<2x28x14x64xf16>, tensor<3x3x64x64xf16>, tensor<64xf16>) -> tensor<2x14x14x64xf16>
      %2 = brrr.relu %1 : tensor<2x14x14x64xf16>
      brrr.yield %2 : tensor<2x14x14x64xf16>
    }
    return %0 : tensor<2x14x14x64xf16>
  }
}

// -----

// A stem over 3 channels (padded to 8): a 64-channel slice would be 7/8
// zeros, so each slice holds 16 channels of four taps instead, each chunk
// swizzled over 32 bytes: an im2col map of 16 channels per pixel and a
// 16-channel weight box, both with the 32-byte swizzle, four copies of
// each per slice (49 taps: 13 slices), and descriptors in swizzle mode 3.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.tensor_maps = [{channels = 16 : i64, dims = array<i64: 8, 30, 30, 2>, element_strides = array<i64: 1, 2, 2, 1>, input = 0 : i64, lower = array<i64: -3, -3>, mode = "im2col", offset = 0 : i64, pixels = 128 : i64, strides = array<i64: 16, 480, 14400>, swizzle = 32 : i64, upper = array<i64: -3, -3>}, {box = array<i64: 16, 64, 1>, dims = array<i64: 8, 64, 49>, input = 1 : i64, offset = 0 : i64, strides = array<i64: 16, 1024>, swizzle = 32 : i64}]
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[SLICES:.+]] step
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.+}} im2col[
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: arith.constant -4611685949707845632 : i64
// CHECK-COUNT-4: nvvm.wgmma.mma_async
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<2x30x30x8xf16>, %arg1: tensor<7x7x64x8xf16>, %arg2: tensor<64xf16>) -> tensor<2x15x15x64xf16> {
    %0 = brrr.fusion conv(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 64, 64], stages = 4, grid = [4, 1, 1]>} : (tensor<2x30x30x8xf16>, tensor<7x7x64x8xf16>, tensor<64xf16>) -> tensor<2x15x15x64xf16> {
    ^bb0(%arg3: tensor<2x30x30x8xf16>, %arg4: tensor<7x7x64x8xf16>, %arg5: tensor<64xf16>):
      %1 = brrr.conv2d %arg3, %arg4, %arg5 {channels_last, dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x30x30x8xf16>, tensor<7x7x64x8xf16>, tensor<64xf16>) -> tensor<2x15x15x64xf16>
      brrr.yield %1 : tensor<2x15x15x64xf16>
    }
    return %0 : tensor<2x15x15x64xf16>
  }
}

// -----

// A convolution of 2 groups of 64 input channels and 128 outputs (split
// K's partial convolutions have this form): the weight map spans one
// group's 64 channels of all 256 outputs, and a block's A copies start
// at its group's channels, (col0 / 128) * 64, added to the slice's
// channel block before the im2col copy.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [2, 1, 1]>
// CHECK-SAME: brrr.grid = array<i64: 2, 1, 1>
// CHECK-SAME: brrr.tensor_maps = [{channels = 64 : i64, dims = array<i64: 128, 7, 7, 1>, {{.+}}mode = "im2col"{{.+}}}, {box = array<i64: 64, 128, 1>, dims = array<i64: 64, 256, 9>, input = 1 : i64, offset = 0 : i64, strides = array<i64: 128, 32768>, swizzle = 128 : i64}]
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: scf.for
// CHECK: %[[GROUP:.+]] = arith.divui %{{.+}}, %c128{{.*}} : index
// CHECK-NEXT: %c64 = arith.constant 64 : index
// CHECK-NEXT: %[[GC0:.+]] = arith.muli %[[GROUP]], %c64 : index
// CHECK: %[[C0:.+]] = arith.addi %[[GC0]], %{{.+}} : index
// CHECK: %[[C32:.+]] = arith.index_castui %[[C0]] : index to i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.+}} box[%[[C32]], {{.+}}] im2col[
// CHECK: nvvm.setmaxregister  increase 232
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%arg0: tensor<1x7x7x128xf16>, %arg1: tensor<3x3x256x64xf16>) -> tensor<1x7x7x256xf16> {
    %0 = brrr.fusion conv(%arg0, %arg1) {brrr.config = #brrr.kernel<family = conv, body = wgmma, threads = 384, tile = [128, 128, 64], stages = 4, grid = [2, 1, 1]>} : (tensor<1x7x7x128xf16>, tensor<3x3x256x64xf16>) -> tensor<1x7x7x256xf16> {
    ^bb0(%arg2: tensor<1x7x7x128xf16>, %arg3: tensor<3x3x256x64xf16>):
      %1 = brrr.conv2d %arg2, %arg3 {channels_last, dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x7x7x128xf16>, tensor<3x3x256x64xf16>) -> tensor<1x7x7x256xf16>
      brrr.yield %1 : tensor<1x7x7x256xf16>
    }
    return %0 : tensor<1x7x7x256xf16>
  }
}
