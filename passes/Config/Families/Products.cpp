//===- Products.cpp - the rules matmuls and convolutions share -----------===//
//
// Both product families run the same Tensor Core bodies over a
// ProductShape: their fallback configs, their launch grids, the shared
// buffers of their tiles, and the per-range configs over symbolic rows.
// Each family's own choice is in Matmul.cpp and Conv.cpp, the tile
// heuristics both call in passes/Config/ProductTiles.cpp.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Products.h"
#include "passes/Config/Families.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

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
  return KernelConfigAttr::get(fusion.getContext(), family,
                               KernelBody::mma_sync, tile->f32Threads(warpRows),
                               {tile->m, tile->n, tile->k}, tile->stages, 1,
                               tile->cluster, precision, 0, 0,
                               KernelSchedule::cooperative, 1, false, {}, {});
}

} // namespace

bool mlir::brrr::hasHalfResult(Operation *product) {
  Type result =
      cast<ShapedType>(product->getResult(0).getType()).getElementType();
  return result.isF16() || result.isBF16();
}

KernelSchedule mlir::brrr::forcedSchedule(Operation *product,
                                          const ConfigOptions &options) {
  if (options.pingpong)
    return KernelSchedule::pingpong;
  if (options.overlap &&
      (hasHalfResult(product) || isEightBitProductType(getElementTypeOrSelf(
                                     product->getOperand(0).getType()))))
    return KernelSchedule::overlapped;
  return KernelSchedule::cooperative;
}

FailureOr<KernelConfigAttr>
mlir::brrr::untiledProductConfig(FusionOp fusion,
                                 const ConfigOptions &options) {
  Operation *product = tensorCoreProductOf(fusion);
  if (!product)
    return fusion.emitOpError("product kernels hold a matmul or a conv2d");
  if (MatmulTile::elementBytesOf(fusion) == 1)
    return product->emitOpError(
               "has 8-bit operands but no 8-bit Tensor Core tile on ")
           << options.target
           << "; only the wgmma body multiplies 8-bit operands";
  // f32 products multiply exactly (3xTF32) unless the model is compiled
  // with --precision=tf32; other element types multiply as they are.
  KernelPrecision f32Precision = options.precision == "tf32"
                                     ? KernelPrecision::tf32
                                     : KernelPrecision::exact;
  FailureOr<KernelConfigAttr> f32 =
      f32Config(fusion, options.target, options.budget, f32Precision);
  if (failed(f32) || *f32)
    return f32;
  return KernelConfigAttr::get(fusion.getContext(), fusion.getKind(),
                               KernelBody::warp_mma, 32, {}, 0, 1, 1,
                               KernelPrecision::exact, 0, 0,
                               KernelSchedule::cooperative, 1, false, {}, {});
}

void mlir::brrr::recordRowVariants(
    FusionOp fusion, const ProductShape &p, KernelConfigAttr main,
    function_ref<KernelConfigAttr(const ProductShape &)> configAt) {
  std::optional<std::pair<int64_t, int64_t>> range =
      rangeOf(p.rowsExtent, dimsOf(fusion));
  if (!range || range->first < 1)
    return;
  // A matmul's ranges also split at three quarters of each power of two:
  // its tiles' waves change between (BERT's 768 -> 2304 product at
  // 8 x 384 rows runs two waves of 256-wide tiles, where the config chosen
  // at 4096 rows takes three of 192). Convolutions, of many more kernels
  // a model, keep whole octaves: each range is a kernel to compile.
  bool halves = fusion.getKind() == KernelFamily::matmul;
  SmallVector<std::pair<int64_t, KernelConfigAttr>> buckets;
  auto bucket = [&](int64_t rows) {
    ProductShape q = p;
    q.M = rows;
    buckets.push_back({rows, configAt(q)});
  };
  for (int64_t rows = range->first; rows < range->second; rows *= 2) {
    bucket(rows);
    if (int64_t threeHalves = rows + rows / 2;
        halves && rows >= 2 && threeHalves < range->second)
      bucket(threeHalves);
  }
  buckets.push_back({range->second, main});
  SmallVector<std::pair<int64_t, KernelConfigAttr>> variants;
  for (size_t i = 0; i + 1 < buckets.size(); ++i)
    if (buckets[i].second && buckets[i].second != buckets[i + 1].second)
      variants.push_back(buckets[i]);
  recordVariants(fusion, variants, p.rowsExtent);
}

/// The product `product`'s kernel computes on `body`: the untiled and f32
/// bodies compute a grouped convolution's groups as batches, the wgmma
/// body as columns side by side.
static ProductShape shapeOnBody(Operation *product, KernelBody body) {
  if (auto mm = dyn_cast<MatmulOp>(product))
    return productOperandsOf(mm).shape;
  ConvGemm c = ConvGemm::shapeOf(cast<Conv2DOp>(product));
  ProductShape p = c.product();
  if (body == KernelBody::wgmma) {
    p.N = c.O;
    p.batches = 1;
  }
  return p;
}

/// The column tiles of `n` columns the wgmma body covers `p` with (on that
/// body, shapeOnBody's): a grouped convolution's groups side by side, each
/// starting a tile of its own.
static int64_t wgmmaColumnTiles(Operation *product, const ProductShape &p,
                                int64_t n) {
  if (auto conv = dyn_cast<Conv2DOp>(product)) {
    ConvGemm c = ConvGemm::shapeOf(conv);
    return c.G * llvm::divideCeil(c.O / c.G, n);
  }
  return llvm::divideCeil(p.N, n);
}

/// Whether the wgmma body reads `product`'s B along K (a convolution's
/// weights always; a matmul's as TMA reads it), or none where TMA cannot
/// read a matmul's B.
static std::optional<bool> readsBAlongK(Operation *product,
                                        const ProductShape &p) {
  auto mm = dyn_cast<MatmulOp>(product);
  if (!mm)
    return true;
  std::optional<TmaOperand> b =
      tmaOperandOf(productOperandsOf(mm).rhs, p.batch, false);
  if (!b)
    return std::nullopt;
  return b->kContiguous;
}

std::optional<std::string> mlir::brrr::multicastRefusal(Operation *product,
                                                        const MatmulTile &tile,
                                                        const ProductShape &p) {
  if (tile.body != KernelBody::wgmma)
    return "only the wgmma body multicasts";
  if (tile.cluster != 1)
    return "its tiles are split over a cluster";
  if (p.symbolic())
    return "its extents are symbolic";
  if (p.pairedHalves)
    return "its epilogue pairs the halves of its columns";
  // Each block copies half of B's box rows: of the tile's columns where B
  // is read along K, of the slice's k rows (in each 64-column box) where
  // it is read along N.
  std::optional<bool> alongK = readsBAlongK(product, p);
  if (isa<MatmulOp>(product)) {
    if (!alongK)
      return "TMA cannot read its B";
  } else if (auto conv = dyn_cast<Conv2DOp>(product)) {
    ConvGemm c = ConvGemm::shapeOf(conv);
    if (c.G > 1 && (c.O / c.G) % tile.n)
      return "its groups' columns do not fill whole tiles";
  } else {
    return "it is not a matmul or a convolution";
  }
  if ((*alongK ? tile.n : tile.k) % 16)
    return "half of its B box's rows are not whole 8-row swizzle atoms";
  if (llvm::divideCeil(p.M, tile.m) % 2)
    return "its row tiles are odd";
  if (tile.persistent % 2)
    return "its persistent grid is odd";
  return std::nullopt;
}

void mlir::brrr::chooseMulticast(MatmulTile &tile, Operation *product,
                                 const ProductShape &p, TargetAttr target,
                                 Choice use) {
  tile.multicast = 1;
  if (use == Choice::never || multicastRefusal(product, tile, p))
    return;
  if (use == Choice::automatic &&
      tile.tilesOf(p) <= target.getMultiprocessors())
    return;
  // Pairs over a B read along N (a model's constant [K, N] weights) split
  // each box's k rows; not measured to pay yet, they pair only with
  // `always`.
  if (use == Choice::automatic && !*readsBAlongK(product, p))
    return;
  // 8-bit operands pair only with `always`: measured (test/gpu/notes/
  // 2026-12-07-c.md, H100) BERT-base's feed-forward block at 16384 rows
  // paired 1.27-1.80x slower than unpaired (float8 fc1 125.0 against 90.5
  // us, fc2 115.4 against 64.1, cuBLAS's FP8 91.7 and 72.2; INT8 the
  // same), and BERT-base at batch 128 under --precision=fp8 6.02 against
  // 4.78 ms.
  if (use == Choice::automatic && tile.elementBytes == 1)
    return;
  tile.multicast = 2;
}

/// The largest grid dimension y and z of a launch (2^16 - 1), and of x
/// (2^31 - 1).
constexpr int64_t kMaxGridYZ = 65535, kMaxGridX = (int64_t(1) << 31) - 1;

/// The staged f32 body (3xTF32 or tf32): warps of 64 x 32 or 32 x 32,
/// k-slices a multiple of 8 deep that the block copies in whole elements a
/// thread, the tile's fragments split evenly over a cluster.
static LogicalResult verifyStagedF32(FusionOp fusion, Operation *product,
                                     KernelConfigAttr config,
                                     const ProductShape &p) {
  std::optional<MatmulTile> tile = MatmulTile::of(config);
  if (!tile)
    return fusion.emitOpError("the staged f32 body takes f32 operands and a "
                              "tile, not ")
           << config;
  int64_t threads = config.getThreads();
  int64_t wm = threads == tile->f32Threads(64)   ? 64
               : threads == tile->f32Threads(32) ? 32
                                                 : 0;
  // A warp's fragments: wm / 16 x 4 of them.
  if (!wm || tile->k % 8 || (tile->m * tile->k) % threads ||
      (tile->n * tile->k) % threads || (wm / 16 * 4) % tile->cluster)
    return fusion.emitOpError("unsupported f32 tile ")
           << config
           << " (one warp per 64 x 32 or 32 x 32, k a multiple of 8, a "
              "cluster of 1, 2, 4 or 8 blocks)";
  if (p.batches > kMaxGridYZ || llvm::divideCeil(p.M, tile->m) > kMaxGridYZ)
    return product->emitOpError("Tensor Core grid exceeds the launch limits");
  return success();
}

/// The staged 16-bit body of a matmul: operands in 16-byte chunks, a warp
/// a 64 x 64 tile of one block, slices the block copies in whole chunks a
/// thread; symbolic batches, not rows.
static LogicalResult verifyTiled(FusionOp fusion, MatmulOp mm,
                                 KernelConfigAttr config) {
  ProductOperands po = productOperandsOf(mm);
  Type et = mm.getLhs().getType().getElementType();
  if (!isStageable(et, po.lhs, po.rhs))
    return fusion.emitOpError("has a tile but operands that cannot be staged");
  std::optional<MatmulTile> tile = MatmulTile::of(config);
  int64_t threads = config.getThreads();
  if (!tile || threads != tile->threads() || tile->cluster != 1)
    return fusion.emitOpError("a 16-bit mma_sync tile runs one warp per 64x64 "
                              "in one block, not ")
           << config;
  if ((tile->m * tile->k / 8) % threads || (tile->k * tile->n / 8) % threads)
    return fusion.emitOpError("unsupported matmul tile ")
           << config << " (each thread copies whole 16-byte chunks)";
  const ProductShape &p = po.shape;
  if (isSymbolic(mm.getType()) && !p.batchesExtent)
    return mm.emitOpError("symbolic rows of 16-bit operands compile on the "
                          "TMA + wgmma and untiled bodies only");
  if (p.batches > kMaxGridYZ || llvm::divideCeil(p.M, tile->m) > kMaxGridYZ)
    return mm.emitOpError("Tensor Core grid exceeds the launch limits");
  return success();
}

/// The few-rows body on Tensor Cores (takesFewRowsMma): a tile of the
/// product's rows rounded up to 8 (a range's, at most kFewRowsMmaMaxRows,
/// over symbolic rows) by kFewRowsMmaColumns, whole warps, 8-element
/// loads.
static LogicalResult verifyFewRowsMma(FusionOp fusion, Operation *product,
                                      KernelConfigAttr config,
                                      const ProductShape &p) {
  auto mm = dyn_cast<MatmulOp>(product);
  ArrayRef<int64_t> tile = config.getTile();
  int64_t threads = config.getThreads();
  bool rows = tile[0] % 8 == 0 &&
              (p.rowsExtent ? tile[0] >= 8 && tile[0] <= kFewRowsMmaMaxRows
                            : tile[0] == int64_t(llvm::alignTo(p.M, 8)));
  if (!mm || !takesFewRowsMma(mm) || !rows || tile[1] != kFewRowsMmaColumns ||
      config.getVector() != 8 || threads < 32 || threads > 1024 || threads % 32)
    return product->emitOpError("the few-rows Tensor Core body takes ")
           << kOnePixelRows + 1 << " to " << kFewRowsMmaMaxRows
           << " rows of 16-bit operands read along K in 16-byte vectors (a "
              "range's over symbolic rows), a tile of [rows rounded up to "
              "8, "
           << kFewRowsMmaColumns << "] and whole warps, not " << config;
  return success();
}

/// The TMA + wgmma body: operands TMA reads (a channels-last convolution
/// through im2col), slices one 128-byte row deep split evenly over the
/// cluster, and the schedules symbolic extents allow.
static LogicalResult verifyWgmma(FusionOp fusion, Operation *product,
                                 KernelConfigAttr config,
                                 const ProductShape &p) {
  std::optional<MatmulTile> tile =
      MatmulTile::of(config, MatmulTile::elementBytesOf(fusion));
  if (!tile)
    return fusion.emitOpError("a wgmma config has an m x n x k tile, not ")
           << config;
  if (tile->k * tile->elementBytes != 128)
    return product->emitOpError("has operands of ")
           << tile->elementBytes << " bytes, whose 128-byte slices are "
           << 128 / tile->elementBytes
           << " deep, but a tile of k = " << tile->k;
  int64_t kTiles = 0;
  if (auto mm = dyn_cast<MatmulOp>(product)) {
    ProductOperands po = productOperandsOf(mm);
    if (!tmaOperandOf(po.lhs, p.batch, true) ||
        !tmaOperandOf(po.rhs, p.batch, false))
      return fusion.emitOpError("has a wgmma tile but operands TMA cannot "
                                "read");
    kTiles = llvm::divideCeil(p.K, tile->k);
  } else {
    auto conv = cast<Conv2DOp>(product);
    if (!conv.getChannelsLast() ||
        &fusion.getBody().front().front() != conv.getOperation())
      return fusion.emitOpError(
          "a wgmma conv kernel starts with a channels-last brrr.conv2d");
    std::optional<ConvGemm> g = ConvGemm::of(conv);
    if (!g || !isa<BlockArgument>(conv.getInput()) ||
        !isa<BlockArgument>(conv.getWeight()))
      return fusion.emitOpError("has a wgmma tile but a convolution that "
                                "TMA's im2col mode cannot read");
    kTiles = g->wgmmaSlices(tile->k, tile->elementBytes);
  }
  int64_t split = tile->cluster;
  if (kTiles % split != 0)
    return product->emitOpError("cannot split ")
           << kTiles << " k-slices evenly between " << split
           << " blocks of a cluster";
  int64_t tiles =
      llvm::divideCeil(p.M, tile->m) * wgmmaColumnTiles(product, p, tile->n);
  if (p.batches > kMaxGridYZ || tiles * split > kMaxGridX)
    return product->emitOpError("Tensor Core grid exceeds the launch limits");
  if (p.rowsExtent && (p.batches != 1 || tile->pingpong()))
    return product->emitOpError("symbolic rows take one batch and the "
                                "cooperative or overlapped schedule");
  if (tile->streamK && (p.symbolic() || p.wholeColumns || kTiles < 2))
    return product->emitOpError("splits its k-slices between blocks "
                                "(stream_k), which takes static extents, "
                                "whole column tiles and two or more k-slices "
                                "a tile");
  if (p.batchesExtent && tile->persistent > 0)
    return product->emitOpError("symbolic batches take one block a tile");
  if (p.pairedHalves && (tile->n % 128 || tile->pingpong()))
    return product->emitOpError("pairs the halves of its columns, which "
                                "takes tiles of 128 or 256 columns on the "
                                "cooperative or overlapped schedule, not ")
           << config;
  if (tile->multicast > 1)
    if (std::optional<std::string> why = multicastRefusal(product, *tile, p))
      return product->emitOpError("cannot multicast B between pairs of "
                                  "blocks: ")
             << *why;
  bool float8 = isa<Float8E4M3FNType>(
      getElementTypeOrSelf(product->getOperand(0).getType()));
  bool promotedOrFast = tile->precision == KernelPrecision::promoted ||
                        tile->precision == KernelPrecision::fast;
  if (float8 != promotedOrFast)
    return product->emitOpError("the wgmma body sums ")
           << (float8 ? "float8" : "16-bit and INT8") << " products "
           << (float8 ? "promoted or fast" : "exactly")
           << ", but its config says "
           << stringifyKernelPrecision(tile->precision);
  return success();
}

LogicalResult mlir::brrr::verifyProduct(FusionOp fusion,
                                        KernelConfigAttr config) {
  Operation *product = tensorCoreProductOf(fusion);
  if (!product || isa<AttentionOp>(product))
    return fusion.emitOpError("product kernels hold a matmul or a conv2d");
  ProductShape p = shapeOnBody(product, config.getBody());
  Type et = getElementTypeOrSelf(product->getOperand(0).getType());
  // The few-rows bodies (a tile of [rows, columns]) pair halves too.
  bool fewRows = (config.getBody() == KernelBody::simt ||
                  config.getBody() == KernelBody::warp_mma) &&
                 config.getTile().size() == 2;
  if (p.pairedHalves && config.getBody() != KernelBody::wgmma && !fewRows)
    return product->emitOpError("pairs the halves of its columns, which "
                                "the wgmma and few-rows bodies compute, but "
                                "its config takes the ")
           << stringifyKernelBody(config.getBody()) << " body";
  switch (config.getBody()) {
  case KernelBody::simt: {
    auto mm = dyn_cast<MatmulOp>(product);
    if (!mm)
      return fusion.emitOpError("a convolution's simt body is its family's");
    ArrayRef<int64_t> tile = config.getTile();
    int64_t vec = config.getVector();
    // Static rows: a tile of all of them; symbolic ones (a range's
    // kernel, takesFewRowsRanges): of at most kOnePixelRows, the actual
    // rows read at run time.
    bool rows = tile.size() == 2 &&
                (p.rowsExtent ? takesFewRowsRanges(mm) && tile[0] >= 1 &&
                                    tile[0] <= kOnePixelRows
                              : isFewRowsMatmul(mm) && tile[0] == p.M);
    if (!rows || tile[1] < 1 || config.getThreads() != 32 * tile[1] ||
        vec < 1 || fewRowsVectorWidth(mm) % vec)
      return mm.emitOpError("the few-rows body takes at most ")
             << kOnePixelRows
             << " rows of one batch (static, or a range's of symbolic "
                "ones), both operands read along K, a tile of "
                "[rows, columns per block] with a warp a column, and vectors "
                "that divide K and every row's and column's start, not "
             << config;
    return success();
  }
  case KernelBody::warp_mma:
    if (config.getTile().size() == 2)
      return verifyFewRowsMma(fusion, product, config, p);
    if (!(et.isF16() || et.isBF16()))
      return product->emitOpError("the untiled Tensor Core body takes f16 or "
                                  "bf16 operands (f32 runs the staged "
                                  "mma_sync body), got ")
             << et;
    if (p.batches > kMaxGridYZ || llvm::divideCeil(p.M, 16) > kMaxGridYZ)
      return product->emitOpError("Tensor Core grid exceeds the launch limits");
    return success();
  case KernelBody::mma_sync:
    if (et.isF32())
      return verifyStagedF32(fusion, product, config, p);
    if (auto mm = dyn_cast<MatmulOp>(product))
      return verifyTiled(fusion, mm, config);
    return fusion.emitOpError("a convolution's mma_sync body takes f32 "
                              "operands (16-bit ones run the untiled "
                              "warp_mma body or the wgmma body), not ")
           << et;
  case KernelBody::wgmma:
    return verifyWgmma(fusion, product, config, p);
  }
  llvm_unreachable("every KernelBody is verified");
}

/// The untiled and f32 bodies compute a grouped convolution's groups as
/// batches, the wgmma body as columns side by side.
FailureOr<Grid> mlir::brrr::productGrid(FusionOp fusion,
                                        KernelConfigAttr config) {
  Operation *product = tensorCoreProductOf(fusion);
  if (!product || isa<AttentionOp>(product))
    return fusion.emitOpError("product kernels hold a matmul or a conv2d");
  ProductShape p = shapeOnBody(product, config.getBody());
  Grid g;
  switch (config.getBody()) {
  case KernelBody::simt:
    // The few-rows body (verifyProduct): a warp a column.
    if (!isa<MatmulOp>(product) || config.getTile().size() != 2)
      return fusion.emitOpError("a convolution's simt body is its family's");
    // Paired halves: a warp a column of the epilogue's result, from a
    // column of each half.
    g.x = llvm::divideCeil(p.pairedHalves ? p.N / 2 : p.N, config.getTile()[1]);
    break;
  case KernelBody::warp_mma:
    // The few-rows body on Tensor Cores: a block its columns, every row
    // (paired halves: half of them from each half, as many blocks).
    if (config.getTile().size() == 2) {
      g.x = llvm::divideCeil(p.N, config.getTile()[1]);
      break;
    }
    g.x = llvm::divideCeil(p.N, 8);
    g.y = llvm::divideCeil(p.M, 16);
    g.z = p.batches;
    if (p.rowsExtent)
      g.atRunY = p.rowsExtent.ceilDiv(16);
    break;
  case KernelBody::mma_sync: {
    // f32 operands: the staged tf32 body, whose tiles may split over a
    // cluster; 16-bit ones: the tiled body, one block a tile.
    int64_t m = config.getTile()[0], n = config.getTile()[1];
    int64_t split = isF32Product(fusion) ? config.getCluster() : 1;
    g.x = llvm::divideCeil(p.N, n) * split;
    g.y = llvm::divideCeil(p.M, m);
    g.z = p.batches;
    if (p.rowsExtent)
      g.atRunY = p.rowsExtent.ceilDiv(m);
    break;
  }
  case KernelBody::wgmma: {
    int64_t m = config.getTile()[0], n = config.getTile()[1];
    int64_t split = config.getCluster();
    int64_t tilesN = wgmmaColumnTiles(product, p, n);
    int64_t tilesPerBatch = llvm::divideCeil(p.M, m) * tilesN;
    if (int64_t persistent = config.getPersistent()) {
      // Stream-K blocks split the slices: every one has some, even where
      // the tiles are fewer.
      g.x = config.getStreamK()
                ? persistent
                : std::min(persistent, tilesPerBatch * p.batches);
      if (p.rowsExtent)
        g.atRunX = getAffineConstantExpr(g.x, fusion.getContext());
    } else {
      g.x = tilesPerBatch * split;
      g.z = p.batches;
      if (p.rowsExtent)
        g.atRunX = p.rowsExtent.ceilDiv(m) * (tilesN * split);
    }
    break;
  }
  }
  g.atRunZ = p.batchesExtent;
  return g;
}

/// A staged matmul (or implicit-GEMM convolution) streams k-slices of A and
/// B through `stages` buffer pairs, all alive for the whole main loop (phase
/// 0); the wgmma body's slices start on 1024-byte swizzle boundaries, with
/// its mbarriers beside them, and its epilogue stages the f32 tile (phase 1)
/// over the slices, or column chunks of it beside them.
LogicalResult mlir::brrr::productBuffers(FusionOp fusion,
                                         KernelConfigAttr config,
                                         SmallVectorImpl<SharedBuffer> &buffers,
                                         int64_t &slack) {
  // The few-rows body on Tensor Cores: each warp's sums of the block's
  // [rows, columns] tile, added up after the main loop.
  if (config.getBody() == KernelBody::warp_mma &&
      config.getTile().size() == 2) {
    buffers.push_back({SharedRole::partials, 0,
                       4 * config.getThreads() / 32 * config.getTile()[0] *
                           config.getTile()[1],
                       16, 0, 0});
    return success();
  }
  std::optional<MatmulTile> tile =
      MatmulTile::of(config, MatmulTile::elementBytesOf(fusion));
  if (!tile)
    return success();
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
  return success();
}
