//===- SharedBuffers.cpp - the shared memory each kernel's config needs ---===//
//
// What a kernel keeps in shared memory follows from its family and its
// `#brrr.kernel` config alone, as its family's rules declare it
// (passes/Config/Families/): the staged k-slices, mbarriers and epilogue
// staging of tiled products, attention's query, key and value blocks, a
// reduction's partial results, a row kernel's per-warp scratch. Each is a
// typed buffer (a `SharedRole` and an index) with the phases in which it is
// alive. brrr-plan-shared-memory places what this declares without knowing
// any family, and the code generator finds each buffer by its role and
// index in the `#brrr.shared` plan.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/SharedBuffers.h"
#include "passes/Config/Families.h"

using namespace mlir;
using namespace mlir::brrr;

FailureOr<SmallVector<SharedBuffer>>
mlir::brrr::sharedBuffersOf(FusionOp fusion, int64_t &slack) {
  SmallVector<SharedBuffer> buffers;
  const FamilyRules &rules = rulesOf(fusion.getKind());
  if (!rules.sharedBuffers)
    return buffers;
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config) ||
      failed(rules.sharedBuffers(fusion, *config, buffers, slack)))
    return failure();
  return buffers;
}
