//===- Launch.cpp - every kernel's launch grid, from its config ----------===//
//
// One function per family (and Tensor Core body) gives the grid its code
// generator lays the work over: blocks along x, y and z at the largest
// shape in range, and where an extent is symbolic, the same count as an
// expression of the module's symbols (read at launch).
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Launch.h"
#include "passes/Config/Attention.h"
#include "passes/Config/Movement.h"
#include "passes/Config/Products.h"
#include "passes/Config/Rows.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// A launch grid: blocks along x, y and z at the largest shape, and the
/// expressions of those that are read at run time (null where fixed).
struct Grid {
  int64_t x = 1, y = 1, z = 1;
  AffineExpr atRunX, atRunY, atRunZ;
};

/// A pointwise kernel (and a tree of data movement in vectors, which runs
/// as one): `tile` vectors of `vector` elements a thread, over the first
/// result's elements.
Grid pointwiseGrid(FusionOp fusion, KernelConfigAttr config) {
  auto symbolicType = cast<RankedTensorType>(fusion.getResult(0).getType());
  AffineExpr elements =
      isSymbolic(symbolicType) ? elementCountOf(symbolicType) : AffineExpr();
  int64_t numel = 1;
  for (int64_t d : largestShapeOf(fusion.getResult(0)))
    numel *= d;
  int64_t vec = config.getVector(), threads = config.getThreads();
  int64_t unroll = config.getTile().empty() ? 1 : config.getTile()[0];
  Grid g;
  g.x = llvm::divideCeil(numel / vec, threads * unroll);
  if (elements)
    g.atRunX = elements.ceilDiv(vec * threads * unroll);
  return g;
}

/// A data-movement kernel: a tree of vectors (`tile = [vectors]`) runs as a
/// pointwise kernel; a transpose of [B][R][S] through shared tiles (`tile
/// = [edge, rows]`) a block a tile of each batch; the rest a thread an
/// element of the last op's result.
FailureOr<Grid> movementGrid(FusionOp fusion, KernelConfigAttr config) {
  ArrayRef<int64_t> tile = config.getTile();
  if (tile.size() == 1)
    return pointwiseGrid(fusion, config);
  Block &body = fusion.getBody().front();
  if (body.without_terminator().empty())
    return fusion.emitOpError("movement kernels hold at least one op");
  Operation *op = &*std::prev(body.without_terminator().end());
  Grid g;
  if (tile.size() == 2) {
    auto t = dyn_cast<TransposeOp>(op);
    std::optional<std::array<int64_t, 3>> brs =
        t ? batchedTransposeOf(t) : std::nullopt;
    if (!brs)
      return fusion.emitOpError("a movement kernel of shared tiles holds a "
                                "transpose of two groups of dimensions");
    auto [B, R, S] = *brs;
    g.x = llvm::divideCeil(S, tile[0]) * llvm::divideCeil(R, tile[0]);
    g.z = B;
    // Over a symbolic outer run, which lies in B: the actual batches.
    if (auto in = t.getInput().getType(); isSymbolic(in))
      g.atRunZ = elementCountOf(in).floorDiv(R * S);
    return g;
  }
  int64_t numel = 1;
  for (int64_t d : largestShapeOf(op->getResult(0)))
    numel *= d;
  int64_t threads = config.getThreads();
  g.x = llvm::divideCeil(numel, threads);
  if (auto out = cast<RankedTensorType>(op->getResult(0).getType());
      isSymbolic(out))
    g.atRunX = elementCountOf(out).ceilDiv(threads);
  return g;
}

/// A row kernel: one block a row, or the config's packed rows a block.
FailureOr<Grid> rowGrid(FusionOp fusion, KernelConfigAttr config) {
  FailureOr<RowGeometry> geometry =
      rowGeometryOf(fusion, config.getThreads(), rowLanesOf(config));
  if (failed(geometry))
    return failure();
  Grid g;
  g.x = llvm::divideCeil(geometry->rows, geometry->rowsPerBlock());
  if (geometry->rowsExtent)
    g.atRunX = geometry->rowsExtent.ceilDiv(geometry->rowsPerBlock());
  return g;
}

/// A general reduction: one thread an output, a block an output
/// (cooperative: tile [threads]), or split rows (tile [lanes, groups]):
/// a block per `lanes` vectors of one outer index's inner elements.
FailureOr<Grid> reduceGrid(FusionOp fusion, KernelConfigAttr config) {
  Block &body = fusion.getBody().front();
  auto red = dyn_cast<ReduceOp>(&body.front());
  if (!red)
    return fusion.emitOpError("reduce kernels start with a reduction of their "
                              "first input");
  // Over a symbolic outer run: the actual outer indices' or outputs' blocks.
  ReduceExtents symbolic = symbolicExtentsOf(red);
  LargestShapeView largest(fusion);
  Grid g;
  ArrayRef<int64_t> tile = config.getTile();
  if (tile.size() == 2) {
    std::optional<SplitRows> shape = SplitRows::shapeOf(red);
    if (!shape)
      return red.emitOpError("a split-rows reduction keeps its innermost "
                             "axis and reduces one run of axes before it");
    int64_t chunkBlocks =
        llvm::divideCeil(shape->inner / config.getVector(), tile[0]);
    g.x = std::max<int64_t>(shape->outer * chunkBlocks, 1);
    if (symbolic.outer)
      g.atRunX = symbolic.outer * chunkBlocks;
    return g;
  }
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(red.getInput().getType()).getShape();
  int64_t outputs = 1;
  for (auto [d, extent] : llvm::enumerate(shape))
    if (!llvm::is_contained(red.getAxes(), int64_t(d)))
      outputs *= extent;
  bool cooperative = !tile.empty();
  int64_t threads = config.getThreads();
  g.x = cooperative ? std::max<int64_t>(outputs, 1)
                    : std::max<int64_t>(llvm::divideCeil(outputs, threads), 1);
  if (symbolic.outputs)
    g.atRunX =
        cooperative ? symbolic.outputs : symbolic.outputs.ceilDiv(threads);
  return g;
}

/// A pool: a thread a vector of output channels (one element without a
/// vector).
FailureOr<Grid> poolGrid(FusionOp fusion, KernelConfigAttr config) {
  Operation *pool = &fusion.getBody().front().front();
  if (!isa<MaxPool2DOp, AvgPool2DOp>(pool))
    return fusion.emitOpError("pool kernels start with a 2-D pooling op");
  auto symbolicOut = cast<RankedTensorType>(pool->getResult(0).getType());
  int64_t total = 1;
  for (int64_t d : largestShapeOf(pool->getResult(0)))
    total *= d;
  int64_t vec = config.getVector(), threads = config.getThreads();
  Grid g;
  g.x = llvm::divideCeil(total / vec, threads);
  if (isSymbolic(symbolicOut))
    g.atRunX = elementCountOf(symbolicOut).floorDiv(vec).ceilDiv(threads);
  return g;
}

/// A direct convolution: a thread a vector of channels (of `pixels` output
/// pixels along a row, channels-last depthwise) or one output element.
Grid directConvGrid(Conv2DOp conv, KernelConfigAttr config) {
  ConvGemm c = ConvGemm::shapeOf(conv);
  int64_t vec = config.getVector(), threads = config.getThreads();
  int64_t pixels = config.getTile().empty() ? 1 : config.getTile()[0];
  int64_t total =
      vec > 1 ? c.N * c.OH * llvm::divideCeil(c.OW, pixels) * (c.O / vec)
              : c.N * c.O * c.OH * c.OW / vec;
  Grid g;
  g.x = llvm::divideCeil(total, threads);
  if (c.batchExtent)
    g.atRunX = (c.batchExtent * (total / c.N)).ceilDiv(threads);
  return g;
}

/// An attention kernel: a block a tile of query rows of one head of one
/// batch.
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

/// A product on plain warps (warp_mma: a warp a 16 x 8 output tile), a
/// staged block tile (mma_sync: a block a tile, over the blocks of a
/// cluster where its k-slices are split) or TMA + wgmma (a block a tile
/// of each batch, over a cluster's blocks where split; persistent: the
/// config's blocks, at most one a tile, walk every batch's tiles). The
/// untiled and f32 bodies compute a grouped convolution's groups as
/// batches, the wgmma body as columns side by side.
FailureOr<Grid> productGrid(FusionOp fusion, KernelConfigAttr config) {
  Operation *product = tensorCoreProductOf(fusion);
  if (!product || isa<AttentionOp>(product))
    return fusion.emitOpError("product kernels hold a matmul or a conv2d");
  ProductShape p;
  if (auto mm = dyn_cast<MatmulOp>(product)) {
    p = productOperandsOf(mm).shape;
  } else {
    auto conv = cast<Conv2DOp>(product);
    ConvGemm c = ConvGemm::shapeOf(conv);
    if (config.getBody() == KernelBody::simt)
      return directConvGrid(conv, config);
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

FailureOr<Grid> gridOf(FusionOp fusion, KernelConfigAttr config) {
  switch (fusion.getKind()) {
  case KernelFamily::pointwise:
    return pointwiseGrid(fusion, config);
  case KernelFamily::movement:
    return movementGrid(fusion, config);
  case KernelFamily::row:
    return rowGrid(fusion, config);
  case KernelFamily::reduce:
    return reduceGrid(fusion, config);
  case KernelFamily::pool:
    return poolGrid(fusion, config);
  case KernelFamily::attention:
    return attentionGrid(fusion, config);
  case KernelFamily::matmul:
  case KernelFamily::conv:
    return productGrid(fusion, config);
  }
  return fusion.emitOpError("has no launch grid for its family");
}

} // namespace

FailureOr<KernelConfigAttr>
mlir::brrr::withLaunchGrid(FusionOp fusion, KernelConfigAttr config) {
  FailureOr<Grid> g = gridOf(fusion, config);
  if (failed(g))
    return failure();
  AffineMapAttr extents;
  if (g->atRunX || g->atRunY || g->atRunZ) {
    MLIRContext *ctx = fusion.getContext();
    auto orFixed = [&](AffineExpr e, int64_t blocks) {
      return e ? e : getAffineConstantExpr(blocks, ctx);
    };
    extents = AffineMapAttr::get(
        AffineMap::get(0, dimsOf(fusion).size(),
                       {orFixed(g->atRunX, g->x), orFixed(g->atRunY, g->y),
                        orFixed(g->atRunZ, g->z)},
                       ctx));
  }
  return config.withGrid({g->x, g->y, g->z}, extents);
}

LogicalResult mlir::brrr::verifyLaunchGrid(FusionOp fusion,
                                           KernelConfigAttr config) {
  FailureOr<KernelConfigAttr> derived = withLaunchGrid(fusion, config);
  if (failed(derived))
    return failure();
  if (*derived == config)
    return success();
  return fusion.emitOpError("kernel config ")
         << config
         << " does not record the launch grid its decisions give: " << *derived;
}
