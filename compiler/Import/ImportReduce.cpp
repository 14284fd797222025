//===- ImportReduce.cpp - ONNX reductions -> brrr.reduce ----------------===//
//
// The Reduce* family. Axes moved from an attribute to an input in opset 13
// (ReduceSum) and 18 (the others); `noop_with_empty_axes` arrived with the
// input form. Composite reductions (L1, L2, SumSquare, LogSum, LogSumExp)
// become a pointwise prologue/epilogue around one brrr.reduce. ArgMax,
// ArgMin and Hardmax are built from reductions too (see argExtreme).
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

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
  int64_t dim = xt.getDimSize(axis);
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
    SmallVector<int64_t> shape(xt.getShape());
    shape.erase(shape.begin() + *axis);
    y = n.reshape(*y, shape);
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
  int64_t len = xt.getDimSize(*axis), rank = xt.getRank();
  int64_t products;
  if (len && (llvm::MulOverflow(xt.getNumElements(), len, products) ||
              products > kMaxCumSumSquare))
    return n.emitError() << "a cumulative sum of " << xt.getNumElements()
                         << " elements along " << len
                         << " is more than its masked sum supports ("
                         << kMaxCumSumSquare << " products)";
  if (len == 0 || xt.getNumElements() == 0) {
    n.setOutput(0, *x);
    return success();
  }
  // The axis last: [outer..., len], then [outer..., 1, len].
  SmallVector<int64_t> perm, back(rank), outer;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis) {
      perm.push_back(d);
      outer.push_back(xt.getDimSize(d));
    }
  perm.push_back(*axis);
  for (auto [i, d] : llvm::enumerate(perm))
    back[d] = i;
  Value moved = *x;
  if (*axis != rank - 1) {
    auto t = n.create<TransposeOp>(*x, perm);
    if (failed(t))
      return failure();
    moved = *t;
  }
  SmallVector<int64_t> spread(outer);
  spread.push_back(1);
  spread.push_back(len);
  auto row = n.reshape(moved, spread);
  auto square = RankedTensorType::get({len, len}, xt.getElementType());
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
  auto masked =
      n.create<WhereOp>(*keep, *row, n.scalar(xt.getElementType(), 0));
  if (failed(masked))
    return failure();
  auto sum = n.create<ReduceOp>(ReduceKind::sum, *masked,
                                ArrayRef<int64_t>{rank}, false);
  if (failed(sum))
    return failure();
  Value y = *sum;
  if (*axis != rank - 1) {
    auto t = n.create<TransposeOp>(y, back);
    if (failed(t))
      return failure();
    y = *t;
  }
  n.setOutput(0, y);
  return success();
}

} // namespace

void registerReduceImporters(OpTable &t) {
  t["CumSum"] = {{11, 14}, importCumSum};
  constexpr auto sum = ReduceKind::sum;
  t["ArgMax"] = {{1, 11, 12, 13}, importArgExtreme<true>};
  t["ArgMin"] = {{1, 11, 12, 13}, importArgExtreme<false>};
  t["Hardmax"] = {{13}, importHardmax};
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
