//===- SharedBuffers.cpp - the shared memory each kernel's config needs ---===//
//
// What a kernel keeps in shared memory follows from its family and its
// `#brrr.kernel` config alone: the staged k-slices, mbarriers and epilogue
// staging of tiled products, attention's query, key and value blocks, a
// reduction's partial results, a row kernel's per-warp scratch. Each is a
// typed buffer (a `SharedRole` and an index) with the phases in which it is
// alive. brrr-plan-shared-memory places what this declares without knowing
// any family, and the code generator finds each buffer by its role and
// index in the `#brrr.shared` plan.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/SharedBuffers.h"
#include "passes/Config/Attention.h"
#include "passes/Config/Products.h"
#include "passes/Config/Rows.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// The block's queries, and `stages` key and value blocks, all alive for
/// the main loop (16-bit elements, padded rows); the output staged for
/// 16-byte stores after it, over them.
LogicalResult attentionBuffers(FusionOp fusion, KernelConfigAttr config,
                               SmallVectorImpl<SharedBuffer> &buffers) {
  std::optional<AttentionTile> tile = AttentionTile::of(config);
  AttentionOp att = attentionOf(fusion);
  if (!tile || !att)
    return fusion.emitOpError("needs an attention op and config");
  int64_t d = att.getQuery().getType().getDimSize(3);
  int64_t dv = att.getValue().getType().getDimSize(3);
  buffers.push_back({SharedRole::query, 0,
                     2 * tile->rows * AttentionTile::pitch(d), 128, 0, 0});
  for (int64_t s = 0; s < tile->stages; ++s) {
    buffers.push_back({SharedRole::key, s,
                       2 * tile->keys * AttentionTile::pitch(d), 128, 0, 0});
    buffers.push_back({SharedRole::value, s,
                       2 * tile->keys * AttentionTile::pitch(dv), 128, 0, 0});
  }
  buffers.push_back({SharedRole::output, 0, tile->stagingBytes(dv), 128, 1, 1});
  return success();
}

/// A cooperative reduction combines the block's partial results in a tree
/// over one 8-byte slot per thread (f32, i32 or i64); a split-rows one over
/// a vector per thread, of at most 16 bytes of elements held in a compute
/// type up to twice as wide.
void reduceBuffers(KernelConfigAttr config,
                   SmallVectorImpl<SharedBuffer> &buffers) {
  if (config.getTile().size() == 2)
    buffers.push_back(
        {SharedRole::partials, 0, config.getThreads() * 32, 16, 0, 0});
  else if (!config.getTile().empty())
    buffers.push_back(
        {SharedRole::partials, 0, config.getThreads() * 8, 16, 0, 0});
}

/// A staged matmul (or implicit-GEMM convolution) streams k-slices of A and
/// B through `stages` buffer pairs, all alive for the whole main loop (phase
/// 0); the wgmma body's slices start on 1024-byte swizzle boundaries, with
/// its mbarriers beside them, and its epilogue stages the f32 tile (phase 1)
/// over the slices, or column chunks of it beside them.
void productBuffers(FusionOp fusion, KernelConfigAttr config,
                    SmallVectorImpl<SharedBuffer> &buffers, int64_t &slack) {
  std::optional<MatmulTile> tile =
      MatmulTile::of(config, MatmulTile::elementBytesOf(fusion));
  if (!tile)
    return;
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
    buffers.push_back({SharedRole::a, s, aBytes, align, 0, 0});
    buffers.push_back({SharedRole::b, s, bBytes, align, 0, 0});
  }
  // A tile split over a cluster on the f32 body: its accumulators, read by
  // the cluster's blocks after the main loop.
  if (f32 && tile->cluster > 1)
    buffers.push_back(
        {SharedRole::partials, 0, 4 * tile->m * tile->n, 16, 1, 1});
  if (wgmma) {
    buffers.push_back({SharedRole::barriers, 0, tile->barrierBytes(), 8, 0, 1});
    // A persistent kernel's epilogue has a buffer of its own, alive while
    // the next tile's slices stream in.
    int64_t first = tile->epilogue ? 0 : 1;
    buffers.push_back(
        {SharedRole::epilogue, 0, tile->epilogueBytes(), 16, first, 1});
    slack = wgmmaExtraShared(tile->barrierBytes()) - tile->barrierBytes();
  }
}

/// A row kernel's block reduction goes through one f32 per warp. Phase k
/// is reduction k: its scratch is written there and read until every
/// thread reaches the barrier of reduction k + 1, so scratch k and k + 1
/// overlap in time and k + 2 may reuse k's bytes. Packed rows reduce within
/// their lanes, by shuffles alone.
LogicalResult rowBuffers(FusionOp fusion, KernelConfigAttr config,
                         SmallVectorImpl<SharedBuffer> &buffers) {
  FailureOr<RowGeometry> g =
      rowGeometryOf(fusion, config.getThreads(), rowLanesOf(config));
  if (failed(g))
    return failure();
  int64_t warps = g->threads / 32;
  if (warps > 1 && g->lanes == g->threads)
    for (int64_t k = 0; k < g->reductions; ++k)
      buffers.push_back({SharedRole::reduction, k, warps * 4, 16, k, k + 1});
  return success();
}

} // namespace

FailureOr<SmallVector<SharedBuffer>>
mlir::brrr::sharedBuffersOf(FusionOp fusion, int64_t &slack) {
  SmallVector<SharedBuffer> buffers;
  KernelFamily family = fusion.getKind();
  if (family == KernelFamily::pointwise || family == KernelFamily::movement ||
      family == KernelFamily::pool)
    return buffers;
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  switch (family) {
  case KernelFamily::attention:
    if (failed(attentionBuffers(fusion, *config, buffers)))
      return failure();
    break;
  case KernelFamily::reduce:
    reduceBuffers(*config, buffers);
    break;
  case KernelFamily::matmul:
  case KernelFamily::conv:
    productBuffers(fusion, *config, buffers, slack);
    break;
  case KernelFamily::row:
    if (failed(rowBuffers(fusion, *config, buffers)))
      return failure();
    break;
  case KernelFamily::pointwise:
  case KernelFamily::movement:
  case KernelFamily::pool:
    break;
  }
  return buffers;
}
