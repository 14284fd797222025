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
                               KernelSchedule::cooperative, 1, false, {}, {});
}

void mlir::brrr::recordVariants(
    FusionOp fusion, ArrayRef<std::pair<int64_t, KernelConfigAttr>> ranges,
    AffineExpr rows) {
  if (ranges.empty())
    return;
  MLIRContext *ctx = fusion.getContext();
  SmallVector<Attribute> variants;
  for (auto [upTo, config] : ranges) {
    NamedAttribute entries[] = {
        NamedAttribute(StringAttr::get(ctx, "config"), config),
        NamedAttribute(StringAttr::get(ctx, "rows"),
                       IntegerAttr::get(IntegerType::get(ctx, 64), upTo))};
    variants.push_back(DictionaryAttr::get(ctx, entries));
  }
  fusion->setAttr(kVariantsAttrName, ArrayAttr::get(ctx, variants));
  fusion->setAttr(
      kVariantRowsAttrName,
      AffineMapAttr::get(AffineMap::get(0, dimsOf(fusion).size(), rows, ctx)));
}

KernelConfigAttr mlir::brrr::fewRowsConfig(MLIRContext *ctx,
                                           KernelFamily family, int64_t rows,
                                           int64_t vector) {
  return simtConfig(ctx, family, 32 * kOnePixelChannelsPerBlock,
                    {rows, kOnePixelChannelsPerBlock}, vector);
}

KernelConfigAttr mlir::brrr::fewRowsMmaConfig(MLIRContext *ctx, int64_t rows,
                                              int64_t N, int64_t K,
                                              int64_t sms) {
  int64_t blocks = llvm::divideCeil(N, kFewRowsMmaColumns);
  int64_t chunks = llvm::divideCeil(K, 32);
  int64_t warps = std::clamp<int64_t>(
      llvm::PowerOf2Ceil(llvm::divideCeil(8 * sms, blocks)), 4, 16);
  warps = std::min<int64_t>(warps, int64_t(llvm::bit_floor(uint64_t(chunks))));
  return KernelConfigAttr::get(
      ctx, KernelFamily::matmul, KernelBody::warp_mma, 32 * warps,
      {int64_t(llvm::alignTo(rows, 8)), kFewRowsMmaColumns}, 0, 8, 1,
      KernelPrecision::exact, 0, 0, KernelSchedule::cooperative, 1, false, {},
      {});
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
