//===- ImportLoss.cpp - loss ONNX ops -> brrr ----------------------------===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, decomposed onto the
// index-driven and reduction ops: the per-element loss is the negated input
// at the target class (gather_elements along the class axis 1), scaled by
// the class weight (gather), zero where the target is ignore_index (read as
// class 0, so that the gathers never index outside the classes); "sum"
// and "mean" reduce it to a scalar, "mean" dividing by the sum of the
// weights that were not ignored, as ONNX defines.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

/// Every axis of a rank-`rank` tensor.
SmallVector<int64_t> allAxes(int64_t rank) {
  return llvm::to_vector(llvm::seq<int64_t>(0, rank));
}

/// The loss of log-probabilities `logp` [N, C, d...] at `target` [N, d...]
/// with optional class `weight` [C], reduced per the node's `reduction`.
FailureOr<Value> nllLoss(NodeImporter &n, Value logp, Value target,
                         Value weight) {
  auto xt = cast<RankedTensorType>(logp.getType());
  auto tt = cast<RankedTensorType>(target.getType());
  Type et = xt.getElementType();
  if (xt.getRank() < 2 || tt.getRank() != xt.getRank() - 1)
    return n.emitError() << "input " << xt
                         << " must be [N, C, d...] and target " << tt
                         << " [N, d...]";
  std::string reduction = n.attrString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return n.emitError() << "unknown reduction '" << reduction << "'";

  // An ignore_index the target's integer type cannot hold equals no
  // target: nothing is ignored. Ignored targets may lie outside the
  // classes (ONNX's tests use ignore_index = C); they are read as class 0
  // and weigh 0, so that every index the gathers read is in range and the
  // kernels' index checks report only real errors.
  const onnx::AttributeProto *ii = n.attr("ignore_index");
  auto it = dyn_cast<IntegerType>(tt.getElementType());
  if (ii && it) {
    APInt v(64, ii->i(), /*isSigned=*/true);
    unsigned bits = it.getWidth();
    if (it.isUnsigned() ? v.isNegative() || !v.isIntN(bits)
                        : !v.isSignedIntN(bits))
      ii = nullptr;
  }
  Value kept;
  if (ii && it) {
    Value ignored = mlir::brrr::ConstantOp::create(
        n.b, n.loc,
        DenseElementsAttr::get(
            RankedTensorType::get({}, it),
            APInt(it.getWidth(), ii->i(), /*isSigned=*/!it.isUnsigned())));
    auto ne = n.create<CompareOp>(ComparePredicate::ne, target, ignored);
    if (failed(ne))
      return failure();
    kept = *ne;
    auto safe = n.create<WhereOp>(kept, target, n.scalar(it, 0));
    if (failed(safe))
      return failure();
    target = *safe;
  }

  // The input at each target's class: gather along axis 1 with the target
  // as a [N, 1, d...] index, then drop that axis.
  SmallVector<int64_t> oneClass(tt.getShape());
  oneClass.insert(oneClass.begin() + 1, 1);
  auto idx = n.reshape(target, oneClass);
  if (failed(idx))
    return failure();
  auto picked = n.create<GatherElementsOp>(logp, *idx, uint64_t{1});
  if (failed(picked))
    return failure();
  auto flat = n.reshape(*picked, tt.getShape());
  if (failed(flat))
    return failure();
  auto loss = n.create<NegOp>(*flat);
  if (failed(loss))
    return failure();

  // Per-element weights: the class weight, 0 where ignored; null when every
  // element weighs 1.
  Value w;
  if (weight) {
    auto wt = n.create<GatherOp>(weight, target, uint64_t{0});
    if (failed(wt))
      return failure();
    w = *wt;
  }
  if (kept) {
    auto masked =
        n.create<WhereOp>(kept, w ? w : n.scalar(et, 1), n.scalar(et, 0));
    if (failed(masked))
      return failure();
    w = *masked;
  }
  Value result = *loss;
  if (w) {
    auto scaled = n.create<MulOp>(*loss, w);
    if (failed(scaled))
      return failure();
    result = *scaled;
  }
  if (reduction == "none")
    return result;
  SmallVector<int64_t> axes = allAxes(tt.getRank());
  if (reduction == "mean" && !w)
    return n.create<ReduceOp>(ReduceKind::mean, result, axes, false);
  auto sum = n.create<ReduceOp>(ReduceKind::sum, result, axes, false);
  if (failed(sum) || reduction == "sum")
    return sum;
  auto full = n.expandTo(w, tt.getShape());
  if (failed(full))
    return failure();
  auto total = n.create<ReduceOp>(ReduceKind::sum, *full, axes, false);
  if (failed(total))
    return failure();
  return n.create<DivOp>(*sum, *total);
}

LogicalResult importNegativeLogLikelihoodLoss(NodeImporter &n) {
  auto x = n.requiredInput(0), t = n.requiredInput(1);
  if (failed(x) || failed(t))
    return failure();
  auto y = nllLoss(n, *x, *t, n.input(2));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// SoftmaxCrossEntropyLoss: log_softmax over the class axis 1 (taken last
/// through a transpose, which the row kernels need), then the NLL loss; the
/// optional second output is the log-probabilities.
LogicalResult importSoftmaxCrossEntropyLoss(NodeImporter &n) {
  auto x = n.requiredInput(0), t = n.requiredInput(1);
  if (failed(x) || failed(t))
    return failure();
  RankedTensorType xt = n.inputType(0);
  int64_t rank = xt.getRank();
  if (rank < 2)
    return n.emitError() << "scores " << xt << " must be [N, C, d...]";
  Value logp;
  if (rank == 2) {
    auto y = n.create<LogSoftmaxOp>(*x, uint64_t{1});
    if (failed(y))
      return failure();
    logp = *y;
  } else {
    SmallVector<int64_t> toLast = allAxes(rank), back(rank);
    toLast.erase(toLast.begin() + 1);
    toLast.push_back(1);
    for (int64_t d = 0; d < rank; ++d)
      back[toLast[d]] = d;
    auto moved = n.create<TransposeOp>(*x, toLast);
    if (failed(moved))
      return failure();
    auto y = n.create<LogSoftmaxOp>(*moved, static_cast<uint64_t>(rank - 1));
    if (failed(y))
      return failure();
    auto restored = n.create<TransposeOp>(*y, back);
    if (failed(restored))
      return failure();
    logp = *restored;
  }
  auto loss = nllLoss(n, logp, *t, n.input(2));
  if (failed(loss))
    return failure();
  n.setOutput(0, *loss);
  n.setOutput(1, logp);
  return success();
}

} // namespace

void registerLossImporters(OpTable &t) {
  t["NegativeLogLikelihoodLoss"] = {{12, 13}, importNegativeLogLikelihoodLoss};
  t["SoftmaxCrossEntropyLoss"] = {{12, 13}, importSoftmaxCrossEntropyLoss};
}

} // namespace mlir::brrr
