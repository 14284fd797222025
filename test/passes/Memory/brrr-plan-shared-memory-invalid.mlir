// RUN: brrr-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory))'

// A plan over the budget is an error at compile time, never a failed
// launch: 1024 threads need 256 bytes, the module allows 128.
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>, brrr.shared_memory_limit = 128 : i64} {
  func.func @OverBudget(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
    // expected-error @+1 {{needs 256 bytes of shared memory per block; the target sm_90a allows 128}}
    %0 = brrr.fusion row(%x) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 1024, vector = 4>} : (tensor<2x4096xf32>) -> tensor<2x4096xf32> {
    ^bb0(%a: tensor<2x4096xf32>):
      %1 = brrr.softmax %a {axis = 1 : i64} : tensor<2x4096xf32>
      brrr.yield %1 : tensor<2x4096xf32>
    }
    return %0 : tensor<2x4096xf32>
  }
}

// -----

// The planner reads the config; it does not choose one.
func.func @NoConfig(%x: tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  // expected-error @+1 {{has no kernel config (brrr.config); run brrr-select-kernel-config first}}
  %0 = brrr.fusion row(%x) : (tensor<2x4096xf32>) -> tensor<2x4096xf32> {
  ^bb0(%a: tensor<2x4096xf32>):
    %1 = brrr.softmax %a {axis = 1 : i64} : tensor<2x4096xf32>
    brrr.yield %1 : tensor<2x4096xf32>
  }
  return %0 : tensor<2x4096xf32>
}

// -----

// Too few threads in the config for the register-resident row is a
// diagnostic too.
func.func @RowTooLongForItsThreads(%x: tensor<2x8192xf32>) -> tensor<2x8192xf32> {
  // expected-error @+1 {{rows of 8192 elements exceed the register-resident row kernel}}
  %0 = brrr.fusion row(%x) {brrr.config = #brrr.kernel<family = row, body = simt, threads = 32, vector = 4>} : (tensor<2x8192xf32>) -> tensor<2x8192xf32> {
  ^bb0(%a: tensor<2x8192xf32>):
    %1 = brrr.softmax %a {axis = 1 : i64} : tensor<2x8192xf32>
    brrr.yield %1 : tensor<2x8192xf32>
  }
  return %0 : tensor<2x8192xf32>
}
