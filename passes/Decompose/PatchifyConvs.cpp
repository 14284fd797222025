//===- PatchifyConvs.cpp - patch-embedding convolutions as products ------===//
//
// Runs before brrr-channels-last (flag brrr-patchify-convs). A vision
// transformer embeds its image with a convolution whose stride equals its
// kernel (16 x 16 patches of 3 channels in ViT-B/16): no two windows
// overlap, so the convolution is one product of the image's patches by the
// weights. With 3 input channels no Tensor Core convolution body reads it
// well (the untiled body ran ViT-B/16's at 13 TFLOP/s, 42% of the model at
// batch 32). Such a convolution of at most `max-channels` input channels
// becomes
//   reshape x [N, C, H, W] -> [N, C, Ho, kh, Wo, kw], transpose to
//   [N, Ho, Wo, C, kh, kw], reshape to [N, Ho * Wo, C * kh * kw];
//   matmul by the weights as [C * kh * kw, O] (packed here) plus the bias;
//   reshape to [N, Ho, Wo, O] and transpose to [N, O, Ho, Wo],
// a movement of the image and a product; the final transpose cancels
// against the exporters' flatten-and-transpose to tokens.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
#include "passes/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRPATCHIFYCONVS
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

struct PatchifyConvsPass
    : public mlir::brrr::impl::BrrrPatchifyConvsBase<PatchifyConvsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::ops)))
      return signalPassFailure();
    SmallVector<Conv2DOp> convs;
    getOperation().walk([&](Conv2DOp c) { convs.push_back(c); });
    bool changed = false;
    for (Conv2DOp c : convs)
      changed |= rewrite(c);
    if (!changed)
      return;
    // The views around the product cancel against their neighbours (the
    // exporters' flatten to tokens): the canonicalizer's view rewrites.
    RewritePatternSet patterns(&getContext());
    ReshapeOp::getCanonicalizationPatterns(patterns, &getContext());
    TransposeOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }

  bool rewrite(Conv2DOp conv) {
    auto in = cast<RankedTensorType>(conv.getInput().getType());
    auto wType = cast<RankedTensorType>(conv.getWeight().getType());
    if (conv.getGroups() != 1 || conv.getChannelsLast() ||
        !in.hasStaticShape() || in.getRank() != 4 || wType.getRank() != 4)
      return false;
    int64_t n = in.getDimSize(0), c = in.getDimSize(1), h = in.getDimSize(2),
            w = in.getDimSize(3);
    int64_t o = wType.getDimSize(0), kh = wType.getDimSize(2),
            kw = wType.getDimSize(3);
    ArrayRef<int64_t> strides = conv.getStrides(), pads = conv.getPads(),
                      dilations = conv.getDilations();
    if (c > maxChannels || kh * kw < 2 || strides.size() != 2 ||
        strides[0] != kh || strides[1] != kw ||
        llvm::any_of(pads, [](int64_t p) { return p != 0; }) ||
        llvm::any_of(dilations, [](int64_t d) { return d != 1; }) ||
        h % kh != 0 || w % kw != 0)
      return false;
    std::optional<SmallVector<double>> weights =
        getConstFloats(conv.getWeight());
    if (!weights)
      return false;
    int64_t ho = h / kh, wo = w / kw, k = c * kh * kw;
    // [O, C, kh, kw] -> [C * kh * kw, O].
    SmallVector<double> packed(k * o);
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t i = 0; i < k; ++i)
        packed[i * o + oc] = (*weights)[oc * k + i];
    OpBuilder b(conv);
    Location loc = conv.getLoc();
    Type elem = in.getElementType();
    auto type = [&](ArrayRef<int64_t> shape) {
      return RankedTensorType::get(shape, elem);
    };
    Value x = ReshapeOp::create(b, loc, type({n, c, ho, kh, wo, kw}),
                                conv.getInput());
    x = TransposeOp::create(b, loc, type({n, ho, wo, c, kh, kw}), x,
                            ArrayRef<int64_t>{0, 2, 4, 1, 3, 5});
    x = ReshapeOp::create(b, loc, type({n, ho * wo, k}), x);
    Value wk = ConstantOp::create(
        b, loc,
        makeFloatElements(RankedTensorType::get({k, o}, wType.getElementType()),
                          packed, "patch_weight"));
    Value y = MatmulOp::create(b, loc, type({n, ho * wo, o}), x, wk);
    if (Value bias = conv.getBias())
      y = AddOp::create(b, loc, type({n, ho * wo, o}), y, bias);
    y = ReshapeOp::create(b, loc, type({n, ho, wo, o}), y);
    y = TransposeOp::create(b, loc, conv.getType(), y,
                            ArrayRef<int64_t>{0, 3, 1, 2});
    Operation *weightOp = conv.getWeight().getDefiningOp();
    conv.getResult().replaceAllUsesWith(y);
    conv->erase();
    if (weightOp && weightOp->use_empty())
      weightOp->erase();
    return true;
  }
};

} // namespace
