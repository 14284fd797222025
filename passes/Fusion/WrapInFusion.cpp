//===- WrapInFusion.cpp - one op, one kernel -----------------------------===//

#include "passes/Fusion/WrapInFusion.h"

#include "passes/Analysis.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::brrr;

bool mlir::brrr::isElementwiseOnly(FusionOp fusion) {
  return llvm::all_of(
      fusion.getBody().front().without_terminator(),
      [](Operation &op) { return isPointwise(&op) || isa<ConstantOp>(op); });
}

FusionOp mlir::brrr::mergeFusions(FusionOp first, FusionOp second,
                                  KernelFamily kind) {
  auto fromFirst = [&](Value v) { return v.getDefiningOp() == first; };
  // Where the merged kernel can go: at `second`, unless something between
  // the two reads `first`; else at `first`, if `second` reads nothing
  // computed after it.
  Operation *at = second;
  for (Operation *op = first->getNextNode(); op != second.getOperation();
       op = op->getNextNode())
    if (llvm::any_of(op->getOperands(), fromFirst))
      at = first;
  if (at == first.getOperation())
    for (Value in : second.getInputs())
      if (!fromFirst(in) && in.getDefiningOp() &&
          !in.getDefiningOp()->isBeforeInBlock(first))
        return nullptr;

  llvm::SetVector<Value> inputs;
  inputs.insert(first.getInputs().begin(), first.getInputs().end());
  for (Value in : second.getInputs())
    if (!fromFirst(in))
      inputs.insert(in);
  // first's results that are read elsewhere stay outputs of the kernel.
  SmallVector<unsigned> kept;
  for (OpResult r : first->getResults())
    if (llvm::any_of(r.getUsers(), [&](Operation *u) { return u != second; }))
      kept.push_back(r.getResultNumber());
  SmallVector<Type> types;
  for (unsigned i : kept)
    types.push_back(first.getResult(i).getType());
  llvm::append_range(types, second.getResultTypes());

  OpBuilder b(at);
  auto fused =
      FusionOp::create(b, second.getLoc(), kind, inputs.getArrayRef(), types);
  Block &body = fused.getBody().front();
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  IRMapping map;
  auto argFor = [&](Value in) {
    return body.getArgument(llvm::find(inputs, in) - inputs.begin());
  };
  Block &firstBody = first.getBody().front();
  for (auto [in, arg] : llvm::zip(first.getInputs(), firstBody.getArguments()))
    map.map(arg, argFor(in));
  for (Operation &op : firstBody.without_terminator())
    inner.clone(op, map);
  auto firstYield = cast<YieldOp>(firstBody.getTerminator());
  Block &secondBody = second.getBody().front();
  for (auto [in, arg] :
       llvm::zip(second.getInputs(), secondBody.getArguments()))
    map.map(
        arg,
        fromFirst(in)
            ? map.lookup(
                  firstYield.getValues()[cast<OpResult>(in).getResultNumber()])
            : argFor(in));
  for (Operation &op : secondBody.without_terminator())
    inner.clone(op, map);
  SmallVector<Value> yielded;
  for (unsigned i : kept)
    yielded.push_back(map.lookup(firstYield.getValues()[i]));
  for (Value v : cast<YieldOp>(secondBody.getTerminator()).getValues())
    yielded.push_back(map.lookup(v));
  YieldOp::create(inner, second.getLoc(), yielded);

  for (auto [k, i] : llvm::enumerate(kept))
    first.getResult(i).replaceAllUsesWith(fused.getResult(k));
  second->replaceAllUsesWith(fused.getResults().drop_front(kept.size()));
  second->erase();
  first->erase();
  return fused;
}

namespace {

/// Whether pointwise kernel `user` only quantizes its one input: an 8-bit
/// copy of a tensor that something else reads as it is.
bool onlyQuantizes(FusionOp user) {
  if (user.getInputs().size() != 1)
    return false;
  return llvm::all_of(user.getBody().front().without_terminator(),
                      [](Operation &op) {
                        return isa<ConstantOp, QuantizeOp, CastOp>(op);
                      }) &&
         llvm::any_of(user.getBody().front().without_terminator(),
                      [](Operation &op) { return isa<QuantizeOp>(op); });
}

/// The pointwise kernel that can become `producer`'s epilogue, if any: the
/// only reader of its result, or, where several read it, a kernel that
/// only quantizes it (a residual both added further on and quantized for
/// an 8-bit product), which a product kernel then stores as well.
FusionOp epilogueOf(FusionOp producer) {
  if (producer.getNumResults() != 1)
    return nullptr;
  Value product = producer.getResult(0);
  if (product.use_empty())
    return nullptr;
  FusionOp user;
  if (product.hasOneUse()) {
    user = dyn_cast<FusionOp>(*product.getUsers().begin());
  } else if (producer.getKind() == KernelFamily::conv ||
             producer.getKind() == KernelFamily::matmul) {
    for (Operation *u : product.getUsers()) {
      auto f = dyn_cast<FusionOp>(u);
      if (f && f.getKind() == KernelFamily::pointwise && onlyQuantizes(f)) {
        user = f;
        break;
      }
    }
  }
  if (!user || user.getKind() != KernelFamily::pointwise ||
      !isElementwiseOnly(user) || llvm::count(user.getInputs(), product) != 1 ||
      broadcastsAtRunTime(user))
    return nullptr;
  auto shape = cast<RankedTensorType>(product.getType()).getShape();
  for (Type t : user.getResultTypes())
    if (cast<RankedTensorType>(t).getShape() != shape)
      return nullptr;
  return user;
}

} // namespace

void mlir::brrr::mergeEpilogues(Operation *root, KernelFamily kind) {
  SmallVector<FusionOp> producers;
  root->walk([&](FusionOp f) {
    if (f.getKind() == kind)
      producers.push_back(f);
  });
  // A merged kernel may take one more: a quantize of its epilogue's result
  // that other kernels read too.
  for (FusionOp producer : producers)
    while (FusionOp epilogue = epilogueOf(producer)) {
      producer = mergeFusions(producer, epilogue, producer.getKind());
      if (!producer)
        break;
    }
}

void mlir::brrr::wrapEachInFusion(
    Operation *root, KernelFamily kind,
    llvm::function_ref<bool(Operation *)> select) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (select(op) && !op->getParentOfType<FusionOp>())
      ops.push_back(op);
  });
  for (Operation *op : ops)
    wrapChainInFusion(op, kind);
}

FusionOp mlir::brrr::wrapChainInFusion(ArrayRef<Operation *> chain,
                                       KernelFamily kind) {
  Operation *last = chain.back();
  // Inputs: the operands not produced inside the chain, in order, each
  // once (a tree may read one value in several places).
  llvm::SetVector<Value> inputs;
  for (Operation *op : chain)
    for (Value v : op->getOperands())
      if (!llvm::is_contained(chain, v.getDefiningOp()))
        inputs.insert(v);
  OpBuilder b(last);
  auto fusion = FusionOp::create(b, last->getLoc(), kind, inputs.getArrayRef(),
                                 last->getResultTypes());
  Block &body = fusion.getBody().front();
  IRMapping map;
  map.map(inputs.getArrayRef(), body.getArguments());
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  for (Operation *op : chain)
    inner.clone(*op, map);
  SmallVector<Value> results;
  for (Value r : last->getResults())
    results.push_back(map.lookup(r));
  YieldOp::create(inner, last->getLoc(), results);
  last->replaceAllUsesWith(fusion.getResults());
  for (Operation *op : llvm::reverse(chain))
    op->erase();
  return fusion;
}
