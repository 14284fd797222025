//===- WrapInFusion.h - one op, one kernel ----------------------*- C++ -*-===//
//
// The helper the single-op fusion passes (brrr-fuse-rows,
// brrr-fuse-movement, brrr-fuse-matmul) share.
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
void wrapEachInFusion(Operation *root, StringRef kind,
                      llvm::function_ref<bool(Operation *)> select);

} // namespace mlir::brrr

#endif // BRRR_PASSES_FUSION_WRAPINFUSION_H
