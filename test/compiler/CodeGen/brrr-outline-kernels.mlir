// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' | FileCheck %s
// The kernel configs are pinned in the input: what brrr-select-kernel-config
// chooses for these ops is checked in test/passes/Config/brrr-select-kernel-config-kernels.mlir.

// One gpu.func per fusion; the fusion records its kernel and launch shape.
// Same-shaped f32 operands move as 16-byte vectors (4 lanes per thread).
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise{{.*}}brrr.block = array<i64: 256, 1, 1>, brrr.bytes = 8192 : i64, brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>, brrr.flops = 2048 : i64, brrr.grid = array<i64: 1, 1, 1>, brrr.kernel = "fusion_0"
// CHECK: gpu.module @brrr_kernels
// CHECK: gpu.func @fusion_0(%[[IN:.+]]: !llvm.ptr<1>, %[[OUT:.+]]: !llvm.ptr<1>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-8: {{math.cos|math.sin}}
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
func.func @main(%arg0: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = brrr.fusion pointwise(%arg0) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>} : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%arg1: tensor<1024xf32>):
    %1 = brrr.cos %arg1 : tensor<1024xf32>
    %2 = brrr.sin %1 : tensor<1024xf32>
    brrr.yield %2 : tensor<1024xf32>
  }
  return %0 : tensor<1024xf32>
}

// -----

// f16 is loaded 8 lanes at a time and computed in f32; a broadcast operand
// whose rows are the kernel's is read as a vector from its broadcast index,
// one that broadcasts along the row as one element for all lanes; a ragged
// size falls back to 1 lane.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.remui
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: arith.divui
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f16
// CHECK-NOT: llvm.load
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: llvm.store %{{.+}} : vector<8xf16>, !llvm.ptr<1>
// CHECK: gpu.func @fusion_1
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK-NOT: vector
func.func @main(%arg0: tensor<4x64xf16>, %arg1: tensor<64xf16>, %arg2: tensor<4x1xf16>, %arg3: tensor<7xf32>) -> (tensor<4x64xf16>, tensor<7xf32>) {
  %0 = brrr.fusion pointwise(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>} : (tensor<4x64xf16>, tensor<64xf16>, tensor<4x1xf16>) -> tensor<4x64xf16> {
  ^bb0(%arg4: tensor<4x64xf16>, %arg5: tensor<64xf16>, %arg6: tensor<4x1xf16>):
    %2 = brrr.add %arg4, %arg5 : tensor<4x64xf16>, tensor<64xf16> -> tensor<4x64xf16>
    %3 = brrr.mul %2, %arg6 : tensor<4x64xf16>, tensor<4x1xf16> -> tensor<4x64xf16>
    brrr.yield %3 : tensor<4x64xf16>
  }
  %1 = brrr.fusion pointwise(%arg3) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<7xf32>) -> tensor<7xf32> {
  ^bb0(%arg4: tensor<7xf32>):
    %2 = brrr.relu %arg4 : tensor<7xf32>
    brrr.yield %2 : tensor<7xf32>
  }
  return %0, %1 : tensor<4x64xf16>, tensor<7xf32>
}

// -----

// A transposed input is read per lane at its permuted coordinates (the
// kernel's in 32 bits, as every tensor fits; input strides 4 and 1,
// swapped), the same-shaped input by one vector.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: %[[AT:.+]] = arith.index_castui %{{.+}} : index to i32
// CHECK: %[[ROW:.+]] = arith.divui %[[AT]], %{{.+}} : i32
// CHECK: %[[COL:.+]] = arith.remui %[[AT]], %{{.+}} : i32
// CHECK-COUNT-4: llvm.load %{{.+}} : !llvm.ptr<1> -> f32
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-4: arith.addf
// CHECK-NOT: gpu.func @fusion_1
func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = brrr.fusion pointwise(%arg0, %arg1) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>} : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%arg2: tensor<8x4xf32>, %arg3: tensor<4x8xf32>):
    %1 = brrr.transpose %arg2 {perm = array<i64: 1, 0>} : tensor<8x4xf32> -> tensor<4x8xf32>
    %2 = brrr.add %1, %arg3 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    brrr.yield %2 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// Rotary embeddings as transformers write them: a product viewed as heads,
// the heads moved before the rows, and half of each head rotated (two
// slices, one negated, concatenated the other way round). One kernel reads
// the product through its views, twice: the lanes stay whole rows of 8
// through the transpose (it keeps the head dimension innermost) and through
// the concatenation (its halves are whole vectors), so both reads are one
// 16-byte load, the rotated one in a branch per half.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: scf.if %{{.+}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-COUNT-8: arith.negf
// CHECK: else
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-NOT: arith.negf
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: llvm.store %{{.+}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-NOT: gpu.func @fusion_1
func.func @main(%arg0: tensor<2x16x64xf16>, %arg1: tensor<16x32xf16>, %arg2: tensor<16x32xf16>) -> tensor<2x2x16x32xf16> {
  %0 = brrr.reshape %arg0 : tensor<2x16x64xf16> -> tensor<2x16x2x32xf16>
  %1 = brrr.fusion pointwise(%0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>} : (tensor<2x16x2x32xf16>, tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<2x2x16x32xf16> {
  ^bb0(%arg3: tensor<2x16x2x32xf16>, %arg4: tensor<16x32xf16>, %arg5: tensor<16x32xf16>):
    %2 = brrr.transpose %arg3 {perm = array<i64: 0, 2, 1, 3>} : tensor<2x16x2x32xf16> -> tensor<2x2x16x32xf16>
    %3 = brrr.mul %2, %arg4 : tensor<2x2x16x32xf16>, tensor<16x32xf16> -> tensor<2x2x16x32xf16>
    %4 = brrr.slice %2 {sizes = array<i64: 2, 2, 16, 16>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x2x16x32xf16> -> tensor<2x2x16x16xf16>
    %5 = brrr.slice %2 {sizes = array<i64: 2, 2, 16, 16>, starts = array<i64: 0, 0, 0, 16>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x2x16x32xf16> -> tensor<2x2x16x16xf16>
    %6 = brrr.neg %5 : tensor<2x2x16x16xf16>
    %7 = brrr.concat %6, %4 {axis = 3 : i64} : (tensor<2x2x16x16xf16>, tensor<2x2x16x16xf16>) -> tensor<2x2x16x32xf16>
    %8 = brrr.mul %7, %arg5 : tensor<2x2x16x32xf16>, tensor<16x32xf16> -> tensor<2x2x16x32xf16>
    %9 = brrr.add %3, %8 : tensor<2x2x16x32xf16>, tensor<2x2x16x32xf16> -> tensor<2x2x16x32xf16>
    brrr.yield %9 : tensor<2x2x16x32xf16>
  }
  return %1 : tensor<2x2x16x32xf16>
}

// -----

// Parts of a concatenation that do not start at whole vectors: each lane
// picks its part alone, and a constant pad selects its fill for the lanes
// outside its input.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK-COUNT-8: scf.if %{{.+}} -> (f32)
// CHECK-NOT: -> vector<8xf16>
// CHECK: gpu.func @fusion_1
// CHECK: arith.cmpi sge
// CHECK: llvm.load %{{.+}} : !llvm.ptr<1> -> f16
// CHECK: arith.select %{{.+}}, %{{.+}}, %[[FILL:.+]] : f32
func.func @main(%arg0: tensor<4x12xf16>, %arg1: tensor<4x20xf16>, %arg2: tensor<4x28xf16>) -> (tensor<4x32xf16>, tensor<4x32xf16>) {
  %0 = brrr.fusion pointwise(%arg0, %arg1) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>} : (tensor<4x12xf16>, tensor<4x20xf16>) -> tensor<4x32xf16> {
  ^bb0(%arg3: tensor<4x12xf16>, %arg4: tensor<4x20xf16>):
    %2 = brrr.concat %arg3, %arg4 {axis = 1 : i64} : (tensor<4x12xf16>, tensor<4x20xf16>) -> tensor<4x32xf16>
    %3 = brrr.relu %2 : tensor<4x32xf16>
    brrr.yield %3 : tensor<4x32xf16>
  }
  %1 = brrr.fusion pointwise(%arg2) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>} : (tensor<4x28xf16>) -> tensor<4x32xf16> {
  ^bb0(%arg3: tensor<4x28xf16>):
    %2 = brrr.pad constant %arg3 {high = array<i64: 0, 0>, low = array<i64: 0, 4>, value = 1.000000e+00 : f64} : tensor<4x28xf16> -> tensor<4x32xf16>
    %3 = brrr.exp %2 : tensor<4x32xf16>
    brrr.yield %3 : tensor<4x32xf16>
  }
  return %0, %1 : tensor<4x32xf16>, tensor<4x32xf16>
}

// -----

// An f32 GELU keeps libdevice's erf. An f16 one computes its tail
// probability Q as exp2 of a polynomial in z = min(|x|, 7) (eight fmas, the
// .ftz exp2, no reciprocal) and a bf16 one by Abramowitz & Stegun 7.1.26
// (an approximate reciprocal, a polynomial and exp2, their .ftz forms, one
// instruction each); each is at most one ulp from the correctly rounded
// GELU (GeluArithmeticTest) and returns max(x, 0) - |x| Q in one fma,
// without a branch or a select.
// CHECK-LABEL: func.func @main
// CHECK: gpu.func @fusion_0
// CHECK: math.erf %{{.+}} : f32
// CHECK: gpu.func @fusion_1
// CHECK-NOT: math.erf
// CHECK-NOT: rcp.approx
// CHECK: %[[H:.+]] = arith.extf %{{.+}} : f16 to f32
// CHECK: %[[HABS:.+]] = math.absf %[[H]] : f32
// CHECK: %[[Z:.+]] = arith.minimumf %[[HABS]], %{{.+}} : f32
// CHECK: %[[P0:.+]] = math.fma %{{.+}}, %[[Z]], %{{.+}} : f32
// CHECK-COUNT-7: math.fma %{{.+}}, %[[Z]], %{{.+}} : f32
// CHECK: %[[HE:.+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%{{.+}}) : (f32) -> f32
// CHECK: %[[HRELU:.+]] = arith.maximumf %[[H]], %{{.+}} : f32
// CHECK: %[[NZ:.+]] = arith.negf %[[Z]] : f32
// CHECK: math.fma %[[NZ]], %[[HE]], %[[HRELU]] : f32
// CHECK-NOT: arith.select
// CHECK-NOT: math.erf
// CHECK-NOT: rcp.approx
// CHECK: gpu.func @fusion_2
// CHECK-NOT: math.erf
// CHECK: %[[X:.+]] = arith.extf %{{.+}} : bf16 to f32
// CHECK: %[[ABS:.+]] = math.absf %[[X]] : f32
// CHECK: %[[AX:.+]] = arith.minimumf %[[ABS]], %{{.+}} : f32
// CHECK: %[[D:.+]] = math.fma %[[AX]], %{{.+}}, %{{.+}} : f32
// CHECK: %[[T:.+]] = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"(%[[D]]) : (f32) -> f32
// CHECK-COUNT-4: math.fma %[[T]]
// CHECK: %[[P:.+]] = arith.mulf %[[T]], %{{.+}} : f32
// CHECK: %[[XX:.+]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK: %[[A:.+]] = arith.mulf %[[XX]], %{{.+}} : f32
// CHECK: %[[E:.+]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[A]]) : (f32) -> f32
// CHECK: %[[Q:.+]] = arith.mulf %[[P]], %[[E]] : f32
// CHECK: %[[RELU:.+]] = arith.maximumf %[[X]], %{{.+}} : f32
// CHECK: %[[NAX:.+]] = arith.negf %[[AX]] : f32
// CHECK: math.fma %[[NAX]], %[[Q]], %[[RELU]] : f32
// CHECK-NOT: arith.select
// CHECK-NOT: math.erf
// CHECK: arith.truncf %{{.+}} : f32 to bf16
func.func @main(%arg0: tensor<64xf32>, %arg1: tensor<64xf16>, %arg2: tensor<64xbf16>) -> (tensor<64xf32>, tensor<64xf16>, tensor<64xbf16>) {
  %0 = brrr.fusion pointwise(%arg0) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1]>} : (tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%arg3: tensor<64xf32>):
    %3 = brrr.gelu none %arg3 : tensor<64xf32>
    brrr.yield %3 : tensor<64xf32>
  }
  %1 = brrr.fusion pointwise(%arg1) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>} : (tensor<64xf16>) -> tensor<64xf16> {
  ^bb0(%arg3: tensor<64xf16>):
    %3 = brrr.gelu none %arg3 : tensor<64xf16>
    brrr.yield %3 : tensor<64xf16>
  }
  %2 = brrr.fusion pointwise(%arg2) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 8, grid = [1, 1, 1]>} : (tensor<64xbf16>) -> tensor<64xbf16> {
  ^bb0(%arg3: tensor<64xbf16>):
    %3 = brrr.gelu none %arg3 : tensor<64xbf16>
    brrr.yield %3 : tensor<64xbf16>
  }
  return %0, %1, %2 : tensor<64xf32>, tensor<64xf16>, tensor<64xbf16>
}
