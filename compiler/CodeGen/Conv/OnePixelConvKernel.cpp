//===- OnePixelConvKernel.cpp - 1 x 1 convolutions of one pixel ----------===//
//
// The one-pixel body of the conv family (config body `simt` with a tile of
// [rows, channels per block]), chosen by brrr-select-kernel-config for a
// 1 x 1 convolution over a 1 x 1 image of a few rows (isOnePixelConv): a
// squeeze-and-excitation block's two convolutions, a pooled classifier's,
// at batch 1 to 4. As a product they are at most four rows, which a
// 128-row Tensor Core tile pads 32-fold behind a pipeline that never fills;
// here each warp computes one output channel for every row. Its lanes read
// the channel's weights and each row's input channels of its group in
// 16-byte vectors (consecutive lanes, consecutive vectors), accumulate in
// f32 (the element type's compute type), and sum across the warp with
// butterfly shuffles; lane r then adds the bias, runs the fused pointwise
// epilogue and stores row r's element. One pixel makes NCHW and
// channels-last the same layout: input row r's channel c is element
// r * C + c, weight (o, c) element o * Cg + c, output (r, o) r * O + o.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "passes/Config/Products.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Passes over a group's channels (32 vectors each) up to which the loop
/// is unrolled, its loads all in flight together.
constexpr int64_t kMaxUnrolledPasses = 16;

} // namespace

FailureOr<KernelInfo>
mlir::brrr::emitOnePixelConvKernel(FusionOp fusion, OpBuilder &moduleBuilder,
                                   StringRef name) {
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  Location loc = fusion.getLoc();
  auto conv = dyn_cast<Conv2DOp>(&fusion.getBody().front().front());
  if (!conv)
    return fusion.emitOpError("conv kernels start with a brrr.conv2d");
  if (failed(checkProductFusion(fusion, conv)))
    return failure();
  if (!isOnePixelConv(conv) || config->getTile().size() != 2)
    return conv.emitOpError("the one-pixel body takes a 1 x 1 convolution of "
                            "one pixel and a tile of [rows, channels per "
                            "block]");
  ConvGemm g = ConvGemm::shapeOf(conv);
  int64_t rows = g.N, C = g.C, O = g.O, Cg = C / g.G, Og = O / g.G;
  int64_t vec = config->getVector(), threads = config->getThreads();
  int64_t perBlock = config->getTile()[1];
  Type et = conv.getInput().getType().getElementType();
  Type wt = conv.getWeight().getType().getElementType();
  Type ct = pointwise::computeType(et);

  unsigned numInputs = fusion.getInputs().size();
  auto func = createKernel(moduleBuilder, loc, name,
                           numInputs + fusion.getNumResults(), threads,
                           /*numByValue=*/0, /*numScalars=*/0);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  IndexMath e{b, loc};
  auto arg = [&](Value v) { return kernelArgument(entry, v); };
  SmallVector<Value> outputs(
      entry.getArguments().slice(numInputs, fusion.getNumResults()));
  pointwise::PointwiseEmitter pe(b, loc);

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = e.rem(tid, 32);
  Value o =
      e.add(e.mul(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x), perBlock),
            e.div(tid, 32));
  // A warp past the last channel computes nothing; the test is the same
  // for the whole warp, so the shuffles below see whole warps.
  auto inside = scf::IfOp::create(b, loc, e.ult(o, O), false);
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  Value c0 = e.mul(e.div(o, Og), Cg); // the group's first input channel
  Value wRow = e.mul(o, Cg);
  Value input = arg(conv.getInput()), weight = arg(conv.getWeight());

  // acc[r] += row r's channels k .. k + vec - 1 times the weights', where
  // k = k0 + vec * lane lies in the group (whole vectors: vec divides Cg).
  auto pass = [&](Value k0, MutableArrayRef<Value> acc) {
    Value k = e.add(k0, e.mul(lane, vec));
    Value valid = e.ult(k, Cg);
    Value safe = arith::SelectOp::create(b, loc, valid, k, e.idx(0));
    SmallVector<Value> w =
        loadElements(b, loc, weight, wt, e.add(wRow, safe), vec);
    for (int64_t r = 0; r < rows; ++r) {
      SmallVector<Value> x = loadElements(
          b, loc, input, et, e.add(e.idx(r * C), e.add(c0, safe)), vec);
      Value sum = acc[r];
      for (int64_t j = 0; j < vec; ++j)
        sum = math::FmaOp::create(b, loc, x[j], w[j], sum);
      // Past the group: nothing added (the clamped loads' values, finite
      // or not, are dropped).
      acc[r] = arith::SelectOp::create(b, loc, valid, sum, acc[r]);
    }
  };
  SmallVector<Value> acc(rows, pe.cst(ct, 0));
  int64_t span = 32 * vec, passes = llvm::divideCeil(Cg, span);
  if (passes <= kMaxUnrolledPasses) {
    for (int64_t p = 0; p < passes; ++p)
      pass(e.idx(p * span), acc);
  } else {
    auto loop =
        scf::ForOp::create(b, loc, e.idx(0), e.idx(Cg), e.idx(span), acc);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> carried(loop.getRegionIterArgs());
    pass(loop.getInductionVar(), carried);
    scf::YieldOp::create(b, loc, carried);
    b.setInsertionPointAfter(loop);
    acc.assign(loop.getResults().begin(), loop.getResults().end());
  }
  // Every lane ends with every row's sum.
  for (Value &a : acc)
    for (int32_t offset = 16; offset >= 1; offset /= 2) {
      auto shuffle =
          gpu::ShuffleOp::create(b, loc, a, offset, 32, gpu::ShuffleMode::XOR);
      a = arith::AddFOp::create(b, loc, a, shuffle.getShuffleResult());
    }
  // Lane r stores row r.
  Value mine = acc[0];
  for (int64_t r = 1; r < rows; ++r)
    mine = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, e.idx(r)),
        acc[r], mine);
  auto store = scf::IfOp::create(b, loc, e.ult(lane, rows), false);
  b.setInsertionPointToStart(&store.getThenRegion().front());
  if (Value bias = conv.getBias()) {
    Type bt = cast<RankedTensorType>(bias.getType()).getElementType();
    mine = arith::AddFOp::create(b, loc, mine,
                                 loadElements(b, loc, arg(bias), bt, o)[0]);
  }
  if (failed(emitEpilogue(b, loc, fusion, conv, mine, e.add(e.mul(lane, O), o),
                          arg, outputs)))
    return failure();
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.block = threads;
  info.flops = 2 * rows * O * Cg;
  info.bytes = fusionBytes(fusion);
  return info;
}
