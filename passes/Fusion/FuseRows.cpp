//===- FuseRows.cpp - row reductions -> brrr.fusion row -------------------===//
//
// Second fusion pass (flag brrr-fuse-rows): every softmax, log-softmax,
// layer norm and float reduction whose reduction covers the trailing
// dimensions becomes one `brrr.fusion row` kernel that reads its row once.
// Pointwise kernels around it join it when that saves memory traffic: the
// producer of the row (a residual add before a layer norm, the scaling
// before a softmax) becomes a prologue computed as the row is loaded, and
// the only consumer of the result (a cast, an activation) an epilogue
// applied before the store. A row computed by data movement alone (a
// window reverse and roll, a slice of transposed projections) that keeps
// each row contiguous is read through it instead of from a copy; a row op
// whose result only such movement reads moves below it first. The row op's
// other operands (layer norm scale and bias) stay kernel inputs. The
// reductions a row kernel cannot compute (over leading or interleaved axes,
// of integers) become general `brrr.fusion reduce` kernels. A softmax over
// another axis than the last is transposed to normalize the last one, and
// back.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Rows.h"
#include "passes/Passes.h"

#include "passes/Fusion/WrapInFusion.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEROWS
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Register budget: at most this many vectors of the row per thread.
constexpr int64_t kMaxVectorsPerThread = 16;
/// At most this many threads a row where brrr-select-kernel-config
/// chooses (rowGeometryOf).
constexpr int64_t kMaxRowThreads = 256;
/// Rows of at most this many vectors are packed several to a block, a
/// power of two of lanes each ...
constexpr int64_t kMaxPackedLanes = 16;
/// ... of this many threads.
constexpr int64_t kPackedThreads = 128;
/// Rows of at most this many vectors (1024 16-bit elements) take one warp
/// each, kPackedThreads / 32 of them a block.
constexpr int64_t kMaxWarpRowVectors = 128;
/// A row read through data movement comes from at most this many loads
/// (a roll in two dimensions: four).
constexpr int64_t kMaxRowMovementPaths = 16;
/// Rows read from two tensors or more pack warp rows up to this many
/// vectors (512 16-bit elements, two a lane).
constexpr int64_t kMaxSharedWarpRowVectors = 64;

/// Whether `op` reduces over a trailing block of its input.
bool isRowOp(Operation *op) {
  if (auto s = dyn_cast<SoftmaxOp>(op))
    return static_cast<int64_t>(s.getAxis()) == s.getType().getRank() - 1;
  if (auto s = dyn_cast<LogSoftmaxOp>(op))
    return static_cast<int64_t>(s.getAxis()) == s.getType().getRank() - 1;
  if (auto r = dyn_cast<ReduceOp>(op)) {
    // Float reductions over a non-empty set of trailing, contiguous axes.
    auto type = cast<RankedTensorType>(r.getInput().getType());
    ArrayRef<int64_t> axes = r.getAxes();
    if (!isa<FloatType>(type.getElementType()) || axes.empty() ||
        axes.back() != type.getRank() - 1)
      return false;
    for (auto [i, a] : llvm::enumerate(axes))
      if (a != axes.front() + static_cast<int64_t>(i))
        return false;
    int64_t cols = 1;
    for (int64_t a : axes)
      cols *= type.getDimSize(a);
    // Longer rows are a general reduction's, which walks them.
    return cols > 0 && fitsRowKernel(cols, type.getElementType());
  }
  return isa<LayerNormOp>(op);
}

/// The row op of a row kernel.
Operation *rowOpOf(FusionOp fusion) {
  for (Operation &op : fusion.getBody().front())
    if (isa<SoftmaxOp, LogSoftmaxOp, LayerNormOp, ReduceOp>(op))
      return &op;
  return nullptr;
}

/// The block argument of the row kernel `fusion` that its row op reads as
/// its row, if the row is one of the kernel's inputs (and not computed
/// inside it): null otherwise.
BlockArgument rowArgumentOf(FusionOp fusion) {
  Operation *rowOp = rowOpOf(fusion);
  auto arg = dyn_cast<BlockArgument>(rowOp->getOperand(0));
  if (!arg || arg.getOwner() != &fusion.getBody().front())
    return nullptr;
  return arg;
}

/// Whether every result of the pointwise kernel `f` is a float tensor of
/// `type`'s shape (or, with `quantized`, a quantization's 8-bit integers),
/// so the row kernel can compute and store it per element.
bool rowShaped(FusionOp f, RankedTensorType type, bool quantized = false) {
  if (f.getKind() != KernelFamily::pointwise || !isElementwiseOnly(f))
    return false;
  auto yield = cast<YieldOp>(f.getBody().front().getTerminator());
  return llvm::all_of(yield.getValues(), [&](Value v) {
    auto rt = cast<RankedTensorType>(v.getType());
    return extentsOf(rt) == extentsOf(type) &&
           (isa<FloatType>(rt.getElementType()) ||
            (quantized && v.getDefiningOp<QuantizeOp>()));
  });
}

/// DRAM bytes saved by computing the pointwise kernel `p` inside the row
/// kernel: `p`'s results are no longer read back by the row kernel, those
/// only the row kernel reads are not written either; one launch less.
int64_t prologueBenefit(FusionOp p, FusionOp row) {
  int64_t bytes = 0;
  for (Value r : p->getResults()) {
    if (!llvm::is_contained(row.getInputs(), r))
      continue;
    int64_t size = bufferBytes(r);
    bytes += size;
    if (llvm::all_of(r.getUsers(), [&](Operation *u) { return u == row; }))
      bytes += size;
  }
  return bytes;
}

/// The pointwise kernel computing the row that `row` reduces, if it can be
/// the row kernel's prologue: every result row-shaped, and read by the row
/// kernel only as the row itself.
FusionOp prologueOf(FusionOp row) {
  Operation *rowOp = rowOpOf(row);
  Block &body = row.getBody().front();
  BlockArgument arg = rowArgumentOf(row);
  if (!arg)
    return nullptr;
  Value in = row.getInputs()[arg.getArgNumber()];
  auto producer = in.getDefiningOp<FusionOp>();
  auto rowType = cast<RankedTensorType>(in.getType());
  if (!producer || !rowShaped(producer, rowType) ||
      broadcastsAtRunTime(producer) || prologueBenefit(producer, row) <= 0)
    return nullptr;
  for (auto [input, a] : llvm::zip(row.getInputs(), body.getArguments()))
    if (input.getDefiningOp() == producer &&
        (!a.hasOneUse() || a != arg ||
         llvm::count(rowOp->getOperands(), a) != 1))
      return nullptr;
  return producer;
}

/// The pointwise kernel that reads the row op's result, if it can be the
/// row kernel's epilogue (softmax and layer norm: row-shaped results): the
/// result's only reader, or one of several (a layer norm's output that a
/// residual add reads, and a product reads quantized): the row kernel then
/// stores both, and the pointwise kernel no longer reads the result back
/// (BERT-base fp8 at batch 128: 24 kernels of 10.5 us, 37.5 MB moved each).
FusionOp epilogueOf(FusionOp row) {
  Operation *rowOp = rowOpOf(row);
  if (isa<ReduceOp>(rowOp))
    return nullptr;
  auto yield = cast<YieldOp>(row.getBody().front().getTerminator());
  Value result;
  for (auto [i, v] : llvm::enumerate(yield.getValues()))
    if (v == rowOp->getResult(0))
      result = row.getResult(i);
  if (!result)
    return nullptr;
  auto rowType = cast<RankedTensorType>(rowOp->getResult(0).getType());
  auto fits = [&](Operation *user) -> FusionOp {
    auto consumer = dyn_cast<FusionOp>(user);
    if (!consumer || !rowShaped(consumer, rowType, /*quantized=*/true) ||
        broadcastsAtRunTime(consumer))
      return nullptr;
    return consumer;
  };
  // Where several kernels read the result, the first that fits: merging
  // it saves reading the result back, whatever else reads it.
  for (Operation *user : result.getUsers())
    if (FusionOp consumer = fits(user))
      return consumer;
  return nullptr;
}

/// Whether `op` is data movement that keeps runs of `run` consecutive
/// elements (each starting at a multiple of `run`) of its result
/// consecutive in its operands, and its operands' innermost dimensions
/// made of whole runs: a transpose that leaves the innermost dimension
/// last, a slice along it by unit steps from a whole run, a reshape, a
/// concatenation along another axis. A row read through such ops is read
/// by whole vectors.
bool keepsRuns(Operation *op, int64_t run) {
  auto innermost = [](Value v) {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(v.getType()).getShape();
    return shape.empty() ? int64_t(1) : shape.back();
  };
  if (!llvm::all_of(
          op->getOperandTypes(),
          [](Type t) { return cast<ShapedType>(t).hasStaticShape(); }) ||
      !cast<ShapedType>(op->getResult(0).getType()).hasStaticShape() ||
      innermost(op->getResult(0)) % run != 0 ||
      llvm::any_of(op->getOperands(),
                   [&](Value v) { return innermost(v) % run != 0; }))
    return false;
  int64_t last =
      cast<RankedTensorType>(op->getResult(0).getType()).getRank() - 1;
  if (auto t = dyn_cast<TransposeOp>(op))
    return t.getPerm()[last] == last;
  if (auto s = dyn_cast<SliceOp>(op))
    return s.getStarts()[last] % run == 0 && s.getSteps()[last] == 1;
  if (auto c = dyn_cast<ConcatOp>(op))
    return static_cast<int64_t>(c.getAxis()) != last;
  return isa<ReshapeOp>(op);
}

/// The data movement outside any kernel that computes `root`, in program
/// order, if a row kernel can read its rows of `run` elements through it
/// (every op keeps them whole, keepsRuns, and an element comes from at most
/// kMaxRowMovementPaths loads): otherwise empty. Reshapes alone are views
/// the kernel reads anyway: empty too.
SmallVector<Operation *> rowMovementOf(Value root, int64_t run) {
  llvm::SetVector<Operation *> tree;
  SmallVector<Value> work{root};
  int64_t paths = 1;
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || op->getParentOfType<FusionOp>() ||
        !isa<TransposeOp, SliceOp, ReshapeOp, ConcatOp>(op))
      continue;
    if (!keepsRuns(op, run))
      return {};
    if (!tree.insert(op))
      continue;
    if (auto c = dyn_cast<ConcatOp>(op))
      paths *= c.getInputs().size();
    if (paths > kMaxRowMovementPaths)
      return {};
    work.append(op->operand_begin(), op->operand_end());
  }
  if (llvm::all_of(tree, [](Operation *op) { return isa<ReshapeOp>(op); }))
    return {};
  SmallVector<Operation *> ordered(tree.begin(), tree.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// Reads the row of `row` through the data movement that computes it
/// (rowMovementOf), where the kernel alone reads the moved tensor: Swin's
/// window reverse and roll before its post-norm layer norm, Swin V2's
/// queries sliced from the transposed projections before F.normalize. The
/// copy is never written or read back. The movement is cloned into the
/// kernel (each op then read only inside it: a transpose that other slices
/// read stays for them) and the originals no one reads are erased.
FusionOp readRowThroughMovement(FusionOp row) {
  Operation *rowOp = rowOpOf(row);
  BlockArgument arg = rowArgumentOf(row);
  if (!arg)
    return row;
  Value root = row.getInputs()[arg.getArgNumber()];
  auto rowType = cast<RankedTensorType>(root.getType());
  std::optional<int64_t> axis = normalizedAxisOf(rowOp);
  if (!axis || *axis != rowType.getRank() - 1 || !rowType.hasStaticShape() ||
      !llvm::all_of(root.getUsers(), [&](Operation *u) { return u == row; }))
    return row;
  SmallVector<Operation *> tree =
      rowMovementOf(root, rowType.getShape().back());
  if (tree.empty())
    return row;
  OpBuilder b(row);
  IRMapping map;
  SmallVector<Operation *> clones;
  for (Operation *op : tree)
    clones.push_back(b.clone(*op, map));
  row->replaceUsesOfWith(root, map.lookup(root));
  for (Operation *op : llvm::reverse(tree))
    if (op->use_empty())
      op->erase();
  FusionOp moved = wrapChainInFusion(clones, KernelFamily::movement);
  FusionOp merged = mergeFusions(moved, row, KernelFamily::row);
  return merged ? merged : row;
}

/// A row op over the last axis (softmax, log-softmax, layer norm) outside
/// any kernel whose result only data movement reads, each op keeping the
/// rows whole (keepsRuns) and reading only the result or the movement's
/// own values, down to one value that others read: the row op commutes
/// with that movement, which only selects, repeats and reorders rows.
/// Moved below it, the row kernel reads its row through the movement
/// (readRowThroughMovement) and writes the moved rows in place: Swin's
/// layer norm before its roll and window partition writes the windows, no
/// copy after it. Returns whether it moved.
bool sinkRowOpBelowMovement(Operation *rowOp) {
  Value result = rowOp->getResult(0);
  auto type = dyn_cast<RankedTensorType>(result.getType());
  std::optional<int64_t> axis = normalizedAxisOf(rowOp);
  if (!type || !type.hasStaticShape() || type.getRank() == 0 || !axis ||
      *axis != type.getRank() - 1 || rowOp->getParentOfType<FusionOp>())
    return false;
  int64_t run = type.getShape().back();
  llvm::SetVector<Operation *> tree;
  SmallVector<Value> exits;
  SmallVector<Value> work{result};
  int64_t paths = 1;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    bool readOutside = false;
    for (Operation *u : v.getUsers()) {
      if (tree.contains(u))
        continue;
      if (u->getParentOfType<FusionOp>() ||
          !isa<TransposeOp, SliceOp, ReshapeOp, ConcatOp>(u) ||
          !keepsRuns(u, run)) {
        readOutside = true;
        continue;
      }
      tree.insert(u);
      if (auto c = dyn_cast<ConcatOp>(u))
        paths *= c.getInputs().size();
      work.push_back(u->getResult(0));
    }
    if (readOutside)
      exits.push_back(v);
  }
  if (exits.size() != 1 || exits.front() == result ||
      paths > kMaxRowMovementPaths ||
      llvm::all_of(tree, [](Operation *op) { return isa<ReshapeOp>(op); }))
    return false;
  for (Operation *op : tree)
    for (Value operand : op->getOperands())
      if (operand != result && !tree.contains(operand.getDefiningOp()))
        return false;
  SmallVector<Operation *> ordered(tree.begin(), tree.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  Value exit = exits.front();
  OpBuilder b(exit.getDefiningOp());
  IRMapping map;
  map.map(result, rowOp->getOperand(0));
  for (Operation *op : ordered)
    b.clone(*op, map);
  Value moved = map.lookup(exit);
  auto movedType = cast<RankedTensorType>(moved.getType());
  Operation *sunk = b.clone(*rowOp);
  sunk->setOperand(0, moved);
  sunk->getResult(0).setType(movedType);
  sunk->setAttr("axis", b.getI64IntegerAttr(movedType.getRank() - 1));
  exit.replaceAllUsesWith(sunk->getResult(0));
  for (Operation *op : llvm::reverse(ordered))
    op->erase();
  rowOp->erase();
  return true;
}

/// Each softmax and log-softmax over another axis than the last (of fixed
/// extents): the axis moved last by a transpose, normalized there by a row
/// kernel, and moved back (the transposes are data movement kernels).
void moveSoftmaxAxisLast(Operation *root) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (!isa<SoftmaxOp, LogSoftmaxOp>(op) || op->getParentOfType<FusionOp>())
      return;
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (!isRowOp(op) && !isSymbolic(type))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    int64_t rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
    int64_t axis = *normalizedAxisOf(op);
    SmallVector<int64_t> perm, back(rank);
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        perm.push_back(d);
    perm.push_back(axis);
    for (int64_t d = 0; d < rank; ++d)
      back[perm[d]] = d;
    Value moved = TransposeOp::create(b, loc, op->getOperand(0), perm);
    uint64_t last = static_cast<uint64_t>(rank - 1);
    Value normalized = isa<SoftmaxOp>(op)
                           ? Value(SoftmaxOp::create(b, loc, moved, last))
                           : Value(LogSoftmaxOp::create(b, loc, moved, last));
    op->replaceAllUsesWith(TransposeOp::create(b, loc, normalized, back));
    op->erase();
  }
}

struct FuseRowsPass : public mlir::brrr::impl::BrrrFuseRowsBase<FuseRowsPass> {
  void runOnOperation() override {
    if (failed(
            mlir::brrr::requireSupportedShapes(getOperation(), getArgument())))
      return signalPassFailure();
    moveSoftmaxAxisLast(getOperation());
    SmallVector<Operation *> rowOps;
    getOperation().walk([&](Operation *op) {
      if (isa<SoftmaxOp, LogSoftmaxOp, LayerNormOp>(op))
        rowOps.push_back(op);
    });
    for (Operation *op : rowOps)
      sinkRowOpBelowMovement(op);
    wrapEachInFusion(getOperation(), KernelFamily::row, isRowOp);
    // Every other reduction (leading or interleaved axes, integers) is a
    // general reduction kernel.
    wrapEachInFusion(getOperation(), KernelFamily::reduce,
                     [](Operation *op) { return isa<ReduceOp>(op); });
    // The pointwise kernel that alone reads a reduction's result (of its
    // shape) runs on it before the store.
    mergeEpilogues(getOperation(), KernelFamily::reduce);
    SmallVector<FusionOp> rows;
    getOperation().walk([&](FusionOp f) {
      if (f.getKind() == KernelFamily::row)
        rows.push_back(f);
    });
    for (FusionOp row : rows) {
      if (FusionOp producer = prologueOf(row)) {
        if (FusionOp merged = mergeFusions(producer, row, KernelFamily::row))
          row = merged;
      } else {
        row = readRowThroughMovement(row);
      }
      // Each pointwise reader of the result in turn (a float8 and an int8
      // copy), while one can join.
      while (FusionOp consumer = epilogueOf(row)) {
        FusionOp merged = mergeFusions(row, consumer, KernelFamily::row);
        if (!merged)
          break;
        row = merged;
      }
    }
  }
};

} // namespace

bool mlir::brrr::fitsRowKernel(int64_t cols, Type et) {
  int64_t vectors = llvm::divideCeil(cols, vectorWidth(elementBytes(et), cols));
  return llvm::divideCeil(vectors, kMaxRowThreads) <= kMaxVectorsPerThread;
}

std::optional<int64_t> mlir::brrr::normalizedAxisOf(Operation *op) {
  if (auto s = dyn_cast<SoftmaxOp>(op))
    return s.getAxis();
  if (auto s = dyn_cast<LogSoftmaxOp>(op))
    return s.getAxis();
  if (auto l = dyn_cast<LayerNormOp>(op))
    return l.getAxis();
  return std::nullopt;
}

int64_t mlir::brrr::rowLanesOf(KernelConfigAttr config) {
  ArrayRef<int64_t> tile = config.getTile();
  return tile.size() == 2 ? tile[1] : config.getThreads();
}

/// The inputs of `fusion` of `elements` elements (at their largest shape):
/// the tensors a row kernel reads whole, row by row.
static int64_t fullInputsOf(FusionOp fusion, int64_t elements) {
  SmallVector<DimAttr> dims = dimsOf(fusion);
  return llvm::count_if(fusion.getInputs(), [&](Value in) {
    auto t = dyn_cast<RankedTensorType>(in.getType());
    if (t && isSymbolic(t))
      t = largestTypeOf(t, dims);
    return t && t.hasStaticShape() && t.getNumElements() == elements;
  });
}

FailureOr<RowGeometry>
mlir::brrr::rowGeometryOf(FusionOp fusion, int64_t threads, int64_t lanes) {
  RowGeometry g;
  g.rowOp = rowOpOf(fusion);
  if (!g.rowOp)
    return fusion.emitOpError(
        "row kernels hold a softmax, log-softmax, layer norm or reduction");
  for (Operation &op : fusion.getBody().front().without_terminator())
    if (&op != g.rowOp && !isPointwise(&op) && !isa<ConstantOp>(op) &&
        !(isa<TransposeOp, SliceOp, ReshapeOp, ConcatOp>(op) &&
          op.isBeforeInBlock(g.rowOp)))
      return op.emitOpError("cannot be fused into a row kernel");
  Operation *rowOp = g.rowOp;
  auto inType = cast<RankedTensorType>(rowOp->getOperand(0).getType());
  Type et = inType.getElementType();
  if (!isa<FloatType>(et))
    return rowOp->emitOpError("row kernels need a floating-point input");
  int64_t axis;
  if (std::optional<int64_t> normalized = normalizedAxisOf(rowOp))
    axis = *normalized;
  else {
    // Trailing, contiguous axes only: a row is then contiguous memory.
    ArrayRef<int64_t> axes = cast<ReduceOp>(rowOp).getAxes();
    axis = axes.empty() ? inType.getRank() : axes.front();
    for (auto [i, a] : llvm::enumerate(axes))
      if (a != axis + static_cast<int64_t>(i) ||
          axes.back() != inType.getRank() - 1)
        return rowOp->emitOpError("row kernels reduce trailing axes only");
    g.reductions = 1;
  }
  if (isa<SoftmaxOp, LogSoftmaxOp>(rowOp) && axis != inType.getRank() - 1)
    return rowOp->emitOpError("row kernels reduce the last axis only");
  if (isa<SoftmaxOp, LogSoftmaxOp, LayerNormOp>(rowOp))
    g.reductions = 2; // max then sum; mean then variance
  // Over symbolic extents, the rows of the largest shape, and their count
  // as an expression: the extents hold the rows apart, never a row's
  // elements (compilesSymbolically).
  RankedTensorType sized = inType;
  if (isSymbolic(inType)) {
    if (axis < static_cast<int64_t>(outerRunOf(inType)))
      return rowOp->emitOpError("row kernels take symbolic extents before "
                                "the reduced axes only");
    sized = largestTypeOf(inType, dimsOf(fusion));
    if (!sized)
      return rowOp->emitOpError("has extents without a largest value");
    SmallVector<AffineExpr> extents = extentsOf(inType);
    g.rowsExtent = getAffineConstantExpr(1, fusion.getContext());
    for (int64_t d = 0; d < axis; ++d)
      g.rowsExtent = g.rowsExtent * extents[d];
  }
  g.cols = 1;
  for (int64_t d = axis; d < sized.getRank(); ++d)
    g.cols *= sized.getDimSize(d);
  if (g.cols == 0)
    return rowOp->emitOpError("reductions over empty rows have no kernel yet");
  g.rows = sized.getNumElements() / g.cols;

  // 16-byte vectors where the row length allows; enough threads to cover
  // the row within the register budget. A row of at most 16 vectors (a
  // ConvNeXt or Swin layer norm over 96 channels: 12) takes a power of two
  // of lanes, and a block of 128 threads packs 128 / lanes rows: one block
  // a row would leave most of each warp idle and schedule a block for a
  // few hundred bytes. A row of at most 128 vectors (BERT's 768 channels:
  // 96) read from one tensor takes a warp, four rows a block: blocks of one
  // warp would cap a multiprocessor at 32 warps, each with a row's few
  // loads in flight. Rows of more than 64 vectors summed from two tensors
  // or more (a residual and its layer norm over 768 channels) have twice
  // the loads in flight already, and keep a block a row (measured 3-5%
  // faster; test/gpu/notes/2026-12-04-d.md). Shorter ones (Swin's residual
  // layer norms over 192 and 384 channels: one or two vectors a lane) hold
  // too few loads in flight in blocks of one warp, at most 32 blocks a
  // multiprocessor: they take a warp, four rows a block (40% -> 112% of
  // the copy rate over 192 channels; test/gpu/notes/2026-12-07-g.md).
  g.vec = vectorWidth(elementBytes(et), g.cols);
  int64_t vectors = llvm::divideCeil(g.cols, g.vec);
  if (threads == 0) {
    if (vectors <= kMaxPackedLanes) {
      threads = kPackedThreads;
      lanes = llvm::PowerOf2Ceil(vectors);
    } else if (vectors <= kMaxSharedWarpRowVectors ||
               (vectors <= kMaxWarpRowVectors &&
                fullInputsOf(fusion, g.rows * g.cols) <= 1)) {
      threads = kPackedThreads;
      lanes = 32;
    } else {
      threads = 32;
      while (threads < kMaxRowThreads && threads * 4 < vectors)
        threads *= 2;
    }
  }
  if (lanes == 0)
    lanes = threads;
  if (threads % 32 != 0 || threads > 1024)
    return fusion.emitOpError("row kernels run whole warps, up to 1024 "
                              "threads; got ")
           << threads;
  if (lanes != threads && (!llvm::isPowerOf2_64(lanes) || lanes > 32))
    return fusion.emitOpError("packed rows take a power of two of lanes up "
                              "to a warp; got ")
           << lanes;
  g.threads = threads;
  g.lanes = lanes;
  g.perThread = llvm::divideCeil(vectors, lanes);
  if (g.perThread > kMaxVectorsPerThread)
    return fusion.emitOpError("rows of ")
           << g.cols << " elements exceed the register-resident row kernel";
  return g;
}

ReduceExtents mlir::brrr::symbolicExtentsOf(ReduceOp red) {
  ReduceExtents r;
  auto in = cast<RankedTensorType>(red.getInput().getType());
  if (!isSymbolic(in))
    return r;
  r.outer = r.outputs = getAffineConstantExpr(1, red.getContext());
  if (reducesSymbolicRows(red))
    r.rows = getAffineConstantExpr(1, red.getContext());
  for (auto [d, extent] : llvm::enumerate(extentsOf(in))) {
    if (llvm::is_contained(red.getAxes(), int64_t(d))) {
      if (r.rows)
        r.rows = r.rows * extent;
      continue;
    }
    r.outputs = r.outputs * extent;
    if (int64_t(d) < red.getAxes().front())
      r.outer = r.outer * extent;
  }
  return r;
}

std::optional<SplitRows> SplitRows::shapeOf(ReduceOp red, bool toInnermost) {
  auto in = cast<RankedTensorType>(red.getInput().getType());
  SmallVector<int64_t> axes(red.getAxes());
  llvm::sort(axes);
  int64_t rank = in.getRank();
  if (axes.empty() || (axes.back() >= rank - 1 && !toInnermost) ||
      axes.back() - axes.front() + 1 != static_cast<int64_t>(axes.size()))
    return std::nullopt;
  // At the largest shape over a symbolic outer run (before every axis).
  SmallVector<int64_t> shape = largestShapeOf(red.getInput());
  SplitRows s;
  for (int64_t d = 0; d < rank; ++d)
    (d < axes.front()   ? s.outer
     : d <= axes.back() ? s.rows
                        : s.inner) *= shape[d];
  return s;
}

std::optional<SplitRows> mlir::brrr::splitRowsOf(ReduceOp red) {
  std::optional<SplitRows> s =
      SplitRows::shapeOf(red, reducesSymbolicRows(red));
  Type et = cast<RankedTensorType>(red.getInput().getType()).getElementType();
  if (!s || et.isInteger(1) || s->outer * s->inner == 0 ||
      (!reducesSymbolicRows(red) &&
       (s->rows < 64 || s->outer * s->inner >= 65536)))
    return std::nullopt;
  s->vector = vectorWidth(elementBytes(et), s->inner);
  s->lanes = std::min<int64_t>(s->chunks(), 32);
  s->groups = std::min(kSplitRowsThreads / s->lanes, s->rows);
  return s;
}
