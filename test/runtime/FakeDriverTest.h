//===- FakeDriverTest.h - the fixture of the fake-driver tests ---*- C++
//-*-===//
//
// A test that opens artifacts on libbrrr-fake-cuda.so (FakeCuda.h) as card
// 9.0 and, when it ends, checks that closing its model and context released
// every driver object it made.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TEST_RUNTIME_FAKEDRIVERTEST_H
#define BRRR_TEST_RUNTIME_FAKEDRIVERTEST_H

#include "TestUtil.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace brrr::test {

inline std::string lastError() { return brrr_last_error(); }

inline bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

class FakeDriverTest : public ::testing::Test {
protected:
  void SetUp() override {
    // The first use of the fake initializes its counters' baseline.
    resetFakeStats();
    baseline = fakeStats();
  }
  void TearDown() override {
    brrr_context_destroy(ctx);
    brrr_model_close(model);
    FakeCudaStats s = fakeStats();
    EXPECT_EQ(s.liveAllocations, baseline.liveAllocations);
    EXPECT_EQ(s.liveModules, baseline.liveModules);
    EXPECT_EQ(s.liveStreams, baseline.liveStreams);
    EXPECT_EQ(s.liveGraphs, baseline.liveGraphs);
    EXPECT_EQ(s.liveExecs, baseline.liveExecs);
    EXPECT_EQ(s.liveEvents, baseline.liveEvents);
    EXPECT_EQ(s.primaryRetains, baseline.primaryRetains);
  }

  brrr_status open(const brrr::artifact::Artifact &a, int device = 0) {
    image = brrr::artifact::serialize(a);
    return brrr_model_open_artifact(image.data(), image.size(), device, &model);
  }
  void openAndCreate(const brrr::artifact::Artifact &a = makeTestArtifact()) {
    ASSERT_EQ(open(a), BRRR_OK) << lastError();
    ASSERT_EQ(brrr_context_create(model, &ctx), BRRR_OK) << lastError();
  }
  brrr_status runHost(Buffers &b) {
    return brrr_run_host(ctx, b.inputs().data(), b.outputs().data());
  }
  brrr_status run(Buffers &b, void *stream = nullptr) {
    return brrr_run(ctx, b.inputs().data(), b.outputs().data(), stream);
  }

  ScopedEnv library{"BRRR_CUDA_LIBRARY", BRRR_FAKE_CUDA_PATH};
  ScopedEnv cc{"FAKE_CUDA_CC", "9.0"};
  FakeCudaStats baseline;
  std::vector<uint8_t> image;
  brrr_model *model = nullptr;
  brrr_context *ctx = nullptr;
};

} // namespace brrr::test

#endif // BRRR_TEST_RUNTIME_FAKEDRIVERTEST_H
