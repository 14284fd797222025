// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-conv,brrr-select-kernel-config,brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s

// Implicit GEMM per group (grid z): M = N*OH*OW = 2*8*8 = 128 rows (8
// tiles of 16), N = O/groups = 8 channels (one tile of 8), K = C/groups *
// KH * KW = 2*3*3; flops = 2 * 128 * 16 * 18. The input is gathered with
// its padding masked (signed window coordinates), the bias added to the
// accumulators before the epilogue.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion "conv"{{.*}}brrr.block = array<i64: 32, 1, 1>{{.*}}brrr.flops = 73728 : i64, brrr.grid = array<i64: 1, 8, 2>, brrr.kernel = "fusion_0"
// CHECK: gpu.func @fusion_0(%{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>) kernel attributes {known_block_size = array<i32: 32, 1, 1>}
// CHECK: scf.for
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK-COUNT-3: nvvm.mma.sync {{.+}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// CHECK: scf.if
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: llvm.store
func.func @main(%x: tensor<2x4x8x8xf32>, %w: tensor<16x2x3x3xf32>, %b: tensor<16xf32>) -> tensor<2x16x8x8xf32> {
  %0 = brrr.conv2d %x, %w, %b {dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<2x4x8x8xf32>, tensor<16x2x3x3xf32>, tensor<16xf32>) -> tensor<2x16x8x8xf32>
  %1 = brrr.relu %0 : tensor<2x16x8x8xf32>
  return %1 : tensor<2x16x8x8xf32>
}

// -----

// f16 convolutions use m16n8k16 and store f16.
// CHECK-LABEL: func.func @main
// CHECK: nvvm.mma.sync {{.+}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @main(%x: tensor<1x16x8x8xf16>, %w: tensor<8x16x1x1xf16>) -> tensor<1x8x8x8xf16> {
  %0 = brrr.conv2d %x, %w {dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x16x8x8xf16>, tensor<8x16x1x1xf16>) -> tensor<1x8x8x8xf16>
  return %0 : tensor<1x8x8x8xf16>
}

// -----

// Max pooling: one thread per output element (2*4*4*4 = 128: one block of
// 256), the 3x3 window unrolled, cells outside the input are -inf.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion "pool"{{.*}}brrr.block = array<i64: 256, 1, 1>{{.*}}brrr.grid = array<i64: 1, 1, 1>
// CHECK: gpu.func @fusion_0
// CHECK: arith.constant 0xFF800000 : f32
// CHECK-COUNT-9: arith.maximumf
// CHECK-NOT: arith.maximumf
// CHECK: llvm.store
func.func @main(%x: tensor<2x4x8x8xf32>) -> tensor<2x4x4x4xf32> {
  %0 = brrr.max_pool2d %x {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<2x4x8x8xf32> -> tensor<2x4x4x4xf32>
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
func.func @main(%x: tensor<1x2x16x16xf16>) -> tensor<1x2x1x1xf16> {
  %0 = brrr.avg_pool2d %x {ceil_mode = false, count_include_pad = false, dilations = array<i64: 1, 1>, kernel = array<i64: 16, 16>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : tensor<1x2x16x16xf16> -> tensor<1x2x1x1xf16>
  return %0 : tensor<1x2x1x1xf16>
}
