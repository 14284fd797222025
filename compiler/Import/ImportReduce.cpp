//===- ImportReduce.cpp - ONNX reductions -> brrr.reduce ----------------===//
//
// The Reduce* family. Axes moved from an attribute to an input in opset 13
// (ReduceSum) and 18 (the others); `noop_with_empty_axes` arrived with the
// input form. Composite reductions (L1, L2, SumSquare, LogSum, LogSumExp)
// become a pointwise prologue/epilogue around one brrr.reduce. ArgMax,
// ArgMin and Hardmax are built from reductions too (see argExtreme), and
// so are CumSum and TopK (masked sums over a square of the axis).
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

/// How a composite reduction is spelled around its core reduction.
enum class Composite { None, L1, L2, SumSquare, LogSum, LogSumExp };

/// The sorted, normalized axes of this reduction, or std::nullopt when the
/// node is a no-op (empty axes with noop_with_empty_axes).
FailureOr<std::optional<SmallVector<int64_t>>>
reductionAxes(NodeImporter &n, int64_t rank, int64_t inputSince) {
  SmallVector<int64_t> axes;
  if (n.sinceVersion >= inputSince && n.attr("axes"))
    return n.emitError() << "'axes' is an input since opset " << inputSince
                         << ", not an attribute";
  if (n.sinceVersion < inputSince && n.hasInput(1))
    return n.emitError() << "'axes' is an attribute before opset " << inputSince
                         << ", not an input";
  if (n.sinceVersion >= inputSince) {
    if (n.hasInput(1)) {
      auto v = n.constInts(1, "axes");
      if (failed(v))
        return failure();
      axes = *v;
    }
  } else if (auto a = n.attrInts("axes")) {
    axes = *a;
  }
  if (axes.empty()) {
    if (n.sinceVersion >= inputSince && n.attrInt("noop_with_empty_axes", 0))
      return std::optional<SmallVector<int64_t>>();
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  for (int64_t &a : axes) {
    auto norm = n.normalizeAxis(a, rank);
    if (failed(norm))
      return failure();
    a = *norm;
  }
  llvm::sort(axes);
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return n.emitError() << "axes repeat a dimension";
  return std::optional<SmallVector<int64_t>>(axes);
}

template <ReduceKind Kind, Composite C = Composite::None,
          int64_t InputSince = 18>
LogicalResult importReduce(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto axes = reductionAxes(n, n.inputType(0).getRank(), InputSince);
  if (failed(axes))
    return failure();
  Value v = *x;
  FailureOr<Value> pre = v;
  // A log-sum-exp over axes is shifted by its largest finite element: m +
  // log(sum(exp(x - m))), so that no exp overflows (an f16 exp does past
  // 11). A row whose maximum is infinite or NaN is not shifted, and keeps
  // the unshifted value's infinity or NaN.
  Value shift;
  RankedTensorType xt = n.inputType(0);
  if (C == Composite::LogSumExp && axes->has_value() &&
      isa<FloatType>(xt.getElementType())) {
    Type et = xt.getElementType();
    auto m = n.create<ReduceOp>(ReduceKind::max, v, **axes, true);
    if (failed(m))
      return failure();
    auto magnitude = n.create<AbsOp>(*m);
    if (failed(magnitude))
      return failure();
    auto finite = n.create<CompareOp>(
        ComparePredicate::lt, *magnitude,
        n.scalar(et, std::numeric_limits<double>::infinity()));
    if (failed(finite))
      return failure();
    auto by = n.create<WhereOp>(*finite, *m, n.scalar(et, 0));
    if (failed(by))
      return failure();
    shift = *by;
    auto centered = n.create<SubOp>(v, shift);
    if (failed(centered))
      return failure();
    v = *centered;
  }
  switch (C) {
  case Composite::L1:
    pre = n.create<AbsOp>(v);
    break;
  case Composite::L2:
  case Composite::SumSquare:
    pre = n.create<MulOp>(v, v);
    break;
  case Composite::LogSumExp:
    pre = n.create<ExpOp>(v);
    break;
  default:
    break;
  }
  if (failed(pre))
    return failure();
  FailureOr<Value> y = *pre;
  if (axes->has_value())
    y = n.create<ReduceOp>(Kind, *pre, **axes, n.attrInt("keepdims", 1) != 0);
  if (failed(y))
    return failure();
  if (C == Composite::L2)
    y = n.create<SqrtOp>(*y);
  else if (C == Composite::LogSum || C == Composite::LogSumExp)
    y = n.create<LogOp>(*y);
  if (failed(y))
    return failure();
  if (shift) {
    // The shift has the reduced axes kept; without keepdims they go.
    FailureOr<Value> back = shift;
    if (n.attrInt("keepdims", 1) == 0) {
      auto yt = cast<RankedTensorType>(y->getType());
      back = isSymbolic(yt) ? n.reshapeTo(shift, extentsOf(yt))
                            : n.reshape(shift, yt.getShape());
    }
    if (failed(back))
      return failure();
    y = n.create<AddOp>(*y, *back);
    if (failed(y))
      return failure();
  }
  n.setOutput(0, *y);
  return success();
}

/// The index along `axis` of the maximum (or minimum) of `x`, keeping the
/// axis as size 1: the extreme value m (reduce max/min), then the smallest
/// (or, selecting the last, largest) index whose element is m or NaN
/// (reduce min/max of where(hit, index, sentinel)). NaN counts as the
/// extreme, as in numpy: the extreme is NaN exactly when some element is,
/// and the first NaN is then the answer.
FailureOr<Value> argExtreme(NodeImporter &n, Value x, int64_t axis, bool isMax,
                            bool last) {
  auto xt = cast<RankedTensorType>(x.getType());
  // Past every index: the axis's extent, or its largest over a symbolic
  // one (a hit exists at every extent, so it never survives the min).
  int64_t dim = xt.getDimSize(axis);
  if (ShapedType::isDynamic(dim)) {
    auto range = rangeOf(extentsOf(xt)[axis],
                         dimsOf(n.b.getInsertionBlock()->getParentOp()));
    if (!range)
      return n.emitError() << "axis " << axis << " has no range to index";
    dim = range->second;
  }
  auto m = n.create<ReduceOp>(isMax ? ReduceKind::max : ReduceKind::min, x,
                              SmallVector<int64_t>{axis}, true);
  if (failed(m))
    return failure();
  auto hit = n.create<CompareOp>(ComparePredicate::eq, x, *m);
  if (failed(hit))
    return failure();
  if (isa<FloatType>(xt.getElementType())) {
    auto nan = n.create<CompareOp>(ComparePredicate::ne, x, x);
    if (failed(nan))
      return failure();
    hit = n.create<OrOp>(*hit, *nan);
    if (failed(hit))
      return failure();
  }
  auto index = n.indicesAlong(xt, axis);
  if (failed(index))
    return failure();
  Type i64 = n.b.getI64Type();
  auto candidates = n.create<WhereOp>(
      *hit, *index, n.scalar(i64, last ? -1.0 : static_cast<double>(dim)));
  if (failed(candidates))
    return failure();
  return n.create<ReduceOp>(last ? ReduceKind::max : ReduceKind::min,
                            *candidates, SmallVector<int64_t>{axis}, true);
}

template <bool IsMax> LogicalResult importArgExtreme(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  RankedTensorType xt = n.inputType(0);
  auto axis = n.inputAxis(0);
  if (failed(axis))
    return failure();
  if (xt.getDimSize(*axis) == 0)
    return n.emitError() << "axis " << *axis << " is empty: no index to return";
  bool last = n.sinceVersion >= 12 && n.attrInt("select_last_index", 0) != 0;
  auto y = argExtreme(n, *x, *axis, IsMax, last);
  if (failed(y))
    return failure();
  if (n.attrInt("keepdims", 1) == 0) {
    if (isSymbolic(xt)) {
      SmallVector<AffineExpr> extents = extentsOf(xt);
      extents.erase(extents.begin() + *axis);
      y = n.reshapeTo(*y, extents);
    } else {
      SmallVector<int64_t> shape(xt.getShape());
      shape.erase(shape.begin() + *axis);
      y = n.reshape(*y, shape);
    }
    if (failed(y))
      return failure();
  }
  n.setOutput(0, *y);
  return success();
}

/// Hardmax (opset 13): 1 at the first maximum along `axis`, 0 elsewhere.
LogicalResult importHardmax(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  RankedTensorType xt = n.inputType(0);
  auto axis = n.inputAxis(-1);
  if (failed(axis))
    return failure();
  int64_t dim = xt.getDimSize(*axis);
  if (dim == 0) {
    n.setOutput(0, *x);
    return success();
  }
  auto at = argExtreme(n, *x, *axis, /*isMax=*/true, /*last=*/false);
  if (failed(at))
    return failure();
  auto index = n.indicesAlong(xt, *axis);
  if (failed(index))
    return failure();
  auto one = n.create<CompareOp>(ComparePredicate::eq, *index, *at);
  if (failed(one))
    return failure();
  Type et = xt.getElementType();
  auto y = n.create<WhereOp>(*one, n.scalar(et, 1), n.scalar(et, 0));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// A tensor with one axis moved last, and how to move it back.
struct AxisLast {
  Value value;
  /// The other dimensions, in order.
  SmallVector<int64_t> outer;
  /// The permutation that puts the axis back (empty: it was last).
  SmallVector<int64_t> back;

  /// `y`, whose last axis stands for the moved one, in the input's order.
  FailureOr<Value> restore(NodeImporter &n, Value y) const {
    if (back.empty())
      return y;
    return n.create<TransposeOp>(y, back);
  }
};

/// `x` with `axis` moved last through a brrr.transpose (none if last).
FailureOr<AxisLast> moveAxisLast(NodeImporter &n, Value x, int64_t axis) {
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = xt.getRank();
  AxisLast moved{x, {}, {}};
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis) {
      perm.push_back(d);
      moved.outer.push_back(xt.getDimSize(d));
    }
  if (axis == rank - 1)
    return moved;
  perm.push_back(axis);
  moved.back.resize(rank);
  for (auto [i, d] : llvm::enumerate(perm))
    moved.back[d] = i;
  auto t = n.create<TransposeOp>(x, perm);
  if (failed(t))
    return failure();
  moved.value = *t;
  return moved;
}

/// The sum over `axis` (dropped) of where(mask, x, 0): what CumSum and TopK
/// are built from. For floats the row kernel fuses the compare and select
/// into its reduction, so the mask is never stored.
FailureOr<Value> maskedSum(NodeImporter &n, Value mask, Value x, int64_t axis) {
  auto masked = n.create<WhereOp>(
      mask, x,
      n.scalar(cast<RankedTensorType>(x.getType()).getElementType(), 0));
  if (failed(masked))
    return failure();
  return n.create<ReduceOp>(ReduceKind::sum, *masked, ArrayRef<int64_t>{axis},
                            false);
}

/// The most elements CumSum's masked square may hold (outer x length x
/// length): floats reduce it in the row kernel without storing it, but
/// integers store it before their reduction.
constexpr int64_t kMaxCumSumSquare = int64_t(1) << 28;

/// CumSum (opsets 11, 14): y[.., i, ..] sums x[.., j, ..] over j <= i
/// (j < i exclusive; j >= i and j > i reversed), as a sum over a new last
/// axis j of where(j compared with i, x with its axis moved last, 0): for
/// floats a row reduction whose compare and select the row kernel fuses, so
/// the masked square is never stored; integers store it first.
LogicalResult importCumSum(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  RankedTensorType xt = n.inputType(0);
  if (xt.getRank() < 1)
    return n.emitError() << "input must have rank >= 1";
  auto axisValues = n.constInts(1, "axis");
  if (failed(axisValues))
    return failure();
  if (axisValues->size() != 1)
    return n.emitError() << "axis must hold one value, not "
                         << axisValues->size();
  auto axis = n.normalizeAxis(axisValues->front(), xt.getRank());
  if (failed(axis))
    return failure();
  // Over symbolic extents (the other dimensions), the largest shape's
  // square bounds the products.
  int64_t rank = xt.getRank();
  SmallVector<int64_t> largest(xt.getShape());
  if (isSymbolic(xt)) {
    std::optional<SmallVector<int64_t>> shape =
        largestShape(xt, dimsOf(x->getParentRegion()->getParentOp()));
    if (!shape)
      return n.emitError() << "input has no largest shape";
    largest = *shape;
  }
  int64_t len = largest[*axis], elements = 1, products;
  bool overflow = false;
  for (int64_t d : largest)
    overflow |= llvm::MulOverflow(elements, d, elements);
  if (overflow)
    return n.emitError() << "a cumulative sum of more than 2^63 elements is "
                            "more than its masked sum supports ("
                         << kMaxCumSumSquare << " products)";
  if (len && (llvm::MulOverflow(elements, len, products) ||
              products > kMaxCumSumSquare))
    return n.emitError() << "a cumulative sum of " << elements
                         << " elements along " << len
                         << " is more than its masked sum supports ("
                         << kMaxCumSumSquare << " products)";
  if (len == 0 || elements == 0) {
    n.setOutput(0, *x);
    return success();
  }
  // The axis last: [outer..., len], then [outer..., 1, len].
  auto moved = moveAxisLast(n, *x, *axis);
  if (failed(moved))
    return failure();
  SmallVector<AffineExpr> spread = extentsOf(xt);
  spread.erase(spread.begin() + *axis);
  AffineExpr along = extentsOf(xt)[*axis];
  spread.push_back(getAffineConstantExpr(1, xt.getContext()));
  spread.push_back(along);
  auto row = n.reshapeTo(moved->value, spread);
  RankedTensorType square =
      tensorTypeOf(xt.getContext(), {along, along}, xt.getElementType());
  auto i = n.indicesAlong(square, 0), j = n.indicesAlong(square, 1);
  if (failed(row) || failed(i) || failed(j))
    return failure();
  bool exclusive = n.attrInt("exclusive", 0) != 0;
  bool reverse = n.attrInt("reverse", 0) != 0;
  ComparePredicate p =
      reverse ? (exclusive ? ComparePredicate::gt : ComparePredicate::ge)
              : (exclusive ? ComparePredicate::lt : ComparePredicate::le);
  auto keep = n.create<CompareOp>(p, *j, *i);
  if (failed(keep))
    return failure();
  auto sum = maskedSum(n, *keep, *row, rank);
  if (failed(sum))
    return failure();
  auto y = moved->restore(n, *sum);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// The most comparisons TopK's rank square may hold (outer x length x
/// length). The square is never stored (the row kernel compares and sums
/// it on the fly) but its work is quadratic in the axis' length.
constexpr int64_t kMaxTopKSquare = int64_t(1) << 30;

/// Whether `c` comes before `a` in TopK's order, elementwise over their
/// broadcast: greater first (smaller when !largest), NaN above every
/// number (as in torch.topk and numpy's sort), equal values in index order
/// (`earlier`: c's index is below a's).
FailureOr<Value> topKBefore(NodeImporter &n, Value c, Value a, Value earlier,
                            bool largest) {
  auto better = n.create<CompareOp>(
      largest ? ComparePredicate::gt : ComparePredicate::lt, c, a);
  auto tie = n.create<CompareOp>(ComparePredicate::eq, c, a);
  if (failed(better) || failed(tie))
    return failure();
  auto et = cast<RankedTensorType>(a.getType()).getElementType();
  if (isa<FloatType>(et)) {
    auto nanC = n.create<CompareOp>(ComparePredicate::ne, c, c);
    auto nanA = n.create<CompareOp>(ComparePredicate::ne, a, a);
    if (failed(nanC) || failed(nanA))
      return failure();
    // Largest first: a NaN c beats a number a; smallest first: a number c
    // beats a NaN a. Two NaNs tie.
    auto number = n.create<NotOp>(largest ? *nanA : *nanC);
    if (failed(number))
      return failure();
    auto nanWins = n.create<AndOp>(largest ? *nanC : *nanA, *number);
    auto bothNaN = n.create<AndOp>(*nanC, *nanA);
    if (failed(nanWins) || failed(bothNaN))
      return failure();
    better = n.create<OrOp>(*better, *nanWins);
    tie = n.create<OrOp>(*tie, *bothNaN);
    if (failed(better) || failed(tie))
      return failure();
  }
  auto tieFirst = n.create<AndOp>(*tie, earlier);
  if (failed(tieFirst))
    return failure();
  return n.create<OrOp>(*better, *tieFirst);
}

/// TopK (opsets 1, 10, 11): the k largest (or smallest) elements along
/// `axis` and their indices, in order, equal values by index. It is built
/// without a sort: element i's rank is how many elements come before it (a
/// sum over a length x length mask that the row kernel reduces without
/// storing), output r takes the index whose rank is r (a sum over a
/// k x length mask) and the values are gathered at those indices, so they
/// are the input's own bits. Ranks and indices are exact in f32 up to 2^24,
/// far beyond the longest axis the square's limit admits (2^15).
/// `sorted = 0` allows any order; this order is one of them.
LogicalResult importTopK(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  RankedTensorType xt = n.inputType(0);
  int64_t k;
  if (n.sinceVersion < 10) {
    // Required by the schema, which the importer checks first.
    k = n.attrInt("k", 0);
  } else {
    auto ks = n.constInts(1, "K");
    if (failed(ks))
      return failure();
    if (ks->size() != 1)
      return n.emitError() << "K must hold one value, not " << ks->size();
    k = ks->front();
  }
  auto axis = n.inputAxis(-1);
  if (failed(axis))
    return failure();
  bool largest = n.sinceVersion < 11 || n.attrInt("largest", 1) != 0;
  // Over symbolic extents (the other dimensions: a router's top experts
  // over a symbolic batch of tokens), the largest shape's square bounds the
  // comparisons.
  int64_t rank = xt.getRank();
  SmallVector<AffineExpr> extents = extentsOf(xt);
  SmallVector<int64_t> largestDims(xt.getShape());
  if (isSymbolic(xt)) {
    if (!isa<AffineConstantExpr>(extents[*axis]))
      return n.emitError() << "TopK along a symbolic axis (" << *axis
                           << ") is not supported; give it a single extent";
    std::optional<SmallVector<int64_t>> shape =
        largestShape(xt, dimsOf(x->getParentRegion()->getParentOp()));
    if (!shape)
      return n.emitError() << "input has no largest shape";
    largestDims = *shape;
  }
  int64_t len = largestDims[*axis], elements = 1;
  bool overflow = false;
  for (int64_t d : largestDims)
    overflow |= llvm::MulOverflow(elements, d, elements);
  if (k < 1 || k > len)
    return n.emitError() << "k = " << k << " is outside [1, " << len
                         << "], the length of axis " << *axis;
  int64_t products;
  if (overflow || llvm::MulOverflow(elements, len, products) ||
      products > kMaxTopKSquare)
    return n.emitError() << "TopK over " << elements << " elements along "
                         << len << " is more than its rank square supports ("
                         << kMaxTopKSquare << " comparisons)";
  Type et = xt.getElementType();
  if (!isa<FloatType, IntegerType>(et) || et.isInteger(1))
    return n.emitError() << "TopK takes numbers, not " << et;
  if (elements == 0) {
    if (isSymbolic(xt))
      return n.emitError() << "input is empty at every shape in range";
    // Another dimension is 0 (k <= len, so not this one): both outputs are
    // empty as well.
    SmallVector<int64_t> shape(xt.getShape());
    shape[*axis] = k;
    n.setOutput(0, n.constant(RankedTensorType::get(shape, et), {}));
    n.setOutput(1,
                n.constant(RankedTensorType::get(shape, n.b.getI64Type()), {}));
    return success();
  }

  auto moved = moveAxisLast(n, *x, *axis);
  if (failed(moved))
    return failure();
  auto spread = [&](int64_t i, int64_t j) {
    SmallVector<AffineExpr> shape(extents);
    shape.erase(shape.begin() + *axis);
    shape.append({getAffineConstantExpr(i, xt.getContext()),
                  getAffineConstantExpr(j, xt.getContext())});
    return shape;
  };
  // a: element i as [outer..., len, 1]; c: its competitor j as
  // [outer..., 1, len].
  auto a = n.reshapeTo(moved->value, spread(len, 1));
  auto c = n.reshapeTo(moved->value, spread(1, len));
  auto square = RankedTensorType::get({len, len}, et);
  auto i = n.indicesAlong(square, 0), j = n.indicesAlong(square, 1);
  if (failed(a) || failed(c) || failed(i) || failed(j))
    return failure();
  auto earlier = n.create<CompareOp>(ComparePredicate::lt, *j, *i);
  if (failed(earlier))
    return failure();
  auto before = topKBefore(n, *c, *a, *earlier, largest);
  if (failed(before))
    return failure();
  Type f32 = n.b.getF32Type();
  auto ranks = maskedSum(n, *before, n.scalar(f32, 1), rank);
  if (failed(ranks))
    return failure();

  // Output r: the index i whose rank is r, over a [outer..., k, len] mask.
  auto ranksRow = n.reshapeTo(*ranks, spread(1, len));
  auto picks = RankedTensorType::get({k, len}, f32);
  auto r = n.indicesAlong(picks, 0), at = n.indicesAlong(picks, 1);
  if (failed(ranksRow) || failed(r) || failed(at))
    return failure();
  auto rF = n.castTo(*r, f32), atF = n.castTo(*at, f32);
  if (failed(rF) || failed(atF))
    return failure();
  auto hit = n.create<CompareOp>(ComparePredicate::eq, *ranksRow, *rF);
  if (failed(hit))
    return failure();
  auto sum = maskedSum(n, *hit, *atF, rank);
  if (failed(sum))
    return failure();
  auto indices = n.castTo(*sum, n.b.getI64Type());
  if (failed(indices))
    return failure();
  auto values = n.create<GatherElementsOp>(moved->value, *indices,
                                           static_cast<uint64_t>(rank - 1));
  if (failed(values))
    return failure();
  auto y = moved->restore(n, *values), yi = moved->restore(n, *indices);
  if (failed(y) || failed(yi))
    return failure();
  n.setOutput(0, *y);
  n.setOutput(1, *yi);
  return success();
}

} // namespace

void registerReduceImporters(OpTable &t) {
  t["CumSum"] = {{11, 14}, importCumSum};
  constexpr auto sum = ReduceKind::sum;
  t["ArgMax"] = {{1, 11, 12, 13}, importArgExtreme<true>};
  t["ArgMin"] = {{1, 11, 12, 13}, importArgExtreme<false>};
  t["Hardmax"] = {{13}, importHardmax};
  t["TopK"] = {{1, 10, 11}, importTopK};
  t["ReduceL1"] = {{1, 11, 13, 18}, importReduce<sum, Composite::L1>};
  t["ReduceL2"] = {{1, 11, 13, 18}, importReduce<sum, Composite::L2>};
  t["ReduceLogSum"] = {{1, 11, 13, 18}, importReduce<sum, Composite::LogSum>};
  t["ReduceLogSumExp"] = {{1, 11, 13, 18},
                          importReduce<sum, Composite::LogSumExp>};
  t["ReduceMax"] = {{1, 11, 12, 13, 18, 20}, importReduce<ReduceKind::max>};
  t["ReduceMean"] = {{1, 11, 13, 18}, importReduce<ReduceKind::mean>};
  t["ReduceMin"] = {{1, 11, 12, 13, 18, 20}, importReduce<ReduceKind::min>};
  t["ReduceProd"] = {{1, 11, 13, 18}, importReduce<ReduceKind::prod>};
  t["ReduceSum"] = {{1, 11, 13}, importReduce<sum, Composite::None, 13>};
  t["ReduceSumSquare"] = {{1, 11, 13, 18},
                          importReduce<sum, Composite::SumSquare>};
}

} // namespace mlir::brrr
