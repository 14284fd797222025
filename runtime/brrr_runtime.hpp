//===- brrr_runtime.hpp - C++ wrapper of the brrr runtime -------*- C++ -*-===//
//
// Header-only RAII over brrr_runtime.h for C++ hosts of a model.so:
//
//   auto model = brrr::Model::open(/*device=*/0);
//   if (!model) { std::cerr << model.error().message; return 1; }
//   auto ctx = model->createContext();
//   if (brrr::Error e = ctx->runHost(inputs, outputs)) { ... }
//
// Failures come back as values (brrr::Error, brrr::Result<T>), so the header
// works in code built without exceptions; where exceptions are on,
// Result::value() and Error::check() throw brrr::Exception instead.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_RUNTIME_HPP
#define BRRR_RUNTIME_HPP

#include "brrr_runtime.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>
#if defined(__cpp_exceptions)
#include <stdexcept>
#endif

namespace brrr {

/// A status and its message; converts to true when it is an error.
struct Error {
  brrr_status status = BRRR_OK;
  std::string message;

  Error() = default;
  Error(brrr_status status, std::string message)
      : status(status), message(std::move(message)) {}
  /// The error of a C call that returned `status` (BRRR_OK: no error).
  static Error from(brrr_status status) {
    return status == BRRR_OK ? Error() : Error(status, brrr_last_error());
  }

  bool ok() const { return status == BRRR_OK; }
  explicit operator bool() const { return !ok(); }
  /// Throws brrr::Exception (or aborts without exceptions) on an error.
  inline void check() const;
};

#if defined(__cpp_exceptions)
class Exception : public std::runtime_error {
public:
  explicit Exception(Error e)
      : std::runtime_error(e.message), status(e.status) {}
  brrr_status status;
};
#endif

inline void Error::check() const {
  if (ok())
    return;
#if defined(__cpp_exceptions)
  throw Exception(*this);
#else
  std::fprintf(stderr, "brrr: %s\n", message.c_str());
  std::abort();
#endif
}

/// A T or the Error that prevented it.
template <typename T> class Result {
public:
  Result(T value) : value_(std::move(value)) {}
  Result(Error error) : error_(std::move(error)) {}

  explicit operator bool() const { return error_.ok(); }
  const Error &error() const { return error_; }
  T &value() & {
    error_.check();
    return value_;
  }
  T &&value() && {
    error_.check();
    return std::move(value_);
  }
  T *operator->() { return &value(); }
  T &operator*() { return value(); }

private:
  T value_{};
  Error error_;
};

/// An execution context: its own arena and CUDA graph. Use one per thread
/// or stream.
class Context {
public:
  Context() = default;
  Context(Context &&o) noexcept
      : c_(std::exchange(o.c_, nullptr)), model_(o.model_) {}
  Context &operator=(Context &&o) noexcept {
    std::swap(c_, o.c_);
    std::swap(model_, o.model_);
    return *this;
  }
  ~Context() { brrr_context_destroy(c_); }

  brrr_context *get() const { return c_; }

  Error setCudaGraphs(bool enabled) {
    return Error::from(brrr_context_set_cuda_graphs(c_, enabled ? 1 : 0));
  }

  /// Input `index`'s shape for the next runs (brrr_context_set_input_shape).
  Error setInputShape(int32_t index, const std::vector<int64_t> &dims) {
    return Error::from(brrr_context_set_input_shape(c_, index, dims.data(),
                                                    int32_t(dims.size())));
  }

  /// Output `index`'s shape at the context's input shapes.
  Result<std::vector<int64_t>> outputShape(int32_t index) const {
    brrr_tensor_info info;
    if (Error e = Error::from(brrr_model_output(model_, index, &info)))
      return e;
    std::vector<int64_t> dims(size_t(info.rank > 0 ? info.rank : 0));
    if (Error e = Error::from(
            brrr_context_output_shape(c_, index, dims.data(), nullptr)))
      return e;
    return dims;
  }

  /// The launch plan at the context's input shapes: each launch's kernel,
  /// work and traffic there (brrr_context_launch).
  Result<std::vector<brrr_launch_info>> launches() const {
    int32_t n = brrr_model_num_launches(model_);
    std::vector<brrr_launch_info> v(n > 0 ? size_t(n) : 0);
    for (size_t i = 0; i < v.size(); ++i)
      if (Error e =
              Error::from(brrr_context_launch(c_, int32_t(i), &v[i])))
        return e;
    return v;
  }

  /// Graphs kept, one per shape (brrr_context_set_graph_cache).
  Error setGraphCache(int32_t capacity) {
    return Error::from(brrr_context_set_graph_cache(c_, capacity));
  }
  /// Device buffers, queued on `stream` (a CUstream; nullptr = legacy).
  Error run(const void *const *inputs, void *const *outputs,
            void *stream = nullptr) {
    return Error::from(brrr_run(c_, inputs, outputs, stream));
  }
  Error run(const std::vector<const void *> &inputs,
            const std::vector<void *> &outputs, void *stream = nullptr) {
    return run(inputs.data(), outputs.data(), stream);
  }
  /// Host buffers; returns when the outputs are written.
  Error runHost(const void *const *inputs, void *const *outputs) {
    return Error::from(brrr_run_host(c_, inputs, outputs));
  }
  Error runHost(const std::vector<const void *> &inputs,
                const std::vector<void *> &outputs) {
    return runHost(inputs.data(), outputs.data());
  }
  /// Reports an out-of-range index read by a run not yet reported (see
  /// brrr_run); call it after synchronizing the runs' stream.
  Error check() { return Error::from(brrr_context_check(c_)); }
  /// Milliseconds per launch, in plan order.
  Result<std::vector<double>> profile(const std::vector<const void *> &inputs,
                                      const std::vector<void *> &outputs) {
    int32_t n = brrr_model_num_launches(modelOf());
    std::vector<double> ms(n > 0 ? size_t(n) : 0);
    if (Error e = Error::from(
            brrr_profile(c_, inputs.data(), outputs.data(), ms.data())))
      return e;
    return ms;
  }

private:
  // The C API has no context-to-model accessor; profile() needs the launch
  // count. The model outlives its contexts (the runtime counts references).
  const brrr_model *modelOf() const { return model_; }
  friend class Model;
  Context(brrr_context *c, const brrr_model *m) : c_(c), model_(m) {}

  brrr_context *c_ = nullptr;
  const brrr_model *model_ = nullptr;
};

/// A compiled model, open on a device or for inspection (device -1).
class Model {
public:
  Model() = default;
  explicit Model(brrr_model *m) : m_(m) {}
  Model(Model &&o) noexcept : m_(std::exchange(o.m_, nullptr)) {}
  Model &operator=(Model &&o) noexcept {
    std::swap(m_, o.m_);
    return *this;
  }
  ~Model() { brrr_model_close(m_); }

  /// The model embedded in the library this header is compiled into.
  static Result<Model> open(int device = 0) {
    brrr_model *m = nullptr;
    if (Error e = Error::from(brrr_model_open(device, &m)))
      return e;
    return Model(m);
  }
  /// An artifact image in memory.
  static Result<Model> openArtifact(const void *data, size_t size,
                                    int device = 0) {
    brrr_model *m = nullptr;
    if (Error e = Error::from(brrr_model_open_artifact(data, size, device, &m)))
      return e;
    return Model(m);
  }

  brrr_model *get() const { return m_; }

  std::vector<brrr_tensor_info> inputs() const {
    return infos(brrr_model_num_inputs(m_), brrr_model_input);
  }
  std::vector<brrr_tensor_info> outputs() const {
    return infos(brrr_model_num_outputs(m_), brrr_model_output);
  }
  std::vector<brrr_launch_info> launches() const {
    std::vector<brrr_launch_info> v(size_t(count(brrr_model_num_launches(m_))));
    for (size_t i = 0; i < v.size(); ++i)
      brrr_model_launch(m_, int32_t(i), &v[i]);
    return v;
  }
  /// The symbolic dimensions of a model compiled with ranges.
  std::vector<brrr_symbol_info> symbols() const {
    std::vector<brrr_symbol_info> v(size_t(count(brrr_model_num_symbols(m_))));
    for (size_t i = 0; i < v.size(); ++i)
      brrr_model_symbol(m_, int32_t(i), &v[i]);
    return v;
  }
  std::string target() const { return brrr_model_target(m_); }
  uint64_t arenaBytes() const { return brrr_model_arena_bytes(m_); }
  uint64_t weightBytes() const { return brrr_model_weight_bytes(m_); }

  Result<Context> createContext(bool cudaGraphs = true) {
    brrr_context *c = nullptr;
    if (Error e = Error::from(brrr_context_create(m_, &c)))
      return e;
    Context ctx(c, m_);
    if (!cudaGraphs)
      if (Error e = ctx.setCudaGraphs(false))
        return e;
    return Result<Context>(std::move(ctx));
  }

private:
  static int32_t count(int32_t n) { return n > 0 ? n : 0; }
  template <typename F>
  std::vector<brrr_tensor_info> infos(int32_t n, F get) const {
    std::vector<brrr_tensor_info> v(size_t(count(n)));
    for (size_t i = 0; i < v.size(); ++i)
      get(m_, int32_t(i), &v[i]);
    return v;
  }

  brrr_model *m_ = nullptr;
};

/// Checks that `path` is a complete 64-bit ELF file before a host dlopens
/// it: dlopen maps segments without comparing them with the file size, so a
/// truncated model.so faults on first touch instead of failing to load.
inline Error checkModelLibrary(const char *path) {
  std::FILE *f = std::fopen(path, "rb");
  if (!f)
    return Error(BRRR_ERROR_INVALID_ARGUMENT,
                 std::string("cannot open ") + path);
  std::fseek(f, 0, SEEK_END);
  long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  unsigned char h[64] = {};
  size_t got = std::fread(h, 1, sizeof h, f);
  auto u16 = [&](int o) { return unsigned(h[o]) | unsigned(h[o + 1]) << 8; };
  auto u64 = [](const unsigned char *p) {
    unsigned long long v = 0;
    for (int i = 7; i >= 0; --i)
      v = v << 8 | p[i];
    return v;
  };
  Error bad(BRRR_ERROR_CORRUPT_ARTIFACT,
            std::string(path) + " is not a complete 64-bit ELF library");
  if (got != 64 || h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F' ||
      h[4] != 2) {
    std::fclose(f);
    return bad;
  }
  unsigned long long phoff = u64(h + 32), shoff = u64(h + 40);
  unsigned phentsize = u16(54), phnum = u16(56), shentsize = u16(58),
           shnum = u16(60);
  unsigned long long end = static_cast<unsigned long long>(size);
  if (phoff + 1ull * phentsize * phnum > end ||
      shoff + 1ull * shentsize * shnum > end || phentsize < 40) {
    std::fclose(f);
    return bad;
  }
  for (unsigned i = 0; i < phnum; ++i) {
    unsigned char ph[56] = {};
    std::fseek(f, static_cast<long>(phoff + 1ull * i * phentsize), SEEK_SET);
    if (std::fread(ph, 1, 40, f) != 40 || u64(ph + 8) + u64(ph + 32) > end) {
      std::fclose(f);
      return bad;
    }
  }
  std::fclose(f);
  return Error();
}

} // namespace brrr

#endif // BRRR_RUNTIME_HPP
