// RUN: brrr-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-elementwise,brrr-fuse-matmul))' | FileCheck %s

// A gated unit (silu(x W_gate) * (x W_up)) on a wgmma target: one product
// by the weights side by side (row k: the gate's row k, then the up
// weight's; 1.0 = 0x3C00, 2.0 = 0x4000), read through its two halves by
// the epilogue, in one kernel.
// CHECK-LABEL: func.func @Gated
// CHECK: %[[W:.+]] = brrr.constant dense_resource<paired_weight> : tensor<16x16xf16>
// CHECK: brrr.fusion matmul(%arg0, %[[W]]) : (tensor<2x48x16xf16>, tensor<16x16xf16>) -> tensor<2x48x8xf16>
// CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<2x48x16xf16>, %[[B:.+]]: tensor<16x16xf16>):
// CHECK-NEXT: %[[P:.+]] = brrr.matmul %[[X]], %[[B]] : tensor<2x48x16xf16>, tensor<16x16xf16> -> tensor<2x48x16xf16>
// CHECK-NEXT: %[[G:.+]] = brrr.slice %[[P]] {sizes = array<i64: 2, 48, 8>, starts = array<i64: 0, 0, 0>
// CHECK-NEXT: %[[U:.+]] = brrr.slice %[[P]] {sizes = array<i64: 2, 48, 8>, starts = array<i64: 0, 0, 8>
// CHECK-NEXT: %[[S:.+]] = brrr.sigmoid %[[G]]
// CHECK-NEXT: %[[A:.+]] = brrr.mul %[[G]], %[[S]]
// CHECK-NEXT: %[[Y:.+]] = brrr.mul %[[A]], %[[U]]
// CHECK-NEXT: brrr.yield %[[Y]]
// CHECK-NOT: brrr.fusion
// CHECK: paired_weight: "0x08000000003C003C003C003C003C003C003C003C0040004000400040004000400040004000
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @Gated(%x: tensor<2x48x16xf16>) -> tensor<2x48x8xf16> {
    %wg = brrr.constant dense<1.0> : tensor<16x8xf16>
    %wu = brrr.constant dense<2.0> : tensor<16x8xf16>
    %g = brrr.matmul %x, %wg : tensor<2x48x16xf16>, tensor<16x8xf16> -> tensor<2x48x8xf16>
    %u = brrr.matmul %x, %wu : tensor<2x48x16xf16>, tensor<16x8xf16> -> tensor<2x48x8xf16>
    %s = brrr.sigmoid %g : tensor<2x48x8xf16>
    %a = brrr.mul %g, %s : tensor<2x48x8xf16>, tensor<2x48x8xf16> -> tensor<2x48x8xf16>
    %y = brrr.mul %a, %u : tensor<2x48x8xf16>, tensor<2x48x8xf16> -> tensor<2x48x8xf16>
    return %y : tensor<2x48x8xf16>
  }
}

// -----

// Products that do not pair: 64 rows (the few-rows bodies'), a gate also
// returned, two activations, a weight that is not a constant. Each keeps
// a kernel of its own, the up product with the gated epilogue.
// CHECK-LABEL: func.func @Unpaired
// CHECK-NOT: paired_weight
// CHECK-NOT: brrr.slice
// CHECK-COUNT-2: brrr.fusion matmul
// CHECK-LABEL: func.func @ReadElsewhere
// CHECK-NOT: brrr.slice
// CHECK-COUNT-2: brrr.fusion matmul
// CHECK-LABEL: func.func @TwoActivations
// CHECK-NOT: brrr.slice
// CHECK-COUNT-2: brrr.fusion matmul
// CHECK-LABEL: func.func @WeightInput
// CHECK-NOT: brrr.slice
// CHECK-COUNT-2: brrr.fusion matmul
// CHECK-NOT: paired_weight
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @Unpaired(%x: tensor<64x16xf16>) -> tensor<64x8xf16> {
    %wg = brrr.constant dense<1.0> : tensor<16x8xf16>
    %wu = brrr.constant dense<2.0> : tensor<16x8xf16>
    %g = brrr.matmul %x, %wg : tensor<64x16xf16>, tensor<16x8xf16> -> tensor<64x8xf16>
    %u = brrr.matmul %x, %wu : tensor<64x16xf16>, tensor<16x8xf16> -> tensor<64x8xf16>
    %s = brrr.sigmoid %g : tensor<64x8xf16>
    %y = brrr.mul %s, %u : tensor<64x8xf16>, tensor<64x8xf16> -> tensor<64x8xf16>
    return %y : tensor<64x8xf16>
  }
  func.func @ReadElsewhere(%x: tensor<96x16xf16>) -> (tensor<96x8xf16>, tensor<96x8xf16>) {
    %wg = brrr.constant dense<1.0> : tensor<16x8xf16>
    %wu = brrr.constant dense<2.0> : tensor<16x8xf16>
    %g = brrr.matmul %x, %wg : tensor<96x16xf16>, tensor<16x8xf16> -> tensor<96x8xf16>
    %u = brrr.matmul %x, %wu : tensor<96x16xf16>, tensor<16x8xf16> -> tensor<96x8xf16>
    %s = brrr.sigmoid %g : tensor<96x8xf16>
    %y = brrr.mul %s, %u : tensor<96x8xf16>, tensor<96x8xf16> -> tensor<96x8xf16>
    return %y, %g : tensor<96x8xf16>, tensor<96x8xf16>
  }
  func.func @TwoActivations(%x: tensor<96x16xf16>, %z: tensor<96x16xf16>) -> tensor<96x8xf16> {
    %wg = brrr.constant dense<1.0> : tensor<16x8xf16>
    %wu = brrr.constant dense<2.0> : tensor<16x8xf16>
    %g = brrr.matmul %x, %wg : tensor<96x16xf16>, tensor<16x8xf16> -> tensor<96x8xf16>
    %u = brrr.matmul %z, %wu : tensor<96x16xf16>, tensor<16x8xf16> -> tensor<96x8xf16>
    %s = brrr.sigmoid %g : tensor<96x8xf16>
    %y = brrr.mul %s, %u : tensor<96x8xf16>, tensor<96x8xf16> -> tensor<96x8xf16>
    return %y : tensor<96x8xf16>
  }
  func.func @WeightInput(%x: tensor<96x16xf16>, %wu: tensor<16x8xf16>) -> tensor<96x8xf16> {
    %wg = brrr.constant dense<1.0> : tensor<16x8xf16>
    %g = brrr.matmul %x, %wg : tensor<96x16xf16>, tensor<16x8xf16> -> tensor<96x8xf16>
    %u = brrr.matmul %x, %wu : tensor<96x16xf16>, tensor<16x8xf16> -> tensor<96x8xf16>
    %s = brrr.sigmoid %g : tensor<96x8xf16>
    %y = brrr.mul %s, %u : tensor<96x8xf16>, tensor<96x8xf16> -> tensor<96x8xf16>
    return %y : tensor<96x8xf16>
  }
}

// -----

// Without the wgmma body (sm_80), the products stay apart.
// CHECK-LABEL: func.func @NoWgmma
// CHECK-NOT: brrr.slice
// CHECK-COUNT-2: brrr.fusion matmul
// CHECK-NOT: paired_weight
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
  func.func @NoWgmma(%x: tensor<96x16xf16>) -> tensor<96x8xf16> {
    %wg = brrr.constant dense<1.0> : tensor<16x8xf16>
    %wu = brrr.constant dense<2.0> : tensor<16x8xf16>
    %g = brrr.matmul %x, %wg : tensor<96x16xf16>, tensor<16x8xf16> -> tensor<96x8xf16>
    %u = brrr.matmul %x, %wu : tensor<96x16xf16>, tensor<16x8xf16> -> tensor<96x8xf16>
    %s = brrr.sigmoid %g : tensor<96x8xf16>
    %y = brrr.mul %s, %u : tensor<96x8xf16>, tensor<96x8xf16> -> tensor<96x8xf16>
    return %y : tensor<96x8xf16>
  }
}

// -----

// A few rows whose weights brrr-align-products stored K-major ([N, K],
// read through a transpose): the weights' rows stacked, gate then up,
// read through one transpose; the few-rows bodies pair the halves.
// CHECK-LABEL: func.func @FewRowsKMajor
// CHECK: %[[W:.+]] = brrr.constant dense_resource<paired_weight> : tensor<16x16xf16>
// CHECK: brrr.fusion matmul(%arg0, %[[W]]) : (tensor<3x16xf16>, tensor<16x16xf16>) -> tensor<3x8xf16>
// CHECK: %[[T:.+]] = brrr.transpose %{{.+}} {perm = array<i64: 1, 0>} : tensor<16x16xf16> -> tensor<16x16xf16>
// CHECK-NEXT: %[[P:.+]] = brrr.matmul %{{.+}}, %[[T]] : tensor<3x16xf16>, tensor<16x16xf16> -> tensor<3x16xf16>
// CHECK-NEXT: brrr.slice %[[P]]
// CHECK-NEXT: brrr.slice %[[P]]
// CHECK-NOT: brrr.fusion
// CHECK: paired_weight: "0x08000000003C003C003C003C003C003C003C003C003C003C003C003C003C003C003C003C
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @FewRowsKMajor(%x: tensor<3x16xf16>) -> tensor<3x8xf16> {
    %wg = brrr.constant dense<1.0> : tensor<8x16xf16>
    %wu = brrr.constant dense<2.0> : tensor<8x16xf16>
    %tg = brrr.transpose %wg {perm = array<i64: 1, 0>} : tensor<8x16xf16> -> tensor<16x8xf16>
    %tu = brrr.transpose %wu {perm = array<i64: 1, 0>} : tensor<8x16xf16> -> tensor<16x8xf16>
    %g = brrr.matmul %x, %tg : tensor<3x16xf16>, tensor<16x8xf16> -> tensor<3x8xf16>
    %u = brrr.matmul %x, %tu : tensor<3x16xf16>, tensor<16x8xf16> -> tensor<3x8xf16>
    %s = brrr.sigmoid %g : tensor<3x8xf16>
    %y = brrr.mul %s, %u : tensor<3x8xf16>, tensor<3x8xf16> -> tensor<3x8xf16>
    return %y : tensor<3x8xf16>
  }
}

// -----

// A gate and up projection fused in one weight, its product chunked in
// two (Phi-3's gate_up_proj): the pointwise kernel that reads its halves
// becomes the product's epilogue. Halves of a product read elsewhere too
// stay a kernel of their own.
// CHECK-LABEL: func.func @Chunked
// CHECK: brrr.fusion matmul(%arg0, %{{.+}}) : (tensor<96x16xf16>, tensor<16x16xf16>) -> tensor<96x8xf16>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[P:.+]] = brrr.matmul
// CHECK-NEXT: %[[G:.+]] = brrr.slice %[[P]] {sizes = array<i64: 96, 8>, starts = array<i64: 0, 0>
// CHECK-NEXT: %[[U:.+]] = brrr.slice %[[P]] {sizes = array<i64: 96, 8>, starts = array<i64: 0, 8>
// CHECK-NEXT: brrr.sigmoid %[[G]]
// CHECK-NOT: brrr.fusion
// CHECK-LABEL: func.func @ChunkedReadTwice
// CHECK: brrr.fusion matmul
// CHECK-NOT: brrr.slice
// CHECK: brrr.yield
// CHECK: brrr.fusion pointwise
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
  func.func @Chunked(%x: tensor<96x16xf16>) -> tensor<96x8xf16> {
    %w = brrr.constant dense<1.0> : tensor<16x16xf16>
    %p = brrr.matmul %x, %w : tensor<96x16xf16>, tensor<16x16xf16> -> tensor<96x16xf16>
    %g = brrr.slice %p {sizes = array<i64: 96, 8>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<96x16xf16> -> tensor<96x8xf16>
    %u = brrr.slice %p {sizes = array<i64: 96, 8>, starts = array<i64: 0, 8>, steps = array<i64: 1, 1>} : tensor<96x16xf16> -> tensor<96x8xf16>
    %s = brrr.sigmoid %g : tensor<96x8xf16>
    %y = brrr.mul %s, %u : tensor<96x8xf16>, tensor<96x8xf16> -> tensor<96x8xf16>
    return %y : tensor<96x8xf16>
  }
  func.func @ChunkedReadTwice(%x: tensor<96x16xf16>) -> (tensor<96x8xf16>, tensor<96x16xf16>) {
    %w = brrr.constant dense<1.0> : tensor<16x16xf16>
    %p = brrr.matmul %x, %w : tensor<96x16xf16>, tensor<16x16xf16> -> tensor<96x16xf16>
    %g = brrr.slice %p {sizes = array<i64: 96, 8>, starts = array<i64: 0, 0>, steps = array<i64: 1, 1>} : tensor<96x16xf16> -> tensor<96x8xf16>
    %u = brrr.slice %p {sizes = array<i64: 96, 8>, starts = array<i64: 0, 8>, steps = array<i64: 1, 1>} : tensor<96x16xf16> -> tensor<96x8xf16>
    %s = brrr.sigmoid %g : tensor<96x8xf16>
    %y = brrr.mul %s, %u : tensor<96x8xf16>, tensor<96x8xf16> -> tensor<96x8xf16>
    return %y, %p : tensor<96x8xf16>, tensor<96x16xf16>
  }
}
