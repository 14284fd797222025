//===- QuantizeArithmeticTest.cpp - quantization without conversions -----===//
//
// The arithmetic the pointwise emitter quantizes and dequantizes with
// (compiler/CodeGen/PointwiseEmitter.h; its host twin in
// PointwiseArithmetic.h), on the host's f32, which rounds as the device's
// mul.rn, add.rn and fma.rn do: a division by a constant scale as a
// product by its reciprocal and one fma correction, rounding half to even
// by adding 1.5 * 2^23, and integers read back from its bits.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/PointwiseArithmetic.h"
#include "test/unit/FloatBits.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

using namespace mlir::brrr::pointwise;
using brrr::test::bitsOf;
using brrr::test::fromBits;

namespace {

/// Whether the method's quotient by a scale in [2^-80, 2^80] is x / s,
/// bit for bit (NaNs as NaNs), where x is at least 2^-100 and the quotient
/// normal; below them (the remainder then underflows), whether both are
/// under 2^-19, which quantizes to 0 in every integer and float8 type.
bool sameQuotient(float x, float s) {
  float want = x / s, got = quotientByReciprocal(x, s, 1.0f / s);
  if (std::isnan(want))
    return std::isnan(got);
  if (std::fabs(want) < 0x1p-126f || std::fabs(x) < 0x1p-100f)
    return std::fabs(want) < 0x1p-19f && std::fabs(got) < 0x1p-19f;
  return bitsOf(want) == bitsOf(got);
}

TEST(QuantizeDivisionTest, MatchesDivisionOverEveryMantissa) {
  // Every mantissa of x in two binades, by scales of every kind: one
  // third, a tenth, an all-ones mantissa, ONNX Runtime-like ones.
  const float scales[] = {1.0f / 3.0f, 0.1f,     0x1.fffffep-1f, 0x1.000002p+0f,
                          0.0123f,     0.02354f, 3.7e-5f,        417.25f};
  for (float s : scales)
    for (uint32_t exponent : {127u, 131u})
      for (uint32_t m = 0; m < (1u << 23); m += 3) {
        float x = fromBits((exponent << 23) | m);
        ASSERT_TRUE(sameQuotient(x, s)) << x << " / " << s;
        ASSERT_TRUE(sameQuotient(-x, s)) << -x << " / " << s;
      }
}

TEST(QuantizeDivisionTest, MatchesDivisionOnRandomOperands) {
  std::mt19937 gen(7);
  std::uniform_int_distribution<uint32_t> bits;
  int checked = 0;
  while (checked < 4000000) {
    float x = fromBits(bits(gen)), s = fromBits(bits(gen) & 0x7fffffffu);
    if (!std::isfinite(x) || !(s >= 0x1p-80f && s <= 0x1p80f))
      continue;
    ++checked;
    ASSERT_TRUE(sameQuotient(x, s)) << x << " / " << s;
  }
}

TEST(QuantizeDivisionTest, LimitsKeepTheProduct) {
  float s = 0.1f, r = 1.0f / s;
  EXPECT_EQ(quotientByReciprocal(INFINITY, s, r), INFINITY);
  EXPECT_EQ(quotientByReciprocal(-INFINITY, s, r), -INFINITY);
  EXPECT_TRUE(std::isnan(quotientByReciprocal(NAN, s, r)));
  // A quotient past the f32 range: the product's infinity.
  EXPECT_EQ(quotientByReciprocal(3.4e38f, s, r), INFINITY);
}

TEST(QuantizeRoundingTest, BiasRoundsHalfToEven) {
  // Quarters from -70000 to 70000: every tie, both signs.
  for (int k = -280000; k <= 280000; ++k) {
    float t = k / 4.0f;
    int32_t n = static_cast<int32_t>(
        bitsOf(t + static_cast<float>(kRoundingBias)) - kRoundingBiasBits);
    ASSERT_EQ(n, static_cast<int32_t>(std::nearbyint(t))) << t;
  }
}

TEST(QuantizeRoundingTest, BitsReadBackIntegers) {
  // Every difference of two 16-bit values.
  for (int32_t d = -131071; d <= 131071; ++d) {
    float f = fromBits(static_cast<uint32_t>(d + kRoundingBiasBits)) -
              static_cast<float>(kRoundingBias);
    ASSERT_EQ(f, static_cast<float>(d)) << d;
  }
}

} // namespace
