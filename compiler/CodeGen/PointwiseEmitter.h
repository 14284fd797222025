//===- PointwiseEmitter.h - scalar code for fused pointwise ops -*- C++ -*-===//
//
// Emits the arith/math scalar code of one brrr pointwise op per element, with
// the type rules every kernel family that runs pointwise ops shares: f16,
// bf16 and float8 (E4M3FN) are computed in f32, integers as signless with
// their signedness picking the operations, booleans as i1 (one byte in
// memory), float8 as its bits in an i8. Used by the
// pointwise kernels and by the matmul kernels' fused epilogues. The
// per-op code (PointwiseEmitter::emit) is in PointwiseEmitter.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_POINTWISEEMITTER_H
#define BRRR_COMPILER_CODEGEN_POINTWISEEMITTER_H

#include "compiler/CodeGen/PointwiseArithmetic.h"
#include "dialects/Brrr/BrrrOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <optional>

namespace mlir::brrr::pointwise {

/// Element type of a tensor value.
inline Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

inline bool isUnsigned(Type t) {
  auto it = dyn_cast<IntegerType>(t);
  return it && it.isUnsigned();
}

/// Signless version of an integer type (arith and llvm take only those;
/// signedness is kept in the tensor type and picks the operations).
inline Type signless(Type t) {
  if (auto it = dyn_cast<IntegerType>(t))
    return IntegerType::get(t.getContext(), it.getWidth());
  return t;
}

inline bool isFloat8(Type t) { return isa<Float8E4M3FNType>(t); }

/// Type arithmetic happens in: f32 for 16-bit floats and float8, signless
/// integers.
inline Type computeType(Type t) {
  if (t.isF16() || t.isBF16() || isFloat8(t))
    return Float32Type::get(t.getContext());
  return signless(t);
}

/// Type an element has in memory: i8 for i1 and float8, else the signless
/// type.
inline Type memoryType(Type t) {
  return t.isInteger(1) || isFloat8(t) ? IntegerType::get(t.getContext(), 8)
                                       : signless(t);
}

/// NVVM's approximate f32 intrinsic `name` in its .ftz form
/// (llvm.nvvm.rcp.approx.ftz.f, llvm.nvvm.ex2.approx.ftz.f) applied to `v`:
/// one instruction, where the forms math and arith lower to take a
/// subnormal path.
inline Value approxFtz(OpBuilder &b, Location loc, StringRef name, Value v) {
  return LLVM::CallIntrinsicOp::create(b, loc, v.getType(),
                                       b.getStringAttr(name), v)
      .getResult(0);
}

class PointwiseEmitter {
public:
  PointwiseEmitter(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value cst(Type t, double v) {
    if (auto ft = dyn_cast<FloatType>(t))
      return arith::ConstantOp::create(b, loc, ft, b.getFloatAttr(ft, v));
    return arith::ConstantOp::create(
        b, loc, t, b.getIntegerAttr(t, static_cast<int64_t>(v)));
  }
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// Converts a scalar of element type `from` (held in computeType(from))
  /// to element type `to` (held in computeType(to)), with ONNX Cast rules.
  /// A cast to f16/bf16 rounds to that type even though the value is then
  /// carried in f32: an explicit Cast is a request for that precision.
  Value convert(Value x, Type from, Type to) {
    if (from == to)
      return x;
    // A float8 value is held exactly in f32: convert from there. A cast to
    // float8 rounds (saturating, as ONNX Cast does by default) and holds
    // the float8 value in f32 again.
    Type f32 = Float32Type::get(b.getContext());
    if (isFloat8(from))
      return convert(x, f32, to);
    if (isFloat8(to))
      return decodeFloat8(encodeFloat8(convert(x, from, f32),
                                       /*saturate=*/true));
    Type cf = computeType(from), ct = computeType(to);
    if (to.isInteger(1)) {
      if (isa<FloatType>(cf))
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                     cst(cf, 0));
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                   cst(cf, 0));
    }
    bool fromUnsigned = isUnsigned(from) || from.isInteger(1);
    if (isa<FloatType>(to)) {
      Type exact = to; // the precision to round to
      Value v;
      if (isa<FloatType>(cf)) {
        unsigned wf = cf.getIntOrFloatBitWidth(),
                 wt = exact.getIntOrFloatBitWidth();
        v = wf < wt ? Value(arith::ExtFOp::create(b, loc, exact, x))
            : wf > wt || cf != exact
                ? Value(arith::TruncFOp::create(b, loc, exact, x))
                : x;
      } else {
        v = fromUnsigned ? Value(arith::UIToFPOp::create(b, loc, exact, x))
                         : Value(arith::SIToFPOp::create(b, loc, exact, x));
      }
      if (v.getType() != ct)
        v = arith::ExtFOp::create(b, loc, ct, v);
      return v;
    }
    if (isa<FloatType>(cf))
      return isUnsigned(to) ? Value(arith::FPToUIOp::create(b, loc, ct, x))
                            : Value(arith::FPToSIOp::create(b, loc, ct, x));
    unsigned wf = cf.getIntOrFloatBitWidth(), wt = ct.getIntOrFloatBitWidth();
    if (wf == wt)
      return x;
    if (wf > wt)
      return arith::TruncIOp::create(b, loc, ct, x);
    return fromUnsigned ? Value(arith::ExtUIOp::create(b, loc, ct, x))
                        : Value(arith::ExtSIOp::create(b, loc, ct, x));
  }

  /// The float8 E4M3FN bits (an i8) of f32 `x`, rounded to nearest even by
  /// cvt.rn.satfinite (sm_89 and later). With `saturate` magnitudes beyond
  /// 448 become 448, else they (and infinities) become NaN, as ONNX's
  /// saturate = 0 asks: everything above 464 rounds past the largest
  /// finite value. NaN stays NaN.
  Value encodeFloat8(Value x, bool saturate) {
    Type i8 = b.getI8Type(), i16 = b.getI16Type();
    Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
        b, loc, i16, cst(x.getType(), 0.0), x, NVVM::FPRoundingMode::RN,
        NVVM::SaturationMode::SATFINITE, /*relu=*/false,
        Float8E4M3FNType::get(b.getContext()));
    // `x` converts into the low byte.
    Value bits = arith::TruncIOp::create(b, loc, i8, pair);
    if (saturate)
      return bits;
    Value big = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                      math::AbsFOp::create(b, loc, x),
                                      cst(x.getType(), 464.0));
    // 0x7f with the sign bit the conversion kept.
    Value nan = arith::OrIOp::create(b, loc, bits, cst(i8, 0x7f));
    return arith::SelectOp::create(b, loc, big, nan, bits);
  }

  /// The f32 value of float8 E4M3FN bits `bits` (an i8), exact: one
  /// cvt.rn.f16x2.e4m3x2 (sm_89 and later, as the encoding is) into f16,
  /// which holds every E4M3FN value (subnormals, -0 and NaN included), then
  /// a widening to f32. float8BitsOf recognizes the result.
  Value decodeFloat8(Value bits) {
    auto pairType = VectorType::get({2}, b.getI8Type());
    Value pair = LLVM::InsertElementOp::create(
        b, loc, LLVM::UndefOp::create(b, loc, pairType), bits,
        cst(b.getI32Type(), 0));
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        b, loc, VectorType::get({2}, b.getF16Type()), pair,
        /*relu=*/false, Float8E4M3FNType::get(b.getContext()));
    Value half =
        LLVM::ExtractElementOp::create(b, loc, halves, cst(b.getI32Type(), 0));
    return arith::ExtFOp::create(b, loc, b.getF32Type(), half);
  }

  /// The float8 bits `v` was decoded from (decodeFloat8), or null: a
  /// quantized value stored as float8 is stored as the bits its
  /// quantization produced, not decoded and encoded again.
  static Value float8BitsOf(Value v) {
    auto ext = v.getDefiningOp<arith::ExtFOp>();
    auto half = ext ? ext.getIn().getDefiningOp<LLVM::ExtractElementOp>()
                    : LLVM::ExtractElementOp();
    auto cvt =
        half ? half.getVector().getDefiningOp<NVVM::ConvertF8x2ToF16x2Op>()
             : NVVM::ConvertF8x2ToF16x2Op();
    auto pair = cvt ? cvt.getSrc().getDefiningOp<LLVM::InsertElementOp>()
                    : LLVM::InsertElementOp();
    if (!pair || !isa<Float8E4M3FNType>(cvt.getSrcType()) ||
        !matchPattern(half.getPosition(), m_Zero()) ||
        !matchPattern(pair.getPosition(), m_Zero()))
      return Value();
    return pair.getValue();
  }

  /// The f32 value whose saturated float8 bits `bits` are (encodeFloat8
  /// with `saturate`), or null.
  static Value float8SourceOf(Value bits) {
    auto low = bits.getDefiningOp<arith::TruncIOp>();
    auto cvt = low ? low.getIn().getDefiningOp<NVVM::ConvertF32x2ToF8x2Op>()
                   : NVVM::ConvertF32x2ToF8x2Op();
    if (!cvt || cvt.getRnd() != NVVM::FPRoundingMode::RN ||
        cvt.getSat() != NVVM::SaturationMode::SATFINITE || cvt.getRelu() ||
        !isa<Float8E4M3FNType>(cvt.getDstTy()) ||
        !matchPattern(cvt.getA(), m_PosZeroFloat()))
      return Value();
    return cvt.getB();
  }

  /// What one store of `values` (consecutive elements of type `elem`)
  /// writes: their memory bits (toMemory), the one scalar or a vector of
  /// them. Float8 elements go two at a time where every element is a
  /// saturated conversion: one cvt.rn.satfinite.e4m3x2 a pair (half the
  /// conversions, which run at a quarter of the arithmetic rate), each
  /// pair's 16 bits (the first element in the low byte) one lane of a
  /// vector of i16, with no byte shuffles to build a vector of i8.
  Value memoryVector(ArrayRef<Value> values, Type elem) {
    SmallVector<Value> out;
    for (Value v : values)
      out.push_back(toMemory(v, elem));
    Type i32 = b.getI32Type(), i16 = b.getI16Type();
    auto vectorOf = [&](ArrayRef<Value> lanes) {
      if (lanes.size() == 1)
        return lanes[0];
      Value v = LLVM::PoisonOp::create(
          b, loc, VectorType::get({int64_t(lanes.size())}, lanes[0].getType()));
      for (auto [k, x] : llvm::enumerate(lanes))
        v = LLVM::InsertElementOp::create(b, loc, v, x, cst(i32, k));
      return v;
    };
    if (!isFloat8(elem) || out.size() % 2)
      return vectorOf(out);
    SmallVector<Value> sources;
    for (Value bits : out)
      if (Value x = float8SourceOf(bits))
        sources.push_back(x);
    if (sources.size() != out.size())
      return vectorOf(out);
    SmallVector<Value> pairs;
    for (size_t k = 0; k < sources.size(); k += 2)
      pairs.push_back(NVVM::ConvertF32x2ToF8x2Op::create(
          b, loc, i16, sources[k + 1], sources[k], NVVM::FPRoundingMode::RN,
          NVVM::SaturationMode::SATFINITE, /*relu=*/false,
          Float8E4M3FNType::get(b.getContext())));
    return vectorOf(pairs);
  }

  Value approxFtz(StringRef name, Value v) {
    return pointwise::approxFtz(b, loc, name, v);
  }

  /// gelu(x) = x * Phi(x) for a bf16 gelu, computed in f32 without
  /// libdevice's erff (~25 instructions and a branch): the tail probability
  /// Q(|x|) = erfc(z) / 2, z = |x| / sqrt(2), by Abramowitz & Stegun
  /// 7.1.26, t * P(t) * exp(-z^2) with t = 1 / (1 + p z) (absolute error at
  /// most 1.5e-7), then gelu = max(x, 0) - |x| Q(|x|) in one fma: x (1 - Q)
  /// for x >= 0 and x Q below, so the negative tail has no 1 + erf
  /// cancellation; |x| is capped at 2^64 so that gelu(inf) = inf (not inf
  /// x 0). 16 PTX instructions, no branch or select. Over every bf16
  /// input from -6.5 up the result is at most one ulp from the correctly
  /// rounded GELU (over every f16 one too, but an f16 GELU takes the
  /// cheaper erfGeluHalf). The reciprocal and exp2 are
  /// the .ftz forms, one instruction each: 1 + p|x| is never subnormal,
  /// and an exp2 result below 2^-126 (|x| > 13.2) becomes 0, so a bf16
  /// result under 6e-39 flushes to zero (f16 flushes far above that).
  /// Without .ftz each takes a subnormal path, 9 instructions more a GELU.
  Value erfGeluLowPrecision(Value x) {
    Type f32 = x.getType();
    auto fma = [&](Value a, Value m, double c) -> Value {
      return math::FmaOp::create(b, loc, a, m, cst(f32, c));
    };
    Value ax = arith::MinimumFOp::create(
        b, loc, math::AbsFOp::create(b, loc, x), cst(f32, kGeluCap));
    Value t = approxFtz("llvm.nvvm.rcp.approx.ftz.f",
                        fma(ax, cst(f32, kGeluTailP), 1.0));
    // P(t) / 2, so that the product is erfc / 2 = the tail's probability.
    Value poly = cst(f32, kGeluTailPoly[0]);
    for (double c : ArrayRef<double>(kGeluTailPoly).drop_front())
      poly = fma(t, poly, c);
    poly = arith::MulFOp::create(b, loc, t, poly);
    // exp(-z^2) = 2^(-x^2 log2(e) / 2).
    Value e = approxFtz(
        "llvm.nvvm.ex2.approx.ftz.f",
        arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, x, x),
                              cst(f32, -M_LOG2E / 2)));
    Value tail = arith::MulFOp::create(b, loc, poly, e);
    return math::FmaOp::create(
        b, loc, arith::NegFOp::create(b, loc, ax), tail,
        arith::MaximumFOp::create(b, loc, x, cst(f32, 0.0)));
  }

  /// gelu(x) = x * Phi(x) for an f16 gelu, in f32 with one special
  /// function: z = min(|x|, 7), the tail probability Q(z) = erfc(z /
  /// sqrt(2)) / 2 as exp2 of a degree-8 polynomial (kGeluHalfTail, log2 Q
  /// within 6.4e-6 on [0, 7]), then gelu = max(x, 0) - z Q(z) in one fma:
  /// x (1 - Q) for x >= 0 and x Q below, no 1 + erf cancellation. Past 7,
  /// z Q(z) is under 1e-11, which no f16 result above it notices, and z
  /// stays finite, so gelu(inf) = inf and gelu(-inf) rounds to zero. 12
  /// instructions (min, 8 fma, ex2, max, fma), one of them on the
  /// special-function unit, against erfGeluLowPrecision's 15 and two.
  /// Over every finite f16 input the f16 result is at most one ulp from
  /// the correctly rounded GELU, 224 of 63,488 inputs one ulp off (257
  /// through erfGeluLowPrecision; geluHalf, its host twin, checked by
  /// GeluArithmeticTest). The exp2 is the .ftz form: its argument stays
  /// above -40, its result normal.
  Value erfGeluHalf(Value x) {
    Type f32 = x.getType();
    Value z = arith::MinimumFOp::create(b, loc, math::AbsFOp::create(b, loc, x),
                                        cst(f32, kGeluHalfCap));
    Value p = cst(f32, kGeluHalfTail[0]);
    for (float c : ArrayRef<float>(kGeluHalfTail).drop_front())
      p = math::FmaOp::create(b, loc, p, z, cst(f32, c));
    Value tail = approxFtz("llvm.nvvm.ex2.approx.ftz.f", p);
    return math::FmaOp::create(
        b, loc, arith::NegFOp::create(b, loc, z), tail,
        arith::MaximumFOp::create(b, loc, x, cst(f32, 0.0)));
  }

  /// The tanh gelu(x) = x (1 + tanh(u)) / 2, u = sqrt(2 / pi) (x +
  /// 0.044715 x^3), for f16 and bf16, computed in f32 as x sigmoid(2u) =
  /// x / (1 + 2^(x (a + b x^2))) (kGeluTanhExp2A and B): 7 instructions
  /// (mul, fma, mul, ex2, add, rcp, mul), the exp2 and reciprocal the .ftz
  /// forms, one instruction each, where libdevice's tanhf takes 20 and two
  /// selects. Its relative error stays under 1e-5, so over every f16 input
  /// and every bf16 one from -10 up the result is at most one ulp from the
  /// correctly rounded tanh GELU (tanhGeluLowPrecision, its host twin,
  /// checked by GeluArithmeticTest). Below -10 the sigmoid is under
  /// 2^-126 and flushes to zero, and so does the bf16 result (its exact
  /// value under 1.2e-37).
  /// gelu(inf) = inf and gelu(-inf) = -inf * 0 = NaN, as x (1 + tanh(u)) /
  /// 2 gives them.
  Value tanhGeluLowPrecision(Value x) {
    Type f32 = x.getType();
    Value k =
        math::FmaOp::create(b, loc, arith::MulFOp::create(b, loc, x, x),
                            cst(f32, kGeluTanhExp2B), cst(f32, kGeluTanhExp2A));
    Value e = approxFtz("llvm.nvvm.ex2.approx.ftz.f",
                        arith::MulFOp::create(b, loc, x, k));
    Value r = approxFtz("llvm.nvvm.rcp.approx.ftz.f",
                        arith::AddFOp::create(b, loc, cst(f32, 1.0), e));
    return arith::MulFOp::create(b, loc, x, r);
  }

  /// The value of a constant scalar (an arith constant, or one widened),
  /// or none.
  static std::optional<double> constantFloat(Value v) {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      return constantFloat(ext.getIn());
    FloatAttr f;
    if (matchPattern(v, m_Constant(&f)))
      return f.getValueAsDouble();
    return std::nullopt;
  }

  /// The value of a constant integer scalar, or none.
  static std::optional<APInt> constantInteger(Value v) {
    IntegerAttr i;
    if (matchPattern(v, m_Constant(&i)))
      return i.getValue();
    return std::nullopt;
  }

  /// The reciprocal by which divideByScale divides an f32 `x` by the
  /// constant f32 scale `s`, where that is a product: s a power of two in
  /// [2^-80, 2^80], whose reciprocal is exact. None otherwise.
  std::optional<float> exactReciprocal(Value x, Value s) {
    std::optional<double> sv = constantFloat(s);
    Type f32 = b.getF32Type();
    if (x.getType() != f32 || s.getType() != f32 || !sv)
      return std::nullopt;
    float sf = static_cast<float>(*sv);
    int exponent = 0;
    if (!(sf >= 0x1p-80f && sf <= 0x1p80f) || std::frexp(sf, &exponent) != 0.5f)
      return std::nullopt;
    return 1.0f / sf;
  }

  /// x / s rounded once, as a quantization divides. By a constant power of
  /// two, a product by its exact reciprocal; by another constant normal s,
  /// q0 = x * r (r = 1 / s rounded to nearest), the remainder
  /// e = x - q0 * s (one fma) and q = q0 + e * r (one fma): Markstein's
  /// last step. For s in [2^-80, 2^80] (any scale a model holds) that is
  /// the correctly rounded quotient wherever it is normal and |x| >= 2^-100
  /// (the remainder exact); below, both are under 2^-19, which quantizes to
  /// 0 in every 8- and 16-bit type (quotientByReciprocal, checked on the
  /// host by QuantizeDivisionTest).
  /// Where the remainder is not finite (an infinite or NaN x, a quotient
  /// at the f32 limit) q0 stands. Otherwise a division (div.rn.f32, whose
  /// reciprocal runs on the quarter-rate pipe and which branches to a slow
  /// path).
  Value divideByScale(Value x, Value s) {
    Type f32 = b.getF32Type();
    if (std::optional<float> exact = exactReciprocal(x, s))
      return arith::MulFOp::create(b, loc, x, cst(f32, *exact));
    std::optional<double> sv = constantFloat(s);
    if (x.getType() != f32 || s.getType() != f32 || !sv)
      return arith::DivFOp::create(b, loc, x, s);
    float sf = static_cast<float>(*sv), r = 1.0f / sf;
    if (!(sf >= 0x1p-80f && sf <= 0x1p80f))
      return arith::DivFOp::create(b, loc, x, s);
    Value q0 = arith::MulFOp::create(b, loc, x, cst(f32, r));
    Value e = math::FmaOp::create(b, loc, arith::NegFOp::create(b, loc, q0),
                                  cst(f32, sf), x);
    Value q = math::FmaOp::create(b, loc, e, cst(f32, r), q0);
    Value bad = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, q, q);
    return arith::SelectOp::create(b, loc, bad, q0, q);
  }

  /// Emits one fused op on scalars. `args` are the operands' scalars.
  FailureOr<Value> emit(Operation *op, ArrayRef<Value> args);

  /// max(x, y) of scalars of element type `et` (NaN wins for floats).
  Value max(Value x, Value y, Type et) {
    if (isa<FloatType>(computeType(et)))
      return arith::MaximumFOp::create(b, loc, x, y);
    return isUnsigned(et) ? Value(arith::MaxUIOp::create(b, loc, x, y))
                          : Value(arith::MaxSIOp::create(b, loc, x, y));
  }
  /// min(x, y) of scalars of element type `et` (NaN wins for floats).
  Value min(Value x, Value y, Type et) {
    if (isa<FloatType>(computeType(et)))
      return arith::MinimumFOp::create(b, loc, x, y);
    return isUnsigned(et) ? Value(arith::MinUIOp::create(b, loc, x, y))
                          : Value(arith::MinSIOp::create(b, loc, x, y));
  }
  /// The identity of max (`lowest`) or min (`!lowest`) for element type
  /// `et`, in its compute type: -inf/+inf, or the integer type's bounds.
  Value extreme(Type et, bool lowest) {
    Type ct = computeType(et);
    if (isa<FloatType>(ct))
      return cst(ct, lowest ? -INFINITY : INFINITY);
    unsigned w = ct.getIntOrFloatBitWidth();
    APInt v = isUnsigned(et)
                  ? (lowest ? APInt::getMinValue(w) : APInt::getMaxValue(w))
                  : (lowest ? APInt::getSignedMinValue(w)
                            : APInt::getSignedMaxValue(w));
    return arith::ConstantOp::create(b, loc, ct, b.getIntegerAttr(ct, v));
  }

  /// A value of element type `elem` as loaded (memoryType) in its compute
  /// type: i8 -> i1, f16/bf16 -> f32.
  Value fromMemory(Value raw, Type elem) {
    if (isFloat8(elem))
      return decodeFloat8(raw);
    if (elem.isInteger(1))
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, raw,
                                   cst(raw.getType(), 0));
    if (elem.isF16() || elem.isBF16())
      return arith::ExtFOp::create(b, loc, computeType(elem), raw);
    return raw;
  }

  /// A computed value of element type `elem` in the type it is stored as.
  Value toMemory(Value v, Type elem) {
    if (isFloat8(elem)) {
      if (Value bits = float8BitsOf(v))
        return bits;
      return encodeFloat8(v, /*saturate=*/true);
    }
    if (elem.isInteger(1))
      return arith::ExtUIOp::create(b, loc, memoryType(elem), v);
    if (elem.isF16() || elem.isBF16())
      return arith::TruncFOp::create(b, loc, elem, v);
    return v;
  }

  /// Emits `ops` (fused pointwise ops and splat constants) on scalars.
  /// `scalar` maps values to their scalars and receives the results; an
  /// operand it lacks is asked of `load` (an input read from memory). Ops
  /// whose result `scalar` already holds are skipped.
  LogicalResult emitOps(llvm::iterator_range<Block::iterator> ops,
                        DenseMap<Value, Value> &scalar,
                        llvm::function_ref<Value(Value)> load);

private:
  OpBuilder &b;
  Location loc;
};

/// The splat value of a constant inside a fusion body, as an attribute of
/// the type the kernel computes in. Integers keep their bits (no detour
/// through double, which rounds values beyond 2^53); floats widen exactly.
inline TypedAttr splatValue(ConstantOp c) {
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!dense || !dense.isSplat())
    return nullptr;
  Type ct = computeType(dense.getElementType());
  Attribute a = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(a)) {
    APFloat v = f.getValue();
    bool lost;
    v.convert(cast<FloatType>(ct).getFloatSemantics(),
              APFloat::rmNearestTiesToEven, &lost);
    return FloatAttr::get(ct, v);
  }
  return IntegerAttr::get(ct, cast<IntegerAttr>(a).getValue());
}

inline LogicalResult
PointwiseEmitter::emitOps(llvm::iterator_range<Block::iterator> ops,
                          DenseMap<Value, Value> &scalar,
                          llvm::function_ref<Value(Value)> load) {
  for (Operation &op : ops) {
    // Values the kernel already holds (read through a transpose).
    if (op.getNumResults() == 1 && scalar.count(op.getResult(0)))
      continue;
    if (auto c = dyn_cast<ConstantOp>(op)) {
      TypedAttr v = splatValue(c);
      if (!v)
        return c.emitOpError("non-splat constants must be kernel inputs");
      scalar[c.getResult()] = arith::ConstantOp::create(b, loc, v);
      continue;
    }
    SmallVector<Value> args;
    for (Value operand : op.getOperands()) {
      Value &s = scalar[operand];
      if (!s)
        s = load(operand);
      args.push_back(s);
    }
    auto r = emit(&op, args);
    if (failed(r))
      return failure();
    scalar[op.getResult(0)] = *r;
  }
  return success();
}

} // namespace mlir::brrr::pointwise

#endif // BRRR_COMPILER_CODEGEN_POINTWISEEMITTER_H
