//===- GeluArithmeticTest.cpp - the 16-bit GELU's accuracy ----------------===//
//
// The arithmetic of the f16 GELU (erfGeluHalf in
// compiler/CodeGen/PointwiseEmitter.h, geluHalf its host twin in
// PointwiseArithmetic.h) and of the bf16 one (erfGeluLowPrecision,
// geluLowPrecision), and of the 16-bit tanh GELU (tanhGeluLowPrecision, in
// both), on the host's f32: over every finite f16 input, and
// every bf16 input from -6.5 up, the 16-bit result is at most one ulp from
// the correctly rounded GELU; infinities and NaNs come out as x Phi(x)
// says, once rounded to the format. Below -6.5 (bf16 results under 1e-10,
// which f16 flushes to zero) Abramowitz & Stegun's tail drifts to 4% at
// -13 (5% once rounded), and below -13.2 the exp2 flushes its subnormal
// results: the bf16 results there, under 6e-39, are zero.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/PointwiseArithmetic.h"
#include "test/unit/FloatBits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

using namespace mlir::brrr::pointwise;
using brrr::test::bitsOf;
using brrr::test::fromBits;

namespace {

/// The correctly rounded GELU, x Phi(x) = x erfc(-x / sqrt(2)) / 2, in long
/// double.
long double exactGelu(float x) {
  long double v = x;
  return v * std::erfc(-v / std::sqrt(2.0L)) / 2;
}

/// A 16-bit format's bits as an ordered integer (so that neighbours differ
/// by one, across zero too).
int64_t ordered(uint16_t bits) {
  return bits & 0x8000 ? -static_cast<int64_t>(bits & 0x7fff) : bits;
}

struct Format {
  const char *name;
  /// The GELU in f32, as the device computes it for this format.
  float (*gelu)(float);
  /// Inputs below this are held to 5% instead of one ulp.
  float oneUlpFrom;
  float (*toFloat)(uint16_t);
  /// Rounds to nearest even.
  uint16_t (*fromDouble)(long double);
};

float halfToFloat(uint16_t h) {
  _Float16 v;
  std::memcpy(&v, &h, sizeof v);
  return static_cast<float>(v);
}

uint16_t doubleToHalf(long double d) {
  // long double -> double -> half can round twice; double's 53 bits leave
  // a half tie intact unless d lies within 2^-42 of one.
  _Float16 v = static_cast<_Float16>(static_cast<double>(d));
  uint16_t h;
  std::memcpy(&h, &v, sizeof h);
  return h;
}

float bf16ToFloat(uint16_t h) {
  return fromBits(static_cast<uint32_t>(h) << 16);
}

uint16_t doubleToBf16(long double d) {
  // Through f32: rounding twice differs from rounding once only within
  // 2^-24 of a bf16 tie.
  uint32_t u = bitsOf(static_cast<float>(d));
  if ((u & 0x7fffffff) > 0x7f800000)
    return 0x7fc0;
  uint32_t lsb = (u >> 16) & 1;
  return static_cast<uint16_t>((u + 0x7fff + lsb) >> 16);
}

/// Runs `gelu` over every finite input of a 16-bit format and returns
/// whether every result is at most one ulp from the correctly rounded
/// `exact` GELU, fewer than 1% of them one ulp off (the approximations
/// move only results near a rounding boundary). Inputs where `tail(x,
/// got, exact)` holds are the tail's to judge (it asserts on them).
template <typename Tail>
void expectWithinOneUlp(const char *name, float (*toFloat)(uint16_t),
                        uint16_t (*fromDouble)(long double),
                        float (*gelu)(float), long double (*exact)(float),
                        Tail tail) {
  int64_t checked = 0, offByOne = 0;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float x = toFloat(static_cast<uint16_t>(bits));
    if (!std::isfinite(x))
      continue;
    ++checked;
    uint16_t got = fromDouble(gelu(x));
    long double e = exact(x);
    if (tail(x, toFloat(got), e))
      continue;
    uint16_t want = fromDouble(e);
    int64_t ulps = std::abs(ordered(got) - ordered(want));
    ASSERT_LE(ulps, 1) << name << " gelu(" << x << ") = " << toFloat(got)
                       << ", correctly rounded " << toFloat(want);
    offByOne += ulps;
  }
  EXPECT_LT(offByOne, checked / 100) << name;
}

const Format kFormats[] = {
    {"f16", geluHalf, -65504.0f, halfToFloat, doubleToHalf},
    {"bf16", geluLowPrecision, -6.5f, bf16ToFloat, doubleToBf16},
    // The bf16 GELU over f16 inputs: what an f16 GELU took before
    // erfGeluHalf, held to the same ulp.
    {"bf16_gelu_on_f16", geluLowPrecision, -65504.0f, halfToFloat,
     doubleToHalf}};

class GeluArithmetic : public ::testing::TestWithParam<Format> {};

TEST_P(GeluArithmetic, EveryFiniteInputWithinOneUlp) {
  const Format &f = GetParam();
  expectWithinOneUlp(f.name, f.toFloat, f.fromDouble, f.gelu, exactGelu,
                     [&](float x, float got, long double exact) {
                       if (x >= f.oneUlpFrom)
                         return false;
                       // Relative to the result, or to the smallest normal f32
                       // where the result is subnormal; zero where the exp2
                       // flushed (x < -13.2), its exact value under 6e-39.
                       long double scale = std::max<long double>(
                           std::fabs(exact), std::numeric_limits<float>::min());
                       if (x < -13.2f) {
                         EXPECT_EQ(got, 0.0f) << f.name << " gelu(" << x << ")";
                         EXPECT_LT(std::fabs(exact), 6e-39L)
                             << f.name << " gelu(" << x << ")";
                         return true;
                       }
                       EXPECT_LE(std::fabs(got - exact) / scale, 0.05L)
                           << f.name << " gelu(" << x << ")";
                       return true;
                     });
}

TEST_P(GeluArithmetic, InfinitiesAndNaN) {
  const Format &f = GetParam();
  float inf = std::numeric_limits<float>::infinity();
  // The format's value of the f32 GELU, as the kernel stores it.
  auto rounded = [&](float x) { return f.toFloat(f.fromDouble(f.gelu(x))); };
  EXPECT_EQ(rounded(inf), inf);
  EXPECT_EQ(rounded(-inf), 0.0f);
  EXPECT_TRUE(std::isnan(f.gelu(std::nanf(""))));
  // Large finite inputs (an f32 accumulator's) keep their value, or vanish.
  EXPECT_EQ(f.gelu(1e30f), 1e30f);
  EXPECT_EQ(rounded(-1e30f), 0.0f);
}

/// The correctly rounded tanh GELU, x (1 + tanh(u)) / 2 = x / (1 +
/// exp(-2u)), u = sqrt(2 / pi) (x + 0.044715 x^3), in long double (the
/// second form has no 1 + tanh cancellation).
long double exactTanhGelu(float x) {
  long double v = x;
  long double u = std::sqrt(2.0L / 3.14159265358979323846264338327950288L) *
                  (v + 0.044715L * v * v * v);
  return v / (1 + std::exp(-2 * u));
}

struct TanhFormat {
  const char *name;
  /// Inputs below this have results under 2^-126 x: zero.
  float flushedBelow;
  float (*toFloat)(uint16_t);
  uint16_t (*fromDouble)(long double);
};

const TanhFormat kTanhFormats[] = {
    {"f16", -65504.0f, halfToFloat, doubleToHalf},
    {"bf16", -10.0f, bf16ToFloat, doubleToBf16}};

class TanhGeluArithmetic : public ::testing::TestWithParam<TanhFormat> {};

// Over every finite input (from -10 up in bf16) the 16-bit result of
// tanhGeluLowPrecision is at most one ulp from the correctly rounded tanh
// GELU; below -10 the sigmoid flushes to zero and so does the bf16 result,
// whose exact value is under 1.2e-37.
TEST_P(TanhGeluArithmetic, EveryFiniteInputWithinOneUlp) {
  const TanhFormat &f = GetParam();
  expectWithinOneUlp(f.name, f.toFloat, f.fromDouble, tanhGeluLowPrecision,
                     exactTanhGelu, [&](float x, float got, long double exact) {
                       if (x >= f.flushedBelow)
                         return false;
                       EXPECT_EQ(got, 0.0f) << f.name << " gelu(" << x << ")";
                       EXPECT_LT(std::fabs(exact), 1.2e-37L)
                           << f.name << " gelu(" << x << ")";
                       return true;
                     });
}

TEST_P(TanhGeluArithmetic, InfinitiesAndNaN) {
  float inf = std::numeric_limits<float>::infinity();
  // x (1 + tanh(u)) / 2's limits: inf, and -inf * 0.
  EXPECT_EQ(tanhGeluLowPrecision(inf), inf);
  EXPECT_TRUE(std::isnan(tanhGeluLowPrecision(-inf)));
  EXPECT_TRUE(std::isnan(tanhGeluLowPrecision(std::nanf(""))));
  EXPECT_EQ(tanhGeluLowPrecision(1e30f), 1e30f);
  EXPECT_EQ(tanhGeluLowPrecision(-1e30f), 0.0f);
  EXPECT_EQ(tanhGeluLowPrecision(0.0f), 0.0f);
}

INSTANTIATE_TEST_SUITE_P(SixteenBit, TanhGeluArithmetic,
                         ::testing::ValuesIn(kTanhFormats),
                         [](const auto &info) {
                           return std::string(info.param.name);
                         });

INSTANTIATE_TEST_SUITE_P(SixteenBit, GeluArithmetic,
                         ::testing::ValuesIn(kFormats), [](const auto &info) {
                           return std::string(info.param.name);
                         });

} // namespace
