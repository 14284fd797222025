//===- SymbolicShapes.cpp - what the passes compile symbolically ----------===//
//
// A module compiled with ranges has symbolic extents (`#brrr.extents`).
// Kernels learn them family by family; until a family has, every pass
// refuses its symbolic values with an error naming the pass, the op and the
// value (requireSupportedShapes), so that no pass reads a `?` as a size.
//
// What compiles symbolically so far: pointwise ops, softmax, log-softmax,
// layer norm, products of a symbolic left operand by static weights,
// batched products and attention over a symbolic batch, and
// the structural ops (structuralTypeOf) that work on the dimensions after
// the outer run and carry it through unchanged: data movement (transposes,
// pads and slices that leave the run alone, concatenations along other
// axes, expands, lookups by indices that hold the run, or by index tuples,
// in a table that is static or symbolic in its first dimension only),
// reductions of later axes, and over a symbolic batch only, convolutions,
// pooling and batch norm; and reshapes, which keep every element's linear
// index whatever their run becomes. Every tensor
// keeps its symbolic extents in one outer run of leading dimensions
// (outerRunOf) that is the same for all of them (pointwise ops: or
// broadcasts across the whole run). Such a kernel is the kernel of the
// largest shape with its element, row or product-row count, or its grid,
// read at run time: an element's linear index, and the index of every
// element it reads (which moves only the static dimensions), are the same
// at every shape in range, and so is every row.
//
// Two kinds of kernel read the actual extents instead: attention over
// symbolic sequences (16-bit, fused), whose kernel takes the sequences and
// the strides of the views it reads and writes through as parameters; and
// a pointwise kernel without data movement whose operand broadcasts along
// part of the symbolic extents (broadcastsAtRunTime), which indexes that
// operand from the actual extents. Until attention is fused, the passes
// before brrr-fuse-attention admit its pieces and those up to
// brrr-fuse-matmul its views (PendingAttention).
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Attention.h"
#include "passes/Config/Rows.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Whether `u` is an operand or result that a pointwise kernel computing
/// `out` reads or writes at the same linear index in every shape: the same
/// outer run of extents as `out` (and the same static rest), or 1 across
/// the whole run (aligned to the right, numpy style).
bool sharesOuterRun(Type u, RankedTensorType out) {
  auto t = dyn_cast<RankedTensorType>(u);
  if (!t)
    return true;
  if (!isSymbolic(out))
    return !isSymbolic(t);
  // A static tensor broadcasts across the run (the verifiers admit no
  // other pairing with a symbolic extent), or is a product's weights.
  if (!isSymbolic(t))
    return true;
  SmallVector<AffineExpr> ue = extentsOf(t), oe = extentsOf(out);
  size_t rank = oe.size(), run = outerRunOf(out);
  if (ue.size() > rank)
    return false;
  size_t lead = rank - ue.size();
  bool broadcast = true, same = lead == 0;
  for (size_t i = 0; i < ue.size(); ++i) {
    size_t j = lead + i;
    if (j >= run) {
      // The static dimensions broadcast as they do in a static kernel.
      if (isSymbolic(t) && outerRunOf(t) > i)
        return false;
      continue;
    }
    broadcast &= isUnitExtent(ue[i]);
    same &= ue[i] == oe[j];
  }
  return broadcast || same;
}

/// Whether `u` is static (weights, a bias, a broadcast constant) or holds
/// its symbolic extents in the same leading dimensions as `ref`, with the
/// same extents: the run lines up from the left, whatever the ranks.
bool sharesLeadingRun(Type u, RankedTensorType ref) {
  auto t = dyn_cast<RankedTensorType>(u);
  if (!t || !isSymbolic(t))
    return true;
  unsigned run = outerRunOf(ref);
  if (outerRunOf(t) != run)
    return false;
  SmallVector<AffineExpr> te = extentsOf(t), re = extentsOf(ref);
  for (unsigned d = 0; d < run; ++d)
    if (te[d] != re[d])
      return false;
  return true;
}

/// Whether `values` has `value` at each of its first `run` positions.
bool leadingAre(ArrayRef<int64_t> values, unsigned run, int64_t value) {
  return values.size() >= run &&
         llvm::all_of(values.take_front(run),
                      [&](int64_t v) { return v == value; });
}

/// A data-movement, convolution, pooling, batch-norm or reduction op that
/// works on the dimensions after its outer run and carries the run through
/// unchanged, as the leading dimensions of each of its tensors: the type
/// they all share that run with (sharesLeadingRun); null otherwise. A
/// kernel of such ops maps an element at run index n to elements at run
/// index n, at the offsets of the largest shape.
RankedTensorType structuralTypeOf(Operation *op) {
  auto typeOf = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  return llvm::TypeSwitch<Operation *, RankedTensorType>(op)
      .Case([&](TransposeOp t) -> RankedTensorType {
        unsigned run = outerRunOf(t.getType());
        for (unsigned d = 0; d < run; ++d)
          if (t.getPerm()[d] != int64_t(d))
            return {};
        return t.getType();
      })
      .Case([&](PadOp p) -> RankedTensorType {
        unsigned run = outerRunOf(p.getType());
        if (!leadingAre(p.getLow(), run, 0) || !leadingAre(p.getHigh(), run, 0))
          return {};
        return p.getType();
      })
      .Case([&](SliceOp s) -> RankedTensorType {
        unsigned run = outerRunOf(typeOf(s.getInput()));
        if (!leadingAre(s.getStarts(), run, 0) ||
            !leadingAre(s.getSteps(), run, 1))
          return {};
        return s.getType();
      })
      .Case([&](ConcatOp c) -> RankedTensorType {
        if (c.getAxis() < int64_t(outerRunOf(c.getType())))
          return {};
        return c.getType();
      })
      .Case([&](ReshapeOp r) { return r.getType(); })
      // A lookup along the first axis of a static table (an embedding) or
      // of one symbolic in that axis only (a mask flattened to [batch *
      // seq, 1]: its strides are the same at every shape, and the kernel
      // bounds the indices by its actual extent) by indices that hold the
      // run: the run leads the result too.
      .Case([&](GatherOp g) -> RankedTensorType {
        if (g.getAxis() != 0 || outerRunOf(typeOf(g.getInput())) > 1)
          return {};
        return g.getType();
      })
      // A lookup by index tuples (no batch dimensions) in a table whose
      // only symbolic extent is its first (the tuples index it, its
      // strides are the same at every shape; the kernel bounds the tuples
      // by the actual extent): the indices' run leads the result.
      .Case([&](GatherNDOp g) -> RankedTensorType {
        if (g.getBatchDims() != 0 || outerRunOf(typeOf(g.getInput())) > 1)
          return {};
        return g.getType();
      })
      // A lookup along an axis after the run (TopK's values, gathered at
      // their indices along a fixed axis), its input, indices and result
      // sharing the run: element n of the run reads the input's element n.
      .Case([&](GatherElementsOp g) -> RankedTensorType {
        RankedTensorType in = typeOf(g.getInput());
        if (!isSymbolic(in) || g.getAxis() < int64_t(outerRunOf(in)) ||
            !sharesLeadingRun(g.getIndices().getType(), g.getType()) ||
            !sharesLeadingRun(in, g.getType()))
          return {};
        return g.getType();
      })
      // Its input broadcasts from the right, as a pointwise operand does.
      .Case([&](ExpandOp e) -> RankedTensorType {
        if (!sharesOuterRun(e.getInput().getType(), e.getType()))
          return {};
        return e.getType();
      })
      .Case([&](ReduceOp r) -> RankedTensorType {
        RankedTensorType in = typeOf(r.getInput());
        if (r.getAxes().empty() ||
            r.getAxes().front() < int64_t(outerRunOf(in)))
          return {};
        return in;
      })
      // Images of a symbolic batch only: the run is N (a resize's scale
      // there is 1, its import's rule).
      .Case<Conv2DOp, MaxPool2DOp, AvgPool2DOp, BatchNormOp, ResizeOp>(
          [&](Operation *o) -> RankedTensorType {
            RankedTensorType in = typeOf(o->getOperand(0));
            if (outerRunOf(in) > 1)
              return {};
            return in;
          })
      .Default([](Operation *) { return RankedTensorType(); });
}

/// A softmax, log-softmax, layer norm or reduction of floats whose
/// normalized (reduced) dimensions all follow its input's outer run; null
/// otherwise.
Operation *symbolicRowOp(Operation *op) {
  std::optional<int64_t> axis = normalizedAxisOf(op);
  if (auto r = dyn_cast<ReduceOp>(op); r && !r.getAxes().empty())
    axis = r.getAxes().front();
  if (!axis)
    return nullptr;
  auto in = cast<RankedTensorType>(op->getOperand(0).getType());
  if (!isa<FloatType>(in.getElementType()) ||
      *axis < static_cast<int64_t>(outerRunOf(in)))
    return nullptr;
  return op;
}

/// A matmul of a symbolic left operand by a static one of no batch
/// dimensions (a Linear layer's weights), whose result's symbolic extents
/// all precede its last two dimensions' columns: the batch dimensions fold
/// into the rows, and the rows are the outer run. Or a batched matmul of
/// two symbolic operands of the result's rank whose outer run (the same in
/// all three) lies in the batch dimensions (attention's products): a
/// kernel of the largest shape's batches, its grid the actual batches'.
/// Null otherwise.
Operation *symbolicProduct(Operation *op) {
  auto mm = dyn_cast<MatmulOp>(op);
  if (!mm)
    return nullptr;
  auto lhs = cast<RankedTensorType>(mm.getLhs().getType());
  auto rhs = cast<RankedTensorType>(mm.getRhs().getType());
  auto out = cast<RankedTensorType>(mm.getType());
  unsigned rank = out.getRank(), run = outerRunOf(out);
  if (isSymbolic(rhs))
    return lhs.getRank() == rank && rhs.getRank() == rank && run + 2 <= rank &&
                   sharesLeadingRun(lhs, out) && sharesLeadingRun(rhs, out)
               ? op
               : nullptr;
  if (rhs.getRank() != 2 || lhs.getRank() < 2 ||
      outerRunOf(lhs) >= static_cast<unsigned>(lhs.getRank()) || run >= rank)
    return nullptr;
  return op;
}

/// The tensor type every tensor of `op`'s kernel shares its outer run with
/// (compilesSymbolically): a row op's input, a pointwise op's or a
/// product's result, a fusion's row op's input or first result; null where
/// `op` is none of those or its body holds another op.
RankedTensorType outerTypeOf(Operation *op) {
  // Attention over a symbolic batch (its verifier checks that the
  // operands share it): one block row of the grid's z per batch entry.
  if (auto att = dyn_cast<AttentionOp>(op))
    return outerRunOf(att.getType()) <= 1 ? att.getType() : RankedTensorType();
  if (symbolicRowOp(op))
    return cast<RankedTensorType>(op->getOperand(0).getType());
  if (isPointwise(op) || symbolicProduct(op))
    return cast<RankedTensorType>(op->getResult(0).getType());
  if (RankedTensorType t = structuralTypeOf(op))
    return t;
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion || fusion.getNumResults() == 0)
    return {};
  KernelFamily kind = fusion.getKind();
  // Kernels of structural ops (and their pointwise prologues and
  // epilogues) share the run of their first result; compilesSymbolically
  // checks each op against its own type.
  if (kind == KernelFamily::movement || kind == KernelFamily::conv ||
      kind == KernelFamily::pool || kind == KernelFamily::reduce)
    return cast<RankedTensorType>(fusion.getResult(0).getType());
  if (kind == KernelFamily::attention) {
    // The attention op and the views and pointwise ops around it.
    AttentionOp att;
    for (Operation &inner : fusion.getBody().front()) {
      if (auto a = dyn_cast<AttentionOp>(inner))
        att = a;
      else if (!isa<YieldOp, ConstantOp>(inner) && !isPointwise(&inner) &&
               !structuralTypeOf(&inner))
        return {};
    }
    return att ? outerTypeOf(att) : RankedTensorType();
  }
  if (kind != KernelFamily::pointwise && kind != KernelFamily::row &&
      kind != KernelFamily::matmul)
    return {};
  Operation *rowOp = nullptr, *product = nullptr;
  for (Operation &inner : fusion.getBody().front()) {
    if (isa<YieldOp, ConstantOp, SymbolicConstantOp>(inner) ||
        isPointwise(&inner) || isPartialBroadcastExpand(&inner))
      continue;
    // A pointwise kernel reads through data movement, a product through
    // the views of its operands (a flatten before a classifier).
    if ((kind == KernelFamily::pointwise || kind == KernelFamily::matmul) &&
        structuralTypeOf(&inner))
      continue;
    if (kind == KernelFamily::matmul && !product && symbolicProduct(&inner)) {
      product = &inner;
      continue;
    }
    if (kind != KernelFamily::row || rowOp || !symbolicRowOp(&inner))
      return {};
    rowOp = &inner;
  }
  if ((kind == KernelFamily::row && !rowOp) ||
      (kind == KernelFamily::matmul && !product))
    return {};
  if (rowOp)
    return cast<RankedTensorType>(rowOp->getOperand(0).getType());
  return cast<RankedTensorType>(product ? product->getResult(0).getType()
                                        : fusion.getResult(0).getType());
}

/// Whether `op` is a view (transpose, reshape, slice) that only attention
/// reads, directly or through other such views, or the transpose of an
/// attention's result (its heads merged back, which the attention kernel
/// stores through): brrr-fuse-matmul takes it into the attention's kernel,
/// which reads and writes through it with strides computed from the
/// actual extents.
bool isAttentionView(Operation *op) {
  // Through float casts, which move to the other side of views (a product's
  // f16 result read as f32 and rounded back), and a quantize for an 8-bit
  // product that reads it. Or through a kernel of casts and quantizes
  // alone, which brrr-fuse-matmul takes into the attention's as its
  // epilogue.
  auto readsAttention = [](Value v) {
    while (true) {
      if (isa_and_nonnull<CastOp, QuantizeOp>(v.getDefiningOp())) {
        v = v.getDefiningOp()->getOperand(0);
        continue;
      }
      auto f = v.getDefiningOp<FusionOp>();
      if (!f || f.getKind() != KernelFamily::pointwise ||
          f.getInputs().size() != 1 ||
          !llvm::all_of(f.getBody().front(), [](Operation &o) {
            return isa<CastOp, QuantizeOp, ConstantOp, YieldOp>(o);
          }))
        break;
      v = f.getInputs().front();
    }
    return bool(v.getDefiningOp<AttentionOp>());
  };
  if (auto t = dyn_cast<TransposeOp>(op); t && readsAttention(t.getInput()))
    return true;
  if (!isa<TransposeOp, ReshapeOp, SliceOp, CastOp>(op) || op->use_empty() ||
      movesAtActualExtents(op))
    return false;
  return llvm::all_of(op->getUsers(), [](Operation *u) {
    return isa<AttentionOp>(u) || isAttentionView(u);
  });
}

/// Attention whose sequences are symbolic (its verifier admits symbolic
/// batch and sequences, and fixes heads and head sizes): the kernel reads
/// the actual sequence lengths and the strides that depend on them at run
/// time. A bias must broadcast to the scores from the right.
bool isSymbolicSequenceAttention(AttentionOp att) {
  auto bias = att.getBias() ? cast<RankedTensorType>(att.getBias().getType())
                            : RankedTensorType();
  return !bias || bias.getRank() <= 4;
}

/// An attention kernel over symbolic sequences: the attention, the views
/// it reads its operands through, and after it float casts, a quantize
/// (for an 8-bit product that reads it) and at most the transpose that
/// merges its heads back.
bool isSymbolicSequenceAttentionKernel(FusionOp fusion) {
  AttentionOp att;
  for (Operation &inner : fusion.getBody().front()) {
    if (auto a = dyn_cast<AttentionOp>(inner)) {
      if (att || !isSymbolicSequenceAttention(a))
        return false;
      att = a;
    } else if (!isa<YieldOp, ConstantOp, TransposeOp, ReshapeOp, SliceOp,
                    CastOp, QuantizeOp>(inner)) {
      return false;
    }
  }
  return bool(att);
}

/// What passes before brrr-fuse-attention admit besides what compiles: the
/// ops of an attention over symbolic sequences, before they become one
/// brrr.attention (rank-4 batched products of two symbolic operands, the
/// softmax over their last axis, the pointwise ops that scale and mask the
/// scores, and the views of queries, keys and values). Whatever does not
/// fuse is refused by the passes after it.
bool mayBecomeAttention(Operation *op) {
  auto rank4 = [](Type t) {
    auto r = dyn_cast<RankedTensorType>(t);
    return r && r.getRank() == 4;
  };
  if (isa<TransposeOp, ReshapeOp>(op))
    return true;
  if (auto mm = dyn_cast<MatmulOp>(op))
    return rank4(mm.getType()) && isSymbolic(mm.getLhs().getType()) &&
           isSymbolic(mm.getRhs().getType());
  if (auto sm = dyn_cast<SoftmaxOp>(op))
    return rank4(sm.getType()) && sm.getAxis() == 3;
  return isPointwise(op) && llvm::all_of(op->getResultTypes(), rank4);
}

/// Whether `op` (an op or a kernel) keeps the symbolic extents of its
/// tensors in one outer run, which it carries through unchanged or,
/// pointwise, broadcasts across (the end of compilesSymbolically).
bool carriesOuterRuns(Operation *op);

/// Whether `fusion` is a pointwise kernel that reads what broadcasts along
/// part of its symbolic extents at its own elements
/// (readsRunTimeBroadcastsAtOwnElements).
bool broadcastsAtOwnElements(FusionOp fusion) {
  if (fusion.getKind() != KernelFamily::pointwise)
    return false;
  Block &body = fusion.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  return readsRunTimeBroadcastsAtOwnElements(
      ops, body.getTerminator()->getOperands(),
      cast<RankedTensorType>(fusion.getResult(0).getType()));
}

} // namespace

bool mlir::brrr::readsRunTimeBroadcastsAtOwnElements(ArrayRef<Operation *> ops,
                                                     ValueRange yielded,
                                                     RankedTensorType out) {
  llvm::SmallPtrSet<Operation *, 16> members(ops.begin(), ops.end());
  auto moves = [](Operation *op) {
    return !isPointwise(op) && !isa<ConstantOp, SymbolicConstantOp>(op) &&
           !isPartialBroadcastExpand(op);
  };
  if (llvm::none_of(ops, moves))
    return true;
  // An expand along part of the extents reads its input at the kernel's own
  // elements only in a kernel without data movement.
  if (llvm::any_of(ops, isPartialBroadcastExpand))
    return false;
  // The values computed at the kernel's own elements: what it yields and,
  // through pointwise ops, their operands. A movement result read there is
  // read at the largest shape's coordinates, which hold at every shape only
  // where it keeps the kernel's outer run.
  llvm::SetVector<Value> owned(yielded.begin(), yielded.end());
  for (size_t i = 0; i < owned.size(); ++i) {
    Operation *def = owned[i].getDefiningOp();
    if (!def || !members.contains(def))
      continue;
    if (moves(def)) {
      if (broadcastsAtRunTime(owned[i].getType(), out))
        return false;
    } else {
      owned.insert(def->operand_begin(), def->operand_end());
    }
  }
  // The values read at the coordinates data movement maps elements to:
  // nothing there may broadcast along part of the extents, which only an
  // argument read at the kernel's own elements is indexed for.
  llvm::SetVector<Value> moved;
  for (Operation *op : ops)
    if (moves(op))
      moved.insert(op->operand_begin(), op->operand_end());
  for (size_t i = 0; i < moved.size(); ++i) {
    Operation *def = moved[i].getDefiningOp();
    if (!def || !members.contains(def))
      continue;
    if (broadcastsAtRunTime(def))
      return false;
    moved.insert(def->operand_begin(), def->operand_end());
  }
  return true;
}

bool mlir::brrr::isPartialBroadcastExpand(Operation *op) {
  return isa<ExpandOp>(op) && broadcastsAtRunTime(op);
}

bool mlir::brrr::broadcastsAtRunTime(Type operand, RankedTensorType out) {
  return !sharesOuterRun(operand, out);
}

bool mlir::brrr::broadcastsAtRunTime(Operation *op) {
  if (auto fusion = dyn_cast<FusionOp>(op))
    return llvm::any_of(fusion.getBody().front(), [](Operation &inner) {
      return broadcastsAtRunTime(&inner);
    });
  // An expand is the identity broadcast (a pointwise kernel reads its
  // input at its own elements).
  if ((!isPointwise(op) && !isa<ExpandOp>(op)) || op->getNumResults() != 1)
    return false;
  auto out = cast<RankedTensorType>(op->getResult(0).getType());
  return llvm::any_of(op->getOperandTypes(),
                      [&](Type t) { return !sharesOuterRun(t, out); });
}

bool mlir::brrr::isPrefixSlice(Operation *op) {
  auto s = dyn_cast<SliceOp>(op);
  if (!s || llvm::any_of(s.getStarts(), [](int64_t v) { return v != 0; }) ||
      llvm::any_of(s.getSteps(), [](int64_t v) { return v != 1; }))
    return false;
  SmallVector<AffineExpr> in = extentsOf(s.getInput().getType()),
                          out = extentsOf(s.getType());
  std::optional<size_t> shortened;
  for (size_t d = 0; d < in.size(); ++d) {
    if (in[d] == out[d])
      continue;
    if (shortened)
      return false;
    shortened = d;
  }
  auto one = [](AffineExpr e) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    return c && c.getValue() == 1;
  };
  return !shortened || llvm::all_of(ArrayRef(out).take_front(*shortened), one);
}

bool mlir::brrr::isView(Operation *op) {
  return isa<ReshapeOp>(op) ||
         (isPrefixSlice(op) && !op->getParentOfType<FusionOp>());
}

Value mlir::brrr::viewedRootOf(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isView(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

bool mlir::brrr::movesAtActualExtents(Operation *op) {
  if (auto g = dyn_cast<GatherOp>(op))
    return isSymbolic(g.getInput().getType()) &&
           !isSymbolic(g.getIndices().getType()) && !structuralTypeOf(op);
  // A lookup along an axis whose tensors' symbolic extents do not share
  // one outer run (DeBERTa's relative scores [batch, heads, seq, seq]
  // gathered from [batch, heads, seq, 2 * span] along the last axis).
  if (isa<GatherElementsOp>(op))
    return isSymbolic(op->getResult(0).getType()) && !carriesOuterRuns(op);
  // A slice that changes a symbolic extent of its input's outer run
  // (`x[:, 1:]`, `x[:, :-1]`), or starts inside it.
  auto s = dyn_cast<SliceOp>(op);
  return s && isSymbolic(s.getInput().getType()) &&
         !(structuralTypeOf(op) &&
           sharesLeadingRun(s.getInput().getType(), s.getType()));
}

bool mlir::brrr::compilesSymbolically(Operation *op) {
  if (isa<func::FuncOp, func::ReturnOp, YieldOp>(op))
    return true;
  // A pointwise op whose operand broadcasts along part of its symbolic
  // extents ([1, seq, 768] added to [batch, seq, 768]: position
  // embeddings): the pointwise kernel computes that operand's index from
  // the actual extents, where no data movement reads at the largest
  // shape's coordinates. Other kernels do not take it in.
  if (broadcastsAtRunTime(op) && !isa<FusionOp>(op)) {
    auto parent = dyn_cast_or_null<FusionOp>(op->getParentOp());
    return !parent || broadcastsAtOwnElements(parent);
  }
  // Attention over symbolic sequences, and what it reads and writes
  // through before brrr-fuse-matmul makes them one kernel.
  if (auto parent = dyn_cast_or_null<FusionOp>(op->getParentOp());
      parent && parent.getKind() == KernelFamily::attention)
    if (AttentionOp att = attentionOf(parent);
        att && outerRunOf(att.getType()) > 1)
      return isSymbolicSequenceAttentionKernel(parent);
  if (auto att = dyn_cast<AttentionOp>(op);
      att && outerRunOf(att.getType()) > 1)
    return isSymbolicSequenceAttention(att);
  // A lookup, slice, transpose or concatenation whose strides change with
  // the shape (a transpose that moves symbolic extents out of its outer
  // run, a concatenation along a symbolic axis): alone, or as the one op of
  // its own movement kernel.
  if (movesAtActualExtents(op) || transposesAtActualExtents(op) ||
      concatsAtActualExtents(op)) {
    auto parent = dyn_cast_or_null<FusionOp>(op->getParentOp());
    return !parent || (parent.getKind() == KernelFamily::movement &&
                       llvm::hasSingleElement(
                           parent.getBody().front().without_terminator()));
  }
  if (auto fusion = dyn_cast<FusionOp>(op);
      fusion && fusion.getKind() == KernelFamily::attention)
    if (AttentionOp att = attentionOf(fusion);
        att && outerRunOf(att.getType()) > 1)
      return isSymbolicSequenceAttentionKernel(fusion);
  // A reduction of symbolic rows (SplitRows' [outer][rows][inner], the
  // inner extents fixed: a mean over a sequence): the split-rows kernel
  // walks the actual rows. Alone, or in its own reduce kernel, whose
  // pointwise epilogue runs over the outputs' run.
  if (reducesSymbolicRows(op)) {
    auto parent = dyn_cast_or_null<FusionOp>(op->getParentOp());
    return !parent || parent.getKind() == KernelFamily::reduce;
  }
  if (auto fusion = dyn_cast<FusionOp>(op);
      fusion && fusion.getKind() == KernelFamily::reduce &&
      reducesSymbolicRows(&fusion.getBody().front().front())) {
    RankedTensorType out =
        cast<RankedTensorType>(fusion.getResult(0).getType());
    return llvm::all_of(
        llvm::drop_begin(fusion.getBody().front().without_terminator()),
        [&](Operation &inner) {
          return isa<ConstantOp>(inner) ||
                 (compilesSymbolically(&inner) &&
                  llvm::all_of(inner.getResultTypes(),
                               [&](Type t) { return sharesOuterRun(t, out); }));
        });
  }
  return carriesOuterRuns(op);
}

bool mlir::brrr::reducesSymbolicRows(Operation *op) {
  auto red = dyn_cast<ReduceOp>(op);
  if (!red || !isSymbolic(red.getInput().getType()) ||
      !SplitRows::shapeOf(red, /*toInnermost=*/true) ||
      cast<RankedTensorType>(red.getInput().getType())
          .getElementType()
          .isInteger(1))
    return false;
  SmallVector<AffineExpr> extents =
      extentsOf(cast<RankedTensorType>(red.getInput().getType()));
  ArrayRef<int64_t> axes = red.getAxes();
  int64_t last = *llvm::max_element(axes);
  auto fixed = [&](int64_t d) { return isa<AffineConstantExpr>(extents[d]); };
  for (int64_t d = last + 1; d < int64_t(extents.size()); ++d)
    if (!fixed(d))
      return false;
  return llvm::any_of(axes, [&](int64_t d) { return !fixed(d); });
}

bool mlir::brrr::softmaxOverSymbolicRows(Operation *op) {
  if (!isa<SoftmaxOp, LogSoftmaxOp>(op) || op->getParentOfType<FusionOp>() ||
      mayBecomeAttention(op))
    return false;
  auto in = cast<RankedTensorType>(op->getOperand(0).getType());
  std::optional<int64_t> axis = normalizedAxisOf(op);
  if (!axis || !isa<FloatType>(in.getElementType()) || !in.isDynamicDim(*axis))
    return false;
  for (int64_t d = *axis + 1; d < in.getRank(); ++d)
    if (in.isDynamicDim(d))
      return false;
  return true;
}

bool mlir::brrr::concatsAtActualExtents(Operation *op) {
  auto c = dyn_cast<ConcatOp>(op);
  return c && isSymbolic(c.getType()) &&
         c.getAxis() < int64_t(outerRunOf(c.getType())) &&
         llvm::all_of(c.getInputs().getTypes(), [&](Type t) {
           return cast<RankedTensorType>(t).getRank() == c.getType().getRank();
         });
}

bool mlir::brrr::transposesAtActualExtents(Operation *op) {
  return isa<TransposeOp>(op) && isSymbolic(op->getOperand(0).getType()) &&
         !carriesOuterRuns(op);
}

namespace {
bool carriesOuterRuns(Operation *op) {
  RankedTensorType out = outerTypeOf(op);
  if (!out)
    return false;
  // Pointwise ops broadcast from the right; structural ops, and the
  // kernels that hold them (a row kernel's reduction, a product's views
  // too), carry the run from the left.
  auto fusion = dyn_cast<FusionOp>(op);
  bool structural = structuralTypeOf(op) || fusion;
  auto shares = [&](Type t) {
    return sharesOuterRun(t, out) || (structural && sharesLeadingRun(t, out));
  };
  // A reshape keeps every element's linear index, whatever its run becomes
  // ([batch, 4, 77, 32] as [batch * 4, 77, 32]); so does a kernel of one
  // element a thread, reading through ops that each carry their own run
  // (checked one by one below).
  bool elementKernel = fusion && (fusion.getKind() == KernelFamily::pointwise ||
                                  fusion.getKind() == KernelFamily::movement);
  bool anyRun = isa<ReshapeOp>(op) || elementKernel;
  // A product or attention reads its operands through views, each of
  // which carries its own run (checked one by one below), and so do their
  // operands ([batch * 4, 32, 77] read as [batch, 4, 32, 77]): their
  // strides are the same at every shape in range. Other kernels read an
  // input that only reshapes read as the reshapes' results.
  bool throughViews = fusion && (fusion.getKind() == KernelFamily::matmul ||
                                 fusion.getKind() == KernelFamily::attention);
  auto readAsIs = [&](unsigned i) {
    return !fusion ||
           (!throughViews &&
            llvm::any_of(fusion.getBody().getArgument(i).getUsers(),
                         [](Operation *u) { return !isa<ReshapeOp>(u); }));
  };
  // A lookup's table is read anywhere, within its actual extent.
  bool lookup = isa<GatherOp, GatherNDOp>(op);
  if (!anyRun)
    for (auto [i, t] : llvm::enumerate(op->getOperandTypes()))
      if (readAsIs(i) && !(lookup && i == 0) && !shares(t))
        return false;
  if (!anyRun && !llvm::all_of(op->getResultTypes(), shares))
    return false;
  // A fusion's body is checked op by op, each against its own kernel type,
  // and every value against the fusion's but a view's (a reshape, or any
  // structural op a product or attention reads through): its readers check
  // their operands against their own runs.
  if (fusion)
    for (Operation &inner : fusion.getBody().front()) {
      if (isa<YieldOp, ConstantOp, SymbolicConstantOp>(inner))
        continue;
      bool view =
          isa<ReshapeOp>(inner) || (throughViews && structuralTypeOf(&inner));
      if (!compilesSymbolically(&inner) ||
          (!anyRun && !view && !llvm::all_of(inner.getResultTypes(), shares)))
        return false;
    }
  return true;
}
} // namespace

LogicalResult mlir::brrr::requireSupportedShapes(Operation *root,
                                                 StringRef pass,
                                                 PendingAttention pending) {
  if (pending == PendingAttention::none)
    return requireStaticShapes(root, pass, compilesSymbolically);
  return requireStaticShapes(root, pass, [pending](Operation *op) {
    if (compilesSymbolically(op))
      return true;
    if (op->getParentOfType<FusionOp>())
      return false;
    return pending == PendingAttention::ops
               ? mayBecomeAttention(op) || softmaxOverSymbolicRows(op)
               : isAttentionView(op);
  });
}

SmallVector<int64_t> mlir::brrr::largestShapeOf(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (!isSymbolic(type))
    return SmallVector<int64_t>(type.getShape());
  Operation *at = v.getDefiningOp();
  if (!at)
    at = cast<BlockArgument>(v).getOwner()->getParentOp();
  std::optional<SmallVector<int64_t>> shape = largestShape(type, dimsOf(at));
  // The verifier checked that every extent has a largest value.
  return shape ? *shape : SmallVector<int64_t>(type.getRank(), 0);
}

int64_t mlir::brrr::bufferBytes(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return bufferBytes(
      RankedTensorType::get(largestShapeOf(v), type.getElementType()));
}

int64_t mlir::brrr::elementCountDivisor(RankedTensorType t) {
  if (!isSymbolic(t))
    return t.getNumElements();
  int64_t n = 1;
  for (AffineExpr e : extentsOf(t)) {
    std::optional<ExtentProduct> p = productOf(e);
    int64_t factor = p ? p->coefficient : 1;
    // Only the divisibility matters: on overflow, fall back to 1.
    if (__builtin_mul_overflow(n, factor, &n))
      return 1;
  }
  return n;
}

mlir::brrr::LargestShapeView::LargestShapeView(FusionOp fusion) {
  SmallVector<DimAttr> dims = dimsOf(fusion);
  auto narrow = [&](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !isSymbolic(t))
      return;
    // compilesSymbolically admitted the fusion, so its ranges evaluate.
    RankedTensorType largest = largestTypeOf(t, dims);
    if (!largest)
      return;
    saved.emplace_back(v, t);
    v.setType(largest);
  };
  for (Value r : fusion.getResults())
    narrow(r);
  fusion.getBody().walk([&](Block *block) {
    for (BlockArgument a : block->getArguments())
      narrow(a);
    for (Operation &op : *block)
      for (Value r : op.getResults())
        narrow(r);
  });
}

mlir::brrr::LargestShapeView::~LargestShapeView() {
  for (auto &[v, t] : saved)
    v.setType(t);
}

AffineExpr mlir::brrr::elementCountOf(RankedTensorType t) {
  AffineExpr count = getAffineConstantExpr(1, t.getContext());
  for (AffineExpr e : extentsOf(t))
    count = count * e;
  return count;
}
