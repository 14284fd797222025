//===- TestUtil.h - helpers shared by the runtime tests ---------*- C++ -*-===//
//
// Environment overrides that undo themselves, and access to the fake
// driver's counters. The paths of the test libraries come from the build
// (BRRR_FAKE_CUDA_PATH, BRRR_FAKE_CUDA_OLD_PATH,
// BRRR_FAKE_CUDA_NO_TMA_PATH).
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TEST_RUNTIME_TESTUTIL_H
#define BRRR_TEST_RUNTIME_TESTUTIL_H

#include "FakeCuda.h"
#include "TestArtifact.h"
#include "runtime/brrr_runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace brrr::test {

/// Sets (or, with nullptr, unsets) an environment variable for a scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name(name) {
    if (const char *old = std::getenv(name)) {
      had = true;
      previous = old;
    }
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (had)
      setenv(name.c_str(), previous.c_str(), 1);
    else
      unsetenv(name.c_str());
  }

private:
  std::string name, previous;
  bool had = false;
};

/// The fake driver's counters (the library is the one the runtime opened:
/// dlopen of the same path returns the same handle).
inline FakeCudaStats fakeStats() {
  static void *lib = dlopen(BRRR_FAKE_CUDA_PATH, RTLD_NOW | RTLD_LOCAL);
  FakeCudaStats s = {};
  if (lib)
    if (auto fn =
            reinterpret_cast<FakeCudaStatsFn>(dlsym(lib, "fake_cuda_stats")))
      fn(&s);
  return s;
}

inline void resetFakeStats() {
  static void *lib = dlopen(BRRR_FAKE_CUDA_PATH, RTLD_NOW | RTLD_LOCAL);
  if (lib)
    if (auto fn =
            reinterpret_cast<FakeCudaResetFn>(dlsym(lib, "fake_cuda_reset")))
      fn();
}

/// Inputs and the outputs the test model must produce from them.
struct Buffers {
  std::vector<float> x, y, sum, xw, relu;
  std::vector<int64_t> ids = {1, 2, 3, 4, 5, 6};

  explicit Buffers(float seed = 1) {
    for (int i = 0; i < kTestElements; ++i) {
      x.push_back(seed * float(i % 7) - 3);
      y.push_back(float(i % 5) - 40 * seed);
    }
    sum.assign(kTestElements, -1);
    xw.assign(kTestElements, -1);
    relu.assign(kTestElements, -1);
  }
  std::vector<const void *> inputs() const {
    return {x.data(), y.data(), ids.data()};
  }
  std::vector<void *> outputs() { return {sum.data(), xw.data(), relu.data()}; }

  void expectCorrect() const {
    for (int i = 0; i < kTestElements; ++i) {
      float t0 = x[size_t(i)] + testWeight(i);
      float s = t0 + y[size_t(i)];
      ASSERT_EQ(xw[size_t(i)], t0) << "xw[" << i << "]";
      ASSERT_EQ(sum[size_t(i)], s) << "sum[" << i << "]";
      ASSERT_EQ(relu[size_t(i)], s > 0 ? s : 0) << "relu[" << i << "]";
    }
  }
};

/// Why deserialize() rejects `image`, or "<accepted>".
inline std::string rejection(const std::vector<uint8_t> &image) {
  artifact::Artifact out;
  std::string error;
  if (artifact::deserialize(image.data(), image.size(), out, error))
    return "<accepted>";
  return error;
}

/// Why deserialize() rejects the image of `a`, or "<accepted>".
inline std::string rejection(const artifact::Artifact &a) {
  return rejection(artifact::serialize(a));
}

/// Every byte of `image` set to a few values: rejected with a message, or
/// accepted as a model whose signature can be read.
inline void corruptEveryByte(const std::vector<uint8_t> &image) {
  int accepted = 0;
  for (size_t i = 0; i < image.size(); ++i) {
    for (uint8_t v : {0x00, 0x01, 0x07, 0x7f, 0x80, 0xff}) {
      std::vector<uint8_t> bad = image;
      bad[i] = v;
      artifact::Artifact out;
      std::string error;
      if (!artifact::deserialize(bad.data(), bad.size(), out, error)) {
        ASSERT_FALSE(error.empty()) << "byte " << i;
        continue;
      }
      // Whatever is accepted (a changed name, weight or PTX byte) must
      // still describe a consistent model.
      ++accepted;
      brrr_model *m = nullptr;
      ASSERT_EQ(brrr_model_open_artifact(bad.data(), bad.size(), -1, &m),
                BRRR_OK);
      brrr_tensor_info info;
      for (int32_t k = 0; k < brrr_model_num_inputs(m); ++k)
        ASSERT_EQ(brrr_model_input(m, k, &info), BRRR_OK);
      for (int32_t k = 0; k < brrr_model_num_outputs(m); ++k)
        ASSERT_EQ(brrr_model_output(m, k, &info), BRRR_OK);
      brrr_model_close(m);
    }
  }
  EXPECT_GT(accepted, 0);
}

/// The serialized test model.
inline std::vector<uint8_t> testImage() {
  return artifact::serialize(makeTestArtifact());
}

} // namespace brrr::test

#endif // BRRR_TEST_RUNTIME_TESTUTIL_H
