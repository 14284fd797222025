//===- RuntimeGpuTest.cpp - the runtime on a real GPU ---------------------===//
//
// The test model's hand-written PTX through the real driver: JIT loading,
// results, graph capture, replay and rebinding with device buffers,
// profiling, and the host cost of a graph replay. Skipped where
// libcuda.so.1 or a GPU is missing (CI), so these run only on a GPU
// machine. BRRR_TEST_CUBIN names a cubin of the same PTX built for sm_90a
// (ptxas -arch=sm_90a) to test the architecture-specific path too.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>

using namespace brrr::test;

namespace {

std::string lastError() { return brrr_last_error(); }

/// The driver calls the test itself needs, for device buffers.
struct Driver {
  decltype(&cuMemAlloc_v2) alloc = nullptr;
  decltype(&cuMemFree_v2) free = nullptr;
  decltype(&cuMemcpyHtoD_v2) toDevice = nullptr;
  decltype(&cuMemcpyDtoH_v2) toHost = nullptr;
  decltype(&cuCtxSynchronize) sync = nullptr;

  bool load() {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      return false;
    alloc = reinterpret_cast<decltype(alloc)>(dlsym(lib, "cuMemAlloc_v2"));
    free = reinterpret_cast<decltype(free)>(dlsym(lib, "cuMemFree_v2"));
    toDevice =
        reinterpret_cast<decltype(toDevice)>(dlsym(lib, "cuMemcpyHtoD_v2"));
    toHost = reinterpret_cast<decltype(toHost)>(dlsym(lib, "cuMemcpyDtoH_v2"));
    sync = reinterpret_cast<decltype(sync)>(dlsym(lib, "cuCtxSynchronize"));
    return alloc && free && toDevice && toHost && sync;
  }
};

/// A Buffers' worth of device memory.
struct DeviceBuffers {
  Driver &cu;
  CUdeviceptr x = 0, y = 0, ids = 0, sum = 0, xw = 0, relu = 0;

  explicit DeviceBuffers(Driver &cu) : cu(cu) {
    for (CUdeviceptr *p : {&x, &y, &sum, &xw, &relu})
      EXPECT_EQ(cu.alloc(p, 4 * kTestElements), CUDA_SUCCESS);
    EXPECT_EQ(cu.alloc(&ids, 48), CUDA_SUCCESS);
  }
  ~DeviceBuffers() {
    for (CUdeviceptr p : {x, y, ids, sum, xw, relu})
      cu.free(p);
  }
  void upload(const Buffers &b) {
    ASSERT_EQ(cu.toDevice(x, b.x.data(), 4 * kTestElements), CUDA_SUCCESS);
    ASSERT_EQ(cu.toDevice(y, b.y.data(), 4 * kTestElements), CUDA_SUCCESS);
    ASSERT_EQ(cu.toDevice(ids, b.ids.data(), 48), CUDA_SUCCESS);
  }
  void download(Buffers &b) {
    ASSERT_EQ(cu.sync(), CUDA_SUCCESS);
    ASSERT_EQ(cu.toHost(b.sum.data(), sum, 4 * kTestElements), CUDA_SUCCESS);
    ASSERT_EQ(cu.toHost(b.xw.data(), xw, 4 * kTestElements), CUDA_SUCCESS);
    ASSERT_EQ(cu.toHost(b.relu.data(), relu, 4 * kTestElements), CUDA_SUCCESS);
  }
  std::vector<const void *> inputs() const {
    return {ptr(x), ptr(y), ptr(ids)};
  }
  std::vector<void *> outputs() const { return {ptr(sum), ptr(xw), ptr(relu)}; }

private:
  static void *ptr(CUdeviceptr p) {
    return reinterpret_cast<void *>(uintptr_t(p));
  }
};

class GpuTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::vector<uint8_t> image = testImage();
    brrr_status s =
        brrr_model_open_artifact(image.data(), image.size(), 0, &model);
    if (s == BRRR_ERROR_NO_DRIVER || s == BRRR_ERROR_NO_DEVICE)
      GTEST_SKIP() << "no GPU: " << lastError();
    ASSERT_EQ(s, BRRR_OK) << lastError();
    ASSERT_TRUE(cu.load());
    ASSERT_EQ(brrr_context_create(model, &ctx), BRRR_OK) << lastError();
  }
  void TearDown() override {
    brrr_context_destroy(ctx);
    brrr_model_close(model);
  }

  ScopedEnv realDriver{"BRRR_CUDA_LIBRARY", nullptr};
  Driver cu;
  brrr_model *model = nullptr;
  brrr_context *ctx = nullptr;
};

TEST_F(GpuTest, RunHostMatchesTheReference) {
  for (int i = 0; i < 3; ++i) {
    Buffers b(float(i + 1));
    ASSERT_EQ(brrr_run_host(ctx, b.inputs().data(), b.outputs().data()),
              BRRR_OK)
        << lastError();
    b.expectCorrect();
  }
}

TEST_F(GpuTest, DeviceBuffersReplayAndRebind) {
  DeviceBuffers da(cu), db(cu);
  Buffers a(1), b(2);
  da.upload(a);
  db.upload(b);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(brrr_run(ctx, da.inputs().data(), da.outputs().data(), nullptr),
              BRRR_OK)
        << lastError();
    ASSERT_EQ(brrr_run(ctx, db.inputs().data(), db.outputs().data(), nullptr),
              BRRR_OK)
        << lastError();
  }
  da.download(a);
  db.download(b);
  a.expectCorrect();
  b.expectCorrect();
}

TEST_F(GpuTest, GraphsOffGiveTheSameResults) {
  ASSERT_EQ(brrr_context_set_cuda_graphs(ctx, 0), BRRR_OK);
  DeviceBuffers d(cu);
  Buffers b(5);
  d.upload(b);
  ASSERT_EQ(brrr_run(ctx, d.inputs().data(), d.outputs().data(), nullptr),
            BRRR_OK)
      << lastError();
  d.download(b);
  b.expectCorrect();
}

TEST_F(GpuTest, ProfileTimesEveryLaunch) {
  DeviceBuffers d(cu);
  Buffers b;
  d.upload(b);
  double ms[3] = {-1, -1, -1};
  ASSERT_EQ(brrr_profile(ctx, d.inputs().data(), d.outputs().data(), ms),
            BRRR_OK)
      << lastError();
  for (double t : ms) {
    EXPECT_GT(t, 0);
    EXPECT_LT(t, 100);
  }
  d.download(b);
  b.expectCorrect();
}

/// Host time per brrr_run, averaged over many queued runs.
double microsecondsPerRun(brrr_context *ctx, const DeviceBuffers &d, int n) {
  std::vector<const void *> in = d.inputs();
  std::vector<void *> out = d.outputs();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    if (brrr_run(ctx, in.data(), out.data(), nullptr) != BRRR_OK)
      return -1;
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(end - start).count() / n;
}

TEST_F(GpuTest, ReplayHostCost) {
  DeviceBuffers d(cu);
  Buffers b;
  d.upload(b);
  ASSERT_GE(microsecondsPerRun(ctx, d, 10), 0) << lastError(); // capture
  ASSERT_EQ(cu.sync(), CUDA_SUCCESS);
  double graph = microsecondsPerRun(ctx, d, 2000);
  ASSERT_EQ(cu.sync(), CUDA_SUCCESS);
  ASSERT_EQ(brrr_context_set_cuda_graphs(ctx, 0), BRRR_OK);
  double eager = microsecondsPerRun(ctx, d, 2000);
  ASSERT_EQ(cu.sync(), CUDA_SUCCESS);
  std::printf("brrr_run host cost: %.2f us with a graph replay, %.2f us "
              "launching 3 kernels and a copy\n",
              graph, eager);
  EXPECT_GT(graph, 0);
  d.download(b);
  b.expectCorrect();
}

TEST_F(GpuTest, ArchSpecificCubin) {
  const char *path = std::getenv("BRRR_TEST_CUBIN");
  if (!path)
    GTEST_SKIP() << "BRRR_TEST_CUBIN is not set";
  std::ifstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << path;
  brrr::artifact::Artifact a = makeTestArtifact();
  a.cubin.assign(std::istreambuf_iterator<char>(file),
                 std::istreambuf_iterator<char>());
  a.ptx.clear();
  a.target = "sm_90a";
  a.smMajor = 9;
  a.smMinor = 0;
  a.exactArch = true;
  std::vector<uint8_t> image = brrr::artifact::serialize(a);
  brrr_model *m = nullptr;
  brrr_status s = brrr_model_open_artifact(image.data(), image.size(), 0, &m);
  if (s == BRRR_ERROR_UNSUPPORTED_DEVICE)
    GTEST_SKIP() << lastError();
  ASSERT_EQ(s, BRRR_OK) << lastError();
  brrr_context *c = nullptr;
  ASSERT_EQ(brrr_context_create(m, &c), BRRR_OK) << lastError();
  Buffers b;
  EXPECT_EQ(brrr_run_host(c, b.inputs().data(), b.outputs().data()), BRRR_OK)
      << lastError();
  b.expectCorrect();
  brrr_context_destroy(c);
  brrr_model_close(m);
}

} // namespace
