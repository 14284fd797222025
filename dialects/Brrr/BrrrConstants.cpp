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
  if (!bytes || (intType.getWidth() != 64 && intType.getWidth() != 32))
    return std::nullopt;
  int64_t n = attr.getNumElements();
  for (int64_t i = 0; i < n; ++i) {
    if (intType.getWidth() == 64) {
      int64_t x;
      std::memcpy(&x, bytes->data() + 8 * i, 8);
      out.push_back(x);
    } else {
      int32_t x;
      std::memcpy(&x, bytes->data() + 4 * i, 4);
      out.push_back(x);
    }
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
