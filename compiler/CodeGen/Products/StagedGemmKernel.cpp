//===- StagedGemmKernel.cpp - f32 GEMM on staged tf32 tiles --------------===//
//
// The f32 body of the matmul and convolution families (GemmKernel.h): each
// block computes an m x n output tile with warps of 64 x 32 or 32 x 32
// (4 or 2 x 4 mma.sync m16n8k8 tiles of 16 x 8; the config's thread count
// says which). k-slices of A and B (the config's k deep) stream from
// global to shared memory through the config's stages with one 4-byte
// cp.async per element, addressed through the family's callbacks (a strided
// matrix, an image seen through im2col), so any layout is tiled;
// zero-filled where the callbacks say the element lies outside the
// problem. Each operand's slice keeps its contiguous dimension innermost
// (MatmulTile::f32Pitch), so a warp's copies read contiguous memory and
// neither they nor the fragment reads conflict on banks. Fragments are
// split into tf32 pairs (3xTF32, f32 accuracy) or rounded to tf32
// (--precision=tf32) as they leave shared memory; the fused pointwise
// epilogue runs on the f32 accumulators before the only store. A tile whose
// config has a cluster splits its k-slices over that many blocks of one
// thread-block cluster (sm_90a), which sum their partial tiles through
// distributed shared memory before the epilogue.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/GemmKernel.h"

#include "passes/Config/Products.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;

FailureOr<KernelInfo> mlir::brrr::emitStagedGemmKernel(FusionOp fusion,
                                                       const GemmSpec &spec,
                                                       OpBuilder &moduleBuilder,
                                                       StringRef name) {
  Location loc = fusion.getLoc();
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  // The product rules verified the tile for this fusion (verifyProduct).
  MatmulTile tile = *MatmulTile::of(*config);
  int64_t threads = config->getThreads();
  // Warps of wm x 32: (m / wm) x (n / 32) of them.
  int64_t warpsN = tile.n / 32;
  int64_t wm = threads == tile.f32Threads(64) ? 64 : 32;
  int64_t kMi = wm / 16, kNj = 4;
  int64_t M = spec.M, N = spec.N, K = spec.K;
  SmallVector<int64_t> aOffsets, bOffsets;
  if (failed(stageOffsets(fusion, tile.stages, aOffsets, bOffsets)))
    return failure();

  unsigned numInputs = fusion.getInputs().size();
  unsigned numBuffers = numInputs + fusion.getNumResults();
  // Over symbolic rows, the rows are an i64 parameter after the buffers.
  bool symbolic = bool(spec.rowsExtent);
  auto func = createKernel(moduleBuilder, loc, name, numBuffers, threads,
                           /*numByValue=*/0, /*numScalars=*/symbolic ? 1 : 0);
  // The config takes 64 x 64 tiles where larger ones leave multiprocessors
  // idle, so that at most two of their blocks share one (f32TileOf): state
  // two, or ptxas sizes the registers for more blocks than the grid has (a
  // 128 x 128 x 80 product: 80 registers, 168 stating two; fp32 GPT-2 at
  // batch 1 ran 10% faster stating two).
  if (tile.m == 64 && tile.n == 64)
    func->setAttr("nvvm.minctasm", moduleBuilder.getI32IntegerAttr(2));
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  GemmBuilder e{{b, loc}};
  e.arg = [&](Value v) { return kernelArgument(entry, v); };
  e.z = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  if (symbolic)
    e.rows = indexArgument(b, loc, entry, numBuffers);
  StagedMath sm{{b, loc}};
  Type i8 = b.getIntegerType(8), f32 = b.getF32Type();
  Value smem = dynamicShared(moduleBuilder, b, loc);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = e.rem(tid, 32), warp = e.div(tid, 32);
  Value warpRow = e.div(warp, warpsN), warpCol = e.rem(warp, warpsN);
  // A split tile's blocks are consecutive in x, one cluster: block `rank`
  // streams its run of the k-slices.
  int64_t split = tile.cluster;
  int64_t kTiles = llvm::divideCeil(K, tile.k);
  int64_t perRank = llvm::divideCeil(kTiles, split);
  Value bidx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value rank = e.rem(bidx, split);
  Value col0 = e.mul(e.div(bidx, split), tile.n);
  Value row0 = e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), tile.m);
  Value kBegin = e.mul(rank, perRank);
  // Slices of this block: min(perRank, kTiles - kBegin), never negative.
  Value kCount = arith::SubIOp::create(
      b, loc,
      arith::MinUIOp::create(b, loc, e.add(kBegin, e.idx(perRank)),
                             e.idx(kTiles)),
      arith::MinUIOp::create(b, loc, kBegin, e.idx(kTiles)));
  int64_t aPitch = MatmulTile::f32Pitch(spec.a.alongK, tile.m, tile.k);
  int64_t bPitch = MatmulTile::f32Pitch(spec.b.alongK, tile.n, tile.k);

  /// Shared index of element (major, kk) of a slice laid out with rows of
  /// `pitch` along K (`alongK`) or along its major dimension (A's rows, B's
  /// columns).
  auto sharedIndex = [&](bool alongK, int64_t pitch, Value major, Value kk) {
    return alongK ? e.add(e.mul(major, pitch), kk)
                  : e.add(e.mul(kk, pitch), major);
  };
  /// Copies slice k0.. of operand `o` (A when `isA`) into `stage`: element
  /// el of the slice goes to the thread el % threads, consecutive elements
  /// along the operand's contiguous dimension to consecutive lanes.
  auto copySlice = [&](Value stage, const GemmOperand &o, bool isA,
                       int64_t rows, int64_t pitch, Value k0) {
    // Where the block's threads cover whole rows of the slice (rows along
    // the operand's contiguous dimension), copy i is the thread's first
    // copy moved by whole rows: its coordinates are the first one's plus a
    // constant, not a division each. Each copy's own division left 32
    // addresses and bound checks live across the main loop (a 128 x 128
    // tile: 255 registers and a spill; 179 this way).
    int64_t inner = o.alongK ? tile.k : rows;
    bool affine = threads % inner == 0;
    Value tidMajor, tidK;
    if (affine) {
      tidMajor = o.alongK ? e.div(tid, tile.k) : e.rem(tid, rows);
      tidK = o.alongK ? e.rem(tid, tile.k) : e.div(tid, rows);
    }
    for (int64_t i = 0; i < rows * tile.k / threads; ++i) {
      Value major, kk;
      if (affine) {
        int64_t step = i * threads / inner;
        major = o.alongK ? e.add(tidMajor, e.idx(step)) : tidMajor;
        kk = o.alongK ? tidK : e.add(tidK, e.idx(step));
      } else {
        Value el = e.add(tid, e.idx(i * threads));
        major = o.alongK ? e.div(el, tile.k) : e.rem(el, rows);
        kk = o.alongK ? e.rem(el, tile.k) : e.div(el, rows);
      }
      auto [valid, index] = isA ? o.at(e, e.add(row0, major), e.add(k0, kk))
                                : o.at(e, e.add(k0, kk), e.add(col0, major));
      Value at = arith::SelectOp::create(b, loc, valid, index, e.idx(0));
      sm.copy(sm.gep(stage, f32, sharedIndex(o.alongK, pitch, major, kk)),
              sm.gep(e.arg(o.source), f32, at), valid, 4);
    }
  };
  auto loadStage = [&](Value stage, Value kt) {
    Value k0 = e.mul(e.add(kBegin, kt), tile.k);
    copySlice(sm.gep(smem, i8, sm.stageOffset(aOffsets, stage)), spec.a,
              /*isA=*/true, tile.m, aPitch, k0);
    copySlice(sm.gep(smem, i8, sm.stageOffset(bOffsets, stage)), spec.b,
              /*isA=*/false, tile.n, bPitch, k0);
  };

  // Prologue: the first stages - 1 slices in flight.
  for (int64_t s = 0; s < tile.stages - 1; ++s) {
    if (s < perRank) {
      auto ifSlice = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, e.idx(s),
                                kCount),
          false);
      OpBuilder::InsertionGuard sliceGuard(b);
      b.setInsertionPointToStart(&ifSlice.getThenRegion().front());
      loadStage(e.idx(s), e.idx(s));
    }
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }

  // kMi x 4 tiles of 16 x 8 per warp, 4 accumulators each.
  Value zero = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0));
  SmallVector<Value> init(kMi * kNj * 4, zero);
  Value g = e.div(lane, 4), t = e.rem(lane, 4);
  auto loop = scf::ForOp::create(b, loc, e.idx(0), kCount, e.idx(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value stage = sm.pipelineStep(kt, tile.stages, kCount, loadStage);
    Value aStage = sm.gep(smem, i8, sm.stageOffset(aOffsets, stage));
    Value bStage = sm.gep(smem, i8, sm.stageOffset(bOffsets, stage));
    auto lds = [&](Value base, Value index) -> Value {
      return LLVM::LoadOp::create(b, loc, f32, sm.gep(base, f32, index));
    };
    // A(r, c) of the slice: r < m, c < k; B(r, c): r < k, c < n.
    auto aAt = [&](Value r, int64_t dr, Value c, int64_t dc) {
      return lds(aStage, sharedIndex(spec.a.alongK, aPitch, e.add(r, e.idx(dr)),
                                     e.add(c, e.idx(dc))));
    };
    auto bAt = [&](Value r, int64_t dr, Value c, int64_t dc) {
      return lds(bStage, sharedIndex(spec.b.alongK, bPitch, e.add(c, e.idx(dc)),
                                     e.add(r, e.idx(dr))));
    };
    Value warpR = e.add(e.mul(warpRow, wm), g);
    Value warpC = e.add(e.mul(warpCol, 32), g);
    bool rounded = config->getPrecision() == KernelPrecision::tf32;
    SmallVector<Value> acc(loop.getRegionIterArgs());
    for (int64_t ks = 0; ks < tile.k / 8; ++ks) {
      // a0..a3 at (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4) of a
      // 16 x 8 A tile; b0, b1 at (t, g), (t + 4, g) of an 8 x 8 B tile.
      SmallVector<SmallVector<Value>> aBig(kMi), aSmall(kMi), bBig(kNj),
          bSmall(kNj);
      auto take = [&](Value v, SmallVectorImpl<Value> &big,
                      SmallVectorImpl<Value> &small) {
        if (rounded) {
          big.push_back(roundToTf32(b, loc, v));
          return;
        }
        auto [hi, lo] = splitTf32(b, loc, v);
        big.push_back(hi);
        small.push_back(lo);
      };
      Value kc = e.add(t, e.idx(ks * 8));
      for (int64_t mi = 0; mi < kMi; ++mi)
        for (auto [dr, dc] :
             {std::pair<int64_t, int64_t>{0, 0}, {8, 0}, {0, 4}, {8, 4}})
          take(aAt(warpR, mi * 16 + dr, kc, dc), aBig[mi], aSmall[mi]);
      for (int64_t nj = 0; nj < kNj; ++nj)
        for (int64_t dr : {0, 4})
          take(bAt(kc, dr, warpC, nj * 8), bBig[nj], bSmall[nj]);
      for (int64_t mi = 0; mi < kMi; ++mi)
        for (int64_t nj = 0; nj < kNj; ++nj) {
          MutableArrayRef<Value> c(acc.data() + (mi * kNj + nj) * 4, 4);
          SmallVector<Value> out = rounded
                                       ? mmaTf32(b, loc, aBig[mi], bBig[nj], c)
                                       : mma3xTf32(b, loc, aBig[mi], aSmall[mi],
                                                   bBig[nj], bSmall[nj], c);
          llvm::copy(out, c.begin());
        }
    }
    scf::YieldOp::create(b, loc, acc);
  }
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);

  // A split tile's blocks stage their accumulators (thread-major, so that
  // the stores and the cluster's reads coalesce), synchronize the cluster,
  // and each sums every block's partials of its share of the warp tiles, in
  // block order, through distributed shared memory.
  Value partials;
  if (split > 1) {
    FailureOr<int64_t> at = sharedOffset(fusion, SharedRole::partials);
    if (failed(at))
      return failure();
    partials = sm.gep(smem, i8, e.idx(*at));
    // The partials may overlap the slices: every warp is done reading them.
    gpu::BarrierOp::create(b, loc);
    for (int64_t j = 0; j < kMi * kNj * 4; ++j)
      LLVM::StoreOp::create(
          b, loc, loop.getResult(j),
          sm.gep(partials, f32, e.add(tid, e.idx(j * threads))));
    clusterBarrier(b, loc);
  }
  int64_t tilesPerRank = kMi * kNj / split;

  // Accumulator i of tile (mi, nj) sits at row g (+8 for i >= 2), column
  // 2t (+1 for odd i) of that 16 x 8 tile.
  SmallVector<Value> outputs(
      entry.getArguments().slice(numInputs, fusion.getNumResults()));
  Value t2 = e.mul(t, 2);
  Value warpRow0 = e.add(row0, e.mul(warpRow, wm));
  Value warpCol0 = e.add(col0, e.mul(warpCol, 32));
  for (int64_t mi = 0; mi < kMi; ++mi)
    for (int64_t nj = 0; nj < kNj; ++nj) {
      int64_t index = mi * kNj + nj;
      OpBuilder::InsertionGuard tileGuard(b);
      if (split > 1) {
        auto ifMine = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank,
                                  e.idx(index / tilesPerRank)),
            false);
        b.setInsertionPointToStart(&ifMine.getThenRegion().front());
      }
      for (int64_t i = 0; i < 4; ++i) {
        int64_t j = index * 4 + i;
        Value acc = loop.getResult(j);
        if (split > 1)
          acc = sumOverCluster(
              b, loc, sm.gep(partials, f32, e.add(tid, e.idx(j * threads))),
              f32, split, 4);
        Value r = e.add(warpRow0, e.add(g, e.idx(mi * 16 + (i < 2 ? 0 : 8))));
        Value c = e.add(warpCol0, e.add(t2, e.idx(nj * 8 + i % 2)));
        Value valid = e.both(e.belowRows(r, M), e.ult(c, N));
        auto ifValid = scf::IfOp::create(b, loc, valid, false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifValid.getThenRegion().front());
        if (spec.addBias)
          acc = spec.addBias(e, c, acc);
        if (failed(emitEpilogue(b, loc, fusion, spec.product, acc,
                                spec.outIndex(e, r, c), e.arg, outputs)))
          return failure();
      }
    }
  // No block leaves while another still reads its partials.
  if (split > 1)
    clusterBarrier(b, loc);
  gpu::ReturnOp::create(b, loc);

  if (split > 1)
    func->setAttr("nvvm.cluster_dim", moduleBuilder.getDenseI32ArrayAttr(
                                          {static_cast<int32_t>(split), 1, 1}));

  KernelInfo info;
  info.name = name.str();
  info.block = threads;
  info.sharedBytes = sharedBytesOf(fusion);
  info.flops = 2 * spec.batches * M * N * K;
  info.bytes = fusionBytes(fusion);
  if (symbolic)
    info.scalars = {spec.rowsExtent};
  return info;
}
