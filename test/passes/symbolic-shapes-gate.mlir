// RUN: not brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise))' 2>&1 | FileCheck %s --check-prefix=FUSE
// RUN: not brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-channels-last))' 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-matmul,brrr-select-kernel-config))' 2>&1 | FileCheck %s --check-prefix=CONFIG
// Ops whose kernel family does not compile symbolic extents yet are refused
// by every pass, naming the ONNX node (where the op has one), the op, the
// value and the pass, instead of reading their `?` dimensions as sizes
// (symbolic-pointwise.mlir has what compiles).

module attributes {brrr.dims = [#brrr.dim<"seq", 1, 64>]} {
  func.func @main(%x: tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>>) -> tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>> {
    %0 = brrr.relu %x : tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>>
    %1 = brrr.softmax %0 {axis = 1 : i64} : tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>>
    return %1 : tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>>
  }
}
// A softmax over a symbolic extent (a row of run-time length): the passes
// before brrr-split-reductions' second run admit it (that run writes it as
// reductions, brrr-split-reductions.mlir), those after refuse it.
// FUSE: error: 'brrr.softmax' with symbolic extents does not compile yet; this value has extents [4, seq] (seq in 1..64) (checked before 'brrr-fuse-elementwise')
// LAYOUT-NOT: 'brrr.softmax' with symbolic extents

// -----

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>]} {
  func.func @main(%x: tensor<?x16xf16, #brrr.extents<()[s0] -> (s0, 16)>>, %w: tensor<16x?xf16, #brrr.extents<()[s0] -> (16, s0)>>) -> tensor<?x?xf16, #brrr.extents<()[s0] -> (s0, s0)>> {
    %0 = brrr.matmul %x, %w : tensor<?x16xf16, #brrr.extents<()[s0] -> (s0, 16)>>, tensor<16x?xf16, #brrr.extents<()[s0] -> (16, s0)>> -> tensor<?x?xf16, #brrr.extents<()[s0] -> (s0, s0)>>
    return %0 : tensor<?x?xf16, #brrr.extents<()[s0] -> (s0, s0)>>
  }
}
// Products compile over symbolic rows only, not symbolic columns or a
// symbolic right operand.
// FUSE: error: 'brrr.matmul' with symbolic extents does not compile yet; this value has extents [batch, batch] (batch in 1..64) (checked before 'brrr-fuse-elementwise')

// -----

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>]} {
  func.func @main(%x: tensor<?x16xf16, #brrr.extents<()[s0] -> (s0, 16)>>, %w: tensor<16x32xf16>) -> tensor<?x32xf16, #brrr.extents<()[s0] -> (s0, 32)>> {
    %0 = brrr.matmul %x, %w : tensor<?x16xf16, #brrr.extents<()[s0] -> (s0, 16)>>, tensor<16x32xf16> -> tensor<?x32xf16, #brrr.extents<()[s0] -> (s0, 32)>>
    return %0 : tensor<?x32xf16, #brrr.extents<()[s0] -> (s0, 32)>>
  }
}
// Symbolic rows of 16-bit operands compile on the TMA + wgmma and untiled
// bodies only: without a Hopper target the product takes the tiled
// mma_sync body, and the config says so.
// CONFIG: error: 'brrr.matmul' op symbolic rows of 16-bit operands compile on the TMA + wgmma body (sm_90a) and the untiled body only so far; this product takes the mma_sync body (give its rows a fixed extent)

// -----

// A reduction of symbolic rows compiles where the axes after them have
// fixed extents (split rows); a sum over the batch that keeps a symbolic
// sequence does not.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
  func.func @main(%x: tensor<?x?xf32, #brrr.extents<()[s0, s1] -> (s0, s1)>>) -> tensor<?xf32, #brrr.extents<()[s0, s1] -> (s1)>> {
    %0 = brrr.reduce sum %x {axes = array<i64: 0>, keepdims = false} : tensor<?x?xf32, #brrr.extents<()[s0, s1] -> (s0, s1)>> -> tensor<?xf32, #brrr.extents<()[s0, s1] -> (s1)>>
    return %0 : tensor<?xf32, #brrr.extents<()[s0, s1] -> (s1)>>
  }
}
// FUSE: error: 'brrr.reduce' with symbolic extents does not compile yet; this value has extents [seq] (seq in 1..64) (checked before 'brrr-fuse-elementwise')

// -----

// An op imported from an ONNX node carries its name, which the error gives.
module attributes {brrr.dims = [#brrr.dim<"seq", 1, 64>]} {
  func.func @main(%x: tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>>) -> tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>> {
    %0 = brrr.softmax %x {axis = 1 : i64} : tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>> loc("Softmax_7")
    return %0 : tensor<4x?xf32, #brrr.extents<()[s0] -> (4, s0)>>
  }
}
// FUSE: error: {{.*}}node 'Softmax_7': 'brrr.softmax' with symbolic extents does not compile yet; this value has extents [4, seq] (seq in 1..64) (checked before 'brrr-fuse-elementwise')
