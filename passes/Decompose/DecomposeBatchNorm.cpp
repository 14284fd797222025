//===- DecomposeBatchNorm.cpp - batch norm -> x * a + c -------------------===//
//
// Runs before fusion (flag brrr-decompose-batch-norm). Inference batch norm
// is an affine map per channel: y = x * a + c with a = scale / sqrt(var +
// eps) and c = bias - mean * a. With constant parameters (the usual case)
// `a` and `c` are computed here, at compile time, in double precision; the
// multiply-add then fuses with its neighbours as pointwise ops. Otherwise
// the same arithmetic is emitted as ops on the [C] vectors.
//
//===----------------------------------------------------------------------===//

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
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeBatchNorm>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
