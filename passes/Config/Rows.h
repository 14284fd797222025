//===- Rows.h - row and reduce kernels' geometry ----------------*- C++ -*-===//
//
// How row kernels (softmax, layer norm, trailing reductions) and split-row
// reductions lay their rows over thread blocks.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_CONFIG_ROWS_H
#define BRRR_PASSES_CONFIG_ROWS_H

#include "passes/Analysis.h"

#include <optional>

namespace mlir::brrr {

/// How a row kernel lays its rows over thread blocks: rows of `cols`
/// elements, `lanes` threads a row (the whole block, one row a block, or
/// for narrow rows a power of two up to 16, `threads / lanes` rows a
/// block), `vec`-wide vector accesses, `perThread` vectors held in each
/// thread's registers. brrr-select-kernel-config records `threads`, `vec`
/// and, for packed rows, `[threads / lanes, lanes]` as the tile in the
/// fusion's config; the planner and the row code generator follow the
/// recorded values.
struct RowGeometry {
  Operation *rowOp = nullptr; ///< the softmax / layer norm / reduce
  /// Over symbolic extents (compilesSymbolically), `rows` is the largest
  /// row count and `rowsExtent` the count as an expression of the symbols;
  /// null for a static kernel.
  int64_t rows = 0, cols = 0, vec = 1, threads = 32, perThread = 1;
  AffineExpr rowsExtent;
  int64_t lanes = 32;
  /// Block-wide reductions the kernel performs, in order.
  int64_t reductions = 1;
  int64_t rowsPerBlock() const { return threads / lanes; }
};
/// The geometry of the row-family `fusion` for `threads` threads per block
/// and `lanes` threads a row (0, 0: the preferred ones, which
/// brrr-select-kernel-config records; `lanes` 0 alone: one row a block),
/// or a diagnostic on the fusion.
FailureOr<RowGeometry> rowGeometryOf(FusionOp fusion, int64_t threads = 0,
                                     int64_t lanes = 0);
/// Whether rows of `cols` elements of type `et` fit the register-resident
/// row kernel (at most 16 vectors a thread, at most 256 threads a row).
bool fitsRowKernel(int64_t cols, Type et);
/// The first of the trailing dimensions a softmax, log-softmax or layer
/// norm normalizes over; nullopt for any other op.
std::optional<int64_t> normalizedAxisOf(Operation *op);
/// The threads a row of a row kernel's config (its tile's second entry
/// for packed rows, else the block).
int64_t rowLanesOf(KernelConfigAttr config);

/// A reduction over a run of consecutive axes that keeps the innermost one
/// (a mean over H and W of NHWC, a sum over the batch), seen as
/// [outer][rows][inner] reduced over rows. In the reduce family's
/// split-rows mode (config tile [lanes, groups]) a block takes `lanes`
/// consecutive vectors of `vector` inner elements of one outer index, and
/// `groups` threads walk the rows of each, combining in a tree at the end.
struct SplitRows {
  int64_t outer = 1, rows = 1, inner = 1;
  int64_t vector = 1, lanes = 1, groups = 1;
  /// Vectors of inner elements per outer index.
  int64_t chunks() const { return inner / vector; }
  /// The block size: lanes x groups, in whole warps.
  int64_t threads() const { return llvm::alignTo(lanes * groups, 32); }
  /// The [outer][rows][inner] view of `red`, or none when its axes are not
  /// one run or include the innermost; with `toInnermost` (symbolic rows,
  /// reducesSymbolicRows: a sum of a mask [batch, seq] over the sequence)
  /// a run up to the innermost axis is rows of one element.
  static std::optional<SplitRows> shapeOf(ReduceOp red,
                                          bool toInnermost = false);
};

/// Over a symbolic input (compilesSymbolically), the extents of `red`'s
/// outer run (the kept dimensions before the first reduced axis), of its
/// outputs and, where they are symbolic (reducesSymbolicRows), of its
/// reduced rows, as expressions of the symbols; all null for a static
/// input, `rows` for static rows.
struct ReduceExtents {
  AffineExpr outer, outputs, rows;
};
ReduceExtents symbolicExtentsOf(ReduceOp red);

/// Most threads of a split-rows reduction block.
constexpr int64_t kSplitRowsThreads = 1024;

/// The split-rows geometry `red` runs with, or none (one thread or one
/// block per output serves it): long runs of rows (64 or more) for too few
/// outputs (under 65536) to fill the GPU one thread each, and symbolic rows
/// (reducesSymbolicRows) at any size. 16-byte vectors
/// of the innermost axis, halved until they divide it; up to 32 lanes, and
/// as many groups as fill kSplitRowsThreads without exceeding the rows.
std::optional<SplitRows> splitRowsOf(ReduceOp red);

} // namespace mlir::brrr

#endif // BRRR_PASSES_CONFIG_ROWS_H
