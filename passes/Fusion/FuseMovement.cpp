//===- FuseMovement.cpp - data movement -> brrr.fusion movement --------===//
//
// Third fusion pass (flag brrr-fuse-movement): every transpose, slice,
// expand, gather, concat and pad left outside a fusion becomes one
// `brrr.fusion movement` kernel that copies each element from where the
// op's index map says. (Reshapes are views and need no kernel.)
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEMOVEMENT
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Whether `op` only moves elements.
bool isMovementOp(Operation *op) {
  return isa<TransposeOp, SliceOp, ExpandOp, GatherOp, ConcatOp, PadOp>(op);
}

struct FuseMovementPass
    : public mlir::brrr::impl::BrrrFuseMovementBase<FuseMovementPass> {
  void runOnOperation() override {
    SmallVector<Operation *> moveOps;
    getOperation().walk([&](Operation *op) {
      if (isMovementOp(op) && !op->getParentOfType<FusionOp>())
        moveOps.push_back(op);
    });
    for (Operation *op : moveOps) {
      OpBuilder b(op);
      auto fusion = FusionOp::create(b, op->getLoc(), "movement",
                                     op->getOperands(),
                                     op->getResultTypes());
      Block &body = fusion.getBody().front();
      IRMapping map;
      map.map(op->getOperands(), body.getArguments());
      OpBuilder inner = OpBuilder::atBlockBegin(&body);
      Operation *clone = inner.clone(*op, map);
      YieldOp::create(inner, op->getLoc(), clone->getResults());
      op->replaceAllUsesWith(fusion.getResults());
      op->erase();
    }
  }
};

} // namespace
