//===- FuseMovement.cpp - data movement -> brrr.fusion movement --------===//
//
// Third fusion pass (flag brrr-fuse-movement): every transpose, slice,
// expand, gather (plain, elements, nd), concat, pad and scatter (elements,
// nd) left outside a fusion becomes one `brrr.fusion movement` kernel that
// copies each element from where the op's index map says. (Reshapes are
// views and need no kernel.) A chain of index maps (transposes, slices,
// expands, pads and the reshapes between them, each read only by the
// next) with two or more copies in it is one kernel: each output element
// is found by walking the chain back to the input (a stem's input
// preparation: NCHW to NHWC, pad, space to depth, pad the channels). A
// chain keeps its copies apart where one of them is a tiled transpose.
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

/// The chain of index maps ending at `last`: each op before it read only
/// by the next, in program order.
SmallVector<Operation *> chainEndingAt(Operation *last) {
  SmallVector<Operation *> chain = {last};
  for (Operation *op = last;;) {
    Operation *def = op->getOperand(0).getDefiningOp();
    if (!def || !isIndexMap(def) || def->getBlock() != op->getBlock() ||
        !def->getResult(0).hasOneUse())
      break;
    chain.push_back(def);
    op = def;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

struct FuseMovementPass
    : public mlir::brrr::impl::BrrrFuseMovementBase<FuseMovementPass> {
  void runOnOperation() override {
    // Chains end at an index map not read by exactly one other.
    SmallVector<SmallVector<Operation *>> chains;
    getOperation().walk([&](Operation *op) {
      if (!isIndexMap(op) || op->getParentOfType<FusionOp>())
        return;
      Value r = op->getResult(0);
      if (r.hasOneUse() && isIndexMap(*r.getUsers().begin()))
        return;
      SmallVector<Operation *> chain = chainEndingAt(op);
      int64_t copies = llvm::count_if(
          chain, [](Operation *c) { return !isa<ReshapeOp>(c); });
      bool tiled = llvm::any_of(chain, [](Operation *c) {
        auto t = dyn_cast<TransposeOp>(c);
        return t && isTiledTranspose(t);
      });
      if (copies >= 2 && !tiled)
        chains.push_back(std::move(chain));
    });
    for (ArrayRef<Operation *> chain : chains)
      wrapChainInFusion(chain, "movement");
    wrapEachInFusion(getOperation(), "movement", isMovementOp);
  }
};

} // namespace

bool mlir::brrr::isIndexMap(Operation *op) {
  if (auto p = dyn_cast<PadOp>(op))
    return !llvm::is_contained(p.getInput().getType().getShape(), 0);
  return isa<TransposeOp, SliceOp, ExpandOp, ReshapeOp>(op);
}

std::optional<std::array<int64_t, 3>>
mlir::brrr::batchedTransposeOf(TransposeOp t) {
  ArrayRef<int64_t> perm = t.getPerm();
  ArrayRef<int64_t> in = t.getInput().getType().getShape();
  int64_t n = perm.size(), k = 0;
  while (k < n && perm[k] == k)
    ++k;
  if (k == n)
    return std::nullopt;
  int64_t j = perm[k];
  for (int64_t i = k; i < n; ++i) {
    int64_t want = i - k < n - j ? j + (i - k) : k + (i - k - (n - j));
    if (perm[i] != want)
      return std::nullopt;
  }
  auto product = [&](int64_t from, int64_t to) {
    int64_t p = 1;
    for (int64_t d = from; d < to; ++d)
      p *= in[d];
    return p;
  };
  return std::array<int64_t, 3>{product(0, k), product(k, j), product(j, n)};
}

bool mlir::brrr::isTiledTranspose(TransposeOp t) {
  std::optional<std::array<int64_t, 3>> brs = batchedTransposeOf(t);
  return brs && (*brs)[0] < 65536 && (*brs)[1] >= 32 && (*brs)[2] >= 32;
}
