//===- PlanSharedMemory.cpp - shared memory for every kernel -------------===//
//
// Runs after brrr-select-kernel-config, before code generation (flag
// brrr-plan-shared-memory). Each fusion's config declares the typed shared
// buffers its kernel needs, with the phases in which each is alive
// (sharedBuffersOf, from each family's rules); this pass knows no
// kernel family. Buffers are placed largest first, first fit at their
// alignment, apart from every buffer alive at the same time, so buffers of
// disjoint phases share bytes. The plan is recorded on the fusion as a
// `#brrr.shared` (`brrr.shared`) for the code generator and the launch plan.
// A plan over the target's budget is a diagnostic here, never a failed
// launch.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/SharedBuffers.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRPLANSHAREDMEMORY
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

struct PlanSharedMemoryPass
    : public mlir::brrr::impl::BrrrPlanSharedMemoryBase<PlanSharedMemoryPass> {
  void runOnOperation() override {
    if (failed(
            mlir::brrr::requireSupportedShapes(getOperation(), getArgument())))
      return signalPassFailure();
    WalkResult walk = getOperation().walk([&](FusionOp fusion) {
      FailureOr<SharedPlanAttr> plan = planSharedMemory(fusion);
      if (failed(plan))
        return WalkResult::interrupt();
      fusion->setAttr(kSharedPlanAttrName, *plan);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

FailureOr<SharedPlanAttr> mlir::brrr::planSharedMemory(FusionOp fusion) {
  auto func = fusion->getParentOfType<func::FuncOp>();
  TargetAttr target = targetOf(func);
  int64_t budget = sharedMemoryBudgetOf(func);
  int64_t slack = 0;
  FailureOr<SmallVector<SharedBuffer>> buffers = sharedBuffersOf(fusion, slack);
  if (failed(buffers))
    return failure();
  int64_t total = placeSharedBuffers(*buffers) + slack;
  if (total > budget) {
    InFlightDiagnostic d = fusion.emitOpError("needs ")
                           << total << " bytes of shared memory per block; ";
    if (target.getChip().empty())
      d << "the budget without a target is " << budget;
    else
      d << "the target " << target.getChip() << " allows " << budget;
    return failure();
  }
  MLIRContext *ctx = fusion.getContext();
  SmallVector<Attribute> entries;
  for (const SharedBuffer &buf : *buffers)
    entries.push_back(
        SharedBufferAttr::get(ctx, buf.role, buf.index, buf.offset, buf.bytes));
  return SharedPlanAttr::get(ctx, ArrayAttr::get(ctx, entries), total);
}

int64_t mlir::brrr::placeSharedBuffers(MutableArrayRef<SharedBuffer> buffers) {
  SmallVector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return buffers[a].bytes > buffers[b].bytes;
  });
  SmallVector<size_t> placed;
  int64_t total = 0;
  for (size_t i : order) {
    SharedBuffer &buf = buffers[i];
    int64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      offset = llvm::alignTo(offset, buf.align);
      for (size_t j : placed) {
        const SharedBuffer &p = buffers[j];
        bool together = p.firstUse <= buf.lastUse && buf.firstUse <= p.lastUse;
        bool overlap =
            offset < p.offset + p.bytes && p.offset < offset + buf.bytes;
        if (together && overlap) {
          offset = p.offset + p.bytes;
          moved = true;
        }
      }
    }
    buf.offset = offset;
    placed.push_back(i);
    total = std::max(total, offset + buf.bytes);
  }
  return llvm::alignTo(total, 16);
}

int64_t mlir::brrr::sharedMemoryBudgetOf(Operation *op) {
  int64_t budget = targetOf(op).getSharedPerBlock();
  // A tighter cap, e.g. to keep more blocks resident per SM.
  auto module = op->getParentOfType<ModuleOp>();
  if (auto cap = module ? module->getAttrOfType<IntegerAttr>(
                              "brrr.shared_memory_limit")
                        : IntegerAttr())
    budget = std::min(budget, cap.getInt());
  return budget;
}
