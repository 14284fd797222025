//===- GemmKernel.cpp - warp-tile Tensor Core GEMM, shared ---------------===//
//
// The untiled body: every warp loads its fragments straight from global
// memory in the PTX fragment layout, masked at the problem's edges. It
// serves f16/bf16 operands that neither the cp.async tile nor TMA can read
// (rows that are not whole 16-byte chunks, sm_80 convolutions); f32
// products run the staged body (StagedGemmKernel.cpp) instead.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/GemmKernel.h"

#include "passes/Analysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;

Value GemmBuilder::inRange(Value x, int64_t c) {
  return both(
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, x, idx(0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, idx(c)));
}

Value GemmBuilder::belowRows(Value row, int64_t M) {
  if (!rows)
    return ult(row, M);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
}

Value GemmBuilder::both(Value p, Value q) {
  return arith::AndIOp::create(b, loc, p, q);
}

Value GemmBuilder::loadIf(Value base, Type elem, Value valid, Value index) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  Value at = arith::SelectOp::create(b, loc, valid, index, idx(0));
  Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), at);
  Value p = LLVM::GEPOp::create(b, loc, ptr, elem, base, ValueRange{i});
  Value v = LLVM::LoadOp::create(b, loc, elem, p);
  Value zero = arith::ConstantOp::create(b, loc, elem, b.getFloatAttr(elem, 0));
  return arith::SelectOp::create(b, loc, valid, v, zero);
}

namespace {

/// Two 16-bit values in one 32-bit register: vector<2xf16> as nvvm.mma.sync
/// takes f16 pairs, an i32 for bf16 pairs.
Value pack(OpBuilder &b, Location loc, Value lo, Value hi) {
  auto vt = VectorType::get({2}, lo.getType());
  Value v = LLVM::PoisonOp::create(b, loc, vt);
  auto i32 = b.getI32Type();
  v = LLVM::InsertElementOp::create(
      b, loc, v, lo,
      arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0)));
  v = LLVM::InsertElementOp::create(
      b, loc, v, hi,
      arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1)));
  if (lo.getType().isF16())
    return v;
  return LLVM::BitcastOp::create(b, loc, i32, v);
}

} // namespace

Value mlir::brrr::roundToTf32(OpBuilder &b, Location loc, Value v) {
  Type i32 = b.getI32Type();
  Value raw = LLVM::BitcastOp::create(b, loc, i32, v);
  Value halfUlp =
      arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0x1000));
  return arith::AndIOp::create(
      b, loc, arith::AddIOp::create(b, loc, raw, halfUlp),
      arith::ConstantOp::create(
          b, loc, i32, b.getI32IntegerAttr(static_cast<int32_t>(0xffffe000u))));
}

std::pair<Value, Value> mlir::brrr::splitTf32(OpBuilder &b, Location loc,
                                              Value v) {
  Value hi = roundToTf32(b, loc, v);
  Value big = LLVM::BitcastOp::create(b, loc, b.getF32Type(), hi);
  Value small = arith::SubFOp::create(b, loc, v, big);
  return {hi, roundToTf32(b, loc, small)};
}

SmallVector<Value> mlir::brrr::mmaTf32(OpBuilder &b, Location loc,
                                       ArrayRef<Value> a, ArrayRef<Value> bRegs,
                                       ArrayRef<Value> acc) {
  return mmaSync(b, loc, NVVM::MMATypes::tf32, 8, a, bRegs, acc);
}

SmallVector<Value>
mlir::brrr::mma3xTf32(OpBuilder &b, Location loc, ArrayRef<Value> aBig,
                      ArrayRef<Value> aSmall, ArrayRef<Value> bBig,
                      ArrayRef<Value> bSmall, ArrayRef<Value> acc) {
  Value zero =
      arith::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(0));
  SmallVector<Value> step(4, zero);
  step = mmaTf32(b, loc, aSmall, bBig, step);
  step = mmaTf32(b, loc, aBig, bSmall, step);
  step = mmaTf32(b, loc, aBig, bBig, step);
  SmallVector<Value> out;
  for (int64_t i = 0; i < 4; ++i)
    out.push_back(arith::AddFOp::create(b, loc, acc[i], step[i]));
  return out;
}

FailureOr<KernelInfo> mlir::brrr::emitGemmKernel(FusionOp fusion,
                                                 const GemmSpec &spec,
                                                 OpBuilder &moduleBuilder,
                                                 StringRef name) {
  Location loc = fusion.getLoc();
  Operation *product = spec.product;
  if (failed(checkProductFusion(fusion, product)))
    return failure();
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  Type et = spec.elem;
  bool symbolic = bool(spec.rowsExtent);
  // f32 operands on mma_sync run the staged body, f16 and bf16 ones on
  // warp_mma this one (verifyProduct).
  if (config->getBody() == KernelBody::mma_sync)
    return emitStagedGemmKernel(fusion, spec, moduleBuilder, name);
  int64_t M = spec.M, N = spec.N, K = spec.K;

  unsigned numInputs = fusion.getInputs().size();
  unsigned numBuffers = numInputs + fusion.getNumResults();
  auto func = createKernel(moduleBuilder, loc, name, numBuffers,
                           config->getThreads(), /*numByValue=*/0,
                           /*numScalars=*/symbolic ? 1 : 0);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  GemmBuilder e{{b, loc}};
  e.arg = [&](Value v) { return kernelArgument(entry, v); };
  if (symbolic)
    e.rows = indexArgument(b, loc, entry, numBuffers);
  e.z = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);

  Value lane = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value g = arith::DivUIOp::create(b, loc, lane, e.idx(4));
  Value t = arith::RemUIOp::create(b, loc, lane, e.idx(4));
  Value col0 = e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), 8);
  Value row0 = e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), 16);

  constexpr int64_t kStep = 16;
  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0));
  auto loop = scf::ForOp::create(b, loc, e.idx(0), e.idx(K), e.idx(kStep),
                                 ValueRange{zero, zero, zero, zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k0 = loop.getInductionVar();
    auto load = [&](const GemmOperand &o, Value r, Value c) {
      auto [valid, index] = o.at(e, r, c);
      return e.loadIf(e.arg(o.source), et, valid, index);
    };
    auto a = [&](Value r, int64_t dr, Value c, int64_t dc) {
      return load(spec.a, e.add(row0, e.add(r, e.idx(dr))),
                  e.add(k0, e.add(c, e.idx(dc))));
    };
    auto bm = [&](Value r, int64_t dr, Value c) {
      return load(spec.b, e.add(k0, e.add(r, e.idx(dr))), e.add(col0, c));
    };
    NVVM::MMATypes ptxType =
        et.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    SmallVector<Value> acc(loop.getRegionIterArgs());
    Value t2 = e.mul(t, 2);
    SmallVector<Value> aRegs = {pack(b, loc, a(g, 0, t2, 0), a(g, 0, t2, 1)),
                                pack(b, loc, a(g, 8, t2, 0), a(g, 8, t2, 1)),
                                pack(b, loc, a(g, 0, t2, 8), a(g, 0, t2, 9)),
                                pack(b, loc, a(g, 8, t2, 8), a(g, 8, t2, 9))};
    SmallVector<Value> bRegs = {pack(b, loc, bm(t2, 0, g), bm(t2, 1, g)),
                                pack(b, loc, bm(t2, 8, g), bm(t2, 9, g))};
    SmallVector<Value> next =
        mmaSync(b, loc, ptxType, kStep, aRegs, bRegs, acc);
    scf::YieldOp::create(b, loc, next);
  }

  // d0..d3 sit at (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1); each goes
  // through the epilogue and is stored.
  SmallVector<Value> outputs(
      entry.getArguments().slice(numInputs, fusion.getNumResults()));
  Value t2 = e.mul(t, 2);
  for (int64_t i = 0; i < 4; ++i) {
    Value r = e.add(row0, e.add(g, e.idx(i < 2 ? 0 : 8)));
    Value c = e.add(col0, e.add(t2, e.idx(i % 2)));
    Value valid = e.both(e.belowRows(r, M), e.ult(c, N));
    auto ifValid = scf::IfOp::create(b, loc, valid, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifValid.getThenRegion().front());
    Value acc = loop.getResult(i);
    if (spec.addBias)
      acc = spec.addBias(e, c, acc);
    if (failed(emitEpilogue(b, loc, fusion, product, acc, spec.outIndex(e, r, c), e.arg,
                            outputs)))
      return failure();
  }
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.block = config->getThreads();
  info.flops = 2 * spec.batches * M * N * K;
  info.bytes = fusionBytes(fusion);
  if (symbolic)
    info.scalars = {spec.rowsExtent};
  return info;
}
