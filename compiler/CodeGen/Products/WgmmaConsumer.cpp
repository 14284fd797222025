//===- WgmmaConsumer.cpp - the consumers of a wgmma kernel ----------------===//
//
// The consumer warpgroups of a Hopper TMA + wgmma kernel (WgmmaKernel.h):
// each tile's main loop over its k-slices (the products issued, their
// slices released, ping-pong turns taken and handed on, float8 sums
// promoted), then the schedule's end of the tile: the fused epilogue
// (cooperative and ping-pong) or the hand-off to the drain warps
// (overlapped).
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/WgmmaKernel.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::wgmma;
using namespace mlir::brrr::wgmma::detail;

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
                // The tile's last slice is read: its stage goes to the
                // next tile.
                if (persistent)
                  releaseStage(stageOf(e.add(first, e.idx(kTiles - 1))),
                               Value());
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
  // A K-major slice is boxes of rows `swizzle` bytes wide: one box of 128,
  // or several of 32 or 64, each a tap of a convolution, the tile's rows of
  // one after the other's.
  int64_t sw = problem.swizzle;
  for (int64_t kk = 0; kk < tile.k / kStep; ++kk) {
    // N-major B (16-bit only): 64-column boxes of 128 bytes, k rows each.
    Value descB = problem.bKContiguous
                      ? kMajorDescriptor(e, bAddr, tile.n, sw, kk)
                      : mnMajorDescriptor(e, bAddr, tile.k, kSwizzleBytes, kk);
    for (int64_t h = 0; h < halves; ++h) {
      Value descA = kMajorDescriptor(e, aAddrs[h], tile.m, sw, kk);
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
  releaseStage(
      stageOf(arith::SubIOp::create(b, loc, it, e.idx(1))),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, kt, e.idx(0)));
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
