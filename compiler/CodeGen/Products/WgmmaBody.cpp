//===- WgmmaBody.cpp - the Hopper TMA + wgmma product body ---------------===//
//
// The Hopper body (sm_90a) of the matmul and conv families, for f16/bf16
// products whose operands TMA can read: matmuls (tmaOperandOf) through
// tiled maps, channels-last convolutions (ConvGemm) as implicit GEMMs whose
// activations arrive through im2col maps (brrr-select-kernel-config records
// the tile in a `wgmma` config, brrr-plan-shared-memory places the stages).
// One body (emitWgmmaBody: here the set-up, the barriers, the producer
// and the drain loop; the consumers in WgmmaConsumer.cpp, the state they
// share in WgmmaKernel.h) serves both; a front (WgmmaMatmulKernel.cpp)
// describes the problem and issues each k-slice's copies. Each block
// computes an m x n output tile with 1 + m/64 warpgroups:
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
//     loaded eight rows at a time before any is used.
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
// "staged" and "drained", hand the staging over), with the four warps of
// a drain warpgroup of its own beside them where the config's threads
// hold one (512). A split tile (the
// config's `cluster`) is computed by that many consecutive blocks of one
// thread-block cluster, each streaming its run of the k-slices; they stage
// their partial tiles, synchronize the cluster, and each sums its share of
// the rows from every block's staging through distributed shared memory
// (mapa, ld.shared::cluster) before the epilogue, with no second kernel and
// no partial products in global memory. A multicasting pair (the
// config's `multicast`) is a cluster of two blocks computing vertically
// adjacent tiles of the same columns in lockstep: each producer copies
// half of every slice of B and multicasts it into both blocks' stage
// (both full barriers count its bytes), and each consumer warp releases a
// stage on both blocks' empty barriers, so that neither producer refills
// it before both blocks have read it. 8-bit products read 128-deep
// slices; float8 ones whose config says `precision = promoted` sum each
// slice in registers of its own, wait for it and add it to the f32
// accumulators (the Tensor Cores' float8 accumulation is shorter than
// f32's).
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/WgmmaKernel.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::wgmma;
using namespace mlir::brrr::wgmma::detail;

namespace {

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

} // namespace

Value mlir::brrr::wgmma::descriptor(WgmmaBuilder &e, Value addr,
                                    int64_t leading, int64_t stride,
                                    int64_t swizzle) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, addr, e.i64(0x3FFFF)), e.i64(4));
  // The swizzle mode field: 1 for 128 bytes, 2 for 64, 3 for 32.
  int64_t mode = swizzle == 32 ? 3 : swizzle == 64 ? 2 : 1;
  int64_t fixed = ((leading >> 4) << 16) | ((stride >> 4) << 32) | (mode << 62);
  return arith::OrIOp::create(b, loc, start, e.i64(fixed));
}

Value mlir::brrr::wgmma::kMajorDescriptor(WgmmaBuilder &e, Value base,
                                          int64_t rows, int64_t swizzle,
                                          int64_t step) {
  int64_t perBox = swizzle / 32;
  int64_t at = step / perBox * rows * swizzle + 32 * (step % perBox);
  return descriptor(e, arith::AddIOp::create(e.b, e.loc, base, e.i64(at)), 16,
                    8 * swizzle, swizzle);
}

Value mlir::brrr::wgmma::mnMajorDescriptor(WgmmaBuilder &e, Value base,
                                           int64_t depth, int64_t swizzle,
                                           int64_t step) {
  return descriptor(
      e, arith::AddIOp::create(e.b, e.loc, base, e.i64(16 * swizzle * step)),
      depth * swizzle, 8 * swizzle, swizzle);
}

LogicalResult WgmmaKernel::readPlan() {
  int64_t M = problem.M, N = problem.N, batches = problem.batches;
  tilesM = llvm::divideCeil(M, tile.m);
  tilesN = problem.groupColumns
               ? N / problem.groupColumns *
                     llvm::divideCeil(problem.groupColumns, tile.n)
               : llvm::divideCeil(N, tile.n);
  // A split tile's blocks are consecutive in x, one cluster, each taking
  // kTiles / split of the k-slices.
  split = tile.cluster;
  multicast = tile.multicast;
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
  // Stream-K blocks split the slices, all of them even over fewer tiles.
  blocks = !persistent    ? 0
           : tile.streamK ? tile.persistent
                          : std::min(tile.persistent, totalTiles);
  consumers = tile.m / 64;
  pingpong = tile.pingpong();
  overlapped = tile.overlapped();
  halves = pingpong ? consumers : 1;
  promoted = tile.precision == KernelPrecision::promoted;
  kTiles = problem.kTiles / split;
  numInputs = fusion.getInputs().size();
  threads = tile.threads();
  streamK = tile.streamK;
  units = totalTiles * kTiles;
  if (streamK) {
    auto workspace = fusion->getAttrOfType<ArrayAttr>(kWorkspaceAttrName);
    if (!persistent || pingpong || split != 1 || multicast != 1 ||
        problem.rowsExtent || problem.groupColumns || units < blocks ||
        !workspace || workspace.size() != 2)
      return fusion.emitOpError(
          "a stream-K wgmma kernel is persistent on the cooperative or "
          "overlapped schedule over static extents and whole column tiles, "
          "not split or multicasting, with a workspace of partial tiles and "
          "flags (brrr-plan-global-memory)");
    auto partialsPlace = dyn_cast<PlacementAttr>(workspace[0]);
    auto flagsPlace = dyn_cast<PlacementAttr>(workspace[1]);
    if (!partialsPlace || !flagsPlace ||
        partialsPlace.getBytes() < blocks * tile.m * tile.n * 4 ||
        flagsPlace.getBytes() < blocks * 4)
      return fusion.emitOpError("a stream-K workspace holds a partial tile "
                                "and a flag for each of the ")
             << blocks << " blocks";
  }
  return success();
}

void WgmmaKernel::createFunction(StringRef name) {
  // Parameters: the two tensor maps by value, then one pointer per buffer,
  // then the rows where they are symbolic.
  bool symbolic = bool(problem.rowsExtent);
  // A stream-K kernel's workspace follows the results: partial tiles, flags.
  unsigned numBuffers = numInputs + fusion.getNumResults() + (streamK ? 2 : 0);
  func = createKernel(moduleBuilder, loc, name, numBuffers, threads,
                      /*numByValue=*/2, /*numScalars=*/symbolic ? 1 : 0);
  // setmaxnreg needs the block size and one block per SM stated at entry.
  func->setAttr("nvvm.maxntid", moduleBuilder.getDenseI32ArrayAttr(
                                    {static_cast<int32_t>(threads), 1, 1}));
  func->setAttr("nvvm.minctasm", moduleBuilder.getI32IntegerAttr(1));
  if (int64_t blocks = std::max(split, multicast); blocks > 1)
    func->setAttr("nvvm.cluster_dim",
                  moduleBuilder.getDenseI32ArrayAttr(
                      {static_cast<int32_t>(blocks), 1, 1}));

  entry = &func.getBody().front();
  b.setInsertionPointToStart(entry);
  mapA = entry->getArgument(0);
  mapB = entry->getArgument(1);
  if (streamK) {
    partials = entry->getArgument(2 + numInputs + fusion.getNumResults());
    flags = entry->getArgument(3 + numInputs + fusion.getNumResults());
  }

  // The shared base rounded up to the swizzle's 1024 bytes.
  std::tie(smem, smemAddr) =
      alignShared(b, loc, dynamicShared(moduleBuilder, b, loc), 1024);

  if (symbolic) {
    rowsValue = indexArgument(b, loc, *entry, 2 + numBuffers);
    tilesMValue = arith::DivUIOp::create(
        b, loc, e.add(rowsValue, e.idx(tile.m - 1)), e.idx(tile.m));
  }
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  warpgroup = e.div(tid, 128);
  inGroup = e.rem(tid, 128);
  bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  // A multicasting pair is blocks 2c and 2c + 1 (a cluster), whose tiles,
  // one block a tile or walked an even count apart, are always 2t and
  // 2t + 1: the same columns, vertically adjacent (multicastRefusal).
  if (multicast > 1)
    rank = e.rem(bid, multicast);
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
  if (int64_t og = problem.groupColumns) {
    // Column tile tn: tile tn % perGroup of group tn / perGroup.
    int64_t perGroup = llvm::divideCeil(og, tile.n);
    Value g = e.div(tn, perGroup);
    return TileAt{z, e.mul(tm, tile.m),
                  e.add(e.mul(g, og), e.mul(e.rem(tn, perGroup), tile.n)),
                  rowsValue, e.mul(e.add(g, e.idx(1)), og)};
  }
  return TileAt{z, e.mul(tm, tile.m), e.mul(tn, tile.n), rowsValue};
}

Value WgmmaKernel::runStart(Value block) {
  return e.div(e.mul(block, units), blocks);
}

Value WgmmaKernel::startsInside() {
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                       e.rem(runStart(bid), kTiles), e.idx(0));
  return arith::SelectOp::create(b, loc, inside, e.idx(1), e.idx(0));
}

void WgmmaKernel::forEachTile(Value start, int64_t step, const TileBody &body,
                              bool completedOnly) {
  SliceRun whole{e.idx(0), e.idx(kTiles)};
  if (!persistent) {
    body(*ownTile, e.idx(0), e.idx(0), e.idx(1), whole);
    return;
  }
  if (streamK) {
    // The block's run of slices [from, to), in tile order: tiles
    // from / kTiles to (to - 1) / kTiles, the first and last perhaps in
    // part.
    Value from = runStart(bid), to = runStart(e.add(bid, e.idx(1)));
    Value firstTile = e.div(from, kTiles);
    Value skip = completedOnly ? startsInside() : e.idx(0);
    Value count = arith::SubIOp::create(
        b, loc,
        e.add(arith::SubIOp::create(
                  b, loc,
                  e.div(arith::SubIOp::create(b, loc, to, e.idx(1)), kTiles),
                  firstTile),
              e.idx(1)),
        skip);
    auto loop = scf::ForOp::create(b, loc, start, count, e.idx(step));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    Value t = e.add(firstTile, e.add(i, skip));
    Value tileFrom = e.mul(t, kTiles);
    Value begin = arith::MaxUIOp::create(b, loc, from, tileFrom);
    Value end =
        arith::MinUIOp::create(b, loc, to, e.add(tileFrom, e.idx(kTiles)));
    body(tileAt(e.div(t, tilesPerBatch), e.rem(t, tilesPerBatch)),
         arith::SubIOp::create(b, loc, begin, from), i, count,
         SliceRun{arith::SubIOp::create(b, loc, begin, tileFrom),
                  arith::SubIOp::create(b, loc, end, tileFrom)});
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
       e.mul(i, problem.kTiles), i, count, whole);
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
      NVVM::MBarrierInitOp::create(
          b, loc, emptyBar(e.idx(s)),
          e.i32((pingpong ? 4 : 4 * consumers) * multicast), Value());
    }
    if (overlapped) {
      NVVM::MBarrierInitOp::create(b, loc, stagedBar, e.i32(128 * consumers),
                                   Value());
      NVVM::MBarrierInitOp::create(b, loc, drainedBar,
                                   e.i32(32 * drainWorkers()), Value());
    }
    NVVM::FenceMbarrierInitOp::create(b, loc);
  }
  gpu::BarrierOp::create(b, loc);
  // A multicasting pair's copies and releases reach the other block's
  // barriers: both are set up before either block goes on.
  if (multicast > 1)
    clusterBarrier(b, loc);
}

void WgmmaKernel::releaseStage(Value s, Value when) {
  Value lead = multicast > 1
                   ? arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           lane, e.idx(multicast))
                         .getResult()
                   : e.eq(lane, 0);
  auto ifRelease = scf::IfOp::create(
      b, loc, when ? arith::AndIOp::create(b, loc, when, lead) : lead, false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifRelease.getThenRegion().front());
  Value bar = emptyBar(s);
  if (multicast == 1) {
    NVVM::MBarrierArriveOp::create(b, loc, Type(), bar, Value());
    return;
  }
  // Both blocks' producers refill the stage (each its share of B, into
  // both blocks): each waits for both blocks' consumers.
  Value peer = NVVM::MapaOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 7),
                                    bar, e.toI32(lane));
  NVVM::MBarrierArriveOp::create(b, loc, Type(), peer, Value(),
                                 NVVM::MemScopeKind::CLUSTER, false);
}

LogicalResult WgmmaKernel::producerWarpgroup() {
  int64_t keep = !overlapped        ? kProducerRegisters
                 : tile.drainGroups ? kDrainGroupRegisters
                                    : kDrainRegisters;
  NVVM::SetMaxRegisterOp::create(b, loc, keep,
                                 NVVM::SetMaxRegisterAction::decrease);
  if (overlapped) {
    // Warps 1-3 drain, as workers 0-2.
    auto ifDrain = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, inGroup,
                              e.idx(32)),
        false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifDrain.getThenRegion().front());
    if (failed(drainLoop(
            arith::SubIOp::create(b, loc, e.div(inGroup, 32), e.idx(1)))))
      return failure();
  }
  producerLoop();
  return success();
}

LogicalResult WgmmaKernel::drainWarpgroup() {
  NVVM::SetMaxRegisterOp::create(b, loc, kDrainGroupRegisters,
                                 NVVM::SetMaxRegisterAction::decrease);
  return drainLoop(e.add(e.div(inGroup, 32), e.idx(kProducerDrainWarps)));
}

LogicalResult WgmmaKernel::drainLoop(Value worker) {
  LogicalResult drained = success();
  // Under stream-K, the tiles the block completes: only those are staged.
  forEachTile(
      e.idx(0), 1,
      [&](TileAt at, Value, Value i, Value, SliceRun) {
        NVVM::MBarrierTryWaitParityOp::create(b, loc, stagedBar,
                                              e.toI32(e.rem(i, 2)), ticks);
        if (failed(drainOverlapped(
                e, fusion, problem, tile, at, smem, e.idx(epilogueOffset),
                worker, drainWorkers(),
                tile.drainGroups ? kDrainGroupGroupsInFlight
                                 : kDrainGroupsInFlight,
                e.rem(inGroup, 32), [&](Value v) { return arg(v); },
                outputs())))
          drained = failure();
        NVVM::MBarrierArriveOp::create(b, loc, Type(), drainedBar, Value());
      },
      /*completedOnly=*/true);
  return drained;
}

/// One thread streams every tile's k-slices through the ring: a slot is
/// refilled once the consumers released its previous slice. With weights
/// ahead (weightsAhead), the block's first tile begins with B of its first
/// slices, then the wait for the kernel ahead, then their A.
void WgmmaKernel::producerLoop() {
  auto ifLeader = scf::IfOp::create(b, loc, e.eq(inGroup, 0), false);
  b.setInsertionPointToStart(&ifLeader.getThenRegion().front());
  // The maps' lines, fetched before the first copy needs them.
  for (Value map : {mapA, mapB})
    NVVM::PrefetchOp::create(b, loc, nullptr, nullptr, map, Value(),
                             /*tensormap=*/true);
  int64_t ahead = weightsAhead();
  auto expectStage = [&](Value s) {
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc, Type(), fullBar(s), e.i32(tile.stageBytes()),
        NVVM::MemScopeKind::CTA, false, Value());
  };
  forEachTile(
      e.idx(0), 1, [&](TileAt at, Value first, Value i, Value, SliceRun run) {
        Value start = run.begin;
        if (ahead > 0) {
          // The first tile's slices 0 .. ahead - 1 fill stages 0 .. ahead - 1,
          // none of them in use yet: each expects its whole stage, so it
          // completes only once its A has landed too.
          auto firstSlices = [&](Operands which) {
            auto loop =
                scf::ForOp::create(b, loc, e.idx(0), e.idx(ahead), e.idx(1));
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToStart(loop.getBody());
            Value kt = loop.getInductionVar();
            if (which == Operands::b)
              expectStage(kt);
            copySlice(at, kt, kt, which);
            return loop;
          };
          Value isFirst = e.eq(i, 0);
          auto ifFirst = scf::IfOp::create(b, loc, isFirst, false);
          {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
            independentThrough = firstSlices(Operands::b);
            firstSlices(Operands::a);
          }
          start = arith::SelectOp::create(b, loc, isFirst, e.idx(ahead), start);
        }
        auto loop = scf::ForOp::create(b, loc, start, run.end, e.idx(1));
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(loop.getBody());
        Value kt = loop.getInductionVar();
        Value it =
            persistent
                ? e.add(first, arith::SubIOp::create(b, loc, kt, run.begin))
                : kt;
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
        expectStage(s);
        copySlice(at, kt, s, Operands::both);
      });
}

void WgmmaKernel::copySlice(const TileAt &at, Value kt, Value s,
                            Operands which) {
  Value full = fullBar(s);
  Value zi = e.toI32(at.z);
  std::function<void(Value, bool, SmallVector<Value>, SmallVector<Value>)>
      copy = [&](Value dst, bool isA, SmallVector<Value> coords,
                 SmallVector<Value> offsets) {
        if (which != Operands::both && isA != (which == Operands::a))
          return;
        const MapSpec &spec = isA ? problem.aMap : problem.bMap;
        if (spec.batched)
          coords.push_back(zi);
        // A multicasting block copies its share of B's box rows (the
        // map's box holds that share) into both blocks: of the tile's
        // columns where B is read along K, of the slice's k rows in each
        // 64-column box where it is read along N.
        bool shareB = !isA && multicast > 1;
        if (shareB) {
          int64_t rows = (problem.bKContiguous ? tile.n : tile.k) / multicast;
          coords[1] = arith::AddIOp::create(b, loc, coords[1],
                                            e.toI32(e.mul(rank, rows)));
          dst = e.at(dst, e.mul(rank, rows * problem.swizzle));
        }
        // The block's own shared memory, addressed as the (one-block)
        // cluster's, as the PTX 8.0 form of the copy wants.
        Value clusterDst = LLVM::AddrSpaceCastOp::create(
            b, loc, LLVM::LLVMPointerType::get(ctx, 7), dst);
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            b, loc, clusterDst, isA ? mapA : mapB, coords, full, offsets,
            shareB ? e.i16((1 << multicast) - 1) : Value(), Value(),
            spec.im2col ? NVVM::TMALoadMode::IM2COL : NVVM::TMALoadMode::TILE,
            false, nullptr, Value());
      };
  Value aDst = e.at(smem, e.add(e.idx(aOffsets[0]), e.mul(s, aStride)));
  Value bDst = e.at(smem, e.add(e.idx(bOffsets[0]), e.mul(s, bStride)));
  problem.copies(e, sliceOf(kt), aDst, bDst, copy, at.row0, at.col0);
}

int64_t WgmmaKernel::weightsAhead() {
  // A stream-K block's first tile may start anywhere in its slices.
  if (!fusion->hasAttr(kWeightsBeforeWaitAttrName) || streamK)
    return 0;
  Value weight = fusion.getInputs()[problem.bMap.input];
  if (!viewedRootOf(weight).getDefiningOp<ConstantOp>())
    return 0;
  return std::min(tile.stages, kTiles);
}

FailureOr<KernelInfo> WgmmaKernel::emit(StringRef name) {
  if (failed(readPlan()))
    return failure();
  Builder attrs(ctx);
  // A multicasting block's copies of B take its share of the box rows.
  MapSpec bMap = problem.bMap;
  bMap.box[1] /= multicast;
  ArrayAttr mapsAttr =
      attrs.getArrayAttr({mapAttr(attrs, problem.aMap), mapAttr(attrs, bMap)});
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
  if (tile.drainGroups) {
    // The last warpgroup drains; those between compute.
    auto isDrain =
        scf::IfOp::create(b, loc, e.eq(warpgroup, 1 + consumers), true);
    b.setInsertionPointToStart(&isDrain.getThenRegion().front());
    if (failed(drainWarpgroup()))
      return failure();
    b.setInsertionPointToStart(&isDrain.getElseRegion().front());
  }
  if (failed(consumerWarpgroups()))
    return failure();
  b.setInsertionPointAfter(isProducer);
  // Neither block of a multicasting pair leaves while the other may still
  // release a stage on its barriers.
  if (multicast > 1)
    clusterBarrier(b, loc);
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
  info.independentThrough = independentThrough;
  // Its warpgroups of 128 threads hold 40 (the producer) + 232 m/64 (the
  // consumers) registers a thread after setmaxnreg, which the block must
  // own from its launch: at least 34816, over half of the 65536.
  info.wholeMultiprocessor = true;
  return info;
}

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
