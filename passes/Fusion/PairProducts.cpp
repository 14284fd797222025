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

/// The matmul of `v`'s kernel where that kernel is a lone product of two
/// of its inputs (no views, no epilogue) whose only result `v` is read
/// once, by `reader`, its weight a 2-D 16-bit constant.
MatmulOp loneProductOf(Value v, FusionOp reader) {
  auto f = v.getDefiningOp<FusionOp>();
  if (!f || f.getKind() != KernelFamily::matmul || f->getNumResults() != 1 ||
      !v.hasOneUse() || *v.getUsers().begin() != reader.getOperation())
    return MatmulOp();
  Block &body = f.getBody().front();
  auto mm = dyn_cast<MatmulOp>(&body.front());
  if (!mm || mm->getNextNode() != body.getTerminator() ||
      body.getTerminator()->getOperand(0) != mm.getResult())
    return MatmulOp();
  auto lhs = dyn_cast<BlockArgument>(mm.getLhs());
  auto rhs = dyn_cast<BlockArgument>(mm.getRhs());
  if (!lhs || !rhs || lhs == rhs)
    return MatmulOp();
  auto w = dyn_cast<RankedTensorType>(rhs.getType());
  Type et = w ? w.getElementType() : Type();
  if (!w || w.getRank() != 2 || !(et.isF16() || et.isBF16()) ||
      mm.getLhs().getType().getElementType() != et ||
      !mm.getType().hasStaticShape() ||
      !mm.getLhs().getType().hasStaticShape() ||
      !matchPattern(f.getInputs()[rhs.getArgNumber()], m_Constant()))
    return MatmulOp();
  return mm;
}

/// The kernel input `mm` (a lone product's matmul) reads as `arg`.
Value inputOf(MatmulOp mm, Value arg) {
  auto f = mm->getParentOfType<FusionOp>();
  return f.getInputs()[cast<BlockArgument>(arg).getArgNumber()];
}

/// Whether the product of `mm`'s shape with twice its columns runs the
/// wgmma body on `target`: more rows than the few-rows bodies take, K and
/// N whole 16-byte chunks (TMA's strides).
bool pairsOnWgmma(MatmulOp mm, TargetAttr target) {
  if (!target || !target.hasWgmma())
    return false;
  ArrayRef<int64_t> shape = mm.getType().getShape();
  int64_t n = shape.back(), k = mm.getLhs().getType().getShape().back();
  int64_t rows = mm.getType().getNumElements() / n;
  return rows > kFewRowsMmaMaxRows && n % 8 == 0 && k % 8 == 0;
}

/// Replaces `reader` and the lone products `a` and `b` it combines by one
/// matmul kernel whose epilogue pairs the halves of x [W_a | W_b].
void pair(FusionOp reader, MatmulOp a, MatmulOp b) {
  auto fa = a->getParentOfType<FusionOp>(), fb = b->getParentOfType<FusionOp>();
  Value x = inputOf(a, a.getLhs());
  Value wa = inputOf(a, a.getRhs()), wb = inputOf(b, b.getRhs());
  Location loc = reader.getLoc();
  OpBuilder builder(reader);
  Value w = concatColumns(builder, loc, {wa, wb}, "paired_weight");
  if (!w)
    return;
  RankedTensorType half = a.getType();
  SmallVector<int64_t> shape(half.getShape());
  int64_t columns = shape.back(), rank = shape.size();
  shape.back() = 2 * columns;
  auto wide = RankedTensorType::get(shape, half.getElementType());
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
  Value product = MatmulOp::create(inner, a.getLoc(), wide, body.getArgument(0),
                                   body.getArgument(1));
  SmallVector<int64_t> starts(rank, 0), sizes(half.getShape()), steps(rank, 1);
  Value low = SliceOp::create(inner, loc, half, product, starts, sizes, steps,
                              ExtentsAttr());
  starts.back() = columns;
  Value high = SliceOp::create(inner, loc, half, product, starts, sizes, steps,
                               ExtentsAttr());
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
  for (Value weight : {wa, wb})
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
    SmallVector<MatmulOp> products;
    for (Value in : reader.getInputs())
      if (MatmulOp mm = loneProductOf(in, reader))
        products.push_back(mm);
    // The first two products of one activation and one shape, whose shape
    // is every result's.
    for (auto [i, a] : llvm::enumerate(products)) {
      auto match =
          llvm::find_if(ArrayRef(products).drop_front(i + 1), [&](MatmulOp b) {
            return inputOf(b, b.getLhs()) == inputOf(a, a.getLhs()) &&
                   b.getType() == a.getType() &&
                   b.getRhs().getType() == a.getRhs().getType();
          });
      if (match == products.end() || !pairsOnWgmma(a, target) ||
          !llvm::all_of(reader->getResultTypes(), [&](Type t) {
            return cast<ShapedType>(t).getShape() == a.getType().getShape();
          }))
        continue;
      pair(reader, a, *match);
      break;
    }
  }
}
