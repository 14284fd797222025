//===- BrrrCanonicalize.cpp - canonicalization patterns of brrr ops ------===//
//
// The rewrites `canonicalize` applies beyond the folders (BrrrFolders.cpp):
// chains of views collapsed or cancelled (reshape chains, composed
// transposes, reshape(transpose(reshape)) as one transpose), transposed
// weight blobs permuted once at compile time, a transpose of a product's
// rows moved after it, a Gather of one constant index as a slice, and a
// pow by a small whole constant as multiplications.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// reshape(reshape(x)) -> reshape(x): only the final shape matters.
struct CollapseReshapeChain : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getInput().getDefiningOp<ReshapeOp>();
    if (!producer)
      return rewriter.notifyMatchFailure(op, "operand is not a reshape");
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(),
                                           producer.getInput());
    return success();
  }
};

/// The dimensions of `from` that each dimension of `to` gathers, when a
/// reshape from `from` to `to` only merges runs of consecutive dimensions
/// (a dimension of size 1 may also appear or vanish); else nothing.
std::optional<SmallVector<SmallVector<int64_t>>>
mergedGroups(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  SmallVector<SmallVector<int64_t>> groups;
  size_t d = 0;
  for (int64_t size : to) {
    SmallVector<int64_t> group;
    int64_t product = 1;
    while (d < from.size() && product < size) {
      product *= from[d];
      group.push_back(d++);
    }
    if (product != size)
      return std::nullopt;
    groups.push_back(group);
  }
  // Trailing dimensions of size 1 join the last group.
  for (; d < from.size(); ++d) {
    if (from[d] != 1 || groups.empty())
      return std::nullopt;
    groups.back().push_back(d);
  }
  return groups;
}

/// reshape(transpose(reshape(x))) -> transpose(x), in two mirror forms:
/// - the inner reshape merges runs of x's dimensions, the transpose moves
///   the merged dimensions whole, and the outer reshape splits each back
///   as it was: the exporters' K^T for [batch, heads, s, d] keys goes
///   through [batch * heads, s, d] so, and would otherwise be copied in
///   memory (a merged batch and heads of a transposed tensor have no
///   single stride);
/// - the inner reshape splits x's dimensions into runs, the transpose moves
///   each run whole and in order, and the outer reshape merges the runs
///   back: a product [N, Ho * Wo, O] split to [N, Ho, Wo, O], transposed
///   to NCHW and flattened back to [N, O, Ho * Wo] tokens.
struct TransposeThroughReshapes : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getInput().getDefiningOp<TransposeOp>();
    auto inner = transpose ? transpose.getInput().getDefiningOp<ReshapeOp>()
                           : ReshapeOp();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "not reshape(transpose(reshape))");
    Value x = inner.getInput();
    ArrayRef<int64_t> xs = cast<RankedTensorType>(x.getType()).getShape();
    ArrayRef<int64_t> mid = inner.getType().getShape();
    ArrayRef<int64_t> moved = transpose.getType().getShape();
    ArrayRef<int64_t> out = op.getType().getShape();
    ArrayRef<int64_t> p = transpose.getPerm();
    std::optional<SmallVector<int64_t>> perm = unmerge(xs, mid, moved, out, p);
    if (!perm)
      perm = regroup(xs, mid, moved, out, p);
    if (!perm)
      return rewriter.notifyMatchFailure(op, "no transpose of x");
    // Size-1 dimensions may have moved between groups: the result must be
    // a permutation of x's dimensions giving exactly the outer shape.
    if (perm->size() != xs.size())
      return rewriter.notifyMatchFailure(op, "not a permutation of x");
    SmallVector<int64_t> sorted(*perm), shape;
    llvm::sort(sorted);
    for (auto [i, d] : llvm::enumerate(sorted))
      if (d != static_cast<int64_t>(i))
        return rewriter.notifyMatchFailure(op, "not a permutation of x");
    for (int64_t d : *perm)
      shape.push_back(xs[d]);
    if (ArrayRef<int64_t>(shape) != out)
      return rewriter.notifyMatchFailure(op, "the shapes differ");
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), x, *perm);
    return success();
  }

  /// The first form: x's merged groups, moved whole and split back.
  static std::optional<SmallVector<int64_t>>
  unmerge(ArrayRef<int64_t> xs, ArrayRef<int64_t> merged,
          ArrayRef<int64_t> moved, ArrayRef<int64_t> out, ArrayRef<int64_t> p) {
    auto in = mergedGroups(xs, merged);
    auto split = mergedGroups(out, moved);
    if (!in || !split)
      return std::nullopt;
    SmallVector<int64_t> perm;
    for (auto [i, source] : llvm::enumerate(p)) {
      const SmallVector<int64_t> &was = (*in)[source], &now = (*split)[i];
      if (was.size() != now.size())
        return std::nullopt;
      for (auto [a, b] : llvm::zip(was, now))
        if (xs[a] != out[b])
          return std::nullopt;
      perm.append(was.begin(), was.end());
    }
    return perm;
  }

  /// The second form: x's split runs, moved whole and merged back.
  static std::optional<SmallVector<int64_t>>
  regroup(ArrayRef<int64_t> xs, ArrayRef<int64_t> split,
          ArrayRef<int64_t> moved, ArrayRef<int64_t> out, ArrayRef<int64_t> p) {
    auto runs = mergedGroups(split, xs);
    auto merged = mergedGroups(moved, out);
    if (!runs || !merged)
      return std::nullopt;
    SmallVector<int64_t> perm;
    for (const SmallVector<int64_t> &group : *merged) {
      SmallVector<int64_t> sources;
      for (int64_t t : group)
        sources.push_back(p[t]);
      auto it = llvm::find(*runs, sources);
      if (sources.empty() || it == runs->end())
        return std::nullopt;
      perm.push_back(it - runs->begin());
    }
    return perm;
  }
};

/// transpose(transpose(x, p1), p2) -> transpose(x, p1 o p2).
struct ComposeTransposeChain : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getInput().getDefiningOp<TransposeOp>();
    if (!producer)
      return rewriter.notifyMatchFailure(op, "operand is not a transpose");
    SmallVector<int64_t> perm;
    for (int64_t p : op.getPerm())
      perm.push_back(producer.getPerm()[p]);
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(),
                                             producer.getInput(), perm);
    return success();
  }
};

/// transpose(weights) -> weights': a transposed weight blob (Gemm with
/// transB, exported Linear layers) is permuted once, at compile time, so
/// no kernel moves it on every run. Small constants fold in fold().
struct TransposeWeights : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    ElementsAttr attr;
    if (!matchPattern(op.getInput(), m_Constant(&attr)))
      return rewriter.notifyMatchFailure(op, "operand is not a constant");
    ElementsAttr permuted = transposeWeights(attr, op.getType(), op.getPerm());
    if (!permuted)
      return rewriter.notifyMatchFailure(op, "operand is not a weight blob");
    rewriter.replaceOpWithNewOp<ConstantOp>(op, permuted);
    return success();
  }
};

/// pow(x, c) -> x * x ... for a float x and a splat constant c of 1, 2, 3
/// or 4 whose broadcast leaves x's shape: pow's value within the roundings
/// of at most two multiplications (none for f16 and bf16, carried in f32),
/// with pow's special values (NaN, the infinities, signed zeros,
/// overflow), in place of a general pow (~75 instructions per element on
/// the GPU: GPT-2's GELU cubes its input this way).
struct PowToMultiplications : OpRewritePattern<PowOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PowOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getLhs();
    if (!isa<FloatType>(getElementTypeOrSelf(x.getType())) ||
        x.getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "not a float pow of x's shape");
    SplatElementsAttr exponent;
    if (!matchPattern(op.getRhs(), m_Constant(&exponent)) ||
        !isa<FloatType>(exponent.getElementType()))
      return rewriter.notifyMatchFailure(op, "exponent is not a float splat");
    double c = exponent.getSplatValue<APFloat>().convertToDouble();
    if (c != 1 && c != 2 && c != 3 && c != 4)
      return rewriter.notifyMatchFailure(op, "exponent is not 1, 2, 3 or 4");
    Location loc = op.getLoc();
    Type t = op.getType();
    auto mul = [&](Value a, Value b) -> Value {
      return MulOp::create(rewriter, loc, t, a, b);
    };
    Value y = x;
    if (c == 2)
      y = mul(x, x);
    else if (c == 3)
      y = mul(mul(x, x), x);
    else if (c == 4) {
      Value square = mul(x, x);
      y = mul(square, square);
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

/// matmul(transpose(x, p), w) -> transpose(matmul(x, w), p) for a 2-D w
/// and a p that keeps the contracted (last) dimension in place: the
/// transpose only reorders the product's rows, so the product reads x as
/// it is (torchvision's MultiheadAttention projects [s, b, e] tokens
/// transposed from [b, s, e]; read through that transpose, ViT-B/16's
/// projection ran at 127 TFLOP/s), and the transpose of the result can
/// cancel against or fuse into what reads it.
struct TransposeAfterProduct : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getLhs().getDefiningOp<TransposeOp>();
    auto rhs = cast<RankedTensorType>(op.getRhs().getType());
    if (!transpose || rhs.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "not a transposed lhs by 2-D");
    ArrayRef<int64_t> perm = transpose.getPerm();
    int64_t rank = perm.size();
    if (rank < 3 || perm.back() != rank - 1)
      return rewriter.notifyMatchFailure(op, "the transpose moves K");
    Value x = transpose.getInput();
    SmallVector<int64_t> shape(cast<RankedTensorType>(x.getType()).getShape());
    shape.back() = rhs.getDimSize(1);
    auto type = RankedTensorType::get(shape, op.getType().getElementType());
    Value product =
        MatmulOp::create(rewriter, op.getLoc(), type, x, op.getRhs());
    // A bias of the product's columns, its only reader, comes along: it
    // stays the product's epilogue.
    if (op->hasOneUse())
      if (auto add = dyn_cast<AddOp>(*op->getUsers().begin())) {
        Value bias =
            add.getLhs() == op.getResult() ? add.getRhs() : add.getLhs();
        auto bType = cast<RankedTensorType>(bias.getType());
        if (bias != op.getResult() && add.getType() == op.getType() &&
            bType.getRank() == 1) {
          Value biased =
              AddOp::create(rewriter, add.getLoc(), type, product, bias);
          rewriter.replaceOpWithNewOp<TransposeOp>(add, add.getType(), biased,
                                                   perm);
          rewriter.eraseOp(op);
          return success();
        }
      }
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), product, perm);
    return success();
  }
};

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

} // namespace

void GatherOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<GatherOfOneIndex>(context);
}

void MatmulOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<TransposeAfterProduct>(context);
}

void PowOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<PowToMultiplications>(context);
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<CollapseReshapeChain, TransposeThroughReshapes>(context);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposeChain, TransposeWeights>(context);
}
