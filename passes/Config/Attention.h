//===- Attention.h - attention kernels' tiles -------------------*- C++ -*-===//
//
// The fused attention kernel's tile.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_CONFIG_ATTENTION_H
#define BRRR_PASSES_CONFIG_ATTENTION_H

#include "passes/Analysis.h"

namespace mlir::brrr {

/// The attention op an attention kernel computes, or null.
AttentionOp attentionOf(FusionOp fusion);

/// The geometry of an attention kernel, the C++ view of its `#brrr.kernel`
/// config: blocks of `rows` queries over `warps` warps (each taking
/// rows / warps, in tiles of 16), key blocks of `keys` positions streamed
/// through `stages` shared buffers of keys and values, beside the block's
/// queries. Its `body`: `mma_sync` (each warp multiplies its own rows, the
/// keys and values read into registers by ldmatrix from padded rows) or
/// `wgmma` (Hopper: each warpgroup of 4 warps multiplies its 64 rows by
/// wgmma, the queries, keys and values read from swizzled shared rows and
/// the probabilities from registers). `overlapped` (the wgmma body's
/// `schedule = overlapped`): each key block's scores are issued before
/// the previous block's product with the values, and its softmax runs
/// while that product does (FlashAttention-3's intra-warpgroup overlap).
/// The values of a block are read one key block later than its keys, so
/// a block is copied `lead()` blocks ahead of its keys' use.
struct AttentionTile {
  int64_t rows = 64, keys = 64, stages = 2, warps = 4;
  KernelBody body = KernelBody::mma_sync;
  bool overlapped = false;
  int64_t threads() const { return 32 * warps; }
  bool onWgmma() const { return body == KernelBody::wgmma; }
  /// How many key blocks ahead of its use a block is copied: into the
  /// buffer of the block before (`stages` - 1 ahead), or, overlapped, of
  /// the block two before, whose values the block before still reads.
  int64_t lead() const { return overlapped ? stages - 2 : stages - 1; }
  /// The wgmma body's swizzle for shared rows of `width` `bytes`-byte
  /// elements: the widest of 128, 64 and 32 bytes that divides a row (a
  /// row is one or several boxes of that many bytes), or 0 where none does.
  static int64_t swizzleOf(int64_t width, int64_t bytes = 2) {
    for (int64_t sw : {128, 64, 32})
      if ((width * bytes) % sw == 0)
        return sw;
    return 0;
  }
  /// The largest head the wgmma body takes: a warpgroup's 64 x 256
  /// outputs are 128 f32 registers a thread, beside the scores of key
  /// blocks of at most kMaxWideHeadKeys (64 x 128 outputs, 64 registers,
  /// beside 64 keys' or 128).
  static constexpr int64_t kMaxWgmmaHead = 256;
  static constexpr int64_t kMaxWideHeadKeys = 32;
  /// Tiles of 16 queries per warp.
  int64_t mTiles() const { return rows / (16 * warps); }
  /// Padded shared-memory row pitch (elements of `bytes`) of a head of
  /// `d`: 16 bytes of padding keep ldmatrix rows (16-bit), and the rows of
  /// the f32 fragments' lanes, on distinct banks.
  static int64_t pitch(int64_t d, int64_t bytes = 2) { return d + 16 / bytes; }
  /// Bytes of the output staging buffer for heads of `dv` (up to 4-byte
  /// elements, rows padded by 16 bytes).
  int64_t stagingBytes(int64_t dv) const { return rows * (4 * dv + 16); }
  /// The step of the head sizes the kernel takes for `et` operands: one
  /// mma's k step, 16 elements of 16 bits, 8 of f32.
  static int64_t headStep(Type et) { return et.isF32() ? 8 : 16; }
  /// The largest head size the kernel takes for `et` operands: 256 of 16
  /// bits (Gemma's), 128 of f32, whose fragments take twice the registers.
  static int64_t maxHead(Type et) { return et.isF32() ? 128 : 256; }
  /// Whether `count` rows of `width` `et` elements split into whole rounds
  /// of 16-byte copies, one a thread.
  bool copiesWhole(int64_t count, int64_t width, Type et) const {
    return (count * width * et.getIntOrFloatBitWidth() / 128) % threads() == 0;
  }
  KernelConfigAttr config(MLIRContext *ctx) const;
  /// The tile of an attention config, or none.
  static std::optional<AttentionTile> of(KernelConfigAttr config);
};

} // namespace mlir::brrr

#endif // BRRR_PASSES_CONFIG_ATTENTION_H
