//===- FakeCuda.h - what the fake CUDA driver reports to tests --*- C++ -*-===//
//
// libbrrr-fake-cuda.so stands in for libcuda.so.1 on machines without a GPU
// (CI): device memory is host memory, kernels are C++ functions looked up by
// name, streams run their work synchronously and graphs record and replay
// it. Tests point BRRR_CUDA_LIBRARY at it and read these counters through
// dlsym to check what the runtime asked of the driver. Its behaviour is set
// through environment variables, read on every call:
//
//   FAKE_CUDA_DEVICE_COUNT      visible devices (default 1)
//   FAKE_CUDA_CC                compute capability "major.minor" (9.0)
//   FAKE_CUDA_MEMORY            device memory in bytes (1 GiB)
//   FAKE_CUDA_INIT_ERROR        a CUresult for cuInit to return (0)
//   FAKE_CUDA_EXEC_UPDATE_FAILS nonzero: cuGraphExecUpdate_v2 always fails
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TEST_RUNTIME_FAKECUDA_H
#define BRRR_TEST_RUNTIME_FAKECUDA_H

#include <cstdint>

extern "C" {

struct FakeCudaStats {
  int64_t kernelsRun;     ///< kernels executed (eagerly or in a graph)
  int64_t copiesRun;      ///< device-to-device copies executed
  int64_t eagerLaunches;  ///< cuLaunchKernel calls outside a capture
  int64_t captures;       ///< cuStreamBeginCapture calls
  int64_t instantiations; ///< cuGraphInstantiate calls
  int64_t updates;        ///< successful cuGraphExecUpdate calls
  int64_t graphLaunches;  ///< cuGraphLaunch calls
  int64_t moduleLoads;    ///< successful cuModuleLoadDataEx calls
  int32_t lastModuleKind; ///< 1: cubin, 2: PTX
  int64_t liveAllocations;
  int64_t liveBytes;
  int64_t liveModules, liveStreams, liveGraphs, liveExecs, liveEvents;
  int64_t primaryRetains; ///< retained minus released primary contexts
  int64_t sharedOptIns;   ///< cuFuncSetAttribute(MAX_DYNAMIC_SHARED) calls
};

typedef void (*FakeCudaStatsFn)(FakeCudaStats *);
typedef void (*FakeCudaResetFn)(void);

/// Fills `out` with the counters.
void fake_cuda_stats(FakeCudaStats *out);
/// Zeroes the event counters (not the live-object counts).
void fake_cuda_reset(void);
}

#endif // BRRR_TEST_RUNTIME_FAKECUDA_H
