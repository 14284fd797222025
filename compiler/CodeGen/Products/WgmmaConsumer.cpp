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
  // The end of a tile the block completes (the `n`th it completes).
  auto complete = [&](const TileAt &at, Value n, SmallVector<Value> accs) {
    if (overlapped) {
      handOffToDrain(n, asF32(accs[0]));
      return;
    }
    if (failed(storeEpilogue(at, accs)))
      status = failure();
  };
  forEachTile(
      pingpong ? consumer : e.idx(0), pingpong ? 2 : 1,
      [&](TileAt at, Value first, Value i, Value count, SliceRun run) {
        if (pingpong)
          waitForTurn(i);
        SmallVector<Value> accs = mainLoop(first, run);
        if (pingpong)
          passTurn(i, count);
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
        // The run's last slice is read: its stage goes to the next tile.
        if (persistent)
          releaseStage(stageOf(arith::SubIOp::create(
                           b, loc,
                           e.add(first, arith::SubIOp::create(b, loc, run.end,
                                                              run.begin)),
                           e.idx(1))),
                       Value());
        if (!streamK) {
          complete(at, i, accs);
          return;
        }
        // Stream-K: a tile the block does not start is another's to
        // complete (only its first can be); one it starts, it completes
        // with the partial tiles of the blocks after it.
        auto ifPartial = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, run.begin,
                                  e.idx(0)),
            /*withElseRegion=*/true);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&ifPartial.getThenRegion().front());
        storePartial(accs[0]);
        b.setInsertionPointToStart(&ifPartial.getElseRegion().front());
        accs[0] = addPartials(first, run, accs[0]);
        complete(at, arith::SubIOp::create(b, loc, i, startsInside()), accs);
      });
  return status;
}

/// One PTX instruction (or a few) with side effects: its first result, if
/// it has one.
static Value ptx(OpBuilder &b, Location loc, TypeRange results,
                 ValueRange operands, StringRef text, StringRef constraints) {
  auto op = LLVM::InlineAsmOp::create(
      b, loc, results, operands, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
  return results.empty() ? Value() : op.getResult(0);
}

void WgmmaKernel::inLeadConsumer(function_ref<void()> body) {
  auto ifLead = scf::IfOp::create(
      b, loc,
      arith::AndIOp::create(b, loc, e.eq(consumer, 0), e.eq(inGroup, 0)),
      false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifLead.getThenRegion().front());
  body();
}

void WgmmaKernel::consumersSync() {
  NVVM::BarrierOp::create(b, loc, Type(), e.i32(kStreamKBarrier),
                          e.i32(128 * consumers), nullptr, Value());
}

/// The byte offset in a block's partial tile of this thread's `v`th group
/// of four accumulators: each warpgroup's groups one after the other, each
/// group's 128 threads' four words side by side (a warp stores 512
/// consecutive bytes).
static Value partialOffset(WgmmaBuilder &e, Value consumer, Value inGroup,
                           int64_t groups, int64_t v) {
  return e.mul(
      e.add(e.mul(e.add(e.mul(consumer, groups), e.idx(v)), 128), inGroup), 16);
}

void WgmmaKernel::storePartial(Value acc) {
  Type word = accElementType();
  auto vecType = VectorType::get({4}, word);
  int64_t groups = tile.n / 2 / 4;
  Value slot = e.at(partials, e.mul(bid, tile.m * tile.n * 4));
  for (int64_t v = 0; v < groups; ++v) {
    Value vec = LLVM::UndefOp::create(b, loc, vecType);
    for (int64_t j = 0; j < 4; ++j)
      vec = LLVM::InsertElementOp::create(
          b, loc, vec, LLVM::ExtractValueOp::create(b, loc, acc, 4 * v + j),
          e.i32(j));
    LLVM::StoreOp::create(
        b, loc, vec, e.at(slot, partialOffset(e, consumer, inGroup, groups, v)),
        /*alignment=*/16);
  }
  // Every consumer thread's words are stored; one thread raises the flag
  // (a release at GPU scope, CUTLASS's generic barrier's protocol).
  consumersSync();
  inLeadConsumer([&] {
    ptx(b, loc, {}, {e.at(flags, e.mul(bid, 4))},
        "fence.acq_rel.gpu;\n\tst.relaxed.gpu.global.b32 [$0], 1;",
        "l,~{memory}");
  });
}

Value WgmmaKernel::addPartials(Value first, SliceRun run, Value acc) {
  Type word = accElementType();
  Type i32 = b.getI32Type();
  int64_t groups = tile.n / 2 / 4;
  // The tile's slices end at `tileEnd` in the product's order; the blocks
  // after this one whose runs start before it hold the rest.
  Value tileEnd = e.add(
      arith::SubIOp::create(b, loc, e.add(runStart(bid), first), run.begin),
      e.idx(kTiles));
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType(), acc.getType()},
      ValueRange{e.add(bid, e.idx(1)), acc},
      [&](OpBuilder &nested, Location, ValueRange args) {
        OpBuilder::InsertionGuard inside(b);
        b.setInsertionPointToEnd(nested.getInsertionBlock());
        Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           runStart(args[0]), tileEnd);
        scf::ConditionOp::create(b, loc, more, args);
      },
      [&](OpBuilder &nested, Location, ValueRange args) {
        OpBuilder::InsertionGuard inside(b);
        b.setInsertionPointToEnd(nested.getInsertionBlock());
        Value c = args[0], sums = args[1];
        Value flag = e.at(flags, e.mul(c, 4));
        // One thread waits for block c's flag (an acquire at GPU scope)
        // and lowers it for the next launch; then every consumer thread
        // reads its words of c's partial tile, from L2.
        inLeadConsumer([&] {
          scf::WhileOp::create(
              b, loc, TypeRange{}, ValueRange{},
              [&](OpBuilder &nested, Location, ValueRange) {
                OpBuilder::InsertionGuard inside(b);
                b.setInsertionPointToEnd(nested.getInsertionBlock());
                Value seen = ptx(b, loc, i32, {flag},
                                 "ld.acquire.gpu.global.b32 $0, [$1];",
                                 "=r,l,~{memory}");
                scf::ConditionOp::create(
                    b, loc,
                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          seen, e.i32(0)),
                    ValueRange{});
              },
              [&](OpBuilder &nested, Location, ValueRange) {
                OpBuilder::InsertionGuard inside(b);
                b.setInsertionPointToEnd(nested.getInsertionBlock());
                scf::YieldOp::create(b, loc);
              });
          ptx(b, loc, {}, {flag}, "st.relaxed.gpu.global.b32 [$0], 0;",
              "l,~{memory}");
        });
        consumersSync();
        Value slot = e.at(partials, e.mul(c, tile.m * tile.n * 4));
        auto quad =
            LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, i32));
        for (int64_t v = 0; v < groups; ++v) {
          Value words =
              ptx(b, loc, quad,
                  {e.at(slot, partialOffset(e, consumer, inGroup, groups, v))},
                  "ld.global.cg.v4.b32 {$0, $1, $2, $3}, [$4];",
                  "=r,=r,=r,=r,l,~{memory}");
          for (int64_t j = 0; j < 4; ++j) {
            Value w = LLVM::ExtractValueOp::create(b, loc, words, j);
            Value mine = LLVM::ExtractValueOp::create(b, loc, sums, 4 * v + j);
            Value sum =
                word.isF32()
                    ? arith::AddFOp::create(
                          b, loc, mine,
                          arith::BitcastOp::create(b, loc, word, w))
                          .getResult()
                    : arith::AddIOp::create(b, loc, mine, w).getResult();
            sums = LLVM::InsertValueOp::create(b, loc, sums, sum, 4 * v + j);
          }
        }
        scf::YieldOp::create(b, loc, ValueRange{e.add(c, e.idx(1)), sums});
      });
  return loop.getResult(1);
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

SmallVector<Value> WgmmaKernel::issueSlice(Value kt, Value base, Value begin,
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
  Value it = persistent ? e.add(base, kt) : kt;
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
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, kt, begin));
  return sums;
}

SmallVector<Value> WgmmaKernel::mainLoop(Value first, SliceRun run) {
  auto accType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(tile.n / 2, accElementType()));
  SmallVector<Value> zeros(halves, LLVM::ZeroOp::create(b, loc, accType));
  // Slice kt sits at ring position base + kt.
  Value base = arith::SubIOp::create(b, loc, first, run.begin);
  auto loop = scf::ForOp::create(b, loc, run.begin, run.end, e.idx(1), zeros);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value kt = loop.getInductionVar();
  SmallVector<Value> accs(loop.getRegionIterArgs());
  if (!promoted) {
    // One chain of products over the whole contraction.
    scf::YieldOp::create(
        b, loc, issueSlice(kt, base, run.begin, accs, /*fresh=*/false));
    return SmallVector<Value>(loop.getResults());
  }
  // Promoted: each slice's products sum in fresh registers (the first
  // ignores what they hold); once they retire, the slice's sums join the
  // accumulators. Two slices a promotion measured 5-9% faster but 21%
  // further from float64 than cuBLAS's promoted FP8 GEMM, which one slice
  // matches (test/gpu/notes/2026-12-02-c.md).
  SmallVector<Value> sums =
      issueSlice(kt, base, run.begin, zeros, /*fresh=*/true);
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
