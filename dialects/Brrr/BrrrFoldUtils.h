//===- BrrrFoldUtils.h - element helpers of brrr's folders ------*- C++ -*-===//
//
// What the folders of BrrrFolders.cpp and BrrrIndexFolders.cpp share: small
// constants read as element lists, index arithmetic over row-major shapes
// (brrr-evaluate-constants' gathers too), and the packing of computed
// elements into a dense or symbolic constant.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_DIALECTS_BRRR_BRRRFOLDUTILS_H
#define BRRR_DIALECTS_BRRR_BRRRFOLDUTILS_H

#include "dialects/Brrr/BrrrOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mlir::brrr::fold {

/// A small dense constant, or null if `attr` is not one.
DenseElementsAttr smallDense(Attribute attr);

/// smallDense, or a small weight blob (dense_resource, as the importer keeps
/// float initializers) read as dense. Only the index-driven ops read blobs:
/// exporters build masks by scattering initializers into constants (Swin's
/// shifted-window mask), and those subgraphs must fold. Other folders leave
/// blobs alone, so weights stay blobs instead of turning into inline IR.
DenseElementsAttr smallDenseOrBlob(Attribute attr);

/// An index normalized into [0, dim) (negative counts from the end), or -1
/// if it lies outside.
int64_t normalizeIndex(const APInt &raw, int64_t dim);

/// The index at row-major position `linear` of a gather's indices,
/// normalized into [0, dim) (normalizeIndex), or -1 where it lies outside.
using IndexAt = llvm::function_ref<int64_t(int64_t linear, int64_t dim)>;

/// The row-major position in the input (of shape `inShape`, strides
/// `inStrides`) of the element that Gather along `axis` (non-negative), by
/// indices of strides `idxStrides`, puts at output index `out`; -1 where
/// the index it reads lies outside.
int64_t gatherSource(ArrayRef<int64_t> out, ArrayRef<int64_t> inShape,
                     ArrayRef<int64_t> inStrides, int64_t axis,
                     ArrayRef<int64_t> idxStrides, IndexAt indexAt);

/// The same for GatherND with `batch` batch dimensions and index tuples of
/// `k` (the indices' last extent; `idxStrides` the indices' strides).
int64_t gatherNDSource(ArrayRef<int64_t> out, ArrayRef<int64_t> inShape,
                       ArrayRef<int64_t> inStrides, int64_t batch, int64_t k,
                       ArrayRef<int64_t> idxStrides, IndexAt indexAt);

/// Index values of a small constant, or an empty vector.
SmallVector<APInt> indexValues(DenseElementsAttr indices);

/// Row-major strides of a shape.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape);

/// Multi-index of the row-major linear index `linear`.
SmallVector<int64_t> delinearize(int64_t linear, ArrayRef<int64_t> shape);

/// Linear index into `shape` of the element that broadcasts to `outIndex`.
int64_t broadcastSource(ArrayRef<int64_t> outIndex, ArrayRef<int64_t> shape);
/// The same with `shape`'s row-major strides given (stridesOf), for loops
/// over many elements.
int64_t broadcastSource(ArrayRef<int64_t> outIndex, ArrayRef<int64_t> shape,
                        ArrayRef<int64_t> strides);

/// Element values of a dense constant, splats expanded.
SmallVector<Attribute> elementsOf(DenseElementsAttr attr);

/// A symbolic element of a folded integer tensor: its extent as a map of
/// one result.
AffineMapAttr symbolicElement(AffineExpr e);

/// Packs element attributes into a constant of `resultType`: dense, or a
/// symbolic constant (#brrr.extents) where some are symbolic elements.
Attribute packElements(RankedTensorType resultType, ArrayRef<Attribute> values);

/// The elements of a small constant operand `v` whose folded value is
/// `attr`: a dense constant's, or a symbolic constant's (#brrr.extents:
/// IntegerAttr where an element is constant, a symbolic element where it
/// is not); nullopt for anything else.
std::optional<SmallVector<Attribute>> smallElements(Attribute attr, Value v);

/// Whether `t`'s integers read as unsigned (booleans and unsigned types),
/// for comparison, division, max/min and widening.
bool isUnsignedElement(Type t);

/// Applies `fn(outIndex)` to every element of `resultType` and packs the
/// attributes it returns; null if any element is null.
template <typename Fn>
Attribute buildElements(RankedTensorType resultType, Fn fn) {
  if (!resultType.hasStaticShape() ||
      resultType.getNumElements() > kMaxFoldElements)
    return nullptr;
  SmallVector<Attribute> values;
  values.reserve(resultType.getNumElements());
  for (int64_t i = 0; i < resultType.getNumElements(); ++i) {
    Attribute v = fn(delinearize(i, resultType.getShape()));
    if (!v)
      return nullptr;
    values.push_back(v);
  }
  return packElements(resultType, values);
}

} // namespace mlir::brrr::fold

#endif // BRRR_DIALECTS_BRRR_BRRRFOLDUTILS_H
