//===- Runtime.h - the objects behind the C API handles ---------*- C++ -*-===//
//
// Internal to the runtime: what brrr_model and brrr_context hold, and the
// operations Runtime.cpp (the C API layer, which checks arguments) calls on
// them. Model.cpp opens models (artifact, driver, device checks, module,
// weights); Context.cpp runs them (arena, plan, CUDA graphs, host staging,
// profiling). Errors go to the calling thread's last-error slot through
// fail(), and every function returns the status.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_RUNTIME_RUNTIME_H
#define BRRR_RUNTIME_RUNTIME_H

#include "runtime/Artifact.h"
#include "runtime/CudaDriver.h"
#include "runtime/brrr_runtime.h"

#include <array>
#include <atomic>
#include <string>
#include <vector>

namespace brrr::runtime {

/// Records `message` as the calling thread's last error; returns `status`.
brrr_status fail(brrr_status status, std::string message);

/// fail() for a failed driver call: "<what>: CUDA_ERROR_...: <text>".
brrr_status cudaFail(const CudaDriver &cuda, CUresult r,
                     const std::string &what);

/// Checks a driver call; `what` (any string expression) is only built on
/// failure, which keeps the hot path free of allocations.
#define BRRR_CU(cuda, call, what)                                              \
  do {                                                                         \
    CUresult brrrCuResult = (call);                                            \
    if (brrrCuResult != CUDA_SUCCESS)                                          \
      return ::brrr::runtime::cudaFail(cuda, brrrCuResult, what);              \
  } while (0)

/// "1.5 GiB" for messages about memory.
std::string formatBytes(uint64_t bytes);

/// Makes a context current for the scope of a call and puts back the
/// caller's afterwards, so the runtime can share a thread with code that uses
/// another context. Costs one cuCtxGetCurrent when ours is already current.
class CurrentContext {
public:
  CurrentContext(const CudaDriver &cuda, CUcontext ctx);
  ~CurrentContext();
  CurrentContext(const CurrentContext &) = delete;
  CurrentContext &operator=(const CurrentContext &) = delete;
  CUresult result = CUDA_SUCCESS;

private:
  const CudaDriver &cuda;
  CUcontext previous = nullptr;
  bool switched = false;
};

} // namespace brrr::runtime

struct brrr_model {
  /// One for the caller's handle and one per live context, so that closing a
  /// model under its contexts defers the teardown instead of crashing.
  std::atomic<int> refs{1};
  brrr::artifact::Artifact art;
  std::vector<brrr_tensor_info> inputs, outputs;
  /// What `inputs` and `outputs` point their dims at: the artifact's, with
  /// -1 where a dimension is symbolic (their size_bytes is the largest).
  std::vector<std::vector<int64_t>> signatureDims;
  /// Per input, per dimension: the symbol it binds, or -1 where it is fixed.
  std::vector<std::vector<int32_t>> inputSymbols;
  std::vector<brrr_launch_info> launches;
  uint64_t weightBytes = 0; ///< the weights are dropped once uploaded

  int device = -1; ///< -1: inspection only
  const brrr::runtime::CudaDriver *cuda = nullptr;
  CUdevice dev = 0;
  /// The device's multiprocessors: a launch that is programmatic in one
  /// wave (artifact::Programmatic::inOneWave) is so where its grid and the
  /// one before it each have at most this many blocks.
  int multiprocessors = 0;
  CUcontext ctx = nullptr; ///< the device's retained primary context
  CUmodule module = nullptr;
  std::vector<CUfunction> functions; ///< by kernel index
  CUdeviceptr weights = 0;
  /// While the model opens: the file its weights are read from (see
  /// artifact::ApartWeights::fd), or -1.
  int weightsFile = -1;
  uint64_t weightsFileOffset = 0;

  ~brrr_model();
};

struct brrr_context {
  brrr_model *model = nullptr;
  const brrr::runtime::CudaDriver *cuda = nullptr;
  CUdeviceptr arena = 0;
  /// Internal stream: graph capture and brrr_run_host.
  CUstream stream = nullptr;

  /// Kernel parameters and copy endpoints, resolved once: `values` holds one
  /// device address per launch argument and two per copy (source,
  /// destination, from copyBase), `maps` the launches' tensor maps, and
  /// launch i's parameters, as cuLaunchKernel wants them, start at
  /// `params[firstParam[i]]`: pointers to its maps, then to its values.
  /// Addresses in the caller's buffers are rewritten on each run through
  /// `patches`, and maps over them re-encoded through `mapPatches`.
  std::vector<CUdeviceptr> values;
  std::vector<void *> params;
  std::vector<size_t> firstParam;
  size_t copyBase = 0;
  struct Patch {
    size_t slot;
    bool output;
    uint32_t buffer;
    uint64_t offset;
  };
  std::vector<Patch> patches;

  /// Launch i's maps start at maps[firstMap[i]]. Sized once, before
  /// `params` points into it (TensorMaps.h).
  std::vector<CUtensorMap> maps;
  std::vector<size_t> firstMap;
  struct MapPatch {
    uint32_t launch, index; ///< launch `launch`'s map `index`
    bool output;
    uint32_t buffer;
    uint64_t offset;        ///< of the map's element 0 in the buffer
    CUdeviceptr encodedFor; ///< the address last encoded, 0 for none
  };
  std::vector<MapPatch> mapPatches;

  /// The caller's buffers brrr_run last checked (checkDeviceBuffers).
  std::vector<const void *> checkedInputs;
  std::vector<void *> checkedOutputs;

  /// Symbolic shapes (Shapes.cpp). `inputShapes`: what the caller set per
  /// input (empty until set); `symbols`: the values they bind, current
  /// while `symbolsBound`; `exprValues`: every expression at those values,
  /// current (with `grids` and the scalar slots) while `planBound`. A
  /// replay of a cached shape's graph needs the symbols only.
  /// A symbolic launch's grid is `grids[launch]`; its scalar parameters live
  /// in `values` at the slots of `scalarSlots`.
  std::vector<std::vector<int64_t>> inputShapes;
  bool symbolsBound = false;
  bool planBound = false;
  std::vector<int64_t> symbols;
  std::vector<int64_t> exprValues;
  std::vector<std::array<uint32_t, 3>> grids;
  struct ScalarSlot {
    size_t slot;
    uint32_t expr;
  };
  std::vector<ScalarSlot> scalarSlots;

  /// Captured graphs, one per shape (the symbols' values; one entry for a
  /// fixed-shape model), each with the buffers it was captured with; at
  /// most `graphCapacity`, the least recently run evicted first.
  bool graphsEnabled = true;
  struct Graph {
    std::vector<int64_t> symbols;
    CUgraphExec exec = nullptr;
    std::vector<const void *> inputs;
    std::vector<void *> outputs;
    uint64_t lastRun = 0;
  };
  std::vector<Graph> graphs;
  size_t graphCapacity = 8;
  uint64_t runs = 0;

  /// brrr_run_host's device copies of the caller's buffers (one
  /// allocation), made on first use.
  CUdeviceptr staging = 0;
  std::vector<const void *> stagingInputs;
  std::vector<void *> stagingOutputs;

  /// brrr_profile's events, one between each pair of steps.
  std::vector<CUevent> events;

  /// The record index-checking kernels write their first bad index to
  /// (`Launch::errorRecord`): pinned host memory mapped into the device, so
  /// that reading it costs the host a load and no driver call. Null when no
  /// kernel of the model checks.
  brrr::artifact::ErrorRecord *record = nullptr;
  CUdeviceptr recordDevice = 0;

  ~brrr_context();
};

namespace brrr::runtime {

/// Opens the image at `data`; `apart`: its weights, where the image says
/// they are stored apart (see artifact::deserialize).
brrr_status openModel(const void *data, size_t size, int device,
                      brrr_model **out,
                      const artifact::ApartWeights *apart = nullptr);

/// openModel for the image embedded in this library; an image whose weights
/// are stored apart finds them appended to the library's file (the one it
/// was loaded from), checks them against the image and maps them for the
/// open.
brrr_status openEmbedded(const uint8_t *image, size_t size, int device,
                         brrr_model **out);
void releaseModel(brrr_model *model);

/// brrr_run's and brrr_profile's (`fn`) check of the caller's buffers: one
/// that is not 16-byte
/// aligned, or that CUDA does not know (a host pointer given where device
/// memory belongs), is an invalid argument naming it, instead of a kernel
/// fault that would poison the CUDA context. Only buffers that changed
/// since the last call are checked; without cuPointerGetAttribute only
/// their alignment is.
brrr_status checkDeviceBuffers(brrr_context *c, const void *const *inputs,
                               void *const *outputs, const char *fn);

brrr_status createContext(brrr_model *model, brrr_context **out);
brrr_status setCudaGraphs(brrr_context *ctx, bool enabled);
brrr_status run(brrr_context *ctx, const void *const *inputs,
                void *const *outputs, CUstream stream);
brrr_status runHost(brrr_context *ctx, const void *const *inputs,
                    void *const *outputs);
brrr_status profile(brrr_context *ctx, const void *const *inputs,
                    void *const *outputs, double *launchMs);

/// Symbolic shapes (Shapes.cpp).
/// Records input `index`'s shape for the context's next runs after checking
/// it against the model: rank, fixed dimensions, symbols' ranges.
brrr_status setInputShape(brrr_context *ctx, int32_t index, const int64_t *dims,
                          int32_t rank);
/// Binds the symbols from the inputs' shapes (checking that inputs sharing
/// one agree), unless they are current; a no-op for a fixed-shape model.
/// `fn` prefixes messages.
brrr_status bindSymbols(brrr_context &ctx, const char *fn);
/// bindSymbols, then evaluates the plan's extents, grids and scalar
/// parameters at the symbols, unless they are current.
brrr_status bindShapes(brrr_context &ctx, const char *fn);
/// Tensor `t`'s dims and bytes at the bound shapes (bindShapes first).
uint64_t tensorBytes(const brrr_context &ctx, uint32_t t);
void tensorDims(const brrr_context &ctx, uint32_t t, int64_t *dims);
brrr_status setGraphCache(brrr_context *ctx, size_t capacity);

/// Reports (BRRR_ERROR_INVALID_INPUT, message prefixed by `fn`) and clears
/// an out-of-range index a kernel recorded; BRRR_OK when none is. `earlier`:
/// the index was read by a run before the current call, which does nothing.
brrr_status takeIndexError(brrr_context *ctx, const char *fn, bool earlier);

} // namespace brrr::runtime

#endif // BRRR_RUNTIME_RUNTIME_H
