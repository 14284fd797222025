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

/// Whether `op` is computed one element at a time (with broadcasting), so it
/// can join a pointwise kernel.
bool isPointwise(Operation *op);

/// Alignment of every buffer the memory plan places.
constexpr int64_t kBufferAlignment = 256;

/// Bytes a tensor of `type` occupies in device memory (bools take a byte).
int64_t bufferBytes(RankedTensorType type);

/// How a row kernel lays its rows over thread blocks: one block per row of
/// `cols` elements, `vec`-wide vector accesses, `perThread` vectors held in
/// each thread's registers. brrr-plan-shared-memory records `threads` on the
/// fusion; the row code generator follows the recorded value.
struct RowGeometry {
  Operation *rowOp = nullptr; ///< the softmax / layer norm / reduce
  int64_t rows = 0, cols = 0, vec = 1, threads = 32, perThread = 1;
  /// Block-wide reductions the kernel performs, in order.
  int64_t reductions = 1;
};
/// The geometry of `fusion` (kind "row") for `threads` threads per block
/// (0: the preferred count), or a diagnostic on the fusion.
FailureOr<RowGeometry> rowGeometryOf(FusionOp fusion, int64_t threads = 0);

/// Where the elements of a matmul operand live: the value the kernel reads
/// and, per logical dimension, the element stride in it, from an element
/// offset. Views fused into the matmul kernel (transpose, reshape, slice
/// with positive steps) only change these numbers.
struct OperandLayout {
  Value source;                 ///< the tensor in memory
  SmallVector<int64_t> shape;   ///< the operand's logical shape
  SmallVector<int64_t> strides; ///< element strides of the logical dims
  int64_t offset = 0;           ///< element offset of element 0
  /// The view ops between `source` and the operand, in program order.
  SmallVector<Operation *> views;
};
/// The layout of `operand`, looking back through the chain of views that
/// only it reads (each read once) while strides can express them; the
/// chain stops at a value that must be materialized.
OperandLayout operandLayoutOf(Value operand);
/// Whether a product of `et` operands laid out as `lhs` and `rhs` can be
/// staged through shared memory in 16-byte copies: f16/bf16, the innermost
/// logical dimension contiguous, every other stride a whole 16 bytes.
bool isStageable(Type et, const OperandLayout &lhs, const OperandLayout &rhs);

/// The block tile of a Tensor Core matmul staged through shared memory:
/// an m x n output tile per block of (m/64) x (n/64) warps, each warp a
/// 64 x 64 tile; k-deep slices of A and B stream through `stages` buffers.
struct MatmulTile {
  int64_t m = 128, n = 128, k = 32, stages = 3;
  int64_t threads() const { return 32 * (m / 64) * (n / 64); }
  /// Padded shared-memory row pitch (elements) of the A and B slices: 16
  /// bytes of padding keep ldmatrix rows on distinct banks.
  int64_t aPitch() const { return k + 8; }
  int64_t bPitch() const { return n + 8; }
  /// Shared bytes of one stage (an A and a B slice, 16-bit elements).
  int64_t stageBytes() const { return 2 * (m * aPitch() + k * bPitch()); }
};
/// The matmul a matmul kernel computes (after the views it reads through),
/// or null.
MatmulOp matmulOf(FusionOp fusion);

/// The tile a matmul kernel runs with, or none (the untiled body): f16 and
/// bf16 operands whose rows are whole 16-byte chunks (K and N multiples
/// of 8), with as many stages (2 or 3) as `sharedBudget` bytes hold.
/// brrr-plan-shared-memory records it as `brrr.tile`.
std::optional<MatmulTile> matmulTileOf(FusionOp fusion, int64_t sharedBudget);

/// One buffer of a kernel's shared memory, alive from phase `firstUse` to
/// `lastUse` (inclusive): buffers whose phases do not overlap may share
/// bytes.
struct SharedBuffer {
  std::string name;
  int64_t bytes = 0, align = 16, firstUse = 0, lastUse = 0;
  int64_t offset = -1; ///< set by placeSharedBuffers
};
/// Places `buffers` (largest first, first fit at each buffer's alignment,
/// apart from every buffer alive at the same time); returns the bytes the
/// kernel needs.
int64_t placeSharedBuffers(MutableArrayRef<SharedBuffer> buffers);

/// Shared memory one thread block may use on `target` (a `brrr.target`
/// module attribute value: "sm_90a", "sm_80"); without a target, the 48 KiB
/// every CUDA device grants without opting in.
int64_t sharedMemoryBudget(StringRef target);

} // namespace mlir::brrr

#endif // BRRR_PASSES_PASSES_H
