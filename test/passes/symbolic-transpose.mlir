// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-fuse-rows,brrr-fuse-movement,brrr-select-kernel-config))' | FileCheck %s
// A transpose that moves a symbolic extent behind a fixed one ([batch, seq,
// heads, d] to [batch, heads, seq, d]) where no attention reads it (a
// decoder's present keys, an output in the heads' order) is a movement
// kernel of its own, an element a thread over the actual extents: no
// pointwise kernel reads, and no product reads or stores, through it.

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
  func.func @main(%x: tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>) -> tensor<?x4x?x32xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 32)>> {
    %t = brrr.transpose %x {perm = array<i64: 0, 2, 1, 3>} : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>> -> tensor<?x4x?x32xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 32)>>
    %y = brrr.relu %t : tensor<?x4x?x32xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 32)>>
    %z = brrr.neg %y : tensor<?x4x?x32xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 32)>>
    return %z : tensor<?x4x?x32xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 32)>>
  }
}
// CHECK: #[[GRID:map[0-9]*]] = affine_map<()[s0, s1] -> (((s0 * s1) * 128) ceildiv 256, 1, 1)>
// CHECK-LABEL: func.func @main
// CHECK: %[[T:.+]] = brrr.fusion movement(%arg0) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [2048, 1, 1], grid_extents = #[[GRID]]>}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.yield
// CHECK: %[[N:.+]] = brrr.fusion pointwise(%[[T]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.relu
// CHECK-NEXT: brrr.neg
// CHECK-NEXT: brrr.yield
// CHECK: return %[[N]]

// -----

// A product's result transposed so: the product stores in its own order and
// the transpose moves it.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>, %w: tensor<32x32xf16>) -> tensor<?x4x?x32xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 32)>> {
    %p = brrr.matmul %x, %w : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>, tensor<32x32xf16> -> tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
    %t = brrr.transpose %p {perm = array<i64: 0, 2, 1, 3>} : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>> -> tensor<?x4x?x32xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 32)>>
    return %t : tensor<?x4x?x32xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 32)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: %[[P:.+]] = brrr.fusion matmul
// CHECK-NOT: brrr.transpose
// CHECK: brrr.yield
// CHECK: brrr.fusion movement(%[[P]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.transpose

// -----

// A concatenation along a symbolic axis (a token prepended to a symbolic
// sequence, [batch, 1 + seq, d]) is a movement kernel of its own too, an
// element a thread over the actual extents of its output and of every
// input, never 16-byte vectors at the largest shape's coordinates.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
  func.func @main(%c: tensor<?x1x64xf16, #brrr.extents<()[s0, s1] -> (s0, 1, 64)>>, %x: tensor<?x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 64)>>) -> tensor<?x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, s1 + 1, 64)>> {
    %y = brrr.concat %c, %x {axis = 1 : i64} : (tensor<?x1x64xf16, #brrr.extents<()[s0, s1] -> (s0, 1, 64)>>, tensor<?x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 64)>>) -> tensor<?x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, s1 + 1, 64)>>
    %z = brrr.relu %y : tensor<?x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, s1 + 1, 64)>>
    return %z : tensor<?x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, s1 + 1, 64)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: %[[C:.+]] = brrr.fusion movement(%arg0, %arg1) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1026, 1, 1], grid_extents = #{{.+}}>}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.concat
// CHECK-NEXT: brrr.yield
// CHECK: brrr.fusion pointwise(%[[C]])
// CHECK-NOT: brrr.concat
// CHECK: brrr.relu
