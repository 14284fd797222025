//===- AttentionWgmma.cpp - the attention kernel's Hopper products -------===//
//
// The attention kernel's products on the wgmma body (AttentionKernel.h, a
// config whose body is `wgmma`): each warpgroup of 4 warps multiplies its
// 64 queries. The queries, keys and values sit in shared memory as
// swizzled boxes of 32, 64 or 128 bytes a row (AttentionTile::swizzleOf),
// each box's rows one after the other, where the block's cp.async copies
// put each 16-byte chunk. The scores are one chain of m64 x keys x 16
// wgmmas, the queries (A) and keys (B, read along the head) from shared
// memory; the probabilities, rounded to the operand type, are A straight
// from registers (warp by warp, wgmma's A fragments are mma.sync's, and so
// are its accumulators) for the m64 x dv x 16 wgmmas with the values (B
// read down the keys, transposed). Each warp's 16 rows of a warpgroup's
// accumulators sit as mma.sync's 16 x 8 tiles, so the masks, the online
// softmax and the store are the mma_sync body's.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Attention/AttentionKernel.h"
#include "compiler/CodeGen/Products/WgmmaBody.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::attention;

Value AttentionKernel::swizzledAt(Value row, Value ch, int64_t count,
                                  int64_t width) {
  int64_t sw = AttentionTile::swizzleOf(width, bytes);
  int64_t perBox = sw / 16;
  Value box = e.div(ch, perBox), inBox = e.rem(ch, perBox);
  // The swizzle XORs a row's chunk index with the bits of its offset from
  // 128 bytes up (every row for 128-byte rows, every 2nd for 64, 4th for
  // 32), within each 8-row atom.
  Value phase = e.rem(e.div(e.mul(row, sw), 128), perBox);
  Value swizzled = arith::XOrIOp::create(b, loc, inBox, phase);
  return e.add(e.mul(box, count * sw),
               e.add(e.mul(row, sw), e.mul(swizzled, 16)));
}

Value AttentionKernel::operandDescriptor(Value ptr, int64_t count,
                                         int64_t width, int64_t step,
                                         bool transposed) {
  wgmma::WgmmaBuilder w{{b, loc}};
  int64_t sw = AttentionTile::swizzleOf(width, bytes);
  Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
  return transposed ? wgmma::mnMajorDescriptor(w, addr, count, sw, step)
                    : wgmma::kMajorDescriptor(w, addr, count, sw, step);
}

Value AttentionKernel::issueScoresWgmma(Value kStage) {
  MLIRContext *ctx = b.getContext();
  NVVM::WGMMATypes type =
      et.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  auto accType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(keys / 2, f32));
  // The warpgroup's 64 queries start 64 rows into each box.
  int64_t sw = AttentionTile::swizzleOf(d, bytes);
  Value group = e.div(warp, 4);
  Value qGroup = e.gep(qSmem, i8, e.mul(group, 64 * sw));
  Value acc = LLVM::ZeroOp::create(b, loc, accType);
  for (int64_t ks = 0; ks < d / 16; ++ks)
    acc = NVVM::WgmmaMmaAsyncOp::create(
        b, loc, accType, acc,
        operandDescriptor(qGroup, rows, d, ks, /*transposed=*/false),
        operandDescriptor(kStage, keys, d, ks, /*transposed=*/false),
        NVVM::MMAShapeAttr::get(ctx, 64, keys, 16), type, type,
        NVVM::WGMMATypes::f32,
        ks == 0 ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
        NVVM::MMALayout::col, nullptr);
  return acc;
}

void AttentionKernel::extractScores(Value acc, SmallVectorImpl<Value> &s) {
  for (int64_t i = 0; i < keys / 2; ++i)
    s[i] = LLVM::ExtractValueOp::create(b, loc, acc, i);
  MutableArrayRef<Value> scores(s.data(), keys / 2);
  SmallVector<Value> regs(scores);
  fenceOperands(regs);
  llvm::copy(regs, scores.begin());
}

void AttentionKernel::scoresWgmma(Value kStage, SmallVectorImpl<Value> &s) {
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  Value acc = issueScoresWgmma(kStage);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  extractScores(acc, s);
}

void AttentionKernel::fenceOperands(SmallVectorImpl<Value> &regs) {
  if (regs.empty())
    return;
  int64_t n = regs.size();
  SmallVector<std::string> constraints;
  for (int64_t i = 0; i < n; ++i)
    constraints.push_back("=f");
  for (int64_t i = 0; i < n; ++i)
    constraints.push_back(std::to_string(i));
  auto type = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                               SmallVector<Type>(n, f32));
  auto fence = LLVM::InlineAsmOp::create(
      b, loc, type, regs, "", llvm::join(constraints, ","),
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  for (int64_t i = 0; i < n; ++i)
    regs[i] = LLVM::ExtractValueOp::create(b, loc, fence.getResult(0), i);
}

SmallVector<Value>
AttentionKernel::packProbabilities(SmallVectorImpl<Value> &s) {
  auto asI32 = [&](Value pair) {
    return pair.getType() == i32
               ? pair
               : Value(LLVM::BitcastOp::create(b, loc, i32, pair));
  };
  SmallVector<Value> a;
  for (int64_t kk = 0; kk < keys / 16; ++kk) {
    MutableArrayRef<Value> lo = sTile(s, 0, 2 * kk),
                           hi = sTile(s, 0, 2 * kk + 1);
    for (Value pair : {pack(lo[0], lo[1]), pack(lo[2], lo[3]),
                       pack(hi[0], hi[1]), pack(hi[2], hi[3])})
      a.push_back(asI32(pair));
  }
  return a;
}

void AttentionKernel::issueValuesWgmma(Value vStage, ArrayRef<Value> a,
                                       SmallVectorImpl<Value> &o) {
  MLIRContext *ctx = b.getContext();
  int64_t n = dv / 2;
  auto accType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(n, f32));
  // wgmma with A from registers (the NVVM op takes A from shared memory
  // only): D, A's four registers, B's descriptor and scale-d as operands,
  // the accumulators tied to the results.
  StringRef t = et.isBF16() ? "bf16" : "f16";
  std::string text =
      "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(2 * n + 5) +
      ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(dv) +
      "k16.f32." + t.str() + "." + t.str() + " {";
  SmallVector<std::string> names, constraints;
  for (int64_t i = 0; i < n; ++i) {
    names.push_back("$" + std::to_string(i));
    constraints.push_back("=f");
  }
  text += llvm::join(names, ", ") + "}, {$" + std::to_string(2 * n) + ", $" +
          std::to_string(2 * n + 1) + ", $" + std::to_string(2 * n + 2) +
          ", $" + std::to_string(2 * n + 3) + "}, $" +
          std::to_string(2 * n + 4) + ", p, 1, 1, 1;\n}";
  for (int64_t i = 0; i < n; ++i)
    constraints.push_back(std::to_string(i));
  llvm::append_range(constraints,
                     SmallVector<std::string>{"r", "r", "r", "r", "l", "n"});
  std::string constraintText = llvm::join(constraints, ",");
  SmallVector<Value> acc(o.begin(), o.begin() + n);
  // scale-d as an immediate: a register holding it would be written
  // between the chains of the overlapped schedule, serializing them.
  Value one = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1));
  for (int64_t kk = 0; kk < keys / 16; ++kk) {
    SmallVector<Value> operands(acc);
    llvm::append_range(operands, a.slice(4 * kk, 4));
    operands.push_back(
        operandDescriptor(vStage, keys, dv, kk, /*transposed=*/true));
    operands.push_back(one);
    auto mma = LLVM::InlineAsmOp::create(
        b, loc, accType, operands, text, constraintText,
        /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT), ArrayAttr());
    for (int64_t i = 0; i < n; ++i)
      acc[i] = LLVM::ExtractValueOp::create(b, loc, mma.getResult(0), i);
  }
  llvm::copy(acc, o.begin());
}

void AttentionKernel::accumulateValuesWgmma(Value vStage,
                                            SmallVectorImpl<Value> &s,
                                            SmallVectorImpl<Value> &o) {
  // Every A register is written before the fence: one written between
  // two wgmmas of the chain makes ptxas wait for the first.
  SmallVector<Value> a = packProbabilities(s);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  issueValuesWgmma(vStage, a, o);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  SmallVector<Value> acc(o.begin(), o.begin() + dv / 2);
  fenceOperands(acc);
  llvm::copy(acc, o.begin());
}

SmallVector<Value> AttentionKernel::overlappedKeyBlocks(Value end) {
  // The state of keyBlockLoop; where no key block is visited, as it
  // starts.
  SmallVector<Value> init = initialState();
  auto any = scf::IfOp::create(b, loc, TypeRange(ValueRange(init)),
                               e.ugt(end, e.idx(0)), /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&any.getElseRegion().front());
  scf::YieldOp::create(b, loc, init);
  b.setInsertionPointToStart(&any.getThenRegion().front());
  auto load = [&](Value st, Value block) { loadKeys(st, block); };
  int64_t n = dv / 2;
  SmallVector<Value> o, m, l;
  splitState(init, o, m, l);
  // Block 0: its scores and softmax.
  Value first = e.pipelineStep(e.idx(0), stages, end, load,
                               /*asyncProxy=*/true, lead);
  SmallVector<Value> s(mTiles * nTiles * 4, zero);
  scoresWgmma(stageAt(kOffsets, first), s);
  scaleAndMask(e.idx(0), s);
  onlineSoftmax(s, o, m, l);
  SmallVector<Value> a = packProbabilities(s);

  // Blocks 1 .. end - 1, each with the values of the block before.
  SmallVector<Value> state(o);
  llvm::append_range(state, m);
  llvm::append_range(state, l);
  llvm::append_range(state, a);
  auto loop = scf::ForOp::create(b, loc, e.idx(1), end, e.idx(1), state);
  {
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(loop.getBody());
    Value j = loop.getInductionVar();
    ValueRange args = loop.getRegionIterArgs();
    SmallVector<Value> o, m, l;
    splitState(args, o, m, l);
    SmallVector<Value> a(args.drop_front(mTiles * oRegs + 4 * mTiles));
    Value stage =
        e.pipelineStep(j, stages, end, load, /*asyncProxy=*/true, lead);
    Value before = e.rem(e.add(j, e.idx(stages - 1)), stages);
    // Both chains behind one fence: the probabilities and the rescaled
    // output were written in the iteration before.
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    Value acc = issueScoresWgmma(stageAt(kOffsets, stage));
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    issueValuesWgmma(stageAt(vOffsets, before), a, o);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    // The scores (the older group) while the values' product runs.
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
    SmallVector<Value> s(mTiles * nTiles * 4, zero);
    extractScores(acc, s);
    scaleAndMask(j, s);
    SmallVector<Value> alphas;
    onlineSoftmax(s, o, m, l, &alphas);
    // The next A registers are written once the product reading this
    // block's is done (the loop may give them the same registers): the
    // probabilities pass through an empty asm after the wait, so that
    // their packing cannot move above it.
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    SmallVector<Value> p(s.begin(), s.begin() + keys / 2);
    fenceOperands(p);
    llvm::copy(p, s.begin());
    SmallVector<Value> next = packProbabilities(s);
    SmallVector<Value> out(o.begin(), o.begin() + n);
    fenceOperands(out);
    for (int64_t r = 0; r < 2; ++r)
      for (int64_t ot = 0; ot < oTiles; ++ot)
        for (int64_t i = 2 * r; i < 2 * r + 2; ++i)
          out[ot * 4 + i] = e.fmul(out[ot * 4 + i], alphas[r]);
    SmallVector<Value> yield(out);
    llvm::append_range(yield, m);
    llvm::append_range(yield, l);
    llvm::append_range(yield, next);
    scf::YieldOp::create(b, loc, yield);
  }
  // The last block's values.
  ValueRange results = loop.getResults();
  splitState(results, o, m, l);
  a.assign(results.begin() + mTiles * oRegs + 4 * mTiles, results.end());
  Value last = e.rem(e.add(end, e.idx(stages - 1)), stages);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  issueValuesWgmma(stageAt(vOffsets, last), a, o);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  SmallVector<Value> out(o.begin(), o.begin() + n);
  fenceOperands(out);
  SmallVector<Value> yield(out);
  llvm::append_range(yield, m);
  llvm::append_range(yield, l);
  scf::YieldOp::create(b, loc, yield);
  return SmallVector<Value>(any.getResults());
}
