//===- cpp_run.cpp - run a model.so from C++ on the GPU machine ----------===//
//
// The C++ half of the GPU checks: dlopens a model.so, reads inputs from
// .npy files, runs through the C API (host buffers), writes outputs as
// .npy for run_checks.py to compare. With --host-overhead N it instead
// measures the host time of one brrr_run (CUDA graph replay) over N runs.
//
// Build: g++ -O2 -std=c++17 -I runtime cpp_run.cpp -ldl -o cpp_run
// Usage: cpp_run MODEL.so OUT_DIR IN_0.npy ...      (writes OUT_DIR/out_K.npy)
//        cpp_run MODEL.so --host-overhead N
//
//===----------------------------------------------------------------------===//

#include "brrr_runtime.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

#define API(name) decltype(&::name) name = nullptr
struct Api {
  API(brrr_model_open);
  API(brrr_model_close);
  API(brrr_last_error);
  API(brrr_model_num_inputs);
  API(brrr_model_num_outputs);
  API(brrr_model_input);
  API(brrr_model_output);
  API(brrr_context_create);
  API(brrr_context_destroy);
  API(brrr_run_host);
  API(brrr_run);
};
#undef API

const char *npyDescr(brrr_dtype t) {
  switch (t) {
  case BRRR_DTYPE_F32:
    return "<f4";
  case BRRR_DTYPE_F16:
    return "<f2";
  case BRRR_DTYPE_BF16:
    return "<u2"; // raw bits; the checker reinterprets
  case BRRR_DTYPE_F64:
    return "<f8";
  case BRRR_DTYPE_I8:
    return "|i1";
  case BRRR_DTYPE_I16:
    return "<i2";
  case BRRR_DTYPE_I32:
    return "<i4";
  case BRRR_DTYPE_I64:
    return "<i8";
  case BRRR_DTYPE_U8:
    return "|u1";
  case BRRR_DTYPE_U16:
    return "<u2";
  case BRRR_DTYPE_U32:
    return "<u4";
  case BRRR_DTYPE_U64:
    return "<u8";
  case BRRR_DTYPE_BOOL:
    return "|b1";
  }
  return "?";
}

/// The raw data of a C-order .npy file (the header is trusted: our files).
bool readNpy(const std::string &path, std::vector<char> &data) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  std::string all((std::istreambuf_iterator<char>(f)),
                  std::istreambuf_iterator<char>());
  if (all.size() < 10 || all.compare(0, 6, "\x93NUMPY") != 0)
    return false;
  size_t headerLen = all[6] == 1 ? (uint8_t)all[8] | ((uint8_t)all[9] << 8) : 0;
  size_t start = all[6] == 1 ? 10 + headerLen : 0;
  if (all[6] != 1) {
    uint32_t len;
    std::memcpy(&len, all.data() + 8, 4);
    start = 12 + len;
  }
  data.assign(all.begin() + start, all.end());
  return true;
}

void writeNpy(const std::string &path, const brrr_tensor_info &info,
              const std::vector<char> &data) {
  std::ostringstream shape;
  shape << "(";
  for (int i = 0; i < info.rank; ++i)
    shape << info.dims[i] << (info.rank == 1 || i + 1 < info.rank ? "," : "");
  shape << ")";
  std::string header = std::string("{'descr': '") + npyDescr(info.dtype) +
                       "', 'fortran_order': False, 'shape': " + shape.str() +
                       ", }";
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = header.size();
  f.write(reinterpret_cast<const char *>(&len), 2);
  f << header;
  f.write(data.data(), data.size());
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: cpp_run MODEL.so OUT_DIR IN.npy... | "
                         "MODEL.so --host-overhead N\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  Api api;
#define LOAD(name)                                                             \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(lib, #name));          \
  if (!api.name) {                                                             \
    std::fprintf(stderr, "missing symbol %s\n", #name);                        \
    return 1;                                                                  \
  }
  LOAD(brrr_model_open)
  LOAD(brrr_model_close)
  LOAD(brrr_last_error) LOAD(brrr_model_num_inputs) LOAD(brrr_model_num_outputs)
      LOAD(brrr_model_input) LOAD(brrr_model_output) LOAD(brrr_context_create)
          LOAD(brrr_context_destroy) LOAD(brrr_run_host) LOAD(brrr_run)
#undef LOAD

              brrr_model *model = nullptr;
  if (api.brrr_model_open(0, &model) != BRRR_OK) {
    std::fprintf(stderr, "open: %s\n", api.brrr_last_error());
    return 1;
  }
  brrr_context *ctx = nullptr;
  if (api.brrr_context_create(model, &ctx) != BRRR_OK) {
    std::fprintf(stderr, "context: %s\n", api.brrr_last_error());
    return 1;
  }
  int nin = api.brrr_model_num_inputs(model);
  int nout = api.brrr_model_num_outputs(model);

  if (std::string(argv[2]) == "--host-overhead") {
    // Device buffers and a stream straight from the driver (the model made
    // its context current on this thread when it opened).
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
    using AllocFn = int (*)(unsigned long long *, size_t);
    using SyncFn = int (*)();
    using StreamFn = int (*)(void **, unsigned);
    auto alloc = reinterpret_cast<AllocFn>(dlsym(cuda, "cuMemAlloc_v2"));
    auto sync = reinterpret_cast<SyncFn>(dlsym(cuda, "cuCtxSynchronize"));
    auto mkStream = reinterpret_cast<StreamFn>(dlsym(cuda, "cuStreamCreate"));
    void *stream = nullptr;
    if (!alloc || !sync || !mkStream || mkStream(&stream, 1) != 0) {
      std::fprintf(stderr, "driver setup failed\n");
      return 1;
    }
    std::vector<void *> ins(nin), outs(nout);
    for (int i = 0; i < nin; ++i) {
      brrr_tensor_info info;
      api.brrr_model_input(model, i, &info);
      unsigned long long p;
      alloc(&p, info.size_bytes ? info.size_bytes : 1);
      ins[i] = reinterpret_cast<void *>(p);
    }
    for (int i = 0; i < nout; ++i) {
      brrr_tensor_info info;
      api.brrr_model_output(model, i, &info);
      unsigned long long p;
      alloc(&p, info.size_bytes ? info.size_bytes : 1);
      outs[i] = reinterpret_cast<void *>(p);
    }
    int n = std::atoi(argv[3]);
    for (int i = 0; i < 20; ++i) // capture + warm-up
      if (api.brrr_run(ctx, ins.data(), outs.data(), stream) != BRRR_OK) {
        std::fprintf(stderr, "run: %s\n", api.brrr_last_error());
        return 1;
      }
    sync();
    // Host cost of one call, with the GPU idle: each call is timed alone
    // and followed by a synchronize (not timed), so a full launch queue
    // never blocks the call being measured.
    std::vector<double> us;
    for (int i = 0; i < n; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      api.brrr_run(ctx, ins.data(), outs.data(), stream);
      auto t1 = std::chrono::steady_clock::now();
      sync();
      us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    std::sort(us.begin(), us.end());
    std::printf("host_us_per_run %.3f\n", us[us.size() / 2]);
    return 0;
  }

  std::vector<std::vector<char>> inData(nin), outData(nout);
  std::vector<const void *> ins(nin);
  std::vector<void *> outs(nout);
  for (int i = 0; i < nin; ++i) {
    brrr_tensor_info info;
    api.brrr_model_input(model, i, &info);
    if (3 + i >= argc || !readNpy(argv[3 + i], inData[i]) ||
        inData[i].size() != info.size_bytes) {
      std::fprintf(stderr, "input %d (%s): bad or missing .npy\n", i,
                   info.name);
      return 1;
    }
    ins[i] = inData[i].data();
  }
  for (int i = 0; i < nout; ++i) {
    brrr_tensor_info info;
    api.brrr_model_output(model, i, &info);
    outData[i].assign(info.size_bytes, static_cast<char>(0xff)); // poison
    outs[i] = outData[i].data();
  }
  if (api.brrr_run_host(ctx, ins.data(), outs.data()) != BRRR_OK) {
    std::fprintf(stderr, "run: %s\n", api.brrr_last_error());
    return 1;
  }
  for (int i = 0; i < nout; ++i) {
    brrr_tensor_info info;
    api.brrr_model_output(model, i, &info);
    std::string base = std::string(argv[2]) + "/out_" + std::to_string(i);
    writeNpy(base + ".npy", info, outData[i]);
    // .npy cannot say bfloat16: a sidecar names the real element type.
    std::ofstream(base + ".dtype")
        << (info.dtype == BRRR_DTYPE_BF16 ? "bfloat16" : "");
  }
  api.brrr_context_destroy(ctx);
  api.brrr_model_close(model);
  return 0;
}
