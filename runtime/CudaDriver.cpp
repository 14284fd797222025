//===- CudaDriver.cpp - dlopen the CUDA driver and resolve entry points ---===//
//
// Loads libcuda.so.1 (or $BRRR_CUDA_LIBRARY) once per path per process and
// keeps it loaded: modules, allocations and contexts made through it outlive
// any one model, and unloading the driver under them would crash at exit.
// Versioned symbols are resolved by their exported names (cuMemAlloc_v2 and
// so on), which the driver has kept stable across releases.
//
//===----------------------------------------------------------------------===//

#include "runtime/CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>

namespace brrr::runtime {

std::string CudaDriver::errorText(CUresult r) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(r, &name);
  if (cuGetErrorString)
    cuGetErrorString(r, &text);
  std::string s = name ? name : "CUDA error " + std::to_string(int(r));
  if (text)
    s += std::string(": ") + text;
  return s;
}

brrr_status statusOf(CUresult r) {
  switch (r) {
  case CUDA_SUCCESS:
    return BRRR_OK;
  case CUDA_ERROR_OUT_OF_MEMORY:
    return BRRR_ERROR_OUT_OF_MEMORY;
  case CUDA_ERROR_NO_DEVICE:
  case CUDA_ERROR_INVALID_DEVICE:
  case CUDA_ERROR_DEVICE_UNAVAILABLE:
    return BRRR_ERROR_NO_DEVICE;
  case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
  case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
    return BRRR_ERROR_NO_DRIVER;
  default:
    return BRRR_ERROR_CUDA;
  }
}

namespace {

/// Resolves every entry point; returns the names of the missing required
/// ones, comma separated.
std::string resolve(void *lib, CudaDriver &d) {
  std::string missing;
  auto find = [&](const char *sym, const char *alt) -> void * {
    void *p = dlsym(lib, sym);
    if (!p && alt)
      p = dlsym(lib, alt);
    return p;
  };
#define BRRR_CUDA_RESOLVE_REQUIRED(sym, alt)                                   \
  d.sym = reinterpret_cast<decltype(d.sym)>(find(#sym, alt));                  \
  if (!d.sym)                                                                  \
    missing += std::string(missing.empty() ? "" : ", ") + #sym;
#define BRRR_CUDA_RESOLVE_OPTIONAL(sym, alt)                                   \
  d.sym = reinterpret_cast<decltype(d.sym)>(find(#sym, alt));
  BRRR_CUDA_REQUIRED(BRRR_CUDA_RESOLVE_REQUIRED)
  BRRR_CUDA_OPTIONAL(BRRR_CUDA_RESOLVE_OPTIONAL)
#undef BRRR_CUDA_RESOLVE_REQUIRED
#undef BRRR_CUDA_RESOLVE_OPTIONAL
  return missing;
}

/// Drivers by library path, never unloaded (see the file comment).
std::mutex registryMutex;
std::map<std::string, std::unique_ptr<CudaDriver>> &registry() {
  static auto *drivers = new std::map<std::string, std::unique_ptr<CudaDriver>>;
  return *drivers;
}

} // namespace

brrr_status loadCudaDriver(const CudaDriver *&out, std::string &error) {
  const char *env = std::getenv("BRRR_CUDA_LIBRARY");
  std::string path = env && *env ? env : "libcuda.so.1";
  std::lock_guard<std::mutex> lock(registryMutex);
  auto it = registry().find(path);
  if (it != registry().end()) {
    out = it->second.get();
    return BRRR_OK;
  }

  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    error = "cannot load the CUDA driver library '" + path + "'" +
            (env && *env ? " (from BRRR_CUDA_LIBRARY)"
                         : " (is the NVIDIA driver installed? "
                           "BRRR_CUDA_LIBRARY overrides the path)") +
            ": " + (why ? why : "unknown dlopen error");
    return BRRR_ERROR_NO_DRIVER;
  }
  auto d = std::make_unique<CudaDriver>();
  d->path = path;
  std::string missing = resolve(lib, *d);
  if (!missing.empty()) {
    dlclose(lib);
    error = "the CUDA driver library '" + path +
            "' lacks entry points brrr needs (" + missing +
            "); the driver is too old or not libcuda";
    return BRRR_ERROR_NO_DRIVER;
  }

  CUresult r = d->cuInit(0);
  if (r != CUDA_SUCCESS) {
    brrr_status s = statusOf(r);
    error = std::string(s == BRRR_ERROR_NO_DEVICE
                            ? "no CUDA device: "
                            : "cannot initialize the CUDA driver: ") +
            "cuInit failed with " + d->errorText(r) + " (driver '" + path +
            "')";
    // Neither cached nor closed: a later call retries cuInit (fake drivers
    // in tests change their answer), and a driver that has run cuInit may
    // have started threads that must not lose their code.
    return s;
  }
  d->cuDriverGetVersion(&d->version);
  out = d.get();
  registry().emplace(path, std::move(d));
  return BRRR_OK;
}

} // namespace brrr::runtime
