//===- ImportGenerators.cpp - tensors made from shapes and constants -----===//
//
// The producers of shape subgraphs and masks: Constant, ConstantOfShape,
// Shape, Size, Range, EyeLike and Trilu. Their results are constants (or,
// for EyeLike and Trilu, masks computed where they are used, folding when
// small), so the shape arithmetic of
// exported models folds at import; every size is checked before anything
// is materialized.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "llvm/Support/InterleavedRange.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

/// Largest constant the importer materializes from Range.
constexpr int64_t kMaxGeneratedElements = 1 << 20;

LogicalResult importConstant(NodeImporter &n) {
  MLIRContext *ctx = n.getContext();
  Builder b(ctx);
  ElementsAttr value;
  if (const auto *a = n.attr("value")) {
    auto t = convertTensor(ctx, n.loc, a->t(), n.baseDir,
                           /*maxInlineElements=*/8);
    if (failed(t))
      return n.emitError() << "cannot convert the 'value' tensor";
    value = *t;
  } else if (const auto *a = n.attr("value_float")) {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   a->f());
  } else if (const auto *a = n.attr("value_floats")) {
    SmallVector<float> v(a->floats().begin(), a->floats().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(v.size())}, b.getF32Type()),
        ArrayRef<float>(v));
  } else if (const auto *a = n.attr("value_int")) {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                   a->i());
  } else if (const auto *a = n.attr("value_ints")) {
    SmallVector<int64_t> v(a->ints().begin(), a->ints().end());
    value = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(v.size())}, b.getI64Type()),
        ArrayRef<int64_t>(v));
  } else {
    return n.emitError() << "only tensor, float and int constants are "
                            "supported (no sparse or string values)";
  }
  n.setOutput(0, ConstantOp::create(n.b, n.loc, value));
  return success();
}

LogicalResult importConstantOfShape(NodeImporter &n) {
  auto extents = n.extentInts(0, "shape");
  if (failed(extents))
    return failure();
  bool symbolic = llvm::any_of(
      *extents, [](AffineExpr e) { return !isa<AffineConstantExpr>(e); });
  SmallVector<int64_t> shape;
  for (AffineExpr e : *extents)
    shape.push_back(symbolic ? 1 : cast<AffineConstantExpr>(e).getValue());
  Attribute element = n.b.getF32FloatAttr(0.0f);
  Type et = n.b.getF32Type();
  if (const auto *a = n.attr("value")) {
    auto t = convertTensor(n.getContext(), n.loc, a->t(), n.baseDir, 8);
    if (failed(t))
      return failure();
    if (t->getNumElements() != 1)
      return n.emitError() << "'value' must hold one element";
    element = *t->getValues<Attribute>().begin();
    et = t->getElementType();
  }
  if (symbolic) {
    // A splat of a symbolic shape: the element, expanded.
    auto scalar = ConstantOp::create(
        n.b, n.loc,
        DenseElementsAttr::get(RankedTensorType::get({}, et), element));
    auto y = n.createTyped<ExpandOp>(tensorTypeOf(n.getContext(), *extents, et),
                                     scalar);
    if (failed(y))
      return failure();
    n.setOutput(0, *y);
    return success();
  }
  auto type = RankedTensorType::get(shape, et);
  std::string invalid = invalidTensorType(type);
  if (!invalid.empty())
    return n.emitError() << "shape [" << llvm::interleaved(shape)
                         << "] is invalid: " << invalid;
  // A splat: one element in memory however large the tensor.
  n.setOutput(
      0, ConstantOp::create(n.b, n.loc, DenseElementsAttr::get(type, element)));
  return success();
}

LogicalResult importShape(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = n.inputType(0).getShape();
  int64_t rank = shape.size();
  auto clampIndex = [&](int64_t i) {
    if (i < 0)
      i += rank;
    return std::clamp<int64_t>(i, 0, rank);
  };
  int64_t start = clampIndex(n.attrInt("start", 0));
  int64_t end = clampIndex(n.attrInt("end", rank));
  SmallVector<AffineExpr> all = extentsOf(n.inputType(0));
  ArrayRef<AffineExpr> extents =
      ArrayRef(all).slice(start, std::max<int64_t>(0, end - start));
  if (llvm::any_of(extents,
                   [](AffineExpr e) { return !isa<AffineConstantExpr>(e); })) {
    // The extents, fixed at run time: a symbolic constant.
    ExtentsAttr value = extentsAttrOf(n.getContext(), extents);
    n.setOutput(0,
                SymbolicConstantOp::create(
                    n.b, n.loc,
                    RankedTensorType::get({std::max<int64_t>(0, end - start)},
                                          n.b.getI64Type()),
                    value));
    return success();
  }
  SmallVector<int64_t> dims;
  for (int64_t i = start; i < end; ++i)
    dims.push_back(shape[i]);
  n.setOutput(0, n.constI64(dims));
  return success();
}

LogicalResult importSize(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  // The input type is valid, so its element count fits int64 exactly.
  n.setOutput(
      0, ConstantOp::create(n.b, n.loc,
                            DenseElementsAttr::get(
                                RankedTensorType::get({}, n.b.getI64Type()),
                                APInt(64, n.inputType(0).getNumElements()))));
  return success();
}

/// Range over integers, in exact integer arithmetic: the count is
/// ceil((limit - start) / delta) computed in 128 bits, so no start, limit
/// or delta of the element type overflows it.
LogicalResult importIntegerRange(NodeImporter &n, IntegerType et, int64_t s,
                                 int64_t l, int64_t d) {
  __int128 span = static_cast<__int128>(l) - s, step = d;
  __int128 count = span / step + (span % step != 0 && (span > 0) == (d > 0));
  if (count < 0)
    count = 0;
  if (count > kMaxGeneratedElements)
    return n.emitError() << "range of " << static_cast<double>(count)
                         << " elements is larger than the "
                         << kMaxGeneratedElements
                         << " brrr computes at compile time";
  SmallVector<APInt> values;
  for (int64_t i = 0; i < count; ++i)
    // Unsigned arithmetic wraps where s + i * d's partial product would
    // overflow; the value itself lies in [start, limit).
    values.push_back(
        APInt(et.getWidth(),
              static_cast<uint64_t>(s) +
                  static_cast<uint64_t>(i) * static_cast<uint64_t>(d),
              /*isSigned=*/true, /*implicitTrunc=*/true));
  n.setOutput(0, ConstantOp::create(n.b, n.loc,
                                    DenseElementsAttr::get(
                                        RankedTensorType::get(
                                            {static_cast<int64_t>(count)}, et),
                                        values)));
  return success();
}

/// Range(start, limit, delta) of integers whose limit is an extent fixed
/// at run time: the first ceil((limit - start) / delta) elements of the
/// range up to the limit's largest value, a slice of that constant.
LogicalResult importSymbolicRange(NodeImporter &n, IntegerType et) {
  auto start = n.constInts(0, "start"), delta = n.constInts(2, "delta");
  auto limit = n.extentInts(1, "limit");
  if (failed(start) || failed(delta) || failed(limit))
    return failure();
  int64_t s = start->front(), d = delta->front();
  auto dims = dimsOf(n.b.getInsertionBlock()->getParentOp());
  AffineExpr count = (limit->front() - s).ceilDiv(std::max<int64_t>(d, 1));
  auto range = rangeOf(count, dims);
  if (d < 1 || !range || range->first < 0)
    return n.emitError() << "a range up to the extent "
                         << extentName(limit->front(), dims)
                         << " needs a positive delta and a limit of at least "
                            "its start at every value";
  if (failed(importIntegerRange(n, et, s, s + range->second * d, d)))
    return failure();
  Value all = n.getOutputs()[0];
  int64_t size = isa<AffineConstantExpr>(count)
                     ? cast<AffineConstantExpr>(count).getValue()
                     : ShapedType::kDynamic;
  auto y = n.createTyped<SliceOp>(tensorTypeOf(n.getContext(), {count}, et),
                                  all, ArrayRef<int64_t>{0},
                                  ArrayRef<int64_t>{size}, ArrayRef<int64_t>{1},
                                  extentsAttrOf(n.getContext(), count));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importRange(NodeImporter &n) {
  for (unsigned i = 0; i < 3; ++i)
    if (!n.hasInput(i) || n.inputType(i).getNumElements() != 1)
      return n.emitError() << "start, limit and delta must be scalars";
  Type et = n.inputType(0).getElementType();
  auto it = dyn_cast<IntegerType>(et);
  if (it && n.input(1).getDefiningOp<SymbolicConstantOp>())
    return importSymbolicRange(n, it);
  if (it) {
    auto start = n.constInts(0, "start"), limit = n.constInts(1, "limit"),
         delta = n.constInts(2, "delta");
    if (failed(start) || failed(limit) || failed(delta))
      return failure();
    if (delta->front() == 0)
      return n.emitError() << "delta is zero";
    return importIntegerRange(n, it, start->front(), limit->front(),
                              delta->front());
  }
  auto start = n.constFloats(0, "start"), limit = n.constFloats(1, "limit"),
       delta = n.constFloats(2, "delta");
  if (failed(start) || failed(limit) || failed(delta))
    return failure();
  double s = start->front(), l = limit->front(), d = delta->front();
  if (!std::isfinite(s) || !std::isfinite(l) || !std::isfinite(d))
    return n.emitError() << "start " << s << ", limit " << l << " and delta "
                         << d << " must be finite";
  if (d == 0)
    return n.emitError() << "delta is zero";
  double count = std::max(0.0, std::ceil((l - s) / d));
  if (!(count <= kMaxGeneratedElements))
    return n.emitError() << "range of " << count
                         << " elements is larger than the "
                         << kMaxGeneratedElements
                         << " brrr computes at compile time";
  SmallVector<double> values;
  for (int64_t i = 0; i < static_cast<int64_t>(count); ++i)
    values.push_back(s + i * d);
  n.setOutput(
      0, n.constant(RankedTensorType::get({static_cast<int64_t>(count)}, et),
                    values));
  return success();
}

/// column - row over `matrix` (rank 2), from a [rows, 1] and a [1, cols]
/// index constant that broadcast: the diagonal each element sits on, for
/// EyeLike and Trilu.
FailureOr<Value> diagonalOf(NodeImporter &n, RankedTensorType matrix) {
  auto r = n.indicesAlong(matrix, 0), c = n.indicesAlong(matrix, 1);
  if (failed(r) || failed(c))
    return failure();
  return n.create<SubOp>(*c, *r);
}

/// EyeLike (opsets 9, 22): ones on the k-th diagonal of a matrix shaped
/// like the input and zeros elsewhere, in `dtype` (default: the input's
/// type). As in Trilu, where(j - i == k, 1, 0) over broadcast row and column
/// indices; the input's values are never read.
LogicalResult importEyeLike(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  RankedTensorType type = n.inputType(0);
  if (type.getRank() != 2)
    return n.emitError() << "input must be a matrix, not " << type;
  Type et = type.getElementType();
  if (n.attr("dtype")) {
    int64_t dt = n.attrInt("dtype", 0);
    et = convertElementType(n.getContext(), static_cast<int32_t>(dt));
    if (!et || dt != static_cast<int32_t>(dt))
      return n.emitError() << "dtype " << dt << " is not a supported type";
  }
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  auto diag = diagonalOf(n, type);
  if (failed(diag))
    return failure();
  // A k beyond the matrix matches nothing either way; clamped, it cannot
  // overflow the comparison's constant.
  int64_t k = std::clamp<int64_t>(n.attrInt("k", 0), -rows - 1, cols + 1);
  auto on = n.create<CompareOp>(ComparePredicate::eq, *diag,
                                n.scalar(n.b.getI64Type(), k));
  if (failed(on))
    return failure();
  auto y = n.create<WhereOp>(*on, n.scalar(et, 1), n.scalar(et, 0));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// Trilu keeps the elements on and above (upper) or on and below the k-th
/// diagonal of the last two dimensions and zeroes the rest: where(j - i >= k
/// (upper) or j - i <= k, x, 0), with i and j small row and column constants
/// that broadcast, so the mask is computed where it is used (or folds with
/// a constant input) instead of being stored.
LogicalResult importTrilu(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  RankedTensorType type = n.inputType(0);
  if (type.getRank() < 2)
    return n.emitError() << "input must have rank >= 2, not " << type;
  if (n.hasInput(1) && n.inputType(1).getNumElements() != 1)
    return n.emitError() << "k must be a scalar, not " << n.inputType(1);
  int64_t rows = type.getDimSize(type.getRank() - 2);
  int64_t cols = type.getDimSize(type.getRank() - 1);
  auto diag =
      diagonalOf(n, RankedTensorType::get({rows, cols}, type.getElementType()));
  if (failed(diag))
    return failure();
  bool upper = n.attrInt("upper", 1) != 0;
  // k: absent is 0; a constant beyond the matrix keeps everything or
  // nothing, so it is clamped (the constant then holds whatever the model
  // says); a run-time k is compared as it is.
  Value k = n.scalar(n.b.getI64Type(), 0);
  if (std::optional<SmallVector<int64_t>> ks =
          n.hasInput(1) ? getConstInts(n.input(1)) : std::nullopt) {
    k = n.scalar(n.b.getI64Type(),
                 std::clamp<int64_t>(ks->front(), -rows - 1, cols + 1));
  } else if (n.hasInput(1)) {
    auto scalarK = n.reshape(n.input(1), {});
    if (failed(scalarK))
      return failure();
    k = *scalarK;
  }
  auto keep = n.create<CompareOp>(
      upper ? ComparePredicate::ge : ComparePredicate::le, *diag, k);
  if (failed(keep))
    return failure();
  auto y = n.create<WhereOp>(*keep, *x, n.scalar(type.getElementType(), 0));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

} // namespace

void registerGeneratorImporters(OpTable &t) {
  t["Constant"] = {{9, 11, 12, 13, 19, 21}, importConstant};
  t["ConstantOfShape"] = {{9, 20, 21}, importConstantOfShape};
  t["EyeLike"] = {{9, 22}, importEyeLike};
  t["Range"] = {{11}, importRange};
  t["Shape"] = {{1, 13, 15, 19, 21}, importShape};
  t["Size"] = {{1, 13, 19, 21}, importSize};
  t["Trilu"] = {{14}, importTrilu};
}

} // namespace mlir::brrr
