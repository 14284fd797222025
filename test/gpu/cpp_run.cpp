//===- cpp_run.cpp - run a model.so from C++ on the GPU machine ----------===//
//
// The C++ half of the GPU checks: dlopens a model.so, reads inputs from
// .npy files, runs through the C API (host buffers), writes outputs as
// .npy for run_checks.py to compare. With --host-overhead N it instead
// measures the host time of one brrr_run (CUDA graph replay) over N runs;
// for a model compiled with ranges, SHAPES ("1x1x64;8x512x64", given to
// every input) are set in turn before each run, the call timed with it, so
// that each run replays another shape's cached graph.
//
// Build: g++ -O2 -std=c++17 -I runtime cpp_run.cpp -ldl -o cpp_run
// Usage: cpp_run MODEL.so OUT_DIR IN_0.npy ...      (writes OUT_DIR/out_K.npy)
//        cpp_run MODEL.so --host-overhead N [SHAPES]
//
//===----------------------------------------------------------------------===//

#include "brrr_runtime.h"
#include "npy.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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
    std::vector<std::vector<int64_t>> shapes;
    if (argc > 4)
      for (const char *p = argv[4]; *p;) {
        std::vector<int64_t> dims;
        char *end = nullptr;
        do {
          dims.push_back(std::strtoll(p, &end, 10));
          p = *end == 'x' ? end + 1 : end;
        } while (*end == 'x');
        shapes.push_back(dims);
        p = *p == ';' ? p + 1 : p;
      }
    auto setShape = reinterpret_cast<decltype(&brrr_context_set_input_shape)>(
        dlsym(lib, "brrr_context_set_input_shape"));
    if (!shapes.empty() && !setShape) {
      std::fprintf(stderr, "the library has no brrr_context_set_input_shape\n");
      return 1;
    }
    auto run = [&](int i) {
      if (!shapes.empty()) {
        const std::vector<int64_t> &s = shapes[size_t(i) % shapes.size()];
        for (int k = 0; k < nin; ++k)
          if (setShape(ctx, k, s.data(), int32_t(s.size())) != BRRR_OK)
            return BRRR_ERROR_INVALID_SHAPE;
      }
      return api.brrr_run(ctx, ins.data(), outs.data(), stream);
    };
    for (int i = 0; i < 20; ++i) // capture + warm-up
      if (run(i) != BRRR_OK) {
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
      run(i);
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
    if (3 + i >= argc || !npy::readNpy(argv[3 + i], inData[i]) ||
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
    npy::writeOutput(std::string(argv[2]) + "/out_" + std::to_string(i), info,
                     outData[i]);
  }
  api.brrr_context_destroy(ctx);
  api.brrr_model_close(model);
  return 0;
}
