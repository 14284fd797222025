//===- SplitReductions.cpp - a huge reduction to few outputs in two steps -===//
//
// Runs before fusion (flag brrr-split-reductions). A reduction of a trailing
// run of axes to a few outputs, each of a huge number of elements, would
// run on a few blocks (a block per output at most) while the GPU idles:
// T5's f16 export asks after every layer whether a whole activation holds
// an infinity, one output of 2M elements at batch 32. It becomes two
// reductions: of `parts` equal groups of each output's elements (enough
// outputs to fill the GPU), then of the parts, through reshapes that move
// no data.
//
// With decompose-rows (the pipeline's second run, after attention is
// fused: an attention's softmax over 40000 keys stays in the attention
// kernel), a softmax, log-softmax or layer norm whose rows are too long
// for the register-resident row kernel (fitsRowKernel: a vocabulary's
// 50257 logits, PoolFormer's GroupNorm over a whole 64 x 56 x 56
// activation) is first written as its statistics, reductions that a
// reduction kernel walks at any length, and the pointwise arithmetic
// between them, in f32 for 16-bit data: max, exp(x - max), sum; mean,
// mean of squared deviations (or of squares, for RMS), their reciprocal
// square root. So is a softmax or log-softmax along a symbolic axis that
// attention did not take (softmaxOverSymbolicRows), at any length: its
// reductions run over the actual rows, its pointwise ops broadcast the
// statistics at run time.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
#include "passes/Config/Rows.h"
#include "passes/Passes.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRSPLITREDUCTIONS
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Groups up to this many: their partial results fill the GPU several
/// times over and the second reduction stays one block's work.
constexpr int64_t kMaxParts = 1024;
/// Elements a group at least: a block's worth of work for each.
constexpr int64_t kMinGroup = 2048;

/// The number of equal groups to reduce `count` elements in, or 0.
int64_t partsOf(int64_t count) {
  int64_t parts = 0;
  for (int64_t p = 2; p <= kMaxParts; p *= 2)
    if (count % p == 0 && count / p >= kMinGroup)
      parts = p;
  return parts;
}

/// Writes the softmax, log-softmax or layer norm `op` (of static shape, or
/// a softmax over symbolic rows: softmaxOverSymbolicRows) as reductions
/// over its normalized axes and pointwise ops.
void writeAsReductions(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Value x = op->getOperand(0);
  auto in = cast<RankedTensorType>(x.getType());
  Type et = in.getElementType();
  Type work = et.isF16() || et.isBF16() ? b.getF32Type() : et;
  int64_t rank = in.getRank(), axis = *normalizedAxisOf(op);
  bool isLayerNorm = isa<LayerNormOp>(op);
  SmallVector<int64_t> axes = isLayerNorm
                                  ? llvm::to_vector(llvm::seq(axis, rank))
                                  : SmallVector<int64_t>{axis};
  // Over symbolic extents the types keep them (the normalized axis 1 in
  // the statistics).
  auto full = isSymbolic(in) ? in.clone(work)
                             : RankedTensorType::get(in.getShape(), work);
  RankedTensorType stat;
  if (isSymbolic(in)) {
    SmallVector<AffineExpr> kept = extentsOf(in);
    for (int64_t a : axes)
      kept[a] = getAffineConstantExpr(1, b.getContext());
    stat = tensorTypeOf(b.getContext(), kept, work);
  } else {
    SmallVector<int64_t> kept(in.getShape());
    for (int64_t a : axes)
      kept[a] = 1;
    stat = RankedTensorType::get(kept, work);
  }
  auto reduce = [&](ReduceKind kind, Value v) -> Value {
    return ReduceOp::create(b, loc, stat,
                            ReduceKindAttr::get(b.getContext(), kind), v,
                            b.getDenseI64ArrayAttr(axes), b.getBoolAttr(true));
  };
  auto widen = [&](Value v) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    return t.getElementType() == work
               ? v
               : Value(CastOp::create(b, loc, t.clone(work), v));
  };
  Value xf = widen(x), y;
  if (isLayerNorm) {
    auto ln = cast<LayerNormOp>(op);
    auto scalar = RankedTensorType::get({}, work);
    Value eps = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            scalar, b.getFloatAttr(work, ln.getEpsilon().convertToDouble())));
    Value centred = xf;
    if (!ln.getRms() && !ln.getL2())
      centred = SubOp::create(b, loc, full, xf, reduce(ReduceKind::mean, xf));
    // An L2 normalization: 1 / max(sqrt(sum of squares), epsilon).
    Value var = reduce(ln.getL2() ? ReduceKind::sum : ReduceKind::mean,
                       MulOp::create(b, loc, full, centred, centred));
    Value inv =
        ln.getL2() ? Value(ReciprocalOp::create(
                         b, loc, stat,
                         MaxOp::create(b, loc, stat,
                                       SqrtOp::create(b, loc, stat, var), eps)))
                   : Value(RsqrtOp::create(
                         b, loc, stat, AddOp::create(b, loc, stat, var, eps)));
    y = MulOp::create(b, loc, full, centred, inv);
    y = MulOp::create(b, loc, full, y, widen(ln.getScale()));
    if (Value bias = ln.getBias())
      y = AddOp::create(b, loc, full, y, widen(bias));
  } else {
    Value shifted =
        SubOp::create(b, loc, full, xf, reduce(ReduceKind::max, xf));
    Value e = ExpOp::create(b, loc, full, shifted);
    Value sum = reduce(ReduceKind::sum, e);
    y = isa<SoftmaxOp>(op)
            ? Value(DivOp::create(b, loc, full, e, sum))
            : Value(SubOp::create(b, loc, full, shifted,
                                  LogOp::create(b, loc, stat, sum)));
  }
  if (work != et)
    y = CastOp::create(b, loc, in, y);
  op->getResult(0).replaceAllUsesWith(y);
  op->erase();
}

struct SplitReductionsPass
    : public mlir::brrr::impl::BrrrSplitReductionsBase<SplitReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::ops)))
      return signalPassFailure();
    SmallVector<Operation *> longRows;
    getOperation().walk([&](Operation *op) {
      if (!decomposeRows || !isa<SoftmaxOp, LogSoftmaxOp, LayerNormOp>(op) ||
          op->getParentOfType<FusionOp>())
        return;
      auto in = cast<RankedTensorType>(op->getOperand(0).getType());
      // Over a symbolic axis, at any length: its row kernel would need the
      // length as a parameter.
      if (softmaxOverSymbolicRows(op)) {
        longRows.push_back(op);
        return;
      }
      if (!in.hasStaticShape() || isSymbolic(in))
        return;
      int64_t cols = 1, axis = *normalizedAxisOf(op);
      for (int64_t d = axis;
           d < (isa<LayerNormOp>(op) ? in.getRank() : axis + 1); ++d)
        cols *= in.getDimSize(d);
      if (cols > 0 && !fitsRowKernel(cols, in.getElementType()))
        longRows.push_back(op);
    });
    for (Operation *op : longRows)
      writeAsReductions(op);
    SmallVector<ReduceOp> reductions;
    getOperation().walk([&](ReduceOp r) {
      if (!r->getParentOfType<FusionOp>())
        reductions.push_back(r);
    });
    for (ReduceOp r : reductions)
      split(r);
  }

  void split(ReduceOp r) {
    auto in = cast<RankedTensorType>(r.getInput().getType());
    if (!in.hasStaticShape())
      return;
    ArrayRef<int64_t> axes = r.getAxes();
    int64_t rank = in.getRank();
    // A trailing run of axes: each output's elements are contiguous.
    if (axes.empty() || axes.back() != rank - 1 ||
        axes.front() != rank - static_cast<int64_t>(axes.size()))
      return;
    int64_t first = axes.front();
    ArrayRef<int64_t> outer = in.getShape().take_front(first);
    int64_t outputs = 1, count = 1;
    for (int64_t d : outer)
      outputs *= d;
    for (int64_t d : in.getShape().drop_front(first))
      count *= d;
    int64_t parts = partsOf(count);
    if (outputs > maxOutputs || count < minCount || parts == 0)
      return;

    OpBuilder b(r);
    Location loc = r.getLoc();
    Type et = in.getElementType();
    // 16-bit sums, means and products keep f32 partial results.
    bool widen = (et.isF16() || et.isBF16()) && r.getKind() != ReduceKind::max &&
                 r.getKind() != ReduceKind::min;
    Type work = widen ? b.getF32Type() : et;
    Value x = r.getInput();
    if (widen)
      x = CastOp::create(b, loc, RankedTensorType::get(in.getShape(), work), x);
    SmallVector<int64_t> grouped(outer);
    grouped.append({parts, count / parts});
    x = ReshapeOp::create(b, loc, RankedTensorType::get(grouped, work), x);
    auto noKeep = b.getBoolAttr(false);
    SmallVector<int64_t> partShape(outer);
    partShape.push_back(parts);
    x = ReduceOp::create(b, loc, RankedTensorType::get(partShape, work),
                         r.getKindAttr(), x, b.getDenseI64ArrayAttr({first + 1}),
                         noKeep);
    x = ReduceOp::create(b, loc, RankedTensorType::get(outer, work),
                         r.getKindAttr(), x, b.getDenseI64ArrayAttr({first}),
                         noKeep);
    auto result = cast<RankedTensorType>(r.getType());
    if (widen)
      x = CastOp::create(b, loc, RankedTensorType::get(outer, et), x);
    if (result.getShape() != ArrayRef<int64_t>(outer))
      x = ReshapeOp::create(b, loc, result, x);
    r.replaceAllUsesWith(x);
    r.erase();
  }
};

} // namespace
