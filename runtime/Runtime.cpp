//===- Runtime.cpp - the C API of a compiled model ------------------------===//
//
// Every function of brrr_runtime.h: argument checks, the thread-local last
// error, and a barrier around each that turns a C++ exception (only
// std::bad_alloc is expected) into a status, since nothing may unwind into a
// C caller. The work itself is in Model.cpp and Context.cpp.
//
// These are the only symbols of the archive with default visibility; a
// model.so built from it exports exactly this API.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"

#include <new>

using namespace brrr::runtime;

// model.so defines the image; an executable or library without one leaves
// these null. Hidden, so that each model.so binds to its own image even when
// several are loaded with RTLD_GLOBAL.
extern "C" {
extern const uint8_t brrr_embedded_artifact[]
    __attribute__((weak, visibility("hidden")));
extern const uint64_t brrr_embedded_artifact_size
    __attribute__((weak, visibility("hidden")));
}

#define BRRR_API extern "C" __attribute__((visibility("default")))

namespace {

thread_local std::string lastError;

/// Records an error message where building it may itself run out of memory.
brrr_status failSafely(brrr_status status, const char *message) noexcept {
#if defined(__cpp_exceptions)
  try {
    lastError = message;
  } catch (...) {
    lastError.clear();
  }
#else
  lastError = message;
#endif
  return status;
}

/// Runs `f`, mapping escaped exceptions (in practice std::bad_alloc while
/// building a message or a model) to a status and `onError`.
template <typename T, typename F> T guarded(T onError, F &&f) noexcept {
#if defined(__cpp_exceptions)
  try {
    return f();
  } catch (const std::bad_alloc &) {
    failSafely(BRRR_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (...) {
    failSafely(BRRR_ERROR_CUDA, "internal error: unexpected C++ exception");
  }
  return onError;
#else
  (void)onError;
  return f();
#endif
}

/// guarded() for functions returning a status.
template <typename F> brrr_status guarded(F &&f) noexcept {
#if defined(__cpp_exceptions)
  try {
    return f();
  } catch (const std::bad_alloc &) {
    return failSafely(BRRR_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (...) {
    return failSafely(BRRR_ERROR_CUDA,
                      "internal error: unexpected C++ exception");
  }
#else
  return f();
#endif
}

brrr_status invalid(const char *function, const std::string &what) {
  return fail(BRRR_ERROR_INVALID_ARGUMENT, std::string(function) + ": " + what);
}

/// BRRR_OK where `index` names one of a model's `count` `what`s (inputs,
/// outputs, launches, symbols), else an invalid-argument status saying so.
brrr_status checkIndex(const char *function, const char *what, int32_t index,
                       size_t count) {
  if (index >= 0 && size_t(index) < count)
    return BRRR_OK;
  return invalid(function, std::string(what) + " index " +
                               std::to_string(index) +
                               " is out of range (the model has " +
                               std::to_string(count) + ")");
}

/// Checks a buffer array: present when the model has buffers, and no null
/// entry for a tensor that is not empty at the context's shapes (a
/// symbolic one may be: `x[:, 1:]` at one token).
brrr_status checkBuffers(const char *function, brrr_context &c,
                         const void *const *buffers,
                         const std::vector<brrr_tensor_info> &infos,
                         const std::vector<uint32_t> &tensors,
                         const char *kind) {
  if (infos.empty())
    return BRRR_OK;
  if (!buffers)
    return invalid(function, std::string(kind) +
                                 "s is null but the model has " +
                                 std::to_string(infos.size()) + " " + kind +
                                 (infos.size() == 1 ? "" : "s"));
  for (size_t i = 0; i < infos.size(); ++i) {
    if (buffers[i] || !infos[i].size_bytes)
      continue;
    bool symbolic = !c.model->art.tensors[tensors[i]].dimExprs.empty();
    if (symbolic) {
      if (brrr_status s = bindShapes(c, function))
        return s;
      if (!tensorBytes(c, tensors[i]))
        continue;
    }
    return invalid(function, std::string(kind) + " " + std::to_string(i) +
                                 " ('" + infos[i].name + "') is null");
  }
  return BRRR_OK;
}

brrr_status checkRun(const char *function, brrr_context *c,
                     const void *const *inputs, const void *const *outputs) {
  if (!c)
    return invalid(function, "context is null");
  const brrr_model &m = *c->model;
  if (brrr_status s =
          checkBuffers(function, *c, inputs, m.inputs, m.art.inputs, "input"))
    return s;
  return checkBuffers(function, *c, outputs, m.outputs, m.art.outputs,
                      "output");
}

brrr_status tensorInfo(const char *function, const brrr_model *m, int32_t index,
                       brrr_tensor_info *out, bool output) {
  if (!m)
    return invalid(function, "model is null");
  if (!out)
    return invalid(function, "out is null");
  const std::vector<brrr_tensor_info> &v = output ? m->outputs : m->inputs;
  if (brrr_status s =
          checkIndex(function, output ? "output" : "input", index, v.size()))
    return s;
  *out = v[size_t(index)];
  return BRRR_OK;
}

} // namespace

namespace brrr::runtime {

brrr_status fail(brrr_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

brrr_status cudaFail(const CudaDriver &cuda, CUresult r,
                     const std::string &what) {
  return fail(statusOf(r), what + ": " + cuda.errorText(r));
}

} // namespace brrr::runtime

BRRR_API uint32_t brrr_api_version(void) { return BRRR_API_VERSION; }

BRRR_API const char *brrr_last_error(void) { return lastError.c_str(); }

BRRR_API brrr_status brrr_model_open(int device, brrr_model **out) {
  return guarded([&] {
    if (!out)
      return invalid("brrr_model_open", "out is null");
    *out = nullptr;
    if (!brrr_embedded_artifact || !&brrr_embedded_artifact_size)
      return fail(BRRR_ERROR_CORRUPT_ARTIFACT,
                  "brrr_model_open: this library has no embedded model "
                  "(brrr_embedded_artifact is not defined); open an image "
                  "with brrr_model_open_artifact");
    return openEmbedded(brrr_embedded_artifact,
                        size_t(brrr_embedded_artifact_size), device, out);
  });
}

BRRR_API brrr_status brrr_model_open_artifact(const void *data, size_t size,
                                              int device, brrr_model **out) {
  return guarded([&] {
    if (!out)
      return invalid("brrr_model_open_artifact", "out is null");
    *out = nullptr;
    if (!data)
      return invalid("brrr_model_open_artifact", "data is null");
    return openModel(data, size, device, out);
  });
}

BRRR_API brrr_status brrr_artifact_check(const void *data, size_t size) {
  return guarded([&] {
    if (!data)
      return invalid("brrr_artifact_check", "data is null");
    brrr::artifact::Artifact a;
    std::string error;
    if (!brrr::artifact::deserialize(static_cast<const uint8_t *>(data), size,
                                     a, error))
      return fail(BRRR_ERROR_CORRUPT_ARTIFACT, error);
    return BRRR_OK;
  });
}

BRRR_API void brrr_model_close(brrr_model *model) { releaseModel(model); }

BRRR_API int32_t brrr_model_num_inputs(const brrr_model *model) {
  return guarded(int32_t(-1), [&] {
    if (!model)
      return invalid("brrr_model_num_inputs", "model is null"), int32_t(-1);
    return int32_t(model->inputs.size());
  });
}

BRRR_API int32_t brrr_model_num_outputs(const brrr_model *model) {
  return guarded(int32_t(-1), [&] {
    if (!model)
      return invalid("brrr_model_num_outputs", "model is null"), int32_t(-1);
    return int32_t(model->outputs.size());
  });
}

BRRR_API brrr_status brrr_model_input(const brrr_model *model, int32_t index,
                                      brrr_tensor_info *out) {
  return guarded(
      [&] { return tensorInfo("brrr_model_input", model, index, out, false); });
}

BRRR_API brrr_status brrr_model_output(const brrr_model *model, int32_t index,
                                       brrr_tensor_info *out) {
  return guarded(
      [&] { return tensorInfo("brrr_model_output", model, index, out, true); });
}

BRRR_API const char *brrr_model_target(const brrr_model *model) {
  return guarded(static_cast<const char *>(""), [&] {
    if (!model)
      return invalid("brrr_model_target", "model is null"), "";
    return model->art.target.c_str();
  });
}

BRRR_API int32_t brrr_model_num_launches(const brrr_model *model) {
  return guarded(int32_t(-1), [&] {
    if (!model)
      return invalid("brrr_model_num_launches", "model is null"), int32_t(-1);
    return int32_t(model->launches.size());
  });
}

BRRR_API brrr_status brrr_model_launch(const brrr_model *model, int32_t index,
                                       brrr_launch_info *out) {
  return guarded([&] {
    if (!model)
      return invalid("brrr_model_launch", "model is null");
    if (!out)
      return invalid("brrr_model_launch", "out is null");
    if (brrr_status s = checkIndex("brrr_model_launch", "launch", index,
                                   model->launches.size()))
      return s;
    *out = model->launches[size_t(index)];
    return BRRR_OK;
  });
}

BRRR_API int32_t brrr_model_num_symbols(const brrr_model *model) {
  return guarded(int32_t(-1), [&] {
    if (!model)
      return invalid("brrr_model_num_symbols", "model is null"), int32_t(-1);
    return int32_t(model->art.symbols.size());
  });
}

BRRR_API brrr_status brrr_model_symbol(const brrr_model *model, int32_t index,
                                       brrr_symbol_info *out) {
  return guarded([&] {
    const char *fn = "brrr_model_symbol";
    if (!model)
      return invalid(fn, "model is null");
    if (!out)
      return invalid(fn, "out is null");
    const auto &symbols = model->art.symbols;
    if (brrr_status s = checkIndex(fn, "symbol", index, symbols.size()))
      return s;
    const brrr::artifact::Symbol &s = symbols[size_t(index)];
    *out = {s.name.c_str(), s.min, s.max};
    return BRRR_OK;
  });
}

BRRR_API brrr_status brrr_model_input_symbol(const brrr_model *model,
                                             int32_t index, int32_t axis,
                                             int32_t *symbol) {
  return guarded([&] {
    const char *fn = "brrr_model_input_symbol";
    if (!model)
      return invalid(fn, "model is null");
    if (!symbol)
      return invalid(fn, "symbol is null");
    if (brrr_status s = checkIndex(fn, "input", index, model->inputs.size()))
      return s;
    const std::vector<int32_t> &dims = model->inputSymbols[size_t(index)];
    if (axis < 0 || size_t(axis) >= dims.size())
      return invalid(fn, "axis " + std::to_string(axis) + " of input " +
                             std::to_string(index) + " is out of range (rank " +
                             std::to_string(dims.size()) + ")");
    *symbol = dims[size_t(axis)];
    return BRRR_OK;
  });
}

BRRR_API uint64_t brrr_model_arena_bytes(const brrr_model *model) {
  return guarded(uint64_t(0), [&] {
    if (!model)
      return invalid("brrr_model_arena_bytes", "model is null"), uint64_t(0);
    return model->art.arenaBytes;
  });
}

BRRR_API uint64_t brrr_model_weight_bytes(const brrr_model *model) {
  return guarded(uint64_t(0), [&] {
    if (!model)
      return invalid("brrr_model_weight_bytes", "model is null"), uint64_t(0);
    return model->weightBytes;
  });
}

BRRR_API brrr_status brrr_context_create(brrr_model *model,
                                         brrr_context **out) {
  return guarded([&] {
    if (!out)
      return invalid("brrr_context_create", "out is null");
    *out = nullptr;
    if (!model)
      return invalid("brrr_context_create", "model is null");
    if (model->device < 0)
      return invalid("brrr_context_create",
                     "the model was opened for inspection only (device -1); "
                     "open it on a GPU to run it");
    return createContext(model, out);
  });
}

BRRR_API void brrr_context_destroy(brrr_context *context) { delete context; }

BRRR_API brrr_status brrr_context_set_cuda_graphs(brrr_context *context,
                                                  int enabled) {
  return guarded([&] {
    if (!context)
      return invalid("brrr_context_set_cuda_graphs", "context is null");
    return setCudaGraphs(context, enabled != 0);
  });
}

BRRR_API brrr_status brrr_context_set_input_shape(brrr_context *context,
                                                  int32_t index,
                                                  const int64_t *dims,
                                                  int32_t rank) {
  return guarded([&] {
    const char *fn = "brrr_context_set_input_shape";
    if (!context)
      return invalid(fn, "context is null");
    if (brrr_status s =
            checkIndex(fn, "input", index, context->model->inputs.size()))
      return s;
    if (rank < 0 || (rank > 0 && !dims))
      return invalid(fn, "dims is null or rank " + std::to_string(rank) +
                             " is negative");
    return setInputShape(context, index, dims, rank);
  });
}

BRRR_API brrr_status brrr_context_output_shape(brrr_context *context,
                                               int32_t index, int64_t *dims,
                                               uint64_t *size_bytes) {
  return guarded([&] {
    const char *fn = "brrr_context_output_shape";
    if (!context)
      return invalid(fn, "context is null");
    const brrr_model &m = *context->model;
    if (brrr_status s = checkIndex(fn, "output", index, m.outputs.size()))
      return s;
    if (brrr_status s = bindShapes(*context, fn))
      return s;
    uint32_t t = m.art.outputs[size_t(index)];
    if (dims)
      tensorDims(*context, t, dims);
    if (size_bytes)
      *size_bytes = tensorBytes(*context, t);
    return BRRR_OK;
  });
}

BRRR_API brrr_status brrr_context_launch(brrr_context *context, int32_t index,
                                         brrr_launch_info *out) {
  return guarded([&] {
    const char *fn = "brrr_context_launch";
    if (!context)
      return invalid(fn, "context is null");
    if (!out)
      return invalid(fn, "out is null");
    const brrr_model &m = *context->model;
    if (brrr_status s = checkIndex(fn, "launch", index, m.launches.size()))
      return s;
    if (brrr_status s = bindShapes(*context, fn))
      return s;
    const brrr::artifact::Kernel &k =
        m.art.kernels[m.art.launches[size_t(index)].kernel];
    // bindShapes evaluated every expression at the context's shapes, and
    // refused the artifact if one was negative.
    auto at = [&](int32_t e, uint64_t fixed) {
      return e == -1 ? fixed : uint64_t(context->exprValues[size_t(e)]);
    };
    *out = m.launches[size_t(index)];
    out->flops = at(k.flopsExpr, k.flops);
    out->bytes = at(k.bytesExpr, k.bytes);
    return BRRR_OK;
  });
}

BRRR_API brrr_status brrr_context_set_graph_cache(brrr_context *context,
                                                  int32_t capacity) {
  return guarded([&] {
    const char *fn = "brrr_context_set_graph_cache";
    if (!context)
      return invalid(fn, "context is null");
    if (capacity < 1)
      return invalid(fn, "capacity " + std::to_string(capacity) +
                             " is below 1 (brrr_context_set_cuda_graphs "
                             "turns graphs off)");
    return setGraphCache(context, size_t(capacity));
  });
}

BRRR_API brrr_status brrr_run(brrr_context *context, const void *const *inputs,
                              void *const *outputs, void *stream) {
  return guarded([&] {
    if (brrr_status s = checkRun("brrr_run", context, inputs, outputs))
      return s;
    if (brrr_status s =
            checkDeviceBuffers(context, inputs, outputs, "brrr_run"))
      return s;
    if (brrr_status s = takeIndexError(context, "brrr_run", /*earlier=*/true))
      return s;
    return run(context, inputs, outputs, static_cast<CUstream>(stream));
  });
}

BRRR_API brrr_status brrr_run_host(brrr_context *context,
                                   const void *const *inputs,
                                   void *const *outputs) {
  return guarded([&] {
    if (brrr_status s = checkRun("brrr_run_host", context, inputs, outputs))
      return s;
    if (brrr_status s = takeIndexError(context, "brrr_run_host", true))
      return s;
    if (brrr_status s = runHost(context, inputs, outputs))
      return s;
    return takeIndexError(context, "brrr_run_host", false);
  });
}

BRRR_API brrr_status brrr_profile(brrr_context *context,
                                  const void *const *inputs,
                                  void *const *outputs, double *launch_ms) {
  return guarded([&] {
    if (brrr_status s = checkRun("brrr_profile", context, inputs, outputs))
      return s;
    if (!launch_ms && !context->model->launches.empty())
      return invalid("brrr_profile", "launch_ms is null");
    if (brrr_status s =
            checkDeviceBuffers(context, inputs, outputs, "brrr_profile"))
      return s;
    if (brrr_status s = takeIndexError(context, "brrr_profile", true))
      return s;
    if (brrr_status s = profile(context, inputs, outputs, launch_ms))
      return s;
    return takeIndexError(context, "brrr_profile", false);
  });
}

BRRR_API brrr_status brrr_context_check(brrr_context *context) {
  return guarded([&] {
    if (!context)
      return invalid("brrr_context_check", "context is null");
    return takeIndexError(context, "brrr_context_check", false);
  });
}
