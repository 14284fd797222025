//===- BrrrCanonicalizeLookups.cpp - lookups and masks, canonicalized -----===//
//
// The canonicalization patterns of lookups and of the masks exporters
// build: a Gather of one constant index as a slice; lookups in a splat
// table, by an expanded index, by consecutive positions (a slice of the
// table), by ranges that cover a table in order (a view of it); compares
// with one outcome, selects on a condition of one value, ands with true;
// and the expands that a select or a sum can broadcast themselves, so a
// padding mask stays [batch, 1, 1, seq]. Most of them exist for
// transformers over a symbolic sequence, where the folders cannot compute
// these tensors.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// gather(x, i) with one constant index i in range along the axis ->
/// reshape(slice(x)): torchvision's MultiheadAttention picks its query,
/// key and value from [3, s, b, e] with Gather, and a slice is a view the
/// kernels reading it take in place, where a gather is a copy.
struct GatherOfOneIndex : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto in = cast<RankedTensorType>(op.getInput().getType());
    std::optional<SmallVector<int64_t>> index = getConstInts(op.getIndices());
    int64_t axis = op.getAxis();
    if (!index || index->size() != 1 || !in.hasStaticShape() ||
        !op.getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not one constant index");
    int64_t dim = in.getDimSize(axis), k = index->front();
    if (k < -dim || k >= dim)
      return rewriter.notifyMatchFailure(op, "index out of range");
    if (k < 0)
      k += dim;
    SmallVector<int64_t> starts(in.getRank(), 0), steps(in.getRank(), 1);
    SmallVector<int64_t> sizes(in.getShape());
    starts[axis] = k;
    sizes[axis] = 1;
    Value slice = SliceOp::create(rewriter, op.getLoc(), in.clone(sizes),
                                  op.getInput(), starts, sizes, steps);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), slice);
    return success();
  }
};

/// The constant whose elements `v` picks, repeats or reorders (through
/// slices, reshapes, expands and transposes): every element of `v` is one
/// of its elements. Null otherwise.
DenseElementsAttr selectedConstant(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<SliceOp, ReshapeOp, ExpandOp, TransposeOp>(op))
      break;
    v = op->getOperand(0);
  }
  DenseElementsAttr a;
  if (!matchPattern(v, m_Constant(&a)))
    return {};
  return a;
}

/// `type` filled with `value`: a splat constant where the type is static,
/// else a splat of ones in every dimension expanded to it.
Value splatOf(PatternRewriter &rewriter, Location loc, RankedTensorType type,
              Attribute value) {
  if (!isSymbolic(type))
    return ConstantOp::create(rewriter, loc,
                              DenseElementsAttr::get(type, value));
  auto ones = RankedTensorType::get(SmallVector<int64_t>(type.getRank(), 1),
                                    type.getElementType());
  Value c =
      ConstantOp::create(rewriter, loc, DenseElementsAttr::get(ones, value));
  return ExpandOp::create(rewriter, loc, type, c);
}

/// The one value of `v` when it is a splat constant, or one expanded.
std::optional<Attribute> splatValueOf(Value v) {
  if (auto e = v.getDefiningOp<ExpandOp>())
    v = e.getInput();
  DenseElementsAttr a;
  if (!matchPattern(v, m_Constant(&a)) || !a.isSplat())
    return std::nullopt;
  return a.getSplatValue<Attribute>();
}

/// Whether every index of `indices` (an integer tensor) lies in [-dim,
/// dim): it picks from a constant whose every element does.
bool indicesWithin(Value indices, int64_t dim) {
  DenseElementsAttr c = selectedConstant(indices);
  if (!c || !isa<IntegerType>(c.getElementType()))
    return false;
  return llvm::all_of(c.getValues<APInt>(), [&](const APInt &v) {
    int64_t x = v.getSExtValue();
    return x >= -dim && x < dim;
  });
}

/// compare(x, c) whose outcome is the same for every element x may take (x
/// picks from a constant, c a splat): that outcome, filled. Exporters
/// write `arange(seq) >= 0` for a mask that keeps every position; over a
/// symbolic sequence it is a slice of a constant range.
struct UniformCompare : OpRewritePattern<CompareOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CompareOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr lhs = selectedConstant(op.getLhs());
    DenseElementsAttr rhs = selectedConstant(op.getRhs());
    if (!lhs || !rhs || !isa<IntegerType>(lhs.getElementType()) ||
        (!lhs.isSplat() && !rhs.isSplat()) ||
        (lhs.isSplat() && rhs.isSplat() && !isSymbolic(op.getType())))
      return rewriter.notifyMatchFailure(op, "not a compare with a splat");
    bool isUnsigned = lhs.getElementType().isUnsignedInteger();
    auto value = [&](const APInt &v) {
      return isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue();
    };
    std::optional<bool> outcome;
    for (const APInt &l : lhs.getValues<APInt>())
      for (const APInt &r : rhs.getValues<APInt>()) {
        bool holds =
            comparePredicateHolds(op.getPredicate(), value(l), value(r));
        if (outcome && *outcome != holds)
          return rewriter.notifyMatchFailure(op, "not one outcome");
        outcome = holds;
      }
    if (!outcome)
      return rewriter.notifyMatchFailure(op, "no elements");
    rewriter.replaceOp(op, splatOf(rewriter, op.getLoc(), op.getType(),
                                   rewriter.getBoolAttr(*outcome)));
    return success();
  }
};

/// where(c, x, y) with c one value (filled): x or y, broadcast to the
/// result.
struct WhereOfUniform : OpRewritePattern<WhereOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WhereOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Attribute> c = splatValueOf(op.getCondition());
    if (!c)
      return rewriter.notifyMatchFailure(op, "condition varies");
    Value picked = cast<IntegerAttr>(*c).getValue().getBoolValue()
                       ? op.getLhs()
                       : op.getRhs();
    if (picked.getType() == op.getType()) {
      rewriter.replaceOp(op, picked);
      return success();
    }
    rewriter.replaceOpWithNewOp<ExpandOp>(op, op.getType(), picked);
    return success();
  }
};

/// A lookup in a splat table by indices that are all in range: the splat,
/// filled (transformers' token type ids, a buffer of zeros).
template <typename GatherLike>
struct GatherOfSplat : OpRewritePattern<GatherLike> {
  using OpRewritePattern<GatherLike>::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherLike op,
                                PatternRewriter &rewriter) const override {
    std::optional<Attribute> value = splatValueOf(op.getInput());
    auto in = cast<RankedTensorType>(op.getInput().getType());
    int64_t axis = op.getAxis();
    if (!value || axis < 0 || axis >= in.getRank() || in.isDynamicDim(axis) ||
        !indicesWithin(op.getIndices(), in.getDimSize(axis)))
      return rewriter.notifyMatchFailure(op, "not a splat table");
    if (!isSymbolic(op.getType()) && op.getType().hasStaticShape() &&
        matchPattern(op.getIndices(), m_Constant()))
      return rewriter.notifyMatchFailure(op, "the folder's");
    rewriter.replaceOp(op,
                       splatOf(rewriter, op.getLoc(), op.getType(), *value));
    return success();
  }
};

/// expand(expand(x)) -> expand(x): broadcasting twice is broadcasting
/// once to the final shape.
struct ComposeExpands : OpRewritePattern<ExpandOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExpandOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<ExpandOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "not an expand of an expand");
    rewriter.replaceOpWithNewOp<ExpandOp>(op, op.getType(), inner.getInput());
    return success();
  }
};

/// gather(T, expand(i)) along T's first axis -> expand(gather(T, i)): the
/// lookup of the few indices, broadcast (a token type id of 0 for every
/// position).
struct GatherOfExpanded : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto expand = op.getIndices().getDefiningOp<ExpandOp>();
    auto table = cast<RankedTensorType>(op.getInput().getType());
    if (!expand || op.getAxis() != 0 || isSymbolic(table))
      return rewriter.notifyMatchFailure(op, "not a lookup of an expand");
    auto small = cast<RankedTensorType>(expand.getInput().getType());
    auto big = cast<RankedTensorType>(expand.getType());
    if (small.getRank() != big.getRank() || isSymbolic(small))
      return rewriter.notifyMatchFailure(op, "the expand adds dimensions");
    SmallVector<int64_t> shape(small.getShape());
    llvm::append_range(shape, table.getShape().drop_front());
    auto type = RankedTensorType::get(shape, table.getElementType());
    Value few = GatherOp::create(rewriter, op.getLoc(), type, op.getInput(),
                                 expand.getInput(), op.getAxisAttr());
    rewriter.replaceOpWithNewOp<ExpandOp>(op, op.getType(), few);
    return success();
  }
};

/// x and y with y true everywhere (a splat, or one filled): x, broadcast to
/// the result.
struct AndOfTrue : OpRewritePattern<AndOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AndOp op,
                                PatternRewriter &rewriter) const override {
    for (int side = 0; side < 2; ++side) {
      std::optional<Attribute> c = splatValueOf(op->getOperand(side));
      if (!c || !cast<IntegerAttr>(*c).getValue().getBoolValue())
        continue;
      Value x = op->getOperand(1 - side);
      if (x.getType() == op.getType())
        rewriter.replaceOp(op, x);
      else
        rewriter.replaceOpWithNewOp<ExpandOp>(op, op.getType(), x);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no operand true everywhere");
  }
};

/// The numpy broadcast of `types`' extents as a tensor type of `element`,
/// or null where they do not broadcast.
RankedTensorType broadcastTypeOf(ArrayRef<Type> types, Type element,
                                 MLIRContext *ctx) {
  SmallVector<AffineExpr> extents;
  for (Type t : types) {
    FailureOr<SmallVector<AffineExpr>> b =
        broadcastExtents(extents, extentsOf(cast<RankedTensorType>(t)));
    if (failed(b))
      return {};
    extents = *b;
  }
  return tensorTypeOf(ctx, extents, element);
}

/// where(expand(c), x, y) -> expand(where(c, x, y)) where x and y broadcast
/// to c's smaller shape: the select runs over the mask's own elements
/// (transformers' padding mask [batch, 1, 1, seq] expanded over the
/// queries), and the expand can meet the op that broadcasts it anyway.
struct WhereBeforeExpand : OpRewritePattern<WhereOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WhereOp op,
                                PatternRewriter &rewriter) const override {
    auto expand = op.getCondition().getDefiningOp<ExpandOp>();
    if (!expand)
      return rewriter.notifyMatchFailure(op, "condition not expanded");
    RankedTensorType small =
        broadcastTypeOf({expand.getInput().getType(), op.getLhs().getType(),
                         op.getRhs().getType()},
                        op.getType().getElementType(), op.getContext());
    if (!small || small == op.getType())
      return rewriter.notifyMatchFailure(op, "nothing smaller");
    Value picked = WhereOp::create(rewriter, op.getLoc(), small,
                                   expand.getInput(), op.getLhs(), op.getRhs());
    rewriter.replaceOpWithNewOp<ExpandOp>(op, op.getType(), picked);
    return success();
  }
};

std::optional<int64_t> rangeDimensionOf(Value v);

/// Whether every dimension of `grid` but those in `used` has extent 1: a
/// grid of ranges that covers each element once.
bool othersAreUnit(ArrayRef<AffineExpr> grid,
                   const llvm::SmallDenseSet<int64_t> &used) {
  for (auto [g, e] : llvm::enumerate(grid))
    if (!used.contains(g) && !isUnitExtent(e))
      return false;
  return true;
}

/// The one value of `v` as an extent: a one-element integer constant, or a
/// symbolic constant of one extent. Null otherwise.
AffineExpr extentValueOf(Value v, MLIRContext *ctx) {
  if (auto sc = v.getDefiningOp<SymbolicConstantOp>()) {
    AffineMap map = sc.getValue().getMap();
    return map.getNumResults() == 1 ? map.getResult(0) : AffineExpr();
  }
  DenseElementsAttr c;
  if (!matchPattern(v, m_Constant(&c)) || c.getNumElements() != 1 ||
      !isa<IntegerType>(c.getElementType()))
    return {};
  return getAffineConstantExpr((*c.getValues<APInt>().begin()).getSExtValue(),
                               ctx);
}

/// gather(reshape(T), i) along the first axis, where the reshape merges T's
/// leading dimensions d_0 .. d_{k-1} into one and i = sum of range_j *
/// stride_j, each range counting along its own grid dimension g_j (g_0 <
/// g_1 < ...) over T's whole dimension j and stride_j the extent of the
/// merged dimensions after j, the other grid dimensions 1: every element
/// of T in order, so the lookup is a reshape of T. The TorchScript
/// exporter writes transformers' padding mask so: flattened to [batch *
/// seq, 1] and gathered at arange(batch) * seq + arange(seq).
struct GatherOfLinearRanges : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto flat = op.getInput().getDefiningOp<ReshapeOp>();
    if (op.getAxis() != 0 || !flat)
      return rewriter.notifyMatchFailure(op, "not a lookup in a reshape");
    MLIRContext *ctx = op.getContext();
    SmallVector<AffineExpr> te = extentsOf(flat.getInput().getType());
    SmallVector<AffineExpr> fe = extentsOf(flat.getType());
    // The terms of the index: (range, stride).
    SmallVector<std::pair<Value, AffineExpr>> terms;
    std::function<bool(Value)> collect = [&](Value v) -> bool {
      if (auto add = v.getDefiningOp<AddOp>())
        return collect(add.getLhs()) && collect(add.getRhs());
      if (auto mul = v.getDefiningOp<MulOp>()) {
        for (int side = 0; side < 2; ++side)
          if (AffineExpr k = extentValueOf(mul->getOperand(side), ctx)) {
            terms.push_back({mul->getOperand(1 - side), k});
            return true;
          }
        return false;
      }
      terms.push_back({v, getAffineConstantExpr(1, ctx)});
      return true;
    };
    if (!collect(op.getIndices()) || terms.empty() || terms.size() > te.size())
      return rewriter.notifyMatchFailure(op, "not a sum of scaled ranges");
    size_t k = terms.size();
    // The reshape merges T's first k dimensions into its first.
    AffineExpr merged = getAffineConstantExpr(1, ctx);
    for (size_t d = 0; d < k; ++d)
      merged = merged * te[d];
    SmallVector<AffineExpr> rest(te.begin() + k, te.end());
    SmallVector<AffineExpr> flatRest(fe.begin() + 1, fe.end());
    auto product = [](ArrayRef<AffineExpr> es) {
      std::optional<ExtentProduct> p = productOf(es);
      return p ? std::optional<ExtentProduct>(*p) : std::nullopt;
    };
    if (product({fe[0]}) != product({merged}) ||
        product(rest) != product(flatRest))
      return rewriter.notifyMatchFailure(op, "not a merge of leading dims");
    // Order the terms by stride, largest (T's first dimension) first: term
    // j's stride is the product of T's dimensions j+1 .. k-1.
    SmallVector<int64_t> grid;
    auto idx = cast<RankedTensorType>(op.getIndices().getType());
    SmallVector<AffineExpr> ge = extentsOf(idx);
    SmallVector<bool> taken(k, false);
    int64_t previous = -1;
    llvm::SmallDenseSet<int64_t> used;
    for (size_t j = 0; j < k; ++j) {
      AffineExpr stride = getAffineConstantExpr(1, ctx);
      for (size_t d = j + 1; d < k; ++d)
        stride = stride * te[d];
      bool found = false;
      for (size_t t = 0; t < k && !found; ++t) {
        if (taken[t] || product({terms[t].second}) != product({stride}))
          continue;
        std::optional<int64_t> along = rangeDimensionOf(terms[t].first);
        auto rt = cast<RankedTensorType>(terms[t].first.getType());
        if (!along || rt.getRank() != idx.getRank() || *along <= previous ||
            ge[*along] != te[j])
          continue;
        taken[t] = found = true;
        previous = *along;
        used.insert(*along);
      }
      if (!found)
        return rewriter.notifyMatchFailure(op, "not ranges in order");
    }
    if (!othersAreUnit(ge, used))
      return rewriter.notifyMatchFailure(op, "a grid dimension repeats");
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), flat.getInput());
    return success();
  }
};

/// x + expand(y) -> x + y where y broadcasts to the same result: the sum
/// broadcasts y itself (a mask then reaches attention as [batch, 1, 1,
/// seq], not filled to [batch, 1, seq, seq]).
struct AddOfExpand : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    for (int side = 0; side < 2; ++side) {
      auto expand = op->getOperand(side).getDefiningOp<ExpandOp>();
      if (!expand)
        continue;
      Value other = op->getOperand(1 - side);
      RankedTensorType t =
          broadcastTypeOf({other.getType(), expand.getInput().getType()},
                          op.getType().getElementType(), op.getContext());
      if (t != op.getType())
        continue;
      Value lhs = side == 0 ? expand.getInput() : other;
      Value rhs = side == 0 ? other : expand.getInput();
      rewriter.replaceOpWithNewOp<AddOp>(op, op.getType(), lhs, rhs);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no expand the sum makes");
  }
};

/// The grid dimension along which `v` (the indices of one component of a
/// GatherND's tuples, [G..., 1]) counts 0, 1, 2, ... and is constant along
/// every other: `v` is a range (a slice from 0 of a constant 0, 1, 2, ...)
/// reshaped so that only that dimension exceeds 1, then expanded. None
/// otherwise.
std::optional<int64_t> rangeDimensionOf(Value v) {
  // [G..., 1] viewed from the grid [G...].
  if (auto r = v.getDefiningOp<ReshapeOp>()) {
    SmallVector<AffineExpr> in = extentsOf(r.getInput().getType()),
                            out =
                                extentsOf(cast<RankedTensorType>(v.getType()));
    if (out.size() == in.size() + 1 &&
        ArrayRef<AffineExpr>(out).drop_back() == ArrayRef<AffineExpr>(in))
      v = r.getInput();
  }
  auto expand = v.getDefiningOp<ExpandOp>();
  Value x = expand ? expand.getInput() : v;
  if (auto r = x.getDefiningOp<ReshapeOp>())
    x = r.getInput();
  auto pre = expand ? cast<RankedTensorType>(expand.getInput().getType())
                    : cast<RankedTensorType>(v.getType());
  // Before the expand: one dimension above 1 (or none, a range of one).
  std::optional<int64_t> along;
  for (auto [d, e] : llvm::enumerate(extentsOf(pre))) {
    if (isUnitExtent(e))
      continue;
    if (along)
      return std::nullopt;
    along = d;
  }
  Value source = x;
  if (auto slice = x.getDefiningOp<SliceOp>()) {
    if (slice.getStarts().size() != 1 || slice.getStarts()[0] != 0 ||
        slice.getSteps()[0] != 1)
      return std::nullopt;
    source = slice.getInput();
  }
  DenseElementsAttr c;
  if (!along || !matchPattern(source, m_Constant(&c)) ||
      !isa<IntegerType>(c.getElementType()) || c.getType().getRank() != 1)
    return std::nullopt;
  int64_t i = 0;
  for (const APInt &value : c.getValues<APInt>())
    if (value.getSExtValue() != i++)
      return std::nullopt;
  return along;
}

/// gather_nd(T, tuples) whose tuple component k counts along grid
/// dimension g_k (g_0 < g_1 < ...) over T's whole dimension k, the other
/// grid dimensions of extent 1: every element of T's leading dimensions in
/// order, so the lookup is a reshape of T. transformers' masks index a
/// padding mask [batch, seq] so, by `(arange(batch), arange(seq))` over a
/// [batch, 1, 1, seq] grid.
struct GatherNDOfRanges : OpRewritePattern<GatherNDOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherNDOp op,
                                PatternRewriter &rewriter) const override {
    auto concat = op.getIndices().getDefiningOp<ConcatOp>();
    auto idx = cast<RankedTensorType>(op.getIndices().getType());
    auto table = cast<RankedTensorType>(op.getInput().getType());
    int64_t rank = idx.getRank();
    if (op.getBatchDims() != 0 || !concat ||
        int64_t(concat.getAxis()) != rank - 1 ||
        int64_t(concat.getInputs().size()) != idx.getDimSize(rank - 1))
      return rewriter.notifyMatchFailure(op, "not a tuple of parts");
    SmallVector<AffineExpr> grid = extentsOf(idx), te = extentsOf(table);
    grid.pop_back();
    int64_t k = concat.getInputs().size();
    if (k > table.getRank())
      return rewriter.notifyMatchFailure(op, "tuples too long");
    int64_t previous = -1;
    llvm::SmallDenseSet<int64_t> used;
    for (auto [i, part] : llvm::enumerate(concat.getInputs())) {
      std::optional<int64_t> along = rangeDimensionOf(part);
      if (!along || *along <= previous || grid[*along] != te[i])
        return rewriter.notifyMatchFailure(op, "not ranges in order");
      previous = *along;
      used.insert(*along);
    }
    if (!othersAreUnit(grid, used))
      return rewriter.notifyMatchFailure(op, "a grid dimension repeats");
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput());
    return success();
  }
};

/// gather_nd(T, tuples) with batch dimensions over a symbolic T, or where
/// the dimensions of T that the tuples index are symbolic past the first
/// (transformers' classifiers pick each sequence's last token of [batch,
/// seq, d] by (arange(batch), last), in either form):
/// gather(reshape(T, [t_0 * ... * t_{n-1}, rest]), i), i each tuple's
/// row-major index among those n dimensions. Batch dimensions count along
/// the tuples' own axes, and a negative component counts from the end of
/// its dimension. The lookup then reads a table symbolic in its first axis
/// only, bounded by its actual extent, and the index arithmetic (the
/// extents' values among it) is one pointwise kernel.
struct GatherNDOfSymbolicTable : OpRewritePattern<GatherNDOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherNDOp op,
                                PatternRewriter &rewriter) const override {
    auto table = cast<RankedTensorType>(op.getInput().getType());
    auto idx = cast<RankedTensorType>(op.getIndices().getType());
    int64_t batch = op.getBatchDims(), q = idx.getRank();
    int64_t k = idx.getDimSize(q - 1), n = batch + k;
    if (ShapedType::isDynamic(k) || k < 1 || n > table.getRank())
      return rewriter.notifyMatchFailure(op, "not a lookup by tuples");
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    SmallVector<AffineExpr> te = extentsOf(table), ie = extentsOf(idx);
    // A static table, or one symbolic in its first dimension only and
    // looked up by plain tuples, is read as it is.
    if (!isSymbolic(table) ||
        (batch == 0 &&
         llvm::all_of(ArrayRef(te).take_front(n).drop_front(1),
                      [](AffineExpr e) { return isa<AffineConstantExpr>(e); })))
      return rewriter.notifyMatchFailure(op, "a lookup read as it is");
    // Each batch dimension's largest extent, for its positions, checked
    // before anything is built.
    SmallVector<AffineExpr> grid(ie.begin(), ie.end() - 1);
    SmallVector<int64_t> batchRows;
    for (int64_t d = 0; d < batch; ++d) {
      std::optional<std::pair<int64_t, int64_t>> range =
          rangeOf(grid[d], dimsOf(op));
      if (!range || range->second > (int64_t(1) << 24))
        return rewriter.notifyMatchFailure(op, "a batch without a range");
      batchRows.push_back(range->second);
    }
    Type it = idx.getElementType();
    auto scalarType = RankedTensorType::get({}, it);
    auto scalar = [&](AffineExpr e) -> Value {
      if (auto c = dyn_cast<AffineConstantExpr>(e))
        return ConstantOp::create(
            rewriter, loc,
            DenseElementsAttr::get(scalarType, APInt(it.getIntOrFloatBitWidth(),
                                                     c.getValue(),
                                                     /*isSigned=*/true)));
      return SymbolicConstantOp::create(rewriter, loc, scalarType,
                                        extentsAttrOf(ctx, {e}));
    };
    // The row-major strides of T's first n dimensions.
    SmallVector<AffineExpr> stride(n);
    AffineExpr rows = getAffineConstantExpr(1, ctx);
    for (int64_t d = n - 1; d >= 0; --d) {
      stride[d] = rows;
      rows = rows * te[d];
    }
    // The index arithmetic runs on the tuples' shape with a last axis of 1
    // ([..., 1], as each component is), reshaped once at the end.
    SmallVector<AffineExpr> one = grid;
    one.push_back(getAffineConstantExpr(1, ctx));
    RankedTensorType oneType = tensorTypeOf(ctx, one, it);
    Value linear;
    auto accumulate = [&](Value term, AffineExpr step) {
      if (!isUnitExtent(step))
        term = MulOp::create(rewriter, loc, term, scalar(step));
      linear =
          linear ? Value(AddOp::create(rewriter, loc, linear, term)) : term;
    };
    // Batch dimension d: the tuple's own position along axis d, as
    // [1, .., extent, .., 1]: a slice of 0, 1, ... up to its largest.
    for (int64_t d = 0; d < batch; ++d) {
      SmallVector<APInt> values;
      for (int64_t v = 0; v < batchRows[d]; ++v)
        values.push_back(APInt(it.getIntOrFloatBitWidth(), v));
      SmallVector<int64_t> largest(one.size(), 1);
      largest[d] = batchRows[d];
      Value pos = ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(RankedTensorType::get(largest, it), values));
      if (!isa<AffineConstantExpr>(grid[d])) {
        SmallVector<AffineExpr> along(one.size(),
                                      getAffineConstantExpr(1, ctx));
        along[d] = grid[d];
        RankedTensorType alongType = tensorTypeOf(ctx, along, it);
        pos = SliceOp::create(
            rewriter, loc, alongType, pos, SmallVector<int64_t>(one.size(), 0),
            SmallVector<int64_t>(alongType.getShape()),
            SmallVector<int64_t>(one.size(), 1), extentsAttrOf(ctx, along));
      }
      accumulate(pos, stride[d]);
    }
    // Component j of each tuple, counted from the end where negative.
    // Tuples concatenated from one-component parts (torch's advanced
    // indexing stacks its index tensors so) are read from the parts.
    auto parts = op.getIndices().getDefiningOp<ConcatOp>();
    if (parts &&
        (parts.getAxis() != q - 1 || int64_t(parts.getInputs().size()) != k))
      parts = nullptr;
    Value zero = scalar(getAffineConstantExpr(0, ctx));
    for (int64_t j = 0; j < k; ++j) {
      SmallVector<int64_t> starts(q, 0), steps(q, 1);
      starts[q - 1] = j;
      Value c =
          parts
              ? parts.getInputs()[j]
              : SliceOp::create(rewriter, loc, oneType, op.getIndices(), starts,
                                SmallVector<int64_t>(oneType.getShape()), steps,
                                isSymbolic(oneType) ? extentsAttrOf(ctx, one)
                                                    : ExtentsAttr());
      Value negative =
          CompareOp::create(rewriter, loc, ComparePredicate::lt, c, zero);
      Value wrapped = AddOp::create(rewriter, loc, c, scalar(te[batch + j]));
      c = WhereOp::create(rewriter, loc, negative, wrapped, c);
      accumulate(c, stride[batch + j]);
    }
    linear =
        ReshapeOp::create(rewriter, loc, tensorTypeOf(ctx, grid, it), linear);
    SmallVector<AffineExpr> flat = {rows};
    flat.append(te.begin() + n, te.end());
    Value rowsOf = ReshapeOp::create(
        rewriter, loc, tensorTypeOf(ctx, flat, table.getElementType()),
        op.getInput());
    rewriter.replaceOpWithNewOp<GatherOp>(op, op.getType(), rowsOf, linear,
                                          rewriter.getI64IntegerAttr(0));
    return success();
  }
};

/// gather(T, i) along T's first axis, with i = c0, c0 + 1, ... along one
/// dimension of a symbolic extent n (every other of extent 1), in range:
/// reshape(T[c0 : c0 + n]). Exporters index position embeddings by
/// `arange(max)[:seq]`; over a symbolic sequence, a slice reads the table
/// in place where a lookup would copy it.
struct GatherOfConsecutive : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    auto table = cast<RankedTensorType>(op.getInput().getType());
    auto idx = cast<RankedTensorType>(op.getIndices().getType());
    if (op.getAxis() != 0 || isSymbolic(table) || !isSymbolic(idx))
      return rewriter.notifyMatchFailure(op, "not a symbolic lookup");
    SmallVector<AffineExpr> ie = extentsOf(idx);
    std::optional<int64_t> along;
    for (auto [d, e] : llvm::enumerate(ie)) {
      if (isUnitExtent(e))
        continue;
      if (along)
        return rewriter.notifyMatchFailure(op, "indices of two dimensions");
      along = d;
    }
    std::optional<IndexValues> iv = indexValuesOf(op.getIndices());
    if (!along || !iv || iv->coefficients[*along] != 1)
      return rewriter.notifyMatchFailure(op, "not one run");
    std::optional<std::pair<int64_t, int64_t>> n =
        rangeOf(ie[*along], dimsOf(op));
    int64_t c0 = iv->offset, rows = table.getDimSize(0);
    if (!n || c0 < 0 || c0 > rows || n->second > rows - c0)
      return rewriter.notifyMatchFailure(op, "outside the table");
    // T[c0 : c0 + n] with the indices' extent, then the lookup's shape.
    SmallVector<AffineExpr> extents = extentsOf(table);
    extents[0] = ie[*along];
    auto sliced =
        tensorTypeOf(op.getContext(), extents, table.getElementType());
    SmallVector<int64_t> starts(table.getRank(), 0), steps(table.getRank(), 1);
    starts[0] = c0;
    SmallVector<int64_t> sizes(sliced.getShape());
    ExtentsAttr extentsAttr = isSymbolic(sliced)
                                  ? extentsAttrOf(op.getContext(), extents)
                                  : ExtentsAttr();
    Value rowsOf = SliceOp::create(rewriter, op.getLoc(), sliced, op.getInput(),
                                   starts, sizes, steps, extentsAttr);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), rowsOf);
    return success();
  }
};

} // namespace

void GatherOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<GatherOfOneIndex, GatherOfSplat<GatherOp>, GatherOfConsecutive,
              GatherOfExpanded, GatherOfLinearRanges>(context);
}

void ExpandOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<ComposeExpands>(context);
}

void AndOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<AndOfTrue>(context);
}

void GatherNDOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  // Tuples of ranges read the table as it is: tried first.
  results.add<GatherNDOfRanges>(context, /*benefit=*/2);
  results.add<GatherNDOfSymbolicTable>(context);
}

void GatherElementsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<GatherOfSplat<GatherElementsOp>>(context);
}

void CompareOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<UniformCompare>(context);
}

void WhereOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<WhereOfUniform, WhereBeforeExpand>(context);
}

void AddOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<AddOfExpand>(context);
}
