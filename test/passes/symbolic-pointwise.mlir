// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-fuse-rows,brrr-select-kernel-config,brrr-plan-shared-memory,brrr-plan-global-memory))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --canonicalize 2>&1 | FileCheck %s --check-prefix=CANON
// Pointwise kernels compile over symbolic extents: the fusion keeps them,
// the vector width divides the element count at every shape in range (the
// static factor of s0 * 16 is 16, of s0 * s1 * 3 only 3), and the memory
// plan reserves the largest shape (64 x 16 f32: 4096 bytes). What the other
// ops do is in symbolic-shapes-gate.mlir.

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>]} {
  func.func @main(%x: tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>, %b: tensor<16xf32>) -> tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>> {
    %0 = brrr.add %x, %b : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>, tensor<16xf32> -> tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
    %1 = brrr.relu %0 : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
    %2 = brrr.exp %1 : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
    return %2 : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
  }
}
// The launch grid at the largest shape (up to 64 rows: 1 block), and the
// actual rows' blocks of 256 threads x 4 elements.
// CHECK: #[[GRID:map]] = affine_map<()[s0] -> ((s0 * 16) ceildiv 1024, 1, 1)>
// CHECK-LABEL: func.func @main
// CHECK: %[[F:.+]] = brrr.fusion pointwise(%{{.+}}, %{{.+}}) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, vector = 4, grid = [1, 1, 1], grid_extents = #[[GRID]]>, brrr.memory = [#brrr.placement<storage = output, offset = 0, bytes = 4096>]
// CHECK-SAME: (tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>, tensor<16xf32>) -> tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>
// CHECK: brrr.add
// CHECK: brrr.relu
// CHECK: brrr.exp
// CHECK: return %[[F]]
// CANON: brrr.exp {{.+}} : tensor<?x16xf32, #brrr.extents<()[s0] -> (s0, 16)>>

// -----

module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>, #brrr.dim<"seq", 1, 128>]} {
  func.func @main(%x: tensor<?x?x3xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 3)>>) -> (tensor<?x?x3xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 3)>>, tensor<?x?x3xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 3)>>) {
    %0 = brrr.tanh %x : tensor<?x?x3xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 3)>>
    %1 = brrr.neg %0 : tensor<?x?x3xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 3)>>
    return %0, %1 : tensor<?x?x3xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 3)>>, tensor<?x?x3xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 3)>>
  }
}
// Two outputs of 64 x 128 x 3 f16 (49152 bytes each) from one kernel whose
// vectors are single elements.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise(%{{.+}}) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, grid = [96, 1, 1], grid_extents = #map>, brrr.memory = [#brrr.placement<storage = output, offset = 0, bytes = 49152>, #brrr.placement<storage = output, offset = 0, bytes = 49152>]

// -----

// A scalar constant inside the kernel (x * sigmoid(x) + 1).
module attributes {brrr.dims = [#brrr.dim<"n", 1, 100000>]} {
  func.func @main(%x: tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>>) -> tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>> {
    %one = brrr.constant dense<1.0> : tensor<f32>
    %0 = brrr.sigmoid %x : tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>>
    %1 = brrr.mul %x, %0 : tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>>, tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>> -> tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>>
    %2 = brrr.add %1, %one : tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>>, tensor<f32> -> tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>>
    return %2 : tensor<?x3xf32, #brrr.extents<()[s0] -> (s0, 3)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion pointwise(%{{[^)]+}}) {brrr.config = #brrr.kernel<family = pointwise, body = simt, threads = 256, grid = [1172, 1, 1], grid_extents = #map>, brrr.memory = [#brrr.placement<storage = output, offset = 0, bytes = 1200000>]
// CHECK: brrr.constant dense<1.000000e+00> : tensor<f32>

// -----

// A product over symbolic rows (a Linear layer over [batch, 16]) is a
// matmul kernel with its bias epilogue on the TMA + wgmma body, never
// persistent, planned at the largest shape.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 64>], brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<?x16xf16, #brrr.extents<()[s0] -> (s0, 16)>>, %w: tensor<16x32xf16>, %b: tensor<32xf16>) -> tensor<?x32xf16, #brrr.extents<()[s0] -> (s0, 32)>> {
    %0 = brrr.matmul %x, %w : tensor<?x16xf16, #brrr.extents<()[s0] -> (s0, 16)>>, tensor<16x32xf16> -> tensor<?x32xf16, #brrr.extents<()[s0] -> (s0, 32)>>
    %1 = brrr.add %0, %b : tensor<?x32xf16, #brrr.extents<()[s0] -> (s0, 32)>>, tensor<32xf16> -> tensor<?x32xf16, #brrr.extents<()[s0] -> (s0, 32)>>
    return %1 : tensor<?x32xf16, #brrr.extents<()[s0] -> (s0, 32)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion matmul({{.+}}) {brrr.config = #brrr.kernel<family = matmul, body = wgmma, {{.*}}>, brrr.memory = [#brrr.placement<storage = output, offset = 0, bytes = 4096>]
// CHECK-NOT: grid =
// CHECK: brrr.matmul
// CHECK: brrr.add

// -----

// An operand that broadcasts along part of the symbolic extents ([batch, 1,
// 16] into [batch, seq, 16]) compiles in a pointwise kernel, which indexes
// it from the actual extents; no row kernel takes that op in as its
// prologue, so the softmax reads the product from memory.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 128>]} {
  func.func @main(%x: tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>, %m: tensor<?x1x16xf32, #brrr.extents<()[s0] -> (s0, 1, 16)>>) -> tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>> {
    %0 = brrr.mul %x, %m : tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>, tensor<?x1x16xf32, #brrr.extents<()[s0] -> (s0, 1, 16)>> -> tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>
    %1 = brrr.softmax %0 {axis = 2 : i64} : tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>
    return %1 : tensor<?x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 16)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: %[[P:.+]] = brrr.fusion pointwise(%{{.+}}, %{{.+}})
// CHECK: brrr.mul
// CHECK: brrr.fusion row(%[[P]])
// CHECK-NOT: brrr.mul
// CHECK: brrr.softmax

// -----

// Rotary embeddings over a symbolic sequence: q * cos + rotate_half(q) *
// sin, with the cos and sin tables [1, seq, 1, 32] broadcast along the
// batch and the heads. The kernel indexes the tables from the actual
// extents at its own elements and reads q through the slices and the
// concatenation at the largest shape's coordinates (they keep q's outer
// run): one kernel, as over a static sequence.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
  func.func @main(%q: tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>, %cos: tensor<1x?x1x32xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 32)>>, %sin: tensor<1x?x1x32xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 32)>>) -> tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>> {
    %lo = brrr.slice %q {extents = #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>, sizes = array<i64: -9223372036854775808, -9223372036854775808, 4, 16>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>> -> tensor<?x?x4x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>
    %hi = brrr.slice %q {extents = #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>, sizes = array<i64: -9223372036854775808, -9223372036854775808, 4, 16>, starts = array<i64: 0, 0, 0, 16>, steps = array<i64: 1, 1, 1, 1>} : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>> -> tensor<?x?x4x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>
    %n = brrr.neg %hi : tensor<?x?x4x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>
    %r = brrr.concat %n, %lo {axis = 3 : i64} : (tensor<?x?x4x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>, tensor<?x?x4x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>) -> tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
    %a = brrr.mul %q, %cos : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>, tensor<1x?x1x32xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 32)>> -> tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
    %b = brrr.mul %r, %sin : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>, tensor<1x?x1x32xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 32)>> -> tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
    %y = brrr.add %a, %b : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>, tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>> -> tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
    return %y : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: %[[F:.+]] = brrr.fusion pointwise(%{{[^,]+}}, %{{[^,]+}}, %{{[^,)]+}}) {brrr.config = #brrr.kernel<family = pointwise
// CHECK-DAG: brrr.slice
// CHECK-DAG: brrr.slice
// CHECK-DAG: brrr.neg
// CHECK-DAG: brrr.concat
// CHECK-DAG: brrr.mul
// CHECK-DAG: brrr.mul
// CHECK: brrr.add
// CHECK: brrr.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[F]]

// -----

// A table that broadcasts along part of the symbolic extents, read through
// a concatenation: the largest shape's coordinates do not find its rows at
// a smaller batch or sequence, so the concatenation stays out of the kernel
// (brrr-fuse-movement makes it its own) and the multiply reads its result at the kernel's own elements.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
  func.func @main(%q: tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>, %c0: tensor<1x?x1x16xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 16)>>, %c1: tensor<1x?x1x16xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 16)>>) -> tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>> {
    %c = brrr.concat %c0, %c1 {axis = 3 : i64} : (tensor<1x?x1x16xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 16)>>, tensor<1x?x1x16xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 16)>>) -> tensor<1x?x1x32xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 32)>>
    %y = brrr.mul %q, %c : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>, tensor<1x?x1x32xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 32)>> -> tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
    return %y : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: %[[C:.+]] = brrr.concat
// CHECK: brrr.fusion pointwise(%{{.+}}, %[[C]])
// CHECK-NOT: brrr.concat
// CHECK: brrr.mul

// -----

// An op that broadcasts along part of the symbolic extents behind a
// concatenation (read at the coordinates it maps elements to) is computed
// in a kernel of its own; the concatenation joins its reader.
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
  func.func @main(%h: tensor<?x?x4x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>, %t: tensor<1x?x1x16xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 16)>>) -> tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>> {
    %a = brrr.add %h, %t : tensor<?x?x4x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>, tensor<1x?x1x16xf16, #brrr.extents<()[s0, s1] -> (1, s1, 1, 16)>> -> tensor<?x?x4x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>
    %c = brrr.concat %a, %h {axis = 3 : i64} : (tensor<?x?x4x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>, tensor<?x?x4x16xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 16)>>) -> tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
    %y = brrr.relu %c : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
    return %y : tensor<?x?x4x32xf16, #brrr.extents<()[s0, s1] -> (s0, s1, 4, 32)>>
  }
}
// CHECK-LABEL: func.func @main
// CHECK: %[[A:.+]] = brrr.fusion pointwise
// CHECK: brrr.add
// CHECK-NEXT: brrr.yield
// CHECK-NOT: brrr.concat
// CHECK: brrr.fusion pointwise(%[[A]], %{{[^)]+}})
// CHECK-DAG: brrr.concat
// CHECK-DAG: brrr.relu
