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
  return KernelConfigAttr::get(
      fusion.getContext(), family, KernelBody::mma_sync,
      tile->f32Threads(warpRows), {tile->m, tile->n, tile->k}, tile->stages, 1,
      tile->cluster, precision, 0, 0, KernelSchedule::cooperative, {}, {});
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
  if (options.overlap && hasHalfResult(product))
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
  return KernelConfigAttr::get(
      fusion.getContext(), fusion.getKind(), KernelBody::warp_mma, 32, {}, 0, 1,
      1, KernelPrecision::exact, 0, 0, KernelSchedule::cooperative, {}, {});
}

void mlir::brrr::recordRowVariants(
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

/// The untiled and f32 bodies compute a grouped convolution's groups as
/// batches, the wgmma body as columns side by side.
FailureOr<Grid> mlir::brrr::productGrid(FusionOp fusion,
                                        KernelConfigAttr config) {
  Operation *product = tensorCoreProductOf(fusion);
  if (!product || isa<AttentionOp>(product))
    return fusion.emitOpError("product kernels hold a matmul or a conv2d");
  ProductShape p;
  if (auto mm = dyn_cast<MatmulOp>(product)) {
    p = productOperandsOf(mm).shape;
  } else {
    ConvGemm c = ConvGemm::shapeOf(cast<Conv2DOp>(product));
    p = c.product();
    if (config.getBody() == KernelBody::wgmma) {
      p.N = c.O;
      p.batches = 1;
    }
  }
  Grid g;
  switch (config.getBody()) {
  case KernelBody::simt:
    return fusion.emitOpError("a matmul kernel runs a Tensor Core body");
  case KernelBody::warp_mma:
    g = {llvm::divideCeil(p.N, 8), llvm::divideCeil(p.M, 16), p.batches};
    if (p.rowsExtent)
      g.atRunY = p.rowsExtent.ceilDiv(16);
    break;
  case KernelBody::mma_sync: {
    // f32 operands: the staged tf32 body, whose tiles may split over a
    // cluster; 16-bit ones: the tiled body, one block a tile.
    int64_t m = config.getTile()[0], n = config.getTile()[1];
    int64_t split = isF32Product(fusion) ? config.getCluster() : 1;
    g = {llvm::divideCeil(p.N, n) * split, llvm::divideCeil(p.M, m), p.batches};
    if (p.rowsExtent)
      g.atRunY = p.rowsExtent.ceilDiv(m);
    break;
  }
  case KernelBody::wgmma: {
    int64_t m = config.getTile()[0], n = config.getTile()[1];
    int64_t split = config.getCluster();
    int64_t tilesN = llvm::divideCeil(p.N, n);
    int64_t tilesPerBatch = llvm::divideCeil(p.M, m) * tilesN;
    if (int64_t persistent = config.getPersistent()) {
      g.x = std::min(persistent, tilesPerBatch * p.batches);
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
