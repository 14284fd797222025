//===- ChannelsLast.cpp - NHWC layout for Tensor Core convolutions --------===//
//
// Layout pass (flag brrr-channels-last), after precision lowering and
// before fusion. On sm_90a, where the wgmma body reads a convolution's
// activations through TMA's im2col mode, an f16/bf16 brrr.conv2d of one
// group becomes
//   transpose(conv2d{channels_last}(pad(transpose(x)), pack(w), b))
// with the weights packed to KH x KW x O x I at compile time (a transposed
// weight blob folds) and input channels zero-padded to whole 16-byte rows
// (at least 16 channels). The layout then travels through the graph: a
// pointwise op whose every large operand is an NCHW view of a
// channels-last tensor, or a constant, runs channels-last itself, and so
// do pooling and reductions over such a view, slices and concatenations
// of such views (a split into branches, DenseNet's growing feature maps)
// and permutations of their channels (ShuffleNet's channel shuffle), so
// conv -> relu -> max pool -> conv -> add chains keep NHWC, and the
// transposes met back to back cancel. What is left is a transpose at the
// edges of the channels-last region, a movement kernel. Channels padded
// after a convolution are computed by it instead (WidenIntoPad.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/Layout/ChannelsLast.h"

#include "passes/Config/Products.h"
#include "passes/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <functional>

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRCHANNELSLAST
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::layout;

namespace {

/// NCHW -> NHWC, and back.
constexpr int64_t kToLast[] = {0, 2, 3, 1};
constexpr int64_t kToFirst[] = {0, 3, 1, 2};

RankedTensorType permuted(RankedTensorType t, ArrayRef<int64_t> perm) {
  SmallVector<AffineExpr> extents = extentsOf(t), moved;
  for (int64_t p : perm)
    moved.push_back(extents[p]);
  return tensorTypeOf(t.getContext(), moved, t.getElementType());
}

Value transpose(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> perm) {
  auto t = cast<RankedTensorType>(v.getType());
  return TransposeOp::create(b, loc, permuted(t, perm), v, perm);
}

/// An NCHW view of a channels-last tensor: transpose(x, kToFirst).
bool isFirstView(Value v) {
  auto t = v.getDefiningOp<TransposeOp>();
  return t && t.getPerm() == ArrayRef<int64_t>(kToFirst);
}

/// Whether `conv` runs channels-last: f16/bf16 on sm_90a, and one group,
/// groups the wgmma body runs (ConvGemm, wgmmaPadsConvGroups), or a direct
/// convolution (depthwise, narrow groups), whose threads then read whole
/// vectors of channels.
bool wantsChannelsLast(Conv2DOp conv) {
  auto it = cast<RankedTensorType>(conv.getInput().getType());
  int64_t groups = conv.getGroups();
  if (conv.getChannelsLast() ||
      (groups != 1 && !isDirectConv(conv) &&
       !wgmmaPadsConvGroups(it.getDimSize(1) / groups)))
    return false;
  Type et = it.getElementType();
  return et.isF16() || et.isBF16();
}

/// `v` with its last dimension zero-padded to `size`.
Value padLast(OpBuilder &b, Location loc, Value v, int64_t size) {
  auto t = cast<RankedTensorType>(v.getType());
  int64_t rank = t.getRank();
  if (t.getDimSize(rank - 1) == size)
    return v;
  SmallVector<int64_t> shape(t.getShape()), low(rank, 0), high(rank, 0);
  high[rank - 1] = size - shape[rank - 1];
  shape[rank - 1] = size;
  return PadOp::create(b, loc, shapedLike(t, shape, t.getElementType()),
                       PadMode::constant, v, low, high, APFloat(0.0));
}

/// The OIHW weights `w` packed to (KH, KW, O, I) with I zero-padded to
/// `channels`: at compile time for constants (one new blob), else as a
/// transpose and a pad.
Value packWeights(OpBuilder &b, Location loc, Value w, int64_t channels) {
  auto t = cast<RankedTensorType>(w.getType());
  int64_t O = t.getDimSize(0), I = t.getDimSize(1), KH = t.getDimSize(2),
          KW = t.getDimSize(3);
  auto packed = t.clone({KH, KW, O, channels});
  if (channels != I) {
    if (std::optional<SmallVector<double>> v = getConstFloats(w)) {
      SmallVector<double> out(packed.getNumElements(), 0.0);
      for (int64_t o = 0; o < O; ++o)
        for (int64_t i = 0; i < I; ++i)
          for (int64_t h = 0; h < KH; ++h)
            for (int64_t k = 0; k < KW; ++k)
              out[((h * KW + k) * O + o) * channels + i] =
                  (*v)[((o * I + i) * KH + h) * KW + k];
      return ConstantOp::create(
          b, loc, makeFloatElements(packed, out, "channels_last_weight"));
    }
  }
  return padLast(b, loc, transpose(b, loc, w, {2, 3, 0, 1}), channels);
}

/// A stem (stride 2 over at most 4 channels, constant weights) as a
/// stride-1 convolution over its input rearranged space to depth: each 2 x 2
/// block of pixels becomes one cell of 4 C channels (padded to 16), and the
/// K x K window a ceil(K/2) x ceil(K/2) window of cells. A window row's
/// cells then lie side by side in the channels (KW2 = ceil(K/2) slices of
/// the cell tensor, one per horizontal tap, concatenated), so the
/// convolution is KH2 x 1 over 16 KW2 channels, with weights
/// w'[kh'][0][o][16 kw' + (dy * 2 + dx) * C + c] = w[o][c][2 kh' + dy][2 kw'
/// + dx] (0 past the window). TMA's im2col mode fetches a pixel row per tap
/// at a rate of rows, not bytes: ResNet's 7 x 7 stem reads 4 taps of 128
/// bytes instead of 16 of 32 (or 49 of 6). Returns false when it does not
/// apply.
bool stemToChannelsLast(Conv2DOp conv) {
  auto it = cast<RankedTensorType>(conv.getInput().getType());
  auto ot = cast<RankedTensorType>(conv.getType());
  auto wt = cast<RankedTensorType>(conv.getWeight().getType());
  int64_t N = it.getDimSize(0), C = it.getDimSize(1), H = it.getDimSize(2),
          W = it.getDimSize(3);
  int64_t O = wt.getDimSize(0), KH = wt.getDimSize(2), KW = wt.getDimSize(3);
  int64_t OH = ot.getDimSize(2), OW = ot.getDimSize(3);
  if (C > 4 || KH < 2 || KW < 2 ||
      conv.getStrides() != ArrayRef<int64_t>({2, 2}) ||
      conv.getDilations() != ArrayRef<int64_t>({1, 1}))
    return false;
  // Read only now: a stem's weights are few.
  std::optional<SmallVector<double>> wv = getConstFloats(conv.getWeight());
  if (!wv)
    return false;
  int64_t KH2 = llvm::divideCeil(KH, 2), KW2 = llvm::divideCeil(KW, 2);
  // The padded input: rows 2 oh + kh for every output row and tap, an even
  // count (a negative high pad crops rows no window reads).
  int64_t Hp = 2 * (OH - 1 + KH2), Wp = 2 * (OW - 1 + KW2);
  int64_t pt = conv.getPads()[0], pl = conv.getPads()[1];
  int64_t C4 = 4 * C, channels = std::max<int64_t>(16, llvm::alignTo(C4, 8));
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  Type et = it.getElementType();
  // N may be symbolic (a `?`): the types keep the input's batch.
  auto typeOf = [&](ArrayRef<int64_t> shape) {
    return shapedLike(it, shape, et);
  };
  Value x = transpose(b, loc, conv.getInput(), kToLast);
  x = PadOp::create(b, loc, typeOf({N, Hp, Wp, C}), PadMode::constant, x,
                    ArrayRef<int64_t>{0, pt, pl, 0},
                    ArrayRef<int64_t>{0, Hp - pt - H, Wp - pl - W, 0},
                    APFloat(0.0));
  x = ReshapeOp::create(b, loc, typeOf({N, Hp / 2, 2, Wp / 2, 2, C}), x);
  x = TransposeOp::create(b, loc, typeOf({N, Hp / 2, Wp / 2, 2, 2, C}), x,
                          ArrayRef<int64_t>{0, 1, 3, 2, 4, 5});
  x = ReshapeOp::create(b, loc, typeOf({N, Hp / 2, Wp / 2, C4}), x);
  x = padLast(b, loc, x, channels);
  SmallVector<Value> taps;
  RankedTensorType tapType = typeOf({N, Hp / 2, OW, channels});
  ExtentsAttr tapExtents =
      isSymbolic(tapType) ? extentsAttrOf(b.getContext(), extentsOf(tapType))
                          : ExtentsAttr();
  for (int64_t k = 0; k < KW2; ++k)
    taps.push_back(SliceOp::create(b, loc, tapType, x,
                                   ArrayRef<int64_t>{0, 0, k, 0},
                                   ArrayRef<int64_t>{N, Hp / 2, OW, channels},
                                   ArrayRef<int64_t>{1, 1, 1, 1}, tapExtents));
  int64_t row = KW2 * channels;
  x = ConcatOp::create(b, loc, typeOf({N, Hp / 2, OW, row}), taps, 3);
  SmallVector<double> packed(KH2 * O * row, 0.0);
  for (int64_t o = 0; o < O; ++o)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t kh = 0; kh < KH; ++kh)
        for (int64_t kw = 0; kw < KW; ++kw) {
          int64_t ch = (kw / 2) * channels + ((kh % 2) * 2 + kw % 2) * C + c;
          packed[((kh / 2) * O + o) * row + ch] =
              (*wv)[((o * C + c) * KH + kh) * KW + kw];
        }
  Value w = ConstantOp::create(
      b, loc,
      makeFloatElements(RankedTensorType::get({KH2, 1, O, row}, et), packed,
                        "space_to_depth_weight"));
  auto y = Conv2DOp::create(
      b, loc, permuted(ot, kToLast), x, w, conv.getBias(),
      b.getDenseI64ArrayAttr({1, 1}), b.getDenseI64ArrayAttr({0, 0, 0, 0}),
      b.getDenseI64ArrayAttr({1, 1}), conv.getGroupsAttr(), b.getUnitAttr());
  // What earlier passes recorded on it (brrr.quantized_unfused, for
  // --report).
  for (NamedAttribute a : conv->getDiscardableAttrs())
    y->setAttr(a.getName(), a.getValue());
  conv.replaceAllUsesWith(transpose(b, loc, y, kToFirst));
  conv.erase();
  return true;
}

void toChannelsLast(Conv2DOp conv) {
  bool direct = isDirectConv(conv);
  if (!direct && stemToChannelsLast(conv))
    return;
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  // Rows of input channels padded with zeros to whole 16-byte chunks
  // (TMA's stride alignment), and to 16 at least: the stem's 3 channels
  // read as 16, whole 32-byte pixels for the narrow body's copies. Grouped
  // convolutions have groups of whole 16-byte chunks already, and the
  // direct body reads channels as they are.
  int64_t C = cast<RankedTensorType>(conv.getInput().getType()).getDimSize(1);
  int64_t channels = direct ? C : std::max<int64_t>(16, llvm::alignTo(C, 8));
  Value x =
      padLast(b, loc, transpose(b, loc, conv.getInput(), kToLast), channels);
  int64_t groups = conv.getGroups();
  Value w = packWeights(b, loc, conv.getWeight(),
                        groups == 1 ? channels : channels / groups);
  auto y = Conv2DOp::create(b, loc, permuted(conv.getType(), kToLast), x, w,
                            conv.getBias(), conv.getStridesAttr(),
                            conv.getPadsAttr(), conv.getDilationsAttr(),
                            conv.getGroupsAttr(), b.getUnitAttr());
  // What earlier passes recorded on it (brrr.groups_unpacked, for
  // --report).
  for (NamedAttribute a : conv->getDiscardableAttrs())
    y->setAttr(a.getName(), a.getValue());
  conv.replaceAllUsesWith(transpose(b, loc, y, kToFirst));
  conv.erase();
}

/// Whether an NHWC copy of `v` is made anyway (a channels-last
/// convolution reads it): a reader may take it too, and CSE keeps one.
bool hasLastCopy(Value v) {
  return llvm::any_of(v.getUsers(), [](Operation *user) {
    auto t = dyn_cast<TransposeOp>(user);
    return t && t.getPerm() == ArrayRef<int64_t>(kToLast);
  });
}

/// Replaces `op`'s result with the NCHW view of `last` (its channels-last
/// form), erases `op` and returns the view.
TransposeOp replaceWithView(Operation *op, Value last) {
  OpBuilder b(op);
  auto rt = cast<RankedTensorType>(op->getResult(0).getType());
  auto view = TransposeOp::create(b, op->getLoc(), rt, last, kToFirst);
  op->getResult(0).replaceAllUsesWith(view.getResult());
  op->erase();
  return view;
}

/// Runs pointwise op `op` channels-last when every operand is an NCHW view
/// of a channels-last tensor, a tensor with an NHWC copy, a constant (of
/// rank 4, or fewer dimensions broadcast against the trailing ones, like a
/// layer scale of [C, 1, 1]), or one element (which broadcasts to any
/// shape), and at least one is a view. Returns the NCHW view of the new
/// result, or null.
TransposeOp sinkIntoChannelsLast(Operation *op) {
  auto rt = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!rt || rt.getRank() != 4 || op->getNumResults() != 1)
    return nullptr;
  bool anyView = false;
  for (Value v : op->getOperands()) {
    auto t = cast<RankedTensorType>(v.getType());
    if (isFirstView(v))
      anyView = true;
    else if (!isOneElement(t) && !matchPattern(v, m_Constant()) &&
             !(t.getRank() == 4 && hasLastCopy(v)))
      return nullptr;
  }
  if (!anyView)
    return nullptr;
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value v : op->getOperands()) {
    auto t = cast<RankedTensorType>(v.getType());
    if (isOneElement(t)) {
      operands.push_back(v);
      continue;
    }
    // A constant of fewer dimensions gains leading ones first.
    if (t.getRank() < 4) {
      SmallVector<int64_t> shape(4 - t.getRank(), 1);
      llvm::append_range(shape, t.getShape());
      t = t.clone(shape);
      // Float constants are rewritten NHWC at compile time.
      std::optional<SmallVector<double>> values;
      if (isa<FloatType>(t.getElementType()))
        values = getConstFloats(v);
      if (values) {
        int64_t N = shape[0], C = shape[1], H = shape[2], W = shape[3];
        SmallVector<double> last(values->size());
        for (int64_t n = 0; n < N; ++n)
          for (int64_t c = 0; c < C; ++c)
            for (int64_t h = 0; h < H; ++h)
              for (int64_t w = 0; w < W; ++w)
                last[((n * H + h) * W + w) * C + c] =
                    (*values)[((n * C + c) * H + h) * W + w];
        operands.push_back(
            ConstantOp::create(b, loc,
                               makeFloatElements(permuted(t, kToLast), last,
                                                 "channels_last_constant")));
        continue;
      }
      v = ReshapeOp::create(b, loc, t, v);
    }
    operands.push_back(transpose(b, loc, v, kToLast));
  }
  Operation *clone = b.clone(*op);
  clone->setOperands(operands);
  clone->getResult(0).setType(permuted(rt, kToLast));
  return replaceWithView(op, clone->getResult(0));
}

/// One NHWC copy per tensor: the copies of a value merge into one placed
/// right after the value is defined.
void mergeLastCopies(func::FuncOp func) {
  llvm::MapVector<Value, SmallVector<TransposeOp>> copies;
  func.walk([&](TransposeOp t) {
    if (t.getPerm() == ArrayRef<int64_t>(kToLast))
      copies[t.getInput()].push_back(t);
  });
  for (auto &[v, ts] : copies) {
    if (ts.size() < 2)
      continue;
    TransposeOp keep = ts.front();
    if (Operation *def = v.getDefiningOp())
      keep->moveAfter(def);
    else
      keep->moveBefore(&cast<BlockArgument>(v).getOwner()->front());
    for (TransposeOp t : ArrayRef(ts).drop_front()) {
      t.replaceAllUsesWith(keep.getResult());
      t.erase();
    }
  }
}

/// pool(NCHW view of x) as a channels-last pool of x (the stem's max pool
/// between two convolutions). Returns the NCHW view of its result, or null.
TransposeOp poolChannelsLast(Operation *pool) {
  if (!isa<MaxPool2DOp, AvgPool2DOp>(pool) || pool->hasAttr("channels_last") ||
      !isFirstView(pool->getOperand(0)))
    return nullptr;
  OpBuilder b(pool);
  auto rt = cast<RankedTensorType>(pool->getResult(0).getType());
  Operation *clone = b.clone(*pool);
  clone->setOperand(
      0, pool->getOperand(0).getDefiningOp<TransposeOp>().getInput());
  clone->setAttr("channels_last", b.getUnitAttr());
  clone->getResult(0).setType(permuted(rt, kToLast));
  return replaceWithView(pool, clone->getResult(0));
}

/// reduce(NCHW view of x, axes) as a reduction of x over the same
/// dimensions: a global pool over H and W reads the channels-last tensor
/// itself. Returns the NCHW view of a kept-dims result (a reshape when it
/// only moves size-1 dimensions), or null.
Value reduceChannelsLast(ReduceOp op) {
  auto view = op.getInput().getDefiningOp<TransposeOp>();
  if (!view || !isFirstView(op.getInput()))
    return nullptr;
  SmallVector<int64_t> axes;
  for (int64_t a : op.getAxes())
    axes.push_back(kToFirst[a]);
  llvm::sort(axes);
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto rt = cast<RankedTensorType>(op.getType());
  if (!op.getKeepdims()) {
    // The kept dimensions keep their NCHW order only if C is reduced or
    // H and W are.
    bool ordered = llvm::is_contained(axes, 3) ||
                   (llvm::is_contained(axes, 1) && llvm::is_contained(axes, 2));
    if (!ordered)
      return nullptr;
    return ReduceOp::create(b, loc, rt, op.getKindAttr(), view.getInput(),
                            b.getDenseI64ArrayAttr(axes), op.getKeepdimsAttr());
  }
  auto last = permuted(rt, kToLast);
  Value r =
      ReduceOp::create(b, loc, last, op.getKindAttr(), view.getInput(),
                       b.getDenseI64ArrayAttr(axes), op.getKeepdimsAttr());
  // Moving only size-1 dimensions keeps the element order: a reshape.
  SmallVector<int64_t> big;
  for (int64_t d = 0; d < 4; ++d)
    if (last.getDimSize(d) != 1)
      big.push_back(d);
  bool ordered = llvm::is_sorted(big, [](int64_t a, int64_t c) {
    return llvm::find(kToFirst, a) - kToFirst <
           llvm::find(kToFirst, c) - kToFirst;
  });
  if (ordered)
    return ReshapeOp::create(b, loc, rt, r);
  return transpose(b, loc, r, kToFirst);
}

/// `a`, one entry per NCHW dimension, in NHWC order.
SmallVector<int64_t> toLastOrder(ArrayRef<int64_t> a) {
  SmallVector<int64_t> moved;
  for (int64_t p : kToLast)
    moved.push_back(a[p]);
  return moved;
}

/// slice(NCHW view of x) as the same slice of x, its starts, sizes and
/// steps moved with the dimensions (ShuffleNet's split of the channels
/// into two branches). Returns the NCHW view of its result, or null.
TransposeOp sliceChannelsLast(SliceOp op) {
  if (!isFirstView(op.getInput()))
    return nullptr;
  OpBuilder b(op);
  auto last = permuted(cast<RankedTensorType>(op.getType()), kToLast);
  ExtentsAttr extents = op.getExtentsAttr()
                            ? extentsAttrOf(b.getContext(), extentsOf(last))
                            : ExtentsAttr();
  auto slice =
      SliceOp::create(b, op.getLoc(), last,
                      op.getInput().getDefiningOp<TransposeOp>().getInput(),
                      toLastOrder(op.getStarts()), toLastOrder(op.getSizes()),
                      toLastOrder(op.getSteps()), extents);
  return replaceWithView(op, slice);
}

/// concat(NCHW views of channels-last tensors, or tensors with an NHWC
/// copy) as the concatenation of the channels-last tensors along the same
/// dimension, at its NHWC place (DenseNet's growing feature maps,
/// ShuffleNet's two branches). Returns the NCHW view of its result, or
/// null.
TransposeOp concatChannelsLast(ConcatOp op) {
  auto rt = cast<RankedTensorType>(op.getType());
  if (rt.getRank() != 4)
    return nullptr;
  bool anyView = false;
  for (Value v : op.getInputs()) {
    if (isFirstView(v))
      anyView = true;
    else if (!hasLastCopy(v))
      return nullptr;
  }
  if (!anyView)
    return nullptr;
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> inputs;
  for (Value v : op.getInputs())
    inputs.push_back(transpose(b, loc, v, kToLast));
  auto concat = ConcatOp::create(b, loc, permuted(rt, kToLast), inputs,
                                 kToFirst[op.getAxis()]);
  return replaceWithView(op, concat);
}

/// A permutation of the channels of an NCHW view of x written as
/// reshape(transpose(reshape(view, N x F1 x ... x Fk x H x W), p), N x C x
/// H x W), with p moving only the factors F (ShuffleNet's channel shuffle,
/// of any group count), as the same permutation of x's channels: x reshaped
/// to N x H x W x F1 x ... x Fk, the factors transposed, and the channels
/// merged again. Returns the NCHW view of its result, or null.
TransposeOp shuffleChannelsLast(ReshapeOp split) {
  if (!isFirstView(split.getInput()) || !split->hasOneUse())
    return nullptr;
  auto in = cast<RankedTensorType>(split.getInput().getType());
  auto st = cast<RankedTensorType>(split.getType());
  int64_t r = st.getRank();
  auto t = dyn_cast<TransposeOp>(*split->getUsers().begin());
  if (r < 5 || in.getRank() != 4 || !t || !t->hasOneUse())
    return nullptr;
  auto merge = dyn_cast<ReshapeOp>(*t->getUsers().begin());
  ArrayRef<int64_t> perm = t.getPerm();
  if (!merge || merge.getType() != in || perm[0] != 0 || perm[r - 2] != r - 2 ||
      perm[r - 1] != r - 1)
    return nullptr;
  SmallVector<AffineExpr> ie = extentsOf(in), se = extentsOf(st);
  if (se[0] != ie[0] || se[r - 2] != ie[2] || se[r - 1] != ie[3])
    return nullptr;
  SmallVector<AffineExpr> shape = {ie[0], ie[2], ie[3]};
  int64_t channels = 1;
  for (int64_t d = 1; d < r - 2; ++d) {
    auto f = dyn_cast<AffineConstantExpr>(se[d]);
    if (!f)
      return nullptr;
    channels *= f.getValue();
    shape.push_back(se[d]);
  }
  if (in.isDynamicDim(1) || channels != in.getDimSize(1))
    return nullptr;
  OpBuilder b(merge);
  Location loc = merge.getLoc();
  MLIRContext *ctx = b.getContext();
  Type et = in.getElementType();
  Value x = split.getInput().getDefiningOp<TransposeOp>().getInput();
  Value factors = ReshapeOp::create(b, loc, tensorTypeOf(ctx, shape, et), x);
  SmallVector<int64_t> movedPerm = {0, 1, 2};
  SmallVector<AffineExpr> movedShape = {ie[0], ie[2], ie[3]};
  for (int64_t d = 1; d < r - 2; ++d) {
    movedPerm.push_back(perm[d] + 2);
    movedShape.push_back(shape[perm[d] + 2]);
  }
  Value moved = TransposeOp::create(b, loc, tensorTypeOf(ctx, movedShape, et),
                                    factors, movedPerm);
  Value last =
      ReshapeOp::create(b, loc, permuted(in, kToLast), moved).getResult();
  TransposeOp view = replaceWithView(merge, last);
  t.erase();
  split.erase();
  return view;
}

struct ChannelsLastPass
    : public mlir::brrr::impl::BrrrChannelsLastBase<ChannelsLastPass> {
  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::ops)))
      return signalPassFailure();
    func::FuncOp func = getOperation();
    if (!targetOf(func).hasWgmma())
      return;
    SmallVector<Conv2DOp> convs;
    func.walk([&](Conv2DOp conv) {
      if (!conv->getParentOfType<FusionOp>() && wantsChannelsLast(conv))
        convs.push_back(conv);
    });
    // 8-bit convolutions are channels-last from the start
    // (brrr-quantized-products): their views travel as the others' do.
    bool anyLast = false;
    func.walk([&](Conv2DOp conv) { anyLast |= conv.getChannelsLast(); });
    if (convs.empty() && !anyLast)
      return;
    for (Conv2DOp conv : convs)
      toChannelsLast(conv);
    // The views' pointwise readers, until none moves.
    SmallVector<Operation *> work;
    DenseSet<Operation *> pending;
    auto pushReaders = [&](Value v) {
      for (Operation *user : v.getUsers())
        if ((isPointwise(user) ||
             isa<MaxPool2DOp, AvgPool2DOp, SliceOp, ConcatOp, ReshapeOp>(
                 user)) &&
            pending.insert(user).second)
          work.push_back(user);
    };
    func.walk([&](TransposeOp t) {
      if (isFirstView(t.getResult()))
        pushReaders(t.getResult());
    });
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      pending.erase(op);
      TransposeOp view;
      if (isPointwise(op))
        view = sinkIntoChannelsLast(op);
      else if (auto slice = dyn_cast<SliceOp>(op))
        view = sliceChannelsLast(slice);
      else if (auto concat = dyn_cast<ConcatOp>(op))
        view = concatChannelsLast(concat);
      else if (auto reshape = dyn_cast<ReshapeOp>(op))
        view = shuffleChannelsLast(reshape);
      else
        view = poolChannelsLast(op);
      if (view)
        pushReaders(view.getResult());
    }
    SmallVector<ReduceOp> reductions;
    func.walk([&](ReduceOp r) {
      if (!r->getParentOfType<FusionOp>() && isFirstView(r.getInput()))
        reductions.push_back(r);
    });
    for (ReduceOp r : reductions)
      if (Value v = reduceChannelsLast(r)) {
        r.replaceAllUsesWith(v);
        r.erase();
      }
    mergeLastCopies(func);
    // transpose(transpose(x)) composes (to x when the two cancel), weight
    // transposes fold, and views nobody reads go.
    RewritePatternSet patterns(&getContext());
    TransposeOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(func, std::move(patterns))))
      signalPassFailure();
    SmallVector<PadOp> pads;
    func.walk([&](PadOp pad) {
      if (!pad->getParentOfType<FusionOp>())
        pads.push_back(pad);
    });
    for (PadOp pad : pads)
      widenIntoPad(pad);
  }
};

} // namespace
