//===- FakeCudaState.h - what the fake driver's files share -----*- C++ -*-===//
//
// The fake driver's lock, its initialization and its counters, shared by
// FakeCuda.cpp and FakeCudaTensorMaps.cpp, and FAKE_GUARD, with which every
// entry point begins: it holds the lock and fails before cuInit.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TEST_RUNTIME_FAKECUDASTATE_H
#define BRRR_TEST_RUNTIME_FAKECUDASTATE_H

#include "FakeCuda.h"

#include <cuda.h>
#include <mutex>

namespace fake_cuda {
extern std::recursive_mutex mu;
extern bool initialized;
extern FakeCudaStats stats;
/// The integer value of environment variable `name`, or `fallback`.
long env(const char *name, long fallback);
} // namespace fake_cuda

#define FAKE_GUARD()                                                           \
  std::lock_guard<std::recursive_mutex> lock(fake_cuda::mu);                   \
  if (!fake_cuda::initialized)                                                 \
    return CUDA_ERROR_NOT_INITIALIZED;

#endif // BRRR_TEST_RUNTIME_FAKECUDASTATE_H
