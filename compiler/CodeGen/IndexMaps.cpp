//===- IndexMaps.cpp - coordinates through data movement ------------------===//

#include "compiler/CodeGen/IndexMaps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>

using namespace mlir;
using namespace mlir::brrr;

SmallVector<std::array<size_t, 4>>
mlir::brrr::reshapeGroups(ArrayRef<int64_t> in, ArrayRef<int64_t> out) {
  if (llvm::is_contained(in, 0) || llvm::is_contained(out, 0))
    return {{0, in.size(), 0, out.size()}};
  SmallVector<std::array<size_t, 4>> groups;
  size_t i = 0, o = 0;
  while (i < in.size() || o < out.size()) {
    size_t ib = i, ob = o;
    int64_t pi = i < in.size() ? in[i++] : 1;
    int64_t po = o < out.size() ? out[o++] : 1;
    while (pi != po) {
      if (pi < po && i < in.size())
        pi *= in[i++];
      else if (po < pi && o < out.size())
        po *= out[o++];
      else
        return {{0, in.size(), 0, out.size()}};
    }
    // Trailing size-1 dimensions join this run.
    while (i < in.size() && in[i] == 1 && (o >= out.size() || out[o] != 1))
      ++i;
    while (o < out.size() && out[o] == 1 && (i >= in.size() || in[i] != 1))
      ++o;
    groups.push_back({ib, i, ob, o});
  }
  return groups;
}

OperandCoords mlir::brrr::operandCoords(IndexMath &e, Operation *op,
                                        ArrayRef<Value> coords) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto shapeOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  };
  ArrayRef<int64_t> inShape = shapeOf(op->getOperand(0));
  ArrayRef<int64_t> outShape = shapeOf(op->getResult(0));
  OperandCoords r;
  SmallVector<Value> &in = r.coords;
  in.resize(inShape.size());
  if (isa<ReshapeOp>(op)) {
    // Group by group: the shortest runs of input and output dimensions
    // of equal sizes (a split or merge of dimensions), so that the
    // dimensions a reshape keeps pass through untouched.
    for (auto [ib, ie, ob, oe] : reshapeGroups(inShape, outShape)) {
      ArrayRef<int64_t> outGroup = outShape.slice(ob, oe - ob);
      ArrayRef<int64_t> inGroup = inShape.slice(ib, ie - ib);
      if (outGroup == inGroup) {
        for (size_t d = 0; d < inGroup.size(); ++d)
          in[ib + d] = coords[ob + d];
        continue;
      }
      Value lin = e.linear(coords.slice(ob, oe - ob), outGroup);
      SmallVector<int64_t> strides = rowMajorStrides(inGroup);
      for (size_t d = 0; d < inGroup.size(); ++d)
        in[ib + d] = e.rem(e.div(lin, strides[d]), inGroup[d]);
    }
  } else if (auto t = dyn_cast<TransposeOp>(op)) {
    for (auto [i, p] : llvm::enumerate(t.getPerm()))
      in[p] = coords[i];
  } else if (auto s = dyn_cast<SliceOp>(op)) {
    for (size_t d = 0; d < inShape.size(); ++d)
      in[d] = e.add(
          e.idx(s.getStarts()[d]),
          arith::MulIOp::create(b, loc, coords[d], e.idx(s.getSteps()[d])));
  } else if (auto x = dyn_cast<ExpandOp>(op)) {
    int64_t offset = outShape.size() - inShape.size();
    for (size_t d = 0; d < inShape.size(); ++d)
      in[d] = inShape[d] == 1 ? e.idx(0) : coords[d + offset];
  } else {
    auto p = cast<PadOp>(op);
    Value inside =
        arith::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
    for (size_t d = 0; d < inShape.size(); ++d) {
      Value c = arith::SubIOp::create(b, loc, coords[d], e.idx(p.getLow()[d]));
      int64_t n = inShape[d];
      if (p.getMode() == PadMode::constant) {
        Value ok = arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, c,
                                  e.idx(0)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c,
                                  e.idx(n)));
        inside = arith::AndIOp::create(b, loc, inside, ok);
        c = e.clamp(c, 0, n - 1);
      } else if (p.getMode() == PadMode::edge) {
        c = e.clamp(c, 0, n - 1);
      } else {
        // reflect: ... 2 1 | 0 1 2 ... n-1 | n-2 ...; one bounce suffices
        // because the verifier bounds the padding by n - 1.
        Value negC = arith::SubIOp::create(b, loc, e.idx(0), c);
        c = arith::SelectOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c,
                                  e.idx(0)),
            negC, c);
        Value over = arith::SubIOp::create(b, loc, e.idx(2 * (n - 1)), c);
        c = arith::SelectOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, c,
                                  e.idx(n)),
            over, c);
      }
      in[d] = c;
    }
    if (p.getMode() == PadMode::constant) {
      r.inside = inside;
      r.fill = p.getValue().convertToDouble();
    }
  }
  return r;
}

SmallVector<ConcatPart> mlir::brrr::concatParts(ConcatOp c) {
  int64_t axis = c.getAxis();
  SmallVector<ConcatPart> parts;
  int64_t start = 0;
  for (Value in : c.getInputs()) {
    int64_t size = cast<RankedTensorType>(in.getType()).getDimSize(axis);
    if (size != 0)
      parts.push_back({in, start});
    start += size;
  }
  return parts;
}

SmallVector<Value> mlir::brrr::selectConcatPart(
    IndexMath &e, ArrayRef<ConcatPart> parts, Value at, TypeRange types,
    llvm::function_ref<SmallVector<Value>(size_t)> emitPart) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  // Of the parts, the last whose start is <= the coordinate holds it: past
  // kLinearParts parts found by halving the range, below it by testing
  // each in turn.
  if (parts.size() > kLinearParts) {
    std::function<SmallVector<Value>(size_t, size_t)> search =
        [&](size_t lo, size_t hi) -> SmallVector<Value> {
      if (lo == hi)
        return emitPart(lo);
      size_t mid = (lo + hi + 1) / 2;
      Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at,
                                          e.idx(parts[mid].start));
      auto ifBelow = scf::IfOp::create(b, loc, types, below, true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifBelow.getThenRegion().front());
      scf::YieldOp::create(b, loc, search(lo, mid - 1));
      b.setInsertionPointToStart(&ifBelow.getElseRegion().front());
      scf::YieldOp::create(b, loc, search(mid, hi));
      return SmallVector<Value>(ifBelow.getResults());
    };
    return search(0, parts.size() - 1);
  }
  std::function<SmallVector<Value>(size_t)> pick =
      [&](size_t k) -> SmallVector<Value> {
    if (k + 1 == parts.size())
      return emitPart(k);
    Value here = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at,
                                       e.idx(parts[k + 1].start));
    auto ifHere = scf::IfOp::create(b, loc, types, here, true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifHere.getThenRegion().front());
    scf::YieldOp::create(b, loc, emitPart(k));
    b.setInsertionPointToStart(&ifHere.getElseRegion().front());
    scf::YieldOp::create(b, loc, pick(k + 1));
    return SmallVector<Value>(ifHere.getResults());
  };
  return pick(0);
}
