//===- AttentionMasks.cpp - masks brrr-fuse-attention reads ---------------===//
//
// See AttentionMasks.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Fusion/AttentionMasks.h"

#include "mlir/IR/Matchers.h"

#include <functional>

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::attention_masks;

/// The value of a one-element float constant.
std::optional<double> attention_masks::scalarConstant(Value v) {
  if (cast<RankedTensorType>(v.getType()).getNumElements() != 1)
    return std::nullopt;
  std::optional<SmallVector<double>> values = getConstFloats(v);
  if (!values || values->size() != 1)
    return std::nullopt;
  return values->front();
}

namespace {

/// Whether `v` has size-1 dimensions but for its last two, which broadcast
/// to `rows` x `cols`.
bool isMatrixLike(Value v, int64_t rows, int64_t cols) {
  ArrayRef<int64_t> shape = shapeOf(v);
  if (shape.size() < 2 ||
      llvm::any_of(shape.drop_back(2), [](int64_t d) { return d != 1; }))
    return false;
  int64_t r = shape[shape.size() - 2], c = shape.back();
  return (r == 1 || r == rows) && (c == 1 || c == cols);
}

/// Whether the constant values of `v`, whose last two dimensions broadcast
/// to `rows` x `cols`, are one matrix: `v` is matrix-like, or every slice
/// of its leading dimensions equals the first (an exporter's mask expanded
/// over the batch and folded so, GPT-2's [batch, 1, s, s] causal mask).
template <typename T>
bool isOneMatrix(Value v, ArrayRef<T> values, int64_t rows, int64_t cols) {
  if (isMatrixLike(v, rows, cols))
    return true;
  ArrayRef<int64_t> shape = shapeOf(v);
  if (shape.size() < 2)
    return false;
  int64_t r = shape[shape.size() - 2], c = shape.back();
  if (!((r == 1 || r == rows) && (c == 1 || c == cols)))
    return false;
  size_t slice = r * c;
  if (slice == 0 || values.size() % slice != 0)
    return false;
  for (size_t at = slice; at < values.size(); at += slice)
    if (values.slice(at, slice) != values.take_front(slice))
      return false;
  return true;
}

/// The element (i, j) of `cond`, a boolean tensor broadcasting to `rows` x
/// `cols`, as a function, when it is a constant that is one matrix
/// (isOneMatrix) or a comparison of integer constants (the exporters'
/// `arange(cols) <= arange(rows)[:, None]`).
std::optional<std::function<bool(int64_t, int64_t)>>
constantCondition(Value cond, int64_t rows, int64_t cols) {
  // An expansion over the batch (GPT-2's export at a batch above 1, before
  // the condition is folded) repeats the matrix it expands.
  while (auto expand = cond.getDefiningOp<ExpandOp>())
    cond = expand.getInput();
  /// Element (i, j) of a constant broadcasting to rows x cols (of its first
  /// matrix).
  auto at = [](ArrayRef<int64_t> shape, const SmallVector<int64_t> &values,
               int64_t i, int64_t j) {
    int64_t r = shape[shape.size() - 2], c = shape.back();
    return values[(r == 1 ? 0 : i) * c + (c == 1 ? 0 : j)];
  };
  if (std::optional<SmallVector<int64_t>> values = getConstInts(cond)) {
    if (!isOneMatrix<int64_t>(cond, *values, rows, cols))
      return std::nullopt;
    ArrayRef<int64_t> shape = shapeOf(cond);
    return [shape, values = *values, at](int64_t i, int64_t j) {
      return at(shape, values, i, j) != 0;
    };
  }
  if (!isMatrixLike(cond, rows, cols))
    return std::nullopt;
  auto cmp = cond.getDefiningOp<CompareOp>();
  if (!cmp || !isMatrixLike(cmp.getLhs(), rows, cols) ||
      !isMatrixLike(cmp.getRhs(), rows, cols) ||
      !isa<IntegerType>(elementOf(cmp.getLhs())))
    return std::nullopt;
  std::optional<SmallVector<int64_t>> lhs = getConstInts(cmp.getLhs()),
                                      rhs = getConstInts(cmp.getRhs());
  if (!lhs || !rhs)
    return std::nullopt;
  ArrayRef<int64_t> ls = shapeOf(cmp.getLhs()), rs = shapeOf(cmp.getRhs());
  ComparePredicate pred = cmp.getPredicate();
  return [=, lhs = *lhs, rhs = *rhs](int64_t i, int64_t j) {
    return comparePredicateHolds(pred, at(ls, lhs, i, j), at(rs, rhs, i, j));
  };
}

/// Whether `cond`, a constant boolean tensor broadcasting to `rows` x
/// `cols` in its last two dimensions, is true exactly where key j <= query
/// i + cols - rows (the causal mask).
bool isCausalCondition(Value cond, int64_t rows, int64_t cols) {
  auto keep = constantCondition(cond, rows, cols);
  if (!keep)
    return false;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      if ((*keep)(i, j) != (j <= i + cols - rows))
        return false;
  return true;
}

/// Whether `cond`, a boolean tensor whose last two dimensions span queries
/// i and keys j, compares index arithmetic so that it is true exactly where
/// j <= i at every value of the symbols (exporters' `arange(s)[None, :] <=
/// arange(s)[:, None]` over a symbolic sequence s, the queries' and keys'
/// alike).
bool isSymbolicCausalCondition(Value cond) {
  // Through broadcasts and reshapes that keep the last two extents and add
  // or drop only units before them.
  auto keepsMatrix = [](ReshapeOp r) {
    SmallVector<AffineExpr> in = extentsOf(r.getInput().getType()),
                            out = extentsOf(r.getType());
    auto unitsBefore = [](ArrayRef<AffineExpr> es) {
      return llvm::all_of(es.drop_back(2), isUnitExtent);
    };
    return in.size() >= 2 && out.size() >= 2 &&
           ArrayRef<AffineExpr>(in).take_back(2) ==
               ArrayRef<AffineExpr>(out).take_back(2) &&
           unitsBefore(in) && unitsBefore(out);
  };
  while (true) {
    if (auto expand = cond.getDefiningOp<ExpandOp>())
      cond = expand.getInput();
    else if (auto r = cond.getDefiningOp<ReshapeOp>(); r && keepsMatrix(r))
      cond = r.getInput();
    else
      break;
  }
  auto cmp = cond.getDefiningOp<CompareOp>();
  int64_t rank = cast<RankedTensorType>(cond.getType()).getRank();
  if (!cmp || rank < 2)
    return false;
  std::optional<IndexValues> l = indexValuesOf(cmp.getLhs()),
                             r = indexValuesOf(cmp.getRhs());
  if (!l || !r)
    return false;
  // Both broadcast to the condition's rank; the key is kept where
  // d = sign * (lhs - rhs) + shift >= 0.
  int64_t sign = 1, shift = 0;
  switch (cmp.getPredicate()) {
  case ComparePredicate::le:
    sign = -1;
    break;
  case ComparePredicate::lt:
    sign = -1, shift = -1;
    break;
  case ComparePredicate::ge:
    break;
  case ComparePredicate::gt:
    shift = -1;
    break;
  default:
    return false;
  }
  auto coefficient = [&](const IndexValues &iv, int64_t d) -> int64_t {
    int64_t lead = rank - int64_t(iv.coefficients.size());
    return d < lead ? 0 : iv.coefficients[d - lead];
  };
  if (sign * (l->offset - r->offset) + shift != 0)
    return false;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t want = d == rank - 2 ? 1 : d == rank - 1 ? -1 : 0;
    if (sign * (coefficient(*l, d) - coefficient(*r, d)) != want)
      return false;
  }
  return true;
}

} // namespace

/// Whether `v` is zero everywhere: a splat constant of zero, or one
/// expanded.
bool attention_masks::isZeroSplat(Value v) {
  while (auto e = v.getDefiningOp<ExpandOp>())
    v = e.getInput();
  DenseElementsAttr a;
  if (!matchPattern(v, m_Constant(&a)) || !a.isSplat() ||
      !isa<FloatType>(a.getElementType()))
    return false;
  return a.getSplatValue<APFloat>().isZero();
}

/// Whether `bias` is where(causal, 0, masked) for the scores' last two
/// dimensions `rows` x `cols` (or that, folded to a constant), with
/// `masked` -inf or low enough that its probability is exactly zero. With more
/// queries than keys, the first rows would mask every key, and the two maskings
/// differ there. Over symbolic sequences, queries and keys are one extent.
bool attention_masks::isCausalBias(Value bias, AffineExpr rowsExtent,
                                   AffineExpr colsExtent) {
  auto staticRows = dyn_cast<AffineConstantExpr>(rowsExtent);
  auto staticCols = dyn_cast<AffineConstantExpr>(colsExtent);
  while (auto expand = bias.getDefiningOp<ExpandOp>())
    bias = expand.getInput();
  if (!staticRows || !staticCols) {
    auto where = bias.getDefiningOp<WhereOp>();
    std::optional<double> keep =
        where ? scalarConstant(where.getOperand(1)) : std::nullopt;
    std::optional<double> drop =
        where ? scalarConstant(where.getOperand(2)) : std::nullopt;
    return rowsExtent == colsExtent && keep && *keep == 0 && drop &&
           *drop <= kMaskedScore &&
           isSymbolicCausalCondition(where.getOperand(0));
  }
  int64_t rows = staticRows.getValue(), cols = staticCols.getValue();
  if (rows > cols)
    return false;
  // Folded already: a constant of 0 and masked values.
  if (shapeOf(bias).size() >= 2 &&
      shapeOf(bias).take_back(2) == ArrayRef<int64_t>{rows, cols})
    if (std::optional<SmallVector<double>> values = getConstFloats(bias);
        values && isOneMatrix<double>(bias, *values, rows, cols)) {
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          double x = (*values)[i * cols + j];
          if (j <= i + cols - rows ? x != 0 : !(x <= kMaskedScore))
            return false;
        }
      return true;
    }
  auto where = bias.getDefiningOp<WhereOp>();
  if (!where)
    return false;
  std::optional<double> keep = scalarConstant(where.getOperand(1));
  std::optional<double> drop = scalarConstant(where.getOperand(2));
  if (!keep || *keep != 0 || !drop || !(*drop <= kMaskedScore))
    return false;
  return isCausalCondition(where.getOperand(0), rows, cols);
}
