//===- FuseMatmul.cpp - matmul -> brrr.fusion matmul --------------------===//
//
// Fusion pass for matrix products (flag brrr-fuse-matmul), after
// brrr-fuse-elementwise: every brrr.matmul becomes a `brrr.fusion matmul`
// kernel on Tensor Cores, reading through the transposes that feed only it
// (their permutations become operand strides), and a pointwise kernel that
// is the only reader of its result, with outputs of the product's shape,
// becomes its epilogue: bias, activation and residual are applied to the
// accumulators, so the product never goes to memory. Also home of the
// staged-tile decision (matmulTileOf) and operand layouts.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Fusion/WrapInFusion.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEMATMUL
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// The transposes feeding `mm` that its kernel can read through: only the
/// matmul reads them, and reading through them does not cost the product
/// its staged (tiled) body. Each saves writing and re-reading the
/// transposed copy and one launch.
SmallVector<TransposeOp> transposesToFuse(MatmulOp mm) {
  Type et = mm.getLhs().getType().getElementType();
  auto plain = [](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    OperandLayout l{v, SmallVector<int64_t>(t.getShape()), {}};
    l.strides.assign(t.getRank(), 1);
    for (int64_t d = t.getRank() - 2; d >= 0; --d)
      l.strides[d] = l.strides[d + 1] * t.getDimSize(d + 1);
    return l;
  };
  OperandLayout lhs = plain(mm.getLhs()), rhs = plain(mm.getRhs());
  bool stagedAsIs = isStageable(et, lhs, rhs);
  SmallVector<TransposeOp> fused;
  for (auto [i, operand] : llvm::enumerate(mm->getOperands())) {
    auto t = operand.getDefiningOp<TransposeOp>();
    if (!t || !t->hasOneUse() || (i == 1 && mm.getLhs() == mm.getRhs()))
      continue;
    OperandLayout through = operandLayoutOf(operand);
    bool staged = i == 0 ? isStageable(et, through, rhs)
                         : isStageable(et, lhs, through);
    if (staged || !stagedAsIs) {
      fused.push_back(t);
      (i == 0 ? lhs : rhs) = through;
    }
  }
  return fused;
}

/// Wraps `mm` and the transposes it reads through in one matmul kernel.
void wrapMatmul(MatmulOp mm) {
  SmallVector<TransposeOp> transposes = transposesToFuse(mm);
  SmallVector<Value> inputs;
  for (Value operand : mm->getOperands()) {
    auto t = operand.getDefiningOp<TransposeOp>();
    Value in = t && llvm::is_contained(transposes, t) ? t.getInput() : operand;
    if (!llvm::is_contained(inputs, in))
      inputs.push_back(in);
  }
  OpBuilder b(mm);
  auto fusion =
      FusionOp::create(b, mm.getLoc(), "matmul", inputs, mm->getResultTypes());
  Block &body = fusion.getBody().front();
  IRMapping map;
  for (auto [in, arg] : llvm::zip(inputs, body.getArguments()))
    map.map(in, arg);
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  for (TransposeOp t : transposes)
    inner.clone(*t, map);
  Operation *clone = inner.clone(*mm, map);
  YieldOp::create(inner, mm.getLoc(), clone->getResults());
  mm->replaceAllUsesWith(fusion.getResults());
  mm->erase();
  for (TransposeOp t : transposes)
    t->erase();
}

struct FuseMatmulPass
    : public mlir::brrr::impl::BrrrFuseMatmulBase<FuseMatmulPass> {
  void runOnOperation() override {
    SmallVector<MatmulOp> matmuls;
    getOperation().walk([&](MatmulOp mm) {
      if (!mm->getParentOfType<FusionOp>())
        matmuls.push_back(mm);
    });
    for (MatmulOp mm : matmuls)
      wrapMatmul(mm);
    mergeEpilogues(getOperation(), "matmul");
  }
};

} // namespace

std::optional<MatmulTile> mlir::brrr::matmulTileOf(FusionOp fusion,
                                                   int64_t sharedBudget) {
  if (fusion.getKind() != "matmul")
    return std::nullopt;
  MatmulOp mm;
  for (Operation &op : fusion.getBody().front())
    if ((mm = dyn_cast<MatmulOp>(op)))
      break;
  if (!mm || !isStageable(mm.getLhs().getType().getElementType(),
                          operandLayoutOf(mm.getLhs()),
                          operandLayoutOf(mm.getRhs())))
    return std::nullopt;
  MatmulTile tile;
  // Three stages keep two slices in flight while one is computed; two
  // still overlap one copy with the math.
  tile.stages = std::min<int64_t>(3, sharedBudget / tile.stageBytes());
  if (tile.stages < 2)
    return std::nullopt;
  return tile;
}

OperandLayout mlir::brrr::operandLayoutOf(Value operand) {
  auto rowMajor = [](RankedTensorType t) {
    SmallVector<int64_t> strides(t.getRank(), 1);
    for (int64_t d = t.getRank() - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * t.getDimSize(d + 1);
    return strides;
  };
  auto type = cast<RankedTensorType>(operand.getType());
  OperandLayout layout{operand, SmallVector<int64_t>(type.getShape()),
                       rowMajor(type)};
  if (auto t = operand.getDefiningOp<TransposeOp>()) {
    SmallVector<int64_t> in = rowMajor(t.getInput().getType());
    layout.source = t.getInput();
    for (auto [d, p] : llvm::enumerate(t.getPerm()))
      layout.strides[d] = in[p];
  }
  return layout;
}

bool mlir::brrr::isStageable(Type et, const OperandLayout &lhs,
                             const OperandLayout &rhs) {
  if (!(et.isF16() || et.isBF16()))
    return false;
  // 16-byte chunks along the innermost dimension (K of A, N of B): it is
  // contiguous, a whole number of chunks long, and every chunk starts 16
  // bytes aligned.
  for (const OperandLayout *l : {&lhs, &rhs}) {
    if (l->strides.back() != 1 || l->shape.back() % 8 != 0)
      return false;
    for (auto [size, stride] :
         llvm::zip(ArrayRef(l->shape).drop_back(), ArrayRef(l->strides).drop_back()))
      if (size != 1 && stride % 8 != 0)
        return false;
  }
  return true;
}
