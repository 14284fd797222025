//===- FuseMovement.cpp - data movement -> brrr.fusion movement --------===//
//
// Third fusion pass (flag brrr-fuse-movement): every transpose, slice,
// expand, gather (plain, elements, nd), concat, pad and scatter (elements,
// nd) left outside a fusion becomes one `brrr.fusion movement` kernel that
// copies each element from where the op's index map says. (Reshapes are
// views and need no kernel.)
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Fusion/WrapInFusion.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEMOVEMENT
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Whether `op` moves elements (a scatter may also combine them).
bool isMovementOp(Operation *op) {
  return isa<TransposeOp, SliceOp, ExpandOp, GatherOp, GatherElementsOp,
             GatherNDOp, ConcatOp, PadOp, ScatterElementsOp, ScatterNDOp>(op);
}

struct FuseMovementPass
    : public mlir::brrr::impl::BrrrFuseMovementBase<FuseMovementPass> {
  void runOnOperation() override {
    wrapEachInFusion(getOperation(), "movement", isMovementOp);
  }
};

} // namespace
