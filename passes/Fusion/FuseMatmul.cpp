//===- FuseMatmul.cpp - matmul -> brrr.fusion matmul --------------------===//
//
// Fusion pass for matrix products (flag brrr-fuse-matmul), after
// brrr-fuse-elementwise: every brrr.matmul becomes a `brrr.fusion matmul`
// kernel on Tensor Cores, and a pointwise kernel that is the only reader of
// its result, with outputs of the product's shape, becomes its epilogue:
// bias, activation and residual are applied to the accumulators, so the
// product never goes to memory.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Fusion/WrapInFusion.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEMATMUL
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

bool isMatmul(Operation *op) { return isa<MatmulOp>(op); }

struct FuseMatmulPass
    : public mlir::brrr::impl::BrrrFuseMatmulBase<FuseMatmulPass> {
  void runOnOperation() override {
    wrapEachInFusion(getOperation(), "matmul", isMatmul);
    mergeEpilogues(getOperation(), "matmul");
  }
};

} // namespace
