// RUN: brrr-opt %s --pass-pipeline='builtin.module(canonicalize,func.func(brrr-fuse-attention))' | FileCheck %s

// A batch-1 Llama-style export: the values' repeated heads merged back to
// [1, 4, s, d], the keys' K^T through [4, s, d]. The canonicalizer makes
// the keys a reshape of the repeated heads transposed in their last two
// dimensions, the same form as the values, so the attention reads both
// unrepeated (4 query heads over 2).
// CHECK-LABEL: func.func @Batch1RepeatedHeads
// CHECK: brrr.attention %arg0, %{{.+}}, %{{.+}} {{.+}} : tensor<1x4x512x16xf16>, tensor<1x2x512x16xf16>, tensor<1x2x512x16xf16> -> tensor<1x4x512x16xf16>
func.func @Batch1RepeatedHeads(%q: tensor<1x4x512x16xf16>, %k: tensor<1x2x512x16xf16>, %v: tensor<1x2x512x16xf16>) -> tensor<1x4x512x16xf16> {
  %c = brrr.constant dense<0.5> : tensor<f16>
  %k5 = brrr.reshape %k : tensor<1x2x512x16xf16> -> tensor<1x2x1x512x16xf16>
  %ke = brrr.expand %k5 : tensor<1x2x1x512x16xf16> -> tensor<1x2x2x512x16xf16>
  %v5 = brrr.reshape %v : tensor<1x2x512x16xf16> -> tensor<1x2x1x512x16xf16>
  %ve = brrr.expand %v5 : tensor<1x2x1x512x16xf16> -> tensor<1x2x2x512x16xf16>
  %v4 = brrr.reshape %ve : tensor<1x2x2x512x16xf16> -> tensor<1x4x512x16xf16>
  %k3 = brrr.reshape %ke : tensor<1x2x2x512x16xf16> -> tensor<4x512x16xf16>
  %kt3 = brrr.transpose %k3 {perm = array<i64: 0, 2, 1>} : tensor<4x512x16xf16> -> tensor<4x16x512xf16>
  %kt = brrr.reshape %kt3 : tensor<4x16x512xf16> -> tensor<1x4x16x512xf16>
  %qs = brrr.mul %q, %c : tensor<1x4x512x16xf16>, tensor<f16> -> tensor<1x4x512x16xf16>
  %ks = brrr.mul %kt, %c : tensor<1x4x16x512xf16>, tensor<f16> -> tensor<1x4x16x512xf16>
  %s = brrr.matmul %qs, %ks : tensor<1x4x512x16xf16>, tensor<1x4x16x512xf16> -> tensor<1x4x512x512xf16>
  %p = brrr.softmax %s {axis = 3 : i64} : tensor<1x4x512x512xf16>
  %o = brrr.matmul %p, %v4 : tensor<1x4x512x512xf16>, tensor<1x4x512x16xf16> -> tensor<1x4x512x16xf16>
  return %o : tensor<1x4x512x16xf16>
}
