//===- PointwiseKernel.cpp - brrr.fusion pointwise -> gpu.func -----------===//
//
// The pointwise kernel family. Each thread owns `vec` consecutive output
// elements (16 bytes of the widest same-shaped operand): operands with the
// output's shape are read and written with one 16-byte access, broadcast
// operands element by element through their strides, inputs read through
// data movement (transposes, slices, concatenations, ...) at the
// coordinates it maps each element to (PointwiseReads.h), by vectors where
// a row of lanes stays whole. The fused ops are re-emitted per element as
// arith/math scalars; f16 and bf16 are computed in f32 and rounded once at
// the store. Booleans are one byte in memory.
//
// Over symbolic extents (compilesSymbolically), the kernel is the one of the
// largest shape, with its element count an i64 parameter and its grid an
// expression of the symbols: an element's index, and a broadcast operand's,
// are the same at every shape in range. An operand that broadcasts along
// part of the symbolic extents is the exception: its index is computed from
// the actual extents, further i64 parameters.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/PointwiseEmitter.h"
#include "compiler/CodeGen/PointwiseReads.h"

#include "passes/Analysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <memory>

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::pointwise;

FailureOr<KernelInfo> mlir::brrr::emitPointwiseKernel(FusionOp fusion,
                                                      OpBuilder &moduleBuilder,
                                                      StringRef name) {
  MLIRContext *ctx = fusion.getContext();
  Location loc = fusion.getLoc();
  auto symbolicType = cast<RankedTensorType>(fusion.getResult(0).getType());
  bool symbolic = isSymbolic(symbolicType);
  // Arguments that broadcast along part of the symbolic extents, read
  // before the types narrow to the largest shape: per dimension of such an
  // argument that does not broadcast, the output's stride and extent there
  // and the argument's stride (an element's coordinate there wraps at the
  // extent but in the first dimension), each a constant or a parameter.
  struct Term {
    AffineExpr outStride, outExtent, inStride;
    bool wrap;
  };
  DenseMap<unsigned, SmallVector<Term>> broadcastTerms;
  SmallVector<AffineExpr> extraScalars;
  auto intern = [&](AffineExpr e) {
    if (!isa<AffineConstantExpr>(e) && !llvm::is_contained(extraScalars, e))
      extraScalars.push_back(e);
  };
  // The extents the body reads as values (brrr.symbolic_constant).
  fusion.getBody().walk([&](SymbolicConstantOp sc) {
    for (AffineExpr e : sc.getValue().getMap().getResults())
      intern(e);
  });
  bool wholeRows = true;
  if (symbolic) {
    SmallVector<AffineExpr> oe = extentsOf(symbolicType);
    wholeRows = oe.empty() || isa<AffineConstantExpr>(oe.back());
    auto productFrom = [&](ArrayRef<AffineExpr> extents) {
      AffineExpr p = getAffineConstantExpr(1, ctx);
      for (AffineExpr e : extents)
        p = p * e;
      return p;
    };
    for (BlockArgument arg : fusion.getBody().getArguments()) {
      auto t = cast<RankedTensorType>(arg.getType());
      // (One of higher rank is read through data movement only.)
      if (!isSymbolic(t) || t.getRank() > symbolicType.getRank() ||
          !broadcastsAtRunTime(t, symbolicType))
        continue;
      SmallVector<AffineExpr> ue = extentsOf(t);
      size_t offset = oe.size() - ue.size();
      SmallVector<Term> terms;
      for (size_t d = 0; d < ue.size(); ++d) {
        if (isUnitExtent(ue[d]))
          continue;
        size_t od = d + offset;
        Term term{productFrom(ArrayRef(oe).drop_front(od + 1)), oe[od],
                  productFrom(ArrayRef(ue).drop_front(d + 1)), od > 0};
        intern(term.outStride);
        if (term.wrap)
          intern(term.outExtent);
        intern(term.inStride);
        terms.push_back(term);
      }
      broadcastTerms[arg.getArgNumber()] = std::move(terms);
    }
  }
  // An expand along part of the extents reads its input at the kernel's
  // own elements, which needs an argument indexed so.
  if (broadcastTerms.empty() &&
      llvm::any_of(fusion.getBody().front(),
                   [](Operation &op) { return isPartialBroadcastExpand(&op); }))
    return fusion.emitOpError("an expand along part of the symbolic extents "
                              "reads no argument that broadcasts so");
  std::optional<LargestShapeView> largest;
  if (symbolic)
    largest.emplace(fusion);
  auto outType = cast<RankedTensorType>(fusion.getResult(0).getType());
  for (Value r : fusion.getResults())
    if (cast<RankedTensorType>(r.getType()).getShape() != outType.getShape())
      return fusion.emitOpError("pointwise results must share one shape");
  ArrayRef<int64_t> shape = outType.getShape();
  int64_t numel = outType.getNumElements();

  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  // Whole vectors of the elements (verifyPointwise).
  int64_t vec = config->getVector(), blockSize = config->getThreads();

  auto ptrTy = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  unsigned numBuffers = fusion.getInputs().size() + fusion.getNumResults();
  auto func = createKernel(moduleBuilder, loc, name, numBuffers, blockSize,
                           /*numByValue=*/0,
                           /*numScalars=*/(symbolic ? 1 : 0) +
                               unsigned(extraScalars.size()));

  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  PointwiseEmitter e(b, loc);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  // Each block covers `unroll` (the config's tile: vectors a thread)
  // consecutive chunks of blockSize vectors; a thread issues all its
  // 16-byte loads before computing, so more bytes are in flight per thread.
  // Blocks wholly inside the tensor take the unguarded path; the last one
  // checks every vector.
  int64_t unroll = config->getTile().empty() ? 1 : config->getTile()[0];
  int64_t chunk = blockSize * vec;
  OpBuilder end = OpBuilder::atBlockEnd(&entry);
  gpu::ReturnOp::create(end, loc);
  b.setInsertionPoint(entry.getTerminator());
  Value blockStart = arith::MulIOp::create(b, loc, bid, e.idx(unroll * chunk));
  Value threadOffset = arith::MulIOp::create(b, loc, tid, e.idx(vec));
  // The elements this launch computes: the count it is passed, or a
  // constant (built where it is used, as the static kernel always was).
  Value passed;
  SmallVector<Value> params;
  if (symbolic)
    passed = indexArgument(b, loc, entry, numBuffers);
  for (unsigned i = 0; i < extraScalars.size(); ++i)
    params.push_back(
        indexArgument(b, loc, entry, numBuffers + (symbolic ? 1 : 0) + i));
  auto count = [&]() { return symbolic ? passed : e.idx(numel); };
  // The index, from the actual extents, of the element of a broadcast
  // argument that output element `linear` reads.
  auto valueOf = [&](AffineExpr x) -> Value {
    if (auto c = dyn_cast<AffineConstantExpr>(x))
      return e.idx(c.getValue());
    return params[llvm::find(extraScalars, x) - extraScalars.begin()];
  };
  auto runtimeIndex = [&](BlockArgument arg, Value linear) -> Value {
    auto it = broadcastTerms.find(arg.getArgNumber());
    if (it == broadcastTerms.end())
      return Value();
    Value index = e.idx(0);
    for (const Term &t : it->second) {
      Value c = isUnitExtent(t.outStride)
                    ? linear
                    : Value(arith::DivUIOp::create(b, loc, linear,
                                                   valueOf(t.outStride)));
      if (t.wrap)
        c = arith::RemUIOp::create(b, loc, c, valueOf(t.outExtent));
      if (!isUnitExtent(t.inStride))
        c = arith::MulIOp::create(b, loc, c, valueOf(t.inStride));
      index = arith::AddIOp::create(b, loc, index, c);
    }
    return index;
  };

  auto i64 = b.getI64Type();
  auto toI64 = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, v);
  };
  Block &body = fusion.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  // Coordinates in 32 bits where every tensor of the body fits.
  bool narrow = true;
  auto fits = [&](Value v) {
    narrow &= cast<RankedTensorType>(v.getType()).getNumElements() <
              (int64_t(1) << 30);
  };
  for (BlockArgument arg : body.getArguments())
    fits(arg);
  for (Operation &op : body.without_terminator())
    for (Value r : op.getResults())
      fits(r);
  Type indexType = narrow ? b.getI32Type() : Type();
  bool moves = llvm::any_of(body.without_terminator(), [](Operation &op) {
    return !isPointwise(&op) && !isa<ConstantOp, SymbolicConstantOp>(op);
  });

  // Computes and stores the vectors starting at `firsts`: every vector's
  // inputs are loaded first, then every vector's values computed, so that
  // all the loads are in flight at once (a store could alias a later load,
  // so nothing may be reordered across it).
  auto emitVectors = [&](ArrayRef<Value> firsts) -> LogicalResult {
    SmallVector<SmallVector<SmallVector<Value>>> resultsOf;
    std::vector<std::unique_ptr<VectorReads>> readsOf;
    for (Value first : firsts) {
      readsOf.push_back(std::make_unique<VectorReads>(
          b, loc, entry, shape, vec, first, indexType, moves,
          broadcastTerms.empty()
              ? llvm::function_ref<Value(BlockArgument, Value)>()
              : llvm::function_ref<Value(BlockArgument, Value)>(runtimeIndex),
          // Only an argument indexed from the actual extents can see a
          // vector cross rows; any other is the same at every row.
          broadcastTerms.empty() || wholeRows, valueOf));
      if (firsts.size() > 1 && failed(readsOf.back()->loadInputs(body)))
        return failure();
    }
    for (auto &reads : readsOf) {
      SmallVector<SmallVector<Value>> results;
      for (Value v : yield.getValues()) {
        FailureOr<SmallVector<Value>> lanes = reads->own(v);
        if (failed(lanes))
          return failure();
        results.push_back(std::move(*lanes));
      }
      resultsOf.push_back(std::move(results));
    }
    for (auto [first, results] : llvm::zip(firsts, resultsOf)) {
      Value firstI64 = toI64(first);
      for (auto [k, r] : llvm::enumerate(fusion.getResults())) {
        Type et = elementOf(r), mt = memoryType(et);
        Value base = entry.getArgument(fusion.getInputs().size() + k);
        Value ptr =
            LLVM::GEPOp::create(b, loc, ptrTy, mt, base, ValueRange{firstI64});
        Value v = e.memoryVector(results[k], et);
        if (vec == 1) {
          LLVM::StoreOp::create(b, loc, v, ptr);
          continue;
        }
        LLVM::StoreOp::create(b, loc, v, ptr, vec * elementBytes(et));
      }
    }
    return success();
  };

  if (unroll > 1) {
    Value full = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule,
        arith::AddIOp::create(b, loc, blockStart, e.idx(unroll * chunk)),
        count());
    auto ifFull = scf::IfOp::create(b, loc, full, /*withElseRegion=*/true);
    b.setInsertionPointToStart(&ifFull.getThenRegion().front());
    SmallVector<Value> firsts;
    for (int64_t k = 0; k < unroll; ++k)
      firsts.push_back(arith::AddIOp::create(
          b, loc, blockStart,
          arith::AddIOp::create(b, loc, e.idx(k * chunk), threadOffset)));
    if (failed(emitVectors(firsts)))
      return failure();
    b.setInsertionPointToStart(&ifFull.getElseRegion().front());
  }
  for (int64_t k = 0; k < unroll; ++k) {
    Value first = arith::AddIOp::create(
        b, loc, blockStart,
        arith::AddIOp::create(b, loc, e.idx(k * chunk), threadOffset));
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          first, count());
    auto ifIn = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    if (failed(emitVectors({first})))
      return failure();
  }

  KernelInfo info;
  info.name = name.str();
  info.block = blockSize;
  if (symbolic)
    info.scalars = {elementCountOf(symbolicType)};
  llvm::append_range(info.scalars, extraScalars);
  int64_t ops = 0;
  for (Operation &op : body.without_terminator())
    if (isPointwise(&op))
      ++ops;
  info.flops = ops * numel;
  info.bytes = fusionBytes(fusion);
  return info;
}
