//===- Conv.cpp - the convolution family's rules -------------------------===//
//
// 2-D convolutions: depthwise and narrow-group ones on the direct body
// (plain threads), 1 x 1 ones over one pixel of a few rows on the
// one-pixel body (plain threads, a warp an output channel), the rest as
// implicit GEMMs on the Hopper TMA + wgmma
// body (im2col tensor maps), else on the bodies of products of their
// explicit im2col (untiledProductConfig).
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Families.h"
#include "passes/Config/Movement.h"
#include "passes/Config/Products.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// The one-pixel body's loads: the most elements, in at most 16 bytes,
/// that divide a group's input channels.
int64_t onePixelVectorWidth(Conv2DOp conv) {
  ConvGemm g = ConvGemm::shapeOf(conv);
  return vectorWidth(elementBytes(conv.getInput().getType().getElementType()),
                     g.C / g.G);
}

FailureOr<KernelConfigAttr> chooseConv(FusionOp fusion,
                                       const ConfigOptions &options) {
  TargetAttr target = options.target;
  int64_t budget = options.budget;
  MLIRContext *ctx = fusion.getContext();
  // Depthwise and narrow-group convolutions: a few multiply-adds per
  // output element read, on plain threads.
  auto conv = dyn_cast_or_null<Conv2DOp>(tensorCoreProductOf(fusion));
  bool symbolic = conv && isSymbolic(conv.getType());
  if (conv && isDirectConv(conv)) {
    SmallVector<int64_t> pixels;
    if (int64_t p = directConvPixels(conv, target); p > 1)
      pixels.push_back(p);
    return simtConfig(ctx, KernelFamily::conv, kPointwiseThreads, pixels,
                      directConvVectorWidth(conv));
  }
  // One pixel: a warp an output channel, all rows, 16-byte vectors of
  // the group's channels (isOnePixelConv).
  if (conv && isOnePixelConv(conv))
    return fewRowsConfig(ctx, KernelFamily::conv, ConvGemm::shapeOf(conv).N,
                         onePixelVectorWidth(conv));
  std::optional<MatmulTile> tile = convTileOf(fusion, target, budget);
  if (!tile)
    return untiledProductConfig(fusion, options);
  std::optional<ConvGemm> g = ConvGemm::of(conv);
  // 8-bit convolutions sum as 8-bit products do.
  chooseFloat8Sums(*tile, conv.getInput().getType().getElementType(),
                   options.fastFloat8, g->product(), target, budget);
  // Convolutions whose tiles outnumber the multiprocessors always run
  // persistent (measured: ResNet-50, MobileNetV2 and EfficientNet-B0
  // 5-11% faster at batch 32, test/gpu/NOTES.md). Over a symbolic
  // batch, the largest batch's choice on the cooperative schedule: its
  // blocks walk the actual rows' tiles (those past them have none).
  choosePersistence(*tile, g->product(), target, budget,
                    symbolic ? KernelSchedule::cooperative
                             : forcedSchedule(conv, options),
                    options.drainGroup == Choice::always);
  // One group of whole slices (64 16-bit channels, 128 8-bit ones): every
  // k-slice is one tap's channel block, so the slices split evenly between
  // blocks; such convolutions narrow their tiles as products do (measured:
  // ResNet-50 at batch 1 0.344 -> 0.274 ms, test/gpu/NOTES.md). A grouped one's
  // tile lies in one group, whose slices (its last one per tap padded,
  // wgmmaSlices) split between blocks the same way; its tile stays as
  // wide as its group.
  auto narrow = [&](MatmulTile &t, const ProductShape &q) {
    if (g->G == 1 && g->C % t.k == 0) {
      chooseClusterSplit(t, q, target);
      chooseNarrowTile(t, q, target, budget);
    } else if (g->G > 1) {
      ProductShape padded = q;
      padded.K = g->wgmmaSlices(t.k, t.elementBytes) * t.k;
      chooseClusterSplit(t, padded, target);
    }
  };
  narrow(*tile, g->product());
  // Pairs multicasting B only where asked for: measured (test/gpu/notes/
  // 2026-12-04-f.md) ResNet-50 fp16 at batch 32 1.074 -> 1.318 ms with
  // every eligible convolution paired (tiles of 64-256 columns, one to nine
  // k-slices: the pair's lockstep costs more than the halved B saves).
  chooseMulticast(*tile, conv, g->product(), target,
                  options.multicast == Choice::always ? Choice::always
                                                      : Choice::never);
  if (g->G == 1)
    chooseStreamK(*tile, g->product(),
                  g->wgmmaSlices(tile->k, tile->elementBytes), target, budget,
                  options.streamK);
  KernelConfigAttr config = tile->config(ctx, KernelFamily::conv);
  // Over a symbolic batch, each range of rows takes the tile a static
  // compile of its largest rows would.
  // Ranges of at most kOnePixelRows images of one pixel take the
  // one-pixel body (takesOnePixelRanges), a tile of the range's rows
  // rounded up to a power of two.
  bool onePixel = symbolic && takesOnePixelRanges(conv);
  if (symbolic)
    recordRowVariants(fusion, g->product(), config, [&](const ProductShape &q) {
      if (onePixel && q.M <= kOnePixelRows)
        return fewRowsConfig(ctx, KernelFamily::conv, llvm::PowerOf2Ceil(q.M),
                             onePixelVectorWidth(conv));
      std::optional<MatmulTile> t = wgmmaTileOf(q, target, budget);
      if (!t)
        return KernelConfigAttr();
      choosePersistence(*t, q, target, budget, KernelSchedule::cooperative);
      narrow(*t, q);
      return t->config(ctx, KernelFamily::conv);
    });
  return config;
}

/// A direct convolution: a thread a vector of channels (of `pixels` output
/// pixels along a row, channels-last depthwise) or one output element.
Grid directConvGrid(Conv2DOp conv, KernelConfigAttr config) {
  ConvGemm c = ConvGemm::shapeOf(conv);
  int64_t vec = config.getVector(), threads = config.getThreads();
  int64_t pixels = config.getTile().empty() ? 1 : config.getTile()[0];
  int64_t total =
      vec > 1 ? c.N * c.OH * llvm::divideCeil(c.OW, pixels) * (c.O / vec)
              : c.N * c.O * c.OH * c.OW / vec;
  Grid g;
  g.x = llvm::divideCeil(total, threads);
  if (c.batchExtent)
    g.atRunX = (c.batchExtent * (total / c.N)).ceilDiv(threads);
  return g;
}

/// The direct body multiplies floats, reading vectors of channels only of
/// a channels-last depthwise convolution whose channels they divide; a
/// Tensor Core body as products do (verifyProduct).
LogicalResult verifyConv(FusionOp fusion, KernelConfigAttr config) {
  auto conv = dyn_cast_or_null<Conv2DOp>(tensorCoreProductOf(fusion));
  if (!conv || config.getBody() != KernelBody::simt)
    return verifyProduct(fusion, config);
  if (&fusion.getBody().front().front() != conv.getOperation())
    return fusion.emitOpError("conv kernels start with a brrr.conv2d");
  if (config.getTile().size() == 2) {
    ConvGemm g = ConvGemm::shapeOf(conv);
    ArrayRef<int64_t> tile = config.getTile();
    int64_t vec = config.getVector();
    // A static batch: a tile of all of it; a symbolic one (a range's
    // kernel, takesOnePixelRanges): of at most kOnePixelRows rows, the
    // actual batch read at run time.
    bool rows = g.batchExtent ? takesOnePixelRanges(conv) && tile[0] >= 1 &&
                                    tile[0] <= kOnePixelRows
                              : isOnePixelConv(conv) && tile[0] == g.N;
    if (!rows || config.getThreads() != 32 * tile[1] || vec < 1 ||
        (g.C / g.G) % vec ||
        vec * elementBytes(conv.getInput().getType().getElementType()) > 16)
      return conv.emitOpError("the one-pixel body takes a 1 x 1 convolution "
                              "of one pixel and at most ")
             << kOnePixelRows
             << " rows, a tile of [rows, channels per block] with a warp a "
                "channel, and vectors of at most 16 bytes that divide a "
                "group's channels, not "
             << config;
    return success();
  }
  Type et = conv.getInput().getType().getElementType();
  if (!isa<FloatType>(et))
    return conv.emitOpError("the direct convolution body takes floats, not ")
           << et;
  ConvGemm g = ConvGemm::shapeOf(conv);
  int64_t vec = config.getVector();
  if (vec > 1 &&
      (!conv.getChannelsLast() || g.C != g.G || g.O != g.G || g.O % vec))
    return conv.emitOpError("a direct convolution reads vectors of ")
           << vec << " channels only channels-last, one channel per group, "
           << "and a channel count they divide";
  return success();
}

/// The direct body's grid, or a Tensor Core body's (productGrid).
FailureOr<Grid> convGrid(FusionOp fusion, KernelConfigAttr config) {
  auto conv = dyn_cast_or_null<Conv2DOp>(tensorCoreProductOf(fusion));
  if (conv && config.getBody() == KernelBody::simt &&
      config.getTile().size() == 2) {
    Grid g;
    g.x = llvm::divideCeil(ConvGemm::shapeOf(conv).O, config.getTile()[1]);
    return g;
  }
  if (conv && config.getBody() == KernelBody::simt)
    return directConvGrid(conv, config);
  return productGrid(fusion, config);
}

} // namespace

const FamilyRules mlir::brrr::kConvRules = {chooseConv, verifyConv, convGrid,
                                            productBuffers};
