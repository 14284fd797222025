// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-select-kernel-config,brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s

// One gpu.func per fusion; the fusion records its kernel and launch shape.
// Same-shaped f32 operands move as 16-byte vectors (4 lanes per thread).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion "pointwise"{{.*}}brrr.block = array<i64: 256, 1, 1>, brrr.bytes = 8192 : i64, brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4>, brrr.flops = 2048 : i64, brrr.grid = array<i64: 1, 1, 1>, brrr.kernel = "fusion_0"
// CHECK: gpu.module @brrr_kernels
// CHECK: gpu.func @fusion_0(%[[IN:.+]]: !llvm.ptr<1>, %[[OUT:.+]]: !llvm.ptr<1>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-8: {{math.cos|math.sin}}
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = brrr.cos %x : tensor<1024xf32>
  %1 = brrr.sin %0 : tensor<1024xf32>
  return %1 : tensor<1024xf32>
}

// -----

// f16 is loaded 8 lanes at a time and computed in f32; a broadcast operand
// is read per lane through its strides; a ragged size falls back to 1 lane.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.remui
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f16
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: llvm.store %{{.+}} : vector<8xf16>, !llvm.ptr<1>
// CHECK: gpu.func @fusion_1
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK-NOT: vector
func.func @main(%x: tensor<4x64xf16>, %b: tensor<64xf16>, %r: tensor<7xf32>) -> (tensor<4x64xf16>, tensor<7xf32>) {
  %0 = brrr.add %x, %b : tensor<4x64xf16>, tensor<64xf16> -> tensor<4x64xf16>
  %1 = brrr.relu %r : tensor<7xf32>
  return %0, %1 : tensor<4x64xf16>, tensor<7xf32>
}


// -----

// A transposed input is read per lane at its permuted index (row-major
// input strides 4 and 1, swapped), the same-shaped input by one vector.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: arith.divui %{{.+}}, %{{.+}} : index
// CHECK: arith.remui
// CHECK: arith.muli %{{.+}}, %{{.+}} : index
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK: arith.addf
// CHECK-NOT: gpu.func @fusion_1
func.func @main(%x: tensor<8x4xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = brrr.transpose %x {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
  %s = brrr.add %t, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// An f32 GELU keeps libdevice's erf; an f16 or bf16 one computes its tail
// probability by Abramowitz & Stegun 7.1.26 (an approximate reciprocal, a
// polynomial and exp2; at most one f16 ulp from the correctly rounded
// GELU) and picks 1 - tail or tail by the sign, without a branch.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: math.erf %{{.+}} : f32
// CHECK: gpu.func @fusion_1
// CHECK-NOT: math.erf
// CHECK: %[[T:.+]] = arith.divf %{{.+}}, %{{.+}} fastmath<afn> : f32
// CHECK-COUNT-4: math.fma %[[T]]
// CHECK: math.exp2 %{{.+}} fastmath<afn> : f32
// CHECK: arith.cmpf oge
// CHECK: arith.select
// CHECK-NOT: math.erf
// CHECK: gpu.func @fusion_2
// CHECK-NOT: math.erf
// CHECK: math.exp2 %{{.+}} fastmath<afn> : f32
// CHECK: arith.truncf %{{.+}} : f32 to bf16
func.func @main(%x: tensor<64xf32>, %h: tensor<64xf16>, %g: tensor<64xbf16>) -> (tensor<64xf32>, tensor<64xf16>, tensor<64xbf16>) {
  %0 = brrr.gelu none %x : tensor<64xf32>
  %1 = brrr.gelu none %h : tensor<64xf16>
  %2 = brrr.gelu none %g : tensor<64xbf16>
  return %0, %1, %2 : tensor<64xf32>, tensor<64xf16>, tensor<64xbf16>
}
