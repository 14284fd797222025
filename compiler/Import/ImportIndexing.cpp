//===- ImportIndexing.cpp - data-dependent indexing ONNX ops -> brrr ----===//
//
// The ops whose element positions come from an index tensor rather than
// from the shapes alone: Gather, GatherElements, GatherND, ScatterElements
// and ScatterND. Index tensors may be runtime values;
// where they and the data are constants (exporters build masks this way)
// the ops fold at import.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

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

} // namespace

void registerIndexingImporters(OpTable &t) {
  t["Gather"] = {{1, 11, 13}, importGatherAlongAxis<GatherOp>};
  t["GatherElements"] = {{11, 13}, importGatherAlongAxis<GatherElementsOp>};
  t["GatherND"] = {{11, 12, 13}, importGatherND};
  t["ScatterElements"] = {{11, 13, 16, 18}, importScatterElements};
  t["ScatterND"] = {{11, 13, 16, 18}, importScatterND};
  // Scatter is the name ScatterElements had before opset 11.
  t["Scatter"] = {{9, 11}, importScatterElements};
}

} // namespace mlir::brrr
