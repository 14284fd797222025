// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-movement))' | FileCheck %s

// Each data-movement op is a kernel of its own; a reshape stays a view.
// CHECK-LABEL: func.func @MovementOpsBecomeKernels
// CHECK: %[[T:.+]] = brrr.fusion movement(%{{.+}}) : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<2x3xf32>):
// CHECK-NEXT:   brrr.transpose %[[A]] {perm = array<i64: 1, 0>}
// CHECK: %[[R:.+]] = brrr.reshape %[[T]] : tensor<3x2xf32> -> tensor<6xf32>
// CHECK: brrr.fusion movement(%[[R]], %{{.+}}) : (tensor<6xf32>, tensor<4xi64>) -> tensor<4xf32>
// CHECK: brrr.gather
// CHECK: brrr.fusion movement
// CHECK: brrr.concat
func.func @MovementOpsBecomeKernels(%x: tensor<2x3xf32>, %i: tensor<4xi64>) -> tensor<8xf32> {
  %0 = brrr.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = brrr.reshape %0 : tensor<3x2xf32> -> tensor<6xf32>
  %2 = brrr.gather %1, %i {axis = 0 : i64} : (tensor<6xf32>, tensor<4xi64>) -> tensor<4xf32>
  %3 = brrr.concat %2, %2 {axis = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// A resize is a kernel of its own, never a member of a tree: an element of
// a linear resize is no one load.
// CHECK-LABEL: func.func @ResizeIsAKernelOfItsOwn
// CHECK: %[[T:.+]] = brrr.fusion movement(%{{.+}}) : (tensor<1x2x3x4xf16>) -> tensor<1x3x4x2xf16>
// CHECK: brrr.transpose
// CHECK: %[[R:.+]] = brrr.fusion movement(%[[T]]) : (tensor<1x3x4x2xf16>) -> tensor<1x6x8x2xf16>
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<1x3x4x2xf16>):
// CHECK-NEXT:   %[[Y:.+]] = brrr.resize linear %[[A]] half_pixel round_prefer_floor
// CHECK-NEXT:   brrr.yield %[[Y]]
// CHECK: return %[[R]]
func.func @ResizeIsAKernelOfItsOwn(%x: tensor<1x2x3x4xf16>) -> tensor<1x6x8x2xf16> {
  %0 = brrr.transpose %x {perm = array<i64: 0, 2, 3, 1>} : tensor<1x2x3x4xf16> -> tensor<1x3x4x2xf16>
  %1 = brrr.resize linear %0 half_pixel round_prefer_floor : tensor<1x3x4x2xf16> -> tensor<1x6x8x2xf16>
  return %1 : tensor<1x6x8x2xf16>
}

// -----

// Ops already in a kernel are left alone.
// CHECK-LABEL: func.func @LeaveFusedOpsAlone
// CHECK: brrr.fusion pointwise
// CHECK-NOT: brrr.fusion movement
func.func @LeaveFusedOpsAlone(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = brrr.fusion pointwise(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %1 = brrr.relu %a : tensor<4xf32>
    brrr.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Index-driven ops are movement kernels too: gathers by element and by
// tuple, and scatters (which combine as they move).
// CHECK-LABEL: func.func @IndexDrivenOpsBecomeMovementKernels
// CHECK: brrr.fusion movement
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.gather_elements
// CHECK: brrr.fusion movement
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.gather_nd
// CHECK: brrr.fusion movement
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.scatter_elements
// CHECK: brrr.fusion movement
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.scatter_nd
func.func @IndexDrivenOpsBecomeMovementKernels(%x: tensor<4x6xf32>, %i: tensor<4x2xi64>, %u: tensor<4x2xf32>, %t: tensor<3x1xi64>, %v: tensor<3x6xf32>)
    -> (tensor<4x2xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %0 = brrr.gather_elements %x, %i {axis = 1 : i64} : (tensor<4x6xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  %1 = brrr.gather_nd %x, %t {batch_dims = 0 : i64} : (tensor<4x6xf32>, tensor<3x1xi64>) -> tensor<3x6xf32>
  %2 = brrr.scatter_elements add %x, %i, %u {axis = 1 : i64} : (tensor<4x6xf32>, tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x6xf32>
  %3 = brrr.scatter_nd none %x, %t, %1 : (tensor<4x6xf32>, tensor<3x1xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
  return %0, %2, %3, %3 : tensor<4x2xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// A chain of index maps, each read only by the next, with two or more
// copies in it is one kernel (a stem's input preparation: NCHW to NHWC,
// pad, space to depth, pad the channels), the reshapes between them
// inside it.
// CHECK-LABEL: func.func @ChainIsOneKernel
// CHECK: %[[K:.+]] = brrr.fusion movement(%arg0) : (tensor<2x3x8x8xf16>) -> tensor<2x5x5x16xf16>
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<2x3x8x8xf16>):
// CHECK-NEXT: %[[T:.+]] = brrr.transpose %[[A]]
// CHECK-NEXT: %[[P:.+]] = brrr.pad constant %[[T]]
// CHECK-NEXT: %[[R:.+]] = brrr.reshape %[[P]]
// CHECK-NEXT: %[[T6:.+]] = brrr.transpose %[[R]]
// CHECK-NEXT: %[[R4:.+]] = brrr.reshape %[[T6]]
// CHECK-NEXT: %[[P16:.+]] = brrr.pad constant %[[R4]]
// CHECK-NEXT: brrr.yield %[[P16]]
// CHECK-NOT: brrr.fusion
// CHECK: return %[[K]]
func.func @ChainIsOneKernel(%x: tensor<2x3x8x8xf16>) -> tensor<2x5x5x16xf16> {
  %0 = brrr.transpose %x {perm = array<i64: 0, 2, 3, 1>} : tensor<2x3x8x8xf16> -> tensor<2x8x8x3xf16>
  %1 = brrr.pad constant %0 {high = array<i64: 0, 1, 1, 0>, low = array<i64: 0, 1, 1, 0>, value = 0.0 : f64} : tensor<2x8x8x3xf16> -> tensor<2x10x10x3xf16>
  %2 = brrr.reshape %1 : tensor<2x10x10x3xf16> -> tensor<2x5x2x5x2x3xf16>
  %3 = brrr.transpose %2 {perm = array<i64: 0, 1, 3, 2, 4, 5>} : tensor<2x5x2x5x2x3xf16> -> tensor<2x5x5x2x2x3xf16>
  %4 = brrr.reshape %3 : tensor<2x5x5x2x2x3xf16> -> tensor<2x5x5x12xf16>
  %5 = brrr.pad constant %4 {high = array<i64: 0, 0, 0, 4>, low = array<i64: 0, 0, 0, 0>, value = 0.0 : f64} : tensor<2x5x5x12xf16> -> tensor<2x5x5x16xf16>
  return %5 : tensor<2x5x5x16xf16>
}

// -----

// Chains stay apart at a tiled transpose (its 32 x 32 shared tiles
// coalesce both sides; a per-element chain would not), where an
// intermediate has another reader, and where the chain holds one copy
// (a reshape after a transpose stays a view).
// CHECK-LABEL: func.func @ChainsKeptApart
// CHECK: %[[T:.+]] = brrr.fusion movement(%arg0)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.yield
// CHECK: brrr.fusion movement(%[[T]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.pad
// CHECK-NEXT: brrr.yield
// CHECK: %[[S:.+]] = brrr.fusion movement(%arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.yield
// CHECK: brrr.fusion movement(%[[S]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.pad
// CHECK-NEXT: brrr.yield
// CHECK: %[[U:.+]] = brrr.fusion movement(%arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.yield
// CHECK: brrr.reshape %[[U]]
func.func @ChainsKeptApart(%x: tensor<2x64x10x10xf16>, %y: tensor<4x6xf32>) -> (tensor<2x10x10x72xf16>, tensor<3x6xf32>, tensor<2x6xf32>, tensor<24xf32>) {
  %0 = brrr.transpose %x {perm = array<i64: 0, 2, 3, 1>} : tensor<2x64x10x10xf16> -> tensor<2x10x10x64xf16>
  %1 = brrr.pad constant %0 {high = array<i64: 0, 0, 0, 8>, low = array<i64: 0, 0, 0, 0>, value = 0.0 : f64} : tensor<2x10x10x64xf16> -> tensor<2x10x10x72xf16>
  %2 = brrr.slice %y {sizes = array<i64: 2, 6>, starts = array<i64: 0, 0>, steps = array<i64: 2, 1>} : tensor<4x6xf32> -> tensor<2x6xf32>
  %3 = brrr.pad constant %2 {high = array<i64: 1, 0>, low = array<i64: 0, 0>, value = 0.0 : f64} : tensor<2x6xf32> -> tensor<3x6xf32>
  %4 = brrr.transpose %y {perm = array<i64: 1, 0>} : tensor<4x6xf32> -> tensor<6x4xf32>
  %5 = brrr.reshape %4 : tensor<6x4xf32> -> tensor<24xf32>
  return %1, %3, %2, %5 : tensor<2x10x10x72xf16>, tensor<3x6xf32>, tensor<2x6xf32>, tensor<24xf32>
}

// -----

// A tiled transpose is a kernel of its own in the middle of a chain: the
// copies before it (two slices concatenated) are one kernel, and so are
// those after it (a pad of the channels and a slice of the rows).
// CHECK-LABEL: func.func @TiledTransposeSplitsAChain
// CHECK: %[[C:.+]] = brrr.fusion movement(%arg0, %arg1) : (tensor<2x64x10x10xf16>, tensor<2x64x10x10xf16>) -> tensor<2x64x10x10xf16>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.concat
// CHECK-NEXT: brrr.yield
// CHECK: %[[T:.+]] = brrr.fusion movement(%[[C]]) : (tensor<2x64x10x10xf16>) -> tensor<2x10x10x64xf16>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.yield
// CHECK: %[[P:.+]] = brrr.fusion movement(%[[T]]) : (tensor<2x10x10x64xf16>) -> tensor<2x9x10x72xf16>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.pad
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.yield
// CHECK: return %[[P]]
func.func @TiledTransposeSplitsAChain(%x: tensor<2x64x10x10xf16>, %z: tensor<2x64x10x10xf16>) -> tensor<2x9x10x72xf16> {
  %0 = brrr.slice %x {sizes = array<i64: 2, 32, 10, 10>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x64x10x10xf16> -> tensor<2x32x10x10xf16>
  %1 = brrr.slice %z {sizes = array<i64: 2, 32, 10, 10>, starts = array<i64: 0, 32, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x64x10x10xf16> -> tensor<2x32x10x10xf16>
  %2 = brrr.concat %0, %1 {axis = 1 : i64} : (tensor<2x32x10x10xf16>, tensor<2x32x10x10xf16>) -> tensor<2x64x10x10xf16>
  %3 = brrr.transpose %2 {perm = array<i64: 0, 2, 3, 1>} : tensor<2x64x10x10xf16> -> tensor<2x10x10x64xf16>
  %4 = brrr.pad constant %3 {high = array<i64: 0, 0, 0, 8>, low = array<i64: 0, 0, 0, 0>, value = 0.0 : f64} : tensor<2x10x10x64xf16> -> tensor<2x10x10x72xf16>
  %5 = brrr.slice %4 {sizes = array<i64: 2, 9, 10, 72>, starts = array<i64: 0, 1, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x10x10x72xf16> -> tensor<2x9x10x72xf16>
  return %5 : tensor<2x9x10x72xf16>
}

// -----

// A tree of index maps and concatenations, each op read only inside it, is
// one kernel even where a value is read twice: Swin's cyclic shift (two
// slices of one tensor concatenated, along H and then W) and its window
// partition. Its input is one kernel argument.
// CHECK-LABEL: func.func @RollAndWindowsAreOneKernel
// CHECK: %[[K:.+]] = brrr.fusion movement(%arg0) : (tensor<2x14x14x16xf16>) -> tensor<8x49x16xf16>
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<2x14x14x16xf16>):
// CHECK-NEXT: %[[S1:.+]] = brrr.slice %[[A]]
// CHECK-NEXT: %[[S2:.+]] = brrr.slice %[[A]]
// CHECK-NEXT: %[[C1:.+]] = brrr.concat %[[S1]], %[[S2]] {axis = 1 : i64}
// CHECK-NEXT: %[[S3:.+]] = brrr.slice %[[C1]]
// CHECK-NEXT: %[[S4:.+]] = brrr.slice %[[C1]]
// CHECK-NEXT: %[[C2:.+]] = brrr.concat %[[S3]], %[[S4]] {axis = 2 : i64}
// CHECK-NEXT: brrr.reshape %[[C2]]
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.reshape
// CHECK-NEXT: brrr.yield
// CHECK-NOT: brrr.fusion
// CHECK: return %[[K]]
func.func @RollAndWindowsAreOneKernel(%x: tensor<2x14x14x16xf16>) -> tensor<8x49x16xf16> {
  %0 = brrr.slice %x {sizes = array<i64: 2, 11, 14, 16>, starts = array<i64: 0, 3, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x16xf16> -> tensor<2x11x14x16xf16>
  %1 = brrr.slice %x {sizes = array<i64: 2, 3, 14, 16>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x16xf16> -> tensor<2x3x14x16xf16>
  %2 = brrr.concat %0, %1 {axis = 1 : i64} : (tensor<2x11x14x16xf16>, tensor<2x3x14x16xf16>) -> tensor<2x14x14x16xf16>
  %3 = brrr.slice %2 {sizes = array<i64: 2, 14, 11, 16>, starts = array<i64: 0, 0, 3, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x16xf16> -> tensor<2x14x11x16xf16>
  %4 = brrr.slice %2 {sizes = array<i64: 2, 14, 3, 16>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x16xf16> -> tensor<2x14x3x16xf16>
  %5 = brrr.concat %3, %4 {axis = 2 : i64} : (tensor<2x14x11x16xf16>, tensor<2x14x3x16xf16>) -> tensor<2x14x14x16xf16>
  %6 = brrr.reshape %5 : tensor<2x14x14x16xf16> -> tensor<2x2x7x2x7x16xf16>
  %7 = brrr.transpose %6 {perm = array<i64: 0, 1, 3, 2, 4, 5>} : tensor<2x2x7x2x7x16xf16> -> tensor<2x2x2x7x7x16xf16>
  %8 = brrr.reshape %7 : tensor<2x2x2x7x7x16xf16> -> tensor<8x49x16xf16>
  return %8 : tensor<8x49x16xf16>
}

// -----

// A tree stops at a value read outside it (the shifted tensor is also
// returned, so it is written once and the partition reads it), and at a
// tree where an element could come from more than 16 loads: five nested
// pairs of concatenated slices (32 paths) stay kernels of their own.
// CHECK-LABEL: func.func @TreesStopAtOutsideReaders
// CHECK: %[[R:.+]] = brrr.fusion movement(%arg0)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.slice
// CHECK-NEXT: brrr.concat
// CHECK-NEXT: brrr.yield
// CHECK: %[[W:.+]] = brrr.reshape %[[R]]
// CHECK: brrr.fusion movement(%[[W]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.transpose
// CHECK-NEXT: brrr.yield
// CHECK-COUNT-15: brrr.fusion movement
// CHECK-NOT: brrr.fusion movement
// CHECK: return
func.func @TreesStopAtOutsideReaders(%x: tensor<2x14x14x16xf16>, %y: tensor<64xf32>) -> (tensor<2x14x14x16xf16>, tensor<2x2x2x7x7x16xf16>, tensor<64xf32>) {
  %0 = brrr.slice %x {sizes = array<i64: 2, 11, 14, 16>, starts = array<i64: 0, 3, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x16xf16> -> tensor<2x11x14x16xf16>
  %1 = brrr.slice %x {sizes = array<i64: 2, 3, 14, 16>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x14x14x16xf16> -> tensor<2x3x14x16xf16>
  %2 = brrr.concat %0, %1 {axis = 1 : i64} : (tensor<2x11x14x16xf16>, tensor<2x3x14x16xf16>) -> tensor<2x14x14x16xf16>
  %6 = brrr.reshape %2 : tensor<2x14x14x16xf16> -> tensor<2x2x7x2x7x16xf16>
  %7 = brrr.transpose %6 {perm = array<i64: 0, 1, 3, 2, 4, 5>} : tensor<2x2x7x2x7x16xf16> -> tensor<2x2x2x7x7x16xf16>
  %a0 = brrr.slice %y {sizes = array<i64: 32>, starts = array<i64: 32>, steps = array<i64: 1>} : tensor<64xf32> -> tensor<32xf32>
  %b0 = brrr.slice %y {sizes = array<i64: 32>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<64xf32> -> tensor<32xf32>
  %c0 = brrr.concat %a0, %b0 {axis = 0 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<64xf32>
  %a1 = brrr.slice %c0 {sizes = array<i64: 32>, starts = array<i64: 32>, steps = array<i64: 1>} : tensor<64xf32> -> tensor<32xf32>
  %b1 = brrr.slice %c0 {sizes = array<i64: 32>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<64xf32> -> tensor<32xf32>
  %c1 = brrr.concat %a1, %b1 {axis = 0 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<64xf32>
  %a2 = brrr.slice %c1 {sizes = array<i64: 32>, starts = array<i64: 32>, steps = array<i64: 1>} : tensor<64xf32> -> tensor<32xf32>
  %b2 = brrr.slice %c1 {sizes = array<i64: 32>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<64xf32> -> tensor<32xf32>
  %c2 = brrr.concat %a2, %b2 {axis = 0 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<64xf32>
  %a3 = brrr.slice %c2 {sizes = array<i64: 32>, starts = array<i64: 32>, steps = array<i64: 1>} : tensor<64xf32> -> tensor<32xf32>
  %b3 = brrr.slice %c2 {sizes = array<i64: 32>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<64xf32> -> tensor<32xf32>
  %c3 = brrr.concat %a3, %b3 {axis = 0 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<64xf32>
  %a4 = brrr.slice %c3 {sizes = array<i64: 32>, starts = array<i64: 32>, steps = array<i64: 1>} : tensor<64xf32> -> tensor<32xf32>
  %b4 = brrr.slice %c3 {sizes = array<i64: 32>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<64xf32> -> tensor<32xf32>
  %c4 = brrr.concat %a4, %b4 {axis = 0 : i64} : (tensor<32xf32>, tensor<32xf32>) -> tensor<64xf32>
  return %2, %7, %c4 : tensor<2x14x14x16xf16>, tensor<2x2x2x7x7x16xf16>, tensor<64xf32>
}

// -----

// A stem's window columns unfolded into channels: four overlapping slices
// read each element of the space-to-depth cells about four times, so the
// cells (pad, reshape, transpose, reshape, pad) are one kernel and the
// slices and their concatenation another, which walks each row back to
// one vector of cells instead of through the whole chain.
// CHECK-LABEL: func.func @RepeatedReadsEndATree
// CHECK: %[[CELLS:.+]] = brrr.fusion movement(%arg0) : (tensor<2x14x14x3xf16>) -> tensor<2x7x7x16xf16>
// CHECK: brrr.pad
// CHECK: brrr.transpose
// CHECK: brrr.pad
// CHECK-NOT: brrr.slice
// CHECK: brrr.yield
// CHECK: brrr.fusion movement(%[[CELLS]]) : (tensor<2x7x7x16xf16>) -> tensor<2x7x4x64xf16>
// CHECK-COUNT-4: brrr.slice
// CHECK: brrr.concat
func.func @RepeatedReadsEndATree(%x: tensor<2x14x14x3xf16>) -> tensor<2x7x4x64xf16> {
  %0 = brrr.pad constant %x {high = array<i64: 0, 0, 0, 0>, low = array<i64: 0, 0, 0, 0>, value = 0.0 : f64} : tensor<2x14x14x3xf16> -> tensor<2x14x14x3xf16>
  %1 = brrr.reshape %0 : tensor<2x14x14x3xf16> -> tensor<2x7x2x7x2x3xf16>
  %2 = brrr.transpose %1 {perm = array<i64: 0, 1, 3, 2, 4, 5>} : tensor<2x7x2x7x2x3xf16> -> tensor<2x7x7x2x2x3xf16>
  %3 = brrr.reshape %2 : tensor<2x7x7x2x2x3xf16> -> tensor<2x7x7x12xf16>
  %4 = brrr.pad constant %3 {high = array<i64: 0, 0, 0, 4>, low = array<i64: 0, 0, 0, 0>, value = 0.0 : f64} : tensor<2x7x7x12xf16> -> tensor<2x7x7x16xf16>
  %s0 = brrr.slice %4 {sizes = array<i64: 2, 7, 4, 16>, starts = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x7x7x16xf16> -> tensor<2x7x4x16xf16>
  %s1 = brrr.slice %4 {sizes = array<i64: 2, 7, 4, 16>, starts = array<i64: 0, 0, 1, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x7x7x16xf16> -> tensor<2x7x4x16xf16>
  %s2 = brrr.slice %4 {sizes = array<i64: 2, 7, 4, 16>, starts = array<i64: 0, 0, 2, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x7x7x16xf16> -> tensor<2x7x4x16xf16>
  %s3 = brrr.slice %4 {sizes = array<i64: 2, 7, 4, 16>, starts = array<i64: 0, 0, 3, 0>, steps = array<i64: 1, 1, 1, 1>} : tensor<2x7x7x16xf16> -> tensor<2x7x4x16xf16>
  %c = brrr.concat %s0, %s1, %s2, %s3 {axis = 3 : i64} : (tensor<2x7x4x16xf16>, tensor<2x7x4x16xf16>, tensor<2x7x4x16xf16>, tensor<2x7x4x16xf16>) -> tensor<2x7x4x64xf16>
  return %c : tensor<2x7x4x64xf16>
}

// -----

// q and k = qkv.permute(2, 0, 3, 1, 4)[0 and 1] (torchvision's Swin, timm's
// ViTs), read by kernels that do not read through movement: each slice of
// qkv, transposed, is one kernel that copies its third, and no kernel
// copies the whole transpose. A tiled transpose (through shared memory)
// read by two slices stays one kernel, and its slices copies of it.
// CHECK-LABEL: func.func @SlicedTranspose
// CHECK: brrr.fusion movement(%arg0)
// CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<4x64x3x3x32xf16>):
// CHECK-NEXT: %[[P:.+]] = brrr.slice %[[A]] {sizes = array<i64: 4, 64, 1, 3, 32>, starts = array<i64: 0, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>}
// CHECK-NEXT: brrr.transpose %[[P]] {perm = array<i64: 2, 0, 3, 1, 4>} : tensor<4x64x1x3x32xf16> -> tensor<1x4x3x64x32xf16>
// CHECK: brrr.fusion movement(%arg0)
// CHECK-NEXT: ^bb0(%[[B:.+]]: tensor<4x64x3x3x32xf16>):
// CHECK-NEXT: %[[Q:.+]] = brrr.slice %[[B]] {sizes = array<i64: 4, 64, 1, 3, 32>, starts = array<i64: 0, 0, 1, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>}
// CHECK-NEXT: brrr.transpose %[[Q]] {perm = array<i64: 2, 0, 3, 1, 4>} : tensor<4x64x1x3x32xf16> -> tensor<1x4x3x64x32xf16>
// CHECK: %[[T:.+]] = brrr.fusion movement(%arg1)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.transpose {{.+}} {perm = array<i64: 0, 2, 1>} : tensor<2x64x96xf16> -> tensor<2x96x64xf16>
// CHECK: brrr.fusion movement(%[[T]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice {{.+}} starts = array<i64: 0, 0, 0>{{.+}} -> tensor<2x48x64xf16>
// CHECK-NEXT: brrr.yield
// CHECK: brrr.fusion movement(%[[T]])
// CHECK-NEXT: ^bb0
// CHECK-NEXT: brrr.slice {{.+}} starts = array<i64: 0, 48, 0>{{.+}} -> tensor<2x48x64xf16>
// CHECK-NEXT: brrr.yield
// CHECK: return
func.func @SlicedTranspose(%qkv: tensor<4x64x3x3x32xf16>, %x: tensor<2x64x96xf16>) -> (tensor<1x4x3x64x32xf16>, tensor<1x4x3x64x32xf16>, tensor<2x48x64xf16>, tensor<2x48x64xf16>) {
  %t = brrr.transpose %qkv {perm = array<i64: 2, 0, 3, 1, 4>} : tensor<4x64x3x3x32xf16> -> tensor<3x4x3x64x32xf16>
  %q = brrr.slice %t {sizes = array<i64: 1, 4, 3, 64, 32>, starts = array<i64: 0, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : tensor<3x4x3x64x32xf16> -> tensor<1x4x3x64x32xf16>
  %k = brrr.slice %t {sizes = array<i64: 1, 4, 3, 64, 32>, starts = array<i64: 1, 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1, 1>} : tensor<3x4x3x64x32xf16> -> tensor<1x4x3x64x32xf16>
  %xt = brrr.transpose %x {perm = array<i64: 0, 2, 1>} : tensor<2x64x96xf16> -> tensor<2x96x64xf16>
  %a = brrr.slice %xt {sizes = array<i64: 2, 48, 64>, starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : tensor<2x96x64xf16> -> tensor<2x48x64xf16>
  %b = brrr.slice %xt {sizes = array<i64: 2, 48, 64>, starts = array<i64: 0, 48, 0>, steps = array<i64: 1, 1, 1>} : tensor<2x96x64xf16> -> tensor<2x48x64xf16>
  return %q, %k, %a, %b : tensor<1x4x3x64x32xf16>, tensor<1x4x3x64x32xf16>, tensor<2x48x64xf16>, tensor<2x48x64xf16>
}
