//===- MergedWeights.cpp - constant weights side by side ------------------===//
//
// See MergedWeights.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Fusion/MergedWeights.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::brrr;

std::optional<ArrayRef<char>> mlir::brrr::resourceBytesOf(Value v,
                                                          int64_t size) {
  ElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  AsmResourceBlob *blob =
      resource ? resource.getRawHandle().getBlob() : nullptr;
  if (!blob || static_cast<int64_t>(blob->getData().size()) != size)
    return std::nullopt;
  return blob->getData();
}

Value mlir::brrr::concatColumns(OpBuilder &b, Location loc,
                                ArrayRef<Value> weights, StringRef name) {
  if (weights.empty())
    return Value();
  auto first = cast<RankedTensorType>(weights.front().getType());
  Type elem = first.getElementType();
  auto floatType = dyn_cast<FloatType>(elem);
  if (!floatType || first.getRank() != 2)
    return Value();
  int64_t depth = first.getDimSize(0), total = 0;
  int64_t width = floatType.getWidth() / 8;
  SmallVector<int64_t> columns;
  for (Value w : weights) {
    auto t = cast<RankedTensorType>(w.getType());
    if (t.getRank() != 2 || t.getElementType() != elem ||
        t.getDimSize(0) != depth)
      return Value();
    columns.push_back(t.getDimSize(1));
    total += columns.back();
  }
  // Imported weights: row k is each weight's row k, one after the other
  // (the same bytes the values would round back to).
  SmallVector<ArrayRef<char>> raw;
  for (auto [w, n] : llvm::zip(weights, columns)) {
    std::optional<ArrayRef<char>> bytes = resourceBytesOf(w, depth * n * width);
    if (!bytes)
      break;
    raw.push_back(*bytes);
  }
  auto type = RankedTensorType::get({depth, total}, elem);
  if (raw.size() == weights.size()) {
    std::vector<char> bytes(depth * total * width);
    int64_t at = 0;
    for (auto [data, n] : llvm::zip(raw, columns)) {
      int64_t row = n * width;
      for (int64_t k = 0; k < depth; ++k)
        std::memcpy(bytes.data() + (k * total + at) * width,
                    data.data() + k * row, row);
      at += n;
    }
    return ConstantOp::create(
        b, loc,
        cast<ElementsAttr>(DenseResourceElementsAttr::get(
            type, name,
            HeapAsmResourceBlob::allocateAndCopyWithAlign(
                ArrayRef<char>(bytes.data(), bytes.size()),
                alignof(uint64_t)))));
  }
  SmallVector<SmallVector<double>> values;
  for (Value w : weights) {
    std::optional<SmallVector<double>> v = getConstFloats(w);
    if (!v)
      return Value();
    values.push_back(std::move(*v));
  }
  SmallVector<double> merged(depth * total);
  int64_t at = 0;
  for (auto [v, n] : llvm::zip(values, columns)) {
    for (int64_t k = 0; k < depth; ++k)
      std::copy_n(v.begin() + k * n, n, merged.begin() + k * total + at);
    at += n;
  }
  return ConstantOp::create(b, loc, makeFloatElements(type, merged, name));
}

Value mlir::brrr::concatRows(OpBuilder &b, Location loc,
                             ArrayRef<Value> weights, StringRef name) {
  if (weights.empty())
    return Value();
  // Row-major [N_i, K] weights stacked are their columns' transposes side
  // by side: the columns of each [K, N_i] concatenated, transposed.
  auto first = cast<RankedTensorType>(weights.front().getType());
  Type elem = first.getElementType();
  auto floatType = dyn_cast<FloatType>(elem);
  if (!floatType || first.getRank() != 2)
    return Value();
  int64_t depth = first.getDimSize(1), rows = 0;
  int64_t width = floatType.getWidth() / 8;
  for (Value w : weights) {
    auto t = cast<RankedTensorType>(w.getType());
    if (t.getRank() != 2 || t.getElementType() != elem ||
        t.getDimSize(1) != depth)
      return Value();
    rows += t.getDimSize(0);
  }
  auto type = RankedTensorType::get({rows, depth}, elem);
  std::vector<char> bytes;
  bool raw = true;
  for (Value w : weights) {
    auto t = cast<RankedTensorType>(w.getType());
    std::optional<ArrayRef<char>> data =
        resourceBytesOf(w, t.getNumElements() * width);
    if (!data) {
      raw = false;
      break;
    }
    bytes.insert(bytes.end(), data->begin(), data->end());
  }
  if (raw)
    return ConstantOp::create(
        b, loc,
        cast<ElementsAttr>(DenseResourceElementsAttr::get(
            type, name,
            HeapAsmResourceBlob::allocateAndCopyWithAlign(
                ArrayRef<char>(bytes.data(), bytes.size()),
                alignof(uint64_t)))));
  SmallVector<double> merged;
  for (Value w : weights) {
    std::optional<SmallVector<double>> v = getConstFloats(w);
    if (!v)
      return Value();
    merged.append(v->begin(), v->end());
  }
  return ConstantOp::create(b, loc, makeFloatElements(type, merged, name));
}
