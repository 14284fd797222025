//===- WgmmaBody.cpp - the Hopper TMA + wgmma product body ---------------===//
//
// The Hopper body (sm_90a) of the matmul and conv families, for f16/bf16
// products whose operands TMA can read: matmuls (tmaOperandOf) through
// tiled maps, channels-last convolutions (ConvGemm) as implicit GEMMs whose
// activations arrive through im2col maps (brrr-select-kernel-config records
// the tile in a `wgmma` config, brrr-plan-shared-memory places the stages).
// One body (emitWgmmaBody, here) serves both; a front
// (WgmmaMatmulKernel.cpp) describes the problem and issues each k-slice's
// copies. Each block computes an m x n output tile with 1 + m/64
// warpgroups:
//   - warpgroup 0 gives up registers (setmaxnreg) and one of its threads
//     streams 64-deep k-slices of A and B into a ring of `stages` buffers
//     with TMA copies (cp.async.bulk.tensor, 128-byte swizzle), each stage
//     guarded by a "full" mbarrier (the copy's bytes landed) and an "empty"
//     one (every consumer warp is done reading it);
//   - each consumer warpgroup takes 64 rows x n: wgmma.mma_async straight
//     from the swizzled shared slices into f32 accumulators in registers,
//     keeping one group in flight and releasing a stage when the group that
//     read it retires, then runs the fused pointwise epilogue on the
//     accumulators before the only store, its inputs (residual, bias)
//     loaded four rows at a time before any is used.
// The operands' tensor maps are kernel parameters passed by value
// (`__grid_constant__`), described on the fusion as `brrr.tensor_maps` for
// the runtime to encode; blocks walk the tiles in groups of 8 tile rows so
// that neighbouring blocks share A and B in L2. A persistent kernel (the
// config's `grid`) launches that many blocks, each walking the tiles
// `grid` apart through one ring (the producer streams the next tile's
// slices while the consumers run this one's epilogue, whose staging has
// bytes of its own, `epilogue` columns at a time). In a ping-pong kernel
// (the config's `schedule`) each consumer warpgroup instead computes whole
// tiles of at most 128 x 128 (two 64-row accumulators), every other one of
// the block's, and the two take turns at their main loops through named
// barriers: one stores a tile while the other multiplies. In an overlapped
// kernel both consumer warpgroups compute each tile, stage it whole in the
// product's 16-bit type and go on to the next, while warps 1-3 of the
// producer warpgroup apply its epilogue and store it (two mbarriers,
// "staged" and "drained", hand the staging over). A split tile (the
// config's `cluster`) is computed by that many consecutive blocks of one
// thread-block cluster, each streaming its run of the k-slices; they stage
// their partial tiles, synchronize the cluster, and each sums its share of
// the rows from every block's staging through distributed shared memory
// (mapa, ld.shared::cluster) before the epilogue, with no second kernel and
// no partial products in global memory. 8-bit products read 128-deep
// slices; float8 ones whose config says `precision = promoted` sum each
// slice in registers of its own, wait for it and add it to the f32
// accumulators (the Tensor Cores' float8 accumulation is shorter than
// f32's).
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/WgmmaBody.h"
#include "compiler/CodeGen/Products/WgmmaEpilogue.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::wgmma;

namespace {

/// Registers the producer warpgroup keeps, and the consumers take: in an
/// overlapped kernel the producer warpgroup's warps 1-3 run the epilogue
/// and keep more (152 + 2 x 176 of the 3 x 168 a thread the block
/// launches with; a residual's epilogue spilled at 104, and a bias, a
/// layer scale and a residual over 192 columns at 136).
constexpr int64_t kProducerRegisters = 40, kConsumerRegisters = 232;
constexpr int64_t kDrainRegisters = 152, kOverlappedConsumerRegisters = 176;
/// Tile rows per group of the L2-friendly block order.
constexpr int64_t kGroupRows = 8;

DictionaryAttr mapAttr(Builder &b, const MapSpec &m) {
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("input", b.getI64IntegerAttr(m.input)),
      b.getNamedAttr("offset", b.getI64IntegerAttr(m.offsetBytes)),
      b.getNamedAttr("dims", b.getDenseI64ArrayAttr(m.dims)),
      b.getNamedAttr("strides", b.getDenseI64ArrayAttr(m.strides)),
      b.getNamedAttr("swizzle", b.getI64IntegerAttr(m.swizzle))};
  if (m.im2col) {
    entries.push_back(b.getNamedAttr("mode", b.getStringAttr("im2col")));
    entries.push_back(b.getNamedAttr("lower", b.getDenseI64ArrayAttr(m.lower)));
    entries.push_back(b.getNamedAttr("upper", b.getDenseI64ArrayAttr(m.upper)));
    entries.push_back(
        b.getNamedAttr("channels", b.getI64IntegerAttr(m.channels)));
    entries.push_back(b.getNamedAttr("pixels", b.getI64IntegerAttr(m.pixels)));
    entries.push_back(b.getNamedAttr("element_strides",
                                     b.getDenseI64ArrayAttr(m.elementStrides)));
  } else {
    entries.push_back(b.getNamedAttr("box", b.getDenseI64ArrayAttr(m.box)));
  }
  if (!m.extents.empty())
    entries.push_back(b.getNamedAttr(
        "extents",
        AffineMapAttr::get(AffineMap::get(0, symbolCountOf(m.extents),
                                          m.extents, b.getContext()))));
  return b.getDictionaryAttr(entries);
}

/// A wgmma matrix descriptor for a slice swizzled over `swizzle` bytes (128
/// or 32) at shared address `addr` (i64): start, leading and stride byte
/// offsets in 16-byte units, the swizzle mode (1: 128 bytes, 3: 32 bytes)
/// in the top bits.
Value descriptor(WgmmaBuilder &e, Value addr, int64_t leading, int64_t stride,
                 int64_t swizzle = kSwizzleBytes) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, addr, e.i64(0x3FFFF)), e.i64(4));
  int64_t mode = swizzle == 32 ? 3 : 1;
  int64_t fixed = ((leading >> 4) << 16) | ((stride >> 4) << 32) | (mode << 62);
  return arith::OrIOp::create(b, loc, start, e.i64(fixed));
}

} // namespace

namespace {

/// Per-tile work of the block: `body(tile, first, i, count)` for the
/// block's tiles i = start, start + step, ... of its `count`, `first` the
/// ring position (k-slices streamed before it) of tile i's first slice.
using TileBody = std::function<void(TileAt, Value, Value, Value)>;

/// One wgmma kernel being emitted. The state its parts share lives here,
/// and each part is a function of its own, as
/// mlir/test/Examples/NVGPU/Ch5.py writes the same design: the barriers'
/// set-up, the producer loop (and an overlapped kernel's drain loop), the
/// consumers' main loop, and the end each schedule gives a tile
/// (cooperative and ping-pong: the fused epilogue; overlapped: the hand-off
/// to the drain warps). The parts create their IR in the order the kernel
/// runs it.
class WgmmaKernel {
public:
  WgmmaKernel(FusionOp fusion, const MatmulTile &tile,
              const WgmmaProblem &problem, OpBuilder &moduleBuilder)
      : fusion(fusion), tile(tile), problem(problem),
        moduleBuilder(moduleBuilder), ctx(fusion.getContext()),
        loc(fusion.getLoc()), b(ctx), e{{b, loc}} {}

  FailureOr<KernelInfo> emit(StringRef name);

private:
  /// Checks the config against the problem and the shared plan, and reads
  /// the plan's offsets.
  LogicalResult readPlan();
  /// The kernel function, its attributes, and the values every part uses:
  /// the shared base, thread and block ids, a non-persistent block's tile.
  void createFunction(StringRef name);
  /// One thread sets up the ring's barriers (and an overlapped kernel's
  /// staging barriers); the block waits for it.
  void initBarriers();
  /// Warpgroup 0: gives up registers; an overlapped kernel's warps 1-3
  /// drain staged tiles; one thread streams the k-slices.
  LogicalResult producerWarpgroup();
  LogicalResult drainLoop();
  void producerLoop();
  /// Warpgroups 1 and up: the main loop of each of their tiles, then the
  /// schedule's end of the tile.
  LogicalResult consumerWarpgroups();
  /// The consumer's k-slice loop over tile positions from `first`; returns
  /// the `halves` accumulators it leaves (promoted sums all added, chained
  /// products perhaps still in flight).
  SmallVector<Value> mainLoop(Value first);
  /// Issues k-slice `kt`'s products into the accumulators `into` (with
  /// `fresh`, ignoring what they hold) and frees the slice before it once
  /// that one's products retire.
  SmallVector<Value> issueSlice(Value kt, Value first, ArrayRef<Value> into,
                                bool fresh);
  /// A ping-pong warpgroup waits for its turn before a later tile's main
  /// loop, and hands the turn on after issuing its products.
  void waitForTurn(Value i);
  void passTurn(Value i, Value count);
  /// The overlapped schedule's end of a tile: stage it for the drain warps.
  void handOffToDrain(Value i, Value acc);
  /// The cooperative and ping-pong schedules' end of a tile: the fused
  /// epilogue of each accumulator block.
  LogicalResult storeEpilogue(const TileAt &at, ValueRange accs);

  TileAt tileAt(Value z, Value id);
  void forEachTile(Value start, int64_t step, const TileBody &body);
  void afterFirstTile(Value i, function_ref<void()> body);
  Value arg(Value v) {
    return entry->getArgument(2 + cast<BlockArgument>(v).getArgNumber());
  }
  SmallVector<Value> outputs() {
    SmallVector<Value> values;
    for (unsigned r = 0; r < fusion.getNumResults(); ++r)
      values.push_back(entry->getArgument(2 + numInputs + r));
    return values;
  }
  Value fullBar(Value s) {
    return e.at(smem, e.add(e.idx(barOffset), e.mul(s, 8)));
  }
  Value emptyBar(Value s) {
    return e.at(smem, e.add(e.idx(barOffset + 8 * tile.stages), e.mul(s, 8)));
  }
  Value stageOf(Value it) { return e.rem(it, tile.stages); }
  Value phaseOf(Value it) { return e.toI32(e.rem(e.div(it, tile.stages), 2)); }
  /// The slice of the whole tile's that this block's k-slice `kt` is: all,
  /// or its run of a split tile's.
  Value sliceOf(Value kt) {
    return split > 1 ? e.add(e.mul(rank, kTiles), kt) : kt;
  }
  Value rowBlockOf(int64_t h) { return pingpong ? e.idx(h) : consumer; }
  /// Adds a slice's sums, computed apart, to the accumulators (float8 with
  /// `precision = promoted`).
  Value addSums(Value acc, Value sums);
  /// The accumulators' type: s32 for INT8 products, else f32.
  Type accElementType() {
    return problem.elem.isSignlessInteger(8) ? Type(b.getI32Type())
                                             : Type(b.getF32Type());
  }
  /// The accumulators `acc` as the f32 values the epilogue reads: INT8
  /// sums converted (exact up to 2^24).
  Value asF32(Value acc);

  FusionOp fusion;
  const MatmulTile &tile;
  const WgmmaProblem &problem;
  OpBuilder &moduleBuilder;
  MLIRContext *ctx;
  Location loc;
  OpBuilder b;
  WgmmaBuilder e;

  // The geometry, from the config and the problem.
  int64_t tilesM = 0, tilesN = 0, split = 1, tilesPerBatch = 0, totalTiles = 0;
  int64_t blocks = 0, kTiles = 0, consumers = 0, threads = 0;
  unsigned numInputs = 0;
  bool persistent = false, pingpong = false, overlapped = false;
  /// Float8 sums promoted slice by slice (`precision = promoted`).
  bool promoted = false;
  /// A consumer warpgroup holds the accumulators of `halves` 64-row blocks
  /// of its tiles: its own block of each tile, or in a ping-pong kernel the
  /// whole tile of every other one of the block's.
  int64_t halves = 1;
  // The shared plan: stage s of A is at aOffsets[0] + s * aStride.
  SmallVector<int64_t> aOffsets, bOffsets;
  int64_t aStride = 0, bStride = 0, barOffset = 0, epilogueOffset = 0;

  // Values of the kernel being built.
  gpu::GPUFuncOp func;
  Block *entry = nullptr;
  Value mapA, mapB, smem, smemAddr, tid, warpgroup, inGroup, bid;
  Value rank, stagedBar, drainedBar, ticks;
  /// Symbolic rows: the count the kernel is passed, and its row tiles.
  Value rowsValue, tilesMValue;
  Value consumer, lane, warp;
  std::optional<TileAt> ownTile;
};

/// Threads of an overlapped kernel's producer warpgroup that drain staged
/// tiles: warps 1-3.
constexpr int64_t kDrainThreads = 96;
/// Ping-pong turns: a warpgroup starts a tile's main loop once the other
/// has issued its previous tile's products, waiting on named barrier 3 +
/// its index for the other's arrival. Beside keeping one main loop on the
/// Tensor Cores at a time, the turn keeps a warpgroup from waiting on a
/// stage's full barrier before every slice streamed ahead of its own has
/// landed (its parity would name an earlier fill).
constexpr int64_t kTurnBarrier = 3;
/// Spins of an mbarrier wait before it suspends the thread.
constexpr int64_t kWaitTicks = 0x989680;

LogicalResult WgmmaKernel::readPlan() {
  int64_t M = problem.M, N = problem.N, batches = problem.batches;
  tilesM = llvm::divideCeil(M, tile.m);
  tilesN = llvm::divideCeil(N, tile.n);
  // A split tile's blocks are consecutive in x, one cluster, each taking
  // kTiles / split of the k-slices.
  split = tile.cluster;
  if (failed(stageOffsets(fusion, tile.stages, aOffsets, bOffsets)))
    return failure();
  FailureOr<int64_t> bars = sharedOffset(fusion, SharedRole::barriers);
  FailureOr<int64_t> staging = sharedOffset(fusion, SharedRole::epilogue);
  if (failed(bars) || failed(staging))
    return failure();
  barOffset = *bars;
  epilogueOffset = *staging;
  // Stages sit at equal strides (the planner places equal buffers in
  // order), so stage s is base + s * stride.
  aStride = tile.stages > 1 ? aOffsets[1] - aOffsets[0] : 0;
  bStride = tile.stages > 1 ? bOffsets[1] - bOffsets[0] : 0;
  for (int64_t s = 0; s < tile.stages; ++s)
    if (aOffsets[s] != aOffsets[0] + s * aStride ||
        bOffsets[s] != bOffsets[0] + s * bStride || aOffsets[s] % 1024 ||
        bOffsets[s] % 1024)
      return fusion.emitOpError("wgmma stages must be evenly spaced and "
                                "1024-byte aligned in the shared plan");
  // A persistent block walks the tiles `blocks` apart from its own (the
  // grid never exceeds the tiles); otherwise block (x, z) computes tile x of
  // batch z.
  tilesPerBatch = tilesM * tilesN;
  totalTiles = tilesPerBatch * batches;
  persistent = tile.persistent > 0;
  blocks = persistent ? std::min(tile.persistent, totalTiles) : 0;
  consumers = tile.m / 64;
  pingpong = tile.pingpong();
  overlapped = tile.overlapped();
  halves = pingpong ? consumers : 1;
  promoted = tile.precision == KernelPrecision::promoted;
  kTiles = problem.kTiles / split;
  numInputs = fusion.getInputs().size();
  threads = tile.threads();
  return success();
}

void WgmmaKernel::createFunction(StringRef name) {
  // Parameters: the two tensor maps by value, then one pointer per buffer,
  // then the rows where they are symbolic.
  bool symbolic = bool(problem.rowsExtent);
  unsigned numBuffers = numInputs + fusion.getNumResults();
  func = createKernel(moduleBuilder, loc, name, numBuffers, threads,
                      /*numByValue=*/2, /*numScalars=*/symbolic ? 1 : 0);
  // setmaxnreg needs the block size and one block per SM stated at entry.
  func->setAttr("nvvm.maxntid", moduleBuilder.getDenseI32ArrayAttr(
                                    {static_cast<int32_t>(threads), 1, 1}));
  func->setAttr("nvvm.minctasm", moduleBuilder.getI32IntegerAttr(1));
  if (split > 1)
    func->setAttr("nvvm.cluster_dim", moduleBuilder.getDenseI32ArrayAttr(
                                          {static_cast<int32_t>(split), 1, 1}));

  entry = &func.getBody().front();
  b.setInsertionPointToStart(entry);
  mapA = entry->getArgument(0);
  mapB = entry->getArgument(1);

  // The shared base rounded up to the swizzle's 1024 bytes.
  Type i64 = b.getI64Type();
  Value raw = dynamicShared(moduleBuilder, b, loc);
  Value rawAddr = LLVM::PtrToIntOp::create(b, loc, i64, raw);
  Value pad = arith::AndIOp::create(
      b, loc, arith::SubIOp::create(b, loc, e.i64(0), rawAddr), e.i64(1023));
  smem = LLVM::GEPOp::create(b, loc, raw.getType(), b.getIntegerType(8), raw,
                             ValueRange{pad});
  smemAddr = arith::AddIOp::create(b, loc, rawAddr, pad);

  if (symbolic) {
    rowsValue = indexArgument(b, loc, *entry, 2 + numBuffers);
    tilesMValue = arith::DivUIOp::create(
        b, loc, e.add(rowsValue, e.idx(tile.m - 1)), e.idx(tile.m));
  }
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  warpgroup = e.div(tid, 128);
  inGroup = e.rem(tid, 128);
  bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  if (!persistent) {
    Value t = bid;
    if (split > 1) {
      rank = e.rem(bid, split);
      t = e.div(bid, split);
    }
    ownTile = tileAt(gpu::BlockIdOp::create(b, loc, gpu::Dimension::z), t);
  }
}

/// Tile t: batch t / tilesPerBatch, and within it (tm, tn), walking groups
/// of kGroupRows tile rows column by column.
TileAt WgmmaKernel::tileAt(Value z, Value id) {
  int64_t perGroup = kGroupRows * tilesN;
  Value group = e.div(id, perGroup), inPlace = e.rem(id, perGroup);
  Value firstM = e.mul(group, kGroupRows);
  // The row tiles of the actual rows, where they are symbolic: the grid
  // holds that many groups' tiles.
  Value rowsInGroup = arith::MinUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, tilesMValue ? tilesMValue : e.idx(tilesM),
                            firstM),
      e.idx(kGroupRows));
  Value tm =
      e.add(firstM, arith::RemUIOp::create(b, loc, inPlace, rowsInGroup));
  Value tn = arith::DivUIOp::create(b, loc, inPlace, rowsInGroup);
  return TileAt{z, e.mul(tm, tile.m), e.mul(tn, tile.n), rowsValue};
}

void WgmmaKernel::forEachTile(Value start, int64_t step, const TileBody &body) {
  if (!persistent) {
    body(*ownTile, e.idx(0), e.idx(0), e.idx(1));
    return;
  }
  Value count;
  if (tilesMValue) {
    // Over symbolic rows, the actual rows' tiles; a block past them has
    // none (the grid is the largest shape's).
    Value total = e.mul(tilesMValue, tilesN);
    Value ahead =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, bid, total);
    Value safe =
        arith::SelectOp::create(b, loc, ahead, total, e.add(bid, e.idx(1)));
    count = arith::SelectOp::create(
        b, loc, ahead,
        e.add(e.div(arith::SubIOp::create(
                        b, loc, arith::SubIOp::create(b, loc, safe, e.idx(1)),
                        bid),
                    blocks),
              e.idx(1)),
        e.idx(0));
  } else {
    count =
        e.add(e.div(arith::SubIOp::create(b, loc, e.idx(totalTiles - 1), bid),
                    blocks),
              e.idx(1));
  }
  auto loop = scf::ForOp::create(b, loc, start, count, e.idx(step));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value i = loop.getInductionVar();
  Value t = e.add(bid, e.mul(i, blocks));
  body(tileAt(e.div(t, tilesPerBatch), e.rem(t, tilesPerBatch)),
       e.mul(i, problem.kTiles), i, count);
}

/// Emits `body` for every tile of the block's but its first (i > 0).
void WgmmaKernel::afterFirstTile(Value i, function_ref<void()> body) {
  auto ifLater = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, i, e.idx(0)),
      false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifLater.getThenRegion().front());
  body();
}

/// A full barrier completes on the producer's arrival plus the copy's
/// bytes, an empty one when every warp of the consumers that read the slice
/// has arrived (both warpgroups, or in a ping-pong kernel the one whose
/// tile it is). An overlapped kernel's staging completes a "staged" barrier
/// when every consumer thread has written its share of a tile, and a
/// "drained" one when every epilogue thread has read it.
void WgmmaKernel::initBarriers() {
  stagedBar = e.at(smem, e.idx(barOffset + 16 * tile.stages));
  drainedBar = e.at(smem, e.idx(barOffset + 16 * tile.stages + 8));
  {
    auto ifFirst = scf::IfOp::create(b, loc, e.eq(tid, 0), false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
    for (int64_t s = 0; s < tile.stages; ++s) {
      NVVM::MBarrierInitOp::create(b, loc, fullBar(e.idx(s)), e.i32(1),
                                   Value());
      NVVM::MBarrierInitOp::create(b, loc, emptyBar(e.idx(s)),
                                   e.i32(pingpong ? 4 : 4 * consumers),
                                   Value());
    }
    if (overlapped) {
      NVVM::MBarrierInitOp::create(b, loc, stagedBar, e.i32(128 * consumers),
                                   Value());
      NVVM::MBarrierInitOp::create(b, loc, drainedBar, e.i32(kDrainThreads),
                                   Value());
    }
    NVVM::FenceMbarrierInitOp::create(b, loc);
  }
  gpu::BarrierOp::create(b, loc);
}

LogicalResult WgmmaKernel::producerWarpgroup() {
  NVVM::SetMaxRegisterOp::create(
      b, loc, overlapped ? kDrainRegisters : kProducerRegisters,
      NVVM::SetMaxRegisterAction::decrease);
  if (overlapped && failed(drainLoop()))
    return failure();
  producerLoop();
  return success();
}

/// Warps 1-3: each tile's epilogue, once the consumers have staged it.
LogicalResult WgmmaKernel::drainLoop() {
  auto ifDrain =
      scf::IfOp::create(b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                              inGroup, e.idx(32)),
                        false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifDrain.getThenRegion().front());
  Value worker = arith::SubIOp::create(b, loc, e.div(inGroup, 32), e.idx(1));
  LogicalResult drained = success();
  forEachTile(e.idx(0), 1, [&](TileAt at, Value, Value i, Value) {
    NVVM::MBarrierTryWaitParityOp::create(b, loc, stagedBar,
                                          e.toI32(e.rem(i, 2)), ticks);
    if (failed(drainOverlapped(
            e, fusion, problem, tile, at, smem, e.idx(epilogueOffset), worker,
            e.rem(inGroup, 32), [&](Value v) { return arg(v); }, outputs())))
      drained = failure();
    NVVM::MBarrierArriveOp::create(b, loc, Type(), drainedBar, Value());
  });
  return drained;
}

/// One thread streams every tile's k-slices through the ring: a slot is
/// refilled once the consumers released its previous slice.
void WgmmaKernel::producerLoop() {
  auto ifLeader = scf::IfOp::create(b, loc, e.eq(inGroup, 0), false);
  b.setInsertionPointToStart(&ifLeader.getThenRegion().front());
  // The maps' lines, fetched before the first copy needs them.
  for (Value map : {mapA, mapB})
    NVVM::PrefetchOp::create(b, loc, nullptr, nullptr, map, Value(),
                             /*tensormap=*/true);
  int64_t stageBytes = tile.stageBytes();
  forEachTile(e.idx(0), 1, [&](TileAt at, Value first, Value, Value) {
    auto loop = scf::ForOp::create(b, loc, e.idx(0), e.idx(kTiles), e.idx(1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value it = persistent ? e.add(first, kt) : kt;
    Value s = stageOf(it);
    auto ifReuse = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, it,
                              e.idx(tile.stages)),
        false);
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(&ifReuse.getThenRegion().front());
      Value previous = arith::XOrIOp::create(b, loc, phaseOf(it), e.i32(1));
      NVVM::MBarrierTryWaitParityOp::create(b, loc, emptyBar(s), previous,
                                            ticks);
    }
    Value full = fullBar(s);
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc, Type(), full, e.i32(stageBytes), NVVM::MemScopeKind::CTA, false,
        Value());
    Value zi = e.toI32(at.z);
    std::function<void(Value, bool, SmallVector<Value>, SmallVector<Value>)>
        copy = [&](Value dst, bool isA, SmallVector<Value> coords,
                   SmallVector<Value> offsets) {
          const MapSpec &spec = isA ? problem.aMap : problem.bMap;
          if (spec.batched)
            coords.push_back(zi);
          // The block's own shared memory, addressed as the (one-block)
          // cluster's, as the PTX 8.0 form of the copy wants.
          Value clusterDst = LLVM::AddrSpaceCastOp::create(
              b, loc, LLVM::LLVMPointerType::get(ctx, 7), dst);
          NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
              b, loc, clusterDst, isA ? mapA : mapB, coords, full, offsets,
              Value(), Value(),
              spec.im2col ? NVVM::TMALoadMode::IM2COL : NVVM::TMALoadMode::TILE,
              false, nullptr, Value());
        };
    Value aDst = e.at(smem, e.add(e.idx(aOffsets[0]), e.mul(s, aStride)));
    Value bDst = e.at(smem, e.add(e.idx(bOffsets[0]), e.mul(s, bStride)));
    problem.copies(e, sliceOf(kt), aDst, bDst, copy, at.row0, at.col0);
  });
}

LogicalResult WgmmaKernel::consumerWarpgroups() {
  NVVM::SetMaxRegisterOp::create(
      b, loc, overlapped ? kOverlappedConsumerRegisters : kConsumerRegisters,
      NVVM::SetMaxRegisterAction::increase);
  consumer = arith::SubIOp::create(b, loc, warpgroup, e.idx(1));
  lane = e.rem(inGroup, 32);
  warp = e.div(inGroup, 32);
  LogicalResult status = success();
  forEachTile(pingpong ? consumer : e.idx(0), pingpong ? 2 : 1,
              [&](TileAt at, Value first, Value i, Value count) {
                if (pingpong)
                  waitForTurn(i);
                SmallVector<Value> accs = mainLoop(first);
                if (pingpong)
                  passTurn(i, count);
                NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
                if (persistent) {
                  // The tile's last slice is read: its stage goes to the
                  // next tile.
                  auto ifLead = scf::IfOp::create(b, loc, e.eq(lane, 0), false);
                  OpBuilder::InsertionGuard g(b);
                  b.setInsertionPointToStart(&ifLead.getThenRegion().front());
                  NVVM::MBarrierArriveOp::create(
                      b, loc, Type(),
                      emptyBar(stageOf(e.add(first, e.idx(kTiles - 1)))),
                      Value());
                }
                if (overlapped) {
                  handOffToDrain(i, asF32(accs[0]));
                  return;
                }
                if (failed(storeEpilogue(at, accs)))
                  status = failure();
              });
  return status;
}

void WgmmaKernel::waitForTurn(Value i) {
  afterFirstTile(i, [&] {
    NVVM::BarrierOp::create(b, loc, Type(),
                            e.toI32(e.add(consumer, e.idx(kTurnBarrier))),
                            e.i32(256), nullptr, Value());
  });
}

/// Every product of the tile is issued: the other warpgroup's turn, if it
/// has a tile after this one.
void WgmmaKernel::passTurn(Value i, Value count) {
  auto ifNext =
      scf::IfOp::create(b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              e.add(i, e.idx(1)), count),
                        false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifNext.getThenRegion().front());
  NVVM::BarrierArriveOp::create(
      b, loc,
      e.toI32(arith::SubIOp::create(b, loc, e.idx(kTurnBarrier + 1), consumer)),
      e.i32(256));
}

SmallVector<Value> WgmmaKernel::issueSlice(Value kt, Value first,
                                           ArrayRef<Value> into, bool fresh) {
  Type i64 = b.getI64Type();
  auto accType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(tile.n / 2, accElementType()));
  NVVM::WGMMATypes wgType = NVVM::WGMMATypes::f16;
  if (problem.elem.isBF16())
    wgType = NVVM::WGMMATypes::bf16;
  else if (isa<Float8E4M3FNType>(problem.elem))
    wgType = NVVM::WGMMATypes::e4m3;
  else if (problem.elem.isSignlessInteger(8))
    wgType = NVVM::WGMMATypes::s8;
  // Each wgmma reads 32 bytes of K: 16 16-bit elements, 32 8-bit ones.
  int64_t kStep = 32 / tile.elementBytes;
  Value it = persistent ? e.add(first, kt) : kt;
  Value s = stageOf(it);
  NVVM::MBarrierTryWaitParityOp::create(b, loc, fullBar(s), phaseOf(it), ticks);
  auto aAddrOf = [&](int64_t h) {
    return arith::AddIOp::create(
        b, loc, smemAddr,
        arith::IndexCastOp::create(
            b, loc, i64,
            e.add(e.idx(aOffsets[0]),
                  e.add(e.mul(s, aStride),
                        e.mul(rowBlockOf(h), 64 * problem.swizzle)))));
  };
  SmallVector<Value> aAddrs;
  for (int64_t h = 0; h < halves; ++h)
    aAddrs.push_back(aAddrOf(h));
  Value bAddr = arith::AddIOp::create(
      b, loc, smemAddr,
      arith::IndexCastOp::create(b, loc, i64,
                                 e.add(e.idx(bOffsets[0]), e.mul(s, bStride))));
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  SmallVector<Value> sums(into);
  for (int64_t kk = 0; kk < tile.k / kStep; ++kk) {
    // K-major slices advance 32 bytes along a swizzled row; N-major B
    // (16-bit only) advances 16 rows of 128 bytes, its 64-column boxes
    // 64 * k * 2 bytes apart.
    Value descB;
    if (problem.swizzle == 32)
      descB = descriptor(
          e, arith::AddIOp::create(b, loc, bAddr, e.i64(kk * tile.n * 32)), 16,
          256, 32);
    else if (problem.bKContiguous)
      descB = descriptor(
          e, arith::AddIOp::create(b, loc, bAddr, e.i64(32 * kk)), 16, 1024);
    else
      descB = descriptor(
          e,
          arith::AddIOp::create(b, loc, bAddr, e.i64(16 * kSwizzleBytes * kk)),
          64 * tile.k * 2, 1024);
    for (int64_t h = 0; h < halves; ++h) {
      // Chunk kk of A is m rows of 32 bytes after kk chunks.
      Value descA =
          problem.swizzle == 32
              ? descriptor(e,
                           arith::AddIOp::create(b, loc, aAddrs[h],
                                                 e.i64(kk * tile.m * 32)),
                           16, 256, 32)
              : descriptor(
                    e, arith::AddIOp::create(b, loc, aAddrs[h], e.i64(32 * kk)),
                    16, 1024);
      sums[h] = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, accType, sums[h], descA, descB,
          NVVM::MMAShapeAttr::get(ctx, 64, tile.n, kStep), wgType, wgType,
          wgType == NVVM::WGMMATypes::s8 ? NVVM::WGMMATypes::s32
                                         : NVVM::WGMMATypes::f32,
          fresh && kk == 0 ? NVVM::WGMMAScaleOut::zero
                           : NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          NVVM::MMALayout::row,
          problem.bKContiguous ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          nullptr);
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  // The group before this one has retired: its stage is free.
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
  Value release = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, kt, e.idx(0)),
      e.eq(lane, 0));
  auto ifRelease = scf::IfOp::create(b, loc, release, false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifRelease.getThenRegion().front());
  Value prev = arith::SubIOp::create(b, loc, it, e.idx(1));
  NVVM::MBarrierArriveOp::create(b, loc, Type(), emptyBar(stageOf(prev)),
                                 Value());
  return sums;
}

SmallVector<Value> WgmmaKernel::mainLoop(Value first) {
  auto accType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(tile.n / 2, accElementType()));
  SmallVector<Value> zeros(halves, LLVM::ZeroOp::create(b, loc, accType));
  auto loop =
      scf::ForOp::create(b, loc, e.idx(0), e.idx(kTiles), e.idx(1), zeros);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value kt = loop.getInductionVar();
  SmallVector<Value> accs(loop.getRegionIterArgs());
  if (!promoted) {
    // One chain of products over the whole contraction.
    scf::YieldOp::create(b, loc, issueSlice(kt, first, accs, /*fresh=*/false));
    return SmallVector<Value>(loop.getResults());
  }
  // Promoted: each slice's products sum in fresh registers (the first
  // ignores what they hold); once they retire, the slice's sums join the
  // accumulators. Two slices a promotion measured 5-9% faster but 21%
  // further from float64 than cuBLAS's promoted FP8 GEMM, which one slice
  // matches (test/gpu/notes/2026-12-02-c.md).
  SmallVector<Value> sums = issueSlice(kt, first, zeros, /*fresh=*/true);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  for (int64_t h = 0; h < halves; ++h)
    accs[h] = addSums(accs[h], sums[h]);
  scf::YieldOp::create(b, loc, accs);
  return SmallVector<Value>(loop.getResults());
}

Value WgmmaKernel::addSums(Value acc, Value sums) {
  for (int64_t i = 0; i < tile.n / 2; ++i) {
    Value a = LLVM::ExtractValueOp::create(b, loc, acc, i);
    Value s = LLVM::ExtractValueOp::create(b, loc, sums, i);
    acc = LLVM::InsertValueOp::create(b, loc, acc,
                                      arith::AddFOp::create(b, loc, a, s), i);
  }
  return acc;
}

Value WgmmaKernel::asF32(Value acc) {
  if (accElementType().isF32())
    return acc;
  Type f32 = b.getF32Type();
  auto type =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(tile.n / 2, f32));
  Value out = LLVM::UndefOp::create(b, loc, type);
  for (int64_t i = 0; i < tile.n / 2; ++i) {
    Value v = LLVM::ExtractValueOp::create(b, loc, acc, i);
    out = LLVM::InsertValueOp::create(
        b, loc, out, arith::SIToFPOp::create(b, loc, f32, v), i);
  }
  return out;
}

/// The epilogue warps have drained the block's previous tile: stage this
/// one and go on.
void WgmmaKernel::handOffToDrain(Value i, Value acc) {
  afterFirstTile(i, [&] {
    NVVM::MBarrierTryWaitParityOp::create(
        b, loc, drainedBar,
        e.toI32(e.rem(arith::SubIOp::create(b, loc, i, e.idx(1)), 2)), ticks);
  });
  stageOverlapped(e, problem, tile, acc, smem, e.idx(epilogueOffset), consumer,
                  lane, warp);
  NVVM::MBarrierArriveOp::create(b, loc, Type(), stagedBar, Value());
}

/// The epilogue stages `columns` of the tile at a time: a persistent
/// kernel's chunks in a buffer of their own, guarded by the consumer
/// warpgroup's own barrier; otherwise the whole tile over the stages, which
/// every consumer has finished reading at the first barrier.
LogicalResult WgmmaKernel::storeEpilogue(const TileAt &at, ValueRange accs) {
  int64_t columns = tile.epilogue ? tile.epilogue : tile.n;
  int64_t epiloguePitch = wgmmaEpiloguePitch(columns);
  auto consumersBarrier = [&] {
    if (persistent)
      NVVM::BarrierOp::create(b, loc, Type(),
                              e.toI32(e.add(consumer, e.idx(1))), e.i32(128),
                              nullptr, Value());
    else
      NVVM::BarrierOp::create(b, loc, Type(), e.i32(1), e.i32(128 * consumers),
                              nullptr, Value());
  };
  Value stagingBase =
      e.add(e.idx(epilogueOffset), e.mul(consumer, 64 * epiloguePitch * 4));
  SmallVector<Value> outs = outputs();
  for (int64_t h = 0; h < halves; ++h)
    if (failed(emitWgmmaEpilogue(
            e, fusion, problem, tile, at, asF32(accs[h]), columns, smem,
            stagingBase, rowBlockOf(h), lane, warp, rank,
            [&](Value v) { return arg(v); }, outs, consumersBarrier)))
      return failure();
  return success();
}

FailureOr<KernelInfo> WgmmaKernel::emit(StringRef name) {
  if (failed(readPlan()))
    return failure();
  Builder attrs(ctx);
  ArrayAttr mapsAttr = attrs.getArrayAttr(
      {mapAttr(attrs, problem.aMap), mapAttr(attrs, problem.bMap)});
  createFunction(name);
  initBarriers();
  ticks = e.i32(kWaitTicks);
  auto isProducer = scf::IfOp::create(b, loc, e.eq(warpgroup, 0), true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&isProducer.getThenRegion().front());
    if (failed(producerWarpgroup()))
      return failure();
  }
  b.setInsertionPointToStart(&isProducer.getElseRegion().front());
  if (failed(consumerWarpgroups()))
    return failure();
  b.setInsertionPointAfter(isProducer);
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.block = threads;
  info.sharedBytes = sharedBytesOf(fusion);
  info.flops = problem.flops;
  info.bytes = fusionBytes(fusion);
  info.tensorMaps = mapsAttr;
  // Over symbolic rows, the actual rows, which bound the tiles it walks.
  if (problem.rowsExtent)
    info.scalars = {problem.rowsExtent};
  // Its warpgroups of 128 threads hold 40 (the producer) + 232 m/64 (the
  // consumers) registers a thread after setmaxnreg, which the block must
  // own from its launch: at least 34816, over half of the 65536.
  info.wholeMultiprocessor = true;
  return info;
}

} // namespace

FailureOr<KernelInfo>
mlir::brrr::wgmma::emitWgmmaBody(FusionOp fusion, const MatmulTile &tile,
                                 const WgmmaProblem &problem,
                                 OpBuilder &moduleBuilder, StringRef name) {
  return WgmmaKernel(fusion, tile, problem, moduleBuilder).emit(name);
}

FailureOr<MatmulTile> mlir::brrr::wgmma::productTileOf(FusionOp fusion,
                                                       Operation *product) {
  if (failed(checkProductFusion(fusion, product)))
    return failure();
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  // Slices one 128-byte row deep (kSwizzleBytes), split evenly over the
  // cluster, on a schedule the problem's symbolic extents allow: the
  // product rules verified the config for this fusion (verifyProduct).
  return *MatmulTile::of(*config, MatmulTile::elementBytesOf(fusion));
}
