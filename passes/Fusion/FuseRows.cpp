//===- FuseRows.cpp - row reductions -> brrr.fusion row -------------------===//
//
// Second fusion pass (flag brrr-fuse-rows): every softmax, log-softmax and
// layer norm whose reduction covers the trailing dimensions becomes one
// `brrr.fusion row` kernel that reads its row once and writes it once.
// Their operands stay kernel inputs (the row kernel reads scale and bias
// from memory, splat or not).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Fusion/WrapInFusion.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEROWS
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Whether `op` reduces over a trailing block of its input.
bool isRowOp(Operation *op) {
  if (auto s = dyn_cast<SoftmaxOp>(op))
    return s.getAxis() == s.getType().getRank() - 1;
  if (auto s = dyn_cast<LogSoftmaxOp>(op))
    return s.getAxis() == s.getType().getRank() - 1;
  return isa<LayerNormOp>(op);
}

struct FuseRowsPass : public mlir::brrr::impl::BrrrFuseRowsBase<FuseRowsPass> {
  void runOnOperation() override {
    wrapEachInFusion(getOperation(), "row", isRowOp);
  }
};

} // namespace
