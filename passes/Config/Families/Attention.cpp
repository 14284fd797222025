//===- Attention.cpp - the fused attention's rules -----------------------===//
//
// Fused attention (FlashAttention-2 style, on mma.sync): a block a tile of
// query rows of one head, key and value blocks streamed through shared
// memory (AttentionTile, passes/Config/Attention.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Attention.h"
#include "passes/Config/Families.h"
#include "passes/Config/Products.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Why the wgmma body cannot run `att` on `target`, or none: it multiplies
/// f16 or bf16 on sm_90a, heads of a multiple of 16 up to kMaxWgmmaHead
/// (rows a whole number of 32-, 64- or 128-byte swizzled boxes).
std::optional<std::string> wgmmaAttentionRefusal(AttentionOp att,
                                                 TargetAttr target) {
  Type et = att.getQuery().getType().getElementType();
  int64_t d = att.getQuery().getType().getDimSize(3);
  int64_t dv = att.getValue().getType().getDimSize(3);
  if (!target || !target.hasWgmma())
    return std::string("the wgmma body needs an sm_90a target");
  if (!(et.isF16() || et.isBF16()))
    return std::string("the wgmma body multiplies f16 or bf16");
  for (int64_t w : {d, dv})
    if (w % 16 || w > AttentionTile::kMaxWgmmaHead)
      return "the wgmma body takes heads of a multiple of 16 up to " +
             std::to_string(AttentionTile::kMaxWgmmaHead) + ", not " +
             std::to_string(w);
  return std::nullopt;
}

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
  // f32 operands (three tf32 products) hold their scores and halves in
  // registers: key blocks of 32 keep heads up to 64 from spilling, of 16
  // heads up to 128, where such a block still copies its keys and values
  // in whole rounds of 16-byte chunks (else 32, else 64).
  AttentionOp att = attentionOf(fusion);
  Type et = att.getQuery().getType().getElementType();
  int64_t d = att.getQuery().getType().getDimSize(3);
  int64_t dv = att.getValue().getType().getDimSize(3);
  if (et.isF32())
    for (int64_t keys : {std::max(d, dv) > 64 ? 16 : 32, 32})
      if (tile.copiesWhole(keys, d, et) && tile.copiesWhole(keys, dv, et)) {
        tile.keys = keys;
        break;
      }
  // 16-bit heads past 128 (up to 256, Gemma's) hold 128 f32 accumulators a
  // thread: key blocks of 32 leave room for the scores over symbolic
  // sequences too (blocks of 64 spill there), and the queries are read
  // from shared memory at each key block.
  if (!et.isF32() && std::max(d, dv) > 128)
    tile.keys = 32;
  // On sm_90a, 16-bit heads that are multiples of 16 up to 256 run the
  // wgmma body (unless `hopper-attention=never`): a warpgroup of 64
  // queries, key blocks of 64 (of 32 past 128, m64n256k16 for the values).
  // Measured on an H100 against the mma_sync body (test/gpu/notes/
  // 2026-12-06-f.md and 2026-12-06-g.md): as fast at one sentence of 128,
  // 1.39-1.43x faster at 32 x 12 x 128 x 64, 1.43-1.54x at 4 x 16 x 2048 x
  // 128, 1.50-1.51x with heads of 256 (8 x 8 x 512 masked, 4 x 8 x 2048
  // causal), and 3-10% off whole transformers (Llama-style, GPT-2, BERT,
  // ViT, GPT-Neo, Whisper, CLIP).
  // Two warpgroups a block (pinned 128 x 64 x 8 or 128 x 128 x 8) were
  // slower everywhere but the longest sequences, where they tie.
  // `always` and `auto` take the same heads; `always` is kept for the
  // command lines that name it.
  bool asked = options.hopperAttention != Choice::never;
  if (asked && !wgmmaAttentionRefusal(att, options.target))
    tile.body = KernelBody::wgmma;
  // Overlapped (`overlap-attention`), its values read a block after its
  // keys, with three buffers: one copied while the keys of the next and
  // the values of this one are read.
  if (tile.onWgmma() && options.overlapAttention) {
    tile.overlapped = true;
    tile.stages = 3;
  }
  if (ArrayRef<int64_t> pinned = options.pinnedAttention; !pinned.empty()) {
    tile.rows = pinned[0];
    tile.keys = pinned[1];
    tile.warps = pinned[2];
    // A pinned tile runs on the wgmma body where that body takes it (a
    // warpgroup or two of 64 queries), else on mma_sync.
    if (tile.onWgmma() && !(tile.rows == 16 * tile.warps &&
                            (tile.warps == 4 || tile.warps == 8))) {
      tile.body = KernelBody::mma_sync;
      tile.overlapped = false;
      tile.stages = 2;
    }
  }
  return tile.config(fusion.getContext());
}

/// The mma_sync body multiplies f16 or bf16 rows (m16n8k16), or f32 ones
/// as three tf32 products (m16n8k8, f32 accuracy), of whole 16-byte chunks:
/// heads of 16 to 256 in steps of 16 (of 8 to 128 in steps of 8 for f32),
/// and copies its tiles in whole 16-byte chunks a thread.
LogicalResult verifyAttention(FusionOp fusion, KernelConfigAttr config) {
  AttentionOp att = attentionOf(fusion);
  if (!att)
    return fusion.emitOpError("attention kernels hold a brrr.attention");
  std::optional<AttentionTile> tile = AttentionTile::of(config);
  if (!tile)
    return fusion.emitOpError("an attention kernel needs an attention "
                              "config, got ")
           << config;
  // Over symbolic extents, at the largest shape in range.
  std::optional<LargestShapeView> largest;
  if (isSymbolic(att.getType()))
    largest.emplace(fusion);
  Type et = att.getQuery().getType().getElementType();
  if (!(et.isF16() || et.isBF16() || et.isF32()))
    return att.emitOpError("the attention kernel multiplies f16, bf16 or "
                           "f32, not ")
           << et;
  for (Value operand : {att.getQuery(), att.getKey(), att.getValue()}) {
    OperandLayout l = operandLayoutOf(operand);
    if (!isAttentionStageable(et, l))
      return att.emitOpError("reads an operand whose rows are not aligned, "
                             "contiguous 16-byte chunks");
  }
  ArrayRef<int64_t> q = att.getQuery().getType().getShape();
  int64_t d = q[3], dv = att.getValue().getType().getDimSize(3);
  int64_t sk = att.getKey().getType().getDimSize(2);
  if (tile->onWgmma()) {
    if (std::optional<std::string> why =
            wgmmaAttentionRefusal(att, targetOf(fusion)))
      return fusion.emitOpError("attention config ") << config << ": " << *why;
    if (std::max(d, dv) > 128 && tile->keys > AttentionTile::kMaxWideHeadKeys)
      return fusion.emitOpError("attention config ")
             << config << ": the wgmma body holds the outputs of heads past "
             << "128 beside key blocks of at most "
             << AttentionTile::kMaxWideHeadKeys << ", not " << tile->keys;
  }
  int64_t step = AttentionTile::headStep(et);
  int64_t most = AttentionTile::maxHead(et);
  if (d % step || dv % step || d > most || dv > most)
    return att.emitOpError("the attention kernel takes head sizes that are "
                           "multiples of ")
           << step << " up to " << most << ", got " << d << " and " << dv;
  for (auto [count, width] :
       {std::pair{tile->rows, d}, {tile->keys, d}, {tile->keys, dv}})
    if (!tile->copiesWhole(count, width, et))
      return fusion.emitOpError("attention tile ")
             << config << " does not split " << count << " rows of " << width
             << " into whole 16-byte copies per thread";
  if (q[1] > 65535 || q[0] > 65535 || sk == 0 || q[2] == 0)
    return att.emitOpError("attention grid exceeds the launch limits");
  return success();
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
/// the main loop (padded rows); the output staged for
/// 16-byte stores after it, over them.
LogicalResult attentionBuffers(FusionOp fusion, KernelConfigAttr config,
                               SmallVectorImpl<SharedBuffer> &buffers,
                               int64_t &slack) {
  std::optional<AttentionTile> tile = AttentionTile::of(config);
  AttentionOp att = attentionOf(fusion);
  if (!tile || !att)
    return fusion.emitOpError("needs an attention op and config");
  int64_t d = att.getQuery().getType().getDimSize(3);
  int64_t dv = att.getValue().getType().getDimSize(3);
  int64_t bytes =
      att.getQuery().getType().getElementType().getIntOrFloatBitWidth() / 8;
  // The wgmma body's rows are unpadded swizzled boxes, each buffer on a
  // 1024-byte swizzle boundary (the kernel rounds its base up to one).
  bool wgmma = tile->onWgmma();
  auto rowsOf = [&](int64_t count, int64_t width) {
    return bytes * count * (wgmma ? width : AttentionTile::pitch(width, bytes));
  };
  int64_t align = wgmma ? 1024 : 128;
  buffers.push_back({SharedRole::query, 0, rowsOf(tile->rows, d), align, 0, 0});
  for (int64_t s = 0; s < tile->stages; ++s) {
    buffers.push_back({SharedRole::key, s, rowsOf(tile->keys, d), align, 0, 0});
    buffers.push_back(
        {SharedRole::value, s, rowsOf(tile->keys, dv), align, 0, 0});
  }
  buffers.push_back({SharedRole::output, 0, tile->stagingBytes(dv), 128, 1, 1});
  if (wgmma)
    slack = 1024;
  return success();
}

} // namespace

const FamilyRules mlir::brrr::kAttentionRules = {
    chooseAttention, verifyAttention, attentionGrid, attentionBuffers};
