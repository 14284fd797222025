//===- PointwiseReads.cpp - a pointwise body on one output vector ---------===//

#include "compiler/CodeGen/PointwiseReads.h"

#include "compiler/CodeGen/IndexMaps.h"

#include "passes/Analysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::pointwise;

namespace {

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// Whether the innermost dimension of a value of shape `to` broadcasts
/// along that of `from` (or `to` is a scalar): every lane of a row reads
/// one element.
bool innermostBroadcasts(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  return to.empty() || (to.back() == 1 && !from.empty() && from.back() != 1);
}

} // namespace

VectorReads::VectorReads(
    OpBuilder &b, Location loc, Block &entry, ArrayRef<int64_t> shape,
    int64_t vec, Value first, Type indexType, bool moves,
    llvm::function_ref<Value(BlockArgument, Value)> runtimeIndex,
    bool wholeRows, llvm::function_ref<Value(AffineExpr)> extentValue)
    : b(b), loc(loc), entry(entry), shape(shape), vec(vec), first(first),
      runtimeIndex(runtimeIndex), wholeRows(wholeRows),
      extentValue(extentValue), im{b, loc, indexType}, pe(b, loc) {
  if (!moves || shape.empty())
    return;
  Value at = indexType
                 ? Value(arith::IndexCastUIOp::create(b, loc, indexType, first))
                 : first;
  ownCoords = im.coordsOf(at, shape);
  if (shape.back() % vec != 0)
    for (int64_t l = 0; l < vec; ++l)
      ownLanes.push_back(im.coordsOf(im.add(at, im.idx(l)), shape));
}

SmallVector<Value> VectorReads::broadcastCoords(ArrayRef<Value> coords,
                                                ArrayRef<int64_t> from,
                                                ArrayRef<int64_t> to) {
  int64_t offset = from.size() - to.size();
  SmallVector<Value> r;
  for (auto [d, n] : llvm::enumerate(to))
    r.push_back(n == 1 ? im.idx(0) : coords[d + offset]);
  return r;
}

LaneAccess VectorReads::coordinatesIn(const LaneAccess &a,
                                      ArrayRef<int64_t> to) {
  if (a.kind != LaneAccess::own)
    return a;
  LaneAccess r;
  if (shape.empty() || to.empty()) {
    r.kind = LaneAccess::uniform;
    r.coords = {broadcastCoords(ownCoords, shape, to)};
    return r;
  }
  if (!ownLanes.empty()) { // a vector may cross rows
    r.kind = LaneAccess::perLane;
    for (ArrayRef<Value> lane : ownLanes)
      r.coords.push_back(broadcastCoords(lane, shape, to));
    return r;
  }
  r.kind = innermostBroadcasts(shape, to) ? LaneAccess::uniform
                                          : LaneAccess::contiguous;
  r.aligned = true;
  r.coords = {broadcastCoords(ownCoords, shape, to)};
  return r;
}

LaneAccess VectorReads::broadcast(const LaneAccess &a, ArrayRef<int64_t> from,
                                  ArrayRef<int64_t> to) {
  if (a.kind == LaneAccess::own)
    return a;
  LaneAccess r;
  r.kind = a.kind;
  r.aligned = a.aligned;
  if (a.kind == LaneAccess::contiguous && innermostBroadcasts(from, to))
    r.kind = LaneAccess::uniform;
  for (ArrayRef<Value> c : a.coords)
    r.coords.push_back(broadcastCoords(c, from, to));
  return r;
}

LaneAccess VectorReads::perLane(const LaneAccess &a) {
  LaneAccess r;
  r.kind = LaneAccess::perLane;
  if (a.kind == LaneAccess::perLane)
    return a;
  for (int64_t l = 0; l < vec; ++l) {
    SmallVector<Value> c(a.coords.front());
    if (a.kind == LaneAccess::contiguous)
      c.back() = im.add(c.back(), im.idx(l));
    r.coords.push_back(std::move(c));
  }
  return r;
}

Value VectorReads::loadScalar(Value base, Type et, Value index) {
  return loadElements(b, loc, base, et, index)[0];
}

FailureOr<SmallVector<Value>> VectorReads::load(BlockArgument arg,
                                                const LaneAccess &a) {
  ArrayRef<int64_t> argShape = shapeOf(arg);
  Type et = elementOf(arg);
  Value base = entry.getArgument(arg.getArgNumber());
  SmallVector<Value> lanes;
  if (a.kind == LaneAccess::own) {
    if (argShape == ArrayRef<int64_t>(shape))
      return loadElements(b, loc, base, et, first, vec);
    IndexMath ii{b, loc};
    // The index of the element that broadcasts to output element `linear`:
    // from the actual extents for an argument that broadcasts along part
    // of the symbolic ones (runtimeIndex), else from the shapes.
    auto indexOf = [&](Value linear) {
      Value at = runtimeIndex ? runtimeIndex(arg, linear) : Value();
      return at ? at : ii.broadcastIndex(linear, shape, argShape);
    };
    if (!shape.empty() && wholeRows && shape.back() % vec == 0) {
      // The lanes lie in one row: a broadcast operand whose rows are the
      // kernel's is read as a vector from lane 0's element (a multiple of
      // vec: its other strides are multiples of the row), one broadcast
      // along the row as one element.
      Value at = indexOf(first);
      if (innermostBroadcasts(shape, argShape))
        return SmallVector<Value>(vec, loadScalar(base, et, at));
      return loadElements(b, loc, base, et, at, vec);
    }
    // Otherwise per lane, the element that broadcasts to the lane's output
    // element.
    for (int64_t l = 0; l < vec; ++l)
      lanes.push_back(loadScalar(base, et, indexOf(ii.add(first, ii.idx(l)))));
    return lanes;
  }
  if (a.kind == LaneAccess::uniform)
    return SmallVector<Value>(
        vec, loadScalar(base, et, im.linear(a.coords[0], argShape)));
  if (a.kind == LaneAccess::perLane) {
    for (ArrayRef<Value> c : a.coords)
      lanes.push_back(loadScalar(base, et, im.linear(c, argShape)));
    return lanes;
  }
  Value at = im.linear(a.coords[0], argShape);
  // Whole rows of vectors: lane 0's index is a multiple of vec.
  if (a.aligned && argShape.back() % vec == 0)
    return loadElements(b, loc, base, et, at, vec);
  for (int64_t l = 0; l < vec; ++l)
    lanes.push_back(loadScalar(base, et, im.add(at, im.idx(l))));
  return lanes;
}

LogicalResult VectorReads::loadInputs(Block &body) {
  // The values `own` computes at the kernel's own elements: the yielded
  // ones and, through pointwise ops (whose operands take the same access),
  // their operands. Movement ops read their operands elsewhere.
  llvm::SetVector<Value> owned;
  for (Value v : body.getTerminator()->getOperands())
    owned.insert(v);
  for (size_t i = 0; i < owned.size(); ++i)
    if (Operation *op = owned[i].getDefiningOp(); op && isPointwise(op))
      owned.insert(op->operand_begin(), op->operand_end());
  for (Value v : owned)
    if (isa<BlockArgument>(v) && failed(eval(v, LaneAccess())))
      return failure();
  return success();
}

FailureOr<SmallVector<Value>> VectorReads::indexMap(Operation *op,
                                                    const LaneAccess &access) {
  Value input = op->getOperand(0);
  ArrayRef<int64_t> out = shapeOf(op->getResult(0)), in = shapeOf(input);
  LaneAccess a = coordinatesIn(access, out);
  // Whether the lanes of a contiguous access stay in one row of the
  // operand, and where lane 0 lands.
  std::optional<LaneAccess::Kind> kept;
  bool aligned = a.aligned;
  if (a.kind == LaneAccess::contiguous && !in.empty()) {
    int64_t last = out.size() - 1;
    if (auto t = dyn_cast<TransposeOp>(op)) {
      if (t.getPerm()[last] == last)
        kept = LaneAccess::contiguous;
    } else if (auto s = dyn_cast<SliceOp>(op)) {
      if (s.getSteps()[last] == 1) {
        kept = LaneAccess::contiguous;
        aligned &= s.getStarts()[last] % vec == 0;
      }
    } else if (isa<ReshapeOp>(op)) {
      if (aligned && out.back() % vec == 0 && in.back() % vec == 0)
        kept = LaneAccess::contiguous;
    } else if (isa<ExpandOp>(op)) {
      kept = innermostBroadcasts(out, in) ? LaneAccess::uniform
                                          : LaneAccess::contiguous;
    } else if (auto p = dyn_cast<PadOp>(op)) {
      if (p.getLow()[last] == 0 && in.back() == out.back())
        kept = LaneAccess::contiguous;
    }
    if (!kept)
      a = perLane(a);
  }
  LaneAccess operand;
  operand.kind = kept ? *kept : a.kind;
  operand.aligned = aligned;
  SmallVector<Value> inside;
  double fill = 0;
  for (ArrayRef<Value> c : a.coords) {
    OperandCoords oc = operandCoords(im, op, c);
    operand.coords.push_back(std::move(oc.coords));
    inside.push_back(oc.inside);
    fill = oc.fill;
  }
  if (in.empty()) { // every lane reads the one element
    operand.kind = LaneAccess::uniform;
    operand.coords.resize(1);
    inside.resize(1);
  }
  FailureOr<SmallVector<Value>> lanes = eval(input, operand);
  if (failed(lanes) || !inside.front())
    return lanes;
  Value fillValue = pe.cst(computeType(elementOf(input)), fill);
  for (auto [l, v] : llvm::enumerate(*lanes))
    v = arith::SelectOp::create(b, loc, inside[inside.size() == 1 ? 0 : l], v,
                                fillValue);
  return lanes;
}

FailureOr<SmallVector<Value>> VectorReads::concat(ConcatOp c,
                                                  const LaneAccess &access) {
  ArrayRef<int64_t> out = shapeOf(c.getResult());
  Type ct = computeType(elementOf(c.getResult()));
  SmallVector<ConcatPart> parts = concatParts(c);
  if (parts.empty()) // an empty result: no lane reads it
    return SmallVector<Value>(vec, pe.cst(ct, 0));
  int64_t axis = c.getAxis(), last = out.size() - 1;
  LaneAccess a = coordinatesIn(access, out);
  // A contiguous vector lies in one part where parts start at whole
  // vectors (or the parts meet along another dimension).
  if (a.kind == LaneAccess::contiguous && axis == last &&
      !(a.aligned && llvm::all_of(parts, [&](const ConcatPart &p) {
          return p.start % vec == 0;
        })))
    a = perLane(a);
  // Each part's branch computes its own values: what it computes does not
  // dominate the code after the branch.
  auto select = [&](ArrayRef<Value> coords, LaneAccess::Kind kind,
                    int64_t width) {
    return selectConcatPart(
        im, parts, coords[axis], SmallVector<Type>(width, ct),
        [&](size_t k) -> SmallVector<Value> {
          LaneAccess part;
          part.kind = kind;
          part.aligned = a.aligned;
          part.coords = {SmallVector<Value>(coords)};
          part.coords[0][axis] = arith::SubIOp::create(b, loc, coords[axis],
                                                       im.idx(parts[k].start));
          auto saved = memo;
          FailureOr<SmallVector<Value>> lanes = eval(parts[k].input, part);
          memo = std::move(saved);
          if (failed(lanes)) {
            broken = true;
            return SmallVector<Value>(width, pe.cst(ct, 0));
          }
          return SmallVector<Value>(ArrayRef<Value>(*lanes).take_front(width));
        });
  };
  SmallVector<Value> lanes;
  if (a.kind == LaneAccess::contiguous)
    lanes = select(a.coords[0], LaneAccess::contiguous, vec);
  else if (a.kind == LaneAccess::uniform)
    lanes.assign(vec, select(a.coords[0], LaneAccess::uniform, 1)[0]);
  else
    for (ArrayRef<Value> lane : a.coords)
      lanes.push_back(select(lane, LaneAccess::uniform, 1)[0]);
  if (broken)
    return failure();
  return lanes;
}

FailureOr<SmallVector<Value>> VectorReads::eval(Value v, const LaneAccess &a) {
  std::vector<const void *> key = {
      v.getAsOpaquePointer(),
      reinterpret_cast<const void *>(static_cast<intptr_t>(a.kind) * 2 +
                                     a.aligned)};
  for (ArrayRef<Value> c : a.coords)
    for (Value x : c)
      key.push_back(x.getAsOpaquePointer());
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  FailureOr<SmallVector<Value>> lanes = failure();
  Operation *op = v.getDefiningOp();
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    lanes = load(arg, a);
  } else if (auto c = dyn_cast<ConstantOp>(op)) {
    TypedAttr splat = splatValue(c);
    if (!splat)
      return c.emitOpError("non-splat constants must be kernel inputs");
    lanes = SmallVector<Value>(vec, arith::ConstantOp::create(b, loc, splat));
  } else if (auto sc = dyn_cast<SymbolicConstantOp>(op)) {
    AffineMap map = sc.getValue().getMap();
    if (!extentValue || map.getNumResults() != 1)
      return sc.emitOpError("a symbolic constant of one extent is read only "
                            "by a kernel passed its value");
    Value x = arith::IndexCastOp::create(b, loc, sc.getType().getElementType(),
                                         extentValue(map.getResult(0)));
    lanes = SmallVector<Value>(vec, x);
  } else if (isPointwise(op)) {
    SmallVector<SmallVector<Value>> args;
    for (Value operand : op->getOperands()) {
      FailureOr<SmallVector<Value>> x =
          eval(operand, broadcast(a, shapeOf(v), shapeOf(operand)));
      if (failed(x))
        return failure();
      args.push_back(std::move(*x));
    }
    // Lanes of a uniform access are one element: computed once.
    int64_t distinct = a.kind == LaneAccess::uniform ? 1 : vec;
    SmallVector<Value> computed;
    for (int64_t l = 0; l < distinct; ++l) {
      SmallVector<Value> scalars;
      for (ArrayRef<Value> x : args)
        scalars.push_back(x[l]);
      FailureOr<Value> r = pe.emit(op, scalars);
      if (failed(r))
        return failure();
      computed.push_back(*r);
    }
    computed.resize(vec, computed.front());
    lanes = std::move(computed);
  } else if (auto c = dyn_cast<ConcatOp>(op)) {
    lanes = concat(c, a);
  } else if (isa<ExpandOp>(op) && a.kind == LaneAccess::own && runtimeIndex) {
    // Over symbolic extents that an operand broadcasts along in part, an
    // expand is the broadcast a pointwise operand makes: its input read at
    // the kernel's own elements (runtimeIndex indexes the arguments).
    lanes = eval(op->getOperand(0), a);
  } else if (isa<ReshapeOp, TransposeOp, SliceOp, ExpandOp, PadOp>(op)) {
    lanes = indexMap(op, a);
  } else {
    return op->emitOpError("cannot be fused into a pointwise kernel");
  }
  if (succeeded(lanes))
    memo[key] = *lanes;
  return lanes;
}
