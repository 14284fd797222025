//===- AttentionStore.cpp - the attention kernel's normalized rows -----===//
//
// The end of the attention kernel (AttentionKernel.h): each row divided
// by its sum, then stored through the fusion's epilogue. An epilogue that
// only rounds, quantizes by constants and permutes (plainStoreOf) stages
// the warp's rows in shared memory and stores 16-byte chunks along the
// head; any other computes and stores one element at a time.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Attention/AttentionKernel.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::attention;

/// The plain store of `fusion` around `att`, or none: after the attention
/// only float casts, then at most a quantize by a constant scale and zero
/// point (a product's 8-bit input), then at most a yielded transpose that
/// keeps the head innermost, and one output.
std::optional<PlainStore> mlir::brrr::attention::plainStoreOf(FusionOp fusion,
                                                              AttentionOp att) {
  Block &body = fusion.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != 1)
    return std::nullopt;
  PlainStore plain;
  Value v = att.getResult();
  SmallVector<int64_t> perm = {0, 1, 2, 3};
  for (Operation *op = att->getNextNode(); op != yield;
       op = op->getNextNode()) {
    if (isa<ConstantOp>(op))
      continue; // a quantize's scale or zero point
    if (op->getNumOperands() < 1 || op->getOperand(0) != v || !v.hasOneUse())
      return std::nullopt;
    if (auto c = dyn_cast<CastOp>(op)) {
      Type t = c.getType().getElementType();
      if (plain.quantize || !isa<FloatType>(t) ||
          t.getIntOrFloatBitWidth() > 32 || t.getIntOrFloatBitWidth() < 16)
        return std::nullopt;
      plain.casts.push_back(t);
    } else if (auto q = dyn_cast<QuantizeOp>(op)) {
      auto one = [&](Value c) {
        auto k = c.getDefiningOp<ConstantOp>();
        return k && k->getBlock() == &body &&
               cast<RankedTensorType>(c.getType()).getNumElements() == 1;
      };
      if (plain.quantize || !one(q.getScale()) || !one(q.getZeroPoint()))
        return std::nullopt;
      plain.quantize = q;
    } else if (auto t = dyn_cast<TransposeOp>(op)) {
      if (t->getNextNode() != yield.getOperation() || t.getPerm().back() != 3)
        return std::nullopt;
      perm.assign(t.getPerm().begin(), t.getPerm().end());
    } else {
      return std::nullopt;
    }
    v = op->getResult(0);
  }
  if (yield.getValues()[0] != v)
    return std::nullopt;
  SmallVector<int64_t> outStrides =
      rowMajorStrides(cast<RankedTensorType>(v.getType()).getShape());
  plain.strides.assign(4, 0);
  for (int64_t d = 0; d < 4; ++d)
    plain.strides[perm[d]] = outStrides[d];
  return plain;
}

LogicalResult AttentionKernel::storeRows(ValueRange results) {
  // Each row's sum over its quad; rows without a probability (every key
  // masked: 0 / 0) are NaN, as the softmax gives them, or zero with
  // `zero_nan`.
  SmallVector<Value> inv, keep;
  for (int64_t k = 0; k < 2 * mTiles; ++k) {
    Value sum = results[mTiles * oRegs + 2 * mTiles + k];
    sum = e.fadd(sum, e.shuffleXor(sum, 1));
    sum = e.fadd(sum, e.shuffleXor(sum, 2));
    inv.push_back(arith::DivFOp::create(b, loc, e.f32(1), sum));
    keep.push_back(
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, sum, zero));
  }
  auto finalValue = [&](int64_t mi, int64_t ot, int64_t i) {
    Value value = e.fmul(results[mi * oRegs + ot * 4 + i], inv[2 * mi + i / 2]);
    return att.getZeroNan() ? e.select(keep[2 * mi + i / 2], value, zero)
                            : value;
  };
  std::optional<PlainStore> plain = plainStoreOf(fusion, att);
  // The staged copy moves 16 bytes a thread: 8-bit rows of whole 16
  // bytes, as many chunks as a round of threads.
  if (!plain || (plain->quantize && !symbolic &&
                 (dv % 16 != 0 || (rows * dv / 16) % threads != 0)))
    return storeElements(finalValue);
  return storeStaged(*plain, finalValue);
}

LogicalResult AttentionKernel::storeElements(
    function_ref<Value(int64_t, int64_t, int64_t)> finalValue) {
  if (symbolic)
    return att.emitOpError("over symbolic sequences, the attention kernel "
                           "stores its rows only rounded and permuted");
  SmallVector<Value> outputs(
      entry->getArguments().drop_front(numInputs).take_front(
          fusion.getNumResults()));
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ot = 0; ot < oTiles; ++ot)
      for (int64_t i = 0; i < 4; ++i) {
        Value row = rowOf(mi, i / 2);
        Value col = e.add(t2, e.idx(ot * 8 + i % 2));
        auto ifValid = scf::IfOp::create(b, loc, e.ult(row, sq.value), false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifValid.getThenRegion().front());
        Value at = e.add(
            e.mul(e.add(e.mul(e.add(e.mul(bz, heads), h), sq.value), row), dv),
            col);
        if (failed(emitEpilogue(
                b, loc, fusion, att, finalValue(mi, ot, i), at,
                [&](Value v) { return arg(v); }, outputs)))
          return failure();
      }
  return success();
}

LogicalResult AttentionKernel::storeStaged(
    const PlainStore &plain,
    function_ref<Value(int64_t, int64_t, int64_t)> finalValue) {
  SmallVector<Value> outputs(
      entry->getArguments().drop_front(numInputs).take_front(
          fusion.getNumResults()));
  FailureOr<int64_t> stagingAt = sharedOffset(fusion, SharedRole::output);
  if (failed(stagingAt))
    return failure();
  gpu::BarrierOp::create(b, loc);
  QuantizeOp quantize = plain.quantize;
  Type st = quantize              ? quantize.getType().getElementType()
            : plain.casts.empty() ? att.getType().getElementType()
                                  : plain.casts.back();
  Type mt = pointwise::memoryType(st);
  int64_t bytes = st.getIntOrFloatBitWidth() / 8;
  int64_t pitchBytes = dv * bytes + 16;
  Value staging = e.gep(smem, i8, e.idx(*stagingAt));
  auto round = [&](Value v) {
    Type from = f32;
    SmallVector<Type> chain = {att.getType().getElementType()};
    llvm::append_range(chain, plain.casts);
    for (Type t : chain) {
      if (t != from)
        v = t.getIntOrFloatBitWidth() < from.getIntOrFloatBitWidth()
                ? Value(arith::TruncFOp::create(b, loc, t, v))
                : Value(arith::ExtFOp::create(b, loc, t, v));
      from = t;
    }
    return v;
  };
  // With a quantize: the value rounded to the attention's type, then the
  // epilogue's casts and quantize as every kernel computes them, in the
  // 8-bit type's memory form.
  auto stored = [&](Value v) -> Value {
    if (!quantize)
      return round(v);
    Type attType = att.getType().getElementType();
    if (attType != f32)
      v = arith::ExtFOp::create(
          b, loc, f32, arith::TruncFOp::create(b, loc, attType, v).getResult());
    DenseMap<Value, Value> scalar;
    if (failed(computeEpilogue(
            b, loc, fusion, att, v, e.idx(0), [&](Value x) { return arg(x); },
            nullptr, scalar)))
      return Value();
    pointwise::PointwiseEmitter pe(b, loc);
    return pe.toMemory(scalar.lookup(quantize.getResult()), st);
  };
  auto pairOf = VectorType::get({2}, mt);
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t ot = 0; ot < oTiles; ++ot)
      for (int64_t r = 0; r < 2; ++r) {
        Value v = LLVM::PoisonOp::create(b, loc, pairOf);
        for (int64_t c = 0; c < 2; ++c) {
          Value x = stored(finalValue(mi, ot, 2 * r + c));
          if (!x)
            return failure();
          v = LLVM::InsertElementOp::create(b, loc, v, x, e.i32(c));
        }
        Value row = e.add(warpRow0, e.add(g, e.idx(mi * 16 + r * 8)));
        Value at = e.add(e.mul(row, pitchBytes),
                         e.mul(e.add(t2, e.idx(ot * 8)), bytes));
        LLVM::StoreOp::create(b, loc, v, e.gep(staging, i8, at));
      }
  gpu::BarrierOp::create(b, loc);
  SmallVector<Extent> os = outStrides;
  if (!symbolic)
    for (int64_t stride : plain.strides)
      os.push_back(Extent{stride});
  int64_t chunksPerRow = dv * bytes / 16;
  auto chunk = VectorType::get({4}, i32);
  for (int64_t i = 0; i < rows * chunksPerRow / threads; ++i) {
    Value c = e.add(tid, e.idx(i * threads));
    Value row = e.div(c, chunksPerRow), ch = e.rem(c, chunksPerRow);
    Value qRow = e.add(q0, row);
    auto ifValid = scf::IfOp::create(b, loc, ult(qRow, sq), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifValid.getThenRegion().front());
    Value v = LLVM::LoadOp::create(
        b, loc, chunk,
        e.gep(staging, i8, e.add(e.mul(row, pitchBytes), e.mul(ch, 16))));
    Value at = e.add(e.add(mul(bz, os[0]), mul(h, os[1])),
                     e.add(mul(qRow, os[2]), e.mul(ch, 16 / bytes)));
    LLVM::StoreOp::create(b, loc, v, e.gep(outputs[0], mt, at),
                          /*alignment=*/16);
  }
  return success();
}
