//===- KernelCost.h - a kernel's work and traffic at each shape -*- C++ -*-===//
//
// A kernel over symbolic extents does different work at each shape. Code
// generation counts it at the largest shape (`brrr.flops`, `brrr.bytes`);
// `brrr.roofline_extents` gives both as expressions of the module's symbols,
// which `brrrc --report --shape` and the runtime (brrr_context_launch,
// `brrr-run --profile` at the shape it runs) evaluate.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_KERNELCOST_H
#define BRRR_COMPILER_CODEGEN_KERNELCOST_H

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/AffineMap.h"

#include <optional>

namespace mlir::brrr {

/// The `brrr.fusion` attribute of a kernel over symbolic extents (which
/// its kernels for ranges of rows share): an affine map of the module's
/// symbols to (flops, bytes), equal to its `brrr.flops` and `brrr.bytes`
/// at every symbol's maximum.
constexpr llvm::StringLiteral kRooflineExtentsAttrName =
    "brrr.roofline_extents";

/// `fusion`'s work and traffic at each shape, given `flops` and `bytes` at
/// the largest, as a map of `symbols` symbols to (flops, bytes); nullopt
/// where the kernel's extents are all fixed, or where an expression would
/// overflow int64 in range.
///
/// Work is linear in the elements of the first result's outer run, or, in
/// attention, in its (query, key) pairs: those up to each query's key when
/// causal over one sequence. Traffic is the bytes of the kernel's tensors
/// at the shape where `bytes` counts exactly those at the largest;
/// otherwise (a data-movement kernel counts what it reads and writes per
/// output element) it is linear in the outer run as work is.
std::optional<AffineMap> rooflineExtents(FusionOp fusion, int64_t flops,
                                         int64_t bytes, unsigned symbols);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_CODEGEN_KERNELCOST_H
