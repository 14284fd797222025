//===- FewRowsMmaKernel.cpp - products of a few rows on mma.sync ----------===//
//
// The few-rows body on Tensor Cores (FewRowsKernel.h): block b computes
// columns b * 16 .. b * 16 + 15 for every row, its warps splitting the
// contraction into runs of 32-deep chunks. Each warp multiplies by
// mma.sync m16n8k16 with the weights as A (16 columns by 16 of K) and
// the rows' inputs as B (16 of K by 8 rows), one mma a group of 8 rows:
// the sums of products are the output's transpose, and no row of zeros
// is multiplied past the tile's rows rounded up to 8.
//
// Operands come straight from global memory in 16-byte vectors: lane
// (g, t) = (lane / 4, lane % 4) reads elements 8t .. 8t + 7 of a chunk
// of columns g and g + 8 and of row g of each group of 8 rows. The first
// mma of the chunk takes the lane's elements 0-3, the second 4-7, each as
// the fragment's k = 2t, 2t + 1, 2t + 8, 2t + 9: A and B see the same
// permutation of the chunk's 32 elements, so each sum is the product's.
// Lanes past the depth load zeros into both operands. Each warp's sums go
// to shared memory (the `partials` buffer); after a barrier, thread i
// adds up the warps' sums of element (i / 16, i % 16) of the block's tile
// in warp order, runs the fused epilogue and stores it, threads side by
// side along the columns.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/PointwiseEmitter.h"
#include "compiler/CodeGen/Products/FewRowsKernel.h"

#include "passes/Config/Products.h"
#include "passes/Config/SharedBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Chunks (32 deep) a warp loops over up to which its loop is unrolled.
constexpr int64_t kMaxUnrolledChunks = 16;

/// The chunks whose weight vectors a lane loads before it multiplies any:
/// as many in flight as registers allow beside `rows` rows' sums.
int64_t chunksInFlight(int64_t rows) {
  return rows <= 16 ? 8 : rows <= 32 ? 4 : 2;
}

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitFewRowsMmaKernel(FusionOp fusion,
                                                       const FewRowsSpec &spec,
                                                       OpBuilder &moduleBuilder,
                                                       StringRef name) {
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  Location loc = fusion.getLoc();
  // N: the epilogue's result's columns. Paired halves: a block's A rows
  // g and g + 8 are column g of its `stored` columns of each half.
  int64_t rows = spec.rows, N = spec.outputColumns(), K = spec.depth;
  int64_t tileRows = config->getTile()[0], columns = config->getTile()[1];
  int64_t paired = spec.pairedColumns;
  int64_t stored = paired ? columns / 2 : columns;
  int64_t threads = config->getThreads(), warps = threads / 32;
  Type et = getElementTypeOrSelf(spec.input.getType());
  if (!(et.isF16() || et.isBF16()) ||
      getElementTypeOrSelf(spec.weight.getType()) != et ||
      columns != kFewRowsMmaColumns || tileRows % 8 || rows > tileRows ||
      config->getVector() != 8 || K % 8 || threads % 32 || !spec.rowAt)
    return fusion.emitOpError("the few-rows Tensor Core body multiplies f16 "
                              "or bf16 rows in groups of 8, ")
           << kFewRowsMmaColumns
           << " columns a block, in 16-byte vectors along K; got " << *config;
  FailureOr<int64_t> partials = sharedOffset(fusion, SharedRole::partials);
  if (failed(partials))
    return failure();
  if (*partials % 4)
    return fusion.emitOpError("few-rows partials must be aligned to 4 bytes");

  FewRowsFrame frame(fusion, spec, moduleBuilder, name, threads);
  OpBuilder &b = frame.b;
  IndexMath e{b, loc};
  bool symbolic = bool(spec.rowsExtent);
  Value actualRows = frame.actualRows;
  auto arg = [&](Value v) { return frame.arg(v); };
  pointwise::PointwiseEmitter pe(b, loc);
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto regs4 = VectorType::get({4}, i32);
  auto select = [&](Value c, Value x, Value y) -> Value {
    return arith::SelectOp::create(b, loc, c, x, y);
  };
  auto ultValue = [&](Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  };
  // Whether row `r` is one of the product's (the actual rows over symbolic
  // ones).
  auto isRow = [&](Value r) {
    return symbolic ? ultValue(r, actualRows) : e.ult(r, rows);
  };

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = e.rem(tid, 32), warp = e.div(tid, 32);
  Value g = e.div(lane, 4), t = e.rem(lane, 4);
  Value col0 = e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), stored);
  Value input = arg(spec.input), weight = arg(spec.weight);
  // The lane's columns g and g + 8 (A's rows), the last column's weights
  // past the product's columns; paired, column g of each half.
  Value wAt[2];
  for (int64_t h = 0; h < 2; ++h) {
    Value n = e.add(col0, paired ? g : e.add(g, e.idx(8 * h)));
    n = select(e.ult(n, N), n, e.idx(N - 1));
    wAt[h] = spec.weightAt(e, paired && h ? e.add(n, e.idx(paired)) : n);
  }
  // The lane's row of each group of 8 (B's column g): row 0's inputs past
  // the rows, whose sums are never stored.
  int64_t groups = tileRows / 8;
  SmallVector<Value> xAt;
  for (int64_t q = 0; q < groups; ++q) {
    Value r = e.add(g, e.idx(8 * q));
    xAt.push_back(spec.rowAt(e, select(isRow(r), r, e.idx(0))));
  }

  // 16 bytes at element `at` of `base`, as four registers of two elements.
  auto load = [&](Value base, Value at, Value valid) -> Value {
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), at);
    Value p = LLVM::GEPOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1),
        pointwise::memoryType(et), base, ValueRange{i});
    Value v = LLVM::LoadOp::create(b, loc, regs4, p, 16);
    Value zero = arith::ConstantOp::create(
        b, loc, regs4, DenseElementsAttr::get(regs4, b.getI32IntegerAttr(0)));
    return select(valid, v, zero);
  };
  auto reg = [&](Value v, int64_t i) -> Value {
    Value r = LLVM::ExtractElementOp::create(
        b, loc, v,
        arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(i)));
    if (et.isF16())
      return LLVM::BitcastOp::create(b, loc, VectorType::get({2}, et), r);
    return r;
  };
  NVVM::MMATypes mmaType =
      et.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;

  // Warp w multiplies chunks w * perWarp .. (w + 1) * perWarp - 1; the
  // lane's vector of chunk c starts at element 32c + 8t.
  int64_t chunks = llvm::divideCeil(K, 32);
  int64_t perWarp = llvm::divideCeil(chunks, warps);
  Value kStart = e.add(e.mul(warp, perWarp * 32), e.mul(t, 8));
  // Chunks `first` .. `first + count - 1` of the warp's run: every weight
  // vector loaded first, then each chunk's rows and two mmas a group.
  auto run = [&](Value first, int64_t count, MutableArrayRef<Value> acc) {
    SmallVector<Value> valid, safe;
    SmallVector<std::array<Value, 2>> w;
    for (int64_t i = 0; i < count; ++i) {
      Value k = e.add(kStart, e.mul(e.add(first, e.idx(i)), 32));
      valid.push_back(e.ult(k, K));
      safe.push_back(select(valid.back(), k, e.idx(0)));
      w.push_back({load(weight, e.add(wAt[0], safe.back()), valid.back()),
                   load(weight, e.add(wAt[1], safe.back()), valid.back())});
    }
    frame.weightsLoaded();
    for (int64_t i = 0; i < count; ++i)
      for (int64_t q = 0; q < groups; ++q) {
        Value x = load(input, e.add(xAt[q], safe[i]), valid[i]);
        for (int64_t s = 0; s < 2; ++s) {
          SmallVector<Value> a = {reg(w[i][0], 2 * s), reg(w[i][1], 2 * s),
                                  reg(w[i][0], 2 * s + 1),
                                  reg(w[i][1], 2 * s + 1)};
          SmallVector<Value> bRegs = {reg(x, 2 * s), reg(x, 2 * s + 1)};
          SmallVector<Value> c(acc.slice(4 * q, 4));
          llvm::copy(mmaSync(b, loc, mmaType, 16, a, bRegs, c),
                     acc.begin() + 4 * q);
        }
      }
  };
  SmallVector<Value> acc(4 * groups, pe.cst(f32, 0));
  int64_t step = chunksInFlight(tileRows);
  int64_t looped = perWarp <= kMaxUnrolledChunks ? 0 : perWarp / step * step;
  if (looped) {
    auto loop =
        scf::ForOp::create(b, loc, e.idx(0), e.idx(looped), e.idx(step), acc);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> carried(loop.getRegionIterArgs());
    run(loop.getInductionVar(), step, carried);
    scf::YieldOp::create(b, loc, carried);
    b.setInsertionPointAfter(loop);
    acc.assign(loop.getResults().begin(), loop.getResults().end());
  }
  for (int64_t i = looped; i < perWarp; i += step)
    run(e.idx(i), std::min(step, perWarp - i), acc);

  // Accumulator j of group q holds column g + 8 (j / 2) of the block, row
  // 8q + 2t + j % 2; slot (w, r, c) of the partials is warp w's sum of
  // the block's element (r, c).
  Value smem = dynamicShared(moduleBuilder, b, loc);
  auto sptr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  auto slot = [&](Value w, Value r, Value c) -> Value {
    Value at = e.add(e.add(e.mul(e.add(e.mul(w, tileRows), r), columns), c),
                     e.idx(*partials / 4));
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), at);
    return LLVM::GEPOp::create(b, loc, sptr, f32, smem, ValueRange{i});
  };
  for (int64_t q = 0; q < groups; ++q)
    for (int64_t j = 0; j < 4; ++j) {
      Value c = e.add(g, e.idx(8 * (j / 2)));
      Value r = e.add(e.mul(t, 2), e.idx(8 * q + j % 2));
      LLVM::StoreOp::create(b, loc, acc[4 * q + j], slot(warp, r, c));
    }
  gpu::BarrierOp::create(b, loc);

  int64_t elements = tileRows * stored;
  for (int64_t first = 0; first < elements; first += threads) {
    OpBuilder::InsertionGuard guard(b);
    Value i = e.add(tid, e.idx(first));
    Value r = e.div(i, stored), c = e.rem(i, stored);
    Value n = e.add(col0, c);
    Value stores = arith::AndIOp::create(b, loc, e.ult(n, N), isRow(r));
    if (first + threads > elements)
      stores = arith::AndIOp::create(b, loc, stores, e.ult(i, elements));
    auto store = scf::IfOp::create(b, loc, stores, false);
    b.setInsertionPointToStart(&store.getThenRegion().front());
    // The warps' sums of the block's element (r, c), in warp order (and
    // of (r, c + 8), the second half's, where it pairs halves).
    auto sumOf = [&](Value column) {
      Value sum;
      for (int64_t w = 0; w < warps; ++w) {
        Value part =
            LLVM::LoadOp::create(b, loc, f32, slot(e.idx(w), r, column));
        sum = w ? arith::AddFOp::create(b, loc, sum, part).getResult() : part;
      }
      return sum;
    };
    Value sum = sumOf(c);
    if (failed(frame.store(sum, r, n,
                           paired ? sumOf(e.add(c, e.idx(8))) : Value())))
      return failure();
  }
  return frame.finish();
}
