//===- WgmmaKernel.h - one wgmma kernel being emitted -------*- C++ -*-===//
//
// The state the parts of a Hopper TMA + wgmma kernel share (WgmmaBody.cpp:
// the barriers, the producer and the drain loop; WgmmaConsumer.cpp: the
// consumers' main loop and each schedule's end of a tile), and the
// constants they agree on. Private to the product body.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_PRODUCTS_WGMMAKERNEL_H
#define BRRR_COMPILER_CODEGEN_PRODUCTS_WGMMAKERNEL_H

#include "compiler/CodeGen/Products/WgmmaBody.h"
#include "compiler/CodeGen/Products/WgmmaEpilogue.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include <optional>

namespace mlir::brrr::wgmma::detail {

/// Registers the producer warpgroup keeps, and the consumers take: in an
/// overlapped kernel the producer warpgroup's warps 1-3 run the epilogue
/// and keep more (152 + 2 x 176 of the 3 x 168 a thread the block
/// launches with; a residual's epilogue spilled at 104, and a bias, a
/// layer scale and a residual over 192 columns at 136). With a drain
/// warpgroup of its own (MatmulTile::drainGroups) the block launches 512
/// threads with 128 registers each, of which the consumers' 2 x 176 leave
/// 2 x 80 to the producer warpgroup and the drain warpgroup. Without
/// setmaxnreg, consumers holding promoted float8 sums of 128 columns
/// spilled 252 bytes at the launch's 128; with it nothing spills, though
/// ptxas still refused a 256-wide convolution's consumers
/// (kDrainGroupWidth).
constexpr int64_t kProducerRegisters = 40, kConsumerRegisters = 232;
constexpr int64_t kDrainRegisters = 152, kOverlappedConsumerRegisters = 176;
constexpr int64_t kDrainGroupRegisters = 80;
static_assert(2 * kOverlappedConsumerRegisters + 2 * kDrainGroupRegisters <=
                  4 * (65536 / 512),
              "a drain warpgroup's kernel holds its registers from launch");
/// Tile rows per group of the L2-friendly block order.
constexpr int64_t kGroupRows = 8;

/// Warps of an overlapped kernel's producer warpgroup that drain staged
/// tiles (warps 1-3), and of a drain warpgroup.
constexpr int64_t kProducerDrainWarps = 3, kDrainGroupWarps = 4;
/// Row groups a drain warp loads before it computes any: two on 152
/// registers, one on 80 (two spilled a bias and a residual's epilogue, 116
/// bytes).
constexpr int64_t kDrainGroupsInFlight = 2, kDrainGroupGroupsInFlight = 1;
/// Ping-pong turns: a warpgroup starts a tile's main loop once the other
/// has issued its previous tile's products, waiting on named barrier 3 +
/// its index for the other's arrival. Beside keeping one main loop on the
/// Tensor Cores at a time, the turn keeps a warpgroup from waiting on a
/// stage's full barrier before every slice streamed ahead of its own has
/// landed (its parity would name an earlier fill).
constexpr int64_t kTurnBarrier = 3;
/// Spins of an mbarrier wait before it suspends the thread.
constexpr int64_t kWaitTicks = 0x989680;

/// Named barrier of a stream-K kernel's consumer warpgroups: they store a
/// partial tile before one thread raises its flag, and read the partials
/// of others once one thread has seen theirs raised.
constexpr int64_t kStreamKBarrier = 5;

/// The k-slices [begin, end) of a tile that the block computes: all of
/// them (0, kTiles), or under stream-K its run's share.
struct SliceRun {
  Value begin, end;
};

/// Per-tile work of the block: `body(tile, first, i, count, run)` for the
/// block's tiles i = start, start + step, ... of its `count`, `first` the
/// ring position (k-slices streamed before it) of slice `run.begin` of
/// tile i.
using TileBody = std::function<void(TileAt, Value, Value, Value, SliceRun)>;

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
  /// A drain warpgroup (the last, MatmulTile::drainGroups): gives up
  /// registers and drains staged tiles, its warps workers 3-6.
  LogicalResult drainWarpgroup();
  /// Worker `worker` of the drainWorkers: each tile's epilogue, once the
  /// consumers have staged it.
  LogicalResult drainLoop(Value worker);
  /// The warps that drain an overlapped kernel's staged tiles.
  int64_t drainWorkers() const {
    return kProducerDrainWarps + kDrainGroupWarps * tile.drainGroups;
  }
  void producerLoop();
  /// Slice `kt` of tile `at` into stage `s`: the copies of A, of B, or of
  /// both (`which`).
  enum class Operands { a, b, both };
  void copySlice(const TileAt &at, Value kt, Value s, Operands which);
  /// The k-slices of the block's first tile whose B the producer copies
  /// before it waits for the kernel ahead (KernelInfo::independentThrough):
  /// up to the ring's stages where B is a constant weight and the fusion
  /// asks for it (kWeightsBeforeWaitAttrName), else none.
  int64_t weightsAhead();
  /// Warpgroups 1 and up: the main loop of each of their tiles, then the
  /// schedule's end of the tile.
  LogicalResult consumerWarpgroups();
  /// The consumer's k-slice loop over tile positions from `first`; returns
  /// the `halves` accumulators it leaves (promoted sums all added, chained
  /// products perhaps still in flight).
  SmallVector<Value> mainLoop(Value first, SliceRun run);
  /// Issues k-slice `kt`'s products into the accumulators `into` (with
  /// `fresh`, ignoring what they hold) and frees the slice before it once
  /// that one's products retire (unless `kt` is `begin`, the run's first).
  /// `base` is the ring position of slice 0 (`first` - `begin`).
  SmallVector<Value> issueSlice(Value kt, Value base, Value begin,
                                ArrayRef<Value> into, bool fresh);
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
  /// `body` for each of the block's tiles from `start` on, `step` apart.
  /// Under stream-K, the tiles its run of slices touches, each with its
  /// share; with `completedOnly`, only those it completes (all but a
  /// first tile it does not start), numbered from 0.
  void forEachTile(Value start, int64_t step, const TileBody &body,
                   bool completedOnly = false);
  /// Stream-K: the first of the product's slices (tiles x kTiles, in tile
  /// order) of block `block`'s run: block * units / blocks.
  Value runStart(Value block);
  /// Stream-K: 1 where the block's run starts inside a tile (its first
  /// tile is another block's to complete), else 0.
  Value startsInside();
  /// Stream-K, the end of a tile the block does not start: its sums go to
  /// the block's partial tile in the workspace, then its flag is raised.
  void storePartial(Value acc);
  /// Stream-K, the end of a tile the block starts but whose slices from
  /// `run.end` on belong to the blocks after it: each one's partial tile
  /// is added to `acc`, in block order, once its flag is raised (which is
  /// lowered again).
  Value addPartials(Value tileIndex, SliceRun run, Value acc);
  /// The consumer warpgroups' named barrier (kStreamKBarrier).
  void consumersSync();
  /// `body`, run by the first consumer thread only.
  void inLeadConsumer(function_ref<void()> body);
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
  /// Stage `s` is free again for the producers that refill it: lane 0 of a
  /// consumer warp arrives on this block's empty barrier, or with
  /// multicast lane r on block r's (where `when` holds).
  void releaseStage(Value s, Value when);
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
  /// Blocks of a cluster that multicast B to each other (1: none).
  int64_t multicast = 1;
  int64_t blocks = 0, kTiles = 0, consumers = 0, threads = 0;
  /// Stream-K (the config's `stream_k`): the blocks split the product's
  /// `units` = totalTiles x kTiles slices evenly.
  bool streamK = false;
  int64_t units = 0;
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
  /// Stream-K: the workspace's partial tiles (f32 or s32 words, one tile a
  /// block) and flags (one i32 a block), kernel parameters.
  Value partials, flags;
  /// rank: the block's place in its cluster (a split tile's share of the
  /// k-slices, or a multicasting pair's share of B).
  Value rank, stagedBar, drainedBar, ticks;
  /// Symbolic rows: the count the kernel is passed, and its row tiles.
  Value rowsValue, tilesMValue;
  Value consumer, lane, warp;
  std::optional<TileAt> ownTile;
  /// The loop that copies the first slices' weights; the kernel waits for
  /// the kernel ahead after it (null: at its start).
  Operation *independentThrough = nullptr;
};

} // namespace mlir::brrr::wgmma::detail

#endif // BRRR_COMPILER_CODEGEN_PRODUCTS_WGMMAKERNEL_H
