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
  MatmulOp mm;
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

/// Whether the paired product of `p`'s rows (its columns a half's, or
/// with `halfColumns` both halves) runs a body that pairs halves on
/// `target` (the wgmma body, or the few-rows bodies, which read K-major
/// weights): K and a half's columns whole 16-byte chunks, and more rows
/// than the few-rows bodies take unless its weights are K-major (static
/// rows up to kFewRowsMmaMaxRows, symbolic ones, which take them for their
/// smallest ranges).
bool pairs(Lone p, TargetAttr target, bool halfColumns = false) {
  if (!target || !target.hasWgmma())
    return false;
  auto type = p.mm.getType();
  int64_t columns = type.getShape().back();
  int64_t n = columns / (halfColumns ? 2 : 1);
  int64_t k = p.mm.getLhs().getType().getShape().back();
  if (n % 8 || k % 8)
    return false;
  if (p.kMajor)
    return true;
  return type.hasStaticShape() &&
         type.getNumElements() / columns > kFewRowsMmaMaxRows;
}

/// The matmul kernel that replaces `reader`: the product of `x` by the
/// wide weight `w` (K-major: read through a transpose), of `half`'s shape
/// with twice its columns, its two halves sliced, then `reader`'s ops from
/// `from` on, its inputs but those in `dropped`, `map` holding the reads of
/// those (given `low` and `high`, the halves).
void replacePaired(FusionOp reader, Value x, Value w, bool kMajor,
                   RankedTensorType half, ArrayRef<Value> dropped,
                   Block::iterator from,
                   function_ref<void(IRMapping &, Value, Value)> mapDropped) {
  Location loc = reader.getLoc();
  OpBuilder builder(reader);
  SmallVector<int64_t> shape(half.getShape());
  int64_t columns = shape.back(), rank = shape.size();
  shape.back() = 2 * columns;
  auto wide = shapedLike(half, shape, half.getElementType());
  llvm::SetVector<Value> inputs;
  inputs.insert(x);
  inputs.insert(w);
  for (Value in : reader.getInputs())
    if (!llvm::is_contained(dropped, in))
      inputs.insert(in);
  auto fused = FusionOp::create(builder, loc, KernelFamily::matmul,
                                inputs.getArrayRef(), reader->getResultTypes());
  Block &body = fused.getBody().front();
  OpBuilder inner = OpBuilder::atBlockBegin(&body);
  Value weight = body.getArgument(1);
  if (kMajor) {
    auto wt = cast<RankedTensorType>(weight.getType());
    weight = TransposeOp::create(
        inner, loc,
        RankedTensorType::get({wt.getDimSize(1), wt.getDimSize(0)},
                              wt.getElementType()),
        weight, inner.getDenseI64ArrayAttr({1, 0}));
  }
  Value product =
      MatmulOp::create(inner, loc, wide, body.getArgument(0), weight);
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
  mapDropped(map, low, high);
  for (auto [in, arg] : llvm::zip(reader.getInputs(), old.getArguments()))
    if (!llvm::is_contained(dropped, in))
      map.map(arg, body.getArgument(llvm::find(inputs, in) - inputs.begin()));
  for (Operation &op : llvm::make_range(from, old.end()))
    inner.clone(op, map);
  reader->replaceAllUsesWith(fused.getResults());
  reader->erase();
}

/// Erases the kernel of lone product `p` and its weight where nothing else
/// reads them.
void eraseLone(Lone p) {
  p.mm->getParentOfType<FusionOp>()->erase();
  if (Operation *def = p.weight.getDefiningOp(); def && def->use_empty())
    def->erase();
}

/// Replaces `reader` and the lone products `a` and `b` it combines by one
/// matmul kernel whose epilogue pairs the halves of x [W_a | W_b].
void pair(FusionOp reader, Lone a, Lone b) {
  OpBuilder builder(reader);
  Location loc = reader.getLoc();
  // K-major weights stack their rows (one per column of the product).
  Value w =
      a.kMajor
          ? concatRows(builder, loc, {a.weight, b.weight}, "paired_weight")
          : concatColumns(builder, loc, {a.weight, b.weight}, "paired_weight");
  if (!w)
    return;
  Value ra = a.mm->getParentOfType<FusionOp>().getResult(0);
  Value rb = b.mm->getParentOfType<FusionOp>().getResult(0);
  Block &old = reader.getBody().front();
  replacePaired(reader, inputOf(a.mm, a.mm.getLhs()), w, a.kMajor,
                a.mm.getType(), {ra, rb}, old.begin(),
                [&](IRMapping &map, Value low, Value high) {
                  for (auto [in, arg] :
                       llvm::zip(reader.getInputs(), old.getArguments())) {
                    if (in == ra)
                      map.map(arg, low);
                    else if (in == rb)
                      map.map(arg, high);
                  }
                });
  eraseLone(a);
  eraseLone(b);
}

/// Where `reader` reads the lone product `p` (of 2 H columns) only
/// through two slices, its first H columns and its next H, that begin its
/// body (a fused gate and up projection chunked in two): the two slices.
std::optional<PairedHalves> halvesRead(FusionOp reader, Lone p) {
  Value r = p.mm->getParentOfType<FusionOp>().getResult(0);
  Block &body = reader.getBody().front();
  auto it = llvm::find(reader.getInputs(), r);
  if (it == reader.getInputs().end())
    return std::nullopt;
  return halvesAt(body.getArgument(it - reader.getInputs().begin()),
                  &body.front());
}

/// Replaces `reader` and the lone product `p` whose halves it reads
/// (halvesRead) by one matmul kernel whose epilogue pairs them.
void fuseHalves(FusionOp reader, Lone p, SliceOp low, SliceOp high) {
  Value r = p.mm->getParentOfType<FusionOp>().getResult(0);
  replacePaired(reader, inputOf(p.mm, p.mm.getLhs()), p.weight, p.kMajor,
                low.getType(), {r}, std::next(high->getIterator()),
                [&](IRMapping &map, Value newLow, Value newHigh) {
                  map.map(low.getResult(), newLow);
                  map.map(high.getResult(), newHigh);
                });
  eraseLone(p);
}

} // namespace

/// Whether `f`'s ops after the first `skip` are pointwise (or constants).
static bool elementwiseAfter(FusionOp f, int64_t skip) {
  int64_t i = 0;
  for (Operation &op : f.getBody().front().without_terminator())
    if (i++ >= skip && !isPointwise(&op) && !isa<ConstantOp>(op))
      return false;
  return true;
}

void mlir::brrr::pairGatedProducts(Operation *root, TargetAttr target) {
  SmallVector<FusionOp> readers;
  // Pointwise kernels, or ones that begin with two slices (halvesRead).
  root->walk([&](FusionOp f) {
    if (f.getKind() == KernelFamily::pointwise && elementwiseAfter(f, 2))
      readers.push_back(f);
  });
  for (FusionOp reader : readers) {
    SmallVector<Lone> products;
    for (Value in : reader.getInputs())
      if (std::optional<Lone> p = loneProductOf(in, reader))
        products.push_back(*p);
    // (halvesRead: its two slices first, elementwise ops after them.)
    bool elementwise = isElementwiseOnly(reader);
    // One product read through its halves, whose shape is every result's
    // (a gate and up projection fused, then chunked).
    if (auto it = llvm::find_if(
            products,
            [&](Lone p) { return halvesRead(reader, p).has_value(); });
        it != products.end()) {
      PairedHalves halves = *halvesRead(reader, *it);
      if (pairs(*it, target, /*halfColumns=*/true) &&
          llvm::all_of(reader->getResultTypes(), [&](Type t) {
            return cast<ShapedType>(t).getShape() ==
                   halves.low.getType().getShape();
          })) {
        fuseHalves(reader, *it, halves.low, halves.high);
        continue;
      }
    }
    // The first two products of one activation, one shape and one weight
    // layout, whose shape is every result's.
    for (auto [i, a] : llvm::enumerate(products)) {
      Lone *match = llvm::find_if(
          MutableArrayRef(products).drop_front(i + 1), [&](Lone b) {
            return inputOf(b.mm, b.mm.getLhs()) ==
                       inputOf(a.mm, a.mm.getLhs()) &&
                   b.mm.getType() == a.mm.getType() &&
                   b.weight.getType() == a.weight.getType() &&
                   b.kMajor == a.kMajor;
          });
      if (!elementwise || match == products.end() || !pairs(a, target) ||
          !llvm::all_of(reader->getResultTypes(), [&](Type t) {
            return cast<ShapedType>(t).getShape() == a.mm.getType().getShape();
          }))
        continue;
      pair(reader, a, *match);
      break;
    }
  }
}
