//===- FuseRows.cpp - row reductions -> brrr.fusion row -------------------===//
//
// Second fusion pass (flag brrr-fuse-rows): every softmax, log-softmax,
// layer norm and float reduction whose reduction covers the trailing
// dimensions becomes one `brrr.fusion row` kernel that reads its row once.
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
  if (auto r = dyn_cast<ReduceOp>(op)) {
    // Float reductions over a non-empty set of trailing, contiguous axes.
    auto type = cast<RankedTensorType>(r.getInput().getType());
    ArrayRef<int64_t> axes = r.getAxes();
    if (!isa<FloatType>(type.getElementType()) || axes.empty() ||
        axes.back() != type.getRank() - 1)
      return false;
    for (auto [i, a] : llvm::enumerate(axes))
      if (a != axes.front() + static_cast<int64_t>(i))
        return false;
    int64_t cols = 1;
    for (int64_t a : axes)
      cols *= type.getDimSize(a);
    return cols > 0;
  }
  return isa<LayerNormOp>(op);
}

struct FuseRowsPass : public mlir::brrr::impl::BrrrFuseRowsBase<FuseRowsPass> {
  void runOnOperation() override {
    wrapEachInFusion(getOperation(), "row", isRowOp);
  }
};

} // namespace
