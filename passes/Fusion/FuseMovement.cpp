//===- FuseMovement.cpp - data movement -> brrr.fusion movement --------===//
//
// Third fusion pass (flag brrr-fuse-movement): every transpose, slice,
// expand, gather (plain, elements, nd), concat, pad, scatter (elements,
// nd) and resize left outside a fusion becomes one `brrr.fusion movement`
// kernel that copies each element from where the op's index map says.
// (Reshapes are views and need no kernel; so is a slice of an input's first
// elements that only kernels read, isPrefixSlice. An expand along part of
// the symbolic extents is a pointwise kernel, which indexes its input from
// the actual extents.)
//
// A tree of index maps (transposes, slices, expands, pads and the reshapes
// between them) and concatenations, each op read only inside the tree,
// with two or more copies in it, is one kernel: each output element is
// found by walking the tree back from its root, choosing at each
// concatenation the operand that holds it, down to one load from a kernel
// input. Inside a tree a value may be read more than once: a roll is a
// concatenation of two slices of one tensor, and a 2-D roll followed by a
// window partition (torchvision's Swin) is one kernel instead of seven;
// so are a stem's input preparation (NCHW to NHWC, pad, space to depth)
// and a patch merge (four strided slices, concatenated). A tiled transpose
// (through shared memory) is a kernel of its own, neither in a tree nor the
// end of one: the copies before it are a tree, and so are those after it.
// A tree keeps its copies apart where an element could come from more than
// `kMaxPaths` loads (each path is code). A copy
// whose readers read each of its elements twice or more (a stem's window
// columns unfolded into channels) ends a tree: it is written once by a
// kernel of its own instead of being walked again for every read.
//
// A transpose read only by two slices or more (q, k, v = qkv.permute(2, 0,
// 3, 1, 4)[i], torchvision's Swin and timm's ViTs, where a kernel does not
// read them through it: Swin V2 normalizes its queries and keys) is
// sliced first: each slice of the input, transposed, is a tree of its own
// that copies its part once, where the transpose would copy every part and
// the slices then copy theirs again.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Movement.h"
#include "passes/Passes.h"

#include "passes/Fusion/WrapInFusion.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEMOVEMENT
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// The most loads a tree may choose between for one element.
constexpr int64_t kMaxPaths = 16;

/// Whether `v` is read by kernels only, directly or through reshapes.
bool readByKernelsOnly(Value v) {
  return !v.use_empty() && llvm::all_of(v.getUsers(), [](Operation *u) {
    return isa<FusionOp>(u) ||
           (isa<ReshapeOp>(u) && readByKernelsOnly(u->getResult(0)));
  });
}

/// Whether slice `op` stays a view of its input (isPrefixSlice), read by
/// kernels only: the kernels read its input's first elements, at the same
/// offsets, without a copy. (A view returned would need the output buffer's
/// own copy.)
bool staysView(Operation *op) {
  return isPrefixSlice(op) && readByKernelsOnly(op->getResult(0));
}

/// Whether `op` stays out of movement kernels: a slice that stays a view,
/// or an expand along part of the symbolic extents (a pointwise kernel of
/// its own, which indexes its input from the actual extents).
bool staysOutOfMovementKernels(Operation *op) {
  return staysView(op) || isPartialBroadcastExpand(op);
}

/// Whether `op` moves elements (a scatter may also combine them).
bool isMovementOp(Operation *op) {
  return isa<TransposeOp, SliceOp, ExpandOp, GatherOp, GatherElementsOp,
             GatherNDOp, ConcatOp, PadOp, ScatterElementsOp, ScatterNDOp,
             ResizeOp>(op) &&
         !staysOutOfMovementKernels(op);
}

/// The paths from `op` back to the tree's inputs (`members` are the
/// tree's ops): the loads an element of `op` may come from.
int64_t pathsOf(Operation *op,
                const llvm::SmallPtrSetImpl<Operation *> &members) {
  int64_t paths = 0;
  for (Value v : op->getOperands()) {
    Operation *def = v.getDefiningOp();
    paths += def && members.contains(def) ? pathsOf(def, members) : 1;
    if (paths > kMaxPaths)
      break;
  }
  return paths;
}

/// Whether the readers of copy `op` read its elements twice or more on
/// average (overlapping slices: a stem's windows unfolded into channels).
/// A tree walks an element's whole path for each element it writes, so the
/// ops below `op` would be walked once per read instead of once per
/// element.
bool readRepeatedly(Operation *op) {
  if (isa<ReshapeOp>(op) || op->hasOneUse())
    return false;
  // At the largest shape over a symbolic outer run, which every tensor
  // here shares: the ratio is the same at every shape.
  auto count = [](Value v) {
    int64_t n = 1;
    for (int64_t d : largestShapeOf(v))
      n *= d;
    return n;
  };
  int64_t reads = 0;
  for (Operation *user : op->getUsers())
    reads += count(user->getResult(0));
  return reads >= 2 * count(op->getResult(0));
}

/// Each static transpose outside kernels that two slices or more read and
/// nothing else: slice(transpose(x)) -> transpose(slice'(x)), slice' the
/// slice in x's order. Not a tiled transpose (through shared memory): a
/// kernel of its own, each of whose parts would be a slice's copy and a
/// tiled transpose of it.
void sliceBeforeTransposes(Operation *root) {
  SmallVector<TransposeOp> transposes;
  root->walk([&](TransposeOp t) {
    if (t->getParentOfType<FusionOp>() || isSymbolic(t.getType()) ||
        isSymbolic(t.getInput().getType()) || isTiledTranspose(t) ||
        llvm::range_size(t->getUsers()) < 2)
      return;
    if (llvm::all_of(t->getUsers(), [](Operation *u) {
          return isa<SliceOp>(u) && !isSymbolic(u->getResult(0).getType());
        }))
      transposes.push_back(t);
  });
  for (TransposeOp t : transposes) {
    ArrayRef<int64_t> perm = t.getPerm();
    // Result dimension i is input dimension perm[i].
    SmallVector<int64_t> inverse(perm.size());
    for (auto [i, p] : llvm::enumerate(perm))
      inverse[p] = int64_t(i);
    auto in = cast<RankedTensorType>(t.getInput().getType());
    for (Operation *user : llvm::make_early_inc_range(t->getUsers())) {
      auto slice = cast<SliceOp>(user);
      auto inOrder = [&](ArrayRef<int64_t> v) {
        SmallVector<int64_t> out;
        for (int64_t j : inverse)
          out.push_back(v[j]);
        return out;
      };
      SmallVector<int64_t> sizes = inOrder(slice.getSizes());
      OpBuilder b(slice);
      Value part = SliceOp::create(
          b, slice.getLoc(), RankedTensorType::get(sizes, in.getElementType()),
          t.getInput(), inOrder(slice.getStarts()), sizes,
          inOrder(slice.getSteps()));
      Value moved = TransposeOp::create(b, slice.getLoc(), slice.getType(),
                                        part, b.getDenseI64ArrayAttr(perm));
      slice.getResult().replaceAllUsesWith(moved);
      slice.erase();
    }
    t.erase();
  }
}

struct FuseMovementPass
    : public mlir::brrr::impl::BrrrFuseMovementBase<FuseMovementPass> {
  void runOnOperation() override {
    if (failed(
            mlir::brrr::requireSupportedShapes(getOperation(), getArgument())))
      return signalPassFailure();
    sliceBeforeTransposes(getOperation());
    // Trees, grown from their roots backwards: an op joins the tree that
    // every reader of its result belongs to.
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (isMovementTreeOp(op) && !op->getParentOfType<FusionOp>() &&
          !staysOutOfMovementKernels(op))
        candidates.push_back(op);
    });
    DenseMap<Operation *, unsigned> treeOf;
    SmallVector<SmallVector<Operation *>> trees;
    auto tiled = [](Operation *op) {
      auto t = dyn_cast<TransposeOp>(op);
      return t && isTiledTranspose(t);
    };
    for (Operation *op : llvm::reverse(candidates)) {
      Value r = op->getResult(0);
      std::optional<unsigned> tree;
      bool joins = !r.use_empty() && !tiled(op);
      for (Operation *user : r.getUsers()) {
        auto it = treeOf.find(user);
        if (it == treeOf.end() || user->getBlock() != op->getBlock() ||
            tiled(user) || (tree && *tree != it->second)) {
          joins = false;
          break;
        }
        tree = it->second;
      }
      if (joins && readRepeatedly(op)) // materialized: a tree of its own
        joins = false;
      if (!joins) {
        tree = trees.size();
        trees.emplace_back();
      }
      treeOf[op] = *tree;
      trees[*tree].push_back(op);
    }
    for (SmallVector<Operation *> &tree : trees) {
      std::reverse(tree.begin(), tree.end()); // program order, root last
      int64_t copies =
          llvm::count_if(tree, [](Operation *c) { return !isa<ReshapeOp>(c); });
      llvm::SmallPtrSet<Operation *, 16> members(tree.begin(), tree.end());
      if (copies >= 2 && pathsOf(tree.back(), members) <= kMaxPaths)
        wrapChainInFusion(tree, KernelFamily::movement);
    }
    wrapEachInFusion(getOperation(), KernelFamily::movement, isMovementOp);
    // An expand along part of the symbolic extents that no pointwise
    // kernel took in is one of its own, which indexes its input from the
    // actual extents.
    wrapEachInFusion(getOperation(), KernelFamily::pointwise,
                     isPartialBroadcastExpand);
  }
};

} // namespace

bool mlir::brrr::isMovementTreeOp(Operation *op) {
  // A slice or transpose whose strides change with the shape is a kernel
  // of its own, which reads its input's actual extents.
  if (movesAtActualExtents(op) || transposesAtActualExtents(op) ||
      concatsAtActualExtents(op))
    return false;
  if (auto c = dyn_cast<ConcatOp>(op))
    return c.getInputs().size() <= kMaxPaths;
  if (auto p = dyn_cast<PadOp>(op))
    return !llvm::is_contained(p.getInput().getType().getShape(), 0);
  return isa<TransposeOp, SliceOp, ExpandOp, ReshapeOp>(op) &&
         op->getNumOperands() == 1;
}

std::optional<std::array<int64_t, 3>>
mlir::brrr::batchedTransposeOf(TransposeOp t) {
  ArrayRef<int64_t> perm = t.getPerm();
  // At the largest shape over a symbolic outer run (in the batch).
  SmallVector<int64_t> in = largestShapeOf(t.getInput());
  int64_t n = perm.size(), k = 0;
  while (k < n && perm[k] == k)
    ++k;
  if (k == n)
    return std::nullopt;
  int64_t j = perm[k];
  for (int64_t i = k; i < n; ++i) {
    int64_t want = i - k < n - j ? j + (i - k) : k + (i - k - (n - j));
    if (perm[i] != want)
      return std::nullopt;
  }
  auto product = [&](int64_t from, int64_t to) {
    int64_t p = 1;
    for (int64_t d = from; d < to; ++d)
      p *= in[d];
    return p;
  };
  return std::array<int64_t, 3>{product(0, k), product(k, j), product(j, n)};
}

bool mlir::brrr::isTiledTranspose(TransposeOp t) {
  if (transposesAtActualExtents(t))
    return false;
  std::optional<std::array<int64_t, 3>> brs = batchedTransposeOf(t);
  return brs && (*brs)[0] < 65536 && (*brs)[1] >= 32 && (*brs)[2] >= 32;
}

bool mlir::brrr::isTiledTransposeKernel(FusionOp fusion) {
  Block &body = fusion.getBody().front();
  auto t = dyn_cast<TransposeOp>(body.front());
  return t && std::next(body.begin()) == body.without_terminator().end() &&
         isa<BlockArgument>(t.getInput()) && isTiledTranspose(t);
}

bool mlir::brrr::isMovementTree(FusionOp fusion) {
  Block &body = fusion.getBody().front();
  // A concatenation alone is a tree of any width: each element is one load
  // from one of its inputs, found in a binary search over the parts
  // (DenseNet concatenates up to 49 feature maps).
  bool loneConcat = llvm::hasSingleElement(body.without_terminator()) &&
                    isa<ConcatOp>(body.front()) &&
                    !concatsAtActualExtents(&body.front());
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator()) {
    if (!isMovementTreeOp(&op) && !loneConcat)
      return false;
    for (Value v : op.getOperands())
      if (!isa<BlockArgument>(v) && !llvm::is_contained(ops, v.getDefiningOp()))
        return false;
    ops.push_back(&op);
  }
  return !ops.empty() && body.getTerminator()->getOperands() ==
                             ValueRange(ops.back()->getResults());
}

int64_t mlir::brrr::movementVectorWidth(FusionOp fusion) {
  if (!isMovementTree(fusion) || fusion.getNumResults() != 1)
    return 0;
  Block &body = fusion.getBody().front();
  if (auto t = dyn_cast<TransposeOp>(body.front());
      t && std::next(body.begin()) == body.without_terminator().end() &&
      isTiledTranspose(t))
    return 0;
  auto out = cast<RankedTensorType>(fusion.getResult(0).getType());
  Type et = out.getElementType();
  if (!isa<IntegerType>(et) && !et.isF16() && !et.isBF16() && !et.isF32() &&
      !et.isF64())
    return 0;
  // A symbolic count: the width divides it at every shape in range.
  return vectorWidth(elementBytes(et), elementCountDivisor(out));
}
