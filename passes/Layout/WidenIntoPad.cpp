//===- WidenIntoPad.cpp - padded channels computed by the convolution ----===//
//
// Part of brrr-channels-last (ChannelsLast.h): a zero pad of a channels-last
// convolution's output channels, through pointwise ops that keep a zero
// channel finite, becomes the convolution (or a depthwise one and the
// convolution before it) computing those channels with zero weights and
// bias, so that no data-movement kernel pads them.
//
//===----------------------------------------------------------------------===//

#include "passes/Layout/ChannelsLast.h"

#include "passes/Analysis.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::layout;

namespace {

/// Pointwise ops that map finite values to finite values (with finite
/// one-element operands): what they make of a zero channel stays finite, so
/// a zero weight still cancels it.
bool keepsFinite(Operation *op) {
  if (auto cast = dyn_cast<CastOp>(op))
    return isa<FloatType>(getElementTypeOrSelf(cast.getInput().getType())) &&
           isa<FloatType>(getElementTypeOrSelf(cast.getType()));
  return isa<AbsOp, NegOp, ReluOp, SigmoidOp, SiluOp, TanhOp, GeluOp, ClipOp,
             ErfOp, SinOp, CosOp, AtanOp, AsinhOp, RoundOp, SignOp, AddOp,
             SubOp, MulOp, MaxOp, MinOp>(op);
}

/// Whether channels-last convolution `conv` multiplies its input channels
/// from `from` on by zeros only: packed constant weights zero there, or
/// weights zero-padded there by a pad.
bool zeroWeightsFrom(Conv2DOp conv, int64_t from) {
  auto t = cast<RankedTensorType>(conv.getWeight().getType());
  int64_t I = t.getDimSize(3);
  if (auto pad = conv.getWeight().getDefiningOp<PadOp>())
    return pad.getMode() == PadMode::constant &&
           pad.getValue().convertToDouble() == 0.0 &&
           I - pad.getHigh()[3] <= from;
  std::optional<SmallVector<double>> w = getConstFloats(conv.getWeight());
  if (!w)
    return false;
  for (int64_t at = 0; at < t.getNumElements(); ++at)
    if (at % I >= from && (*w)[at] != 0.0)
      return false;
  return true;
}

/// `v`, a constant, zero-padded to `size` along dimension `dim` at compile
/// time; null if `v` is not a float constant.
Value padConstant(OpBuilder &b, Location loc, Value v, int64_t dim,
                  int64_t size) {
  std::optional<SmallVector<double>> values = getConstFloats(v);
  if (!values)
    return nullptr;
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(t.getShape());
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < t.getRank(); ++d)
    inner *= shape[d];
  int64_t old = shape[dim];
  shape[dim] = size;
  SmallVector<double> out(t.getNumElements() / old * size, 0.0);
  for (int64_t at = 0; at < t.getNumElements(); ++at) {
    int64_t outer = at / (old * inner), i = at / inner % old;
    out[(outer * size + i) * inner + at % inner] = (*values)[at];
  }
  return ConstantOp::create(
      b, loc, makeFloatElements(t.clone(shape), out, "channels_last_widened"));
}

/// What widening a channels-last tensor's channels widens: the
/// convolution that computes it and the pointwise ops after it that keep
/// zeros finite (producers first), `top` the last of them.
struct WidenLevel {
  Conv2DOp root;
  SetVector<Operation *> chain;
  Value top;
};

/// Plans widening the channels of `top`, which only `reader` reads: its
/// level, and where its convolution is depthwise (a group a channel), the
/// levels of that convolution's input, deeper last. Returns false, with
/// `levels` in no defined state, where it cannot.
bool planWiden(Value top, Operation *reader,
               SmallVectorImpl<WidenLevel> &levels) {
  WidenLevel level;
  level.top = top;
  SetVector<Operation *> &chain = level.chain;
  Conv2DOp &root = level.root;
  std::function<bool(Value)> visit = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (auto conv = dyn_cast_or_null<Conv2DOp>(def)) {
      if (root && root != conv)
        return false;
      root = conv;
      return true;
    }
    if (!def || chain.contains(def))
      return def != nullptr;
    if (def->getNumResults() != 1 || !keepsFinite(def))
      return false;
    for (Value operand : def->getOperands()) {
      auto t = cast<RankedTensorType>(operand.getType());
      if (isOneElement(t)) {
        std::optional<SmallVector<double>> c = getConstFloats(operand);
        if (!c || !std::isfinite((*c)[0]))
          return false;
        continue;
      }
      if (t.getShape() != cast<RankedTensorType>(v.getType()).getShape() ||
          !visit(operand))
        return false;
    }
    chain.insert(def);
    return true;
  };
  if (!visit(top) || !root || !root.getChannelsLast() ||
      isEightBitProductType(cast<RankedTensorType>(root.getWeight().getType())
                                .getElementType()) ||
      !matchPattern(root.getWeight(), m_Constant()) ||
      (root.getBias() && !matchPattern(root.getBias(), m_Constant())))
    return false;
  // Nothing outside reads the convolution or the ops after it.
  auto inside = [&](Operation *user) {
    return user == reader || chain.contains(user);
  };
  if (!llvm::all_of(root->getUsers(), inside))
    return false;
  for (Operation *op : chain)
    if (!llvm::all_of(op->getUsers(), inside))
      return false;
  levels.push_back(level);
  int64_t groups = root.getGroups();
  if (groups == 1)
    return true;
  // A depthwise convolution widens with its input: its zero channels read
  // zero channels through zero weights.
  int64_t C = cast<RankedTensorType>(root.getInput().getType()).getDimSize(3);
  if (groups != C || cast<RankedTensorType>(root.getType()).getDimSize(3) != C)
    return false;
  return planWiden(root.getInput(), root, levels);
}

} // namespace

void mlir::brrr::layout::widenIntoPad(PadOp pad) {
  auto pt = cast<RankedTensorType>(pad.getType());
  if (pt.getRank() != 4 || pad.getMode() != PadMode::constant ||
      pad.getValue().convertToDouble() != 0.0 ||
      pad.getLow() != ArrayRef<int64_t>({0, 0, 0, 0}) ||
      pad.getHigh().take_front(3) != ArrayRef<int64_t>({0, 0, 0}) ||
      pad.getHigh()[3] <= 0)
    return;
  int64_t C = pt.getDimSize(3) - pad.getHigh()[3];
  for (Operation *user : pad->getUsers()) {
    auto conv = dyn_cast<Conv2DOp>(user);
    if (!conv || !conv.getChannelsLast() ||
        conv.getInput() != pad.getResult() || conv.getGroups() != 1 ||
        !zeroWeightsFrom(conv, C))
      return;
  }
  SmallVector<WidenLevel> levels;
  if (!planWiden(pad.getInput(), pad, levels))
    return;
  int64_t channels = pt.getDimSize(3);
  auto widen = [&](Type t) {
    auto rt = cast<RankedTensorType>(t);
    SmallVector<int64_t> shape(rt.getShape());
    shape[3] = channels;
    return shapedLike(rt, shape, rt.getElementType());
  };
  // Deepest first: a depthwise convolution reads the level below widened.
  Value widened;
  for (WidenLevel &level : llvm::reverse(levels)) {
    Conv2DOp root = level.root;
    OpBuilder b(root);
    Location loc = root.getLoc();
    Value w = padConstant(b, loc, root.getWeight(), 2, channels);
    Value bias = root.getBias();
    if (bias)
      bias = padConstant(b, loc, bias, 0, channels);
    assert(w && (!root.getBias() || bias) && "planWiden checked constants");
    bool depthwise = root.getGroups() != 1;
    IRMapping map;
    auto conv = Conv2DOp::create(
        b, loc, widen(root.getType()), depthwise ? widened : root.getInput(), w,
        bias, root.getStridesAttr(), root.getPadsAttr(),
        root.getDilationsAttr(),
        depthwise ? b.getI64IntegerAttr(channels) : root.getGroupsAttr(),
        root.getChannelsLastAttr());
    map.map(root.getResult(), conv.getResult());
    for (Operation *op : level.chain) {
      b.setInsertionPoint(op);
      Operation *clone = b.clone(*op, map);
      clone->getResult(0).setType(widen(op->getResult(0).getType()));
    }
    widened = map.lookup(level.top);
  }
  pad.replaceAllUsesWith(widened);
  pad.erase();
  // Readers first: each level's convolution reads the level below.
  for (WidenLevel &level : levels) {
    for (Operation *op : llvm::reverse(level.chain))
      op->erase();
    Value oldWeight = level.root.getWeight(), oldBias = level.root.getBias();
    level.root.erase();
    // The narrow weights and bias, unless something else reads them.
    for (Value v : {oldWeight, oldBias})
      if (v && v.use_empty())
        if (auto c = v.getDefiningOp<ConstantOp>())
          c.erase();
  }
}
