//===- CheckIndices.cpp - index-driven kernels report bad indices ---------===//
//
// The pass (flag brrr-check-indices) that makes every kernel reading indices
// check them at run time. ONNX leaves an out-of-range index undefined; the
// kernels keep memory safe either way (reads are clamped into range, a
// scatter's index that matches no element writes nothing), and a checked
// kernel also reports the first bad index into the run's error record. The
// check is recorded on the fusion as a `#brrr.index_check` carrying what the
// runtime's message needs: the ONNX node (from the op's location) and op.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
#include "passes/Passes.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRCHECKINDICES
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// The ONNX name of an index-driven op (the op type it is imported from,
/// or that a larger node's decomposition uses), or null for an op that
/// reads no indices.
const char *onnxOpOf(Operation *op) {
  if (isa<GatherOp>(op))
    return "Gather";
  if (isa<GatherElementsOp>(op))
    return "GatherElements";
  if (isa<GatherNDOp>(op))
    return "GatherND";
  if (isa<ScatterElementsOp>(op))
    return "ScatterElements";
  if (isa<ScatterNDOp>(op))
    return "ScatterND";
  return nullptr;
}

struct CheckIndicesPass
    : public mlir::brrr::impl::BrrrCheckIndicesBase<CheckIndicesPass> {
  void runOnOperation() override {
    if (failed(
            mlir::brrr::requireSupportedShapes(getOperation(), getArgument())))
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    int64_t id = 0;
    getOperation().walk([&](FusionOp fusion) {
      if (fusion.getKind() != KernelFamily::movement)
        return;
      for (Operation &op : fusion.getBody().front().without_terminator())
        if (const char *onnxOp = onnxOpOf(&op)) {
          fusion->setAttr(
              kIndexCheckAttrName,
              IndexCheckAttr::get(ctx, id++,
                                  StringAttr::get(ctx, nodeNameOf(op.getLoc())),
                                  StringAttr::get(ctx, onnxOp)));
          return;
        }
    });
  }
};

} // namespace
