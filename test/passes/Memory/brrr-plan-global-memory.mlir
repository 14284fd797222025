// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-plan-global-memory))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul,brrr-plan-global-memory))' | FileCheck %s --check-prefix=KERNELS

// Returned results go to the output buffers; an intermediate that a later
// kernel reads lives in the arena (here: the second output of a
// multi-output kernel); weights get offsets in the weight block.
// CHECK-LABEL: func.func @OutputsArenaAndWeights
// CHECK-SAME: brrr.arena_bytes = 1024 : i64, brrr.weight_bytes = 1024 : i64
// CHECK: brrr.constant {brrr.memory = [#brrr.placement<storage = weight, offset = 0, bytes = 1024>]}
// CHECK: %[[F:.+]]:2 = brrr.fusion pointwise{{.+}}brrr.memory = [#brrr.placement<storage = output, offset = 0, bytes = 1024>, #brrr.placement<storage = arena, offset = 0, bytes = 1024>]
// CHECK: brrr.fusion pointwise(%[[F]]#1){{.+}}brrr.memory = [#brrr.placement<storage = output, offset = 0, bytes = 1024>]
func.func @OutputsArenaAndWeights(%x: tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %w = brrr.constant dense_resource<w> : tensor<256xf32>
  %0 = brrr.add %x, %w : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  %1 = brrr.exp %0 : tensor<256xf32>
  %2 = brrr.log %0 : tensor<256xf32>
  return %1, %2 : tensor<256xf32>, tensor<256xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000"
    }
  }
#-}

// -----

// A chain of kernels separated by a reshape view: the view keeps its root
// alive, and a same-shaped input that dies at a kernel is overwritten in
// place, so the arena never holds more than one 1 KiB buffer.
// CHECK-LABEL: func.func @InPlaceAndViews
// CHECK-SAME: brrr.arena_bytes = 1024 : i64
// CHECK: %[[A:.+]] = brrr.fusion{{.+}}#brrr.placement<storage = arena, offset = 0
// CHECK: %[[V:.+]] = brrr.reshape %[[A]]
// CHECK: brrr.matmul
// CHECK: brrr.fusion{{.+}}(%[[V]]){{.+}}#brrr.placement<storage = arena, offset = 0
// CHECK: brrr.matmul
func.func @InPlaceAndViews(%x: tensor<256xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %0 = brrr.exp %x : tensor<256xf32>
  %1 = brrr.reshape %0 : tensor<256xf32> -> tensor<16x16xf32>
  %2 = brrr.matmul %1, %1 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %3 = brrr.neg %1 : tensor<16x16xf32>
  %4 = brrr.exp %3 : tensor<16x16xf32>
  %5 = brrr.reshape %4 : tensor<16x16xf32> -> tensor<256xf32>
  %6 = brrr.reshape %5 : tensor<256xf32> -> tensor<16x16xf32>
  %7 = brrr.matmul %6, %6 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  return %2, %7 : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// An input read through data movement (here a roll: two slices
// concatenated) is read by other threads than the one writing each element:
// it never takes the output in place, though it dies there with the
// output's type.
// KERNELS-LABEL: func.func @NoInPlaceThroughMovement
// KERNELS-SAME: brrr.arena_bytes = 2048 : i64
// KERNELS: %[[A:.+]] = brrr.fusion matmul{{.+}}#brrr.placement<storage = arena, offset = 0
// KERNELS: %[[B:.+]] = brrr.fusion pointwise(%[[A]]){{.+}}#brrr.placement<storage = arena, offset = 1024
// KERNELS: brrr.fusion matmul(%[[B]])
func.func @NoInPlaceThroughMovement(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %1 = brrr.matmul %x, %x : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %2 = brrr.slice %1 {sizes = array<i64: 16, 8>, starts = array<i64: 0, 8>, steps = array<i64: 1, 1>} : tensor<16x16xf32> -> tensor<16x8xf32>
  %3 = brrr.slice %1 {sizes = array<i64: 16, 8>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<16x16xf32> -> tensor<16x8xf32>
  %4 = brrr.concat %2, %3 {axis = 1 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x16xf32>
  %5 = brrr.relu %4 : tensor<16x16xf32>
  %6 = brrr.matmul %5, %5 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  return %6 : tensor<16x16xf32>
}

// -----

// The same where the input is read by a pointwise op whose result is read
// through data movement: exp of a product, rolled.
// KERNELS-LABEL: func.func @NoInPlaceBehindMovement
// KERNELS-SAME: brrr.arena_bytes = 2048 : i64
// KERNELS: %[[A:.+]] = brrr.fusion matmul{{.+}}#brrr.placement<storage = arena, offset = 0
// KERNELS: %[[B:.+]] = brrr.fusion pointwise(%[[A]]){{.+}}#brrr.placement<storage = arena, offset = 1024
// KERNELS-NEXT: ^bb0
// KERNELS-NEXT: brrr.exp
func.func @NoInPlaceBehindMovement(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %1 = brrr.matmul %x, %x : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  %e = brrr.exp %1 : tensor<16x16xf32>
  %2 = brrr.slice %e {sizes = array<i64: 16, 8>, starts = array<i64: 0, 8>, steps = array<i64: 1, 1>} : tensor<16x16xf32> -> tensor<16x8xf32>
  %3 = brrr.slice %e {sizes = array<i64: 16, 8>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<16x16xf32> -> tensor<16x8xf32>
  %4 = brrr.concat %2, %3 {axis = 1 : i64} : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x16xf32>
  %5 = brrr.relu %4 : tensor<16x16xf32>
  %6 = brrr.matmul %5, %5 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  return %6 : tensor<16x16xf32>
}

// -----

// A result returned through reshape views is the same bytes: its kernel
// writes the output buffer itself, and no copy follows.
// CHECK-LABEL: func.func @ReturnedThroughViewsWritesTheOutput
// CHECK-SAME: brrr.arena_bytes = 0 : i64
// CHECK: %[[F:.+]] = brrr.fusion{{.+}}#brrr.placement<storage = output, offset = 0
// CHECK: %[[V:.+]] = brrr.reshape %[[F]]
// CHECK: return %[[V]]
func.func @ReturnedThroughViewsWritesTheOutput(%x: tensor<256xf32>) -> tensor<16x16xf32> {
  %0 = brrr.exp %x : tensor<256xf32>
  %1 = brrr.reshape %0 : tensor<256xf32> -> tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}
