//===- ReduceKernel.cpp - brrr.fusion reduce -> gpu.func ------------------===//
//
// The general reduction family, for the reductions row kernels do not take:
// leading or interleaved axes (a sum over the batch, a mean over H of
// NCHW), integer elements. One thread per output element walks the reduced
// elements in row-major order and combines them in its compute type (f32
// for 16-bit floats). Neighbouring threads own neighbouring kept
// coordinates, so when the innermost axis is kept (reducing leading axes)
// every step of the walk is one coalesced read across the warp.
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

constexpr int64_t kBlock = 256;

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitReduceKernel(FusionOp fusion,
                                                   OpBuilder &moduleBuilder,
                                                   StringRef name) {
  Location loc = fusion.getLoc();
  FailureOr<Operation *> single = singleOp(fusion, "reduce");
  if (failed(single))
    return failure();
  auto red = dyn_cast<ReduceOp>(*single);
  if (!red)
    return (*single)->emitOpError("has no reduce-kernel code generation");
  auto inType = cast<RankedTensorType>(red.getInput().getType());
  Type et = inType.getElementType();
  if (et.isInteger(1))
    return red.emitOpError("reductions of booleans have no kernel");
  Type ct = pointwise::computeType(et), mt = pointwise::memoryType(et);
  bool isFloat = isa<FloatType>(ct);
  if (!isFloat && red.getKind() == ReduceKind::mean)
    return red.emitOpError("integer means have no kernel");

  ArrayRef<int64_t> shape = inType.getShape();
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  SmallVector<int64_t> kept, reduced;
  for (int64_t d = 0; d < inType.getRank(); ++d)
    (llvm::is_contained(red.getAxes(), d) ? reduced : kept).push_back(d);
  int64_t outputs = 1, count = 1;
  for (int64_t d : kept)
    outputs *= shape[d];
  for (int64_t d : reduced)
    count *= shape[d];

  auto func = createKernel(moduleBuilder, loc, name, 2, kBlock);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  IndexMath e{b, loc};
  pointwise::PointwiseEmitter pe(b, loc);
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  /// Coordinate `d` of a row-major index into `dims`, as a sum of
  /// coordinate * input stride over those dimensions.
  auto offsetOf = [&](Value linear, ArrayRef<int64_t> dims) {
    Value offset = e.idx(0);
    int64_t inner = 1;
    for (int64_t d : llvm::reverse(dims)) {
      Value coord = arith::RemUIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, linear, e.idx(inner)),
          e.idx(shape[d]));
      offset = e.add(offset, e.mul(coord, strides[d]));
      inner *= shape[d];
    }
    return offset;
  };

  Value tid = e.add(e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
                          kBlock),
                    gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  auto inBounds = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                            e.idx(outputs)),
      false);
  b.setInsertionPointToStart(&inBounds.getThenRegion().front());
  Value base = offsetOf(tid, kept);

  // The combination's identity and step.
  Value init;
  switch (red.getKind()) {
  case ReduceKind::sum:
  case ReduceKind::mean:
    init = pe.cst(ct, 0);
    break;
  case ReduceKind::prod:
    init = pe.cst(ct, 1);
    break;
  case ReduceKind::max:
    init = pe.extreme(et, /*lowest=*/true);
    break;
  case ReduceKind::min:
    init = pe.extreme(et, /*lowest=*/false);
    break;
  }
  auto combine = [&](Value acc, Value v) -> Value {
    switch (red.getKind()) {
    case ReduceKind::sum:
    case ReduceKind::mean:
      return isFloat ? Value(arith::AddFOp::create(b, loc, acc, v))
                     : Value(arith::AddIOp::create(b, loc, acc, v));
    case ReduceKind::prod:
      return isFloat ? Value(arith::MulFOp::create(b, loc, acc, v))
                     : Value(arith::MulIOp::create(b, loc, acc, v));
    case ReduceKind::max:
      return pe.max(acc, v, et);
    case ReduceKind::min:
      return pe.min(acc, v, et);
    }
    llvm_unreachable("unknown reduction");
  };

  auto loop = scf::ForOp::create(b, loc, e.idx(0), e.idx(count), e.idx(1),
                                 ValueRange{init});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value at = e.add(base, offsetOf(loop.getInductionVar(), reduced));
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), at);
    Value p = LLVM::GEPOp::create(b, loc, ptr, mt, entry.getArgument(0),
                                  ValueRange{i});
    Value v = pe.fromMemory(LLVM::LoadOp::create(b, loc, mt, p), et);
    scf::YieldOp::create(b, loc, combine(loop.getRegionIterArgs()[0], v));
  }
  Value acc = loop.getResult(0);
  if (red.getKind() == ReduceKind::mean)
    acc = arith::DivFOp::create(b, loc, acc,
                                pe.cst(ct, static_cast<double>(count)));
  Value out = arith::IndexCastOp::create(b, loc, b.getI64Type(), tid);
  LLVM::StoreOp::create(
      b, loc, pe.toMemory(acc, et),
      LLVM::GEPOp::create(b, loc, ptr, mt, entry.getArgument(1),
                          ValueRange{out}));
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.grid = std::max<int64_t>(llvm::divideCeil(outputs, kBlock), 1);
  info.block = kBlock;
  info.flops = inType.getNumElements();
  info.bytes = bufferBytes(inType) +
               bufferBytes(cast<RankedTensorType>(red.getType()));
  return info;
}
