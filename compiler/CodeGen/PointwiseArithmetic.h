//===- PointwiseArithmetic.h - device arithmetic on the host ----*- C++ -*-===//
//
// The constants and host functions that PointwiseEmitter.h's device
// arithmetic follows step for step, in the host's f32 (which rounds as the
// device's mul.rn and fma.rn do): the quantize's division by a scale's
// reciprocal and its rounding through the bits of 1.5 * 2^23, and the
// 16-bit GELUs. The unit tests check these over every input that matters
// (QuantizeArithmeticTest, GeluArithmeticTest) without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_POINTWISEARITHMETIC_H
#define BRRR_COMPILER_CODEGEN_POINTWISEARITHMETIC_H

#include "llvm/ADT/ArrayRef.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace mlir::brrr::pointwise {

/// 1.5 * 2^23, whose f32 neighbours are 1 apart, and its bits: adding it
/// rounds an f32 of magnitude below 2^22 to an integer (half to even),
/// and integers of that magnitude added to its bits read back exactly.
inline constexpr double kRoundingBias = 12582912.0;
inline constexpr int64_t kRoundingBiasBits = 0x4B400000;

/// x / s as divideByScale computes it for a constant s in [2^-80, 2^80]
/// that is not a power of two, with r = 1 / s rounded to nearest: the host's
/// f32 arithmetic is the device's (mul.rn, fma.rn), so QuantizeDivisionTest
/// checks the method against x / s here.
inline float quotientByReciprocal(float x, float s, float r) {
  float q0 = x * r;
  float e = std::fma(-q0, s, x);
  float q = std::fma(e, r, q0);
  return std::isnan(q) ? q0 : q;
}

/// The f16 and bf16 GELU's constants (erfGeluLowPrecision): Abramowitz &
/// Stegun 7.1.26's p over sqrt(2) (t = 1 / (1 + p |x| / sqrt(2))), its
/// polynomial's coefficients halved, highest first, and the cap on |x|.
inline constexpr double kGeluTailP = 0.3275911 * M_SQRT1_2;
inline constexpr double kGeluTailPoly[5] = {1.061405429 / 2, -1.453152027 / 2,
                                            1.421413741 / 2, -0.284496736 / 2,
                                            0.254829592 / 2};
inline constexpr float kGeluCap = 0x1p64f;

/// gelu(x) as erfGeluLowPrecision computes it, on the host's f32, which
/// rounds as the device's mul.rn and fma.rn do; the device's approximate
/// reciprocal and exp2 are within two ulps of these, and its exp2 flushes
/// results below the smallest normal f32 to zero (.ftz) as this one does.
/// GeluArithmeticTest checks it over every f16 and bf16 input.
inline float geluLowPrecision(float x) {
  float ax = std::fmin(std::fabs(x), kGeluCap);
  if (std::isnan(x))
    ax = x;
  float t = 1.0f / std::fma(ax, static_cast<float>(kGeluTailP), 1.0f);
  float poly = static_cast<float>(kGeluTailPoly[0]);
  for (double c : llvm::ArrayRef<double>(kGeluTailPoly).drop_front())
    poly = std::fma(t, poly, static_cast<float>(c));
  poly = t * poly;
  float e = std::exp2((x * x) * static_cast<float>(-M_LOG2E / 2));
  if (e < std::numeric_limits<float>::min())
    e = 0.0f;
  return std::fma(-ax, poly * e, std::isnan(x) ? x : std::fmax(x, 0.0f));
}

/// The f16 GELU's constants (erfGeluHalf): the cap on |x|, past which
/// every f16 result is max(x, 0) (the tail's |x| Q(|x|) under 1e-11), and
/// a degree-8 fit of log2 Q(z) on [0, 7], Q(z) = erfc(z / sqrt(2)) / 2 the
/// normal tail's probability, highest degree first (scripts/
/// fit_gelu_tail.py; its error at most 6.4e-6, 4.4e-6 of Q).
inline constexpr float kGeluHalfCap = 7.0f;
inline constexpr float kGeluHalfTail[9] = {
    0x1.bfeb44p-25f,  -0x1.9cfe8cp-19f, 0x1.34516ap-14f,
    -0x1.0357b8p-10f, 0x1.1bfafap-7f,   -0x1.bbe89cp-5f,
    -0x1.d54e6ap-2f,  -0x1.26bb06p+0f,  -0x1.ffff2cp-1f};

/// gelu(x) as erfGeluHalf computes it, on the host's f32: z = min(|x|, 7),
/// the tail Q(z) = exp2(P(z)), gelu = max(x, 0) - z Q(z) in one fma. The
/// device's exp2 is within two ulps of this one and flushes results below
/// the smallest normal f32 to zero (P(z) stays above -40 on [0, 7]).
/// GeluArithmeticTest checks it over every f16 input.
inline float geluHalf(float x) {
  if (std::isnan(x))
    return x;
  float z = std::fmin(std::fabs(x), kGeluHalfCap);
  float p = kGeluHalfTail[0];
  for (float c : llvm::ArrayRef<float>(kGeluHalfTail).drop_front())
    p = std::fma(p, z, c);
  return std::fma(-z, std::exp2(p), std::fmax(x, 0.0f));
}

/// The 16-bit tanh GELU's constants (tanhGeluLowPrecision): gelu(x) =
/// x sigmoid(2u) = x / (1 + 2^(x (a + b x^2))), u = sqrt(2 / pi) (x +
/// 0.044715 x^3), so a = -2 sqrt(2 / pi) log2(e) and b = 0.044715 a.
inline constexpr double kGeluTanhExp2A = -2.302208198144325;
inline constexpr double kGeluTanhExp2B = -0.1029432395800235;

/// The tanh gelu(x) as tanhGeluLowPrecision computes it, on the host's
/// f32: the device's exp2 and reciprocal are within two ulps of these, and
/// flush results below the smallest normal f32 to zero (.ftz) as these do.
/// GeluArithmeticTest checks it over every f16 and bf16 input.
inline float tanhGeluLowPrecision(float x) {
  float k = std::fma(x * x, static_cast<float>(kGeluTanhExp2B),
                     static_cast<float>(kGeluTanhExp2A));
  float e = std::exp2(x * k);
  if (e < std::numeric_limits<float>::min())
    e = 0.0f;
  float r = 1.0f / (1.0f + e);
  if (r < std::numeric_limits<float>::min())
    r = 0.0f;
  return x * r;
}

} // namespace mlir::brrr::pointwise

#endif // BRRR_COMPILER_CODEGEN_POINTWISEARITHMETIC_H
