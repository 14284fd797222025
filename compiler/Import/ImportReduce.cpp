//===- ImportReduce.cpp - ONNX reductions -> brrr.reduce ----------------===//
//
// The Reduce* family. Axes moved from an attribute to an input in opset 13
// (ReduceSum) and 18 (the others); `noop_with_empty_axes` arrived with the
// input form. Composite reductions (L1, L2, SumSquare, LogSum, LogSumExp)
// become a pointwise prologue/epilogue around one brrr.reduce.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

/// How a composite reduction is spelled around its core reduction.
enum class Composite { None, L1, L2, SumSquare, LogSum, LogSumExp };

/// The sorted, normalized axes of this reduction, or std::nullopt when the
/// node is a no-op (empty axes with noop_with_empty_axes).
FailureOr<std::optional<SmallVector<int64_t>>>
reductionAxes(NodeImporter &n, int64_t rank, int64_t inputSince) {
  SmallVector<int64_t> axes;
  if (n.sinceVersion >= inputSince && n.attr("axes"))
    return n.emitError() << "'axes' is an input since opset " << inputSince
                         << ", not an attribute";
  if (n.sinceVersion < inputSince && n.hasInput(1))
    return n.emitError() << "'axes' is an attribute before opset " << inputSince
                         << ", not an input";
  if (n.sinceVersion >= inputSince) {
    if (n.hasInput(1)) {
      auto v = n.constInts(1, "axes");
      if (failed(v))
        return failure();
      axes = *v;
    }
  } else if (auto a = n.attrInts("axes")) {
    axes = *a;
  }
  if (axes.empty()) {
    if (n.sinceVersion >= inputSince && n.attrInt("noop_with_empty_axes", 0))
      return std::optional<SmallVector<int64_t>>();
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  for (int64_t &a : axes) {
    auto norm = n.normalizeAxis(a, rank);
    if (failed(norm))
      return failure();
    a = *norm;
  }
  llvm::sort(axes);
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return n.emitError() << "axes repeat a dimension";
  return std::optional<SmallVector<int64_t>>(axes);
}

template <ReduceKind Kind, Composite C = Composite::None,
          int64_t InputSince = 18>
LogicalResult importReduce(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto axes = reductionAxes(n, n.inputType(0).getRank(), InputSince);
  if (failed(axes))
    return failure();
  Value v = *x;
  FailureOr<Value> pre = v;
  switch (C) {
  case Composite::L1:
    pre = n.create<AbsOp>(v);
    break;
  case Composite::L2:
  case Composite::SumSquare:
    pre = n.create<MulOp>(v, v);
    break;
  case Composite::LogSumExp:
    pre = n.create<ExpOp>(v);
    break;
  default:
    break;
  }
  if (failed(pre))
    return failure();
  FailureOr<Value> y = *pre;
  if (axes->has_value())
    y = n.create<ReduceOp>(Kind, *pre, **axes, n.attrInt("keepdims", 1) != 0);
  if (failed(y))
    return failure();
  if (C == Composite::L2)
    y = n.create<SqrtOp>(*y);
  else if (C == Composite::LogSum || C == Composite::LogSumExp)
    y = n.create<LogOp>(*y);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

} // namespace

void registerReduceImporters(OpTable &t) {
  constexpr auto sum = ReduceKind::sum;
  t["ReduceL1"] = {{1, 11, 13, 18}, importReduce<sum, Composite::L1>};
  t["ReduceL2"] = {{1, 11, 13, 18}, importReduce<sum, Composite::L2>};
  t["ReduceLogSum"] = {{1, 11, 13, 18}, importReduce<sum, Composite::LogSum>};
  t["ReduceLogSumExp"] = {{1, 11, 13, 18},
                          importReduce<sum, Composite::LogSumExp>};
  t["ReduceMax"] = {{1, 11, 12, 13, 18, 20}, importReduce<ReduceKind::max>};
  t["ReduceMean"] = {{1, 11, 13, 18}, importReduce<ReduceKind::mean>};
  t["ReduceMin"] = {{1, 11, 12, 13, 18, 20}, importReduce<ReduceKind::min>};
  t["ReduceProd"] = {{1, 11, 13, 18}, importReduce<ReduceKind::prod>};
  t["ReduceSum"] = {{1, 11, 13}, importReduce<sum, Composite::None, 13>};
  t["ReduceSumSquare"] = {{1, 11, 13, 18},
                          importReduce<sum, Composite::SumSquare>};
}

} // namespace mlir::brrr
