//===- ImportNN.cpp - neural-network ONNX ops -> brrr -------------------===//
//
// MatMul and Gemm, Conv and pooling (2-D, with 1-D lifted to 2-D), batch and
// layer normalization, Softmax/LogSoftmax. ONNX defaults and auto_pad are
// resolved here so the brrr ops carry explicit, normalized attributes.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

/// ONNX MatMul: numpy semantics including rank-1 operands, which are
/// promoted to matrices and the added dimension removed afterwards.
FailureOr<Value> matmul(NodeImporter &n, Value a, Value b) {
  auto at = cast<RankedTensorType>(a.getType());
  auto bt = cast<RankedTensorType>(b.getType());
  if (at.getRank() == 0 || bt.getRank() == 0)
    return n.emitError() << "MatMul operands must have rank >= 1";
  bool vecA = at.getRank() == 1, vecB = bt.getRank() == 1;
  if (vecA) {
    auto r = n.reshape(a, {1, at.getDimSize(0)});
    if (failed(r))
      return failure();
    a = *r;
  }
  if (vecB) {
    auto r = n.reshape(b, {bt.getDimSize(0), 1});
    if (failed(r))
      return failure();
    b = *r;
  }
  auto c = n.create<MatmulOp>(a, b);
  if (failed(c) || (!vecA && !vecB))
    return c;
  SmallVector<int64_t> shape(cast<RankedTensorType>(c->getType()).getShape());
  if (vecB)
    shape.pop_back();
  if (vecA)
    shape.erase(shape.end() - (vecB ? 1 : 2));
  return n.reshape(*c, shape);
}

LogicalResult importMatMul(NodeImporter &n) {
  auto a = n.requiredInput(0), b = n.requiredInput(1);
  if (failed(a) || failed(b))
    return failure();
  auto c = matmul(n, *a, *b);
  if (failed(c))
    return failure();
  n.setOutput(0, *c);
  return success();
}

/// Gemm: alpha * op(A) @ op(B) + beta * C, with op = optional transpose.
LogicalResult importGemm(NodeImporter &n) {
  auto a = n.requiredInput(0), b = n.requiredInput(1);
  if (failed(a) || failed(b))
    return failure();
  if (n.inputType(0).getRank() != 2 || n.inputType(1).getRank() != 2)
    return n.emitError() << "Gemm operands must be matrices";
  if (n.attrInt("transA", 0)) {
    a = n.create<TransposeOp>(*a, ArrayRef<int64_t>{1, 0});
    if (failed(a))
      return failure();
  }
  if (n.attrInt("transB", 0)) {
    b = n.create<TransposeOp>(*b, ArrayRef<int64_t>{1, 0});
    if (failed(b))
      return failure();
  }
  auto y = n.create<MatmulOp>(*a, *b);
  if (failed(y))
    return failure();
  Type et = n.inputType(0).getElementType();
  double alpha = n.attrFloat("alpha", 1.0), beta = n.attrFloat("beta", 1.0);
  if (alpha != 1.0) {
    y = n.create<MulOp>(*y, n.scalar(et, alpha));
    if (failed(y))
      return failure();
  }
  if (n.hasInput(2) && beta != 0.0) {
    Value c = n.input(2);
    if (beta != 1.0) {
      auto scaled = n.create<MulOp>(c, n.scalar(et, beta));
      if (failed(scaled))
        return failure();
      c = *scaled;
    }
    y = n.create<AddOp>(*y, c);
    if (failed(y))
      return failure();
  }
  n.setOutput(0, *y);
  return success();
}

/// Spatial parameters of Conv and pooling for a rank-4 (NCHW) input:
/// kernel, strides, dilations and [top, left, bottom, right] pads with
/// auto_pad resolved.
struct Window {
  SmallVector<int64_t> kernel, strides, dilations, pads;
};

/// A per-spatial-dimension attribute (strides, dilations, ...) for the
/// 2-D form: `dflt` in both when absent; a 1-D op lifted to 2-D gets
/// `lifted` in the added H dimension.
FailureOr<SmallVector<int64_t>> spatialAttr(NodeImporter &n, StringRef name,
                                            int64_t dflt, bool lifted1D,
                                            int64_t lifted = 1) {
  auto v = n.attrInts(name);
  if (!v || v->empty())
    return SmallVector<int64_t>(2, dflt);
  if (lifted1D && v->size() == 1)
    return SmallVector<int64_t>{lifted, v->front()};
  if (lifted1D || v->size() != 2)
    return n.emitError() << "'" << name << "' has " << v->size()
                         << " entries; only 1-D and 2-D are supported";
  return *v;
}

FailureOr<Window> resolveWindow(NodeImporter &n, ArrayRef<int64_t> inHW,
                                ArrayRef<int64_t> kernel, bool lifted1D) {
  auto spatial = [&](StringRef name, int64_t dflt) {
    return spatialAttr(n, name, dflt, lifted1D);
  };
  Window w;
  w.kernel.assign(kernel.begin(), kernel.end());
  auto strides = spatial("strides", 1), dilations = spatial("dilations", 1);
  if (failed(strides) || failed(dilations))
    return failure();
  w.strides = *strides;
  w.dilations = *dilations;
  for (int i = 0; i < 2; ++i)
    if (w.kernel[i] < 1 || w.strides[i] < 1 || w.dilations[i] < 1)
      return n.emitError() << "kernel " << w.kernel[i] << ", stride "
                           << w.strides[i] << " and dilation " << w.dilations[i]
                           << " of spatial dim " << i << " must be positive";
  std::string autoPad = n.attrString("auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    auto pads = n.attrInts("pads");
    if (!pads || pads->empty())
      w.pads = {0, 0, 0, 0};
    else if (lifted1D && pads->size() == 2)
      w.pads = {0, (*pads)[0], 0, (*pads)[1]};
    else if (!lifted1D && pads->size() == 4)
      w.pads = *pads;
    else
      return n.emitError() << "'pads' has " << pads->size() << " entries";
  } else if (autoPad == "VALID") {
    w.pads = {0, 0, 0, 0};
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    w.pads.assign(4, 0);
    for (int i = 0; i < 2; ++i) {
      // total = (ceil(in / stride) - 1) * stride + window - in, checked:
      // the window of a hostile kernel or dilation overflows.
      int64_t out = inHW[i] / w.strides[i] + (inHW[i] % w.strides[i] != 0);
      std::optional<int64_t> window = windowExtent(w.kernel[i], w.dilations[i]);
      int64_t total;
      if (!window || llvm::MulOverflow(out - 1, w.strides[i], total) ||
          llvm::AddOverflow(total, *window, total))
        return n.emitError() << "the window of spatial dim " << i
                             << " overflows a 64-bit integer";
      total = std::max<int64_t>(0, total - inHW[i]);
      int64_t small = total / 2, big = total - small;
      w.pads[i] = autoPad == "SAME_UPPER" ? small : big;
      w.pads[i + 2] = autoPad == "SAME_UPPER" ? big : small;
    }
  } else {
    return n.emitError() << "unknown auto_pad '" << autoPad << "'";
  }
  return w;
}

/// Lifts a rank-3 (N, C, L) value to (N, C, 1, L) for the 2-D ops.
FailureOr<Value> liftTo2D(NodeImporter &n, Value v) {
  SmallVector<AffineExpr> e = extentsOf(cast<RankedTensorType>(v.getType()));
  return n.reshapeTo(
      v, {e[0], e[1], getAffineConstantExpr(1, n.getContext()), e[2]});
}

/// Undoes liftTo2D on a result.
FailureOr<Value> lowerFrom2D(NodeImporter &n, Value v) {
  SmallVector<AffineExpr> e = extentsOf(cast<RankedTensorType>(v.getType()));
  return n.reshapeTo(v, {e[0], e[1], e[3]});
}

/// Sets output 0 to `y`, dropping the H dimension a 1-D op was lifted with.
LogicalResult setSpatialOutput(NodeImporter &n, FailureOr<Value> y,
                               bool lifted) {
  if (succeeded(y) && lifted)
    y = lowerFrom2D(n, *y);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// The input and weights (inputs 0 and 1) of a 1-D or 2-D convolution or
/// transposed convolution (`what`, for the rank error), a 1-D op's lifted
/// to 2-D, once kernel_shape (if given) agrees with the weights.
struct ConvOperands {
  Value x, w;
  bool lifted = false;
  RankedTensorType xType() const { return cast<RankedTensorType>(x.getType()); }
  RankedTensorType wType() const { return cast<RankedTensorType>(w.getType()); }
};
FailureOr<ConvOperands> convOperands(NodeImporter &n, StringRef what) {
  auto x = n.requiredInput(0), w = n.requiredInput(1);
  if (failed(x) || failed(w))
    return failure();
  if (failed(n.requireStaticBeyondBatch(0, what)) ||
      failed(n.requireStaticBeyondBatch(1, what)))
    return failure();
  int64_t rank = n.inputType(0).getRank();
  if (rank != 3 && rank != 4)
    return n.emitError() << "only 1-D and 2-D " << what
                         << " are supported (input rank " << rank << ")";
  if (n.inputType(1).getRank() != rank)
    return n.emitError() << "weight rank " << n.inputType(1).getRank()
                         << " differs from input rank " << rank;
  ConvOperands c{*x, *w, rank == 3};
  if (c.lifted) {
    x = liftTo2D(n, c.x);
    w = liftTo2D(n, c.w);
    if (failed(x) || failed(w))
      return failure();
    c.x = *x;
    c.w = *w;
  }
  if (auto ks = n.attrInts("kernel_shape");
      ks && !ks->empty() &&
      ArrayRef<int64_t>(*ks) !=
          c.wType().getShape().drop_front(2 + (c.lifted ? 1 : 0)))
    return n.emitError() << "kernel_shape disagrees with the weight shape";
  return c;
}

LogicalResult importConv(NodeImporter &n) {
  auto c = convOperands(n, "convolutions");
  if (failed(c))
    return failure();
  auto win = resolveWindow(n, c->xType().getShape().drop_front(2),
                           c->wType().getShape().drop_front(2), c->lifted);
  if (failed(win))
    return failure();
  auto y = n.create<Conv2DOp>(c->x, c->w, n.input(2), win->strides, win->pads,
                              win->dilations,
                              static_cast<uint64_t>(n.attrInt("group", 1)));
  return setSpatialOutput(n, y, c->lifted);
}

/// ConvTranspose as a convolution: the input with stride - 1 zeros between
/// its pixels (a reshape, a pad of the dimensions it adds, a reshape back),
/// padded by dilation * (kernel - 1) - pad on each side (a negative amount
/// crops) plus output_padding after, convolved at stride 1 by the weights
/// with each group's input and output channels swapped and the window
/// flipped. Pads come from `pads`, or from `output_shape` (or auto_pad's
/// input x stride) split as the operator specifies. The batch may be
/// symbolic.
LogicalResult importConvTranspose(NodeImporter &n) {
  auto c = convOperands(n, "transposed convolutions");
  if (failed(c))
    return failure();
  Value x = c->x, w = c->w;
  bool lifted = c->lifted;
  int64_t rank = n.inputType(0).getRank();
  RankedTensorType xt = c->xType(), wt = c->wType();
  // The batch, a constant or a symbolic extent (convOperands keeps the
  // other dimensions static): the reshapes that spread the pixels keep it.
  AffineExpr N = extentsOf(xt)[0];
  int64_t C = xt.getDimSize(1);
  auto k = [&](int64_t v) { return getAffineConstantExpr(v, n.getContext()); };
  int64_t group = n.attrInt("group", 1);
  if (group < 1 || C % group || wt.getDimSize(0) != C)
    return n.emitError() << "group " << group << " must divide the " << C
                         << " input channels, which the weight's first "
                            "dimension ("
                         << wt.getDimSize(0) << ") must equal";
  int64_t perGroupOut = wt.getDimSize(1), perGroupIn = C / group;
  SmallVector<int64_t> kernel(wt.getShape().drop_front(2));
  auto strides = spatialAttr(n, "strides", 1, lifted);
  auto dilations = spatialAttr(n, "dilations", 1, lifted);
  auto outPadding = spatialAttr(n, "output_padding", 0, lifted, 0);
  if (failed(strides) || failed(dilations) || failed(outPadding))
    return failure();
  SmallVector<int64_t> in(xt.getShape().drop_front(2)), reach(2);
  for (int i = 0; i < 2; ++i) {
    int64_t s = (*strides)[i], d = (*dilations)[i], op = (*outPadding)[i];
    if (kernel[i] < 1 || s < 1 || d < 1)
      return n.emitError() << "kernel " << kernel[i] << ", stride " << s
                           << " and dilation " << d << " of spatial dim " << i
                           << " must be positive";
    if (op < 0 || op >= std::max(s, d))
      return n.emitError() << "output_padding " << op << " of spatial dim " << i
                           << " must lie in [0, max(stride, dilation))";
    if (llvm::MulOverflow(kernel[i] - 1, d, reach[i]))
      return n.emitError() << "the window of spatial dim " << i
                           << " overflows a 64-bit integer";
    if (in[i] < 1)
      return n.emitError() << "spatial dim " << i << " of the input is empty";
  }
  // [top, left, bottom, right] of the transposed convolution.
  SmallVector<int64_t> pads(4, 0);
  std::string autoPad = n.attrString("auto_pad", "NOTSET");
  auto outputShape = n.attrInts("output_shape");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return n.emitError() << "unknown auto_pad '" << autoPad << "'";
  if ((outputShape && !outputShape->empty()) || autoPad == "SAME_UPPER" ||
      autoPad == "SAME_LOWER") {
    SmallVector<int64_t> out(2);
    if (outputShape && !outputShape->empty()) {
      // Spatial sizes, or the whole output's shape.
      ArrayRef<int64_t> o(*outputShape);
      if (o.size() == static_cast<size_t>(rank))
        o = o.drop_front(2);
      if (o.size() != static_cast<size_t>(rank - 2))
        return n.emitError()
               << "'output_shape' has " << outputShape->size() << " entries";
      out = lifted ? SmallVector<int64_t>{1, o[0]} : SmallVector<int64_t>(o);
    } else {
      for (int i = 0; i < 2; ++i)
        if (llvm::MulOverflow(in[i], (*strides)[i], out[i]))
          return n.emitError() << "the output of spatial dim " << i
                               << " overflows a 64-bit integer";
    }
    for (int i = 0; i < 2; ++i) {
      // total = stride * (in - 1) + output_padding + reach + 1 - out.
      int64_t total;
      if (llvm::MulOverflow((*strides)[i], in[i] - 1, total) ||
          llvm::AddOverflow(total, reach[i], total) ||
          llvm::AddOverflow(total, (*outPadding)[i] + 1, total) ||
          llvm::SubOverflow(total, out[i], total))
        return n.emitError() << "the padding of spatial dim " << i
                             << " overflows a 64-bit integer";
      // Rounded down, as the operator's definition divides: a negative
      // total (a larger output) grows the end for NOTSET.
      int64_t half = llvm::divideFloorSigned(total, 2);
      pads[i] = autoPad == "SAME_UPPER" ? half : total - half;
      pads[i + 2] = autoPad == "SAME_UPPER" ? total - half : half;
    }
  } else if (autoPad == "NOTSET") {
    auto p = n.attrInts("pads");
    if (p && lifted && p->size() == 2)
      pads = {0, (*p)[0], 0, (*p)[1]};
    else if (p && !lifted && p->size() == 4)
      pads = *p;
    else if (p && !p->empty())
      return n.emitError() << "'pads' has " << p->size() << " entries";
  }
  // Zeros between the input's pixels: [N, C, H, 1, W, 1] padded to
  // [N, C, H, sH, W, sW], read as [N, C, H * sH, W * sW] (sW - 1 zeros
  // after the last pixel, which the padding below takes back).
  Value up = x;
  int64_t sH = (*strides)[0], sW = (*strides)[1];
  if (sH > 1 || sW > 1) {
    auto spread = n.reshapeTo(up, {N, k(C), k(in[0]), k(1), k(in[1]), k(1)});
    if (failed(spread))
      return failure();
    auto zeros = n.create<PadOp>(
        PadMode::constant, *spread, ArrayRef<int64_t>{0, 0, 0, 0, 0, 0},
        ArrayRef<int64_t>{0, 0, 0, sH - 1, 0, sW - 1}, APFloat(0.0));
    if (failed(zeros))
      return failure();
    int64_t upH, upW;
    if (llvm::MulOverflow(in[0], sH, upH) || llvm::MulOverflow(in[1], sW, upW))
      return n.emitError() << "the strided input overflows a 64-bit integer";
    auto merged = n.reshapeTo(*zeros, {N, k(C), k(upH), k(upW)});
    if (failed(merged))
      return failure();
    up = *merged;
  }
  SmallVector<int64_t> low(4, 0), high(4, 0);
  for (int i = 0; i < 2; ++i) {
    int64_t extra;
    if (llvm::SubOverflow(reach[i], pads[i], low[2 + i]) ||
        llvm::SubOverflow(reach[i], pads[i + 2], high[2 + i]) ||
        llvm::SubOverflow((*outPadding)[i], (*strides)[i], extra) ||
        llvm::AddOverflow(extra, int64_t(1), extra) ||
        llvm::AddOverflow(high[2 + i], extra, high[2 + i]))
      return n.emitError() << "the padding of spatial dim " << i
                           << " overflows a 64-bit integer";
  }
  if (llvm::any_of(low, [](int64_t v) { return v != 0; }) ||
      llvm::any_of(high, [](int64_t v) { return v != 0; })) {
    auto padded =
        n.create<PadOp>(PadMode::constant, up, low, high, APFloat(0.0));
    if (failed(padded))
      return failure();
    up = *padded;
  }
  // Weights [C, M / group, kH, kW] -> [M, C / group, kH, kW], flipped.
  auto grouped =
      n.reshape(w, {group, perGroupIn, perGroupOut, kernel[0], kernel[1]});
  if (failed(grouped))
    return failure();
  auto swapped =
      n.create<TransposeOp>(*grouped, ArrayRef<int64_t>{0, 2, 1, 3, 4});
  if (failed(swapped))
    return failure();
  auto convWeight = n.reshape(
      *swapped, {group * perGroupOut, perGroupIn, kernel[0], kernel[1]});
  if (failed(convWeight))
    return failure();
  auto flipped = n.create<SliceOp>(
      *convWeight, ArrayRef<int64_t>{0, 0, kernel[0] - 1, kernel[1] - 1},
      ArrayRef<int64_t>{group * perGroupOut, perGroupIn, kernel[0], kernel[1]},
      ArrayRef<int64_t>{1, 1, -1, -1});
  if (failed(flipped))
    return failure();
  auto y = n.create<Conv2DOp>(up, *flipped, n.input(2), ArrayRef<int64_t>{1, 1},
                              ArrayRef<int64_t>{0, 0, 0, 0}, *dilations,
                              static_cast<uint64_t>(group));
  return setSpatialOutput(n, y, lifted);
}

template <typename OpTy> LogicalResult importPool(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  if (failed(n.rejectOutputsFrom(1, "max pooling indices")) ||
      failed(n.requireStaticBeyondBatch(0, "pooling windows")))
    return failure();
  int64_t rank = n.inputType(0).getRank();
  if (rank != 3 && rank != 4)
    return n.emitError() << "only 1-D and 2-D pooling is supported (input "
                            "rank "
                         << rank << ")";
  bool lifted = rank == 3;
  if (lifted) {
    x = liftTo2D(n, *x);
    if (failed(x))
      return failure();
  }
  auto ks = n.attrInts("kernel_shape");
  if (!ks || ks->size() != static_cast<size_t>(rank - 2))
    return n.emitError() << "'kernel_shape' must have " << rank - 2
                         << " entries";
  SmallVector<int64_t> kernel =
      lifted ? SmallVector<int64_t>{1, ks->front()} : *ks;
  auto xt = cast<RankedTensorType>(x->getType());
  auto win = resolveWindow(n, xt.getShape().drop_front(2), kernel, lifted);
  if (failed(win))
    return failure();
  if (n.attrInt("storage_order", 0) != 0)
    return n.emitError() << "storage_order = 1 is not supported";
  bool ceil = n.attrInt("ceil_mode", 0) != 0;
  bool includePad = n.attrInt("count_include_pad", 0) != 0;
  auto y = n.create<OpTy>(*x, win->kernel, win->strides, win->pads,
                          win->dilations, ceil, includePad);
  return setSpatialOutput(n, y, lifted);
}

/// GlobalAveragePool / GlobalMaxPool: a keepdims reduction over every
/// spatial dimension.
template <ReduceKind Kind> LogicalResult importGlobalPool(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  int64_t rank = n.inputType(0).getRank();
  if (rank < 3)
    return n.emitError() << "expects an input of rank >= 3";
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  auto y = n.create<ReduceOp>(Kind, *x, axes, true);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importBatchNorm(NodeImporter &n) {
  if (n.attrInt("training_mode", 0) != 0)
    return n.emitError() << "training_mode = 1 is not supported (inference "
                            "only)";
  if (failed(n.rejectOutputsFrom(1, "running statistics exist only in "
                                    "training mode")))
    return failure();
  SmallVector<Value> in;
  for (unsigned i = 0; i < 5; ++i) {
    auto v = n.requiredInput(i);
    if (failed(v))
      return failure();
    in.push_back(*v);
  }
  // Opset 15 allows parameters of another float type than the input.
  Type et = n.inputType(0).getElementType();
  for (unsigned i = 1; i < 5; ++i) {
    auto c = n.castTo(in[i], et);
    if (failed(c))
      return failure();
    in[i] = *c;
  }
  auto y = n.create<BatchNormOp>(in[0], in[1], in[2], in[3], in[4],
                                 APFloat(n.attrFloat("epsilon", 1e-5)));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// LayerNormalization's optional outputs, the statistics that training
/// keeps: Mean and InvStdDev over the normalized axes (kept as 1s), in the
/// stash type (f32, the only one brrr takes), from the input cast to it:
/// the mean, then the mean of the squared deviations, then 1 / sqrt(that +
/// epsilon), as the op's function body computes them. They are separate
/// reductions; the layer_norm kernel of output 0 does not store them.
LogicalResult importLayerNormStatistics(NodeImporter &n, Value x, int64_t axis,
                                        double epsilon) {
  int64_t stash = n.attrInt("stash_type", onnx::TensorProto::FLOAT);
  if (stash != onnx::TensorProto::FLOAT)
    return n.emitError() << "stash_type " << stash
                         << " is not supported: the mean and inverse "
                            "standard deviation outputs are FLOAT";
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq(axis, rank));
  Type f32 = n.b.getF32Type();
  auto xf = n.castTo(x, f32);
  if (failed(xf))
    return failure();
  auto mean = n.create<ReduceOp>(ReduceKind::mean, *xf, axes, true);
  if (failed(mean))
    return failure();
  auto d = n.create<SubOp>(*xf, *mean);
  if (failed(d))
    return failure();
  auto d2 = n.create<MulOp>(*d, *d);
  if (failed(d2))
    return failure();
  auto var = n.create<ReduceOp>(ReduceKind::mean, *d2, axes, true);
  if (failed(var))
    return failure();
  auto shifted = n.create<AddOp>(*var, n.scalar(f32, epsilon));
  if (failed(shifted))
    return failure();
  auto root = n.create<SqrtOp>(*shifted);
  if (failed(root))
    return failure();
  auto inv = n.create<ReciprocalOp>(*root);
  if (failed(inv))
    return failure();
  n.setOutput(1, *mean);
  n.setOutput(2, *inv);
  return success();
}

LogicalResult importLayerNorm(NodeImporter &n) {
  auto x = n.requiredInput(0), scale = n.requiredInput(1);
  if (failed(x) || failed(scale))
    return failure();
  auto xt = n.inputType(0);
  auto axis = n.normalizeAxis(n.attrInt("axis", -1), xt.getRank());
  if (failed(axis))
    return failure();
  // Scale and bias broadcast to the normalized shape; leading unit
  // dimensions beyond its rank are dropped first. They take the input's
  // element type: TorchScript's f16 exports pair an f16 input with f32
  // parameters, which the op's type constraint does not allow but
  // onnxruntime runs.
  ArrayRef<int64_t> normalized = xt.getShape().drop_front(*axis);
  auto toNormalized = [&](Value v) -> FailureOr<Value> {
    Type pt = cast<RankedTensorType>(v.getType()).getElementType();
    if (pt != xt.getElementType() && !isa<FloatType>(pt))
      return n.emitError() << "scale and bias must be float tensors, not "
                           << v.getType();
    auto c = n.castTo(v, xt.getElementType());
    if (failed(c))
      return failure();
    v = *c;
    auto t = cast<RankedTensorType>(v.getType());
    ArrayRef<int64_t> shape = t.getShape();
    while (shape.size() > normalized.size() && shape.front() == 1)
      shape = shape.drop_front();
    if (shape.size() != static_cast<size_t>(t.getRank())) {
      auto r = n.reshape(v, shape);
      if (failed(r))
        return failure();
      v = *r;
    }
    return n.expandTo(v, normalized);
  };
  auto s = toNormalized(*scale);
  if (failed(s))
    return failure();
  Value bias;
  if (n.hasInput(2)) {
    auto bb = toNormalized(n.input(2));
    if (failed(bb))
      return failure();
    bias = *bb;
  }
  double epsilon = n.attrFloat("epsilon", 1e-5);
  auto y = n.create<LayerNormOp>(*x, *s, bias, static_cast<uint64_t>(*axis),
                                 APFloat(epsilon));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  if (n.wantsOutput(1) || n.wantsOutput(2))
    return importLayerNormStatistics(n, *x, *axis, epsilon);
  return success();
}

/// InstanceNormalization: each (batch, channel) plane normalized over its
/// spatial dimensions (`epsilon` added to the variance), then scaled and
/// shifted per channel. A layer norm over dimensions [2, rank) with a unit
/// scale, which a row kernel computes in f32, then the channel's scale and
/// bias, which it applies as its epilogue. GroupNorm exports as this op
/// over its groups.
LogicalResult importInstanceNorm(NodeImporter &n) {
  auto x = n.requiredInput(0), scale = n.requiredInput(1),
       bias = n.requiredInput(2);
  if (failed(x) || failed(scale) || failed(bias))
    return failure();
  auto xt = n.inputType(0);
  int64_t rank = xt.getRank();
  if (rank < 3)
    return n.emitError() << "expects an input of rank >= 3, not " << rank;
  ArrayRef<int64_t> spatial = xt.getShape().drop_front(2);
  SmallVector<AffineExpr> extents = extentsOf(xt);
  if (llvm::any_of(ArrayRef(extents).drop_front(1),
                   [](AffineExpr e) { return !isa<AffineConstantExpr>(e); }))
    return n.emitError() << "symbolic channel or spatial extents are not "
                            "supported";
  Type et = xt.getElementType();
  auto unit = n.expandTo(n.scalar(et, 1.0), spatial);
  if (failed(unit))
    return failure();
  auto y = n.create<LayerNormOp>(*x, *unit, Value(), uint64_t{2},
                                 APFloat(n.attrFloat("epsilon", 1e-5)));
  if (failed(y))
    return failure();
  // [C] -> [C, 1, ..., 1]: broadcast along the channel.
  SmallVector<int64_t> perChannel(rank - 1, 1);
  perChannel[0] = xt.getDimSize(1);
  auto channel = [&](Value v) -> FailureOr<Value> {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getRank() != 1 || t.getDimSize(0) != xt.getDimSize(1))
      return n.emitError() << "scale and bias must have one element per "
                              "channel ("
                           << xt.getDimSize(1) << "), not " << t;
    auto c = n.castTo(v, et);
    if (failed(c))
      return failure();
    return n.reshape(*c, perChannel);
  };
  auto s = channel(*scale), b = channel(*bias);
  if (failed(s) || failed(b))
    return failure();
  auto scaled = n.create<MulOp>(*y, *s);
  if (failed(scaled))
    return failure();
  auto shifted = n.create<AddOp>(*scaled, *b);
  if (failed(shifted))
    return failure();
  n.setOutput(0, *shifted);
  return success();
}

/// Softmax and LogSoftmax. Before opset 13 the input is coerced to 2-D at
/// `axis` (default 1) and normalized over the whole trailing block.
template <typename OpTy> LogicalResult importSoftmax(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto xt = n.inputType(0);
  int64_t rank = xt.getRank();
  bool legacy = n.sinceVersion < 13;
  auto axis = n.inputAxis(legacy ? 1 : -1);
  if (failed(axis))
    return failure();
  if (!legacy || *axis == rank - 1) {
    auto y = n.create<OpTy>(*x, static_cast<uint64_t>(*axis));
    if (failed(y))
      return failure();
    n.setOutput(0, *y);
    return success();
  }
  if (isSymbolic(xt))
    return n.emitError() << "softmax before opset 13 over axis " << *axis
                         << " of a tensor with symbolic extents is not "
                            "supported";
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < *axis ? outer : inner) *= xt.getDimSize(d);
  auto flat = n.reshape(*x, {outer, inner});
  if (failed(flat))
    return failure();
  auto y = n.create<OpTy>(*flat, uint64_t{1});
  if (failed(y))
    return failure();
  auto back = n.reshape(*y, xt.getShape());
  if (failed(back))
    return failure();
  n.setOutput(0, *back);
  return success();
}

} // namespace

void registerNNImporters(OpTable &t) {
  t["AveragePool"] = {{7, 10, 11, 19}, importPool<AvgPool2DOp>};
  t["BatchNormalization"] = {{9, 14, 15}, importBatchNorm};
  t["Conv"] = {{1, 11}, importConv};
  t["ConvTranspose"] = {{1, 11}, importConvTranspose};
  t["Gemm"] = {{7, 9, 11, 13}, importGemm};
  t["InstanceNormalization"] = {{6}, importInstanceNorm};
  t["GlobalAveragePool"] = {{1}, importGlobalPool<ReduceKind::mean>};
  t["GlobalMaxPool"] = {{1}, importGlobalPool<ReduceKind::max>};
  t["LayerNormalization"] = {{17}, importLayerNorm};
  t["LogSoftmax"] = {{1, 11, 13}, importSoftmax<LogSoftmaxOp>};
  t["MatMul"] = {{1, 9, 13}, importMatMul};
  t["MaxPool"] = {{8, 10, 11, 12}, importPool<MaxPool2DOp>};
  t["Softmax"] = {{1, 11, 13}, importSoftmax<SoftmaxOp>};
}

} // namespace mlir::brrr
