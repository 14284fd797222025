//===- SelectKernelConfig.cpp - every kernel's geometry, chosen once -----===//
//
// Runs after fusion, before memory planning (flag brrr-select-kernel-config).
// Each `brrr.fusion` gets its kernel's decisions as one typed attribute,
// `brrr.config = #brrr.kernel<...>`: the body (plain threads, an untiled
// warp-per-tile mma.sync, a staged mma.sync block tile (f16/bf16 through
// 16-byte copies, f32 through element copies on tf32), or Hopper's TMA +
// wgmma), the block size, the tile and its stages, the vector width. The
// shared-memory planner and the code generator only read it, and a lit test
// can check what was chosen apart from what is produced. A config already on
// a fusion (written by hand, or by an earlier run) is kept.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Attention.h"
#include "passes/Config/Launch.h"
#include "passes/Config/Movement.h"
#include "passes/Config/Products.h"
#include "passes/Config/Rows.h"
#include "passes/Passes.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRSELECTKERNELCONFIG
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Threads per block of the pointwise kernels.
constexpr int64_t kPointwiseThreads = 256;

/// Vectors a thread of a pointwise or movement kernel computes (its
/// `tile`; absent: one). Four, all loaded before any is computed, once the
/// grid still holds this many blocks (about two waves of four blocks on a
/// 132-SM GPU), so that more bytes are in flight per thread; two where the
/// body calls sin or cos, whose slow path (a range reduction over a table)
/// costs ~90 registers a thread at four vectors: cos(cos(x)) over 64M f32
/// on an H200 ran at 55% of the copy rate with four, 84% with two and 81%
/// with one (torch.compile 89%), an add at 99% with any.
constexpr int64_t kUnrollMinBlocks = 1056;

SmallVector<int64_t> vectorsPerThread(FusionOp fusion, int64_t vector) {
  // At a symbolic count, for the largest shape in range.
  Value out = fusion.getResult(0);
  int64_t numel =
      bufferBytes(out) /
      elementBytes(cast<RankedTensorType>(out.getType()).getElementType());
  if (numel / vector < 4 * kPointwiseThreads * kUnrollMinBlocks)
    return {};
  bool trig = false;
  fusion.getBody().walk([&](Operation *op) { trig |= isa<SinOp, CosOp>(op); });
  return {trig ? 2 : 4};
}

/// Threads per block of the general reductions.
constexpr int64_t kReduceThreads = 256;

/// The config of a general reduction. One thread per output walks its
/// reduced elements unless that leaves the GPU idle: with at least a block's
/// worth of elements per output, and few outputs or a reduced innermost axis
/// (so that the block's walk is coalesced), a block cooperates on each
/// output. (T5's f16 export reduces a whole activation to one flag: one
/// thread took 1.1 ms for 64 Ki elements.)
KernelConfigAttr reduceConfig(FusionOp fusion) {
  MLIRContext *ctx = fusion.getContext();
  KernelConfigAttr perThread = KernelConfigAttr::get(
      ctx, KernelFamily::reduce, KernelBody::simt, kReduceThreads, {}, 0, 1, 1,
      KernelPrecision::exact, 0, 0, KernelSchedule::cooperative, {}, {});
  ReduceOp red;
  fusion.getBody().walk([&](ReduceOp r) { red = r; });
  if (!red)
    return perThread;
  // The largest shape's config over a symbolic outer run.
  auto in = cast<RankedTensorType>(red.getInput().getType());
  SmallVector<int64_t> shape = largestShapeOf(red.getInput());
  int64_t count = 1, elements = 1;
  for (int64_t d : red.getAxes())
    count *= shape[d];
  for (int64_t d : shape)
    elements *= d;
  int64_t outputs = count ? elements / count : 0;
  bool innermost = llvm::is_contained(red.getAxes(), in.getRank() - 1);
  if (std::optional<SplitRows> split = splitRowsOf(red))
    return KernelConfigAttr::get(
        ctx, KernelFamily::reduce, KernelBody::simt, split->threads(),
        {split->lanes, split->groups}, 0, split->vector, 1,
        KernelPrecision::exact, 0, 0, KernelSchedule::cooperative, {}, {});
  if (count < kReduceThreads || outputs == 0 || outputs > 65536 ||
      (!innermost && outputs >= 1024))
    return perThread;
  return KernelConfigAttr::get(ctx, KernelFamily::reduce, KernelBody::simt,
                               kReduceThreads, {kReduceThreads}, 0, 1, 1,
                               KernelPrecision::exact, 0, 0,
                               KernelSchedule::cooperative, {}, {});
}

/// Over symbolic rows `p.rowsExtent` (from the smallest to the largest
/// rows, `p.M`): records on `fusion` the configs `configAt` chooses at the
/// largest rows of each power-of-two range of rows (smallest x 2^k) where
/// it differs from the next range's (kVariantsAttrName); `main` is the
/// largest range's. A range's kernel then runs between half the rows its
/// config was chosen for and those rows, where a static compile of each
/// shape would choose at the shape's own rows.
void recordRowVariants(
    FusionOp fusion, const ProductShape &p, KernelConfigAttr main,
    function_ref<KernelConfigAttr(const ProductShape &)> configAt) {
  std::optional<std::pair<int64_t, int64_t>> range =
      rangeOf(p.rowsExtent, dimsOf(fusion));
  if (!range || range->first < 1)
    return;
  SmallVector<std::pair<int64_t, KernelConfigAttr>> buckets;
  for (int64_t rows = range->first; rows < range->second; rows *= 2) {
    ProductShape q = p;
    q.M = rows;
    buckets.push_back({rows, configAt(q)});
  }
  buckets.push_back({range->second, main});
  MLIRContext *ctx = fusion.getContext();
  SmallVector<Attribute> variants;
  for (size_t i = 0; i + 1 < buckets.size(); ++i) {
    if (!buckets[i].second || buckets[i].second == buckets[i + 1].second)
      continue;
    NamedAttribute entries[] = {
        NamedAttribute(StringAttr::get(ctx, "config"), buckets[i].second),
        NamedAttribute(
            StringAttr::get(ctx, "rows"),
            IntegerAttr::get(IntegerType::get(ctx, 64), buckets[i].first))};
    variants.push_back(DictionaryAttr::get(ctx, entries));
  }
  if (variants.empty())
    return;
  fusion->setAttr(kVariantsAttrName, ArrayAttr::get(ctx, variants));
  unsigned symbols = dimsOf(fusion).size();
  fusion->setAttr(kVariantRowsAttrName, AffineMapAttr::get(AffineMap::get(
                                            0, symbols, p.rowsExtent, ctx)));
}

/// The config of an attention kernel: 64 queries per block over 4 warps
/// (a tile of 16 each), key blocks of 64 through two buffers. Measured on
/// an H100 against the other tiles (test/gpu/NOTES.md), it is within 10%
/// of the best at every BERT and GPT-2 shape and the best where it counts
/// most: smaller blocks re-read every key per 16 queries, and 128-query
/// blocks (two tiles per warp) idle multiprocessors at batch 1 and waste
/// more of the causal diagonal.
KernelConfigAttr attentionConfig(FusionOp fusion, ArrayRef<int64_t> pinned) {
  AttentionTile tile;
  tile.rows = 64;
  if (!pinned.empty()) {
    tile.rows = pinned[0];
    tile.keys = pinned[1];
    tile.warps = pinned[2];
  }
  return tile.config(fusion.getContext());
}

/// The config of an f32 product (matmul or convolution) on the staged
/// mma_sync body, multiplying with `precision`; null for other element
/// types, failure (with a diagnostic) where no tile fits `budget`.
FailureOr<KernelConfigAttr> f32Config(FusionOp fusion, TargetAttr target,
                                      int64_t budget,
                                      KernelPrecision precision) {
  if (!isF32Product(fusion))
    return KernelConfigAttr();
  Operation *product = tensorCoreProductOf(fusion);
  ProductShape p;
  if (auto mm = dyn_cast<MatmulOp>(product))
    p = productShapeOf(mm);
  else if (auto conv = dyn_cast<Conv2DOp>(product))
    p = ConvGemm::shapeOf(conv).product();
  else
    return KernelConfigAttr();
  std::optional<MatmulTile> tile = f32TileOf(p, target, budget);
  if (!tile) {
    MatmulTile smallest;
    smallest.m = smallest.n = 64;
    smallest.k = 16;
    return fusion.emitOpError("multiplies f32 on a staged tile, whose two "
                              "stages need at least ")
           << 2 * smallest.f32StageBytes()
           << " bytes of shared memory; the budget is " << budget;
  }
  KernelFamily family =
      isa<MatmulOp>(product) ? KernelFamily::matmul : KernelFamily::conv;
  // 64 x 64 tiles (small products, latency-bound) run four 32 x 32 warps,
  // which copy half as many slice elements each as two 64 x 32 warps
  // would; larger tiles run 64 x 32 warps, which read fewer fragments from
  // shared memory per product.
  int64_t warpRows = tile->m == 64 && tile->n == 64 ? 32 : 64;
  return KernelConfigAttr::get(
      fusion.getContext(), family, KernelBody::mma_sync,
      tile->f32Threads(warpRows), {tile->m, tile->n, tile->k}, tile->stages, 1,
      tile->cluster, precision, 0, 0, KernelSchedule::cooperative, {}, {});
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

/// The first compute capability that converts to float8 (Ada, sm_89).
constexpr int64_t kFloat8Capability = 89;

/// Whether a kernel reads, computes or writes float8 values.
bool usesFloat8(FusionOp fusion) {
  auto isF8 = [](Type t) {
    return isa<Float8E4M3FNType>(getElementTypeOrSelf(t));
  };
  WalkResult r = fusion.walk([&](Operation *op) {
    if (llvm::any_of(op->getOperandTypes(), isF8) ||
        llvm::any_of(op->getResultTypes(), isF8))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

/// Whether the epilogue after `product` in `fusion` is light: adds,
/// multiplies, clamps, comparisons, selects, casts and data movement, no
/// transcendental or division for the epilogue warps to spend their time
/// on.
bool lightEpilogue(FusionOp fusion, Operation *product) {
  Block &body = fusion.getBody().front();
  for (Operation &op :
       llvm::make_range(std::next(product->getIterator()), body.end()))
    if (!isa<AddOp, SubOp, MulOp, MaxOp, MinOp, ReluOp, ClipOp, NegOp, AbsOp,
             CastOp, CompareOp, WhereOp, TransposeOp, ReshapeOp, YieldOp>(op))
      return false;
  return true;
}

/// The config of `fusion`, or failure with a diagnostic.
/// `pinnedTile` (m, n, stages), when given, overrides the shape of every
/// tiled matmul, `pinnedAttention` (rows, keys, warps) that of every
/// attention kernel. wgmma convolutions whose tiles outnumber the
/// multiprocessors run a persistent grid, and with `persistent` products
/// too; with `pingpong`, both run a persistent grid whose consumer
/// warpgroups take turns on whole tiles; with `overlap`, one whose
/// epilogue warps drain each tile staged in its 16-bit type (products of
/// an f32 result stay cooperative). Without them, products run that
/// overlapped grid where it pays (kOverlapMinK, kOverlapHeavyMinK,
/// lightEpilogue).
FailureOr<KernelConfigAttr>
chooseConfig(FusionOp fusion, TargetAttr target, int64_t budget,
             ArrayRef<int64_t> pinnedTile, ArrayRef<int64_t> pinnedAttention,
             StringRef precision, bool persistent, bool pingpong, bool overlap,
             bool fastFloat8) {
  // The overlapped schedule stages a product in its own 16-bit type.
  auto halfResult = [](Operation *product) {
    Type result =
        cast<ShapedType>(product->getResult(0).getType()).getElementType();
    return result.isF16() || result.isBF16();
  };
  auto scheduleOf = [&](Operation *product) {
    if (pingpong)
      return KernelSchedule::pingpong;
    if (overlap && halfResult(product))
      return KernelSchedule::overlapped;
    return KernelSchedule::cooperative;
  };
  // f32 products multiply exactly (3xTF32) unless the model is compiled
  // with --precision=tf32; other element types multiply as they are.
  KernelPrecision f32Precision = KernelPrecision::exact;
  if (precision == "tf32" && isF32Product(fusion))
    f32Precision = KernelPrecision::tf32;
  MLIRContext *ctx = fusion.getContext();
  KernelFamily kind = fusion.getKind();
  if (kind == KernelFamily::pointwise) {
    int64_t vector = pointwiseVectorWidth(fusion);
    return KernelConfigAttr::get(
        ctx, KernelFamily::pointwise, KernelBody::simt, kPointwiseThreads,
        vectorsPerThread(fusion, vector), 0, vector, 1, KernelPrecision::exact,
        0, 0, KernelSchedule::cooperative, {}, {});
  }
  if (kind == KernelFamily::row) {
    FailureOr<RowGeometry> g = rowGeometryOf(fusion);
    if (failed(g))
      return failure();
    SmallVector<int64_t> tile;
    if (g->lanes != g->threads)
      tile = {g->rowsPerBlock(), g->lanes};
    return KernelConfigAttr::get(
        ctx, KernelFamily::row, KernelBody::simt, g->threads, tile, 0, g->vec,
        1, KernelPrecision::exact, 0, 0, KernelSchedule::cooperative, {}, {});
  }
  if (kind == KernelFamily::matmul) {
    if (std::optional<MatmulTile> tile = matmulTileOf(fusion, target, budget)) {
      MatmulOp product = matmulOf(fusion);
      ProductShape p = productShapeOf(product);
      Type operand = product.getLhs().getType().getElementType();
      chooseFloat8Sums(*tile, operand, fastFloat8, p, target, budget);
      if (!pinnedTile.empty()) {
        tile->m = pinnedTile[0];
        tile->n = pinnedTile[1];
        tile->stages = pinnedTile[2];
      }
      // Over symbolic rows or batches, one block a tile of the largest
      // shape's tiling, its grid the actual rows' or batches' (persistent
      // blocks walk a tile count fixed at compile time).
      bool symbolic = p.symbolic();
      if (p.rowsExtent && tile->body != KernelBody::wgmma)
        return product.emitOpError(
                   "symbolic rows of 16-bit operands compile on the TMA + "
                   "wgmma body (sm_90a) and the untiled body only so far; "
                   "this product takes the ")
               << stringifyKernelBody(tile->body)
               << " body (give its rows a fixed extent)";
      if (!symbolic && (persistent || pingpong || overlap))
        choosePersistence(*tile, p, target, budget, scheduleOf(product));
      else if (!symbolic && halfResult(product) &&
               p.K >= (lightEpilogue(fusion, product) ? kOverlapMinK
                                                      : kOverlapHeavyMinK))
        choosePersistence(*tile, p, target, budget, KernelSchedule::overlapped);
      // Promoted float8 sums wait for each slice's products: a persistent
      // grid hides the start and the epilogue of each tile behind the
      // next tile's copies (measured at 128 x 192: 4096^3 88.6% -> 92.2%
      // of cuBLAS's promoted FP8 GEMM, 8192^3 91.7% -> 97.4%).
      else if (!symbolic && tile->precision == KernelPrecision::promoted)
        choosePersistence(*tile, p, target, budget,
                          KernelSchedule::cooperative);
      int64_t elementBytes = tile->elementBytes;
      chooseClusterSplit(*tile, p, target);
      if (pinnedTile.empty())
        chooseNarrowTile(*tile, p, target, budget);
      KernelConfigAttr config = tile->config(ctx);
      // Over symbolic rows on the wgmma body, each range of rows takes the
      // tile a static compile of its largest rows would.
      if (p.rowsExtent && pinnedTile.empty())
        recordRowVariants(fusion, p, config, [&](const ProductShape &q) {
          std::optional<MatmulTile> t =
              wgmmaTileOf(q, target, budget, elementBytes);
          if (!t)
            return KernelConfigAttr();
          chooseFloat8Sums(*t, operand, fastFloat8, q, target, budget);
          chooseClusterSplit(*t, q, target);
          chooseNarrowTile(*t, q, target, budget);
          return t->config(ctx);
        });
      return config;
    }
    if (MatmulTile::elementBytesOf(fusion) == 1)
      return matmulOf(fusion).emitOpError(
                 "has 8-bit operands but no 8-bit Tensor Core tile on ")
             << target << "; only the wgmma body multiplies 8-bit operands";
    // Over symbolic rows, f32 operands run the staged body and 16-bit ones
    // the tiled bodies cannot read the untiled body, their row tiles the
    // actual rows'.
    FailureOr<KernelConfigAttr> f32 =
        f32Config(fusion, target, budget, f32Precision);
    if (failed(f32) || *f32)
      return f32;
    return KernelConfigAttr::get(
        ctx, KernelFamily::matmul, KernelBody::warp_mma, 32, {}, 0, 1, 1,
        KernelPrecision::exact, 0, 0, KernelSchedule::cooperative, {}, {});
  }
  if (kind == KernelFamily::pool) {
    // Channels-last pools read and write 16-byte vectors of channels;
    // other pools an element a thread.
    Operation *pool = &fusion.getBody().front().front();
    int64_t vector = 1;
    if (isa<MaxPool2DOp, AvgPool2DOp>(pool) && pool->hasAttr("channels_last"))
      if (auto in = dyn_cast<RankedTensorType>(pool->getOperand(0).getType());
          in && in.getRank() == 4)
        vector =
            vectorWidth(elementBytes(in.getElementType()), in.getDimSize(3));
    return KernelConfigAttr::get(ctx, KernelFamily::pool, KernelBody::simt,
                                 kPointwiseThreads, {}, 0, vector, 1,
                                 KernelPrecision::exact, 0, 0,
                                 KernelSchedule::cooperative, {}, {});
  }
  if (kind == KernelFamily::movement) {
    // A tree of vectors names the vectors a thread computes, one or more;
    // a transpose through shared tiles its tile; the rest (gathers,
    // scatters, trees of other element types) take an element a thread.
    SmallVector<int64_t> tile;
    int64_t vector = movementVectorWidth(fusion);
    if (vector) {
      tile = vectorsPerThread(fusion, vector);
      if (tile.empty())
        tile = {1};
    } else if (isTiledTransposeKernel(fusion)) {
      tile = {kTransposeTile, kTransposeRows};
    }
    int64_t threads =
        tile.size() == 2 ? kTransposeTile * kTransposeRows : kPointwiseThreads;
    return KernelConfigAttr::get(ctx, KernelFamily::movement, KernelBody::simt,
                                 threads, tile, 0, std::max<int64_t>(vector, 1),
                                 1, KernelPrecision::exact, 0, 0,
                                 KernelSchedule::cooperative, {}, {});
  }
  if (kind == KernelFamily::reduce)
    return reduceConfig(fusion);
  if (kind == KernelFamily::attention) {
    if (!attentionOf(fusion))
      return fusion.emitOpError("attention kernels hold a brrr.attention");
    return attentionConfig(fusion, pinnedAttention);
  }
  if (kind == KernelFamily::conv) {
    // Depthwise and narrow-group convolutions: a few multiply-adds per
    // output element read, on plain threads.
    auto conv = dyn_cast_or_null<Conv2DOp>(tensorCoreProductOf(fusion));
    bool symbolic = conv && isSymbolic(conv.getType());
    if (conv && isDirectConv(conv)) {
      SmallVector<int64_t> pixels;
      if (int64_t p = directConvPixels(conv, target); p > 1)
        pixels.push_back(p);
      return KernelConfigAttr::get(
          ctx, KernelFamily::conv, KernelBody::simt, kPointwiseThreads, pixels,
          0, directConvVectorWidth(conv), 1, KernelPrecision::exact, 0, 0,
          KernelSchedule::cooperative, {}, {});
    }
    if (std::optional<MatmulTile> tile = convTileOf(fusion, target, budget)) {
      std::optional<ConvGemm> g = ConvGemm::of(conv);
      // Convolutions whose tiles outnumber the multiprocessors always run
      // persistent (measured: ResNet-50, MobileNetV2 and EfficientNet-B0
      // 5-11% faster at batch 32, test/gpu/NOTES.md). Over a symbolic
      // batch, the largest batch's choice on the cooperative schedule: its
      // blocks walk the actual rows' tiles (those past them have none).
      choosePersistence(*tile, g->product(), target, budget,
                        symbolic ? KernelSchedule::cooperative
                                 : scheduleOf(conv));
      // One group of whole 64-channel slices: every k-slice is one tap's
      // channel block, so the slices split evenly between blocks; such
      // convolutions narrow their tiles as products do (measured: ResNet-50
      // at batch 1 0.344 -> 0.274 ms, test/gpu/NOTES.md).
      auto narrow = [&](MatmulTile &t, const ProductShape &q) {
        if (g->G == 1 && g->C % 64 == 0) {
          chooseClusterSplit(t, q, target);
          chooseNarrowTile(t, q, target, budget);
        }
      };
      narrow(*tile, g->product());
      KernelConfigAttr config = tile->config(ctx, KernelFamily::conv);
      // Over a symbolic batch, each range of rows takes the tile a static
      // compile of its largest rows would.
      if (symbolic)
        recordRowVariants(
            fusion, g->product(), config, [&](const ProductShape &q) {
              std::optional<MatmulTile> t = wgmmaTileOf(q, target, budget);
              if (!t)
                return KernelConfigAttr();
              choosePersistence(*t, q, target, budget,
                                KernelSchedule::cooperative);
              narrow(*t, q);
              return t->config(ctx, KernelFamily::conv);
            });
      return config;
    }
    if (MatmulTile::elementBytesOf(fusion) == 1)
      return matmulOf(fusion).emitOpError(
                 "has 8-bit operands but no 8-bit Tensor Core tile on ")
             << target << "; only the wgmma body multiplies 8-bit operands";
    FailureOr<KernelConfigAttr> f32 =
        f32Config(fusion, target, budget, f32Precision);
    if (failed(f32) || *f32)
      return f32;
    return KernelConfigAttr::get(ctx, KernelFamily::conv, KernelBody::warp_mma,
                                 32, {}, 0, 1, 1, KernelPrecision::exact, 0, 0,
                                 KernelSchedule::cooperative, {}, {});
  }
  return KernelConfigAttr();
}

/// Records `config` on `fusion` with its launch grid, and the grids of its
/// ranges' configs (kVariantsAttrName).
LogicalResult recordLaunchGrids(FusionOp fusion, KernelConfigAttr config) {
  FailureOr<KernelConfigAttr> main = withLaunchGrid(fusion, config);
  if (failed(main))
    return failure();
  fusion->setAttr(kKernelConfigAttrName, *main);
  auto variants = fusion->getAttrOfType<ArrayAttr>(kVariantsAttrName);
  if (!variants)
    return success();
  SmallVector<Attribute> gridded;
  for (Attribute v : variants) {
    NamedAttrList entries(cast<DictionaryAttr>(v));
    FailureOr<KernelConfigAttr> c =
        withLaunchGrid(fusion, cast<KernelConfigAttr>(entries.get("config")));
    if (failed(c))
      return failure();
    entries.set("config", *c);
    gridded.push_back(entries.getDictionary(fusion.getContext()));
  }
  fusion->setAttr(kVariantsAttrName,
                  ArrayAttr::get(fusion.getContext(), gridded));
  return success();
}

struct SelectKernelConfigPass
    : public mlir::brrr::impl::BrrrSelectKernelConfigBase<
          SelectKernelConfigPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(
            mlir::brrr::requireSupportedShapes(getOperation(), getArgument())))
      return signalPassFailure();
    if (!matmulTile.empty() && matmulTile.size() != 3) {
      getOperation().emitError("matmul-tile takes m,n,stages; got ")
          << matmulTile.size() << " values";
      return signalPassFailure();
    }
    auto module = getOperation()->getParentOfType<ModuleOp>();
    TargetAttr target = targetOf(getOperation());
    int64_t budget = sharedMemoryBudgetOf(getOperation());

    if (!attentionTile.empty() && attentionTile.size() != 3) {
      getOperation().emitError("attention-tile takes rows,keys,warps; got ")
          << attentionTile.size() << " values";
      return signalPassFailure();
    }
    SmallVector<int64_t> pinned(matmulTile.begin(), matmulTile.end());
    SmallVector<int64_t> pinnedAttention(attentionTile.begin(),
                                         attentionTile.end());
    StringRef precision;
    if (auto p = module ? module->getAttrOfType<StringAttr>("brrr.precision")
                        : StringAttr())
      precision = p.getValue();
    WalkResult walk = getOperation().walk([&](FusionOp fusion) {
      // A config pinned without its grid gets the one its decisions give.
      if (auto pinnedConfig =
              fusion->getAttrOfType<KernelConfigAttr>(kKernelConfigAttrName)) {
        if (pinnedConfig.getGrid().empty() &&
            failed(recordLaunchGrids(fusion, pinnedConfig)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      }
      if (target.getCapability() < kFloat8Capability && usesFloat8(fusion)) {
        mlir::emitError(fusion.getLoc(),
                        "float8 (E4M3FN) tensors need compute capability ")
            << kFloat8Capability / 10 << "." << kFloat8Capability % 10
            << " or later (cvt to e4m3); target " << target.getChip() << " has "
            << target.getCapability() / 10 << "."
            << target.getCapability() % 10;
        return WalkResult::interrupt();
      }
      FailureOr<KernelConfigAttr> config = chooseConfig(
          fusion, target, budget, pinned, pinnedAttention, precision,
          persistent, pingpong, overlap, fp8FastAccumulation);
      if (failed(config))
        return WalkResult::interrupt();
      if (*config) {
        auto diag = [&] { return fusion.emitOpError(); };
        if (failed(KernelConfigAttr::verify(
                diag, config->getFamily(), config->getBody(),
                config->getThreads(), config->getTile(), config->getStages(),
                config->getVector(), config->getCluster(),
                config->getPrecision(), config->getPersistent(),
                config->getEpilogue(), config->getSchedule(), {}, {})) ||
            failed(recordLaunchGrids(fusion, *config)))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

Operation *mlir::brrr::tensorCoreProductOf(FusionOp fusion) {
  for (Operation &op : fusion.getBody().front())
    if (isa<MatmulOp, Conv2DOp, AttentionOp>(op))
      return &op;
  return nullptr;
}

KernelConfigAttr MatmulTile::config(MLIRContext *ctx,
                                    KernelFamily family) const {
  return KernelConfigAttr::get(ctx, family, body, threads(), {m, n, k}, stages,
                               1, cluster, precision, persistent, epilogue,
                               schedule, {}, {});
}

std::optional<MatmulTile> MatmulTile::of(KernelConfigAttr config,
                                         int64_t elementBytes) {
  if (!config || config.getTile().size() != 3)
    return std::nullopt;
  MatmulTile tile;
  tile.elementBytes = elementBytes;
  tile.body = config.getBody();
  tile.m = config.getTile()[0];
  tile.n = config.getTile()[1];
  tile.k = config.getTile()[2];
  tile.stages = config.getStages();
  tile.persistent = config.getPersistent();
  tile.epilogue = config.getEpilogue();
  tile.schedule = config.getSchedule();
  tile.cluster = config.getCluster();
  tile.precision = config.getPrecision();
  return tile;
}

int64_t MatmulTile::elementBytesOf(FusionOp fusion) {
  Operation *product = tensorCoreProductOf(fusion);
  return product && isEightBitProductType(
                        getElementTypeOrSelf(product->getOperand(0).getType()))
             ? 1
             : 2;
}

KernelConfigAttr AttentionTile::config(MLIRContext *ctx) const {
  return KernelConfigAttr::get(ctx, KernelFamily::attention,
                               KernelBody::mma_sync, threads(), {rows, keys},
                               stages, 1, 1, KernelPrecision::exact, 0, 0,
                               KernelSchedule::cooperative, {}, {});
}

std::optional<AttentionTile> AttentionTile::of(KernelConfigAttr config) {
  if (!config || config.getFamily() != KernelFamily::attention ||
      config.getTile().size() != 2)
    return std::nullopt;
  AttentionTile tile;
  tile.rows = config.getTile()[0];
  tile.keys = config.getTile()[1];
  tile.stages = config.getStages();
  tile.warps = config.getThreads() / 32;
  return tile;
}

bool mlir::brrr::isF32Product(FusionOp fusion) {
  Operation *product = tensorCoreProductOf(fusion);
  return product && cast<RankedTensorType>(product->getOperand(0).getType())
                        .getElementType()
                        .isF32();
}

AttentionOp mlir::brrr::attentionOf(FusionOp fusion) {
  auto ops = fusion.getBody().front().getOps<AttentionOp>();
  return ops.empty() ? AttentionOp() : *ops.begin();
}

FailureOr<KernelConfigAttr> mlir::brrr::kernelConfigOf(FusionOp fusion) {
  if (auto config =
          fusion->getAttrOfType<KernelConfigAttr>(kKernelConfigAttrName))
    return config;
  return fusion.emitOpError("has no kernel config (") << kKernelConfigAttrName
                                                      << "); run "
                                                         "brrr-select-kernel-"
                                                         "config first";
}
