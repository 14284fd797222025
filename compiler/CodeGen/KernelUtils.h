//===- KernelUtils.h - shared pieces of the kernel families -----*- C++ -*-===//
//
// What every kernel family (PointwiseKernel, RowKernel, MovementKernel,
// MatmulKernel) builds the same way: the kernel function with one global
// pointer per buffer, the single op of a one-op fusion, row-major strides.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_KERNELUTILS_H
#define BRRR_COMPILER_CODEGEN_KERNELUTILS_H

#include "dialects/Brrr/BrrrOps.h"
#include "passes/Config/Products.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::brrr {

/// A `gpu.func @name` kernel taking `numByValue` 128-byte parameters passed
/// by value (TMA tensor maps: generic pointers, 64-byte aligned, listed in
/// `brrr.by_value` for NVVMTarget), then `numBuffers` !llvm.ptr<1>
/// arguments, then `numScalars` i64 arguments (extents read at run time,
/// KernelInfo::scalars), then, with `errorRecord`, the !llvm.ptr<1> of the
/// error record (the order the runtime passes them in), launched with
/// `blockSize` threads, at the builder's insertion point.
gpu::GPUFuncOp createKernel(OpBuilder &moduleBuilder, Location loc,
                            StringRef name, unsigned numBuffers,
                            int64_t blockSize, unsigned numByValue = 0,
                            unsigned numScalars = 0, bool errorRecord = false);

/// Argument `i` of kernel entry block `entry`, an i64 extent read at run
/// time (a scalar after the buffers), as an index at `b`'s insertion point.
Value indexArgument(OpBuilder &b, Location loc, Block &entry, unsigned i);

/// The one op of a fusion whose family takes exactly one, or an error.
FailureOr<Operation *> singleOp(FusionOp fusion, StringRef family);

/// Index arithmetic on `index` values, as every kernel family writes it.
struct IndexMath {
  OpBuilder &b;
  Location loc;
  /// The integer type of the arithmetic: index, or i32 where a kernel's
  /// sizes fit (64-bit division by a constant costs several times more).
  Type type = {};
  Value idx(int64_t v);
  Value add(Value x, Value y);
  /// x * c, or x itself when c is 1.
  Value mul(Value x, int64_t c);
  /// x / c (unsigned), or x itself when c is 1.
  Value div(Value x, int64_t c);
  /// x % c (unsigned), or 0 when c is 1.
  Value rem(Value x, int64_t c);
  /// x < c, unsigned.
  Value ult(Value x, int64_t c);
  /// min(max(x, lo), hi), signed.
  Value clamp(Value x, int64_t lo, int64_t hi);
  /// The row-major index of `coords` in a tensor of `shape`.
  Value linear(ArrayRef<Value> coords, ArrayRef<int64_t> shape);
  /// The coordinates of row-major index `linear` (below the element count)
  /// in a tensor of `shape`.
  SmallVector<Value> coordsOf(Value linear, ArrayRef<int64_t> shape);
  /// The row-major index, in a tensor of `inShape`, of the element that
  /// broadcasts (numpy rules, right-aligned) to element `linear` of a
  /// tensor of `outShape` (`linear` past the output wraps into it).
  /// Adjacent dimensions the input keeps (or broadcasts) alike are one
  /// coordinate: a bias along the last dimension is read at `linear`
  /// modulo its length. A caller whose `linear` lies inside the output and
  /// that has its row and column (linear = row * outShape.back() + col)
  /// passes them: the coordinates come from those without dividing
  /// `linear` (a bias is read at `col`, an input of the output's shape at
  /// `linear` itself).
  Value broadcastIndex(Value linear, ArrayRef<int64_t> outShape,
                       ArrayRef<int64_t> inShape, Value row = {},
                       Value col = {});
};

/// IndexMath plus the constants, casts and addresses the staged Tensor Core
/// bodies (the mma.sync matmul tile, attention) build with.
struct StagedMath : IndexMath {
  /// min(x, c), unsigned.
  Value minu(Value x, int64_t c);
  Value i32(int64_t v);
  /// `v` (an index) as i64.
  Value i64(Value v);
  /// base + index elements of `elem` (any address space).
  Value gep(Value base, Type elem, Value index);
  /// Byte offset of stage `s` among `offsets` (a select chain).
  Value stageOffset(ArrayRef<int64_t> offsets, Value s);
  /// One 16-byte cp.async (cached in L2 only) from global `src` to shared
  /// `dst`; when `valid` is false it reads nothing (source size 0) and
  /// leaves zeros, so `src` may be any in-bounds address.
  void copy16(Value dst, Value src, Value valid);
  /// One cp.async of `bytes` (4, 8 or 16; fewer than 16 are cached in L1
  /// and L2, the only way cp.async copies them), zero-filling like copy16.
  void copy(Value dst, Value src, Value valid, int64_t bytes);
  /// The head of iteration `kt` of a cp.async pipeline over `stages`
  /// buffers: waits until slice kt has landed (at most stages - 2 younger
  /// groups pending) and every thread is done with the buffer the next copy
  /// overwrites, has `load` copy slice kt + stages - 1 into its buffer where
  /// that slice is below `count`, and commits the group. Returns kt's
  /// buffer. With `asyncProxy`, each thread's copies are made visible to
  /// the async proxy (fence.proxy.async) before the barrier: wgmma reads
  /// its operands through it. With a `lead` below stages - 1, slice kt +
  /// lead is copied instead (at most lead - 1 younger groups pending), into
  /// the buffer of slice kt + lead - stages, leaving the buffers of the
  /// slices between to their readers.
  Value pipelineStep(Value kt, int64_t stages, Value count,
                     llvm::function_ref<void(Value buffer, Value slice)> load,
                     bool asyncProxy = false, int64_t lead = 0);
  /// Makes this thread's writes to shared memory (st.shared, cp.async once
  /// waited for) visible to the async proxy that wgmma reads through.
  void fenceAsyncShared();
  /// The four registers of one ldmatrix.x4 of 8x8 16-bit matrices at `ptr`
  /// (each matrix transposed with layout col).
  SmallVector<Value> ldmatrix4(Value ptr, NVVM::MMALayout layout);
  /// A register of two `et` (f16 or bf16) values as mma.sync takes it:
  /// f16 pairs as vector<2xf16>, bf16 pairs as i32.
  Value mmaOperand(Value reg, Type et);
  /// c += a x b by one mma.sync m16n8k16 on `et` operands (A row-major, B
  /// column-major) into four f32 accumulators.
  void mma16816(ArrayRef<Value> a, ArrayRef<Value> bRegs,
                MutableArrayRef<Value> c, Type et);
};

/// acc + a x b by one mma.sync m16n8k`k` on `type` operands (A row-major,
/// B column-major; registers as the PTX fragments hold them) into four f32
/// accumulators.
SmallVector<Value> mmaSync(OpBuilder &b, Location loc, NVVM::MMATypes type,
                           int64_t k, ArrayRef<Value> a, ArrayRef<Value> bRegs,
                           ArrayRef<Value> acc);

/// Synchronizes the blocks of a thread-block cluster: every block's writes
/// to its shared memory before the barrier (release) are visible to the
/// cluster's reads after it (acquire).
void clusterBarrier(OpBuilder &b, Location loc);

/// The sum, in block order, of the `type` values at shared address `local`
/// in each of the first `blocks` blocks of the cluster (mapa into each
/// block's shared memory), loaded with `alignment`.
Value sumOverCluster(OpBuilder &b, Location loc, Value local, Type type,
                     int64_t blocks, unsigned alignment);

/// Elements `index` .. `index` + `width` - 1 of `elem` in global buffer
/// `base`, in compute type: one load, a vector load aligned to its size (at
/// most 16 bytes) when `width` > 1. `index` is an index or an unsigned
/// integer.
SmallVector<Value> loadElements(OpBuilder &b, Location loc, Value base,
                                Type elem, Value index, int64_t width = 1);

/// The kernel pointer of fusion block argument `v` in the kernel whose
/// entry block is `entry` (inputs first, in order).
Value kernelArgument(Block &entry, Value v);

/// Bytes a fusion moves at least: every input read and result written once.
int64_t fusionBytes(FusionOp fusion);

/// Checks the body of a fusion computed around `product` (a matmul, conv or
/// pool): only views the product reads through (transpose, reshape, slice)
/// before it, only its pointwise epilogue (and a transpose its result is
/// stored through) after it.
LogicalResult checkProductFusion(FusionOp fusion, Operation *product);

/// The element offset of batch `z` (row-major over `batch`, the output's
/// batch shape) in a matmul operand laid out as `layout`: batch coordinates
/// are right-aligned, size-1 dimensions broadcast.
Value batchOffset(IndexMath &e, const OperandLayout &layout,
                  ArrayRef<int64_t> batch, Value z);

/// The fusion's pointwise ops after `producer` on the scalars of one
/// element (`produced`, in compute type, at row-major index `at` of the
/// producer's result), into `scalar`, which maps every value computed to
/// its scalar. Inputs are taken from `inputs` when given, else loaded
/// through `arg`. A yielded transpose maps to a null value: it is applied
/// by where the value is stored. A product whose epilogue pairs the halves
/// of its columns (pairedHalvesOf) computes on one element of each half:
/// `produced` of the first, `partner` of the second, `at` the element's
/// row-major index in a half.
LogicalResult computeEpilogue(OpBuilder &b, Location loc, FusionOp fusion,
                              Operation *producer, Value produced, Value at,
                              llvm::function_ref<Value(Value)> arg,
                              const DenseMap<Value, Value> *inputs,
                              DenseMap<Value, Value> &scalar,
                              Value partner = {});

/// The epilogue of a fusion whose `producer` (a matmul, conv or pool) has
/// been computed for one output element: `produced` is its value in compute
/// type, `at` the element's row-major index in the producer's result. Runs
/// the fusion's pointwise ops after the producer on scalars (other
/// inputs read at their broadcast index of `at` through `arg`, which maps a
/// fusion block argument to its kernel pointer) and stores every yielded
/// value to `outputs` at `at` (a yielded transpose: its input's value, at
/// the permuted position).
/// With `inputs` (from loadEpilogueInputs for the same `at`), the fusion
/// inputs are taken from there instead of loaded.
LogicalResult emitEpilogue(OpBuilder &b, Location loc, FusionOp fusion,
                           Operation *producer, Value produced, Value at,
                           llvm::function_ref<Value(Value)> arg,
                           ValueRange outputs,
                           const DenseMap<Value, Value> *inputs = nullptr,
                           Value partner = {});

/// emitEpilogue for the `produced.size()` consecutive elements `at`, `at`
/// + 1, ... of one row of the producer's result (`at` a multiple of their
/// count, which divides the row): inputs that run along the row are read
/// with one vector load, and each yielded value is stored with one vector
/// store (a yielded transpose element by element). With `inputs` (from
/// loadEpilogueInputs for the same `at` and width), the fusion inputs are
/// taken from there instead of loaded. Paired halves (computeEpilogue):
/// `partners` holds the second half's elements.
LogicalResult emitEpilogueVector(OpBuilder &b, Location loc, FusionOp fusion,
                                 Operation *producer, ArrayRef<Value> produced,
                                 Value at, llvm::function_ref<Value(Value)> arg,
                                 ValueRange outputs,
                                 ArrayRef<DenseMap<Value, Value>> inputs = {},
                                 ArrayRef<Value> partners = {});

/// Loads, for elements `at` ... `at` + `width` - 1 of `producer`'s result
/// (one row's, `at` a multiple of `width`, which divides the row), every
/// fusion input the epilogue after `producer` reads (a residual, a bias),
/// keyed by its block argument, one map per element: a caller that loads
/// several elements' inputs before computing any keeps those loads in
/// flight together instead of waiting on each. An input whose last
/// dimension is the result's is read with one vector load. A caller that
/// has `at`'s row and column in the result (at = row * its last dimension
/// + col, inside it) passes them (IndexMath::broadcastIndex).
SmallVector<DenseMap<Value, Value>>
loadEpilogueInputs(OpBuilder &b, Location loc, FusionOp fusion,
                   Operation *producer, Value at,
                   llvm::function_ref<Value(Value)> arg, int64_t width = 1,
                   Value row = {}, Value col = {});

/// The block's dynamic shared memory (!llvm.ptr<3>), at `b`'s insertion
/// point; declares the module's `extern .shared` array through
/// `moduleBuilder` once.
Value dynamicShared(OpBuilder &moduleBuilder, OpBuilder &b, Location loc);

/// `raw` (the block's dynamic shared memory) rounded up to `align` bytes, a
/// power of two (the shared plan's slack holds the padding), and the
/// rounded base's shared address (i64).
std::pair<Value, Value> alignShared(OpBuilder &b, Location loc, Value raw,
                                    int64_t align);

/// The fusion's `#brrr.shared` plan, or a diagnostic naming the pass that
/// records it.
FailureOr<SharedPlanAttr> sharedPlanOf(FusionOp fusion);

/// The bytes of dynamic shared memory the fusion's plan launches its
/// kernel with (0 without a plan).
int64_t sharedBytesOf(FusionOp fusion);

/// Byte offset of the buffer of `role` and `index` in the fusion's
/// shared-memory plan, or a diagnostic.
FailureOr<int64_t> sharedOffset(FusionOp fusion, SharedRole role,
                                int64_t index = 0);

/// Byte offsets of the `stages` buffer pairs of roles `first` and `second`
/// (a product's k-slices `a` and `b`, attention's `key` and `value`
/// blocks) in the fusion's shared-memory plan, or a diagnostic.
LogicalResult stageOffsets(FusionOp fusion, int64_t stages,
                           SmallVectorImpl<int64_t> &a,
                           SmallVectorImpl<int64_t> &b,
                           SharedRole first = SharedRole::a,
                           SharedRole second = SharedRole::b);

/// Whether `op` is a transpose the kernel applies by where it stores its
/// result (it is yielded, nothing in the kernel reads it).
bool storedThrough(Operation &op);

/// Row-major element strides of `shape`.
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_CODEGEN_KERNELUTILS_H
