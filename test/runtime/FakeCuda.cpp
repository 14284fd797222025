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
// Built twice: FAKE_CUDA_WITHOUT_GRAPHS drops the graph entry points to act
// as a driver too old for the runtime.
//
//===----------------------------------------------------------------------===//

#include "FakeCuda.h"

#include <cuda.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Op {
  const struct CUfunc_st *kernel = nullptr; // null: a copy
  unsigned threads = 0;
  std::vector<CUdeviceptr> args;
  CUdeviceptr dst = 0, src = 0;
  size_t bytes = 0;
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
  int arity;
  void (*body)(const std::vector<CUdeviceptr> &, unsigned);
  int maxDynamicShared; ///< opted-in dynamic shared memory, 0: the default
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

void addBody(const std::vector<CUdeviceptr> &a, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    f32(a[2])[i] = f32(a[0])[i] + f32(a[1])[i];
}
void reluBody(const std::vector<CUdeviceptr> &a, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    f32(a[1])[i] = std::max(f32(a[0])[i], 0.0f);
}

// The kernels of test/runtime/TestArtifact.cpp's PTX.
CUfunc_st kernels[] = {{"brrr_test_add", 3, addBody, 0},
                       {"brrr_test_relu", 2, reluBody, 0}};

std::recursive_mutex mu;
bool initialized = false;
FakeCudaStats stats = {};
std::map<uintptr_t, size_t> allocations;
CUctx_st primary[16];
double clockMs = 0;
thread_local CUcontext current = nullptr;

long env(const char *name, long fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::strtol(v, nullptr, 0) : fallback;
}

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
  op.kernel->body(op.args, op.threads);
  ++stats.kernelsRun;
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

#define FAKE_GUARD()                                                           \
  std::lock_guard<std::recursive_mutex> lock(mu);                              \
  if (!initialized)                                                            \
    return CUDA_ERROR_NOT_INITIALIZED;
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
  *version = 13000;
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

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz,
                        unsigned sharedBytes, CUstream stream, void **params,
                        void **) {
  FAKE_NEEDS_CONTEXT();
  if (!f || (f->arity && !params))
    return CUDA_ERROR_INVALID_VALUE;
  // Like the driver: over 48 KiB needs the kernel's opt-in.
  if (sharedBytes > 48 * 1024 &&
      sharedBytes > static_cast<unsigned>(f->maxDynamicShared))
    return CUDA_ERROR_INVALID_VALUE;
  Op op;
  op.kernel = f;
  op.threads = gx * gy * gz * bx * by * bz;
  for (int i = 0; i < f->arity; ++i)
    op.args.push_back(*static_cast<CUdeviceptr *>(params[i]));
  return enqueue(stream, std::move(op));
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
