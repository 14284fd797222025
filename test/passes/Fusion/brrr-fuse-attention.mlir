// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-fuse-attention))' | FileCheck %s

// The dynamo exporter's BERT attention: both operands scaled by d^-1/4, an
// additive padding mask, the IsNaN clean-up. One brrr.attention, the key
// read through a transpose of the transposed operand, scale 0.5 * 0.5; the
// chain it replaces is gone.
// CHECK-LABEL: func.func @BertDynamo
// CHECK-SAME: (%[[Q:.*]]: tensor<2x4x128x64xf16>, %[[KT:.*]]: tensor<2x4x64x128xf16>, %[[V:.*]]: tensor<2x4x128x64xf16>, %[[M:.*]]: tensor<2x1x1x128xf16>)
// CHECK: %[[K:.*]] = brrr.transpose %[[KT]] {perm = array<i64: 0, 1, 3, 2>} : tensor<2x4x64x128xf16> -> tensor<2x4x128x64xf16>
// CHECK: %[[O:.*]] = brrr.attention %[[Q]], %[[K]], %[[V]] bias %[[M]] {scale = 2.500000e-01 : f64, zero_nan}
// CHECK-SAME: -> tensor<2x4x128x64xf16>
// CHECK-NOT: brrr.softmax
// CHECK-NOT: brrr.matmul
// CHECK-NOT: brrr.where
// CHECK: return %[[O]]
func.func @BertDynamo(%q: tensor<2x4x128x64xf16>, %kt: tensor<2x4x64x128xf16>, %v: tensor<2x4x128x64xf16>, %m: tensor<2x1x1x128xf16>) -> tensor<2x4x128x64xf16> {
  %c = brrr.constant dense<5.000000e-01> : tensor<f16>
  %z = brrr.constant dense<0.000000e+00> : tensor<f16>
  %qs = brrr.mul %q, %c : tensor<2x4x128x64xf16>, tensor<f16> -> tensor<2x4x128x64xf16>
  %ks = brrr.mul %kt, %c : tensor<2x4x64x128xf16>, tensor<f16> -> tensor<2x4x64x128xf16>
  %s = brrr.matmul %qs, %ks : tensor<2x4x128x64xf16>, tensor<2x4x64x128xf16> -> tensor<2x4x128x128xf16>
  %x = brrr.add %s, %m : tensor<2x4x128x128xf16>, tensor<2x1x1x128xf16> -> tensor<2x4x128x128xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<2x4x128x128xf16>
  %n = brrr.compare ne %p, %p : tensor<2x4x128x128xf16>, tensor<2x4x128x128xf16> -> tensor<2x4x128x128xi1>
  %pc = brrr.where %n, %z, %p : tensor<2x4x128x128xi1>, tensor<f16>, tensor<2x4x128x128xf16> -> tensor<2x4x128x128xf16>
  %o = brrr.matmul %pc, %v : tensor<2x4x128x128xf16>, tensor<2x4x128x64xf16> -> tensor<2x4x128x64xf16>
  return %o : tensor<2x4x128x64xf16>
}

// -----

// TorchScript's f16 export: scores cast to f32 for an f32 mask and softmax
// (the kernel keeps them in f32 anyway), a scale after the product as a
// division, the probabilities rounded back for an f16 product, the mask
// first in the add. The output keeps the product's type.
// CHECK-LABEL: func.func @UpcastScores
// CHECK: brrr.attention %{{.*}}, %{{.*}}, %{{.*}} bias %arg3 {scale = 1.250000e-01 : f64}
// CHECK-SAME: tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x1x100x100xf32> -> tensor<1x2x100x64xf16>
func.func @UpcastScores(%q: tensor<1x2x100x64xf16>, %kt: tensor<1x2x64x100xf16>, %v: tensor<1x2x100x64xf16>, %m: tensor<1x1x100x100xf32>) -> tensor<1x2x100x64xf16> {
  %c = brrr.constant dense<8.000000e+00> : tensor<1xf32>
  %s = brrr.matmul %q, %kt : tensor<1x2x100x64xf16>, tensor<1x2x64x100xf16> -> tensor<1x2x100x100xf16>
  %s32 = brrr.cast %s : tensor<1x2x100x100xf16> -> tensor<1x2x100x100xf32>
  %sd = brrr.div %s32, %c : tensor<1x2x100x100xf32>, tensor<1xf32> -> tensor<1x2x100x100xf32>
  %x = brrr.add %m, %sd : tensor<1x1x100x100xf32>, tensor<1x2x100x100xf32> -> tensor<1x2x100x100xf32>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<1x2x100x100xf32>
  %p16 = brrr.cast %p : tensor<1x2x100x100xf32> -> tensor<1x2x100x100xf16>
  %o = brrr.matmul %p16, %v : tensor<1x2x100x100xf16>, tensor<1x2x100x64xf16> -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}

// -----

// An f32 model under --precision=fp16: queries and keys scaled in f32, then
// rounded for the product. The scale moves into the op and the rounding
// applies to the unscaled operands; the values are an f16 tensor widened
// and rounded back, which is the tensor itself.
// CHECK-LABEL: func.func @ScaledBeforeRounding
// CHECK-SAME: (%[[Q:.*]]: tensor<1x2x64x32xf32>, %[[KT:.*]]: tensor<1x2x32x64xf32>, %[[V:.*]]: tensor<1x2x64x32xf16>)
// CHECK-DAG: %[[Q16:.*]] = brrr.cast %[[Q]] : tensor<1x2x64x32xf32> -> tensor<1x2x64x32xf16>
// CHECK-DAG: %[[KT16:.*]] = brrr.cast %[[KT]] : tensor<1x2x32x64xf32> -> tensor<1x2x32x64xf16>
// CHECK: %[[K:.*]] = brrr.transpose %[[KT16]]
// CHECK: brrr.attention %[[Q16]], %[[K]], %[[V]] {scale = 1.250000e-01 : f64} :{{.*}}-> tensor<1x2x64x32xf16>
func.func @ScaledBeforeRounding(%q: tensor<1x2x64x32xf32>, %kt: tensor<1x2x32x64xf32>, %v: tensor<1x2x64x32xf16>) -> tensor<1x2x64x32xf16> {
  %c = brrr.constant dense<2.500000e-01> : tensor<f32>
  %d = brrr.constant dense<2.000000e+00> : tensor<f32>
  %qs = brrr.mul %c, %q : tensor<f32>, tensor<1x2x64x32xf32> -> tensor<1x2x64x32xf32>
  %ks = brrr.div %kt, %d : tensor<1x2x32x64xf32>, tensor<f32> -> tensor<1x2x32x64xf32>
  %q16 = brrr.cast %qs : tensor<1x2x64x32xf32> -> tensor<1x2x64x32xf16>
  %k16 = brrr.cast %ks : tensor<1x2x32x64xf32> -> tensor<1x2x32x64xf16>
  %s = brrr.matmul %q16, %k16 : tensor<1x2x64x32xf16>, tensor<1x2x32x64xf16> -> tensor<1x2x64x64xf16>
  %s32 = brrr.cast %s : tensor<1x2x64x64xf16> -> tensor<1x2x64x64xf32>
  %p = brrr.softmax %s32 {axis = 3 : i64} : tensor<1x2x64x64xf32>
  %p16 = brrr.cast %p : tensor<1x2x64x64xf32> -> tensor<1x2x64x64xf16>
  %v32 = brrr.cast %v : tensor<1x2x64x32xf16> -> tensor<1x2x64x32xf32>
  %v16 = brrr.cast %v32 : tensor<1x2x64x32xf32> -> tensor<1x2x64x32xf16>
  %o = brrr.matmul %p16, %v16 : tensor<1x2x64x64xf16>, tensor<1x2x64x32xf16> -> tensor<1x2x64x32xf16>
  return %o : tensor<1x2x64x32xf16>
}

// -----

// GPT-2 from TorchScript: the causal mask is where(cols <= rows, 0, lowest)
// over two integer ranges; from dynamo, a folded boolean constant. Both
// become `causal` with no bias, so the kernel skips the masked key blocks.
// CHECK-LABEL: func.func @CausalFromRanges
// CHECK: brrr.attention %arg0, %{{.*}}, %arg2 {causal, scale = 1.000000e+00 : f64}
// CHECK-SAME: tensor<1x2x4x16xf16>, tensor<1x2x4x16xf16>, tensor<1x2x4x16xf16> -> tensor<1x2x4x16xf16>
// CHECK-NOT: brrr.compare
func.func @CausalFromRanges(%q: tensor<1x2x4x16xf16>, %kt: tensor<1x2x16x4xf16>, %v: tensor<1x2x4x16xf16>) -> tensor<1x2x4x16xf16> {
  %cols = brrr.constant dense<[[[[0, 1, 2, 3]]]]> : tensor<1x1x1x4xi64>
  %rows = brrr.constant dense<[[[[0], [1], [2], [3]]]]> : tensor<1x1x4x1xi64>
  %keep = brrr.compare le %cols, %rows : tensor<1x1x1x4xi64>, tensor<1x1x4x1xi64> -> tensor<1x1x4x4xi1>
  %z = brrr.constant dense<0.000000e+00> : tensor<1xf16>
  %low = brrr.constant dense<-6.550400e+04> : tensor<1xf16>
  %mask = brrr.where %keep, %z, %low : tensor<1x1x4x4xi1>, tensor<1xf16>, tensor<1xf16> -> tensor<1x1x4x4xf16>
  %s = brrr.matmul %q, %kt : tensor<1x2x4x16xf16>, tensor<1x2x16x4xf16> -> tensor<1x2x4x4xf16>
  %x = brrr.add %s, %mask : tensor<1x2x4x4xf16>, tensor<1x1x4x4xf16> -> tensor<1x2x4x4xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<1x2x4x4xf16>
  %o = brrr.matmul %p, %v : tensor<1x2x4x4xf16>, tensor<1x2x4x16xf16> -> tensor<1x2x4x16xf16>
  return %o : tensor<1x2x4x16xf16>
}

// CHECK-LABEL: func.func @CausalConstant
// CHECK: brrr.attention %arg0, %{{.*}}, %arg2 {causal, scale = 1.000000e+00 : f64}
func.func @CausalConstant(%q: tensor<1x2x3x16xbf16>, %kt: tensor<1x2x16x3xbf16>, %v: tensor<1x2x3x16xbf16>) -> tensor<1x2x3x16xbf16> {
  %keep = brrr.constant dense<[[[[true, false, false], [true, true, false], [true, true, true]]]]> : tensor<1x1x3x3xi1>
  %z = brrr.constant dense<0.000000e+00> : tensor<bf16>
  %low = brrr.constant dense<0xFF80> : tensor<bf16>
  %mask = brrr.where %keep, %z, %low : tensor<1x1x3x3xi1>, tensor<bf16>, tensor<bf16> -> tensor<1x1x3x3xbf16>
  %s = brrr.matmul %q, %kt : tensor<1x2x3x16xbf16>, tensor<1x2x16x3xbf16> -> tensor<1x2x3x3xbf16>
  %x = brrr.add %s, %mask : tensor<1x2x3x3xbf16>, tensor<1x1x3x3xbf16> -> tensor<1x2x3x3xbf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<1x2x3x3xbf16>
  %o = brrr.matmul %p, %v : tensor<1x2x3x3xbf16>, tensor<1x2x3x16xbf16> -> tensor<1x2x3x16xbf16>
  return %o : tensor<1x2x3x16xbf16>
}

// -----

// Masks that are not causal stay biases: the wrong diagonal, a fill value
// whose probability is not zero, and more queries than keys (whose first
// rows would mask every key).
// CHECK-LABEL: func.func @NotCausal
// CHECK-COUNT-3: brrr.attention {{.*}} bias
// CHECK-NOT: causal
func.func @NotCausal(%q: tensor<1x1x3x16xf16>, %kt: tensor<1x1x16x3xf16>, %v: tensor<1x1x3x16xf16>, %q4: tensor<1x1x4x16xf16>) -> (tensor<1x1x3x16xf16>, tensor<1x1x3x16xf16>, tensor<1x1x4x16xf16>) {
  %upper = brrr.constant dense<[[[[true, true, false], [true, true, true], [true, true, true]]]]> : tensor<1x1x3x3xi1>
  %lower = brrr.constant dense<[[[[true, false, false], [true, true, false], [true, true, true]]]]> : tensor<1x1x3x3xi1>
  %z = brrr.constant dense<0.000000e+00> : tensor<f16>
  %low = brrr.constant dense<-6.550400e+04> : tensor<f16>
  %small = brrr.constant dense<-1.000000e+01> : tensor<f16>
  %m0 = brrr.where %upper, %z, %low : tensor<1x1x3x3xi1>, tensor<f16>, tensor<f16> -> tensor<1x1x3x3xf16>
  %m1 = brrr.where %lower, %z, %small : tensor<1x1x3x3xi1>, tensor<f16>, tensor<f16> -> tensor<1x1x3x3xf16>
  %s0 = brrr.matmul %q, %kt : tensor<1x1x3x16xf16>, tensor<1x1x16x3xf16> -> tensor<1x1x3x3xf16>
  %x0 = brrr.add %s0, %m0 : tensor<1x1x3x3xf16>, tensor<1x1x3x3xf16> -> tensor<1x1x3x3xf16>
  %p0 = brrr.softmax %x0 {axis = 3 : i64} : tensor<1x1x3x3xf16>
  %o0 = brrr.matmul %p0, %v : tensor<1x1x3x3xf16>, tensor<1x1x3x16xf16> -> tensor<1x1x3x16xf16>
  %s1 = brrr.matmul %q, %kt : tensor<1x1x3x16xf16>, tensor<1x1x16x3xf16> -> tensor<1x1x3x3xf16>
  %x1 = brrr.add %s1, %m1 : tensor<1x1x3x3xf16>, tensor<1x1x3x3xf16> -> tensor<1x1x3x3xf16>
  %p1 = brrr.softmax %x1 {axis = 3 : i64} : tensor<1x1x3x3xf16>
  %o1 = brrr.matmul %p1, %v : tensor<1x1x3x3xf16>, tensor<1x1x3x16xf16> -> tensor<1x1x3x16xf16>
  %wide = brrr.constant dense<[[[[false, false, false], [true, false, false], [true, true, false], [true, true, true]]]]> : tensor<1x1x4x3xi1>
  %m2 = brrr.where %wide, %z, %low : tensor<1x1x4x3xi1>, tensor<f16>, tensor<f16> -> tensor<1x1x4x3xf16>
  %s2 = brrr.matmul %q4, %kt : tensor<1x1x4x16xf16>, tensor<1x1x16x3xf16> -> tensor<1x1x4x3xf16>
  %x2 = brrr.add %s2, %m2 : tensor<1x1x4x3xf16>, tensor<1x1x4x3xf16> -> tensor<1x1x4x3xf16>
  %p2 = brrr.softmax %x2 {axis = 3 : i64} : tensor<1x1x4x3xf16>
  %o2 = brrr.matmul %p2, %v : tensor<1x1x4x3xf16>, tensor<1x1x3x16xf16> -> tensor<1x1x4x16xf16>
  return %o0, %o1, %o2 : tensor<1x1x3x16xf16>, tensor<1x1x3x16xf16>, tensor<1x1x4x16xf16>
}

// -----

// Softmaxes that feed a product with values but cannot be fused say why;
// one that feeds no product is not attention and says nothing.
// CHECK-LABEL: func.func @Unfused
// CHECK: brrr.softmax %{{.*}} {axis = 3 : i64, brrr.attention_unfused = "the product with the values multiplies f32; f16 and bf16 products fuse, f32 ones over symbolic sequences (--precision=fp16 or bf16 runs f32 models in 16 bits)"}
// CHECK: brrr.softmax %{{.*}} {axis = 3 : i64, brrr.attention_unfused = "head sizes 24 and 24 must be multiples of 16 up to 256 for the attention kernel"}
// CHECK: brrr.softmax %{{.*}} {axis = 3 : i64, brrr.attention_unfused = "the softmax's input is not a product of queries and keys, scaled by constants, plus masks and a masked fill"}
// CHECK: brrr.softmax %{{.*}} {axis = 2 : i64, brrr.attention_unfused = "the softmax is not over the last axis of rank-4 scores"}
// CHECK: brrr.softmax %{{.*}} {axis = 3 : i64} :
func.func @Unfused(%q: tensor<1x2x8x16xf32>, %kt: tensor<1x2x16x8xf32>, %v: tensor<1x2x8x16xf32>,
                   %q24: tensor<1x2x8x24xf16>, %kt24: tensor<1x2x24x8xf16>, %v24: tensor<1x2x8x24xf16>,
                   %x: tensor<1x2x8x8xf16>, %vh: tensor<1x2x8x16xf16>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8x24xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x8xf16>) {
  %s0 = brrr.matmul %q, %kt : tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x8x8xf32>
  %p0 = brrr.softmax %s0 {axis = 3 : i64} : tensor<1x2x8x8xf32>
  %o0 = brrr.matmul %p0, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  %s1 = brrr.matmul %q24, %kt24 : tensor<1x2x8x24xf16>, tensor<1x2x24x8xf16> -> tensor<1x2x8x8xf16>
  %p1 = brrr.softmax %s1 {axis = 3 : i64} : tensor<1x2x8x8xf16>
  %o1 = brrr.matmul %p1, %v24 : tensor<1x2x8x8xf16>, tensor<1x2x8x24xf16> -> tensor<1x2x8x24xf16>
  %p2 = brrr.softmax %x {axis = 3 : i64} : tensor<1x2x8x8xf16>
  %o2 = brrr.matmul %p2, %vh : tensor<1x2x8x8xf16>, tensor<1x2x8x16xf16> -> tensor<1x2x8x16xf16>
  %p3 = brrr.softmax %x {axis = 2 : i64} : tensor<1x2x8x8xf16>
  %o3 = brrr.matmul %p3, %vh : tensor<1x2x8x8xf16>, tensor<1x2x8x16xf16> -> tensor<1x2x8x16xf16>
  %p4 = brrr.softmax %x {axis = 3 : i64} : tensor<1x2x8x8xf16>
  return %o0, %o1, %o2, %o3, %p4 : tensor<1x2x8x16xf32>, tensor<1x2x8x24xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x2x8x8xf16>
}

// -----

// At batch 2 the exporter expands the mask over the batch before it folds:
// a [2, 1, s, s] constant of one causal matrix twice is causal; one whose
// second matrix differs stays a bias.
// CHECK-LABEL: func.func @CausalExpandedOverBatch
// CHECK-NOT: brrr.where
// CHECK: brrr.attention %arg0, %{{.*}}, %arg2 {causal, scale = 1.000000e+00 : f64}
// CHECK-SAME: -> tensor<2x2x3x16xf16>
// CHECK: brrr.where
// CHECK: brrr.attention {{.*}} bias
// CHECK-NOT: causal
func.func @CausalExpandedOverBatch(%q: tensor<2x2x3x16xf16>, %kt: tensor<2x2x16x3xf16>, %v: tensor<2x2x3x16xf16>) -> (tensor<2x2x3x16xf16>, tensor<2x2x3x16xf16>) {
  %keep = brrr.constant dense<[[[[true, false, false], [true, true, false], [true, true, true]]], [[[true, false, false], [true, true, false], [true, true, true]]]]> : tensor<2x1x3x3xi1>
  %odd = brrr.constant dense<[[[[true, false, false], [true, true, false], [true, true, true]]], [[[true, false, false], [true, false, false], [true, true, true]]]]> : tensor<2x1x3x3xi1>
  %z = brrr.constant dense<0.000000e+00> : tensor<f16>
  %low = brrr.constant dense<-6.550400e+04> : tensor<f16>
  %mask = brrr.where %keep, %z, %low : tensor<2x1x3x3xi1>, tensor<f16>, tensor<f16> -> tensor<2x1x3x3xf16>
  %s = brrr.matmul %q, %kt : tensor<2x2x3x16xf16>, tensor<2x2x16x3xf16> -> tensor<2x2x3x3xf16>
  %x = brrr.add %s, %mask : tensor<2x2x3x3xf16>, tensor<2x1x3x3xf16> -> tensor<2x2x3x3xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<2x2x3x3xf16>
  %o = brrr.matmul %p, %v : tensor<2x2x3x3xf16>, tensor<2x2x3x16xf16> -> tensor<2x2x3x16xf16>
  %mask1 = brrr.where %odd, %z, %low : tensor<2x1x3x3xi1>, tensor<f16>, tensor<f16> -> tensor<2x1x3x3xf16>
  %s1 = brrr.matmul %q, %kt : tensor<2x2x3x16xf16>, tensor<2x2x16x3xf16> -> tensor<2x2x3x3xf16>
  %x1 = brrr.add %s1, %mask1 : tensor<2x2x3x3xf16>, tensor<2x1x3x3xf16> -> tensor<2x2x3x3xf16>
  %p1 = brrr.softmax %x1 {axis = 3 : i64} : tensor<2x2x3x3xf16>
  %o1 = brrr.matmul %p1, %v : tensor<2x2x3x3xf16>, tensor<2x2x3x16xf16> -> tensor<2x2x3x16xf16>
  return %o, %o1 : tensor<2x2x3x16xf16>, tensor<2x2x3x16xf16>
}

// Before it folds, the expansion is an op of its own: expand(condition).
// CHECK-LABEL: func.func @CausalConditionExpandOp
// CHECK: brrr.attention %arg0, %{{.*}}, %arg2 {causal, scale = 1.000000e+00 : f64}
// CHECK-NOT: brrr.expand
func.func @CausalConditionExpandOp(%q: tensor<2x2x3x16xf16>, %kt: tensor<2x2x16x3xf16>, %v: tensor<2x2x3x16xf16>) -> tensor<2x2x3x16xf16> {
  %c = brrr.constant dense<[[[[true, false, false], [true, true, false], [true, true, true]]]]> : tensor<1x1x3x3xi1>
  %keep = brrr.expand %c : tensor<1x1x3x3xi1> -> tensor<2x1x3x3xi1>
  %z = brrr.constant dense<0.000000e+00> : tensor<f16>
  %low = brrr.constant dense<-6.550400e+04> : tensor<f16>
  %mask = brrr.where %keep, %z, %low : tensor<2x1x3x3xi1>, tensor<f16>, tensor<f16> -> tensor<2x1x3x3xf16>
  %s = brrr.matmul %q, %kt : tensor<2x2x3x16xf16>, tensor<2x2x16x3xf16> -> tensor<2x2x3x3xf16>
  %x = brrr.add %s, %mask : tensor<2x2x3x3xf16>, tensor<2x1x3x3xf16> -> tensor<2x2x3x3xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<2x2x3x3xf16>
  %o = brrr.matmul %p, %v : tensor<2x2x3x3xf16>, tensor<2x2x3x16xf16> -> tensor<2x2x3x16xf16>
  return %o : tensor<2x2x3x16xf16>
}

// The folded additive mask, expanded over the batch, is causal too.
// CHECK-LABEL: func.func @CausalFloatExpandedOverBatch
// CHECK: brrr.attention %arg0, %{{.*}}, %arg2 {causal, scale = 1.000000e+00 : f64}
func.func @CausalFloatExpandedOverBatch(%q: tensor<2x1x2x16xf16>, %kt: tensor<2x1x16x2xf16>, %v: tensor<2x1x2x16xf16>) -> tensor<2x1x2x16xf16> {
  %mask = brrr.constant dense<[[[[0.0, -6.550400e+04], [0.0, 0.0]]], [[[0.0, -6.550400e+04], [0.0, 0.0]]]]> : tensor<2x1x2x2xf16>
  %s = brrr.matmul %q, %kt : tensor<2x1x2x16xf16>, tensor<2x1x16x2xf16> -> tensor<2x1x2x2xf16>
  %x = brrr.add %s, %mask : tensor<2x1x2x2xf16>, tensor<2x1x2x2xf16> -> tensor<2x1x2x2xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<2x1x2x2xf16>
  %o = brrr.matmul %p, %v : tensor<2x1x2x2xf16>, tensor<2x1x2x16xf16> -> tensor<2x1x2x16xf16>
  return %o : tensor<2x1x2x16xf16>
}

// -----

// Dynamo folds the causal mask into a boolean weight blob (one byte per
// element).
// CHECK-LABEL: func.func @CausalBlob
// CHECK: brrr.attention %arg0, %{{.*}}, %arg2 {causal, scale = 1.000000e+00 : f64}
func.func @CausalBlob(%q: tensor<1x2x3x16xf16>, %kt: tensor<1x2x16x3xf16>, %v: tensor<1x2x3x16xf16>) -> tensor<1x2x3x16xf16> {
  %keep = brrr.constant dense_resource<le> : tensor<1x1x3x3xi1>
  %z = brrr.constant dense<0.000000e+00> : tensor<f32>
  %low = brrr.constant dense<-3.40282347E+38> : tensor<f32>
  %mask = brrr.where %keep, %z, %low : tensor<1x1x3x3xi1>, tensor<f32>, tensor<f32> -> tensor<1x1x3x3xf32>
  %s = brrr.matmul %q, %kt : tensor<1x2x3x16xf16>, tensor<1x2x16x3xf16> -> tensor<1x2x3x3xf16>
  %s32 = brrr.cast %s : tensor<1x2x3x3xf16> -> tensor<1x2x3x3xf32>
  %x = brrr.add %s32, %mask : tensor<1x2x3x3xf32>, tensor<1x1x3x3xf32> -> tensor<1x2x3x3xf32>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<1x2x3x3xf32>
  %p16 = brrr.cast %p : tensor<1x2x3x3xf32> -> tensor<1x2x3x3xf16>
  %o = brrr.matmul %p16, %v : tensor<1x2x3x3xf16>, tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf16>
  return %o : tensor<1x2x3x16xf16>
}

{-#
  dialect_resources: {
    builtin: {
      le: "0x01000000010000010100010101"
    }
  }
#-}

// -----

// Swin's shifted windows: the scores plus a position bias, viewed as
// [images, windows, heads, s, s], plus a mask for each window, viewed back.
// The attention takes one rank-5 bias, the position bias given a window
// dimension and added to the masks; the kernel reads batch entry b's
// matrices at window b % 4. A mask that varies with the image stays
// unfused.
// CHECK-LABEL: func.func @ShiftedWindows
// CHECK-SAME: (%[[Q:.+]]: tensor<8x2x49x32xf16>, %[[KT:.+]]: tensor<8x2x32x49xf16>, %[[V:.+]]: tensor<8x2x49x32xf16>, %[[REL:.+]]: tensor<1x2x49x49xf16>, %[[M:.+]]: tensor<4x49x49xf16>
// CHECK-DAG: %[[M5:.+]] = brrr.reshape %[[M]] : tensor<4x49x49xf16> -> tensor<1x4x1x49x49xf16>
// CHECK-DAG: %[[R5:.+]] = brrr.reshape %[[REL]] : tensor<1x2x49x49xf16> -> tensor<1x1x2x49x49xf16>
// CHECK: %[[B:.+]] = brrr.add %[[R5]], %[[M5]] : tensor<1x1x2x49x49xf16>, tensor<1x4x1x49x49xf16> -> tensor<1x4x2x49x49xf16>
// CHECK: brrr.attention %[[Q]], %{{.+}}, %[[V]] bias %[[B]] {scale = 2.500000e-01 : f64}
// CHECK: brrr.softmax {{.+}}brrr.attention_unfused
func.func @ShiftedWindows(%q: tensor<8x2x49x32xf16>, %kt: tensor<8x2x32x49xf16>, %v: tensor<8x2x49x32xf16>, %rel: tensor<1x2x49x49xf16>, %m: tensor<4x49x49xf16>, %mb: tensor<2x4x1x49x49xf16>) -> (tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16>) {
  %c = brrr.constant dense<0.25> : tensor<f16>
  %s = brrr.matmul %q, %kt : tensor<8x2x49x32xf16>, tensor<8x2x32x49xf16> -> tensor<8x2x49x49xf16>
  %ss = brrr.mul %s, %c : tensor<8x2x49x49xf16>, tensor<f16> -> tensor<8x2x49x49xf16>
  %a = brrr.add %ss, %rel : tensor<8x2x49x49xf16>, tensor<1x2x49x49xf16> -> tensor<8x2x49x49xf16>
  %r = brrr.reshape %a : tensor<8x2x49x49xf16> -> tensor<2x4x2x49x49xf16>
  %m5 = brrr.reshape %m : tensor<4x49x49xf16> -> tensor<1x4x1x49x49xf16>
  %a2 = brrr.add %r, %m5 : tensor<2x4x2x49x49xf16>, tensor<1x4x1x49x49xf16> -> tensor<2x4x2x49x49xf16>
  %x = brrr.reshape %a2 : tensor<2x4x2x49x49xf16> -> tensor<8x2x49x49xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<8x2x49x49xf16>
  %o = brrr.matmul %p, %v : tensor<8x2x49x49xf16>, tensor<8x2x49x32xf16> -> tensor<8x2x49x32xf16>
  %s2 = brrr.matmul %q, %kt : tensor<8x2x49x32xf16>, tensor<8x2x32x49xf16> -> tensor<8x2x49x49xf16>
  %r2 = brrr.reshape %s2 : tensor<8x2x49x49xf16> -> tensor<2x4x2x49x49xf16>
  %b2 = brrr.add %r2, %mb : tensor<2x4x2x49x49xf16>, tensor<2x4x1x49x49xf16> -> tensor<2x4x2x49x49xf16>
  %x2 = brrr.reshape %b2 : tensor<2x4x2x49x49xf16> -> tensor<8x2x49x49xf16>
  %p2 = brrr.softmax %x2 {axis = 3 : i64} : tensor<8x2x49x49xf16>
  %o2 = brrr.matmul %p2, %v : tensor<8x2x49x49xf16>, tensor<8x2x49x32xf16> -> tensor<8x2x49x32xf16>
  return %o, %o2 : tensor<8x2x49x32xf16>, tensor<8x2x49x32xf16>
}

// -----

// Swin V2's cosine attention: the scores times a learned temperature per
// head ([H, 1, 1]), then a position bias. (q k^T) t = (q t) k^T: the
// queries take the factor, and the attention fuses. A factor per query
// ([B, H, Sq, 1]) divides the queries; one that varies along the keys
// ([1, 1, 1, Sk]) is no factor of the queries and leaves the softmax
// unfused.
// CHECK-LABEL: func.func @KeyFactor
// CHECK-SAME: (%[[Q:.+]]: tensor<2x3x64x32xf16>, %[[KT:.+]]: tensor<2x3x32x64xf16>, %[[V:.+]]: tensor<2x3x64x32xf16>, %[[T:.+]]: tensor<3x1x1xf16>, %[[REL:.+]]: tensor<1x3x64x64xf16>, %[[R:.+]]: tensor<2x3x64x1xf16>, %[[C:.+]]: tensor<1x1x1x64xf16>)
// CHECK: %[[QT:.+]] = brrr.mul %[[Q]], %[[T]] : tensor<2x3x64x32xf16>, tensor<3x1x1xf16> -> tensor<2x3x64x32xf16>
// CHECK: brrr.attention %[[QT]], %{{.+}}, %[[V]] bias %[[REL]] {scale = 1.000000e+00 : f64}
// CHECK: %[[QR:.+]] = brrr.div %[[Q]], %[[R]] : tensor<2x3x64x32xf16>, tensor<2x3x64x1xf16> -> tensor<2x3x64x32xf16>
// CHECK: brrr.attention %[[QR]], %{{.+}}, %[[V]] {scale = 5.000000e-01 : f64}
// CHECK: brrr.softmax {{.+}}brrr.attention_unfused = "the softmax's input is not a product
func.func @KeyFactor(%q: tensor<2x3x64x32xf16>, %kt: tensor<2x3x32x64xf16>, %v: tensor<2x3x64x32xf16>, %t: tensor<3x1x1xf16>, %rel: tensor<1x3x64x64xf16>, %r: tensor<2x3x64x1xf16>, %c: tensor<1x1x1x64xf16>) -> (tensor<2x3x64x32xf16>, tensor<2x3x64x32xf16>, tensor<2x3x64x32xf16>) {
  %s = brrr.matmul %q, %kt : tensor<2x3x64x32xf16>, tensor<2x3x32x64xf16> -> tensor<2x3x64x64xf16>
  %st = brrr.mul %s, %t : tensor<2x3x64x64xf16>, tensor<3x1x1xf16> -> tensor<2x3x64x64xf16>
  %a = brrr.add %st, %rel : tensor<2x3x64x64xf16>, tensor<1x3x64x64xf16> -> tensor<2x3x64x64xf16>
  %p = brrr.softmax %a {axis = 3 : i64} : tensor<2x3x64x64xf16>
  %o = brrr.matmul %p, %v : tensor<2x3x64x64xf16>, tensor<2x3x64x32xf16> -> tensor<2x3x64x32xf16>
  %half = brrr.constant dense<0.5> : tensor<f16>
  %s2 = brrr.matmul %q, %kt : tensor<2x3x64x32xf16>, tensor<2x3x32x64xf16> -> tensor<2x3x64x64xf16>
  %sr = brrr.div %s2, %r : tensor<2x3x64x64xf16>, tensor<2x3x64x1xf16> -> tensor<2x3x64x64xf16>
  %sh = brrr.mul %sr, %half : tensor<2x3x64x64xf16>, tensor<f16> -> tensor<2x3x64x64xf16>
  %p2 = brrr.softmax %sh {axis = 3 : i64} : tensor<2x3x64x64xf16>
  %o2 = brrr.matmul %p2, %v : tensor<2x3x64x64xf16>, tensor<2x3x64x32xf16> -> tensor<2x3x64x32xf16>
  %s3 = brrr.matmul %q, %kt : tensor<2x3x64x32xf16>, tensor<2x3x32x64xf16> -> tensor<2x3x64x64xf16>
  %sc = brrr.mul %s3, %c : tensor<2x3x64x64xf16>, tensor<1x1x1x64xf16> -> tensor<2x3x64x64xf16>
  %p3 = brrr.softmax %sc {axis = 3 : i64} : tensor<2x3x64x64xf16>
  %o3 = brrr.matmul %p3, %v : tensor<2x3x64x64xf16>, tensor<2x3x64x32xf16> -> tensor<2x3x64x32xf16>
  return %o, %o2, %o3 : tensor<2x3x64x32xf16>, tensor<2x3x64x32xf16>, tensor<2x3x64x32xf16>
}

// -----

// Grouped-query attention as transformers' repeat_kv writes it: 2 key and
// value heads unsqueezed, expanded to 2 copies each and merged to the 4
// query heads. The attention reads the 2 heads themselves (query head h
// reads head h / 2), so no copy of the repeated heads is made; K^T's
// transpose is undone rather than transposed back.
// CHECK-LABEL: func.func @RepeatedKeyValueHeads
// CHECK-SAME: (%[[Q:.+]]: tensor<2x4x64x32xf16>, %[[K:.+]]: tensor<2x2x64x32xf16>, %[[V:.+]]: tensor<2x2x64x32xf16>)
// CHECK-DAG: %[[KG:.+]] = brrr.reshape %{{.+}} : tensor<2x2x1x64x32xf16> -> tensor<2x2x64x32xf16>
// CHECK-DAG: %[[VG:.+]] = brrr.reshape %{{.+}} : tensor<2x2x1x64x32xf16> -> tensor<2x2x64x32xf16>
// CHECK: brrr.attention %[[Q]], %[[KG]], %[[VG]] {scale = 0.1767578125 : f64} : tensor<2x4x64x32xf16>, tensor<2x2x64x32xf16>, tensor<2x2x64x32xf16> -> tensor<2x4x64x32xf16>
func.func @RepeatedKeyValueHeads(%q: tensor<2x4x64x32xf16>, %k: tensor<2x2x64x32xf16>, %v: tensor<2x2x64x32xf16>) -> tensor<2x4x64x32xf16> {
  %c = brrr.constant dense<0.1767578> : tensor<f16>
  %k5 = brrr.reshape %k : tensor<2x2x64x32xf16> -> tensor<2x2x1x64x32xf16>
  %ke = brrr.expand %k5 : tensor<2x2x1x64x32xf16> -> tensor<2x2x2x64x32xf16>
  %k4 = brrr.reshape %ke : tensor<2x2x2x64x32xf16> -> tensor<2x4x64x32xf16>
  %v5 = brrr.reshape %v : tensor<2x2x64x32xf16> -> tensor<2x2x1x64x32xf16>
  %ve = brrr.expand %v5 : tensor<2x2x1x64x32xf16> -> tensor<2x2x2x64x32xf16>
  %v4 = brrr.reshape %ve : tensor<2x2x2x64x32xf16> -> tensor<2x4x64x32xf16>
  %kt = brrr.transpose %k4 {perm = array<i64: 0, 1, 3, 2>} : tensor<2x4x64x32xf16> -> tensor<2x4x32x64xf16>
  %s = brrr.matmul %q, %kt : tensor<2x4x64x32xf16>, tensor<2x4x32x64xf16> -> tensor<2x4x64x64xf16>
  %ss = brrr.mul %s, %c : tensor<2x4x64x64xf16>, tensor<f16> -> tensor<2x4x64x64xf16>
  %p = brrr.softmax %ss {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %o = brrr.matmul %p, %v4 : tensor<2x4x64x64xf16>, tensor<2x4x64x32xf16> -> tensor<2x4x64x32xf16>
  return %o : tensor<2x4x64x32xf16>
}

// -----

// Only the values' heads are a repetition here: the key and value heads
// must agree, so both stay as they are (the values' repeat is copied).
// CHECK-LABEL: func.func @OnlyValuesRepeated
// CHECK: brrr.attention {{.+}} : tensor<2x4x64x32xf16>, tensor<2x4x64x32xf16>, tensor<2x4x64x32xf16> -> tensor<2x4x64x32xf16>
func.func @OnlyValuesRepeated(%q: tensor<2x4x64x32xf16>, %k: tensor<2x4x64x32xf16>, %v: tensor<2x2x64x32xf16>) -> tensor<2x4x64x32xf16> {
  %v5 = brrr.reshape %v : tensor<2x2x64x32xf16> -> tensor<2x2x1x64x32xf16>
  %ve = brrr.expand %v5 : tensor<2x2x1x64x32xf16> -> tensor<2x2x2x64x32xf16>
  %v4 = brrr.reshape %ve : tensor<2x2x2x64x32xf16> -> tensor<2x4x64x32xf16>
  %kt = brrr.transpose %k {perm = array<i64: 0, 1, 3, 2>} : tensor<2x4x64x32xf16> -> tensor<2x4x32x64xf16>
  %s = brrr.matmul %q, %kt : tensor<2x4x64x32xf16>, tensor<2x4x32x64xf16> -> tensor<2x4x64x64xf16>
  %p = brrr.softmax %s {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %o = brrr.matmul %p, %v4 : tensor<2x4x64x64xf16>, tensor<2x4x64x32xf16> -> tensor<2x4x64x32xf16>
  return %o : tensor<2x4x64x32xf16>
}

// -----

// Over a symbolic batch and sequence: a mask of zeros everywhere (an
// exporter's `arange(seq) >= 0` mask, folded) changes no score and is
// dropped; the attention keeps the symbolic extents.
// CHECK-LABEL: func.func @SymbolicSequenceZeroMask
// CHECK: brrr.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.250000e-01 : f64}
// CHECK-SAME: -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
// CHECK-NOT: bias
// CHECK-NOT: brrr.softmax
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
func.func @SymbolicSequenceZeroMask(%q: tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, %kt: tensor<?x2x64x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>>, %v: tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>) -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> {
  %c = brrr.constant dense<1.250000e-01> : tensor<f16>
  %zero = brrr.constant dense<0.000000e+00> : tensor<f16>
  %m = brrr.expand %zero : tensor<f16> -> tensor<?x1x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>>
  %s = brrr.matmul %q, %kt : tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, tensor<?x2x64x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %ss = brrr.mul %s, %c : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<f16> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %x = brrr.add %ss, %m : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<?x1x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 1, s1, s1)>> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %o = brrr.matmul %p, %v : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
  return %o : tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
}
}

// -----

// Over a symbolic sequence: a decoder's `arange(s)[None, :] <=
// arange(s)[:, None]` mask (index arithmetic, no constant) is the causal
// flag. So is `i >= j`, the same comparison turned around.
// CHECK-LABEL: func.func @SymbolicCausal
// CHECK: brrr.attention %{{.*}}, %{{.*}}, %{{.*}} {causal, scale = 1.250000e-01 : f64}
// CHECK-NOT: bias
// CHECK-NOT: brrr.softmax
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
func.func @SymbolicCausal(%q: tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, %kt: tensor<?x2x64x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>>, %v: tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>) -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> {
  %c = brrr.constant dense<1.250000e-01> : tensor<f16>
  %keep = brrr.constant dense<0.000000e+00> : tensor<f16>
  %drop = brrr.constant dense<0xFC00> : tensor<f16>
  %range = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]> : tensor<64xi64>
  %r = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<64xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
  %i = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>
  %j = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>
  %cond = brrr.compare le %j, %i : tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>, tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>> -> tensor<1x1x?x?xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>
  %m = brrr.where %cond, %keep, %drop : tensor<1x1x?x?xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>, tensor<f16>, tensor<f16> -> tensor<1x1x?x?xf16, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>
  %s = brrr.matmul %q, %kt : tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, tensor<?x2x64x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %ss = brrr.mul %s, %c : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<f16> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %x = brrr.add %ss, %m : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<1x1x?x?xf16, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %o = brrr.matmul %p, %v : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
  return %o : tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
}
}

// -----

// The same mask written `i >= j`.
// CHECK-LABEL: func.func @SymbolicCausalTurned
// CHECK: brrr.attention %{{.*}}, %{{.*}}, %{{.*}} {causal, scale = 1.250000e-01 : f64}
// CHECK-NOT: brrr.softmax
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
func.func @SymbolicCausalTurned(%q: tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, %kt: tensor<?x2x64x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>>, %v: tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>) -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> {
  %c = brrr.constant dense<1.250000e-01> : tensor<f16>
  %keep = brrr.constant dense<0.000000e+00> : tensor<f16>
  %drop = brrr.constant dense<0xFC00> : tensor<f16>
  %range = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]> : tensor<64xi64>
  %r = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<64xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
  %i = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>
  %j = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>
  %cond = brrr.compare ge %i, %j : tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>, tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>> -> tensor<1x1x?x?xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>
  %m = brrr.where %cond, %keep, %drop : tensor<1x1x?x?xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>, tensor<f16>, tensor<f16> -> tensor<1x1x?x?xf16, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>
  %s = brrr.matmul %q, %kt : tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, tensor<?x2x64x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %ss = brrr.mul %s, %c : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<f16> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %x = brrr.add %ss, %m : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<1x1x?x?xf16, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %o = brrr.matmul %p, %v : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
  return %o : tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
}
}

// -----

// `j < i` masks the diagonal too: not causal, the mask stays a bias.
// CHECK-LABEL: func.func @SymbolicStrictlyBelow
// CHECK: brrr.attention %{{.*}}, %{{.*}}, %{{.*}} bias %{{.*}} {scale = 1.250000e-01 : f64}
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
func.func @SymbolicStrictlyBelow(%q: tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, %kt: tensor<?x2x64x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>>, %v: tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>) -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> {
  %c = brrr.constant dense<1.250000e-01> : tensor<f16>
  %keep = brrr.constant dense<0.000000e+00> : tensor<f16>
  %drop = brrr.constant dense<0xFC00> : tensor<f16>
  %range = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]> : tensor<64xi64>
  %r = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<64xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
  %i = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>
  %j = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>
  %cond = brrr.compare lt %j, %i : tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>, tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>> -> tensor<1x1x?x?xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>
  %m = brrr.where %cond, %keep, %drop : tensor<1x1x?x?xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>, tensor<f16>, tensor<f16> -> tensor<1x1x?x?xf16, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>
  %s = brrr.matmul %q, %kt : tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, tensor<?x2x64x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %ss = brrr.mul %s, %c : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<f16> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %x = brrr.add %ss, %m : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<1x1x?x?xf16, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %o = brrr.matmul %p, %v : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
  return %o : tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
}
}

// -----

// `j >= i` keeps the keys after the query: not causal either.
// CHECK-LABEL: func.func @SymbolicAnticausal
// CHECK: brrr.attention %{{.*}}, %{{.*}}, %{{.*}} bias %{{.*}} {scale = 1.250000e-01 : f64}
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
func.func @SymbolicAnticausal(%q: tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, %kt: tensor<?x2x64x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>>, %v: tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>) -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> {
  %c = brrr.constant dense<1.250000e-01> : tensor<f16>
  %keep = brrr.constant dense<0.000000e+00> : tensor<f16>
  %drop = brrr.constant dense<0xFC00> : tensor<f16>
  %range = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]> : tensor<64xi64>
  %r = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<64xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
  %i = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>>
  %j = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>
  %cond = brrr.compare ge %j, %i : tensor<1x1x1x?xi64, #brrr.extents<()[s0, s1] -> (1, 1, 1, s1)>>, tensor<1x1x?x1xi64, #brrr.extents<()[s0, s1] -> (1, 1, s1, 1)>> -> tensor<1x1x?x?xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>
  %m = brrr.where %cond, %keep, %drop : tensor<1x1x?x?xi1, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>, tensor<f16>, tensor<f16> -> tensor<1x1x?x?xf16, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>>
  %s = brrr.matmul %q, %kt : tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, tensor<?x2x64x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %ss = brrr.mul %s, %c : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<f16> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %x = brrr.add %ss, %m : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<1x1x?x?xf16, #brrr.extents<()[s0, s1] -> (1, 1, s1, s1)>> -> tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %o = brrr.matmul %p, %v : tensor<?x2x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> -> tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
  return %o : tensor<?x2x?x64xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
}
}

// -----

// An f32 model's grouped-query attention with 16-bit products, over a
// symbolic sequence: keys and values of 2 heads repeated to 4 (repeat_kv's
// expand), rounded after the repeat and K^T's transpose. The attention
// takes the 2 heads (the kernel reads head h / 2) and the rounding moves
// before the views, onto the projections' outputs, so attention reads
// the keys and values through their head transposes in place; nothing is
// expanded and no rounding is left after a transpose.
// CHECK-LABEL: func.func @SymbolicGroupedRounded
// CHECK-DAG: %[[KR:.+]] = brrr.cast %arg1 : tensor<?x?x2x16xf32{{.+}} -> tensor<?x?x2x16xf16
// CHECK-DAG: %[[VR:.+]] = brrr.cast %arg2 : tensor<?x?x2x16xf32{{.+}} -> tensor<?x?x2x16xf16
// CHECK-DAG: brrr.transpose %[[KR]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-DAG: brrr.transpose %[[VR]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK: brrr.attention %arg0, %{{.+}}, %{{.+}} {causal, scale = 2.500000e-01 : f64} : tensor<?x4x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>, tensor<?x2x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 16)>>, tensor<?x2x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 16)>>
// CHECK-NOT: brrr.expand
// CHECK-NOT: brrr.softmax
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 64>]} {
func.func @SymbolicGroupedRounded(%q: tensor<?x4x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>, %k: tensor<?x?x2x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 2, 16)>>, %v: tensor<?x?x2x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 2, 16)>>) -> tensor<?x4x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>> {
  %c = brrr.constant dense<2.500000e-01> : tensor<f16>
  %keep = brrr.constant dense<0.000000e+00> : tensor<f16>
  %drop = brrr.constant dense<0xFC00> : tensor<f16>
  %range = brrr.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]> : tensor<64xi64>
  %r = brrr.slice %range {extents = #brrr.extents<()[s0, s1] -> (s1)>, sizes = array<i64: -9223372036854775808>, starts = array<i64: 0>, steps = array<i64: 1>} : tensor<64xi64> -> tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>>
  %i = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<?x1xi64, #brrr.extents<()[s0, s1] -> (s1, 1)>>
  %j = brrr.reshape %r : tensor<?xi64, #brrr.extents<()[s0, s1] -> (s1)>> -> tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>>
  %cond = brrr.compare le %j, %i : tensor<1x?xi64, #brrr.extents<()[s0, s1] -> (1, s1)>>, tensor<?x1xi64, #brrr.extents<()[s0, s1] -> (s1, 1)>> -> tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s1, s1)>>
  %m = brrr.where %cond, %keep, %drop : tensor<?x?xi1, #brrr.extents<()[s0, s1] -> (s1, s1)>>, tensor<f16>, tensor<f16> -> tensor<?x?xf16, #brrr.extents<()[s0, s1] -> (s1, s1)>>
  %kt = brrr.transpose %k {perm = array<i64: 0, 2, 1, 3>} : tensor<?x?x2x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 2, 16)>> -> tensor<?x2x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 16)>>
  %k5 = brrr.reshape %kt : tensor<?x2x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 16)>> -> tensor<?x2x1x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, 1, s1, 16)>>
  %ke = brrr.expand %k5 : tensor<?x2x1x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, 1, s1, 16)>> -> tensor<?x2x2x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, 2, s1, 16)>>
  %k4 = brrr.reshape %ke : tensor<?x2x2x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, 2, s1, 16)>> -> tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
  %kT = brrr.transpose %k4 {perm = array<i64: 0, 1, 3, 2>} : tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>> -> tensor<?x4x16x?xf32, #brrr.extents<()[s0, s1] -> (s0, 4, 16, s1)>>
  %kT16 = brrr.cast %kT : tensor<?x4x16x?xf32, #brrr.extents<()[s0, s1] -> (s0, 4, 16, s1)>> -> tensor<?x4x16x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, 16, s1)>>
  %vt = brrr.transpose %v {perm = array<i64: 0, 2, 1, 3>} : tensor<?x?x2x16xf32, #brrr.extents<()[s0, s1] -> (s0, s1, 2, 16)>> -> tensor<?x2x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 16)>>
  %v5 = brrr.reshape %vt : tensor<?x2x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 16)>> -> tensor<?x2x1x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, 1, s1, 16)>>
  %ve = brrr.expand %v5 : tensor<?x2x1x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, 1, s1, 16)>> -> tensor<?x2x2x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, 2, s1, 16)>>
  %v4 = brrr.reshape %ve : tensor<?x2x2x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 2, 2, s1, 16)>> -> tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
  %v16 = brrr.cast %v4 : tensor<?x4x?x16xf32, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>> -> tensor<?x4x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
  %s = brrr.matmul %q, %kT16 : tensor<?x4x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>, tensor<?x4x16x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, 16, s1)>> -> tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>
  %ss = brrr.mul %s, %c : tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>, tensor<f16> -> tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>
  %x = brrr.add %ss, %m : tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>, tensor<?x?xf16, #brrr.extents<()[s0, s1] -> (s1, s1)>> -> tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>
  %o = brrr.matmul %p, %v16 : tensor<?x4x?x?xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, s1)>>, tensor<?x4x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>> -> tensor<?x4x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
  return %o : tensor<?x4x?x16xf16, #brrr.extents<()[s0, s1] -> (s0, 4, s1, 16)>>
}
}

// -----

// f32 products over a symbolic sequence, whose scores could not be written
// (their inner extents change with the shape), fuse too: the attention
// multiplies f32, three tf32 products a step in its kernel. Over a static
// sequence they stay products of their own (@Unfused).
// CHECK-LABEL: func.func @SymbolicSequenceF32
// CHECK: brrr.attention %{{.*}}, %{{.*}}, %{{.*}} {scale = 1.250000e-01 : f64}
// CHECK-SAME: -> tensor<?x2x?x64xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
// CHECK-NOT: brrr.softmax
module attributes {brrr.dims = [#brrr.dim<"batch", 1, 8>, #brrr.dim<"seq", 1, 512>]} {
func.func @SymbolicSequenceF32(%q: tensor<?x2x?x64xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, %kt: tensor<?x2x64x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>>, %v: tensor<?x2x?x64xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>) -> tensor<?x2x?x64xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> {
  %c = brrr.constant dense<1.250000e-01> : tensor<f32>
  %s = brrr.matmul %q, %kt : tensor<?x2x?x64xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>, tensor<?x2x64x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, 64, s1)>> -> tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %ss = brrr.mul %s, %c : tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<f32> -> tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %p = brrr.softmax %ss {axis = 3 : i64} : tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>
  %o = brrr.matmul %p, %v : tensor<?x2x?x?xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, s1)>>, tensor<?x2x?x64xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>> -> tensor<?x2x?x64xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
  return %o : tensor<?x2x?x64xf32, #brrr.extents<()[s0, s1] -> (s0, 2, s1, 64)>>
}
}

// -----

// Masked fills of the scores (DistilBERT's and DeBERTa's masked_fill with
// the type's lowest value): where(keep, s, low) is s plus the bias
// where(keep, 0, low), which the kernel floors; where(drop, low, s + rel),
// beside a relative-position bias, is s plus where(drop, low, rel). A fill
// with a value that a kept key could score below (0) is not a mask.
// CHECK-LABEL: func.func @MaskedFills
// CHECK-SAME: (%[[Q:.*]]: tensor<2x4x64x32xf16>, %[[KT:.*]]: tensor<2x4x32x64xf16>, %[[V:.*]]: tensor<2x4x64x32xf16>, %[[KEEP:.*]]: tensor<2x1x1x64xi1>, %[[REL:.*]]: tensor<2x4x64x64xf16>)
// CHECK: %[[LOW:.*]] = brrr.constant dense<-6.550400e+04> : tensor<f16>
// CHECK: %[[B0:.*]] = brrr.where %[[KEEP]], %{{.*}}, %[[LOW]] : tensor<2x1x1x64xi1>, tensor<f16>, tensor<f16> -> tensor<2x1x1x64xf16>
// CHECK: brrr.attention %[[Q]], %{{.*}}, %[[V]] bias %[[B0]] {scale = 1.250000e-01 : f64}
// CHECK: %[[B1:.*]] = brrr.where %[[KEEP]], %[[LOW]], %[[REL]] : tensor<2x1x1x64xi1>, tensor<f16>, tensor<2x4x64x64xf16> -> tensor<2x4x64x64xf16>
// CHECK: brrr.attention %[[Q]], %{{.*}}, %[[V]] bias %[[B1]] {scale = 1.250000e-01 : f64}
// CHECK: brrr.softmax %{{.*}} {axis = 3 : i64, brrr.attention_unfused = "the softmax's input is not a product of queries and keys, scaled by constants, plus masks and a masked fill"}
// CHECK-NOT: brrr.attention
func.func @MaskedFills(%q: tensor<2x4x64x32xf16>, %kt: tensor<2x4x32x64xf16>, %v: tensor<2x4x64x32xf16>, %keep: tensor<2x1x1x64xi1>, %rel: tensor<2x4x64x64xf16>) -> (tensor<2x4x64x32xf16>, tensor<2x4x64x32xf16>, tensor<2x4x64x32xf16>) {
  %c = brrr.constant dense<1.250000e-01> : tensor<f16>
  %low = brrr.constant dense<-6.550400e+04> : tensor<f16>
  %zero = brrr.constant dense<0.000000e+00> : tensor<f16>
  %s = brrr.matmul %q, %kt : tensor<2x4x64x32xf16>, tensor<2x4x32x64xf16> -> tensor<2x4x64x64xf16>
  %ss = brrr.mul %s, %c : tensor<2x4x64x64xf16>, tensor<f16> -> tensor<2x4x64x64xf16>
  %f0 = brrr.where %keep, %ss, %low : tensor<2x1x1x64xi1>, tensor<2x4x64x64xf16>, tensor<f16> -> tensor<2x4x64x64xf16>
  %p0 = brrr.softmax %f0 {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %o0 = brrr.matmul %p0, %v : tensor<2x4x64x64xf16>, tensor<2x4x64x32xf16> -> tensor<2x4x64x32xf16>
  %s1 = brrr.matmul %q, %kt : tensor<2x4x64x32xf16>, tensor<2x4x32x64xf16> -> tensor<2x4x64x64xf16>
  %ss1 = brrr.mul %s1, %c : tensor<2x4x64x64xf16>, tensor<f16> -> tensor<2x4x64x64xf16>
  %r1 = brrr.add %ss1, %rel : tensor<2x4x64x64xf16>, tensor<2x4x64x64xf16> -> tensor<2x4x64x64xf16>
  %f1 = brrr.where %keep, %low, %r1 : tensor<2x1x1x64xi1>, tensor<f16>, tensor<2x4x64x64xf16> -> tensor<2x4x64x64xf16>
  %p1 = brrr.softmax %f1 {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %o1 = brrr.matmul %p1, %v : tensor<2x4x64x64xf16>, tensor<2x4x64x32xf16> -> tensor<2x4x64x32xf16>
  %s2 = brrr.matmul %q, %kt : tensor<2x4x64x32xf16>, tensor<2x4x32x64xf16> -> tensor<2x4x64x64xf16>
  %f2 = brrr.where %keep, %s2, %zero : tensor<2x1x1x64xi1>, tensor<2x4x64x64xf16>, tensor<f16> -> tensor<2x4x64x64xf16>
  %p2 = brrr.softmax %f2 {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %o2 = brrr.matmul %p2, %v : tensor<2x4x64x64xf16>, tensor<2x4x64x32xf16> -> tensor<2x4x64x32xf16>
  return %o0, %o1, %o2 : tensor<2x4x64x32xf16>, tensor<2x4x64x32xf16>, tensor<2x4x64x32xf16>
}

// -----

// DistilBERT's masked fill: the padding condition expanded to the scores'
// shape first. The bias takes the condition as it broadcasts, [2, 1, 1,
// 64], not a filled [2, 4, 64, 64].
// CHECK-LABEL: func.func @MaskedFillExpanded
// CHECK-SAME: (%[[Q:.*]]: tensor<2x4x64x32xf16>, %[[KT:.*]]: tensor<2x4x32x64xf16>, %[[V:.*]]: tensor<2x4x64x32xf16>, %[[DROP:.*]]: tensor<2x1x1x64xi1>)
// CHECK: %[[B:.*]] = brrr.where %[[DROP]], %{{.*}}, %{{.*}} : tensor<2x1x1x64xi1>, tensor<f16>, tensor<f16> -> tensor<2x1x1x64xf16>
// CHECK: brrr.attention %[[Q]], %{{.*}}, %[[V]] bias %[[B]] {scale = 1.250000e-01 : f64}
// CHECK-NOT: brrr.softmax
func.func @MaskedFillExpanded(%q: tensor<2x4x64x32xf16>, %kt: tensor<2x4x32x64xf16>, %v: tensor<2x4x64x32xf16>, %drop: tensor<2x1x1x64xi1>) -> tensor<2x4x64x32xf16> {
  %c = brrr.constant dense<1.250000e-01> : tensor<f16>
  %low = brrr.constant dense<-6.550400e+04> : tensor<f16>
  %s = brrr.matmul %q, %kt : tensor<2x4x64x32xf16>, tensor<2x4x32x64xf16> -> tensor<2x4x64x64xf16>
  %ss = brrr.mul %s, %c : tensor<2x4x64x64xf16>, tensor<f16> -> tensor<2x4x64x64xf16>
  %e = brrr.expand %drop : tensor<2x1x1x64xi1> -> tensor<2x4x64x64xi1>
  %f = brrr.where %e, %low, %ss : tensor<2x4x64x64xi1>, tensor<f16>, tensor<2x4x64x64xf16> -> tensor<2x4x64x64xf16>
  %p = brrr.softmax %f {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %o = brrr.matmul %p, %v : tensor<2x4x64x64xf16>, tensor<2x4x64x32xf16> -> tensor<2x4x64x32xf16>
  return %o : tensor<2x4x64x32xf16>
}

// -----

// A finite fill above its type's lowest (-65536 in bf16) becomes the
// lowest, which the kernel scores as a masked key: a row whose keys are
// all filled averages them, as the fill does, where -65504 plus the
// product would keep the product. An infinite fill stays.
// CHECK-LABEL: func.func @MaskedFillsBf16
// CHECK-SAME: (%[[Q:.*]]: tensor<2x4x64x32xbf16>, %[[KT:.*]]: tensor<2x4x32x64xbf16>, %[[V:.*]]: tensor<2x4x64x32xbf16>, %[[KEEP:.*]]: tensor<2x1x1x64xi1>)
// CHECK: %[[INF:.*]] = brrr.constant dense<0xFF80> : tensor<bf16>
// CHECK: %[[LOWEST:.*]] = brrr.constant dense<-3.389530e+38> : tensor<bf16>
// CHECK: %[[B0:.*]] = brrr.where %[[KEEP]], %{{.*}}, %[[LOWEST]] : tensor<2x1x1x64xi1>, tensor<bf16>, tensor<bf16> -> tensor<2x1x1x64xbf16>
// CHECK: brrr.attention %[[Q]], %{{.*}}, %[[V]] bias %[[B0]] {scale = 1.250000e-01 : f64}
// CHECK: %[[B1:.*]] = brrr.where %[[KEEP]], %{{.*}}, %[[INF]] : tensor<2x1x1x64xi1>, tensor<bf16>, tensor<bf16> -> tensor<2x1x1x64xbf16>
// CHECK: brrr.attention %[[Q]], %{{.*}}, %[[V]] bias %[[B1]] {scale = 1.250000e-01 : f64}
// CHECK-NOT: brrr.softmax
func.func @MaskedFillsBf16(%q: tensor<2x4x64x32xbf16>, %kt: tensor<2x4x32x64xbf16>, %v: tensor<2x4x64x32xbf16>, %keep: tensor<2x1x1x64xi1>) -> (tensor<2x4x64x32xbf16>, tensor<2x4x64x32xbf16>) {
  %c = brrr.constant dense<1.250000e-01> : tensor<bf16>
  %low = brrr.constant dense<-6.553600e+04> : tensor<bf16>
  %inf = brrr.constant dense<0xFF80> : tensor<bf16>
  %s = brrr.matmul %q, %kt : tensor<2x4x64x32xbf16>, tensor<2x4x32x64xbf16> -> tensor<2x4x64x64xbf16>
  %ss = brrr.mul %s, %c : tensor<2x4x64x64xbf16>, tensor<bf16> -> tensor<2x4x64x64xbf16>
  %f0 = brrr.where %keep, %ss, %low : tensor<2x1x1x64xi1>, tensor<2x4x64x64xbf16>, tensor<bf16> -> tensor<2x4x64x64xbf16>
  %p0 = brrr.softmax %f0 {axis = 3 : i64} : tensor<2x4x64x64xbf16>
  %o0 = brrr.matmul %p0, %v : tensor<2x4x64x64xbf16>, tensor<2x4x64x32xbf16> -> tensor<2x4x64x32xbf16>
  %s1 = brrr.matmul %q, %kt : tensor<2x4x64x32xbf16>, tensor<2x4x32x64xbf16> -> tensor<2x4x64x64xbf16>
  %ss1 = brrr.mul %s1, %c : tensor<2x4x64x64xbf16>, tensor<bf16> -> tensor<2x4x64x64xbf16>
  %f1 = brrr.where %keep, %ss1, %inf : tensor<2x1x1x64xi1>, tensor<2x4x64x64xbf16>, tensor<bf16> -> tensor<2x4x64x64xbf16>
  %p1 = brrr.softmax %f1 {axis = 3 : i64} : tensor<2x4x64x64xbf16>
  %o1 = brrr.matmul %p1, %v : tensor<2x4x64x64xbf16>, tensor<2x4x64x32xbf16> -> tensor<2x4x64x32xbf16>
  return %o0, %o1 : tensor<2x4x64x32xbf16>, tensor<2x4x64x32xbf16>
}

// -----

// Heads of 256 (Gemma's) fuse; of 272, past the kernel's 256, they do not.
// CHECK-LABEL: func.func @WideHeads
// CHECK: brrr.attention %{{.*}} {scale = 6.250000e-02 : f64} : tensor<1x2x8x256xf16>, tensor<1x2x8x256xf16>, tensor<1x2x8x256xf16> -> tensor<1x2x8x256xf16>
// CHECK: brrr.softmax %{{.*}} {axis = 3 : i64, brrr.attention_unfused = "head sizes 272 and 272 must be multiples of 16 up to 256 for the attention kernel"}
func.func @WideHeads(%q: tensor<1x2x8x256xf16>, %kt: tensor<1x2x256x8xf16>, %v: tensor<1x2x8x256xf16>,
                     %q2: tensor<1x2x8x272xf16>, %kt2: tensor<1x2x272x8xf16>, %v2: tensor<1x2x8x272xf16>) -> (tensor<1x2x8x256xf16>, tensor<1x2x8x272xf16>) {
  %c = brrr.constant dense<6.250000e-02> : tensor<f16>
  %s0 = brrr.matmul %q, %kt : tensor<1x2x8x256xf16>, tensor<1x2x256x8xf16> -> tensor<1x2x8x8xf16>
  %ss0 = brrr.mul %s0, %c : tensor<1x2x8x8xf16>, tensor<f16> -> tensor<1x2x8x8xf16>
  %p0 = brrr.softmax %ss0 {axis = 3 : i64} : tensor<1x2x8x8xf16>
  %o0 = brrr.matmul %p0, %v : tensor<1x2x8x8xf16>, tensor<1x2x8x256xf16> -> tensor<1x2x8x256xf16>
  %s1 = brrr.matmul %q2, %kt2 : tensor<1x2x8x272xf16>, tensor<1x2x272x8xf16> -> tensor<1x2x8x8xf16>
  %p1 = brrr.softmax %s1 {axis = 3 : i64} : tensor<1x2x8x8xf16>
  %o1 = brrr.matmul %p1, %v2 : tensor<1x2x8x8xf16>, tensor<1x2x8x272xf16> -> tensor<1x2x8x272xf16>
  return %o0, %o1 : tensor<1x2x8x256xf16>, tensor<1x2x8x272xf16>
}

// -----

// Scores plus several biases in turn (MPNet's relative position bias, then
// its padding mask), whichever side of each addition the scores are on: one
// attention whose bias is their sum, innermost first.
// CHECK-LABEL: func.func @SummedBiases
// CHECK-SAME: (%[[Q:.*]]: tensor<2x4x64x32xf16>, %[[KT:.*]]: tensor<2x4x32x64xf16>, %[[V:.*]]: tensor<2x4x64x32xf16>, %[[REL:.*]]: tensor<2x4x64x64xf16>, %[[MASK:.*]]: tensor<2x1x1x64xf16>)
// CHECK: %[[B:.*]] = brrr.add %[[REL]], %[[MASK]] : tensor<2x4x64x64xf16>, tensor<2x1x1x64xf16> -> tensor<2x4x64x64xf16>
// CHECK: brrr.attention %[[Q]], %{{.*}}, %[[V]] bias %[[B]] {scale = 1.250000e-01 : f64}
// CHECK: %[[B2:.*]] = brrr.add %[[MASK]], %[[REL]] : tensor<2x1x1x64xf16>, tensor<2x4x64x64xf16> -> tensor<2x4x64x64xf16>
// CHECK: brrr.attention %[[Q]], %{{.*}}, %[[V]] bias %[[B2]] {scale = 1.000000e+00 : f64}
// CHECK-NOT: brrr.softmax
func.func @SummedBiases(%q: tensor<2x4x64x32xf16>, %kt: tensor<2x4x32x64xf16>, %v: tensor<2x4x64x32xf16>, %rel: tensor<2x4x64x64xf16>, %mask: tensor<2x1x1x64xf16>) -> (tensor<2x4x64x32xf16>, tensor<2x4x64x32xf16>) {
  %c = brrr.constant dense<8.0> : tensor<f16>
  %s = brrr.matmul %q, %kt : tensor<2x4x64x32xf16>, tensor<2x4x32x64xf16> -> tensor<2x4x64x64xf16>
  %d = brrr.div %s, %c : tensor<2x4x64x64xf16>, tensor<f16> -> tensor<2x4x64x64xf16>
  %x = brrr.add %d, %rel : tensor<2x4x64x64xf16>, tensor<2x4x64x64xf16> -> tensor<2x4x64x64xf16>
  %y = brrr.add %mask, %x : tensor<2x1x1x64xf16>, tensor<2x4x64x64xf16> -> tensor<2x4x64x64xf16>
  %p = brrr.softmax %y {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %o = brrr.matmul %p, %v : tensor<2x4x64x64xf16>, tensor<2x4x64x32xf16> -> tensor<2x4x64x32xf16>
  %s2 = brrr.matmul %q, %kt : tensor<2x4x64x32xf16>, tensor<2x4x32x64xf16> -> tensor<2x4x64x64xf16>
  %x2 = brrr.add %mask, %s2 : tensor<2x1x1x64xf16>, tensor<2x4x64x64xf16> -> tensor<2x4x64x64xf16>
  %y2 = brrr.add %rel, %x2 : tensor<2x4x64x64xf16>, tensor<2x4x64x64xf16> -> tensor<2x4x64x64xf16>
  %p2 = brrr.softmax %y2 {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %o2 = brrr.matmul %p2, %v : tensor<2x4x64x64xf16>, tensor<2x4x64x32xf16> -> tensor<2x4x64x32xf16>
  return %o, %o2 : tensor<2x4x64x32xf16>, tensor<2x4x64x32xf16>
}

// -----

// Heads folded into the batch (DeBERTa's bmm over [B * H, S, D], the
// scores viewed as [B, H, S, S] for the mask and the probabilities viewed
// back): the products are rebuilt over [B, H] views, their scale and
// transpose where the match finds them, and attention fuses; the result's
// view back to [B, H, S, D] is the attention itself.
// CHECK-LABEL: func.func @FoldedHeads
// CHECK-SAME: (%[[Q:.*]]: tensor<2x4x64x32xf16>, %[[K:.*]]: tensor<2x4x64x32xf16>, %[[V:.*]]: tensor<2x4x64x32xf16>, %[[KEEP:.*]]: tensor<2x1x1x64xi1>)
// CHECK: %[[A:.*]] = brrr.attention %[[Q]], %[[K]], %[[V]] bias %{{.*}} {scale = 1.250000e-01 : f64}
// CHECK-NOT: brrr.matmul
// CHECK-NOT: brrr.softmax
// CHECK: return %[[A]]
func.func @FoldedHeads(%q: tensor<2x4x64x32xf16>, %k: tensor<2x4x64x32xf16>, %v: tensor<2x4x64x32xf16>, %keep: tensor<2x1x1x64xi1>) -> tensor<2x4x64x32xf16> {
  %c = brrr.constant dense<8.0> : tensor<f16>
  %low = brrr.constant dense<-6.550400e+04> : tensor<f16>
  %q3 = brrr.reshape %q : tensor<2x4x64x32xf16> -> tensor<8x64x32xf16>
  %k3 = brrr.reshape %k : tensor<2x4x64x32xf16> -> tensor<8x64x32xf16>
  %v3 = brrr.reshape %v : tensor<2x4x64x32xf16> -> tensor<8x64x32xf16>
  %kt = brrr.transpose %k3 {perm = array<i64: 0, 2, 1>} : tensor<8x64x32xf16> -> tensor<8x32x64xf16>
  %kts = brrr.div %kt, %c : tensor<8x32x64xf16>, tensor<f16> -> tensor<8x32x64xf16>
  %s3 = brrr.matmul %q3, %kts : tensor<8x64x32xf16>, tensor<8x32x64xf16> -> tensor<8x64x64xf16>
  %s = brrr.reshape %s3 : tensor<8x64x64xf16> -> tensor<2x4x64x64xf16>
  %x = brrr.where %keep, %s, %low : tensor<2x1x1x64xi1>, tensor<2x4x64x64xf16>, tensor<f16> -> tensor<2x4x64x64xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %p3 = brrr.reshape %p : tensor<2x4x64x64xf16> -> tensor<8x64x64xf16>
  %o3 = brrr.matmul %p3, %v3 : tensor<8x64x64xf16>, tensor<8x64x32xf16> -> tensor<8x64x32xf16>
  %o = brrr.reshape %o3 : tensor<8x64x32xf16> -> tensor<2x4x64x32xf16>
  return %o : tensor<2x4x64x32xf16>
}

// -----

// GPT-2's eager attention: the causal fill, then the padding mask added.
// The mask joins the bias inside the fill: where(keep, mask, low).
// CHECK-LABEL: func.func @FillThenMask
// CHECK-SAME: (%[[Q:.*]]: tensor<2x4x64x32xf16>, %[[KT:.*]]: tensor<2x4x32x64xf16>, %[[V:.*]]: tensor<2x4x64x32xf16>, %[[KEEP:.*]]: tensor<1x1x64x64xi1>, %[[MASK:.*]]: tensor<2x1x1x64xf16>)
// CHECK: %[[LOW:.*]] = brrr.constant dense<-6.550400e+04> : tensor<f16>
// CHECK: %[[B:.*]] = brrr.where %[[KEEP]], %[[MASK]], %[[LOW]] : tensor<1x1x64x64xi1>, tensor<2x1x1x64xf16>, tensor<f16> -> tensor<2x1x64x64xf16>
// CHECK: brrr.attention %[[Q]], %{{.*}}, %[[V]] bias %[[B]] {scale = 1.250000e-01 : f64}
// CHECK-NOT: brrr.softmax
func.func @FillThenMask(%q: tensor<2x4x64x32xf16>, %kt: tensor<2x4x32x64xf16>, %v: tensor<2x4x64x32xf16>, %keep: tensor<1x1x64x64xi1>, %mask: tensor<2x1x1x64xf16>) -> tensor<2x4x64x32xf16> {
  %c = brrr.constant dense<8.0> : tensor<f16>
  %low = brrr.constant dense<-6.550400e+04> : tensor<f16>
  %s = brrr.matmul %q, %kt : tensor<2x4x64x32xf16>, tensor<2x4x32x64xf16> -> tensor<2x4x64x64xf16>
  %d = brrr.div %s, %c : tensor<2x4x64x64xf16>, tensor<f16> -> tensor<2x4x64x64xf16>
  %f = brrr.where %keep, %d, %low : tensor<1x1x64x64xi1>, tensor<2x4x64x64xf16>, tensor<f16> -> tensor<2x4x64x64xf16>
  %x = brrr.add %f, %mask : tensor<2x4x64x64xf16>, tensor<2x1x1x64xf16> -> tensor<2x4x64x64xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %o = brrr.matmul %p, %v : tensor<2x4x64x64xf16>, tensor<2x4x64x32xf16> -> tensor<2x4x64x32xf16>
  return %o : tensor<2x4x64x32xf16>
}

// -----

// A [B * H, S, S] scores product read elsewhere too stays as it is, viewed
// where the view was (before the mask's addition that reads it); attention
// does not fuse on a view, and says why.
// CHECK-LABEL: func.func @FoldedHeadsReadTwice
// CHECK: %[[S3:.*]] = brrr.matmul %{{.*}}, %{{.*}} : tensor<8x64x32xf16>, tensor<8x32x64xf16> -> tensor<8x64x64xf16>
// CHECK: %[[S:.*]] = brrr.reshape %[[S3]] : tensor<8x64x64xf16> -> tensor<2x4x64x64xf16>
// CHECK: %[[X:.*]] = brrr.add %[[S]], %{{.*}}
// CHECK: brrr.softmax %[[X]] {axis = 3 : i64, brrr.attention_unfused = "the softmax's input is not a product of queries and keys, scaled by constants, plus masks and a masked fill"}
// CHECK: return %{{.*}}, %[[S3]]
func.func @FoldedHeadsReadTwice(%q: tensor<2x4x64x32xf16>, %kt: tensor<2x4x32x64xf16>, %v: tensor<2x4x64x32xf16>, %mask: tensor<2x1x1x64xf16>) -> (tensor<8x64x32xf16>, tensor<8x64x64xf16>) {
  %q3 = brrr.reshape %q : tensor<2x4x64x32xf16> -> tensor<8x64x32xf16>
  %k3 = brrr.reshape %kt : tensor<2x4x32x64xf16> -> tensor<8x32x64xf16>
  %v3 = brrr.reshape %v : tensor<2x4x64x32xf16> -> tensor<8x64x32xf16>
  %s3 = brrr.matmul %q3, %k3 : tensor<8x64x32xf16>, tensor<8x32x64xf16> -> tensor<8x64x64xf16>
  %s = brrr.reshape %s3 : tensor<8x64x64xf16> -> tensor<2x4x64x64xf16>
  %x = brrr.add %s, %mask : tensor<2x4x64x64xf16>, tensor<2x1x1x64xf16> -> tensor<2x4x64x64xf16>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<2x4x64x64xf16>
  %p3 = brrr.reshape %p : tensor<2x4x64x64xf16> -> tensor<8x64x64xf16>
  %o3 = brrr.matmul %p3, %v3 : tensor<8x64x64xf16>, tensor<8x64x32xf16> -> tensor<8x64x32xf16>
  return %o3, %s3 : tensor<8x64x32xf16>, tensor<8x64x64xf16>
}

// -----

// GPT-Neo's attention: f16 queries and keys cast to f32 for the scores
// (unscaled), a causal fill with f32's lowest, the softmax in f32 and its
// probabilities cast back for the product with the values. The casts only
// widen, so the f16 attention takes the queries and keys as they were.
// CHECK-LABEL: func.func @WidenedScores
// CHECK-SAME: (%[[Q:.*]]: tensor<1x2x3x16xf16>, %[[K:.*]]: tensor<1x2x3x16xf16>, %[[V:.*]]: tensor<1x2x3x16xf16>)
// CHECK: brrr.attention %[[Q]], %[[K]], %[[V]] {causal, scale = 1.000000e+00 : f64}
// CHECK-NOT: brrr.cast
// CHECK-NOT: brrr.softmax
func.func @WidenedScores(%q: tensor<1x2x3x16xf16>, %k: tensor<1x2x3x16xf16>, %v: tensor<1x2x3x16xf16>) -> tensor<1x2x3x16xf16> {
  %keep = brrr.constant dense<[[[[true, false, false], [true, true, false], [true, true, true]]]]> : tensor<1x1x3x3xi1>
  %low = brrr.constant dense<-3.40282347E+38> : tensor<f32>
  %qf = brrr.cast %q : tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf32>
  %kf = brrr.cast %k : tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf32>
  %kt = brrr.transpose %kf {perm = array<i64: 0, 1, 3, 2>} : tensor<1x2x3x16xf32> -> tensor<1x2x16x3xf32>
  %s = brrr.matmul %qf, %kt : tensor<1x2x3x16xf32>, tensor<1x2x16x3xf32> -> tensor<1x2x3x3xf32>
  %f = brrr.where %keep, %s, %low : tensor<1x1x3x3xi1>, tensor<1x2x3x3xf32>, tensor<f32> -> tensor<1x2x3x3xf32>
  %p = brrr.softmax %f {axis = 3 : i64} : tensor<1x2x3x3xf32>
  %ph = brrr.cast %p : tensor<1x2x3x3xf32> -> tensor<1x2x3x3xf16>
  %o = brrr.matmul %ph, %v : tensor<1x2x3x3xf16>, tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf16>
  return %o : tensor<1x2x3x16xf16>
}

// The same with the padding mask added after the fill, both in f32, and
// keys transposed before the cast: the bias is the fill of the mask, in
// f32, beside f16 queries, keys and values.
// CHECK-LABEL: func.func @WidenedScoresMask
// CHECK-SAME: (%[[Q:.*]]: tensor<1x2x3x16xf16>, %[[K:.*]]: tensor<1x2x3x16xf16>, %[[V:.*]]: tensor<1x2x3x16xf16>, %[[KEEP:.*]]: tensor<1x1x3x3xi1>, %[[MASK:.*]]: tensor<1x1x1x3xf32>)
// CHECK: %[[B:.*]] = brrr.where %[[KEEP]], %[[MASK]], %{{.*}} : tensor<1x1x3x3xi1>, tensor<1x1x1x3xf32>, tensor<f32> -> tensor<1x1x3x3xf32>
// CHECK: brrr.attention %[[Q]], %[[K]], %[[V]] bias %[[B]] {scale = 1.000000e+00 : f64} : tensor<1x2x3x16xf16>, tensor<1x2x3x16xf16>, tensor<1x2x3x16xf16>, tensor<1x1x3x3xf32>
// CHECK-NOT: brrr.softmax
func.func @WidenedScoresMask(%q: tensor<1x2x3x16xf16>, %k: tensor<1x2x3x16xf16>, %v: tensor<1x2x3x16xf16>, %keep: tensor<1x1x3x3xi1>, %mask: tensor<1x1x1x3xf32>) -> tensor<1x2x3x16xf16> {
  %low = brrr.constant dense<-3.40282347E+38> : tensor<f32>
  %qf = brrr.cast %q : tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf32>
  %kt = brrr.transpose %k {perm = array<i64: 0, 1, 3, 2>} : tensor<1x2x3x16xf16> -> tensor<1x2x16x3xf16>
  %ktf = brrr.cast %kt : tensor<1x2x16x3xf16> -> tensor<1x2x16x3xf32>
  %s = brrr.matmul %qf, %ktf : tensor<1x2x3x16xf32>, tensor<1x2x16x3xf32> -> tensor<1x2x3x3xf32>
  %f = brrr.where %keep, %s, %low : tensor<1x1x3x3xi1>, tensor<1x2x3x3xf32>, tensor<f32> -> tensor<1x2x3x3xf32>
  %x = brrr.add %f, %mask : tensor<1x2x3x3xf32>, tensor<1x1x1x3xf32> -> tensor<1x2x3x3xf32>
  %p = brrr.softmax %x {axis = 3 : i64} : tensor<1x2x3x3xf32>
  %ph = brrr.cast %p : tensor<1x2x3x3xf32> -> tensor<1x2x3x3xf16>
  %o = brrr.matmul %ph, %v : tensor<1x2x3x3xf16>, tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf16>
  return %o : tensor<1x2x3x16xf16>
}

// Queries widened from bf16 beside f16 values, and f32 keys that no cast
// widened: neither is the probabilities' type, and the pass says so.
// CHECK-LABEL: func.func @WidenedFromOtherTypes
// CHECK-COUNT-2: brrr.softmax {{.*}}brrr.attention_unfused = "queries, keys and values are not all of the probabilities' element type"
// CHECK-NOT: brrr.attention
func.func @WidenedFromOtherTypes(%q: tensor<1x2x3x16xbf16>, %q2: tensor<1x2x3x16xf16>, %k: tensor<1x2x3x16xf16>, %k2: tensor<1x2x3x16xf32>, %v: tensor<1x2x3x16xf16>) -> (tensor<1x2x3x16xf16>, tensor<1x2x3x16xf16>) {
  %qf = brrr.cast %q : tensor<1x2x3x16xbf16> -> tensor<1x2x3x16xf32>
  %kf = brrr.cast %k : tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf32>
  %kt = brrr.transpose %kf {perm = array<i64: 0, 1, 3, 2>} : tensor<1x2x3x16xf32> -> tensor<1x2x16x3xf32>
  %s = brrr.matmul %qf, %kt : tensor<1x2x3x16xf32>, tensor<1x2x16x3xf32> -> tensor<1x2x3x3xf32>
  %p = brrr.softmax %s {axis = 3 : i64} : tensor<1x2x3x3xf32>
  %ph = brrr.cast %p : tensor<1x2x3x3xf32> -> tensor<1x2x3x3xf16>
  %o = brrr.matmul %ph, %v : tensor<1x2x3x3xf16>, tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf16>
  %q2f = brrr.cast %q2 : tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf32>
  %k2t = brrr.transpose %k2 {perm = array<i64: 0, 1, 3, 2>} : tensor<1x2x3x16xf32> -> tensor<1x2x16x3xf32>
  %s2 = brrr.matmul %q2f, %k2t : tensor<1x2x3x16xf32>, tensor<1x2x16x3xf32> -> tensor<1x2x3x3xf32>
  %p2 = brrr.softmax %s2 {axis = 3 : i64} : tensor<1x2x3x3xf32>
  %p2h = brrr.cast %p2 : tensor<1x2x3x3xf32> -> tensor<1x2x3x3xf16>
  %o2 = brrr.matmul %p2h, %v : tensor<1x2x3x3xf16>, tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf16>
  return %o, %o2 : tensor<1x2x3x16xf16>, tensor<1x2x3x16xf16>
}

// The same f32 scores as brrr-lower-precision leaves them under
// --precision=fp16: the widened queries and keys rounded back to f16 for
// the product. The attention reads the f16 inputs, no cast between.
// CHECK-LABEL: func.func @RoundTripOperands
// CHECK-SAME: (%[[Q:.*]]: tensor<1x2x3x16xf16>, %[[K:.*]]: tensor<1x2x3x16xf16>, %[[V:.*]]: tensor<1x2x3x16xf16>)
// CHECK: brrr.attention %[[Q]], %[[K]], %[[V]] {causal, scale = 1.000000e+00 : f64}
// CHECK-NOT: brrr.cast
func.func @RoundTripOperands(%q: tensor<1x2x3x16xf16>, %k: tensor<1x2x3x16xf16>, %v: tensor<1x2x3x16xf16>) -> tensor<1x2x3x16xf16> {
  %keep = brrr.constant dense<[[[[true, false, false], [true, true, false], [true, true, true]]]]> : tensor<1x1x3x3xi1>
  %low = brrr.constant dense<-3.40282347E+38> : tensor<f32>
  %qf = brrr.cast %q : tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf32>
  %kf = brrr.cast %k : tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf32>
  %qh = brrr.cast %qf : tensor<1x2x3x16xf32> -> tensor<1x2x3x16xf16>
  %kh = brrr.cast %kf : tensor<1x2x3x16xf32> -> tensor<1x2x3x16xf16>
  %kt = brrr.transpose %kh {perm = array<i64: 0, 1, 3, 2>} : tensor<1x2x3x16xf16> -> tensor<1x2x16x3xf16>
  %sh = brrr.matmul %qh, %kt : tensor<1x2x3x16xf16>, tensor<1x2x16x3xf16> -> tensor<1x2x3x3xf16>
  %s = brrr.cast %sh : tensor<1x2x3x3xf16> -> tensor<1x2x3x3xf32>
  %f = brrr.where %keep, %s, %low : tensor<1x1x3x3xi1>, tensor<1x2x3x3xf32>, tensor<f32> -> tensor<1x2x3x3xf32>
  %p = brrr.softmax %f {axis = 3 : i64} : tensor<1x2x3x3xf32>
  %ph = brrr.cast %p : tensor<1x2x3x3xf32> -> tensor<1x2x3x3xf16>
  %o = brrr.matmul %ph, %v : tensor<1x2x3x3xf16>, tensor<1x2x3x16xf16> -> tensor<1x2x3x16xf16>
  return %o : tensor<1x2x3x16xf16>
}
