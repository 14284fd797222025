//===- OnePixelConvKernel.cpp - 1 x 1 convolutions of one pixel ----------===//
//
// The one-pixel body of the conv family (config body `simt` with a tile of
// [rows, channels per block]), chosen by brrr-select-kernel-config for a
// 1 x 1 convolution over a 1 x 1 image of a few rows (isOnePixelConv): a
// squeeze-and-excitation block's two convolutions, a pooled classifier's,
// at batch 1 to 4. As a product they are at most four rows, which a
// 128-row Tensor Core tile pads 32-fold behind a pipeline that never fills;
// they run the few-rows body (Products/FewRowsKernel.h), a warp an output
// channel, over the channels of its group. One pixel makes NCHW and
// channels-last the same layout: input row r's channel c is element
// r * C + c, weight (o, c) element o * Cg + c, output (r, o) r * O + o.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/FewRowsKernel.h"

#include "passes/Config/Products.h"

using namespace mlir;
using namespace mlir::brrr;

FailureOr<KernelInfo>
mlir::brrr::emitOnePixelConvKernel(FusionOp fusion, OpBuilder &moduleBuilder,
                                   StringRef name) {
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  auto conv = dyn_cast<Conv2DOp>(&fusion.getBody().front().front());
  if (!conv)
    return fusion.emitOpError("conv kernels start with a brrr.conv2d");
  if (failed(checkProductFusion(fusion, conv)))
    return failure();
  bool symbolic = isSymbolic(conv.getType());
  if (!(symbolic ? takesOnePixelRanges(conv) : isOnePixelConv(conv)) ||
      config->getTile().size() != 2)
    return conv.emitOpError("the one-pixel body takes a 1 x 1 convolution of "
                            "one pixel and a tile of [rows, channels per "
                            "block]");
  ConvGemm g = ConvGemm::shapeOf(conv);
  int64_t C = g.C, Cg = C / g.G, Og = g.O / g.G;
  FewRowsSpec spec;
  spec.product = conv;
  spec.rows = g.N;
  // Over a symbolic batch: a range's kernel, of the config's rows (at most
  // kOnePixelRows), the epilogue at the largest shape's layout.
  std::optional<LargestShapeView> largest;
  if (symbolic) {
    spec.rows = config->getTile()[0];
    spec.rowsExtent = g.batchExtent;
    largest.emplace(fusion);
  }
  spec.columns = g.O;
  spec.depth = Cg;
  spec.input = conv.getInput();
  spec.weight = conv.getWeight();
  spec.bias = conv.getBias();
  // Row r's channels of output channel n's group.
  spec.inputAt = [=](IndexMath &e, int64_t r, Value n) {
    return e.add(e.idx(r * C), e.mul(e.div(n, Og), Cg));
  };
  spec.weightAt = [=](IndexMath &e, Value n) { return e.mul(n, Cg); };
  return emitFewRowsKernel(fusion, spec, moduleBuilder, name);
}
