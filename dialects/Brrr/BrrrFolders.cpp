//===- BrrrFolders.cpp - folding of brrr ops ------------------------------===//
//
// Folders remove identity data movement (reshape/transpose/expand/cast to the
// same type) and evaluate small constant tensors, which is how ONNX shape
// subgraphs (Shape -> Gather -> Concat -> Reshape) collapse to constants both
// at import (the importer folds every op it builds) and in `canonicalize`.
// Constants above kMaxFoldElements are never materialized. Elements are
// computed in their type's own arithmetic (APInt, APFloat): integers wrap
// as numpy's do, and a result ONNX leaves undefined (integer division by
// zero, a float cast to an integer that cannot hold it) is not folded.
// The rewrites that build new ops are in BrrrCanonicalize*.cpp, the folders
// of gathers and scatters in BrrrIndexFolders.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrFoldUtils.h"
#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::fold;

DenseElementsAttr fold::smallDense(Attribute attr) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || dense.getNumElements() > kMaxFoldElements)
    return nullptr;
  return dense;
}

DenseElementsAttr fold::smallDenseOrBlob(Attribute attr) {
  auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(attr);
  if (!resource)
    return smallDense(attr);
  ShapedType type = resource.getType();
  Type et = type.getElementType();
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob || type.getNumElements() > kMaxFoldElements || !et.isIntOrFloat() ||
      et.getIntOrFloatBitWidth() % 8 != 0)
    return nullptr;
  ArrayRef<char> bytes = blob->getData();
  if (static_cast<int64_t>(bytes.size()) !=
      type.getNumElements() * (et.getIntOrFloatBitWidth() / 8))
    return nullptr;
  return DenseElementsAttr::getFromRawBuffer(type, bytes);
}

int64_t fold::normalizeIndex(const APInt &raw, int64_t dim) {
  int64_t k = raw.getSExtValue();
  if (k < 0)
    k += dim;
  return k >= 0 && k < dim ? k : -1;
}

int64_t fold::gatherSource(ArrayRef<int64_t> out, ArrayRef<int64_t> inShape,
                           ArrayRef<int64_t> inStrides, int64_t axis,
                           ArrayRef<int64_t> idxStrides, IndexAt indexAt) {
  int64_t idxRank = idxStrides.size(), idxLinear = 0;
  for (int64_t i = 0; i < idxRank; ++i)
    idxLinear += out[axis + i] * idxStrides[i];
  int64_t k = indexAt(idxLinear, inShape[axis]);
  if (k < 0)
    return -1;
  int64_t linear = 0;
  for (int64_t d = 0; d < static_cast<int64_t>(inShape.size()); ++d) {
    int64_t coord = d < axis ? out[d] : d == axis ? k : out[d + idxRank - 1];
    linear += coord * inStrides[d];
  }
  return linear;
}

int64_t fold::gatherNDSource(ArrayRef<int64_t> out, ArrayRef<int64_t> inShape,
                             ArrayRef<int64_t> inStrides, int64_t batch,
                             int64_t k, ArrayRef<int64_t> idxStrides,
                             IndexAt indexAt) {
  int64_t q = idxStrides.size(), tuple = 0, linear = 0;
  for (int64_t d = 0; d < q - 1; ++d)
    tuple += out[d] * idxStrides[d];
  for (int64_t d = 0; d < batch; ++d)
    linear += out[d] * inStrides[d];
  for (int64_t j = 0; j < k; ++j) {
    int64_t c = indexAt(tuple + j, inShape[batch + j]);
    if (c < 0)
      return -1;
    linear += c * inStrides[batch + j];
  }
  for (int64_t d = batch + k; d < static_cast<int64_t>(inShape.size()); ++d)
    linear += out[q - 1 + d - batch - k] * inStrides[d];
  return linear;
}

SmallVector<APInt> fold::indexValues(DenseElementsAttr indices) {
  return SmallVector<APInt>(indices.getValues<APInt>());
}

SmallVector<int64_t> fold::stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

SmallVector<int64_t> fold::delinearize(int64_t linear,
                                       ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    index[i] = shape[i] ? linear % shape[i] : 0;
    linear = shape[i] ? linear / shape[i] : 0;
  }
  return index;
}

int64_t fold::broadcastSource(ArrayRef<int64_t> outIndex,
                              ArrayRef<int64_t> shape) {
  return broadcastSource(outIndex, shape, stridesOf(shape));
}

int64_t fold::broadcastSource(ArrayRef<int64_t> outIndex,
                              ArrayRef<int64_t> shape,
                              ArrayRef<int64_t> strides) {
  int64_t offset = outIndex.size() - shape.size(), linear = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    linear += (shape[i] == 1 ? 0 : outIndex[i + offset]) * strides[i];
  return linear;
}

SmallVector<Attribute> fold::elementsOf(DenseElementsAttr attr) {
  return SmallVector<Attribute>(attr.getValues<Attribute>());
}

AffineMapAttr fold::symbolicElement(AffineExpr e) {
  return AffineMapAttr::get(AffineMap::get(0, symbolCountOf(e), e));
}

Attribute fold::packElements(RankedTensorType resultType,
                             ArrayRef<Attribute> values) {
  if (!llvm::any_of(values, [](Attribute a) { return isa<AffineMapAttr>(a); }))
    return DenseElementsAttr::get(resultType, values);
  if (!resultType.getElementType().isSignlessInteger())
    return nullptr;
  SmallVector<AffineExpr> exprs;
  for (Attribute a : values) {
    if (auto m = dyn_cast<AffineMapAttr>(a))
      exprs.push_back(m.getValue().getResult(0));
    else if (auto i = dyn_cast<IntegerAttr>(a))
      exprs.push_back(getAffineConstantExpr(i.getInt(), a.getContext()));
    else
      return nullptr;
  }
  return extentsAttrOf(resultType.getContext(), exprs);
}

std::optional<SmallVector<Attribute>> fold::smallElements(Attribute attr,
                                                          Value v) {
  if (DenseElementsAttr d = smallDense(attr))
    return elementsOf(d);
  auto extents = dyn_cast_or_null<ExtentsAttr>(attr);
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!extents || !type || !type.hasStaticShape() ||
      !type.getElementType().isSignlessInteger() ||
      extents.getMap().getNumResults() != type.getNumElements())
    return std::nullopt;
  SmallVector<Attribute> values;
  for (AffineExpr e : extents.getMap().getResults()) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      values.push_back(IntegerAttr::get(type.getElementType(), c.getValue()));
    else
      values.push_back(symbolicElement(e));
  }
  return values;
}

bool fold::isUnsignedElement(Type t) {
  auto it = dyn_cast<IntegerType>(getElementTypeOrSelf(t));
  return it && (it.isUnsigned() || it.getWidth() == 1);
}

namespace {

constexpr APFloat::roundingMode kNearest = APFloat::rmNearestTiesToEven;

/// `a op b` in the float type's own arithmetic. NaN propagates through
/// max/min, as in numpy and ONNX.
Attribute evalFloat(StringRef name, FloatAttr lhs, FloatAttr rhs) {
  APFloat a = lhs.getValue(), b = rhs.getValue();
  if (name == "brrr.add")
    a.add(b, kNearest);
  else if (name == "brrr.sub")
    a.subtract(b, kNearest);
  else if (name == "brrr.mul")
    a.multiply(b, kNearest);
  else if (name == "brrr.div")
    a.divide(b, kNearest);
  else if (name == "brrr.rem")
    a.mod(b);
  else if (name == "brrr.max")
    a = llvm::maximum(a, b);
  else if (name == "brrr.min")
    a = llvm::minimum(a, b);
  else if (name == "brrr.pow") {
    // No APFloat pow: double holds every operand exactly and rounds once.
    APFloat v(std::pow(lhs.getValueAsDouble(), rhs.getValueAsDouble()));
    bool lost;
    v.convert(a.getSemantics(), kNearest, &lost);
    a = v;
  } else
    return nullptr;
  return FloatAttr::get(lhs.getType(), a);
}

/// `a op b` in the integer type's own arithmetic: add, sub, mul and pow
/// wrap, and INT_MIN / -1 is INT_MIN, as numpy computes them. Division by
/// zero and negative exponents have no defined value: null, and `why`.
Attribute evalInt(StringRef name, IntegerAttr lhs, IntegerAttr rhs,
                  bool isUnsigned, std::string *why) {
  const APInt &a = lhs.getValue(), &b = rhs.getValue();
  auto undefined = [&](StringRef reason) -> Attribute {
    if (why)
      *why = reason.str();
    return nullptr;
  };
  APInt v;
  if (name == "brrr.add")
    v = a + b;
  else if (name == "brrr.sub")
    v = a - b;
  else if (name == "brrr.mul")
    v = a * b;
  else if (name == "brrr.div" || name == "brrr.rem") {
    if (b.isZero())
      return undefined("integer division by zero");
    if (name == "brrr.div")
      v = isUnsigned ? a.udiv(b) : a.sdiv(b);
    else
      v = isUnsigned ? a.urem(b) : a.srem(b);
  } else if (name == "brrr.max")
    v = isUnsigned ? llvm::APIntOps::umax(a, b) : llvm::APIntOps::smax(a, b);
  else if (name == "brrr.min")
    v = isUnsigned ? llvm::APIntOps::umin(a, b) : llvm::APIntOps::smin(a, b);
  else if (name == "brrr.and")
    v = a & b;
  else if (name == "brrr.or")
    v = a | b;
  else if (name == "brrr.xor")
    v = a ^ b;
  else if (name == "brrr.pow") {
    if (!isUnsigned && b.isNegative())
      return undefined("an integer raised to a negative power");
    APInt base = a;
    v = APInt(a.getBitWidth(), 1);
    for (unsigned bit = 0, e = b.getActiveBits(); bit < e; ++bit) {
      if (b[bit])
        v *= base;
      base *= base;
    }
  } else
    return nullptr;
  return IntegerAttr::get(lhs.getType(), v);
}

/// `lhs pred rhs`: floats compare unordered with NaN (only `ne` holds),
/// integers as signed or unsigned numbers.
bool evalCompare(ComparePredicate pred, Attribute lhs, Attribute rhs,
                 bool isUnsigned) {
  if (auto lf = dyn_cast<FloatAttr>(lhs))
    return comparePredicateHolds(pred, lf.getValue(),
                                 cast<FloatAttr>(rhs).getValue());
  return comparePredicateHolds(
      pred, APSInt(cast<IntegerAttr>(lhs).getValue(), isUnsigned),
      APSInt(cast<IntegerAttr>(rhs).getValue(), isUnsigned));
}

/// `value` cast to element type `to` with ONNX Cast rules: floats round to
/// nearest and truncate toward zero into integers, integers wrap into
/// narrower ones, anything non-zero (NaN too) is true. A float that no
/// value of the integer type holds (NaN, infinities, out of range) has no
/// defined result: null, and `why`.
Attribute evalCast(Attribute value, Type to, bool fromUnsigned,
                   std::string *why) {
  auto toInt = dyn_cast<IntegerType>(to);
  if (auto f = dyn_cast<FloatAttr>(value)) {
    const APFloat &a = f.getValue();
    if (isa<Float8E4M3FNType>(to))
      return FloatAttr::get(to, roundToFloat8(a, /*saturate=*/true));
    if (auto ft = dyn_cast<FloatType>(to)) {
      APFloat v = a;
      bool lost;
      v.convert(ft.getFloatSemantics(), kNearest, &lost);
      return FloatAttr::get(ft, v);
    }
    if (!toInt)
      return nullptr;
    if (toInt.getWidth() == 1)
      return IntegerAttr::get(toInt, APInt(1, !a.isZero()));
    APSInt v(toInt.getWidth(), toInt.isUnsigned());
    bool exact;
    if (a.convertToInteger(v, APFloat::rmTowardZero, &exact) &
        APFloat::opInvalidOp) {
      if (why)
        *why = "a float cast to an integer type that cannot hold it";
      return nullptr;
    }
    return IntegerAttr::get(toInt, v);
  }
  const APInt &a = cast<IntegerAttr>(value).getValue();
  if (isa<Float8E4M3FNType>(to)) {
    APFloat v(APFloat::IEEEdouble());
    v.convertFromAPInt(a, /*IsSigned=*/!fromUnsigned, kNearest);
    return FloatAttr::get(to, roundToFloat8(v, /*saturate=*/true));
  }
  if (auto ft = dyn_cast<FloatType>(to)) {
    APFloat v(ft.getFloatSemantics());
    v.convertFromAPInt(a, /*IsSigned=*/!fromUnsigned, kNearest);
    return FloatAttr::get(ft, v);
  }
  if (!toInt)
    return nullptr;
  if (toInt.getWidth() == 1)
    return IntegerAttr::get(toInt, APInt(1, !a.isZero()));
  return IntegerAttr::get(toInt, fromUnsigned
                                     ? a.zextOrTrunc(toInt.getWidth())
                                     : a.sextOrTrunc(toInt.getWidth()));
}

/// An elementwise op over small integer constants some of which are
/// symbolic (#brrr.extents): sums, differences and products of extents,
/// quotients of non-negative extents by positive constants, casts to an
/// integer type that holds every value, and max, min and comparisons that
/// the extents' ranges decide. Null for anything else: the op stays.
Attribute foldSymbolicElementwise(Operation *op, ArrayRef<Attribute> operands) {
  SmallVector<SmallVector<Attribute>> values;
  for (auto [a, v] : llvm::zip(operands, op->getOperands())) {
    auto elements = smallElements(a, v);
    if (!elements)
      return nullptr;
    values.push_back(std::move(*elements));
  }
  SmallVector<DimAttr> dims = dimsOf(op);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type resultElement = resultType.getElementType();
  auto exprOf = [](Attribute a) -> AffineExpr {
    if (auto m = dyn_cast<AffineMapAttr>(a))
      return m.getValue().getResult(0);
    auto i = dyn_cast<IntegerAttr>(a);
    if (!i || i.getType().isInteger(1))
      return AffineExpr();
    return getAffineConstantExpr(i.getInt(), a.getContext());
  };
  // `e` as an element of the result, if its range fits the result type.
  auto element = [&](AffineExpr e) -> Attribute {
    auto range = rangeOf(e, dims);
    unsigned width = resultElement.getIntOrFloatBitWidth();
    if (!range || !resultElement.isSignlessInteger() || width < 2 ||
        (width < 64 && (range->first < -(int64_t(1) << (width - 1)) ||
                        range->second >= (int64_t(1) << (width - 1)))))
      return nullptr;
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return IntegerAttr::get(resultElement, c.getValue());
    return symbolicElement(e);
  };
  auto at = [&](unsigned k, ArrayRef<int64_t> idx) {
    return exprOf(values[k][broadcastSource(
        idx, cast<ShapedType>(op->getOperand(k).getType()).getShape())]);
  };
  if (isa<CastOp>(op))
    return buildElements(resultType, [&](ArrayRef<int64_t> idx) {
      AffineExpr e = at(0, idx);
      return e ? element(e) : Attribute();
    });
  StringRef name = op->getName().getStringRef();
  return buildElements(resultType, [&](ArrayRef<int64_t> idx) -> Attribute {
    AffineExpr l = at(0, idx), r = at(1, idx);
    if (!l || !r)
      return nullptr;
    auto difference = rangeOf(l - r, dims);
    if (auto compare = dyn_cast<CompareOp>(op)) {
      if (!difference)
        return nullptr;
      auto [lo, hi] = *difference;
      std::optional<bool> holds =
          comparePredicateOver(compare.getPredicate(), lo, hi);
      if (!holds)
        return nullptr;
      return IntegerAttr::get(resultElement, *holds);
    }
    if (name == AddOp::getOperationName())
      return element(l + r);
    if (name == SubOp::getOperationName())
      return element(l - r);
    if (name == MulOp::getOperationName())
      return element(l * r);
    if (name == DivOp::getOperationName()) {
      auto c = dyn_cast<AffineConstantExpr>(r);
      auto range = rangeOf(l, dims);
      // Integer division truncates; it floors where the dividend is not
      // negative.
      if (!c || c.getValue() <= 0 || !range || range->first < 0)
        return nullptr;
      return element(l.floorDiv(c.getValue()));
    }
    if (name == MaxOp::getOperationName() ||
        name == MinOp::getOperationName()) {
      if (!difference || (difference->first < 0 && difference->second > 0))
        return nullptr;
      bool lhsLarger = difference->first >= 0;
      return element((name == MaxOp::getOperationName()) == lhsLarger ? l : r);
    }
    return nullptr;
  });
}

/// An elementwise binary op, comparison or cast whose operands are small
/// dense constants, evaluated; null if an operand is not one, or if some
/// element has no defined value (then `why`, when given, says why).
Attribute foldElementwise(Operation *op, ArrayRef<Attribute> operands,
                          std::string *why) {
  if (llvm::any_of(operands,
                   [](Attribute a) { return isa_and_nonnull<ExtentsAttr>(a); }))
    return foldSymbolicElementwise(op, operands);
  SmallVector<DenseElementsAttr> dense;
  SmallVector<SmallVector<Attribute>> values;
  for (Attribute a : operands) {
    DenseElementsAttr d = smallDense(a);
    if (!d)
      return nullptr;
    dense.push_back(d);
    values.push_back(elementsOf(d));
  }
  auto at = [&](unsigned k, ArrayRef<int64_t> idx) {
    return values[k][broadcastSource(idx, dense[k].getType().getShape())];
  };
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Type resultElement = resultType.getElementType();
  bool isUnsigned = isUnsignedElement(op->getOperand(0).getType());
  if (isa<CastOp>(op))
    return buildElements(resultType, [&](ArrayRef<int64_t> idx) {
      return evalCast(at(0, idx), resultElement, isUnsigned, why);
    });
  if (auto compare = dyn_cast<CompareOp>(op))
    return buildElements(resultType, [&](ArrayRef<int64_t> idx) {
      return IntegerAttr::get(resultElement,
                              evalCompare(compare.getPredicate(), at(0, idx),
                                          at(1, idx), isUnsigned));
    });
  StringRef name = op->getName().getStringRef();
  return buildElements(resultType, [&](ArrayRef<int64_t> idx) -> Attribute {
    Attribute l = at(0, idx), r = at(1, idx);
    if (auto lf = dyn_cast<FloatAttr>(l))
      return evalFloat(name, lf, cast<FloatAttr>(r));
    return evalInt(name, cast<IntegerAttr>(l), cast<IntegerAttr>(r), isUnsigned,
                   why);
  });
}

bool isElementwiseFoldable(Operation *op) {
  return isa<AddOp, AndOp, CastOp, CompareOp, DivOp, MaxOp, MinOp, MulOp, OrOp,
             PowOp, RemOp, SubOp, XorOp>(op);
}

} // namespace

OpFoldResult mlir::brrr::foldBinaryOp(Operation *op, Attribute lhs,
                                      Attribute rhs) {
  return foldElementwise(op, {lhs, rhs}, /*why=*/nullptr);
}

std::string mlir::brrr::undefinedFoldReason(Operation *op) {
  if (!isElementwiseFoldable(op))
    return "";
  SmallVector<Attribute> operands;
  for (Value v : op->getOperands()) {
    Attribute a;
    if (!matchPattern(v, m_Constant(&a)))
      return "";
    operands.push_back(a);
  }
  std::string why;
  if (foldElementwise(op, operands, &why))
    return "";
  return why;
}

OpFoldResult CompareOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(*this, {adaptor.getLhs(), adaptor.getRhs()},
                         /*why=*/nullptr);
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr c = smallDense(adaptor.getCondition());
  auto l = smallElements(adaptor.getLhs(), getLhs());
  auto r = smallElements(adaptor.getRhs(), getRhs());
  if (!c || !l || !r)
    return nullptr;
  SmallVector<Attribute> cv = elementsOf(c);
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) {
    bool take =
        cast<IntegerAttr>(cv[broadcastSource(idx, c.getType().getShape())])
            .getValue()
            .getBoolValue();
    return take ? (*l)[broadcastSource(idx, getLhs().getType().getShape())]
                : (*r)[broadcastSource(idx, getRhs().getType().getShape())];
  });
}

APFloat mlir::brrr::roundToFloat8(APFloat v, bool saturate) {
  const llvm::fltSemantics &f8 = APFloat::Float8E4M3FN();
  bool negative = v.isNegative();
  if (v.isNaN())
    return APFloat::getNaN(f8, negative);
  bool lost;
  APFloat::opStatus status = v.convert(f8, kNearest, &lost);
  if ((status & APFloat::opOverflow) || v.isNaN())
    return saturate ? APFloat::getLargest(f8, negative)
                    : APFloat::getNaN(f8, negative);
  return v;
}

std::string mlir::brrr::quantizedTypeName(Type t) {
  if (isa<Float8E4M3FNType>(t))
    return "FLOAT8E4M3FN";
  if (t.isUnsignedInteger(8))
    return "UINT8";
  if (t.isInteger(8))
    return "INT8";
  if (t.isUnsignedInteger(16))
    return "UINT16";
  if (t.isInteger(16))
    return "INT16";
  if (t.isUnsignedInteger(32))
    return "UINT32";
  if (t.isInteger(32))
    return "INT32";
  std::string s;
  llvm::raw_string_ostream(s) << t;
  return s;
}

double mlir::brrr::dequantizeValue(double x, double zero, double scale,
                                   bool isFloat8) {
  float diff = isFloat8 ? static_cast<float>(x - zero)
                        : static_cast<float>(static_cast<int64_t>(x - zero));
  return diff * static_cast<float>(scale);
}

bool mlir::brrr::widensExactly(Type from, Type to) {
  if (auto f = dyn_cast<FloatType>(from))
    if (auto t = dyn_cast<FloatType>(to))
      return APFloat::isRepresentableAsNormalIn(f.getFloatSemantics(),
                                                t.getFloatSemantics());
  if (auto f = dyn_cast<IntegerType>(from))
    if (auto t = dyn_cast<IntegerType>(to))
      return f.getWidth() > 1 && t.getWidth() > f.getWidth() &&
             f.getSignedness() == t.getSignedness();
  return false;
}

/// A small float weight blob cast to another float type, as a blob of that
/// type (TorchScript's f16 layer norms cast their f32 scale and bias), or
/// null.
static OpFoldResult foldBlobCast(CastOp cast, Attribute input) {
  auto blob = dyn_cast_or_null<DenseResourceElementsAttr>(input);
  RankedTensorType type = cast.getType();
  if (!blob || !isa<FloatType>(blob.getElementType()) ||
      !isa<FloatType>(type.getElementType()) ||
      isa<Float8E4M3FNType>(type.getElementType()) ||
      type.getNumElements() > kMaxFoldElements)
    return nullptr;
  std::optional<SmallVector<double>> values = getConstFloats(cast.getInput());
  if (!values)
    return nullptr;
  std::string key;
  llvm::raw_string_ostream(key)
      << blob.getRawHandle().getKey() << "." << type.getElementType();
  return makeFloatElements(type, *values, key);
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // Widening and back (an f16 value passed through f32) is the value.
  if (auto inner = getInput().getDefiningOp<CastOp>())
    if (inner.getInput().getType() == getType() &&
        widensExactly(getType().getElementType(),
                      inner.getType().getElementType()))
      return inner.getInput();
  // A splat of any size is one value to cast (ConstantOfShape's weights).
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getInput())) {
    Attribute v =
        evalCast(splat.getSplatValue<Attribute>(), getType().getElementType(),
                 isUnsignedElement(getInput().getType()), /*why=*/nullptr);
    return v ? DenseElementsAttr::get(getType(), v) : nullptr;
  }
  if (!smallDense(adaptor.getInput()))
    return foldBlobCast(*this, adaptor.getInput());
  return foldElementwise(*this, {adaptor.getInput()}, /*why=*/nullptr);
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  SmallVector<SmallVector<Attribute>> values;
  SmallVector<int64_t> starts;
  int64_t start = 0;
  for (auto [a, v] : llvm::zip(adaptor.getInputs(), getInputs())) {
    auto elements = smallElements(a, v);
    if (!elements)
      return nullptr;
    values.push_back(std::move(*elements));
    starts.push_back(start);
    start += cast<RankedTensorType>(v.getType()).getDimSize(getAxis());
  }
  int64_t axis = getAxis();
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) {
    size_t k = llvm::upper_bound(starts, idx[axis]) - starts.begin() - 1;
    SmallVector<int64_t> src(idx);
    src[axis] -= starts[k];
    return values[k][broadcastSource(
        src, cast<RankedTensorType>(getInputs()[k].getType()).getShape())];
  });
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    if (dense.isSplat() && getType().hasStaticShape())
      return dense.resizeSplat(getType());
  auto in = smallElements(adaptor.getInput(), getInput());
  if (!in)
    return nullptr;
  SmallVector<Attribute> &values = *in;
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) {
    return values[broadcastSource(idx, getInput().getType().getShape())];
  });
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  // Padding nothing on any side, in any mode, is the input itself.
  auto none = [](ArrayRef<int64_t> amounts) {
    return llvm::all_of(amounts, [](int64_t a) { return a == 0; });
  };
  if (none(getLow()) && none(getHigh()) && getInput().getType() == getType())
    return getInput();
  return nullptr;
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
      dense && getType().hasStaticShape())
    return dense.reshape(getType());
  // A symbolic constant keeps its elements in order.
  if (isa_and_nonnull<ExtentsAttr>(adaptor.getInput()) &&
      getType().hasStaticShape())
    return adaptor.getInput();
  return nullptr;
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  auto inType = getInput().getType();
  bool identity = inType == getType();
  for (auto [start, step] : llvm::zip(getStarts(), getSteps()))
    identity &= start == 0 && step == 1;
  if (identity)
    return getInput();
  auto in = smallElements(adaptor.getInput(), getInput());
  if (!in)
    return nullptr;
  SmallVector<Attribute> &values = *in;
  SmallVector<int64_t> strides = stridesOf(inType.getShape());
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) {
    int64_t linear = 0;
    for (size_t d = 0; d < idx.size(); ++d)
      linear += (getStarts()[d] + idx[d] * getSteps()[d]) * strides[d];
    return values[linear];
  });
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPerm();
  bool identity = true;
  for (auto [i, p] : llvm::enumerate(perm))
    identity &= static_cast<int64_t>(i) == p;
  if (identity)
    return getInput();
  // A splat of any size stays one value.
  auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getInput());
  if (splat && getType().hasStaticShape())
    return splat.resizeSplat(getType());
  DenseElementsAttr in = smallDense(adaptor.getInput());
  if (!in)
    return nullptr;
  SmallVector<Attribute> values = elementsOf(in);
  SmallVector<int64_t> strides = stridesOf(getInput().getType().getShape());
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) {
    int64_t linear = 0;
    for (size_t d = 0; d < idx.size(); ++d)
      linear += idx[d] * strides[perm[d]];
    return values[linear];
  });
}

std::optional<bool> mlir::brrr::comparePredicateOver(ComparePredicate pred,
                                                     int64_t lo, int64_t hi) {
  switch (pred) {
  case ComparePredicate::eq:
  case ComparePredicate::ne:
    if (lo == 0 && hi == 0)
      return pred == ComparePredicate::eq;
    if (lo > 0 || hi < 0)
      return pred == ComparePredicate::ne;
    return std::nullopt;
  case ComparePredicate::lt:
    return hi < 0    ? std::optional<bool>(true)
           : lo >= 0 ? std::optional<bool>(false)
                     : std::nullopt;
  case ComparePredicate::le:
    return hi <= 0  ? std::optional<bool>(true)
           : lo > 0 ? std::optional<bool>(false)
                    : std::nullopt;
  case ComparePredicate::gt:
    return lo > 0    ? std::optional<bool>(true)
           : hi <= 0 ? std::optional<bool>(false)
                     : std::nullopt;
  case ComparePredicate::ge:
    return lo >= 0  ? std::optional<bool>(true)
           : hi < 0 ? std::optional<bool>(false)
                    : std::nullopt;
  }
  return std::nullopt;
}
