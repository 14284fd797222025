//===- ImportIndexing.cpp - data-dependent indexing ONNX ops -> brrr ----===//
//
// The ops whose element positions come from an index tensor rather than
// from the shapes alone: Gather, GatherElements, GatherND, OneHot,
// ScatterElements and ScatterND. Index tensors may be runtime values;
// where they and the data are constants (exporters build masks this way)
// the ops fold at import.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "llvm/ADT/SmallString.h"

#include <cmath>

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

/// The `reduction` attribute of ScatterElements/ScatterND: absent before
/// opset 16, add/mul since 16, max/min since 18.
FailureOr<ScatterReduction> reductionOf(NodeImporter &n) {
  std::string name = n.attrString("reduction", "none");
  std::optional<ScatterReduction> r = symbolizeScatterReduction(name);
  bool known =
      r && (*r == ScatterReduction::none ||
            ((*r == ScatterReduction::add || *r == ScatterReduction::mul) &&
             n.sinceVersion >= 16) ||
            n.sinceVersion >= 18);
  if (!known)
    return n.emitError() << "reduction '" << name
                         << "' is not defined at this opset";
  return *r;
}

/// Gather and GatherElements: data, indices and an axis (default 0).
template <typename OpTy> LogicalResult importGatherAlongAxis(NodeImporter &n) {
  auto x = n.requiredInput(0), idx = n.requiredInput(1);
  if (failed(x) || failed(idx))
    return failure();
  auto axis = n.normalizeAxis(n.attrInt("axis", 0), n.inputType(0).getRank());
  if (failed(axis))
    return failure();
  auto y = n.create<OpTy>(*x, *idx, static_cast<uint64_t>(*axis));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importGatherND(NodeImporter &n) {
  auto x = n.requiredInput(0), idx = n.requiredInput(1);
  if (failed(x) || failed(idx))
    return failure();
  int64_t batch = n.sinceVersion >= 12 ? n.attrInt("batch_dims", 0) : 0;
  auto y = n.create<GatherNDOp>(*x, *idx, batch);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importScatterElements(NodeImporter &n) {
  auto x = n.requiredInput(0), idx = n.requiredInput(1),
       upd = n.requiredInput(2);
  if (failed(x) || failed(idx) || failed(upd))
    return failure();
  auto axis = n.normalizeAxis(n.attrInt("axis", 0), n.inputType(0).getRank());
  FailureOr<ScatterReduction> reduction = reductionOf(n);
  if (failed(axis) || failed(reduction))
    return failure();
  auto y = n.create<ScatterElementsOp>(*reduction, *x, *idx, *upd,
                                       static_cast<uint64_t>(*axis));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importScatterND(NodeImporter &n) {
  auto x = n.requiredInput(0), idx = n.requiredInput(1),
       upd = n.requiredInput(2);
  if (failed(x) || failed(idx) || failed(upd))
    return failure();
  FailureOr<ScatterReduction> reduction = reductionOf(n);
  if (failed(reduction))
    return failure();
  auto y = n.create<ScatterNDOp>(*reduction, *x, *idx, *upd);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// OneHot (opsets 9, 11): a new axis of length `depth` at `axis` of the
/// output, `values[1]` where its position equals the index and `values[0]`
/// elsewhere. Since opset 11 a negative index counts from the end; an
/// index outside [-depth, depth) (before 11: outside [0, depth)) matches
/// nothing. As
/// where(adjusted index == arange(depth), on, off), compared in the
/// indices' own type: a non-integral float index matches nothing.
LogicalResult importOneHot(NodeImporter &n) {
  auto idx = n.requiredInput(0), values = n.requiredInput(2);
  if (failed(idx) || failed(values))
    return failure();
  auto depths = n.constFloats(1, "depth");
  if (failed(depths))
    return failure();
  if (depths->size() != 1)
    return n.emitError() << "depth must hold one value, not " << depths->size();
  double depthValue = depths->front();
  if (!(depthValue >= 1 && depthValue <= NodeImporter::kMaxIndices &&
        depthValue == std::trunc(depthValue))) {
    SmallString<16> text;
    APFloat(depthValue).toString(text);
    return n.emitError() << "depth " << text << " is not a whole number in [1, "
                         << NodeImporter::kMaxIndices << "]";
  }
  int64_t depth = static_cast<int64_t>(depthValue);
  RankedTensorType it = n.inputType(0), vt = n.inputType(2);
  Type et = it.getElementType();
  if (!isa<FloatType, IntegerType>(et) || et.isInteger(1))
    return n.emitError() << "indices must be numbers, not " << et;
  if (auto ft = dyn_cast<FloatType>(et)) {
    // Positions must be exact in the indices' type.
    int64_t exact = int64_t(1)
                    << APFloat::semanticsPrecision(ft.getFloatSemantics());
    if (depth > exact)
      return n.emitError() << "depth " << depth << " is more than " << et
                           << " indices count exactly (" << exact << ")";
  }
  if (vt.getNumElements() != 2)
    return n.emitError() << "values must hold [off, on], not " << vt;
  int64_t rank = it.getRank();
  auto axis = n.normalizeAxis(n.attrInt("axis", -1), rank + 1);
  if (failed(axis))
    return failure();

  // The indices with a unit dimension at `axis`, negative ones moved up.
  SmallVector<int64_t> spread(it.getShape());
  spread.insert(spread.begin() + *axis, 1);
  auto adjusted = n.reshape(*idx, spread);
  if (failed(adjusted))
    return failure();
  if (n.sinceVersion >= 11) {
    auto negative =
        n.create<CompareOp>(ComparePredicate::lt, *adjusted, n.scalar(et, 0));
    auto wrapped = n.create<AddOp>(*adjusted, n.scalar(et, depthValue));
    if (failed(negative) || failed(wrapped))
      return failure();
    adjusted = n.create<WhereOp>(*negative, *wrapped, *adjusted);
    if (failed(adjusted))
      return failure();
  }
  // 0 .. depth - 1 along `axis` of the output.
  SmallVector<int64_t> outShape(spread);
  outShape[*axis] = depth;
  auto positions = n.indicesAlong(RankedTensorType::get(outShape, et), *axis);
  if (failed(positions))
    return failure();
  auto targets = n.castTo(*positions, et);
  if (failed(targets))
    return failure();
  auto hit = n.create<CompareOp>(ComparePredicate::eq, *adjusted, *targets);
  if (failed(hit))
    return failure();

  // off = values[0], on = values[1], as scalars.
  auto flat = n.reshape(*values, {2});
  if (failed(flat))
    return failure();
  auto pick = [&](int64_t i) {
    return n.create<GatherOp>(*flat, n.scalar(n.b.getI64Type(), i),
                              uint64_t{0});
  };
  auto off = pick(0), on = pick(1);
  if (failed(off) || failed(on))
    return failure();
  auto y = n.create<WhereOp>(*hit, *on, *off);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

} // namespace

void registerIndexingImporters(OpTable &t) {
  t["Gather"] = {{1, 11, 13}, importGatherAlongAxis<GatherOp>};
  t["GatherElements"] = {{11, 13}, importGatherAlongAxis<GatherElementsOp>};
  t["GatherND"] = {{11, 12, 13}, importGatherND};
  t["OneHot"] = {{9, 11}, importOneHot};
  t["ScatterElements"] = {{11, 13, 16, 18}, importScatterElements};
  t["ScatterND"] = {{11, 13, 16, 18}, importScatterND};
  // Scatter is the name ScatterElements had before opset 11.
  t["Scatter"] = {{9, 11}, importScatterElements};
}

} // namespace mlir::brrr
