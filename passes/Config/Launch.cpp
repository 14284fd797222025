//===- Launch.cpp - every kernel's launch grid, from its config ----------===//
//
// Each family's rules (passes/Config/Families/) give the grid its code
// generator lays the work over: blocks along x, y and z at the largest
// shape in range, and where an extent is symbolic, the same count as an
// expression of the module's symbols (read at launch). This file records
// it in the config and checks a recorded one.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Launch.h"
#include "passes/Config/Families.h"

using namespace mlir;
using namespace mlir::brrr;

FailureOr<KernelConfigAttr>
mlir::brrr::withLaunchGrid(FusionOp fusion, KernelConfigAttr config) {
  FailureOr<Grid> g = rulesOf(fusion.getKind()).grid(fusion, config);
  if (failed(g))
    return failure();
  AffineMapAttr extents;
  if (g->atRunX || g->atRunY || g->atRunZ) {
    MLIRContext *ctx = fusion.getContext();
    auto orFixed = [&](AffineExpr e, int64_t blocks) {
      return e ? e : getAffineConstantExpr(blocks, ctx);
    };
    extents = AffineMapAttr::get(
        AffineMap::get(0, dimsOf(fusion).size(),
                       {orFixed(g->atRunX, g->x), orFixed(g->atRunY, g->y),
                        orFixed(g->atRunZ, g->z)},
                       ctx));
  }
  return config.withGrid({g->x, g->y, g->z}, extents);
}

LogicalResult mlir::brrr::verifyLaunchGrid(FusionOp fusion,
                                           KernelConfigAttr config) {
  FailureOr<KernelConfigAttr> derived = withLaunchGrid(fusion, config);
  if (failed(derived))
    return failure();
  if (*derived == config)
    return success();
  return fusion.emitOpError("kernel config ")
         << config
         << " does not record the launch grid its decisions give: " << *derived;
}
