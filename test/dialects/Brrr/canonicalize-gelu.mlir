// RUN: brrr-opt %s -split-input-file --canonicalize | FileCheck %s
// GELU written out, x * 0.5 * (1 + erf(x / sqrt(2))), becomes one
// brrr.gelu: as the TorchScript exporter writes it (a division by sqrt(2)
// in f16, whose rounding 1.4140625 is 1.5e-4 off, the halving last), and
// as models' own code does (a product by 1 / sqrt(2), x halved first, the
// sums and products in the other order, f32). A constant other than 0.5,
// sqrt(2) or 1, another value than x under the erf, or a broadcast that
// grows x keeps the arithmetic.

// CHECK-LABEL: func.func @torchscript_form
// CHECK-SAME: (%[[X:.+]]: tensor<4x1024xf16>)
// CHECK-NEXT: %[[G:.+]] = brrr.gelu none %[[X]] : tensor<4x1024xf16>
// CHECK-NEXT: return %[[G]]
func.func @torchscript_form(%x: tensor<4x1024xf16>) -> tensor<4x1024xf16> {
  %sqrt2 = brrr.constant dense<1.414> : tensor<f16>
  %one = brrr.constant dense<1.0> : tensor<f16>
  %half = brrr.constant dense<0.5> : tensor<f16>
  %d = brrr.div %x, %sqrt2 : tensor<4x1024xf16>, tensor<f16> -> tensor<4x1024xf16>
  %e = brrr.erf %d : tensor<4x1024xf16>
  %p = brrr.add %e, %one : tensor<4x1024xf16>, tensor<f16> -> tensor<4x1024xf16>
  %m = brrr.mul %x, %p : tensor<4x1024xf16>, tensor<4x1024xf16> -> tensor<4x1024xf16>
  %y = brrr.mul %m, %half : tensor<4x1024xf16>, tensor<f16> -> tensor<4x1024xf16>
  return %y : tensor<4x1024xf16>
}

// -----

// CHECK-LABEL: func.func @halved_first
// CHECK-SAME: (%[[X:.+]]: tensor<8x64xf32>)
// CHECK-NEXT: %[[G:.+]] = brrr.gelu none %[[X]] : tensor<8x64xf32>
// CHECK-NEXT: return %[[G]]
func.func @halved_first(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %rsqrt2 = brrr.constant dense<0.707106769> : tensor<1x1xf32>
  %one = brrr.constant dense<1.0> : tensor<f32>
  %half = brrr.constant dense<0.5> : tensor<f32>
  %h = brrr.mul %half, %x : tensor<f32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %d = brrr.mul %rsqrt2, %x : tensor<1x1xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %e = brrr.erf %d : tensor<8x64xf32>
  %p = brrr.add %one, %e : tensor<f32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %y = brrr.mul %p, %h : tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// CHECK-LABEL: func.func @not_gelus
// CHECK-NOT: brrr.gelu
// CHECK-COUNT-2: brrr.erf
// CHECK-NOT: brrr.gelu
func.func @not_gelus(%x: tensor<8xf16>, %z: tensor<8xf16>) -> (tensor<8xf16>, tensor<8xf16>, tensor<2x8xf16>) {
  %sqrt2 = brrr.constant dense<1.414> : tensor<f16>
  %one = brrr.constant dense<1.0> : tensor<f16>
  %half = brrr.constant dense<0.5> : tensor<f16>
  %third = brrr.constant dense<0.333> : tensor<f16>
  // A third, not a half.
  %d = brrr.div %x, %sqrt2 : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %e = brrr.erf %d : tensor<8xf16>
  %p = brrr.add %e, %one : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %m = brrr.mul %x, %p : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  %y0 = brrr.mul %m, %third : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  // z under the erf, x outside.
  %dz = brrr.div %z, %sqrt2 : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %ez = brrr.erf %dz : tensor<8xf16>
  %pz = brrr.add %ez, %one : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %mz = brrr.mul %x, %pz : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  %y1 = brrr.mul %mz, %half : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  // A 1 that broadcasts x to 2 x 8.
  %wide = brrr.constant dense<1.0> : tensor<2x8xf16>
  %pw = brrr.add %e, %wide : tensor<8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  %mw = brrr.mul %x, %pw : tensor<8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  %y2 = brrr.mul %mw, %half : tensor<2x8xf16>, tensor<f16> -> tensor<2x8xf16>
  return %y0, %y1, %y2 : tensor<8xf16>, tensor<8xf16>, tensor<2x8xf16>
}
