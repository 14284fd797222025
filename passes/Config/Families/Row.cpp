//===- Row.cpp - the row family's rules ----------------------------------===//
//
// Softmax, layer norm and trailing reductions, with their prologues and
// epilogues: a block a row, or packed narrow rows a block (RowGeometry,
// passes/Fusion/FuseRows.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Families.h"
#include "passes/Config/Rows.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// The preferred geometry's threads and vectors; packed rows record
/// `[rows a block, lanes]` as the tile.
FailureOr<KernelConfigAttr> chooseRow(FusionOp fusion, const ConfigOptions &) {
  FailureOr<RowGeometry> g = rowGeometryOf(fusion);
  if (failed(g))
    return failure();
  SmallVector<int64_t> tile;
  if (g->lanes != g->threads)
    tile = {g->rowsPerBlock(), g->lanes};
  return simtConfig(fusion.getContext(), KernelFamily::row, g->threads, tile,
                    g->vec);
}

/// A geometry of the config's threads and lanes, whose vectors are the
/// config's.
LogicalResult verifyRow(FusionOp fusion, KernelConfigAttr config) {
  FailureOr<RowGeometry> g =
      rowGeometryOf(fusion, config.getThreads(), rowLanesOf(config));
  if (failed(g))
    return failure();
  if (g->vec != config.getVector())
    return fusion.emitOpError("a row kernel of ")
           << config.getThreads() << " threads reads vectors of " << g->vec
           << ", not " << config.getVector();
  return success();
}

/// One block a row, or the config's packed rows a block.
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

/// A row kernel's block reduction goes through one f32 per warp. Phase k
/// is reduction k: its scratch is written there and read until every
/// thread reaches the barrier of reduction k + 1, so scratch k and k + 1
/// overlap in time and k + 2 may reuse k's bytes. Packed rows reduce within
/// their lanes, by shuffles alone.
LogicalResult rowBuffers(FusionOp fusion, KernelConfigAttr config,
                         SmallVectorImpl<SharedBuffer> &buffers, int64_t &) {
  FailureOr<RowGeometry> g =
      rowGeometryOf(fusion, config.getThreads(), rowLanesOf(config));
  if (failed(g))
    return failure();
  int64_t warps = g->threads / 32;
  if (warps > 1 && g->lanes == g->threads)
    for (int64_t k = 0; k < g->reductions; ++k)
      buffers.push_back({SharedRole::reduction, k, warps * 4, 16, k, k + 1});
  return success();
}

} // namespace

const FamilyRules mlir::brrr::kRowRules = {chooseRow, verifyRow, rowGrid,
                                           rowBuffers};
