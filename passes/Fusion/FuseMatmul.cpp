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

std::optional<MatmulTile> mlir::brrr::matmulTileOf(FusionOp fusion,
                                                   int64_t sharedBudget) {
  if (fusion.getKind() != "matmul")
    return std::nullopt;
  auto mm = dyn_cast<MatmulOp>(&fusion.getBody().front().front());
  if (!mm)
    return std::nullopt;
  auto lt = cast<RankedTensorType>(mm.getLhs().getType());
  auto rt = cast<RankedTensorType>(mm.getRhs().getType());
  Type et = lt.getElementType();
  int64_t K = lt.getDimSize(lt.getRank() - 1);
  int64_t N = rt.getDimSize(rt.getRank() - 1);
  if (!(et.isF16() || et.isBF16()) || K % 8 != 0 || N % 8 != 0)
    return std::nullopt;
  MatmulTile tile;
  // Three stages keep two slices in flight while one is computed; two
  // still overlap one copy with the math.
  tile.stages = std::min<int64_t>(3, sharedBudget / tile.stageBytes());
  if (tile.stages < 2)
    return std::nullopt;
  return tile;
}
