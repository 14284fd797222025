//===- ProductTiles.cpp - the tiles of matmul and conv kernels -----------===//
//
// The heuristics brrr-select-kernel-config chooses product kernels' tiles
// with, for matmuls and convolutions alike (both are products of a
// ProductShape): which body runs (the Hopper wgmma body where TMA can read
// the operands, the staged mma_sync body, the f32 3xTF32 body), its tile
// and ring depth within the shared budget, persistence and its schedule,
// cluster splits of the k-slices, narrow tiles for short products, and the
// direct convolutions' pixels per thread. Each is a pure function of the
// product's shape and the `#brrr.target`; the config pass records what
// they choose.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Products.h"

#include <numeric>

using namespace mlir;
using namespace mlir::brrr;

std::optional<MatmulTile> mlir::brrr::matmulTileOf(FusionOp fusion,
                                                   TargetAttr target,
                                                   int64_t sharedBudget) {
  if (fusion.getKind() != KernelFamily::matmul)
    return std::nullopt;
  MatmulOp mm = matmulOf(fusion);
  if (!mm)
    return std::nullopt;
  Type et = mm.getLhs().getType().getElementType();
  ProductOperands po = productOperandsOf(mm);
  const OperandLayout &lhs = po.lhs, &rhs = po.rhs;
  const ProductShape &p = po.shape;
  ArrayRef<int64_t> batch = p.batch;

  if (target.hasWgmma() && isWgmmaOperandType(et) &&
      tmaOperandOf(lhs, batch, /*isLhs=*/true) &&
      tmaOperandOf(rhs, batch, /*isLhs=*/false))
    if (std::optional<MatmulTile> tile =
            wgmmaTileOf(p, target, sharedBudget, elementBytes(et)))
      return tile;
  if (!isStageable(et, lhs, rhs))
    return std::nullopt;
  MatmulTile tile;
  // Three stages keep two slices in flight while one is computed; two
  // still overlap one copy with the math.
  tile.stages = std::min<int64_t>(3, sharedBudget / tile.stageBytes());
  if (tile.stages < 2)
    return std::nullopt;
  return tile;
}

/// The stages of a wgmma `tile`'s ring: four keep three slices in flight
/// (deeper rings measured no faster; six were slower at 128 wide), fewer
/// where `sharedBudget` holds fewer.
static int64_t wgmmaRingStages(const MatmulTile &tile, int64_t sharedBudget) {
  return std::min<int64_t>(4, (sharedBudget - wgmmaExtraShared(16 * 4)) /
                                  tile.stageBytes());
}

std::optional<MatmulTile> mlir::brrr::wgmmaTileOf(const ProductShape &p,
                                                  TargetAttr target,
                                                  int64_t sharedBudget,
                                                  int64_t elementBytes) {
  // 128 x n tiles of two consumer warpgroups over slices one 128-byte
  // swizzled row deep (64 16-bit elements, 128 8-bit ones), n by the wave
  // cost model.
  MatmulTile tile;
  tile.body = KernelBody::wgmma;
  tile.elementBytes = elementBytes;
  tile.m = 128;
  tile.k = 128 / elementBytes;
  tile.n = wgmmaTileWidth(p, target);
  tile.stages = wgmmaRingStages(tile, sharedBudget);
  if (tile.stages < 2)
    return std::nullopt;
  return tile;
}

void mlir::brrr::chooseFloat8Sums(MatmulTile &tile, Type operand,
                                  bool fastFloat8, const ProductShape &p,
                                  TargetAttr target, int64_t sharedBudget) {
  if (tile.body != KernelBody::wgmma || !isa<Float8E4M3FNType>(operand))
    return;
  if (fastFloat8) {
    tile.precision = KernelPrecision::fast;
    return;
  }
  tile.precision = KernelPrecision::promoted;
  if (tile.n > kPromotedWidth) {
    tile.n = wgmmaTileWidth(p, target, kPromotedWidth);
    tile.stages = wgmmaRingStages(tile, sharedBudget);
  }
}

std::optional<MatmulTile> mlir::brrr::f32TileOf(const ProductShape &p,
                                                TargetAttr target,
                                                int64_t sharedBudget) {
  // 16-deep slices for products of at most 16 (MobileNet's narrowest 1x1
  // convolutions), which a 32-deep one would fill half with zeros, or
  // where 32-deep ones do not fit the budget twice.
  int64_t sms = target.getMultiprocessors();
  std::optional<MatmulTile> chosen;
  for (int64_t k : {int64_t(32), int64_t(16)}) {
    if (k == 32 && p.K <= 16)
      continue;
    for (auto [m, n] :
         {std::pair<int64_t, int64_t>{128, 128}, {128, 64}, {64, 64}}) {
      // A 128-wide tile would multiply half its columns outside a product
      // of at most 64 (ResNet's first-stage convolutions).
      if (n > 64 && p.N <= 64)
        continue;
      MatmulTile t;
      t.m = m;
      t.n = n;
      t.k = k;
      t.stages = std::min<int64_t>(3, sharedBudget / t.f32StageBytes());
      if (t.stages < 2)
        continue;
      chosen = t;
      if (t.tilesOf(p) >= sms)
        break;
    }
    if (chosen)
      break;
  }
  if (!chosen)
    return std::nullopt;
  MatmulTile tile = *chosen;
  int64_t kTiles = llvm::divideCeil(p.K, tile.k);
  if (target.has(TargetFeature::clusters) && p.K > 0) {
    int64_t tiles = tile.tilesOf(p);
    for (int64_t s : {2, 4, 8})
      if (tiles * s <= sms && kTiles >= 2 * s)
        tile.cluster = s;
  }
  // With as many k-slices as stages, the main loop copies one slice, in its
  // first iteration only: LLVM makes that copy's addresses loop-invariant
  // and keeps them all live through the loop, and the kernel spills (a
  // 3136 x 96 x 384 product, ConvNeXt-T's first MLP: 160 bytes at 255
  // registers). One more stage, where it fits, copies every slice before
  // the loop; else one fewer copies two in it. A split tile's blocks count
  // their slices at run time.
  if (tile.cluster == 1 && kTiles == tile.stages) {
    if ((tile.stages + 1) * tile.f32StageBytes() <= sharedBudget)
      ++tile.stages;
    else if (tile.stages > 2)
      --tile.stages;
  }
  return tile;
}

int64_t MatmulTile::epilogueBytes() const {
  return m * wgmmaEpiloguePitch(epilogue ? epilogue : n) *
         (overlapped() ? stagedBytes() : 4);
}

int64_t MatmulTile::tilesOf(const ProductShape &p) const {
  return llvm::divideCeil(p.M, m) * llvm::divideCeil(p.N, n) * p.batches;
}

void mlir::brrr::choosePersistence(MatmulTile &tile, const ProductShape &p,
                                   TargetAttr target, int64_t sharedBudget,
                                   KernelSchedule schedule, int64_t drainGroups,
                                   bool fewerTiles) {
  tile.persistent = tile.epilogue = tile.drainGroups = 0;
  tile.schedule = KernelSchedule::cooperative;
  if (tile.body != KernelBody::wgmma)
    return;
  int64_t sms = target.getMultiprocessors();
  MatmulTile chosen = tile;
  bool promoted = tile.precision == KernelPrecision::promoted;
  chosen.schedule = p.pairedHalves && schedule == KernelSchedule::pingpong
                        ? KernelSchedule::cooperative
                        : schedule;
  // One warpgroup holds the whole tile: 128 x 128 f32 accumulators at
  // most, 128 a thread; with promoted sums beside them, 128 x 64.
  if (int64_t widest = promoted ? 64 : 128;
      chosen.pingpong() && chosen.n > widest) {
    chosen.n = widest;
    chosen.stages = wgmmaRingStages(chosen, sharedBudget);
  }
  // An overlapped 8-bit product stages its tile's sums in f32, beside four
  // stages up to 128 columns (67 KiB), and its consumers, on fewer
  // registers, hold promoted sums beside the accumulators up to
  // kPromotedOverlappedWidth columns.
  if (chosen.overlapped() && chosen.elementBytes == 1 &&
      chosen.n > kPromotedOverlappedWidth) {
    chosen.n = wgmmaTileWidth(p, target, kPromotedOverlappedWidth);
    chosen.stages = wgmmaRingStages(chosen, sharedBudget);
  }
  if (chosen.overlapped() && drainGroups && chosen.n > kDrainGroupWidth) {
    chosen.n = wgmmaTileWidth(p, target, kDrainGroupWidth);
    chosen.stages = wgmmaRingStages(chosen, sharedBudget);
  }
  if (chosen.tilesOf(p) <= sms && !fewerTiles)
    return;
  if (chosen.overlapped()) {
    // The whole tile staged in 16 bits (67.5 KiB at 128 x 256) beside as
    // many stages as fit, up to four: three at 256 columns.
    auto fitStages = [&](MatmulTile &t) {
      t.epilogue = t.n;
      t.stages = 4;
      while (t.stages >= 2 && t.stages * t.stageBytes() + t.epilogueBytes() +
                                      wgmmaExtraShared(t.barrierBytes()) >
                                  sharedBudget)
        --t.stages;
    };
    fitStages(chosen);
    // A 256-wide tile's three stages leave its main loop short of slices
    // in flight: 192 columns keep four, where they pad N no more
    // (measured, test/gpu/notes/2026-12-04-e.md: BERT-base at batch 128
    // 1.5%, GPT-2 at batch 8 2.1%, ViT-B/16 at batch 32 3.3% faster).
    if (MatmulTile narrow = chosen;
        chosen.n == 256 && chosen.stages < 4 && !p.pairedHalves) {
      narrow.n = 192;
      fitStages(narrow);
      if (narrow.stages == 4 && narrow.tilesOf(p) > sms &&
          llvm::alignTo(p.N, 192) - p.N <= llvm::alignTo(p.N, 256) - p.N)
        chosen = narrow;
    }
    if (chosen.stages < 2)
      return;
    tile = chosen;
    tile.persistent = sms;
    tile.drainGroups = drainGroups;
    return;
  }
  // The widest column chunk of the epilogue that fits beside the stages
  // (0: none).
  auto widestChunk = [&](const MatmulTile &t) -> int64_t {
    int64_t free = sharedBudget - t.stages * t.stageBytes() -
                   wgmmaExtraShared(t.barrierBytes());
    for (int64_t columns : {t.n, int64_t(128), int64_t(64), int64_t(32)}) {
      if (columns > t.n || t.n % columns)
        continue;
      MatmulTile chunked = t;
      chunked.epilogue = columns;
      if (chunked.epilogueBytes() <= free)
        return columns;
    }
    return 0;
  };
  int64_t columns = widestChunk(chosen);
  // A ring one stage shorter where that lets the epilogue stage 64 columns
  // or more at a time: four 48 KiB stages of a 256-wide tile leave room for
  // 32, three for 128.
  if (columns < 64 && chosen.stages > 3) {
    MatmulTile shorter = chosen;
    --shorter.stages;
    if (int64_t wider = widestChunk(shorter); wider >= 64) {
      chosen = shorter;
      columns = wider;
    }
  }
  if (!columns)
    return;
  tile = chosen;
  tile.epilogue = columns;
  tile.persistent = sms;
}

/// The depth of main loop a cooperative tile's exposed epilogue (a bias
/// and a residual, or a GELU) costs, per column: fitted to BERT-base at
/// batch 128 on an H100 (test/gpu/notes/2026-12-07-d.md), cooperative
/// 256-wide tiles against 192-wide ones with a drain warpgroup, where the
/// times give 188 (the attention output projection), 214 (FFN1 + GELU) and
/// 396 (FFN2). A Llama-style decoder's down projection (4096 x 5504 ->
/// 2048, a residual) would need 1204 to pay for its third wave of
/// 192-wide tiles: it ran 12% slower with them (same notes).
constexpr int64_t kExposedEpilogueDepth = 320;

bool mlir::brrr::drainTileKeepsPace(const MatmulTile &tile,
                                    const ProductShape &p, TargetAttr target) {
  if (tile.n <= kDrainGroupWidth || p.K <= 0)
    return true;
  int64_t sms = target.getMultiprocessors();
  MatmulTile narrow = tile;
  narrow.n = wgmmaTileWidth(p, target, kDrainGroupWidth);
  auto busiest = [&](const MatmulTile &t) {
    return llvm::divideCeil(t.tilesOf(p), sms);
  };
  int64_t drained = busiest(narrow) * (64 + 3 * narrow.n / 4) * p.K;
  int64_t exposed = busiest(tile) * ((64 + 3 * tile.n / 4) * p.K +
                                     tile.n * kExposedEpilogueDepth);
  return drained <= exposed;
}

int64_t mlir::brrr::clusterWave(int64_t sms, int64_t s) {
  return s <= 2 ? sms : std::min<int64_t>(sms, 120);
}

namespace {

/// The estimated time in microseconds of `tile`'s grid over `p` with each
/// tile split between `s` blocks: waves of blocks, each streaming its
/// slices after the start, plus the exchange. Fitted to the 128- and
/// 512-row products of the transformer shapes on an H200
/// (test/gpu/NOTES.md, "Narrow tiles"): a block starts, fills its pipeline
/// and stores its tile in 1.7 us; a 64-deep slice of a 128 x 128 tile
/// takes 0.405 us, of a 128 x n tile (64 + 3n/4) / 160 of that
/// (wgmmaTileWidth's law: 0.28 us at 64 wide); summing a split tile's
/// partials through distributed shared memory costs 0.85 us per 64
/// columns plus 0.165 us per block of the cluster.
double splitMicroseconds(const MatmulTile &tile, const ProductShape &p,
                         int64_t sms, int64_t s) {
  constexpr double kStart = 1.7, kSlice128 = 0.405,
                   kExchangePer64Columns = 0.85, kExchangePerBlock = 0.165;
  int64_t kTiles = llvm::divideCeil(p.K, tile.k);
  // A slice of 8-bit operands is twice as deep at twice the rate.
  double slice = kSlice128 * (tile.m / 128.0) * (64 + 0.75 * tile.n) / 160 *
                 (tile.k * tile.elementBytes / 128.0);
  double exchange =
      s > 1 ? kExchangePer64Columns * tile.n / 64 + kExchangePerBlock * s : 0;
  return llvm::divideCeil(tile.tilesOf(p) * s, clusterWave(sms, s)) *
             (kStart + kTiles / s * slice) +
         exchange;
}

/// Sets `tile.cluster` to the split (1, 2, 4 or 8) of least estimated time
/// among those that divide the k-slices evenly and keep one wave; returns
/// that time.
double bestClusterSplit(MatmulTile &tile, const ProductShape &p, int64_t sms) {
  tile.cluster = 1;
  int64_t kTiles = llvm::divideCeil(p.K, tile.k);
  int64_t tiles = tile.tilesOf(p);
  double best = splitMicroseconds(tile, p, sms, 1);
  for (int64_t s : {2, 4, 8}) {
    double t = splitMicroseconds(tile, p, sms, s);
    if (kTiles % s == 0 && tiles * s <= clusterWave(sms, s) && t < best) {
      tile.cluster = s;
      best = t;
    }
  }
  return best;
}
} // namespace

void mlir::brrr::chooseClusterSplit(MatmulTile &tile, const ProductShape &p,
                                    TargetAttr target) {
  tile.cluster = 1;
  if (tile.body != KernelBody::wgmma || tile.persistent || p.K <= 0)
    return;
  bestClusterSplit(tile, p, target.getMultiprocessors());
}

void mlir::brrr::chooseNarrowTile(MatmulTile &tile, const ProductShape &p,
                                  TargetAttr target, int64_t sharedBudget) {
  if (tile.body != KernelBody::wgmma || tile.persistent || tile.n <= 64 ||
      p.K <= 0 || p.wholeColumns || p.pairedHalves)
    return;
  int64_t sms = target.getMultiprocessors();
  MatmulTile narrow = tile;
  narrow.n = 64;
  if (narrow.tilesOf(p) > sms)
    return;
  // Up to six 24 KiB stages, and no more than a block's run of slices:
  // that whole run in flight (measured 1-3% faster than four stages on the
  // 128- and 512-row products of six slices a block).
  int64_t fit = (sharedBudget - wgmmaExtraShared(16 * 6)) / narrow.stageBytes();
  if (fit < 2)
    return;
  double time = bestClusterSplit(narrow, p, sms);
  int64_t run = llvm::divideCeil(p.K, narrow.k) / narrow.cluster;
  narrow.stages = std::clamp<int64_t>(run, 2, std::min<int64_t>(6, fit));
  if (time < splitMicroseconds(tile, p, sms, tile.cluster))
    tile = narrow;
}

/// What a stream-K block pays beyond its slices, in slices of its tile:
/// storing one partial tile and reading another back through L2 (96 KiB
/// of f32 each at 128 x 192, where a slice brings 40 KiB of operands).
/// An estimate, not yet fitted to measurements.
constexpr int64_t kStreamKFixupSlices = 2;

void mlir::brrr::chooseStreamK(MatmulTile &tile, const ProductShape &p,
                               int64_t kTiles, TargetAttr target,
                               int64_t sharedBudget, Choice use) {
  tile.streamK = false;
  if (use == Choice::never || tile.body != KernelBody::wgmma ||
      tile.pingpong() || tile.cluster != 1 || tile.multicast != 1 ||
      p.symbolic() || p.wholeColumns || kTiles < 2)
    return;
  int64_t sms = target.getMultiprocessors();
  int64_t tiles = tile.tilesOf(p);
  // Whole tiles: the busiest block's waves of them (one block a tile: a
  // wave of a block a multiprocessor). Split: an even share of the slices,
  // plus the partials'.
  int64_t blocks = tile.persistent ? tile.persistent : sms;
  if (tiles % blocks == 0)
    return;
  int64_t wholeTiles = llvm::divideCeil(tiles, blocks) * kTiles;
  MatmulTile split = tile;
  if (!split.persistent) {
    // One block a tile: a persistent grid of every multiprocessor instead,
    // on the cooperative schedule.
    choosePersistence(split, p, target, sharedBudget,
                      KernelSchedule::cooperative, 0, /*fewerTiles=*/true);
    if (!split.persistent)
      return;
  }
  // Every block runs at least one slice of its own.
  if (tiles * kTiles < split.persistent)
    return;
  int64_t share =
      llvm::divideCeil(tiles * kTiles, split.persistent) + kStreamKFixupSlices;
  if (use == Choice::always || 8 * share <= 7 * wholeTiles) {
    tile = split;
    tile.streamK = true;
  }
}

int64_t mlir::brrr::wgmmaTileWidth(const ProductShape &p, TargetAttr target,
                                   int64_t widest) {
  int64_t sms = target.getMultiprocessors();
  // A wave of 128 x n tiles takes 64 + 3n/4 units: 160 at 128 wide, 256 at
  // 256 (measured: a 128-wide tile runs at 80% of a 256-wide one's rate).
  auto cost = [&](int64_t n) {
    int64_t tiles =
        llvm::divideCeil(p.M, 128) * llvm::divideCeil(p.N, n) * p.batches;
    return llvm::divideCeil(tiles, sms) * (64 + 3 * n / 4);
  };
  // Paired halves: n / 2 columns of each half a tile, in whole 64-column
  // boxes of B: 256 or 128.
  if (p.pairedHalves)
    return widest >= 256 && p.N > 128 && cost(256) <= cost(128) ? 256 : 128;
  // At most 64 columns: a 64-wide tile, where a 128-wide one would spend
  // half its Tensor Core work on columns outside the product.
  if (p.N <= 64)
    return 64;
  // Groups of whole 128-wide tiles: 256 where it divides them. Others: the
  // narrowest tile that holds a group (RegNetX's 120 and 168 columns take
  // 128 and 192), 128 past 256.
  if (p.wholeColumns && p.N % 128 != 0) {
    for (int64_t n : {int64_t(128), int64_t(192), int64_t(256)})
      if (n >= p.N && n <= widest)
        return n;
    return 128;
  }
  if (p.wholeColumns && (widest < 256 || p.N % 256 != 0))
    return 128;
  // 192 wide where it saves a wave: 4096 x 768 makes 128 tiles of 192 (one
  // wave of 132), 96 of 256 or 192 of 128; 4096 x 2304 makes 384 (three
  // full waves), not 288 of 256 (three, the last a sixth full).
  int64_t best = widest;
  for (int64_t n : {int64_t(192), int64_t(128)})
    if (n < widest && cost(n) < cost(best))
      best = n;
  return best;
}

/// Whether `mm`'s operands suit the few-rows body at any rows: one batch
/// of f16, bf16 or f32, a static weight, both operands read along K, and
/// rows either static or symbolic (the rest of the product fixed).
static bool readsFewRowsAlongK(MatmulOp mm, const ProductOperands &po) {
  auto lt = cast<RankedTensorType>(mm.getLhs().getType());
  auto rt = cast<RankedTensorType>(mm.getRhs().getType());
  Type et = lt.getElementType();
  if (!rt.hasStaticShape() || !(et.isF16() || et.isBF16() || et.isF32()) ||
      rt.getElementType() != et)
    return false;
  const ProductShape &p = po.shape;
  return !p.batchesExtent && p.batches == 1 && p.M >= 1 && p.K >= 1 &&
         p.N >= 1 && po.lhs.strides.back() == 1 &&
         po.rhs.strides.end()[-2] == 1;
}

bool mlir::brrr::isFewRowsMatmul(MatmulOp mm) {
  if (isSymbolic(mm.getLhs().getType()) || isSymbolic(mm.getType()))
    return false;
  ProductOperands po = productOperandsOf(mm);
  return po.shape.M <= kOnePixelRows && readsFewRowsAlongK(mm, po);
}

bool mlir::brrr::takesFewRowsRanges(MatmulOp mm) {
  ProductOperands po = productOperandsOf(mm);
  std::optional<std::pair<int64_t, int64_t>> range =
      po.shape.rowsExtent ? rangeOf(po.shape.rowsExtent, dimsOf(mm))
                          : std::nullopt;
  return range && range->first >= 1 && range->first <= kOnePixelRows &&
         readsFewRowsAlongK(mm, po);
}

bool mlir::brrr::takesFewRowsMma(MatmulOp mm) {
  Type et = mm.getLhs().getType().getElementType();
  if (!(et.isF16() || et.isBF16()))
    return false;
  if (isSymbolic(mm.getLhs().getType()) || isSymbolic(mm.getType()))
    return takesFewRowsRanges(mm) && fewRowsVectorWidth(mm) == 8;
  ProductOperands po = productOperandsOf(mm);
  return po.shape.M > kOnePixelRows && po.shape.M <= kFewRowsMmaMaxRows &&
         readsFewRowsAlongK(mm, po) && fewRowsVectorWidth(mm) == 8;
}

int64_t mlir::brrr::fewRowsVectorWidth(MatmulOp mm) {
  ProductOperands po = productOperandsOf(mm);
  const OperandLayout &lhs = po.lhs, &rhs = po.rhs;
  // Every row starts at offset + r * stride, every column at offset +
  // n * stride: the width divides K, the offsets and the strides.
  int64_t g = std::gcd(po.shape.K, std::gcd(lhs.offset, rhs.offset));
  if (po.shape.M > 1)
    g = std::gcd(g, lhs.strides.end()[-2]);
  if (po.shape.N > 1)
    g = std::gcd(g, rhs.strides.back());
  return vectorWidth(elementBytes(mm.getLhs().getType().getElementType()), g);
}

std::optional<MatmulTile> mlir::brrr::convTileOf(FusionOp fusion,
                                                 TargetAttr target,
                                                 int64_t sharedBudget) {
  if (!target.hasWgmma() || fusion.getKind() != KernelFamily::conv)
    return std::nullopt;
  auto conv = dyn_cast<Conv2DOp>(&fusion.getBody().front().front());
  std::optional<ConvGemm> g = conv ? ConvGemm::of(conv) : std::nullopt;
  if (!g || !isa<BlockArgument>(conv.getInput()) ||
      !isa<BlockArgument>(conv.getWeight()))
    return std::nullopt;
  return wgmmaTileOf(
      g->product(), target, sharedBudget,
      elementBytes(
          cast<RankedTensorType>(conv.getInput().getType()).getElementType()));
}

int64_t mlir::brrr::directConvPixels(Conv2DOp conv, TargetAttr target) {
  int64_t vec = directConvVectorWidth(conv);
  if (vec == 1)
    return 1;
  ConvGemm g = ConvGemm::shapeOf(conv);
  // Windows of up to 64 taps: a thread's taps stay unrolled.
  if (g.KH * g.KW > 64)
    return 1;
  int64_t wave = target.getMultiprocessors() * 256;
  for (int64_t pixels : {4, 2})
    if (g.OW >= pixels &&
        g.N * g.OH * static_cast<int64_t>(llvm::divideCeil(g.OW, pixels)) *
                (g.O / vec) >=
            wave)
      return pixels;
  return 1;
}

int64_t mlir::brrr::directConvVectorWidth(Conv2DOp conv) {
  auto it = cast<RankedTensorType>(conv.getInput().getType());
  int64_t C = it.getDimSize(conv.channelDim());
  if (!conv.getChannelsLast() || !isDirectConv(conv) ||
      static_cast<int64_t>(conv.getGroups()) != C ||
      conv.getType().getDimSize(3) != C)
    return 1;
  return vectorWidth(elementBytes(it.getElementType()), C);
}
