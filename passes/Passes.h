//===- Passes.h - brrr graph passes -----------------------------*- C++ -*-===//
//
// Declarations and registration of the passes declared in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_PASSES_H
#define BRRR_PASSES_PASSES_H

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::brrr {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace mlir::brrr

#endif // BRRR_PASSES_PASSES_H
