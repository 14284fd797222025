//===- WrapInFusion.cpp - one op, one kernel -----------------------------===//

#include "passes/Fusion/WrapInFusion.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Merges the pointwise kernel `epilogue`, the only reader of `producer`'s
/// result, into one kernel of `producer`'s kind.
void mergeEpilogue(FusionOp producer, FusionOp epilogue) {
  Value product = producer.getResult(0);
  SmallVector<Value> inputs(producer.getInputs());
  for (Value in : epilogue.getInputs())
    if (in != product)
      inputs.push_back(in);
  OpBuilder b(epilogue);
  auto fused = FusionOp::create(b, epilogue.getLoc(), producer.getKind(),
                                inputs, epilogue.getResultTypes());
  Block &body = fused.getBody().front();
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  IRMapping map;
  Block &producerBody = producer.getBody().front();
  map.map(producerBody.getArguments(),
          body.getArguments().take_front(producerBody.getNumArguments()));
  for (Operation &op : producerBody.without_terminator())
    inner.clone(op, map);
  Value fusedProduct =
      map.lookup(cast<YieldOp>(producerBody.getTerminator()).getValues()[0]);
  unsigned next = producerBody.getNumArguments();
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
  producer->erase();
}

/// The pointwise kernel that can become `producer`'s epilogue, if any.
FusionOp epilogueOf(FusionOp producer) {
  if (producer.getNumResults() != 1)
    return nullptr;
  Value product = producer.getResult(0);
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

} // namespace

void mlir::brrr::mergeEpilogues(Operation *root, StringRef kind) {
  SmallVector<FusionOp> producers;
  root->walk([&](FusionOp f) {
    if (f.getKind() == kind)
      producers.push_back(f);
  });
  for (FusionOp producer : producers)
    if (FusionOp epilogue = epilogueOf(producer))
      mergeEpilogue(producer, epilogue);
}

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
