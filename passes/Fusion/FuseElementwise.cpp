//===- FuseElementwise.cpp - pointwise DAGs -> brrr.fusion ----------------===//
//
// First fusion pass of the pipeline (flag brrr-fuse-elementwise). Every
// pointwise op ends up in exactly one `brrr.fusion pointwise` op; producers
// join their consumer's group when the cost model below says it saves memory
// traffic. Code generation then turns each fusion into one kernel. Before
// grouping, casts move above the views they are read through and views
// below the pointwise ops that read them (hoistCastsAboveViews, sinkViews).
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Movement.h"
#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEELEMENTWISE
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Bytes of DRAM traffic saved by computing `producer` inside the group
/// whose root is `root` instead of in its own kernel. With no user outside
/// the group, its result is neither written nor read back. With users
/// outside (all after the root, so the fused kernel can serve them), the
/// kernel still writes it as an extra output but the group no longer reads
/// it back; that needs the root's shape, so one index map covers both.
/// Zero when fusing saves nothing or is not possible.
int64_t fusionBenefit(Operation *producer, Operation *root,
                      const llvm::SetVector<Operation *> &group) {
  int64_t bytes = 0;
  for (Value r : producer->getResults())
    bytes += bufferBytes(r);
  bool outsideUsers = false;
  for (Operation *user : producer->getUsers()) {
    if (group.contains(user))
      continue;
    if (!root->isBeforeInBlock(user))
      return 0;
    outsideUsers = true;
  }
  if (!outsideUsers)
    return 2 * bytes;
  if (producer->getResult(0).getType() != root->getResult(0).getType())
    return 0;
  return bytes;
}

/// A value free to copy into kernels: a constant every element of which is
/// the same, or one symbolic extent (a sequence's length that index
/// arithmetic reads: the kernel is passed its value).
bool isCopiedIntoKernels(Operation *op) {
  if (auto sc = dyn_cast<SymbolicConstantOp>(op))
    return sc.getType().getNumElements() == 1;
  DenseElementsAttr attr;
  return matchPattern(op, m_Constant(&attr)) && attr.isSplat();
}

/// Whether `op` moves data and so is not computed at the kernel's own
/// elements: a group reads through it (PointwiseReads.h).
bool isReadThrough(Operation *op) {
  return !isPointwise(op) && isMovementTreeOp(op);
}

/// How many times the kernel of `group` (rooted at `root`) computes each of
/// its ops' values, summed: once at the kernel's own elements for the ops
/// read by pointwise ops, and once more for each movement op that reads it
/// at other coordinates (a roll reads its input twice). Pointwise readers
/// read at one access, so only the costliest counts.
int64_t evaluations(Operation *root,
                    const llvm::SetVector<Operation *> &group) {
  SmallVector<Operation *> ops(group.begin(), group.end());
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  DenseMap<Operation *, int64_t> times;
  int64_t total = 0;
  for (Operation *op : ops) {
    int64_t moved = 0, computed = 0;
    for (Operation *user : op->getUsers()) {
      auto it = times.find(user);
      if (it == times.end())
        continue;
      if (isReadThrough(user))
        moved += it->second;
      else
        computed = std::max(computed, it->second);
    }
    int64_t n = op == root ? 1 : std::max<int64_t>(moved + computed, 1);
    times[op] = n;
    total += n;
  }
  return total;
}

/// Whether movement op `op` can join the group of `root`: the kernel reads
/// its operand through it, so its result is neither written nor read back
/// (2x its bytes saved, and a launch). Every reader of its result must be
/// in the group (the result has no element at the kernel's own index, so
/// it cannot be an extra output). A transpose of two long dimensions
/// (isTiledTranspose) reads across rows; it joins only with the kernel's
/// shape, else its own kernel moves it through shared memory, coalesced.
bool canReadThrough(Operation *op, Operation *root,
                    const llvm::SetVector<Operation *> &group) {
  if (!isReadThrough(op) || !llvm::all_of(op->getUsers(), [&](Operation *u) {
        return group.contains(u);
      }))
    return false;
  if (isa<ReshapeOp>(op)) {
    // A reshape of a kernel's result is a view the kernel reads as it is
    // (same bytes): it joins only on the way to other data movement (a
    // slice of a merged product viewed as heads). A group of pointwise ops
    // and views alone stays one that other kernels can take in (a row
    // kernel's prologue, a product's epilogue).
    Operation *source = op;
    while (isa_and_nonnull<ReshapeOp>(source))
      source = source->getOperand(0).getDefiningOp();
    if (!source || !isReadThrough(source))
      return false;
  }
  auto t = dyn_cast<TransposeOp>(op);
  return !t || !isTiledTranspose(t) ||
         t.getType().getShape() ==
             cast<RankedTensorType>(root->getResult(0).getType()).getShape();
}

/// What the kernel of `group` (rooted at `root`) yields: the root's
/// results, then, in the order of `ops` (the group's members), those of
/// members also read outside the group (extra outputs of a multi-output
/// kernel).
SmallVector<Value> kernelResults(Operation *root, ArrayRef<Operation *> ops,
                                 const llvm::SetVector<Operation *> &group) {
  SmallVector<Value> results(root->getResults());
  for (Operation *op : ops)
    if (op != root)
      for (Value r : op->getResults())
        if (llvm::any_of(r.getUsers(),
                         [&](Operation *u) { return !group.contains(u); }))
          results.push_back(r);
  return results;
}

/// Grows a group from `root` by absorbing profitable pointwise producers
/// and the data movement between them and their inputs, nearest first, up
/// to `maxOps` ops and `maxOps` evaluations (see evaluations()): a
/// kernel's code (and ptxas's time on it, which grows faster than its size)
/// stays bounded however long a chain of pointwise ops is. Ops computed at
/// other coordinates than the kernel's own (behind a movement op) join only
/// when the group reads all of their result.
llvm::SetVector<Operation *> growGroup(Operation *root,
                                       const DenseSet<Operation *> &taken,
                                       int64_t maxOps) {
  llvm::SetVector<Operation *> group;
  DenseSet<Operation *> moved; // computed away from the kernel's elements
  group.insert(root);
  bool changed = true;
  auto full = [&] { return static_cast<int64_t>(group.size()) >= maxOps; };
  auto rootType = cast<RankedTensorType>(root->getResult(0).getType());
  auto admit = [&](Operation *producer, bool elsewhere) {
    group.insert(producer);
    if (elsewhere && evaluations(root, group) > maxOps) {
      group.remove(producer);
      return false;
    }
    // Operands that broadcast along part of the symbolic extents stay read
    // at the kernel's own elements, where it indexes them from the actual
    // extents.
    if (!readsRunTimeBroadcastsAtOwnElements(
            group.getArrayRef(),
            kernelResults(root, group.getArrayRef(), group), rootType)) {
      group.remove(producer);
      return false;
    }
    if (elsewhere)
      moved.insert(producer);
    return true;
  };
  // An expand that broadcasts along part of the symbolic extents is read
  // like a pointwise op: at the kernel's own elements.
  auto runtimeExpand = isPartialBroadcastExpand;
  auto moves = [&] {
    return llvm::any_of(group, [&](Operation *op) {
      return isReadThrough(op) && !runtimeExpand(op);
    });
  };
  while (changed && !full()) {
    changed = false;
    for (size_t i = 0; i < group.size() && !full(); ++i) {
      Operation *member = group[i];
      bool elsewhere = (isReadThrough(member) && !runtimeExpand(member)) ||
                       moved.contains(member);
      for (Value operand : member->getOperands()) {
        Operation *producer = operand.getDefiningOp();
        if (!producer || group.contains(producer) ||
            taken.contains(producer) || full())
          continue;
        if (isCopiedIntoKernels(producer)) {
          continue; // Cloned into the region when the fusion is built.
        }
        if (runtimeExpand(producer)) {
          if (!moves() && !elsewhere &&
              llvm::all_of(producer->getUsers(),
                           [&](Operation *u) { return group.contains(u); }))
            changed |= admit(producer, false);
          continue;
        }
        if (canReadThrough(producer, root, group)) {
          changed |= admit(producer, true);
          continue;
        }
        if (!isPointwise(producer) || fusionBenefit(producer, root, group) <= 0)
          continue;
        if (elsewhere && !llvm::all_of(producer->getUsers(), [&](Operation *u) {
              return group.contains(u);
            }))
          continue;
        changed |= admit(producer, elsewhere);
      }
    }
  }
  return group;
}

/// Replaces the ops of `group` (with `root` last in program order) by one
/// fusion op at the root's position.
void buildFusion(Operation *root, llvm::SetVector<Operation *> &group) {
  SmallVector<Operation *> ops(group.begin(), group.end());
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  // Inputs: values read from outside the group; splat constants and
  // symbolic extents are rematerialized inside instead.
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> splats;
  for (Operation *op : ops)
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && group.contains(def))
        continue;
      if (def && isCopiedIntoKernels(def))
        splats.insert(def);
      else
        inputs.insert(operand);
    }

  // Results: the root's, then those of members also read outside.
  SmallVector<Value> results = kernelResults(root, ops, group);

  OpBuilder b(root);
  auto fusion =
      FusionOp::create(b, root->getLoc(), KernelFamily::pointwise,
                       inputs.getArrayRef(), ValueRange(results).getTypes());
  Block &body = fusion.getBody().front();
  IRMapping map;
  for (auto [in, arg] : llvm::zip(inputs, body.getArguments()))
    map.map(in, arg);
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  for (Operation *c : splats)
    inner.clone(*c, map);
  for (Operation *op : ops)
    inner.clone(*op, map);
  SmallVector<Value> yielded;
  for (Value r : results)
    yielded.push_back(map.lookup(r));
  YieldOp::create(inner, root->getLoc(), yielded);

  for (auto [r, f] : llvm::zip(results, fusion.getResults()))
    r.replaceUsesWithIf(
        f, [&](OpOperand &use) { return !group.contains(use.getOwner()); });
  for (Operation *op : llvm::reverse(ops))
    op->erase();
}

/// Casts a tensor once, to a float type, when it is read only through
/// chains of views (slices, reshapes, transposes) that each end in a cast to
/// that type and together read all of it: the cast then joins the
/// producer's epilogue, and the views stay views of the narrower tensor.
/// TorchScript's f16 exports slice an f32 query-key-value product into heads,
/// each cast to f16 for its product.
void hoistCastsAboveViews(func::FuncOp func) {
  llvm::SetVector<Value> sources;
  func.walk([&](SliceOp s) {
    if (!s->getParentOfType<FusionOp>())
      sources.insert(s.getInput());
  });
  for (Value source : sources) {
    Type to;
    SmallVector<std::pair<SmallVector<Operation *>, CastOp>> reads;
    bool ok = isa<FloatType>(
        cast<RankedTensorType>(source.getType()).getElementType());
    for (Operation *user : source.getUsers()) {
      SmallVector<Operation *> chain;
      Operation *op = user;
      while (ok && isa<SliceOp, ReshapeOp, TransposeOp>(op) &&
             op->hasOneUse()) {
        chain.push_back(op);
        op = *op->getUsers().begin();
      }
      auto c = dyn_cast<CastOp>(op);
      Type et = c ? c.getType().getElementType() : Type();
      ok &= !chain.empty() && c && isa<FloatType>(et) && (!to || to == et);
      if (!ok)
        break;
      to = et;
      reads.push_back({chain, c});
    }
    // Only when the views read all of it (q, k and v cover the product):
    // casting elements nobody reads would cost more than it saves. Counted
    // at the largest shape over symbolic extents (views keep the outer run,
    // so the ratio is the same at every shape).
    auto count = [](Value v) {
      int64_t n = 1;
      for (int64_t d : largestShapeOf(v))
        n *= d;
      return n;
    };
    int64_t read = 0;
    for (auto &[chain, c] : reads)
      read += count(chain.front()->getResult(0));
    if (!ok || reads.empty() || read < count(source))
      continue;
    OpBuilder b(func.getContext());
    b.setInsertionPointAfterValue(source);
    Value narrow = CastOp::create(
        b, source.getLoc(), cast<RankedTensorType>(source.getType()).clone(to),
        source);
    for (auto &[chain, c] : reads) {
      b.setInsertionPoint(c);
      Value v = narrow;
      for (Operation *view : chain) {
        Operation *clone = b.clone(*view);
        clone->setOperand(0, v);
        clone->getResult(0).setType(
            cast<RankedTensorType>(view->getResult(0).getType()).clone(to));
        v = clone->getResult(0);
      }
      c.getResult().replaceAllUsesWith(v);
      c->erase();
      for (Operation *view : llvm::reverse(chain))
        view->erase();
    }
  }
}

/// The view that produces `v` and may move below its readers, or null: a
/// reshape, or a transpose of a product (whose kernel stores through it) or
/// of a pointwise result (behind any reshapes), read only by pointwise ops
/// (which then no longer read it as a strided input).
Operation *viewOf(Value v) {
  Operation *def = v.getDefiningOp();
  if (!isa_and_nonnull<ReshapeOp, TransposeOp>(def) ||
      !llvm::all_of(def->getUsers(), isPointwise))
    return nullptr;
  Operation *source = def->getOperand(0).getDefiningOp();
  while (isa_and_nonnull<ReshapeOp>(source))
    source = source->getOperand(0).getDefiningOp();
  if (isa<TransposeOp>(def) &&
      !(isa_and_nonnull<MatmulOp, AttentionOp>(source) ||
        (source && isPointwise(source))))
    return nullptr;
  return def;
}

/// Whether views `a` and `b` do the same to the same shape.
bool sameView(Operation *a, Operation *b) {
  return a->getName() == b->getName() && a->getAttrs() == b->getAttrs() &&
         a->getOperand(0).getType() == b->getOperand(0).getType() &&
         a->getResult(0).getType() == b->getResult(0).getType();
}

/// Moves views (viewOf) below the pointwise ops that read them: u(view(x),
/// c) becomes view(u(x, c)) when every operand of u is that same view (of
/// tensors of one shape) or a one-element tensor, which broadcasts to any
/// shape. A view between pointwise ops would split their kernel; below them
/// it joins the next kernel as an operand view, a transpose a product
/// stores through, or a free reshape. TorchScript's f16 exports put a reshape
/// between each product and its (erf-expanded) activation, and before each cast
/// back to f16.
void sinkViews(func::FuncOp func) {
  // Each op is pending at most once, so the op being rewritten (and
  // erased) is nowhere else in the list.
  SmallVector<Operation *> work;
  DenseSet<Operation *> pending;
  auto push = [&](Operation *op) {
    if (pending.insert(op).second)
      work.push_back(op);
  };
  func.walk([&](Operation *op) {
    if (isPointwise(op) && !op->getParentOfType<FusionOp>())
      push(op);
  });
  for (size_t next = 0; next < work.size(); ++next) {
    Operation *op = work[next];
    pending.erase(op);
    Operation *view = nullptr;
    bool ok = true;
    for (Value v : op->getOperands()) {
      auto t = cast<RankedTensorType>(v.getType());
      if (Operation *w = viewOf(v)) {
        ok &= !view || sameView(view, w);
        view = view ? view : w;
      } else if (isSymbolic(t) || t.getNumElements() != 1) {
        ok = false;
      }
    }
    if (!view || !ok ||
        cast<RankedTensorType>(op->getResult(0).getType()).getShape() !=
            cast<RankedTensorType>(view->getResult(0).getType()).getShape())
      continue;
    auto inner = cast<RankedTensorType>(view->getOperand(0).getType());
    if (llvm::any_of(op->getOperands(), [&](Value v) {
          return !viewOf(v) && cast<RankedTensorType>(v.getType()).getRank() >
                                   inner.getRank();
        }))
      continue;
    OpBuilder b(op);
    Operation *early = b.clone(*op);
    SmallVector<Operation *> views;
    for (OpOperand &use : early->getOpOperands())
      if (Operation *w = viewOf(use.get())) {
        use.set(w->getOperand(0));
        views.push_back(w);
      }
    Type et =
        cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
    early->getResult(0).setType(inner.clone(et));
    Operation *late = b.clone(*view);
    late->setOperand(0, early->getResult(0));
    late->getResult(0).setType(op->getResult(0).getType());
    op->replaceAllUsesWith(late);
    op->erase();
    for (Operation *w : views)
      if (w->use_empty())
        w->erase();
    // It may move below the next view up, and its readers below this one.
    push(early);
    for (Operation *user : late->getUsers())
      if (isPointwise(user))
        push(user);
  }
}

struct FuseElementwisePass
    : public mlir::brrr::impl::BrrrFuseElementwiseBase<FuseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::views)))
      return signalPassFailure();
    func::FuncOp func = getOperation();
    hoistCastsAboveViews(func);
    sinkViews(func);
    // Roots are visited consumers-first, so every group starts at the op
    // whose result leaves it.
    SmallVector<Operation *> candidates;
    func.walk([&](Operation *op) {
      if (isPointwise(op) && !op->getParentOfType<FusionOp>())
        candidates.push_back(op);
    });
    DenseSet<Operation *> taken;
    SmallVector<std::pair<Operation *, llvm::SetVector<Operation *>>> groups;
    for (Operation *root : llvm::reverse(candidates)) {
      if (taken.contains(root))
        continue;
      llvm::SetVector<Operation *> group = growGroup(root, taken, maxOps);
      taken.insert(group.begin(), group.end());
      groups.emplace_back(root, std::move(group));
    }
    for (auto &[root, group] : groups)
      buildFusion(root, group);
    // Splat constants and extents whose every user was fused are now dead.
    func.walk([](Operation *op) {
      if (isCopiedIntoKernels(op) && op->use_empty() &&
          !op->getParentOfType<FusionOp>())
        op->erase();
    });
  }
};

} // namespace

bool mlir::brrr::isPointwise(Operation *op) {
  return isa<AbsOp, AcosOp, AcoshOp, AsinOp, AsinhOp, AtanOp, AtanhOp, CeilOp,
             CosOp, CoshOp, ErfOp, ExpOp, FloorOp, LogOp, NegOp, NotOp,
             ReciprocalOp, ReluOp, RoundOp, RsqrtOp, SigmoidOp, SignOp, SiluOp,
             SinOp, SinhOp, SqrtOp, TanOp, TanhOp, GeluOp, ClipOp, CastOp,
             AddOp, AndOp, DivOp, MaxOp, MinOp, MulOp, OrOp, PowOp, RemOp,
             SubOp, XorOp, CompareOp, WhereOp, QuantizeOp, DequantizeOp>(op);
}

int64_t mlir::brrr::bufferBytes(RankedTensorType type) {
  Type et = type.getElementType();
  return type.getNumElements() * elementBytes(et);
}

int64_t mlir::brrr::pointwiseVectorWidth(FusionOp fusion) {
  auto outType = cast<RankedTensorType>(fusion.getResult(0).getType());
  SmallVector<AffineExpr> extents = extentsOf(outType);
  int64_t widest = 1;
  auto consider = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    if (extentsOf(t) == extents)
      widest = std::max(widest, elementBytes(t.getElementType()));
  };
  for (Value v : fusion.getInputs())
    consider(v);
  for (Value v : fusion.getResults())
    consider(v);
  // A symbolic count: the width divides it at every shape in range.
  return vectorWidth(widest, elementCountDivisor(outType));
}

int64_t mlir::brrr::vectorWidth(int64_t bytes, int64_t count) {
  int64_t vec = std::max<int64_t>(16 / bytes, 1);
  while (vec > 1 && count % vec != 0)
    vec /= 2;
  return vec;
}
