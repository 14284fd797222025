//===- Pointwise.cpp - the pointwise family's rules ----------------------===//
//
// Pointwise kernels: 256 threads, vectors of 16 bytes of the result where
// every access allows (pointwiseVectorWidth), and for large results more
// than one vector a thread.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Families.h"
#include "passes/Config/Movement.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Vectors a thread of a pointwise or movement kernel computes (its
/// `tile`; absent: one). Four, all loaded before any is computed, once the
/// grid still holds this many blocks (about two waves of four blocks on a
/// 132-SM GPU), so that more bytes are in flight per thread; two where the
/// body calls sin or cos, whose slow path (a range reduction over a table)
/// costs ~90 registers a thread at four vectors: cos(cos(x)) over 64M f32
/// on an H200 ran at 55% of the copy rate with four, 84% with two and 81%
/// with one (torch.compile 89%), an add at 99% with any.
constexpr int64_t kUnrollMinBlocks = 1056;
/// The vectors of a result from which a thread computes several.
constexpr int64_t kUnrollMinVectors = 4 * kPointwiseThreads * kUnrollMinBlocks;

FailureOr<KernelConfigAttr> choosePointwise(FusionOp fusion,
                                            const ConfigOptions &) {
  int64_t vector = pointwiseVectorWidth(fusion);
  KernelConfigAttr config =
      simtConfig(fusion.getContext(), KernelFamily::pointwise,
                 kPointwiseThreads, vectorsPerThread(fusion, vector), vector);
  recordUnrollVariants(fusion, config, {});
  return config;
}

FailureOr<Grid> gridOfPointwise(FusionOp fusion, KernelConfigAttr config) {
  return pointwiseGrid(fusion, config);
}

} // namespace

LogicalResult mlir::brrr::verifyPointwise(FusionOp fusion,
                                          KernelConfigAttr config) {
  auto out = cast<RankedTensorType>(fusion.getResult(0).getType());
  // Over symbolic extents, every count in range.
  int64_t elements =
      isSymbolic(out) ? elementCountDivisor(out) : out.getNumElements();
  int64_t vec = config.getVector();
  if (elements % vec != 0)
    return fusion.emitOpError("vector width ")
           << vec << " does not divide the " << elements << " elements";
  return success();
}

/// The vectors a thread computes at `numel` elements of the first result.
static SmallVector<int64_t> vectorsPerThreadAt(FusionOp fusion, int64_t vector,
                                               int64_t numel) {
  if (numel / vector < kUnrollMinVectors)
    return {};
  bool trig = false;
  fusion.getBody().walk(
      [&](Operation *op) { trig |= isa<SinOp, CosOp, TanOp>(op); });
  return {trig ? 2 : 4};
}

SmallVector<int64_t> mlir::brrr::vectorsPerThread(FusionOp fusion,
                                                  int64_t vector) {
  // At a symbolic count, for the largest shape in range.
  Value out = fusion.getResult(0);
  int64_t numel =
      bufferBytes(out) /
      elementBytes(cast<RankedTensorType>(out.getType()).getElementType());
  return vectorsPerThreadAt(fusion, vector, numel);
}

void mlir::brrr::recordUnrollVariants(FusionOp fusion, KernelConfigAttr config,
                                      ArrayRef<int64_t> oneVector) {
  auto out = cast<RankedTensorType>(fusion.getResult(0).getType());
  // Only a kernel that unrolls at the largest count.
  if (!isSymbolic(out) || config.getTile().size() != 1 ||
      config.getTile()[0] < 2)
    return;
  AffineExpr count = elementCountOf(out);
  std::optional<std::pair<int64_t, int64_t>> range =
      rangeOf(count, dimsOf(fusion));
  if (!range || range->first < 1)
    return;
  // The counts below the unrolled one take a vector a thread, as a static
  // compile of each would: the largest of them is one short of the first
  // count that unrolls.
  int64_t vector = config.getVector();
  int64_t below = kUnrollMinVectors * vector - 1;
  if (!vectorsPerThreadAt(fusion, vector, range->first).empty() ||
      below >= range->second)
    return;
  recordVariants(fusion,
                 {{below, simtConfig(fusion.getContext(), config.getFamily(),
                                     config.getThreads(), oneVector, vector)}},
                 count);
}

Grid mlir::brrr::pointwiseGrid(FusionOp fusion, KernelConfigAttr config) {
  auto symbolicType = cast<RankedTensorType>(fusion.getResult(0).getType());
  AffineExpr elements =
      isSymbolic(symbolicType) ? elementCountOf(symbolicType) : AffineExpr();
  int64_t numel = 1;
  for (int64_t d : largestShapeOf(fusion.getResult(0)))
    numel *= d;
  int64_t vec = config.getVector(), threads = config.getThreads();
  int64_t unroll = config.getTile().empty() ? 1 : config.getTile()[0];
  Grid g;
  g.x = llvm::divideCeil(numel / vec, threads * unroll);
  if (elements)
    g.atRunX = elements.ceilDiv(vec * threads * unroll);
  return g;
}

const FamilyRules mlir::brrr::kPointwiseRules = {
    choosePointwise, verifyPointwise, gridOfPointwise, nullptr};
