//===- MergedWeights.h - constant weights side by side ----------*- C++ -*-===//
//
// Products that read one activation merge into one product by their
// weights concatenated along the columns at compile time: the sibling
// projections of brrr-merge-products and the gated pairs of
// brrr-fuse-matmul (MergedWeights.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_FUSION_MERGEDWEIGHTS_H
#define BRRR_PASSES_FUSION_MERGEDWEIGHTS_H

#include "dialects/Brrr/BrrrOps.h"

#include <optional>

namespace mlir::brrr {

/// The bytes of the dense_resource constant `v` (imported weights), where
/// it is one of `size` bytes.
std::optional<ArrayRef<char>> resourceBytesOf(Value v, int64_t size);

/// One constant [K, sum of N] of the float constants `weights` (each a
/// [K, N_i] of one element type, K shared) side by side, row k each
/// weight's row k in turn, built at `b`'s insertion point as `name`:
/// imported weights' bytes copied as they are, others by their values.
/// Null, building nothing, where a weight's values cannot be read.
Value concatColumns(OpBuilder &b, Location loc, ArrayRef<Value> weights,
                    StringRef name);

/// One constant [sum of N, K] of the K-major float constants `weights`
/// (each a [N_i, K] of one element type), one after the other, built at
/// `b`'s insertion point as `name`; null, building nothing, where a
/// weight's values cannot be read.
Value concatRows(OpBuilder &b, Location loc, ArrayRef<Value> weights,
                 StringRef name);

} // namespace mlir::brrr

#endif // BRRR_PASSES_FUSION_MERGEDWEIGHTS_H
