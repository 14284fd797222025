// RUN: brrr-opt %s -verify-diagnostics --pass-pipeline='builtin.module(func.func(brrr-lower-precision))'

// An unknown precision is an error, not a silent f32 compile.
// expected-error @+1 {{unknown brrr.precision 'fp8' (supported: fp32, tf32, fp16, bf16)}}
module attributes {brrr.precision = "fp8"} {
  func.func @UnknownPrecision(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
    %0 = brrr.matmul %a, %b : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
    return %0 : tensor<4x2xf32>
  }
}
