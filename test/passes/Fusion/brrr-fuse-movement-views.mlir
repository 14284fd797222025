// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-movement,brrr-plan-global-memory))' | FileCheck %s

// A table's first rows over a symbolic sequence (a rotary table sliced to
// the actual sequence), read by a pointwise kernel that broadcasts it over
// the batch: the slice starts at 0 on every axis, the axes before the one it
// shortens have extent 1 and those after it are whole, so the first
// elements of the table are the slice's, each at its own offset. It stays a
// view outside the kernel, as a reshape does: no movement kernel copies it
// and it gets no memory, the kernel reads the weights themselves.
// CHECK-LABEL: func.func @PrefixSliceIsAView
// CHECK-SAME: brrr.arena_bytes = 0 : i64, brrr.weight_bytes = 2048 : i64
// CHECK: %[[T:.+]] = brrr.constant {brrr.memory = [#brrr.placement<storage = weight, offset = 0, bytes = 2048>]}
// CHECK-NEXT: %[[V:.+]] = brrr.slice %[[T]] {extents = #brrr.extents<()[s0, s1] -> (1, s1, 8)>, {{.+}}} : tensor<1x64x8xf32> -> tensor<1x?x8xf32, {{.+}}>{{$}}
// CHECK-NEXT: brrr.fusion pointwise(%arg0, %[[V]]) {brrr.memory = [#brrr.placement<storage = output
// CHECK-NOT: brrr.fusion movement
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
func.func @PrefixSliceIsAView(%x: tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>) -> tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>> {
  %t = brrr.constant dense_resource<t> : tensor<1x64x8xf32>
  %v = brrr.slice %t {extents = #brrr.extents<()[s0, s1] -> (1, s1, 8)>, sizes = array<i64: 1, -9223372036854775808, 8>, starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : tensor<1x64x8xf32> -> tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>>
  %0 = brrr.add %x, %v : tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>, tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>> -> tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>
  return %0 : tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>
}
}
{-#
  dialect_resources: {
    builtin: {
      t: "0x04000000"
    }
  }
#-}

// -----

// The same through a reshape (position embeddings [512, d] sliced to the
// sequence and viewed as [1, seq, d]): views of views, read by a kernel.
// CHECK-LABEL: func.func @PrefixSliceThroughReshape
// CHECK-SAME: brrr.arena_bytes = 0 : i64
// CHECK: %[[V:.+]] = brrr.slice %{{.+}} : tensor<64x8xf32> -> tensor<?x8xf32, {{.+}}>{{$}}
// CHECK-NEXT: %[[R:.+]] = brrr.reshape %[[V]]
// CHECK-NEXT: brrr.fusion pointwise(%arg0, %[[R]])
// CHECK-NOT: brrr.fusion movement
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
func.func @PrefixSliceThroughReshape(%x: tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>) -> tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>> {
  %t = brrr.constant dense_resource<t> : tensor<64x8xf32>
  %v = brrr.slice %t {extents = #brrr.extents<()[s0, s1] -> (s1, 8)>, sizes = array<i64: -9223372036854775808, 8>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<64x8xf32> -> tensor<?x8xf32, #brrr.extents<()[s0, s1] -> (s1, 8)>>
  %r = brrr.reshape %v : tensor<?x8xf32, #brrr.extents<()[s0, s1] -> (s1, 8)>> -> tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>>
  %0 = brrr.add %x, %r : tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>, tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>> -> tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>
  return %0 : tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>
}
}
{-#
  dialect_resources: {
    builtin: {
      t: "0x04000000"
    }
  }
#-}

// -----

// Slices that are not their input's first elements at their own offsets
// are copied by movement kernels: one that starts at row 1, one that
// shortens rows too (each of its rows of 4 starts 8 elements after the one
// before in the table, 4 in the slice), and a prefix that is returned (the
// output buffer holds its own copy).
// CHECK-LABEL: func.func @SlicesThatAreCopied
// CHECK-COUNT-3: brrr.fusion movement
// CHECK-NOT: brrr.fusion movement
// CHECK: brrr.fusion pointwise
// CHECK-NOT: brrr.slice
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
func.func @SlicesThatAreCopied(%x: tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>, %y: tensor<?x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4)>>) -> (tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>, tensor<?x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4)>>, tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>>) {
  %t = brrr.constant dense_resource<t> : tensor<1x64x8xf32>
  %u = brrr.constant dense_resource<t> : tensor<1x65x8xf32>
  %v = brrr.slice %t {extents = #brrr.extents<()[s0, s1] -> (1, s1, 8)>, sizes = array<i64: 1, -9223372036854775808, 8>, starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : tensor<1x64x8xf32> -> tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>>
  %w = brrr.slice %u {extents = #brrr.extents<()[s0, s1] -> (1, s1, 8)>, sizes = array<i64: 1, -9223372036854775808, 8>, starts = array<i64: 0, 1, 0>, steps = array<i64: 1, 1, 1>} : tensor<1x65x8xf32> -> tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>>
  %n = brrr.slice %t {extents = #brrr.extents<()[s0, s1] -> (1, s1, 4)>, sizes = array<i64: 1, -9223372036854775808, 4>, starts = array<i64: 0, 0, 0>, steps = array<i64: 1, 1, 1>} : tensor<1x64x8xf32> -> tensor<1x?x4xf32, #brrr.extents<()[s0, s1] -> (1, s1, 4)>>
  %0 = brrr.add %x, %v : tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>, tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>> -> tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>
  %1 = brrr.mul %0, %w : tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>, tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>> -> tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>
  %2 = brrr.mul %y, %n : tensor<?x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4)>>, tensor<1x?x4xf32, #brrr.extents<()[s0, s1] -> (1, s1, 4)>> -> tensor<?x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4)>>
  return %1, %2, %v : tensor<?x?x8xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 8)>>, tensor<?x?x4xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 4)>>, tensor<1x?x8xf32, #brrr.extents<()[s0, s1] -> (1, s1, 8)>>
}
}
{-#
  dialect_resources: {
    builtin: {
      t: "0x04000000"
    }
  }
#-}
