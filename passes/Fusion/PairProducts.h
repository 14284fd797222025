//===- PairProducts.h - gated pairs of products as one ----------*- C++ -*-===//
//
// brrr-fuse-matmul's gated pairs (PairProducts.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_FUSION_PAIRPRODUCTS_H
#define BRRR_PASSES_FUSION_PAIRPRODUCTS_H

#include "dialects/Brrr/BrrrOps.h"

namespace mlir::brrr {

/// Under `root`, after every matmul is a kernel of its own: a pointwise
/// kernel that combines two products of one activation by constant 16-bit
/// weights of one shape (a gated unit: silu(x W_gate) * (x W_up), gelu(x
/// W_0) * (x W_1)), each read by it alone, becomes one matmul kernel of
/// the weights side by side whose epilogue pairs the product's halves
/// (pairedHalvesOf). Only on a wgmma `target`, where K and N are whole
/// 16-byte chunks and the kernel runs a body that pairs halves: the wgmma
/// body (more static rows than the few-rows bodies take), or, for weights
/// brrr-align-products stored K-major, the few-rows bodies too (a few
/// static rows; symbolic rows, whose ranges take all three). The first
/// product's values then never go to memory, and one launch disappears.
/// Likewise a pointwise kernel that reads a lone product only through its
/// two halves, sliced first (a gate and up projection fused in one weight,
/// then chunked): the product's kernel takes it as its epilogue.
void pairGatedProducts(Operation *root, TargetAttr target);

} // namespace mlir::brrr

#endif // BRRR_PASSES_FUSION_PAIRPRODUCTS_H
