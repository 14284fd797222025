//===- BrrrIndexFolders.cpp - folding of gathers and scatters -------------===//
//
// Gather, GatherElements, GatherND, ScatterElements and ScatterND over small
// constants (exporters build shapes and masks with them: Swin's shifted-
// window mask scatters initializers into a constant). An index outside its
// axis is not folded: ONNX leaves it undefined.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrFoldUtils.h"
#include "dialects/Brrr/BrrrOps.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::fold;

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  auto in = smallElements(adaptor.getInput(), getInput());
  DenseElementsAttr indices = smallDense(adaptor.getIndices());
  if (!in || !indices)
    return nullptr;
  SmallVector<Attribute> &values = *in;
  auto inType = getInput().getType();
  SmallVector<APInt> idxValues = indexValues(indices);
  SmallVector<int64_t> inStrides = stridesOf(inType.getShape());
  SmallVector<int64_t> idxStrides = stridesOf(indices.getType().getShape());
  auto indexAt = [&](int64_t linear, int64_t dim) {
    return normalizeIndex(idxValues[linear], dim);
  };
  return buildElements(getType(), [&](ArrayRef<int64_t> out) -> Attribute {
    int64_t linear = gatherSource(out, inType.getShape(), inStrides, getAxis(),
                                  idxStrides, indexAt);
    return linear < 0 ? nullptr : values[linear];
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
    a = isUnsigned ? llvm::APIntOps::umax(a, b) : llvm::APIntOps::smax(a, b);
    break;
  case ScatterReduction::min:
    a = isUnsigned ? llvm::APIntOps::umin(a, b) : llvm::APIntOps::smin(a, b);
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
std::optional<ScatterOperands>
scatterOperands(Attribute input, Attribute indices, Attribute updates) {
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
  int64_t k = indices.getType().getShape().back();
  SmallVector<int64_t> inStrides = stridesOf(inShape);
  SmallVector<int64_t> idxStrides = stridesOf(indices.getType().getShape());
  auto indexAt = [&](int64_t linear, int64_t dim) {
    return normalizeIndex(idx[linear], dim);
  };
  return buildElements(getType(), [&](ArrayRef<int64_t> out) -> Attribute {
    int64_t linear = gatherNDSource(out, inShape, inStrides, getBatchDims(), k,
                                    idxStrides, indexAt);
    return linear < 0 ? nullptr : values[linear];
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
