//===- KernelCost.cpp - a kernel's work and traffic at each shape --------===//
//
// rooflineExtents: the expressions of `brrr.roofline_extents` (KernelCost.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/KernelCost.h"
#include "passes/Config/Attention.h"

#include <numeric>

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// What the kernel's work is linear in: its batch's (query, key) pairs in
/// attention, else the elements of its first result's outer run.
AffineExpr unitsOf(FusionOp fusion) {
  if (AttentionOp att = attentionOf(fusion)) {
    SmallVector<AffineExpr> q = extentsOf(att.getQuery().getType());
    AffineExpr sq = q[2], sk = extentsOf(att.getKey().getType())[2];
    // Causal over one sequence: query i sees keys 0..i.
    AffineExpr pairs =
        att.getCausal() && sq == sk ? (sq * sq + sq).floorDiv(2) : sq * sk;
    return q[0] * pairs;
  }
  auto t = cast<RankedTensorType>(fusion.getResult(0).getType());
  SmallVector<AffineExpr> extents = extentsOf(t);
  AffineExpr run = getAffineConstantExpr(1, fusion.getContext());
  for (unsigned d = 0; d < outerRunOf(t); ++d)
    run = run * extents[d];
  return run;
}

} // namespace

std::optional<AffineMap> mlir::brrr::rooflineExtents(FusionOp fusion,
                                                     int64_t flops,
                                                     int64_t bytes,
                                                     unsigned symbols) {
  auto symbolic = [](Value v) { return isSymbolic(v.getType()); };
  if (fusion.getNumResults() == 0 ||
      (llvm::none_of(fusion.getInputs(), symbolic) &&
       llvm::none_of(fusion.getResults(), symbolic)))
    return std::nullopt;
  SmallVector<DimAttr> dims = dimsOf(fusion);
  MLIRContext *context = fusion.getContext();
  AffineExpr units = unitsOf(fusion);
  std::optional<std::pair<int64_t, int64_t>> unitRange = rangeOf(units, dims);
  if (!unitRange || unitRange->second <= 0)
    return std::nullopt;
  int64_t largest = unitRange->second;
  // `atLargest` times the units over their largest count, exact there
  // (largest > 0, so the gcd is too).
  auto linear = [&](int64_t atLargest) -> AffineExpr {
    int64_t g = std::gcd(atLargest, largest);
    AffineExpr e = units * (atLargest / g);
    return largest / g == 1 ? e : e.floorDiv(largest / g);
  };
  // The tensors' bytes at each shape, where that is what `bytes` counts.
  AffineExpr tensors = getAffineConstantExpr(0, context);
  auto add = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    tensors = tensors + elementCountOf(t) * elementBytes(t.getElementType());
  };
  for (Value v : fusion.getInputs())
    add(v);
  for (Value v : fusion.getResults())
    add(v);
  AffineExpr work = linear(flops);
  std::optional<std::pair<int64_t, int64_t>> tensorRange =
      rangeOf(tensors, dims);
  AffineExpr traffic =
      tensorRange && tensorRange->second == bytes ? tensors : linear(bytes);
  // Both must be what code generation counted at the largest shape, and
  // evaluate without overflow everywhere in range.
  std::pair<AffineExpr, int64_t> counted[] = {{work, flops}, {traffic, bytes}};
  for (auto [e, atLargest] : counted) {
    std::optional<std::pair<int64_t, int64_t>> r = rangeOf(e, dims);
    if (!r || r->first < 0 || r->second != atLargest)
      return std::nullopt;
  }
  return AffineMap::get(0, symbols, {work, traffic}, context);
}
