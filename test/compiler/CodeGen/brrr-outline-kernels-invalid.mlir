// RUN: brrr-opt %s --brrr-outline-kernels -verify-diagnostics

// A fusion of a family without a generator is an error on that fusion.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{kernel family 'reduction' has no code generator}}
  %0 = brrr.fusion "reduction"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    brrr.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
