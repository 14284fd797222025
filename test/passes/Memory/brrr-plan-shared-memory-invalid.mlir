// RUN: brrr-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory))'

// A plan over the budget is an error at compile time, never a failed
// launch: 1024 threads need 256 bytes, the module allows 128.
module attributes {brrr.target = "sm_90a", brrr.shared_memory_limit = 128 : i64} {
  func.func @OverBudget(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
    // expected-error @+1 {{needs 256 bytes of shared memory per block; the target sm_90a allows 128}}
    %0 = brrr.fusion "row"(%x) {brrr.threads = 1024 : i64} : (tensor<2x4096xf32>) -> tensor<2x4096xf32> {
    ^bb0(%a: tensor<2x4096xf32>):
      %1 = brrr.softmax %a {axis = 1 : i64} : tensor<2x4096xf32>
      brrr.yield %1 : tensor<2x4096xf32>
    }
    return %0 : tensor<2x4096xf32>
  }
}

// -----

// The planner checks the block size it is given.
func.func @ThreadsNotWholeWarps(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  // expected-error @+1 {{row kernels run whole warps, up to 1024 threads; got 48}}
  %0 = brrr.fusion "row"(%x) {brrr.threads = 48 : i64} : (tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  ^bb0(%a: tensor<2x4096xf32>):
    %1 = brrr.softmax %a {axis = 1 : i64} : tensor<2x4096xf32>
    brrr.yield %1 : tensor<2x4096xf32>
  }
  return %0 : tensor<2x4096xf32>
}

// -----

// Too few threads for the register-resident row is a diagnostic too.
func.func @RowTooLongForItsThreads(%x: tensor<2x8192xf32>) -> tensor<2x8192xf32> {
  // expected-error @+1 {{rows of 8192 elements exceed the register-resident row kernel}}
  %0 = brrr.fusion "row"(%x) {brrr.threads = 32 : i64} : (tensor<2x8192xf32>) -> tensor<2x8192xf32> {
  ^bb0(%a: tensor<2x8192xf32>):
    %1 = brrr.softmax %a {axis = 1 : i64} : tensor<2x8192xf32>
    brrr.yield %1 : tensor<2x8192xf32>
  }
  return %0 : tensor<2x8192xf32>
}
