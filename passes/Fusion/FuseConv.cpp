//===- FuseConv.cpp - conv / pooling -> brrr.fusion conv / pool ----------===//
//
// Fusion pass for the windowed ops (flag brrr-fuse-conv), after
// brrr-fuse-elementwise: every brrr.conv2d becomes a `brrr.fusion conv`
// kernel (an implicit GEMM on Tensor Cores) and every 2-D max or average
// pooling a `brrr.fusion pool` kernel. As for matmuls, the pointwise kernel
// that is the only reader of the result becomes the epilogue (batch norm
// left unfolded, activation, residual add), so the convolution's output
// goes to memory once, already activated.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Fusion/WrapInFusion.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSECONV
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

struct FuseConvPass : public mlir::brrr::impl::BrrrFuseConvBase<FuseConvPass> {
  void runOnOperation() override {
    wrapEachInFusion(getOperation(), "conv",
                     [](Operation *op) { return isa<Conv2DOp>(op); });
    wrapEachInFusion(getOperation(), "pool", [](Operation *op) {
      return isa<MaxPool2DOp, AvgPool2DOp>(op);
    });
    mergeEpilogues(getOperation(), "conv");
    mergeEpilogues(getOperation(), "pool");
  }
};

} // namespace
