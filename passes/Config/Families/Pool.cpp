//===- Pool.cpp - the pooling family's rules -----------------------------===//
//
// 2-D max and average pools: 256 threads, an element a thread, or a
// 16-byte vector of channels-last channels.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Families.h"
#include "passes/Config/Movement.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Channels-last pools read and write 16-byte vectors of channels; other
/// pools an element a thread.
FailureOr<KernelConfigAttr> choosePool(FusionOp fusion, const ConfigOptions &) {
  Operation *pool = &fusion.getBody().front().front();
  int64_t vector = 1;
  if (isa<MaxPool2DOp, AvgPool2DOp>(pool) && pool->hasAttr("channels_last"))
    if (auto in = dyn_cast<RankedTensorType>(pool->getOperand(0).getType());
        in && in.getRank() == 4)
      vector = vectorWidth(elementBytes(in.getElementType()), in.getDimSize(3));
  return simtConfig(fusion.getContext(), KernelFamily::pool, kPointwiseThreads,
                    {}, vector);
}

/// Vectors of channels-last channels that divide the channels.
LogicalResult verifyPool(FusionOp fusion, KernelConfigAttr config) {
  Operation *pool = &fusion.getBody().front().front();
  if (!isa<MaxPool2DOp, AvgPool2DOp>(pool))
    return fusion.emitOpError("pool kernels start with a 2-D pooling op");
  int64_t vec = config.getVector();
  auto in = cast<RankedTensorType>(pool->getOperand(0).getType());
  if (vec > 1 && (!pool->hasAttr("channels_last") || in.getRank() != 4 ||
                  in.getDimSize(3) % vec != 0))
    return fusion.emitOpError("a pool of vectors of ")
           << vec << " reads whole vectors of channels-last channels";
  return success();
}

/// A thread a vector of output channels (one element without a vector).
FailureOr<Grid> poolGrid(FusionOp fusion, KernelConfigAttr config) {
  Operation *pool = &fusion.getBody().front().front();
  if (!isa<MaxPool2DOp, AvgPool2DOp>(pool))
    return fusion.emitOpError("pool kernels start with a 2-D pooling op");
  auto symbolicOut = cast<RankedTensorType>(pool->getResult(0).getType());
  int64_t total = 1;
  for (int64_t d : largestShapeOf(pool->getResult(0)))
    total *= d;
  int64_t vec = config.getVector(), threads = config.getThreads();
  Grid g;
  g.x = llvm::divideCeil(total / vec, threads);
  if (isSymbolic(symbolicOut))
    g.atRunX = elementCountOf(symbolicOut).floorDiv(vec).ceilDiv(threads);
  return g;
}

} // namespace

const FamilyRules mlir::brrr::kPoolRules = {choosePool, verifyPool, poolGrid,
                                            nullptr};
