//===- DirectConvKernel.cpp - depthwise and narrow-group convolutions -----===//
//
// The direct body of the conv family (config body `simt`), chosen by
// brrr-select-kernel-config for grouped convolutions of at most
// kDirectConvGroupChannels input channels per group: depthwise
// convolutions above all. As a product each group would have a handful of
// columns and a K of Cg x KH x KW, which no Tensor Core tile fills, and the
// work is memory-bound anyway: each output reads its window once, the
// window's overlap with its neighbours' comes from L1. One thread computes
// `vector` consecutive output channels of one output pixel (channels-last
// depthwise: every tap is one vector load of the input and one of the
// weights), accumulates in f32 (f16/bf16) or the element type, adds the
// bias and runs the fused pointwise epilogue, stored with one vector store.
// A channels-last depthwise thread walks the window a row at a time, that
// row's weight and input vectors loaded together, and may compute `pixels`
// outputs along a row (the config's tile): it loads each input vector of
// the row segment their windows cover once and each weight vector once,
// and every load serves every output it reaches (a 7 x 7 window over 4
// pixels: 70 input and 49 weight loads for 4 outputs instead of 196 of
// each), so that L1 no longer bounds the kernel.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "passes/Config/Products.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Windows of more multiply-adds per output channel than this loop over
/// their rows instead of unrolling every tap.
constexpr int64_t kMaxUnrolledTaps = 128;

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitDirectConvKernel(FusionOp fusion,
                                                       OpBuilder &moduleBuilder,
                                                       StringRef name) {
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  // A tile of [rows, channels per block]: the one-pixel body.
  if (config->getTile().size() == 2)
    return emitOnePixelConvKernel(fusion, moduleBuilder, name);
  Location loc = fusion.getLoc();
  Block &body = fusion.getBody().front();
  auto conv = dyn_cast<Conv2DOp>(&body.front());
  if (!conv)
    return fusion.emitOpError("conv kernels start with a brrr.conv2d");
  if (failed(checkProductFusion(fusion, conv)))
    return failure();
  // Over a symbolic batch: the largest shape's kernel, its thread count
  // (a whole number of threads an image) read at run time.
  AffineExpr batch = ConvGemm::shapeOf(conv).batchExtent;
  std::optional<LargestShapeView> largest;
  if (batch)
    largest.emplace(fusion);
  auto ot = cast<RankedTensorType>(conv.getType());
  Type et = conv.getInput().getType().getElementType();
  Type ct = pointwise::computeType(et);
  bool last = conv.getChannelsLast();
  ConvGemm g = ConvGemm::shapeOf(conv);
  int64_t C = g.C, H = g.H, W = g.W, O = g.O, OH = g.OH, OW = g.OW;
  int64_t KH = g.KH, KW = g.KW, Cg = C / g.G, Og = O / g.G;
  int64_t sh = g.sh, sw = g.sw, pt = g.pt, pl = g.pl, dh = g.dh, dw = g.dw;
  // A vector of channels reads one input and one weight channel each: a
  // channels-last depthwise convolution (the conv rules' verify).
  int64_t vec = config->getVector();
  int64_t threads = config->getThreads();
  // Several pixels a thread only over vectors of channels (the config's
  // verifier).
  int64_t pixels = config->getTile().empty() ? 1 : config->getTile()[0];
  int64_t rowGroups = llvm::divideCeil(OW, pixels);
  // Vectors of channels (channels-last depthwise) take window rows one at
  // a time, whose loads are in flight together; single channels unroll
  // every tap.
  bool byRows = vec > 1;
  int64_t total =
      byRows ? g.N * OH * rowGroups * (O / vec) : ot.getNumElements() / vec;

  unsigned numInputs = fusion.getInputs().size();
  unsigned numBuffers = numInputs + fusion.getNumResults();
  auto func = createKernel(moduleBuilder, loc, name, numBuffers, threads,
                           /*numByValue=*/0, /*numScalars=*/batch ? 1 : 0);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  IndexMath e{b, loc};
  pointwise::PointwiseEmitter pe(b, loc);
  auto arg = [&](Value v) { return kernelArgument(entry, v); };
  /// The `vec` elements of `base` at `index`, in compute type.
  auto load = [&](Value base, Value index) {
    return loadElements(b, loc, base, et, index, vec);
  };

  Value tid =
      e.add(e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), threads),
            gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value inRange =
      batch ? arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                    indexArgument(b, loc, entry, numBuffers))
                  .getResult()
            : e.ult(tid, total);
  auto inBounds = scf::IfOp::create(b, loc, inRange, false);
  b.setInsertionPointToStart(&inBounds.getThenRegion().front());
  SmallVector<Value> outputs(
      entry.getArguments().slice(numInputs, fusion.getNumResults()));
  if (byRows) {
    // Thread tid: channels o .. o + vec - 1 (fastest) of the pixels ow0 ..
    // ow0 + pixels - 1 of row oh of image n.
    Value o = e.mul(e.rem(tid, O / vec), vec);
    Value group = e.div(tid, O / vec);
    Value ow0 = e.mul(e.rem(group, rowGroups), pixels);
    Value rest = e.div(group, rowGroups);
    Value oh = e.rem(rest, OH), n = e.div(rest, OH);
    Value h0 = e.add(e.mul(oh, sh), e.idx(-pt));
    Value w0 = e.add(e.mul(ow0, sw), e.idx(-pl));
    Value input = arg(conv.getInput()), weight = arg(conv.getWeight());
    Value zero = pe.cst(ct, 0);
    // One window row at a time (a loop, so that only one row's values are
    // live): its KW weight vectors, then the row segment's input vectors in
    // column order, each added into every output whose tap reads it (output
    // r's tap kw reads column offset r * sw + kw * dw from w0).
    std::map<int64_t, SmallVector<std::pair<int64_t, int64_t>>> readers;
    for (int64_t r = 0; r < pixels; ++r)
      for (int64_t kw = 0; kw < KW; ++kw)
        readers[r * sw + kw * dw].push_back({r, kw});
    auto rows = scf::ForOp::create(b, loc, e.idx(0), e.idx(KH), e.idx(1),
                                   SmallVector<Value>(pixels * vec, zero));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(rows.getBody());
      Value kh = rows.getInductionVar();
      SmallVector<Value> acc(rows.getRegionIterArgs());
      Value ih = e.add(h0, e.mul(kh, dh));
      Value rowOk = e.ult(ih, H);
      Value rowAt = e.mul(e.add(e.mul(n, H), ih), W);
      SmallVector<SmallVector<Value>> ws;
      for (int64_t kw = 0; kw < KW; ++kw)
        ws.push_back(
            load(weight, e.add(e.mul(e.add(e.mul(kh, KW), e.idx(kw)), O), o)));
      // Columns before the image wrap around to large unsigned values: one
      // compare bounds each on both sides.
      for (auto &[offset, taps] : readers) {
        Value iw = e.add(w0, e.idx(offset));
        Value valid = arith::AndIOp::create(b, loc, rowOk, e.ult(iw, W));
        Value x = e.add(e.mul(e.add(rowAt, iw), C), o);
        x = arith::SelectOp::create(b, loc, valid, x, e.idx(0));
        SmallVector<Value> xs = load(input, x);
        for (Value &v : xs)
          v = arith::SelectOp::create(b, loc, valid, v, zero);
        for (auto [r, kw] : taps)
          for (int64_t j = 0; j < vec; ++j)
            acc[r * vec + j] =
                math::FmaOp::create(b, loc, xs[j], ws[kw][j], acc[r * vec + j]);
      }
      scf::YieldOp::create(b, loc, acc);
    }
    SmallVector<SmallVector<Value>> acc;
    for (int64_t r = 0; r < pixels; ++r)
      acc.emplace_back(rows.getResults().slice(r * vec, vec));
    SmallVector<Value> bs;
    if (Value bias = conv.getBias())
      bs = loadElements(b, loc, arg(bias),
                        cast<RankedTensorType>(bias.getType()).getElementType(),
                        o, vec);
    for (int64_t r = 0; r < pixels; ++r) {
      OpBuilder::InsertionGuard guard(b);
      Value ow = e.add(ow0, e.idx(r));
      // The row's last group may reach past its end (its first pixel never
      // does).
      if (r > 0 && OW % pixels != 0) {
        auto inRow = scf::IfOp::create(b, loc, e.ult(ow, OW), false);
        b.setInsertionPointToStart(&inRow.getThenRegion().front());
      }
      for (int64_t j = 0; j < static_cast<int64_t>(bs.size()); ++j)
        acc[r][j] = arith::AddFOp::create(b, loc, acc[r][j], bs[j]);
      Value at =
          e.add(e.mul(e.add(e.mul(e.add(e.mul(n, OH), oh), OW), ow), O), o);
      if (failed(emitEpilogueVector(b, loc, fusion, conv, acc[r], at, arg,
                                    outputs)))
        return failure();
    }
  } else {
    // Thread tid computes output elements at .. at + vec - 1: channels o ..
    // o + vec - 1 of pixel (n, oh, ow), channels fastest channels-last.
    Value at = e.mul(tid, vec);
    Value o, pixel;
    if (last) {
      o = e.rem(at, O);
      pixel = e.div(at, O);
    } else {
      o = e.rem(e.div(at, OH * OW), O);
      pixel = e.add(e.mul(e.div(at, O * OH * OW), OH * OW), e.rem(at, OH * OW));
    }
    Value n = e.div(pixel, OH * OW), p = e.rem(pixel, OH * OW);
    Value oh = e.div(p, OW), ow = e.rem(p, OW);
    Value h0 = e.add(e.mul(oh, sh), e.idx(-pt));
    Value w0 = e.add(e.mul(ow, sw), e.idx(-pl));
    Value c0 = e.mul(e.div(o, Og), Cg); // the group's first input channel
    Value input = arg(conv.getInput()), weight = arg(conv.getWeight());

    /// acc += tap (kh, kw) of input channel c0 + ci.
    auto step = [&](Value kh, int64_t kw, int64_t ci,
                    MutableArrayRef<Value> acc) {
      Value ih = e.add(h0, e.mul(kh, dh));
      Value iw = e.add(w0, e.idx(kw * dw));
      // Rows and columns before the image wrap around to large unsigned
      // values: one compare bounds each on both sides.
      Value valid = arith::AndIOp::create(b, loc, e.ult(ih, H), e.ult(iw, W));
      Value c = ci ? e.add(c0, e.idx(ci)) : c0;
      Value x =
          last
              ? e.add(e.mul(e.add(e.mul(e.add(e.mul(n, H), ih), W), iw), C), c)
              : e.add(e.mul(e.add(e.mul(e.add(e.mul(n, C), c), H), ih), W), iw);
      x = arith::SelectOp::create(b, loc, valid, x, e.idx(0));
      Value tap = e.add(e.mul(kh, KW), e.idx(kw));
      Value w =
          last ? e.add(e.mul(e.add(e.mul(tap, O), o), Cg), e.idx(ci))
               : e.add(e.mul(e.add(e.mul(o, Cg), e.idx(ci)), KH * KW), tap);
      SmallVector<Value> xs = load(input, x), ws = load(weight, w);
      Value zero = pe.cst(ct, 0);
      for (int64_t j = 0; j < vec; ++j)
        acc[j] = math::FmaOp::create(
            b, loc, arith::SelectOp::create(b, loc, valid, xs[j], zero), ws[j],
            acc[j]);
    };
    SmallVector<Value> acc(vec, pe.cst(ct, 0));
    if (Cg * KH * KW <= kMaxUnrolledTaps) {
      for (int64_t kh = 0; kh < KH; ++kh)
        for (int64_t kw = 0; kw < KW; ++kw)
          for (int64_t ci = 0; ci < Cg; ++ci)
            step(e.idx(kh), kw, ci, acc);
    } else {
      auto rows =
          scf::ForOp::create(b, loc, e.idx(0), e.idx(KH), e.idx(1), acc);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(rows.getBody());
      SmallVector<Value> row(rows.getRegionIterArgs());
      for (int64_t kw = 0; kw < KW; ++kw)
        for (int64_t ci = 0; ci < Cg; ++ci)
          step(rows.getInductionVar(), kw, ci, row);
      scf::YieldOp::create(b, loc, row);
      b.setInsertionPointAfter(rows);
      acc.assign(rows.getResults().begin(), rows.getResults().end());
    }
    if (Value bias = conv.getBias()) {
      Type bt = cast<RankedTensorType>(bias.getType()).getElementType();
      SmallVector<Value> bs = loadElements(b, loc, arg(bias), bt, o, vec);
      for (int64_t j = 0; j < vec; ++j)
        acc[j] = arith::AddFOp::create(b, loc, acc[j], bs[j]);
    }
    if (failed(emitEpilogueVector(b, loc, fusion, conv, acc, at, arg, outputs)))
      return failure();
  }
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.block = threads;
  info.flops = 2 * ot.getNumElements() * Cg * KH * KW;
  info.bytes = fusionBytes(fusion);
  if (batch) {
    AffineExpr count = batch * (total / g.N);
    info.scalars = {count};
  }
  return info;
}
