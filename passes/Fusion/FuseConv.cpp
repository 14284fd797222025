//===- FuseConv.cpp - conv / pooling -> brrr.fusion conv / pool ----------===//
//
// Fusion pass for the windowed ops (flag brrr-fuse-conv), after
// brrr-fuse-elementwise: every brrr.conv2d becomes a `brrr.fusion conv`
// kernel (an implicit GEMM on Tensor Cores) and every 2-D max or average
// pooling a `brrr.fusion pool` kernel. As for matmuls, the pointwise kernel
// that is the only reader of the result becomes the epilogue (batch norm
// left unfolded, activation, residual add), so the convolution's output
// goes to memory once, already activated.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Products.h"
#include "passes/Passes.h"

#include "passes/Fusion/WrapInFusion.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSECONV
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

struct FuseConvPass : public mlir::brrr::impl::BrrrFuseConvBase<FuseConvPass> {
  void runOnOperation() override {
    if (failed(
            mlir::brrr::requireSupportedShapes(getOperation(), getArgument())))
      return signalPassFailure();
    wrapEachInFusion(getOperation(), KernelFamily::conv,
                     [](Operation *op) { return isa<Conv2DOp>(op); });
    wrapEachInFusion(getOperation(), KernelFamily::pool, [](Operation *op) {
      return isa<MaxPool2DOp, AvgPool2DOp>(op);
    });
    mergeEpilogues(getOperation(), KernelFamily::conv);
    mergeEpilogues(getOperation(), KernelFamily::pool);
  }
};

} // namespace

ConvGemm ConvGemm::shapeOf(Conv2DOp conv) {
  auto it = cast<RankedTensorType>(conv.getInput().getType());
  auto wt = cast<RankedTensorType>(conv.getWeight().getType());
  auto ot = cast<RankedTensorType>(conv.getType());
  ConvGemm g;
  g.N = largestShapeOf(conv.getInput())[0];
  if (it.isDynamicDim(0))
    g.batchExtent = extentsOf(it)[0];
  g.H = it.getDimSize(conv.spatialDim());
  g.W = it.getDimSize(conv.spatialDim() + 1);
  g.C = it.getDimSize(conv.channelDim());
  g.KH = wt.getDimSize(conv.weightKernelDim());
  g.KW = wt.getDimSize(conv.weightKernelDim() + 1);
  g.O = ot.getDimSize(conv.channelDim());
  g.OH = ot.getDimSize(conv.spatialDim());
  g.OW = ot.getDimSize(conv.spatialDim() + 1);
  g.sh = conv.getStrides()[0];
  g.sw = conv.getStrides()[1];
  g.pt = conv.getPads()[0];
  g.pl = conv.getPads()[1];
  g.pb = conv.getPads()[2];
  g.pr = conv.getPads()[3];
  g.dh = conv.getDilations()[0];
  g.dw = conv.getDilations()[1];
  g.G = conv.getGroups();
  return g;
}

std::optional<ConvGemm> ConvGemm::of(Conv2DOp conv) {
  if (!conv.getChannelsLast())
    return std::nullopt;
  Type et = cast<RankedTensorType>(conv.getInput().getType()).getElementType();
  ConvGemm g = shapeOf(conv);
  if (g.G > 1 && !wgmmaPadsConvGroups(g.C / g.G))
    return std::nullopt;
  auto corner = [](int64_t v) { return v >= -128 && v <= 127; };
  // Rows of whole 16-byte chunks: 8 16-bit channels, 16 8-bit ones (one
  // group of more than 16: 128-deep slices of one tap's channels).
  bool eightBit = isEightBitProductType(et);
  bool rows = eightBit ? g.G == 1 && g.C % 16 == 0 && g.C > 16
                       : (et.isF16() || et.isBF16()) && g.C % 8 == 0;
  bool fits = rows && corner(-g.pt) && corner(-g.pl) &&
              corner(g.pb - (g.KH - 1) * g.dh) &&
              corner(g.pr - (g.KW - 1) * g.dw) && (g.KH - 1) * g.dh <= 255 &&
              (g.KW - 1) * g.dw <= 255 && g.sh <= 8 && g.sw <= 8 &&
              g.N * g.H * g.W * g.C < (int64_t(1) << 40);
  return fits ? std::optional<ConvGemm>(g) : std::nullopt;
}

ProductShape ConvGemm::product() const {
  ProductShape p;
  p.M = N * OH * OW;
  if (batchExtent)
    p.rowsExtent = batchExtent * (OH * OW);
  p.N = O / G;
  p.K = KH * KW * C / G;
  p.batch = {G};
  p.batches = G;
  p.wholeColumns = G > 1;
  return p;
}

int64_t ConvGemm::wgmmaBoxBytes(int64_t elementBytes) const {
  if (C <= 16)
    return 32;
  int64_t bytes = C / G * elementBytes;
  if (KH * KW == 1 || bytes > 64)
    return 128;
  return bytes <= 32 ? 32 : 64;
}

int64_t ConvGemm::wgmmaTapsPerSlice(int64_t k, int64_t elementBytes) const {
  return std::max<int64_t>(1, k * elementBytes / wgmmaBoxBytes(elementBytes));
}

int64_t ConvGemm::wgmmaSlices(int64_t k, int64_t elementBytes) const {
  int64_t taps = KH * KW;
  int64_t perSlice = wgmmaTapsPerSlice(k, elementBytes);
  if (perSlice > 1)
    return llvm::divideCeil(taps, perSlice);
  return taps * llvm::divideCeil(C / G, k);
}

/// Whether `conv` (channels, pixels and weights static) is a 1 x 1
/// convolution over a 1 x 1 image, unpadded, not direct, of at most
/// kOnePixelMaxWeights weights: the one-pixel body's geometry at any batch.
static bool onePixelGeometry(Conv2DOp conv, const ConvGemm &g) {
  auto wt = cast<RankedTensorType>(conv.getWeight().getType());
  return !isDirectConv(conv) && wt.hasStaticShape() && g.H == 1 && g.W == 1 &&
         g.OH == 1 && g.OW == 1 && g.KH == 1 && g.KW == 1 && g.pt == 0 &&
         g.pl == 0 && g.pb == 0 && g.pr == 0 &&
         wt.getNumElements() <= kOnePixelMaxWeights;
}

bool mlir::brrr::isOnePixelConv(Conv2DOp conv) {
  auto it = cast<RankedTensorType>(conv.getInput().getType());
  auto ot = cast<RankedTensorType>(conv.getType());
  Type et = it.getElementType();
  if (!it.hasStaticShape() || !ot.hasStaticShape() || it.getRank() != 4 ||
      !(et.isF16() || et.isBF16() || et.isF32()))
    return false;
  ConvGemm g = ConvGemm::shapeOf(conv);
  return g.N <= kOnePixelRows && onePixelGeometry(conv, g);
}

bool mlir::brrr::takesOnePixelRanges(Conv2DOp conv) {
  auto it = cast<RankedTensorType>(conv.getInput().getType());
  Type et = it.getElementType();
  if (!isSymbolic(it) || it.getRank() != 4 || !(et.isF16() || et.isBF16()))
    return false;
  ConvGemm g = ConvGemm::shapeOf(conv);
  std::optional<std::pair<int64_t, int64_t>> batch =
      g.batchExtent ? rangeOf(g.batchExtent, dimsOf(conv)) : std::nullopt;
  return batch && batch->first >= 1 && batch->first <= kOnePixelRows &&
         onePixelGeometry(conv, g);
}

bool mlir::brrr::isDirectConv(Conv2DOp conv) {
  auto wt = cast<RankedTensorType>(conv.getWeight().getType());
  return conv.getGroups() > 1 &&
         wt.getDimSize(conv.weightInDim()) <= kDirectConvGroupChannels;
}
