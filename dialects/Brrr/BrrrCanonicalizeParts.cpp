//===- BrrrCanonicalizeParts.cpp - ops written out in parts ---------------===//
//
// The canonicalization patterns that recognize an op exporters write out
// in parts: RMSNorm as one layer_norm {rms}, F.normalize as one
// layer_norm {l2}, the erf and tanh GELUs as one
// gelu, and a pow by a small whole constant as multiplications. The other
// rewrites of `canonicalize`: BrrrCanonicalize.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <array>
#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// The value of a float splat constant `v`, or none.
std::optional<double> floatSplat(Value v) {
  SplatElementsAttr c;
  if (!matchPattern(v, m_Constant(&c)) || !isa<FloatType>(c.getElementType()))
    return std::nullopt;
  return c.getSplatValue<APFloat>().convertToDouble();
}

/// F.normalize written out, as torch's exporters write it (Swin V2's
/// cosine attention, CLIP's embeddings):
///   y = x / expand(max(sqrt(sum(xf * xf over the trailing axes)), eps))
/// with xf = x or x widened, the clamp a max by a constant or a clip from
/// below (or absent: eps 0), the expand and casts between the steps
/// optional -> layer_norm(x, 1) {l2, epsilon = eps}: one row kernel that
/// keeps the row in registers, where the parts take a reduction kernel and
/// a pointwise one that reads the row again. The length is summed and
/// clamped in f32 and the row rounded once (the parts round the squares,
/// the sum and the length to x's type).
struct L2NormFromParts : OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getLhs(), d = op.getRhs();
    auto yt = cast<RankedTensorType>(op.getType());
    // The row kernel computes in f32: f64 rows stay as written.
    if (x.getType() != yt ||
        !isa<Float16Type, BFloat16Type, Float32Type>(yt.getElementType()))
      return rewriter.notifyMatchFailure(op, "not a 16- or 32-bit float row");
    // The denominator down to the square root: expands, casts and one
    // clamp.
    std::optional<double> eps;
    SqrtOp root;
    for (int step = 0; step < 8 && !root; ++step) {
      Operation *def = d.getDefiningOp();
      if (auto e = dyn_cast_or_null<ExpandOp>(def)) {
        d = e.getInput();
      } else if (auto c = dyn_cast_or_null<CastOp>(def);
                 c && isa<FloatType>(getElementTypeOrSelf(c.getInput()))) {
        d = c.getInput();
      } else if (auto m = dyn_cast_or_null<MaxOp>(def); m && !eps) {
        for (int side = 0; side < 2 && !eps; ++side)
          if ((eps = floatSplat(m->getOperand(1 - side))))
            d = m->getOperand(side);
        if (!eps)
          break;
      } else if (auto c = dyn_cast_or_null<ClipOp>(def);
                 c && !eps && c.getMin() && !c.getMax()) {
        eps = roundedTo(getElementTypeOrSelf(c.getType()),
                        c.getMin()->convertToDouble());
        d = c.getInput();
      } else if (auto s = dyn_cast_or_null<SqrtOp>(def)) {
        root = s;
      } else {
        break;
      }
    }
    if (!root)
      return rewriter.notifyMatchFailure(op, "no square root of a length");
    Value s = root.getInput();
    while (auto c = s.getDefiningOp<CastOp>())
      s = c.getInput();
    auto sum = s.getDefiningOp<ReduceOp>();
    if (!sum || sum.getKind() != ReduceKind::sum || !sum.getKeepdims())
      return rewriter.notifyMatchFailure(op, "no sum of squares");
    auto square = sum.getInput().getDefiningOp<MulOp>();
    if (!square || square.getLhs() != square.getRhs())
      return rewriter.notifyMatchFailure(op, "no sum of squares");
    Value xf = square.getLhs();
    if (xf != x) {
      auto c = xf.getDefiningOp<CastOp>();
      if (!c || c.getInput() != x ||
          !widensExactly(yt.getElementType(), getElementTypeOrSelf(xf)))
        return rewriter.notifyMatchFailure(op, "the squares are not x's");
    }
    // The sum covers the trailing axes from `axis`, of static extents.
    ArrayRef<int64_t> axes = sum.getAxes();
    int64_t rank = yt.getRank(), axis = rank - axes.size();
    bool trailing = !axes.empty();
    for (auto [i, a] : llvm::enumerate(axes))
      trailing &= a == axis + static_cast<int64_t>(i) && !yt.isDynamicDim(a);
    double epsilon = eps.value_or(0.0);
    if (!trailing || !(epsilon >= 0) || !std::isfinite(epsilon))
      return rewriter.notifyMatchFailure(op, "not an L2 normalization");
    auto unitType = RankedTensorType::get(yt.getShape().drop_front(axis),
                                          yt.getElementType());
    Value unit = ConstantOp::create(
        rewriter, op.getLoc(),
        DenseElementsAttr::get(
            unitType, rewriter.getFloatAttr(yt.getElementType(), 1.0)));
    rewriter.replaceOpWithNewOp<LayerNormOp>(
        op, yt, x, unit, Value(), rewriter.getI64IntegerAttr(axis),
        rewriter.getF64FloatAttr(epsilon), UnitAttr(), rewriter.getUnitAttr());
    return success();
  }
};

/// RMSNorm written out, as transformers' LlamaRMSNorm exports it:
///   xf = cast(x) to f32 (or x itself when f32)
///   r  = reciprocal(sqrt(mean(xf * xf over the trailing axes) + eps)),
///        or rsqrt(...)
///   y  = cast(xf * r) back to x's type (or not) * w
/// -> layer_norm(x, w) {rms, epsilon = eps}: one row kernel that keeps the
/// row in registers, instead of a reduction that writes the f32 row and a
/// pointwise kernel that reads it back. The norm is computed in f32 and
/// rounded once (the written-out form rounds before the scale too).
struct RmsNormFromParts : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    auto shape = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getShape();
    };
    for (int side = 0; side < 2; ++side) {
      Value normed = op->getOperand(side), w = op->getOperand(1 - side);
      if (auto c = normed.getDefiningOp<CastOp>())
        normed = c.getInput();
      auto scaled = normed.getDefiningOp<MulOp>();
      if (!scaled)
        continue;
      for (int k = 0; k < 2; ++k) {
        Value xf = scaled->getOperand(k), r = scaled->getOperand(1 - k);
        // r = 1 / sqrt(mean + eps)
        Value sum;
        if (auto rs = r.getDefiningOp<RsqrtOp>()) {
          sum = rs.getInput();
        } else if (auto rec = r.getDefiningOp<ReciprocalOp>()) {
          if (auto sq = rec.getInput().getDefiningOp<SqrtOp>())
            sum = sq.getInput();
        }
        auto add = sum ? sum.getDefiningOp<AddOp>() : AddOp();
        if (!add)
          continue;
        for (int a = 0; a < 2; ++a) {
          auto mean = add->getOperand(a).getDefiningOp<ReduceOp>();
          DenseFPElementsAttr eps;
          if (!mean || mean.getKind() != ReduceKind::mean ||
              !mean.getKeepdims() ||
              !matchPattern(add->getOperand(1 - a), m_Constant(&eps)) ||
              eps.getNumElements() != 1)
            continue;
          auto square = mean.getInput().getDefiningOp<MulOp>();
          if (!square || square.getLhs() != xf || square.getRhs() != xf)
            continue;
          // The reduction covers the trailing axes from `axis`.
          auto xt = cast<RankedTensorType>(xf.getType());
          ArrayRef<int64_t> axes = mean.getAxes();
          int64_t rank = xt.getRank(), axis = rank - axes.size();
          bool trailing = !axes.empty();
          for (auto [i, ax] : llvm::enumerate(axes))
            trailing &= ax == axis + static_cast<int64_t>(i);
          if (!trailing || !isa<Float32Type, Float64Type>(xt.getElementType()))
            continue;
          Value x = xf;
          if (auto c = xf.getDefiningOp<CastOp>();
              c && widensExactly(c.getInput().getType().getElementType(),
                                 xt.getElementType()))
            x = c.getInput();
          // The result has x's type and shape; the scale has the
          // normalized shape and x's element type.
          auto yt = cast<RankedTensorType>(op.getType());
          auto wt = cast<RankedTensorType>(w.getType());
          if (yt != x.getType() || wt.getShape() != shape(x).drop_front(axis) ||
              wt.getElementType() != yt.getElementType() ||
              op->getOperand(side).getType() != yt)
            continue;
          double epsilon = (*eps.value_begin<APFloat>()).convertToDouble();
          if (!(epsilon >= 0) || !std::isfinite(epsilon))
            continue;
          rewriter.replaceOpWithNewOp<LayerNormOp>(
              op, yt, x, w, Value(), rewriter.getI64IntegerAttr(axis),
              rewriter.getF64FloatAttr(epsilon), rewriter.getUnitAttr());
          return success();
        }
      }
    }
    return rewriter.notifyMatchFailure(op, "not an RMS norm written out");
  }
};

/// Whether `v` is a float splat within 2^-11 (relative) of `want`: the
/// f16 and bf16 roundings of sqrt(2) and 1 / sqrt(2) (1.5e-4 off) pass.
bool isSplatNear(Value v, double want) {
  std::optional<double> c = floatSplat(v);
  return c && std::fabs(*c - want) <= 0x1p-11 * std::fabs(want);
}

/// GELU written out, as exporters before opset 20 and models' own code
/// spell it: x * 0.5 * (1 + erf(x / sqrt(2))), with x / sqrt(2) or
/// x * (1 / sqrt(2)), the halving applied to x, to 1 + erf or to their
/// product, and every product and sum in either order -> gelu(x): one op,
/// which a 16-bit kernel computes by the GELU's own arithmetic (its tail
/// probability, no erff and no division) and an f32 one by libdevice's
/// erf, as before. The same with tanh(sqrt(2 / pi) (x + 0.044715 x^3)) in
/// place of the erf (GPT-2's gelu_new, torch's approximate='tanh' before
/// opset 20; x^3 as pow(x, 3) or x * x * x) -> gelu(x) approximate tanh,
/// which a 16-bit kernel computes as x sigmoid(2 u) (an exp2 and a
/// reciprocal, no tanhf). The constants are splats that broadcast to x's
/// type. One value differs: x = -inf, whose written-out erf form is
/// -inf * 0 = NaN, where a 16-bit erf gelu gives its limit, 0.
struct GeluFromParts : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    Type t = op.getType();
    if (!isa<FloatType>(getElementTypeOrSelf(t)))
      return rewriter.notifyMatchFailure(op, "not a float product");
    auto operands = [](Operation *m) {
      return std::array<std::pair<Value, Value>, 2>{
          {{m->getOperand(0), m->getOperand(1)},
           {m->getOperand(1), m->getOperand(0)}}};
    };
    // Whether v = x * x * x (either order), or pow(x, 3).
    auto isCube = [&](Value v, Value x) {
      if (auto pow = v.getDefiningOp<PowOp>())
        return pow.getLhs() == x && isSplatNear(pow.getRhs(), 3.0);
      auto mul = v.getDefiningOp<MulOp>();
      if (!mul)
        return false;
      for (auto [a, sq] : operands(mul)) {
        auto square = sq.getDefiningOp<MulOp>();
        if (a == x && square && square.getLhs() == x && square.getRhs() == x)
          return true;
      }
      return false;
    };
    // Whether d = sqrt(2 / pi) * (x + 0.044715 * x^3) (every product and
    // sum in either order).
    auto isTanhArgument = [&](Value d, Value x) {
      auto mul = d.getDefiningOp<MulOp>();
      if (!mul)
        return false;
      for (auto [sum, k] : operands(mul)) {
        auto add = sum.getDefiningOp<AddOp>();
        if (!add || !isSplatNear(k, std::sqrt(2.0 / M_PI)))
          continue;
        for (auto [a, term] : operands(add)) {
          auto scaled = term.getDefiningOp<MulOp>();
          if (a != x || !scaled)
            continue;
          for (auto [cube, c] : operands(scaled))
            if (isSplatNear(c, 0.044715) && isCube(cube, x))
              return true;
        }
      }
      return false;
    };
    // The GELU whose 1 + Phi-like term p is (either order): 1 + erf(x /
    // sqrt(2)) (either form), or 1 + tanh(isTanhArgument).
    auto termOf = [&](Value p, Value x) -> std::optional<GeluApproximation> {
      auto add = p.getDefiningOp<AddOp>();
      if (!add)
        return std::nullopt;
      for (auto [e, one] : operands(add)) {
        if (!isSplatNear(one, 1.0))
          continue;
        if (auto tanh = e.getDefiningOp<TanhOp>();
            tanh && isTanhArgument(tanh.getInput(), x))
          return GeluApproximation::tanh;
        auto erf = e.getDefiningOp<ErfOp>();
        if (!erf)
          continue;
        Value d = erf.getInput();
        if (auto div = d.getDefiningOp<DivOp>();
            div && div.getLhs() == x && isSplatNear(div.getRhs(), M_SQRT2))
          return GeluApproximation::none;
        if (auto mul = d.getDefiningOp<MulOp>())
          for (auto [a, c] : operands(mul))
            if (a == x && isSplatNear(c, M_SQRT1_2))
              return GeluApproximation::none;
      }
      return std::nullopt;
    };
    for (auto [u, v] : operands(op)) {
      Value x;
      std::optional<GeluApproximation> kind;
      auto inner = u.getDefiningOp<MulOp>();
      if (inner && isSplatNear(v, 0.5)) {
        // (x * p) * 0.5
        for (auto [a, p] : operands(inner))
          if (!x && (kind = termOf(p, a)))
            x = a;
      } else if (inner) {
        // (x * 0.5) * p, or (p * 0.5) * x
        for (auto [a, half] : operands(inner)) {
          if (x || !isSplatNear(half, 0.5))
            continue;
          if ((kind = termOf(v, a)))
            x = a;
          else if ((kind = termOf(a, v)))
            x = v;
        }
      }
      if (x && x.getType() == t) {
        rewriter.replaceOpWithNewOp<GeluOp>(op, t, x, *kind);
        return success();
      }
    }
    return rewriter.notifyMatchFailure(op, "not a GELU written out");
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
    std::optional<double> exponent = floatSplat(op.getRhs());
    if (!exponent)
      return rewriter.notifyMatchFailure(op, "exponent is not a float splat");
    double c = *exponent;
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

} // namespace

void MulOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<RmsNormFromParts, GeluFromParts>(context);
}

void DivOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<L2NormFromParts>(context);
}

void PowOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<PowToMultiplications>(context);
}
