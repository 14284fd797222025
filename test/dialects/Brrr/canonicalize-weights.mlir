// RUN: brrr-opt %s --canonicalize | FileCheck %s
// A transposed weight blob (Gemm's transB, exported Linear layers) is
// permuted once at compile time into a new blob; no kernel moves it.
// [[1, 2, 3], [4, 5, 6]] transposed is [[1, 4], [2, 5], [3, 6]].

// CHECK-LABEL: func.func @transposed_weight_blob_folds
// CHECK-NEXT: %[[W:.+]] = brrr.constant dense_resource<w_t> : tensor<3x2xf32>
// CHECK-NEXT: return %[[W]]
func.func @transposed_weight_blob_folds() -> tensor<3x2xf32> {
  %w = brrr.constant dense_resource<w> : tensor<2x3xf32>
  %0 = brrr.transpose %w {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK: w_t: "0x080000000000803F00008040000000400000A040000040400000C040"
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}
