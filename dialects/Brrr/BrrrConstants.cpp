//===- BrrrConstants.cpp - values of brrr constants ----------------------===//
//
// Reads the values of a `brrr.constant`, inline `dense` or `dense_resource`
// blob alike: the importer needs them for shape inputs and attributes folded
// from inputs, passes for compile-time arithmetic on weights.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cstring>
#include <vector>

using namespace mlir;

/// The raw little-endian bytes of a dense_resource constant, if any.
static std::optional<ArrayRef<char>> resourceBytes(ElementsAttr attr) {
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  if (!resource)
    return std::nullopt;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return std::nullopt;
  return blob->getData();
}

std::optional<SmallVector<int64_t>> mlir::brrr::getConstInts(Value v) {
  ElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  auto intType = dyn_cast<IntegerType>(attr.getElementType());
  if (!intType)
    return std::nullopt;
  SmallVector<int64_t> out;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    for (APInt x : dense.getValues<APInt>())
      out.push_back(intType.isUnsigned() || intType.getWidth() == 1
                        ? static_cast<int64_t>(x.getZExtValue())
                        : x.getSExtValue());
    return out;
  }
  auto bytes = resourceBytes(attr);
  unsigned width = intType.getWidth();
  int64_t n = attr.getNumElements(), size = elementBytes(intType);
  if (!bytes || !llvm::is_contained({1u, 8u, 16u, 32u, 64u}, width) ||
      static_cast<int64_t>(bytes->size()) < n * size)
    return std::nullopt;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t raw = 0;
    std::memcpy(&raw, bytes->data() + size * i, size);
    if (width == 1) {
      out.push_back(raw != 0);
      continue;
    }
    APInt x(width, raw);
    out.push_back(intType.isUnsigned() ? static_cast<int64_t>(x.getZExtValue())
                                       : x.getSExtValue());
  }
  return out;
}

std::optional<SmallVector<double>> mlir::brrr::getConstFloats(Value v) {
  ElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  if (isa<IntegerType>(attr.getElementType())) {
    auto ints = getConstInts(v);
    if (!ints)
      return std::nullopt;
    return SmallVector<double>(ints->begin(), ints->end());
  }
  SmallVector<double> out;
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    for (APFloat x : dense.getValues<APFloat>()) {
      bool lost;
      x.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      out.push_back(x.convertToDouble());
    }
    return out;
  }
  auto bytes = resourceBytes(attr);
  if (!bytes)
    return std::nullopt;
  auto ft = cast<FloatType>(attr.getElementType());
  unsigned width = ft.getWidth() / 8;
  for (int64_t i = 0, e = attr.getNumElements(); i < e; ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, bytes->data() + width * i, width);
    APFloat x(ft.getFloatSemantics(), APInt(ft.getWidth(), bits));
    bool lost;
    x.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    out.push_back(x.convertToDouble());
  }
  return out;
}

double mlir::brrr::roundedTo(Type t, double v) {
  if (t.isF64() || std::isnan(v))
    return v;
  if (t.isF32())
    return static_cast<float>(v);
  APFloat x(v);
  bool lost;
  x.convert(cast<FloatType>(t).getFloatSemantics(),
            APFloat::rmNearestTiesToEven, &lost);
  x.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return x.convertToDouble();
}

ElementsAttr mlir::brrr::makeFloatElements(RankedTensorType type,
                                           ArrayRef<double> values,
                                           StringRef key) {
  auto ft = cast<FloatType>(type.getElementType());
  if (values.size() <= 16) {
    SmallVector<Attribute> attrs;
    for (double v : values)
      attrs.push_back(FloatAttr::get(ft, v));
    return cast<ElementsAttr>(DenseElementsAttr::get(type, attrs));
  }
  unsigned width = ft.getWidth() / 8;
  std::vector<char> bytes(values.size() * width);
  for (size_t i = 0; i < values.size(); ++i) {
    APFloat x(values[i]);
    bool lost;
    x.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    uint64_t bits = x.bitcastToAPInt().getZExtValue();
    std::memcpy(bytes.data() + i * width, &bits, width);
  }
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(bytes.data(), bytes.size()), alignof(uint64_t));
  return cast<ElementsAttr>(
      DenseResourceElementsAttr::get(type, key, std::move(blob)));
}

ElementsAttr mlir::brrr::transposeWeights(ElementsAttr weights,
                                          RankedTensorType type,
                                          ArrayRef<int64_t> perm) {
  auto bytes = resourceBytes(weights);
  auto inType = dyn_cast<RankedTensorType>(weights.getType());
  if (!bytes || !inType || type.getElementType().isInteger(1))
    return nullptr;
  int64_t width = elementBytes(type.getElementType());
  int64_t n = type.getNumElements();
  if (static_cast<int64_t>(bytes->size()) != n * width)
    return nullptr;
  int64_t rank = type.getRank();
  // Row-major strides of the input, visited in output order.
  SmallVector<int64_t> inStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * inType.getDimSize(d + 1);
  std::vector<char> out(bytes->size());
  SmallVector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t from = 0;
    for (int64_t d = 0; d < rank; ++d)
      from += index[d] * inStrides[perm[d]];
    std::memcpy(out.data() + i * width, bytes->data() + from * width, width);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < type.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  auto resource = cast<DenseResourceElementsAttr>(weights);
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(out.data(), out.size()), alignof(uint64_t));
  return cast<ElementsAttr>(DenseResourceElementsAttr::get(
      type, resource.getRawHandle().getKey().str() + "_t", std::move(blob)));
}
