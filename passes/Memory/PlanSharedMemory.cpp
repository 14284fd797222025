//===- PlanSharedMemory.cpp - shared memory for every kernel -------------===//
//
// Runs after brrr-select-kernel-config, before code generation (flag
// brrr-plan-shared-memory). From each fusion's config, its kernel family
// states the shared buffers it needs (reduction scratch of row kernels, the
// staged k-slices, mbarriers and epilogue staging of tiled matmuls) with the
// phases in which each is alive. Buffers are
// placed largest first, first fit at their alignment, apart from every
// buffer alive at the same time, so buffers of disjoint phases share bytes.
// The plan is recorded on the fusion (`brrr.shared`, `brrr.shared_bytes`)
// for the code generator and the launch plan. A plan over the target's budget
// is a diagnostic here, never a failed launch.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

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

/// The shared buffers of `fusion`'s kernel as its config has it, or
/// failure with a diagnostic. `slack`: bytes the kernel adds to align its
/// own base beyond the 16 bytes the block's dynamic shared memory is
/// declared with.
FailureOr<SmallVector<SharedBuffer>> buffersOf(FusionOp fusion,
                                               int64_t &slack) {
  SmallVector<SharedBuffer> buffers;
  KernelFamily family = fusion.getKind();
  if (family == KernelFamily::pointwise || family == KernelFamily::movement ||
      family == KernelFamily::pool)
    return buffers;
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  if (family == KernelFamily::attention) {
    // The block's queries, and `stages` key and value blocks, all alive
    // for the main loop (16-bit elements, padded rows); the output staged
    // for 16-byte stores after it, over them.
    std::optional<AttentionTile> tile = AttentionTile::of(*config);
    AttentionOp att = attentionOf(fusion);
    if (!tile || !att)
      return fusion.emitOpError("needs an attention op and config");
    int64_t d = att.getQuery().getType().getDimSize(3);
    int64_t dv = att.getValue().getType().getDimSize(3);
    buffers.push_back(
        {"q", 2 * tile->rows * AttentionTile::pitch(d), 128, 0, 0});
    for (int64_t s = 0; s < tile->stages; ++s) {
      buffers.push_back({"k" + std::to_string(s),
                         2 * tile->keys * AttentionTile::pitch(d), 128, 0, 0});
      buffers.push_back({"v" + std::to_string(s),
                         2 * tile->keys * AttentionTile::pitch(dv), 128, 0, 0});
    }
    buffers.push_back({"o", tile->stagingBytes(dv), 128, 1, 1});
    return buffers;
  }
  if (family == KernelFamily::reduce) {
    // A cooperative reduction combines the block's partial results in a
    // tree over one 8-byte slot per thread (f32, i32 or i64); a split-rows
    // one over a vector per thread, of at most 16 bytes of elements held
    // in a compute type up to twice as wide.
    if (config->getTile().size() == 2)
      buffers.push_back({"partials", config->getThreads() * 32, 16, 0, 0});
    else if (!config->getTile().empty())
      buffers.push_back({"partials", config->getThreads() * 8, 16, 0, 0});
    return buffers;
  }
  if (family == KernelFamily::matmul || family == KernelFamily::conv) {
    // A staged matmul (or implicit-GEMM convolution) streams k-slices of A and
    // B through `stages` buffer pairs, all alive for the whole main loop (phase
    // 0); the wgmma body's slices start on 1024-byte swizzle boundaries, with
    // its mbarriers beside them, and its epilogue stages the f32 tile (phase 1)
    // over the slices, or column chunks of it beside them.
    std::optional<MatmulTile> tile = MatmulTile::of(*config);
    if (!tile)
      return buffers;
    bool wgmma = tile->body == KernelBody::wgmma;
    int64_t align = wgmma ? 1024 : 128;
    // f32 slices (the staged tf32 body) in whichever layout the operand's
    // copies run along.
    bool f32 = isF32Product(fusion);
    int64_t aBytes =
        f32 ? MatmulTile::f32SliceBytes(tile->m, tile->k) : tile->aStageBytes();
    int64_t bBytes =
        f32 ? MatmulTile::f32SliceBytes(tile->n, tile->k) : tile->bStageBytes();
    for (int64_t s = 0; s < tile->stages; ++s) {
      buffers.push_back({"a" + std::to_string(s), aBytes, align, 0, 0});
      buffers.push_back({"b" + std::to_string(s), bBytes, align, 0, 0});
    }
    // A tile split over a cluster on the f32 body: its accumulators, read
    // by the cluster's blocks after the main loop.
    if (f32 && tile->cluster > 1)
      buffers.push_back({"partials", 4 * tile->m * tile->n, 16, 1, 1});
    if (wgmma) {
      buffers.push_back({"barriers", tile->barrierBytes(), 8, 0, 1});
      // A persistent kernel's epilogue has a buffer of its own, alive
      // while the next tile's slices stream in.
      int64_t first = tile->epilogue ? 0 : 1;
      buffers.push_back({"epilogue", tile->epilogueBytes(), 16, first, 1});
      slack = wgmmaExtraShared(tile->barrierBytes()) - tile->barrierBytes();
    }
    return buffers;
  }
  // A row kernel's block reduction goes through one f32 per warp. Phase k
  // is reduction k: its scratch is written there and read until every
  // thread reaches the barrier of reduction k + 1, so scratch k and k + 1
  // overlap in time and k + 2 may reuse k's bytes.
  FailureOr<RowGeometry> g =
      rowGeometryOf(fusion, config->getThreads(), rowLanesOf(*config));
  if (failed(g))
    return failure();
  int64_t warps = g->threads / 32;
  // Packed rows reduce within their lanes, by shuffles alone.
  if (warps > 1 && g->lanes == g->threads)
    for (int64_t k = 0; k < g->reductions; ++k)
      buffers.push_back(
          {"reduce" + std::to_string(k), warps * 4, 16, k, k + 1});
  return buffers;
}

struct PlanSharedMemoryPass
    : public mlir::brrr::impl::BrrrPlanSharedMemoryBase<PlanSharedMemoryPass> {
  void runOnOperation() override {
    TargetAttr target = targetOf(getOperation());
    int64_t budget = sharedMemoryBudgetOf(getOperation());

    WalkResult walk = getOperation().walk([&](FusionOp fusion) {
      int64_t slack = 0;
      FailureOr<SmallVector<SharedBuffer>> buffers = buffersOf(fusion, slack);
      if (failed(buffers))
        return WalkResult::interrupt();
      int64_t total = placeSharedBuffers(*buffers) + slack;
      if (total > budget) {
        InFlightDiagnostic d = fusion.emitOpError("needs ")
                               << total
                               << " bytes of shared memory per block; ";
        if (target.getChip().empty())
          d << "the budget without a target is " << budget;
        else
          d << "the target " << target.getChip() << " allows " << budget;
        return WalkResult::interrupt();
      }
      Builder b(fusion);
      SmallVector<Attribute> entries;
      for (const SharedBuffer &buf : *buffers)
        entries.push_back(b.getDictionaryAttr(
            {b.getNamedAttr("name", b.getStringAttr(buf.name)),
             b.getNamedAttr("offset", b.getI64IntegerAttr(buf.offset)),
             b.getNamedAttr("bytes", b.getI64IntegerAttr(buf.bytes))}));
      fusion->setAttr("brrr.shared", b.getArrayAttr(entries));
      fusion->setAttr("brrr.shared_bytes", b.getI64IntegerAttr(total));
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

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
