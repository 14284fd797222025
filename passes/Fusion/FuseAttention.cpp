//===- FuseAttention.cpp - decomposed attention -> brrr.attention --------===//
//
// Recognition pass for scaled dot-product attention (flag
// brrr-fuse-attention), after brrr-lower-precision and before the fusion
// passes, which would split the pattern over kernels. Both ONNX exporters
// spell attention out as
//
//   s = matmul(q', kT')            q', kT': q and k^T, each possibly times
//                                  (or over) a scalar constant
//   x = add(s'', bias)             s'': s, possibly cast to f32 and scaled
//                                  by constants, and by a factor that is
//                                  the same for every key (one per head:
//                                  Swin V2's learned temperature); the
//                                  additive mask is optional, or several
//                                  added in turn (their sum)
//   p = softmax(x) over the last axis
//   p' = where(isnan(p), 0, p)     optional clean-up of fully masked rows
//   o = matmul(cast(p'), v)
//
// and every such chain whose products multiply f16 or bf16 (or f32 over
// symbolic sequences) becomes one `brrr.attention` (scales multiplied into
// `scale`, a factor for every key multiplied into the queries), which
// brrr-fuse-matmul makes an `attention` kernel that never writes the
// scores. A constant causal mask, `where(j <= i, 0, -big)`, becomes the
// op's `causal` flag, so the kernel skips the masked key blocks.
//
// Where a softmax feeds a product with values but the rest does not match,
// the pass records why on the softmax (`brrr.attention_unfused`), and
// `brrrc --report` prints it.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
#include "passes/Config/Attention.h"
#include "passes/Fusion/AttentionHeads.h"
#include "passes/Fusion/AttentionMasks.h"
#include "passes/Passes.h"

#include "mlir/IR/Builders.h"

#include <cmath>

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEATTENTION
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::attention_heads;
using namespace mlir::brrr::attention_masks;

namespace {

/// `v` before multiplications and divisions by scalar constants, whose
/// factors are multiplied into `scale`, and before float casts: all of
/// them with `casts`, else only a cast of a scaled value (an f32 operand
/// scaled, then rounded for an f16 product), which the caller re-applies
/// to the value it gets.
Value peelScale(Value v, double &scale, bool casts) {
  while (Operation *op = v.getDefiningOp()) {
    if (auto cast = dyn_cast<CastOp>(op)) {
      if (!isa<FloatType>(elementOf(cast.getInput())))
        break;
      Operation *in = cast.getInput().getDefiningOp();
      if (!casts && !isa_and_nonnull<MulOp, DivOp>(in))
        break;
      double inner = scale;
      Value x = peelScale(cast.getInput(), inner, /*casts=*/false);
      if (x == cast.getInput() && !casts)
        break;
      scale = inner;
      v = x;
      continue;
    }
    if (!isa<MulOp, DivOp>(op))
      break;
    Value x = op->getOperand(0);
    std::optional<double> k = scalarConstant(op->getOperand(1));
    if (!k && isa<MulOp>(op)) {
      x = op->getOperand(1);
      k = scalarConstant(op->getOperand(0));
    }
    if (!k || !std::isfinite(*k) || shapeOf(x) != shapeOf(v) ||
        (isa<DivOp>(op) && *k == 0))
      break;
    scale = isa<DivOp>(op) ? scale / *k : scale * *k;
    v = x;
  }
  return v;
}

/// `v` without a cast that widens it exactly and back (f16 through f32), as
/// CastOp's folder would fold it.
Value skipRoundTrip(Value v) {
  auto outer = v.getDefiningOp<CastOp>();
  auto inner = outer ? outer.getInput().getDefiningOp<CastOp>() : CastOp();
  if (inner && inner.getInput().getType() == v.getType() &&
      widensExactly(elementOf(v), elementOf(inner)))
    return inner.getInput();
  return v;
}

/// Whether `v` is a value of `et` widened exactly, possibly transposed
/// (GPT-Neo casts its f16 queries and keys to f32 for the scores): the
/// attention kernel's f32 sums of `et` products are then the wider product.
bool widenedFrom(Value v, Type et) {
  while (auto t = v.getDefiningOp<TransposeOp>())
    v = t.getInput();
  auto cast = v.getDefiningOp<CastOp>();
  return cast && elementOf(cast.getInput()) == et &&
         widensExactly(et, elementOf(v));
}

/// The scores `v` before a multiplication or division by a factor that is
/// the same for every key (static, of `v`'s element type, 1 along the last
/// axis once broadcast to `v`'s rank: one per head, or per query), which
/// goes to `factor` (`divides` for a division); null if `v` is no such
/// product. (q k^T) f is (q f) k^T: the queries take the factor.
Value peelKeyFactor(Value v, Value &factor, bool &divides) {
  Operation *op = v.getDefiningOp();
  if (!isa_and_nonnull<MulOp, DivOp>(op))
    return Value();
  auto isFactor = [&](Value f) {
    auto t = dyn_cast<RankedTensorType>(f.getType());
    return t && t.hasStaticShape() && t.getElementType() == elementOf(v) &&
           t.getRank() <= int64_t(shapeOf(v).size()) &&
           (t.getRank() == 0 || t.getShape().back() == 1);
  };
  for (unsigned side : {1u, 0u}) {
    if (side == 0 && isa<DivOp>(op))
      break;
    Value scores = op->getOperand(1 - side), f = op->getOperand(side);
    if (shapeOf(scores) == shapeOf(v) && isFactor(f)) {
      factor = f;
      divides = isa<DivOp>(op);
      return scores;
    }
  }
  return Value();
}

/// Whether `factor` broadcasts onto the queries `q` without widening them:
/// each of its extents, right-aligned, is 1 or the queries' static extent.
bool scalesQueries(Value factor, Value q) {
  auto qt = cast<RankedTensorType>(q.getType());
  ArrayRef<int64_t> fs = shapeOf(factor);
  if (fs.size() > size_t(qt.getRank()))
    return false;
  for (size_t i = 0; i < fs.size(); ++i) {
    int64_t d = qt.getRank() - fs.size() + i;
    if (fs[i] != 1 && (qt.isDynamicDim(d) || qt.getDimSize(d) != fs[i]))
      return false;
  }
  return true;
}

/// One matched attention.
struct Match {
  Value query, keyT, value, bias;
  /// A factor of the scores for every key (see peelKeyFactor), divided by
  /// where `factorDivides`: the queries take it.
  Value factor;
  bool factorDivides = false;
  /// Shifted windows: a mask broadcasting to [B / P, P, H, Sq, Sk], added
  /// to the scores (and `bias`) viewed so.
  Value windowMask;
  double scale = 1;
  bool zeroNan = false, causal = false;
  MatmulOp output; ///< the product with the values, replaced
  /// Ops the match built for the bias (a masked fill's), erased if the
  /// attention does not fuse.
  SmallVector<Operation *> made;
};

/// Matches the attention around `sm`. Returns false, leaving `why` empty,
/// when the softmax does not feed a product with values (it is not
/// attention), and false with the reason when it does but the rest cannot
/// be fused.
bool matchAttention(SoftmaxOp sm, Match &m, std::string &why) {
  auto type = cast<RankedTensorType>(sm.getType());
  Value p = sm.getResult();
  // The optional NaN clean-up: where(p != p, 0, p), p read by nothing else.
  if (!p.hasOneUse()) {
    CompareOp isNan;
    WhereOp clean;
    for (Operation *user : p.getUsers()) {
      if (auto c = dyn_cast<CompareOp>(user);
          c && c.getPredicate() == ComparePredicate::ne && c.getLhs() == p &&
          c.getRhs() == p && c->hasOneUse())
        isNan = c;
      else if (auto w = dyn_cast<WhereOp>(user))
        clean = w;
      else
        return false;
    }
    if (!isNan || !clean || clean.getOperand(0) != isNan.getResult() ||
        clean.getOperand(2) != p || clean.getType() != type ||
        scalarConstant(clean.getOperand(1)) != 0.0 ||
        llvm::range_size(p.getUsers()) != 3)
      return false;
    m.zeroNan = true;
    p = clean.getResult();
  }
  if (!p.hasOneUse())
    return false;
  if (auto cast = dyn_cast<CastOp>(*p.getUsers().begin())) {
    p = cast.getResult();
    if (!p.hasOneUse())
      return false;
  }
  auto pv = dyn_cast<MatmulOp>(*p.getUsers().begin());
  if (!pv || pv.getLhs() != p || pv.getRhs() == p)
    return false;
  m.output = pv;

  // From here on the softmax feeds a product with values: say why not.
  if (type.getRank() != 4 || sm.getAxis() != 3) {
    why = "the softmax is not over the last axis of rank-4 scores";
    return false;
  }
  // f32 products fuse over symbolic sequences, where the scores cannot be
  // written (their inner extents change with the shape), as three tf32
  // products each: f32 accuracy, as the unfused products of a static
  // sequence have.
  Type et = elementOf(pv.getLhs());
  bool overSequences = isSymbolic(type) && outerRunOf(type) > 1;
  if (!(et.isF16() || et.isBF16() || (et.isF32() && overSequences))) {
    why = "the product with the values multiplies ";
    llvm::raw_string_ostream(why)
        << et
        << "; f16 and bf16 products fuse, f32 ones over symbolic sequences "
           "(--precision=fp16 or bf16 runs f32 models in 16 bits)";
    return false;
  }
  m.value = skipRoundTrip(pv.getRhs());
  // The scores, possibly plus a mask: the side that comes from a product of
  // the score tensor's shape.
  Value x = sm.getInput();
  // The product under constant scales and at most one factor for every
  // key (into m.factor where found).
  auto scoresOf = [&](Value v, double &scale) -> MatmulOp {
    v = peelScale(v, scale, /*casts=*/true);
    Value factor;
    bool divides = false;
    if (Value inner = peelKeyFactor(v, factor, divides))
      v = peelScale(inner, scale, /*casts=*/true);
    auto mm = v.getDefiningOp<MatmulOp>();
    if (!mm || shapeOf(mm) != type.getShape())
      return MatmulOp();
    m.factor = factor;
    m.factorDivides = divides;
    return mm;
  };
  // Shifted windows (Swin): the scores viewed as [B / P, P, H, Sq, Sk],
  // plus a mask for each of the P windows, viewed back.
  if (auto back = x.getDefiningOp<ReshapeOp>()) {
    auto add = back.getInput().getDefiningOp<AddOp>();
    ArrayRef<int64_t> s = type.getShape();
    for (int side = 0; add && side < 2 && !m.windowMask; ++side) {
      auto split = add->getOperand(side).getDefiningOp<ReshapeOp>();
      Value mask = add->getOperand(1 - side);
      ArrayRef<int64_t> w = shapeOf(add.getResult());
      if (!split || shapeOf(split.getInput()) != s || shapeOf(split) != w ||
          w.size() != 5 || w[0] * w[1] != s[0] ||
          w.take_back(3) != s.take_back(3) || shapeOf(mask).size() > 5)
        continue;
      // The mask must not vary with the image (its first dimension, once
      // broadcast to rank 5, is 1).
      ArrayRef<int64_t> ms = shapeOf(mask);
      if (ms.size() == 5 && ms[0] != 1)
        continue;
      m.windowMask = mask;
      x = split.getInput();
    }
  }
  // A masked fill of the scores, where(keep, s, low) or where(drop, low,
  // s) with `low` at most kMaskedScore (transformers' finfo.min) or -inf,
  // is s plus the bias where(keep, 0, low), or where(keep, bias, low)
  // beside a bias: the kernel floors a bias so low, so a key so masked
  // gets probability 0 beside any kept key, and a row whose keys are all
  // masked averages them (or is NaN, for -inf), as the fill does. A bias
  // added after the fill (GPT-2's eager attention: the causal fill, then
  // the padding mask) joins the bias inside it: a filled score plus a mask
  // or a position bias stays far below every kept one.
  WhereOp fill;
  unsigned filled = 0; // the operand of `fill` that the scores are
  auto fillOf = [&](Value v) -> Value {
    auto w = v.getDefiningOp<WhereOp>();
    if (!w || fill || m.windowMask)
      return Value();
    for (unsigned side : {1u, 2u}) {
      Value s = w->getOperand(side), low = w->getOperand(3 - side);
      std::optional<double> value = scalarConstant(low);
      if (value && *value <= kMaskedScore && shapeOf(s) == type.getShape() &&
          elementOf(low) == elementOf(s)) {
        fill = w;
        filled = side;
        return s;
      }
    }
    return Value();
  };
  // The scores plus one bias or several, added one after the other (MPNet:
  // a relative position bias, then the padding mask), around at most one
  // fill: the biases' sum is the bias, which the kernel adds to the f32
  // scores at once (a padding mask of 0 and the lowest value changes no
  // position bias it adds to, and masks what it masked).
  double scale = 1;
  MatmulOp qk;
  SmallVector<Value> biases;
  for (Value sum = x; !qk;) {
    scale = 1;
    if ((qk = scoresOf(sum, scale)))
      break;
    if (Value s = fillOf(sum)) {
      sum = s;
      continue;
    }
    auto add = sum.getDefiningOp<AddOp>();
    if (!add)
      break;
    // The side that is the scores, else the side that adds more to them or
    // fills them.
    Value inner;
    for (bool deeper : {false, true})
      for (int side = 0; side < 2 && !qk && !inner; ++side) {
        Value scores = add->getOperand(side);
        if (shapeOf(scores) != type.getShape())
          continue;
        scale = 1;
        if (!deeper)
          qk = scoresOf(scores, scale);
        else if (isa_and_nonnull<AddOp, WhereOp>(scores.getDefiningOp()))
          inner = scores;
        if (qk || inner)
          biases.push_back(add->getOperand(1 - side));
      }
    if (!inner)
      break;
    sum = inner;
  }
  if (qk && !biases.empty()) {
    // Innermost first, as the scores meet them.
    OpBuilder b(sm);
    m.bias = biases.pop_back_val();
    while (!biases.empty()) {
      Value next = biases.pop_back_val();
      // Each broadcasts to the scores, so to each other (symbolic extents
      // included); their element type is the scores'.
      SmallVector<Type, 1> sumType;
      if (failed(inferBroadcastResult(std::nullopt, m.bias, next, Type(),
                                      sumType))) {
        why = "the scores' biases do not broadcast to one another";
        return false;
      }
      m.bias = AddOp::create(b, sm.getLoc(), sumType.front(), m.bias, next);
      m.made.push_back(m.bias.getDefiningOp());
    }
  }
  if (qk && m.windowMask && m.bias) {
    // A position bias beside the window mask must be the same for every
    // batch entry, and of the mask's element type.
    ArrayRef<int64_t> bs = shapeOf(m.bias);
    if ((bs.size() == 4 && bs[0] != 1) || bs.size() > 4 ||
        elementOf(m.bias) != elementOf(m.windowMask)) {
      why = "the scores have a position bias that varies with the batch "
            "beside a mask for each window";
      return false;
    }
  }
  if (!qk) {
    why = "the softmax's input is not a product of queries and keys, "
          "scaled by constants, plus masks and a masked fill";
    return false;
  }
  if (fill) {
    // The fill applied to the bias (zero without one). A finite fill
    // becomes its type's lowest, which the kernel scores as a masked key
    // whatever the product (at -65504 in f32 the product would survive in
    // a row whose keys are all masked, which the fill averages).
    Value low = fill->getOperand(3 - filled);
    OpBuilder b(sm);
    if (auto ft = dyn_cast<FloatType>(elementOf(low));
        ft && std::isfinite(*scalarConstant(low))) {
      APFloat lowest = APFloat::getLargest(ft.getFloatSemantics(), true);
      if (*scalarConstant(low) != lowest.convertToDouble()) {
        auto lowType = RankedTensorType::get({}, ft);
        low = ConstantOp::create(b, sm.getLoc(),
                                 DenseElementsAttr::get(lowType, lowest));
        m.made.push_back(low.getDefiningOp());
      }
    }
    if (!m.bias) {
      auto zeroType = RankedTensorType::get({}, elementOf(low));
      m.bias = ConstantOp::create(
          b, sm.getLoc(),
          DenseElementsAttr::get(zeroType, b.getZeroAttr(elementOf(low))));
      m.made.push_back(m.bias.getDefiningOp());
    } else if (elementOf(m.bias) != elementOf(low)) {
      why = "the scores' bias and masked fill differ in element type";
      return false;
    }
    // The condition as it broadcasts to the scores, without the expand
    // that some exports fill the scores' shape with (DistilBERT's).
    Value cond = fill.getCondition();
    while (auto e = cond.getDefiningOp<ExpandOp>())
      cond = e.getInput();
    m.bias = filled == 1 ? WhereOp::create(b, sm.getLoc(), cond, m.bias, low)
                         : WhereOp::create(b, sm.getLoc(), cond, low, m.bias);
    m.made.push_back(m.bias.getDefiningOp());
  }
  // A mask of zeros (an exporter's mask that keeps every key, folded)
  // changes no score.
  if (m.bias && !m.windowMask && isZeroSplat(m.bias))
    m.bias = Value();
  m.query = peelScale(qk.getLhs(), scale, /*casts=*/false);
  m.keyT = peelScale(qk.getRhs(), scale, /*casts=*/false);
  m.scale = scale;
  if (m.factor && !scalesQueries(m.factor, m.query)) {
    why = "the scores' factor for every key does not broadcast onto the "
          "queries";
    return false;
  }
  if ((elementOf(qk.getLhs()) != et && !widenedFrom(m.query, et)) ||
      (elementOf(qk.getRhs()) != et && !widenedFrom(m.keyT, et)) ||
      elementOf(m.value) != et) {
    why = "queries, keys and values are not all of the probabilities' "
          "element type";
    return false;
  }
  ArrayRef<int64_t> q = shapeOf(m.query), kT = shapeOf(m.keyT),
                    v = shapeOf(m.value);
  if (q.size() != 4 || kT.size() != 4 || v.size() != 4 ||
      q.take_front(2) != kT.take_front(2) ||
      q.take_front(2) != v.take_front(2)) {
    why = "queries, keys and values are not rank 4 with the same batch and "
          "heads";
    return false;
  }
  int64_t d = q[3], dv = v[3], step = AttentionTile::headStep(et);
  int64_t most = AttentionTile::maxHead(et);
  if (d % step || dv % step || d > most || dv > most) {
    why = "head sizes ";
    llvm::raw_string_ostream(why)
        << d << " and " << dv << " must be multiples of " << step << " up to "
        << most << " for the attention kernel";
    return false;
  }
  // A causal mask is recognized from constants of the scores' extents, or
  // from index arithmetic over symbolic sequences.
  if (m.bias && !m.windowMask &&
      isCausalBias(m.bias,
                   extentsOf(cast<RankedTensorType>(m.query.getType()))[2],
                   extentsOf(cast<RankedTensorType>(m.keyT.getType()))[3])) {
    m.bias = Value();
    m.causal = true;
  }
  return true;
}

/// Whether the attention `m` around `sm` compiles over its symbolic
/// extents: static; symbolic in its batch alone (queries, keys, values,
/// scores and result symbolic in their first dimension only, all of one
/// extent there, and a bias that either shares it or is the same for every
/// batch entry: the kernel's grid z is the actual batch); or symbolic in
/// its sequences too, without a window mask (brrr.attention's verifier
/// checks the extents; the kernel reads the actual sequences and the
/// strides that follow from them). Otherwise says why not in `why`.
bool fusesOverSymbolicExtents(SoftmaxOp sm, const Match &m, std::string &why) {
  auto scores = cast<RankedTensorType>(sm.getType());
  if (!isSymbolic(scores))
    return true;
  if (outerRunOf(scores) > 1) {
    bool ok = !m.windowMask;
    if (m.bias)
      ok &= cast<RankedTensorType>(m.bias.getType()).getRank() <= 4;
    if (!ok)
      why = "over symbolic sequences, attention fuses without a window mask "
            "and with a bias of rank 4 at most";
    return ok;
  }
  AffineExpr batch = extentsOf(scores).front();
  auto sameBatch = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    return t.getRank() == 4 && outerRunOf(t) <= 1 &&
           extentsOf(t).front() == batch;
  };
  MatmulOp output = m.output;
  bool ok = !m.windowMask && sameBatch(m.query) && sameBatch(m.keyT) &&
            sameBatch(m.value) && sameBatch(output.getResult());
  if (ok && m.bias) {
    auto bt = cast<RankedTensorType>(m.bias.getType());
    ok = bt.getRank() < 4 || (!isSymbolic(bt) && bt.getDimSize(0) == 1) ||
         sameBatch(m.bias);
  }
  if (!ok)
    why = "over symbolic extents, attention fuses where only its batch is "
          "symbolic";
  return ok;
}

/// The rank-5 bias of shifted-window attention: `mask`, broadcasting to
/// [B / P, P, H, Sq, Sk] with a first dimension of 1, plus `bias` (if any,
/// the same for every batch entry) broadcast to [1, 1, H, Sq, Sk]: one
/// tensor of P (window) x H (head) matrices, which the kernel indexes by
/// its batch entry modulo P.
Value windowBias(OpBuilder &b, Location loc, Value mask, Value bias) {
  // `v` broadcasting to `rank` dimensions, as rank 5: the mask is already
  // [B / P, P, H, Sq, Sk]; the bias, [B, H, Sq, Sk] with B = 1, gains the
  // window dimension after its first.
  auto rank5 = [&](Value v, int64_t rank) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(rank - t.getRank(), 1);
    llvm::append_range(shape, t.getShape());
    if (rank == 4)
      shape.insert(shape.begin() + 1, 1);
    if (ArrayRef<int64_t>(shape) == t.getShape())
      return v;
    return ReshapeOp::create(b, loc, t.clone(shape), v);
  };
  Value m = rank5(mask, 5);
  if (!bias)
    return m;
  Value p = rank5(bias, 4);
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip(shapeOf(m), shapeOf(p)))
    shape.push_back(std::max(x, y));
  auto type = cast<RankedTensorType>(m.getType()).clone(shape);
  return AddOp::create(b, loc, type, p, m);
}

struct FuseAttentionPass
    : public mlir::brrr::impl::BrrrFuseAttentionBase<FuseAttentionPass> {
  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::ops)))
      return signalPassFailure();
    SmallVector<SoftmaxOp> softmaxes;
    getOperation().walk([&](SoftmaxOp sm) {
      if (!sm->getParentOfType<FusionOp>())
        softmaxes.push_back(sm);
    });
    for (SoftmaxOp sm : softmaxes)
      splitHeadsAround(sm);
    for (SoftmaxOp sm : softmaxes) {
      Match m;
      std::string why;
      if (!matchAttention(sm, m, why) ||
          !fusesOverSymbolicExtents(sm, m, why)) {
        if (!why.empty())
          sm->setAttr("brrr.attention_unfused",
                      StringAttr::get(sm.getContext(), why));
        for (Operation *op : llvm::reverse(m.made))
          op->erase();
        continue;
      }
      OpBuilder b(m.output);
      Location loc = m.output.getLoc();
      // Operands scaled before a rounding cast take that cast unscaled.
      Type et = elementOf(m.value);
      // `v` in `et`: the value a cast widened, else rounded.
      auto narrowed = [&](Value v) -> Value {
        auto widen = v.getDefiningOp<CastOp>();
        if (widen && elementOf(widen.getInput()) == et)
          return widen.getInput();
        return CastOp::create(b, loc,
                              cast<RankedTensorType>(v.getType()).clone(et), v);
      };
      if (elementOf(m.query) != et)
        m.query = narrowed(m.query);
      // A transpose of widened keys is taken apart below.
      if (elementOf(m.keyT) != et && !m.keyT.getDefiningOp<TransposeOp>())
        m.keyT = narrowed(m.keyT);
      // K^T as the exporters write it is a transpose of the keys: take them
      // (rounded, where the transpose was).
      Value key;
      Operation *made = nullptr;
      auto rounded = m.keyT.getDefiningOp<CastOp>();
      if (auto t = m.keyT.getDefiningOp<TransposeOp>();
          t && t.getPerm() == ArrayRef<int64_t>{0, 1, 3, 2}) {
        key = t.getInput();
      } else if (auto t = rounded
                              ? rounded.getInput().getDefiningOp<TransposeOp>()
                              : TransposeOp();
                 t && t.getPerm() == ArrayRef<int64_t>{0, 1, 3, 2}) {
        auto kType = cast<RankedTensorType>(t.getInput().getType());
        key = CastOp::create(b, loc, kType.clone(elementOf(m.keyT)),
                             t.getInput());
        made = key.getDefiningOp();
      } else {
        auto kT = cast<RankedTensorType>(m.keyT.getType());
        auto kType = shapedLike(kT,
                                {kT.getDimSize(0), kT.getDimSize(1),
                                 kT.getDimSize(3), kT.getDimSize(2)},
                                kT.getElementType());
        key = TransposeOp::create(b, loc, kType, m.keyT,
                                  b.getDenseI64ArrayAttr({0, 1, 3, 2}));
        made = key.getDefiningOp();
      }
      // Keys widened for the scores' product, as they were.
      if (elementOf(key) != et)
        key = narrowed(key);
      // Queries and keys widened and rounded back (an f16 model's f32
      // scores that --precision runs in f16) as they were.
      m.query = skipRoundTrip(m.query);
      key = skipRoundTrip(key);
      if (m.factor) {
        // The queries times (or over) the factor, in their element type.
        Value f = m.factor;
        auto qType = cast<RankedTensorType>(m.query.getType());
        if (elementOf(f) != qType.getElementType())
          f = CastOp::create(
              b, loc,
              cast<RankedTensorType>(f.getType()).clone(qType.getElementType()),
              f);
        m.query = m.factorDivides
                      ? Value(DivOp::create(b, loc, qType, m.query, f))
                      : Value(MulOp::create(b, loc, qType, m.query, f));
      }
      ungroupHeads(b, loc, key, m.value);
      // What was made above for the keys, where their ungrouped view took
      // its place.
      if (made && key != made->getResult(0) && made->use_empty())
        made->erase();
      if (m.windowMask)
        m.bias = windowBias(b, loc, m.windowMask, m.bias);
      auto attention = AttentionOp::create(
          b, loc, m.output.getType(), m.query, key, m.value, m.bias,
          b.getF64FloatAttr(m.scale), m.causal ? b.getUnitAttr() : UnitAttr(),
          m.zeroNan ? b.getUnitAttr() : UnitAttr());
      MatmulOp old = m.output;
      old.getResult().replaceAllUsesWith(attention.getResult());
      eraseDead(old);
      // A masked fill's bias that a causal flag took the place of.
      for (Operation *op : llvm::reverse(m.made))
        if (op->use_empty())
          op->erase();
    }
    // What the attentions left unread over symbolic extents (an f32
    // model's keys rounded for the products they no longer feed): gone
    // before the gate of the next pass sees it. Last to first, so that a
    // chain goes at once.
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (!op->getParentOfType<FusionOp>())
        ops.push_back(op);
    });
    for (Operation *op : llvm::reverse(ops))
      if (op->getNumResults() && op->use_empty() && isPure(op) &&
          llvm::any_of(op->getResultTypes(), isSymbolic))
        op->erase();
    // Over symbolic sequences, attention compiles as one kernel only: say
    // why one did not become it. A softmax that attention would not take
    // (not over a rank-4 score's last axis) is written as reductions next
    // (softmaxOverSymbolicRows).
    WalkResult walk = getOperation().walk([&](SoftmaxOp sm) {
      if (sm->getParentOfType<FusionOp>() || compilesSymbolically(sm) ||
          softmaxOverSymbolicRows(sm))
        return WalkResult::advance();
      auto why = sm->getAttrOfType<StringAttr>("brrr.attention_unfused");
      InFlightDiagnostic d = sm.emitError()
                             << "'" << getArgument()
                             << "': a softmax over a symbolic sequence "
                                "compiles only within fused attention";
      if (why)
        d << ", and this attention does not fuse: " << why.getValue();
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
