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
//   FAKE_CUDA_MULTIPROCESSORS   multiprocessors (132)
//   FAKE_CUDA_INIT_ERROR        a CUresult for cuInit to return (0)
//   FAKE_CUDA_EXEC_UPDATE_FAILS nonzero: cuGraphExecUpdate_v2 always fails
//   FAKE_CUDA_TENSOR_MAP_ERROR  a CUresult for cuTensorMapEncodeTiled and
//                               cuTensorMapEncodeIm2col (0)
//
// Tensor maps are opaque to the real driver's callers; the fake's
// cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col write a FakeTensorMap
// into the 128 bytes, so that the fake kernels can copy through it and tests
// can read what was encoded.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TEST_RUNTIME_FAKECUDA_H
#define BRRR_TEST_RUNTIME_FAKECUDA_H

#include <cstdint>

extern "C" {

/// The fake's encoding of a CUtensorMap: the encoding call's arguments,
/// packed to fit (the driver's limits bound every narrowed field).
struct FakeTensorMap {
  uint64_t address;
  uint64_t dims[5];
  uint64_t strides[4];
  uint32_t box[5];                            ///< tiled only
  uint16_t channelsPerPixel, pixelsPerColumn; ///< im2col only
  int16_t lowerCorner[3], upperCorner[3];     ///< im2col only
  uint8_t elementStrides[5];
  uint8_t dataType, rank, interleave, swizzle, l2Promotion, oobFill;
  uint8_t mode; ///< 0: cuTensorMapEncodeTiled, 1: cuTensorMapEncodeIm2col
};
static_assert(sizeof(FakeTensorMap) <= 128, "must fit a CUtensorMap");

struct FakeCudaStats {
  int64_t kernelsRun;     ///< kernels executed (eagerly or in a graph)
  int64_t programmaticRun; ///< of those, launched by cuLaunchKernelEx as
                           ///< programmatic dependents
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
  int64_t primaryRetains;   ///< retained minus released primary contexts
  int64_t sharedOptIns;     ///< cuFuncSetAttribute(MAX_DYNAMIC_SHARED) calls
  int64_t tensorMapEncodes; ///< cuTensorMapEncode{Tiled,Im2col} calls
  int64_t pointerQueries;   ///< cuPointerGetAttribute calls
  int64_t pinnedAllocations; ///< cuMemHostAlloc calls that succeeded
  /// The tensor maps of the last cuLaunchKernel that passed any, as the
  /// kernel got them.
  int32_t lastLaunchMapCount;
  FakeTensorMap lastLaunchMaps[2];
  int64_t launches;     ///< cuLaunchKernel{,Ex} calls, captured or not
  uint32_t lastGrid[3]; ///< the grid of the last of them
  int64_t zeroedBytes;  ///< bytes cuMemsetD8 set to zero
};

typedef void (*FakeCudaStatsFn)(FakeCudaStats *);
typedef void (*FakeCudaResetFn)(void);

/// Fills `out` with the counters.
void fake_cuda_stats(FakeCudaStats *out);
/// Zeroes the event counters (not the live-object counts).
void fake_cuda_reset(void);
}

#endif // BRRR_TEST_RUNTIME_FAKECUDA_H
