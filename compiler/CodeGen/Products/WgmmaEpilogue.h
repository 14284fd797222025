//===- WgmmaEpilogue.h - the Hopper body's fused epilogues ------*- C++ -*-===//
//
// The epilogues the wgmma body (WgmmaBody.cpp) emits after each tile's
// main loop (WgmmaEpilogue.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_PRODUCTS_WGMMAEPILOGUE_H
#define BRRR_COMPILER_CODEGEN_PRODUCTS_WGMMAEPILOGUE_H

#include "compiler/CodeGen/Products/WgmmaBody.h"

namespace mlir::brrr::wgmma {

/// One output tile of a block: its batch and first row and column.
struct TileAt {
  Value z, row0, col0;
  /// The product's rows, where they are read at run time (symbolic
  /// extents); null where the problem's M is the count.
  Value rows = {};
  /// The end of the columns this tile may store, where a group's columns
  /// end inside it (WgmmaProblem::groupColumns); null where the problem's
  /// N is the end.
  Value columnsEnd = {};
};

/// The fused epilogue of the tile `at`: the 64 x n accumulators `acc` of
/// the tile's rows 64 * `rowBlock` on go through shared memory so that the
/// global accesses coalesce. Accumulator i of the wgmma fragment (row
/// 16 * warp + lane / 4, +8 for odd pairs; column 8 * (i / 4) +
/// 2 * (lane % 4) + i % 2) is written as f32 pairs into the warpgroup's
/// staging buffer at `stagingBase` (64 rows), `columns` of the tile at a
/// time between two `barrier()`s (the second a cluster barrier when the tile is
/// split). Then each warp walks whole staged rows, `lanes` lanes per row on
/// consecutive columns, `vec` at a time (4 when they divide the output's rows
/// and the chunk is 32 or at least 128 wide, 2 at 64: one 16- or 8-byte read of
/// the staged tile, vector loads of row-wise inputs), 32 / `lanes` rows per
/// warp: warp w takes row groups w, w + 4, ..., four per step; in a split
/// tile, block `rank` of the cluster takes its run of them, each value the
/// sum of every block's staged partial, in block order. A step first loads
/// every element's epilogue inputs (residual, bias) at clamped, always
/// valid positions, so that those loads are in flight together, then
/// computes and stores the elements inside the output.
LogicalResult
emitWgmmaEpilogue(WgmmaBuilder &e, FusionOp fusion, const WgmmaProblem &problem,
                  const MatmulTile &tile, const TileAt &at, Value acc,
                  int64_t columns, Value smem, Value stagingBase,
                  Value rowBlock, Value lane, Value warp, Value rank,
                  function_ref<Value(Value)> arg, ValueRange outputs,
                  function_ref<void()> barrier);

/// An overlapped kernel's consumers stage their 64 x n accumulators `acc`
/// (rows 64 * `consumer` on of the tile) rounded to the product's 16-bit
/// type, or an 8-bit product's in f32 (MatmulTile::stagedBytes), pairs at
/// the fragment's positions (see emitWgmmaEpilogue) in rows of
/// wgmmaEpiloguePitch elements: 8 elements of padding put a fragment
/// write's 8 rows on distinct banks.
void stageOverlapped(WgmmaBuilder &e, const WgmmaProblem &problem,
                     const MatmulTile &tile, Value acc, Value smem,
                     Value stagingBase, Value consumer, Value lane, Value warp);

/// The drain warps of an overlapped kernel (`worker` of `workers`: warps
/// 1-3 of the producer warpgroup, then those of a drain warpgroup) apply
/// the fusion's epilogue to the tile `at` staged by stageOverlapped and
/// store it: each warp walks whole staged rows, `lanes` lanes a row on
/// consecutive columns, `vec` (8, or fewer where the output's rows hold
/// fewer) at a time, `groupsPerStep` row groups a step (their staged
/// values and epilogue inputs loaded before any is computed), the row
/// groups dealt to the workers in turn.
LogicalResult drainOverlapped(WgmmaBuilder &e, FusionOp fusion,
                              const WgmmaProblem &problem,
                              const MatmulTile &tile, const TileAt &at,
                              Value smem, Value stagingBase, Value worker,
                              int64_t workers, int64_t groupsPerStep,
                              Value lane, function_ref<Value(Value)> arg,
                              ValueRange outputs);

} // namespace mlir::brrr::wgmma

#endif // BRRR_COMPILER_CODEGEN_PRODUCTS_WGMMAEPILOGUE_H
