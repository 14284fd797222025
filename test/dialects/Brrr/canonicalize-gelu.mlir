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

// -----

// The tanh GELU written out, x * 0.5 * (1 + tanh(sqrt(2 / pi) * (x +
// 0.044715 * x^3))), becomes brrr.gelu tanh: as GPT-2's gelu_new comes
// from the dynamo exporter (pow(x, 3), the halving first, f16 constants),
// and with the cube as products and every sum and product in the other
// order (f32).
// CHECK-LABEL: func.func @gpt2_form
// CHECK-SAME: (%[[X:.+]]: tensor<4x768xf16>)
// CHECK-NEXT: %[[G:.+]] = brrr.gelu tanh %[[X]] : tensor<4x768xf16>
// CHECK-NEXT: return %[[G]]
func.func @gpt2_form(%x: tensor<4x768xf16>) -> tensor<4x768xf16> {
  %three = brrr.constant dense<3.0> : tensor<f16>
  %c = brrr.constant dense<0.044715> : tensor<f16>
  %k = brrr.constant dense<0.7978846> : tensor<f16>
  %one = brrr.constant dense<1.0> : tensor<f16>
  %half = brrr.constant dense<0.5> : tensor<f16>
  %p = brrr.pow %x, %three : tensor<4x768xf16>, tensor<f16> -> tensor<4x768xf16>
  %q = brrr.mul %p, %c : tensor<4x768xf16>, tensor<f16> -> tensor<4x768xf16>
  %r = brrr.add %x, %q : tensor<4x768xf16>, tensor<4x768xf16> -> tensor<4x768xf16>
  %s = brrr.mul %r, %k : tensor<4x768xf16>, tensor<f16> -> tensor<4x768xf16>
  %t = brrr.tanh %s : tensor<4x768xf16>
  %u = brrr.add %t, %one : tensor<4x768xf16>, tensor<f16> -> tensor<4x768xf16>
  %h = brrr.mul %x, %half : tensor<4x768xf16>, tensor<f16> -> tensor<4x768xf16>
  %y = brrr.mul %h, %u : tensor<4x768xf16>, tensor<4x768xf16> -> tensor<4x768xf16>
  return %y : tensor<4x768xf16>
}

// CHECK-LABEL: func.func @cube_as_products
// CHECK-SAME: (%[[X:.+]]: tensor<8x64xf32>)
// CHECK-NEXT: %[[G:.+]] = brrr.gelu tanh %[[X]] : tensor<8x64xf32>
// CHECK-NEXT: return %[[G]]
func.func @cube_as_products(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %c = brrr.constant dense<0.0447149985> : tensor<f32>
  %k = brrr.constant dense<0.797884583> : tensor<1x1xf32>
  %one = brrr.constant dense<1.0> : tensor<f32>
  %half = brrr.constant dense<0.5> : tensor<f32>
  %sq = brrr.mul %x, %x : tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %cube = brrr.mul %x, %sq : tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %q = brrr.mul %c, %cube : tensor<f32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %r = brrr.add %q, %x : tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %s = brrr.mul %k, %r : tensor<1x1xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %t = brrr.tanh %s : tensor<8x64xf32>
  %u = brrr.add %one, %t : tensor<f32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %m = brrr.mul %u, %x : tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x64xf32>
  %y = brrr.mul %half, %m : tensor<f32>, tensor<8x64xf32> -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// Not tanh GELUs: a coefficient other than 0.044715, a square where the
// cube goes, and another value than x in the cube.
// CHECK-LABEL: func.func @not_tanh_gelus
// CHECK-NOT: brrr.gelu
// CHECK-COUNT-3: brrr.tanh
// CHECK-NOT: brrr.gelu
func.func @not_tanh_gelus(%x: tensor<8xf16>, %z: tensor<8xf16>) -> (tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) {
  %c = brrr.constant dense<0.044715> : tensor<f16>
  %c2 = brrr.constant dense<0.05> : tensor<f16>
  %k = brrr.constant dense<0.7978846> : tensor<f16>
  %one = brrr.constant dense<1.0> : tensor<f16>
  %half = brrr.constant dense<0.5> : tensor<f16>
  %sq = brrr.mul %x, %x : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  %cube = brrr.mul %sq, %x : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  %h = brrr.mul %x, %half : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  // 0.05, not 0.044715.
  %q0 = brrr.mul %cube, %c2 : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %r0 = brrr.add %x, %q0 : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  %s0 = brrr.mul %r0, %k : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %t0 = brrr.tanh %s0 : tensor<8xf16>
  %u0 = brrr.add %t0, %one : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %y0 = brrr.mul %h, %u0 : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  // x^2, not x^3.
  %q1 = brrr.mul %sq, %c : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %r1 = brrr.add %x, %q1 : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  %s1 = brrr.mul %r1, %k : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %t1 = brrr.tanh %s1 : tensor<8xf16>
  %u1 = brrr.add %t1, %one : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %y1 = brrr.mul %h, %u1 : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  // z^3 beside x.
  %zsq = brrr.mul %z, %z : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  %zcube = brrr.mul %zsq, %z : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  %q2 = brrr.mul %zcube, %c : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %r2 = brrr.add %x, %q2 : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  %s2 = brrr.mul %r2, %k : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %t2 = brrr.tanh %s2 : tensor<8xf16>
  %u2 = brrr.add %t2, %one : tensor<8xf16>, tensor<f16> -> tensor<8xf16>
  %y2 = brrr.mul %h, %u2 : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  return %y0, %y1, %y2 : tensor<8xf16>, tensor<8xf16>, tensor<8xf16>
}
