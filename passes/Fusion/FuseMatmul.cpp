//===- FuseMatmul.cpp - matmul -> brrr.fusion matmul --------------------===//
//
// Fusion pass for matrix products (flag brrr-fuse-matmul), after
// brrr-fuse-elementwise: every brrr.matmul becomes a `brrr.fusion matmul`
// kernel on Tensor Cores, reading through the views that feed only it
// (transposes, reshapes, slices become operand strides and an offset), and
// a pointwise kernel that
// is the only reader of its result, with outputs of the product's shape,
// becomes its epilogue: bias, activation and residual are applied to the
// accumulators, so the product never goes to memory; a transpose that alone
// reads the result is applied as the kernel stores it. Also home of the
// products' operand layouts (operandLayoutOf, tmaOperandOf); their tiles are
// chosen in passes/Config/ProductTiles.cpp. Attention ops
// (brrr-fuse-attention) become `brrr.fusion attention` kernels the same way.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Products.h"
#include "passes/Passes.h"

#include "passes/Fusion/PairProducts.h"
#include "passes/Fusion/WrapInFusion.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRFUSEMATMUL
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// `v` as its own contiguous (row-major) tensor.
OperandLayout materialized(Value v) {
  // Symbolic extents at their largest. The strides of the dimensions after
  // the outer run hold at every shape; those within it are the largest
  // shape's, which is why a symbolic product folds the run into its rows
  // (productOperandsOf) and reads nothing else through them.
  SmallVector<int64_t> shape = largestShapeOf(v);
  int64_t rank = shape.size();
  OperandLayout l{v, shape, SmallVector<int64_t>(rank, 1), 0, {}};
  for (int64_t d = rank - 2; d >= 0; --d)
    l.strides[d] = l.strides[d + 1] * shape[d + 1];
  return l;
}

/// Strides of `newShape` viewing elements laid out as (oldShape,
/// oldStrides), or none when a copy would be needed (the rule of torch's
/// Tensor.view: each run of old dimensions that is contiguous in memory
/// may be split and merged freely).
std::optional<SmallVector<int64_t>> viewStrides(ArrayRef<int64_t> oldShape,
                                                ArrayRef<int64_t> oldStrides,
                                                ArrayRef<int64_t> newShape) {
  SmallVector<int64_t> strides(newShape.size(), 1);
  if (oldShape.empty())
    return strides;
  int64_t viewD = static_cast<int64_t>(newShape.size()) - 1;
  int64_t chunkStride = oldStrides.back(), tensorNumel = 1, viewNumel = 1;
  for (int64_t d = static_cast<int64_t>(oldShape.size()) - 1; d >= 0; --d) {
    tensorNumel *= oldShape[d];
    if (d == 0 || (oldShape[d - 1] != 1 &&
                   oldStrides[d - 1] != tensorNumel * chunkStride)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
        strides[viewD] = viewNumel * chunkStride;
        viewNumel *= newShape[viewD];
        --viewD;
      }
      if (viewNumel != tensorNumel)
        return std::nullopt;
      if (d > 0) {
        chunkStride = oldStrides[d - 1];
        tensorNumel = viewNumel = 1;
      }
    }
  }
  if (viewD != -1)
    return std::nullopt;
  return strides;
}

/// Whether a product of `et` operands laid out as `lhs` and `rhs` over
/// `batch` runs a tiled Tensor Core body on `target`: staged by cp.async,
/// or, on a target with the wgmma body, read by TMA.
bool isTiled(TargetAttr target, Type et, const OperandLayout &lhs,
             const OperandLayout &rhs, ArrayRef<int64_t> batch) {
  if (isStageable(et, lhs, rhs))
    return true;
  return target.hasWgmma() && isWgmmaOperandType(et) &&
         tmaOperandOf(lhs, batch, /*isLhs=*/true) &&
         tmaOperandOf(rhs, batch, /*isLhs=*/false);
}

/// Whether each of `l`'s views keeps its symbolic extents in its outer run
/// (compilesSymbolically), so that the largest shape's strides hold at
/// every shape; a view that moves them (attention's head transposes over a
/// symbolic sequence) is read only by the attention kernel, which computes
/// its strides from the actual extents.
bool keepsOuterRuns(const OperandLayout &l) {
  return llvm::all_of(l.views, [](Operation *view) {
    return !isSymbolic(view->getResult(0).getType()) ||
           (compilesSymbolically(view) && !transposesAtActualExtents(view));
  });
}

/// The layouts `mm`'s kernel reads its operands through: each operand's
/// chain of views (transposes, reshapes, slices) that only the product
/// reads joins the kernel, unless that would cost the product its tiled
/// body on `target`. Each saves writing and re-reading a copy, and a
/// launch.
std::pair<OperandLayout, OperandLayout> operandsToRead(MatmulOp mm,
                                                       TargetAttr target) {
  Type et = mm.getLhs().getType().getElementType();
  OperandLayout lhs = materialized(mm.getLhs()),
                rhs = materialized(mm.getRhs());
  if (mm.getLhs() == mm.getRhs())
    return {lhs, rhs};
  SmallVector<int64_t> outShape = largestShapeOf(mm.getResult());
  ArrayRef<int64_t> batch = ArrayRef<int64_t>(outShape).drop_back(2);
  bool tiledAsIs = isTiled(target, et, lhs, rhs, batch);
  OperandLayout viewedLhs = operandLayoutOf(mm.getLhs());
  if (keepsOuterRuns(viewedLhs) &&
      (isTiled(target, et, viewedLhs, rhs, batch) || !tiledAsIs))
    lhs = viewedLhs;
  OperandLayout viewedRhs = operandLayoutOf(mm.getRhs());
  if (keepsOuterRuns(viewedRhs) &&
      (isTiled(target, et, lhs, viewedRhs, batch) || !tiledAsIs))
    rhs = viewedRhs;
  return {lhs, rhs};
}

/// Wraps `product` and the views its operands are read through (one layout
/// per operand, in order) in one `kind` kernel.
void wrapProduct(Operation *product, ArrayRef<OperandLayout> layouts,
                 KernelFamily kind) {
  llvm::SetVector<Value> inputs;
  for (const OperandLayout &l : layouts)
    inputs.insert(l.source);
  OpBuilder b(product);
  auto fusion =
      FusionOp::create(b, product->getLoc(), kind, inputs.getArrayRef(),
                       product->getResultTypes());
  Block &body = fusion.getBody().front();
  IRMapping map;
  for (auto [in, arg] : llvm::zip(inputs, body.getArguments()))
    map.map(in, arg);
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  // Operands may share views (slices of one stacked tensor): each view is
  // cloned once, and left outside too while something else reads it.
  llvm::SetVector<Operation *> views;
  for (const OperandLayout &l : layouts)
    views.insert(l.views.begin(), l.views.end());
  for (Operation *view : views)
    inner.clone(*view, map);
  Operation *clone = inner.clone(*product, map);
  YieldOp::create(inner, product->getLoc(), clone->getResults());
  product->replaceAllUsesWith(fusion.getResults());
  product->erase();
  for (Operation *view : llvm::reverse(views))
    if (view->use_empty())
      view->erase();
}

/// Wraps `mm` and the views it reads through in one matmul kernel.
void wrapMatmul(MatmulOp mm, TargetAttr target) {
  auto [lhs, rhs] = operandsToRead(mm, target);
  wrapProduct(mm, {lhs, rhs}, KernelFamily::matmul);
}

/// Wraps `att` in one attention kernel, reading queries, keys and values
/// through their views (attention's head split and transposes) where the
/// rows stay whole, aligned 16-byte chunks that the kernel stages; the bias
/// is read as it is.
void wrapAttention(AttentionOp att) {
  SmallVector<OperandLayout> layouts;
  Type et = att.getQuery().getType().getElementType();
  // Over symbolic sequences the rows must stay aligned at every shape.
  bool symbolic = outerRunOf(att.getType()) > 1;
  auto stageable = [&](const OperandLayout &l) {
    if (!symbolic)
      return isAttentionStageable(et, l);
    std::optional<SymbolicLayout> s = symbolicLayoutOf(l);
    return s && isAttentionStageable(et, *s);
  };
  for (Value v : {att.getQuery(), att.getKey(), att.getValue()}) {
    OperandLayout viewed = operandLayoutOf(v);
    layouts.push_back(stageable(viewed) ? viewed : materialized(v));
  }
  if (Value bias = att.getBias())
    layouts.push_back(materialized(bias));
  wrapProduct(att, layouts, KernelFamily::attention);
}

/// Writes the matmul or attention kernel `f`'s only result through the
/// transpose that is its only reader (attention merging its heads back):
/// each element is stored at its permuted position, so the transposed copy
/// is never made.
void storeThroughTranspose(FusionOp f) {
  if (f.getNumResults() != 1 || !f.getResult(0).hasOneUse())
    return;
  auto t = dyn_cast<TransposeOp>(*f.getResult(0).getUsers().begin());
  // Over symbolic extents a product stores through a transpose that keeps
  // them in place; attention through any.
  if (!t ||
      (f.getKind() != KernelFamily::attention && isSymbolic(t.getType()) &&
       (!compilesSymbolically(t) || transposesAtActualExtents(t))))
    return;
  OpBuilder b(t);
  auto fused = FusionOp::create(b, f.getLoc(), f.getKind(), f.getInputs(),
                                t->getResultTypes());
  fused->setAttrs(f->getAttrs());
  Block &body = fused.getBody().front();
  IRMapping map;
  Block &old = f.getBody().front();
  map.map(old.getArguments(), body.getArguments());
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  for (Operation &op : old.without_terminator())
    inner.clone(op, map);
  Value result = map.lookup(cast<YieldOp>(old.getTerminator()).getValues()[0]);
  Value permuted = TransposeOp::create(inner, t.getLoc(), t.getType(), result,
                                       t.getPermAttr());
  YieldOp::create(inner, f.getLoc(), permuted);
  t->replaceAllUsesWith(fused.getResults());
  t->erase();
  f->erase();
}

struct FuseMatmulPass
    : public mlir::brrr::impl::BrrrFuseMatmulBase<FuseMatmulPass> {
  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::views)))
      return signalPassFailure();
    SmallVector<MatmulOp> matmuls;
    getOperation().walk([&](MatmulOp mm) {
      if (!mm->getParentOfType<FusionOp>())
        matmuls.push_back(mm);
    });
    TargetAttr target = targetOf(getOperation());
    for (MatmulOp mm : matmuls)
      wrapMatmul(mm, target);
    pairGatedProducts(getOperation(), target);
    SmallVector<AttentionOp> attentions;
    getOperation().walk([&](AttentionOp att) {
      if (!att->getParentOfType<FusionOp>())
        attentions.push_back(att);
    });
    for (AttentionOp att : attentions)
      wrapAttention(att);
    mergeEpilogues(getOperation(), KernelFamily::matmul);
    mergeEpilogues(getOperation(), KernelFamily::attention);
    SmallVector<FusionOp> kernels;
    getOperation().walk([&](FusionOp f) {
      if (f.getKind() == KernelFamily::matmul ||
          f.getKind() == KernelFamily::attention)
        kernels.push_back(f);
    });
    for (FusionOp f : kernels)
      storeThroughTranspose(f);
  }
};

} // namespace

std::optional<TmaOperand> mlir::brrr::tmaOperandOf(const OperandLayout &l,
                                                   ArrayRef<int64_t> batch,
                                                   bool isLhs) {
  int64_t rank = l.shape.size();
  // 16 bytes of elements (8 of 16 bits, 16 of 8): TMA's alignment of
  // addresses and strides.
  int64_t per16 =
      16 / elementBytes(cast<ShapedType>(l.source.getType()).getElementType());
  if (rank < 2 || per16 < 1 || l.offset % per16 != 0)
    return std::nullopt;
  auto aligned = [&](int64_t size, int64_t stride) {
    return size == 1 || (stride > 0 && stride % per16 == 0);
  };
  TmaOperand t;
  int64_t rowStride = l.strides[rank - 2], colStride = l.strides[rank - 1];
  if (colStride == 1 && aligned(l.shape[rank - 2], rowStride))
    t.kContiguous = isLhs; // A's columns are K, B's are N.
  else if (!isLhs && rowStride == 1 && aligned(l.shape[rank - 1], colStride))
    t.kContiguous = true;
  else
    return std::nullopt;
  // The 8-bit wgmma reads B only K-major.
  if (per16 == 16 && !t.kContiguous)
    return std::nullopt;
  // Batch dimensions (right-aligned to the product's) must advance by one
  // stride per flattened batch index, or not at all.
  SmallVector<int64_t> batchStrides(batch.size(), 1);
  for (int64_t d = static_cast<int64_t>(batch.size()) - 2; d >= 0; --d)
    batchStrides[d] = batchStrides[d + 1] * batch[d + 1];
  std::optional<int64_t> per;
  int64_t skip = batch.size() - (rank - 2);
  for (int64_t d = 0; d < static_cast<int64_t>(batch.size()); ++d) {
    if (batch[d] == 1)
      continue;
    int64_t od = d - skip;
    int64_t stride = od >= 0 && l.shape[od] != 1 ? l.strides[od] : 0;
    if (stride % batchStrides[d] != 0)
      return std::nullopt;
    int64_t unit = stride / batchStrides[d];
    if (per && *per != unit)
      return std::nullopt;
    per = unit;
  }
  t.batchStride = per.value_or(0);
  if (t.batchStride < 0 || t.batchStride % per16 != 0)
    return std::nullopt;
  return t;
}

ProductShape mlir::brrr::productShapeOf(MatmulOp mm) {
  return productOperandsOf(mm).shape;
}

/// Rows a product with folded batch dimensions may have: 65535 row tiles of
/// 16, the untiled body's grid limit.
constexpr int64_t kMaxFoldedRows = 65535 * 16;

ProductOperands mlir::brrr::productOperandsOf(MatmulOp mm) {
  SmallVector<int64_t> lt = largestShapeOf(mm.getLhs());
  SmallVector<int64_t> ot = largestShapeOf(mm.getResult());
  int64_t rank = ot.size();
  ProductOperands po;
  ProductShape &p = po.shape;
  p.M = ot[rank - 2];
  p.N = ot[rank - 1];
  p.K = lt.back();
  p.pairedHalves = pairedHalvesOf(mm).has_value();
  p.batch.assign(ot.begin(), ot.end() - 2);
  for (int64_t d : p.batch)
    p.batches *= d;
  // Symbolic rows: the product of the result's extents but the last, once
  // its batch dimensions fold into M. Symbolic batches: the product of the
  // batch dimensions' extents, where the symbolic ones all lie there
  // (compilesSymbolically admits no other symbolic product).
  auto resultType = cast<RankedTensorType>(mm.getType());
  auto rowsOf = [&](ProductShape &shape) {
    if (!isSymbolic(resultType))
      return;
    SmallVector<AffineExpr> extents = extentsOf(resultType);
    AffineExpr count = getAffineConstantExpr(1, mm.getContext());
    if (shape.batches == 1) {
      for (AffineExpr e : ArrayRef(extents).drop_back())
        count = count * e;
      shape.rowsExtent = count;
    } else if (outerRunOf(resultType) + 2 <= extents.size()) {
      for (AffineExpr e : ArrayRef(extents).drop_back(2))
        count = count * e;
      shape.batchesExtent = count;
    }
  };
  po.lhs = operandLayoutOf(mm.getLhs());
  po.rhs = operandLayoutOf(mm.getRhs());
  OperandLayout &a = po.lhs, &b = po.rhs;
  int64_t ar = a.shape.size(), br = b.shape.size();
  if (p.batches == 1 || p.batches * p.M > kMaxFoldedRows ||
      !llvm::all_of(ArrayRef<int64_t>(b.shape).drop_back(2),
                    [](int64_t d) { return d == 1; })) {
    rowsOf(p);
    return po;
  }
  // A's rows (its batch dimensions and M, size-1 ones aside) must be one
  // stride apart throughout.
  std::optional<int64_t> rowStride;
  int64_t expect = 0;
  for (int64_t d = ar - 2; d >= 0; --d) {
    if (a.shape[d] == 1)
      continue;
    if (rowStride && a.strides[d] != expect) {
      rowsOf(p);
      return po;
    }
    if (!rowStride)
      rowStride = a.strides[d];
    expect = a.strides[d] * a.shape[d];
  }
  a.shape = {p.batches * p.M, p.K};
  a.strides = {*rowStride, a.strides[ar - 1]};
  b.shape = {b.shape[br - 2], b.shape[br - 1]};
  b.strides = {b.strides[br - 2], b.strides[br - 1]};
  p.M *= p.batches;
  p.batch.clear();
  p.batches = 1;
  rowsOf(p);
  return po;
}

MatmulOp mlir::brrr::matmulOf(FusionOp fusion) {
  auto ops = fusion.getBody().front().getOps<MatmulOp>();
  return ops.empty() ? MatmulOp() : *ops.begin();
}

std::optional<PairedHalves> mlir::brrr::halvesAt(Value wide, Operation *first) {
  auto type = dyn_cast<RankedTensorType>(wide.getType());
  if (!type || type.getRank() < 2 ||
      ShapedType::isDynamic(type.getShape().back()) ||
      type.getShape().back() % 2 != 0)
    return std::nullopt;
  int64_t rank = type.getRank(), columns = type.getShape().back() / 2;
  SmallVector<AffineExpr> extents = extentsOf(type);
  auto low = dyn_cast_or_null<SliceOp>(first);
  auto high = low ? dyn_cast_or_null<SliceOp>(low->getNextNode()) : SliceOp();
  if (!low || !high || low.getInput() != wide || high.getInput() != wide ||
      !llvm::all_of(wide.getUsers(),
                    [&](Operation *u) { return u == low || u == high; }))
    return std::nullopt;
  // Over symbolic rows, each slice keeps the product's extents but the
  // last.
  for (auto [slice, start] : {std::pair(low, int64_t(0)), {high, columns}}) {
    SmallVector<AffineExpr> sliced = extentsOf(slice.getType());
    if (!llvm::equal(ArrayRef(sliced).drop_back(),
                     ArrayRef(extents).drop_back()))
      return std::nullopt;
    // (The extents above hold the other dimensions' sizes, which a
    // symbolic slice spells as -1 even where a kernel's view of the
    // largest shape made its types static.)
    for (int64_t d = 0; d < rank; ++d) {
      bool last = d == rank - 1;
      if (slice.getSteps()[d] != 1 ||
          slice.getStarts()[d] != (last ? start : 0) ||
          (last && slice.getSizes()[d] != columns))
        return std::nullopt;
    }
  }
  return PairedHalves{low, high, columns};
}

std::optional<PairedHalves> mlir::brrr::pairedHalvesOf(MatmulOp mm) {
  if (!mm->getParentOfType<FusionOp>())
    return std::nullopt;
  return halvesAt(mm.getResult(), mm->getNextNode());
}

OperandLayout mlir::brrr::operandLayoutOf(Value operand) {
  OperandLayout plain = materialized(operand);
  Operation *view = operand.getDefiningOp();
  // A slice whose strides change with the shape (movesAtActualExtents) is
  // a kernel of its own.
  if (!view || !isa<TransposeOp, ReshapeOp, SliceOp>(view) ||
      movesAtActualExtents(view))
    return plain;
  // A view read by this operand alone, or one that other views read too
  // (the stacked query, key and value of a projection, split by slices):
  // each reader that reads through it needs no copy of it.
  if (!view->getResult(0).hasOneUse() &&
      !llvm::all_of(view->getResult(0).getUsers(), [](Operation *u) {
        return isa<TransposeOp, ReshapeOp, SliceOp>(u);
      }))
    return plain;
  OperandLayout in = operandLayoutOf(view->getOperand(0));
  OperandLayout out = in;
  out.shape = largestShapeOf(operand);
  if (auto t = dyn_cast<TransposeOp>(view)) {
    for (auto [d, p] : llvm::enumerate(t.getPerm()))
      out.strides[d] = in.strides[p];
  } else if (isa<ReshapeOp>(view)) {
    auto strides = viewStrides(in.shape, in.strides, out.shape);
    if (!strides)
      return plain;
    out.strides = *strides;
  } else {
    auto s = cast<SliceOp>(view);
    for (auto [d, start, step] : llvm::enumerate(s.getStarts(), s.getSteps())) {
      if (step <= 0)
        return plain;
      out.offset += start * in.strides[d];
      out.strides[d] = in.strides[d] * step;
    }
  }
  out.views.push_back(view);
  return out;
}

namespace {

/// a * b, or none on overflow.
std::optional<ExtentProduct> times(const ExtentProduct &a,
                                   const ExtentProduct &b, MLIRContext *ctx) {
  return productOf(ArrayRef<AffineExpr>{extentOf(a, ctx), extentOf(b, ctx)});
}

/// Whether b is a multiple of a (a product of its symbols times an integer).
bool divides(const ExtentProduct &a, const ExtentProduct &b) {
  if (a.coefficient == 0 || b.coefficient % a.coefficient != 0)
    return false;
  SmallVector<unsigned> rest(b.symbols);
  for (unsigned s : a.symbols) {
    auto it = llvm::find(rest, s);
    if (it == rest.end())
      return false;
    rest.erase(it);
  }
  return true;
}

/// viewStrides over extents that are products of symbols: the same rule,
/// with "fewer elements" read as "a proper divisor" (each product of
/// positive extents only grows as dimensions join it).
std::optional<SmallVector<ExtentProduct>>
symbolicViewStrides(ArrayRef<ExtentProduct> oldShape,
                    ArrayRef<ExtentProduct> oldStrides,
                    ArrayRef<ExtentProduct> newShape, MLIRContext *ctx) {
  ExtentProduct one{1, {}};
  SmallVector<ExtentProduct> strides(newShape.size(), one);
  if (oldShape.empty())
    return strides;
  auto isOne = [&](const ExtentProduct &p) { return p == one; };
  int64_t viewD = static_cast<int64_t>(newShape.size()) - 1;
  ExtentProduct chunkStride = oldStrides.back(), tensorNumel = one,
                viewNumel = one;
  for (int64_t d = static_cast<int64_t>(oldShape.size()) - 1; d >= 0; --d) {
    auto t = times(tensorNumel, oldShape[d], ctx);
    if (!t)
      return std::nullopt;
    tensorNumel = *t;
    std::optional<ExtentProduct> contiguous =
        times(tensorNumel, chunkStride, ctx);
    if (!contiguous)
      return std::nullopt;
    if (d == 0 ||
        (!isOne(oldShape[d - 1]) && oldStrides[d - 1] != *contiguous)) {
      while (viewD >= 0 &&
             (viewNumel != tensorNumel || isOne(newShape[viewD]))) {
        if (!divides(viewNumel, tensorNumel))
          return std::nullopt;
        auto stride = times(viewNumel, chunkStride, ctx);
        auto numel = times(viewNumel, newShape[viewD], ctx);
        if (!stride || !numel)
          return std::nullopt;
        strides[viewD] = *stride;
        viewNumel = *numel;
        --viewD;
      }
      if (viewNumel != tensorNumel)
        return std::nullopt;
      if (d > 0) {
        chunkStride = oldStrides[d - 1];
        tensorNumel = viewNumel = one;
      }
    }
  }
  if (viewD != -1)
    return std::nullopt;
  return strides;
}

std::optional<SmallVector<ExtentProduct>> productsOf(Value v) {
  SmallVector<ExtentProduct> shape;
  for (AffineExpr e : extentsOf(cast<RankedTensorType>(v.getType()))) {
    std::optional<ExtentProduct> p = productOf(e);
    if (!p || p->coefficient <= 0)
      return std::nullopt;
    shape.push_back(*p);
  }
  return shape;
}

} // namespace

std::optional<SmallVector<ExtentProduct>>
mlir::brrr::rowMajorProducts(ArrayRef<AffineExpr> extents) {
  SmallVector<ExtentProduct> strides(extents.size(), ExtentProduct{1, {}});
  for (int64_t d = int64_t(extents.size()) - 2; d >= 0; --d) {
    std::optional<ExtentProduct> s = productOf(ArrayRef<AffineExpr>{
        extentOf(strides[d + 1], extents[d].getContext()), extents[d + 1]});
    if (!s)
      return std::nullopt;
    strides[d] = *s;
  }
  return strides;
}

std::optional<SymbolicLayout>
mlir::brrr::symbolicLayoutOf(const OperandLayout &l) {
  MLIRContext *ctx = l.source.getContext();
  std::optional<SmallVector<ExtentProduct>> shape = productsOf(l.source);
  std::optional<SmallVector<ExtentProduct>> strides =
      rowMajorProducts(extentsOf(cast<RankedTensorType>(l.source.getType())));
  if (!shape || !strides)
    return std::nullopt;
  SymbolicLayout out;
  out.shape = *shape;
  out.strides = *strides;
  out.offset = ExtentProduct{0, {}};
  for (Operation *view : l.views) {
    std::optional<SmallVector<ExtentProduct>> viewShape =
        productsOf(view->getResult(0));
    if (!viewShape)
      return std::nullopt;
    if (auto t = dyn_cast<TransposeOp>(view)) {
      SmallVector<ExtentProduct> strides;
      for (int64_t p : t.getPerm())
        strides.push_back(out.strides[p]);
      out.strides = strides;
    } else if (isa<ReshapeOp>(view)) {
      auto strides =
          symbolicViewStrides(out.shape, out.strides, *viewShape, ctx);
      if (!strides)
        return std::nullopt;
      out.strides = *strides;
    } else {
      auto s = cast<SliceOp>(view);
      for (auto [d, start, step] :
           llvm::enumerate(s.getStarts(), s.getSteps())) {
        auto at = times(ExtentProduct{start, {}}, out.strides[d], ctx);
        auto stride = times(ExtentProduct{step, {}}, out.strides[d], ctx);
        if (step <= 0 || !at || !stride)
          return std::nullopt;
        // Offsets add: one symbolic term at most.
        if (at->coefficient != 0) {
          if (out.offset.coefficient != 0 && out.offset.symbols != at->symbols)
            return std::nullopt;
          if (llvm::AddOverflow(out.offset.coefficient, at->coefficient,
                                out.offset.coefficient))
            return std::nullopt;
          out.offset.symbols = at->symbols;
        }
        out.strides[d] = *stride;
      }
    }
    out.shape = *viewShape;
  }
  return out;
}

namespace {

/// Whether `l` is a whole number of `chunk`-element (16-byte) chunks along
/// its contiguous innermost dimension, each aligned, at every value of the
/// symbols: each stride's and the offset's coefficient a multiple of
/// `chunk`.
bool inChunks(int64_t chunk, const SymbolicLayout &l) {
  ExtentProduct one{1, {}};
  if (l.strides.back() != one || !l.shape.back().symbols.empty() ||
      l.shape.back().coefficient % chunk != 0 ||
      l.offset.coefficient % chunk != 0)
    return false;
  for (auto [size, stride] : llvm::zip(ArrayRef(l.shape).drop_back(),
                                       ArrayRef(l.strides).drop_back()))
    if (size != one && stride.coefficient % chunk != 0)
      return false;
  return true;
}

/// The same for a static layout.
bool inChunks(int64_t chunk, const OperandLayout &l) {
  if (l.strides.back() != 1 || l.shape.back() % chunk != 0 ||
      l.offset % chunk != 0)
    return false;
  for (auto [size, stride] : llvm::zip(ArrayRef(l.shape).drop_back(),
                                       ArrayRef(l.strides).drop_back()))
    if (size != 1 && stride % chunk != 0)
      return false;
  return true;
}

} // namespace

bool mlir::brrr::isStageable(Type et, const SymbolicLayout &l) {
  return (et.isF16() || et.isBF16()) && inChunks(8, l);
}

bool mlir::brrr::isStageable(Type et, const OperandLayout &lhs,
                             const OperandLayout &rhs) {
  // 16-byte chunks along the innermost dimension (K of A, N of B): it is
  // contiguous, a whole number of chunks long, and every chunk starts 16
  // bytes aligned.
  return (et.isF16() || et.isBF16()) && inChunks(8, lhs) && inChunks(8, rhs);
}

bool mlir::brrr::isAttentionStageable(Type et, const OperandLayout &l) {
  return (et.isF16() || et.isBF16() || et.isF32()) &&
         inChunks(128 / et.getIntOrFloatBitWidth(), l);
}

bool mlir::brrr::isAttentionStageable(Type et, const SymbolicLayout &l) {
  return (et.isF16() || et.isBF16() || et.isF32()) &&
         inChunks(128 / et.getIntOrFloatBitWidth(), l);
}
