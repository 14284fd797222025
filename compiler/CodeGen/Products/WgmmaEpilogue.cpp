//===- WgmmaEpilogue.cpp - the Hopper body's fused epilogues --------------===//
//
// The epilogues of the wgmma body (WgmmaBody.cpp): the cooperative one,
// staged in f32 between the consumers' barriers (summed over a cluster's
// blocks when the tile is split), and the overlapped one, staged whole
// (in 16 bits, an 8-bit product's sums in f32) by the consumers and
// drained by the producer warpgroup's spare warps. Both store each lane's run
// of columns with one vector store.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/WgmmaEpilogue.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::wgmma;

namespace {

/// The columns of the epilogue's result: a half's where the epilogue
/// pairs the product's halves, else the product's N.
int64_t outputColumns(const WgmmaProblem &problem) {
  return problem.pairedColumns ? problem.pairedColumns : problem.N;
}

/// The columns that a run of consecutive ones must not straddle: a
/// group's, where groups do not fill whole tiles, else the output row's.
int64_t columnSpan(const WgmmaProblem &problem) {
  return problem.groupColumns ? problem.groupColumns : outputColumns(problem);
}

/// The first output column of the tile `at`: its first column, or in a
/// paired product (whose tiles hold n / 2 columns of each half) half of it.
Value outputColumn0(WgmmaBuilder &e, const WgmmaProblem &problem,
                    const TileAt &at) {
  return problem.pairedColumns ? e.div(at.col0, 2) : at.col0;
}

/// The i1 true of a check that cannot fail.
Value always(OpBuilder &b, Location loc) {
  return arith::ConstantIntOp::create(b, loc, 1, 1);
}

/// Whether row `row` of the tile `at` is inside the output: always where
/// the rows are static and the tile's rows divide them (the last row tile
/// ends at M), else compared with the rows.
Value rowOkAt(WgmmaBuilder &e, const WgmmaProblem &problem,
              const MatmulTile &tile, const TileAt &at, Value row) {
  if (at.rows)
    return arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::ult, row,
                                 at.rows);
  if (problem.M % tile.m == 0)
    return always(e.b, e.loc);
  return e.ult(row, problem.M);
}

/// Whether the tile `at` stores output column `col`: inside its group's
/// columns, or the output's; always where no group ends inside a tile and
/// the tiles' columns (a paired product's tile holds n / 2 of each half)
/// divide the output's.
Value columnOk(WgmmaBuilder &e, const WgmmaProblem &problem,
               const MatmulTile &tile, const TileAt &at, Value col) {
  if (at.columnsEnd)
    return arith::CmpIOp::create(e.b, e.loc, arith::CmpIPredicate::ult, col,
                                 at.columnsEnd);
  int64_t n = outputColumns(problem);
  if (n % (problem.pairedColumns ? tile.n / 2 : tile.n) == 0)
    return always(e.b, e.loc);
  return e.ult(col, n);
}

/// `vec` consecutive elements of one output row, inside the output
/// together: their products (bias added; paired halves: the first half's,
/// with the second's in `partners`), their epilogue inputs, and the first
/// one's row-major position.
struct EpilogueGroup {
  Value inside, at;
  SmallVector<Value> values, partners;
  SmallVector<DenseMap<Value, Value>> inputs;
};

/// The epilogue of every group inside the output, each group's outputs in
/// one vector store (after all their inputs were loaded).
LogicalResult storeGroups(OpBuilder &b, Location loc, FusionOp fusion,
                          const WgmmaProblem &problem,
                          MutableArrayRef<EpilogueGroup> groups,
                          function_ref<Value(Value)> arg, ValueRange outputs) {
  for (EpilogueGroup &group : groups) {
    auto ifInside = scf::IfOp::create(b, loc, group.inside, false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifInside.getThenRegion().front());
    if (failed(emitEpilogueVector(b, loc, fusion, problem.product, group.values,
                                  group.at, arg, outputs, group.inputs,
                                  group.partners)))
      return failure();
  }
  return success();
}

/// Calls `store(r, c, pair)` for each f32 pair of the warpgroup's wgmma
/// accumulators `acc` in the tile's columns [`first`, `last`): accumulator
/// i sits at row 16 * warp + lane / 4 (+8 for odd pairs), column
/// 8 * (i / 4) + 2 * (lane % 4) + i % 2. `r` counts from row 64 *
/// `rowBlock` of the tile (null: the warpgroup's first row), `c` from
/// column `first`.
void forEachFragmentPair(
    WgmmaBuilder &e, Value acc, int64_t first, int64_t last, Value rowBlock,
    Value lane, Value warp,
    function_ref<void(Value r, Value c, Value pair)> store) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto pairType = VectorType::get({2}, b.getF32Type());
  Value fragRow = e.add(e.mul(warp, 16), e.div(lane, 4));
  if (rowBlock)
    fragRow = e.add(e.mul(rowBlock, 64), fragRow);
  Value fragCol = e.mul(e.rem(lane, 4), 2);
  for (int64_t i = first / 2; i < last / 2; i += 2) {
    Value r = e.add(fragRow, e.idx(8 * ((i / 2) % 2)));
    Value c = e.add(fragCol, e.idx(8 * (i / 4) - first));
    Value pair = LLVM::UndefOp::create(b, loc, pairType);
    for (int64_t h = 0; h < 2; ++h)
      pair = LLVM::InsertElementOp::create(
          b, loc, pair, LLVM::ExtractValueOp::create(b, loc, acc, i + h),
          e.i32(h));
    store(r, c, pair);
  }
}

/// The type an overlapped kernel stages its products in, of
/// MatmulTile::stagedBytes (which sizes the staging): f32 (an 8-bit
/// product's sums, INT8's converted), else the product's 16-bit result.
Type stagedTypeOf(const WgmmaProblem &problem, const MatmulTile &tile) {
  Type result = cast<ShapedType>(problem.product->getResult(0).getType())
                    .getElementType();
  return tile.stagedBytes() == 4 ? Float32Type::get(result.getContext())
                                 : result;
}

} // namespace

LogicalResult mlir::brrr::wgmma::emitWgmmaEpilogue(
    WgmmaBuilder &e, FusionOp fusion, const WgmmaProblem &problem,
    const MatmulTile &tile, const TileAt &at, Value acc, int64_t columns,
    Value smem, Value stagingBase, Value rowBlock, Value lane, Value warp,
    Value rank, function_ref<Value(Value)> arg, ValueRange outputs,
    function_ref<void()> barrier) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Type f32 = b.getF32Type();
  // N: the epilogue's result's columns. A paired product stages each
  // chunk's columns of both halves side by side, `width` of each, and
  // stores `width` output columns a chunk.
  int64_t M = problem.M, N = outputColumns(problem);
  int64_t half = problem.pairedColumns ? tile.n / 2 : 0;
  int64_t width = half ? columns / 2 : columns;
  Value col0 = outputColumn0(e, problem, at);
  int64_t pitch = wgmmaEpiloguePitch(columns);
  // Each warp loads the epilogue inputs of eight row groups before it uses
  // any: four left a residual's loads latency-bound (ResNet-50's layer-1
  // convolutions at 1.66 TB/s, 2.10 at eight; sixteen spill).
  constexpr int64_t kRowsPerStep = 8;
  // Four columns a lane where the output's rows keep them 16-byte aligned
  // in the staging and together in the output.
  int64_t vec = columnSpan(problem) % 4 != 0 ? 1 : 4;
  // Lanes a row: a power of two whose vectors tile the chunk (16 of 4 at
  // 192 columns, three passes of 64; 16 at 64 columns, two rows a warp).
  int64_t lanes = 32;
  while (width % (lanes * vec) != 0)
    lanes /= 2;
  int64_t rowsPerWarp = 32 / lanes;
  // Each warp's 16 / rowsPerWarp row groups, shared among the cluster's
  // blocks when they split the tile: block `rank` takes a run of them,
  // summing every block's staged partial tile.
  int64_t split = tile.cluster, groups = 16 / rowsPerWarp;
  if (groups % split != 0)
    return problem.product->emitOpError("a wgmma epilogue of ")
           << columns << " columns cannot share its rows between " << split
           << " blocks";
  int64_t perRank = groups / split;
  // Paired halves load two staged values an element: half the row groups
  // a step keep as many loads in flight (eight spilled at 256 columns).
  int64_t rowsPerStep = std::min(kRowsPerStep / (half ? 2 : 1), perRank);
  for (int64_t chunk = 0; chunk < tile.n / columns; ++chunk) {
    barrier();
    // The chunk's columns, or each half's `width` of them, the second
    // half's staged after the first's.
    for (int64_t part = 0; part < (half ? 2 : 1); ++part) {
      int64_t first = part * half + chunk * width;
      forEachFragmentPair(
          e, acc, first, first + width, Value(), lane, warp,
          [&](Value r, Value c, Value pair) {
            if (part)
              c = e.add(c, e.idx(width));
            Value to = e.at(
                smem, e.add(stagingBase, e.mul(e.add(e.mul(r, pitch), c), 4)));
            LLVM::StoreOp::create(b, loc, pair, to, 8);
          });
    }
    // A split tile's partials are read across the cluster: every block's
    // staging is written (release) before any is read (acquire).
    if (split > 1)
      clusterBarrier(b, loc);
    else
      barrier();
    auto rows = scf::ForOp::create(b, loc, e.idx(0),
                                   e.idx(perRank / rowsPerStep), e.idx(1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(rows.getBody());
    SmallVector<EpilogueGroup> groups;
    Value rowLane = rowsPerWarp > 1 ? e.div(lane, lanes) : Value();
    Value colLane = rowsPerWarp > 1 ? e.rem(lane, lanes) : lane;
    for (int64_t k = 0; k < rowsPerStep; ++k) {
      Value group = e.add(e.mul(rows.getInductionVar(), rowsPerStep), e.idx(k));
      if (split > 1)
        group = e.add(group, e.mul(rank, perRank));
      Value r = e.add(warp, e.mul(group, 4));
      if (rowsPerWarp > 1)
        r = e.add(e.mul(r, rowsPerWarp), rowLane);
      Value gRow = e.add(at.row0, e.add(e.mul(rowBlock, 64), r));
      Value rowOk = rowOkAt(e, problem, tile, at, gRow);
      Value safeRow = arith::SelectOp::create(b, loc, rowOk, gRow, e.idx(0));
      Value rowAt = e.add(stagingBase, e.mul(r, pitch * 4));
      // The element's row among every batch's, and its row's first index.
      Value row = e.add(e.mul(at.z, M), safeRow);
      Value outRow = e.mul(row, N);
      for (int64_t jj = 0; jj < width / (lanes * vec); ++jj) {
        // Columns c .. c + vec - 1, inside the output together (vec | N).
        Value c = e.mul(e.add(colLane, e.idx(lanes * jj)), vec);
        Value gCol = e.add(col0, chunk ? e.add(c, e.idx(chunk * width)) : c);
        Value colOk = columnOk(e, problem, tile, at, gCol);
        Value safeCol = arith::SelectOp::create(b, loc, colOk, gCol, e.idx(0));
        Value inside = arith::AndIOp::create(b, loc, rowOk, colOk);
        Value out = e.add(outRow, safeCol);
        Type stagedType = vec == 1 ? f32 : VectorType::get({vec}, f32);
        // One block's staged values, or the sum of the cluster's in block
        // order, read through distributed shared memory: of the chunk's
        // columns, or of each half's.
        auto stagedAt = [&](Value column) {
          Value staged = e.at(smem, e.add(rowAt, e.mul(column, 4)));
          Value v = split == 1 ? Value(LLVM::LoadOp::create(b, loc, stagedType,
                                                            staged, 4 * vec))
                               : sumOverCluster(b, loc, staged, stagedType,
                                                split, 4 * vec);
          SmallVector<Value> values;
          for (int64_t t = 0; t < vec; ++t)
            values.push_back(
                vec == 1 ? v
                         : LLVM::ExtractElementOp::create(b, loc, v, e.i32(t)));
          return values;
        };
        SmallVector<Value> values = stagedAt(c);
        EpilogueGroup group{inside, out, {}, {}, {}};
        if (half)
          group.partners = stagedAt(e.add(c, e.idx(width)));
        group.inputs = loadEpilogueInputs(b, loc, fusion, problem.product, out,
                                          arg, vec, row, safeCol);
        for (int64_t t = 0; t < vec; ++t)
          group.values.push_back(
              problem.addBias
                  ? problem.addBias(e, t ? e.add(safeCol, e.idx(t)) : safeCol,
                                    values[t], arg)
                  : values[t]);
        groups.push_back(std::move(group));
      }
    }
    if (failed(storeGroups(b, loc, fusion, problem, groups, arg, outputs)))
      return failure();
  }
  // No block of a split tile leaves while another still reads its staging.
  if (split > 1)
    clusterBarrier(b, loc);
  return success();
}

void mlir::brrr::wgmma::stageOverlapped(WgmmaBuilder &e,
                                        const WgmmaProblem &problem,
                                        const MatmulTile &tile, Value acc,
                                        Value smem, Value stagingBase,
                                        Value consumer, Value lane,
                                        Value warp) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int64_t pitch = wgmmaEpiloguePitch(tile.n), bytes = tile.stagedBytes();
  Type staged = stagedTypeOf(problem, tile);
  auto stagedPair = VectorType::get({2}, staged);
  forEachFragmentPair(
      e, acc, 0, tile.n, consumer, lane, warp,
      [&](Value r, Value c, Value pair) {
        Value rounded = staged.isF32()
                            ? pair
                            : arith::TruncFOp::create(b, loc, stagedPair, pair);
        Value to = e.at(
            smem, e.add(stagingBase, e.mul(e.add(e.mul(r, pitch), c), bytes)));
        LLVM::StoreOp::create(b, loc, rounded, to, 2 * bytes);
      });
}

LogicalResult mlir::brrr::wgmma::drainOverlapped(
    WgmmaBuilder &e, FusionOp fusion, const WgmmaProblem &problem,
    const MatmulTile &tile, const TileAt &at, Value smem, Value stagingBase,
    Value worker, int64_t workers, int64_t groupsPerStep, Value lane,
    function_ref<Value(Value)> arg, ValueRange outputs) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // A paired product's tile holds n / 2 columns of each half side by side
  // and stores n / 2 output columns (N: the epilogue's result's).
  int64_t M = problem.M, N = outputColumns(problem), n = tile.n;
  int64_t pitch = wgmmaEpiloguePitch(n);
  int64_t half = problem.pairedColumns ? n / 2 : 0;
  int64_t width = half ? half : n;
  Value col0 = outputColumn0(e, problem, at);
  int64_t vec = 8;
  while (columnSpan(problem) % vec)
    vec /= 2;
  int64_t lanes = 32;
  while (width % (lanes * vec))
    lanes /= 2;
  int64_t rowsPerGroup = 32 / lanes, groups = tile.m / rowsPerGroup;
  int64_t perStep = workers * groupsPerStep;
  Type f32 = b.getF32Type(), staged = stagedTypeOf(problem, tile);
  Type stagedVec = vec == 1 ? staged : VectorType::get({vec}, staged);
  int64_t bytes = tile.stagedBytes();
  Value rowLane = e.div(lane, lanes), colLane = e.rem(lane, lanes);
  auto steps = scf::ForOp::create(
      b, loc, e.idx(0), e.idx(llvm::divideCeil(groups, perStep)), e.idx(1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(steps.getBody());
  SmallVector<EpilogueGroup> pending;
  for (int64_t u = 0; u < groupsPerStep; ++u) {
    // Row group (step * groupsPerStep + u) * workers + worker: rows past
    // the tile (the last step's) are clamped to row 0 and stored nowhere.
    Value group = e.add(
        e.mul(e.add(e.mul(steps.getInductionVar(), groupsPerStep), e.idx(u)),
              workers),
        worker);
    Value r = e.add(e.mul(group, rowsPerGroup), rowLane);
    Value inTile = groups % perStep == 0 ? always(b, loc) : e.ult(r, tile.m);
    Value safeR = arith::SelectOp::create(b, loc, inTile, r, e.idx(0));
    Value gRow = e.add(at.row0, safeR);
    Value rowOk = arith::AndIOp::create(b, loc, inTile,
                                        rowOkAt(e, problem, tile, at, gRow));
    Value safeRow = arith::SelectOp::create(b, loc, rowOk, gRow, e.idx(0));
    Value row = e.add(e.mul(at.z, M), safeRow);
    Value outRow = e.mul(row, N);
    Value rowAt = e.add(stagingBase, e.mul(safeR, pitch * bytes));
    for (int64_t jj = 0; jj < width / (lanes * vec); ++jj) {
      Value c = e.mul(e.add(colLane, e.idx(lanes * jj)), vec);
      Value gCol = e.add(col0, c);
      Value colOk = columnOk(e, problem, tile, at, gCol);
      Value safeCol = arith::SelectOp::create(b, loc, colOk, gCol, e.idx(0));
      Value out = e.add(outRow, safeCol);
      // The staged values at column `column` of the tile, in f32 (rows
      // and runs of columns 16-byte aligned at most).
      auto stagedAt = [&](Value column) {
        Value v = LLVM::LoadOp::create(
            b, loc, stagedVec, e.at(smem, e.add(rowAt, e.mul(column, bytes))),
            std::min<int64_t>(16, bytes * vec));
        SmallVector<Value> values;
        for (int64_t t = 0; t < vec; ++t) {
          Value x = vec == 1
                        ? v
                        : LLVM::ExtractElementOp::create(b, loc, v, e.i32(t));
          values.push_back(
              staged.isF32() ? x : arith::ExtFOp::create(b, loc, f32, x));
        }
        return values;
      };
      EpilogueGroup grp{
          arith::AndIOp::create(b, loc, rowOk, colOk), out, {}, {}, {}};
      for (auto [t, x] : llvm::enumerate(stagedAt(c))) {
        if (problem.addBias)
          x = problem.addBias(e, t ? e.add(safeCol, e.idx(t)) : safeCol, x,
                              arg);
        grp.values.push_back(x);
      }
      if (half)
        grp.partners = stagedAt(e.add(c, e.idx(half)));
      grp.inputs = loadEpilogueInputs(b, loc, fusion, problem.product, out, arg,
                                      vec, row, safeCol);
      pending.push_back(std::move(grp));
    }
  }
  return storeGroups(b, loc, fusion, problem, pending, arg, outputs);
}
