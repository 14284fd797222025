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

namespace {

/// One constant of `type` from the float constants `weights` of its
/// element type: each of `depth` rows holds `counts[i]` consecutive
/// elements of weight i's row, for each weight in turn. Imported weights'
/// bytes are copied as they are (the same bytes the values would round back
/// to), others' values read. Null, building nothing, where a weight's
/// values cannot be read.
Value sideBySide(OpBuilder &b, Location loc, ArrayRef<Value> weights,
                 int64_t depth, ArrayRef<int64_t> counts, RankedTensorType type,
                 StringRef name) {
  int64_t width = type.getElementTypeBitWidth() / 8, total = 0;
  for (int64_t n : counts)
    total += n;
  SmallVector<ArrayRef<char>> raw;
  for (auto [w, n] : llvm::zip(weights, counts)) {
    std::optional<ArrayRef<char>> bytes = resourceBytesOf(w, depth * n * width);
    if (!bytes)
      break;
    raw.push_back(*bytes);
  }
  if (raw.size() == weights.size()) {
    std::vector<char> bytes(depth * total * width);
    int64_t at = 0;
    for (auto [data, n] : llvm::zip(raw, counts)) {
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
  for (auto [v, n] : llvm::zip(values, counts)) {
    for (int64_t k = 0; k < depth; ++k)
      std::copy_n(v.begin() + k * n, n, merged.begin() + k * total + at);
    at += n;
  }
  return ConstantOp::create(b, loc, makeFloatElements(type, merged, name));
}

/// The float element type of `weights` where each is a 2-D tensor of it
/// whose dimension `shared` has one size; null otherwise.
FloatType sharedFloatType(ArrayRef<Value> weights, unsigned shared) {
  if (weights.empty())
    return FloatType();
  auto first = cast<RankedTensorType>(weights.front().getType());
  auto elem = dyn_cast<FloatType>(first.getElementType());
  for (Value w : weights) {
    auto t = cast<RankedTensorType>(w.getType());
    if (!elem || t.getRank() != 2 || t.getElementType() != elem ||
        t.getDimSize(shared) != first.getDimSize(shared))
      return FloatType();
  }
  return elem;
}

} // namespace

Value mlir::brrr::concatColumns(OpBuilder &b, Location loc,
                                ArrayRef<Value> weights, StringRef name) {
  FloatType elem = sharedFloatType(weights, 0);
  if (!elem)
    return Value();
  // Row k: each weight's row k, one after the other.
  int64_t depth =
      cast<RankedTensorType>(weights.front().getType()).getDimSize(0);
  SmallVector<int64_t> columns;
  int64_t total = 0;
  for (Value w : weights) {
    columns.push_back(cast<RankedTensorType>(w.getType()).getDimSize(1));
    total += columns.back();
  }
  return sideBySide(b, loc, weights, depth, columns,
                    RankedTensorType::get({depth, total}, elem), name);
}

Value mlir::brrr::concatRows(OpBuilder &b, Location loc,
                             ArrayRef<Value> weights, StringRef name) {
  FloatType elem = sharedFloatType(weights, 1);
  if (!elem)
    return Value();
  // Row-major weights stacked: each weight's elements, one weight after
  // the other (one row of them all side by side).
  int64_t depth =
      cast<RankedTensorType>(weights.front().getType()).getDimSize(1);
  SmallVector<int64_t> counts;
  int64_t rows = 0;
  for (Value w : weights) {
    auto t = cast<RankedTensorType>(w.getType());
    counts.push_back(t.getNumElements());
    rows += t.getDimSize(0);
  }
  return sideBySide(b, loc, weights, 1, counts,
                    RankedTensorType::get({rows, depth}, elem), name);
}
