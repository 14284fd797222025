//===- BrrrCanonicalize.cpp - canonicalization patterns of brrr ops ------===//
//
// The rewrites `canonicalize` applies beyond the folders (BrrrFolders.cpp):
// chains of views collapsed or cancelled (reshape chains, composed
// transposes, reshape(transpose(reshape)) as one reshape and one
// transpose), transposes over symbolic extents moved toward what reads
// them, transposed weight blobs permuted once at compile time, a
// transpose of a product's rows moved after it, a product of one term as
// a multiply. Ops written out in parts (RMSNorm, GELU, a pow by a small
// whole constant): BrrrCanonicalizeParts.cpp; lookups and masks:
// BrrrCanonicalizeLookups.cpp; index arithmetic: BrrrIndexValues.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <array>
#include <limits>
#include <optional>

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

/// One factor of a reshape-transpose-reshape: a run of elements that
/// every shape involved keeps together. `key` orders atoms as x lays them
/// out (an atom split in two becomes key + {0} and key + {1}).
struct Atom {
  int64_t size;
  SmallVector<int64_t, 4> key;
};

/// Splits `atoms` (in order, none of size 1) so that each dimension of
/// `shape` above size 1 is a run of them (a split atom's parts stay in
/// order); returns, per dimension of `shape`, its atoms, or none when a
/// dimension ends inside an atom that it does not divide.
std::optional<SmallVector<SmallVector<Atom>>>
refineAtoms(ArrayRef<Atom> atoms, ArrayRef<int64_t> shape) {
  SmallVector<SmallVector<Atom>> runs;
  SmallVector<Atom> pending(atoms.rbegin(), atoms.rend()); // a stack
  for (int64_t size : shape) {
    runs.emplace_back();
    int64_t left = size;
    while (left > 1) {
      if (pending.empty())
        return std::nullopt;
      Atom a = pending.pop_back_val();
      if (left % a.size == 0) {
        left /= a.size;
        runs.back().push_back(a);
        continue;
      }
      if (a.size % left != 0)
        return std::nullopt;
      Atom first = a, rest = a;
      first.size = left;
      first.key.push_back(0);
      rest.size = a.size / left;
      rest.key.push_back(1);
      runs.back().push_back(first);
      pending.push_back(rest);
      left = 1;
    }
  }
  if (!pending.empty())
    return std::nullopt;
  return runs;
}

/// Sizes that stand for tensor types' extents, each a constant or a
/// constant times one symbol: symbol i stands for the prime kPrimes[i],
/// above every static size a tensor has here, so that dividing and
/// multiplying the stand-ins treats each symbol as a factor no constant
/// shares.
struct SymbolStandIns {
  static constexpr int64_t kPrimes[] = {1000000007, 1000000009, 1000000021,
                                        1000000033};
  SmallVector<SmallVector<int64_t>> sizes;
  bool symbolic = false;

  /// Stand-ins for `types` (their shapes where all are static), or none
  /// where an extent is not a constant or a constant times one of the first
  /// few symbols, a constant is not below every prime, or a product would
  /// overflow.
  static std::optional<SymbolStandIns> of(ArrayRef<RankedTensorType> types) {
    SymbolStandIns s;
    s.symbolic = llvm::any_of(types, [](Type t) { return isSymbolic(t); });
    if (!s.symbolic) {
      for (RankedTensorType t : types)
        s.sizes.emplace_back(t.getShape());
      return s;
    }
    for (RankedTensorType t : types) {
      s.sizes.emplace_back();
      for (AffineExpr e : extentsOf(t)) {
        std::optional<ExtentProduct> p = e ? productOf(e) : std::nullopt;
        if (!p || p->symbols.size() > 1 || p->coefficient < 0 ||
            p->coefficient >= kPrimes[0])
          return std::nullopt;
        int64_t size = p->coefficient;
        if (!p->symbols.empty() &&
            (p->symbols[0] >= std::size(kPrimes) ||
             llvm::MulOverflow(size, kPrimes[p->symbols[0]], size)))
          return std::nullopt;
        s.sizes.back().push_back(size);
      }
    }
    return s;
  }

  /// The tensor type whose extents `shape`'s stand-ins stand for, or none
  /// where one holds two symbols.
  std::optional<RankedTensorType> typeOf(ArrayRef<int64_t> shape, Type elem,
                                         MLIRContext *ctx) const {
    if (!symbolic)
      return RankedTensorType::get(shape, elem);
    SmallVector<AffineExpr> extents;
    for (int64_t size : shape) {
      AffineExpr e = getAffineConstantExpr(size, ctx);
      for (auto [i, prime] : llvm::enumerate(kPrimes))
        if (size % prime == 0) {
          if ((size / prime) % prime == 0 || !isa<AffineConstantExpr>(e))
            return std::nullopt;
          e = getAffineSymbolExpr(i, ctx) * (size / prime);
        }
      extents.push_back(e);
    }
    return tensorTypeOf(ctx, extents, elem);
  }
};

/// reshape(transpose(reshape(x))) -> transpose(reshape(x)) with one
/// reshape and no merge after the transpose. The two reshapes and the
/// transpose are cut into atoms, the finest runs of elements each shape
/// keeps whole; when every dimension of the result is atoms that lie
/// consecutively and in order in x, x is reshaped to those runs and
/// permuted once. Three forms the exporters write:
/// - K^T of [batch, heads, s, d] keys through [batch * heads, s, d]: the
///   merge is split back after the transpose (a merged batch and heads of
///   a transposed tensor have no single stride, so the keys were copied);
/// - a product [N, Ho * Wo, O] split to [N, Ho, Wo, O], transposed to NCHW
///   and flattened back to [N, O, Ho * Wo] tokens;
/// - torchvision's attention heads: [1, s, b, e] reshaped to [s, b * h, d],
///   transposed to [b * h, s, d] and split to [b, h, s, d], which becomes
///   [s, b, h, d] permuted, a strided view of the stacked projection.
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
    // Over symbolic extents, each symbol stands for a prime larger than
    // any static size: an atom that holds it is never cut (that would take
    // a size it divides), so the rewrite the stand-ins allow holds at every
    // value of the symbols.
    std::optional<SymbolStandIns> standIns = SymbolStandIns::of(
        {cast<RankedTensorType>(x.getType()), inner.getType(), op.getType()});
    if (!standIns)
      return rewriter.notifyMatchFailure(op, "extents that are not products "
                                             "of one symbol");
    SmallVector<int64_t> xs = standIns->sizes[0], mid = standIns->sizes[1],
                         out = standIns->sizes[2];
    ArrayRef<int64_t> p = transpose.getPerm();
    if (llvm::is_contained(xs, 0))
      return rewriter.notifyMatchFailure(op, "an empty tensor");
    // Atoms of x's dimensions, cut where the inner reshape's are.
    SmallVector<Atom> atoms;
    for (int64_t size : xs)
      if (size > 1)
        atoms.push_back({size, {static_cast<int64_t>(atoms.size())}});
    auto inMid = refineAtoms(atoms, mid);
    if (!inMid)
      return rewriter.notifyMatchFailure(op, "the inner reshape cuts atoms");
    // Moved by the transpose, then cut where the outer reshape's are.
    SmallVector<Atom> moved;
    for (int64_t d : p)
      llvm::append_range(moved, (*inMid)[d]);
    auto inOut = refineAtoms(moved, out);
    if (!inOut)
      return rewriter.notifyMatchFailure(op, "the outer reshape cuts atoms");
    // Each dimension of the result must be a run of atoms consecutive in x.
    SmallVector<Atom> inX;
    for (const SmallVector<Atom> &run : *inOut)
      llvm::append_range(inX, run);
    llvm::sort(inX, [](const Atom &a, const Atom &b) { return a.key < b.key; });
    auto position = [&](const Atom &a) {
      return llvm::find_if(inX, [&](const Atom &b) { return b.key == a.key; }) -
             inX.begin();
    };
    // Where each result dimension sits in x: its first atom's position. A
    // size-1 dimension sits just before the next dimension after it in the
    // result that has atoms (at the end if none), so that the permutation
    // moves no more than the atoms do ([1, h, s, d] stays [1, h, s, d]).
    SmallVector<int64_t> at(out.size(), std::numeric_limits<int64_t>::max());
    for (auto [d, run] : llvm::enumerate(*inOut)) {
      if (run.empty())
        continue;
      int64_t first = position(run.front());
      for (auto [i, a] : llvm::enumerate(run))
        if (position(a) != first + static_cast<int64_t>(i))
          return rewriter.notifyMatchFailure(op, "a dimension is not a run "
                                                 "of x");
      at[d] = first;
    }
    // (position, 0 for size 1 else 1, dimension), in x's order.
    SmallVector<std::array<int64_t, 3>> order;
    for (int64_t d = out.size() - 1, next = std::numeric_limits<int64_t>::max();
         d >= 0; --d) {
      bool unit = (*inOut)[d].empty();
      if (!unit)
        next = at[d];
      order.push_back({unit ? next : at[d], unit ? 0 : 1, d});
    }
    llvm::sort(order);
    // x viewed as the result's dimensions in its own order, permuted into
    // the result.
    SmallVector<int64_t> viewShape, perm(out.size(), -1);
    for (auto [pos, kind, d] : order) {
      perm[d] = viewShape.size();
      viewShape.push_back(out[d]);
    }
    Type elem = op.getType().getElementType();
    Value view = x;
    if (viewShape != xs) {
      std::optional<RankedTensorType> viewType =
          standIns->typeOf(viewShape, elem, op.getContext());
      if (!viewType)
        return rewriter.notifyMatchFailure(op, "a view dimension holds two "
                                               "symbols");
      view = ReshapeOp::create(rewriter, op.getLoc(), *viewType, x);
    }
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), view, perm);
    return success();
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

/// Whether `op` computes each element of its result from the elements of
/// its operands at the same index (after numpy broadcasting).
bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<AddOp, AndOp, DivOp, MaxOp, MinOp, MulOp, OrOp, PowOp, RemOp,
             SubOp, XorOp, CompareOp, WhereOp>(op);
}

/// Whether `perm` keeps the order of the dimensions of `extents` above 1:
/// a transpose by it moves only units, and is a view.
bool movesOnlyUnits(ArrayRef<AffineExpr> extents, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> moved;
  for (int64_t p : perm)
    if (!isUnitExtent(extents[p]))
      moved.push_back(p);
  return llvm::is_sorted(moved);
}

/// `values` in the order `perm`: element i is values[perm[i]].
template <typename T>
SmallVector<T> permuted(ArrayRef<T> values, ArrayRef<int64_t> perm) {
  SmallVector<T> out;
  for (int64_t p : perm)
    out.push_back(values[p]);
  return out;
}

/// `x` at rank perm.size() (numpy's leading units) with its dimensions in
/// the order `perm`, as a view: a reshape of x, or x itself where that
/// changes nothing. Null where `perm` moves an extent above 1 or x's rank
/// is higher.
Value permutedView(PatternRewriter &rewriter, Location loc, Value x,
                   ArrayRef<int64_t> perm) {
  auto t = dyn_cast<RankedTensorType>(x.getType());
  if (!t || size_t(t.getRank()) > perm.size())
    return Value();
  SmallVector<AffineExpr> extents(perm.size() - t.getRank(),
                                  getAffineConstantExpr(1, x.getContext()));
  llvm::append_range(extents, extentsOf(t));
  if (!movesOnlyUnits(extents, perm))
    return Value();
  auto type = tensorTypeOf(x.getContext(), permuted<AffineExpr>(extents, perm),
                           t.getElementType());
  return type == t ? x : Value(ReshapeOp::create(rewriter, loc, type, x));
}

/// transpose(x) -> reshape(x) where the permutation moves only size-1
/// dimensions: the other dimensions keep their order, so every element
/// keeps its place in memory and the transpose is a view (no kernel). A
/// global pool's [N, C, 1, 1] result read channels-last as [N, 1, 1, C]
/// (every squeeze-and-excitation block) is one.
struct TransposeOfUnitDims : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!movesOnlyUnits(extentsOf(op.getInput().getType()), op.getPerm()))
      return rewriter.notifyMatchFailure(op, "moves a dimension of size > 1");
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput());
    return success();
  }
};

/// transpose(f(x, y, ...)) -> f(x', y', ...) for an elementwise f over
/// symbolic extents, where each operand, broadcast to f's rank, moves only
/// dimensions of extent 1 under the permutation (x' a reshape of x): f
/// computes in the transposed order and no kernel moves its result.
/// Llama's rotary frequencies, inv_freq [1, d/2, 1] * positions [1, 1,
/// seq] read as [1, seq, d/2], are one.
struct TransposeOfElementwise : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Operation *f = op.getInput().getDefiningOp();
    if (!f || !isElementwise(f) || f->getNumResults() != 1 ||
        f->getNumRegions() != 0 || !isSymbolic(op.getType()) ||
        !f->getResult(0).hasOneUse())
      return rewriter.notifyMatchFailure(op,
                                         "not of a symbolic elementwise op");
    ArrayRef<int64_t> perm = op.getPerm();
    SmallVector<Value> operands;
    for (Value x : f->getOperands()) {
      Value viewed = permutedView(rewriter, op.getLoc(), x, perm);
      if (!viewed)
        return rewriter.notifyMatchFailure(f, "an operand would move");
      operands.push_back(viewed);
    }
    OperationState state(f->getLoc(), f->getName(), operands,
                         TypeRange{op.getType()}, f->getAttrs());
    Operation *g = rewriter.create(state);
    rewriter.replaceOp(op, g->getResult(0));
    return success();
  }
};

/// f(transpose(x), y, ...) -> transpose(f(x, y', ...)) over symbolic
/// extents, for f elementwise, a slice or a concatenation, where some
/// operand is a transpose that moves extents above 1 and every other is a
/// transpose of the same permutation or, read in x's order, moves only
/// units (y' a view of y): f computes in x's order, and the transpose
/// moves on toward what reads it. Llama's rotary embedding rotates the
/// heads' queries and keys after their transposes to [batch, heads, seq,
/// d]; so it runs over [batch, seq, heads, d], and attention reads the
/// result through the transpose as it reads any head.
struct SinkTranspose : RewritePattern {
  SinkTranspose(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *f,
                                PatternRewriter &rewriter) const override {
    bool elementwise = isElementwise(f);
    if (!(elementwise || isa<SliceOp, ConcatOp>(f)) ||
        f->getNumResults() != 1 || f->getNumRegions() != 0 ||
        !isa_and_nonnull<BrrrDialect>(f->getDialect()))
      return failure();
    auto type = cast<RankedTensorType>(f->getResult(0).getType());
    if (!isSymbolic(type))
      return failure();
    // A scale by one value stays after the transpose, where attention and
    // the products read it as their scale.
    if (elementwise && f->getNumOperands() == 2 &&
        llvm::any_of(f->getOperands(), [](Value x) {
          auto t = cast<RankedTensorType>(x.getType());
          return t.hasStaticShape() && t.getNumElements() == 1;
        }))
      return rewriter.notifyMatchFailure(f, "a scale by one value");
    size_t rank = type.getRank();
    // The permutation of the first operand's transpose that moves extents
    // above 1.
    SmallVector<int64_t> perm;
    for (Value x : f->getOperands())
      if (auto t = x.getDefiningOp<TransposeOp>())
        if (!movesOnlyUnits(extentsOf(t.getInput().getType()), t.getPerm())) {
          perm.assign(t.getPerm().begin(), t.getPerm().end());
          break;
        }
    if (perm.size() != rank)
      return rewriter.notifyMatchFailure(f, "no transpose to sink");
    // f's operands in x's order: inverse[perm[i]] = i.
    SmallVector<int64_t> inverse(rank);
    for (auto [i, p] : llvm::enumerate(perm))
      inverse[p] = int64_t(i);
    SmallVector<Value> operands;
    for (Value y : f->getOperands()) {
      if (auto tr = y.getDefiningOp<TransposeOp>();
          tr && tr.getPerm() == ArrayRef<int64_t>(perm)) {
        operands.push_back(tr.getInput());
        continue;
      }
      Value viewed = permutedView(rewriter, f->getLoc(), y, inverse);
      if (!viewed)
        return rewriter.notifyMatchFailure(f, "an operand would move");
      operands.push_back(viewed);
    }
    SmallVector<AffineExpr> resultExtents =
        permuted<AffineExpr>(extentsOf(type), inverse);
    auto inner =
        tensorTypeOf(getContext(), resultExtents, type.getElementType());
    Value computed;
    if (auto slice = dyn_cast<SliceOp>(f)) {
      computed = SliceOp::create(rewriter, f->getLoc(), inner, operands[0],
                                 permuted(slice.getStarts(), inverse),
                                 permuted(slice.getSizes(), inverse),
                                 permuted(slice.getSteps(), inverse),
                                 extentsAttrOf(getContext(), resultExtents));
    } else if (auto concat = dyn_cast<ConcatOp>(f)) {
      computed = ConcatOp::create(rewriter, f->getLoc(), inner, operands,
                                  perm[concat.getAxis()]);
    } else {
      OperationState state(f->getLoc(), f->getName(), operands,
                           TypeRange{inner}, f->getAttrs());
      computed = rewriter.create(state)->getResult(0);
    }
    rewriter.replaceOpWithNewOp<TransposeOp>(f, type, computed, perm);
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
    // The 8-bit Tensor Cores read B only K-major: an 8-bit product's
    // weight stays stored so (brrr-quantized-products).
    if (isEightBitProductType(attr.getElementType()) &&
        llvm::any_of(op->getUsers(),
                     [](Operation *user) { return isa<MatmulOp>(user); }))
      return rewriter.notifyMatchFailure(op, "weight of an 8-bit product");
    ElementsAttr permuted = transposeWeights(attr, op.getType(), op.getPerm());
    if (!permuted)
      return rewriter.notifyMatchFailure(op, "operand is not a weight blob");
    rewriter.replaceOpWithNewOp<ConstantOp>(op, permuted);
    return success();
  }
};

/// matmul(A [..., M, 1], B [..., 1, N]) over symbolic extents -> A * B:
/// a contraction of one term is one product per element, broadcast as the
/// product broadcasts its batch. Llama's rotary frequencies are
/// inv_freq [1, d/2, 1] @ positions [1, 1, seq], an outer product over the
/// sequence.
struct OuterProductAsMultiply : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto a = cast<RankedTensorType>(op.getLhs().getType());
    auto b = cast<RankedTensorType>(op.getRhs().getType());
    if (a.getRank() < 2 || b.getRank() < 2 || !isSymbolic(op.getType()) ||
        a.getDimSize(a.getRank() - 1) != 1 ||
        b.getDimSize(b.getRank() - 2) != 1 ||
        a.getElementType() != op.getType().getElementType() ||
        b.getElementType() != op.getType().getElementType())
      return rewriter.notifyMatchFailure(op, "not a symbolic outer product");
    FailureOr<SmallVector<AffineExpr>> extents =
        broadcastExtents(extentsOf(a), extentsOf(b));
    if (failed(extents) || *extents != extentsOf(op.getType()))
      return rewriter.notifyMatchFailure(op, "broadcasts otherwise");
    rewriter.replaceOpWithNewOp<MulOp>(op, op.getType(), op.getLhs(),
                                       op.getRhs());
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
    if (isSymbolic(transpose.getInput().getType()))
      return rewriter.notifyMatchFailure(op, "symbolic extents");
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

} // namespace

void MatmulOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<TransposeAfterProduct, OuterProductAsMultiply>(context);
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<CollapseReshapeChain, TransposeThroughReshapes>(context);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposeChain, TransposeWeights, TransposeOfUnitDims,
              TransposeOfElementwise>(context);
  // Registered with the transposes it moves: it matches the ops that read
  // them.
  results.add<SinkTranspose>(context);
}
