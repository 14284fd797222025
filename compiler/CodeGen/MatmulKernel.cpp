//===- MatmulKernel.cpp - brrr.fusion matmul -> gpu.func ------------------===//
//
// The first matmul kernel family: correct on Tensor Cores, not yet tiled.
// One warp computes one 16x8 output tile with `mma.sync` (m16n8k16 for
// f16/bf16; for f32 operands three m16n8k8 tf32 products that together
// keep f32 accuracy), accumulating in f32 over K.
// Fragments are loaded straight from global memory in the PTX fragment
// layout, masked at the matrix edges; batch dimensions broadcast through
// per-operand strides (grid z). The shared-memory-staged, pipelined
// Hopper version replaces this family behind the same fusion kind.
// Pointwise ops after the matmul in the fusion are its epilogue (bias,
// activation, residual, cast), applied to the f32 accumulators before the
// only store.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

struct MmaEmitter : IndexMath {
  Value lt(Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, idx(c));
  }
  Value clampTo(Value x, int64_t hi) {
    return arith::MinUIOp::create(b, loc, x, idx(std::max<int64_t>(hi, 0)));
  }
  /// base[row * rowStride + col] if (row, col) is inside rows x cols, else 0.
  Value loadMasked(Value base, Type elem, Value batchOffset, Value row,
                   Value col, int64_t rows, int64_t cols, int64_t rowStride) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
    Value valid = arith::AndIOp::create(b, loc, lt(row, rows), lt(col, cols));
    Value at = add(batchOffset, add(mul(clampTo(row, rows - 1), rowStride),
                                    clampTo(col, cols - 1)));
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), at);
    Value p = LLVM::GEPOp::create(b, loc, ptr, elem, base, ValueRange{i});
    Value v = LLVM::LoadOp::create(b, loc, elem, p);
    Value zero =
        arith::ConstantOp::create(b, loc, elem, b.getFloatAttr(elem, 0));
    return arith::SelectOp::create(b, loc, valid, v, zero);
  }
  /// Two 16-bit values packed into one 32-bit register.
  Value pack(Value lo, Value hi) {
    auto vt = VectorType::get({2}, lo.getType());
    Value v = LLVM::PoisonOp::create(b, loc, vt);
    auto i32 = b.getI32Type();
    v = LLVM::InsertElementOp::create(
        b, loc, v, lo,
        arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0)));
    v = LLVM::InsertElementOp::create(
        b, loc, v, hi,
        arith::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1)));
    return LLVM::BitcastOp::create(b, loc, i32, v);
  }
};

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitMatmulKernel(FusionOp fusion,
                                                   OpBuilder &moduleBuilder,
                                                   StringRef name) {
  MLIRContext *ctx = fusion.getContext();
  Location loc = fusion.getLoc();
  Block &body = fusion.getBody().front();
  // The matmul comes first; pointwise ops after it are its fused epilogue.
  auto mm = dyn_cast<MatmulOp>(&body.front());
  if (!mm)
    return fusion.emitOpError("matmul kernels start with a brrr.matmul");
  for (Operation &op : llvm::drop_begin(body.without_terminator()))
    if (!isPointwise(&op) && !isa<ConstantOp>(op))
      return op.emitOpError("cannot be a matmul epilogue");
  auto lt = cast<RankedTensorType>(mm.getLhs().getType());
  auto rt = cast<RankedTensorType>(mm.getRhs().getType());
  auto ot = cast<RankedTensorType>(mm.getType());
  Type et = lt.getElementType();
  bool tf32 = et.isF32();
  if (!(et.isF16() || et.isBF16() || tf32))
    return mm.emitOpError("matmul kernels take f16, bf16 or f32 operands, got ")
           << et;
  int64_t M = ot.getDimSize(ot.getRank() - 2),
          N = ot.getDimSize(ot.getRank() - 1);
  int64_t K = lt.getDimSize(lt.getRank() - 1);
  ArrayRef<int64_t> batch = ot.getShape().drop_back(2);
  int64_t batches = 1;
  for (int64_t d : batch)
    batches *= d;
  if (batches > 65535 || llvm::divideCeil(M, 16) > 65535)
    return mm.emitOpError("matmul grid exceeds the launch limits");

  auto ptrTy = LLVM::LLVMPointerType::get(ctx, 1);
  unsigned numInputs = fusion.getInputs().size();
  auto func =
      createKernel(moduleBuilder, loc, name, numInputs + fusion.getNumResults(),
                   /*blockSize=*/32);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  MmaEmitter e{{b, loc}};
  auto argOf = [&](Value v) {
    return entry.getArgument(cast<BlockArgument>(v).getArgNumber());
  };
  Value A = argOf(mm.getLhs()), B = argOf(mm.getRhs());

  Value lane = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value g = arith::DivUIOp::create(b, loc, lane, e.idx(4));
  Value t = arith::RemUIOp::create(b, loc, lane, e.idx(4));
  Value col0 = e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), 8);
  Value row0 = e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), 16);
  Value z = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);

  // Batch offsets of each operand (broadcast dimensions have stride 0).
  auto batchOffset = [&](RankedTensorType type) -> Value {
    ArrayRef<int64_t> shape = type.getShape();
    int64_t matrix = shape[shape.size() - 1] * shape[shape.size() - 2];
    return e.mul(e.broadcastIndex(z, batch, shape.drop_back(2)), matrix);
  };
  Value aOff = batchOffset(lt), bOff = batchOffset(rt);
  Value cOff = e.mul(z, M * N);

  int64_t kStep = tf32 ? 8 : 16;
  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0));
  auto loop = scf::ForOp::create(b, loc, e.idx(0), e.idx(K), e.idx(kStep),
                                 ValueRange{zero, zero, zero, zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k0 = loop.getInductionVar();
    auto a = [&](Value r, int64_t dr, Value c, int64_t dc) {
      return e.loadMasked(A, et, aOff, e.add(row0, e.add(r, e.idx(dr))),
                          e.add(k0, e.add(c, e.idx(dc))), M, K, K);
    };
    auto bm = [&](Value r, int64_t dr, Value c) {
      return e.loadMasked(B, et, bOff, e.add(k0, e.add(r, e.idx(dr))),
                          e.add(col0, c), K, N, N);
    };
    auto i32 = b.getI32Type();
    std::string type = tf32          ? "m16n8k8.row.col.f32.tf32.tf32.f32"
                       : et.isBF16() ? "m16n8k16.row.col.f32.bf16.bf16.f32"
                                     : "m16n8k16.row.col.f32.f16.f16.f32";
    auto resultType =
        LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
    // acc += A x B on one 16x8 tile (A: 4 registers, B: 2).
    auto mma = [&](ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                   ArrayRef<Value> acc) {
      SmallVector<Value> operands(aRegs.begin(), aRegs.end());
      operands.append(bRegs.begin(), bRegs.end());
      operands.append(acc.begin(), acc.end());
      auto op = LLVM::InlineAsmOp::create(
          b, loc, resultType, operands,
          b.getStringAttr("mma.sync.aligned." + type +
                          " {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, "
                          "{$10,$11,$12,$13};"),
          b.getStringAttr("=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"), UnitAttr(),
          UnitAttr(),
          LLVM::TailCallKindAttr::get(ctx,
                                      LLVM::tailcallkind::TailCallKind::None),
          LLVM::AsmDialectAttr(), ArrayAttr());
      SmallVector<Value> out;
      for (int64_t i = 0; i < 4; ++i)
        out.push_back(LLVM::ExtractValueOp::create(b, loc, op.getResult(0), i));
      return out;
    };
    SmallVector<Value> acc(loop.getRegionIterArgs());
    SmallVector<Value> next;
    if (tf32) {
      // f32 operands keep f32 accuracy with three tf32 products (3xTF32):
      // x = big + small, where big keeps tf32's 10 mantissa bits and small
      // (exact in f32) the rest; a*b ~ big*big + big*small + small*big.
      auto bits = [&](Value v) -> Value {
        return LLVM::BitcastOp::create(b, loc, i32, v);
      };
      auto split = [&](Value v, SmallVectorImpl<Value> &big,
                       SmallVectorImpl<Value> &small) {
        Value hi = arith::AndIOp::create(
            b, loc, bits(v),
            arith::ConstantOp::create(
                b, loc, i32,
                b.getI32IntegerAttr(static_cast<int32_t>(0xffffe000u))));
        Value bigF = LLVM::BitcastOp::create(b, loc, f32, hi);
        big.push_back(hi);
        small.push_back(bits(arith::SubFOp::create(b, loc, v, bigF)));
      };
      SmallVector<Value> aBig, aSmall, bBig, bSmall;
      for (Value v :
           {a(g, 0, t, 0), a(g, 8, t, 0), a(g, 0, t, 4), a(g, 8, t, 4)})
        split(v, aBig, aSmall);
      for (Value v : {bm(t, 0, g), bm(t, 4, g)})
        split(v, bBig, bSmall);
      next = mma(aSmall, bBig, acc);
      next = mma(aBig, bSmall, next);
      next = mma(aBig, bBig, next);
    } else {
      Value t2 = e.mul(t, 2);
      SmallVector<Value> aRegs = {e.pack(a(g, 0, t2, 0), a(g, 0, t2, 1)),
                                  e.pack(a(g, 8, t2, 0), a(g, 8, t2, 1)),
                                  e.pack(a(g, 0, t2, 8), a(g, 0, t2, 9)),
                                  e.pack(a(g, 8, t2, 8), a(g, 8, t2, 9))};
      SmallVector<Value> bRegs = {e.pack(bm(t2, 0, g), bm(t2, 1, g)),
                                  e.pack(bm(t2, 8, g), bm(t2, 9, g))};
      next = mma(aRegs, bRegs, acc);
    }
    scf::YieldOp::create(b, loc, next);
  }

  // d0..d3 sit at (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1). Each goes
  // through the epilogue (other operands read at their broadcast index of
  // the output element) and is stored in every result's type.
  SmallVector<int64_t> outShape(ot.getShape());
  pointwise::PointwiseEmitter pe(b, loc);
  auto yield = cast<YieldOp>(body.getTerminator());
  Value t2 = e.mul(t, 2);
  for (int64_t i = 0; i < 4; ++i) {
    Value r = e.add(row0, e.add(g, e.idx(i < 2 ? 0 : 8)));
    Value c = e.add(col0, e.add(t2, e.idx(i % 2)));
    Value valid = arith::AndIOp::create(b, loc, e.lt(r, M), e.lt(c, N));
    auto ifValid = scf::IfOp::create(b, loc, valid, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifValid.getThenRegion().front());
    Value at = e.add(cOff, e.add(e.mul(r, N), c));
    DenseMap<Value, Value> scalar;
    scalar[mm.getResult()] = loop.getResult(i);
    // An epilogue input: the element that broadcasts to `at`.
    auto load = [&](Value operand) -> Value {
      auto type = cast<RankedTensorType>(operand.getType());
      Value index = e.broadcastIndex(at, outShape, type.getShape());
      Type mt = pointwise::memoryType(type.getElementType());
      Value p = LLVM::GEPOp::create(b, loc, ptrTy, mt, argOf(operand),
                                    ValueRange{arith::IndexCastOp::create(
                                        b, loc, b.getI64Type(), index)});
      return pe.fromMemory(LLVM::LoadOp::create(b, loc, mt, p),
                           type.getElementType());
    };
    if (failed(pe.emitOps(llvm::drop_begin(body.without_terminator()), scalar,
                          load)))
      return failure();
    for (auto [k, y] : llvm::enumerate(yield.getValues())) {
      Type elem = cast<RankedTensorType>(y.getType()).getElementType();
      Value p = LLVM::GEPOp::create(
          b, loc, ptrTy, pointwise::memoryType(elem),
          entry.getArgument(numInputs + k),
          ValueRange{arith::IndexCastOp::create(b, loc, b.getI64Type(), at)});
      LLVM::StoreOp::create(b, loc, pe.toMemory(scalar.lookup(y), elem), p);
    }
  }
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.grid = llvm::divideCeil(N, 8);
  info.gridY = llvm::divideCeil(M, 16);
  info.gridZ = batches;
  info.block = 32;
  info.flops = 2 * batches * M * N * K;
  for (Value v : fusion.getInputs())
    info.bytes += bufferBytes(cast<RankedTensorType>(v.getType()));
  for (Value v : fusion.getResults())
    info.bytes += bufferBytes(cast<RankedTensorType>(v.getType()));
  return info;
}
