/*===- brrr_runtime.h - C API of a compiled brrr model -------------------===*
 *
 * A `model.so` written by brrrc exports this API. It carries its kernels
 * (cubin plus PTX), launch plan, weights and signature, and needs only libc,
 * libstdc++ and the CUDA driver, which it opens with dlopen at
 * brrr_model_open: a machine without a driver gets an error, not a loader
 * failure.
 *
 * Threading: a model may be shared between threads; a context may not. Use
 * one context per thread or stream. Errors return a status and leave a
 * message for brrr_last_error() on the calling thread.
 *===----------------------------------------------------------------------===*/

#ifndef BRRR_RUNTIME_H
#define BRRR_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BRRR_API_VERSION 3

typedef struct brrr_model brrr_model;
typedef struct brrr_context brrr_context;

typedef enum {
  BRRR_OK = 0,
  BRRR_ERROR_INVALID_ARGUMENT = 1,   /* null pointer, bad index, wrong size */
  BRRR_ERROR_NO_DRIVER = 2,          /* libcuda.so.1 missing or too old */
  BRRR_ERROR_NO_DEVICE = 3,          /* no GPU with that ordinal */
  BRRR_ERROR_UNSUPPORTED_DEVICE = 4, /* the artifact was not built for it */
  BRRR_ERROR_CORRUPT_ARTIFACT = 5,   /* bad magic, version, truncation */
  BRRR_ERROR_OUT_OF_MEMORY = 6,
  BRRR_ERROR_CUDA = 7,          /* any other driver error */
  BRRR_ERROR_INVALID_INPUT = 8, /* a run read an out-of-range index */
  BRRR_ERROR_INVALID_SHAPE = 9  /* a shape the model does not accept
                                   (API version 2) */
} brrr_status;

typedef enum {
  BRRR_DTYPE_F32 = 1,
  BRRR_DTYPE_F16 = 2,
  BRRR_DTYPE_BF16 = 3,
  BRRR_DTYPE_F64 = 4,
  BRRR_DTYPE_I8 = 5,
  BRRR_DTYPE_I16 = 6,
  BRRR_DTYPE_I32 = 7,
  BRRR_DTYPE_I64 = 8,
  BRRR_DTYPE_U8 = 9,
  BRRR_DTYPE_U16 = 10,
  BRRR_DTYPE_U32 = 11,
  BRRR_DTYPE_U64 = 12,
  BRRR_DTYPE_BOOL = 13
} brrr_dtype;

/* A graph input or output. Pointers stay valid while the model is open.
 * In a model compiled with ranges (brrrc --input-shape x=1..64x128), a
 * symbolic dimension is -1 in `dims` and `size_bytes` is the size at the
 * largest shape; brrr_context_output_shape gives a run's actual shape. */
typedef struct {
  const char *name;
  brrr_dtype dtype;
  int32_t rank;
  const int64_t *dims;
  uint64_t size_bytes;
} brrr_tensor_info;

/* BRRR_API_VERSION of the library. */
uint32_t brrr_api_version(void);

/* The last error message of the calling thread ("" if none). */
const char *brrr_last_error(void);

/* Opens the model embedded in this library on GPU `device` (an ordinal):
 * loads the driver, checks the card against the artifact's target, loads
 * the kernels and uploads the weights. `device` = -1 opens it for
 * inspection only, without a driver: the signature and plan queries work,
 * contexts cannot be created. */
brrr_status brrr_model_open(int device, brrr_model **out);

/* Same, for an artifact image in memory (`brrrc --emit=artifact`). */
brrr_status brrr_model_open_artifact(const void *data, size_t size, int device,
                                     brrr_model **out);

/* Validates an artifact image without a GPU; BRRR_OK if it is well formed. */
brrr_status brrr_artifact_check(const void *data, size_t size);

void brrr_model_close(brrr_model *model);

int32_t brrr_model_num_inputs(const brrr_model *model);
int32_t brrr_model_num_outputs(const brrr_model *model);
brrr_status brrr_model_input(const brrr_model *model, int32_t index,
                             brrr_tensor_info *out);
brrr_status brrr_model_output(const brrr_model *model, int32_t index,
                              brrr_tensor_info *out);
/* The target the artifact was compiled for, e.g. "sm_90a". */
const char *brrr_model_target(const brrr_model *model);

/* The launch plan, for profiling and reports. */
typedef struct {
  const char *kernel; /* kernel name */
  uint64_t flops;     /* arithmetic the launch performs */
  uint64_t bytes;     /* fewest bytes it must move through device memory */
} brrr_launch_info;
int32_t brrr_model_num_launches(const brrr_model *model);
brrr_status brrr_model_launch(const brrr_model *model, int32_t index,
                              brrr_launch_info *out);
/* Symbolic dimensions (API version 2). A model compiled with ranges has
 * symbols, each a named dimension with an inclusive range; the same symbol
 * may size several inputs (batch of input_ids and attention_mask). A model
 * compiled for fixed shapes has none. */
typedef struct {
  const char *name;
  int64_t min;
  int64_t max;
} brrr_symbol_info;
int32_t brrr_model_num_symbols(const brrr_model *model);
brrr_status brrr_model_symbol(const brrr_model *model, int32_t index,
                              brrr_symbol_info *out);
/* The symbol that dimension `axis` of input `index` is, or -1 where the
 * dimension is fixed. */
brrr_status brrr_model_input_symbol(const brrr_model *model, int32_t index,
                                    int32_t axis, int32_t *symbol);

/* Bytes of the per-context intermediate arena, planned for the largest
 * shape, and of the weights. */
uint64_t brrr_model_arena_bytes(const brrr_model *model);
uint64_t brrr_model_weight_bytes(const brrr_model *model);

/* An execution context: its own intermediate arena and CUDA graph. */
brrr_status brrr_context_create(brrr_model *model, brrr_context **out);
void brrr_context_destroy(brrr_context *context);
/* CUDA graphs are on by default: the first run captures, later runs
 * replay. Turning them off launches every kernel on every run. */
brrr_status brrr_context_set_cuda_graphs(brrr_context *context, int enabled);

/* Shapes (API version 2). Sets input `index`'s shape for the context's next
 * runs (`rank` entries of `dims`). Fixed dimensions must match; a symbolic
 * one must lie in its symbol's range, and inputs sharing a symbol must
 * agree when the context next runs. A shape the model does not accept is
 * BRRR_ERROR_INVALID_SHAPE with a message naming the input, the dimension
 * and the range, and the context keeps its previous shapes. Inputs with a
 * symbolic dimension must be set before the first run; fixed ones need not
 * be. Setting the shape a context already has costs a comparison. */
brrr_status brrr_context_set_input_shape(brrr_context *context, int32_t index,
                                         const int64_t *dims, int32_t rank);
/* Output `index`'s shape at the context's input shapes: its rank's entries
 * into `dims` and its bytes into `size_bytes` (either may be NULL). */
brrr_status brrr_context_output_shape(brrr_context *context, int32_t index,
                                      int64_t *dims, uint64_t *size_bytes);
/* Launch `index` of the plan at the context's input shapes (API version 3):
 * its kernel, and the work and traffic it does there. A model compiled for
 * fixed shapes gives what brrr_model_launch gives; a model compiled with
 * ranges, the counts at these shapes instead of the largest. */
brrr_status brrr_context_launch(brrr_context *context, int32_t index,
                                brrr_launch_info *out);
/* With CUDA graphs on, the first run at a shape captures a graph and later
 * runs at that shape replay it. A context keeps the graphs of at most
 * `capacity` shapes (8 by default; at least 1), evicting the least recently
 * run. */
brrr_status brrr_context_set_graph_cache(brrr_context *context,
                                         int32_t capacity);

/* Runs on `stream` (a CUstream; NULL is the legacy default stream) with
 * device pointers (16-byte aligned), in input/output order. Returns once the
 * work is queued.
 *
 * Index checks: Gather, GatherElements, GatherND, ScatterElements and
 * ScatterND kernels check their indices (unless compiled with brrrc
 * --unchecked-indices) and record the first one outside [-extent, extent).
 * Such a run's outputs are undefined; memory stays safe. The run that read
 * the index reports it as BRRR_ERROR_INVALID_INPUT, with a message naming the
 * ONNX node, the value and the extent: brrr_run_host and brrr_profile
 * themselves, since they synchronize. brrr_run returns before the kernels
 * run, so after synchronizing its stream call brrr_context_check; otherwise
 * the context's next brrr_run, brrr_run_host or brrr_profile reports it and
 * queues nothing. Reporting clears the error: the context stays usable. */
brrr_status brrr_run(brrr_context *context, const void *const *inputs,
                     void *const *outputs, void *stream);

/* Runs with host buffers: copies in, runs, copies out, synchronizes. The
 * buffers hold the tensors at the context's shapes. */
brrr_status brrr_run_host(brrr_context *context, const void *const *inputs,
                          void *const *outputs);

/* Runs once without graphs, timing every launch with CUDA events; writes
 * brrr_model_num_launches() milliseconds into `launch_ms`, -1 for a launch
 * not made at the bound shapes (a kernel for another range of rows, or
 * one with nothing to do). Synchronizes. */
brrr_status brrr_profile(brrr_context *context, const void *const *inputs,
                         void *const *outputs, double *launch_ms);

/* BRRR_ERROR_INVALID_INPUT if a run on `context` read an out-of-range index
 * (see brrr_run) and that was not yet reported, else BRRR_OK. It does not
 * wait for queued work: synchronize the runs' stream first. Costs a load
 * from host memory. */
brrr_status brrr_context_check(brrr_context *context);

#ifdef __cplusplus
}
#endif

#endif /* BRRR_RUNTIME_H */
