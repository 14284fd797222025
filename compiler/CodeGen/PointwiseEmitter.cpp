//===- PointwiseEmitter.cpp - scalar code for fused pointwise ops --------===//
//
// PointwiseEmitter::emit: the arith/math scalar code of each brrr pointwise
// op, with the type rules PointwiseEmitter.h states.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/PointwiseEmitter.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::pointwise;

FailureOr<Value> PointwiseEmitter::emit(Operation *op, ArrayRef<Value> args) {
  Type et = op->getNumResults() ? elementOf(op->getResult(0)) : Type();
  Type ct = et ? computeType(et) : Type();
  bool isFloat = ct && isa<FloatType>(ct);
  Value x = args.empty() ? Value() : args[0];
  auto one = [&] { return cst(ct, 1.0); };
  // A 16-bit sigmoid (computed in f32) takes the approximate exp2 and
  // reciprocal in their .ftz forms (ex2.approx.ftz, rcp.approx.ftz: one
  // instruction each, a few f32 ulps); an f32 one the exact exp and
  // division. Even a relative error of 2^-20 leaves x * sigmoid(x) within
  // one ulp of the correctly rounded f16 for every finite f16 input (52
  // of 63,488 one ulp off). The .ftz forms differ only where a result is
  // subnormal: exp(-v) for v > 87.3, where 1 / (1 + exp(-v)) is 1 either
  // way, and the sigmoid itself for v < -87.3 (under 1.2e-38), which
  // becomes 0 as it already did below -88.7, where exp(-v) overflows.
  auto sigmoid = [&](Value v) -> Value {
    if (et.getIntOrFloatBitWidth() == 16) {
      Value e = approxFtz(
          "llvm.nvvm.ex2.approx.ftz.f",
          arith::MulFOp::create(b, loc, v, cst(v.getType(), -M_LOG2E)));
      return approxFtz("llvm.nvvm.rcp.approx.ftz.f",
                       arith::AddFOp::create(b, loc, one(), e));
    }
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, v));
    return arith::DivFOp::create(b, loc, one(),
                                 arith::AddFOp::create(b, loc, one(), e));
  };
  return llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case([&](AbsOp) -> Value {
        if (isFloat)
          return math::AbsFOp::create(b, loc, x);
        if (isUnsigned(et))
          return x;
        Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x,
                                          cst(ct, 0));
        return arith::SelectOp::create(
            b, loc, neg, arith::SubIOp::create(b, loc, cst(ct, 0), x), x);
      })
      .Case([&](AcosOp) -> Value { return math::AcosOp::create(b, loc, x); })
      .Case([&](AcoshOp) -> Value { return math::AcoshOp::create(b, loc, x); })
      .Case([&](AsinOp) -> Value { return math::AsinOp::create(b, loc, x); })
      .Case([&](AsinhOp) -> Value { return math::AsinhOp::create(b, loc, x); })
      .Case([&](AtanOp) -> Value { return math::AtanOp::create(b, loc, x); })
      .Case([&](AtanhOp) -> Value { return math::AtanhOp::create(b, loc, x); })
      .Case([&](CeilOp) -> Value { return math::CeilOp::create(b, loc, x); })
      .Case([&](CosOp) -> Value { return math::CosOp::create(b, loc, x); })
      .Case([&](CoshOp) -> Value { return math::CoshOp::create(b, loc, x); })
      .Case([&](ErfOp) -> Value { return math::ErfOp::create(b, loc, x); })
      .Case([&](ExpOp) -> Value { return math::ExpOp::create(b, loc, x); })
      .Case([&](FloorOp) -> Value { return math::FloorOp::create(b, loc, x); })
      .Case([&](LogOp) -> Value { return math::LogOp::create(b, loc, x); })
      .Case([&](NegOp) -> Value {
        return isFloat ? Value(arith::NegFOp::create(b, loc, x))
                       : Value(arith::SubIOp::create(b, loc, cst(ct, 0), x));
      })
      .Case([&](NotOp) -> Value {
        return arith::XOrIOp::create(b, loc, x, cst(ct, 1));
      })
      .Case([&](ReciprocalOp) -> Value {
        return arith::DivFOp::create(b, loc, one(), x);
      })
      .Case([&](ReluOp) -> Value {
        return isFloat ? Value(arith::MaximumFOp::create(b, loc, x, cst(ct, 0)))
               : isUnsigned(et)
                   ? x
                   : Value(arith::MaxSIOp::create(b, loc, x, cst(ct, 0)));
      })
      .Case([&](RsqrtOp) -> Value { return math::RsqrtOp::create(b, loc, x); })
      .Case([&](SigmoidOp) -> Value { return sigmoid(x); })
      .Case([&](SiluOp) -> Value {
        return arith::MulFOp::create(b, loc, x, sigmoid(x));
      })
      .Case([&](RoundOp) -> Value {
        return math::RoundEvenOp::create(b, loc, x);
      })
      .Case([&](SignOp) -> Value {
        // x itself where it is neither positive nor negative: 0, -0
        // and NaN are their own signs.
        Value zero = cst(ct, 0);
        Value pos, neg;
        if (isFloat) {
          pos =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
          neg =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
        } else {
          bool u = isUnsigned(et);
          pos = arith::CmpIOp::create(
              b, loc, u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt,
              x, zero);
          neg = arith::CmpIOp::create(
              b, loc, u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt,
              x, zero);
        }
        Value minusOne = isFloat || !isUnsigned(et) ? cst(ct, -1) : zero;
        return arith::SelectOp::create(
            b, loc, pos, cst(ct, 1),
            arith::SelectOp::create(b, loc, neg, minusOne, x));
      })
      .Case([&](SinOp) -> Value { return math::SinOp::create(b, loc, x); })
      .Case([&](SinhOp) -> Value { return math::SinhOp::create(b, loc, x); })
      .Case([&](SqrtOp) -> Value { return math::SqrtOp::create(b, loc, x); })
      .Case([&](TanOp) -> Value { return math::TanOp::create(b, loc, x); })
      .Case([&](TanhOp) -> Value { return math::TanhOp::create(b, loc, x); })
      .Case([&](GeluOp g) -> Value {
        bool tanh = g.getApproximate() == GeluApproximation::tanh;
        if (!tanh && et.isF16())
          return erfGeluHalf(x);
        if (!tanh && et.isBF16())
          return erfGeluLowPrecision(x);
        if (tanh && et.getIntOrFloatBitWidth() == 16)
          return tanhGeluLowPrecision(x);
        Value half = arith::MulFOp::create(b, loc, x, cst(ct, 0.5));
        Value inner;
        if (tanh) {
          // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
          Value x3 = arith::MulFOp::create(b, loc, x,
                                           arith::MulFOp::create(b, loc, x, x));
          Value poly = arith::AddFOp::create(
              b, loc, x, arith::MulFOp::create(b, loc, x3, cst(ct, 0.044715)));
          inner = math::TanhOp::create(
              b, loc,
              arith::MulFOp::create(b, loc, poly,
                                    cst(ct, std::sqrt(2.0 / M_PI))));
        } else {
          inner = math::ErfOp::create(
              b, loc, arith::MulFOp::create(b, loc, x, cst(ct, M_SQRT1_2)));
        }
        return arith::MulFOp::create(
            b, loc, half, arith::AddFOp::create(b, loc, one(), inner));
      })
      .Case([&](ClipOp c) -> Value {
        Value v = x;
        if (c.getMin())
          v = isFloat ? Value(arith::MaximumFOp::create(
                            b, loc, v, cst(ct, c.getMin()->convertToDouble())))
              : isUnsigned(et)
                  ? Value(arith::MaxUIOp::create(
                        b, loc, v, cst(ct, c.getMin()->convertToDouble())))
                  : Value(arith::MaxSIOp::create(
                        b, loc, v, cst(ct, c.getMin()->convertToDouble())));
        if (c.getMax())
          v = isFloat ? Value(arith::MinimumFOp::create(
                            b, loc, v, cst(ct, c.getMax()->convertToDouble())))
              : isUnsigned(et)
                  ? Value(arith::MinUIOp::create(
                        b, loc, v, cst(ct, c.getMax()->convertToDouble())))
                  : Value(arith::MinSIOp::create(
                        b, loc, v, cst(ct, c.getMax()->convertToDouble())));
        return v;
      })
      .Case([&](CastOp c) -> Value {
        return convert(x, elementOf(c.getInput()), et);
      })
      .Case([&](QuantizeOp q) -> Value {
        Type f32 = b.getF32Type();
        if (isFloat8(et)) {
          // A zero point of 0 after a product by a power of two of at
          // least 1 (divideByScale's exact reciprocal) joins it in one
          // fma: x * r + 0 rounds once either way, and both turn a -0
          // product into +0 (with r >= 1 a nonzero x never underflows to
          // a signed zero, where the fma would keep the sign).
          std::optional<double> zero = constantFloat(args[2]);
          std::optional<float> r = exactReciprocal(x, args[1]);
          Value v =
              zero && *zero == 0.0 && r && *r >= 1.0f &&
                      args[2].getType() == f32
                  ? Value(math::FmaOp::create(b, loc, x, cst(f32, *r), args[2]))
                  : Value(arith::AddFOp::create(
                        b, loc, divideByScale(x, args[1]), args[2]));
          return decodeFloat8(encodeFloat8(v, q.getSaturate()));
        }
        Value v = divideByScale(x, args[1]);
        bool u = isUnsigned(et);
        unsigned w = et.getIntOrFloatBitWidth();
        double lo = u ? 0.0 : -std::ldexp(1.0, w - 1),
               hi = u ? std::ldexp(1.0, w) - 1 : std::ldexp(1.0, w - 1) - 1;
        auto clamp = [&](Value v) -> Value {
          return arith::MinimumFOp::create(
              b, loc, arith::MaximumFOp::create(b, loc, v, cst(f32, lo)),
              cst(f32, hi));
        };
        std::optional<APInt> zero = constantInteger(args[2]);
        if (w <= 16 && zero && v.getType() == f32) {
          // A constant zero point z: v clamped to [lo - z, hi - z] (a
          // NaN passes), rounded half to even by adding 1.5 * 2^23 (the
          // sum's ulp is 1, and 1.5 * 2^23 is even), the integer read
          // from the sum's bits, z added: no conversion on the
          // quarter-rate pipe, which an INT8 product's epilogue already
          // loads with its accumulators' conversions. A NaN quantizes to
          // 0, as cvt does.
          int64_t z = u ? zero->getZExtValue() : zero->getSExtValue();
          Value t = arith::MinimumFOp::create(
              b, loc, arith::MaximumFOp::create(b, loc, v, cst(f32, lo - z)),
              cst(f32, hi - z));
          Type i32 = b.getI32Type();
          Value bits = arith::BitcastOp::create(
              b, loc, i32,
              arith::AddFOp::create(b, loc, t, cst(f32, kRoundingBias)));
          Value n = arith::SubIOp::create(b, loc, bits,
                                          cst(i32, kRoundingBiasBits - z));
          Value nan =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
          n = arith::SelectOp::create(b, loc, nan, cst(i32, 0), n);
          return arith::TruncIOp::create(b, loc, ct, n);
        }
        if (w < 32 && matchPattern(args[2], m_Zero())) {
          // Zero point 0 otherwise (32 bits, or a quotient not in f32):
          // clamped first, then rounded half to even and converted by one
          // cvt.rni.s32.f32, the same integer as
          // rounding, then clamping to the integers lo and hi (a NaN
          // converts to 0 either way), with one conversion less on the
          // quarter-rate conversion pipe.
          Value i = LLVM::CallIntrinsicOp::create(
                        b, loc, b.getI32Type(),
                        b.getStringAttr("llvm.nvvm.f2i.rn"), clamp(v))
                        .getResult(0);
          return arith::TruncIOp::create(b, loc, ct, i);
        }
        v = math::RoundEvenOp::create(b, loc, v);
        v = clamp(arith::AddFOp::create(b, loc, v, convert(args[2], et, f32)));
        return u ? Value(arith::FPToUIOp::create(b, loc, ct, v))
                 : Value(arith::FPToSIOp::create(b, loc, ct, v));
      })
      .Case([&](DequantizeOp d) -> Value {
        Type in = elementOf(d.getInput());
        Value diff;
        if (isFloat8(in)) {
          diff = arith::SubFOp::create(b, loc, x, args[2]);
        } else {
          // The exact difference, in i32, then one rounding to f32.
          Type i32 = b.getI32Type();
          auto widen = [&](Value v) -> Value {
            if (v.getType() == i32)
              return v;
            return isUnsigned(in)
                       ? Value(arith::ExtUIOp::create(b, loc, i32, v))
                       : Value(arith::ExtSIOp::create(b, loc, i32, v));
          };
          Value d = arith::SubIOp::create(b, loc, widen(x), widen(args[2]));
          if (in.getIntOrFloatBitWidth() <= 16) {
            // |d| < 2^17: 1.5 * 2^23 + d in the bits of 1.5 * 2^23 (ulp
            // 1), less 1.5 * 2^23, exactly; no conversion on the
            // quarter-rate pipe.
            Type f32 = b.getF32Type();
            Value biased = arith::BitcastOp::create(
                b, loc, f32,
                arith::AddIOp::create(b, loc, d, cst(i32, kRoundingBiasBits)));
            diff =
                arith::SubFOp::create(b, loc, biased, cst(f32, kRoundingBias));
          } else {
            diff = arith::SIToFPOp::create(b, loc, b.getF32Type(), d);
          }
        }
        Value s = args[1];
        if (s.getType() != diff.getType())
          diff = convert(diff, diff.getType(), s.getType());
        return arith::MulFOp::create(b, loc, diff, s);
      })
      .Case([&](AddOp) -> Value {
        return isFloat ? Value(arith::AddFOp::create(b, loc, x, args[1]))
                       : Value(arith::AddIOp::create(b, loc, x, args[1]));
      })
      .Case([&](SubOp) -> Value {
        return isFloat ? Value(arith::SubFOp::create(b, loc, x, args[1]))
                       : Value(arith::SubIOp::create(b, loc, x, args[1]));
      })
      .Case([&](MulOp) -> Value {
        return isFloat ? Value(arith::MulFOp::create(b, loc, x, args[1]))
                       : Value(arith::MulIOp::create(b, loc, x, args[1]));
      })
      .Case([&](DivOp) -> Value {
        return isFloat ? Value(arith::DivFOp::create(b, loc, x, args[1]))
               : isUnsigned(et)
                   ? Value(arith::DivUIOp::create(b, loc, x, args[1]))
                   : Value(arith::DivSIOp::create(b, loc, x, args[1]));
      })
      .Case([&](MaxOp) -> Value { return max(x, args[1], et); })
      .Case([&](MinOp) -> Value { return min(x, args[1], et); })
      .Case([&](RemOp) -> Value {
        // C's fmod / truncated remainder: the sign of x.
        return isFloat ? Value(arith::RemFOp::create(b, loc, x, args[1]))
               : isUnsigned(et)
                   ? Value(arith::RemUIOp::create(b, loc, x, args[1]))
                   : Value(arith::RemSIOp::create(b, loc, x, args[1]));
      })
      .Case([&](PowOp) -> FailureOr<Value> {
        if (isFloat)
          return Value(math::PowFOp::create(b, loc, x, args[1]));
        return op->emitOpError("integer pow has no GPU kernel yet");
      })
      .Case([&](AndOp) -> Value {
        return arith::AndIOp::create(b, loc, x, args[1]);
      })
      .Case([&](OrOp) -> Value {
        return arith::OrIOp::create(b, loc, x, args[1]);
      })
      .Case([&](XorOp) -> Value {
        return arith::XOrIOp::create(b, loc, x, args[1]);
      })
      .Case([&](CompareOp c) -> Value {
        Type in = elementOf(c.getLhs());
        if (isa<FloatType>(computeType(in))) {
          arith::CmpFPredicate p = arith::CmpFPredicate::OEQ;
          switch (c.getPredicate()) {
          case ComparePredicate::eq:
            p = arith::CmpFPredicate::OEQ;
            break;
          case ComparePredicate::ne:
            p = arith::CmpFPredicate::UNE;
            break;
          case ComparePredicate::lt:
            p = arith::CmpFPredicate::OLT;
            break;
          case ComparePredicate::le:
            p = arith::CmpFPredicate::OLE;
            break;
          case ComparePredicate::gt:
            p = arith::CmpFPredicate::OGT;
            break;
          case ComparePredicate::ge:
            p = arith::CmpFPredicate::OGE;
            break;
          }
          return arith::CmpFOp::create(b, loc, p, x, args[1]);
        }
        bool u = isUnsigned(in) || in.isInteger(1);
        arith::CmpIPredicate p = arith::CmpIPredicate::eq;
        switch (c.getPredicate()) {
        case ComparePredicate::eq:
          p = arith::CmpIPredicate::eq;
          break;
        case ComparePredicate::ne:
          p = arith::CmpIPredicate::ne;
          break;
        case ComparePredicate::lt:
          p = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
          break;
        case ComparePredicate::le:
          p = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
          break;
        case ComparePredicate::gt:
          p = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
          break;
        case ComparePredicate::ge:
          p = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
          break;
        }
        return arith::CmpIOp::create(b, loc, p, x, args[1]);
      })
      .Case([&](WhereOp) -> Value {
        return arith::SelectOp::create(b, loc, x, args[1], args[2]);
      })
      .Default([&](Operation *) -> FailureOr<Value> {
        return op->emitOpError("has no pointwise code generation");
      });
}
