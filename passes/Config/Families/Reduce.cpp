//===- Reduce.cpp - the general reductions' rules ------------------------===//
//
// Reductions that are not a row kernel's: one thread an output, a block an
// output, or split rows (SplitRows, passes/Config/Rows.h), their rows over
// a cluster where one block each would leave the GPU idle.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Families.h"
#include "passes/Config/Products.h"
#include "passes/Config/Rows.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Threads per block of the general reductions.
constexpr int64_t kReduceThreads = 256;

/// The blocks of a cluster a split-rows reduction splits its rows over: a
/// sum or mean over a static input whose blocks leave most
/// multiprocessors idle (a squeeze-and-excitation block's pool at batch 1:
/// 75 x 75 rows of 144 channels in one block took 8 us) splits them over
/// up to 8 blocks, as many as keep one wave and leave each thread four
/// rows or more, and block 0 sums the blocks' partials through
/// distributed shared memory.
int64_t splitRowsCluster(ReduceOp red, const SplitRows &split,
                         TargetAttr target) {
  ReduceKind kind = red.getKind();
  if (!target.has(TargetFeature::clusters) ||
      isSymbolic(red.getInput().getType()) ||
      (kind != ReduceKind::sum && kind != ReduceKind::mean) ||
      !isa<FloatType>(
          cast<RankedTensorType>(red.getInput().getType()).getElementType()))
    return 1;
  int64_t sms = target.getMultiprocessors();
  int64_t blocks = split.outer * llvm::divideCeil(split.chunks(), split.lanes);
  for (int64_t s : {8, 4, 2})
    if (blocks * s <= clusterWave(sms, s) && split.rows >= s * split.groups * 4)
      return s;
  return 1;
}

/// One thread per output walks its reduced elements unless that leaves the
/// GPU idle: with at least a block's worth of elements per output, and few
/// outputs or a reduced innermost axis (so that the block's walk is
/// coalesced), a block cooperates on each output. (T5's f16 export reduces
/// a whole activation to one flag: one thread took 1.1 ms for 64 Ki
/// elements.)
FailureOr<KernelConfigAttr> chooseReduce(FusionOp fusion,
                                         const ConfigOptions &options) {
  MLIRContext *ctx = fusion.getContext();
  KernelConfigAttr perThread =
      simtConfig(ctx, KernelFamily::reduce, kReduceThreads, {}, 1);
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
        {split->lanes, split->groups}, 0, split->vector,
        splitRowsCluster(red, *split, options.target), KernelPrecision::exact,
        0, 0, KernelSchedule::cooperative, 1, false, {}, {});
  if (count < kReduceThreads || outputs == 0 || outputs > 65536 ||
      (!innermost && outputs >= 1024))
    return perThread;
  return simtConfig(ctx, KernelFamily::reduce, kReduceThreads, {kReduceThreads},
                    1);
}

/// Split rows over a shape SplitRows describes, in vectors that divide its
/// innermost axis; symbolic rows only so, in one block.
LogicalResult verifyReduce(FusionOp fusion, KernelConfigAttr config) {
  auto red = dyn_cast<ReduceOp>(&fusion.getBody().front().front());
  if (red && reducesSymbolicRows(red) &&
      (config.getTile().size() != 2 || config.getCluster() > 1))
    return red.emitOpError("symbolic rows reduce in split rows (tile "
                           "[lanes, groups]), one block an outer index's "
                           "vectors");
  if (config.getTile().size() != 2)
    return success();
  std::optional<SplitRows> shape =
      red ? SplitRows::shapeOf(red, reducesSymbolicRows(red)) : std::nullopt;
  if (!red)
    return fusion.emitOpError("reduce kernels start with a reduction of their "
                              "first input");
  if (!shape || shape->inner % config.getVector())
    return red.emitOpError("a split-rows reduction keeps its innermost axis "
                           "(or reduces symbolic rows up to it), reduces one "
                           "run of axes before it and reads vectors that "
                           "divide the innermost axis");
  return success();
}

/// One thread an output, a block an output (cooperative: tile [threads]),
/// or split rows (tile [lanes, groups]): a block per `lanes` vectors of one
/// outer index's inner elements, or a cluster of `cluster` blocks.
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
    std::optional<SplitRows> shape =
        SplitRows::shapeOf(red, /*toInnermost=*/bool(symbolic.rows));
    if (!shape)
      return red.emitOpError("a split-rows reduction keeps its innermost "
                             "axis and reduces one run of axes before it");
    int64_t chunkBlocks =
        llvm::divideCeil(shape->inner / config.getVector(), tile[0]);
    int64_t cluster = config.getCluster();
    if (cluster > 1 && symbolic.outer)
      return red.emitOpError("a split-rows reduction over a symbolic outer "
                             "run keeps its rows in one block");
    g.x = std::max<int64_t>(shape->outer * chunkBlocks, 1) * cluster;
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

/// A cooperative reduction combines the block's partial results in a tree
/// over one 8-byte slot per thread (f32, i32 or i64); a split-rows one over
/// a vector per thread, of at most 16 bytes of elements held in a compute
/// type up to twice as wide.
LogicalResult reduceBuffers(FusionOp, KernelConfigAttr config,
                            SmallVectorImpl<SharedBuffer> &buffers, int64_t &) {
  if (config.getTile().size() == 2)
    buffers.push_back(
        {SharedRole::partials, 0, config.getThreads() * 32, 16, 0, 0});
  else if (!config.getTile().empty())
    buffers.push_back(
        {SharedRole::partials, 0, config.getThreads() * 8, 16, 0, 0});
  return success();
}

} // namespace

const FamilyRules mlir::brrr::kReduceRules = {chooseReduce, verifyReduce,
                                              reduceGrid, reduceBuffers};
