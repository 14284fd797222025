//===- Attention.cpp - the fused attention's rules -----------------------===//
//
// Fused attention (FlashAttention-2 style, on mma.sync): a block a tile of
// query rows of one head, key and value blocks streamed through shared
// memory (AttentionTile, passes/Config/Attention.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Attention.h"
#include "passes/Config/Families.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// 64 queries per block over 4 warps (a tile of 16 each), key blocks of 64
/// through two buffers. Measured on an H100 against the other tiles
/// (test/gpu/NOTES.md), it is within 10% of the best at every BERT and
/// GPT-2 shape and the best where it counts most: smaller blocks re-read
/// every key per 16 queries, and 128-query blocks (two tiles per warp) idle
/// multiprocessors at batch 1 and waste more of the causal diagonal.
FailureOr<KernelConfigAttr> chooseAttention(FusionOp fusion,
                                            const ConfigOptions &options) {
  if (!attentionOf(fusion))
    return fusion.emitOpError("attention kernels hold a brrr.attention");
  AttentionTile tile;
  tile.rows = 64;
  if (ArrayRef<int64_t> pinned = options.pinnedAttention; !pinned.empty()) {
    tile.rows = pinned[0];
    tile.keys = pinned[1];
    tile.warps = pinned[2];
  }
  return tile.config(fusion.getContext());
}

/// A block a tile of query rows of one head of one batch.
FailureOr<Grid> attentionGrid(FusionOp fusion, KernelConfigAttr config) {
  AttentionOp att = attentionOf(fusion);
  if (!att)
    return fusion.emitOpError("attention kernels hold a brrr.attention");
  int64_t rows = config.getTile()[0];
  Grid g;
  if (isSymbolic(att.getType())) {
    SmallVector<AffineExpr> q = extentsOf(att.getQuery().getType());
    // Over symbolic sequences, the actual query rows' tiles too.
    if (outerRunOf(att.getType()) > 1) {
      g.atRunX = q[2].ceilDiv(rows);
      g.atRunZ = q[0];
    } else {
      g.atRunZ = extentsOf(att.getType()).front();
    }
  }
  SmallVector<int64_t> q = largestShapeOf(att.getQuery());
  g.x = llvm::divideCeil(q[2], rows);
  g.y = q[1];
  g.z = q[0];
  return g;
}

/// The block's queries, and `stages` key and value blocks, all alive for
/// the main loop (16-bit elements, padded rows); the output staged for
/// 16-byte stores after it, over them.
LogicalResult attentionBuffers(FusionOp fusion, KernelConfigAttr config,
                               SmallVectorImpl<SharedBuffer> &buffers,
                               int64_t &) {
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

} // namespace

const FamilyRules mlir::brrr::kAttentionRules = {chooseAttention, attentionGrid,
                                                 attentionBuffers};
