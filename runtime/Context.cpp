//===- Context.cpp - run a model's plan, through CUDA graphs --------------===//
//
// A context owns what one stream of work needs: the intermediate arena, the
// resolved kernel parameters and tensor maps, the captured CUDA graph,
// staging buffers for host runs and profiling events. The per-run path
// allocates nothing: kernel parameters are resolved once when the context is
// created and only the addresses of the caller's buffers (and the tensor
// maps over them) are rewritten on each run, and a run with the same buffers
// as the captured graph is a single cuGraphLaunch. A model with symbolic
// shapes keeps one graph per shape (Shapes.cpp binds them), up to a
// capacity the caller sets, evicting the least recently run.
//
// Graphs are captured on the context's own stream and launched on the
// caller's: capturing the caller's stream would fail on the legacy default
// stream (NULL) and could interleave with the caller's own work. When the
// caller's stream is itself being captured (e.g. inside torch.cuda.graph),
// the steps are enqueued directly so that they land in the caller's graph.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"
#include "runtime/TensorMaps.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

namespace brrr::runtime {
namespace {

using artifact::Artifact;
using artifact::Step;
using artifact::Storage;

constexpr uint64_t kAlign = 256;
/// The alignment brrr_run requires of the caller's buffers.
constexpr uintptr_t kBufferAlignment = 16;

uint64_t alignUp(uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

/// Allocates device memory; out-of-memory errors say how much was asked for
/// and how much the card has free.
brrr_status allocate(const CudaDriver &cu, CUdeviceptr &ptr, uint64_t bytes,
                     const std::string &what) {
  CUresult r = cu.cuMemAlloc_v2(&ptr, bytes);
  if (r == CUDA_SUCCESS)
    return BRRR_OK;
  ptr = 0;
  size_t freeBytes = 0, total = 0;
  std::string avail;
  if (cu.cuMemGetInfo_v2(&freeBytes, &total) == CUDA_SUCCESS)
    avail =
        " (" + formatBytes(freeBytes) + " free of " + formatBytes(total) + ")";
  return cudaFail(cu, r,
                  "allocating " + formatBytes(bytes) + " for " + what + avail);
}

/// Resolves every launch argument and copy endpoint to a device address, or
/// to a patch applied per run for tensors in the caller's buffers, and lays
/// out each launch's parameters: its tensor maps, then its addresses.
void resolve(brrr_context &c) {
  const Artifact &a = c.model->art;
  auto add = [&](uint32_t tensor) {
    const artifact::Tensor &t = a.tensors[tensor];
    size_t slot = c.values.size();
    switch (t.storage) {
    case Storage::Input:
    case Storage::Output:
      c.values.push_back(0);
      c.patches.push_back(
          {slot, t.storage == Storage::Output, uint32_t(t.index), t.offset});
      break;
    case Storage::Weight:
      c.values.push_back(c.model->weights + t.offset);
      break;
    case Storage::Arena:
      c.values.push_back(c.arena + t.offset);
      break;
    }
  };
  for (const artifact::Launch &l : a.launches) {
    for (uint32_t arg : l.args)
      add(arg);
    // Filled by bindShapes() at each shape.
    for (uint32_t e : l.scalars) {
      c.scalarSlots.push_back({c.values.size(), e});
      c.values.push_back(0);
    }
    if (l.errorRecord)
      c.values.push_back(c.recordDevice);
  }
  c.copyBase = c.values.size();
  for (const artifact::Copy &cp : a.copies) {
    add(cp.src);
    add(cp.dst);
  }
  resolveTensorMaps(c);
  // Filled after `values` and `maps` stop growing, so the pointers stay
  // valid.
  size_t value = 0;
  for (size_t i = 0; i < a.launches.size(); ++i) {
    const artifact::Launch &l = a.launches[i];
    c.firstParam.push_back(c.params.size());
    for (size_t k = 0; k < l.maps.size(); ++k)
      c.params.push_back(&c.maps[c.firstMap[i] + k]);
    for (size_t k = 0;
         k < l.args.size() + l.scalars.size() + (l.errorRecord ? 1 : 0); ++k)
      c.params.push_back(&c.values[value++]);
  }
}

/// Points the plan at the caller's buffers.
brrr_status bind(brrr_context &c, const void *const *inputs,
                 void *const *outputs) {
  for (const brrr_context::Patch &p : c.patches) {
    const void *base = p.output ? outputs[p.buffer] : inputs[p.buffer];
    c.values[p.slot] = CUdeviceptr(uintptr_t(base)) + p.offset;
  }
  return bindTensorMaps(c, inputs, outputs);
}

/// Launch `i`'s grid at the bound shapes.
const uint32_t *gridOf(const brrr_context &c, size_t i) {
  return c.grids.empty() ? c.model->art.launches[i].grid : c.grids[i].data();
}

std::string stepLabel(const brrr_context &c, size_t step) {
  const Artifact &a = c.model->art;
  const Step &s = a.steps[step];
  if (s.kind == Step::Kind::Copy)
    return "copy " + std::to_string(s.index) + " (step " +
           std::to_string(step) + ")";
  const artifact::Launch &l = a.launches[s.index];
  const uint32_t *grid = gridOf(c, s.index);
  return "launching kernel '" + a.kernels[l.kernel].name + "' (step " +
         std::to_string(step) + ", grid " + std::to_string(grid[0]) + "x" +
         std::to_string(grid[1]) + "x" + std::to_string(grid[2]) + ", block " +
         std::to_string(l.block[0]) + "x" + std::to_string(l.block[1]) + "x" +
         std::to_string(l.block[2]) + ")";
}

/// Blocks of a grid.
uint64_t blocksOf(const uint32_t *grid) {
  return uint64_t(grid[0]) * grid[1] * grid[2];
}

/// Enqueues step `i` of the plan on `stream`. A programmatic launch
/// (`Launch::programmatic`) goes through cuLaunchKernelEx as a
/// programmatic dependent of the kernel before it in the stream, unless
/// `overlap` is off or the driver lacks that entry point: the kernel waits
/// for that grid's results itself, so either way it computes the same. One
/// programmatic in one wave is so where its grid and `previousBlocks`, the
/// blocks of the grid launched before it (0: none), are each at most the
/// device's multiprocessors; one programmatic where it fits, where it
/// follows a grid and the two together are at most the multiprocessors.
brrr_status enqueueStep(brrr_context &c, size_t i, CUstream stream,
                        bool overlap = true, uint64_t previousBlocks = 0) {
  const Artifact &a = c.model->art;
  const CudaDriver &cu = *c.cuda;
  const Step &s = a.steps[i];
  if (s.kind == Step::Kind::Launch) {
    const artifact::Launch &l = a.launches[s.index];
    const uint32_t *grid = gridOf(c, s.index);
    // A symbolic launch with nothing to do at these shapes.
    if (!grid[0] || !grid[1] || !grid[2])
      return BRRR_OK;
    void **params =
        l.args.empty() && l.maps.empty() && l.scalars.empty() && !l.errorRecord
            ? nullptr
            : &c.params[c.firstParam[s.index]];
    CUfunction f = c.model->functions[l.kernel];
    uint64_t wave = uint64_t(std::max(c.model->multiprocessors, 0));
    bool programmatic = false;
    switch (l.programmatic) {
    case artifact::Programmatic::never:
      break;
    case artifact::Programmatic::always:
      programmatic = true;
      break;
    case artifact::Programmatic::inOneWave:
      programmatic = blocksOf(grid) <= wave && previousBlocks <= wave;
      break;
    case artifact::Programmatic::fitting:
      programmatic = previousBlocks && blocksOf(grid) + previousBlocks <= wave;
      break;
    }
    if (programmatic && overlap && cu.cuLaunchKernelEx) {
      CUlaunchAttribute attribute{};
      attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
      attribute.value.programmaticStreamSerializationAllowed = 1;
      CUlaunchConfig config{};
      config.gridDimX = grid[0];
      config.gridDimY = grid[1];
      config.gridDimZ = grid[2];
      config.blockDimX = l.block[0];
      config.blockDimY = l.block[1];
      config.blockDimZ = l.block[2];
      config.sharedMemBytes = l.sharedBytes;
      config.hStream = stream;
      config.attrs = &attribute;
      config.numAttrs = 1;
      BRRR_CU(cu, cu.cuLaunchKernelEx(&config, f, params, nullptr),
              stepLabel(c, i));
      return BRRR_OK;
    }
    BRRR_CU(cu,
            cu.cuLaunchKernel(f, grid[0], grid[1], grid[2], l.block[0],
                              l.block[1], l.block[2], l.sharedBytes, stream,
                              params, nullptr),
            stepLabel(c, i));
    return BRRR_OK;
  }
  uint64_t bytes = tensorBytes(c, a.copies[s.index].dst);
  if (!bytes)
    return BRRR_OK;
  size_t slot = c.copyBase + 2 * size_t(s.index);
  BRRR_CU(cu,
          cu.cuMemcpyDtoDAsync_v2(c.values[slot + 1], c.values[slot], bytes,
                                  stream),
          stepLabel(c, i));
  return BRRR_OK;
}

brrr_status enqueuePlan(brrr_context &c, CUstream stream) {
  const Artifact &a = c.model->art;
  uint64_t previousBlocks = 0;
  for (size_t i = 0; i < a.steps.size(); ++i) {
    if (brrr_status s = enqueueStep(c, i, stream, true, previousBlocks))
      return s;
    if (a.steps[i].kind == Step::Kind::Launch)
      if (uint64_t blocks = blocksOf(gridOf(c, a.steps[i].index)))
        previousBlocks = blocks;
  }
  return BRRR_OK;
}

bool sameBuffers(const brrr_context::Graph &g, const void *const *inputs,
                 void *const *outputs) {
  for (size_t i = 0; i < g.inputs.size(); ++i)
    if (g.inputs[i] != inputs[i])
      return false;
  for (size_t i = 0; i < g.outputs.size(); ++i)
    if (g.outputs[i] != outputs[i])
      return false;
  return true;
}

void dropGraph(brrr_context &c, brrr_context::Graph &g) {
  if (g.exec)
    c.cuda->cuGraphExecDestroy(g.exec);
  g.exec = nullptr;
}

/// The cached graph of the bound shapes, or a new empty entry for them (in
/// place of the least recently run when the cache is full).
brrr_context::Graph &graphFor(brrr_context &c) {
  for (brrr_context::Graph &g : c.graphs)
    if (g.symbols == c.symbols)
      return g;
  brrr_context::Graph *slot = nullptr;
  if (c.graphs.size() < c.graphCapacity) {
    c.graphs.emplace_back();
    slot = &c.graphs.back();
  } else {
    slot = &c.graphs.front();
    for (brrr_context::Graph &g : c.graphs)
      if (g.lastRun < slot->lastRun)
        slot = &g;
    dropGraph(c, *slot);
  }
  slot->symbols = c.symbols;
  slot->inputs.assign(c.model->inputs.size(), nullptr);
  slot->outputs.assign(c.model->outputs.size(), nullptr);
  return *slot;
}

/// Captures the plan, bound to the current buffers and shapes, on the
/// context's stream and makes `g.exec` run it: updated in place when the
/// driver can, else instantiated anew.
brrr_status capture(brrr_context &c, brrr_context::Graph &g) {
  const CudaDriver &cu = *c.cuda;
  BRRR_CU(
      cu,
      cu.cuStreamBeginCapture_v2(c.stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
      "beginning the CUDA graph capture of the model's plan");
  brrr_status planStatus = enqueuePlan(c, c.stream);
  CUgraph graph = nullptr;
  // Ended even when enqueueing failed, so the stream leaves capture mode.
  CUresult r = cu.cuStreamEndCapture(c.stream, &graph);
  std::unique_ptr<CUgraph_st, decltype(cu.cuGraphDestroy)> owner(
      graph, cu.cuGraphDestroy);
  if (planStatus)
    return planStatus;
  BRRR_CU(cu, r, "ending the CUDA graph capture of the model's plan");

  if (g.exec && cu.cuGraphExecUpdate_v2) {
    CUgraphExecUpdateResultInfo info{};
    if (cu.cuGraphExecUpdate_v2(g.exec, graph, &info) == CUDA_SUCCESS)
      return BRRR_OK;
  }
  dropGraph(c, g);
  BRRR_CU(cu, cu.cuGraphInstantiateWithFlags(&g.exec, graph, 0),
          "instantiating the CUDA graph of the model's plan");
  return BRRR_OK;
}

brrr_status runGraph(brrr_context &c, const void *const *inputs,
                     void *const *outputs, CUstream stream) {
  const CudaDriver &cu = *c.cuda;
  brrr_context::Graph &g = graphFor(c);
  g.lastRun = ++c.runs;
  if (!g.exec || !sameBuffers(g, inputs, outputs)) {
    // The capture copies the parameters, re-encoded maps included, and the
    // grids and scalars of the shape.
    if (brrr_status s = bindShapes(c, "brrr_run"))
      return s;
    if (brrr_status s = bind(c, inputs, outputs))
      return s;
    if (brrr_status s = capture(c, g)) {
      dropGraph(c, g);
      return s;
    }
    for (size_t i = 0; i < g.inputs.size(); ++i)
      g.inputs[i] = inputs[i];
    for (size_t i = 0; i < g.outputs.size(); ++i)
      g.outputs[i] = outputs[i];
  }
  BRRR_CU(cu, cu.cuGraphLaunch(g.exec, stream),
          "launching the CUDA graph of the model's plan");
  return BRRR_OK;
}

} // namespace

brrr_status createContext(brrr_model *model, brrr_context **out) {
  auto c = std::make_unique<brrr_context>();
  const CudaDriver &cu = *model->cuda;
  const Artifact &a = model->art;
  CurrentContext current(cu, model->ctx);
  BRRR_CU(cu, current.result, "making the model's CUDA context current");
  // Owned from here: the destructor releases the reference and whatever was
  // allocated.
  model->refs.fetch_add(1);
  c->model = model;
  c->cuda = model->cuda;
  if (a.arenaBytes) {
    if (brrr_status s = allocate(cu, c->arena, a.arenaBytes,
                                 "the model's intermediate arena on device " +
                                     std::to_string(model->device)))
      return s;
    // Zeroed once: a stream-K kernel's flags (brrr.workspace) start at zero
    // and every launch leaves them so.
    BRRR_CU(cu, cu.cuMemsetD8_v2(c->arena, 0, a.arenaBytes),
            "zeroing the model's intermediate arena");
  }
  BRRR_CU(cu, cu.cuStreamCreate(&c->stream, CU_STREAM_NON_BLOCKING),
          "creating the context's stream");
  bool checks = false;
  for (const artifact::Launch &l : a.launches)
    checks |= l.errorRecord;
  if (checks) {
    void *host = nullptr;
    BRRR_CU(cu,
            cu.cuMemHostAlloc(&host, sizeof(artifact::ErrorRecord),
                              CU_MEMHOSTALLOC_DEVICEMAP),
            "allocating the context's error record in pinned host memory");
    c->record = static_cast<artifact::ErrorRecord *>(host);
    std::memset(host, 0, sizeof(artifact::ErrorRecord));
    BRRR_CU(cu, cu.cuMemHostGetDevicePointer_v2(&c->recordDevice, host, 0),
            "mapping the context's error record into the device");
  }
  resolve(*c);
  if (brrr_status s = encodeFixedTensorMaps(*c))
    return s;
  c->inputShapes.resize(a.inputs.size());
  c->checkedInputs.assign(a.inputs.size(), nullptr);
  c->checkedOutputs.assign(a.outputs.size(), nullptr);
  c->stagingInputs.assign(a.inputs.size(), nullptr);
  c->stagingOutputs.assign(a.outputs.size(), nullptr);
  *out = c.release();
  return BRRR_OK;
}

brrr_status setCudaGraphs(brrr_context *c, bool enabled) {
  c->graphsEnabled = enabled;
  if (!enabled && !c->graphs.empty()) {
    CurrentContext current(*c->cuda, c->model->ctx);
    for (brrr_context::Graph &g : c->graphs)
      dropGraph(*c, g);
    c->graphs.clear();
  }
  return BRRR_OK;
}

brrr_status run(brrr_context *c, const void *const *inputs,
                void *const *outputs, CUstream stream) {
  const CudaDriver &cu = *c->cuda;
  CurrentContext current(cu, c->model->ctx);
  BRRR_CU(cu, current.result, "making the model's CUDA context current");
  // A replay of a cached shape's graph needs only the symbols; anything
  // else evaluates the plan at them too.
  if (brrr_status s = bindSymbols(*c, "brrr_run"))
    return s;
  if (c->model->art.steps.empty())
    return BRRR_OK;
  if (c->graphsEnabled) {
    CUstreamCaptureStatus capturing = CU_STREAM_CAPTURE_STATUS_NONE;
    // A query that fails is treated as "not capturing": the launch that
    // follows reports the stream's real problem.
    if (cu.cuStreamIsCapturing(stream, &capturing) != CUDA_SUCCESS ||
        capturing == CU_STREAM_CAPTURE_STATUS_NONE)
      return runGraph(*c, inputs, outputs, stream);
  }
  if (brrr_status s = bindShapes(*c, "brrr_run"))
    return s;
  if (brrr_status s = bind(*c, inputs, outputs))
    return s;
  return enqueuePlan(*c, stream);
}

brrr_status checkDeviceBuffers(brrr_context *c, const void *const *inputs,
                               void *const *outputs, const char *fn) {
  const CudaDriver &cu = *c->cuda;
  const brrr_model &m = *c->model;
  // Replays with the buffers of the last run (the common case) touch no
  // driver state at all.
  bool changed = false;
  for (size_t i = 0; i < m.inputs.size(); ++i)
    changed |= inputs[i] != c->checkedInputs[i];
  for (size_t i = 0; i < m.outputs.size(); ++i)
    changed |= outputs[i] != c->checkedOutputs[i];
  if (!changed)
    return BRRR_OK;
  // Kernels read and write buffers in 16-byte vectors, and TMA maps over a
  // buffer start on 16 bytes: a misaligned buffer would fault the kernel.
  auto aligned = [&](const void *p, const brrr_tensor_info &t, const char *kind,
                     size_t i) -> brrr_status {
    if (!t.size_bytes || uintptr_t(p) % kBufferAlignment == 0)
      return BRRR_OK;
    char address[32];
    std::snprintf(address, sizeof(address), "%p", p);
    return fail(BRRR_ERROR_INVALID_ARGUMENT,
                std::string(fn) + ": " + kind + " " + std::to_string(i) +
                    " ('" + t.name + "') at " + address + " is not " +
                    std::to_string(kBufferAlignment) +
                    "-byte aligned; brrr's kernels access buffers in " +
                    std::to_string(kBufferAlignment) + "-byte vectors");
  };
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (inputs[i] != c->checkedInputs[i])
      if (brrr_status s = aligned(inputs[i], m.inputs[i], "input", i))
        return s;
  for (size_t i = 0; i < m.outputs.size(); ++i)
    if (outputs[i] != c->checkedOutputs[i])
      if (brrr_status s = aligned(outputs[i], m.outputs[i], "output", i))
        return s;
  if (!cu.cuPointerGetAttribute)
    return BRRR_OK;
  CurrentContext current(cu, m.ctx);
  BRRR_CU(cu, current.result, "making the model's CUDA context current");
  auto check = [&](const void *p, const brrr_tensor_info &t, const char *kind,
                   size_t i) -> brrr_status {
    unsigned type = 0;
    // CUDA_ERROR_INVALID_VALUE: an address CUDA has never heard of. Any
    // other answer (device, pinned or managed memory; a driver that cannot
    // tell) lets the buffer through. A null one is a tensor empty at these
    // shapes (checkRun), which nothing reads or writes.
    if (!t.size_bytes || !p ||
        cu.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 CUdeviceptr(uintptr_t(p))) !=
            CUDA_ERROR_INVALID_VALUE)
      return BRRR_OK;
    char address[32];
    std::snprintf(address, sizeof(address), "%p", p);
    return fail(BRRR_ERROR_INVALID_ARGUMENT,
                std::string(fn) + ": " + kind + " " + std::to_string(i) +
                    " ('" + t.name + "') at " + address +
                    " is not memory CUDA knows; " + fn +
                    " takes device "
                    "pointers (brrr_run_host takes host buffers)");
  };
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (inputs[i] != c->checkedInputs[i]) {
      if (brrr_status s = check(inputs[i], m.inputs[i], "input", i))
        return s;
      c->checkedInputs[i] = inputs[i];
    }
  for (size_t i = 0; i < m.outputs.size(); ++i)
    if (outputs[i] != c->checkedOutputs[i]) {
      if (brrr_status s = check(outputs[i], m.outputs[i], "output", i))
        return s;
      c->checkedOutputs[i] = outputs[i];
    }
  return BRRR_OK;
}

brrr_status runHost(brrr_context *c, const void *const *inputs,
                    void *const *outputs) {
  const CudaDriver &cu = *c->cuda;
  const brrr_model &m = *c->model;
  CurrentContext current(cu, m.ctx);
  BRRR_CU(cu, current.result, "making the model's CUDA context current");
  if (!c->staging) {
    uint64_t total = 0;
    for (const brrr_tensor_info &t : m.inputs)
      total += alignUp(t.size_bytes);
    for (const brrr_tensor_info &t : m.outputs)
      total += alignUp(t.size_bytes);
    if (total)
      if (brrr_status s = allocate(cu, c->staging, total,
                                   "brrr_run_host's staging buffers"))
        return s;
    uint64_t at = c->staging;
    for (size_t i = 0; i < m.inputs.size(); ++i) {
      c->stagingInputs[i] = reinterpret_cast<const void *>(uintptr_t(at));
      at += alignUp(m.inputs[i].size_bytes);
    }
    for (size_t i = 0; i < m.outputs.size(); ++i) {
      c->stagingOutputs[i] = reinterpret_cast<void *>(uintptr_t(at));
      at += alignUp(m.outputs[i].size_bytes);
    }
  }
  if (brrr_status s = bindShapes(*c, "brrr_run_host"))
    return s;
  const Artifact &a = m.art;
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (uint64_t bytes = tensorBytes(*c, a.inputs[i]))
      BRRR_CU(
          cu,
          cu.cuMemcpyHtoDAsync_v2(CUdeviceptr(uintptr_t(c->stagingInputs[i])),
                                  inputs[i], bytes, c->stream),
          "copying input '" + std::string(m.inputs[i].name) +
              "' to the device");
  if (brrr_status s =
          run(c, c->stagingInputs.data(), c->stagingOutputs.data(), c->stream))
    return s;
  for (size_t i = 0; i < m.outputs.size(); ++i)
    if (uint64_t bytes = tensorBytes(*c, a.outputs[i]))
      BRRR_CU(cu,
              cu.cuMemcpyDtoHAsync_v2(
                  outputs[i], CUdeviceptr(uintptr_t(c->stagingOutputs[i])),
                  bytes, c->stream),
              "copying output '" + std::string(m.outputs[i].name) +
                  "' to the host");
  BRRR_CU(cu, cu.cuStreamSynchronize(c->stream),
          "running the model (brrr_run_host)");
  return BRRR_OK;
}

brrr_status takeIndexError(brrr_context *c, const char *fn, bool earlier) {
  artifact::ErrorRecord *r = c->record;
  if (!r ||
      __atomic_load_n(&r->state, __ATOMIC_ACQUIRE) != artifact::kRecordWritten)
    return BRRR_OK;
  uint32_t check = r->check, axis = r->axis;
  int64_t value = r->value, extent = r->extent;
  r->check = r->axis = 0;
  r->value = r->extent = 0;
  __atomic_store_n(&r->state, artifact::kRecordClear, __ATOMIC_RELEASE);

  const std::vector<artifact::IndexCheck> &checks = c->model->art.checks;
  std::string where =
      check < checks.size()
          ? "node '" + checks[check].node + "': " + checks[check].op
          : "index check " + std::to_string(check) +
                " (not in the model's table of " +
                std::to_string(checks.size()) + "):";
  std::string range = extent > 0
                          ? "valid indices are " + std::to_string(-extent) +
                                " to " + std::to_string(extent - 1)
                          : "the dimension is empty";
  std::string message = std::string(fn) + ": ";
  if (earlier)
    message += "a run queued earlier on this context read an out-of-range "
               "index, so its outputs are undefined; this call queued "
               "nothing: ";
  message += where + " index " + std::to_string(value) +
             " is out of range for dimension " + std::to_string(axis) +
             " of extent " + std::to_string(extent) + " (" + range + ")";
  return fail(BRRR_ERROR_INVALID_INPUT, std::move(message));
}

brrr_status profile(brrr_context *c, const void *const *inputs,
                    void *const *outputs, double *launchMs) {
  const CudaDriver &cu = *c->cuda;
  const Artifact &a = c->model->art;
  CurrentContext current(cu, c->model->ctx);
  BRRR_CU(cu, current.result, "making the model's CUDA context current");
  while (c->events.size() < a.steps.size() + 1) {
    CUevent e;
    BRRR_CU(cu, cu.cuEventCreate(&e, CU_EVENT_DEFAULT),
            "creating profiling events");
    c->events.push_back(e);
  }
  // The legacy default stream orders the profile after the caller's work on
  // any blocking stream, since the caller names none.
  CUstream stream = nullptr;
  if (brrr_status s = bindShapes(*c, "brrr_profile"))
    return s;
  if (brrr_status s = bind(*c, inputs, outputs))
    return s;
  BRRR_CU(cu, cu.cuEventRecord(c->events[0], stream), "recording an event");
  // Each launch is timed alone: none overlaps the one before.
  for (size_t i = 0; i < a.steps.size(); ++i) {
    if (brrr_status s = enqueueStep(*c, i, stream, /*overlap=*/false))
      return s;
    BRRR_CU(cu, cu.cuEventRecord(c->events[i + 1], stream),
            "recording an event");
  }
  BRRR_CU(cu, cu.cuEventSynchronize(c->events[a.steps.size()]),
          "running the model (brrr_profile)");
  for (size_t i = 0; i < a.launches.size(); ++i)
    launchMs[i] = 0;
  for (size_t i = 0; i < a.steps.size(); ++i) {
    if (a.steps[i].kind != Step::Kind::Launch)
      continue;
    // A launch with nothing to do at these shapes (a per-range variant
    // outside its range) was not made.
    const uint32_t *grid = gridOf(*c, a.steps[i].index);
    if (!grid[0] || !grid[1] || !grid[2]) {
      launchMs[a.steps[i].index] = -1;
      continue;
    }
    float ms = 0;
    BRRR_CU(cu, cu.cuEventElapsedTime_v2(&ms, c->events[i], c->events[i + 1]),
            "reading the time of " + stepLabel(*c, i));
    launchMs[a.steps[i].index] += ms;
  }
  return BRRR_OK;
}

} // namespace brrr::runtime

brrr_context::~brrr_context() {
  if (!model)
    return;
  {
    brrr::runtime::CurrentContext current(*cuda, model->ctx);
    for (Graph &g : graphs)
      if (g.exec)
        cuda->cuGraphExecDestroy(g.exec);
    for (CUevent e : events)
      cuda->cuEventDestroy_v2(e);
    if (stream) {
      // Work still queued on the context's stream uses its buffers.
      cuda->cuStreamSynchronize(stream);
      cuda->cuStreamDestroy_v2(stream);
    }
    if (staging)
      cuda->cuMemFree_v2(staging);
    if (arena)
      cuda->cuMemFree_v2(arena);
    if (record)
      cuda->cuMemFreeHost(record);
  }
  brrr::runtime::releaseModel(model);
}
