//===- Families.cpp - the table of kernel families' rules ----------------===//

#include "passes/Config/Families.h"
#include "passes/Config/Products.h"

using namespace mlir;
using namespace mlir::brrr;

KernelConfigAttr mlir::brrr::simtConfig(MLIRContext *ctx, KernelFamily family,
                                        int64_t threads, ArrayRef<int64_t> tile,
                                        int64_t vector) {
  return KernelConfigAttr::get(ctx, family, KernelBody::simt, threads, tile, 0,
                               vector, 1, KernelPrecision::exact, 0, 0,
                               KernelSchedule::cooperative, 1, {}, {});
}

KernelConfigAttr mlir::brrr::fewRowsConfig(MLIRContext *ctx,
                                           KernelFamily family, int64_t rows,
                                           int64_t vector) {
  return simtConfig(ctx, family, 32 * kOnePixelChannelsPerBlock,
                    {rows, kOnePixelChannelsPerBlock}, vector);
}

const FamilyRules &mlir::brrr::rulesOf(KernelFamily family) {
  switch (family) {
  case KernelFamily::pointwise:
    return kPointwiseRules;
  case KernelFamily::row:
    return kRowRules;
  case KernelFamily::reduce:
    return kReduceRules;
  case KernelFamily::movement:
    return kMovementRules;
  case KernelFamily::matmul:
    return kMatmulRules;
  case KernelFamily::conv:
    return kConvRules;
  case KernelFamily::pool:
    return kPoolRules;
  case KernelFamily::attention:
    return kAttentionRules;
  }
  llvm_unreachable("every KernelFamily has rules");
}

LogicalResult mlir::brrr::verifyFor(FusionOp fusion, KernelConfigAttr config) {
  const FamilyRules &rules = rulesOf(fusion.getKind());
  return rules.verify ? rules.verify(fusion, config) : success();
}
