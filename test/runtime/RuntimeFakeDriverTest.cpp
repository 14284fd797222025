//===- RuntimeFakeDriverTest.cpp - device paths against a fake driver -----===//
//
// Runs the runtime's device code in CI through libbrrr-fake-cuda.so (see
// FakeCuda.h): which code object is chosen for which card, the results of
// the plan, when graphs are captured, replayed, updated or bypassed, host
// staging, profiling, out-of-memory and missing-device errors, index
// checks, and that closing everything releases every driver object (the
// fixture: FakeDriverTest.h; tensor maps: RuntimeTensorMapTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "FakeDriverTest.h"
#include "runtime/TensorMaps.h"

#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace brrr::test;

namespace {

TEST_F(FakeDriverTest, RunHostComputesThePlan) {
  openAndCreate();
  EXPECT_EQ(fakeStats().lastModuleKind, 2) << "sm_80 PTX JIT on a 9.0 card";
  Buffers b;
  ASSERT_EQ(runHost(b), BRRR_OK) << lastError();
  b.expectCorrect();
}

// A context's arena starts zeroed (the fake fills new allocations with
// 0xff): a stream-K kernel's flags there (brrr.workspace) must read zero
// at its first launch.
TEST_F(FakeDriverTest, ArenaStartsZeroed) {
  openAndCreate();
  EXPECT_EQ(fakeStats().zeroedBytes, 1024) << "the test artifact's arena";
}

TEST_F(FakeDriverTest, GraphIsCapturedOnceThenReplayed) {
  openAndCreate();
  for (int i = 0; i < 3; ++i) {
    Buffers b(float(i + 1));
    ASSERT_EQ(runHost(b), BRRR_OK) << lastError();
    b.expectCorrect();
  }
  FakeCudaStats s = fakeStats();
  EXPECT_EQ(s.captures, 1);
  EXPECT_EQ(s.instantiations, 1);
  EXPECT_EQ(s.graphLaunches, 3);
  EXPECT_EQ(s.eagerLaunches, 0);
  EXPECT_EQ(s.kernelsRun, 9);
  EXPECT_EQ(s.copiesRun, 3);
}

// The fake's device memory is host memory, so host vectors serve as the
// caller's device buffers.
TEST_F(FakeDriverTest, NewBuffersUpdateTheGraph) {
  openAndCreate();
  Buffers a(1), b(2);
  ASSERT_EQ(run(a), BRRR_OK) << lastError();
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  ASSERT_EQ(run(a), BRRR_OK) << lastError();
  a.expectCorrect();
  b.expectCorrect();
  FakeCudaStats s = fakeStats();
  EXPECT_EQ(s.captures, 3);
  EXPECT_EQ(s.instantiations, 1);
  EXPECT_EQ(s.updates, 2);
  EXPECT_EQ(s.graphLaunches, 4);
}

TEST_F(FakeDriverTest, FailedUpdateReinstantiates) {
  ScopedEnv fails("FAKE_CUDA_EXEC_UPDATE_FAILS", "1");
  openAndCreate();
  Buffers a(1), b(2);
  ASSERT_EQ(run(a), BRRR_OK) << lastError();
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  b.expectCorrect();
  FakeCudaStats s = fakeStats();
  EXPECT_EQ(s.instantiations, 2);
  EXPECT_EQ(s.updates, 0);
  EXPECT_EQ(s.liveExecs - baseline.liveExecs, 1);
}

TEST_F(FakeDriverTest, GraphsOffLaunchesEveryKernel) {
  openAndCreate();
  ASSERT_EQ(brrr_context_set_cuda_graphs(ctx, 0), BRRR_OK);
  Buffers b;
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  b.expectCorrect();
  FakeCudaStats s = fakeStats();
  EXPECT_EQ(s.captures, 0);
  EXPECT_EQ(s.eagerLaunches, 6);
}

TEST_F(FakeDriverTest, CapturingCallerStreamGetsTheKernels) {
  openAndCreate();
  // Play a framework that captures its own stream around brrr_run (the
  // runtime left its context current on this thread).
  void *lib = dlopen(BRRR_FAKE_CUDA_PATH, RTLD_NOW | RTLD_LOCAL);
  auto create =
      reinterpret_cast<decltype(&cuStreamCreate)>(dlsym(lib, "cuStreamCreate"));
  auto begin = reinterpret_cast<decltype(&cuStreamBeginCapture_v2)>(
      dlsym(lib, "cuStreamBeginCapture_v2"));
  auto end = reinterpret_cast<decltype(&cuStreamEndCapture)>(
      dlsym(lib, "cuStreamEndCapture"));
  auto destroyGraph =
      reinterpret_cast<decltype(&cuGraphDestroy)>(dlsym(lib, "cuGraphDestroy"));
  auto destroyStream = reinterpret_cast<decltype(&cuStreamDestroy_v2)>(
      dlsym(lib, "cuStreamDestroy_v2"));
  CUstream stream;
  ASSERT_EQ(create(&stream, 0), 0);
  ASSERT_EQ(begin(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL), 0);
  Buffers b;
  ASSERT_EQ(run(b, stream), BRRR_OK) << lastError();
  CUgraph graph = nullptr;
  ASSERT_EQ(end(stream, &graph), 0);
  FakeCudaStats s = fakeStats();
  EXPECT_EQ(s.captures, 1) << "only the caller's capture";
  EXPECT_EQ(s.kernelsRun, 0) << "recorded into the caller's graph, not run";
  destroyGraph(graph);
  destroyStream(stream);
}

TEST_F(FakeDriverTest, ProfileTimesEveryLaunch) {
  openAndCreate();
  Buffers b;
  double ms[3] = {-1, -1, -1};
  ASSERT_EQ(brrr_profile(ctx, b.inputs().data(), b.outputs().data(), ms),
            BRRR_OK)
      << lastError();
  b.expectCorrect();
  // The fake's clock advances 1 ms per kernel and 0.5 ms per copy.
  EXPECT_EQ(ms[0], 1.0);
  EXPECT_EQ(ms[1], 1.0);
  EXPECT_EQ(ms[2], 1.0);
  EXPECT_EQ(fakeStats().captures, 0);
  EXPECT_EQ(brrr_profile(ctx, b.inputs().data(), b.outputs().data(), nullptr),
            BRRR_ERROR_INVALID_ARGUMENT);
}

// Programmatic launches go through cuLaunchKernelEx as programmatic
// dependents, in a graph and eagerly; brrr_profile times each launch alone,
// so it launches them plainly.
TEST_F(FakeDriverTest, ProgrammaticLaunchesAreDependents) {
  brrr::artifact::Artifact a = makeTestArtifact();
  a.launches[1].programmatic = brrr::artifact::Programmatic::always;
  a.launches[2].programmatic = brrr::artifact::Programmatic::always;
  openAndCreate(a);
  Buffers b;
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  b.expectCorrect();
  EXPECT_EQ(fakeStats().kernelsRun, 6);
  EXPECT_EQ(fakeStats().programmaticRun, 4) << "launches 1 and 2, twice";
  ASSERT_EQ(brrr_context_set_cuda_graphs(ctx, 0), BRRR_OK);
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  EXPECT_EQ(fakeStats().eagerLaunches, 3);
  EXPECT_EQ(fakeStats().programmaticRun, 6);
  double ms[3] = {-1, -1, -1};
  ASSERT_EQ(brrr_profile(ctx, b.inputs().data(), b.outputs().data(), ms),
            BRRR_OK)
      << lastError();
  b.expectCorrect();
  EXPECT_EQ(fakeStats().kernelsRun, 12);
  EXPECT_EQ(fakeStats().programmaticRun, 6) << "profiled launches are plain";
}

TEST_F(FakeDriverTest, NullBuffersAreRejected) {
  openAndCreate();
  Buffers b;
  EXPECT_EQ(brrr_run(ctx, nullptr, b.outputs().data(), nullptr),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "brrr_run: inputs is null but the model has 3 inputs");
  std::vector<void *> outputs = b.outputs();
  outputs[1] = nullptr;
  EXPECT_EQ(brrr_run_host(ctx, b.inputs().data(), outputs.data()),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "brrr_run_host: output 1 ('xw') is null");
}

TEST_F(FakeDriverTest, HostPointerGivenToBrrrRunIsRejected) {
  openAndCreate();
  Buffers b;
  {
    ScopedEnv strict("FAKE_CUDA_STRICT_POINTERS", "1");
    EXPECT_EQ(run(b), BRRR_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(lastError(), "brrr_run: input 0 ('x') at 0x"))
        << lastError();
    EXPECT_TRUE(contains(lastError(),
                         "is not memory CUDA knows; brrr_run takes device "
                         "pointers (brrr_run_host takes host buffers)"))
        << lastError();
    EXPECT_EQ(fakeStats().kernelsRun, baseline.kernelsRun);
    // brrr_run_host copies the same buffers to memory of its own.
    ASSERT_EQ(runHost(b), BRRR_OK) << lastError();
  }
  b.expectCorrect();
}

TEST_F(FakeDriverTest, MisalignedBufferGivenToBrrrRunIsRejected) {
  openAndCreate();
  Buffers b;
  std::vector<float> shifted(b.y.size() + 1);
  std::vector<const void *> inputs = b.inputs();
  inputs[1] = shifted.data() + 1; // 4 bytes past a 16-byte boundary
  EXPECT_EQ(brrr_run(ctx, inputs.data(), b.outputs().data(), nullptr),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(lastError(), "brrr_run: input 1 ('y') at 0x"))
      << lastError();
  EXPECT_TRUE(contains(lastError(), "is not 16-byte aligned; brrr's kernels "
                                    "access buffers in 16-byte vectors"))
      << lastError();
  EXPECT_EQ(fakeStats().kernelsRun, baseline.kernelsRun);
  // The aligned buffers run.
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  b.expectCorrect();
}

TEST_F(FakeDriverTest, UnchangedBuffersAreCheckedOnce) {
  openAndCreate();
  Buffers b;
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(run(b), BRRR_OK) << lastError();
  // Three inputs and three outputs, asked about on the first run only.
  EXPECT_EQ(fakeStats().pointerQueries - baseline.pointerQueries, 6);
  Buffers other(2.0f);
  ASSERT_EQ(run(other), BRRR_OK) << lastError();
  EXPECT_EQ(fakeStats().pointerQueries - baseline.pointerQueries, 12);
  other.expectCorrect();
}

TEST_F(FakeDriverTest, CubinChosenOnlyForTheExactCard) {
  brrr::artifact::Artifact a = makeTestArtifact();
  a.cubin = {0x7f, 'E', 'L', 'F', 'o', 'k'};
  {
    ScopedEnv card("FAKE_CUDA_CC", "8.0");
    ASSERT_EQ(open(a), BRRR_OK) << lastError();
    EXPECT_EQ(fakeStats().lastModuleKind, 1);
    brrr_model_close(model);
    model = nullptr;
  }
  ScopedEnv card("FAKE_CUDA_CC", "8.6");
  ASSERT_EQ(open(a), BRRR_OK) << lastError();
  EXPECT_EQ(fakeStats().lastModuleKind, 2);
}

TEST_F(FakeDriverTest, RejectedCubinFallsBackToPtx) {
  brrr::artifact::Artifact a = makeTestArtifact();
  a.cubin = {0x7f, 'E', 'L', 'F', 'b', 'a', 'd'};
  ScopedEnv card("FAKE_CUDA_CC", "8.0");
  ASSERT_EQ(open(a), BRRR_OK) << lastError();
  EXPECT_EQ(fakeStats().lastModuleKind, 2);
}

TEST_F(FakeDriverTest, OlderCardIsUnsupported) {
  ScopedEnv card("FAKE_CUDA_CC", "7.5");
  EXPECT_EQ(open(makeTestArtifact()), BRRR_ERROR_UNSUPPORTED_DEVICE);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(lastError(),
            "the model was compiled for 'sm_80' (compute capability 8.0), "
            "which needs that compute capability or newer; device 0 (Fake "
            "GPU) has compute capability 7.5");
}

TEST_F(FakeDriverTest, ArchSpecificTargetNeedsExactlyItsCard) {
  brrr::artifact::Artifact a = makeTestArtifact();
  a.target = "sm_90a";
  a.smMajor = 9;
  a.exactArch = true;
  a.cubin = {0x7f, 'E', 'L', 'F', 'o', 'k'};
  {
    ScopedEnv card("FAKE_CUDA_CC", "10.0");
    EXPECT_EQ(open(a), BRRR_ERROR_UNSUPPORTED_DEVICE);
    EXPECT_TRUE(contains(lastError(), "'sm_90a' (compute capability 9.0), an "
                                      "architecture-specific target"))
        << lastError();
    EXPECT_TRUE(contains(lastError(), "has compute capability 10.0"));
  }
  ASSERT_EQ(open(a), BRRR_OK) << lastError();
  EXPECT_EQ(fakeStats().lastModuleKind, 1);
}

TEST_F(FakeDriverTest, ArchSpecificTargetWithoutCubinJitsItsPtx) {
  // brrrc --no-cubin: the driver compiles the sm_90a PTX on exactly that
  // card, and still refuses any other.
  brrr::artifact::Artifact a = makeTestArtifact();
  a.target = "sm_90a";
  a.smMajor = 9;
  a.exactArch = true;
  a.cubin.clear();
  {
    ScopedEnv card("FAKE_CUDA_CC", "10.0");
    EXPECT_EQ(open(a), BRRR_ERROR_UNSUPPORTED_DEVICE);
  }
  ASSERT_EQ(open(a), BRRR_OK) << lastError();
  EXPECT_EQ(fakeStats().lastModuleKind, 2);
}

TEST_F(FakeDriverTest, JitErrorLogIsInTheMessage) {
  brrr::artifact::Artifact a = makeTestArtifact();
  a.ptx += "\n// FAKE_SYNTAX_ERROR\n";
  EXPECT_EQ(open(a), BRRR_ERROR_CUDA);
  EXPECT_EQ(lastError(), "loading the model's PTX for 'sm_80' on device 0 "
                         "(JIT log: ptxas fatal: fake syntax error in line "
                         "1): CUDA_ERROR_INVALID_PTX: a PTX JIT compilation "
                         "failed");
}

TEST_F(FakeDriverTest, MissingDevice) {
  EXPECT_EQ(open(makeTestArtifact(), 1), BRRR_ERROR_NO_DEVICE);
  EXPECT_EQ(lastError(), "device 1 requested but 1 CUDA device is visible");
  ScopedEnv none("FAKE_CUDA_DEVICE_COUNT", "0");
  EXPECT_EQ(open(makeTestArtifact(), 0), BRRR_ERROR_NO_DEVICE);
  EXPECT_EQ(lastError(), "device 0 requested but 0 CUDA devices are visible");
}

TEST_F(FakeDriverTest, InitFailureWithoutDevice) {
  // Another spelling of the path: the runtime keeps one driver per path,
  // and this one has not been initialized yet.
  std::string path = BRRR_FAKE_CUDA_PATH;
  path.insert(path.rfind('/'), "/.");
  ScopedEnv library2("BRRR_CUDA_LIBRARY", path.c_str());
  ScopedEnv init("FAKE_CUDA_INIT_ERROR", "100");
  EXPECT_EQ(open(makeTestArtifact()), BRRR_ERROR_NO_DEVICE);
  EXPECT_TRUE(contains(lastError(), "no CUDA device: cuInit failed with "
                                    "CUDA_ERROR_NO_DEVICE"))
      << lastError();
}

TEST_F(FakeDriverTest, DriverWithoutGraphEntryPoints) {
  ScopedEnv old("BRRR_CUDA_LIBRARY", BRRR_FAKE_CUDA_OLD_PATH);
  EXPECT_EQ(open(makeTestArtifact()), BRRR_ERROR_NO_DRIVER);
  EXPECT_TRUE(contains(lastError(), "lacks entry points brrr needs "
                                    "(cuStreamBeginCapture_v2, "
                                    "cuGraphInstantiateWithFlags)"))
      << lastError();
}

TEST_F(FakeDriverTest, ArenaOutOfMemory) {
  ScopedEnv memory("FAKE_CUDA_MEMORY",
                   "1000"); // the weights fit, the arena not
  ASSERT_EQ(open(makeTestArtifact()), BRRR_OK) << lastError();
  EXPECT_EQ(brrr_context_create(model, &ctx), BRRR_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(ctx, nullptr);
  EXPECT_EQ(lastError(), "allocating 1.0 KiB for the model's intermediate "
                         "arena on device 0 (480 bytes free of 1000 bytes): "
                         "CUDA_ERROR_OUT_OF_MEMORY: out of memory");
}

TEST_F(FakeDriverTest, WeightsOutOfMemory) {
  ScopedEnv memory("FAKE_CUDA_MEMORY", "100");
  EXPECT_EQ(open(makeTestArtifact()), BRRR_ERROR_OUT_OF_MEMORY);
  EXPECT_TRUE(contains(lastError(), "allocating 520 bytes for the model's "
                                    "weights on device 0"))
      << lastError();
}

TEST_F(FakeDriverTest, LargeSharedMemoryOptsInAtLoad) {
  brrr::artifact::Artifact a = makeTestArtifact();
  a.launches[1].sharedBytes = 100 * 1024; // over the default 48 KiB
  ASSERT_EQ(open(a), BRRR_OK) << lastError();
  EXPECT_EQ(fakeStats().sharedOptIns - baseline.sharedOptIns, 1);
  ASSERT_EQ(brrr_context_create(model, &ctx), BRRR_OK) << lastError();
  Buffers b;
  EXPECT_EQ(runHost(b), BRRR_OK) << lastError();
  b.expectCorrect();
}

TEST_F(FakeDriverTest, SharedMemoryBeyondTheDeviceIsALoadError) {
  ScopedEnv optin("FAKE_CUDA_MAX_SHARED_OPTIN", "65536");
  brrr::artifact::Artifact a = makeTestArtifact();
  a.launches[2].sharedBytes = 100 * 1024;
  EXPECT_NE(open(a), BRRR_OK);
  EXPECT_EQ(model, nullptr);
  EXPECT_TRUE(contains(lastError(), "kernel 'brrr_test_relu' needs 102400 "
                                    "bytes of shared memory per block, more "
                                    "than device 0 grants"))
      << lastError();
}

TEST_F(FakeDriverTest, ContextOutlivesItsClosedModel) {
  openAndCreate();
  brrr_model_close(model);
  model = nullptr;
  Buffers b;
  ASSERT_EQ(runHost(b), BRRR_OK) << lastError();
  b.expectCorrect();
  EXPECT_EQ(fakeStats().liveModules - baseline.liveModules, 1);
  // TearDown checks that destroying the context released the model too.
}

TEST_F(FakeDriverTest, ContextsAreIndependent) {
  openAndCreate();
  brrr_context *second = nullptr;
  ASSERT_EQ(brrr_context_create(model, &second), BRRR_OK) << lastError();
  Buffers a(1), b(3);
  ASSERT_EQ(runHost(a), BRRR_OK);
  ASSERT_EQ(brrr_run_host(second, b.inputs().data(), b.outputs().data()),
            BRRR_OK);
  a.expectCorrect();
  b.expectCorrect();
  brrr_context_destroy(second);
}

} // namespace

// Index checks: the gather model's kernel records the first index outside
// [-4, 4) into the context's error record, and the runtime reports it on
// every API path, then clears it.
class IndexCheckTest : public FakeDriverTest {
protected:
  void SetUp() override {
    FakeDriverTest::SetUp();
    openAndCreate(makeGatherArtifact());
  }
  /// Runs ids through `fn` (0: brrr_run_host, 1: brrr_run, 2: brrr_profile)
  /// into rows.
  brrr_status gather(std::vector<int64_t> ids, int fn = 0) {
    ids.resize(kGatherIds, 0);
    input = ids;
    rows.assign(kGatherIds, -1.0f);
    const void *in[] = {input.data()};
    void *out[] = {rows.data()};
    double ms[1];
    if (fn == 1)
      return brrr_run(ctx, in, out, nullptr);
    if (fn == 2)
      return brrr_profile(ctx, in, out, ms);
    return brrr_run_host(ctx, in, out);
  }
  std::vector<int64_t> input;
  std::vector<float> rows;
};

TEST_F(IndexCheckTest, ValidIdsIncludingNegativeOnesRun) {
  ASSERT_EQ(gather({0, 1, 2, 3, -1, -4}), BRRR_OK) << lastError();
  std::vector<float> want = {gatherRow(0), gatherRow(1), gatherRow(2),
                             gatherRow(3), gatherRow(3), gatherRow(0)};
  EXPECT_EQ(rows, want);
  EXPECT_EQ(brrr_context_check(ctx), BRRR_OK);
}

TEST_F(IndexCheckTest, RunHostReportsTheNodeValueAndExtent) {
  ASSERT_EQ(gather({1, 5000, 2}), BRRR_ERROR_INVALID_INPUT);
  std::string e = lastError();
  EXPECT_TRUE(contains(e, "brrr_run_host: node "
                          "'/embeddings/word_embeddings/Gather': Gather "
                          "index 5000 is out of range for dimension 0 of "
                          "extent 4 (valid indices are -4 to 3)"))
      << e;
  // Reads stay in range (clamped), and the context stays usable.
  EXPECT_EQ(rows[1], gatherRow(3));
  ASSERT_EQ(gather({3, 2}), BRRR_OK) << lastError();
  EXPECT_EQ(rows[0], gatherRow(3));
  EXPECT_EQ(brrr_context_check(ctx), BRRR_OK);
}

TEST_F(IndexCheckTest, HugeAndTooNegativeIdsAreReported) {
  ASSERT_EQ(gather({int64_t(1) << 40}), BRRR_ERROR_INVALID_INPUT);
  EXPECT_TRUE(contains(lastError(), "index 1099511627776 is out of range"))
      << lastError();
  ASSERT_EQ(gather({-5}), BRRR_ERROR_INVALID_INPUT);
  EXPECT_TRUE(contains(lastError(), "index -5 is out of range")) << lastError();
  // The first bad index wins the record; the later ones leave it alone.
  ASSERT_EQ(gather({7, 8, 9}), BRRR_ERROR_INVALID_INPUT);
  EXPECT_TRUE(contains(lastError(), "index 7 is")) << lastError();
}

TEST_F(IndexCheckTest, AsyncRunIsReportedByContextCheck) {
  ASSERT_EQ(gather({4}, /*brrr_run*/ 1), BRRR_OK) << lastError();
  ASSERT_EQ(brrr_context_check(ctx), BRRR_ERROR_INVALID_INPUT);
  EXPECT_TRUE(contains(lastError(), "brrr_context_check: node "
                                    "'/embeddings/word_embeddings/Gather'"))
      << lastError();
  EXPECT_EQ(brrr_context_check(ctx), BRRR_OK) << "reported once";
  ASSERT_EQ(gather({1}, 1), BRRR_OK) << lastError();
  EXPECT_EQ(brrr_context_check(ctx), BRRR_OK);
}

TEST_F(IndexCheckTest, UnreportedErrorFailsTheNextCallWhichQueuesNothing) {
  ASSERT_EQ(gather({4}, 1), BRRR_OK) << lastError();
  int64_t kernels = fakeStats().kernelsRun;
  ASSERT_EQ(gather({1}, 1), BRRR_ERROR_INVALID_INPUT);
  EXPECT_TRUE(contains(lastError(), "brrr_run: a run queued earlier on this "
                                    "context read an out-of-range index"))
      << lastError();
  EXPECT_TRUE(contains(lastError(), "index 4 is out of range")) << lastError();
  EXPECT_EQ(fakeStats().kernelsRun, kernels) << "nothing was queued";
  EXPECT_EQ(rows[0], -1.0f);
  // Reported and cleared: the retry runs.
  ASSERT_EQ(gather({1}, 1), BRRR_OK) << lastError();
  EXPECT_EQ(rows[0], gatherRow(1));
  // brrr_run_host reports an earlier run's error the same way.
  ASSERT_EQ(gather({-9}, 1), BRRR_OK) << lastError();
  ASSERT_EQ(gather({1}, 0), BRRR_ERROR_INVALID_INPUT);
  EXPECT_TRUE(contains(lastError(), "brrr_run_host: a run queued earlier"))
      << lastError();
}

TEST_F(IndexCheckTest, ProfileAndUngraphedRunsReport) {
  ASSERT_EQ(gather({6}, 2), BRRR_ERROR_INVALID_INPUT);
  EXPECT_TRUE(contains(lastError(), "brrr_profile: node")) << lastError();
  ASSERT_EQ(brrr_context_set_cuda_graphs(ctx, 0), BRRR_OK);
  ASSERT_EQ(gather({0, 0, -7}), BRRR_ERROR_INVALID_INPUT);
  EXPECT_TRUE(contains(lastError(), "index -7")) << lastError();
  ASSERT_EQ(gather({0}), BRRR_OK) << lastError();
}

TEST_F(IndexCheckTest, EveryContextHasItsOwnRecord) {
  brrr_context *other = nullptr;
  ASSERT_EQ(brrr_context_create(model, &other), BRRR_OK) << lastError();
  ASSERT_EQ(gather({4}, 1), BRRR_OK) << lastError();
  EXPECT_EQ(brrr_context_check(other), BRRR_OK);
  EXPECT_EQ(brrr_context_check(ctx), BRRR_ERROR_INVALID_INPUT);
  brrr_context_destroy(other);
}

TEST_F(IndexCheckTest, RecordWithAnUnknownCheckIsStillReported) {
  // A record naming no check of the table (a kernel and artifact that
  // disagree) is reported without reading past the table.
  ASSERT_EQ(gather({4}, 1), BRRR_OK) << lastError();
  ASSERT_NE(ctx->record, nullptr);
  ctx->record->check = 99;
  ASSERT_EQ(brrr_context_check(ctx), BRRR_ERROR_INVALID_INPUT);
  EXPECT_TRUE(contains(lastError(), "index check 99 (not in the model's "
                                    "table of 1): index 4 is out of range"))
      << lastError();
}

// Weights larger than a staging buffer go up through two pinned buffers in
// turn, and arrive whole.
TEST_F(FakeDriverTest, LargeWeightsUploadThroughPinnedStaging) {
  brrr::artifact::Artifact a = makeTestArtifact();
  size_t used = a.weights.size();
  a.weights.resize((150 << 20) + 12345);
  for (size_t i = used; i < a.weights.size(); ++i)
    a.weights[i] = uint8_t(i * 2654435761u >> 24);
  openAndCreate(a);
  EXPECT_EQ(fakeStats().pinnedAllocations - baseline.pinnedAllocations, 1);
  ASSERT_NE(model->weights, 0u);
  EXPECT_EQ(
      std::memcmp(reinterpret_cast<const void *>(uintptr_t(model->weights)),
                  a.weights.data(), a.weights.size()),
      0);
  EXPECT_EQ(brrr_model_weight_bytes(model), a.weights.size());
  Buffers b;
  ASSERT_EQ(runHost(b), BRRR_OK) << lastError();
  b.expectCorrect();
}

// Weights appended to a model.so are read from its file with pread, not
// out of the mapping: here the mapping differs from the file in one byte
// that the weights id does not sample, and the device gets the file's
// byte. A file that cannot be read falls back to the mapping.
TEST_F(FakeDriverTest, AppendedWeightsUploadReadTheirFile) {
  using namespace brrr::artifact;
  Artifact a = makeTestArtifact();
  size_t used = a.weights.size();
  a.weights.resize((150 << 20) + 777);
  for (size_t i = used; i < a.weights.size(); ++i)
    a.weights[i] = uint8_t(i * 2654435761u >> 24);
  uint64_t id = weightsId(a.weights.data(), a.weights.size());
  std::vector<uint8_t> head = serializeHead(a, a.weights.size(), id);
  // A byte the id does not sample, beyond the first staging slice.
  std::vector<uint8_t> mapped = a.weights;
  size_t at = (100 << 20) + 3;
  for (;; ++at) {
    mapped[at] ^= 0x5a;
    if (weightsId(mapped.data(), mapped.size()) == id)
      break;
    mapped[at] ^= 0x5a;
  }
  char path[] = "/tmp/brrr-weights-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  unlink(path);
  std::vector<uint8_t> prefix(4096, 0xee);
  ASSERT_EQ(write(fd, prefix.data(), prefix.size()), ssize_t(prefix.size()));
  ASSERT_EQ(write(fd, a.weights.data(), a.weights.size()),
            ssize_t(a.weights.size()));

  auto upload = [&](int file) -> uint8_t {
    ApartWeights apart{mapped.data(), mapped.size(), file, prefix.size()};
    brrr_model *m = nullptr;
    EXPECT_EQ(brrr::runtime::openModel(head.data(), head.size(), 0, &m, &apart),
              BRRR_OK)
        << lastError();
    if (!m)
      return 0;
    const auto *device =
        reinterpret_cast<const uint8_t *>(uintptr_t(m->weights));
    EXPECT_EQ(std::memcmp(device, mapped.data(), at), 0);
    EXPECT_EQ(std::memcmp(device + at + 1, mapped.data() + at + 1,
                          mapped.size() - at - 1),
              0);
    uint8_t byte = device[at];
    brrr_model_close(m);
    return byte;
  };
  EXPECT_EQ(upload(fd), a.weights[at]) << "read from the file";
  close(fd);
  EXPECT_EQ(upload(fd), mapped[at]) << "a closed file: read from the mapping";
}
