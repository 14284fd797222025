//===- DecomposeBatchNorm.cpp - batch norm -> x * a + c -------------------===//
//
// Runs before fusion (flag brrr-decompose-batch-norm). Inference batch norm
// is an affine map per channel: y = x * a + c with a = scale / sqrt(var +
// eps) and c = bias - mean * a. With constant parameters (the usual case)
// `a` and `c` are computed here, at compile time, in double precision.
// When the input is a convolution (or a 2-D matmul) with constant weights
// that nothing else reads, `a` is folded into the weights and `c` into the
// convolution's bias: the batch norm costs nothing at run time. Otherwise
// the multiply-add fuses with its neighbours as pointwise ops, and with
// non-constant parameters the arithmetic is emitted as ops on [C] vectors.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
#include "passes/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRDECOMPOSEBATCHNORM
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// a and c of y = x * a + c, if the parameters of `op` are constants.
std::optional<std::pair<SmallVector<double>, SmallVector<double>>>
affineOf(BatchNormOp op) {
  auto s = getConstFloats(op.getScale()), b = getConstFloats(op.getBias()),
       m = getConstFloats(op.getMean()), v = getConstFloats(op.getVariance());
  if (!s || !b || !m || !v)
    return std::nullopt;
  double eps = op.getEpsilon().convertToDouble();
  SmallVector<double> a, c;
  for (size_t i = 0; i < s->size(); ++i) {
    a.push_back((*s)[i] / std::sqrt((*v)[i] + eps));
    c.push_back((*b)[i] - (*m)[i] * a.back());
  }
  return std::make_pair(a, c);
}

/// conv(x, W, b) then batch norm -> conv(x, W * a, b * a + c), all constant.
struct FoldBatchNormIntoConv : OpRewritePattern<BatchNormOp> {
  FoldBatchNormIntoConv(MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    auto conv = op.getInput().getDefiningOp<Conv2DOp>();
    if (!conv || !conv->hasOneUse() || conv.getChannelsLast())
      return rewriter.notifyMatchFailure(op,
                                         "input is not an NCHW conv read once");
    auto affine = affineOf(op);
    auto w = getConstFloats(conv.getWeight());
    std::optional<SmallVector<double>> bias;
    if (conv.getBias() && !(bias = getConstFloats(conv.getBias())))
      return rewriter.notifyMatchFailure(op, "conv bias is not constant");
    if (!affine || !w)
      return rewriter.notifyMatchFailure(op, "weights or statistics vary");
    auto [a, c] = *affine;
    auto wType = cast<RankedTensorType>(conv.getWeight().getType());
    int64_t channels = wType.getDimSize(0);
    int64_t perChannel = wType.getNumElements() / channels;
    SmallVector<double> newW(*w), newB(channels);
    for (int64_t o = 0; o < channels; ++o) {
      for (int64_t i = 0; i < perChannel; ++i)
        newW[o * perChannel + i] *= a[o];
      newB[o] = (bias ? (*bias)[o] : 0.0) * a[o] + c[o];
    }
    Location loc = op.getLoc();
    auto bType = RankedTensorType::get({channels}, wType.getElementType());
    Value weight = ConstantOp::create(
        rewriter, loc, makeFloatElements(wType, newW, "bn_folded_weight"));
    Value newBias = ConstantOp::create(
        rewriter, loc, makeFloatElements(bType, newB, "bn_folded_bias"));
    rewriter.replaceOpWithNewOp<Conv2DOp>(
        op, op.getType(), conv.getInput(), weight, newBias,
        conv.getStridesAttr(), conv.getPadsAttr(), conv.getDilationsAttr(),
        conv.getGroupsAttr());
    rewriter.eraseOp(conv);
    return success();
  }
};

/// [N, K] x [K, C] then batch norm -> [N, K] x (W * a) + c.
struct FoldBatchNormIntoMatmul : OpRewritePattern<BatchNormOp> {
  FoldBatchNormIntoMatmul(MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    auto mm = op.getInput().getDefiningOp<MatmulOp>();
    if (!mm || !mm->hasOneUse() || op.getType().getRank() != 2)
      return rewriter.notifyMatchFailure(op, "input is not a 2-D matmul");
    auto wType = cast<RankedTensorType>(mm.getRhs().getType());
    auto affine = affineOf(op);
    auto w = getConstFloats(mm.getRhs());
    if (wType.getRank() != 2 || !affine || !w)
      return rewriter.notifyMatchFailure(op, "weights or statistics vary");
    auto [a, c] = *affine;
    int64_t channels = wType.getDimSize(1);
    SmallVector<double> newW(*w);
    for (size_t i = 0; i < newW.size(); ++i)
      newW[i] *= a[i % channels];
    Location loc = op.getLoc();
    Value weight = ConstantOp::create(
        rewriter, loc, makeFloatElements(wType, newW, "bn_folded_weight"));
    Value product =
        MatmulOp::create(rewriter, loc, op.getType(), mm.getLhs(), weight);
    auto cType = RankedTensorType::get({channels}, wType.getElementType());
    Value shift = ConstantOp::create(
        rewriter, loc, makeFloatElements(cType, c, "bn_folded_bias"));
    rewriter.replaceOpWithNewOp<AddOp>(op, op.getType(), product, shift);
    rewriter.eraseOp(mm);
    return success();
  }
};

struct DecomposeBatchNorm : OpRewritePattern<BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    Type et = type.getElementType();
    int64_t channels = type.getDimSize(1);
    // [C, 1, ..., 1]: broadcasts along dimension 1 of the input.
    SmallVector<int64_t> paramShape(type.getRank() - 1, 1);
    paramShape[0] = channels;
    auto paramType = RankedTensorType::get(paramShape, et);
    double eps = op.getEpsilon().convertToDouble();
    Value a, c;
    auto s = getConstFloats(op.getScale()), b = getConstFloats(op.getBias()),
         m = getConstFloats(op.getMean()), v = getConstFloats(op.getVariance());
    if (s && b && m && v) {
      SmallVector<Attribute> av, cv;
      for (int64_t i = 0; i < channels; ++i) {
        double ai = (*s)[i] / std::sqrt((*v)[i] + eps);
        av.push_back(FloatAttr::get(et, ai));
        cv.push_back(FloatAttr::get(et, (*b)[i] - (*m)[i] * ai));
      }
      a = ConstantOp::create(rewriter, loc,
                             DenseElementsAttr::get(paramType, av));
      c = ConstantOp::create(rewriter, loc,
                             DenseElementsAttr::get(paramType, cv));
    } else {
      auto vecType = cast<RankedTensorType>(op.getScale().getType());
      Value epsilon = ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(RankedTensorType::get({}, et),
                                 FloatAttr::get(et, eps)));
      Value rstd = RsqrtOp::create(
          rewriter, loc,
          AddOp::create(rewriter, loc, vecType, op.getVariance(), epsilon));
      Value av = MulOp::create(rewriter, loc, vecType, op.getScale(), rstd);
      Value cvv = SubOp::create(
          rewriter, loc, vecType, op.getBias(),
          MulOp::create(rewriter, loc, vecType, op.getMean(), av));
      a = ReshapeOp::create(rewriter, loc, paramType, av);
      c = ReshapeOp::create(rewriter, loc, paramType, cvv);
    }
    Value scaled = MulOp::create(rewriter, loc, type, op.getInput(), a);
    rewriter.replaceOpWithNewOp<AddOp>(op, type, scaled, c);
    return success();
  }
};

struct DecomposeBatchNormPass
    : public mlir::brrr::impl::BrrrDecomposeBatchNormBase<
          DecomposeBatchNormPass> {
  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::ops)))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeBatchNorm, FoldBatchNormIntoConv,
                 FoldBatchNormIntoMatmul>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
