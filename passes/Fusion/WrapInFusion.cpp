//===- WrapInFusion.cpp - one op, one kernel -----------------------------===//

#include "passes/Fusion/WrapInFusion.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

void mlir::brrr::wrapEachInFusion(
    Operation *root, StringRef kind,
    llvm::function_ref<bool(Operation *)> select) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (select(op) && !op->getParentOfType<FusionOp>())
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    auto fusion = FusionOp::create(b, op->getLoc(), kind, op->getOperands(),
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
