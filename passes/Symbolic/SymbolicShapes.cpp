//===- SymbolicShapes.cpp - what the passes compile symbolically ----------===//
//
// A module compiled with ranges has symbolic extents (`#brrr.extents`).
// Kernels learn them family by family; until a family has, every pass
// refuses its symbolic values with an error naming the pass, the op and the
// value (requireSupportedShapes), so that no pass reads a `?` as a size.
//
// What compiles symbolically so far: pointwise ops and the pointwise
// kernels made of them, where every tensor keeps its symbolic extents in
// one outer run of leading dimensions (outerRunOf) that is the same for
// all of them, or broadcasts across the whole run. Such a kernel is the
// kernel of the largest shape with its element count read at run time: an
// element's linear index, and a broadcast operand's index (which depends on
// the static dimensions only), are the same at every shape in range.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Whether `u` is an operand or result that a pointwise kernel computing
/// `out` reads or writes at the same linear index in every shape: the same
/// outer run of extents as `out` (and the same static rest), or 1 across
/// the whole run (aligned to the right, numpy style).
bool sharesOuterRun(Type u, RankedTensorType out) {
  auto t = dyn_cast<RankedTensorType>(u);
  if (!t)
    return true;
  if (!isSymbolic(out))
    return !isSymbolic(t);
  SmallVector<AffineExpr> ue = extentsOf(t), oe = extentsOf(out);
  size_t rank = oe.size(), run = outerRunOf(out);
  if (ue.size() > rank)
    return false;
  size_t lead = rank - ue.size();
  bool broadcast = true, same = lead == 0;
  for (size_t i = 0; i < ue.size(); ++i) {
    size_t j = lead + i;
    if (j >= run) {
      // The static dimensions broadcast as they do in a static kernel.
      if (isSymbolic(t) && outerRunOf(t) > i)
        return false;
      continue;
    }
    auto c = dyn_cast<AffineConstantExpr>(ue[i]);
    broadcast &= c && c.getValue() == 1;
    same &= ue[i] == oe[j];
  }
  return broadcast || same;
}

bool isPointwiseBody(FusionOp fusion) {
  for (Operation &op : fusion.getBody().front())
    if (!isa<YieldOp, ConstantOp>(op) &&
        !(isPointwise(&op) && !isa<QuantizeOp, DequantizeOp>(op)))
      return false;
  return true;
}

} // namespace

bool mlir::brrr::compilesSymbolically(Operation *op) {
  if (isa<func::FuncOp, func::ReturnOp, YieldOp>(op))
    return true;
  auto fusion = dyn_cast<FusionOp>(op);
  bool pointwise = isPointwise(op) && !isa<QuantizeOp, DequantizeOp>(op);
  if (fusion)
    pointwise =
        fusion.getKind() == KernelFamily::pointwise && isPointwiseBody(fusion);
  if (!pointwise || op->getNumResults() == 0)
    return false;
  auto out = cast<RankedTensorType>(op->getResult(0).getType());
  auto shares = [&](Type t) { return sharesOuterRun(t, out); };
  if (!llvm::all_of(op->getOperandTypes(), shares) ||
      !llvm::all_of(op->getResultTypes(), shares))
    return false;
  // A fusion's body is checked op by op, against its own results.
  if (fusion)
    for (Operation &inner : fusion.getBody().front())
      if (!isa<YieldOp, ConstantOp>(inner) && !compilesSymbolically(&inner))
        return false;
  return true;
}

LogicalResult mlir::brrr::requireSupportedShapes(Operation *root,
                                                 StringRef pass) {
  return requireStaticShapes(root, pass, compilesSymbolically);
}

int64_t mlir::brrr::bufferBytes(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (isSymbolic(type)) {
    Operation *at = v.getDefiningOp();
    if (!at)
      at = cast<BlockArgument>(v).getOwner()->getParentOp();
    // Unsupported symbolic values never reach a pass that sizes them (the
    // gate); rangeOf can only fail on a module the verifier rejects.
    type = largestTypeOf(type, dimsOf(at));
    if (!type)
      return 0;
  }
  return bufferBytes(type);
}

int64_t mlir::brrr::elementCountDivisor(RankedTensorType t) {
  if (!isSymbolic(t))
    return t.getNumElements();
  int64_t n = 1;
  for (AffineExpr e : extentsOf(t)) {
    std::optional<ExtentProduct> p = productOf(e);
    int64_t factor = p ? p->coefficient : 1;
    // Only the divisibility matters: on overflow, fall back to 1.
    if (__builtin_mul_overflow(n, factor, &n))
      return 1;
  }
  return n;
}
