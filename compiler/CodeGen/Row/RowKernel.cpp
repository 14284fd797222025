//===- RowKernel.cpp - brrr.fusion row -> gpu.func ------------------------===//
//
// The row-reduction kernel family: softmax, log-softmax, layer norm and
// trailing reductions, each as one kernel that reads every element once and
// writes it once, with the fused pointwise prologue (computing the row as
// it loads, through the data movement it may be read through) and epilogue
// (before the store). One thread block owns one row and keeps it in
// registers (16-byte vector loads, computed in f32); a block reduction is a
// warp butterfly of shuffles, then one value per warp through the shared
// scratch brrr-plan-shared-memory placed. Rows of at
// most 128 vectors are packed: `lanes` threads a row (a power of two up to
// a warp), a butterfly over those lanes alone, 128 / lanes rows a block.
// Tail columns load a clamped in-bounds address and are masked with the
// reduction's identity. The block size is the config's
// (brrr-select-kernel-config).
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/PointwiseEmitter.h"
#include "compiler/CodeGen/PointwiseReads.h"

#include "passes/Config/Rows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::brrr;

namespace {

enum class Combine { Max, Min, Sum, Prod };

/// One row kernel being built: its geometry (from the config), the
/// function, and the values its parts share, in the order the kernel runs
/// them: locate the thread's row and columns, compute the fused prologue
/// per element, the row op (a reduction, softmax, layer norm), the fused
/// epilogue, and the stores.
class RowKernel {
public:
  RowKernel(FusionOp fusion, OpBuilder &moduleBuilder)
      : fusion(fusion), moduleBuilder(moduleBuilder), loc(fusion.getLoc()),
        b(fusion.getContext()), pe(b, loc) {}

  FailureOr<KernelInfo> emit(StringRef name);

private:
  /// The config's geometry, the shared plan and each reduction's scratch.
  LogicalResult readGeometry();
  /// The kernel function, with the thread id and the shared base.
  void createFunction(StringRef name);
  /// The block's row (with packed rows, this thread's), and the columns of
  /// each of the thread's vectors: clamped for loads, valid for stores.
  void locateRow();
  /// The fused ops before the row op, per element.
  LogicalResult applyPrologue();
  /// A prologue that reads through data movement (brrr-fuse-rows keeps each
  /// row contiguous in the input): each of the thread's vectors computed by
  /// VectorReads, as a pointwise kernel reads through movement.
  LogicalResult applyMovingPrologue();
  /// The row op's results: `y` per element, or a reduction's one value.
  void reduceRow(ReduceOp red);
  void softmaxRow();
  void normalizeRow(LayerNormOp ln);
  /// The fused ops after the row op, per element.
  LogicalResult applyEpilogue();
  /// Row-shaped results by vectors of valid columns; a reduction's value
  /// once per row.
  LogicalResult store();
  KernelInfo info(StringRef name);

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32Type(),
                                     b.getF32FloatAttr(v));
  }
  Value i32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                     b.getI32IntegerAttr(v));
  }
  Value toI64(Value v) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  }
  /// A float scalar in another float type.
  Value convert(Value v, Type to) {
    Type from = v.getType();
    if (from == to)
      return v;
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? Value(arith::ExtFOp::create(b, loc, to, v))
               : Value(arith::TruncFOp::create(b, loc, to, v));
  }
  Value combine(Combine c, Value x, Value y);
  /// The block-wide reduction of every thread's `v`, returned to every
  /// thread. Reduction `slot` uses its planned scratch, which the plan keeps
  /// apart from the next reduction's, so successive reductions need no
  /// barrier between them.
  Value blockReduce(Combine c, Value v, int64_t slot);
  Value reduceLocal(Combine c, ArrayRef<Value> xs);
  /// The thread's elements of a row-shaped input, or of one that varies
  /// along the row only, by vectors.
  SmallVector<Value> vectorLoad(Value base, Type elem, bool perRow);
  /// The element of every position of an input of the fused ops, in its
  /// compute type: vector loads for row-shaped inputs and for inputs that
  /// vary along the row only (scale, bias); scalar loads at the broadcast
  /// index otherwise.
  ArrayRef<Value> loadAll(Value arg);
  /// The row op's operand `v` at every position, in f32, masked with
  /// `identity` past the row's end.
  SmallVector<Value> rowValues(Value v, double identity);
  llvm::iterator_range<Block::iterator> prologue() {
    return llvm::make_range(body().begin(), rowOp->getIterator());
  }
  llvm::iterator_range<Block::iterator> epilogue() {
    return llvm::make_range(std::next(rowOp->getIterator()),
                            Block::iterator(body().getTerminator()));
  }
  Block &body() { return fusion.getBody().front(); }

  FusionOp fusion;
  OpBuilder &moduleBuilder;
  Location loc;
  OpBuilder b;
  pointwise::PointwiseEmitter pe;

  // The geometry. Over symbolic extents: the largest shape's kernel, with
  // its row count an i64 parameter (the geometry holds the largest rows).
  RowGeometry g;
  SharedPlanAttr shared;
  bool symbolic = false;
  std::optional<LargestShapeView> largest;
  Operation *rowOp = nullptr;
  RankedTensorType rowType;
  Type et;
  int64_t cols = 0, vec = 0, perThread = 0, blockSize = 0, lanes = 0;
  /// Rows of `lanes` threads each, blockSize / lanes of them a block.
  bool packed = false;
  /// The byte offset of each reduction's scratch.
  SmallVector<int64_t> scratch;
  unsigned numInputs = 0, numBuffers = 0;
  int64_t numElems = 0;

  // Values of the kernel being built.
  Block *entry = nullptr;
  LLVM::LLVMPointerType ptr1;
  Value tid;
  Value smem; ///< !llvm.ptr<3>, the block's dynamic shared memory
  Value row, lane, rowValid, rowBase, threadCol;
  /// Element p = k * vec + l of this thread is column colOf[k] + l; loads
  /// use the clamped column (always in bounds), stores the valid ones only.
  SmallVector<Value> colOf, clampedOf, validOf;
  DenseMap<Value, SmallVector<Value>> loaded;
  SmallVector<DenseMap<Value, Value>> env;
  SmallVector<Value> y;
  Value perRowResult; ///< a reduction's one value per row
};

Value RowKernel::combine(Combine c, Value x, Value y) {
  switch (c) {
  case Combine::Max:
    return arith::MaximumFOp::create(b, loc, x, y);
  case Combine::Min:
    return arith::MinimumFOp::create(b, loc, x, y);
  case Combine::Sum:
    return arith::AddFOp::create(b, loc, x, y);
  case Combine::Prod:
    return arith::MulFOp::create(b, loc, x, y);
  }
  llvm_unreachable("unknown combiner");
}

Value RowKernel::blockReduce(Combine c, Value v, int64_t slot) {
  // Packed rows' lanes are aligned runs of a warp: the butterfly over
  // offsets below `lanes` stays inside each row.
  for (int64_t offset = std::min<int64_t>(16, lanes / 2); offset >= 1;
       offset /= 2) {
    auto shuffle = gpu::ShuffleOp::create(
        b, loc, v, static_cast<int32_t>(offset), 32, gpu::ShuffleMode::XOR);
    v = combine(c, v, shuffle.getShuffleResult());
  }
  int64_t warps = blockSize / 32;
  if (warps == 1 || lanes < blockSize)
    return v;
  Value laneOfWarp = arith::RemUIOp::create(b, loc, tid, idx(32));
  Value warp = arith::DivUIOp::create(b, loc, tid, idx(32));
  Value isLeader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         laneOfWarp, idx(0));
  auto ptrTy = LLVM::LLVMPointerType::get(b.getContext(), 3);
  auto slotPtr = [&](Value i) -> Value {
    Value at = arith::AddIOp::create(b, loc, i, idx(scratch[slot] / 4));
    return LLVM::GEPOp::create(
        b, loc, ptrTy, b.getF32Type(), smem,
        ValueRange{arith::IndexCastOp::create(b, loc, b.getI64Type(), at)});
  };
  auto ifLeader = scf::IfOp::create(b, loc, isLeader, false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifLeader.getThenRegion().front());
    LLVM::StoreOp::create(b, loc, v, slotPtr(warp));
  }
  gpu::BarrierOp::create(b, loc);
  Value acc = LLVM::LoadOp::create(b, loc, b.getF32Type(), slotPtr(idx(0)));
  for (int64_t w = 1; w < warps; ++w)
    acc = combine(
        c, acc, LLVM::LoadOp::create(b, loc, b.getF32Type(), slotPtr(idx(w))));
  return acc;
}

Value RowKernel::reduceLocal(Combine c, ArrayRef<Value> xs) {
  Value acc = xs.front();
  for (Value x : xs.drop_front())
    acc = combine(c, acc, x);
  return acc;
}

LogicalResult RowKernel::readGeometry() {
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  FailureOr<SharedPlanAttr> plan = sharedPlanOf(fusion);
  if (failed(plan))
    return failure();
  shared = *plan;
  FailureOr<RowGeometry> geometry =
      rowGeometryOf(fusion, config->getThreads(), rowLanesOf(*config));
  if (failed(geometry))
    return failure();
  g = *geometry;
  symbolic = bool(g.rowsExtent);
  if (symbolic)
    largest.emplace(fusion);
  rowOp = g.rowOp;
  rowType = cast<RankedTensorType>(rowOp->getOperand(0).getType());
  et = rowType.getElementType();
  cols = g.cols;
  vec = g.vec;
  perThread = g.perThread;
  blockSize = g.threads;
  lanes = g.lanes;
  packed = lanes < blockSize;
  if (blockSize > 32 && !packed) {
    for (int64_t k = 0; k < g.reductions; ++k) {
      FailureOr<int64_t> offset =
          sharedOffset(fusion, SharedRole::reduction, k);
      if (failed(offset))
        return failure();
      scratch.push_back(*offset);
    }
  }
  numInputs = fusion.getInputs().size();
  numBuffers = numInputs + fusion.getNumResults();
  numElems = perThread * vec;
  return success();
}

void RowKernel::createFunction(StringRef name) {
  ptr1 = LLVM::LLVMPointerType::get(fusion.getContext(), 1);
  auto func = createKernel(moduleBuilder, loc, name, numBuffers, blockSize,
                           /*numByValue=*/0, /*numScalars=*/symbolic ? 1 : 0);
  entry = &func.getBody().front();
  b.setInsertionPointToStart(entry);
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  smem = dynamicShared(moduleBuilder, b, loc);
}

void RowKernel::locateRow() {
  // The block's row, or with packed rows this thread's row (`lanes`
  // threads a row), read at a clamped row so that a last block's spare
  // rows load in bounds and store nothing.
  row = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  lane = tid;
  if (packed) {
    row = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, idx(blockSize / lanes)),
        arith::DivUIOp::create(b, loc, tid, idx(lanes)));
    lane = arith::RemUIOp::create(b, loc, tid, idx(lanes));
    // The rows: a constant, or the count the launch is passed.
    Value rows =
        symbolic ? indexArgument(b, loc, *entry, numBuffers) : idx(g.rows);
    rowValid =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
    Value lastRow = symbolic
                        ? Value(arith::SubIOp::create(b, loc, rows, idx(1)))
                        : idx(g.rows - 1);
    row = arith::MinUIOp::create(b, loc, row, lastRow);
  }
  rowBase = arith::MulIOp::create(b, loc, row, idx(cols));
  threadCol = arith::MulIOp::create(b, loc, lane, idx(vec));
  for (int64_t k = 0; k < perThread; ++k) {
    Value col = arith::AddIOp::create(b, loc, threadCol, idx(k * lanes * vec));
    colOf.push_back(col);
    clampedOf.push_back(arith::MinUIOp::create(b, loc, col, idx(cols - vec)));
    validOf.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            col, idx(cols)));
  }
}

SmallVector<Value> RowKernel::vectorLoad(Value base, Type elem, bool perRow) {
  SmallVector<Value> out;
  Type mt = pointwise::memoryType(elem);
  Type vt = vec > 1 ? Type(VectorType::get({vec}, mt)) : mt;
  for (int64_t k = 0; k < perThread; ++k) {
    Value at = perRow
                   ? Value(arith::AddIOp::create(b, loc, rowBase, clampedOf[k]))
                   : clampedOf[k];
    Value p =
        LLVM::GEPOp::create(b, loc, ptr1, mt, base, ValueRange{toI64(at)});
    Value v = LLVM::LoadOp::create(b, loc, vt, p, vec * elementBytes(elem));
    for (int64_t l = 0; l < vec; ++l)
      out.push_back(pe.fromMemory(
          vec > 1 ? Value(LLVM::ExtractElementOp::create(b, loc, v, i32(l)))
                  : v,
          elem));
  }
  return out;
}

ArrayRef<Value> RowKernel::loadAll(Value arg) {
  auto it = loaded.find(arg);
  if (it != loaded.end())
    return it->second;
  auto type = cast<RankedTensorType>(arg.getType());
  Type elem = type.getElementType();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = rowType.getRank(), trailing = 0, size = 1;
  for (int64_t d = rank - 1; d >= 0 && size < cols; --d, ++trailing)
    size *= rowType.getDimSize(d);
  bool alongRow =
      size == cols && static_cast<int64_t>(shape.size()) >= trailing &&
      shape.take_back(trailing) == rowType.getShape().take_back(trailing) &&
      llvm::all_of(shape.drop_back(trailing), [](int64_t d) { return d == 1; });
  SmallVector<Value> out;
  if (shape == rowType.getShape() || alongRow) {
    out = vectorLoad(kernelArgument(*entry, arg), elem,
                     shape == rowType.getShape());
  } else {
    IndexMath e{b, loc};
    Type mt = pointwise::memoryType(elem);
    for (int64_t p = 0; p < numElems; ++p) {
      Value at = e.add(e.add(rowBase, clampedOf[p / vec]), e.idx(p % vec));
      Value i = e.broadcastIndex(at, rowType.getShape(), shape);
      Value ptr = LLVM::GEPOp::create(
          b, loc, ptr1, mt, kernelArgument(*entry, arg), ValueRange{toI64(i)});
      out.push_back(pe.fromMemory(LLVM::LoadOp::create(b, loc, mt, ptr), elem));
    }
  }
  return loaded[arg] = std::move(out);
}

LogicalResult RowKernel::applyPrologue() {
  env.resize(numElems);
  if (llvm::any_of(prologue(), [](Operation &op) {
        return !isPointwise(&op) && !isa<ConstantOp>(op);
      }))
    return applyMovingPrologue();
  for (int64_t p = 0; p < numElems; ++p)
    if (failed(pe.emitOps(prologue(), env[p],
                          [&](Value v) { return loadAll(v)[p]; })))
      return failure();
  return success();
}

LogicalResult RowKernel::applyMovingPrologue() {
  // The prologue's values read after it: the row, and any the epilogue
  // reads.
  SmallVector<Value> read;
  for (Operation &op : prologue())
    for (Value r : op.getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *u) {
            return u == rowOp || rowOp->isBeforeInBlock(u);
          }))
        read.push_back(r);
  for (int64_t k = 0; k < perThread; ++k) {
    Value first = arith::AddIOp::create(b, loc, rowBase, clampedOf[k]);
    VectorReads reads(b, loc, *entry, rowType.getShape(), vec, first,
                      /*indexType=*/Type(), /*moves=*/true);
    for (Value v : read) {
      FailureOr<SmallVector<Value>> lanes = reads.own(v);
      if (failed(lanes))
        return failure();
      for (int64_t l = 0; l < vec; ++l)
        env[k * vec + l][v] = (*lanes)[l];
    }
  }
  return success();
}

SmallVector<Value> RowKernel::rowValues(Value v, double identity) {
  Type f32Type = b.getF32Type();
  SmallVector<Value> out;
  for (int64_t p = 0; p < numElems; ++p) {
    Value x = env[p].lookup(v);
    if (!x)
      x = loadAll(v)[p];
    out.push_back(arith::SelectOp::create(b, loc, validOf[p / vec],
                                          convert(x, f32Type), f32(identity)));
  }
  return out;
}

void RowKernel::reduceRow(ReduceOp red) {
  double inf = std::numeric_limits<double>::infinity();
  Combine c = Combine::Sum;
  double identity = 0.0;
  switch (red.getKind()) {
  case ReduceKind::sum:
  case ReduceKind::mean:
    c = Combine::Sum, identity = 0.0;
    break;
  case ReduceKind::prod:
    c = Combine::Prod, identity = 1.0;
    break;
  case ReduceKind::max:
    c = Combine::Max, identity = -inf;
    break;
  case ReduceKind::min:
    c = Combine::Min, identity = inf;
    break;
  }
  SmallVector<Value> x = rowValues(rowOp->getOperand(0), identity);
  perRowResult = blockReduce(c, reduceLocal(c, x), 0);
  if (red.getKind() == ReduceKind::mean)
    perRowResult = arith::MulFOp::create(b, loc, perRowResult,
                                         f32(1.0 / static_cast<double>(cols)));
}

void RowKernel::softmaxRow() {
  double inf = std::numeric_limits<double>::infinity();
  SmallVector<Value> x = rowValues(rowOp->getOperand(0), -inf);
  Value m = blockReduce(Combine::Max, reduceLocal(Combine::Max, x), 0);
  SmallVector<Value> e;
  for (Value xi : x) {
    // Masked lanes are -inf: exp gives 0 and they add nothing.
    e.push_back(
        math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, xi, m)));
  }
  Value s = blockReduce(Combine::Sum, reduceLocal(Combine::Sum, e), 1);
  if (isa<SoftmaxOp>(rowOp)) {
    Value inv = arith::DivFOp::create(b, loc, f32(1.0), s);
    for (Value ei : e)
      y.push_back(arith::MulFOp::create(b, loc, ei, inv));
  } else {
    Value shift =
        arith::AddFOp::create(b, loc, m, math::LogOp::create(b, loc, s));
    for (Value xi : x)
      y.push_back(arith::SubFOp::create(b, loc, xi, shift));
  }
}

void RowKernel::normalizeRow(LayerNormOp ln) {
  SmallVector<Value> x = rowValues(rowOp->getOperand(0), 0.0);
  bool centred = !ln.getRms() && !ln.getL2();
  // An L2 normalization divides by the length: the sum of squares, not
  // their mean.
  Value invCols = f32(ln.getL2() ? 1.0 : 1.0 / static_cast<double>(cols));
  // RMS and L2 norms are not centred: their "variance" is the mean (or
  // sum) of squares.
  Value mean = f32(0.0);
  if (centred)
    mean = arith::MulFOp::create(
        b, loc, blockReduce(Combine::Sum, reduceLocal(Combine::Sum, x), 0),
        invCols);
  // Two passes over registers: the variance of centred values, which
  // stays accurate where E[x^2] - E[x]^2 would cancel.
  SmallVector<Value> d, sq;
  for (auto [i, xi] : llvm::enumerate(x)) {
    Value di = centred ? arith::SubFOp::create(b, loc, xi, mean) : xi;
    di = arith::SelectOp::create(b, loc, validOf[i / vec], di, f32(0.0));
    d.push_back(di);
    sq.push_back(arith::MulFOp::create(b, loc, di, di));
  }
  Value var = arith::MulFOp::create(
      b, loc, blockReduce(Combine::Sum, reduceLocal(Combine::Sum, sq), 1),
      invCols);
  Value eps = f32(ln.getEpsilon().convertToDouble());
  // 1 / max(length, epsilon); else 1 / sqrt(variance + epsilon).
  Value rstd = ln.getL2()
                   ? Value(arith::DivFOp::create(
                         b, loc, f32(1.0),
                         arith::MaximumFOp::create(
                             b, loc, math::SqrtOp::create(b, loc, var), eps)))
                   : Value(math::RsqrtOp::create(
                         b, loc, arith::AddFOp::create(b, loc, var, eps)));
  SmallVector<Value> scale = rowValues(ln.getScale(), 0.0);
  SmallVector<Value> bias;
  if (ln.getBias())
    bias = rowValues(ln.getBias(), 0.0);
  for (auto [i, di] : llvm::enumerate(d)) {
    Value v = arith::MulFOp::create(
        b, loc, arith::MulFOp::create(b, loc, di, rstd), scale[i]);
    if (!bias.empty())
      v = arith::AddFOp::create(b, loc, v, bias[i]);
    y.push_back(v);
  }
}

LogicalResult RowKernel::applyEpilogue() {
  if (y.empty())
    return success();
  Type ct = pointwise::computeType(et);
  for (int64_t p = 0; p < numElems; ++p) {
    env[p][rowOp->getResult(0)] = convert(y[p], ct);
    if (failed(pe.emitOps(epilogue(), env[p],
                          [&](Value v) { return loadAll(v)[p]; })))
      return failure();
  }
  return success();
}

LogicalResult RowKernel::store() {
  auto yield = cast<YieldOp>(body().getTerminator());
  for (auto [i, v] : llvm::enumerate(yield.getValues())) {
    Value out = entry->getArgument(numInputs + i);
    Type elem = cast<RankedTensorType>(v.getType()).getElementType();
    Type mt = pointwise::memoryType(elem);
    // A reduction's value, by the row's first lane.
    if (perRowResult && v == rowOp->getResult(0)) {
      Value first =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, idx(0));
      if (packed)
        first = arith::AndIOp::create(b, loc, first, rowValid);
      auto ifFirst = scf::IfOp::create(b, loc, first, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
      Value p =
          LLVM::GEPOp::create(b, loc, ptr1, mt, out, ValueRange{toI64(row)});
      LLVM::StoreOp::create(b, loc, convert(perRowResult, elem), p);
      continue;
    }
    if (env[0].lookup(v) == Value())
      return fusion.emitOpError("row kernels compute every result they store");
    for (int64_t k = 0; k < perThread; ++k) {
      Value valid = validOf[k];
      if (packed)
        valid = arith::AndIOp::create(b, loc, valid, rowValid);
      auto ifValid = scf::IfOp::create(b, loc, valid, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifValid.getThenRegion().front());
      SmallVector<Value> values;
      for (int64_t l = 0; l < vec; ++l)
        values.push_back(env[k * vec + l].lookup(v));
      Value vector = pe.memoryVector(values, elem);
      Value at = arith::AddIOp::create(b, loc, rowBase, colOf[k]);
      Value p =
          LLVM::GEPOp::create(b, loc, ptr1, mt, out, ValueRange{toI64(at)});
      LLVM::StoreOp::create(b, loc, vector, p, vec * elementBytes(elem));
    }
  }
  return success();
}

KernelInfo RowKernel::info(StringRef name) {
  KernelInfo info;
  info.name = name.str();
  info.block = blockSize;
  if (symbolic)
    info.scalars = {g.rowsExtent};
  info.sharedBytes = shared.getBytes();
  int64_t numel = rowType.getNumElements();
  // The data movement a prologue reads through computes nothing.
  int64_t fused =
      llvm::count_if(prologue(),
                     [](Operation &op) {
                       return !isa<TransposeOp, SliceOp, ReshapeOp, ConcatOp>(
                           op);
                     }) +
      std::distance(epilogue().begin(), epilogue().end());
  info.flops = ((isa<LayerNormOp>(rowOp) ? 8
                 : isa<ReduceOp>(rowOp)  ? 1
                                         : 5) +
                fused) *
               numel;
  info.bytes = fusionBytes(fusion);
  return info;
}

FailureOr<KernelInfo> RowKernel::emit(StringRef name) {
  if (failed(readGeometry()))
    return failure();
  createFunction(name);
  locateRow();
  if (failed(applyPrologue()))
    return failure();
  if (auto red = dyn_cast<ReduceOp>(rowOp))
    reduceRow(red);
  else if (isa<SoftmaxOp, LogSoftmaxOp>(rowOp))
    softmaxRow();
  else
    normalizeRow(cast<LayerNormOp>(rowOp));
  if (failed(applyEpilogue()) || failed(store()))
    return failure();
  gpu::ReturnOp::create(b, loc);
  return info(name);
}

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitRowKernel(FusionOp fusion,
                                                OpBuilder &moduleBuilder,
                                                StringRef name) {
  return RowKernel(fusion, moduleBuilder).emit(name);
}
