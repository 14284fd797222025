//===- Movement.h - data movement and pointwise kernels' geometry *- C++ -*-===//
//
// Which data movement runs as one kernel (trees, tiled transposes) and the
// vector widths of movement and pointwise kernels.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_CONFIG_MOVEMENT_H
#define BRRR_PASSES_CONFIG_MOVEMENT_H

#include "passes/Analysis.h"

#include <array>
#include <optional>

namespace mlir::brrr {

/// Threads per block of the pointwise kernels, and of pools, direct
/// convolutions and the data movement that is not a tiled transpose.
constexpr int64_t kPointwiseThreads = 256;

/// The vectors a thread of a pointwise kernel, or of a movement tree of
/// vectors, computes over `fusion`'s first result (its config's `tile`;
/// empty: one).
SmallVector<int64_t> vectorsPerThread(FusionOp fusion, int64_t vector);

/// Over a symbolic element count, where `config` (a pointwise kernel's or
/// a movement tree's of vectors) unrolls at the largest count but a count
/// in range is too small to: records the kernel of a vector a thread for
/// the counts below the first that unrolls (kVariantsAttrName, ranged by
/// kVariantRowsAttrName: the first result's element count) with the tile
/// `oneVector` (the family's tile of one vector a thread), so that a small
/// shape launches the blocks a static compile of it would.
void recordUnrollVariants(FusionOp fusion, KernelConfigAttr config,
                          ArrayRef<int64_t> oneVector);

struct Grid;
/// The grid of a pointwise kernel (and of a tree of data movement in
/// vectors, which runs as one): `tile` vectors of `vector` elements a
/// thread, over the first result's elements.
Grid pointwiseGrid(FusionOp fusion, KernelConfigAttr config);
/// Whether a pointwise kernel (or a movement tree of vectors) reads and
/// writes whole vectors of `config`'s width: they divide its element count
/// (over symbolic extents, every count in range).
LogicalResult verifyPointwise(FusionOp fusion, KernelConfigAttr config);

/// A transpose that swaps two groups of dimensions, [B][R][S] ->
/// [B][S][R] (NCHW <-> NHWC: R = C, S = H x W and back): its B, R and S,
/// or none.
std::optional<std::array<int64_t, 3>> batchedTransposeOf(TransposeOp t);

/// Whether the movement family moves transpose `t` of a kernel's input
/// through shared tiles of 32 x 32 (both of its groups at least that long,
/// B < 2^16): reads and writes then both coalesce.
bool isTiledTranspose(TransposeOp t);

/// Whether movement fusion `fusion` is one tiled transpose
/// (isTiledTranspose) of a kernel input.
bool isTiledTransposeKernel(FusionOp fusion);

/// Whether `op` can join a movement kernel's tree: each element of its
/// result is one element of one operand, found by index arithmetic alone
/// (transpose, slice, expand, pad of a non-empty tensor, reshape, or a
/// concatenation of at most 16 operands).
bool isMovementTreeOp(Operation *op);

/// Whether movement fusion `fusion` holds a tree of index maps and
/// concatenations (isMovementTreeOp), each reading kernel inputs or ops
/// before it, whose last op is the result.
bool isMovementTree(FusionOp fusion);

/// The vector width (elements per access) of a movement kernel that copies
/// a tree of index maps and concatenations: each thread writes that many
/// consecutive output elements with one store (16 bytes where they divide
/// the output), reading each through the tree as a pointwise kernel reads
/// through data movement. 0 for the kernels that keep one thread per
/// element: a tiled transpose, gathers, scatters, and element types other
/// than 16/32/64-bit floats and integers.
int64_t movementVectorWidth(FusionOp fusion);

/// The vector width (elements per access) of a pointwise kernel: 16 bytes
/// of its widest element among the tensors of the output's shape, halved
/// until it divides the element count.
int64_t pointwiseVectorWidth(FusionOp fusion);

} // namespace mlir::brrr

#endif // BRRR_PASSES_CONFIG_MOVEMENT_H
