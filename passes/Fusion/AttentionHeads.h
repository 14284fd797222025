//===- AttentionHeads.h - head views brrr-fuse-attention rewrites -*- C++
//-*-===//
//
// What brrr-fuse-attention (FuseAttention.cpp) rewrites of the heads
// around an attention: products of heads folded into the batch rebuilt
// over [B, H] views before matching, and keys and values whose heads a
// grouped-query model repeats taken unrepeated.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_FUSION_ATTENTIONHEADS_H
#define BRRR_PASSES_FUSION_ATTENTIONHEADS_H

#include "passes/Analysis.h"

namespace mlir::brrr::attention_heads {

/// Keys and values without their repeated heads, when both repeat the same
/// heads the same way: y viewed as [B, Hk, S, D] each, and the kernel reads
/// head h / G, so the repeated heads are never copied. Otherwise both as
/// they are (the op needs as many key heads as value heads). A cast of the
/// repeated heads (an f32 model's keys rounded for 16-bit products) is a
/// cast of y's view.
void ungroupHeads(OpBuilder &b, Location loc, Value &key, Value &value);

/// Erases `op` and, recursively, the operand producers it leaves unused.
void eraseDead(Operation *op);

/// Rewrites the products around `sm` (static [B, H, Sq, Sk] scores over
/// the last axis) that fold the heads into their batch, so that the
/// attention around it is matched on rank-4 products.
void splitHeadsAround(SoftmaxOp sm);

} // namespace mlir::brrr::attention_heads

#endif // BRRR_PASSES_FUSION_ATTENTIONHEADS_H
