//===- BrrrShapeInference.cpp - result types of brrr ops ----------------===//
//
// InferTypeOpInterface for every brrr op that can compute its result type.
// The importer builds ops through these functions, so a malformed model is
// reported here as a located diagnostic rather than producing bad IR; the
// generated verifier re-runs them and rejects a mismatching result type.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Shorthand for the ranked tensor type of a value.
RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Checks that `axis` indexes a dimension of a rank-`rank` tensor.
LogicalResult checkAxis(std::optional<Location> loc, int64_t axis,
                        int64_t rank) {
  if (axis < 0 || axis >= rank)
    return emitOptionalError(loc, "axis ", axis,
                             " is out of range for a tensor of rank ", rank);
  return success();
}

/// Checks that an attribute array has `expected` entries.
LogicalResult checkSize(std::optional<Location> loc, StringRef name,
                        ArrayRef<int64_t> values, size_t expected) {
  if (values.size() != expected)
    return emitOptionalError(loc, "'", name, "' has ", values.size(),
                             " entries, expected ", expected);
  return success();
}

/// Checks that a windowed op's input (or weight) is symbolic in its batch
/// dimension (0) at most; the windows need static spatial extents.
LogicalResult checkBatchOnlySymbolic(std::optional<Location> loc,
                                     RankedTensorType t, StringRef what) {
  for (auto [i, d] : llvm::enumerate(t.getShape()))
    if (ShapedType::isDynamic(d) && (i != 0 || what != "input"))
      return emitOptionalError(loc, "the ", what, " ", t,
                               " is symbolic in dimension ", i,
                               "; only its batch dimension may be");
  return success();
}

/// `shape` (with `in`'s batch dimension 0 in place) as a tensor type whose
/// batch extent is `in`'s, symbolic or not.
RankedTensorType withBatchOf(RankedTensorType in, ArrayRef<int64_t> shape,
                             Type elementType) {
  if (!isSymbolic(in))
    return RankedTensorType::get(shape, elementType);
  SmallVector<AffineExpr> extents;
  for (int64_t d : shape)
    extents.push_back(getAffineConstantExpr(d, in.getContext()));
  extents[0] = extentsOf(in)[0];
  return tensorTypeOf(in.getContext(), extents, elementType);
}

} // namespace

FailureOr<SmallVector<int64_t>>
mlir::brrr::broadcastShapes(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t l = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t r = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (l != r && l != 1 && r != 1)
      return failure();
    out[i] = l == 1 ? r : l;
  }
  return out;
}

LogicalResult mlir::brrr::inferBroadcastResult(std::optional<Location> loc,
                                               Value lhs, Value rhs,
                                               Type resultElementType,
                                               SmallVectorImpl<Type> &types) {
  auto l = tensorType(lhs), r = tensorType(rhs);
  if (l.getElementType() != r.getElementType())
    return emitOptionalError(loc, "operand element types differ: ",
                             l.getElementType(), " vs ", r.getElementType());
  Type et = resultElementType ? resultElementType : l.getElementType();
  if (isSymbolic(l) || isSymbolic(r)) {
    auto extents = broadcastExtents(extentsOf(l), extentsOf(r));
    if (failed(extents))
      return emitOptionalError(loc, "operand shapes ", l, " and ", r,
                               " are not broadcast-compatible (a symbolic "
                               "extent broadcasts only against 1 or itself)");
    types.push_back(tensorTypeOf(l.getContext(), *extents, et));
    return success();
  }
  auto shape = broadcastShapes(l.getShape(), r.getShape());
  if (failed(shape))
    return emitOptionalError(loc, "operand shapes ", l, " and ", r,
                             " are not broadcast-compatible");
  types.push_back(RankedTensorType::get(*shape, et));
  return success();
}

std::optional<int64_t> mlir::brrr::windowExtent(int64_t kernel,
                                                int64_t dilation) {
  int64_t window;
  if (llvm::MulOverflow(dilation, kernel - 1, window) ||
      llvm::AddOverflow(window, int64_t(1), window))
    return std::nullopt;
  return window;
}

/// The span a window of `kernel` taps `dilation` apart can slide over
/// `size` padded by `padLo` and `padHi`: size + pads - window, or nullopt if
/// some step overflows int64 (hostile attributes, never a real model).
static std::optional<int64_t> windowSpan(int64_t size, int64_t padLo,
                                         int64_t padHi, int64_t kernel,
                                         int64_t dilation) {
  std::optional<int64_t> window = windowExtent(kernel, dilation);
  int64_t padded, span;
  if (!window || llvm::AddOverflow(size, padLo, padded) ||
      llvm::AddOverflow(padded, padHi, padded) ||
      llvm::SubOverflow(padded, *window, span))
    return std::nullopt;
  return span;
}

LogicalResult
mlir::brrr::inferPool2DResult(std::optional<Location> loc, Value input,
                              ArrayRef<int64_t> kernel,
                              ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                              ArrayRef<int64_t> dilations, bool ceilMode,
                              bool channelsLast, SmallVectorImpl<Type> &types) {
  auto in = tensorType(input);
  if (in.getRank() != 4)
    return emitOptionalError(
        loc, channelsLast ? "expected an NHWC input" : "expected an NCHW input",
        " of rank 4, got ", in);
  if (failed(checkBatchOnlySymbolic(loc, in, "input")))
    return failure();
  // The first spatial dimension.
  int64_t sd = channelsLast ? 1 : 2;
  if (failed(checkSize(loc, "kernel", kernel, 2)) ||
      failed(checkSize(loc, "strides", strides, 2)) ||
      failed(checkSize(loc, "pads", pads, 4)) ||
      failed(checkSize(loc, "dilations", dilations, 2)))
    return failure();
  SmallVector<int64_t> shape(in.getShape());
  for (int i = 0; i < 2; ++i) {
    if (kernel[i] < 1 || strides[i] < 1 || dilations[i] < 1)
      return emitOptionalError(loc, "kernel, strides and dilations must be "
                                    "positive");
    if (pads[i] < 0 || pads[i + 2] < 0)
      return emitOptionalError(loc, "pads must be non-negative");
    std::optional<int64_t> span = windowSpan(
        in.getDimSize(sd + i), pads[i], pads[i + 2], kernel[i], dilations[i]);
    if (!span)
      return emitOptionalError(loc, "window or pads of dimension ", sd + i,
                               " overflow a 64-bit integer");
    if (*span < 0)
      return emitOptionalError(loc, "window of ",
                               dilations[i] * (kernel[i] - 1) + 1,
                               " does not fit padded dimension ", sd + i);
    int64_t out =
        (ceilMode ? llvm::divideCeil(*span, strides[i]) : *span / strides[i]) +
        1;
    // ONNX: with ceil_mode, a window starting inside the right padding is
    // dropped (size + the left pad fits: the span's sum did).
    int64_t lastStart;
    if (ceilMode && (llvm::MulOverflow(out - 1, strides[i], lastStart) ||
                     lastStart >= in.getDimSize(sd + i) + pads[i]))
      --out;
    shape[sd + i] = out;
  }
  types.push_back(withBatchOf(in, shape, in.getElementType()));
  return success();
}

LogicalResult CompareOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferBroadcastResult(loc, adaptor.getLhs(), adaptor.getRhs(),
                              IntegerType::get(context, 1), types);
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto c = tensorType(adaptor.getCondition());
  auto l = tensorType(adaptor.getLhs()), r = tensorType(adaptor.getRhs());
  if (l.getElementType() != r.getElementType())
    return emitOptionalError(loc, "branch element types differ: ",
                             l.getElementType(), " vs ", r.getElementType());
  if (isSymbolic(c) || isSymbolic(l) || isSymbolic(r)) {
    auto extents = broadcastExtents(extentsOf(l), extentsOf(r));
    if (succeeded(extents))
      extents = broadcastExtents(*extents, extentsOf(c));
    if (failed(extents))
      return emitOptionalError(loc, "operand shapes ", c, ", ", l, " and ", r,
                               " are not broadcast-compatible (a symbolic "
                               "extent broadcasts only against 1 or itself)");
    types.push_back(tensorTypeOf(l.getContext(), *extents, l.getElementType()));
    return success();
  }
  auto shape = broadcastShapes(l.getShape(), r.getShape());
  if (succeeded(shape))
    shape = broadcastShapes(*shape, c.getShape());
  if (failed(shape))
    return emitOptionalError(loc, "operand shapes ", c, ", ", l, " and ", r,
                             " are not broadcast-compatible");
  types.push_back(RankedTensorType::get(*shape, l.getElementType()));
  return success();
}

/// The result type of a quantize or dequantize of `input` by `scale` and
/// `zeroPoint`: `input`'s shape with `elementType`, if the parameters
/// broadcast to that shape and `scale` is a float type fitting `input`.
static LogicalResult inferQuantizationResult(std::optional<Location> loc,
                                             Value input, Value scale,
                                             Value zeroPoint, Type elementType,
                                             SmallVectorImpl<Type> &types) {
  auto x = tensorType(input), s = tensorType(scale), z = tensorType(zeroPoint);
  if (isSymbolic(x)) {
    // Over symbolic extents: the (static) parameters broadcast to them.
    SmallVector<AffineExpr> extents = extentsOf(x);
    for (RankedTensorType p : {s, z}) {
      auto shape = broadcastExtents(extents, extentsOf(p));
      if (failed(shape) || *shape != extents)
        return emitOptionalError(loc, "parameter ", p,
                                 " does not broadcast to the quantized tensor ",
                                 x);
    }
    types.push_back(tensorTypeOf(x.getContext(), extents, elementType));
    return success();
  }
  for (RankedTensorType p : {s, z}) {
    auto shape = broadcastShapes(x.getShape(), p.getShape());
    if (failed(shape) || ArrayRef<int64_t>(*shape) != x.getShape())
      return emitOptionalError(loc, "parameter ", p,
                               " does not broadcast to the quantized tensor ",
                               x);
  }
  types.push_back(RankedTensorType::get(x.getShape(), elementType));
  return success();
}

LogicalResult QuantizeOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  Type xt = tensorType(adaptor.getInput()).getElementType();
  if (tensorType(adaptor.getScale()).getElementType() != xt)
    return emitOptionalError(loc, "scale element type ",
                             tensorType(adaptor.getScale()).getElementType(),
                             " differs from the input's ", xt);
  return inferQuantizationResult(
      loc, adaptor.getInput(), adaptor.getScale(), adaptor.getZeroPoint(),
      tensorType(adaptor.getZeroPoint()).getElementType(), types);
}

LogicalResult DequantizeOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  Type xt = tensorType(adaptor.getInput()).getElementType();
  Type zt = tensorType(adaptor.getZeroPoint()).getElementType();
  if (zt != xt)
    return emitOptionalError(loc, "zero point element type ", zt,
                             " differs from the input's ", xt);
  return inferQuantizationResult(
      loc, adaptor.getInput(), adaptor.getScale(), adaptor.getZeroPoint(),
      tensorType(adaptor.getScale()).getElementType(), types);
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto l = tensorType(adaptor.getLhs()), r = tensorType(adaptor.getRhs());
  if (l.getElementType() != r.getElementType())
    return emitOptionalError(loc, "operand element types differ: ",
                             l.getElementType(), " vs ", r.getElementType());
  if (l.getRank() < 2 || r.getRank() < 2)
    return emitOptionalError(loc, "operands must have rank >= 2, got ", l,
                             " and ", r);
  // 8-bit operands (brrr-quantized-products) yield their f32 sums.
  Type et = l.getElementType();
  if (isEightBitProductType(et))
    et = Float32Type::get(et.getContext());
  if (isSymbolic(l) || isSymbolic(r)) {
    SmallVector<AffineExpr> le = extentsOf(l), re = extentsOf(r);
    if (le.back() != re[re.size() - 2])
      return emitOptionalError(loc, "contraction sizes differ: ", l, " and ",
                               r);
    auto batch =
        broadcastExtents(ArrayRef(le).drop_back(2), ArrayRef(re).drop_back(2));
    if (failed(batch))
      return emitOptionalError(loc, "batch dimensions of ", l, " and ", r,
                               " are not broadcast-compatible");
    batch->push_back(le[le.size() - 2]);
    batch->push_back(re.back());
    types.push_back(tensorTypeOf(l.getContext(), *batch, et));
    return success();
  }
  int64_t k = l.getDimSize(l.getRank() - 1);
  if (k != r.getDimSize(r.getRank() - 2))
    return emitOptionalError(loc, "contraction sizes differ: ", l, " and ", r);
  auto batch =
      broadcastShapes(l.getShape().drop_back(2), r.getShape().drop_back(2));
  if (failed(batch))
    return emitOptionalError(loc, "batch dimensions of ", l, " and ", r,
                             " are not broadcast-compatible");
  batch->push_back(l.getDimSize(l.getRank() - 2));
  batch->push_back(r.getDimSize(r.getRank() - 1));
  types.push_back(RankedTensorType::get(*batch, et));
  return success();
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput()), w = tensorType(adaptor.getWeight());
  if (in.getRank() != 4 || w.getRank() != 4)
    return emitOptionalError(
        loc,
        adaptor.getChannelsLast()
            ? "expected rank-4 NHWC input and KH x KW x O x I weight, got "
            : "expected rank-4 NCHW input and OIHW weight, got ",
        in, " and ", w);
  if (in.getElementType() != w.getElementType())
    return emitOptionalError(loc, "input and weight element types differ");
  // 8-bit operands (brrr-quantized-products) yield their f32 sums, laid out
  // for the Tensor Core body.
  Type et = in.getElementType();
  bool eightBit = isEightBitProductType(et);
  if (!eightBit && !isa<FloatType>(et))
    return emitOptionalError(loc, "operands must be floats or 8-bit, got ", et);
  if (eightBit && (!adaptor.getChannelsLast() || adaptor.getBias()))
    return emitOptionalError(loc, "an 8-bit convolution is channels-last, "
                                  "without a bias");
  if (eightBit)
    et = Float32Type::get(et.getContext());
  if (failed(checkBatchOnlySymbolic(loc, in, "input")) ||
      failed(checkBatchOnlySymbolic(loc, w, "weight")))
    return failure();
  if (failed(checkSize(loc, "strides", adaptor.getStrides(), 2)) ||
      failed(checkSize(loc, "pads", adaptor.getPads(), 4)) ||
      failed(checkSize(loc, "dilations", adaptor.getDilations(), 2)))
    return failure();
  // Dimension positions: NCHW / OIHW, or NHWC / (KH, KW, O, I).
  bool last = adaptor.getChannelsLast();
  int64_t cDim = last ? 3 : 1, sDim = last ? 1 : 2;
  int64_t woDim = last ? 2 : 0, wiDim = last ? 3 : 1, wkDim = last ? 0 : 2;
  int64_t groups = adaptor.getGroups();
  int64_t c = in.getDimSize(cDim), o = w.getDimSize(woDim);
  if (groups < 1 || c % groups != 0 || o % groups != 0)
    return emitOptionalError(loc, "groups = ", groups,
                             " must divide input channels ", c,
                             " and output channels ", o);
  if (w.getDimSize(wiDim) * groups != c)
    return emitOptionalError(loc, "weight expects ",
                             w.getDimSize(wiDim) * groups,
                             " input channels, input has ", c);
  if (Value bias = adaptor.getBias()) {
    auto b = tensorType(bias);
    if (b.getRank() != 1 || b.getDimSize(0) != o ||
        b.getElementType() != in.getElementType())
      return emitOptionalError(loc, "bias must be a vector of ", o, " ",
                               in.getElementType(), ", got ", b);
  }
  SmallVector<int64_t> shape = {in.getDimSize(0), 0, 0, 0};
  shape[cDim] = o;
  for (int i = 0; i < 2; ++i) {
    int64_t stride = adaptor.getStrides()[i];
    int64_t dilation = adaptor.getDilations()[i];
    if (stride < 1 || dilation < 1)
      return emitOptionalError(loc, "strides and dilations must be positive");
    if (adaptor.getPads()[i] < 0 || adaptor.getPads()[i + 2] < 0)
      return emitOptionalError(loc, "pads must be non-negative");
    std::optional<int64_t> span =
        windowSpan(in.getDimSize(sDim + i), adaptor.getPads()[i],
                   adaptor.getPads()[i + 2], w.getDimSize(wkDim + i), dilation);
    if (!span)
      return emitOptionalError(loc, "window or pads of dimension ", sDim + i,
                               " overflow a 64-bit integer");
    if (*span < 0)
      return emitOptionalError(loc, "kernel window of ",
                               dilation * (w.getDimSize(wkDim + i) - 1) + 1,
                               " does not fit padded dimension ", sDim + i);
    shape[sDim + i] = *span / stride + 1;
  }
  types.push_back(withBatchOf(in, shape, et));
  return success();
}

LogicalResult BatchNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  if (in.getRank() < 2)
    return emitOptionalError(loc, "input must have rank >= 2, got ", in);
  for (Value p : {adaptor.getScale(), adaptor.getBias(), adaptor.getMean(),
                  adaptor.getVariance()}) {
    auto t = tensorType(p);
    if (t.getRank() != 1 || t.getDimSize(0) != in.getDimSize(1) ||
        t.getElementType() != in.getElementType())
      return emitOptionalError(loc,
                               "per-channel parameters must be vectors "
                               "of ",
                               in.getDimSize(1), " ", in.getElementType(),
                               ", got ", t);
  }
  types.push_back(in);
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  int64_t axis = adaptor.getAxis();
  if (failed(checkAxis(loc, axis, in.getRank())))
    return failure();
  ArrayRef<int64_t> normalized = in.getShape().drop_front(axis);
  SmallVector<Value> params = {adaptor.getScale()};
  if (adaptor.getBias())
    params.push_back(adaptor.getBias());
  for (Value p : params) {
    auto t = tensorType(p);
    if (t.getShape() != normalized || t.getElementType() != in.getElementType())
      return emitOptionalError(loc,
                               "scale and bias must have the normalized "
                               "shape and element type of ",
                               in, " from axis ", axis, ", got ", t);
  }
  types.push_back(in);
  return success();
}

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (failed(checkAxis(loc, axis, in.getRank())))
      return failure();
    if (i > 0 && axes[i - 1] >= axis)
      return emitOptionalError(loc, "axes must be sorted and unique");
  }
  SmallVector<AffineExpr> inExtents = extentsOf(in), extents;
  for (int64_t d = 0; d < in.getRank(); ++d) {
    if (!llvm::is_contained(axes, d))
      extents.push_back(inExtents[d]);
    else if (adaptor.getKeepdims())
      extents.push_back(getAffineConstantExpr(1, in.getContext()));
  }
  types.push_back(tensorTypeOf(in.getContext(), extents, in.getElementType()));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  if (adaptor.getInputs().empty())
    return emitOptionalError(loc, "expected at least one operand");
  auto first = tensorType(adaptor.getInputs().front());
  int64_t axis = adaptor.getAxis();
  if (failed(checkAxis(loc, axis, first.getRank())))
    return failure();
  // Extents, constant or symbolic: the other dimensions agree, the axis
  // sums.
  SmallVector<AffineExpr> extents = extentsOf(first);
  extents[axis] = getAffineConstantExpr(0, first.getContext());
  for (Value v : adaptor.getInputs()) {
    auto t = tensorType(v);
    if (t.getRank() != first.getRank() ||
        t.getElementType() != first.getElementType())
      return emitOptionalError(loc,
                               "operands must share rank and element "
                               "type: ",
                               first, " vs ", t);
    SmallVector<AffineExpr> e = extentsOf(t);
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (d != axis && e[d] != extents[d])
        return emitOptionalError(loc, "operand shapes ", first, " and ", t,
                                 " differ outside axis ", axis);
    extents[axis] = extents[axis] + e[axis];
  }
  types.push_back(
      tensorTypeOf(first.getContext(), extents, first.getElementType()));
  return success();
}

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  // ODS's Brrr_Tensor result constraint rejects non-static value types.
  types.push_back(adaptor.getValue().getType());
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  auto idx = tensorType(adaptor.getIndices());
  int64_t axis = adaptor.getAxis();
  if (failed(checkAxis(loc, axis, in.getRank())))
    return failure();
  SmallVector<AffineExpr> inExtents = extentsOf(in),
                          idxExtents = extentsOf(idx);
  SmallVector<AffineExpr> extents(
      ArrayRef<AffineExpr>(inExtents).take_front(axis));
  llvm::append_range(extents, idxExtents);
  llvm::append_range(extents, ArrayRef(inExtents).drop_front(axis + 1));
  types.push_back(tensorTypeOf(in.getContext(), extents, in.getElementType()));
  return success();
}

namespace {

/// Checks that an index tensor of the input's rank fits inside the input
/// outside `axis` (GatherElements, ScatterElements).
LogicalResult checkAlongAxis(std::optional<Location> loc, RankedTensorType in,
                             RankedTensorType idx, int64_t axis) {
  if (failed(checkAxis(loc, axis, in.getRank())))
    return failure();
  if (idx.getRank() != in.getRank())
    return emitOptionalError(loc, "indices have rank ", idx.getRank(),
                             " but the input has rank ", in.getRank());
  // Symbolic extents are checked against their ranges by the verifier.
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (d != axis && !in.isDynamicDim(d) && !idx.isDynamicDim(d) &&
        idx.getDimSize(d) > in.getDimSize(d))
      return emitOptionalError(loc, "indices dimension ", d, " of size ",
                               idx.getDimSize(d), " exceeds the input's ",
                               in.getDimSize(d));
  return success();
}

/// The tuple length of GatherND/ScatterND indices, checked against the
/// input's rank after `batch` leading batch dimensions.
FailureOr<int64_t> tupleLength(std::optional<Location> loc, RankedTensorType in,
                               RankedTensorType idx, int64_t batch) {
  if (idx.getRank() < 1)
    return emitOptionalError(loc, "indices must have rank >= 1");
  if (idx.isDynamicDim(idx.getRank() - 1))
    return emitOptionalError(loc, "index tuples must have a fixed length");
  int64_t k = idx.getShape().back();
  if (batch < 0 || batch >= std::min(in.getRank(), idx.getRank()))
    return emitOptionalError(loc, "batch_dims ", batch,
                             " must be below both ranks (", in.getRank(), ", ",
                             idx.getRank(), ")");
  if (k < 1 || k > in.getRank() - batch)
    return emitOptionalError(loc, "index tuples of length ", k,
                             " do not fit an input of rank ", in.getRank(),
                             " with ", batch, " batch dimensions");
  SmallVector<AffineExpr> ie = extentsOf(in), xe = extentsOf(idx);
  for (int64_t d = 0; d < batch; ++d)
    if (xe[d] != ie[d])
      return emitOptionalError(loc, "batch dimension ", d,
                               " differs: ", extentName(xe[d], {}), " vs ",
                               extentName(ie[d], {}));
  return k;
}

} // namespace

LogicalResult GatherElementsOp::inferReturnTypes(MLIRContext *,
                                                 std::optional<Location> loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  auto idx = tensorType(adaptor.getIndices());
  if (failed(checkAlongAxis(loc, in, idx, adaptor.getAxis())))
    return failure();
  types.push_back(idx.clone(in.getElementType()));
  return success();
}

LogicalResult GatherNDOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  auto idx = tensorType(adaptor.getIndices());
  int64_t batch = adaptor.getBatchDims();
  FailureOr<int64_t> k = tupleLength(loc, in, idx, batch);
  if (failed(k))
    return failure();
  SmallVector<AffineExpr> ie = extentsOf(in), xe = extentsOf(idx);
  SmallVector<AffineExpr> extents(ArrayRef<AffineExpr>(xe).drop_back());
  llvm::append_range(extents, ArrayRef(ie).drop_front(batch + *k));
  types.push_back(tensorTypeOf(in.getContext(), extents, in.getElementType()));
  return success();
}

LogicalResult
ScatterElementsOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                    Adaptor adaptor,
                                    SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  auto idx = tensorType(adaptor.getIndices());
  auto upd = tensorType(adaptor.getUpdates());
  if (failed(checkAlongAxis(loc, in, idx, adaptor.getAxis())))
    return failure();
  if (upd.getShape() != idx.getShape() ||
      upd.getElementType() != in.getElementType())
    return emitOptionalError(loc, "updates ", upd,
                             " must have the indices' shape and the input's "
                             "element type");
  types.push_back(in);
  return success();
}

LogicalResult ScatterNDOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  auto idx = tensorType(adaptor.getIndices());
  auto upd = tensorType(adaptor.getUpdates());
  FailureOr<int64_t> k = tupleLength(loc, in, idx, 0);
  if (failed(k))
    return failure();
  SmallVector<int64_t> shape(idx.getShape().drop_back());
  llvm::append_range(shape, in.getShape().drop_front(*k));
  if (upd.getShape() != ArrayRef<int64_t>(shape) ||
      upd.getElementType() != in.getElementType())
    return emitOptionalError(loc, "updates ", upd, " must be ",
                             RankedTensorType::get(shape, in.getElementType()));
  types.push_back(in);
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  size_t rank = in.getRank();
  if (failed(checkSize(loc, "low", adaptor.getLow(), rank)) ||
      failed(checkSize(loc, "high", adaptor.getHigh(), rank)))
    return failure();
  SmallVector<AffineExpr> inExtents = extentsOf(in);
  SmallVector<int64_t> shape;
  for (size_t d = 0; d < rank; ++d) {
    int64_t lo = adaptor.getLow()[d], hi = adaptor.getHigh()[d];
    // A symbolic dimension passes through unpadded.
    if (in.isDynamicDim(d)) {
      if (lo || hi)
        return emitOptionalError(loc, "dimension ", d,
                                 " is symbolic and cannot be padded");
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t size;
    if (llvm::AddOverflow(in.getDimSize(d), lo, size) ||
        llvm::AddOverflow(size, hi, size))
      return emitOptionalError(loc, "padding dimension ", d, " by (", lo, ", ",
                               hi, ") overflows a 64-bit size");
    if (size < 0)
      return emitOptionalError(loc, "padding dimension ", d, " by (", lo, ", ",
                               hi, ") leaves a negative size");
    if (adaptor.getMode() == PadMode::reflect &&
        (lo >= in.getDimSize(d) || hi >= in.getDimSize(d)) && (lo || hi))
      return emitOptionalError(loc, "reflect padding of dimension ", d,
                               " must be smaller than its size ",
                               in.getDimSize(d));
    if (adaptor.getMode() == PadMode::edge && in.getDimSize(d) == 0 &&
        (lo > 0 || hi > 0))
      return emitOptionalError(loc, "edge padding of empty dimension ", d);
    shape.push_back(size);
  }
  types.push_back(shapedLike(in, shape, in.getElementType()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  size_t rank = in.getRank();
  if (failed(checkSize(loc, "starts", adaptor.getStarts(), rank)) ||
      failed(checkSize(loc, "sizes", adaptor.getSizes(), rank)) ||
      failed(checkSize(loc, "steps", adaptor.getSteps(), rank)))
    return failure();
  ExtentsAttr symbolic = adaptor.getExtentsAttr();
  if (symbolic && symbolic.getMap().getNumResults() != rank)
    return emitOptionalError(loc, "'extents' needs one extent per dimension");
  for (size_t d = 0; d < rank; ++d) {
    int64_t start = adaptor.getStarts()[d], size = adaptor.getSizes()[d],
            step = adaptor.getSteps()[d], dim = in.getDimSize(d);
    if (step == 0)
      return emitOptionalError(loc, "step of dimension ", d, " is zero");
    if (symbolic) {
      auto c = dyn_cast<AffineConstantExpr>(symbolic.getMap().getResult(d));
      if (c ? c.getValue() != size : !ShapedType::isDynamic(size))
        return emitOptionalError(loc, "size ", size, " of dimension ", d,
                                 " disagrees with its extent");
    } else if (ShapedType::isDynamic(size)) {
      return emitOptionalError(loc, "dimension ", d,
                               " has a symbolic size without 'extents'");
    }
    // Symbolic sizes and inputs: the verifier checks their ranges.
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(dim))
      continue;
    if (size < 0)
      return emitOptionalError(loc, "size of dimension ", d, " is negative");
    if (size == 0)
      continue;
    int64_t last = start + (size - 1) * step;
    if (start < 0 || start >= dim || last < 0 || last >= dim)
      return emitOptionalError(loc, "slice of dimension ", d, " reads [", start,
                               ", ", last, "] outside [0, ", dim, ")");
  }
  if (symbolic) {
    types.push_back(tensorTypeOf(context, symbolic.getMap().getResults(),
                                 in.getElementType()));
    return success();
  }
  types.push_back(
      RankedTensorType::get(adaptor.getSizes(), in.getElementType()));
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto in = tensorType(adaptor.getInput());
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if (failed(checkSize(loc, "perm", perm, in.getRank())))
    return failure();
  SmallVector<bool> seen(perm.size(), false);
  SmallVector<AffineExpr> inExtents = extentsOf(in), extents;
  for (int64_t p : perm) {
    if (p < 0 || p >= in.getRank() || seen[p])
      return emitOptionalError(loc, "perm is not a permutation of [0, ",
                               in.getRank(), ")");
    seen[p] = true;
    extents.push_back(inExtents[p]);
  }
  types.push_back(tensorTypeOf(in.getContext(), extents, in.getElementType()));
  return success();
}
