//===- PlanGlobalMemory.cpp - device memory for every tensor -------------===//
//
// Runs after fusion (flag brrr-plan-global-memory). Decides where each
// materialized tensor lives: the caller's input and output buffers, the
// weight block, or the per-context arena of intermediates, and records the
// decision as `brrr.memory` attributes that the artifact writer reads.
// Views (`brrr.reshape` results, and prefix slices left outside kernels)
// share their operand's memory and get none of their own.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
#include "passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <map>

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRPLANGLOBALMEMORY
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Whether every element a pointwise kernel computes from its argument
/// `arg` is computed from arg's element at the same index: nothing that
/// depends on it is read through data movement (which reads other
/// elements), only by pointwise ops and the kernel's results.
bool readAtOwnIndex(BlockArgument arg) {
  SmallVector<Value> work = {arg};
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<YieldOp>(user) || !seen.insert(user).second)
        continue;
      if (!isPointwise(user))
        return false;
      work.push_back(user->getResult(0));
    }
  }
  return true;
}

/// The `brrr.memory` entry of one result.
PlacementAttr memoryEntry(Builder &b, BufferStorage storage, int64_t offset,
                          int64_t bytes) {
  return PlacementAttr::get(b.getContext(), storage, offset, bytes);
}

/// The config of `fusion` if its kernel splits k-slices (stream_k).
KernelConfigAttr streamKConfigOf(FusionOp fusion) {
  auto config = fusion->getAttrOfType<KernelConfigAttr>(kKernelConfigAttrName);
  return config && config.getStreamK() ? config : KernelConfigAttr();
}

/// First-fit placement of live intervals [offset, offset + size).
class Arena {
public:
  int64_t allocate(int64_t bytes) {
    bytes = llvm::alignTo(std::max<int64_t>(bytes, 1), kBufferAlignment);
    int64_t offset = 0;
    for (auto [start, size] : live) {
      if (offset + bytes <= start)
        break;
      offset = std::max(offset, start + size);
    }
    live.emplace(offset, bytes);
    peak = std::max(peak, offset + bytes);
    return offset;
  }
  void release(int64_t offset) { live.erase(offset); }
  int64_t peak = 0;

private:
  std::map<int64_t, int64_t> live; // offset -> aligned size
};

struct PlanGlobalMemoryPass
    : public mlir::brrr::impl::BrrrPlanGlobalMemoryBase<PlanGlobalMemoryPass> {
  void runOnOperation() override {
    if (failed(
            mlir::brrr::requireSupportedShapes(getOperation(), getArgument())))
      return signalPassFailure();
    func::FuncOp func = getOperation();
    Builder b(&getContext());
    Block &body = func.getBody().front();
    Operation *ret = body.getTerminator();

    // Program position of every op, and the last position at which each
    // root buffer is read (directly or through views).
    DenseMap<Operation *, int64_t> position;
    int64_t pos = 0;
    for (Operation &op : body)
      position[&op] = pos++;
    DenseMap<Value, int64_t> lastUse;
    for (Operation &op : body)
      for (Value operand : op.getOperands())
        lastUse[viewedRootOf(operand)] =
            std::max(lastUse.lookup(viewedRootOf(operand)), position[&op]);

    // Results returned, directly or through views (the same
    // bytes), go to the output buffers, so no copy follows their kernel;
    // the first return position of a buffer wins.
    DenseMap<Value, int64_t> outputIndex;
    for (auto [i, v] : llvm::enumerate(ret->getOperands()))
      if (viewedRootOf(v).getDefiningOp<FusionOp>() &&
          !outputIndex.count(viewedRootOf(v)))
        outputIndex[viewedRootOf(v)] = i;

    Arena arena;
    // Stream-K products' flags (one i32 a block) hold their place for the
    // whole run, before any other buffer: no kernel ever writes them but
    // their own, which leaves them zero, as the context's zeroed arena
    // starts them.
    DenseMap<Operation *, int64_t> flagsAt;
    for (Operation &op : body)
      if (auto fusion = dyn_cast<FusionOp>(&op))
        if (KernelConfigAttr config = streamKConfigOf(fusion))
          flagsAt[fusion] = arena.allocate(config.getPersistent() * 4);
    int64_t weightBytes = 0;
    DenseMap<Value, int64_t> arenaOffset;
    for (Operation &op : body) {
      int64_t here = position[&op];
      if (auto c = dyn_cast<ConstantOp>(&op)) {
        int64_t bytes = bufferBytes(c.getType());
        c->setAttr(kMemoryPlanAttrName,
                   b.getArrayAttr({memoryEntry(b, BufferStorage::weight,
                                               weightBytes, bytes)}));
        weightBytes +=
            llvm::alignTo(std::max<int64_t>(bytes, 1), kBufferAlignment);
        continue;
      }
      auto fusion = dyn_cast<FusionOp>(&op);
      if (!fusion)
        continue;
      // Arena inputs whose last read is this kernel: a same-shaped one read
      // at each element's own index can take the output in place (each
      // element is read, then written, by the same thread; read through
      // data movement, it would be read by other threads too); the others
      // are released after placement.
      // (root buffer, type the kernel reads it as) of each candidate.
      SmallVector<std::pair<Value, Type>> inPlace;
      Block &kernel = fusion.getBody().front();
      for (auto [in, arg] :
           llvm::zip(fusion.getInputs(), kernel.getArguments())) {
        Value root = viewedRootOf(in);
        bool taken =
            llvm::any_of(inPlace, [&](auto &c) { return c.first == root; });
        if (arenaOffset.count(root) && lastUse.lookup(root) == here && !taken &&
            fusion.getKind() == KernelFamily::pointwise && readAtOwnIndex(arg))
          inPlace.emplace_back(root, in.getType());
      }
      SmallVector<Attribute> entries;
      for (Value r : fusion.getResults()) {
        auto type = cast<RankedTensorType>(r.getType());
        int64_t bytes = bufferBytes(r);
        if (outputIndex.count(r)) {
          entries.push_back(memoryEntry(b, BufferStorage::output, 0, bytes));
          continue;
        }
        // Only an input read at the output's own shape (no broadcast) has
        // each element read and written by the same thread.
        auto reuse =
            llvm::find_if(inPlace, [&](auto &c) { return c.second == type; });
        int64_t offset;
        if (reuse != inPlace.end()) {
          offset = arenaOffset[reuse->first];
          arenaOffset.erase(reuse->first);
          inPlace.erase(reuse);
        } else {
          offset = arena.allocate(bytes);
        }
        arenaOffset[r] = offset;
        entries.push_back(memoryEntry(b, BufferStorage::arena, offset, bytes));
      }
      fusion->setAttr(kMemoryPlanAttrName, b.getArrayAttr(entries));
      // A stream-K product's workspace: its blocks' partial tiles, for
      // this launch only, beside its flags.
      if (auto it = flagsAt.find(fusion); it != flagsAt.end()) {
        KernelConfigAttr config = streamKConfigOf(fusion);
        ArrayRef<int64_t> tile = config.getTile();
        int64_t partials = config.getPersistent() * tile[0] * tile[1] * 4;
        int64_t partialsAt = arena.allocate(partials);
        fusion->setAttr(
            kWorkspaceAttrName,
            b.getArrayAttr(
                {memoryEntry(b, BufferStorage::arena, partialsAt, partials),
                 memoryEntry(b, BufferStorage::arena, it->second,
                             config.getPersistent() * 4)}));
        arena.release(partialsAt);
      }
      // Inputs that die here are free for the kernels after this one.
      for (Value in : fusion.getInputs()) {
        Value root = viewedRootOf(in);
        auto it = arenaOffset.find(root);
        if (it != arenaOffset.end() && lastUse.lookup(root) == here) {
          arena.release(it->second);
          arenaOffset.erase(it);
        }
      }
      // A result nobody reads (besides through an output) dies at once.
      for (Value r : fusion.getResults()) {
        auto it = arenaOffset.find(r);
        if (it != arenaOffset.end() && !lastUse.count(r)) {
          arena.release(it->second);
          arenaOffset.erase(it);
        }
      }
    }
    func->setAttr("brrr.arena_bytes", b.getI64IntegerAttr(arena.peak));
    func->setAttr("brrr.weight_bytes", b.getI64IntegerAttr(weightBytes));
  }
};

} // namespace
