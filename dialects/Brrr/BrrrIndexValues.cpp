//===- BrrrIndexValues.cpp - integer tensors affine in their index -------===//
//
// Exporters build positions and masks from ranges: `arange(seq)`, shifted,
// sliced, concatenated, compared and summed. Where the sequence is fixed
// at compile time the folders compute them; over a symbolic sequence no
// constant can hold them, yet most of them are still known exactly: an
// element is an affine function of its index. This file derives that
// function through the ops that keep it (IndexValues), and folds every
// integer or boolean op whose function is one value into a constant: the
// packed-sequence check of a decoder's causal mask, `positions[1:] -
// positions[:-1] == 1`, is true everywhere at every sequence length.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::brrr;

bool IndexValues::isUniform() const {
  return llvm::all_of(coefficients, [](int64_t c) { return c == 0; });
}

namespace {

/// Most elements of a constant checked for being affine in its index.
constexpr int64_t kMaxCheckedElements = int64_t(1) << 20;

/// Depth of the walk up the operands, bounding the cost of one query.
constexpr unsigned kMaxDepth = 64;

/// a * b + c without overflow, or nullopt.
std::optional<int64_t> mulAdd(int64_t a, int64_t b, int64_t c) {
  int64_t p, s;
  if (llvm::MulOverflow(a, b, p) || llvm::AddOverflow(p, c, s))
    return std::nullopt;
  return s;
}

/// One query: the index values of the values it meets, remembered.
class Analysis {
public:
  explicit Analysis(ArrayRef<DimAttr> dims) : dims(dims) {}

  std::optional<IndexValues> of(Value v, unsigned depth = 0) {
    auto it = known.find(v);
    if (it != known.end())
      return it->second;
    std::optional<IndexValues> iv;
    if (depth < kMaxDepth)
      iv = derive(v, depth + 1);
    if (iv && !fits(v, *iv))
      iv = std::nullopt;
    known[v] = iv;
    return iv;
  }

  /// The smallest and largest value of `iv` over `extents` as expressions
  /// of the symbols.
  std::pair<AffineExpr, AffineExpr> bounds(const IndexValues &iv,
                                           ArrayRef<AffineExpr> extents,
                                           MLIRContext *ctx) const {
    AffineExpr lo = getAffineConstantExpr(iv.offset, ctx), hi = lo;
    for (auto [a, e] : llvm::zip(iv.coefficients, extents)) {
      if (a > 0)
        hi = hi + (e - 1) * a;
      else if (a < 0)
        lo = lo + (e - 1) * a;
    }
    return {lo, hi};
  }

  /// Whether every value of `iv` over `extents` lies in [0, extent) at
  /// every value of the symbols.
  bool within(const IndexValues &iv, ArrayRef<AffineExpr> extents,
              AffineExpr extent) {
    auto [lo, hi] = bounds(iv, extents, extent.getContext());
    auto low = rangeOf(lo, dims), room = rangeOf(extent - 1 - hi, dims);
    return low && room && low->first >= 0 && room->first >= 0;
  }

private:
  static RankedTensorType typeOf(Value v) {
    return cast<RankedTensorType>(v.getType());
  }

  /// Whether `iv`'s values fit `v`'s element type at every shape, so that
  /// no op on the way wrapped around.
  bool fits(Value v, const IndexValues &iv) {
    auto it = cast<IntegerType>(typeOf(v).getElementType());
    unsigned w = it.getWidth();
    if (w == 1)
      return iv.isUniform() && (iv.offset == 0 || iv.offset == 1);
    auto [lo, hi] = bounds(iv, extentsOf(typeOf(v)), v.getContext());
    auto low = rangeOf(lo, dims), high = rangeOf(hi, dims);
    if (!low || !high)
      return false;
    if (it.isUnsigned())
      return low->first >= 0 && (w >= 63 || high->second < (int64_t(1) << w));
    return w >= 64 || (low->first >= -(int64_t(1) << (w - 1)) &&
                       high->second < (int64_t(1) << (w - 1)));
  }

  /// `iv` (of a tensor of extents `from`) broadcast to `to`, numpy style:
  /// a dimension of extent 1 that broadcasts varies along nothing.
  static IndexValues broadcast(const IndexValues &iv, size_t rank) {
    IndexValues out{iv.offset, SmallVector<int64_t>(rank, 0)};
    size_t lead = rank - iv.coefficients.size();
    for (auto [d, a] : llvm::enumerate(iv.coefficients))
      out.coefficients[lead + d] = a;
    return out;
  }

  /// `iv` with the coefficients of `v`'s unit dimensions zeroed.
  static IndexValues normalized(Value v, IndexValues iv) {
    for (auto [d, e] : llvm::enumerate(extentsOf(typeOf(v))))
      if (isUnitExtent(e))
        iv.coefficients[d] = 0;
    return iv;
  }

  std::optional<IndexValues> derive(Value v, unsigned depth) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !isa<IntegerType>(type.getElementType()))
      return std::nullopt;
    Operation *op = v.getDefiningOp();
    if (!op)
      return std::nullopt;
    size_t rank = type.getRank();
    auto sub = [&](Value x) { return of(x, depth); };

    if (isa<ConstantOp>(op))
      return ofConstant(v);
    if (auto slice = dyn_cast<SliceOp>(op)) {
      auto in = sub(slice.getInput());
      if (!in)
        return std::nullopt;
      IndexValues out{in->offset, {}};
      for (auto [a, start, step] :
           llvm::zip(in->coefficients, slice.getStarts(), slice.getSteps())) {
        auto o = mulAdd(a, start, out.offset);
        int64_t scaled;
        if (!o || llvm::MulOverflow(a, step, scaled))
          return std::nullopt;
        out.offset = *o;
        out.coefficients.push_back(scaled);
      }
      return normalized(v, out);
    }
    if (auto expand = dyn_cast<ExpandOp>(op)) {
      auto in = sub(expand.getInput());
      if (!in)
        return std::nullopt;
      return normalized(v, broadcast(*in, rank));
    }
    if (auto transpose = dyn_cast<TransposeOp>(op)) {
      auto in = sub(transpose.getInput());
      if (!in)
        return std::nullopt;
      IndexValues out{in->offset, {}};
      for (int64_t p : transpose.getPerm())
        out.coefficients.push_back(in->coefficients[p]);
      return out;
    }
    if (auto reshape = dyn_cast<ReshapeOp>(op))
      return ofReshape(reshape, sub);
    if (auto concat = dyn_cast<ConcatOp>(op))
      return ofConcat(concat, sub);
    if (isa<AddOp, SubOp, MulOp, MaxOp, MinOp>(op)) {
      auto l = sub(op->getOperand(0)), r = sub(op->getOperand(1));
      if (!l || !r)
        return std::nullopt;
      IndexValues a = broadcast(*l, rank), b = broadcast(*r, rank);
      if (isa<MulOp>(op)) {
        if (!a.isUniform())
          std::swap(a, b);
        if (!a.isUniform())
          return std::nullopt;
        IndexValues out{0, {}};
        if (llvm::MulOverflow(a.offset, b.offset, out.offset))
          return std::nullopt;
        for (int64_t c : b.coefficients) {
          int64_t p;
          if (llvm::MulOverflow(a.offset, c, p))
            return std::nullopt;
          out.coefficients.push_back(p);
        }
        return out;
      }
      if (isa<MaxOp, MinOp>(op)) {
        if (!a.isUniform() || !b.isUniform())
          return std::nullopt;
        return IndexValues{isa<MaxOp>(op) ? std::max(a.offset, b.offset)
                                          : std::min(a.offset, b.offset),
                           SmallVector<int64_t>(rank, 0)};
      }
      int64_t sign = isa<SubOp>(op) ? -1 : 1;
      IndexValues out{0, {}};
      auto o = mulAdd(sign, b.offset, a.offset);
      if (!o)
        return std::nullopt;
      out.offset = *o;
      for (auto [x, y] : llvm::zip(a.coefficients, b.coefficients)) {
        auto c = mulAdd(sign, y, x);
        if (!c)
          return std::nullopt;
        out.coefficients.push_back(*c);
      }
      return out;
    }
    if (auto neg = dyn_cast<NegOp>(op)) {
      auto in = sub(neg.getInput());
      if (!in)
        return std::nullopt;
      IndexValues out{0, {}};
      if (llvm::MulOverflow(in->offset, int64_t(-1), out.offset))
        return std::nullopt;
      for (int64_t c : in->coefficients)
        out.coefficients.push_back(-c);
      return out;
    }
    if (auto cast = dyn_cast<CastOp>(op)) {
      if (!isa<IntegerType>(getElementTypeOrSelf(cast.getInput().getType())))
        return std::nullopt;
      auto in = sub(cast.getInput());
      if (!in)
        return std::nullopt;
      // To booleans, only one value is known: nonzero or not.
      if (type.getElementType().isInteger(1)) {
        if (!in->isUniform())
          return std::nullopt;
        return IndexValues{in->offset != 0, SmallVector<int64_t>(rank, 0)};
      }
      return in;
    }
    if (auto cmp = dyn_cast<CompareOp>(op)) {
      auto l = sub(cmp.getLhs()), r = sub(cmp.getRhs());
      if (!l || !r)
        return std::nullopt;
      // Values fit their type, so the mathematical order is the type's:
      // the outcome is the sign of lhs - rhs, known where the difference's
      // bounds at every shape decide it.
      IndexValues a = broadcast(*l, rank), b = broadcast(*r, rank);
      IndexValues diff{0, SmallVector<int64_t>(rank, 0)};
      if (llvm::SubOverflow(a.offset, b.offset, diff.offset))
        return std::nullopt;
      for (size_t d = 0; d < rank; ++d)
        if (llvm::SubOverflow(a.coefficients[d], b.coefficients[d],
                              diff.coefficients[d]))
          return std::nullopt;
      auto [loExpr, hiExpr] = bounds(diff, extentsOf(type), v.getContext());
      auto lo = rangeOf(loExpr, dims), hi = rangeOf(hiExpr, dims);
      if (!lo || !hi)
        return std::nullopt;
      std::optional<bool> outcome =
          comparePredicateOver(cmp.getPredicate(), lo->first, hi->second);
      if (!outcome)
        return std::nullopt;
      return IndexValues{*outcome, SmallVector<int64_t>(rank, 0)};
    }
    if (auto notOp = dyn_cast<NotOp>(op)) {
      auto in = sub(notOp.getInput());
      if (!in)
        return std::nullopt;
      return IndexValues{1 - in->offset, SmallVector<int64_t>(rank, 0)};
    }
    if (isa<AndOp, OrOp, XorOp>(op)) {
      auto l = sub(op->getOperand(0)), r = sub(op->getOperand(1));
      // One side decides an and (false) or an or (true) alone.
      int64_t decides = isa<AndOp>(op) ? 0 : 1;
      if (!isa<XorOp>(op) &&
          ((l && l->offset == decides) || (r && r->offset == decides)))
        return IndexValues{decides, SmallVector<int64_t>(rank, 0)};
      if (!l || !r)
        return std::nullopt;
      int64_t x = l->offset, y = r->offset;
      return IndexValues{isa<AndOp>(op)  ? (x & y)
                         : isa<OrOp>(op) ? (x | y)
                                         : (x ^ y),
                         SmallVector<int64_t>(rank, 0)};
    }
    if (auto where = dyn_cast<WhereOp>(op)) {
      std::optional<IndexValues> c = of(where.getCondition(), depth);
      if (c)
        if (auto picked = sub(c->offset ? where.getLhs() : where.getRhs()))
          return normalized(v, broadcast(*picked, rank));
      auto l = sub(where.getLhs()), r = sub(where.getRhs());
      if (!l || !r)
        return std::nullopt;
      IndexValues a = normalized(v, broadcast(*l, rank)),
                  b = normalized(v, broadcast(*r, rank));
      if (a.offset != b.offset || a.coefficients != b.coefficients)
        return std::nullopt;
      return a;
    }
    if (auto reduce = dyn_cast<ReduceOp>(op))
      return ofReduce(reduce, sub);
    if (auto gather = dyn_cast<GatherOp>(op))
      return ofGather(gather, sub);
    if (auto gather = dyn_cast<GatherNDOp>(op))
      return ofGatherND(gather, sub);
    return std::nullopt;
  }

  /// A constant whose elements are affine in their index: the first
  /// element and the step along each dimension, checked on every element.
  std::optional<IndexValues> ofConstant(Value v) {
    ElementsAttr attr;
    if (!matchPattern(v, m_Constant(&attr)) ||
        attr.getNumElements() > kMaxCheckedElements)
      return std::nullopt;
    std::optional<SmallVector<int64_t>> values = getConstInts(v);
    ArrayRef<int64_t> shape = typeOf(v).getShape();
    size_t rank = shape.size();
    if (!values)
      return std::nullopt;
    if (values->empty())
      return IndexValues{0, SmallVector<int64_t>(rank, 0)};
    IndexValues iv{values->front(), SmallVector<int64_t>(rank, 0)};
    SmallVector<int64_t> strides(rank, 1);
    for (int64_t d = int64_t(rank) - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * shape[d + 1];
    for (size_t d = 0; d < rank; ++d)
      if (shape[d] > 1 && llvm::SubOverflow((*values)[strides[d]], iv.offset,
                                            iv.coefficients[d]))
        return std::nullopt;
    SmallVector<int64_t> index(rank, 0);
    for (int64_t value : *values) {
      int64_t expected = iv.offset;
      for (size_t d = 0; d < rank; ++d) {
        auto e = mulAdd(iv.coefficients[d], index[d], expected);
        if (!e)
          return std::nullopt;
        expected = *e;
      }
      if (value != expected)
        return std::nullopt;
      for (int64_t d = int64_t(rank) - 1; d >= 0; --d) {
        if (++index[d] < shape[d])
          break;
        index[d] = 0;
      }
    }
    return iv;
  }

  /// A reshape that adds or drops dimensions of extent 1: the other
  /// dimensions keep their coefficients. Any reshape keeps one value.
  template <typename Sub>
  std::optional<IndexValues> ofReshape(ReshapeOp reshape, Sub sub) {
    auto in = sub(reshape.getInput());
    if (!in)
      return std::nullopt;
    SmallVector<AffineExpr> to = extentsOf(typeOf(reshape.getResult()));
    IndexValues out{in->offset, SmallVector<int64_t>(to.size(), 0)};
    if (in->isUniform())
      return out;
    SmallVector<AffineExpr> from = extentsOf(typeOf(reshape.getInput()));
    SmallVector<size_t> kept, placed;
    for (auto [d, e] : llvm::enumerate(from))
      if (!isUnitExtent(e))
        kept.push_back(d);
    for (auto [d, e] : llvm::enumerate(to))
      if (!isUnitExtent(e))
        placed.push_back(d);
    if (kept.size() != placed.size())
      return std::nullopt;
    for (auto [k, p] : llvm::zip(kept, placed)) {
      if (from[k] != to[p])
        return std::nullopt;
      out.coefficients[p] = in->coefficients[k];
    }
    return out;
  }

  /// Pieces that continue one another along the axis: piece k, at offset
  /// o_k, holds offset + a * (o_k + i) + ... Every piece but the last has
  /// a fixed extent along the axis.
  template <typename Sub>
  std::optional<IndexValues> ofConcat(ConcatOp concat, Sub sub) {
    int64_t axis = concat.getAxis();
    std::optional<int64_t> step;
    struct Piece {
      IndexValues iv;
      int64_t at;
    };
    SmallVector<Piece> pieces;
    int64_t at = 0;
    auto inputs = concat.getInputs();
    for (auto [k, input] : llvm::enumerate(inputs)) {
      auto iv = sub(input);
      if (!iv)
        return std::nullopt;
      int64_t extent = typeOf(input).getDimSize(axis);
      if (extent != 1)
        step = iv->coefficients[axis];
      pieces.push_back({*iv, at});
      if (k + 1 < inputs.size()) {
        if (ShapedType::isDynamic(extent) || llvm::AddOverflow(at, extent, at))
          return std::nullopt;
      }
    }
    if (pieces.empty())
      return std::nullopt;
    // All pieces of extent 1: the step from the first two.
    if (!step) {
      int64_t d = 0;
      if (pieces.size() >= 2 &&
          llvm::SubOverflow(pieces[1].iv.offset, pieces[0].iv.offset, d))
        return std::nullopt;
      step = d;
    }
    // The whole's offset, from the first piece.
    IndexValues out = pieces.front().iv;
    out.coefficients[axis] = *step;
    for (Piece &p : pieces) {
      p.iv.coefficients[axis] = *step;
      // Its first element continues the first piece's run.
      auto expected = mulAdd(*step, p.at, out.offset);
      if (!expected || p.iv.offset != *expected ||
          p.iv.coefficients != out.coefficients)
        return std::nullopt;
    }
    return normalized(concat.getResult(), out);
  }

  /// A sum, max or min along dimensions where the input does not vary.
  template <typename Sub>
  std::optional<IndexValues> ofReduce(ReduceOp reduce, Sub sub) {
    auto in = sub(reduce.getInput());
    if (!in)
      return std::nullopt;
    SmallVector<AffineExpr> extents = extentsOf(typeOf(reduce.getInput()));
    ArrayRef<int64_t> axes = reduce.getAxes();
    int64_t count = 1;
    for (int64_t a : axes) {
      if (in->coefficients[a] != 0)
        return std::nullopt;
      auto e = dyn_cast<AffineConstantExpr>(extents[a]);
      if (!e || llvm::MulOverflow(count, e.getValue(), count))
        count = -1;
    }
    int64_t offset;
    switch (reduce.getKind()) {
    case ReduceKind::sum:
      // A symbolic count sums zeros only.
      if (count < 0 && in->offset != 0)
        return std::nullopt;
      if (llvm::MulOverflow(in->offset, std::max<int64_t>(count, 0), offset))
        return std::nullopt;
      break;
    case ReduceKind::max:
    case ReduceKind::min:
      if (count == 0)
        return std::nullopt;
      offset = in->offset;
      break;
    default:
      return std::nullopt;
    }
    IndexValues out{offset, {}};
    for (auto [d, a] : llvm::enumerate(in->coefficients))
      if (!llvm::is_contained(axes, int64_t(d)))
        out.coefficients.push_back(a);
      else if (reduce.getKeepdims())
        out.coefficients.push_back(0);
    return out;
  }

  /// table[..., i(g), ...] with the indices `i` in range: the table's
  /// function of the indices' function.
  template <typename Sub>
  std::optional<IndexValues> ofGather(GatherOp gather, Sub sub) {
    auto table = sub(gather.getInput());
    auto idx = sub(gather.getIndices());
    int64_t axis = gather.getAxis();
    if (!table || !idx ||
        !within(*idx, extentsOf(typeOf(gather.getIndices())),
                extentsOf(typeOf(gather.getInput()))[axis]))
      return std::nullopt;
    int64_t a = table->coefficients[axis];
    IndexValues out{0, {}};
    auto o = mulAdd(a, idx->offset, table->offset);
    if (!o)
      return std::nullopt;
    out.offset = *o;
    for (int64_t d = 0; d < axis; ++d)
      out.coefficients.push_back(table->coefficients[d]);
    for (int64_t c : idx->coefficients) {
      int64_t p;
      if (llvm::MulOverflow(a, c, p))
        return std::nullopt;
      out.coefficients.push_back(p);
    }
    for (size_t d = axis + 1; d < table->coefficients.size(); ++d)
      out.coefficients.push_back(table->coefficients[d]);
    return out;
  }

  /// gather_nd(table, tuples) without batch dimensions: component c of the
  /// tuple at grid index g is the indices' function at (g, c).
  template <typename Sub>
  std::optional<IndexValues> ofGatherND(GatherNDOp gather, Sub sub) {
    if (gather.getBatchDims() != 0)
      return std::nullopt;
    auto table = sub(gather.getInput());
    if (!table)
      return std::nullopt;
    RankedTensorType it = typeOf(gather.getIndices());
    int64_t k = it.getDimSize(it.getRank() - 1);
    SmallVector<AffineExpr> te = extentsOf(typeOf(gather.getInput()));
    if (ShapedType::isDynamic(k) || k > int64_t(te.size()))
      return std::nullopt;
    SmallVector<AffineExpr> gridExtents = extentsOf(it);
    gridExtents.pop_back();
    size_t grid = gridExtents.size();
    // Each tuple component's function of the grid index: of its own piece
    // where the tuples concatenate one piece a component (exporters join
    // (arange(batch), arange(seq)) so), else of the tuples' function.
    SmallVector<IndexValues> comps;
    auto concat = gather.getIndices().getDefiningOp<ConcatOp>();
    if (concat && int64_t(concat.getAxis()) == it.getRank() - 1 &&
        int64_t(concat.getInputs().size()) == k) {
      for (Value piece : concat.getInputs()) {
        auto iv = sub(piece);
        if (!iv)
          return std::nullopt;
        iv->coefficients.pop_back();
        comps.push_back(*iv);
      }
    } else {
      auto idx = sub(gather.getIndices());
      if (!idx)
        return std::nullopt;
      for (int64_t c = 0; c < k; ++c) {
        auto o = mulAdd(idx->coefficients.back(), c, idx->offset);
        if (!o)
          return std::nullopt;
        comps.push_back(
            {*o, SmallVector<int64_t>(idx->coefficients.begin(),
                                      idx->coefficients.end() - 1)});
      }
    }
    IndexValues out{table->offset, SmallVector<int64_t>(grid, 0)};
    for (int64_t c = 0; c < k; ++c) {
      const IndexValues &comp = comps[c];
      if (!within(comp, gridExtents, te[c]))
        return std::nullopt;
      int64_t a = table->coefficients[c];
      auto shifted = mulAdd(a, comp.offset, out.offset);
      if (!shifted)
        return std::nullopt;
      out.offset = *shifted;
      for (size_t g = 0; g < grid; ++g) {
        auto sum = mulAdd(a, comp.coefficients[g], out.coefficients[g]);
        if (!sum)
          return std::nullopt;
        out.coefficients[g] = *sum;
      }
    }
    for (size_t d = k; d < table->coefficients.size(); ++d)
      out.coefficients.push_back(table->coefficients[d]);
    return out;
  }

  ArrayRef<DimAttr> dims;
  llvm::DenseMap<Value, std::optional<IndexValues>> known;
};

/// An integer or boolean op (not a constant, nor one expanded) whose
/// elements are all one value at every shape: that value, filled.
struct FoldIndexValues : RewritePattern {
  FoldIndexValues(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
        !isa_and_nonnull<BrrrDialect>(op->getDialect()) || isa<ConstantOp>(op))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !isa<IntegerType>(type.getElementType()))
      return failure();
    if (auto expand = dyn_cast<ExpandOp>(op))
      if (matchPattern(expand.getInput(), m_Constant()))
        return failure();
    std::optional<IndexValues> iv = indexValuesOf(op->getResult(0));
    if (!iv || !iv->isUniform())
      return rewriter.notifyMatchFailure(op, "not one value");
    Attribute value = IntegerAttr::get(
        type.getElementType(),
        APInt(type.getElementType().getIntOrFloatBitWidth(),
              static_cast<uint64_t>(iv->offset), /*isSigned=*/true,
              /*implicitTrunc=*/true));
    Value filled;
    if (!isSymbolic(type)) {
      filled = ConstantOp::create(rewriter, op->getLoc(),
                                  DenseElementsAttr::get(type, value));
    } else {
      auto ones = RankedTensorType::get(SmallVector<int64_t>(type.getRank(), 1),
                                        type.getElementType());
      Value c = ConstantOp::create(rewriter, op->getLoc(),
                                   DenseElementsAttr::get(ones, value));
      filled = ExpandOp::create(rewriter, op->getLoc(), type, c);
    }
    rewriter.replaceOp(op, filled);
    return success();
  }
};

} // namespace

std::optional<IndexValues> mlir::brrr::indexValuesOf(Value v) {
  Operation *scope =
      v.getParentRegion() ? v.getParentRegion()->getParentOp() : nullptr;
  SmallVector<DimAttr> dims = scope ? dimsOf(scope) : SmallVector<DimAttr>();
  return Analysis(dims).of(v);
}

void BrrrDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  results.add<FoldIndexValues>(getContext());
}
