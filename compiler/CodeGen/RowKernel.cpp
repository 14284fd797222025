//===- RowKernel.cpp - brrr.fusion row -> gpu.func ------------------------===//
//
// The row-reduction kernel family: softmax, log-softmax and layer norm over
// the trailing dimensions of a tensor, each as one kernel that reads every
// element once and writes it once. One thread block owns one row and keeps
// it in registers (16-byte vector loads, computed in f32); a block
// reduction is a warp butterfly of shuffles, then one value per warp
// through shared memory. Tail columns load a clamped in-bounds address and
// are masked with the reduction's identity.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Register budget: at most this many vectors of the row per thread.
constexpr int64_t kMaxVectorsPerThread = 16;

enum class Combine { Max, Min, Sum, Prod };

struct RowEmitter {
  OpBuilder &b;
  Location loc;
  Value tid;
  int64_t blockSize;
  Value smem; ///< !llvm.ptr<3> to 32 floats per reduction slot

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32Type(),
                                     b.getF32FloatAttr(v));
  }
  Value i32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                     b.getI32IntegerAttr(v));
  }
  Value combine(Combine c, Value x, Value y) {
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

  /// The block-wide reduction of every thread's `v`, returned to every
  /// thread. `slot` picks a private shared-memory area, so successive
  /// reductions need no barrier between them.
  Value blockReduce(Combine c, Value v, int64_t slot) {
    for (int64_t offset = 16; offset >= 1; offset /= 2) {
      auto shuffle = gpu::ShuffleOp::create(
          b, loc, v, static_cast<int32_t>(offset), 32, gpu::ShuffleMode::XOR);
      v = combine(c, v, shuffle.getShuffleResult());
    }
    int64_t warps = blockSize / 32;
    if (warps == 1)
      return v;
    Value lane = arith::RemUIOp::create(b, loc, tid, idx(32));
    Value warp = arith::DivUIOp::create(b, loc, tid, idx(32));
    Value isLeader =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, idx(0));
    auto ptrTy = LLVM::LLVMPointerType::get(b.getContext(), 3);
    auto slotPtr = [&](Value i) -> Value {
      Value at = arith::AddIOp::create(b, loc, i, idx(slot * 32));
      return LLVM::GEPOp::create(
          b, loc, ptrTy, b.getF32Type(), smem,
          ValueRange{arith::IndexCastOp::create(b, loc, b.getI64Type(), at)});
    };
    auto ifLeader = scf::IfOp::create(b, loc, isLeader, false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifLeader.getThenRegion().front());
      LLVM::StoreOp::create(b, loc, v, slotPtr(warp));
    }
    gpu::BarrierOp::create(b, loc);
    Value acc = LLVM::LoadOp::create(b, loc, b.getF32Type(), slotPtr(idx(0)));
    for (int64_t w = 1; w < warps; ++w)
      acc = combine(
          c, acc,
          LLVM::LoadOp::create(b, loc, b.getF32Type(), slotPtr(idx(w))));
    return acc;
  }
};

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitRowKernel(FusionOp fusion,
                                                OpBuilder &moduleBuilder,
                                                StringRef name) {
  MLIRContext *ctx = fusion.getContext();
  Location loc = fusion.getLoc();
  FailureOr<Operation *> single = singleOp(fusion, "row");
  if (failed(single))
    return failure();
  Operation *rowOp = *single;

  auto inType = cast<RankedTensorType>(fusion.getInputs()[0].getType());
  Type et = inType.getElementType();
  if (!isa<FloatType>(et))
    return fusion.emitOpError("row kernels need a floating-point input");
  int64_t axis;
  if (auto s = dyn_cast<SoftmaxOp>(rowOp))
    axis = s.getAxis();
  else if (auto s = dyn_cast<LogSoftmaxOp>(rowOp))
    axis = s.getAxis();
  else if (auto l = dyn_cast<LayerNormOp>(rowOp))
    axis = l.getAxis();
  else if (auto r = dyn_cast<ReduceOp>(rowOp)) {
    // Trailing, contiguous axes only: a row is then contiguous memory.
    ArrayRef<int64_t> axes = r.getAxes();
    axis = axes.empty() ? inType.getRank() : axes.front();
    for (auto [i, a] : llvm::enumerate(axes))
      if (a != axis + static_cast<int64_t>(i) ||
          axes.back() != inType.getRank() - 1)
        return rowOp->emitOpError("row kernels reduce trailing axes only");
  } else
    return rowOp->emitOpError("has no row-kernel code generation");
  if (isa<SoftmaxOp, LogSoftmaxOp>(rowOp) && axis != inType.getRank() - 1)
    return rowOp->emitOpError("row kernels reduce the last axis only");
  int64_t cols = 1;
  for (int64_t d = axis; d < inType.getRank(); ++d)
    cols *= inType.getDimSize(d);
  int64_t rows = inType.getNumElements() / std::max<int64_t>(cols, 1);
  if (cols == 0)
    return rowOp->emitOpError("reductions over empty rows have no kernel yet");

  // 16-byte vectors where the row length allows; enough threads to cover
  // the row within the register budget.
  int64_t vec = 16 / elementBytes(et);
  while (vec > 1 && cols % vec != 0)
    vec /= 2;
  int64_t vectors = llvm::divideCeil(cols, vec);
  int64_t blockSize = 32;
  while (blockSize < 256 && blockSize * 4 < vectors)
    blockSize *= 2;
  int64_t perThread = llvm::divideCeil(vectors, blockSize);
  if (perThread > kMaxVectorsPerThread)
    return fusion.emitOpError("rows of ")
           << cols << " elements exceed the register-resident row kernel";

  auto ptr1 = LLVM::LLVMPointerType::get(ctx, 1);
  auto ptr3 = LLVM::LLVMPointerType::get(ctx, 3);
  // Shared memory for two block reductions of up to 8 warps each.
  auto smemType = LLVM::LLVMArrayType::get(moduleBuilder.getF32Type(), 64);
  std::string smemName = (name + "_smem").str();
  LLVM::GlobalOp::create(moduleBuilder, loc, smemType, /*isConstant=*/false,
                         LLVM::Linkage::Internal, smemName, Attribute(),
                         /*alignment=*/16, /*addrSpace=*/3);

  auto func = createKernel(moduleBuilder, loc, name,
                           fusion.getInputs().size() + 1, blockSize);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  RowEmitter r{b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
               blockSize, LLVM::AddressOfOp::create(b, loc, ptr3, smemName)};
  Value row = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value rowBase = arith::MulIOp::create(b, loc, row, r.idx(cols));
  Value threadCol = arith::MulIOp::create(b, loc, r.tid, r.idx(vec));
  auto toI64 = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  };
  Type f32 = b.getF32Type();
  auto widen = [&](Value v) -> Value {
    return v.getType() == f32 ? v
           : elementBytes(v.getType()) < 4
               ? Value(arith::ExtFOp::create(b, loc, f32, v))
               : Value(arith::TruncFOp::create(b, loc, f32, v));
  };

  // The columns of vector k of this thread, whether they exist, and the
  // values of one operand laid out like the row (clamped, then masked).
  SmallVector<Value> colOf, validOf;
  for (int64_t k = 0; k < perThread; ++k) {
    Value col =
        arith::AddIOp::create(b, loc, threadCol, r.idx(k * blockSize * vec));
    colOf.push_back(col);
    validOf.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            col, r.idx(cols)));
  }
  auto loadRowLike = [&](Value base, Type elem, bool perRow,
                         double identity) -> SmallVector<Value> {
    SmallVector<Value> out;
    Type vt = vec > 1 ? Type(VectorType::get({vec}, elem)) : elem;
    for (int64_t k = 0; k < perThread; ++k) {
      Value col = arith::MinUIOp::create(b, loc, colOf[k], r.idx(cols - vec));
      Value at =
          perRow ? Value(arith::AddIOp::create(b, loc, rowBase, col)) : col;
      Value p =
          LLVM::GEPOp::create(b, loc, ptr1, elem, base, ValueRange{toI64(at)});
      Value v = LLVM::LoadOp::create(b, loc, vt, p, vec * elementBytes(elem));
      for (int64_t l = 0; l < vec; ++l) {
        Value x =
            vec > 1 ? Value(LLVM::ExtractElementOp::create(b, loc, v, r.i32(l)))
                    : v;
        out.push_back(arith::SelectOp::create(b, loc, validOf[k], widen(x),
                                              r.f32(identity)));
      }
    }
    return out;
  };
  auto storeRow = [&](ArrayRef<Value> values, Value base, Type elem) {
    Type vt = vec > 1 ? Type(VectorType::get({vec}, elem)) : elem;
    for (int64_t k = 0; k < perThread; ++k) {
      auto ifValid = scf::IfOp::create(b, loc, validOf[k], false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifValid.getThenRegion().front());
      Value v = LLVM::PoisonOp::create(b, loc, vt);
      for (int64_t l = 0; l < vec; ++l) {
        Value x = values[k * vec + l];
        if (elem != f32)
          x = elementBytes(elem) < 4
                  ? Value(arith::TruncFOp::create(b, loc, elem, x))
                  : Value(arith::ExtFOp::create(b, loc, elem, x));
        v = vec > 1
                ? Value(LLVM::InsertElementOp::create(b, loc, v, x, r.i32(l)))
                : x;
      }
      Value at = arith::AddIOp::create(b, loc, rowBase, colOf[k]);
      Value p =
          LLVM::GEPOp::create(b, loc, ptr1, elem, base, ValueRange{toI64(at)});
      LLVM::StoreOp::create(b, loc, v, p, vec * elementBytes(elem));
    }
  };
  auto reduceLocal = [&](Combine c, ArrayRef<Value> xs) {
    Value acc = xs.front();
    for (Value x : xs.drop_front())
      acc = r.combine(c, acc, x);
    return acc;
  };

  Value out = entry.getArgument(fusion.getInputs().size());
  Value in = entry.getArgument(0);
  double inf = std::numeric_limits<double>::infinity();
  SmallVector<Value> y;
  if (auto red = dyn_cast<ReduceOp>(rowOp)) {
    // One value per row: the block reduction, written by thread 0.
    Combine c;
    double identity;
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
    SmallVector<Value> x = loadRowLike(in, et, true, identity);
    Value v = r.blockReduce(c, reduceLocal(c, x), 0);
    if (red.getKind() == ReduceKind::mean)
      v = arith::MulFOp::create(b, loc, v,
                                r.f32(1.0 / static_cast<double>(cols)));
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, r.tid,
                                        r.idx(0));
    auto ifFirst = scf::IfOp::create(b, loc, first, false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
      if (et != f32)
        v = elementBytes(et) < 4 ? Value(arith::TruncFOp::create(b, loc, et, v))
                                 : Value(arith::ExtFOp::create(b, loc, et, v));
      Value p =
          LLVM::GEPOp::create(b, loc, ptr1, et, out, ValueRange{toI64(row)});
      LLVM::StoreOp::create(b, loc, v, p);
    }
    gpu::ReturnOp::create(b, loc);
    KernelInfo info;
    info.name = name.str();
    info.grid = rows;
    info.block = blockSize;
    info.flops = inType.getNumElements();
    info.bytes =
        bufferBytes(inType) +
        bufferBytes(cast<RankedTensorType>(fusion.getResult(0).getType()));
    return info;
  }
  if (isa<SoftmaxOp, LogSoftmaxOp>(rowOp)) {
    SmallVector<Value> x = loadRowLike(in, et, true, -inf);
    Value m = r.blockReduce(Combine::Max, reduceLocal(Combine::Max, x), 0);
    SmallVector<Value> e;
    for (auto [i, xi] : llvm::enumerate(x)) {
      // Masked lanes are -inf: exp gives 0 and they add nothing.
      e.push_back(
          math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, xi, m)));
    }
    Value s = r.blockReduce(Combine::Sum, reduceLocal(Combine::Sum, e), 1);
    if (isa<SoftmaxOp>(rowOp)) {
      Value inv = arith::DivFOp::create(b, loc, r.f32(1.0), s);
      for (Value ei : e)
        y.push_back(arith::MulFOp::create(b, loc, ei, inv));
    } else {
      Value shift =
          arith::AddFOp::create(b, loc, m, math::LogOp::create(b, loc, s));
      for (Value xi : x)
        y.push_back(arith::SubFOp::create(b, loc, xi, shift));
    }
  } else {
    auto ln = cast<LayerNormOp>(rowOp);
    SmallVector<Value> x = loadRowLike(in, et, true, 0.0);
    Value invCols = r.f32(1.0 / static_cast<double>(cols));
    Value mean = arith::MulFOp::create(
        b, loc, r.blockReduce(Combine::Sum, reduceLocal(Combine::Sum, x), 0),
        invCols);
    // Two passes over registers: the variance of centred values, which
    // stays accurate where E[x^2] - E[x]^2 would cancel.
    SmallVector<Value> d, sq;
    for (auto [i, xi] : llvm::enumerate(x)) {
      Value di = arith::SubFOp::create(b, loc, xi, mean);
      di = arith::SelectOp::create(b, loc, validOf[i / vec], di, r.f32(0.0));
      d.push_back(di);
      sq.push_back(arith::MulFOp::create(b, loc, di, di));
    }
    Value var = arith::MulFOp::create(
        b, loc, r.blockReduce(Combine::Sum, reduceLocal(Combine::Sum, sq), 1),
        invCols);
    Value rstd = math::RsqrtOp::create(
        b, loc,
        arith::AddFOp::create(b, loc, var,
                              r.f32(ln.getEpsilon().convertToDouble())));
    SmallVector<Value> scale =
        loadRowLike(entry.getArgument(1), et, false, 0.0);
    SmallVector<Value> bias;
    if (ln.getBias())
      bias = loadRowLike(entry.getArgument(2), et, false, 0.0);
    for (auto [i, di] : llvm::enumerate(d)) {
      Value v = arith::MulFOp::create(
          b, loc, arith::MulFOp::create(b, loc, di, rstd), scale[i]);
      if (!bias.empty())
        v = arith::AddFOp::create(b, loc, v, bias[i]);
      y.push_back(v);
    }
  }
  storeRow(y, out, et);
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.grid = rows;
  info.block = blockSize;
  int64_t numel = inType.getNumElements();
  info.flops = (isa<LayerNormOp>(rowOp) ? 8 : 5) * numel;
  for (Value v : fusion.getInputs())
    info.bytes += bufferBytes(cast<RankedTensorType>(v.getType()));
  info.bytes +=
      bufferBytes(cast<RankedTensorType>(fusion.getResult(0).getType()));
  return info;
}
