//===- FakeCuda.cpp - a CPU stand-in for libcuda.so.1 ---------------------===//
//
// Lets the runtime's device paths (module choice, weight upload, plan
// execution, graph capture and replay, host staging, profiling, error
// handling) run in CI, where there is no GPU. It behaves like the driver in
// what the runtime depends on and is stricter where that catches runtime
// bugs: calls before cuInit or without a current context fail, freshly
// allocated memory is filled with 0xff (NaN as f32) so reading an
// unwritten buffer shows, and every object is counted so tests can check
// that closing a model releases everything. See FakeCuda.h for the knobs.
//
// Built three times: FAKE_CUDA_WITHOUT_GRAPHS drops the graph entry points to
// act as a driver too old for the runtime, FAKE_CUDA_WITHOUT_TENSOR_MAPS drops
// cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col (FakeCudaTensorMaps.cpp)
// to act as a CUDA 11 driver, which runs models without TMA kernels.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaState.h"

#include "runtime/Artifact.h"

#include <cuda.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace fake_cuda;

std::recursive_mutex fake_cuda::mu;
bool fake_cuda::initialized = false;
FakeCudaStats fake_cuda::stats = {};

long fake_cuda::env(const char *name, long fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::strtol(v, nullptr, 0) : fallback;
}

namespace {

struct Op {
  const struct CUfunc_st *kernel = nullptr; // null: a copy
  unsigned threads = 0;
  std::vector<CUtensorMap> maps; // copied at launch, like the driver does
  std::vector<CUdeviceptr> args;
  std::vector<int64_t> scalars; // the i64 parameters after the pointers
  CUdeviceptr dst = 0, src = 0;
  size_t bytes = 0;
  bool programmatic = false; // launched as a programmatic dependent
};

} // namespace

struct CUctx_st {
  int device;
};
struct CUmod_st {
  int kind;
};
struct CUfunc_st {
  const char *name;
  int maps;  ///< tensor-map parameters, before the pointers
  int arity; ///< pointer parameters
  void (*body)(const Op &);
  int maxDynamicShared; ///< opted-in dynamic shared memory, 0: the default
  int scalars;          ///< i64 parameters, after the pointers
};
struct CUstream_st {
  bool capturing = false;
  std::vector<Op> ops;
};
struct CUgraph_st {
  std::vector<Op> ops;
};
struct CUgraphExec_st {
  std::vector<Op> ops;
};
struct CUevent_st {
  double ms = 0;
};

namespace {

float *f32(CUdeviceptr p) { return reinterpret_cast<float *>(uintptr_t(p)); }

FakeTensorMap decode(const CUtensorMap &map) {
  FakeTensorMap m;
  std::memcpy(&m, &map, sizeof(m));
  return m;
}

/// Element `i` (in row-major order of the map's dims) of an f32 map. An
/// im2col map is read as the tensor it covers, which is what the fake's
/// kernels need of it.
float load(const CUtensorMap &map, unsigned i) {
  FakeTensorMap m = decode(map);
  uint64_t at = m.address + i % m.dims[0] * 4;
  i /= unsigned(m.dims[0]);
  for (unsigned d = 1; d < m.rank; ++d) {
    at += i % m.dims[d] * m.strides[d - 1];
    i /= unsigned(m.dims[d]);
  }
  return *f32(at);
}

void addBody(const Op &op) {
  const std::vector<CUdeviceptr> &a = op.args;
  for (unsigned i = 0; i < op.threads; ++i)
    f32(a[2])[i] = f32(a[0])[i] + f32(a[1])[i];
}
void reluBody(const Op &op) {
  const std::vector<CUdeviceptr> &a = op.args;
  for (unsigned i = 0; i < op.threads; ++i)
    f32(a[1])[i] = std::max(f32(a[0])[i], 0.0f);
}
/// brrr_test_add with both operands read through tensor maps.
void tmaAddBody(const Op &op) {
  for (unsigned i = 0; i < op.threads; ++i)
    f32(op.args[0])[i] = load(op.maps[0], i) + load(op.maps[1], i);
}

/// out[i] = table[ids[i]] over an f32 table of 4 (args: table, ids (i64),
/// out, error record), checking each index as brrr's gather kernels do:
/// the first outside [-4, 4) is claimed into the record, reads are clamped.
void gatherBody(const Op &op) {
  const float *table = f32(op.args[0]);
  const auto *ids = reinterpret_cast<const int64_t *>(uintptr_t(op.args[1]));
  auto *record =
      reinterpret_cast<brrr::artifact::ErrorRecord *>(uintptr_t(op.args[3]));
  const int64_t extent = 4;
  for (unsigned i = 0; i < op.threads; ++i) {
    int64_t k = ids[i] < 0 ? ids[i] + extent : ids[i];
    if (k < 0 || k >= extent) {
      uint32_t clear = brrr::artifact::kRecordClear;
      if (__atomic_compare_exchange_n(&record->state, &clear,
                                      brrr::artifact::kRecordWriting, false,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        record->check = 0;
        record->axis = 0;
        record->value = ids[i];
        record->extent = extent;
        __atomic_store_n(&record->state, brrr::artifact::kRecordWritten,
                         __ATOMIC_RELEASE);
      }
      k = std::clamp<int64_t>(k, 0, extent - 1);
    }
    f32(op.args[2])[i] = table[k];
  }
}

/// brrr_test_add_n: the first n elements (its scalar), which the launch's
/// threads must cover; an element past them is left as it was.
void addNBody(const Op &op) {
  const std::vector<CUdeviceptr> &a = op.args;
  int64_t n = op.scalars[0];
  if (n > int64_t(op.threads))
    std::abort(); // a grid too small for its count: a runtime bug
  for (int64_t i = 0; i < n; ++i)
    f32(a[2])[i] = f32(a[0])[i] + f32(a[1])[i];
}

// The kernels of test/runtime/TestArtifact.cpp's PTX, and the kernels of
// its fake-only models.
CUfunc_st kernels[] = {{"brrr_test_add", 0, 3, addBody, 0, 0},
                       {"brrr_test_relu", 0, 2, reluBody, 0, 0},
                       {"brrr_test_tma_add", 2, 1, tmaAddBody, 0, 0},
                       {"brrr_test_gather", 0, 4, gatherBody, 0, 0},
                       {"brrr_test_add_n", 0, 3, addNBody, 0, 1}};

std::map<uintptr_t, size_t> allocations;
/// cuMemHostAlloc's, and whether each is mapped into the device.
std::map<uintptr_t, bool> hostAllocations;
CUctx_st primary[16];
double clockMs = 0;
thread_local CUcontext current = nullptr;

void computeCapability(int &major, int &minor) {
  const char *v = std::getenv("FAKE_CUDA_CC");
  major = 9;
  minor = 0;
  if (v && *v) {
    major = std::atoi(v);
    const char *dot = std::strchr(v, '.');
    minor = dot ? std::atoi(dot + 1) : 0;
  }
}

bool isSpecial(CUstream s) { return uintptr_t(s) <= 2; }

CUresult execute(const Op &op) {
  if (!op.kernel) {
    std::memmove(reinterpret_cast<void *>(uintptr_t(op.dst)),
                 reinterpret_cast<const void *>(uintptr_t(op.src)), op.bytes);
    ++stats.copiesRun;
    clockMs += 0.5;
    return CUDA_SUCCESS;
  }
  for (CUdeviceptr p : op.args)
    if (!p)
      return CUDA_ERROR_ILLEGAL_ADDRESS;
  for (const CUtensorMap &m : op.maps)
    if (!decode(m).address)
      return CUDA_ERROR_ILLEGAL_ADDRESS;
  op.kernel->body(op);
  ++stats.kernelsRun;
  if (op.programmatic)
    ++stats.programmaticRun;
  clockMs += 1.0;
  return CUDA_SUCCESS;
}

/// Runs `op` now, or records it when `s` is capturing.
CUresult enqueue(CUstream s, Op op) {
  if (!isSpecial(s) && s->capturing) {
    s->ops.push_back(std::move(op));
    return CUDA_SUCCESS;
  }
  if (op.kernel)
    ++stats.eagerLaunches;
  return execute(op);
}

#define FAKE_NEEDS_CONTEXT()                                                   \
  FAKE_GUARD();                                                                \
  if (!current)                                                                \
    return CUDA_ERROR_INVALID_CONTEXT;

} // namespace

namespace {

/// Message and name of the errors the fake driver produces.
struct ErrorText {
  CUresult code;
  const char *message, *name;
};
constexpr ErrorText kErrors[] = {
    {CUDA_ERROR_OUT_OF_MEMORY, "out of memory", "CUDA_ERROR_OUT_OF_MEMORY"},
    {CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected",
     "CUDA_ERROR_NO_DEVICE"},
    {CUDA_ERROR_INVALID_PTX, "a PTX JIT compilation failed",
     "CUDA_ERROR_INVALID_PTX"},
    {CUDA_ERROR_INVALID_VALUE, "invalid argument", "CUDA_ERROR_INVALID_VALUE"},
};

const ErrorText &errorText(CUresult error) {
  static const ErrorText other = {CUDA_SUCCESS, "fake driver error",
                                  "CUDA_ERROR_FAKE"};
  for (const ErrorText &e : kErrors)
    if (e.code == error)
      return e;
  return other;
}

} // namespace

extern "C" {

void fake_cuda_stats(FakeCudaStats *out) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  *out = stats;
}

void fake_cuda_reset(void) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  FakeCudaStats live = stats;
  stats = FakeCudaStats();
  stats.liveAllocations = live.liveAllocations;
  stats.liveBytes = live.liveBytes;
  stats.liveModules = live.liveModules;
  stats.liveStreams = live.liveStreams;
  stats.liveGraphs = live.liveGraphs;
  stats.liveExecs = live.liveExecs;
  stats.liveEvents = live.liveEvents;
  stats.primaryRetains = live.primaryRetains;
}

CUresult cuGetErrorString(CUresult error, const char **str) {
  *str = errorText(error).message;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char **str) {
  *str = errorText(error).name;
  return CUDA_SUCCESS;
}

CUresult cuInit(unsigned int) {
  std::lock_guard<std::recursive_mutex> lock(mu);
  if (long e = env("FAKE_CUDA_INIT_ERROR", 0))
    return CUresult(e);
  initialized = true;
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *version) {
#ifdef FAKE_CUDA_WITHOUT_TENSOR_MAPS
  *version = 11080;
#else
  *version = 13000;
#endif
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  FAKE_GUARD();
  *count = int(env("FAKE_CUDA_DEVICE_COUNT", 1));
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal) {
  FAKE_GUARD();
  if (ordinal < 0 || ordinal >= env("FAKE_CUDA_DEVICE_COUNT", 1) ||
      ordinal >= 16)
    return CUDA_ERROR_INVALID_DEVICE;
  *dev = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice) {
  FAKE_GUARD();
  int major, minor;
  computeCapability(major, minor);
  *value = attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR   ? major
           : attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ? minor
           : attr == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
               ? int(env("FAKE_CUDA_MULTIPROCESSORS", 132))
               : 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice) {
  FAKE_GUARD();
  std::strncpy(name, "Fake GPU", size_t(len));
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev) {
  FAKE_GUARD();
  primary[dev].device = dev;
  *ctx = &primary[dev];
  ++stats.primaryRetains;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) {
  FAKE_GUARD();
  --stats.primaryRetains;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx) {
  FAKE_GUARD();
  current = ctx;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *ctx) {
  FAKE_GUARD();
  *ctx = current;
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned int numOptions, CUjit_option *options,
                            void **values) {
  FAKE_NEEDS_CONTEXT();
  char *log = nullptr;
  size_t logSize = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      log = static_cast<char *>(values[i]);
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      logSize = size_t(uintptr_t(values[i]));
  }
  const char *text = static_cast<const char *>(image);
  bool cubin = std::memcmp(text,
                           "\x7f"
                           "ELF",
                           4) == 0;
  if (cubin && std::memcmp(text + 4, "bad", 3) == 0)
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  if (!cubin && std::strstr(text, "FAKE_SYNTAX_ERROR")) {
    if (log && logSize)
      std::strncpy(log, "ptxas fatal: fake syntax error in line 1", logSize);
    return CUDA_ERROR_INVALID_PTX;
  }
  *module = new CUmod_st{cubin ? 1 : 2};
  stats.lastModuleKind = cubin ? 1 : 2;
  ++stats.moduleLoads;
  ++stats.liveModules;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule, const char *name) {
  FAKE_NEEDS_CONTEXT();
  for (CUfunc_st &k : kernels)
    if (std::strcmp(k.name, name) == 0) {
      *f = &k;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}

CUresult cuModuleUnload(CUmodule module) {
  FAKE_NEEDS_CONTEXT();
  delete module;
  --stats.liveModules;
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  FAKE_NEEDS_CONTEXT();
  if (!bytes)
    return CUDA_ERROR_INVALID_VALUE;
  if (uint64_t(stats.liveBytes) + bytes >
      uint64_t(env("FAKE_CUDA_MEMORY", 1L << 30)))
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *p = std::malloc(bytes);
  if (!p)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::memset(p, 0xff, bytes);
  allocations[uintptr_t(p)] = bytes;
  ++stats.liveAllocations;
  stats.liveBytes += int64_t(bytes);
  *ptr = CUdeviceptr(uintptr_t(p));
  return CUDA_SUCCESS;
}

CUresult cuMemsetD8_v2(CUdeviceptr ptr, unsigned char value, size_t bytes) {
  FAKE_NEEDS_CONTEXT();
  // Within one allocation.
  for (auto [base, size] : allocations)
    if (uintptr_t(ptr) >= base && uintptr_t(ptr) + bytes <= base + size) {
      std::memset(reinterpret_cast<void *>(uintptr_t(ptr)), value, bytes);
      if (value == 0)
        stats.zeroedBytes += int64_t(bytes);
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemFree_v2(CUdeviceptr ptr) {
  FAKE_NEEDS_CONTEXT();
  auto it = allocations.find(uintptr_t(ptr));
  if (it == allocations.end())
    return CUDA_ERROR_INVALID_VALUE;
  stats.liveBytes -= int64_t(it->second);
  --stats.liveAllocations;
  allocations.erase(it);
  std::free(reinterpret_cast<void *>(uintptr_t(ptr)));
  return CUDA_SUCCESS;
}

/// Memory types: an address inside one of the fake's allocations is device
/// memory. Any other address (the tests' host buffers, which the fake's
/// kernels read as device memory) is "cannot tell", unless
/// FAKE_CUDA_STRICT_POINTERS is set: then it is unknown to CUDA, as a
/// pageable host pointer is to the real driver.
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
                               CUdeviceptr ptr) {
  FAKE_NEEDS_CONTEXT();
  ++stats.pointerQueries;
  if (attribute != CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
    return CUDA_ERROR_NOT_SUPPORTED;
  auto it = allocations.upper_bound(uintptr_t(ptr));
  if (it != allocations.begin() &&
      uintptr_t(ptr) < std::prev(it)->first + std::prev(it)->second) {
    *static_cast<unsigned *>(data) = CU_MEMORYTYPE_DEVICE;
    return CUDA_SUCCESS;
  }
  return std::getenv("FAKE_CUDA_STRICT_POINTERS") ? CUDA_ERROR_INVALID_VALUE
                                                  : CUDA_ERROR_NOT_SUPPORTED;
}

/// Pinned host memory: host memory, its device address (when mapped) the
/// same pointer. Counted with the device allocations, so that tests see it
/// released.
CUresult cuMemHostAlloc(void **pp, size_t bytes, unsigned int flags) {
  FAKE_NEEDS_CONTEXT();
  if (!pp || !bytes || (flags & ~unsigned(CU_MEMHOSTALLOC_DEVICEMAP)))
    return CUDA_ERROR_INVALID_VALUE;
  void *p = std::malloc(bytes);
  if (!p)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::memset(p, 0xff, bytes);
  hostAllocations[uintptr_t(p)] = (flags & CU_MEMHOSTALLOC_DEVICEMAP) != 0;
  ++stats.liveAllocations;
  ++stats.pinnedAllocations;
  *pp = p;
  return CUDA_SUCCESS;
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *dptr, void *p,
                                      unsigned int flags) {
  FAKE_NEEDS_CONTEXT();
  auto it = hostAllocations.find(uintptr_t(p));
  if (!dptr || flags || it == hostAllocations.end() || !it->second)
    return CUDA_ERROR_INVALID_VALUE;
  *dptr = CUdeviceptr(uintptr_t(p));
  return CUDA_SUCCESS;
}

CUresult cuMemFreeHost(void *p) {
  FAKE_NEEDS_CONTEXT();
  if (!hostAllocations.erase(uintptr_t(p)))
    return CUDA_ERROR_INVALID_VALUE;
  --stats.liveAllocations;
  std::free(p);
  return CUDA_SUCCESS;
}

CUresult cuMemGetInfo_v2(size_t *freeBytes, size_t *total) {
  FAKE_NEEDS_CONTEXT();
  *total = size_t(env("FAKE_CUDA_MEMORY", 1L << 30));
  *freeBytes = *total - size_t(stats.liveBytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes,
                              CUstream) {
  FAKE_NEEDS_CONTEXT();
  std::memcpy(reinterpret_cast<void *>(uintptr_t(dst)), src, bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes,
                              CUstream) {
  FAKE_NEEDS_CONTEXT();
  std::memcpy(dst, reinterpret_cast<const void *>(uintptr_t(src)), bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                              CUstream stream) {
  FAKE_NEEDS_CONTEXT();
  Op op;
  op.dst = dst;
  op.src = src;
  op.bytes = bytes;
  return enqueue(stream, std::move(op));
}

CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute attrib,
                            int value) {
  FAKE_NEEDS_CONTEXT();
  if (!f || attrib != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ||
      value < 0 || value > env("FAKE_CUDA_MAX_SHARED_OPTIN", 227 * 1024))
    return CUDA_ERROR_INVALID_VALUE;
  f->maxDynamicShared = value;
  ++stats.sharedOptIns;
  return CUDA_SUCCESS;
}

/// cuLaunchKernel and cuLaunchKernelEx.
static CUresult fakeLaunch(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                           unsigned bx, unsigned by, unsigned bz,
                           unsigned sharedBytes, CUstream stream, void **params,
                           bool programmatic) {
  FAKE_NEEDS_CONTEXT();
  if (!f || ((f->maps || f->arity || f->scalars) && !params))
    return CUDA_ERROR_INVALID_VALUE;
  // Like the driver: over 48 KiB needs the kernel's opt-in.
  if (sharedBytes > 48 * 1024 &&
      sharedBytes > static_cast<unsigned>(f->maxDynamicShared))
    return CUDA_ERROR_INVALID_VALUE;
  Op op;
  op.kernel = f;
  op.threads = gx * gy * gz * bx * by * bz;
  op.programmatic = programmatic;
  if (f->maps)
    stats.lastLaunchMapCount = f->maps;
  for (int i = 0; i < f->maps; ++i) {
    op.maps.push_back(*static_cast<CUtensorMap *>(params[i]));
    if (i < 2)
      stats.lastLaunchMaps[i] = decode(op.maps.back());
  }
  for (int i = 0; i < f->arity; ++i)
    op.args.push_back(*static_cast<CUdeviceptr *>(params[f->maps + i]));
  for (int i = 0; i < f->scalars; ++i)
    op.scalars.push_back(
        *static_cast<int64_t *>(params[f->maps + f->arity + i]));
  ++stats.launches;
  stats.lastGrid[0] = gx;
  stats.lastGrid[1] = gy;
  stats.lastGrid[2] = gz;
  return enqueue(stream, std::move(op));
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz,
                        unsigned sharedBytes, CUstream stream, void **params,
                        void **) {
  return fakeLaunch(f, gx, gy, gz, bx, by, bz, sharedBytes, stream, params,
                    false);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                          void **params, void **extra) {
  if (!config || extra || (config->numAttrs && !config->attrs))
    return CUDA_ERROR_INVALID_VALUE;
  bool programmatic = false;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    // The fake knows only the attribute the runtime sets.
    if (config->attrs[i].id !=
        CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
      return CUDA_ERROR_INVALID_VALUE;
    programmatic =
        config->attrs[i].value.programmaticStreamSerializationAllowed != 0;
  }
  return fakeLaunch(f, config->gridDimX, config->gridDimY, config->gridDimZ,
                    config->blockDimX, config->blockDimY, config->blockDimZ,
                    config->sharedMemBytes, config->hStream, params,
                    programmatic);
}

CUresult cuStreamCreate(CUstream *stream, unsigned int) {
  FAKE_NEEDS_CONTEXT();
  *stream = new CUstream_st;
  ++stats.liveStreams;
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream stream) {
  FAKE_NEEDS_CONTEXT();
  if (isSpecial(stream))
    return CUDA_ERROR_INVALID_HANDLE;
  delete stream;
  --stats.liveStreams;
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream stream) {
  FAKE_NEEDS_CONTEXT();
  if (!isSpecial(stream) && stream->capturing)
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  return CUDA_SUCCESS;
}

CUresult cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus *status) {
  FAKE_NEEDS_CONTEXT();
  *status = !isSpecial(stream) && stream->capturing
                ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}

#ifndef FAKE_CUDA_WITHOUT_GRAPHS
CUresult cuStreamBeginCapture_v2(CUstream stream, CUstreamCaptureMode) {
  FAKE_NEEDS_CONTEXT();
  // Like the driver: the legacy default stream cannot be captured.
  if (isSpecial(stream))
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  if (stream->capturing)
    return CUDA_ERROR_ILLEGAL_STATE;
  stream->capturing = true;
  stream->ops.clear();
  ++stats.captures;
  return CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph,
                                     unsigned long long) {
  FAKE_NEEDS_CONTEXT();
  *exec = new CUgraphExec_st{graph->ops};
  ++stats.instantiations;
  ++stats.liveExecs;
  return CUDA_SUCCESS;
}
#endif

CUresult cuStreamEndCapture(CUstream stream, CUgraph *graph) {
  FAKE_NEEDS_CONTEXT();
  if (isSpecial(stream) || !stream->capturing)
    return CUDA_ERROR_ILLEGAL_STATE;
  stream->capturing = false;
  *graph = new CUgraph_st{std::move(stream->ops)};
  stream->ops.clear();
  ++stats.liveGraphs;
  return CUDA_SUCCESS;
}

CUresult cuGraphExecUpdate_v2(CUgraphExec exec, CUgraph graph,
                              CUgraphExecUpdateResultInfo *info) {
  FAKE_NEEDS_CONTEXT();
  bool same = exec->ops.size() == graph->ops.size();
  for (size_t i = 0; same && i < graph->ops.size(); ++i)
    same = exec->ops[i].kernel == graph->ops[i].kernel;
  if (!same || env("FAKE_CUDA_EXEC_UPDATE_FAILS", 0)) {
    if (info)
      info->result = CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
    return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  }
  exec->ops = graph->ops;
  ++stats.updates;
  if (info)
    info->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  FAKE_NEEDS_CONTEXT();
  ++stats.graphLaunches;
  if (!isSpecial(stream) && stream->capturing) {
    for (const Op &op : exec->ops)
      stream->ops.push_back(op);
    return CUDA_SUCCESS;
  }
  for (const Op &op : exec->ops)
    if (CUresult r = execute(op))
      return r;
  return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph graph) {
  FAKE_GUARD();
  delete graph;
  --stats.liveGraphs;
  return CUDA_SUCCESS;
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  FAKE_GUARD();
  delete exec;
  --stats.liveExecs;
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *event, unsigned int) {
  FAKE_NEEDS_CONTEXT();
  *event = new CUevent_st;
  ++stats.liveEvents;
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  FAKE_NEEDS_CONTEXT();
  if (!isSpecial(stream) && stream->capturing)
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  event->ms = clockMs;
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent) {
  FAKE_NEEDS_CONTEXT();
  return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end) {
  FAKE_NEEDS_CONTEXT();
  *ms = float(end->ms - start->ms);
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(CUevent event) {
  FAKE_NEEDS_CONTEXT();
  delete event;
  --stats.liveEvents;
  return CUDA_SUCCESS;
}

} // extern "C"
