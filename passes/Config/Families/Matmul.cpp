//===- Matmul.cpp - the matmul family's rules ----------------------------===//
//
// Batched matmuls with their fused prologue views and epilogues: the
// Hopper TMA + wgmma body where TMA reads the operands, the staged
// mma_sync body, the f32 3xTF32 body, or the untiled warp_mma body; the
// tile, its schedule, persistence and cluster split by the heuristics of
// passes/Config/ProductTiles.cpp.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Families.h"
#include "passes/Config/Products.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// The op a product's epilogue follows: the product, or the second of the
/// slices through which an epilogue that pairs its halves reads it (whose
/// results are the epilogue's elements).
Operation *epilogueAfter(Operation *product) {
  if (auto mm = dyn_cast<MatmulOp>(product))
    if (std::optional<PairedHalves> halves = pairedHalvesOf(mm))
      return halves->high;
  return product;
}

/// Products whose tiles outnumber the multiprocessors run the overlapped
/// schedule by default when each tile's main loop is this deep or more
/// and the epilogue is light: measured (test/gpu/NOTES.md) BERT-base's
/// QKV product (K = 768, a bias) 23% faster, its GELU one 9% slower, and
/// ResNet-50's convolutions (K from 64) slower: three warps drain a tile
/// slower than eight, and the consumers must not catch up with them.
constexpr int64_t kOverlapMinK = 768;

/// A heavier epilogue (GELU, SiLU: a transcendental or a division per
/// element) runs overlapped from this depth on: measured (test/gpu/notes/
/// 2026-11-28-b.md) GELU and SiLU products 768 deep 10% slower overlapped,
/// 1536 to 4096 deep 5-8% faster.
constexpr int64_t kOverlapHeavyMinK = 1536;

/// Whether the epilogue after `product` in `fusion` is light: adds,
/// multiplies, clamps, comparisons, selects, casts and data movement, no
/// transcendental or division for the epilogue warps to spend their time
/// on.
bool lightEpilogue(FusionOp fusion, Operation *product) {
  Block &body = fusion.getBody().front();
  for (Operation &op : llvm::make_range(
           std::next(epilogueAfter(product)->getIterator()), body.end()))
    if (!isa<AddOp, SubOp, MulOp, MaxOp, MinOp, ReluOp, ClipOp, NegOp, AbsOp,
             CastOp, CompareOp, WhereOp, TransposeOp, ReshapeOp, YieldOp>(op))
      return false;
  return true;
}

/// Whether the epilogue after `product` in `fusion` reads a kernel input as
/// large as the product's result (a residual). The overlapped schedule's
/// three epilogue warps would load it beside storing each tile; the
/// cooperative persistent one has eight consumer warps load it while the
/// next tile's slices stream in: measured (test/gpu/notes/2026-12-04-b.md)
/// BERT-base's attention output projection at batch 128 (768 deep, a bias
/// and the residual) 22% faster than overlapped, its second MLP product
/// (3072 deep) 1% faster. With a drain warpgroup's seven warps the
/// overlapped schedule is faster still (drainPays).
/// Over symbolic extents, both at the largest shape.
bool readsResidual(FusionOp fusion, Operation *product) {
  Operation *after = epilogueAfter(product);
  auto count = [](Value v) {
    int64_t n = 1;
    for (int64_t d : largestShapeOf(v))
      n *= d;
    return n;
  };
  int64_t result = count(after->getResult(0));
  Block &body = fusion.getBody().front();
  for (Operation &op :
       llvm::make_range(std::next(after->getIterator()), body.end()))
    for (Value v : op.getOperands()) {
      auto arg = dyn_cast<BlockArgument>(v);
      if (arg && arg.getOwner() == &body &&
          isa<RankedTensorType>(arg.getType()) && count(arg) >= result)
        return true;
    }
  return false;
}

/// Whether a product of shape `q` (a 16-bit result where `half`) runs the
/// overlapped schedule with a drain warpgroup of its own by default: at
/// least kOverlapMinK deep, its epilogue reading a residual, or heavy and
/// under kOverlapHeavyMinK deep (where three drain warps fall behind).
/// Measured (test/gpu/notes/2026-12-07-d.md, BERT-base at batch 128 on an
/// H100, ms over 12 layers, cooperative -> overlapped with the warpgroup):
/// FFN1 (768 deep, a bias and GELU) 1.974 -> 1.673, FFN2 (3072 deep, a
/// bias and the residual) 1.506 -> 1.445, the attention output projection
/// (768 deep, a bias and the residual) 0.585 -> 0.509; the QKV product
/// (light, overlapped with three drain warps) 0.991 against 1.004 with the
/// warpgroup, so it keeps three. Paired halves keep theirs too: the
/// warpgroup's tiles are at most 192 wide, and theirs 128 or 256. A wider
/// tile narrows for it only where that keeps pace (drainTileKeepsPace).
bool drainPays(const ProductShape &q, bool half, bool lightAfter,
               bool residual) {
  return half && !q.pairedHalves && q.K >= kOverlapMinK &&
         (residual || (!lightAfter && q.K < kOverlapHeavyMinK));
}

/// The few-rows body for a few rows read along K (isFewRowsMatmul); else a
/// tiled body where one takes the product (matmulTileOf), pinned by
/// `matmul-tile`, else untiledProductConfig. With `persistent`,
/// `pingpong` or `overlap`, products run a persistent grid on that
/// schedule; without them, the overlapped grid where it pays
/// (kOverlapMinK, kOverlapHeavyMinK, lightEpilogue), the cooperative
/// persistent one where such an epilogue reads a residual (readsResidual).
FailureOr<KernelConfigAttr> chooseMatmul(FusionOp fusion,
                                         const ConfigOptions &options) {
  TargetAttr target = options.target;
  int64_t budget = options.budget;
  ArrayRef<int64_t> pinnedTile = options.pinnedTile;
  MLIRContext *ctx = fusion.getContext();
  // A few rows: a warp a column, all rows (isFewRowsMatmul); up to
  // `few-rows-mma`'s rows (fewRowsMmaRows), 16-bit rows a warp 16 columns
  // on Tensor Cores (takesFewRowsMma).
  int64_t sms = target.getMultiprocessors();
  int64_t mmaRows = fewRowsMmaRows(options.fewRowsMma);
  if (MatmulOp mm = matmulOf(fusion); mm && pinnedTile.empty()) {
    if (isFewRowsMatmul(mm))
      return fewRowsConfig(ctx, KernelFamily::matmul, productShapeOf(mm).M,
                           fewRowsVectorWidth(mm));
    ProductShape p = productShapeOf(mm);
    if (!p.rowsExtent && p.M <= mmaRows && takesFewRowsMma(mm))
      return fewRowsMmaConfig(ctx, p.M, p.N, p.K, sms);
  }
  std::optional<MatmulTile> tile = matmulTileOf(fusion, target, budget);
  if (!tile)
    return untiledProductConfig(fusion, options);
  MatmulOp product = matmulOf(fusion);
  ProductShape p = productShapeOf(product);
  Type operand = product.getLhs().getType().getElementType();
  chooseFloat8Sums(*tile, operand, options.fastFloat8, p, target, budget);
  if (!pinnedTile.empty()) {
    tile->m = pinnedTile[0];
    tile->n = pinnedTile[1];
    tile->stages = pinnedTile[2];
  }
  if (p.rowsExtent && tile->body != KernelBody::wgmma)
    return product.emitOpError(
               "symbolic rows of 16-bit operands compile on the TMA + "
               "wgmma body (sm_90a) and the untiled body only so far; "
               "this product takes the ")
           << stringifyKernelBody(tile->body)
           << " body (give its rows a fixed extent)";
  // The schedule of a tile over `q`: persistent on the schedule the flags
  // force, else overlapped where that pays (kOverlapMinK,
  // kOverlapHeavyMinK, lightEpilogue), cooperative persistent where such
  // an epilogue reads a residual (readsResidual) or where float8 sums are
  // promoted (each slice's products waited for: a persistent grid hides
  // the start and the epilogue of each tile behind the next tile's copies,
  // measured at 128 x 192: 4096^3 88.6% -> 92.2% of cuBLAS's promoted FP8
  // GEMM, 8192^3 91.7% -> 97.4%). Over symbolic rows, a range's tile takes
  // the schedule a static compile of its largest rows would (ping-pong
  // forced becomes cooperative), its persistent blocks walking the actual
  // rows' tiles; over symbolic batches, one block a tile.
  bool lightAfter = lightEpilogue(fusion, product);
  bool residual = readsResidual(fusion, product);
  bool half = hasHalfResult(product);
  // The drain warpgroups of an overlapped tile `t` over `q`: where it
  // pays (drainPays) and its narrower tile keeps pace with `t`
  // (drainTileKeepsPace) when `drain-warpgroup` is auto, else always or
  // never.
  auto drainGroupsOf = [&](const MatmulTile &t,
                           const ProductShape &q) -> int64_t {
    if (options.drainGroup == Choice::automatic)
      return drainPays(q, half, lightAfter, residual) &&
             drainTileKeepsPace(t, q, target);
    return options.drainGroup == Choice::always;
  };
  auto chooseSchedule = [&](MatmulTile &t, const ProductShape &q) {
    if (q.batchesExtent)
      return;
    if (options.persistent || options.pingpong || options.overlap) {
      KernelSchedule forced = forcedSchedule(product, options);
      if (q.rowsExtent && forced == KernelSchedule::pingpong)
        forced = KernelSchedule::cooperative;
      choosePersistence(t, q, target, budget, forced, drainGroupsOf(t, q));
    } else if (int64_t groups = drainGroupsOf(t, q);
               groups && drainPays(q, half, lightAfter, residual)) {
      choosePersistence(t, q, target, budget, KernelSchedule::overlapped,
                        groups);
    } else if (half && q.K >= (lightAfter ? kOverlapMinK : kOverlapHeavyMinK)) {
      choosePersistence(t, q, target, budget,
                        residual ? KernelSchedule::cooperative
                                 : KernelSchedule::overlapped,
                        drainGroupsOf(t, q));
    } else if (t.precision == KernelPrecision::promoted) {
      choosePersistence(t, q, target, budget, KernelSchedule::cooperative);
    }
  };
  chooseSchedule(*tile, p);
  int64_t elementBytes = tile->elementBytes;
  chooseClusterSplit(*tile, p, target);
  if (pinnedTile.empty())
    chooseNarrowTile(*tile, p, target, budget);
  chooseMulticast(*tile, product, p, target, options.multicast);
  chooseStreamK(*tile, p, llvm::divideCeil(p.K, tile->k), target, budget,
                options.streamK);
  KernelConfigAttr config = tile->config(ctx);
  // Over symbolic rows on the wgmma body, each range of rows takes the
  // tile a static compile of its largest rows would.
  // Ranges of at most kOnePixelRows rows take the few-rows body where
  // the operands allow (takesFewRowsRanges), a tile of the range's rows
  // rounded up to a power of two: one kernel for 3 and 4 rows. Ranges of
  // up to `few-rows-mma`'s rows take it on Tensor Cores (takesFewRowsMma),
  // the range's rows rounded up to 8.
  bool fewRows = p.rowsExtent && takesFewRowsRanges(product);
  bool fewRowsMma = mmaRows > 0 && fewRows && takesFewRowsMma(product);
  // So does the largest range (the fusion's own config) where it ends
  // there.
  if (fewRowsMma && pinnedTile.empty() && p.M <= mmaRows)
    config = fewRowsMmaConfig(ctx, p.M, p.N, p.K, sms);
  if (p.rowsExtent && pinnedTile.empty())
    recordRowVariants(fusion, p, config, [&](const ProductShape &q) {
      if (fewRows && q.M <= kOnePixelRows)
        return fewRowsConfig(ctx, KernelFamily::matmul, llvm::PowerOf2Ceil(q.M),
                             fewRowsVectorWidth(product));
      if (fewRowsMma && q.M <= mmaRows)
        return fewRowsMmaConfig(ctx, q.M, q.N, q.K, sms);
      std::optional<MatmulTile> t =
          wgmmaTileOf(q, target, budget, elementBytes);
      if (!t)
        return KernelConfigAttr();
      chooseFloat8Sums(*t, operand, options.fastFloat8, q, target, budget);
      chooseSchedule(*t, q);
      chooseClusterSplit(*t, q, target);
      chooseNarrowTile(*t, q, target, budget);
      return t->config(ctx);
    });
  return config;
}

} // namespace

const FamilyRules mlir::brrr::kMatmulRules = {chooseMatmul, verifyProduct,
                                              productGrid, productBuffers};
