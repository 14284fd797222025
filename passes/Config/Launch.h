//===- Launch.h - every kernel's launch grid, from its config --*- C++ -*-===//
//
// The grid a kernel launches, derived once from its fusion and the
// decisions of its `#brrr.kernel` config (tile, threads, vector, stages,
// cluster, persistence) by brrr-select-kernel-config, and recorded in the
// config (`grid`, and over symbolic extents `grid_extents`). The code
// generator launches what the config records; before it builds a kernel it
// checks that the recorded grid is the one the config's decisions give.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_CONFIG_LAUNCH_H
#define BRRR_PASSES_CONFIG_LAUNCH_H

#include "passes/Analysis.h"

namespace mlir::brrr {

/// `config` with the launch grid its decisions give `fusion`'s kernel:
/// `[x, y, z]` blocks at the largest shape in range, and over symbolic
/// extents the grid as a map of the module's symbols. A diagnostic on the
/// fusion where the kernel cannot be laid out (its family's code
/// generator would refuse it too).
FailureOr<KernelConfigAttr> withLaunchGrid(FusionOp fusion,
                                           KernelConfigAttr config);

/// Checks that `config`, on `fusion` or one of its ranges of rows, records
/// the grid its decisions give (a config pinned by hand may not): a
/// diagnostic on the fusion naming both grids otherwise.
LogicalResult verifyLaunchGrid(FusionOp fusion, KernelConfigAttr config);

} // namespace mlir::brrr

#endif // BRRR_PASSES_CONFIG_LAUNCH_H
