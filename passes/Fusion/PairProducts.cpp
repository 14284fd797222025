//===- PairProducts.cpp - gated pairs of products as one ------------------===//
//
// See PairProducts.h. A Llama-style MLP computes silu(x W_gate) * (x W_up):
// without pairing, the gate product is stored, and the up product's
// epilogue reads it back. Paired, one product of x by [W_gate | W_up]
// computes both halves of each tile, and its epilogue combines element c
// of the first half with element c of the second, storing only the gated
// result.
//
//===----------------------------------------------------------------------===//

#include "passes/Fusion/PairProducts.h"
#include "passes/Config/Products.h"
#include "passes/Fusion/MergedWeights.h"
#include "passes/Fusion/WrapInFusion.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// One product of a pair: its matmul, and its weight as the kernel reads it
/// (a constant [K, N], or for a product that may take a few-rows body,
/// brrr-align-products' K-major constant [N, K] read through a transpose).
struct Lone {
  mutable MatmulOp mm;
  Value weight;
  bool kMajor = false;
};

/// `v`'s kernel where that kernel is a lone product of two of its inputs
/// (no epilogue, no view but a K-major weight's transpose) whose only
/// result `v` is read once, by `reader`, its weight a 2-D 16-bit
/// constant, its rows static or symbolic.
std::optional<Lone> loneProductOf(Value v, FusionOp reader) {
  auto f = v.getDefiningOp<FusionOp>();
  if (!f || f.getKind() != KernelFamily::matmul || f->getNumResults() != 1 ||
      !v.hasOneUse() || *v.getUsers().begin() != reader.getOperation())
    return std::nullopt;
  Block &body = f.getBody().front();
  Operation *first = &body.front();
  auto t = dyn_cast<TransposeOp>(first);
  auto mm = dyn_cast<MatmulOp>(t ? first->getNextNode() : first);
  if (!mm || mm->getNextNode() != body.getTerminator() ||
      body.getTerminator()->getOperand(0) != mm.getResult() ||
      (t && (mm.getRhs() != t.getResult() || !t->hasOneUse() ||
             t.getPerm() != ArrayRef<int64_t>{1, 0})))
    return std::nullopt;
  auto lhs = dyn_cast<BlockArgument>(mm.getLhs());
  auto rhs = dyn_cast<BlockArgument>(t ? t.getInput() : mm.getRhs());
  if (!lhs || !rhs || lhs == rhs)
    return std::nullopt;
  auto w = dyn_cast<RankedTensorType>(rhs.getType());
  Type et = w ? w.getElementType() : Type();
  Value weight = f.getInputs()[rhs.getArgNumber()];
  if (!w || w.getRank() != 2 || !w.hasStaticShape() ||
      !(et.isF16() || et.isBF16()) ||
      mm.getLhs().getType().getElementType() != et ||
      !isStaticOrSymbolic(mm.getType()) || !matchPattern(weight, m_Constant()))
    return std::nullopt;
  return Lone{mm, weight, bool(t)};
}

/// The kernel input `mm` (a lone product's matmul) reads as `arg`.
Value inputOf(MatmulOp mm, Value arg) {
  auto f = mm->getParentOfType<FusionOp>();
  return f.getInputs()[cast<BlockArgument>(arg).getArgNumber()];
}

/// Whether the paired product of `p`'s shape with twice its columns runs a
/// body that pairs halves on `target` (the wgmma body, or the few-rows
/// bodies, which read K-major weights): K and N whole 16-byte chunks, and
/// more rows than the few-rows bodies take unless its weights are K-major
/// (static rows up to kFewRowsMmaMaxRows, symbolic ones, which take them
/// for their smallest ranges).
bool pairs(const Lone &p, TargetAttr target) {
  if (!target || !target.hasWgmma())
    return false;
  auto type = p.mm.getType();
  int64_t n = type.getShape().back();
  int64_t k = p.mm.getLhs().getType().getShape().back();
  if (n % 8 || k % 8)
    return false;
  if (p.kMajor)
    return true;
  return type.hasStaticShape() &&
         type.getNumElements() / n > kFewRowsMmaMaxRows;
}

/// Replaces `reader` and the lone products `a` and `b` it combines by one
/// matmul kernel whose epilogue pairs the halves of x [W_a | W_b].
void pair(FusionOp reader, const Lone &a, const Lone &b) {
  auto fa = a.mm->getParentOfType<FusionOp>();
  auto fb = b.mm->getParentOfType<FusionOp>();
  Value x = inputOf(a.mm, a.mm.getLhs());
  Location loc = reader.getLoc();
  OpBuilder builder(reader);
  // K-major weights stack their rows (one per column of the product).
  Value w =
      a.kMajor
          ? concatRows(builder, loc, {a.weight, b.weight}, "paired_weight")
          : concatColumns(builder, loc, {a.weight, b.weight}, "paired_weight");
  if (!w)
    return;
  RankedTensorType half = a.mm.getType();
  SmallVector<int64_t> shape(half.getShape());
  int64_t columns = shape.back(), rank = shape.size();
  shape.back() = 2 * columns;
  auto wide = shapedLike(half, shape, half.getElementType());
  llvm::SetVector<Value> inputs;
  inputs.insert(x);
  inputs.insert(w);
  Value ra = fa.getResult(0), rb = fb.getResult(0);
  for (Value in : reader.getInputs())
    if (in != ra && in != rb)
      inputs.insert(in);
  auto fused = FusionOp::create(builder, loc, KernelFamily::matmul,
                                inputs.getArrayRef(), reader->getResultTypes());
  Block &body = fused.getBody().front();
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  Value weight = body.getArgument(1);
  if (a.kMajor) {
    auto wt = cast<RankedTensorType>(weight.getType());
    weight = TransposeOp::create(
        inner, loc,
        RankedTensorType::get({wt.getDimSize(1), wt.getDimSize(0)},
                              wt.getElementType()),
        weight, inner.getDenseI64ArrayAttr({1, 0}));
  }
  Value product =
      MatmulOp::create(inner, a.mm.getLoc(), wide, body.getArgument(0), weight);
  SmallVector<int64_t> starts(rank, 0), sizes(half.getShape()), steps(rank, 1);
  ExtentsAttr extents = isSymbolic(half)
                            ? extentsAttrOf(half.getContext(), extentsOf(half))
                            : ExtentsAttr();
  Value low =
      SliceOp::create(inner, loc, half, product, starts, sizes, steps, extents);
  starts.back() = columns;
  Value high =
      SliceOp::create(inner, loc, half, product, starts, sizes, steps, extents);
  IRMapping map;
  Block &old = reader.getBody().front();
  for (auto [in, arg] : llvm::zip(reader.getInputs(), old.getArguments())) {
    if (in == ra)
      map.map(arg, low);
    else if (in == rb)
      map.map(arg, high);
    else
      map.map(arg, body.getArgument(llvm::find(inputs, in) - inputs.begin()));
  }
  for (Operation &op : old)
    inner.clone(op, map);
  reader->replaceAllUsesWith(fused.getResults());
  reader->erase();
  fa->erase();
  fb->erase();
  for (Value weight : {a.weight, b.weight})
    if (Operation *def = weight.getDefiningOp(); def && def->use_empty())
      def->erase();
}

} // namespace

void mlir::brrr::pairGatedProducts(Operation *root, TargetAttr target) {
  SmallVector<FusionOp> readers;
  root->walk([&](FusionOp f) {
    if (f.getKind() == KernelFamily::pointwise && isElementwiseOnly(f))
      readers.push_back(f);
  });
  for (FusionOp reader : readers) {
    SmallVector<Lone> products;
    for (Value in : reader.getInputs())
      if (std::optional<Lone> p = loneProductOf(in, reader))
        products.push_back(*p);
    // The first two products of one activation, one shape and one weight
    // layout, whose shape is every result's.
    for (auto [i, a] : llvm::enumerate(products)) {
      const Lone *match = llvm::find_if(
          ArrayRef(products).drop_front(i + 1), [&](const Lone &b) {
            return inputOf(b.mm, b.mm.getLhs()) ==
                       inputOf(a.mm, a.mm.getLhs()) &&
                   b.mm.getType() == a.mm.getType() &&
                   b.weight.getType() == a.weight.getType() &&
                   b.kMajor == a.kMajor;
          });
      if (match == products.end() || !pairs(a, target) ||
          !llvm::all_of(reader->getResultTypes(), [&](Type t) {
            return cast<ShapedType>(t).getShape() == a.mm.getType().getShape();
          }))
        continue;
      pair(reader, a, *match);
      break;
    }
  }
}
