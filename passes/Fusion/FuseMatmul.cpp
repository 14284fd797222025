//===- FuseMatmul.cpp - matmul -> brrr.fusion matmul --------------------===//
//
// Fusion pass for matrix products (flag brrr-fuse-matmul): every
// brrr.matmul becomes a `brrr.fusion matmul` kernel on Tensor Cores. The
// epilogue (bias, activation, residual) is a separate pointwise kernel for
// now; fusing it in is the next step of this pass.
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
  }
};

} // namespace
