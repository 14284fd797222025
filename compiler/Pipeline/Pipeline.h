//===- Pipeline.h - the brrrc compilation pipeline --------------*- C++ -*-===//
//
// The passes between import and artifact, in order, as brrrc runs them:
// canonicalize, decompose batch norm, form kernels (pointwise DAGs, row
// kernels, data movement, matmul), check that every op has a kernel
// family, plan global memory, outline kernels.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_PIPELINE_PIPELINE_H
#define BRRR_COMPILER_PIPELINE_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::brrr {

/// Runs the graph passes and kernel outlining on an imported module.
LogicalResult runCompilePipeline(ModuleOp module);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_PIPELINE_PIPELINE_H
