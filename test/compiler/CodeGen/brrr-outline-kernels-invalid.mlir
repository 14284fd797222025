// RUN: brrr-opt %s -split-input-file --brrr-outline-kernels -verify-diagnostics

// A row kernel whose block reduces through shared memory finds its scratch
// by role and index in the pinned plan: a plan without it is an error on the
// fusion, not a kernel that reads elsewhere.
func.func @main(%x: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  // expected-error @+1 {{the shared-memory plan has no reduction buffer 1}}
  %0 = brrr.fusion row(%x) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, vector = 8, grid = [64, 1, 1]>, brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = reduction, offset = 0, bytes = 16>], bytes = 16>} : (tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  ^bb0(%a: tensor<64x4096xf16>):
    %1 = brrr.softmax %a {axis = 1 : i64} : tensor<64x4096xf16>
    brrr.yield %1 : tensor<64x4096xf16>
  }
  return %0 : tensor<64x4096xf16>
}

// -----

// A row kernel without a plan names the pass that records one.
func.func @main(%x: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  // expected-error @+1 {{has no shared-memory plan (brrr-plan-shared-memory)}}
  %0 = brrr.fusion row(%x) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, vector = 8, grid = [64, 1, 1]>} : (tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  ^bb0(%a: tensor<64x4096xf16>):
    %1 = brrr.softmax %a {axis = 1 : i64} : tensor<64x4096xf16>
    brrr.yield %1 : tensor<64x4096xf16>
  }
  return %0 : tensor<64x4096xf16>
}

// -----

// A product on plain threads is the few-rows body, for at most four rows
// read along K: not 16 rows.
func.func @main(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>) -> tensor<16x16xf16> {
  %0 = brrr.fusion matmul(%a, %b) {brrr.config = #brrr.kernel<family = matmul, body = simt, threads = 128>, brrr.shared = #brrr.shared<buffers = [], bytes = 0>} : (tensor<16x16xf16>, tensor<16x16xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x16xf16>, %y: tensor<16x16xf16>):
    // expected-error @+1 {{the few-rows body takes at most 4 rows of one batch}}
    %1 = brrr.matmul %x, %y : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
    brrr.yield %1 : tensor<16x16xf16>
  }
  return %0 : tensor<16x16xf16>
}

// -----

// The few-rows body on Tensor Cores reads both operands along K: a weight
// read along N is an error on the product, not a kernel of wrong sums.
func.func @main(%a: tensor<16x64xf16>, %b: tensor<64x64xf16>) -> tensor<16x64xf16> {
  %0 = brrr.fusion matmul(%a, %b) {brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 64, tile = [16, 16], vector = 8, grid = [4, 1, 1]>, brrr.shared = #brrr.shared<buffers = [#brrr.buffer<role = partials, offset = 0, bytes = 2048>], bytes = 2048>} : (tensor<16x64xf16>, tensor<64x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %y: tensor<64x64xf16>):
    // expected-error @+1 {{the few-rows Tensor Core body takes 5 to 64 rows of 16-bit operands read along K in 16-byte vectors}}
    %1 = brrr.matmul %x, %y : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
    brrr.yield %1 : tensor<16x64xf16>
  }
  return %0 : tensor<16x64xf16>
}

// -----

// Its warps sum their tiles through the plan's partials buffer: a plan
// without one is an error on the fusion.
func.func @main(%a: tensor<16x64xf16>, %b: tensor<64x64xf16>) -> tensor<16x64xf16> {
  // expected-error @+1 {{the shared-memory plan has no partials buffer 0}}
  %0 = brrr.fusion matmul(%a, %b) {brrr.config = #brrr.kernel<family = matmul, body = warp_mma, threads = 64, tile = [16, 16], vector = 8, grid = [4, 1, 1]>, brrr.shared = #brrr.shared<buffers = [], bytes = 0>} : (tensor<16x64xf16>, tensor<64x64xf16>) -> tensor<16x64xf16> {
  ^bb0(%x: tensor<16x64xf16>, %y: tensor<64x64xf16>):
    %t = brrr.transpose %y {perm = array<i64: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %1 = brrr.matmul %x, %t : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
    brrr.yield %1 : tensor<16x64xf16>
  }
  return %0 : tensor<16x64xf16>
}

// -----

// A product without a config names the pass that records one.
func.func @main(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>) -> tensor<16x16xf16> {
  // expected-error @+1 {{has no kernel config (brrr.config); run brrr-select-kernel-config first}}
  %0 = brrr.fusion matmul(%a, %b) : (tensor<16x16xf16>, tensor<16x16xf16>) -> tensor<16x16xf16> {
  ^bb0(%x: tensor<16x16xf16>, %y: tensor<16x16xf16>):
    %1 = brrr.matmul %x, %y : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf16>
    brrr.yield %1 : tensor<16x16xf16>
  }
  return %0 : tensor<16x16xf16>
}

// -----

// A config pinned without its launch grid names the pass that derives it.
func.func @main(%arg0: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  // expected-error @+1 {{records no launch grid; run brrr-select-kernel-config first}}
  %0 = brrr.fusion row(%arg0) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, vector = 8>} : (tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  ^bb0(%arg1: tensor<64x4096xf16>):
    %1 = brrr.softmax %arg1 {axis = 1 : i64} : tensor<64x4096xf16>
    brrr.yield %1 : tensor<64x4096xf16>
  }
  return %0 : tensor<64x4096xf16>
}

// -----

// A pinned grid other than the one the config's decisions give (a block a
// row: 64 blocks) is refused, naming both.
func.func @main(%arg0: tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  // expected-error @+1 {{kernel config #brrr.kernel<family = row, body = simt, threads = 128, vector = 8, grid = [32, 1, 1]> does not record the launch grid its decisions give: #brrr.kernel<family = row, body = simt, threads = 128, vector = 8, grid = [64, 1, 1]>}}
  %0 = brrr.fusion row(%arg0) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 128, vector = 8, grid = [32, 1, 1]>} : (tensor<64x4096xf16>) -> tensor<64x4096xf16> {
  ^bb0(%arg1: tensor<64x4096xf16>):
    %1 = brrr.softmax %arg1 {axis = 1 : i64} : tensor<64x4096xf16>
    brrr.yield %1 : tensor<64x4096xf16>
  }
  return %0 : tensor<64x4096xf16>
}
