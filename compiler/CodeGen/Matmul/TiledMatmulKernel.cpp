//===- TiledMatmulKernel.cpp - staged Tensor Core matmul -----------------===//
//
// The matmul family's tiled body, for f16/bf16 products whose operand rows
// are whole, aligned 16-byte chunks, read through their layouts (fused
// transposes permute strides; the config (brrr-select-kernel-config) has
// the tile, brrr-plan-shared-memory places the staging buffers). Each block
// computes an m x n output tile with (m/64) x (n/64) warps of 64 x 64. k-slices
// of A and B stream from global to shared memory with cp.async (16 bytes per
// thread and copy, zero-filled past the matrix edges) through `stages` buffers,
// so the copies of the next slices overlap the Tensor Core work on this one.
// Fragments come out of shared memory with ldmatrix (B transposed on the
// way) into nvvm.mma.sync m16n8k16, f32 accumulators in registers; the
// fused pointwise epilogue runs on them before the only store.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"

#include "passes/Config/Products.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;

FailureOr<KernelInfo>
mlir::brrr::emitTiledMatmulKernel(FusionOp fusion, OpBuilder &moduleBuilder,
                                  StringRef name) {
  Location loc = fusion.getLoc();
  MatmulOp mm = matmulOf(fusion);
  if (!mm)
    return fusion.emitOpError("matmul kernels hold a brrr.matmul");
  if (failed(checkProductFusion(fusion, mm)))
    return failure();
  ProductOperands po = productOperandsOf(mm);
  const OperandLayout &lhs = po.lhs, &rhs = po.rhs;
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  // The product rules verified the tile for these operands: staged in
  // 16-byte chunks, a warp a 64 x 64 tile, whole chunks a thread
  // (verifyProduct).
  MatmulTile tile = *MatmulTile::of(*config);
  int64_t threads = tile.threads();

  Type et = mm.getLhs().getType().getElementType();
  const ProductShape &shape = po.shape;
  // Over symbolic batches: the largest shape's kernel, its grid z the
  // actual batches'.
  std::optional<LargestShapeView> largest;
  if (isSymbolic(mm.getType()))
    largest.emplace(fusion);
  int64_t M = shape.M, N = shape.N, K = shape.K, batches = shape.batches;
  ArrayRef<int64_t> batch = shape.batch;
  SmallVector<int64_t> aOffsets, bOffsets;
  if (failed(stageOffsets(fusion, tile.stages, aOffsets, bOffsets)))
    return failure();

  unsigned numInputs = fusion.getInputs().size();
  auto func =
      createKernel(moduleBuilder, loc, name, numInputs + fusion.getNumResults(),
                   threads);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  StagedMath e{{b, loc}};
  auto arg = [&](Value v) { return kernelArgument(entry, v); };
  Type i8 = b.getIntegerType(8), f32 = b.getF32Type();
  Value smem = dynamicShared(moduleBuilder, b, loc);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = e.rem(tid, 32), warp = e.div(tid, 32);
  int64_t warpsN = tile.n / 64;
  Value warpRow = e.div(warp, warpsN), warpCol = e.rem(warp, warpsN);
  Value col0 = e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), tile.n);
  Value row0 = e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::y), tile.m);
  Value z = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value aBase = e.gep(arg(lhs.source), et,
                      e.add(batchOffset(e, lhs, batch, z), e.idx(lhs.offset)));
  Value bBase = e.gep(arg(rhs.source), et,
                      e.add(batchOffset(e, rhs, batch, z), e.idx(rhs.offset)));
  int64_t aRowStride = lhs.strides[lhs.strides.size() - 2];
  int64_t bRowStride = rhs.strides[rhs.strides.size() - 2];
  // One 16-byte cp.async per chunk; chunks past the matrix read nothing
  // and leave zeros, from a clamped in-bounds address.
  /// Copies a rows x (8 * chunksPerRow) slice whose element (0, 0) is at
  /// (r0, c0) of a rowLimit x colLimit matrix (row stride `rowStride`,
  /// unit column stride, from `base`) into shared memory at `stage`, rows
  /// `pitch` apart; every thread copies rows * chunksPerRow / threads chunks.
  auto copySlice = [&](Value stage, Value base, int64_t rows,
                       int64_t chunksPerRow, Value r0, Value c0,
                       int64_t rowLimit, int64_t colLimit, int64_t rowStride,
                       int64_t pitch) {
    for (int64_t i = 0; i < rows * chunksPerRow / threads; ++i) {
      Value c = e.add(tid, e.idx(i * threads));
      Value row = e.div(c, chunksPerRow), ch = e.rem(c, chunksPerRow);
      Value gRow = e.add(r0, row), gCol = e.add(c0, e.mul(ch, 8));
      Value valid = arith::AndIOp::create(b, loc, e.ult(gRow, rowLimit),
                                          e.ult(gCol, colLimit));
      Value src = e.gep(base, et,
                        e.add(e.mul(e.minu(gRow, rowLimit - 1), rowStride),
                              e.minu(gCol, colLimit - 8)));
      Value dst = e.gep(stage, et, e.add(e.mul(row, pitch), e.mul(ch, 8)));
      e.copy16(dst, src, valid);
    }
  };
  // Slice kt: A[row0.., k0..] (m x k) and B[k0.., col0..] (k x n).
  auto loadStage = [&](Value stage, Value kt) {
    Value k0 = e.mul(kt, tile.k);
    copySlice(e.gep(smem, i8, e.stageOffset(aOffsets, stage)), aBase, tile.m,
              tile.k / 8, row0, k0, M, K, aRowStride, tile.aPitch());
    copySlice(e.gep(smem, i8, e.stageOffset(bOffsets, stage)), bBase, tile.k,
              tile.n / 8, k0, col0, K, N, bRowStride, tile.bPitch());
  };

  // Prologue: the first stages - 1 slices in flight.
  int64_t kTiles = llvm::divideCeil(K, tile.k);
  for (int64_t s = 0; s < tile.stages - 1; ++s) {
    if (s < kTiles)
      loadStage(e.idx(s), e.idx(s));
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }

  // 4 x 8 tiles of 16 x 8 per warp, 4 accumulators each.
  constexpr int64_t kMi = 4, kNj = 8;
  Value zero = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0));
  SmallVector<Value> init(kMi * kNj * 4, zero);
  auto loop =
      scf::ForOp::create(b, loc, e.idx(0), e.idx(kTiles), e.idx(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value stage = e.pipelineStep(kt, tile.stages, e.idx(kTiles), loadStage);
    Value aStage = e.gep(smem, i8, e.stageOffset(aOffsets, stage));
    Value bStage = e.gep(smem, i8, e.stageOffset(bOffsets, stage));
    Value laneRow = e.rem(lane, 16), laneHalf = e.mul(e.div(lane, 16), 8);
    SmallVector<Value> acc(loop.getRegionIterArgs());
    for (int64_t ks = 0; ks < tile.k / 16; ++ks) {
      SmallVector<SmallVector<Value>> aFrag, bFrag;
      for (int64_t mi = 0; mi < kMi; ++mi) {
        Value row = e.add(e.mul(warpRow, 64), e.add(e.idx(mi * 16), laneRow));
        Value col = e.add(e.idx(ks * 16), laneHalf);
        aFrag.push_back(e.ldmatrix4(
            e.gep(aStage, et, e.add(e.mul(row, tile.aPitch()), col)),
            NVVM::MMALayout::row));
      }
      for (int64_t pair = 0; pair < kNj / 2; ++pair) {
        // k rows ks*16 + lane%16; lanes 16..31 address the next 8 columns:
        // transposed, registers 0-1 and 2-3 are two n8 fragments.
        Value row = e.add(e.idx(ks * 16), laneRow);
        Value col =
            e.add(e.mul(warpCol, 64), e.add(e.idx(pair * 16), laneHalf));
        SmallVector<Value> r = e.ldmatrix4(
            e.gep(bStage, et, e.add(e.mul(row, tile.bPitch()), col)),
            NVVM::MMALayout::col);
        bFrag.push_back({r[0], r[1]});
        bFrag.push_back({r[2], r[3]});
      }
      for (int64_t mi = 0; mi < kMi; ++mi) {
        SmallVector<Value> aRegs;
        for (Value r : aFrag[mi])
          aRegs.push_back(e.mmaOperand(r, et));
        for (int64_t nj = 0; nj < kNj; ++nj) {
          SmallVector<Value> bRegs = {e.mmaOperand(bFrag[nj][0], et),
                                      e.mmaOperand(bFrag[nj][1], et)};
          e.mma16816(
              aRegs, bRegs,
              MutableArrayRef<Value>(acc.data() + (mi * kNj + nj) * 4, 4), et);
        }
      }
    }
    scf::YieldOp::create(b, loc, acc);
  }
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);

  // Accumulator i of tile (mi, nj) sits at row g (+8 for i >= 2), column
  // 2t (+1 for odd i) of that 16 x 8 tile.
  SmallVector<Value> outputs(entry.getArguments().drop_front(numInputs));
  Value g = e.div(lane, 4), t2 = e.mul(e.rem(lane, 4), 2);
  Value warpRow0 = e.add(row0, e.mul(warpRow, 64));
  Value warpCol0 = e.add(col0, e.mul(warpCol, 64));
  for (int64_t mi = 0; mi < kMi; ++mi)
    for (int64_t nj = 0; nj < kNj; ++nj)
      for (int64_t i = 0; i < 4; ++i) {
        Value r = e.add(warpRow0, e.add(g, e.idx(mi * 16 + (i < 2 ? 0 : 8))));
        Value c = e.add(warpCol0, e.add(t2, e.idx(nj * 8 + i % 2)));
        Value valid = arith::AndIOp::create(b, loc, e.ult(r, M), e.ult(c, N));
        auto ifValid = scf::IfOp::create(b, loc, valid, false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&ifValid.getThenRegion().front());
        Value at = e.add(e.mul(z, M * N), e.add(e.mul(r, N), c));
        if (failed(emitEpilogue(b, loc, fusion, mm,
                                loop.getResult((mi * kNj + nj) * 4 + i), at,
                                arg, outputs)))
          return failure();
      }
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.block = threads;
  info.sharedBytes = sharedBytesOf(fusion);
  info.flops = 2 * batches * M * N * K;
  info.bytes = fusionBytes(fusion);
  return info;
}
