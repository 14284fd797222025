//===- MovementEmitter.h - what movement kernels share ----------*- C++ -*-===//
//
// The pieces of the data-movement kernel family's code generation
// (MovementKernel.cpp) that its kernels share: elements' storage types,
// extents fixed or read at run time, index loads with their range checks
// and reports, scatter reductions, and a movement tree's element mapped
// back to one load from an input. Private to compiler/CodeGen/Movement.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_MOVEMENT_MOVEMENTEMITTER_H
#define BRRR_COMPILER_CODEGEN_MOVEMENT_MOVEMENTEMITTER_H

#include "compiler/CodeGen/KernelUtils.h"

#include "dialects/Brrr/BrrrOps.h"
#include "runtime/Artifact.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cstddef>

namespace mlir::brrr::movement {

/// Type an element has in memory: i8 for i1, signless integers.
inline Type storageType(Type t) {
  // Booleans and float8 move as bytes (LLVM has no float8 type).
  if (t.isInteger(1) || (isa<FloatType>(t) && t.getIntOrFloatBitWidth() == 8))
    return IntegerType::get(t.getContext(), 8);
  if (auto it = dyn_cast<IntegerType>(t))
    return IntegerType::get(t.getContext(), it.getWidth());
  return t;
}

/// Whether extent `x` is read at run time (symbolic), not a constant.
inline bool isRunTimeExtent(AffineExpr x) {
  return !isa<AffineConstantExpr>(x);
}

/// A dimension's size: fixed, or read at run time (an index value).
struct Extent {
  Extent(int64_t fixed) : fixed(fixed) {}
  Extent(Value value) : value(value) {}
  int64_t fixed = 0;
  Value value;
};

/// Index arithmetic plus what movement kernels emit with it: loads, index
/// checks and their reports, scatter reductions and folds.
struct Emitter : IndexMath {
  /// The run's error record (a kernel parameter) and the kernel's check id,
  /// or null: the kernel does not check its indices.
  Value record = nullptr;
  int64_t checkId = 0;

  Value load(Value base, Type elem, Value linearIndex) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
    Value i = linearIndex.getType().isIndex()
                  ? Value(arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                                     linearIndex))
                  : Value(arith::ExtUIOp::create(b, loc, b.getI64Type(),
                                                 linearIndex));
    Value p = LLVM::GEPOp::create(b, loc, ptr, elem, base, ValueRange{i});
    return LLVM::LoadOp::create(b, loc, elem, p);
  }
  Value sizeOf(Extent d) { return d.value ? d.value : idx(d.fixed); }
  /// `x` clamped into [0, max(size - 1, 0)] for a size read at run time.
  Value clampBelow(Value x, Value size) {
    Value last = arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, size, idx(1)), idx(0));
    return arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, x, idx(0)), last);
  }
  /// The index stored at `linearIndex` of an index tensor, for dimension
  /// `axis` (of size `dim`) of the tensor it indexes; negative values
  /// counted from the end. Not clamped; reported when out of range and the
  /// kernel checks its indices.
  Value loadIndex(Value base, Value indices, Value linearIndex, Extent dim,
                  int64_t axis) {
    Type t =
        storageType(cast<RankedTensorType>(indices.getType()).getElementType());
    Value raw = load(base, t, linearIndex);
    Value k = arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
    Value neg =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, k, idx(0));
    Value normal = arith::SelectOp::create(b, loc, neg, add(k, sizeOf(dim)), k);
    if (record) {
      // Below -dim the normalized index is still negative: unsigned, it is
      // past the end as well.
      Value bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                        normal, sizeOf(dim));
      auto ifBad = scf::IfOp::create(b, loc, bad, false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifBad.getThenRegion().front());
      report(raw, dim, axis);
    }
    return normal;
  }
  /// Claims the error record for this thread's bad index `raw` (an i32 or
  /// i64) of dimension `axis` of size `dim`, unless another thread has.
  void report(Value raw, Extent dim, int64_t axis) {
    namespace art = ::brrr::artifact;
    auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
    Type i8 = b.getI8Type(), i32 = b.getI32Type(), i64 = b.getI64Type();
    auto field = [&](size_t offset) -> Value {
      Value at = arith::ConstantOp::create(
          b, loc, i64, b.getI64IntegerAttr(static_cast<int64_t>(offset)));
      return LLVM::GEPOp::create(b, loc, ptr, i8, record, ValueRange{at});
    };
    auto i32c = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
    };
    auto i64c = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
    };
    auto claim = LLVM::AtomicCmpXchgOp::create(
        b, loc, field(offsetof(art::ErrorRecord, state)),
        i32c(art::kRecordClear), i32c(art::kRecordWriting),
        LLVM::AtomicOrdering::monotonic, LLVM::AtomicOrdering::monotonic);
    Value won = LLVM::ExtractValueOp::create(b, loc, claim, 1);
    auto ifWon = scf::IfOp::create(b, loc, won, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifWon.getThenRegion().front());
    Value value = raw.getType() == i64
                      ? raw
                      : Value(arith::ExtSIOp::create(b, loc, i64, raw));
    LLVM::StoreOp::create(b, loc, i32c(checkId),
                          field(offsetof(art::ErrorRecord, check)));
    LLVM::StoreOp::create(b, loc, i32c(axis),
                          field(offsetof(art::ErrorRecord, axis)));
    LLVM::StoreOp::create(b, loc, value,
                          field(offsetof(art::ErrorRecord, value)));
    Value extentField = field(offsetof(art::ErrorRecord, extent));
    Value extent = dim.value
                       ? arith::IndexCastOp::create(b, loc, i64, dim.value)
                       : i64c(dim.fixed);
    LLVM::StoreOp::create(b, loc, extent, extentField);
    // The host may read the record while the run goes on: the fields
    // before the state that says they are there.
    LLVM::StoreOp::create(b, loc, i32c(art::kRecordWritten),
                          field(offsetof(art::ErrorRecord, state)),
                          /*alignment=*/4, /*isVolatile=*/false,
                          /*isNonTemporal=*/false, /*isInvariantGroup=*/false,
                          LLVM::AtomicOrdering::release);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  /// `acc` combined with `update` per a scatter's reduction; `type` is the
  /// tensor's element type (i1 stored as i8: add/max are or, mul/min and).
  Value combine(ScatterReduction r, Type type, Value acc, Value update) {
    bool isFloat = isa<FloatType>(type), isBool = type.isInteger(1);
    bool isUnsigned = type.isUnsignedInteger();
    switch (r) {
    case ScatterReduction::none:
      return update;
    case ScatterReduction::add:
      if (isFloat)
        return arith::AddFOp::create(b, loc, acc, update);
      if (isBool)
        return arith::OrIOp::create(b, loc, acc, update);
      return arith::AddIOp::create(b, loc, acc, update);
    case ScatterReduction::mul:
      if (isFloat)
        return arith::MulFOp::create(b, loc, acc, update);
      if (isBool)
        return arith::AndIOp::create(b, loc, acc, update);
      return arith::MulIOp::create(b, loc, acc, update);
    case ScatterReduction::max:
      if (isFloat)
        return arith::MaximumFOp::create(b, loc, acc, update);
      if (isBool || isUnsigned)
        return arith::MaxUIOp::create(b, loc, acc, update);
      return arith::MaxSIOp::create(b, loc, acc, update);
    case ScatterReduction::min:
      if (isFloat)
        return arith::MinimumFOp::create(b, loc, acc, update);
      if (isBool || isUnsigned)
        return arith::MinUIOp::create(b, loc, acc, update);
      return arith::MinSIOp::create(b, loc, acc, update);
    }
    return update;
  }
  /// Folds `step(i, acc)` over i in [0, count), starting from `init`.
  Value loop(int64_t count, Value init,
             function_ref<Value(Value, Value)> step) {
    auto forOp = scf::ForOp::create(b, loc, idx(0), idx(count), idx(1),
                                    ValueRange{init});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    scf::YieldOp::create(
        b, loc,
        step(forOp.getInductionVar(), forOp.getRegionIterArgs().front()));
    return forOp.getResult(0);
  }
};

/// A constant pad's fill `v` as an element of type `t`, in its storage
/// type (storageType): a float8 fill as its byte.
Value fillValue(OpBuilder &b, Location loc, Type t, double v);

/// The element of `v`, a value of a movement tree (index maps and
/// concatenations), at coordinates `coords`, walked back to one load from a
/// kernel input (`argOf`: its kernel argument): each index map by
/// operandCoords (a constant pad selects its fill where the element lies
/// outside), each concatenation by branching to the operand that holds the
/// element along its axis.
Value mapBack(Emitter &e, Value v, SmallVector<Value> coords, Type elem,
              function_ref<Value(Value)> argOf);

} // namespace mlir::brrr::movement

#endif // BRRR_COMPILER_CODEGEN_MOVEMENT_MOVEMENTEMITTER_H
