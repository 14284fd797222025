// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-movement,brrr-select-kernel-config))' | FileCheck %s

// The configs brrr-select-kernel-config chooses for the inputs of
// test/compiler/CodeGen/brrr-outline-kernels-movement.mlir, which starts from them pinned.

// A transpose reads the element whose permuted coordinates it writes. Each
// thread writes a vector of 4 consecutive elements (16 bytes) with one
// store; the innermost dimension does not stay innermost, so each lane
// loads its element alone.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion movement{{.*}}brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [1], vector = 4, grid = [1, 1, 1]>
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = brrr.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// A transpose that swaps two groups of dimensions (NCHW -> NHWC: [2][64][100]
// -> [2][100][64]) moves 32 x 32 tiles through a padded shared tile, so
// that reads and writes are both coalesced: a block of 32 x 8 threads per
// tile, 2 x 4 tiles per image, an image per grid z.
// CHECK-LABEL: func.func @main
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @main(%x: tensor<2x64x10x10xf16>) -> tensor<2x10x10x64xf16> {
    %t = brrr.transpose %x {perm = array<i64: 0, 2, 3, 1>} : tensor<2x64x10x10xf16> -> tensor<2x10x10x64xf16>
    return %t : tensor<2x10x10x64xf16>
  }
}

// -----

// Gather normalizes negative indices and clamps into range; constant
// padding selects the fill value outside the input.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion movement{{.*}}brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>
func.func @main(%x: tensor<6xf32>, %i: tensor<3xi64>) -> (tensor<3xf32>, tensor<9xf32>) {
  %0 = brrr.gather %x, %i {axis = 0 : i64} : (tensor<6xf32>, tensor<3xi64>) -> tensor<3xf32>
  %1 = brrr.pad constant %x {high = array<i64: 2>, low = array<i64: 1>, value = 1.5 : f64} : tensor<6xf32> -> tensor<9xf32>
  return %0, %1 : tensor<3xf32>, tensor<9xf32>
}

// -----

// gather_nd reads each tuple entry (normalized, clamped) and then the
// slice element. scatter_nd starts from the input's element and walks every
// index tuple in order, keeping the combined update where the tuple names
// this element; scatter_elements walks only its line along the axis and
// combines integers with their signed maximum.
// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<4x5x6xf16>, %i: tensor<3x2xi32>, %y: tensor<7x3xf32>, %t: tensor<4x1xi64>,
                %u: tensor<4x3xf32>, %z: tensor<3x5xi64>, %ze: tensor<2x5xi64>) -> (tensor<3x6xf16>, tensor<7x3xf32>, tensor<3x5xi64>) {
  %0 = brrr.gather_nd %x, %i {batch_dims = 0 : i64} : (tensor<4x5x6xf16>, tensor<3x2xi32>) -> tensor<3x6xf16>
  %1 = brrr.scatter_nd add %y, %t, %u : (tensor<7x3xf32>, tensor<4x1xi64>, tensor<4x3xf32>) -> tensor<7x3xf32>
  %2 = brrr.scatter_elements max %z, %ze, %ze {axis = 0 : i64} : (tensor<3x5xi64>, tensor<2x5xi64>, tensor<2x5xi64>) -> tensor<3x5xi64>
  return %0, %1, %2 : tensor<3x6xf16>, tensor<7x3xf32>, tensor<3x5xi64>
}

// -----

// A chain of index maps is one kernel: each thread walks its element back
// through the chain (the constant pad's bounds, the reshape through the
// linear index, the reflect pad's bounce, the transpose's permutation),
// loads the one input element, and selects the fill where the element
// lies in the constant padding. The tensors fit 32 bits, so the index
// arithmetic is i32 (a 64-bit division by a constant costs several times
// more), widened for the address.
// The 54 elements make vectors of 2, whose two lanes walk back alone.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion movement{{.*}}brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [1], vector = 2, grid = [1, 1, 1]>
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<3x9x2xf32> {
  %0 = brrr.transpose %x {perm = array<i64: 2, 0, 1>} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %1 = brrr.pad reflect %0 {high = array<i64: 0, 0, 1>, low = array<i64: 0, 0, 0>, value = 0.0 : f64} : tensor<4x2x3xf32> -> tensor<4x2x4xf32>
  %2 = brrr.reshape %1 : tensor<4x2x4xf32> -> tensor<2x8x2xf32>
  %3 = brrr.pad constant %2 {high = array<i64: 1, 0, 0>, low = array<i64: 0, 1, 0>, value = 7.0 : f64} : tensor<2x8x2xf32> -> tensor<3x9x2xf32>
  return %3 : tensor<3x9x2xf32>
}

// -----

// A chain over 2^31 elements keeps its arithmetic in 64 bits.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion movement{{.*}}brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [4], vector = 16, grid = [131076, 1, 1]>
func.func @main(%x: tensor<2x32768x32768xi8>) -> tensor<32768x2x32769xi8> {
  %0 = brrr.transpose %x {perm = array<i64: 1, 0, 2>} : tensor<2x32768x32768xi8> -> tensor<32768x2x32768xi8>
  %1 = brrr.pad constant %0 {high = array<i64: 0, 0, 1>, low = array<i64: 0, 0, 0>, value = 0.0 : f64} : tensor<32768x2x32768xi8> -> tensor<32768x2x32769xi8>
  return %1 : tensor<32768x2x32769xi8>
}

// -----

// A tree walks back to one load: a concatenation branches (scf.if) to the
// operand that holds the element along its axis, here the two slices of a
// roll, each a load from the one input at its start. The concatenation is
// along rows of 16, so a vector of 8 lanes (16 bytes) lies in one part and
// is loaded whole.
// CHECK-LABEL: func.func @main
// CHECK: brrr.fusion movement{{.*}}brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, tile = [1], vector = 8, grid = [1, 1, 1]>
func.func @main(%x: tensor<2x14x16xf16>) -> tensor<2x7x2x16xf16> {
  %0 = brrr.slice %x {sizes = array<i64: 2, 11, 16>, starts = array<i64: 0, 3, 0>, steps = array<i64: 1, 1, 1>} : tensor<2x14x16xf16> -> tensor<2x11x16xf16>
  %1 = brrr.slice %x {sizes = array<i64: 2, 3, 16>, starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : tensor<2x14x16xf16> -> tensor<2x3x16xf16>
  %2 = brrr.concat %0, %1 {axis = 1 : i64} : (tensor<2x11x16xf16>, tensor<2x3x16xf16>) -> tensor<2x14x16xf16>
  %3 = brrr.reshape %2 : tensor<2x14x16xf16> -> tensor<2x2x7x16xf16>
  %4 = brrr.transpose %3 {perm = array<i64: 0, 2, 1, 3>} : tensor<2x2x7x16xf16> -> tensor<2x7x2x16xf16>
  return %4 : tensor<2x7x2x16xf16>
}
