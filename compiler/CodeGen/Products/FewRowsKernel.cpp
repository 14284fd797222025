//===- FewRowsKernel.cpp - products of a few rows, a warp a column --------===//
//
// The few-rows body (FewRowsKernel.h): block b's warp w computes column
// o = b * columns-per-block + w for every row. Its lanes read the column's
// weights and each row's inputs in vectors (consecutive lanes, consecutive
// vectors: a warp reads 32 vectors of one row at a time), accumulate in
// f32 (the element type's compute type), and sum across the warp with
// butterfly shuffles; lane r then adds the bias, runs the fused pointwise
// epilogue and stores row r's element, at r * columns + o. Over symbolic
// rows the kernel is a range's: a tile of the range's largest rows, the
// actual ones a parameter.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/FewRowsKernel.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Passes over the depth (32 vectors each) up to which the loop is
/// unrolled.
constexpr int64_t kMaxUnrolledPasses = 16;

/// Passes whose weight vectors a lane loads together, before it multiplies
/// any (a classifier's 4096 x 9216 weights stream at the memory's rate
/// only with several vectors a lane in flight); a loop iteration over a
/// deeper product makes one such group.
constexpr int64_t kPassesPerIteration = 8;

} // namespace

FewRowsFrame::FewRowsFrame(FusionOp fusion, const FewRowsSpec &spec,
                           OpBuilder &moduleBuilder, StringRef name,
                           int64_t threads)
    : fusion(fusion), spec(spec), name(name.str()), threads(threads),
      b(fusion.getContext()) {
  unsigned numInputs = fusion.getInputs().size();
  unsigned numBuffers = numInputs + fusion.getNumResults();
  bool symbolic = bool(spec.rowsExtent);
  auto func = createKernel(moduleBuilder, fusion.getLoc(), name, numBuffers,
                           threads, /*numByValue=*/0,
                           /*numScalars=*/symbolic ? 1 : 0);
  entry = &func.getBody().front();
  b.setInsertionPointToStart(entry);
  if (symbolic)
    actualRows = indexArgument(b, fusion.getLoc(), *entry, numBuffers);
  auto results = entry->getArguments().slice(numInputs, fusion.getNumResults());
  outputs.assign(results.begin(), results.end());
}

LogicalResult FewRowsFrame::store(Value sum, Value r, Value n, Value partner) {
  Location loc = fusion.getLoc();
  IndexMath e{b, loc};
  if (spec.pairedColumns && (spec.bias || !partner))
    return spec.product->emitOpError(
        "pairs the halves of its columns: the few-rows body takes one "
        "element of each half and no bias");
  if (Value bias = spec.bias) {
    Type bt = getElementTypeOrSelf(bias.getType());
    sum = arith::AddFOp::create(b, loc, sum,
                                loadElements(b, loc, arg(bias), bt, n)[0]);
  }
  return emitEpilogue(
      b, loc, fusion, spec.product, sum,
      e.add(e.mul(r, spec.outputColumns()), n), [&](Value v) { return arg(v); },
      outputs, nullptr, partner);
}

void FewRowsFrame::weightsLoaded() {
  if (marked)
    return;
  marked = true;
  // Not within a loop over the depth, whose next pass reads inputs before
  // these loads. The last op is the one before the insertion point (a
  // conditional's block ends in its terminator).
  Block *block = b.getInsertionBlock();
  Block::iterator at = b.getInsertionPoint();
  Value outer =
      fusion.getInputs()[cast<BlockArgument>(spec.weight).getArgNumber()];
  if (viewedRootOf(outer).getDefiningOp<ConstantOp>() && at != block->begin() &&
      !isa<scf::ForOp>(block->getParentOp()))
    independentThrough = &*std::prev(at);
}

KernelInfo FewRowsFrame::finish() {
  b.setInsertionPointToEnd(entry);
  gpu::ReturnOp::create(b, fusion.getLoc());
  KernelInfo info;
  info.name = name;
  info.block = threads;
  info.flops = 2 * spec.rows * spec.columns * spec.depth;
  info.bytes = fusionBytes(fusion);
  if (spec.rowsExtent)
    info.scalars = {spec.rowsExtent};
  info.independentThrough = independentThrough;
  return info;
}

FailureOr<KernelInfo> mlir::brrr::emitFewRowsKernel(FusionOp fusion,
                                                    const FewRowsSpec &spec,
                                                    OpBuilder &moduleBuilder,
                                                    StringRef name) {
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  Location loc = fusion.getLoc();
  // N: the epilogue's result's columns, one a warp (paired halves: from
  // a column of each half, `halves` sums a row).
  int64_t rows = spec.rows, N = spec.outputColumns(), K = spec.depth;
  int64_t halves = spec.pairedColumns ? 2 : 1;
  int64_t vec = config->getVector(), threads = config->getThreads();
  int64_t perBlock = config->getTile()[1];
  Type et = getElementTypeOrSelf(spec.input.getType());
  Type wt = getElementTypeOrSelf(spec.weight.getType());
  Type ct = pointwise::computeType(et);

  FewRowsFrame frame(fusion, spec, moduleBuilder, name, threads);
  OpBuilder &b = frame.b;
  IndexMath e{b, loc};
  bool symbolic = bool(spec.rowsExtent);
  Value actualRows = frame.actualRows;
  auto arg = [&](Value v) { return frame.arg(v); };
  pointwise::PointwiseEmitter pe(b, loc);

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = e.rem(tid, 32);
  Value o =
      e.add(e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), perBlock),
            e.div(tid, 32));
  // A warp past the last column computes nothing; the test is the same
  // for the whole warp, so the shuffles below see whole warps.
  auto inside = scf::IfOp::create(b, loc, e.ult(o, N), false);
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  Value input = arg(spec.input), weight = arg(spec.weight);
  SmallVector<Value> wRows = {spec.weightAt(e, o)};
  if (spec.pairedColumns)
    wRows.push_back(spec.weightAt(e, e.add(o, e.idx(spec.pairedColumns))));
  SmallVector<Value> xRows;
  for (int64_t r = 0; r < rows; ++r) {
    Value at = spec.inputAt(e, r, o);
    // Past the actual rows: row 0's inputs, whose sums are never stored.
    if (symbolic && r > 0)
      at = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, e.idx(r),
                                actualRows),
          at, spec.inputAt(e, 0, o));
    xRows.push_back(at);
  }

  // Passes over the depth in groups: the group's weight vectors loaded
  // first, all in flight together, then each pass adds row r's elements
  // k .. k + vec - 1 times column h's weights to acc[h * rows + r], where
  // k = k0 + vec * lane lies in the depth (whole vectors: vec divides K).
  int64_t span = 32 * vec;
  auto group = [&](Value k0, int64_t passes, MutableArrayRef<Value> acc) {
    SmallVector<Value> valid, safe;
    SmallVector<SmallVector<Value>> w;
    for (int64_t p = 0; p < passes; ++p) {
      Value k = e.add(e.add(k0, e.idx(p * span)), e.mul(lane, vec));
      valid.push_back(e.ult(k, K));
      safe.push_back(
          arith::SelectOp::create(b, loc, valid.back(), k, e.idx(0)));
      for (Value wRow : wRows)
        w.push_back(
            loadElements(b, loc, weight, wt, e.add(wRow, safe.back()), vec));
    }
    frame.weightsLoaded();
    for (int64_t p = 0; p < passes; ++p)
      for (int64_t r = 0; r < rows; ++r) {
        SmallVector<Value> x =
            loadElements(b, loc, input, et, e.add(xRows[r], safe[p]), vec);
        for (int64_t h = 0; h < halves; ++h) {
          Value &a = acc[h * rows + r];
          Value sum = a;
          for (int64_t j = 0; j < vec; ++j)
            sum = math::FmaOp::create(b, loc, x[j], w[p * halves + h][j], sum);
          // Past the depth: nothing added (the clamped loads' values,
          // finite or not, are dropped).
          a = arith::SelectOp::create(b, loc, valid[p], sum, a);
        }
      }
  };
  SmallVector<Value> acc(rows * halves, pe.cst(ct, 0));
  int64_t passes = llvm::divideCeil(K, span);
  int64_t looped = passes <= kMaxUnrolledPasses
                       ? 0
                       : passes / kPassesPerIteration * kPassesPerIteration;
  if (looped) {
    int64_t step = kPassesPerIteration * span;
    auto loop = scf::ForOp::create(b, loc, e.idx(0), e.idx(looped * span),
                                   e.idx(step), acc);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> carried(loop.getRegionIterArgs());
    group(loop.getInductionVar(), kPassesPerIteration, carried);
    scf::YieldOp::create(b, loc, carried);
    b.setInsertionPointAfter(loop);
    acc.assign(loop.getResults().begin(), loop.getResults().end());
  }
  for (int64_t p = looped; p < passes; p += kPassesPerIteration)
    group(e.idx(p * span), std::min(kPassesPerIteration, passes - p), acc);
  // Every lane ends with every row's sum.
  for (Value &a : acc)
    for (int32_t offset = 16; offset >= 1; offset /= 2) {
      auto shuffle =
          gpu::ShuffleOp::create(b, loc, a, offset, 32, gpu::ShuffleMode::XOR);
      a = arith::AddFOp::create(b, loc, a, shuffle.getShuffleResult());
    }
  // Lane r stores row r (of each half).
  SmallVector<Value> mine;
  for (int64_t h = 0; h < halves; ++h) {
    mine.push_back(acc[h * rows]);
    for (int64_t r = 1; r < rows; ++r)
      mine[h] = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                e.idx(r)),
          acc[h * rows + r], mine[h]);
  }
  Value stores = e.ult(lane, rows);
  if (symbolic)
    stores = arith::AndIOp::create(
        b, loc, stores,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane,
                              actualRows));
  auto store = scf::IfOp::create(b, loc, stores, false);
  b.setInsertionPointToStart(&store.getThenRegion().front());
  if (failed(frame.store(mine[0], lane, o, halves > 1 ? mine[1] : Value())))
    return failure();
  return frame.finish();
}
