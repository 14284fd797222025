//===- WrapInFusion.h - one op, one kernel ----------------------*- C++ -*-===//
//
// The helpers the single-op fusion passes (brrr-fuse-rows,
// brrr-fuse-movement, brrr-fuse-matmul, brrr-fuse-conv) share, and the
// movement pass's chains.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_FUSION_WRAPINFUSION_H
#define BRRR_PASSES_FUSION_WRAPINFUSION_H

#include "dialects/Brrr/BrrrOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::brrr {

/// Wraps every op under `root` that is not yet in a fusion and satisfies
/// `select` in its own `brrr.fusion kind` op; the op's operands become the
/// fusion's inputs.
void wrapEachInFusion(Operation *root, KernelFamily kind,
                      llvm::function_ref<bool(Operation *)> select);

/// Replaces `chain` (ops in program order, each before the last read only
/// inside the chain: a chain or a tree) by one `brrr.fusion kind` op at the
/// last op's place: its inputs are the operands produced outside the chain,
/// each once, its results the last op's.
FusionOp wrapChainInFusion(ArrayRef<Operation *> chain, KernelFamily kind);

/// Whether every op of `fusion` is pointwise (or a constant): such a
/// kernel can run per element inside another family's kernel.
bool isElementwiseOnly(FusionOp fusion);

/// Merges `first` and the later fusion `second`, which reads results of
/// `first`, into one `brrr.fusion kind`: first's ops, then second's, with
/// second's reads of first's results replaced by the values themselves.
/// Results of `first` that other ops read stay results of the merged kernel
/// (before second's). Returns null, changing nothing, when no position
/// keeps every value defined before its use.
FusionOp mergeFusions(FusionOp first, FusionOp second, KernelFamily kind);

/// For every `brrr.fusion kind` under `root` (a kernel whose first op
/// produces its only result): merges in the pointwise kernel that is the
/// only reader of that result, when its outputs have the result's shape, as
/// the kernel's epilogue. The producer's result then never goes to memory
/// and a launch disappears. Where several kernels read a product's (conv,
/// matmul) result, one that only quantizes it merges in the same way, and
/// the kernel stores both the result and its 8-bit copy.
void mergeEpilogues(Operation *root, KernelFamily kind);

} // namespace mlir::brrr

#endif // BRRR_PASSES_FUSION_WRAPINFUSION_H
