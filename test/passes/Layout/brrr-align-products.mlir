// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-align-products{few-rows-mma=never}))' | FileCheck %s
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-align-products))' | FileCheck %s --check-prefix=AUTO
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-align-products{min-work=4000000000 few-rows-mma=never}))' | FileCheck %s --check-prefix=BIG
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-align-products{min-work=0 few-rows-mma=never}))' | FileCheck %s --check-prefix=VALUES
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-align-products{min-work=100000000 few-rows-mma=never}))' | FileCheck %s --check-prefix=MID
// RUN: brrr-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(brrr-align-products{few-rows-mma=always}))' | FileCheck %s --check-prefix=MMA

// MLP-Mixer's token mixing: 196 tokens contracted (K = 196, padded to 200:
// A by a pad, the weight's rows at compile time), then 196 columns (N =
// 196: the weight stored K-major, [196, 384], read through a transpose).
// CHECK-LABEL: func.func @TokenMixing
// CHECK: %[[P:.+]] = brrr.pad constant %{{.+}} {high = array<i64: 0, 0, 4>, low = array<i64: 0, 0, 0>, value = 0.000000e+00 : f64} : tensor<32x768x196xf16> -> tensor<32x768x200xf16>
// CHECK: %[[W1:.+]] = brrr.constant dense_resource<aligned_weight> : tensor<200x384xf16>
// CHECK: brrr.matmul %[[P]], %[[W1]] : tensor<32x768x200xf16>, tensor<200x384xf16> -> tensor<32x768x384xf16>
// CHECK: %[[W2:.+]] = brrr.constant dense_resource<aligned_weight_1> : tensor<196x384xf16>
// CHECK: %[[T:.+]] = brrr.transpose %[[W2]] {perm = array<i64: 1, 0>} : tensor<196x384xf16> -> tensor<384x196xf16>
// CHECK: brrr.matmul %{{.+}}, %[[T]] : tensor<32x768x384xf16>, tensor<384x196xf16> -> tensor<32x768x196xf16>
// Under the work threshold, neither.
// BIG-LABEL: func.func @TokenMixing
// BIG-NOT: brrr.pad
// BIG-NOT: brrr.transpose
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @TokenMixing(%t: tensor<32x768x196xf16>, %g: tensor<32x768x384xf16>) -> (tensor<32x768x384xf16>, tensor<32x768x196xf16>) {
  %w1 = brrr.constant dense<0.5> : tensor<196x384xf16>
  %h = brrr.matmul %t, %w1 : tensor<32x768x196xf16>, tensor<196x384xf16> -> tensor<32x768x384xf16>
  %w2 = brrr.constant dense<0.25> : tensor<384x196xf16>
  %o = brrr.matmul %g, %w2 : tensor<32x768x384xf16>, tensor<384x196xf16> -> tensor<32x768x196xf16>
  return %h, %o : tensor<32x768x384xf16>, tensor<32x768x196xf16>
}
}

// -----

// Left alone: aligned products, f32, a computed weight, a small product
// with K = 196 (under the default threshold), and, without wgmma, N = 196.
// CHECK-LABEL: func.func @LeftAlone
// CHECK-NOT: brrr.pad
// CHECK-NOT: brrr.transpose
// CHECK-NOT: aligned_weight
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @LeftAlone(%a: tensor<64x256xf16>, %b: tensor<4096x196xf32>, %c: tensor<4096x196xf16>, %w: tensor<196x256xf16>, %d: tensor<8x196xf16>) -> (tensor<64x128xf16>, tensor<4096x256xf32>, tensor<4096x256xf16>, tensor<8x256xf16>) {
  %w0 = brrr.constant dense<1.0> : tensor<256x128xf16>
  %y0 = brrr.matmul %a, %w0 : tensor<64x256xf16>, tensor<256x128xf16> -> tensor<64x128xf16>
  %wf = brrr.constant dense<1.0> : tensor<196x256xf32>
  %y1 = brrr.matmul %b, %wf : tensor<4096x196xf32>, tensor<196x256xf32> -> tensor<4096x256xf32>
  %y2 = brrr.matmul %c, %w : tensor<4096x196xf16>, tensor<196x256xf16> -> tensor<4096x256xf16>
  %ws = brrr.constant dense<1.0> : tensor<196x256xf16>
  %y3 = brrr.matmul %d, %ws : tensor<8x196xf16>, tensor<196x256xf16> -> tensor<8x256xf16>
  return %y0, %y1, %y2, %y3 : tensor<64x128xf16>, tensor<4096x256xf32>, tensor<4096x256xf16>, tensor<8x256xf16>
}
}

// -----

// CHECK-LABEL: func.func @NoWgmma
// CHECK-NOT: brrr.transpose
module attributes {brrr.target = #brrr.target<chip = "sm_80", capability = 80, multiprocessors = 108, shared_per_block = 166912, shared_per_multiprocessor = 167936, tensor_cores = mma_sync, features = []>} {
func.func @NoWgmma(%g: tensor<4096x384xf16>) -> tensor<4096x196xf16> {
  %w2 = brrr.constant dense<0.25> : tensor<384x196xf16>
  %o = brrr.matmul %g, %w2 : tensor<4096x384xf16>, tensor<384x196xf16> -> tensor<4096x196xf16>
  return %o : tensor<4096x196xf16>
}
}

// -----

// The values, on a product small enough to read them (min-work=0): K = 3
// padded to 8 with zero rows, and N = 3 stored K-major, [3, 8], its
// padded columns zeros. One weight serves both: a 1 x 3 x 3 product.
// VALUES-LABEL: func.func @Values
// VALUES: brrr.pad constant %{{.+}} {high = array<i64: 0, 0, 5>, low = array<i64: 0, 0, 0>, value = 0.000000e+00 : f64} : tensor<2x4x3xf16> -> tensor<2x4x8xf16>
// VALUES: %[[W:.+]] = brrr.constant dense_resource<aligned_weight> : tensor<3x8xf16>
// VALUES: brrr.transpose %[[W]] {perm = array<i64: 1, 0>} : tensor<3x8xf16> -> tensor<8x3xf16>
// 1, 4, 7 then five zeros; 2, 5, 8; 3, 6, 9 (little-endian halves: 1.0 is
// 003C, 9.0 is 8048).
// VALUES: aligned_weight: "0x08000000003C00440047000000000000000000000040004500480000000000000000000000420046804800000000000000000000"
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @Values(%a: tensor<2x4x3xf16>) -> tensor<2x4x3xf16> {
  %w = brrr.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf16>
  %y = brrr.matmul %a, %w : tensor<2x4x3xf16>, tensor<3x3xf16> -> tensor<2x4x3xf16>
  return %y : tensor<2x4x3xf16>
}
}

// -----

// A weight blob that is only stored K-major is permuted as bytes (a
// language model's head): [8, 3] holding 0..23 becomes [3, 8], column n
// of the original as row n.
// VALUES-LABEL: func.func @BlobKMajor
// VALUES: %[[W:.+]] = brrr.constant dense_resource<w_t> : tensor<3x8xf16>
// VALUES: brrr.transpose %[[W]] {perm = array<i64: 1, 0>} : tensor<3x8xf16> -> tensor<8x3xf16>
// VALUES: w_t: "0x080000000000004200468048004A804B804C404D003C004400470049804A004CC04C804D0040004500488049004B404C004DC04D"
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @BlobKMajor(%a: tensor<2x4x8xf16>) -> tensor<2x4x3xf16> {
  %w = brrr.constant dense_resource<w> : tensor<8x3xf16>
  %y = brrr.matmul %a, %w : tensor<2x4x8xf16>, tensor<8x3xf16> -> tensor<2x4x3xf16>
  return %y : tensor<2x4x3xf16>
}
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x020000000000003C0040004200440045004600470048804800498049004A804A004B804B004C404C804CC04C004D404D804DC04D"
    }
  }
#-}


// -----

// A language model's head over a symbolic batch (1..64 rows): as few as one
// row, whose range runs the few-rows body, so the weight is stored K-major
// at any threshold. A product over 8..512 rows with N = 5001: the largest
// shape's work (512 x 768 x 5001 multiply-adds, 2.0e9) decides whether N
// not a multiple of 8 stores it K-major. K = 196 over symbolic rows would
// need a pad of A: left alone.
// CHECK-LABEL: func.func @SymbolicRows
// CHECK: %[[W:.+]] = brrr.constant dense_resource<aligned_weight> : tensor<50257x768xf16>
// CHECK: %[[T:.+]] = brrr.transpose %[[W]] {perm = array<i64: 1, 0>} : tensor<50257x768xf16> -> tensor<768x50257xf16>
// CHECK: brrr.matmul %{{.+}}, %[[T]] : tensor<?x1x768xf16, #brrr.extents<()[s0] -> (s0, 1, 768)>>, tensor<768x50257xf16>
// CHECK-NOT: brrr.pad
// CHECK: brrr.matmul %{{.+}}, %{{.+}} : tensor<?x196xf16, #brrr.extents<()[s0] -> (s0 * 64, 196)>>, tensor<196x4096xf16>
// CHECK: brrr.transpose %{{.+}} : tensor<5001x768xf16> -> tensor<768x5001xf16>
// A threshold below 512 rows' work aligns it; one above it does not, but
// the head's weight is K-major still.
// MID-LABEL: func.func @SymbolicRows
// MID: brrr.transpose {{.+}} -> tensor<768x50257xf16>
// MID: brrr.transpose {{.+}} -> tensor<768x5001xf16>
// BIG-LABEL: func.func @SymbolicRows
// BIG: brrr.transpose {{.+}} -> tensor<768x50257xf16>
// BIG-NOT: brrr.transpose
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>, brrr.dims = [#brrr.dim<"batch", 1, 64>]} {
func.func @SymbolicRows(%x: tensor<?x1x768xf16, #brrr.extents<()[s0] -> (s0, 1, 768)>>, %t: tensor<?x196xf16, #brrr.extents<()[s0] -> (s0 * 64, 196)>>, %u: tensor<?x768xf16, #brrr.extents<()[s0] -> (s0 * 8, 768)>>) -> (tensor<?x1x50257xf16, #brrr.extents<()[s0] -> (s0, 1, 50257)>>, tensor<?x4096xf16, #brrr.extents<()[s0] -> (s0 * 64, 4096)>>, tensor<?x5001xf16, #brrr.extents<()[s0] -> (s0 * 8, 5001)>>) {
  %w = brrr.constant dense<0.5> : tensor<768x50257xf16>
  %y = brrr.matmul %x, %w : tensor<?x1x768xf16, #brrr.extents<()[s0] -> (s0, 1, 768)>>, tensor<768x50257xf16> -> tensor<?x1x50257xf16, #brrr.extents<()[s0] -> (s0, 1, 50257)>>
  %w2 = brrr.constant dense<0.5> : tensor<196x4096xf16>
  %z = brrr.matmul %t, %w2 : tensor<?x196xf16, #brrr.extents<()[s0] -> (s0 * 64, 196)>>, tensor<196x4096xf16> -> tensor<?x4096xf16, #brrr.extents<()[s0] -> (s0 * 64, 4096)>>
  %w3 = brrr.constant dense<0.5> : tensor<768x5001xf16>
  %v = brrr.matmul %u, %w3 : tensor<?x768xf16, #brrr.extents<()[s0] -> (s0 * 8, 768)>>, tensor<768x5001xf16> -> tensor<?x5001xf16, #brrr.extents<()[s0] -> (s0 * 8, 5001)>>
  return %y, %z, %v : tensor<?x1x50257xf16, #brrr.extents<()[s0] -> (s0, 1, 50257)>>, tensor<?x4096xf16, #brrr.extents<()[s0] -> (s0 * 64, 4096)>>, tensor<?x5001xf16, #brrr.extents<()[s0] -> (s0 * 8, 5001)>>
}
}

// -----

// Products of at most 4 static rows store a constant weight K-major at any
// size (under min-work too), f32 as well, and pad nothing: K = 3 stays 3.
// 5 rows are left alone (under the threshold).
// CHECK-LABEL: func.func @FewRows
// CHECK: %[[W1:.+]] = brrr.constant dense_resource<aligned_weight> : tensor<64x128xf16>
// CHECK: %[[T1:.+]] = brrr.transpose %[[W1]] {perm = array<i64: 1, 0>} : tensor<64x128xf16> -> tensor<128x64xf16>
// CHECK: brrr.matmul %{{.+}}, %[[T1]] : tensor<1x128xf16>, tensor<128x64xf16> -> tensor<1x64xf16>
// CHECK: %[[W2:.+]] = brrr.constant dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00], [2.000000e+00, {{.+}}]]> : tensor<5x3xf32>
// CHECK: %[[T2:.+]] = brrr.transpose %[[W2]] {perm = array<i64: 1, 0>} : tensor<5x3xf32> -> tensor<3x5xf32>
// CHECK: brrr.matmul %{{.+}}, %[[T2]] : tensor<2x2x3xf32>, tensor<3x5xf32> -> tensor<2x2x5xf32>
// CHECK-NOT: brrr.transpose
// CHECK: brrr.matmul %{{.+}}, %{{.+}} : tensor<5x128xf16>, tensor<128x64xf16> -> tensor<5x64xf16>
// At any work threshold.
// BIG-LABEL: func.func @FewRows
// BIG-COUNT-2: brrr.transpose
// With few-rows-mma=always, so do 16-bit products of up to 64 rows in
// whole 8-element chunks of K (the few-rows body on Tensor Cores): the 5
// rows too; by default (auto), those of up to 32 rows; with never, none.
// MMA-LABEL: func.func @FewRows
// MMA-COUNT-3: brrr.transpose
// MMA-LABEL: func.func @FewRowsMma
// MMA: brrr.transpose {{.+}} : tensor<64x128xf16> -> tensor<128x64xf16>
// MMA-NEXT: brrr.matmul {{.+}} : tensor<64x128xf16>, tensor<128x64xf16> -> tensor<64x64xf16>
// MMA: brrr.transpose {{.+}} : tensor<64x128xf16> -> tensor<128x64xf16>
// MMA-NEXT: brrr.matmul {{.+}} : tensor<32x128xf16>, tensor<128x64xf16> -> tensor<32x64xf16>
// MMA-NOT: brrr.transpose
// MMA: return
// AUTO-LABEL: func.func @FewRows
// AUTO-COUNT-3: brrr.transpose
// AUTO-LABEL: func.func @FewRowsMma
// AUTO: brrr.transpose {{.+}} : tensor<64x128xf16> -> tensor<128x64xf16>
// AUTO-NEXT: brrr.matmul {{.+}} : tensor<32x128xf16>, tensor<128x64xf16> -> tensor<32x64xf16>
// AUTO-NOT: brrr.transpose
// AUTO: return
// CHECK-LABEL: func.func @FewRowsMma
// CHECK-NOT: brrr.transpose
// CHECK: return
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @FewRows(%a: tensor<1x128xf16>, %b: tensor<2x2x3xf32>, %c: tensor<5x128xf16>) -> (tensor<1x64xf16>, tensor<2x2x5xf32>, tensor<5x64xf16>) {
  %w = brrr.constant dense<0.5> : tensor<128x64xf16>
  %y0 = brrr.matmul %a, %w : tensor<1x128xf16>, tensor<128x64xf16> -> tensor<1x64xf16>
  %wf = brrr.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<3x5xf32>
  %y1 = brrr.matmul %b, %wf : tensor<2x2x3xf32>, tensor<3x5xf32> -> tensor<2x2x5xf32>
  %y2 = brrr.matmul %c, %w : tensor<5x128xf16>, tensor<128x64xf16> -> tensor<5x64xf16>
  return %y0, %y1, %y2 : tensor<1x64xf16>, tensor<2x2x5xf32>, tensor<5x64xf16>
}

// 64 rows (65 are left alone), K = 128 in whole chunks (100 is not), f16
// (f32 is not); 32 rows.
func.func @FewRowsMma(%a: tensor<64x128xf16>, %b: tensor<65x128xf16>, %c: tensor<16x100xf16>, %d: tensor<16x128xf32>, %e: tensor<32x128xf16>) -> (tensor<64x64xf16>, tensor<65x64xf16>, tensor<16x64xf16>, tensor<16x64xf32>, tensor<32x64xf16>) {
  %w = brrr.constant dense<0.5> : tensor<128x64xf16>
  %y0 = brrr.matmul %a, %w : tensor<64x128xf16>, tensor<128x64xf16> -> tensor<64x64xf16>
  %y1 = brrr.matmul %b, %w : tensor<65x128xf16>, tensor<128x64xf16> -> tensor<65x64xf16>
  %wc = brrr.constant dense<0.5> : tensor<100x64xf16>
  %y2 = brrr.matmul %c, %wc : tensor<16x100xf16>, tensor<100x64xf16> -> tensor<16x64xf16>
  %wd = brrr.constant dense<0.5> : tensor<128x64xf32>
  %y3 = brrr.matmul %d, %wd : tensor<16x128xf32>, tensor<128x64xf32> -> tensor<16x64xf32>
  %we = brrr.constant dense<0.25> : tensor<128x64xf16>
  %y4 = brrr.matmul %e, %we : tensor<32x128xf16>, tensor<128x64xf16> -> tensor<32x64xf16>
  return %y0, %y1, %y2, %y3, %y4 : tensor<64x64xf16>, tensor<65x64xf16>, tensor<16x64xf16>, tensor<16x64xf32>, tensor<32x64xf16>
}
}

// -----

// A product of no rows is no few-rows product: its weight stays.
// CHECK-LABEL: func.func @ZeroRows
// CHECK-NOT: brrr.transpose
module attributes {brrr.target = #brrr.target<chip = "sm_90a", capability = 90, multiprocessors = 132, shared_per_block = 232448, shared_per_multiprocessor = 233472, tensor_cores = wgmma, features = [arch_specific, tma, clusters, grid_dependency]>} {
func.func @ZeroRows(%a: tensor<0x128xf16>) -> tensor<0x64xf16> {
  %w = brrr.constant dense<0.5> : tensor<128x64xf16>
  %y = brrr.matmul %a, %w : tensor<0x128xf16>, tensor<128x64xf16> -> tensor<0x64xf16>
  return %y : tensor<0x64xf16>
}
}
