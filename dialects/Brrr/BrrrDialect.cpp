//===- BrrrDialect.cpp - brrr dialect registration ----------------------===//
//
// Registers the brrr ops and materializes folded constants as
// `brrr.constant`.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

using namespace mlir;
using namespace mlir::brrr;

#include "dialects/Brrr/BrrrDialect.cpp.inc"
#include "dialects/Brrr/BrrrEnums.cpp.inc"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include <limits>

#define GET_ATTRDEF_CLASSES
#include "dialects/Brrr/BrrrAttrs.cpp.inc"

void BrrrDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Brrr/BrrrOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Brrr/BrrrAttrs.cpp.inc"
      >();
}

LogicalResult KernelConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, KernelFamily family,
    KernelBody body, int64_t threads, ArrayRef<int64_t> tile, int64_t stages,
    int64_t vector, int64_t cluster, KernelPrecision precision,
    int64_t persistent, int64_t epilogue, KernelSchedule schedule,
    int64_t multicast, bool streamK, ArrayRef<int64_t> launchGrid,
    AffineMapAttr gridExtents) {
  if (threads < 32 || threads > 1024 || threads % 32)
    return emitError() << "threads must be a multiple of 32 in [32, 1024], got "
                       << threads;
  // The launch grid: x below 2^31, y and z below 2^16 (CUDA's limits).
  if (!launchGrid.empty() &&
      (launchGrid.size() != 3 || launchGrid[0] < 0 ||
       launchGrid[0] >= (int64_t(1) << 31) || launchGrid[1] < 0 ||
       launchGrid[1] >= 65536 || launchGrid[2] < 0 || launchGrid[2] >= 65536))
    return emitError() << "a launch grid is [x, y, z] blocks, x below 2^31 "
                          "and y and z below 2^16";
  if (gridExtents &&
      (launchGrid.empty() || gridExtents.getValue().getNumDims() != 0 ||
       gridExtents.getValue().getNumResults() != 3))
    return emitError() << "grid_extents maps the module's symbols to the "
                          "grid's (x, y, z), beside the grid at the largest "
                          "shape";
  if (vector < 1 || cluster < 1 || stages < 0 || persistent < 0 || epilogue < 0)
    return emitError() << "vector and cluster must be positive and stages, "
                          "persistent and epilogue non-negative";
  if ((persistent || epilogue || schedule != KernelSchedule::cooperative) &&
      body != KernelBody::wgmma)
    return emitError() << "only the wgmma body runs a persistent grid, "
                          "stages its epilogue in column chunks or runs a "
                          "ping-pong schedule";
  if (multicast != 1 &&
      (body != KernelBody::wgmma || multicast != 2 || cluster != 1))
    return emitError() << "only the wgmma body multicasts, to a pair of "
                          "blocks (multicast = 2) whose tiles are not split "
                          "over a cluster";
  if (streamK && (body != KernelBody::wgmma || persistent < 1 ||
                  schedule == KernelSchedule::pingpong || cluster != 1 ||
                  multicast != 1 || gridExtents))
    return emitError() << "stream_k splits the k-slices of a persistent wgmma "
                          "kernel on the cooperative or overlapped schedule, "
                          "without a cluster split, multicast or a symbolic "
                          "grid";
  bool splitRows = family == KernelFamily::reduce && tile.size() == 2;
  if (cluster > 1 && body != KernelBody::wgmma &&
      body != KernelBody::mma_sync && !splitRows)
    return emitError() << "only the wgmma and mma_sync bodies split a tile "
                          "over a cluster, and split-rows reductions their "
                          "rows";
  if (family == KernelFamily::attention && body != KernelBody::mma_sync &&
      body != KernelBody::wgmma)
    return emitError() << "an attention kernel runs the mma_sync or wgmma "
                          "body, not "
                       << stringifyKernelBody(body);
  if (family == KernelFamily::attention && body == KernelBody::wgmma) {
    // Each warpgroup takes 64 query rows (one or two a block); key blocks
    // of n positions stream through `stages` buffers.
    if (threads % 128 || threads > 256 || tile.size() != 2 ||
        tile[0] != threads / 2 || tile[1] <= 0 || tile[1] % 16 ||
        tile[1] > 128 || stages < 2)
      return emitError() << "an attention kernel runs wgmma with 128 or 256 "
                            "threads, tile [64 query rows a warpgroup, a "
                            "multiple of 16 up to 128 keys] and 2 or more "
                            "stages";
    // Overlapped, a block's values are read a block after its keys: a
    // third buffer takes the copies meanwhile.
    if (schedule == KernelSchedule::pingpong ||
        (schedule == KernelSchedule::overlapped && stages < 3))
      return emitError() << "an attention kernel on wgmma runs the "
                            "cooperative schedule, or the overlapped one "
                            "with 3 or more stages";
    return success();
  }
  if (family == KernelFamily::attention) {
    // Each warp takes 1, 2 or 4 tiles of 16 query rows; key blocks of n
    // positions stream through `stages` buffers.
    int64_t warps = threads / 32;
    int64_t perWarp = tile.size() == 2 ? tile[0] / (16 * warps) : 0;
    if (tile.size() != 2 || tile[0] != 16 * warps * perWarp ||
        !llvm::is_contained({1, 2, 4}, perWarp) || tile[1] <= 0 ||
        tile[1] % 16 || tile[1] > 128 || stages < 2)
      return emitError() << "an attention kernel runs mma_sync with tile "
                            "[1, 2 or 4 x 16 query rows per warp, a multiple "
                            "of 16 up to 128 keys] and 2 or more stages";
    return success();
  }
  bool tensorCores = body != KernelBody::simt;
  if (tensorCores && family != KernelFamily::matmul &&
      family != KernelFamily::conv)
    return emitError() << "only matmul, conv and attention kernels run Tensor "
                          "Core "
                          "bodies, not "
                       << stringifyKernelFamily(family);
  if (precision == KernelPrecision::tf32 && body != KernelBody::mma_sync)
    return emitError() << "only the mma_sync body multiplies f32 operands, so "
                          "only it runs tf32, not "
                       << stringifyKernelBody(body);
  if ((precision == KernelPrecision::promoted ||
       precision == KernelPrecision::fast) &&
      body != KernelBody::wgmma)
    return emitError() << "only the wgmma body multiplies float8 operands, so "
                          "only it sums them "
                       << stringifyKernelPrecision(precision) << ", not "
                       << stringifyKernelBody(body);
  if (splitRows) {
    // Split rows: `lanes` vectors of outputs, `groups` threads each, the
    // rows split over the blocks of a cluster of 1, 2, 4 or 8.
    if (body != KernelBody::simt || tile[0] < 1 || tile[1] < 1 ||
        tile[0] * tile[1] > threads || threads - tile[0] * tile[1] >= 32 ||
        stages || !llvm::is_contained({1, 2, 4, 8}, cluster))
      return emitError() << "a split-rows reduce kernel's tile is [lanes, "
                            "groups], whose product fills the block's last "
                            "warp, its rows split over 1, 2, 4 or 8 blocks "
                            "of a cluster";
    return success();
  }
  if (family == KernelFamily::row && !tile.empty()) {
    // Packed rows: [rows a block, lanes a row].
    if (body != KernelBody::simt || tile.size() != 2 || tile[0] < 2 ||
        tile[1] < 1 || tile[1] > 32 || !llvm::isPowerOf2_64(tile[1]) ||
        tile[0] * tile[1] != threads || stages)
      return emitError() << "a packed row kernel's tile is [rows a block, "
                            "lanes a row] with a power of two of lanes up to "
                            "32 and rows x lanes = threads";
    return success();
  }
  if (family == KernelFamily::reduce && !tile.empty()) {
    // A cooperative reduction: the whole block reduces one output.
    if (body != KernelBody::simt || tile.size() != 1 || tile[0] != threads ||
        !llvm::isPowerOf2_64(threads) || stages)
      return emitError() << "a cooperative reduce kernel's tile is [threads] "
                            "(the block, a power of two, reduces one output)";
    return success();
  }
  if (family == KernelFamily::conv && body == KernelBody::simt &&
      !tile.empty()) {
    // A direct convolution's thread computes [pixels] along a row, each a
    // vector of channels; the one-pixel body's blocks [rows, channels], a
    // warp a channel.
    if (tile.size() == 2) {
      if (tile[0] < 1 || tile[1] < 1 || tile[1] > 32 ||
          tile[1] * 32 != threads || vector < 1 || stages)
        return emitError() << "a one-pixel convolution's tile is [rows, "
                              "channels a block], a warp a channel";
      return success();
    }
    if (tile.size() != 1 || tile[0] < 2 || tile[0] > 8 || vector < 2 || stages)
      return emitError() << "a direct convolution's tile is [2 to 8 output "
                            "pixels a thread], over vectors of channels, or "
                            "a one-pixel convolution's [rows, channels a "
                            "block]";
    return success();
  }
  if (family == KernelFamily::matmul && body == KernelBody::simt &&
      !tile.empty()) {
    // The few-rows body's blocks: [rows, columns], a warp a column.
    if (tile.size() != 2 || tile[0] < 1 || tile[1] < 1 || tile[1] > 32 ||
        tile[1] * 32 != threads || vector < 1 || stages)
      return emitError() << "a few-rows matmul's tile is [rows, columns a "
                            "block], a warp a column";
    return success();
  }
  if (family == KernelFamily::matmul && body == KernelBody::warp_mma &&
      !tile.empty()) {
    // The few-rows body on Tensor Cores: [rows in groups of 8, columns a
    // block in groups of 16], whole warps splitting K.
    if (tile.size() != 2 || tile[0] < 8 || tile[0] % 8 || tile[1] < 16 ||
        tile[1] % 16 || threads < 32 || threads % 32 || threads > 1024 ||
        vector != 8 || stages)
      return emitError() << "a few-rows Tensor Core matmul's tile is [rows, "
                            "columns a block] in groups of 8 and 16, whole "
                            "warps and 8-element vectors";
    return success();
  }
  if (family == KernelFamily::movement && !tile.empty()) {
    // A tree of vectors: [vectors] a thread computes; a transpose through
    // shared tiles: [32, 8], a 32 x 32 tile moved by 32 x 8 threads.
    bool vectors = tile.size() == 1 && llvm::is_contained({1, 2, 4}, tile[0]);
    bool tiled = tile.size() == 2 && tile[0] == kTransposeTile &&
                 tile[1] == kTransposeRows &&
                 threads == kTransposeTile * kTransposeRows && vector == 1;
    if (body != KernelBody::simt || (!vectors && !tiled) || stages)
      return emitError() << "a movement kernel's tile is [1, 2 or 4 vectors "
                            "a thread], or [32, 8] for a transpose through "
                            "32 x 32 shared tiles of 256 threads";
    return success();
  }
  if (family == KernelFamily::pointwise && !tile.empty()) {
    // A thread computes [vectors] consecutive chunks' vectors.
    if (body != KernelBody::simt || tile.size() != 1 ||
        !llvm::is_contained({2, 4}, tile[0]) || stages)
      return emitError() << "a " << stringifyKernelFamily(family)
                         << " kernel's tile is [2 or 4 vectors a thread]";
    return success();
  }
  if (body == KernelBody::simt || body == KernelBody::warp_mma) {
    if (!tile.empty() || stages)
      return emitError() << "a " << stringifyKernelBody(body)
                         << " kernel has no tile or stages";
    if (body == KernelBody::warp_mma && threads != 32)
      return emitError() << "a warp_mma kernel runs one warp per block, not "
                         << threads << " threads";
    return success();
  }
  if (tile.size() != 3)
    return emitError() << "a Tensor Core body needs a tile [m, n, k]";
  int64_t m = tile[0], n = tile[1], k = tile[2];
  if (m <= 0 || n <= 0 || k <= 0 || m % 64 || n % 64 || m > 256 || n > 256)
    return emitError() << "tile m and n must be multiples of 64 up to 256";
  if (stages < 2)
    return emitError() << "a Tensor Core body streams through 2 or more "
                          "stages, got "
                       << stages;
  if (body == KernelBody::mma_sync) {
    if (!llvm::is_contained({1, 2, 4, 8}, cluster))
      return emitError() << "an mma_sync tile is split over 1, 2, 4 or 8 "
                            "blocks of a cluster, not "
                         << cluster;
    if (k % 16)
      return emitError() << "an mma_sync tile's k must be a multiple of 16";
    // One warp per 64 x 64 (16-bit operands), or per 64 x 32 or 32 x 32
    // (f32).
    if (threads != 32 * (m / 64) * (n / 64) &&
        threads != 32 * (m / 64) * (n / 32) &&
        threads != 32 * (m / 32) * (n / 32))
      return emitError() << "an mma_sync " << m << "x" << n
                         << " tile runs one warp per 64x64, 64x32 or 32x32, "
                         << 32 * (m / 64) * (n / 64) << ", "
                         << 32 * (m / 64) * (n / 32) << " or "
                         << 32 * (m / 32) * (n / 32) << " threads, not "
                         << threads;
    return success();
  }
  if (k != 64 && k != 128)
    return emitError() << "a wgmma tile's k is one 128-byte swizzled row: "
                          "64 (16-bit operands) or 128 (8-bit), got "
                       << k;
  if (m != 128)
    return emitError() << "a wgmma tile has 128 rows (two consumer "
                          "warpgroups, whose registers the body splits), got "
                       << m;
  // An overlapped kernel may run a warpgroup of epilogue warps beside.
  int64_t warpgroups = 1 + m / 64;
  if (threads != 128 * warpgroups && (schedule != KernelSchedule::overlapped ||
                                      threads != 128 * (warpgroups + 1)))
    return emitError() << "a wgmma " << m << "-row tile runs a producer and "
                       << m / 64 << " consumer warpgroups, " << 128 * warpgroups
                       << " threads (overlapped, with a drain warpgroup: "
                       << 128 * (warpgroups + 1) << "), not " << threads;
  if (epilogue && (epilogue % 32 || n % epilogue))
    return emitError() << "a wgmma epilogue stages a multiple of 32 columns "
                          "that divides the tile's "
                       << n << ", not " << epilogue;
  if (persistent && !epilogue)
    return emitError() << "a persistent wgmma kernel stages its epilogue in "
                          "a buffer of its own (epilogue = columns)";
  if (!llvm::is_contained({1, 2, 4, 8}, cluster))
    return emitError() << "a wgmma tile is split over 1, 2, 4 or 8 blocks of "
                          "a cluster, not "
                       << cluster;
  if (cluster > 1 && (persistent || epilogue))
    return emitError() << "a tile split over a cluster is not persistent and "
                          "stages its whole tile";
  // A ping-pong consumer warpgroup holds a whole tile's accumulators: at
  // most 128 f32 registers a thread (m x n / 128 threads).
  if (schedule == KernelSchedule::pingpong &&
      (!persistent || m * n > 128 * 128))
    return emitError() << "a ping-pong wgmma kernel is persistent and its "
                          "tile holds at most 128 x 128 outputs (one "
                          "warpgroup's accumulators), not "
                       << m << "x" << n;
  // Promoted sums hold each slice's products in registers beside the
  // accumulators: twice the f32 a consumer thread holds (64 x n / 128
  // cooperative or overlapped, the whole m x n / 128 ping-pong), at most
  // twice those of 64 x kPromotedWidth, or of 64 x kPromotedOverlappedWidth
  // on the overlapped schedule's fewer consumer registers.
  int64_t rowsHeld = schedule == KernelSchedule::pingpong ? m : 64;
  int64_t widest = schedule == KernelSchedule::overlapped
                       ? kPromotedOverlappedWidth
                       : kPromotedWidth;
  if (precision == KernelPrecision::promoted && rowsHeld * n > 64 * widest)
    return emitError() << "a wgmma tile that promotes its float8 sums holds "
                          "them beside its accumulators: at most 64 x "
                       << widest << " outputs a consumer warpgroup "
                       << stringifyKernelSchedule(schedule) << ", not " << m
                       << "x" << n;
  if (threads != 128 * warpgroups && n > kDrainGroupWidth)
    return emitError() << "an overlapped wgmma tile with a drain warpgroup "
                          "is at most "
                       << kDrainGroupWidth << " wide, not " << n;
  // An overlapped kernel's epilogue warps drain a whole staged tile while
  // the consumers compute the next one.
  if (schedule == KernelSchedule::overlapped && (!persistent || epilogue != n))
    return emitError() << "an overlapped wgmma kernel is persistent and "
                          "stages its whole tile (epilogue = "
                       << n << "), not " << epilogue << " columns";
  return success();
}

Operation *BrrrDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  if (auto extents = dyn_cast<ExtentsAttr>(value)) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() ||
        !tensor.getElementType().isSignlessInteger() ||
        extents.getMap().getNumResults() != tensor.getNumElements())
      return nullptr;
    return SymbolicConstantOp::create(builder, loc, type, extents);
  }
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

namespace {

/// One known chip: the facts passes and the code generator read.
struct KnownTarget {
  StringLiteral chip;
  int64_t capability, multiprocessors, sharedPerBlock, sharedPerMultiprocessor;
  TensorCores tensorCores;
  ArrayRef<TargetFeature> features;
};

constexpr TargetFeature kHopperFeatures[] = {
    TargetFeature::arch_specific, TargetFeature::tma, TargetFeature::clusters,
    TargetFeature::grid_dependency};

/// The chips `brrrc --target` knows. sm_90a: an H100/H200 SXM, 132
/// multiprocessors of 228 KiB shared memory, 227 KiB of it for one block;
/// its PTX runs on no other chip. sm_80: an A100, 108 multiprocessors of
/// 164 KiB, 163 KiB a block; its PTX also JIT-compiles for newer chips.
constexpr KnownTarget kKnownTargets[] = {
    {"sm_90a", 90, 132, 227 * 1024, 228 * 1024, TensorCores::wgmma,
     kHopperFeatures},
    {"sm_80", 80, 108, 163 * 1024, 164 * 1024, TensorCores::mma_sync, {}},
};

} // namespace

KernelConfigAttr KernelConfigAttr::withGrid(ArrayRef<int64_t> grid,
                                            AffineMapAttr extents) const {
  return get(getContext(), getFamily(), getBody(), getThreads(), getTile(),
             getStages(), getVector(), getCluster(), getPrecision(),
             getPersistent(), getEpilogue(), getSchedule(), getMulticast(),
             getStreamK(), grid, extents);
}

FailureOr<TargetAttr> TargetAttr::known(MLIRContext *context, StringRef chip) {
  for (const KnownTarget &t : kKnownTargets)
    if (t.chip == chip)
      return TargetAttr::get(context, t.chip, t.capability, t.multiprocessors,
                             t.sharedPerBlock, t.sharedPerMultiprocessor,
                             t.tensorCores, t.features);
  return failure();
}

std::string TargetAttr::knownNames() {
  std::string names;
  llvm::raw_string_ostream os(names);
  llvm::interleaveComma(kKnownTargets, os,
                        [&](const KnownTarget &t) { os << t.chip; });
  return names;
}

TargetAttr TargetAttr::untargeted(MLIRContext *context) {
  return TargetAttr::get(context, "", 0, 108, 48 * 1024, 48 * 1024,
                         TensorCores::mma_sync, {});
}

LogicalResult
TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef chip,
                   int64_t capability, int64_t multiprocessors,
                   int64_t sharedPerBlock, int64_t sharedPerMultiprocessor,
                   TensorCores tensorCores, ArrayRef<TargetFeature> features) {
  if (capability < 0 || multiprocessors < 1 || sharedPerBlock < 1 ||
      sharedPerBlock > sharedPerMultiprocessor)
    return emitError() << "a target needs a non-negative capability, at least "
                          "one multiprocessor and 1 to shared_per_"
                          "multiprocessor bytes of shared memory per block";
  if (tensorCores == TensorCores::wgmma && capability < 90)
    return emitError() << "wgmma Tensor Cores need capability 90 or more, got "
                       << capability;
  return success();
}

TargetAttr mlir::brrr::targetOf(Operation *op) {
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  if (module)
    if (auto target = module->getAttrOfType<TargetAttr>(kTargetAttrName))
      return target;
  return TargetAttr::untargeted(op->getContext());
}

//===----------------------------------------------------------------------===//
// Shared-memory plans
//===----------------------------------------------------------------------===//

LogicalResult
SharedBufferAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         SharedRole role, int64_t index, int64_t offset,
                         int64_t bytes) {
  if (index < 0 || offset < 0 || bytes < 1)
    return emitError() << "a shared buffer needs a non-negative index and "
                          "offset and at least one byte";
  return success();
}

LogicalResult
PlacementAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      BufferStorage storage, int64_t offset, int64_t bytes) {
  if (offset < 0 || bytes < 0)
    return emitError() << "a placement needs a non-negative offset and size";
  if (storage == BufferStorage::output && offset != 0)
    return emitError() << "an output lies at offset 0 of its buffer, not "
                       << offset;
  return success();
}

LogicalResult
SharedPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayAttr buffers, int64_t bytes) {
  for (auto [i, a] : llvm::enumerate(buffers)) {
    auto buffer = dyn_cast<SharedBufferAttr>(a);
    if (!buffer)
      return emitError() << "a shared plan holds #brrr.buffer attributes, got "
                         << a;
    if (buffer.getOffset() + buffer.getBytes() > bytes)
      return emitError() << "buffer " << stringifySharedRole(buffer.getRole())
                         << " " << buffer.getIndex() << " ends at byte "
                         << buffer.getOffset() + buffer.getBytes()
                         << ", past the plan's " << bytes;
    for (Attribute b : buffers.getValue().take_front(i)) {
      auto earlier = cast<SharedBufferAttr>(b);
      if (earlier.getRole() == buffer.getRole() &&
          earlier.getIndex() == buffer.getIndex())
        return emitError() << "two buffers are "
                           << stringifySharedRole(buffer.getRole()) << " "
                           << buffer.getIndex();
    }
  }
  return success();
}

SharedBufferAttr SharedPlanAttr::find(SharedRole role, int64_t index) const {
  for (Attribute a : getBuffers()) {
    auto buffer = cast<SharedBufferAttr>(a);
    if (buffer.getRole() == role && buffer.getIndex() == index)
      return buffer;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Index checks
//===----------------------------------------------------------------------===//

LogicalResult
IndexCheckAttr::verify(function_ref<InFlightDiagnostic()> emitError, int64_t id,
                       StringAttr node, StringAttr op) {
  // The id is a u32 in the artifact and in the kernel's error record.
  if (id < 0 || id > std::numeric_limits<int32_t>::max())
    return emitError() << "an index check's id must lie in [0, 2^31), got "
                       << id;
  if (!node || !op || op.getValue().empty())
    return emitError() << "an index check names its node and op";
  return success();
}
