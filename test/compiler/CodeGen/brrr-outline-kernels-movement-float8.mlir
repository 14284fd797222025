// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-plan-shared-memory,brrr-plan-global-memory),brrr-outline-kernels)' -verify-diagnostics
// Movement kernels move float8 values as bytes (LLVM has no float8 type):
// a scatter that adds them, or a resize that interpolates them, is refused
// by name rather than compiled as arithmetic on bytes.

func.func @main(%arg0: tensor<7x3xf8E4M3FN>, %arg1: tensor<4x1xi64>, %arg2: tensor<4x3xf8E4M3FN>) -> tensor<7x3xf8E4M3FN> {
  %0 = brrr.fusion movement(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<7x3xf8E4M3FN>, tensor<4x1xi64>, tensor<4x3xf8E4M3FN>) -> tensor<7x3xf8E4M3FN> {
  ^bb0(%a: tensor<7x3xf8E4M3FN>, %b: tensor<4x1xi64>, %c: tensor<4x3xf8E4M3FN>):
    // expected-error @+1 {{computes with 'f8E4M3FN' values, which movement kernels only copy}}
    %1 = brrr.scatter_nd add %a, %b, %c : (tensor<7x3xf8E4M3FN>, tensor<4x1xi64>, tensor<4x3xf8E4M3FN>) -> tensor<7x3xf8E4M3FN>
    brrr.yield %1 : tensor<7x3xf8E4M3FN>
  }
  return %0 : tensor<7x3xf8E4M3FN>
}

// -----

// A scatter that replaces float8 values only copies them: its bytes.
func.func @main(%arg0: tensor<7x3xf8E4M3FN>, %arg1: tensor<4x1xi64>, %arg2: tensor<4x3xf8E4M3FN>) -> tensor<7x3xf8E4M3FN> {
  %0 = brrr.fusion movement(%arg0, %arg1, %arg2) {brrr.config = #brrr.kernel<family = movement, body = simt, threads = 256, grid = [1, 1, 1]>} : (tensor<7x3xf8E4M3FN>, tensor<4x1xi64>, tensor<4x3xf8E4M3FN>) -> tensor<7x3xf8E4M3FN> {
  ^bb0(%a: tensor<7x3xf8E4M3FN>, %b: tensor<4x1xi64>, %c: tensor<4x3xf8E4M3FN>):
    %1 = brrr.scatter_nd none %a, %b, %c : (tensor<7x3xf8E4M3FN>, tensor<4x1xi64>, tensor<4x3xf8E4M3FN>) -> tensor<7x3xf8E4M3FN>
    brrr.yield %1 : tensor<7x3xf8E4M3FN>
  }
  return %0 : tensor<7x3xf8E4M3FN>
}
