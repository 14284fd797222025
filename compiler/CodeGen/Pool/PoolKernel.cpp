//===- PoolKernel.cpp - brrr.fusion pool -> gpu.func ----------------------===//
//
// The windowed pooling family: max and average pooling over NCHW or NHWC,
// one thread per output vector walking its window (strides, dilations,
// padding, ceil mode, count_include_pad as ONNX defines them), then the
// fused pointwise epilogue. Channels-last pools whose config has a vector
// width (16 bytes of channels, brrr-select-kernel-config) load each window
// cell's channels with one vector load and store them with one vector
// store; the others take one element a thread. Pooling reads each input
// element KH*KW/(sh*sw) times from L1/L2; it is memory-bound.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Larger windows loop instead of unrolling.
constexpr int64_t kMaxUnrolledWindow = 64;

/// The attributes max and average pooling share.
struct Window {
  ArrayRef<int64_t> kernel, strides, pads, dilations;
  bool isMax, countIncludePad;
};

std::optional<Window> windowOf(Operation *op) {
  if (auto p = dyn_cast<MaxPool2DOp>(op))
    return Window{p.getKernel(),    p.getStrides(), p.getPads(),
                  p.getDilations(), true,           false};
  if (auto p = dyn_cast<AvgPool2DOp>(op))
    return Window{p.getKernel(),    p.getStrides(), p.getPads(),
                  p.getDilations(), false,          p.getCountIncludePad()};
  return std::nullopt;
}

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitPoolKernel(FusionOp fusion,
                                                 OpBuilder &moduleBuilder,
                                                 StringRef name) {
  Location loc = fusion.getLoc();
  Block &body = fusion.getBody().front();
  Operation *pool = &body.front();
  std::optional<Window> w = windowOf(pool);
  if (!w)
    return fusion.emitOpError("pool kernels start with a 2-D pooling op");
  if (failed(checkProductFusion(fusion, pool)))
    return failure();
  // Over a symbolic batch (the outer run): the largest shape's kernel, its
  // output count read at run time.
  auto symbolicOut = cast<RankedTensorType>(pool->getResult(0).getType());
  bool symbolic = isSymbolic(symbolicOut);
  AffineExpr outCount = symbolic ? elementCountOf(symbolicOut) : AffineExpr();
  std::optional<LargestShapeView> largest;
  if (symbolic)
    largest.emplace(fusion);
  auto it = cast<RankedTensorType>(pool->getOperand(0).getType());
  auto ot = cast<RankedTensorType>(pool->getResult(0).getType());
  Type et = it.getElementType();
  // NCHW, or NHWC (channels_last): C channels `cStride` apart in memory.
  bool last = pool->hasAttr("channels_last");
  int64_t sd = last ? 1 : 2;
  int64_t C = it.getDimSize(last ? 3 : 1);
  int64_t H = it.getDimSize(sd), W = it.getDimSize(sd + 1);
  int64_t OH = ot.getDimSize(sd), OW = ot.getDimSize(sd + 1);
  int64_t cStride = last ? 1 : H * W, pixelStride = last ? C : 1;
  int64_t total = ot.getNumElements();
  // Channels a thread pools: a vector of them channels-last.
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  // Whole vectors of channels-last channels (the pool rules' verify).
  int64_t vec = config->getVector();
  int64_t block = config->getThreads();

  unsigned numInputs = fusion.getInputs().size();
  unsigned numBuffers = numInputs + fusion.getNumResults();
  auto func = createKernel(moduleBuilder, loc, name, numBuffers, block,
                           /*numByValue=*/0, /*numScalars=*/symbolic ? 1 : 0);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  IndexMath e{b, loc};
  pointwise::PointwiseEmitter pe(b, loc);
  auto arg = [&](Value v) { return kernelArgument(entry, v); };
  auto cmp = [&](arith::CmpIPredicate p, Value x, int64_t c) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, e.idx(c));
  };
  auto both = [&](Value p, Value q) -> Value {
    return arith::AndIOp::create(b, loc, p, q);
  };
  /// lo <= x < hi.
  auto within = [&](Value x, int64_t lo, int64_t hi) {
    return both(cmp(arith::CmpIPredicate::sge, x, lo),
                cmp(arith::CmpIPredicate::slt, x, hi));
  };

  Value tid =
      e.add(e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), block),
            gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  // The threads: one per vector of outputs (a vector never straddles two
  // pixels, so the count divides at every shape).
  Value threads =
      symbolic ? indexArgument(b, loc, entry, numBuffers) : e.idx(total / vec);
  auto inBounds = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, threads),
      false);
  b.setInsertionPointToStart(&inBounds.getThenRegion().front());
  // Output element `first` is (n, c, oh, ow), or (n, oh, ow, c)
  // channels-last (with the vec - 1 channels after it); window cell
  // (ih, iw) is at base + (ih * W + iw) * pixelStride.
  Value first = vec > 1 ? e.mul(tid, vec) : tid;
  Value inner = last ? e.div(first, C) : first;
  Value n = last ? e.div(inner, OH * OW) : e.div(first, C * OH * OW);
  Value c = last ? e.rem(first, C) : e.rem(e.div(first, OH * OW), C);
  Value p = e.rem(inner, OH * OW);
  Value oh = arith::DivUIOp::create(b, loc, p, e.idx(OW));
  Value ow = arith::RemUIOp::create(b, loc, p, e.idx(OW));
  Value base = e.add(e.mul(n, C * H * W), e.mul(c, cStride));
  Value h0 = e.add(e.mul(oh, w->strides[0]), e.idx(-w->pads[0]));
  Value w0 = e.add(e.mul(ow, w->strides[1]), e.idx(-w->pads[1]));

  Type ct = pointwise::computeType(et);
  // The identity of the combination: -inf / the type's minimum, or 0.
  Value init = w->isMax ? pe.extreme(et, /*lowest=*/true) : pe.cst(ct, 0);
  Type f32 = b.getF32Type();
  SmallVector<Value> acc(vec, init);
  Value count = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0));
  /// Folds the window cell (ih, iw) into (acc, count).
  auto step = [&](Value ih, Value iw, MutableArrayRef<Value> acc,
                  Value &count) {
    Value valid = both(within(ih, 0, H), within(iw, 0, W));
    Value index = arith::SelectOp::create(
        b, loc, valid, e.add(base, e.mul(e.add(e.mul(ih, W), iw), pixelStride)),
        e.idx(0));
    SmallVector<Value> lanes =
        loadElements(b, loc, arg(pool->getOperand(0)), et, index, vec);
    for (auto [a, v] : llvm::zip(acc, lanes)) {
      v = arith::SelectOp::create(b, loc, valid, v, init);
      a = w->isMax ? pe.max(a, v, et)
                   : Value(arith::AddFOp::create(b, loc, a, v));
    }
    if (w->isMax)
      return;
    // ONNX counts padding cells with count_include_pad, never the cells
    // past the padding that ceil mode adds.
    Value counted = w->countIncludePad
                        ? both(within(ih, -w->pads[0], H + w->pads[2]),
                               within(iw, -w->pads[1], W + w->pads[3]))
                        : valid;
    count = arith::AddFOp::create(
        b, loc, count,
        arith::UIToFPOp::create(
            b, loc, f32,
            arith::ExtUIOp::create(b, loc, b.getI32Type(), counted)));
  };
  int64_t KH = w->kernel[0], KW = w->kernel[1];
  int64_t dh = w->dilations[0], dw = w->dilations[1];
  if (KH * KW <= kMaxUnrolledWindow) {
    // Usual windows (2x2, 3x3, 7x7): unrolled, every load independent.
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw)
        step(e.add(h0, e.idx(kh * dh)), e.add(w0, e.idx(kw * dw)), acc, count);
  } else {
    // Iteration arguments: the accumulators, then the count.
    SmallVector<Value> carried(acc);
    carried.push_back(count);
    auto rows =
        scf::ForOp::create(b, loc, e.idx(0), e.idx(KH), e.idx(1), carried);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(rows.getBody());
      Value ih = e.add(h0, e.mul(rows.getInductionVar(), dh));
      auto cols = scf::ForOp::create(b, loc, e.idx(0), e.idx(KW), e.idx(1),
                                     rows.getRegionIterArgs());
      b.setInsertionPointToStart(cols.getBody());
      SmallVector<Value> args(cols.getRegionIterArgs());
      step(ih, e.add(w0, e.mul(cols.getInductionVar(), dw)),
           MutableArrayRef<Value>(args).drop_back(), args.back());
      scf::YieldOp::create(b, loc, args);
      b.setInsertionPointAfter(cols);
      scf::YieldOp::create(b, loc, cols.getResults());
    }
    ValueRange results = rows.getResults();
    acc.assign(results.begin(), std::prev(results.end()));
    count = rows.getResults().back();
  }
  if (!w->isMax) {
    Value c =
        ct == f32 ? count : Value(arith::ExtFOp::create(b, loc, ct, count));
    for (Value &a : acc)
      a = arith::DivFOp::create(b, loc, a, c);
  }
  SmallVector<Value> outputs(
      entry.getArguments().slice(numInputs, fusion.getNumResults()));
  if (failed(vec > 1 ? emitEpilogueVector(b, loc, fusion, pool, acc, first, arg,
                                          outputs)
                     : emitEpilogue(b, loc, fusion, pool, acc[0], first, arg,
                                    outputs)))
    return failure();
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.block = block;
  info.flops = total * KH * KW;
  info.bytes = fusionBytes(fusion);
  if (symbolic)
    info.scalars = {outCount.floorDiv(vec)};
  return info;
}
