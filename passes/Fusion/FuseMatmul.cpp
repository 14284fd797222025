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

#include "mlir/IR/IRMapping.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEMATMUL
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

bool isMatmul(Operation *op) { return isa<MatmulOp>(op); }

/// Merges the pointwise kernel `epilogue`, the only reader of the matmul
/// kernel `mm`'s result, into one matmul kernel with that epilogue.
void mergeEpilogue(FusionOp mm, FusionOp epilogue) {
  Value product = mm.getResult(0);
  SmallVector<Value> inputs(mm.getInputs());
  for (Value in : epilogue.getInputs())
    if (in != product)
      inputs.push_back(in);
  OpBuilder b(epilogue);
  auto fused = FusionOp::create(b, epilogue.getLoc(), "matmul", inputs,
                                epilogue.getResultTypes());
  Block &body = fused.getBody().front();
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  IRMapping map;
  Block &mmBody = mm.getBody().front();
  map.map(mmBody.getArguments(),
          body.getArguments().take_front(mmBody.getNumArguments()));
  for (Operation &op : mmBody.without_terminator())
    inner.clone(op, map);
  Value fusedProduct =
      map.lookup(cast<YieldOp>(mmBody.getTerminator()).getValues()[0]);
  unsigned next = mmBody.getNumArguments();
  Block &epBody = epilogue.getBody().front();
  for (auto [in, arg] : llvm::zip(epilogue.getInputs(), epBody.getArguments()))
    map.map(arg, in == product ? fusedProduct : body.getArgument(next++));
  for (Operation &op : epBody.without_terminator())
    inner.clone(op, map);
  SmallVector<Value> yielded;
  for (Value v : cast<YieldOp>(epBody.getTerminator()).getValues())
    yielded.push_back(map.lookup(v));
  YieldOp::create(inner, epilogue.getLoc(), yielded);
  epilogue->replaceAllUsesWith(fused.getResults());
  epilogue->erase();
  mm->erase();
}

/// The pointwise kernel that can become `mm`'s epilogue, if any.
FusionOp epilogueOf(FusionOp mm) {
  Value product = mm.getResult(0);
  if (!product.hasOneUse())
    return nullptr;
  auto user = dyn_cast<FusionOp>(*product.getUsers().begin());
  if (!user || user.getKind() != "pointwise" ||
      llvm::count(user.getInputs(), product) != 1)
    return nullptr;
  auto shape = cast<RankedTensorType>(product.getType()).getShape();
  for (Type t : user.getResultTypes())
    if (cast<RankedTensorType>(t).getShape() != shape)
      return nullptr;
  return user;
}

struct FuseMatmulPass
    : public mlir::brrr::impl::BrrrFuseMatmulBase<FuseMatmulPass> {
  void runOnOperation() override {
    wrapEachInFusion(getOperation(), "matmul", isMatmul);
    SmallVector<FusionOp> matmuls;
    getOperation().walk([&](FusionOp f) {
      if (f.getKind() == "matmul")
        matmuls.push_back(f);
    });
    for (FusionOp mm : matmuls)
      if (FusionOp epilogue = epilogueOf(mm))
        mergeEpilogue(mm, epilogue);
  }
};

} // namespace
