//===- CudaDriver.h - the CUDA driver, opened at run time -------*- C++ -*-===//
//
// model.so must load on a machine without a GPU (to report that, or to be
// inspected), so it never links libcuda: the runtime dlopens the driver when
// a model is opened on a device and resolves the entry points it uses into
// this table. cuda.h is used for types and prototypes only; the function
// pointer types come from its declarations, so a signature mistake is a
// compile error rather than a crash.
//
// BRRR_CUDA_LIBRARY overrides the library path (tests point it at a fake
// driver or at a missing file).
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_RUNTIME_CUDADRIVER_H
#define BRRR_RUNTIME_CUDADRIVER_H

#include "runtime/brrr_runtime.h"

#include <cuda.h>
#include <string>

namespace brrr::runtime {

/// Entry points every model needs: X(symbol, alternative symbol or nullptr).
/// Members are named after the versioned symbol they hold, so the code reads
/// like the driver documentation of that version.
#define BRRR_CUDA_REQUIRED(X)                                                  \
  X(cuGetErrorString, nullptr)                                                 \
  X(cuGetErrorName, nullptr)                                                   \
  X(cuInit, nullptr)                                                           \
  X(cuDriverGetVersion, nullptr)                                               \
  X(cuDeviceGet, nullptr)                                                      \
  X(cuDeviceGetCount, nullptr)                                                 \
  X(cuDeviceGetAttribute, nullptr)                                             \
  X(cuDeviceGetName, nullptr)                                                  \
  X(cuDevicePrimaryCtxRetain, nullptr)                                         \
  X(cuDevicePrimaryCtxRelease_v2, nullptr)                                     \
  X(cuCtxSetCurrent, nullptr)                                                  \
  X(cuCtxGetCurrent, nullptr)                                                  \
  X(cuModuleLoadDataEx, nullptr)                                               \
  X(cuModuleGetFunction, nullptr)                                              \
  X(cuFuncSetAttribute, nullptr)                                               \
  X(cuModuleUnload, nullptr)                                                   \
  X(cuMemAlloc_v2, nullptr)                                                    \
  X(cuMemFree_v2, nullptr)                                                     \
  X(cuMemsetD8_v2, nullptr)                                                    \
  X(cuMemGetInfo_v2, nullptr)                                                  \
  X(cuMemHostAlloc, nullptr)                                                   \
  X(cuMemHostGetDevicePointer_v2, nullptr)                                     \
  X(cuMemFreeHost, nullptr)                                                    \
  X(cuMemcpyHtoDAsync_v2, nullptr)                                             \
  X(cuMemcpyDtoHAsync_v2, nullptr)                                             \
  X(cuMemcpyDtoDAsync_v2, nullptr)                                             \
  X(cuLaunchKernel, nullptr)                                                   \
  X(cuStreamCreate, nullptr)                                                   \
  X(cuStreamDestroy_v2, nullptr)                                               \
  X(cuStreamSynchronize, nullptr)                                              \
  X(cuStreamIsCapturing, nullptr)                                              \
  X(cuStreamBeginCapture_v2, nullptr)                                          \
  X(cuStreamEndCapture, nullptr)                                               \
  X(cuGraphInstantiateWithFlags, nullptr)                                      \
  X(cuGraphLaunch, nullptr)                                                    \
  X(cuGraphDestroy, nullptr)                                                   \
  X(cuGraphExecDestroy, nullptr)                                               \
  X(cuEventCreate, nullptr)                                                    \
  X(cuEventRecord, nullptr)                                                    \
  X(cuEventSynchronize, nullptr)                                               \
  X(cuEventElapsedTime_v2, "cuEventElapsedTime")                               \
  X(cuEventDestroy_v2, nullptr)

/// Entry points the runtime can do without: a null member means absent.
/// Without cuGraphExecUpdate_v2 (drivers before 12.0) a changed buffer
/// address re-instantiates the graph instead of updating it.
/// cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col (12.0) are needed
/// only by models whose kernels read through TMA tensor maps of that mode;
/// opening such a model checks for them.
/// cuPointerGetAttribute lets brrr_run refuse host pointers.
/// cuLaunchKernelEx (11.8) launches programmatic kernels as dependents of the
/// kernel before them; without it they launch like the others.
#define BRRR_CUDA_OPTIONAL(X)                                                  \
  X(cuGraphExecUpdate_v2, nullptr)                                             \
  X(cuLaunchKernelEx, nullptr)                                                 \
  X(cuTensorMapEncodeTiled, nullptr)                                           \
  X(cuTensorMapEncodeIm2col, nullptr)                                          \
  X(cuPointerGetAttribute, nullptr)

struct CudaDriver {
  std::string path; ///< what dlopen was given
  int version = 0;  ///< cuDriverGetVersion, e.g. 13000

#define BRRR_CUDA_MEMBER(sym, alt) decltype(&::sym) sym = nullptr;
  BRRR_CUDA_REQUIRED(BRRR_CUDA_MEMBER)
  BRRR_CUDA_OPTIONAL(BRRR_CUDA_MEMBER)
#undef BRRR_CUDA_MEMBER

  /// "CUDA_ERROR_OUT_OF_MEMORY: out of memory".
  std::string errorText(CUresult r) const;
};

/// Opens and initializes the driver (once per library path per process;
/// later calls return the same table). On failure returns
/// BRRR_ERROR_NO_DRIVER (library or entry points missing, driver too old),
/// BRRR_ERROR_NO_DEVICE (cuInit found no GPU) or BRRR_ERROR_CUDA, with a
/// message in `error`.
brrr_status loadCudaDriver(const CudaDriver *&out, std::string &error);

/// The status a failed driver call maps to: out of memory, missing device,
/// driver too old for the PTX, or BRRR_ERROR_CUDA.
brrr_status statusOf(CUresult r);

} // namespace brrr::runtime

#endif // BRRR_RUNTIME_CUDADRIVER_H
