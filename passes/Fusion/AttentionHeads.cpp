//===- AttentionHeads.cpp - head views brrr-fuse-attention rewrites ------===//
//
// Products of heads folded into the batch (DeBERTa's bmm over [B * H, S,
// D]) rebuilt over [B, H] views, and grouped-query keys and values taken
// unrepeated (AttentionHeads.h).
//
//===----------------------------------------------------------------------===//

#include "passes/Fusion/AttentionHeads.h"
#include "passes/Fusion/AttentionMasks.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::attention_masks;

namespace {

/// The unrepeated heads of `kv`, keys or values of [B, H, S, D]: for
/// reshape(expand(y)) with y of [B, Hk, 1, S, D] expanded to [B, Hk, G, S,
/// D] and merged to H = Hk * G heads (grouped-query attention, as
/// transformers' repeat_kv writes it), y; otherwise null.
Value repeatedHeadsOf(Value kv) {
  auto merge = kv.getDefiningOp<ReshapeOp>();
  auto expand = merge ? merge.getInput().getDefiningOp<ExpandOp>() : ExpandOp();
  if (!expand)
    return Value();
  ArrayRef<int64_t> y = shapeOf(expand.getInput()), e = shapeOf(expand),
                    h = shapeOf(kv);
  if (y.size() != 5 || e.size() != 5 || h.size() != 4 || y[2] != 1 ||
      y[0] != e[0] || y[1] != e[1] || y.take_back(2) != e.take_back(2) ||
      e[0] != h[0] || e[1] * e[2] != h[1] || e.take_back(2) != h.take_back(2))
    return Value();
  return expand.getInput();
}

/// `v` = cast(views(x)) over symbolic extents, views being reshapes,
/// transposes and expands: views(cast(x)), so that the cast rounds x where
/// it is computed (a projection's epilogue) and attention reads the views
/// in place, as it reads a 16-bit model's (an f32 model's grouped keys and
/// values, rounded after their heads were ungrouped). `v` itself otherwise.
Value castBeforeViews(OpBuilder &b, Location loc, Value v) {
  auto c = v.getDefiningOp<CastOp>();
  if (!c || !isSymbolic(c.getType()))
    return v;
  SmallVector<Operation *> views;
  Value x = c.getInput();
  while (Operation *op = x.getDefiningOp()) {
    if (!isa<ReshapeOp, TransposeOp, ExpandOp>(op))
      break;
    views.push_back(op);
    x = op->getOperand(0);
  }
  if (views.empty())
    return v;
  Type et = elementOf(v);
  Value y =
      CastOp::create(b, loc, cast<RankedTensorType>(x.getType()).clone(et), x);
  for (Operation *view : llvm::reverse(views)) {
    OperationState state(
        loc, view->getName(), ValueRange{y},
        TypeRange{
            cast<RankedTensorType>(view->getResult(0).getType()).clone(et)},
        view->getAttrs());
    y = b.create(state)->getResult(0);
  }
  return y;
}

} // namespace

namespace mlir::brrr::attention_heads {

/// Keys and values without their repeated heads, when both repeat the same
/// heads the same way: y viewed as [B, Hk, S, D] each, and the kernel reads
/// head h / G, so the repeated heads are never copied. Otherwise both as
/// they are (the op needs as many key heads as value heads). A cast of the
/// repeated heads (an f32 model's keys rounded for 16-bit products) is a
/// cast of y's view.
void ungroupHeads(OpBuilder &b, Location loc, Value &key, Value &value) {
  auto uncast = [](Value kv) {
    auto c = kv.getDefiningOp<CastOp>();
    return c ? c.getInput() : kv;
  };
  Value k = repeatedHeadsOf(uncast(key)), v = repeatedHeadsOf(uncast(value));
  if (!k || !v || shapeOf(k)[1] != shapeOf(v)[1])
    return;
  auto view = [&](Value y, Value kv) -> Value {
    ArrayRef<int64_t> s = shapeOf(y);
    auto yt = cast<RankedTensorType>(y.getType());
    auto type = shapedLike(yt, {s[0], s[1], s[3], s[4]}, yt.getElementType());
    Value viewed = ReshapeOp::create(b, loc, type, y);
    Type et = cast<RankedTensorType>(kv.getType()).getElementType();
    return et == yt.getElementType()
               ? viewed
               : castBeforeViews(
                     b, loc, CastOp::create(b, loc, type.clone(et), viewed));
  };
  key = view(k, key);
  value = view(v, value);
}

/// Erases `op` and, recursively, the operand producers it leaves unused.
void eraseDead(Operation *op) {
  SmallVector<Operation *> work = {op};
  while (!work.empty()) {
    Operation *o = work.pop_back_val();
    if (!o->use_empty() || isa<func::FuncOp>(o) || !isPure(o))
      continue;
    SmallVector<Operation *> producers;
    for (Value v : o->getOperands())
      if (Operation *def = v.getDefiningOp())
        producers.push_back(def);
    o->erase();
    for (Operation *def : producers)
      if (!llvm::is_contained(work, def))
        work.push_back(def);
  }
}

} // namespace mlir::brrr::attention_heads

namespace {

/// `x`, a static [B * H, m, n] value, as [B, H, m, n]: the value it is a
/// view of where it has that shape, else (through `x`'s only use) its
/// batched product, sum, transpose of the last two dimensions or scaling
/// by a scalar constant rebuilt over its operands so viewed, else a
/// reshape. Products of heads folded into the batch (DeBERTa's bmm over
/// [B * H, S, D]) so become the rank-4 products attention is matched on,
/// with their scales and transposes where the match looks for them.
Value splitHeads(OpBuilder &b, Value x, int64_t batch, int64_t heads) {
  auto type = cast<RankedTensorType>(x.getType());
  ArrayRef<int64_t> s = type.getShape();
  auto split =
      RankedTensorType::get({batch, heads, s[1], s[2]}, type.getElementType());
  Location loc = x.getLoc();
  if (auto view = x.getDefiningOp<ReshapeOp>();
      view && view.getInput().getType() == split)
    return view.getInput();
  Operation *def = x.getDefiningOp();
  if (def && x.hasOneUse()) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(def);
    auto rank3 = [&](Value v) {
      return cast<RankedTensorType>(v.getType()).getShape() == s;
    };
    auto batched = [&](Value v) {
      ArrayRef<int64_t> vs = shapeOf(v);
      return vs.size() == 3 && vs[0] == s[0];
    };
    if (auto mm = dyn_cast<MatmulOp>(def);
        mm && batched(mm.getLhs()) && batched(mm.getRhs()))
      return MatmulOp::create(b, loc, split,
                              splitHeads(b, mm.getLhs(), batch, heads),
                              splitHeads(b, mm.getRhs(), batch, heads));
    if (auto t = dyn_cast<TransposeOp>(def);
        t && t.getPerm() == ArrayRef<int64_t>{0, 2, 1})
      return TransposeOp::create(b, loc, split,
                                 splitHeads(b, t.getInput(), batch, heads),
                                 b.getDenseI64ArrayAttr({0, 1, 3, 2}));
    if (isa<MulOp, DivOp, AddOp>(def)) {
      Value lhs = def->getOperand(0), rhs = def->getOperand(1);
      bool scaled = !isa<AddOp>(def) && scalarConstant(rhs) && rank3(lhs);
      bool summed = isa<AddOp>(def) && rank3(lhs) && rank3(rhs);
      if (scaled || summed) {
        Value l = splitHeads(b, lhs, batch, heads);
        Value r = summed ? splitHeads(b, rhs, batch, heads) : rhs;
        Operation *op =
            b.create(loc, def->getName().getIdentifier(), ValueRange{l, r},
                     TypeRange{split}, def->getAttrs());
        return op->getResult(0);
      }
    }
  }
  return ReshapeOp::create(b, loc, split, x);
}

} // namespace

namespace mlir::brrr::attention_heads {

/// Rewrites the products around `sm` (static [B, H, Sq, Sk] scores over
/// the last axis) that fold the heads into their batch: scores viewed from
/// a [B * H, Sq, Sk] product (plus what is added to it there) become the
/// rank-4 product, and probabilities viewed as [B * H, Sq, Sk] to multiply
/// [B * H, Sk, D] values multiply the values viewed as [B, H, Sk, D], the
/// result viewed back.
void splitHeadsAround(SoftmaxOp sm) {
  auto type = cast<RankedTensorType>(sm.getType());
  if (type.getRank() != 4 || sm.getAxis() != 3 || isSymbolic(type))
    return;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t batch = shape[0], heads = shape[1];
  SmallVector<int64_t> folded = {batch * heads, shape[2], shape[3]};
  OpBuilder b(sm);
  // The scores: down the ops of their shape (masks, scales, biases) to a
  // view of a rank-3 value.
  Value x = sm.getInput();
  while (Operation *def = x.getDefiningOp()) {
    if (auto view = dyn_cast<ReshapeOp>(def)) {
      if (shapeOf(view.getInput()) == ArrayRef<int64_t>(folded) &&
          view->hasOneUse()) {
        // Where the view was: a product read elsewhere too stays, viewed.
        b.setInsertionPoint(view);
        Value split = splitHeads(b, view.getInput(), batch, heads);
        view.getResult().replaceAllUsesWith(split);
        eraseDead(view);
      }
      break;
    }
    if (!isa<AddOp, MulOp, DivOp, WhereOp, CastOp>(def))
      break;
    Value next;
    for (Value v : def->getOperands())
      if (shapeOf(v) == shape && isa<FloatType>(elementOf(v)) && !next)
        next = v;
    if (!next)
      break;
    x = next;
  }
  // The probabilities times the values.
  auto view =
      sm->hasOneUse() ? dyn_cast<ReshapeOp>(*sm->user_begin()) : ReshapeOp();
  auto pv =
      view && view->hasOneUse() && shapeOf(view) == ArrayRef<int64_t>(folded)
          ? dyn_cast<MatmulOp>(*view->user_begin())
          : MatmulOp();
  if (!pv || pv.getLhs() != view.getResult() ||
      shapeOf(pv.getRhs()).size() != 3 || shapeOf(pv.getRhs())[0] != folded[0])
    return;
  b.setInsertionPoint(pv);
  Value values = splitHeads(b, pv.getRhs(), batch, heads);
  ArrayRef<int64_t> out = shapeOf(pv);
  auto outType = cast<RankedTensorType>(pv.getType());
  Value product =
      MatmulOp::create(b, pv.getLoc(),
                       RankedTensorType::get({batch, heads, out[1], out[2]},
                                             outType.getElementType()),
                       sm.getResult(), values);
  // Views of the result back to [B, H, Sq, D] (DeBERTa's) read the rank-4
  // product itself; others its view as [B * H, Sq, D].
  for (Operation *user : llvm::make_early_inc_range(pv->getUsers()))
    if (isa<ReshapeOp>(user) &&
        user->getResult(0).getType() == product.getType()) {
      user->getResult(0).replaceAllUsesWith(product);
      user->erase();
    }
  if (!pv->use_empty())
    pv.getResult().replaceAllUsesWith(
        ReshapeOp::create(b, pv.getLoc(), outType, product));
  eraseDead(pv);
}

} // namespace mlir::brrr::attention_heads
