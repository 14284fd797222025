//===- BrrrFolders.cpp - folding and canonicalization of brrr ops --------===//
//
// Folders remove identity data movement (reshape/transpose/expand/cast to the
// same type) and evaluate small constant tensors, which is how ONNX shape
// subgraphs (Shape -> Gather -> Concat -> Reshape) collapse to constants both
// at import (the importer folds every op it builds) and in `canonicalize`.
// Constants above kMaxFoldElements are never materialized.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// A small dense constant, or null if `attr` is not one.
DenseElementsAttr smallDense(Attribute attr) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || dense.getNumElements() > kMaxFoldElements)
    return nullptr;
  return dense;
}

/// smallDense, or a small weight blob (dense_resource, as the importer keeps
/// float initializers) read as dense. Only the index-driven ops read blobs:
/// exporters build masks by scattering initializers into constants (Swin's
/// shifted-window mask), and those subgraphs must fold. Other folders leave
/// blobs alone, so weights stay blobs instead of turning into inline IR.
DenseElementsAttr smallDenseOrBlob(Attribute attr) {
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

/// An index normalized into [0, dim) (negative counts from the end), or -1
/// if it lies outside.
int64_t normalizeIndex(const APInt &raw, int64_t dim) {
  int64_t k = raw.getSExtValue();
  if (k < 0)
    k += dim;
  return k >= 0 && k < dim ? k : -1;
}

/// Index values of a small constant, or an empty vector.
SmallVector<APInt> indexValues(DenseElementsAttr indices) {
  return SmallVector<APInt>(indices.getValues<APInt>());
}

/// Row-major strides of a shape.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Multi-index of the row-major linear index `linear`.
SmallVector<int64_t> delinearize(int64_t linear, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t i = static_cast<int64_t>(shape.size()) - 1; i >= 0; --i) {
    index[i] = shape[i] ? linear % shape[i] : 0;
    linear = shape[i] ? linear / shape[i] : 0;
  }
  return index;
}

/// Linear index into `shape` of the element that broadcasts to `outIndex`.
int64_t broadcastSource(ArrayRef<int64_t> outIndex, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = stridesOf(shape);
  int64_t offset = outIndex.size() - shape.size(), linear = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    linear += (shape[i] == 1 ? 0 : outIndex[i + offset]) * strides[i];
  return linear;
}

/// Element values of a dense constant, splats expanded.
SmallVector<Attribute> elementsOf(DenseElementsAttr attr) {
  return SmallVector<Attribute>(attr.getValues<Attribute>());
}

/// Numeric value of an integer or float attribute, as double or int64.
struct Scalar {
  bool isFloat;
  double f;
  int64_t i;
};

Scalar scalarOf(Attribute a, bool isUnsigned) {
  if (auto f = dyn_cast<FloatAttr>(a))
    return {true, f.getValueAsDouble(), 0};
  auto i = cast<IntegerAttr>(a);
  APInt v = i.getValue();
  int64_t value =
      v.getBitWidth() == 1 || isUnsigned ? v.getZExtValue() : v.getSExtValue();
  return {false, 0, value};
}

/// Builds an attribute of element type `type` from a double or an int.
Attribute makeScalar(Type type, double f, int64_t i, bool fromFloat) {
  if (auto ft = dyn_cast<FloatType>(type))
    return FloatAttr::get(ft, fromFloat ? f : static_cast<double>(i));
  auto it = cast<IntegerType>(type);
  int64_t v = i;
  if (fromFloat) {
    if (!std::isfinite(f))
      return nullptr;
    v = it.getWidth() == 1 ? (f != 0.0) : static_cast<int64_t>(f);
  } else if (it.getWidth() == 1) {
    v = i != 0;
  }
  return IntegerAttr::get(it, APInt(it.getWidth(), v, /*isSigned=*/true,
                                    /*implicitTrunc=*/true));
}

/// Evaluates an elementwise binary op on one pair of scalars; null if the op
/// has no safe compile-time result (integer division by zero, say).
Attribute evalBinary(StringRef name, Type elementType, Scalar l, Scalar r) {
  if (l.isFloat) {
    double a = l.f, b = r.f, v;
    if (name == "brrr.add")
      v = a + b;
    else if (name == "brrr.sub")
      v = a - b;
    else if (name == "brrr.mul")
      v = a * b;
    else if (name == "brrr.div")
      v = a / b;
    // NaN propagates through max/min, as in numpy and ONNX.
    else if (name == "brrr.max")
      v = std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
    else if (name == "brrr.min")
      v = std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
    else if (name == "brrr.pow")
      v = std::pow(a, b);
    else if (name == "brrr.rem")
      v = std::fmod(a, b);
    else
      return nullptr;
    return makeScalar(elementType, v, 0, true);
  }
  int64_t a = l.i, b = r.i, v;
  if (name == "brrr.add")
    v = a + b;
  else if (name == "brrr.sub")
    v = a - b;
  else if (name == "brrr.mul")
    v = a * b;
  else if (name == "brrr.div") {
    if (b == 0)
      return nullptr;
    v = a / b;
  } else if (name == "brrr.rem") {
    if (b == 0)
      return nullptr;
    v = a % b;
  } else if (name == "brrr.max")
    v = std::max(a, b);
  else if (name == "brrr.min")
    v = std::min(a, b);
  else if (name == "brrr.and")
    v = a && b;
  else if (name == "brrr.or")
    v = a || b;
  else if (name == "brrr.xor")
    v = (a != 0) != (b != 0);
  else if (name == "brrr.pow") {
    if (b < 0)
      return nullptr;
    // Square-and-multiply in unsigned arithmetic: wraps like the target.
    uint64_t base = static_cast<uint64_t>(a), result = 1;
    for (uint64_t e = static_cast<uint64_t>(b); e; e >>= 1, base *= base)
      if (e & 1)
        result *= base;
    v = static_cast<int64_t>(result);
  } else
    return nullptr;
  return makeScalar(elementType, 0, v, false);
}

bool evalCompare(ComparePredicate pred, Scalar l, Scalar r) {
  return l.isFloat ? comparePredicateHolds(pred, l.f, r.f)
                   : comparePredicateHolds(pred, l.i, r.i);
}

/// Applies `fn(outIndex)` to every element of `resultType` and packs the
/// attributes it returns; null if any element is null.
template <typename Fn>
Attribute buildElements(RankedTensorType resultType, Fn fn) {
  if (resultType.getNumElements() > kMaxFoldElements)
    return nullptr;
  SmallVector<Attribute> values;
  values.reserve(resultType.getNumElements());
  for (int64_t i = 0; i < resultType.getNumElements(); ++i) {
    Attribute v = fn(delinearize(i, resultType.getShape()));
    if (!v)
      return nullptr;
    values.push_back(v);
  }
  return DenseElementsAttr::get(resultType, values);
}

bool isUnsignedElement(Type t) {
  auto it = dyn_cast<IntegerType>(getElementTypeOrSelf(t));
  return it && it.isUnsigned();
}

} // namespace

OpFoldResult mlir::brrr::foldBinaryOp(Operation *op, Attribute lhsAttr,
                                      Attribute rhsAttr) {
  DenseElementsAttr lhs = smallDense(lhsAttr), rhs = smallDense(rhsAttr);
  if (!lhs || !rhs)
    return nullptr;
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  bool isUnsigned = isUnsignedElement(resultType);
  SmallVector<Attribute> l = elementsOf(lhs), r = elementsOf(rhs);
  StringRef name = op->getName().getStringRef();
  return buildElements(resultType, [&](ArrayRef<int64_t> idx) {
    return evalBinary(
        name, resultType.getElementType(),
        scalarOf(l[broadcastSource(idx, lhs.getType().getShape())], isUnsigned),
        scalarOf(r[broadcastSource(idx, rhs.getType().getShape())],
                 isUnsigned));
  });
}

OpFoldResult CompareOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr lhs = smallDense(adaptor.getLhs()),
                    rhs = smallDense(adaptor.getRhs());
  if (!lhs || !rhs)
    return nullptr;
  bool isUnsigned = isUnsignedElement(getLhs().getType());
  SmallVector<Attribute> l = elementsOf(lhs), r = elementsOf(rhs);
  Type i1 = getType().getElementType();
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) -> Attribute {
    bool v = evalCompare(
        getPredicate(),
        scalarOf(l[broadcastSource(idx, lhs.getType().getShape())], isUnsigned),
        scalarOf(r[broadcastSource(idx, rhs.getType().getShape())],
                 isUnsigned));
    return IntegerAttr::get(i1, v);
  });
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr c = smallDense(adaptor.getCondition()),
                    l = smallDense(adaptor.getLhs()),
                    r = smallDense(adaptor.getRhs());
  if (!c || !l || !r)
    return nullptr;
  SmallVector<Attribute> cv = elementsOf(c), lv = elementsOf(l),
                         rv = elementsOf(r);
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) {
    bool take =
        cast<IntegerAttr>(cv[broadcastSource(idx, c.getType().getShape())])
            .getValue()
            .getBoolValue();
    return take ? lv[broadcastSource(idx, l.getType().getShape())]
                : rv[broadcastSource(idx, r.getType().getShape())];
  });
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
  DenseElementsAttr in = smallDense(adaptor.getInput());
  if (!in)
    return foldBlobCast(*this, adaptor.getInput());
  bool isUnsigned = isUnsignedElement(getInput().getType());
  SmallVector<Attribute> values = elementsOf(in);
  Type elementType = getType().getElementType();
  if (!elementType.isIntOrFloat())
    return nullptr;
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) {
    int64_t linear = 0;
    SmallVector<int64_t> strides = stridesOf(getType().getShape());
    for (size_t i = 0; i < idx.size(); ++i)
      linear += idx[i] * strides[i];
    Scalar s = scalarOf(values[linear], isUnsigned);
    return makeScalar(elementType, s.f, s.i, s.isFloat);
  });
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  SmallVector<DenseElementsAttr> inputs;
  for (Attribute a : adaptor.getInputs()) {
    if (!smallDense(a))
      return nullptr;
    inputs.push_back(cast<DenseElementsAttr>(a));
  }
  SmallVector<SmallVector<Attribute>> values;
  SmallVector<int64_t> starts;
  int64_t start = 0;
  for (DenseElementsAttr a : inputs) {
    values.push_back(elementsOf(a));
    starts.push_back(start);
    start += a.getType().getDimSize(getAxis());
  }
  int64_t axis = getAxis();
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) {
    size_t k = llvm::upper_bound(starts, idx[axis]) - starts.begin() - 1;
    SmallVector<int64_t> src(idx);
    src[axis] -= starts[k];
    return values[k][broadcastSource(src, inputs[k].getType().getShape())];
  });
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    if (dense.isSplat())
      return dense.resizeSplat(getType());
  DenseElementsAttr in = smallDense(adaptor.getInput());
  if (!in)
    return nullptr;
  SmallVector<Attribute> values = elementsOf(in);
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) {
    return values[broadcastSource(idx, in.getType().getShape())];
  });
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr in = smallDense(adaptor.getInput()),
                    indices = smallDense(adaptor.getIndices());
  if (!in || !indices)
    return nullptr;
  SmallVector<Attribute> values = elementsOf(in);
  SmallVector<APInt> idxValues = indexValues(indices);
  int64_t axis = getAxis(), dim = in.getType().getDimSize(axis);
  int64_t idxRank = indices.getType().getRank();
  SmallVector<int64_t> inStrides = stridesOf(in.getType().getShape());
  SmallVector<int64_t> idxStrides = stridesOf(indices.getType().getShape());
  return buildElements(getType(), [&](ArrayRef<int64_t> out) -> Attribute {
    int64_t idxLinear = 0;
    for (int64_t i = 0; i < idxRank; ++i)
      idxLinear += out[axis + i] * idxStrides[i];
    int64_t k = normalizeIndex(idxValues[idxLinear], dim);
    if (k < 0)
      return nullptr;
    int64_t linear = 0;
    for (int64_t d = 0; d < in.getType().getRank(); ++d) {
      int64_t coord = d < axis ? out[d] : d == axis ? k : out[d + idxRank - 1];
      linear += coord * inStrides[d];
    }
    return values[linear];
  });
}

namespace {

/// `old` combined with `update` per a scatter's reduction, in the element
/// type's own arithmetic (integers wrap; NaN propagates through max/min).
Attribute combineScatter(ScatterReduction reduction, Attribute old,
                         Attribute update, bool isUnsigned) {
  if (reduction == ScatterReduction::none)
    return update;
  if (auto f = dyn_cast<FloatAttr>(old)) {
    APFloat a = f.getValue(), b = cast<FloatAttr>(update).getValue();
    switch (reduction) {
    case ScatterReduction::add:
      a.add(b, APFloat::rmNearestTiesToEven);
      break;
    case ScatterReduction::mul:
      a.multiply(b, APFloat::rmNearestTiesToEven);
      break;
    case ScatterReduction::max:
      a = maximum(a, b);
      break;
    case ScatterReduction::min:
      a = minimum(a, b);
      break;
    case ScatterReduction::none:
      break;
    }
    return FloatAttr::get(f.getType(), a);
  }
  auto i = cast<IntegerAttr>(old);
  APInt a = i.getValue(), b = cast<IntegerAttr>(update).getValue();
  bool bit = a.getBitWidth() == 1;
  switch (reduction) {
  case ScatterReduction::add:
    a = bit ? (a | b) : a + b;
    break;
  case ScatterReduction::mul:
    a = bit ? (a & b) : a * b;
    break;
  case ScatterReduction::max:
    a = isUnsigned || bit ? llvm::APIntOps::umax(a, b)
                          : llvm::APIntOps::smax(a, b);
    break;
  case ScatterReduction::min:
    a = isUnsigned || bit ? llvm::APIntOps::umin(a, b)
                          : llvm::APIntOps::smin(a, b);
    break;
  case ScatterReduction::none:
    break;
  }
  return IntegerAttr::get(i.getType(), a);
}

/// The constant operands of a scatter, read for folding: the input's
/// elements (to be updated in place), the indices and the updates.
struct ScatterOperands {
  DenseElementsAttr input, indices;
  SmallVector<Attribute> values, updates;
  SmallVector<APInt> index;
};
std::optional<ScatterOperands> scatterOperands(Attribute input,
                                               Attribute indices,
                                               Attribute updates) {
  ScatterOperands s;
  s.input = smallDenseOrBlob(input);
  s.indices = smallDenseOrBlob(indices);
  DenseElementsAttr upd = smallDenseOrBlob(updates);
  if (!s.input || !s.indices || !upd)
    return std::nullopt;
  s.values = elementsOf(s.input);
  s.updates = elementsOf(upd);
  s.index = indexValues(s.indices);
  return s;
}

} // namespace

OpFoldResult GatherElementsOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr in = smallDenseOrBlob(adaptor.getInput()),
                    indices = smallDenseOrBlob(adaptor.getIndices());
  if (!in || !indices)
    return nullptr;
  SmallVector<Attribute> values = elementsOf(in);
  SmallVector<APInt> idx = indexValues(indices);
  int64_t axis = getAxis(), dim = in.getType().getDimSize(axis);
  SmallVector<int64_t> inStrides = stridesOf(in.getType().getShape());
  SmallVector<int64_t> idxStrides = stridesOf(indices.getType().getShape());
  return buildElements(getType(), [&](ArrayRef<int64_t> out) -> Attribute {
    int64_t idxLinear = 0, linear = 0;
    for (size_t d = 0; d < out.size(); ++d)
      idxLinear += out[d] * idxStrides[d];
    int64_t k = normalizeIndex(idx[idxLinear], dim);
    if (k < 0)
      return nullptr; // the kernel's clamping decides, not the folder
    for (size_t d = 0; d < out.size(); ++d)
      linear += (static_cast<int64_t>(d) == axis ? k : out[d]) * inStrides[d];
    return values[linear];
  });
}

OpFoldResult GatherNDOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr in = smallDenseOrBlob(adaptor.getInput()),
                    indices = smallDenseOrBlob(adaptor.getIndices());
  if (!in || !indices)
    return nullptr;
  SmallVector<Attribute> values = elementsOf(in);
  SmallVector<APInt> idx = indexValues(indices);
  ArrayRef<int64_t> inShape = in.getType().getShape();
  int64_t batch = getBatchDims(), q = indices.getType().getRank();
  int64_t k = indices.getType().getShape().back();
  SmallVector<int64_t> inStrides = stridesOf(inShape);
  SmallVector<int64_t> idxStrides = stridesOf(indices.getType().getShape());
  return buildElements(getType(), [&](ArrayRef<int64_t> out) -> Attribute {
    int64_t tuple = 0, linear = 0;
    for (int64_t d = 0; d < q - 1; ++d)
      tuple += out[d] * idxStrides[d];
    for (int64_t d = 0; d < batch; ++d)
      linear += out[d] * inStrides[d];
    for (int64_t j = 0; j < k; ++j) {
      int64_t c = normalizeIndex(idx[tuple + j], inShape[batch + j]);
      if (c < 0)
        return nullptr;
      linear += c * inStrides[batch + j];
    }
    for (int64_t d = batch + k; d < static_cast<int64_t>(inShape.size()); ++d)
      linear += out[q - 1 + d - batch - k] * inStrides[d];
    return values[linear];
  });
}

OpFoldResult ScatterElementsOp::fold(FoldAdaptor adaptor) {
  std::optional<ScatterOperands> s = scatterOperands(
      adaptor.getInput(), adaptor.getIndices(), adaptor.getUpdates());
  if (!s)
    return nullptr;
  SmallVector<Attribute> &values = s->values, &upd = s->updates;
  ArrayRef<APInt> idx = s->index;
  ArrayRef<int64_t> idxShape = s->indices.getType().getShape();
  int64_t axis = getAxis(), dim = s->input.getType().getDimSize(axis);
  SmallVector<int64_t> inStrides = stridesOf(s->input.getType().getShape());
  bool isUnsigned = isUnsignedElement(getType());
  for (size_t p = 0; p < idx.size(); ++p) {
    int64_t k = normalizeIndex(idx[p], dim);
    if (k < 0)
      continue;
    SmallVector<int64_t> at = delinearize(p, idxShape);
    at[axis] = k;
    int64_t linear = 0;
    for (size_t d = 0; d < at.size(); ++d)
      linear += at[d] * inStrides[d];
    values[linear] =
        combineScatter(getReduction(), values[linear], upd[p], isUnsigned);
  }
  return DenseElementsAttr::get(getType(), values);
}

OpFoldResult ScatterNDOp::fold(FoldAdaptor adaptor) {
  std::optional<ScatterOperands> s = scatterOperands(
      adaptor.getInput(), adaptor.getIndices(), adaptor.getUpdates());
  if (!s)
    return nullptr;
  SmallVector<Attribute> &values = s->values, &upd = s->updates;
  ArrayRef<APInt> idx = s->index;
  ArrayRef<int64_t> inShape = s->input.getType().getShape();
  int64_t k = s->indices.getType().getShape().back();
  int64_t slice = 1;
  for (int64_t d : inShape.drop_front(k))
    slice *= d;
  SmallVector<int64_t> inStrides = stridesOf(inShape);
  bool isUnsigned = isUnsignedElement(getType());
  int64_t tuples = k ? static_cast<int64_t>(idx.size()) / k : 0;
  for (int64_t u = 0; u < tuples; ++u) {
    int64_t base = 0;
    bool inside = true;
    for (int64_t j = 0; j < k && inside; ++j) {
      int64_t c = normalizeIndex(idx[u * k + j], inShape[j]);
      inside = c >= 0;
      base += c * inStrides[j];
    }
    if (!inside)
      continue;
    for (int64_t e = 0; e < slice; ++e)
      values[base + e] = combineScatter(getReduction(), values[base + e],
                                        upd[u * slice + e], isUnsigned);
  }
  return DenseElementsAttr::get(getType(), values);
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getType());
  return nullptr;
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  auto inType = getInput().getType();
  bool identity = inType == getType();
  for (auto [start, step] : llvm::zip(getStarts(), getSteps()))
    identity &= start == 0 && step == 1;
  if (identity)
    return getInput();
  DenseElementsAttr in = smallDense(adaptor.getInput());
  if (!in)
    return nullptr;
  SmallVector<Attribute> values = elementsOf(in);
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
  DenseElementsAttr in = smallDense(adaptor.getInput());
  if (!in)
    return nullptr;
  if (in.isSplat())
    return in.resizeSplat(getType());
  SmallVector<Attribute> values = elementsOf(in);
  SmallVector<int64_t> strides = stridesOf(getInput().getType().getShape());
  return buildElements(getType(), [&](ArrayRef<int64_t> idx) {
    int64_t linear = 0;
    for (size_t d = 0; d < idx.size(); ++d)
      linear += idx[d] * strides[perm[d]];
    return values[linear];
  });
}

namespace {

/// reshape(reshape(x)) -> reshape(x): only the final shape matters.
struct CollapseReshapeChain : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getInput().getDefiningOp<ReshapeOp>();
    if (!producer)
      return rewriter.notifyMatchFailure(op, "operand is not a reshape");
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(),
                                           producer.getInput());
    return success();
  }
};

/// transpose(transpose(x, p1), p2) -> transpose(x, p1 o p2).
struct ComposeTransposeChain : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getInput().getDefiningOp<TransposeOp>();
    if (!producer)
      return rewriter.notifyMatchFailure(op, "operand is not a transpose");
    SmallVector<int64_t> perm;
    for (int64_t p : op.getPerm())
      perm.push_back(producer.getPerm()[p]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(),
                                             producer.getInput(), perm);
    return success();
  }
};

/// transpose(weights) -> weights': a transposed weight blob (Gemm with
/// transB, exported Linear layers) is permuted once, at compile time, so
/// no kernel moves it on every run. Small constants fold in fold().
struct TransposeWeights : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    ElementsAttr attr;
    if (!matchPattern(op.getInput(), m_Constant(&attr)))
      return rewriter.notifyMatchFailure(op, "operand is not a constant");
    ElementsAttr permuted = transposeWeights(attr, op.getType(), op.getPerm());
    if (!permuted)
      return rewriter.notifyMatchFailure(op, "operand is not a weight blob");
    rewriter.replaceOpWithNewOp<ConstantOp>(op, permuted);
    return success();
  }
};

} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<CollapseReshapeChain>(context);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposeChain, TransposeWeights>(context);
}
