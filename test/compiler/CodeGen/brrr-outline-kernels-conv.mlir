// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s --check-prefix=VECTORS
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels-conv.mlir.

// Implicit GEMM per group (grid z): M = N*OH*OW = 2*8*8 = 128 rows, N =
// O/groups = 8 channels, K = C/groups * KH * KW = 16*3*3; flops = 2 * 128 *
// 16 * 144. f32 runs the staged tf32 body: 64 x 64 tiles (grid 1 x 2 x 2)
// of four 32 x 32 warps. The input is gathered element by element through
// im2col with its padding masked (signed window coordinates) into the
// shared slices by 4-byte cp.async; each k-step multiplies three tf32
// products (3xTF32) added to the running f32 sum, and the bias is added to
// the accumulators before the epilogue.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.block = array<i64: 128, 1, 1>{{.*}}body = mma_sync, threads = 128, tile = [64, 64, 32], stages = 2, grid = [1, 2, 2]>, brrr.flops = 589824 : i64, brrr.grid = array<i64: 1, 2, 2>, brrr.kernel = "fusion_0"
// CHECK: gpu.func @fusion_0(%{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>) kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32}
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi sge
// CHECK: nvvm.cp.async.shared.global %{{.+}}, %{{.+}}, 4, cache =  ca, %{{.+}}
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: gpu.barrier
// CHECK-COUNT-3: nvvm.mma.sync {{.+}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// CHECK: arith.addf
// CHECK: scf.if
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: llvm.store
func.func @main(%arg0: tensor<2x32x8x8xf32>, %arg1: tensor<16x16x3x3xf32>, %arg2: tensor<16xf32>) -> tensor<2x16x8x8xf32> {
  %0 = brrr.fusion conv(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = conv, body = mma_sync, threads = 128, tile = [64, 64, 32], stages = 2, grid = [1, 2, 2]>} : (tensor<2x32x8x8xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>) -> tensor<2x16x8x8xf32> {
  ^bb0(%arg3: tensor<2x32x8x8xf32>, %arg4: tensor<16x16x3x3xf32>, %arg5: tensor<16xf32>):
    %1 = brrr.conv2d %arg3, %arg4, %arg5 {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x32x8x8xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>) -> tensor<2x16x8x8xf32>
    %2 = brrr.relu %1 : tensor<2x16x8x8xf32>
    brrr.yield %2 : tensor<2x16x8x8xf32>
  }
  return %0 : tensor<2x16x8x8xf32>
}

// -----

// f16 convolutions use m16n8k16 and store f16.
// CHECK-LABEL: func.func @main
// CHECK: nvvm.mma.sync {{.+}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @main(%arg0: tensor<1x16x8x8xf16>, %arg1: tensor<8x16x1x1xf16>) -> tensor<1x8x8x8xf16> {
  %0 = brrr.fusion conv(%arg0, %arg1) {brrr.config = #brrr.kernel<family = conv, body = warp_mma, threads = 32, grid = [1, 4, 1]>} : (tensor<1x16x8x8xf16>, tensor<8x16x1x1xf16>) -> tensor<1x8x8x8xf16> {
  ^bb0(%arg2: tensor<1x16x8x8xf16>, %arg3: tensor<8x16x1x1xf16>):
    %1 = brrr.conv2d %arg2, %arg3 {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x16x8x8xf16>, tensor<8x16x1x1xf16>) -> tensor<1x8x8x8xf16>
    brrr.yield %1 : tensor<1x8x8x8xf16>
  }
  return %0 : tensor<1x8x8x8xf16>
}

// -----

// Max pooling: one thread per output element (2*4*4*4 = 128: one block of
// 256), the 3x3 window unrolled, cells outside the input are -inf.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pool{{.*}}brrr.block = array<i64: 256, 1, 1>{{.*}}brrr.grid = array<i64: 1, 1, 1>
// CHECK: gpu.func @fusion_0
// CHECK: arith.constant 0xFF800000 : f32
// CHECK-COUNT-9: arith.maximumf
// CHECK-NOT: arith.maximumf
// CHECK: llvm.store
func.func @main(%arg0: tensor<2x4x8x8xf32>) -> tensor<2x4x4x4xf32> {
  %0 = brrr.fusion pool(%arg0) {brrr.config = #brrr.kernel<family = pool, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<2x4x8x8xf32>) -> tensor<2x4x4x4xf32> {
  ^bb0(%arg1: tensor<2x4x8x8xf32>):
    %1 = brrr.max_pool2d %arg1 {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<2x4x8x8xf32> -> tensor<2x4x4x4xf32>
    brrr.yield %1 : tensor<2x4x4x4xf32>
  }
  return %0 : tensor<2x4x4x4xf32>
}

// -----

// Average pooling divides by the number of counted cells, computed per
// window; a window over 64 cells loops instead of unrolling.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.uitofp
// CHECK: arith.divf
func.func @main(%arg0: tensor<1x2x16x16xf16>) -> tensor<1x2x1x1xf16> {
  %0 = brrr.fusion pool(%arg0) {brrr.config = #brrr.kernel<family = pool, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<1x2x16x16xf16>) -> tensor<1x2x1x1xf16> {
  ^bb0(%arg1: tensor<1x2x16x16xf16>):
    %1 = brrr.avg_pool2d %arg1 {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 16, 16>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x2x16x16xf16> -> tensor<1x2x1x1xf16>
    brrr.yield %1 : tensor<1x2x1x1xf16>
  }
  return %0 : tensor<1x2x1x1xf16>
}

// -----

// A channels-last depthwise convolution runs the direct body: 8 channels a
// thread (2*3*3*16 / 8 = 36 threads), a loop over the window's 3 rows,
// each loading its 3 weight vectors and 3 input vectors (16-byte loads)
// before 3 x 8 fmas; the bias and the residual come as vectors too and the
// result goes out in one vector store. flops = 2 * 288 outputs * 9 taps.
// (Only this case loads vectors: 3 + 3 in the loop, the bias and the
// residual.)
// VECTORS-COUNT-8: llvm.load {{.+}} : !llvm.ptr<1> -> vector<8xf16>
// VECTORS-NOT: -> vector<8xf16>
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.block = array<i64: 256, 1, 1>{{.*}}brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>, brrr.flops = 5184 : i64, brrr.grid = array<i64: 1, 1, 1>
// CHECK: gpu.func @fusion_0
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.load {{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.load {{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-COUNT-24: math.fma
// CHECK-NOT: math.fma
// CHECK: llvm.load {{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.load {{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-COUNT-8: arith.addf
// CHECK: llvm.store {{.+}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-NOT: llvm.store
func.func @main(%arg0: tensor<2x6x6x16xf16>, %arg1: tensor<3x3x16x1xf16>, %arg2: tensor<16xf16>, %arg3: tensor<2x3x3x16xf16>) -> tensor<2x3x3x16xf16> {
  %0 = brrr.fusion conv(%arg0, %arg1, %arg2, %arg3) {brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>} : (tensor<2x6x6x16xf16>, tensor<3x3x16x1xf16>, tensor<16xf16>, tensor<2x3x3x16xf16>) -> tensor<2x3x3x16xf16> {
  ^bb0(%arg4: tensor<2x6x6x16xf16>, %arg5: tensor<3x3x16x1xf16>, %arg6: tensor<16xf16>, %arg7: tensor<2x3x3x16xf16>):
    %1 = brrr.conv2d %arg4, %arg5, %arg6 {channels_last, dilations = array<i64: 1, 1>, groups = 16 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x6x6x16xf16>, tensor<3x3x16x1xf16>, tensor<16xf16>) -> tensor<2x3x3x16xf16>
    %2 = brrr.add %1, %arg7 : tensor<2x3x3x16xf16>, tensor<2x3x3x16xf16> -> tensor<2x3x3x16xf16>
    brrr.yield %2 : tensor<2x3x3x16xf16>
  }
  return %0 : tensor<2x3x3x16xf16>
}

// -----

// Narrow groups (2 input channels each, 3 outputs per group) in NCHW: one
// output a thread, 2 channels x 9 taps of scalar loads and fmas, then the
// fused relu and one scalar store. flops = 2 * 210 outputs * 18.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion conv{{.*}}brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, grid = [1, 1, 1]>, brrr.flops = 7560 : i64, brrr.grid = array<i64: 1, 1, 1>
// CHECK: gpu.func @fusion_0
// CHECK-COUNT-18: math.fma
// CHECK-NOT: math.fma
// CHECK: arith.maximumf
// CHECK: llvm.store {{.+}} : f32, !llvm.ptr<1>
// CHECK-NOT: llvm.store
func.func @main(%arg0: tensor<1x4x5x7xf32>, %arg1: tensor<6x2x3x3xf32>) -> tensor<1x6x5x7xf32> {
  %0 = brrr.fusion conv(%arg0, %arg1) {brrr.config = #brrr.kernel<family = conv, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<1x4x5x7xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x5x7xf32> {
  ^bb0(%arg2: tensor<1x4x5x7xf32>, %arg3: tensor<6x2x3x3xf32>):
    %1 = brrr.conv2d %arg2, %arg3 {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x5x7xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x5x7xf32>
    %2 = brrr.relu %1 : tensor<1x6x5x7xf32>
    brrr.yield %2 : tensor<1x6x5x7xf32>
  }
  return %0 : tensor<1x6x5x7xf32>
}

// -----

// A channels-last max pool (ResNet's, after the stem) reads each window
// cell's channels with one 16-byte load: 4 f32 channels a thread
// (2*4*4*8 / 4 = 64 threads), 9 vector loads and 9 x 4 maxima, one vector
// store.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pool{{.*}}brrr.config = #brrr.kernel<family = pool, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>{{.*}}brrr.grid = array<i64: 1, 1, 1>
// CHECK: gpu.func @fusion_0
// CHECK-COUNT-9: llvm.load {{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK: llvm.store {{.+}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
func.func @main(%arg0: tensor<2x8x8x8xf32>) -> tensor<2x4x4x8xf32> {
  %0 = brrr.fusion pool(%arg0) {brrr.config = #brrr.kernel<family = pool, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>} : (tensor<2x8x8x8xf32>) -> tensor<2x4x4x8xf32> {
  ^bb0(%arg1: tensor<2x8x8x8xf32>):
    %1 = brrr.max_pool2d %arg1 {ceil_mode = false, channels_last, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<2x8x8x8xf32> -> tensor<2x4x4x8xf32>
    brrr.yield %1 : tensor<2x4x4x8xf32>
  }
  return %0 : tensor<2x4x4x8xf32>
}

// -----

// A channels-last average over a window of 256 cells loops with the
// vector's 4 sums and the count as its iteration arguments, and divides
// each sum by the count.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: scf.for {{.+}} -> (f32, f32, f32, f32, f32)
// CHECK: scf.for {{.+}} -> (f32, f32, f32, f32, f32)
// CHECK: llvm.load {{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-4: arith.divf
// CHECK: llvm.store {{.+}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
func.func @main(%arg0: tensor<1x16x16x4xf32>) -> tensor<1x1x1x4xf32> {
  %0 = brrr.fusion pool(%arg0) {brrr.config = #brrr.kernel<family = pool, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>} : (tensor<1x16x16x4xf32>) -> tensor<1x1x1x4xf32> {
  ^bb0(%arg1: tensor<1x16x16x4xf32>):
    %1 = brrr.avg_pool2d %arg1 {ceil_mode = false, channels_last, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 16, 16>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x16x16x4xf32> -> tensor<1x1x1x4xf32>
    brrr.yield %1 : tensor<1x1x1x4xf32>
  }
  return %0 : tensor<1x1x1x4xf32>
}
