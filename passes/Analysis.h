//===- Analysis.h - analyses the passes share -------------------*- C++ -*-===//
//
// What the passes ask of tensors and ops beyond their own family: pointwise
// ops, buffer sizes, symbolic extents and the gate every pass applies to
// them, run-time variants, vector widths, the shared-memory budget, the
// precision --precision=auto picks, and a fusion's kernel config.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_ANALYSIS_H
#define BRRR_PASSES_ANALYSIS_H

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace mlir::brrr {

/// An option that a heuristic decides unless the user forces it: `auto`
/// (where the pass's rule finds that it pays), `always` or `never`
/// (`few-rows-mma`, `multicast`, `prefetch-weights`).
enum class Choice { automatic, always, never };

/// The Choice named `value` (auto, always or never), or none.
inline std::optional<Choice> choiceNamed(StringRef value) {
  if (value == "auto")
    return Choice::automatic;
  if (value == "always")
    return Choice::always;
  if (value == "never")
    return Choice::never;
  return std::nullopt;
}

/// `value` of the pass option `option` as a Choice, or an error on `op` that
/// names the option.
inline FailureOr<Choice> choiceOf(Operation *op, StringRef option,
                                  StringRef value) {
  if (std::optional<Choice> choice = choiceNamed(value))
    return *choice;
  return op->emitError(option)
         << " takes auto, always or never; got '" << value << "'";
}

/// Whether `op` is computed one element at a time (with broadcasting), so it
/// can join a pointwise kernel.
bool isPointwise(Operation *op);

/// Alignment of every buffer the memory plan places.
constexpr int64_t kBufferAlignment = 256;

/// Bytes a tensor of static `type` occupies in device memory (bools take a
/// byte).
int64_t bufferBytes(RankedTensorType type);
/// Bytes value `v` occupies at its largest shape (every symbol at its
/// maximum): what the memory plan reserves for it.
int64_t bufferBytes(Value v);

/// A number that divides `t`'s element count at every shape in range: the
/// static dimensions' product times each symbolic extent's constant factor
/// (1 for an extent that is not a product); the count itself for a static
/// type.
int64_t elementCountDivisor(RankedTensorType t);

/// `v`'s shape, its symbolic extents at their largest (the shape the
/// kernels over it are built for).
SmallVector<int64_t> largestShapeOf(Value v);

/// A launch (a fusion, or an entry of `brrr.launch_variants`) whose grid is
/// read at run time and whose kernel waits for the kernel before it
/// (brrr-outline-kernels): the runtime launches it as a programmatic
/// dependent at the shapes where its grid and the grid launched before it
/// each fit one wave of the device's multiprocessors. A static grid's
/// launch is decided at compile time instead: `brrr.programmatic`.
constexpr llvm::StringLiteral kProgrammaticInOneWaveAttrName =
    "brrr.programmatic_in_one_wave";
/// The same for a kernel whose blocks may share a multiprocessor (a row,
/// pointwise or attention kernel, with brrr-outline-kernels'
/// `early-fitting`): the runtime launches it early at the shapes where its
/// grid's blocks and those of the grid launched before it together are no
/// more than the multiprocessors.
constexpr llvm::StringLiteral kProgrammaticFittingAttrName =
    "brrr.programmatic_fitting";

/// Whether the compiler handles the symbolic extents of `op` (see
/// passes/Symbolic/SymbolicShapes.cpp): ops and kernels whose tensors
/// share one outer run of leading symbolic extents, which each op carries
/// through unchanged (or, pointwise, broadcasts across); the function, its
/// return and yields.
bool compilesSymbolically(Operation *op);

/// Whether `op` moves data at strides that change with the shape: a
/// lookup by fixed indices along a symbolic axis, or along any axis of a
/// table symbolic past its first dimension ([CLS] as `x[:, 0]`, the last
/// token as `x[:, -1]`, over a symbolic sequence), a lookup along an axis
/// (GatherElements) whose tensors do not share one outer run, or a slice
/// that changes a symbolic extent of its input's outer run (`x[:, 1:]`,
/// `x[:, :-1]`).
/// Its kernel holds it alone, an element a thread, and computes every
/// coordinate, stride and negative index from the actual extents (kernel
/// parameters); no other kernel takes it in.
bool movesAtActualExtents(Operation *op);

/// Whether `op` is a slice whose result is its input's first elements in
/// memory, each at its own linear index: starts 0 and steps 1, every axis
/// before the first one it shortens of extent 1, every one after it whole
/// (`cos_table[:, :seq]` of a [1, 512, 64] table). Left outside a kernel
/// (brrr-fuse-movement), it is a view of its input, as a reshape is: it
/// gets no memory and no kernel (isView).
bool isPrefixSlice(Operation *op);

/// Whether `op` is a view of its operand's memory outside any kernel: a
/// reshape, or a prefix slice (isPrefixSlice).
bool isView(Operation *op);

/// The value that owns the memory of `v`, through views (isView).
Value viewedRootOf(Value v);

/// Whether `op` is a reduction whose reduced axes include symbolic extents
/// and form one run before inner axes of fixed extents (SplitRows'
/// [outer][rows][inner]: a mean over a symbolic sequence, as a sentence
/// embedding pools its tokens): the split-rows kernel reads the actual
/// rows, a kernel parameter, and the outer indices from its grid.
bool reducesSymbolicRows(Operation *op);

/// Whether `op` is a softmax or log-softmax of floats along a symbolic
/// axis, followed by axes of fixed extents only, that attention does not
/// take (not a rank-4 softmax over its last axis): brrr-split-reductions'
/// second run writes it as its statistics (reductions over symbolic rows,
/// reducesSymbolicRows) and pointwise ops that broadcast them at run time.
/// The passes before that run admit it.
bool softmaxOverSymbolicRows(Operation *op);

/// Whether `op` is a transpose that moves symbolic extents out of its
/// input's outer run (`[batch, seq, heads, d]` to `[batch, heads, seq,
/// d]`) where attention does not read it: like movesAtActualExtents, its
/// kernel holds it alone, an element a thread, and computes its
/// coordinates and strides from the actual extents; no other kernel reads
/// or stores through it.
bool transposesAtActualExtents(Operation *op);

/// Whether `op` is a concatenation along an axis of its symbolic outer run
/// (a token prepended to a symbolic sequence, `[batch, 1 + seq, d]`): like
/// transposesAtActualExtents, a kernel of its own, an element a thread,
/// each element's source found from the actual extents of the output and
/// of every input.
bool concatsAtActualExtents(Operation *op);

/// Whether `op` (a pointwise op, or a fusion holding one) reads an operand
/// that broadcasts along part of its symbolic extents, such as [1, seq, C]
/// into [batch, seq, C]: only a pointwise kernel computes that operand's
/// index from the actual extents, at its own elements
/// (readsRunTimeBroadcastsAtOwnElements), so no other kernel takes it in.
bool broadcastsAtRunTime(Operation *op);
/// Whether `op` is an expand that broadcasts along part of its symbolic
/// extents, which a pointwise kernel reads as a broadcast operand (its
/// input at the kernel's own elements).
bool isPartialBroadcastExpand(Operation *op);
/// Whether an operand of type `operand` of a pointwise op computing `out`
/// broadcasts along part of `out`'s symbolic extents.
bool broadcastsAtRunTime(Type operand, RankedTensorType out);
/// Whether a pointwise kernel of output type `out` made of `ops` (yielding
/// `yielded`) reads every operand that broadcasts along part of its
/// symbolic extents at its own elements, where the kernel indexes it from
/// the actual extents: no op that broadcasts so is computed behind data
/// movement, every movement result that the kernel's own elements read
/// keeps the kernel's outer run (the largest shape's coordinates, which data
/// movement reads at, then hold at every shape), and no expand along part
/// of the extents shares a kernel with data movement. Rotary embeddings over
/// a symbolic sequence (queries read through slices and a concatenation,
/// the cos and sin tables [1, seq, 1, d] broadcast) are one such kernel.
bool readsRunTimeBroadcastsAtOwnElements(ArrayRef<Operation *> ops,
                                         ValueRange yielded,
                                         RankedTensorType out);

/// What of an attention over symbolic sequences a pass admits before it is
/// one kernel: its ops (passes up to brrr-fuse-attention, which makes them
/// one brrr.attention), the views it reads and writes through (passes up to
/// brrr-fuse-matmul, which takes them into its kernel), or nothing.
enum class PendingAttention { ops, views, none };

/// The gate of every pass: an error naming `pass`, the op and the value for
/// the first symbolic extents under `root` that compilesSymbolically
/// rejects, besides the `pending` parts of attention over symbolic
/// sequences; the passes after refuse whatever did not become one.
LogicalResult
requireSupportedShapes(Operation *root, StringRef pass,
                       PendingAttention pending = PendingAttention::none);

/// The shared memory a block may use around `op`: the target's budget,
/// lowered by a `brrr.shared_memory_limit` module attribute.
int64_t sharedMemoryBudgetOf(Operation *op);

/// The precision that `brrrc --precision=auto` (the default) gives `module`
/// as imported: "fp16" or "bf16" when more of its products' constant
/// operand bytes (the weights as stored, under any casts) are of that type
/// than of f32 (or, with no such weights, when every float input is), else
/// "fp32"; `why` gets the counts it decided by, for --report.
std::string autoPrecision(ModuleOp module, std::string &why);

/// Elements of `bytes` bytes each in one 16-byte access, halved until they
/// divide `count`: the vector width of every kernel that reads runs of
/// `count` consecutive elements.
int64_t vectorWidth(int64_t bytes, int64_t count);

/// The `#brrr.kernel` config of `fusion`, or a diagnostic naming the pass
/// that records it.
FailureOr<KernelConfigAttr> kernelConfigOf(FusionOp fusion);

/// While it lives, `fusion`'s results, body arguments and body values have
/// their largest static types (largestTypeOf over the module's symbolic
/// dimensions), so that a family's code generator builds the kernel of the
/// largest shape; its destructor gives them back their symbolic types. A
/// kernel built this way is exact at every shape in range where only the
/// element (or row) count changes with the shape (compilesSymbolically),
/// which it then reads at run time.
class LargestShapeView {
public:
  explicit LargestShapeView(FusionOp fusion);
  ~LargestShapeView();
  LargestShapeView(const LargestShapeView &) = delete;
  LargestShapeView &operator=(const LargestShapeView &) = delete;

private:
  SmallVector<std::pair<Value, Type>> saved;
};

/// The element count of `t`: the product of its extents.
AffineExpr elementCountOf(RankedTensorType t);

} // namespace mlir::brrr

#endif // BRRR_PASSES_ANALYSIS_H
