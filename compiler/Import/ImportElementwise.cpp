//===- ImportElementwise.cpp - elementwise ONNX ops -> brrr -------------===//
//
// Unary math and activations, broadcasting binary arithmetic and logic,
// comparisons, Where, Cast, Clip and the variadic Sum/Mean/Max/Min.
// Activations without a brrr op of their own (LeakyRelu, PRelu, HardSigmoid,
// ...) and Python's floored Mod
// are spelled as small elementwise DAGs that fusion turns back into one
// kernel.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

template <typename OpTy> LogicalResult importUnary(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto y = n.create<OpTy>(*x);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// Pow: the result has the base's type, but the exponent may have another.
/// An integer base with a float exponent is raised in the float type and
/// truncated back (numpy's power(a, b).astype(a.dtype)).
LogicalResult importPow(NodeImporter &n) {
  auto base = n.requiredInput(0), exponent = n.requiredInput(1);
  if (failed(base) || failed(exponent))
    return failure();
  Type baseType = n.inputType(0).getElementType();
  Type expType = n.inputType(1).getElementType();
  Type computeType = isa<IntegerType>(baseType) && isa<FloatType>(expType)
                         ? expType
                         : baseType;
  base = n.castTo(*base, computeType);
  exponent = n.castTo(*exponent, computeType);
  if (failed(base) || failed(exponent))
    return failure();
  auto y = n.create<PowOp>(*base, *exponent);
  if (succeeded(y))
    y = n.castTo(*y, baseType);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

template <typename OpTy> LogicalResult importBinary(NodeImporter &n) {
  auto lhs = n.requiredInput(0), rhs = n.requiredInput(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  auto y = n.create<OpTy>(*lhs, *rhs);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// Sum, Mean, Max, Min: a left fold of the binary op over all inputs.
template <typename OpTy> LogicalResult importVariadic(NodeImporter &n) {
  if (n.numInputs() == 0)
    return n.emitError() << "expects at least one input";
  FailureOr<Value> acc = n.requiredInput(0);
  for (unsigned i = 1; succeeded(acc) && i < n.numInputs(); ++i) {
    auto next = n.requiredInput(i);
    if (failed(next))
      return failure();
    acc = n.create<OpTy>(*acc, *next);
  }
  if (failed(acc))
    return failure();
  n.setOutput(0, *acc);
  return success();
}

LogicalResult importMean(NodeImporter &n) {
  if (failed(importVariadic<AddOp>(n)))
    return failure();
  Value sum = n.getOutputs()[0];
  auto et = cast<RankedTensorType>(sum.getType()).getElementType();
  auto y = n.create<DivOp>(sum, n.scalar(et, n.numInputs()));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

template <ComparePredicate P> LogicalResult importCompare(NodeImporter &n) {
  auto lhs = n.requiredInput(0), rhs = n.requiredInput(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  auto y = n.create<CompareOp>(P, *lhs, *rhs);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importWhere(NodeImporter &n) {
  auto c = n.requiredInput(0), x = n.requiredInput(1), y = n.requiredInput(2);
  if (failed(c) || failed(x) || failed(y))
    return failure();
  auto r = n.create<WhereOp>(*c, *x, *y);
  if (failed(r))
    return failure();
  n.setOutput(0, *r);
  return success();
}

LogicalResult importCast(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  const auto *to = n.attr("to");
  if (!to)
    return n.emitError() << "missing attribute 'to'";
  Type et = convertElementType(n.getContext(), to->i());
  if (!et)
    return n.emitError() << "cast to unsupported data type "
                         << dataTypeName(to->i());
  if (isa<Float8E4M3FNType>(et) && n.sinceVersion >= 19 &&
      n.attrInt("saturate", 1) == 0) {
    // Out of range becomes NaN: a quantize by 1 that does not saturate.
    Type f32 = n.b.getF32Type();
    auto v = n.castTo(*x, f32);
    if (failed(v))
      return failure();
    auto y = n.createTyped<QuantizeOp>(n.inputType(0).clone(et), *v,
                                       n.scalar(f32, 1.0), n.scalar(et, 0.0),
                                       n.b.getBoolAttr(false));
    if (failed(y))
      return failure();
    n.setOutput(0, *y);
    return success();
  }
  auto y = n.castTo(*x, et);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// CastLike(x, like): Cast to `like`'s element type (its values unused).
LogicalResult importCastLike(NodeImporter &n) {
  auto x = n.requiredInput(0), like = n.requiredInput(1);
  if (failed(x) || failed(like))
    return failure();
  auto y = n.castTo(*x, n.inputType(1).getElementType());
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// Clip whose bounds are computed at run time (T5 clamps f16 activations by
/// a bound chosen from the data): min(max(x, min), max), which also gives
/// every element `max` when min > max, as ONNX asks.
LogicalResult importClipWithRuntimeBounds(NodeImporter &n) {
  Value y = n.input(0);
  for (unsigned i : {1u, 2u}) {
    if (!n.hasInput(i))
      continue;
    RankedTensorType t = n.inputType(i);
    if (!t.hasStaticShape() || t.getNumElements() != 1)
      return n.emitError() << "clip bounds must be scalars, not " << t;
    auto bound = n.reshape(n.input(i), {});
    if (failed(bound))
      return failure();
    auto clipped = i == 1 ? n.create<MaxOp>(y, *bound) : n.create<MinOp>(y, *bound);
    if (failed(clipped))
      return failure();
    y = *clipped;
  }
  n.setOutput(0, y);
  return success();
}

LogicalResult importClip(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  std::optional<double> lo, hi;
  if (n.sinceVersion < 11) {
    if (n.attr("min"))
      lo = n.attrFloat("min", 0);
    if (n.attr("max"))
      hi = n.attrFloat("max", 0);
  } else {
    bool runtimeBound = false;
    for (unsigned i : {1u, 2u})
      runtimeBound |= n.hasInput(i) && !matchPattern(n.input(i), m_Constant());
    if (runtimeBound)
      return importClipWithRuntimeBounds(n);
    for (unsigned i : {1u, 2u}) {
      if (!n.hasInput(i))
        continue;
      auto v = n.constFloats(i, i == 1 ? "min" : "max");
      if (failed(v))
        return failure();
      if (v->size() != 1)
        return n.emitError() << "clip bounds must be scalars";
      (i == 1 ? lo : hi) = v->front();
    }
  }
  // ONNX: with min > max every element becomes max.
  if (lo && hi && *lo > *hi)
    lo = hi;
  Builder b(n.getContext());
  auto y = n.create<ClipOp>(*x, lo ? b.getF64FloatAttr(*lo) : FloatAttr(),
                            hi ? b.getF64FloatAttr(*hi) : FloatAttr());
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importGelu(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  std::string approx = n.attrString("approximate", "none");
  GeluApproximation kind;
  if (approx == "none")
    kind = GeluApproximation::none;
  else if (approx == "tanh")
    kind = GeluApproximation::tanh;
  else
    return n.emitError() << "unknown approximate = '" << approx << "'";
  auto y = n.create<GeluOp>(*x, kind);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// alpha * x + beta, as brrr ops on rank-0 constants.
FailureOr<Value> affine(NodeImporter &n, Value x, double alpha, double beta) {
  Type et = cast<RankedTensorType>(x.getType()).getElementType();
  auto ax = n.create<MulOp>(x, n.scalar(et, alpha));
  if (failed(ax))
    return failure();
  return n.create<AddOp>(*ax, n.scalar(et, beta));
}

/// Output 0 = x < 0 ? x * slope : x (LeakyRelu, PRelu); `slope` is built
/// after the comparison and broadcasts to x.
LogicalResult importScaledNegatives(NodeImporter &n, Value x,
                                    llvm::function_ref<Value()> slope) {
  Type et = cast<RankedTensorType>(x.getType()).getElementType();
  auto neg = n.create<CompareOp>(ComparePredicate::lt, x, n.scalar(et, 0));
  auto scaled = n.create<MulOp>(x, slope());
  if (failed(neg) || failed(scaled))
    return failure();
  auto y = n.create<WhereOp>(*neg, *scaled, x);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// LeakyRelu(x) = x < 0 ? alpha * x : x.
LogicalResult importLeakyRelu(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  Type et = n.inputType(0).getElementType();
  return importScaledNegatives(n, *x, [&] {
    return n.scalar(et, n.attrFloat("alpha", 0.01));
  });
}

/// where(x > 0, x, alpha * (exp(t) - 1)), t = x unless given: the core of
/// Elu and Selu, and of Celu (t = x / alpha), for a float input.
FailureOr<Value> exponentialLinear(NodeImporter &n, Value x, double alpha,
                                   Value t = {}) {
  Type et = cast<RankedTensorType>(x.getType()).getElementType();
  if (!isa<FloatType>(et))
    return n.emitError() << "input must be a float tensor, not " << x.getType();
  auto pos = n.create<CompareOp>(ComparePredicate::gt, x, n.scalar(et, 0));
  auto e = n.create<ExpOp>(t ? t : x);
  if (failed(pos) || failed(e))
    return failure();
  auto em1 = n.create<SubOp>(*e, n.scalar(et, 1));
  if (failed(em1))
    return failure();
  auto neg = n.create<MulOp>(*em1, n.scalar(et, alpha));
  if (failed(neg))
    return failure();
  return n.create<WhereOp>(*pos, x, *neg);
}

/// Elu(x) = x > 0 ? x : alpha * (exp(x) - 1).
LogicalResult importElu(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto y = exponentialLinear(n, *x, n.attrFloat("alpha", 1.0));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// Selu(x) = gamma * (x > 0 ? x : alpha * (exp(x) - 1)).
LogicalResult importSelu(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto pick = exponentialLinear(
      n, *x, n.attrFloat("alpha", 1.67326319217681884765625));
  if (failed(pick))
    return failure();
  Type et = n.inputType(0).getElementType();
  auto y = n.create<MulOp>(
      *pick, n.scalar(et, n.attrFloat("gamma", 1.05070102214813232421875)));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// PRelu(x, slope) = x < 0 ? slope * x : x, the slope broadcasting to x.
LogicalResult importPRelu(NodeImporter &n) {
  auto x = n.requiredInput(0);
  auto slope = n.requiredInput(1);
  if (failed(x) || failed(slope))
    return failure();
  return importScaledNegatives(n, *x, [&] { return *slope; });
}

/// Mod: with fmod = 1 the truncated remainder (C's fmod, the sign of x);
/// with fmod = 0 (integers only) the floored one, the sign of y as in
/// Python: r + y where r is non-zero and its sign differs from y's.
LogicalResult importMod(NodeImporter &n) {
  auto x = n.requiredInput(0);
  auto y = n.requiredInput(1);
  if (failed(x) || failed(y))
    return failure();
  Type et = n.inputType(0).getElementType();
  bool fmod = n.attrInt("fmod", 0) != 0;
  if (!fmod && isa<FloatType>(et))
    return n.emitError() << "fmod must be 1 for floating-point inputs";
  auto r = n.create<RemOp>(*x, *y);
  if (failed(r))
    return failure();
  if (fmod || et.isUnsignedInteger()) {
    n.setOutput(0, *r);
    return success();
  }
  Value zero = n.scalar(et, 0);
  auto nonzero = n.create<CompareOp>(ComparePredicate::ne, *r, zero);
  auto rNeg = n.create<CompareOp>(ComparePredicate::lt, *r, zero);
  auto yNeg = n.create<CompareOp>(ComparePredicate::lt, *y, zero);
  if (failed(nonzero) || failed(rNeg) || failed(yNeg))
    return failure();
  auto differ = n.create<XorOp>(*rNeg, *yNeg);
  if (failed(differ))
    return failure();
  auto adjust = n.create<AndOp>(*nonzero, *differ);
  auto shifted = n.create<AddOp>(*r, *y);
  if (failed(adjust) || failed(shifted))
    return failure();
  auto out = n.create<WhereOp>(*adjust, *shifted, *r);
  if (failed(out))
    return failure();
  n.setOutput(0, *out);
  return success();
}

/// HardSigmoid(x) = clip(alpha * x + beta, 0, 1).
LogicalResult importHardSigmoid(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto lin = affine(n, *x, n.attrFloat("alpha", 0.2), n.attrFloat("beta", 0.5));
  if (failed(lin))
    return failure();
  Builder b(n.getContext());
  auto y = n.create<ClipOp>(*lin, b.getF64FloatAttr(0), b.getF64FloatAttr(1));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// HardSwish(x) = x * clip(x / 6 + 1 / 2, 0, 1).
LogicalResult importHardSwish(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto lin = affine(n, *x, 1.0 / 6.0, 0.5);
  if (failed(lin))
    return failure();
  Builder b(n.getContext());
  auto gate =
      n.create<ClipOp>(*lin, b.getF64FloatAttr(0), b.getF64FloatAttr(1));
  if (failed(gate))
    return failure();
  auto y = n.create<MulOp>(*x, *gate);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// Softplus(x) = log(exp(x) + 1).
LogicalResult importSoftplus(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  Type et = n.inputType(0).getElementType();
  auto e = n.create<ExpOp>(*x);
  if (failed(e))
    return failure();
  auto p = n.create<AddOp>(*e, n.scalar(et, 1.0));
  if (failed(p))
    return failure();
  auto y = n.create<LogOp>(*p);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// IsNaN(x) = x != x: the only value unequal to itself is NaN (the kernels
/// compare unordered-not-equal, the folder in IEEE arithmetic).
LogicalResult importIsNaN(NodeImporter &n) {
  auto x = n.requiredFloatInput(0);
  if (failed(x))
    return failure();
  auto y = n.create<CompareOp>(ComparePredicate::ne, *x, *x);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// IsInf(x) = x == +inf or x == -inf, per detect_positive/detect_negative.
LogicalResult importIsInf(NodeImporter &n) {
  auto x = n.requiredFloatInput(0);
  if (failed(x))
    return failure();
  RankedTensorType type = n.inputType(0);
  bool positive = n.attrInt("detect_positive", 1) != 0;
  bool negative = n.attrInt("detect_negative", 1) != 0;
  Type et = type.getElementType();
  Value result;
  for (auto [wanted, inf] :
       {std::pair{positive, INFINITY}, std::pair{negative, -INFINITY}}) {
    if (!wanted)
      continue;
    auto hit = n.create<CompareOp>(ComparePredicate::eq, *x, n.scalar(et, inf));
    if (failed(hit))
      return failure();
    if (result) {
      auto both = n.create<OrOp>(result, *hit);
      if (failed(both))
        return failure();
      result = *both;
    } else {
      result = *hit;
    }
  }
  if (!result) // neither sign detected: all false
    result =
        n.constant(RankedTensorType::get(type.getShape(), n.b.getI1Type()),
                   SmallVector<double>(type.getNumElements() ? 1 : 0, 0.0));
  n.setOutput(0, result);
  return success();
}

/// Softsign(x) = x / (1 + |x|).
LogicalResult importSoftsign(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  Type et = n.inputType(0).getElementType();
  auto a = n.create<AbsOp>(*x);
  if (failed(a))
    return failure();
  auto d = n.create<AddOp>(*a, n.scalar(et, 1.0));
  if (failed(d))
    return failure();
  auto y = n.create<DivOp>(*x, *d);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// ThresholdedRelu(x) = x > alpha ? x : 0.
LogicalResult importThresholdedRelu(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  Type et = n.inputType(0).getElementType();
  auto above = n.create<CompareOp>(ComparePredicate::gt, *x,
                                   n.scalar(et, n.attrFloat("alpha", 1.0)));
  if (failed(above))
    return failure();
  auto y = n.create<WhereOp>(*above, *x, n.scalar(et, 0.0));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// Shrink(x) = x < -lambd ? x + bias : (x > lambd ? x - bias : 0).
LogicalResult importShrink(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  Type et = n.inputType(0).getElementType();
  double lambd = n.attrFloat("lambd", 0.5), bias = n.attrFloat("bias", 0.0);
  if (!std::isfinite(lambd) || !std::isfinite(bias))
    return n.emitError() << "lambd and bias must be finite";
  auto low =
      n.create<CompareOp>(ComparePredicate::lt, *x, n.scalar(et, -lambd));
  auto high =
      n.create<CompareOp>(ComparePredicate::gt, *x, n.scalar(et, lambd));
  auto plus = n.create<AddOp>(*x, n.scalar(et, bias));
  auto minus = n.create<SubOp>(*x, n.scalar(et, bias));
  if (failed(low) || failed(high) || failed(plus) || failed(minus))
    return failure();
  auto upper = n.create<WhereOp>(*high, *minus, n.scalar(et, 0.0));
  if (failed(upper))
    return failure();
  auto y = n.create<WhereOp>(*low, *plus, *upper);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// Celu(x) = max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), which is
/// x > 0 ? x : alpha * (exp(x / alpha) - 1).
LogicalResult importCelu(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  double alpha = n.attrFloat("alpha", 1.0);
  if (alpha == 0 || !std::isfinite(alpha))
    return n.emitError() << "alpha must be finite and non-zero, not " << alpha;
  Type et = n.inputType(0).getElementType();
  if (!isa<FloatType>(et))
    return n.emitError() << "input must be a float tensor, not "
                         << n.inputType(0);
  auto scaled = n.create<DivOp>(*x, n.scalar(et, alpha));
  if (failed(scaled))
    return failure();
  auto y = exponentialLinear(n, *x, alpha, *scaled);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

} // namespace

void registerElementwiseImporters(OpTable &t) {
  t["Abs"] = {{6, 13}, importUnary<AbsOp>};
  t["Acos"] = {{7}, importUnary<AcosOp>};
  t["Acosh"] = {{9}, importUnary<AcoshOp>};
  t["Asin"] = {{7}, importUnary<AsinOp>};
  t["Asinh"] = {{9}, importUnary<AsinhOp>};
  t["Atan"] = {{7}, importUnary<AtanOp>};
  t["Atanh"] = {{9}, importUnary<AtanhOp>};
  t["Ceil"] = {{6, 13}, importUnary<CeilOp>};
  t["Cos"] = {{7}, importUnary<CosOp>};
  t["Cosh"] = {{9}, importUnary<CoshOp>};
  t["Erf"] = {{9, 13}, importUnary<ErfOp>};
  t["Exp"] = {{6, 13}, importUnary<ExpOp>};
  t["Floor"] = {{6, 13}, importUnary<FloorOp>};
  t["Log"] = {{6, 13}, importUnary<LogOp>};
  t["Neg"] = {{6, 13}, importUnary<NegOp>};
  t["Not"] = {{1}, importUnary<NotOp>};
  t["Reciprocal"] = {{6, 13}, importUnary<ReciprocalOp>};
  t["Relu"] = {{6, 13, 14}, importUnary<ReluOp>};
  t["Round"] = {{11}, importUnary<RoundOp>};
  t["Sigmoid"] = {{6, 13}, importUnary<SigmoidOp>};
  t["Sign"] = {{9, 13}, importUnary<SignOp>};
  t["Sin"] = {{7}, importUnary<SinOp>};
  t["Sinh"] = {{9}, importUnary<SinhOp>};
  t["Sqrt"] = {{6, 13}, importUnary<SqrtOp>};
  t["Tan"] = {{7}, importUnary<TanOp>};
  t["Tanh"] = {{6, 13}, importUnary<TanhOp>};

  t["Add"] = {{7, 13, 14}, importBinary<AddOp>};
  t["And"] = {{7}, importBinary<AndOp>};
  t["Div"] = {{7, 13, 14}, importBinary<DivOp>};
  t["Mul"] = {{7, 13, 14}, importBinary<MulOp>};
  t["Or"] = {{7}, importBinary<OrOp>};
  t["Pow"] = {{7, 12, 13, 15}, importPow};
  t["Sub"] = {{7, 13, 14}, importBinary<SubOp>};
  t["Xor"] = {{7}, importBinary<XorOp>};
  t["Max"] = {{8, 12, 13}, importVariadic<MaxOp>};
  t["Min"] = {{8, 12, 13}, importVariadic<MinOp>};
  t["Sum"] = {{8, 13}, importVariadic<AddOp>};
  t["Mean"] = {{8, 13}, importMean};

  t["Equal"] = {{7, 11, 13, 19}, importCompare<ComparePredicate::eq>};
  t["IsInf"] = {{10, 20}, importIsInf};
  t["IsNaN"] = {{9, 13, 20}, importIsNaN};
  t["Greater"] = {{7, 9, 13}, importCompare<ComparePredicate::gt>};
  t["GreaterOrEqual"] = {{12, 16}, importCompare<ComparePredicate::ge>};
  t["Less"] = {{7, 9, 13}, importCompare<ComparePredicate::lt>};
  t["LessOrEqual"] = {{12, 16}, importCompare<ComparePredicate::le>};
  t["Where"] = {{9, 16}, importWhere};

  t["Cast"] = {{6, 9, 13, 19, 21}, importCast};
  t["CastLike"] = {{15, 19, 21}, importCastLike};
  t["Clip"] = {{6, 11, 12, 13}, importClip};
  t["Gelu"] = {{20}, importGelu};
  t["HardSigmoid"] = {{6}, importHardSigmoid};
  t["HardSwish"] = {{14}, importHardSwish};
  t["Elu"] = {{6}, importElu};
  t["LeakyRelu"] = {{6, 16}, importLeakyRelu};
  t["Mod"] = {{10, 13}, importMod};
  t["PRelu"] = {{7, 9, 16}, importPRelu};
  t["Selu"] = {{6}, importSelu};
  t["Softplus"] = {{1}, importSoftplus};
  t["Softsign"] = {{1}, importSoftsign};
  t["ThresholdedRelu"] = {{10}, importThresholdedRelu};
  t["Shrink"] = {{9}, importShrink};
  t["Celu"] = {{12}, importCelu};
}

} // namespace mlir::brrr
