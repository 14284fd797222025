//===- IndexMaps.h - coordinates through data movement ----------*- C++ -*-===//
//
// The coordinates, in the operand of a reshape, transpose, slice, expand or
// pad, of the element at given coordinates of its result, and which operand
// of a concatenation holds it. The movement kernels walk trees of these ops
// back to one load per element; the pointwise kernels read their inputs
// through them (brrr-fuse-elementwise puts such ops in pointwise groups).
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_INDEXMAPS_H
#define BRRR_COMPILER_CODEGEN_INDEXMAPS_H

#include "compiler/CodeGen/KernelUtils.h"

#include <array>

namespace mlir::brrr {

/// The runs [ib, ie) of `in`'s dimensions and [ob, oe) of `out`'s that a
/// reshape maps onto each other: consecutive, each the shortest whose
/// sizes multiply to the same count (size-1 dimensions join the run
/// before them; one run covers everything when a size is 0).
SmallVector<std::array<size_t, 4>> reshapeGroups(ArrayRef<int64_t> in,
                                                 ArrayRef<int64_t> out);

/// Where an index map's element comes from in its operand.
struct OperandCoords {
  SmallVector<Value> coords;
  /// For a constant pad: whether the element lies inside the operand (the
  /// coordinates are clamped into it either way); null otherwise.
  Value inside;
  /// The constant pad's fill where `inside` is false.
  double fill = 0;
};

/// The coordinates in the operand of index map `op` (reshape, transpose,
/// slice, expand or pad) of its result's element at `coords`, in `e`'s
/// integer type: a reshape maps them through the linear index of each run
/// of dimensions it splits or merges, a transpose by its permutation, a
/// slice by its starts and steps, an expand by dropping broadcast
/// dimensions, a pad by its low sides, clamped into the operand (edge and
/// reflect padding are such clamps; constant padding reports whether the
/// element lies inside).
OperandCoords operandCoords(IndexMath &e, Operation *op,
                            ArrayRef<Value> coords);

/// One operand of a concatenation that holds elements, and where along the
/// axis its elements start.
struct ConcatPart {
  Value input;
  int64_t start;
};

/// The operands of `c` that are not empty along its axis, in order.
SmallVector<ConcatPart> concatParts(ConcatOp c);

/// Parts up to which selectConcatPart tests each part in turn; it halves
/// the range beyond.
constexpr size_t kLinearParts = 16;

/// Values of the part of a concatenation that holds the element whose
/// coordinate along the axis is `at`: scf.if on `at` (a chain, or a binary
/// search past kLinearParts parts), each branch built by `emitPart(k)` for
/// part k (nonempty `parts`), returning values of `types`.
SmallVector<Value>
selectConcatPart(IndexMath &e, ArrayRef<ConcatPart> parts, Value at,
                 TypeRange types,
                 llvm::function_ref<SmallVector<Value>(size_t)> emitPart);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_CODEGEN_INDEXMAPS_H
