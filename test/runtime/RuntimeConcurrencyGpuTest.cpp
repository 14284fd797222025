//===- RuntimeConcurrencyGpuTest.cpp - contexts and models side by side ---===//
//
// The runtime's concurrency and resource guarantees on a real GPU: threads
// running one model through their own contexts get bitwise the results of
// a serial run, two models are open at once, an arena larger than the free
// device memory fails context creation with an out-of-memory message, and a
// context outlives the model it was made from. Skipped where libcuda.so.1 or
// a GPU is missing (CI), like RuntimeGpuTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using namespace brrr::test;

namespace {

std::string lastError() { return brrr_last_error(); }

class ConcurrencyGpuTest : public ::testing::Test {
protected:
  /// Opens `a` as a model; skips the test without a GPU.
  brrr_model *open(const brrr::artifact::Artifact &a) {
    std::vector<uint8_t> image = brrr::artifact::serialize(a);
    brrr_model *m = nullptr;
    brrr_status s = brrr_model_open_artifact(image.data(), image.size(), 0, &m);
    if (s == BRRR_ERROR_NO_DRIVER || s == BRRR_ERROR_NO_DEVICE)
      return nullptr;
    EXPECT_EQ(s, BRRR_OK) << lastError();
    return m;
  }

  ScopedEnv realDriver{"BRRR_CUDA_LIBRARY", nullptr};
};

#define OPEN_OR_SKIP(var, artifact)                                            \
  brrr_model *var = open(artifact);                                            \
  if (!var)                                                                    \
    GTEST_SKIP() << "no GPU: " << lastError();

/// Whether every output of `a` equals `b`'s, bit for bit.
bool sameBits(const Buffers &a, const Buffers &b) {
  return a.sum == b.sum && a.xw == b.xw && a.relu == b.relu;
}

TEST_F(ConcurrencyGpuTest, EightThreadsWithOwnContextsMatchSerialRunsBitwise) {
  OPEN_OR_SKIP(model, makeTestArtifact());
  constexpr int kThreads = 8, kRuns = 200;
  auto seed = [](int t) { return 1.0f + 0.375f * float(t); };
  // The serial reference: one context, each thread's inputs in turn.
  std::vector<Buffers> expected;
  brrr_context *serial = nullptr;
  ASSERT_EQ(brrr_context_create(model, &serial), BRRR_OK) << lastError();
  for (int t = 0; t < kThreads; ++t) {
    Buffers b(seed(t));
    ASSERT_EQ(brrr_run_host(serial, b.inputs().data(), b.outputs().data()),
              BRRR_OK)
        << lastError();
    b.expectCorrect();
    expected.push_back(b);
  }
  brrr_context_destroy(serial);

  // Each thread makes its own context (half of them with CUDA graphs off)
  // and runs its inputs many times while the others run theirs.
  std::atomic<int> failures{0}, mismatches{0};
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      brrr_context *ctx = nullptr;
      if (brrr_context_create(model, &ctx) != BRRR_OK) {
        errors[size_t(t)] = lastError();
        ++failures;
        return;
      }
      if (t % 2)
        brrr_context_set_cuda_graphs(ctx, 0);
      for (int r = 0; r < kRuns; ++r) {
        Buffers b(seed(t));
        if (brrr_run_host(ctx, b.inputs().data(), b.outputs().data()) !=
            BRRR_OK) {
          errors[size_t(t)] = lastError();
          ++failures;
          break;
        }
        mismatches += !sameBits(b, expected[size_t(t)]);
      }
      brrr_context_destroy(ctx);
    });
  for (std::thread &th : threads)
    th.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(errors[size_t(t)], "") << "thread " << t;
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
  brrr_model_close(model);
}

TEST_F(ConcurrencyGpuTest, TwoModelsOpenAtOnce) {
  OPEN_OR_SKIP(first, makeTestArtifact());
  brrr_model *second = open(makeTestArtifact());
  ASSERT_NE(second, nullptr) << lastError();
  brrr_context *a = nullptr, *b = nullptr;
  ASSERT_EQ(brrr_context_create(first, &a), BRRR_OK) << lastError();
  ASSERT_EQ(brrr_context_create(second, &b), BRRR_OK) << lastError();
  for (int r = 0; r < 3; ++r) {
    Buffers x(1.5f), y(-2.0f);
    ASSERT_EQ(brrr_run_host(a, x.inputs().data(), x.outputs().data()), BRRR_OK)
        << lastError();
    ASSERT_EQ(brrr_run_host(b, y.inputs().data(), y.outputs().data()), BRRR_OK)
        << lastError();
    x.expectCorrect();
    y.expectCorrect();
  }
  brrr_context_destroy(a);
  brrr_context_destroy(b);
  brrr_model_close(first);
  brrr_model_close(second);
}

TEST_F(ConcurrencyGpuTest, ArenaBeyondFreeMemoryFailsContextCreation) {
  brrr::artifact::Artifact big = makeTestArtifact();
  big.arenaBytes = uint64_t(1) << 42; // 4 TiB: no GPU has it
  OPEN_OR_SKIP(model, big);
  brrr_context *ctx = nullptr;
  EXPECT_EQ(brrr_context_create(model, &ctx), BRRR_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(ctx, nullptr);
  std::string error = lastError();
  EXPECT_NE(error.find("allocating 4.0 TiB for the model's intermediate "
                       "arena on device 0 ("),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("out of memory"), std::string::npos) << error;
  // The failure leaks nothing: a model with a normal arena still runs.
  brrr_model_close(model);
  OPEN_OR_SKIP(small, makeTestArtifact());
  ASSERT_EQ(brrr_context_create(small, &ctx), BRRR_OK) << lastError();
  Buffers b;
  ASSERT_EQ(brrr_run_host(ctx, b.inputs().data(), b.outputs().data()), BRRR_OK)
      << lastError();
  b.expectCorrect();
  brrr_context_destroy(ctx);
  brrr_model_close(small);
}

TEST_F(ConcurrencyGpuTest, ContextOutlivesItsClosedModel) {
  OPEN_OR_SKIP(model, makeTestArtifact());
  brrr_context *ctx = nullptr;
  ASSERT_EQ(brrr_context_create(model, &ctx), BRRR_OK) << lastError();
  brrr_model_close(model); // the context keeps the model's code and weights
  for (int r = 0; r < 3; ++r) {
    Buffers b(0.5f + float(r));
    ASSERT_EQ(brrr_run_host(ctx, b.inputs().data(), b.outputs().data()),
              BRRR_OK)
        << lastError();
    b.expectCorrect();
  }
  brrr_context_destroy(ctx);
}

} // namespace
