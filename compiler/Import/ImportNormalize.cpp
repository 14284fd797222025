//===- ImportNormalize.cpp - LRN and MeanVarianceNormalization -> brrr ----===//
//
// Two normalizations of older models (AlexNet's and GoogLeNet's local
// response normalization; mean-variance normalization), built of ops that
// have kernels: LRN's sum over a window of channels is an average pooling
// of the squares over a [channels, pixels] plane, and MVN is two keepdims
// means and pointwise arithmetic, which fusion joins into row kernels.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include <cmath>

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

/// LRN: y = x / (bias + alpha / size * square_sum) ^ beta, where square_sum
/// at channel c sums x^2 over channels c - floor((size - 1) / 2) to
/// c + ceil((size - 1) / 2) that exist. The window's mean, zeros counted
/// where it leaves the channels, is square_sum / size: an average pooling
/// with padding counted, kernel (size, 1), over [N, 1, C, pixels].
LogicalResult importLRN(NodeImporter &n) {
  auto x = n.requiredFloatInput(0);
  if (failed(x))
    return failure();
  RankedTensorType xt = n.inputType(0);
  Type et = xt.getElementType();
  if (xt.getRank() < 3 || !xt.hasStaticShape())
    return n.emitError() << "expects a static input of rank >= 3 (N, C, "
                            "spatial...), not "
                         << xt;
  int64_t size = n.attrInt("size", 0);
  double alpha = n.attrFloat("alpha", 1e-4), beta = n.attrFloat("beta", 0.75),
         bias = n.attrFloat("bias", 1.0);
  if (size < 1) // absent reads as 0
    return n.emitError() << "size must be given and positive, not " << size;
  if (!std::isfinite(alpha) || !std::isfinite(beta) || !std::isfinite(bias))
    return n.emitError() << "alpha, beta and bias must be finite";
  ArrayRef<int64_t> shape = xt.getShape();
  int64_t batch = shape[0], channels = shape[1], pixels = 1;
  for (int64_t d : shape.drop_front(2))
    pixels *= d;
  int64_t low = (size - 1) / 2, high = size - 1 - low;
  auto squares = n.create<MulOp>(*x, *x);
  if (failed(squares))
    return failure();
  auto plane = n.reshape(*squares, {batch, 1, channels, pixels});
  if (failed(plane))
    return failure();
  auto mean = n.create<AvgPool2DOp>(
      *plane, SmallVector<int64_t>{size, 1}, SmallVector<int64_t>{1, 1},
      SmallVector<int64_t>{low, 0, high, 0}, SmallVector<int64_t>{1, 1},
      /*ceil_mode=*/false, /*count_include_pad=*/true);
  if (failed(mean))
    return failure();
  // alpha / size * square_sum = alpha * mean.
  auto scaled = n.create<MulOp>(*mean, n.scalar(et, alpha));
  if (failed(scaled))
    return failure();
  auto base = n.create<AddOp>(*scaled, n.scalar(et, bias));
  if (failed(base))
    return failure();
  auto denominator = n.create<PowOp>(*base, n.scalar(et, beta));
  if (failed(denominator))
    return failure();
  auto back = n.reshape(*denominator, shape);
  if (failed(back))
    return failure();
  auto y = n.create<DivOp>(*x, *back);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// MeanVarianceNormalization over `axes` (default [0, 2, 3]), as its ONNX
/// function computes it: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9). The
/// variance is clamped at 0 before the root, where cancellation would
/// leave it a rounding error below.
LogicalResult importMVN(NodeImporter &n) {
  auto x = n.requiredFloatInput(0);
  if (failed(x))
    return failure();
  RankedTensorType xt = n.inputType(0);
  Type et = xt.getElementType();
  SmallVector<int64_t> axes =
      n.attrInts("axes").value_or(SmallVector<int64_t>{0, 2, 3});
  SmallVector<int64_t> normalized;
  for (int64_t a : axes) {
    auto d = n.normalizeAxis(a, xt.getRank());
    if (failed(d))
      return failure();
    if (llvm::is_contained(normalized, *d))
      return n.emitError() << "axis " << a << " is repeated";
    normalized.push_back(*d);
  }
  llvm::sort(normalized);
  auto mean = n.create<ReduceOp>(ReduceKind::mean, *x, normalized, true);
  auto squares = n.create<MulOp>(*x, *x);
  if (failed(mean) || failed(squares))
    return failure();
  auto meanSquares =
      n.create<ReduceOp>(ReduceKind::mean, *squares, normalized, true);
  auto meanSquared = n.create<MulOp>(*mean, *mean);
  if (failed(meanSquares) || failed(meanSquared))
    return failure();
  auto variance = n.create<SubOp>(*meanSquares, *meanSquared);
  if (failed(variance))
    return failure();
  auto clamped = n.create<MaxOp>(*variance, n.scalar(et, 0.0));
  if (failed(clamped))
    return failure();
  auto deviation = n.create<SqrtOp>(*clamped);
  if (failed(deviation))
    return failure();
  auto denominator = n.create<AddOp>(*deviation, n.scalar(et, 1e-9));
  auto centered = n.create<SubOp>(*x, *mean);
  if (failed(denominator) || failed(centered))
    return failure();
  auto y = n.create<DivOp>(*centered, *denominator);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

} // namespace

void registerNormalizeImporters(OpTable &t) {
  t["LRN"] = {{1, 13}, importLRN};
  t["MeanVarianceNormalization"] = {{9, 13}, importMVN};
}

} // namespace mlir::brrr
