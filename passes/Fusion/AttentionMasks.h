//===- AttentionMasks.h - masks brrr-fuse-attention reads -----*- C++ -*-===//
//
// What brrr-fuse-attention (FuseAttention.cpp) reads of the scores' masks
// and scales: one-element constants, masks of zeros, and causal masks,
// constant or compared over a symbolic sequence.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_FUSION_ATTENTIONMASKS_H
#define BRRR_PASSES_FUSION_ATTENTIONMASKS_H

#include "passes/Analysis.h"

#include <optional>

namespace mlir::brrr::attention_masks {

/// A mask value at or below f16's lowest (-65504) counts as -inf: torch
/// masks with the dtype's lowest value, whose probability is exactly zero
/// unless a row's scores differ by more than ~65000.
constexpr double kMaskedScore = -65504;

inline Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

inline ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// The value of a one-element float constant.
std::optional<double> scalarConstant(Value v);

/// Whether `v` is zero everywhere: a splat constant of zero, or one
/// expanded.
bool isZeroSplat(Value v);

/// Whether `bias` is where(causal, 0, masked) for the scores' last two
/// dimensions `rows` x `cols` (or that, folded to a constant), with
/// `masked` -inf or low enough that its probability is exactly zero. With more
/// queries than keys, the first rows would mask every key, and the two maskings
/// differ there. Over symbolic sequences, queries and keys are one extent.
bool isCausalBias(Value bias, AffineExpr rowsExtent, AffineExpr colsExtent);

} // namespace mlir::brrr::attention_masks

#endif // BRRR_PASSES_FUSION_ATTENTIONMASKS_H
