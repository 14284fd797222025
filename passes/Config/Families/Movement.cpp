//===- Movement.cpp - the data-movement family's rules -------------------===//
//
// A tree of transposes, slices, pads, expands, reshapes and concatenations
// in 16-byte vectors runs as a pointwise kernel; a transpose of two
// dimension groups moves through shared tiles; gathers, scatters and the
// rest take an element a thread.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Movement.h"
#include "passes/Config/Families.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// A tree of vectors names the vectors a thread computes, one or more; a
/// transpose through shared tiles its tile; the rest (gathers, scatters,
/// trees of other element types) take an element a thread.
FailureOr<KernelConfigAttr> chooseMovement(FusionOp fusion,
                                           const ConfigOptions &) {
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
  KernelConfigAttr config =
      simtConfig(fusion.getContext(), KernelFamily::movement, threads, tile,
                 std::max<int64_t>(vector, 1));
  if (vector)
    recordUnrollVariants(fusion, config, {1});
  return config;
}

/// Vectors a thread only for a tree of index maps and concatenations (as a
/// pointwise kernel's), shared tiles only for a tiled transpose.
LogicalResult verifyMovement(FusionOp fusion, KernelConfigAttr config) {
  ArrayRef<int64_t> tile = config.getTile();
  if (tile.size() == 1) {
    if (!movementVectorWidth(fusion))
      return fusion.emitOpError("only a tree of index maps and "
                                "concatenations moves vectors");
    return verifyPointwise(fusion, config);
  }
  if (tile.size() == 2 && !isTiledTransposeKernel(fusion))
    return fusion.emitOpError("only a transpose of two groups of "
                              "dimensions of at least 32 moves through "
                              "shared tiles");
  return success();
}

/// A tree of vectors (`tile = [vectors]`) runs as a pointwise kernel; a
/// transpose of [B][R][S] through shared tiles (`tile = [edge, rows]`) a
/// block a tile of each batch; the rest a thread an element of the last
/// op's result.
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

} // namespace

const FamilyRules mlir::brrr::kMovementRules = {chooseMovement, verifyMovement,
                                                movementGrid, nullptr};
