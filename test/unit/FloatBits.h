//===- FloatBits.h - an f32's bits, for arithmetic tests ------*- C++ -*-===//
//
// The bits of an f32 and the f32 of bits, for the unit tests that check
// the pointwise emitter's arithmetic on the host.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TEST_UNIT_FLOATBITS_H
#define BRRR_TEST_UNIT_FLOATBITS_H

#include <cstdint>
#include <cstring>

namespace brrr::test {

inline float fromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

} // namespace brrr::test

#endif // BRRR_TEST_UNIT_FLOATBITS_H
