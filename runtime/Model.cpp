//===- Model.cpp - open a compiled model on a device ----------------------===//
//
// brrr_model_open's work: parse and validate the artifact, describe its
// signature and plan, and, unless it is opened for inspection, load the
// driver, check the card against the artifact's target, load the kernels and
// upload the weights. Everything a model acquires is released by its
// destructor, so a failure half way through leaks nothing.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"
#include "runtime/TensorMaps.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace brrr::runtime {

std::string formatBytes(uint64_t bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  if (u == 0)
    return std::to_string(bytes) + " bytes";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f %s", v, units[u]);
  return buf;
}

CurrentContext::CurrentContext(const CudaDriver &cuda, CUcontext ctx)
    : cuda(cuda) {
  result = cuda.cuCtxGetCurrent(&previous);
  if (result == CUDA_SUCCESS && previous != ctx) {
    result = cuda.cuCtxSetCurrent(ctx);
    switched = result == CUDA_SUCCESS;
  }
}

CurrentContext::~CurrentContext() {
  // A thread that had no context keeps ours: the next call is cheaper and
  // nothing else on the thread expected a different one.
  if (switched && previous)
    cuda.cuCtxSetCurrent(previous);
}

namespace {

using artifact::Artifact;

/// Fills the tensor and launch descriptions the C API hands out; they point
/// into `art`, which is not modified afterwards.
void describe(brrr_model &m) {
  // Sized first: the descriptions point into these vectors.
  m.signatureDims.resize(m.art.inputs.size() + m.art.outputs.size());
  size_t next = 0;
  auto info = [&](uint32_t t) {
    const artifact::Tensor &x = m.art.tensors[t];
    std::vector<int64_t> &dims = m.signatureDims[next++];
    dims = x.dims;
    for (size_t d = 0; d < x.dimExprs.size(); ++d)
      if (x.dimExprs[d] != -1)
        dims[d] = -1;
    brrr_tensor_info i;
    i.name = x.name.c_str();
    i.dtype = brrr_dtype(x.dtype);
    i.rank = int32_t(x.dims.size());
    i.dims = dims.data();
    i.size_bytes = x.bytes;
    return i;
  };
  // validate() checked that an input's symbolic dimension is one symbol.
  for (uint32_t t : m.art.inputs) {
    const artifact::Tensor &x = m.art.tensors[t];
    std::vector<int32_t> symbols(x.dims.size(), -1);
    for (size_t d = 0; d < x.dimExprs.size(); ++d)
      if (x.dimExprs[d] != -1)
        symbols[d] = int32_t(m.art.exprs[size_t(x.dimExprs[d])].terms[0].value);
    m.inputSymbols.push_back(std::move(symbols));
  }
  for (uint32_t t : m.art.inputs)
    m.inputs.push_back(info(t));
  for (uint32_t t : m.art.outputs)
    m.outputs.push_back(info(t));
  for (const artifact::Launch &l : m.art.launches) {
    const artifact::Kernel &k = m.art.kernels[l.kernel];
    m.launches.push_back({k.name.c_str(), k.flops, k.bytes});
  }
  m.weightBytes = m.art.weightCount();
}

std::string deviceLabel(const brrr_model &m, int major, int minor) {
  char name[256] = {0};
  if (m.cuda->cuDeviceGetName(name, sizeof(name) - 1, m.dev) != CUDA_SUCCESS)
    name[0] = 0;
  return "device " + std::to_string(m.device) + " (" +
         (name[0] ? name : "unknown GPU") + ") has compute capability " +
         std::to_string(major) + "." + std::to_string(minor);
}

enum class Code { None, Cubin, Ptx };

/// Picks the code object for a card of compute capability major.minor:
/// the cubin when the card is exactly the target, else the PTX when the card
/// is at least the target (the driver JIT-compiles it); "a" targets
/// (sm_90a) run only on exactly that card, from their cubin or, compiled
/// without one (brrrc --no-cubin), from their PTX.
brrr_status chooseCode(const brrr_model &m, Code &code) {
  const Artifact &a = m.art;
  int major = 0, minor = 0;
  BRRR_CU(*m.cuda,
          m.cuda->cuDeviceGetAttribute(
              &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, m.dev),
          "querying the compute capability of device " +
              std::to_string(m.device));
  BRRR_CU(*m.cuda,
          m.cuda->cuDeviceGetAttribute(
              &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, m.dev),
          "querying the compute capability of device " +
              std::to_string(m.device));
  bool exact = uint32_t(major) == a.smMajor && uint32_t(minor) == a.smMinor;
  bool newer = uint32_t(major) > a.smMajor ||
               (uint32_t(major) == a.smMajor && uint32_t(minor) >= a.smMinor);
  std::string target = "'" + a.target + "' (compute capability " +
                       std::to_string(a.smMajor) + "." +
                       std::to_string(a.smMinor) + ")";
  if (a.kernels.empty()) {
    code = Code::None;
    return BRRR_OK;
  }
  if (a.exactArch) {
    if (!exact)
      return fail(BRRR_ERROR_UNSUPPORTED_DEVICE,
                  "the model was compiled for " + target +
                      ", an architecture-specific target that runs only on "
                      "exactly that compute capability; " +
                      deviceLabel(m, major, minor));
    code = a.cubin.empty() ? Code::Ptx : Code::Cubin;
    return BRRR_OK;
  }
  if (exact && !a.cubin.empty()) {
    code = Code::Cubin;
    return BRRR_OK;
  }
  if (newer && !a.ptx.empty()) {
    code = Code::Ptx;
    return BRRR_OK;
  }
  return fail(BRRR_ERROR_UNSUPPORTED_DEVICE,
              "the model was compiled for " + target +
                  (a.ptx.empty() ? " with a cubin only, which runs on exactly "
                                   "that compute capability"
                                 : ", which needs that compute capability or "
                                   "newer") +
                  "; " + deviceLabel(m, major, minor));
}

/// Loads a code object, collecting the JIT's error log for the message.
CUresult loadModule(brrr_model &m, Code code, std::string &log) {
  char errorLog[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {errorLog,
                    reinterpret_cast<void *>(uintptr_t(sizeof(errorLog) - 1))};
  const void *image = code == Code::Cubin
                          ? static_cast<const void *>(m.art.cubin.data())
                          : static_cast<const void *>(m.art.ptx.c_str());
  CUresult r = m.cuda->cuModuleLoadDataEx(&m.module, image, 2, options, values);
  log = errorLog;
  return r;
}

brrr_status loadKernels(brrr_model &m, Code code) {
  if (code == Code::None)
    return BRRR_OK;
  std::string log;
  CUresult r = loadModule(m, code, log);
  // A cubin the driver rejects (e.g. built by a newer ptxas) may still be
  // JIT-compiled from the PTX.
  if (r != CUDA_SUCCESS && code == Code::Cubin && !m.art.exactArch &&
      !m.art.ptx.empty()) {
    code = Code::Ptx;
    r = loadModule(m, code, log);
  }
  if (r != CUDA_SUCCESS)
    return cudaFail(*m.cuda, r,
                    std::string("loading the model's ") +
                        (code == Code::Cubin ? "cubin" : "PTX") + " for '" +
                        m.art.target + "' on device " +
                        std::to_string(m.device) +
                        (log.empty() ? "" : " (JIT log: " + log + ")"));
  m.functions.resize(m.art.kernels.size());
  for (size_t i = 0; i < m.functions.size(); ++i)
    BRRR_CU(*m.cuda,
            m.cuda->cuModuleGetFunction(&m.functions[i], m.module,
                                        m.art.kernels[i].name.c_str()),
            "looking up kernel '" + m.art.kernels[i].name +
                "' in the model's module");
  // Kernels planned with more than the default 48 KiB of dynamic shared
  // memory opt in once, here, so no launch fails for it.
  std::vector<uint32_t> shared(m.functions.size(), 0);
  for (const artifact::Launch &l : m.art.launches)
    shared[l.kernel] = std::max(shared[l.kernel], l.sharedBytes);
  for (size_t i = 0; i < m.functions.size(); ++i)
    if (shared[i] > 48 * 1024)
      BRRR_CU(*m.cuda,
              m.cuda->cuFuncSetAttribute(
                  m.functions[i], CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                  static_cast<int>(shared[i])),
              "kernel '" + m.art.kernels[i].name + "' needs " +
                  std::to_string(shared[i]) + " bytes of shared memory per "
                  "block, more than device " + std::to_string(m.device) +
                  " grants");
  return BRRR_OK;
}

/// Bytes of each pinned staging buffer, and the weights at or below which
/// one plain copy does (the driver stages pageable memory itself).
constexpr uint64_t kStagingBytes = 64ull << 20;

/// Copies `n` bytes from `src` to `dst` on up to kCopyThreads threads: one
/// thread moves a few GB/s out of a file mapping (each page a fault), well
/// below what the bus takes. With a file (`fd` >= 0, `src`'s bytes at
/// `offset` in it) each thread reads its part with pread instead, which
/// copies from the page cache without a fault per page, and falls back to
/// the mapping if a read fails. Copies on the calling thread alone where no
/// thread can be started.
constexpr unsigned kCopyThreads = 8;

void copyPart(uint8_t *dst, const uint8_t *src, uint64_t n, int fd,
              uint64_t offset) {
  uint64_t done = 0;
  while (fd >= 0 && done < n) {
    size_t want = size_t(std::min<uint64_t>(n - done, 1ull << 30));
    ssize_t got = pread(fd, dst + done, want, off_t(offset + done));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    done += uint64_t(got);
  }
  std::memcpy(dst + done, src + done, n - done);
}

void parallelCopy(uint8_t *dst, const uint8_t *src, uint64_t n, int fd = -1,
                  uint64_t offset = 0) {
  unsigned threads =
      std::max(1u, std::min(kCopyThreads, std::thread::hardware_concurrency()));
  uint64_t part = (n + threads - 1) / threads;
  std::vector<std::thread> workers;
  uint64_t at = part;
  for (unsigned t = 1; t < threads && at < n; ++t, at += part) {
    uint8_t *d = dst + at;
    const uint8_t *s = src + at;
    uint64_t len = std::min(part, n - at), o = offset + at;
    auto copy = [d, s, len, fd, o] { copyPart(d, s, len, fd, o); };
#if defined(__cpp_exceptions)
    try {
      workers.emplace_back(copy);
    } catch (...) {
      copy();
    }
#else
    workers.emplace_back(copy);
#endif
  }
  copyPart(dst, src, std::min(part, n), fd, offset);
  for (std::thread &w : workers)
    w.join();
}

/// Copies `bytes` bytes from host memory at `src` (pageable: the image, or
/// the model.so's pages mapped from disk) to `dst` through two pinned
/// staging buffers: the host fills one (on several threads) while the
/// device copies the other.
brrr_status uploadStaged(brrr_model &m, CUdeviceptr dst, const uint8_t *src,
                         uint64_t bytes) {
  const CudaDriver &cu = *m.cuda;
  struct Staging {
    const CudaDriver &cu;
    void *host = nullptr;
    CUstream stream = nullptr;
    CUevent done[2] = {nullptr, nullptr};
    ~Staging() {
      if (stream)
        cu.cuStreamSynchronize(stream);
      for (CUevent e : done)
        if (e)
          cu.cuEventDestroy_v2(e);
      if (stream)
        cu.cuStreamDestroy_v2(stream);
      if (host)
        cu.cuMemFreeHost(host);
    }
  } s{cu};
  const std::string what = "uploading the model's weights";
  BRRR_CU(cu, cu.cuMemHostAlloc(&s.host, 2 * kStagingBytes, 0),
          what + " (allocating " + formatBytes(2 * kStagingBytes) +
              " of pinned staging memory)");
  BRRR_CU(cu, cu.cuStreamCreate(&s.stream, CU_STREAM_NON_BLOCKING), what);
  for (CUevent &e : s.done)
    BRRR_CU(cu, cu.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), what);
  auto *staging = static_cast<uint8_t *>(s.host);
  for (uint64_t at = 0, chunk = 0; at < bytes; at += kStagingBytes, ++chunk) {
    uint64_t n = std::min(kStagingBytes, bytes - at);
    int k = int(chunk % 2);
    uint8_t *buffer = staging + k * kStagingBytes;
    if (chunk >= 2)
      BRRR_CU(cu, cu.cuEventSynchronize(s.done[k]), what);
    parallelCopy(buffer, src + at, n, m.weightsFile, m.weightsFileOffset + at);
    BRRR_CU(cu, cu.cuMemcpyHtoDAsync_v2(dst + at, buffer, n, s.stream), what);
    BRRR_CU(cu, cu.cuEventRecord(s.done[k], s.stream), what);
  }
  BRRR_CU(cu, cu.cuStreamSynchronize(s.stream), what);
  return BRRR_OK;
}

brrr_status uploadWeights(brrr_model &m) {
  uint64_t bytes = m.art.weightCount();
  if (!bytes)
    return BRRR_OK;
  const CudaDriver &cu = *m.cuda;
  CUresult r = cu.cuMemAlloc_v2(&m.weights, bytes);
  if (r != CUDA_SUCCESS) {
    size_t freeBytes = 0, total = 0;
    std::string avail;
    if (cu.cuMemGetInfo_v2(&freeBytes, &total) == CUDA_SUCCESS)
      avail = " (" + formatBytes(freeBytes) + " free of " + formatBytes(total) +
              ")";
    return cudaFail(cu, r,
                    "allocating " + formatBytes(bytes) +
                        " for the model's weights on device " +
                        std::to_string(m.device) + avail);
  }
  if (bytes > kStagingBytes)
    return uploadStaged(m, m.weights, m.art.weightBytes(), bytes);
  BRRR_CU(
      cu,
      cu.cuMemcpyHtoDAsync_v2(m.weights, m.art.weightBytes(), bytes, nullptr),
      "uploading the model's weights");
  BRRR_CU(cu, cu.cuStreamSynchronize(nullptr), "uploading the model's weights");
  return BRRR_OK;
}

brrr_status openOnDevice(brrr_model &m) {
  std::string error;
  if (brrr_status s = loadCudaDriver(m.cuda, error))
    return fail(s, error);
  if (brrr_status s = checkTensorMapSupport(m))
    return s;
  const CudaDriver &cu = *m.cuda;
  int count = 0;
  BRRR_CU(cu, cu.cuDeviceGetCount(&count), "counting CUDA devices");
  if (m.device >= count)
    return fail(BRRR_ERROR_NO_DEVICE,
                "device " + std::to_string(m.device) + " requested but " +
                    std::to_string(count) + " CUDA device" +
                    (count == 1 ? " is" : "s are") + " visible");
  BRRR_CU(cu, cu.cuDeviceGet(&m.dev, m.device),
          "opening CUDA device " + std::to_string(m.device));
  Code code;
  if (brrr_status s = chooseCode(m, code))
    return s;
  BRRR_CU(cu,
          cu.cuDeviceGetAttribute(&m.multiprocessors,
                                  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                  m.dev),
          "querying the multiprocessors of device " + std::to_string(m.device));
  BRRR_CU(cu, cu.cuDevicePrimaryCtxRetain(&m.ctx, m.dev),
          "retaining the primary context of device " +
              std::to_string(m.device));
  CurrentContext current(cu, m.ctx);
  BRRR_CU(cu, current.result,
          "making device " + std::to_string(m.device) + "'s context current");
  if (brrr_status s = loadKernels(m, code))
    return s;
  if (brrr_status s = uploadWeights(m))
    return s;
  // The device holds the only copies needed from here on.
  std::vector<uint8_t>().swap(m.art.weights);
  std::vector<uint8_t>().swap(m.art.cubin);
  std::string().swap(m.art.ptx);
  return BRRR_OK;
}

} // namespace

brrr_status openModel(const void *data, size_t size, int device,
                      brrr_model **out, const artifact::ApartWeights *apart) {
  if (device < -1)
    return fail(BRRR_ERROR_INVALID_ARGUMENT,
                "device " + std::to_string(device) +
                    " is not a device ordinal (use -1 for inspection only)");
  auto m = std::make_unique<brrr_model>();
  if (apart) {
    m->weightsFile = apart->fd;
    m->weightsFileOffset = apart->fileOffset;
  }
  std::string error;
  if (!artifact::deserialize(static_cast<const uint8_t *>(data), size, m->art,
                             error, apart))
    return fail(BRRR_ERROR_CORRUPT_ARTIFACT, error);
  describe(*m);
  m->device = device;
  if (device >= 0)
    if (brrr_status s = openOnDevice(*m))
      return s;
  // The weights are the caller's (or a mapping closed after this call).
  m->art.weightData = nullptr;
  m->weightsFile = -1;
  *out = m.release();
  return BRRR_OK;
}

namespace {

/// The file this library was loaded from, resolved when it was loaded
/// (before the caller could change directory), or "" when unknown.
char libraryPath[PATH_MAX];

__attribute__((constructor)) void rememberLibraryPath() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&rememberLibraryPath), &info) ||
      !info.dli_fname)
    return;
  if (!realpath(info.dli_fname, libraryPath))
    std::snprintf(libraryPath, sizeof(libraryPath), "%s", info.dli_fname);
}

/// A read-only mapping of the weights appended to a model.so.
struct MappedWeights {
  void *base = nullptr;
  size_t length = 0;
  int fd = -1; ///< kept open for the upload's reads
  ~MappedWeights() {
    if (base)
      munmap(base, length);
    if (fd >= 0)
      close(fd);
  }
};

brrr_status mapAppendedWeights(uint64_t size, MappedWeights &map,
                               artifact::ApartWeights &out) {
  std::string path = libraryPath;
  auto corrupt = [&](const std::string &why) {
    return fail(BRRR_ERROR_CORRUPT_ARTIFACT,
                "brrr_model_open: the model's " + std::to_string(size) +
                    " bytes of weights are appended to its library, " + why);
  };
  if (path.empty())
    return corrupt("whose file could not be found (dladdr gave no path)");
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return corrupt("'" + path +
                   "', which cannot be opened: " + std::strerror(errno));
  struct stat st;
  uint8_t tail[artifact::kWeightsTrailerBytes];
  artifact::WeightsTrailer trailer;
  bool ok = fstat(fd, &st) == 0 &&
            uint64_t(st.st_size) >= artifact::kWeightsTrailerBytes &&
            pread(fd, tail, sizeof(tail),
                  off_t(uint64_t(st.st_size) - sizeof(tail))) ==
                ssize_t(sizeof(tail)) &&
            artifact::decodeTrailer(tail, trailer);
  uint64_t fileSize = ok ? uint64_t(st.st_size) : 0;
  if (!ok) {
    close(fd);
    return corrupt("'" + path +
                   "', which does not end with them (was it stripped or "
                   "truncated? Tools that rewrite a library from its sections "
                   "drop them; brrrc --weights=embedded keeps weights up to "
                   "about 2 GiB inside)");
  }
  // In this order, so that no sum of the file's numbers can wrap.
  if (trailer.size != size || trailer.offset % artifact::kWeightsAlignment ||
      trailer.offset > fileSize || size > fileSize ||
      fileSize - trailer.offset != size + artifact::kWeightsTrailerBytes) {
    close(fd);
    return corrupt("'" + path + "', whose file of " + std::to_string(fileSize) +
                   " bytes holds " + std::to_string(trailer.size) +
                   " bytes at offset " + std::to_string(trailer.offset) +
                   " instead (truncated, or another model's)");
  }
  if (size) {
    map.length = size_t(size);
    map.base = mmap(nullptr, map.length, PROT_READ, MAP_PRIVATE, fd,
                    off_t(trailer.offset));
    if (map.base == MAP_FAILED) {
      map.base = nullptr;
      int e = errno;
      close(fd);
      return corrupt("'" + path +
                     "', which cannot be mapped: " + std::strerror(e));
    }
    madvise(map.base, map.length, MADV_SEQUENTIAL);
  }
  map.fd = fd;
  out.data = static_cast<const uint8_t *>(map.base);
  out.size = size;
  out.fd = fd;
  out.fileOffset = trailer.offset;
  return BRRR_OK;
}

} // namespace

brrr_status openEmbedded(const uint8_t *image, size_t size, int device,
                         brrr_model **out) {
  std::optional<uint64_t> weightSize = artifact::apartWeightSize(image, size);
  // Other images (and one too short to say) are parsed, and refused, as
  // they are.
  if (!weightSize)
    return openModel(image, size, device, out);
  MappedWeights map;
  artifact::ApartWeights apart;
  if (brrr_status s = mapAppendedWeights(*weightSize, map, apart))
    return s;
  return openModel(image, size, device, out, &apart);
}

void releaseModel(brrr_model *model) {
  if (model && model->refs.fetch_sub(1) == 1)
    delete model;
}

} // namespace brrr::runtime

brrr_model::~brrr_model() {
  if (!ctx)
    return;
  // Errors are ignored: there is no caller to report them to, and a
  // failing driver at teardown (process exit, lost device) must not crash.
  {
    brrr::runtime::CurrentContext current(*cuda, ctx);
    if (weights)
      cuda->cuMemFree_v2(weights);
    if (module)
      cuda->cuModuleUnload(module);
  }
  cuda->cuDevicePrimaryCtxRelease_v2(dev);
}
