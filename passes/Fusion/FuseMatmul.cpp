//===- FuseMatmul.cpp - matmul -> brrr.fusion matmul --------------------===//
//
// Fusion pass for matrix products (flag brrr-fuse-matmul), after
// brrr-fuse-elementwise: every brrr.matmul becomes a `brrr.fusion matmul`
// kernel on Tensor Cores, reading through the views that feed only it
// (transposes, reshapes, slices become operand strides and an offset), and
// a pointwise kernel that
// is the only reader of its result, with outputs of the product's shape,
// becomes its epilogue: bias, activation and residual are applied to the
// accumulators, so the product never goes to memory; a transpose that alone
// reads the result is applied as the kernel stores it. Also home of the
// staged-tile decision (matmulTileOf) and operand layouts. Attention ops
// (brrr-fuse-attention) become `brrr.fusion attention` kernels the same way.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/Fusion/WrapInFusion.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEMATMUL
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// `v` as its own contiguous (row-major) tensor.
OperandLayout materialized(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  OperandLayout l{v,
                  SmallVector<int64_t>(type.getShape()),
                  SmallVector<int64_t>(type.getRank(), 1),
                  0,
                  {}};
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    l.strides[d] = l.strides[d + 1] * type.getDimSize(d + 1);
  return l;
}

/// Strides of `newShape` viewing elements laid out as (oldShape,
/// oldStrides), or none when a copy would be needed (the rule of torch's
/// Tensor.view: each run of old dimensions that is contiguous in memory
/// may be split and merged freely).
std::optional<SmallVector<int64_t>> viewStrides(ArrayRef<int64_t> oldShape,
                                                ArrayRef<int64_t> oldStrides,
                                                ArrayRef<int64_t> newShape) {
  SmallVector<int64_t> strides(newShape.size(), 1);
  if (oldShape.empty())
    return strides;
  int64_t viewD = static_cast<int64_t>(newShape.size()) - 1;
  int64_t chunkStride = oldStrides.back(), tensorNumel = 1, viewNumel = 1;
  for (int64_t d = static_cast<int64_t>(oldShape.size()) - 1; d >= 0; --d) {
    tensorNumel *= oldShape[d];
    if (d == 0 || (oldShape[d - 1] != 1 &&
                   oldStrides[d - 1] != tensorNumel * chunkStride)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
        strides[viewD] = viewNumel * chunkStride;
        viewNumel *= newShape[viewD];
        --viewD;
      }
      if (viewNumel != tensorNumel)
        return std::nullopt;
      if (d > 0) {
        chunkStride = oldStrides[d - 1];
        tensorNumel = viewNumel = 1;
      }
    }
  }
  if (viewD != -1)
    return std::nullopt;
  return strides;
}

/// Whether a product of `et` operands laid out as `lhs` and `rhs` over
/// `batch` runs a tiled Tensor Core body on `target`: staged by cp.async,
/// or, on a target with the wgmma body, read by TMA.
bool isTiled(TargetAttr target, Type et, const OperandLayout &lhs,
             const OperandLayout &rhs, ArrayRef<int64_t> batch) {
  if (isStageable(et, lhs, rhs))
    return true;
  return target.hasWgmma() && (et.isF16() || et.isBF16()) &&
         tmaOperandOf(lhs, batch, /*isLhs=*/true) &&
         tmaOperandOf(rhs, batch, /*isLhs=*/false);
}

/// The layouts `mm`'s kernel reads its operands through: each operand's
/// chain of views (transposes, reshapes, slices) that only the product
/// reads joins the kernel, unless that would cost the product its tiled
/// body on `target`. Each saves writing and re-reading a copy, and a
/// launch.
std::pair<OperandLayout, OperandLayout> operandsToRead(MatmulOp mm,
                                                       TargetAttr target) {
  Type et = mm.getLhs().getType().getElementType();
  OperandLayout lhs = materialized(mm.getLhs()),
                rhs = materialized(mm.getRhs());
  if (mm.getLhs() == mm.getRhs())
    return {lhs, rhs};
  auto ot = cast<RankedTensorType>(mm.getType());
  ArrayRef<int64_t> batch = ot.getShape().drop_back(2);
  bool tiledAsIs = isTiled(target, et, lhs, rhs, batch);
  OperandLayout viewedLhs = operandLayoutOf(mm.getLhs());
  if (isTiled(target, et, viewedLhs, rhs, batch) || !tiledAsIs)
    lhs = viewedLhs;
  OperandLayout viewedRhs = operandLayoutOf(mm.getRhs());
  if (isTiled(target, et, lhs, viewedRhs, batch) || !tiledAsIs)
    rhs = viewedRhs;
  return {lhs, rhs};
}

/// Wraps `product` and the views its operands are read through (one layout
/// per operand, in order) in one `kind` kernel.
void wrapProduct(Operation *product, ArrayRef<OperandLayout> layouts,
                 KernelFamily kind) {
  llvm::SetVector<Value> inputs;
  for (const OperandLayout &l : layouts)
    inputs.insert(l.source);
  OpBuilder b(product);
  auto fusion =
      FusionOp::create(b, product->getLoc(), kind, inputs.getArrayRef(),
                       product->getResultTypes());
  Block &body = fusion.getBody().front();
  IRMapping map;
  for (auto [in, arg] : llvm::zip(inputs, body.getArguments()))
    map.map(in, arg);
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  // Operands may share views (slices of one stacked tensor): each view is
  // cloned once, and left outside too while something else reads it.
  llvm::SetVector<Operation *> views;
  for (const OperandLayout &l : layouts)
    views.insert(l.views.begin(), l.views.end());
  for (Operation *view : views)
    inner.clone(*view, map);
  Operation *clone = inner.clone(*product, map);
  YieldOp::create(inner, product->getLoc(), clone->getResults());
  product->replaceAllUsesWith(fusion.getResults());
  product->erase();
  for (Operation *view : llvm::reverse(views))
    if (view->use_empty())
      view->erase();
}

/// Wraps `mm` and the views it reads through in one matmul kernel.
void wrapMatmul(MatmulOp mm, TargetAttr target) {
  auto [lhs, rhs] = operandsToRead(mm, target);
  wrapProduct(mm, {lhs, rhs}, KernelFamily::matmul);
}

/// Wraps `att` in one attention kernel, reading queries, keys and values
/// through their views (attention's head split and transposes) where the
/// rows stay whole, aligned 16-byte chunks that the kernel stages; the bias
/// is read as it is.
void wrapAttention(AttentionOp att) {
  SmallVector<OperandLayout> layouts;
  Type et = att.getQuery().getType().getElementType();
  for (Value v : {att.getQuery(), att.getKey(), att.getValue()}) {
    OperandLayout viewed = operandLayoutOf(v);
    layouts.push_back(isStageable(et, viewed, viewed) ? viewed
                                                      : materialized(v));
  }
  if (Value bias = att.getBias())
    layouts.push_back(materialized(bias));
  wrapProduct(att, layouts, KernelFamily::attention);
}

/// Writes the matmul or attention kernel `f`'s only result through the
/// transpose that is its only reader (attention merging its heads back):
/// each element is stored at its permuted position, so the transposed copy
/// is never made.
void storeThroughTranspose(FusionOp f) {
  if (f.getNumResults() != 1 || !f.getResult(0).hasOneUse())
    return;
  auto t = dyn_cast<TransposeOp>(*f.getResult(0).getUsers().begin());
  if (!t)
    return;
  OpBuilder b(t);
  auto fused = FusionOp::create(b, f.getLoc(), f.getKind(), f.getInputs(),
                                t->getResultTypes());
  fused->setAttrs(f->getAttrs());
  Block &body = fused.getBody().front();
  IRMapping map;
  Block &old = f.getBody().front();
  map.map(old.getArguments(), body.getArguments());
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  for (Operation &op : old.without_terminator())
    inner.clone(op, map);
  Value result = map.lookup(cast<YieldOp>(old.getTerminator()).getValues()[0]);
  Value permuted = TransposeOp::create(inner, t.getLoc(), t.getType(), result,
                                       t.getPermAttr());
  YieldOp::create(inner, f.getLoc(), permuted);
  t->replaceAllUsesWith(fused.getResults());
  t->erase();
  f->erase();
}

struct FuseMatmulPass
    : public mlir::brrr::impl::BrrrFuseMatmulBase<FuseMatmulPass> {
  void runOnOperation() override {
    SmallVector<MatmulOp> matmuls;
    getOperation().walk([&](MatmulOp mm) {
      if (!mm->getParentOfType<FusionOp>())
        matmuls.push_back(mm);
    });
    TargetAttr target = targetOf(getOperation());
    for (MatmulOp mm : matmuls)
      wrapMatmul(mm, target);
    SmallVector<AttentionOp> attentions;
    getOperation().walk([&](AttentionOp att) {
      if (!att->getParentOfType<FusionOp>())
        attentions.push_back(att);
    });
    for (AttentionOp att : attentions)
      wrapAttention(att);
    mergeEpilogues(getOperation(), KernelFamily::matmul);
    mergeEpilogues(getOperation(), KernelFamily::attention);
    SmallVector<FusionOp> kernels;
    getOperation().walk([&](FusionOp f) {
      if (f.getKind() == KernelFamily::matmul ||
          f.getKind() == KernelFamily::attention)
        kernels.push_back(f);
    });
    for (FusionOp f : kernels)
      storeThroughTranspose(f);
  }
};

} // namespace

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

  if (target.hasWgmma() && (et.isF16() || et.isBF16()) &&
      tmaOperandOf(lhs, batch, /*isLhs=*/true) &&
      tmaOperandOf(rhs, batch, /*isLhs=*/false))
    if (std::optional<MatmulTile> tile = wgmmaTileOf(p, target, sharedBudget))
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
                                                  int64_t sharedBudget) {
  // 128 x n tiles of two consumer warpgroups over 64-deep slices (one
  // 128-byte swizzled row each), n by the wave cost model.
  MatmulTile tile;
  tile.body = KernelBody::wgmma;
  tile.m = 128;
  tile.k = 64;
  tile.n = wgmmaTileWidth(p, target);
  tile.stages = wgmmaRingStages(tile, sharedBudget);
  if (tile.stages < 2)
    return std::nullopt;
  return tile;
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
         (overlapped() ? 2 : 4);
}

int64_t MatmulTile::tilesOf(const ProductShape &p) const {
  return llvm::divideCeil(p.M, m) * llvm::divideCeil(p.N, n) * p.batches;
}

void mlir::brrr::choosePersistence(MatmulTile &tile, const ProductShape &p,
                                   TargetAttr target, int64_t sharedBudget,
                                   KernelSchedule schedule) {
  tile.grid = tile.epilogue = 0;
  tile.schedule = KernelSchedule::cooperative;
  if (tile.body != KernelBody::wgmma)
    return;
  int64_t sms = target.getMultiprocessors();
  MatmulTile chosen = tile;
  chosen.schedule = schedule;
  if (chosen.pingpong() && chosen.n > 128) {
    // One warpgroup holds the whole tile: 128 x 128 f32 accumulators at
    // most, 128 a thread.
    chosen.n = 128;
    chosen.stages = wgmmaRingStages(chosen, sharedBudget);
  }
  if (chosen.tilesOf(p) <= sms)
    return;
  if (chosen.overlapped()) {
    // The whole tile staged in 16 bits (67.5 KiB at 128 x 256) beside as
    // many stages as fit, up to four: three at 256 columns.
    chosen.epilogue = chosen.n;
    chosen.stages = 4;
    while (chosen.stages >= 2 &&
           chosen.stages * chosen.stageBytes() + chosen.epilogueBytes() +
                   wgmmaExtraShared(chosen.barrierBytes()) >
               sharedBudget)
      --chosen.stages;
    if (chosen.stages < 2)
      return;
    tile = chosen;
    tile.grid = sms;
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
  tile.grid = sms;
}

namespace {
/// The blocks of `s`-block clusters that one wave of `sms` multiprocessors
/// holds, a block each: a cluster stays within one GPC, and an H200's GPCs
/// hold 66 clusters of 2 but only 30 of 4 and 15 of 8, 120 blocks
/// (cudaOccupancyMaxActiveClusters, test/gpu/NOTES.md), taken for every
/// sm_90a chip.
int64_t clusterWave(int64_t sms, int64_t s) {
  return s <= 2 ? sms : std::min<int64_t>(sms, 120);
}

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
  double slice = kSlice128 * (tile.m / 128.0) * (64 + 0.75 * tile.n) / 160 *
                 (tile.k / 64.0);
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
  if (tile.body != KernelBody::wgmma || tile.grid || p.K <= 0)
    return;
  bestClusterSplit(tile, p, target.getMultiprocessors());
}

void mlir::brrr::chooseNarrowTile(MatmulTile &tile, const ProductShape &p,
                                  TargetAttr target, int64_t sharedBudget) {
  if (tile.body != KernelBody::wgmma || tile.grid || tile.n <= 64 || p.K <= 0 ||
      p.wholeColumns)
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

int64_t mlir::brrr::wgmmaTileWidth(const ProductShape &p, TargetAttr target) {
  int64_t sms = target.getMultiprocessors();
  // A wave of 128 x n tiles takes 64 + 3n/4 units: 160 at 128 wide, 256 at
  // 256 (measured: a 128-wide tile runs at 80% of a 256-wide one's rate).
  auto cost = [&](int64_t n) {
    int64_t tiles =
        llvm::divideCeil(p.M, 128) * llvm::divideCeil(p.N, n) * p.batches;
    return llvm::divideCeil(tiles, sms) * (64 + 3 * n / 4);
  };
  // At most 64 columns: a 64-wide tile, where a 128-wide one would spend
  // half its Tensor Core work on columns outside the product.
  if (p.N <= 64)
    return 64;
  if (p.wholeColumns && p.N % 256 != 0)
    return 128;
  // 192 wide where it saves a wave: 4096 x 768 makes 128 tiles of 192 (one
  // wave of 132), 96 of 256 or 192 of 128; 4096 x 2304 makes 384 (three
  // full waves), not 288 of 256 (three, the last a sixth full).
  int64_t best = 256;
  for (int64_t n : {int64_t(192), int64_t(128)})
    if (cost(n) < cost(best))
      best = n;
  return best;
}

std::optional<TmaOperand> mlir::brrr::tmaOperandOf(const OperandLayout &l,
                                                   ArrayRef<int64_t> batch,
                                                   bool isLhs) {
  int64_t rank = l.shape.size();
  if (rank < 2 || l.offset % 8 != 0)
    return std::nullopt;
  // 16 bytes of 16-bit elements: TMA's alignment of addresses and strides.
  auto aligned = [](int64_t size, int64_t stride) {
    return size == 1 || (stride > 0 && stride % 8 == 0);
  };
  TmaOperand t;
  int64_t rowStride = l.strides[rank - 2], colStride = l.strides[rank - 1];
  if (colStride == 1 && aligned(l.shape[rank - 2], rowStride))
    t.kContiguous = isLhs; // A's columns are K, B's are N.
  else if (!isLhs && rowStride == 1 && aligned(l.shape[rank - 1], colStride))
    t.kContiguous = true;
  else
    return std::nullopt;
  // Batch dimensions (right-aligned to the product's) must advance by one
  // stride per flattened batch index, or not at all.
  SmallVector<int64_t> batchStrides(batch.size(), 1);
  for (int64_t d = static_cast<int64_t>(batch.size()) - 2; d >= 0; --d)
    batchStrides[d] = batchStrides[d + 1] * batch[d + 1];
  std::optional<int64_t> per;
  int64_t skip = batch.size() - (rank - 2);
  for (int64_t d = 0; d < static_cast<int64_t>(batch.size()); ++d) {
    if (batch[d] == 1)
      continue;
    int64_t od = d - skip;
    int64_t stride = od >= 0 && l.shape[od] != 1 ? l.strides[od] : 0;
    if (stride % batchStrides[d] != 0)
      return std::nullopt;
    int64_t unit = stride / batchStrides[d];
    if (per && *per != unit)
      return std::nullopt;
    per = unit;
  }
  t.batchStride = per.value_or(0);
  if (t.batchStride < 0 || t.batchStride % 8 != 0)
    return std::nullopt;
  return t;
}

ProductShape mlir::brrr::productShapeOf(MatmulOp mm) {
  return productOperandsOf(mm).shape;
}

/// Rows a product with folded batch dimensions may have: 65535 row tiles of
/// 16, the untiled body's grid limit.
constexpr int64_t kMaxFoldedRows = 65535 * 16;

ProductOperands mlir::brrr::productOperandsOf(MatmulOp mm) {
  auto lt = cast<RankedTensorType>(mm.getLhs().getType());
  auto ot = cast<RankedTensorType>(mm.getType());
  ProductOperands po;
  ProductShape &p = po.shape;
  p.M = ot.getDimSize(ot.getRank() - 2);
  p.N = ot.getDimSize(ot.getRank() - 1);
  p.K = lt.getDimSize(lt.getRank() - 1);
  p.batch.assign(ot.getShape().drop_back(2).begin(),
                 ot.getShape().drop_back(2).end());
  for (int64_t d : p.batch)
    p.batches *= d;
  po.lhs = operandLayoutOf(mm.getLhs());
  po.rhs = operandLayoutOf(mm.getRhs());
  OperandLayout &a = po.lhs, &b = po.rhs;
  int64_t ar = a.shape.size(), br = b.shape.size();
  if (p.batches == 1 || p.batches * p.M > kMaxFoldedRows ||
      !llvm::all_of(ArrayRef<int64_t>(b.shape).drop_back(2),
                    [](int64_t d) { return d == 1; }))
    return po;
  // A's rows (its batch dimensions and M, size-1 ones aside) must be one
  // stride apart throughout.
  std::optional<int64_t> rowStride;
  int64_t expect = 0;
  for (int64_t d = ar - 2; d >= 0; --d) {
    if (a.shape[d] == 1)
      continue;
    if (rowStride && a.strides[d] != expect)
      return po;
    if (!rowStride)
      rowStride = a.strides[d];
    expect = a.strides[d] * a.shape[d];
  }
  a.shape = {p.batches * p.M, p.K};
  a.strides = {*rowStride, a.strides[ar - 1]};
  b.shape = {b.shape[br - 2], b.shape[br - 1]};
  b.strides = {b.strides[br - 2], b.strides[br - 1]};
  p.M *= p.batches;
  p.batch.clear();
  p.batches = 1;
  return po;
}

MatmulOp mlir::brrr::matmulOf(FusionOp fusion) {
  auto ops = fusion.getBody().front().getOps<MatmulOp>();
  return ops.empty() ? MatmulOp() : *ops.begin();
}

OperandLayout mlir::brrr::operandLayoutOf(Value operand) {
  auto type = cast<RankedTensorType>(operand.getType());
  OperandLayout plain = materialized(operand);
  Operation *view = operand.getDefiningOp();
  if (!view || !isa<TransposeOp, ReshapeOp, SliceOp>(view))
    return plain;
  // A view read by this operand alone, or one that other views read too
  // (the stacked query, key and value of a projection, split by slices):
  // each reader that reads through it needs no copy of it.
  if (!view->getResult(0).hasOneUse() &&
      !llvm::all_of(view->getResult(0).getUsers(), [](Operation *u) {
        return isa<TransposeOp, ReshapeOp, SliceOp>(u);
      }))
    return plain;
  OperandLayout in = operandLayoutOf(view->getOperand(0));
  OperandLayout out = in;
  out.shape.assign(type.getShape().begin(), type.getShape().end());
  if (auto t = dyn_cast<TransposeOp>(view)) {
    for (auto [d, p] : llvm::enumerate(t.getPerm()))
      out.strides[d] = in.strides[p];
  } else if (isa<ReshapeOp>(view)) {
    auto strides = viewStrides(in.shape, in.strides, out.shape);
    if (!strides)
      return plain;
    out.strides = *strides;
  } else {
    auto s = cast<SliceOp>(view);
    for (auto [d, start, step] : llvm::enumerate(s.getStarts(), s.getSteps())) {
      if (step <= 0)
        return plain;
      out.offset += start * in.strides[d];
      out.strides[d] = in.strides[d] * step;
    }
  }
  out.views.push_back(view);
  return out;
}

bool mlir::brrr::isStageable(Type et, const OperandLayout &lhs,
                             const OperandLayout &rhs) {
  if (!(et.isF16() || et.isBF16()))
    return false;
  // 16-byte chunks along the innermost dimension (K of A, N of B): it is
  // contiguous, a whole number of chunks long, and every chunk starts 16
  // bytes aligned.
  for (const OperandLayout *l : {&lhs, &rhs}) {
    if (l->strides.back() != 1 || l->shape.back() % 8 != 0 ||
        l->offset % 8 != 0)
      return false;
    for (auto [size, stride] : llvm::zip(ArrayRef(l->shape).drop_back(),
                                         ArrayRef(l->strides).drop_back()))
      if (size != 1 && stride % 8 != 0)
        return false;
  }
  return true;
}
