//===- AttentionKernel.cpp - fused scaled dot-product attention ----------===//
//
// The attention family's kernel, in the FlashAttention-2 style on mma.sync
// (f16/bf16 operands, f32 accumulation). A block takes `rows` queries of
// one (batch, head), one warp per 16 of them, and walks the keys in blocks
// of `keys` positions:
// - its queries are staged once and held in registers as A fragments;
// - key and value blocks stream through `stages` shared buffers by
//   cp.async (16-byte chunks, zero-filled past the sequence), the next
//   block's copy overlapping this block's math;
// - each warp computes its 16 x keys scores with mma.sync (keys read with
//   ldmatrix as B, unchanged: a key row is a column of K^T), scales them
//   into the log2 domain (scale * log2 e, the bias times log2 e), masks keys
//   past the sequence and, when causal, past the query;
// - an online softmax keeps each row's running maximum and sum in f32,
//   rescaling the output accumulators with exp2 of the maximum's change;
// - the probabilities, rounded to the operand type, go straight from the
//   score accumulators into A fragments (the two layouts agree) for the
//   product with the value block (ldmatrix transposed).
// f32 operands (an f32 model's attention over symbolic sequences) take the
// same structure on mma.sync m16n8k8 tf32: each operand split into two tf32
// halves and multiplied as three products (mma3xTf32), for f32 accuracy;
// their fragments are read from shared memory element by element.
// On the wgmma body (Hopper, AttentionWgmma.cpp) each warpgroup of 4 warps
// multiplies its 64 queries by wgmma instead: the queries, keys and values
// copied into swizzled shared rows, the probabilities read from registers;
// the rest of the kernel is this one's.
// The S x S scores never reach memory. At the end each row is divided by
// its sum, and the fused epilogue stores it (through a transpose, when
// the heads merge back). With `causal`, key blocks past a block's last
// query are never visited.
//
// Over symbolic sequences the kernel is the largest shape's config with the
// actual query and key sequences, and every stride that follows from them
// (SymbolicGeometry: the operands' batch and head strides through their
// views, the bias's, the output's), as i64 parameters; keys past the actual
// sequence are masked as a ragged static sequence's are.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Attention/AttentionKernel.h"
#include "compiler/CodeGen/Products/GemmKernel.h"

#include <cmath>

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::attention;

LogicalResult AttentionKernel::readConfig() {
  if (failed(checkProductFusion(fusion, att)))
    return failure();
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  // The family's rules verified the config for this fusion (verifyFor).
  tile = AttentionTile::of(*config);
  et = att.getQuery().getType().getElementType();
  bytes = et.getIntOrFloatBitWidth() / 8;
  chunk = 16 / bytes;
  ql = operandLayoutOf(att.getQuery());
  kl = operandLayoutOf(att.getKey());
  vl = operandLayoutOf(att.getValue());
  auto qt = att.getQuery().getType();
  batch = qt.getDimSize(0);
  heads = qt.getDimSize(1);
  sqMax = qt.getDimSize(2);
  d = qt.getDimSize(3);
  kvHeads = att.getKey().getType().getDimSize(1);
  skMax = att.getKey().getType().getDimSize(2);
  dv = att.getValue().getType().getDimSize(3);
  auto readOf = [&](const OperandLayout &l) {
    return Read{
        Extent{l.offset},
        {Extent{l.strides[0]}, Extent{l.strides[1]}, Extent{l.strides[2]}}};
  };
  if (!symbolic) {
    sq = Extent{sqMax};
    sk = Extent{skMax};
    qr = readOf(ql);
    kr = readOf(kl);
    vr = readOf(vl);
  } else {
    auto product = [&](AffineExpr x) { return extentOf(*productOf(x)); };
    sq = product(symbolic->sq);
    sk = product(symbolic->sk);
    auto readOfSymbolic = [&](const SymbolicLayout &l) {
      return Read{extentOf(l.offset),
                  {extentOf(l.strides[0]), extentOf(l.strides[1]),
                   extentOf(l.strides[2])}};
    };
    qr = readOfSymbolic(symbolic->q);
    kr = readOfSymbolic(symbolic->k);
    vr = readOfSymbolic(symbolic->v);
    for (const ExtentProduct &p : symbolic->out)
      outStrides.push_back(extentOf(p));
  }
  rows = tile->rows;
  keys = tile->keys;
  stages = tile->stages;
  threads = tile->threads();
  FailureOr<int64_t> queries = sharedOffset(fusion, SharedRole::query);
  if (failed(queries) ||
      failed(stageOffsets(fusion, stages, kOffsets, vOffsets, SharedRole::key,
                          SharedRole::value)))
    return failure();
  qOffset = *queries;
  mTiles = tile->mTiles();
  warpRows = 16 * mTiles;
  nTiles = keys / 8;
  oTiles = dv / 8;
  oRegs = oTiles * 4;
  wgmma = tile->onWgmma();
  overlapped = tile->overlapped;
  lead = tile->lead();
  // f32 fragments take twice the registers, and their two halves twice
  // again; wgmma reads the queries from shared memory.
  queryInRegisters = !wgmma && mTiles * d <= (et.isF32() ? 32 : 128);
  numInputs = fusion.getInputs().size();
  return success();
}

void AttentionKernel::createFunction(StringRef name) {
  unsigned numBuffers = numInputs + fusion.getNumResults();
  auto func = createKernel(moduleBuilder, loc, name, numBuffers, threads,
                           /*numByValue=*/0, scalars.size());
  // Accumulators, query fragments and probabilities live in registers:
  // state one block per SM, or ptxas caps them at 128 and spills.
  func->setAttr("nvvm.minctasm", moduleBuilder.getI32IntegerAttr(1));
  entry = &func.getBody().front();
  b.setInsertionPointToStart(entry);
  i8 = b.getIntegerType(8);
  i32 = b.getI32Type();
  f32 = b.getF32Type();
  for (unsigned i = 0; i < scalars.size(); ++i)
    params.push_back(indexArgument(b, loc, *entry, numBuffers + i));
  smem = dynamicShared(moduleBuilder, b, loc);
  // The wgmma body's base rounded up to the swizzle's 1024 bytes.
  if (wgmma)
    smem = alignShared(b, loc, smem, 1024).first;
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  lane = e.rem(tid, 32);
  warp = e.div(tid, 32);
  g = e.div(lane, 4);
  t2 = e.mul(e.rem(lane, 4), 2);
  q0 = e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), rows);
  h = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  bz = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  hk = e.div(h, heads / kvHeads);
  auto headBase = [&](const OperandLayout &l, const Read &r, Value head) {
    Value at = e.add(valueOf(r.offset), mul(head, r.strides[1]));
    return e.gep(arg(l.source), et, e.add(at, mul(bz, r.strides[0])));
  };
  qBase = headBase(ql, qr, h);
  kBase = headBase(kl, kr, hk);
  vBase = headBase(vl, vr, hk);
}

Extent AttentionKernel::extentOf(const ExtentProduct &p) {
  if (p.symbols.empty())
    return Extent{p.coefficient};
  AffineExpr x = mlir::brrr::extentOf(p, fusion.getContext());
  auto it = llvm::find(scalars, x);
  if (it == scalars.end()) {
    scalars.push_back(x);
    it = std::prev(scalars.end());
  }
  return Extent{0, int(it - scalars.begin())};
}

void AttentionKernel::copyRows(Value dst, Value base, int64_t count,
                               int64_t width, Value r0, Extent limit,
                               Extent rowStride) {
  int64_t chunks = width / chunk;
  for (int64_t i = 0; i < count * chunks / threads; ++i) {
    Value c = e.add(tid, e.idx(i * threads));
    Value row = e.div(c, chunks), ch = e.rem(c, chunks);
    Value gRow = e.add(r0, row);
    Value valid = ult(gRow, limit);
    Value src = e.gep(
        base, et, e.add(mul(below(gRow, limit), rowStride), e.mul(ch, chunk)));
    Value to = wgmma
                   ? e.gep(dst, i8, swizzledAt(row, ch, count, width))
                   : e.gep(dst, et,
                           e.add(e.mul(row, pitchOf(width)), e.mul(ch, chunk)));
    e.copy16(to, src, valid);
  }
}

void AttentionKernel::loadKeys(Value stage, Value block) {
  Value k0 = e.mul(block, keys);
  copyRows(stageAt(kOffsets, stage), kBase, keys, d, k0, sk, kr.strides[2]);
  copyRows(stageAt(vOffsets, stage), vBase, keys, dv, k0, sk, vr.strides[2]);
}

Value AttentionKernel::keyBlocksEnd() {
  Value end = sk.isStatic() ? e.idx(llvm::divideCeil(sk.value, keys))
                            : e.div(e.add(valueOf(sk), e.idx(keys - 1)), keys);
  if (att.getCausal()) {
    // Keys below q0 + rows + sk - sq (none when that is not positive).
    Value reach = sk.isStatic() ? e.add(q0, e.idx(rows + sk.value))
                                : e.add(q0, e.add(e.idx(rows), valueOf(sk)));
    Value over =
        e.select(e.ugt(reach, valueOf(sq)),
                 arith::SubIOp::create(b, loc, reach, valueOf(sq)), e.idx(0));
    end = e.minu(end, e.div(e.add(over, e.idx(keys - 1)), keys));
  }
  return end;
}

void AttentionKernel::copyFirstBlocks(Value blocks) {
  copyRows(qSmem, qBase, rows, d, q0, sq, qr.strides[2]);
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
  for (int64_t s = 0; s < lead; ++s) {
    Value first =
        sk.isStatic()
            ? e.ult(e.idx(s), llvm::divideCeil(sk.value, keys))
            : Value(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          e.idx(s), blocks));
    auto ifBlock = scf::IfOp::create(b, loc, first, false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifBlock.getThenRegion().front());
      loadKeys(e.idx(s), e.idx(s));
    }
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }
  NVVM::CpAsyncWaitGroupOp::create(b, loc, lead);
  if (wgmma)
    e.fenceAsyncShared();
  gpu::BarrierOp::create(b, loc);
}

Value AttentionKernel::pack(Value lo, Value hi) {
  auto pairType = VectorType::get({2}, et);
  Value v = LLVM::PoisonOp::create(b, loc, pairType);
  v = LLVM::InsertElementOp::create(
      b, loc, v, arith::TruncFOp::create(b, loc, et, lo), e.i32(0));
  v = LLVM::InsertElementOp::create(
      b, loc, v, arith::TruncFOp::create(b, loc, et, hi), e.i32(1));
  return et.isF16() ? v : LLVM::BitcastOp::create(b, loc, i32, v);
}

std::pair<Value, Value> AttentionKernel::loadSplit(Value tile, int64_t width,
                                                   Value row, Value col) {
  Value at = e.add(e.mul(row, pitchOf(width)), col);
  Value v = LLVM::LoadOp::create(b, loc, f32, e.gep(tile, f32, at));
  return splitTf32(b, loc, v);
}

SmallVector<Value> AttentionKernel::loadQuery(int64_t mi, int64_t ks) {
  if (et.isF32()) {
    // A of m16n8k8: (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4).
    Value t = e.div(t2, 2);
    SmallVector<Value> big, small;
    for (int64_t i = 0; i < 4; ++i) {
      Value row = e.add(warpRow0, e.add(g, e.idx(mi * 16 + (i % 2) * 8)));
      Value col = e.add(t, e.idx(ks * 8 + (i / 2) * 4));
      auto [hi, lo] = loadSplit(qSmem, d, row, col);
      big.push_back(hi);
      small.push_back(lo);
    }
    llvm::append_range(big, small);
    return big;
  }
  Value at =
      e.add(e.mul(e.add(warpRow0, e.add(e.idx(mi * 16), laneRow)), pitchOf(d)),
            e.add(e.idx(ks * 16), laneHalf));
  SmallVector<Value> regs;
  for (Value r : e.ldmatrix4(e.gep(qSmem, et, at), NVVM::MMALayout::row))
    regs.push_back(operand(r));
  return regs;
}

void AttentionKernel::readBiasStrides() {
  Value bias = att.getBias();
  biasStrides.assign(5, Extent{0});
  if (bias && symbolic) {
    for (auto [i, p] : llvm::enumerate(symbolic->bias))
      biasStrides[i] = extentOf(p);
  } else if (bias) {
    ArrayRef<int64_t> bs = cast<RankedTensorType>(bias.getType()).getShape();
    SmallVector<int64_t> rm = rowMajorStrides(bs);
    for (size_t i = 0; i < bs.size(); ++i)
      biasStrides[5 - bs.size() + i] = Extent{bs[i] == 1 ? 0 : rm[i]};
    if (bs.size() == 5)
      period = bs[1];
  }
}

void AttentionKernel::readBias() {
  biasHead = mul(h, biasStrides[2]);
  if (period > 1)
    biasHead = e.add(biasHead, e.add(mul(e.div(bz, period), biasStrides[0]),
                                     mul(e.rem(bz, period), biasStrides[1])));
  else if (biasStrides[0].isStatic() && biasStrides[1].isStatic())
    // One stride for the whole batch (at most one of the two is not 0).
    biasHead =
        e.add(biasHead, e.mul(bz, biasStrides[0].value + biasStrides[1].value));
  else // the symbolic one of the two (a rank-4 bias's is the second)
    biasHead =
        e.add(biasHead, mul(bz, biasStrides[0].isStatic() ? biasStrides[1]
                                                          : biasStrides[0]));
}

void AttentionKernel::scores(Value kStage, SmallVectorImpl<Value> &s) {
  for (int64_t ks = 0; ks < d / 16; ++ks) {
    SmallVector<SmallVector<Value>> qk;
    for (int64_t mi = 0; mi < mTiles; ++mi)
      qk.push_back(queryInRegisters ? qFrag[mi][ks] : loadQuery(mi, ks));
    for (int64_t pair = 0; pair < nTiles / 2; ++pair) {
      // Lanes 0-7 and 8-15 address keys pair*16 + 0..7 at head columns
      // ks*16 and +8 (one n8 tile's two k halves), lanes 16-31 the next 8
      // keys.
      Value key = e.add(e.idx(pair * 16),
                        e.add(e.rem(lane, 8), e.mul(e.div(lane, 16), 8)));
      Value col = e.add(e.idx(ks * 16), e.mul(e.rem(e.div(lane, 8), 2), 8));
      SmallVector<Value> r =
          e.ldmatrix4(e.gep(kStage, et, e.add(e.mul(key, pitchOf(d)), col)),
                      NVVM::MMALayout::row);
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        mma(qk[mi], {operand(r[0]), operand(r[1])}, sTile(s, mi, 2 * pair));
        mma(qk[mi], {operand(r[2]), operand(r[3])}, sTile(s, mi, 2 * pair + 1));
      }
    }
  }
}

void AttentionKernel::scoresF32(Value kStage, SmallVectorImpl<Value> &s) {
  Value t = e.div(t2, 2);
  for (int64_t ks = 0; ks < d / 8; ++ks) {
    SmallVector<SmallVector<Value>> qk;
    for (int64_t mi = 0; mi < mTiles; ++mi)
      qk.push_back(queryInRegisters ? qFrag[mi][ks] : loadQuery(mi, ks));
    for (int64_t nt = 0; nt < nTiles; ++nt) {
      // B of m16n8k8 (K^T): rows t and t + 4 of column g, that is head
      // columns t and t + 4 of key g.
      Value key = e.add(g, e.idx(nt * 8));
      auto [b0, s0] = loadSplit(kStage, d, key, e.add(t, e.idx(ks * 8)));
      auto [b1, s1] = loadSplit(kStage, d, key, e.add(t, e.idx(ks * 8 + 4)));
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        ArrayRef<Value> a = qk[mi];
        MutableArrayRef<Value> c = sTile(s, mi, nt);
        SmallVector<Value> sum =
            mma3xTf32(b, loc, a.take_front(4), a.drop_front(4), {b0, b1},
                      {s0, s1}, SmallVector<Value>(c));
        llvm::copy(sum, c.begin());
      }
    }
  }
}

void AttentionKernel::scaleAndMask(Value j, SmallVectorImpl<Value> &s) {
  Value bias = att.getBias();
  Value k0 = e.mul(j, keys);
  bool ragged = !sk.isStatic() || sk.value % keys != 0;
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t nt = 0; nt < nTiles; ++nt)
      for (int64_t i = 0; i < 4; ++i) {
        Value row = rowOf(mi, i / 2);
        Value col = e.add(k0, e.add(t2, e.idx(nt * 8 + i % 2)));
        Value &x = sTile(s, mi, nt)[i];
        x = e.fmul(x, scaleLog2);
        if (bias) {
          Value at =
              e.add(biasHead, e.add(mul(below(row, sq), biasStrides[3]),
                                    mul(below(col, sk), biasStrides[4])));
          Type bt = cast<RankedTensorType>(bias.getType()).getElementType();
          Value bv = LLVM::LoadOp::create(b, loc, bt, e.gep(arg(bias), bt, at));
          if (!bt.isF32())
            bv = arith::ExtFOp::create(b, loc, f32, bv);
          // A finite bias as low as its type's lowest (transformers' masks
          // and masked fills) scores kMaskFloor, whatever the product: a
          // key so masked gets probability 0 beside any unmasked key, and
          // a row whose keys are all masked averages them, as torch's
          // min + score (the score lost in the bias's rounding) and its
          // masked fills do. f32's and bf16's lowest pass the floor in the
          // log2 domain; f16's (-65504) is compared. An infinite bias
          // stays -inf (its row is NaN, as torch's).
          Value biased = math::FmaOp::create(b, loc, bv, e.f32(kLog2e), x);
          Value scored = e.fmax(biased, e.f32(kMaskFloor));
          double lowest =
              llvm::APFloat::getLargest(cast<FloatType>(bt).getFloatSemantics(),
                                        /*Negative=*/true)
                  .convertToDouble();
          if (lowest * kLog2e > kMaskFloor)
            scored =
                e.select(e.fle(bv, e.f32(lowest)), e.f32(kMaskFloor), scored);
          x = e.select(e.feq(bv, negInf), negInf, scored);
        }
        Value masked;
        if (ragged)
          masked =
              sk.isStatic()
                  ? e.uge(col, sk.value)
                  : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                          col, valueOf(sk));
        if (att.getCausal()) {
          Value past = e.ugt(e.add(col, valueOf(sq)), e.add(row, valueOf(sk)));
          masked = masked ? arith::OrIOp::create(b, loc, masked, past) : past;
        }
        if (masked)
          x = e.select(masked, negInf, x);
      }
}

void AttentionKernel::onlineSoftmax(SmallVectorImpl<Value> &s,
                                    SmallVectorImpl<Value> &o,
                                    SmallVectorImpl<Value> &m,
                                    SmallVectorImpl<Value> &l,
                                    SmallVectorImpl<Value> *alphas) {
  for (int64_t mi = 0; mi < mTiles; ++mi)
    for (int64_t r = 0; r < 2; ++r) {
      Value mx = negInf;
      for (int64_t nt = 0; nt < nTiles; ++nt)
        for (int64_t i = 2 * r; i < 2 * r + 2; ++i)
          mx = e.fmax(mx, sTile(s, mi, nt)[i]);
      mx = e.fmax(mx, e.shuffleXor(mx, 1));
      mx = e.fmax(mx, e.shuffleXor(mx, 2));
      Value &mr = m[2 * mi + r], &lr = l[2 * mi + r];
      Value mNew = e.fmax(mr, mx);
      // A row with no key yet keeps exp2(-inf - 0) = 0 everywhere.
      Value mUse = e.select(e.feq(mNew, negInf), zero, mNew);
      Value alpha = e.exp2(e.fsub(mr, mUse));
      Value sum = zero;
      for (int64_t nt = 0; nt < nTiles; ++nt)
        for (int64_t i = 2 * r; i < 2 * r + 2; ++i) {
          Value &x = sTile(s, mi, nt)[i];
          x = e.exp2(e.fsub(x, mUse));
          sum = e.fadd(sum, x);
        }
      lr = e.fadd(e.fmul(lr, alpha), sum);
      mr = mNew;
      if (alphas) {
        alphas->push_back(alpha);
        continue;
      }
      for (int64_t ot = 0; ot < oTiles; ++ot)
        for (int64_t i = 2 * r; i < 2 * r + 2; ++i) {
          Value &acc = o[mi * oRegs + ot * 4 + i];
          acc = e.fmul(acc, alpha);
        }
    }
}

void AttentionKernel::accumulateValues(Value vStage, SmallVectorImpl<Value> &s,
                                       SmallVectorImpl<Value> &o) {
  for (int64_t kk = 0; kk < keys / 16; ++kk) {
    SmallVector<SmallVector<Value>> a;
    for (int64_t mi = 0; mi < mTiles; ++mi) {
      MutableArrayRef<Value> lo = sTile(s, mi, 2 * kk),
                             hi = sTile(s, mi, 2 * kk + 1);
      a.push_back({pack(lo[0], lo[1]), pack(lo[2], lo[3]), pack(hi[0], hi[1]),
                   pack(hi[2], hi[3])});
    }
    for (int64_t pair = 0; pair < oTiles / 2; ++pair) {
      Value row = e.add(e.idx(kk * 16), laneRow);
      Value col = e.add(e.idx(pair * 16), laneHalf);
      SmallVector<Value> r =
          e.ldmatrix4(e.gep(vStage, et, e.add(e.mul(row, pitchOf(dv)), col)),
                      NVVM::MMALayout::col);
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        mma(a[mi], {operand(r[0]), operand(r[1])},
            MutableArrayRef<Value>(o.data() + mi * oRegs + 2 * pair * 4, 4));
        mma(a[mi], {operand(r[2]), operand(r[3])},
            MutableArrayRef<Value>(o.data() + mi * oRegs + (2 * pair + 1) * 4,
                                   4));
      }
    }
  }
}

void AttentionKernel::accumulateValuesF32(Value vStage,
                                          SmallVectorImpl<Value> &s,
                                          SmallVectorImpl<Value> &o) {
  Value t = e.div(t2, 2);
  for (int64_t kk = 0; kk < keys / 8; ++kk) {
    // A's (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4) are the lane's
    // scores (g, 2t), (g + 8, 2t), (g, 2t + 1), (g + 8, 2t + 1).
    SmallVector<SmallVector<Value>> a;
    for (int64_t mi = 0; mi < mTiles; ++mi) {
      MutableArrayRef<Value> p = sTile(s, mi, kk);
      SmallVector<Value> big, small;
      for (Value x : {p[0], p[2], p[1], p[3]}) {
        auto [hi, lo] = splitTf32(b, loc, x);
        big.push_back(hi);
        small.push_back(lo);
      }
      llvm::append_range(big, small);
      a.push_back(big);
    }
    Value k0 = e.add(e.idx(kk * 8), e.mul(t, 2));
    for (int64_t ot = 0; ot < oTiles; ++ot) {
      // B rows t and t + 4: value rows 2t and 2t + 1, column g.
      Value col = e.add(g, e.idx(ot * 8));
      auto [b0, s0] = loadSplit(vStage, dv, k0, col);
      auto [b1, s1] = loadSplit(vStage, dv, e.add(k0, e.idx(1)), col);
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        ArrayRef<Value> am = a[mi];
        MutableArrayRef<Value> c(o.data() + mi * oRegs + ot * 4, 4);
        SmallVector<Value> sum =
            mma3xTf32(b, loc, am.take_front(4), am.drop_front(4), {b0, b1},
                      {s0, s1}, SmallVector<Value>(c));
        llvm::copy(sum, c.begin());
      }
    }
  }
}

scf::ForOp AttentionKernel::keyBlockLoop(Value end) {
  auto loop =
      scf::ForOp::create(b, loc, e.idx(0), end, e.idx(1), initialState());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value j = loop.getInductionVar();
  SmallVector<Value> o, m, l;
  splitState(loop.getRegionIterArgs(), o, m, l);
  Value stage = e.pipelineStep(
      j, stages, end, [&](Value st, Value block) { loadKeys(st, block); },
      /*asyncProxy=*/wgmma, lead);
  Value kStage = stageAt(kOffsets, stage), vStage = stageAt(vOffsets, stage);
  // Scores: warpRows queries x `keys` keys per warp.
  SmallVector<Value> s(mTiles * nTiles * 4, zero);
  if (wgmma)
    scoresWgmma(kStage, s);
  else if (et.isF32())
    scoresF32(kStage, s);
  else
    scores(kStage, s);
  scaleAndMask(j, s);
  onlineSoftmax(s, o, m, l);
  if (wgmma)
    accumulateValuesWgmma(vStage, s, o);
  else if (et.isF32())
    accumulateValuesF32(vStage, s, o);
  else
    accumulateValues(vStage, s, o);
  SmallVector<Value> yield(o);
  llvm::append_range(yield, m);
  llvm::append_range(yield, l);
  scf::YieldOp::create(b, loc, yield);
  return loop;
}

FailureOr<KernelInfo> AttentionKernel::emit(StringRef name) {
  if (failed(readConfig()))
    return failure();
  // Every symbolic extent and stride becomes a parameter before the
  // function is made.
  readBiasStrides();
  if (symbolic) {
    if (!plainStoreOf(fusion, att))
      return att.emitOpError("over symbolic sequences, the attention kernel "
                             "stores its rows only rounded and permuted");
  }
  createFunction(name);
  Value end = keyBlocksEnd();
  Value blocks = end;
  if (att.getCausal() && !sk.isStatic())
    blocks = e.div(e.add(valueOf(sk), e.idx(keys - 1)), keys);
  qSmem = e.gep(smem, i8, e.idx(qOffset));
  copyFirstBlocks(blocks);
  laneRow = e.rem(lane, 16);
  laneHalf = e.mul(e.div(lane, 16), 8);
  warpRow0 = e.mul(warp, warpRows);
  qFrag.resize(mTiles);
  if (queryInRegisters)
    for (int64_t mi = 0; mi < mTiles; ++mi)
      for (int64_t ks = 0; ks < d / (et.isF32() ? 8 : 16); ++ks)
        qFrag[mi].push_back(loadQuery(mi, ks));
  scaleLog2 = e.f32(att.getScale().convertToDouble() * kLog2e);
  negInf = e.f32(-INFINITY);
  zero = e.f32(0);
  readBias();
  SmallVector<Value> results;
  if (overlapped)
    results = overlappedKeyBlocks(end);
  else
    llvm::append_range(results, keyBlockLoop(end).getResults());
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  if (failed(storeRows(results)))
    return failure();
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.block = threads;
  info.sharedBytes = sharedBytesOf(fusion);
  info.scalars = scalars;
  // Two products over every (query, key) pair; half of them when causal.
  int64_t pairs = batch * heads * sqMax * skMax;
  if (att.getCausal())
    pairs = batch * heads * (sqMax * skMax - sqMax * (sqMax - 1) / 2);
  info.flops = 2 * pairs * (d + dv);
  info.bytes = fusionBytes(fusion);
  return info;
}

namespace {

/// The geometry of `att` over symbolic sequences, from `fusion`'s symbolic
/// types: an error where an operand's view or the output is not a layout
/// of products of symbols.
FailureOr<SymbolicGeometry> symbolicGeometryOf(FusionOp fusion,
                                               AttentionOp att) {
  SymbolicGeometry g;
  SmallVector<AffineExpr> q = extentsOf(att.getQuery().getType());
  g.batch = q[0];
  g.sq = q[2];
  g.sk = extentsOf(att.getKey().getType())[2];
  for (AffineExpr x : {g.sq, g.sk})
    if (!productOf(x))
      return att.emitOpError("a sequence's extent is not a product of "
                             "symbols");
  SymbolicLayout *layouts[] = {&g.q, &g.k, &g.v};
  Value operands[] = {att.getQuery(), att.getKey(), att.getValue()};
  Type et = att.getQuery().getType().getElementType();
  for (auto [l, v] : llvm::zip(layouts, operands)) {
    std::optional<SymbolicLayout> layout = symbolicLayoutOf(operandLayoutOf(v));
    if (!layout || !isAttentionStageable(et, *layout))
      return att.emitOpError("over symbolic sequences, reads an operand "
                             "whose rows are not aligned, contiguous 16-byte "
                             "chunks at every shape");
    *l = *layout;
  }
  if (Value bias = att.getBias()) {
    SmallVector<AffineExpr> be =
        extentsOf(cast<RankedTensorType>(bias.getType()));
    std::optional<SmallVector<ExtentProduct>> rm = rowMajorProducts(be);
    if (!rm || be.size() > 4)
      return att.emitOpError("over symbolic sequences, the bias is not a "
                             "tensor of rank 4 at most of products of "
                             "symbols");
    g.bias.assign(5, ExtentProduct{0, {}});
    for (size_t i = 0; i < be.size(); ++i) {
      if (!isUnitExtent(be[i]))
        g.bias[5 - be.size() + i] = (*rm)[i];
    }
  }
  // The output, through the transpose that merges the heads back, if any.
  auto yield = cast<YieldOp>(fusion.getBody().front().getTerminator());
  Value out = yield.getValues().front();
  SmallVector<int64_t> perm = {0, 1, 2, 3};
  if (auto t = out.getDefiningOp<TransposeOp>())
    perm.assign(t.getPerm().begin(), t.getPerm().end());
  std::optional<SmallVector<ExtentProduct>> os =
      rowMajorProducts(extentsOf(cast<RankedTensorType>(out.getType())));
  if (!os || os->size() != 4)
    return att.emitOpError("over symbolic sequences, the output is not a "
                           "rank-4 tensor of products of symbols");
  g.out.assign(4, ExtentProduct{0, {}});
  for (int64_t d = 0; d < 4; ++d)
    g.out[perm[d]] = (*os)[d];
  return g;
}

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitAttentionKernel(FusionOp fusion,
                                                      OpBuilder &moduleBuilder,
                                                      StringRef name) {
  AttentionOp att = attentionOf(fusion);
  if (!att)
    return fusion.emitOpError("attention kernels hold a brrr.attention");
  // Over a symbolic batch: the largest batch's kernel (its grid, the
  // config's, reads the actual batch). Over symbolic sequences too: the
  // actual sequences, and the strides that follow from them, are
  // parameters.
  std::optional<LargestShapeView> largest;
  std::optional<SymbolicGeometry> geometry;
  if (isSymbolic(att.getType())) {
    if (outerRunOf(att.getType()) > 1) {
      FailureOr<SymbolicGeometry> g = symbolicGeometryOf(fusion, att);
      if (failed(g))
        return failure();
      geometry = *g;
    }
    largest.emplace(fusion);
  }
  return AttentionKernel(fusion, att, moduleBuilder,
                         geometry ? &*geometry : nullptr)
      .emit(name);
}
