//===- MovementEmitter.cpp - what movement kernels share -----------------===//
//
// A constant pad's fill in its storage type, and a movement tree's element
// mapped back to one load from an input (MovementEmitter.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Movement/MovementEmitter.h"

#include "compiler/CodeGen/IndexMaps.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::movement;

/// A constant pad's fill `v` as an element of type `t`, in its storage
/// type (storageType): a float8 fill as its byte.
Value mlir::brrr::movement::fillValue(OpBuilder &b, Location loc, Type t,
                                      double v) {
  Type elem = storageType(t);
  if (auto ft = dyn_cast<FloatType>(elem))
    return arith::ConstantOp::create(b, loc, ft, b.getFloatAttr(ft, v));
  if (auto ft = dyn_cast<FloatType>(t)) {
    APFloat f(v);
    bool lost = false;
    f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    return arith::ConstantOp::create(
        b, loc, elem,
        b.getIntegerAttr(elem, f.bitcastToAPInt().getZExtValue()));
  }
  return arith::ConstantOp::create(
      b, loc, elem, b.getIntegerAttr(elem, static_cast<int64_t>(v)));
}

/// The element of `v`, a value of a movement tree (index maps and
/// concatenations), at coordinates `coords`, walked back to one load from a
/// kernel input (`argOf`: its kernel argument): each index map by
/// operandCoords (a constant pad selects its fill where the element lies
/// outside), each concatenation by branching to the operand that holds the
/// element along its axis.
Value mlir::brrr::movement::mapBack(Emitter &e, Value v,
                                    SmallVector<Value> coords, Type elem,
                                    function_ref<Value(Value)> argOf) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Operation *op = v.getDefiningOp();
  if (!op)
    return e.load(
        argOf(v), elem,
        e.linear(coords, cast<RankedTensorType>(v.getType()).getShape()));
  if (auto c = dyn_cast<ConcatOp>(op)) {
    SmallVector<ConcatPart> parts = concatParts(c);
    if (parts.empty()) // an empty result: no thread gets here
      return fillValue(b, loc, c.getType().getElementType(), 0);
    int64_t axis = c.getAxis();
    return selectConcatPart(
        e, parts, coords[axis], TypeRange{elem},
        [&](size_t k) -> SmallVector<Value> {
          SmallVector<Value> at(coords);
          at[axis] = arith::SubIOp::create(b, loc, coords[axis],
                                           e.idx(parts[k].start));
          return {mapBack(e, parts[k].input, std::move(at), elem, argOf)};
        })[0];
  }
  OperandCoords in = operandCoords(e, op, coords);
  Value value =
      mapBack(e, op->getOperand(0), std::move(in.coords), elem, argOf);
  if (in.inside)
    value = arith::SelectOp::create(
        b, loc, in.inside, value,
        fillValue(b, loc, getElementTypeOrSelf(op->getResult(0).getType()),
                  in.fill));
  return value;
}
