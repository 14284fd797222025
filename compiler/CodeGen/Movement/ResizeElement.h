//===- ResizeElement.h - one element of a resize ---------------*- C++ -*-===//

#ifndef BRRR_COMPILER_CODEGEN_MOVEMENT_RESIZEELEMENT_H
#define BRRR_COMPILER_CODEGEN_MOVEMENT_RESIZEELEMENT_H

#include "compiler/CodeGen/KernelUtils.h"
#include "dialects/Brrr/BrrrOps.h"

namespace mlir::brrr {

/// The element of resize `r` at output coordinates `out`, of type `elem`,
/// read through `loadAt` (a row-major index into the input to its
/// element). The coordinates map into the input in f64 (the spec's
/// formulas, dividing by the model's scales where it gave them): the
/// nearest element, or a weighted sum of the corners of the cell around
/// the coordinate (two per linearly resized dimension), in f32 (f64 for
/// f64 data).
Value resizeElement(IndexMath &e, ResizeOp r, ArrayRef<Value> out, Type elem,
                    function_ref<Value(Value)> loadAt);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_CODEGEN_MOVEMENT_RESIZEELEMENT_H
