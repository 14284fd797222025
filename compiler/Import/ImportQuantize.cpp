//===- ImportQuantize.cpp - QuantizeLinear, DequantizeLinear -------------===//
//
// QDQ models: QuantizeLinear and DequantizeLinear, opsets 10 to 21, into
// brrr.quantize and brrr.dequantize. A per-tensor scale stays a scalar, a
// per-axis one is reshaped onto its axis so that it broadcasts. Constant
// scales must be positive and finite, and a float8 zero point zero: anything
// else is an error on the node, never a silently wrong model. A quantize or
// dequantize of a constant (the weights of onnxruntime's and ModelOpt's
// exports) is evaluated here, with the kernels' arithmetic; blocked
// quantization (opset 21) is accepted for constants only.
//
//===----------------------------------------------------------------------===//

#include "NodeImporter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <cmath>

namespace mlir::brrr {
namespace {

/// How a scale maps onto the quantized tensor's elements.
struct Layout {
  enum Kind { perTensor, perAxis, blocked } kind = perTensor;
  int64_t axis = 0;
  int64_t blockSize = 0;
};

/// The blocks of `size` (>= 0) elements `block` (> 0) long, without the
/// overflow of size + block - 1 for a hostile block size.
int64_t blocksOf(int64_t size, int64_t block) {
  return size == 0 ? 0 : (size - 1) / block + 1;
}

/// Checks the scale and zero point against `x` and works out their layout.
FailureOr<Layout> layoutOf(NodeImporter &n, RankedTensorType x,
                           RankedTensorType scale,
                           std::optional<RankedTensorType> zero) {
  Layout l;
  // One scale and one zero point, each a scalar or of one element, are per
  // tensor however they are shaped (onnxruntime writes a bias's scale of
  // [1] beside a scalar zero point).
  int64_t blockSize = n.sinceVersion >= 21 ? n.attrInt("block_size", 0) : 0;
  bool oneEach = zero && scale.getNumElements() == 1 &&
                 zero->getNumElements() == 1 && scale.getRank() <= 1 &&
                 zero->getRank() <= 1 && blockSize == 0;
  if (zero && zero->getShape() != scale.getShape() && !oneEach)
    return n.emitError() << "zero point of shape " << *zero
                         << " differs from the scale's " << scale;
  if (blockSize < 0)
    return n.emitError() << "block_size " << blockSize << " is negative";
  bool scalar =
      scale.getRank() == 0 ||
      (scale.getRank() == 1 && scale.getDimSize(0) == 1 && blockSize == 0);
  if (scalar)
    return l;
  if (n.sinceVersion < 13)
    return n.emitError() << "scale of shape " << scale
                         << " must be a scalar before opset 13";
  auto axis = n.normalizeAxis(n.attrInt("axis", 1), x.getRank());
  if (failed(axis))
    return failure();
  l.axis = *axis;
  if (x.isDynamicDim(l.axis))
    return n.emitError() << "scale of shape " << scale << " along axis "
                         << l.axis << " of " << x
                         << ", a symbolic axis; scales along symbolic axes "
                            "are not supported";
  if (blockSize == 0) {
    if (scale.getRank() != 1 || scale.getDimSize(0) != x.getDimSize(l.axis))
      return n.emitError() << "per-axis scale of shape " << scale
                           << " must have the " << x.getDimSize(l.axis)
                           << " elements of axis " << l.axis << " of " << x;
    l.kind = Layout::perAxis;
    return l;
  }
  l.kind = Layout::blocked;
  l.blockSize = blockSize;
  bool fits = scale.getRank() == x.getRank();
  for (int64_t d = 0; fits && d < x.getRank(); ++d)
    fits = d == l.axis
               ? scale.getDimSize(d) == blocksOf(x.getDimSize(d), blockSize)
               : scale.getDimSize(d) == x.getDimSize(d);
  if (!fits)
    return n.emitError() << "blocked scale of shape " << scale
                         << " does not cover " << x << " in blocks of "
                         << blockSize << " along axis " << l.axis;
  return l;
}

/// For element `at` (row-major) of `x`, the index of its scale.
int64_t scaleIndex(const Layout &l, RankedTensorType x, int64_t at) {
  if (l.kind == Layout::perTensor)
    return 0;
  int64_t inner = 1;
  for (int64_t d = l.axis + 1; d < x.getRank(); ++d)
    inner *= x.getDimSize(d);
  int64_t along = at / inner % x.getDimSize(l.axis);
  if (l.kind == Layout::perAxis)
    return along;
  int64_t blocks = blocksOf(x.getDimSize(l.axis), l.blockSize);
  int64_t outer = at / (inner * x.getDimSize(l.axis));
  return (outer * blocks + along / l.blockSize) * inner + at % inner;
}

/// Error unless every value of a constant scale is positive and finite.
LogicalResult checkScale(NodeImporter &n, Value scale) {
  std::optional<SmallVector<double>> values = getConstFloats(scale);
  if (!values)
    return success(); // computed at run time
  for (auto [i, s] : llvm::enumerate(*values)) {
    if (std::isfinite(s) && s > 0)
      continue;
    const char *what = std::isnan(s)   ? "NaN"
                       : std::isinf(s) ? "infinite"
                       : s == 0        ? "zero"
                                       : "negative";
    return n.emitError() << "scale " << s << " (element " << i << ") is "
                         << what << "; scales must be positive and finite";
  }
  return success();
}

/// Error unless a float8 zero point is a constant zero.
LogicalResult checkFloat8Zero(NodeImporter &n, Value zero) {
  if (!zero)
    return success();
  std::optional<SmallVector<double>> values = getConstFloats(zero);
  if (!values)
    return n.emitError() << "a float8 zero point must be a constant zero, "
                            "not computed";
  for (auto [i, z] : llvm::enumerate(*values))
    if (z != 0)
      return n.emitError() << "float8 zero point " << z << " (element " << i
                           << ") is not zero";
  return success();
}

/// `p` (a scale or zero point of `layout`) reshaped to broadcast against a
/// tensor of rank `rank`.
FailureOr<Value> broadcastable(NodeImporter &n, Value p, const Layout &layout,
                               int64_t rank) {
  auto t = cast<RankedTensorType>(p.getType());
  if (layout.kind == Layout::perTensor)
    return t.getRank() == 0 ? FailureOr<Value>(p) : n.reshape(p, {});
  SmallVector<int64_t> shape(rank, 1);
  shape[layout.axis] = t.getDimSize(0);
  return n.reshape(p, shape);
}

/// Whether the import may evaluate an op over `elements` values now: up to
/// 2^26 (a 4096 x 16384 weight, 512 MB of doubles while folding); a larger
/// one runs in a kernel.
bool foldable(int64_t elements) { return elements <= (int64_t(1) << 26); }

/// A quantize's or dequantize's scale and zero point, checked.
struct Parameters {
  Layout layout;
  Value scale;
  /// The node's zero point, or a zero constant of `quantized`'s type.
  Value zero;
};

/// The parameters of node `n` (input 0 quantized to or from `quantized`,
/// scale input 1, optional zero point input 2): their layout (layoutOf),
/// positive finite constant scales, a zero float8 zero point.
FailureOr<Parameters> parametersOf(NodeImporter &n, Type quantized) {
  Value scale = n.input(1), zero = n.input(2);
  auto st = n.inputType(1);
  std::optional<RankedTensorType> zt;
  if (zero)
    zt = n.inputType(2);
  auto layout = layoutOf(n, n.inputType(0), st, zt);
  if (failed(layout) || failed(checkScale(n, scale)))
    return failure();
  if (isa<Float8E4M3FNType>(quantized) && failed(checkFloat8Zero(n, zero)))
    return failure();
  if (!zero)
    zero = n.constant(st.clone(quantized),
                      SmallVector<double>(st.getNumElements(), 0.0));
  return Parameters{*layout, scale, zero};
}

/// The values of `x` and of `p`'s scale and zero point, when all are
/// constants small enough to evaluate now (foldable; checked first, so
/// that a large weight is not read into doubles for nothing).
struct Folded {
  SmallVector<double> x, scale, zero;
};
std::optional<Folded> foldedOf(Value x, const Parameters &p) {
  auto xt = cast<RankedTensorType>(x.getType());
  // Constants are static; a symbolic tensor is computed.
  if (!xt.hasStaticShape() || !foldable(xt.getNumElements()))
    return std::nullopt;
  std::optional<SmallVector<double>> xs = getConstFloats(x),
                                     ss = getConstFloats(p.scale),
                                     zs = getConstFloats(p.zero);
  if (!xs || !ss || !zs)
    return std::nullopt;
  return Folded{std::move(*xs), std::move(*ss), std::move(*zs)};
}

/// `p`'s scale and zero point reshaped to broadcast against a tensor of
/// rank `rank` for a kernel, or an error on blocked quantization, which
/// only constants (evaluated at import) may use; `what` is
/// "quantization" or "dequantization".
FailureOr<std::pair<Value, Value>> kernelOperands(NodeImporter &n,
                                                  const Parameters &p,
                                                  int64_t rank,
                                                  StringRef what) {
  if (p.layout.kind == Layout::blocked)
    return n.emitError() << "blocked " << what
                         << " of a computed tensor is not supported; only of "
                            "constant weights";
  auto s = broadcastable(n, p.scale, p.layout, rank);
  auto z = broadcastable(n, p.zero, p.layout, rank);
  if (failed(s) || failed(z))
    return failure();
  return std::make_pair(*s, *z);
}

/// `v` rounded to float8 E4M3FN: to nearest even, saturating at 448 or
/// becoming NaN beyond it.
APFloat toFloat8(float v, bool saturate) {
  return roundToFloat8(APFloat(v), saturate);
}

LogicalResult importQuantizeLinear(NodeImporter &n) {
  auto x = n.requiredInput(0), scale = n.requiredInput(1);
  if (failed(x) || failed(scale))
    return failure();
  Value zero = n.input(2);
  auto xt = n.inputType(0), st = n.inputType(1);
  Type xe = xt.getElementType();
  if (!xe.isF32() && !xe.isF16() && !xe.isBF16())
    return n.emitError() << "quantizes " << xt
                         << "; brrr quantizes float, float16 and bfloat16";
  if (st.getElementType() != xe)
    return n.emitError() << "scale element type " << st.getElementType()
                         << " differs from the input's " << xe;
  // The result type: the zero point's, else output_dtype, else UINT8.
  Type qe;
  int64_t dtype = n.sinceVersion >= 21 ? n.attrInt("output_dtype", 0) : 0;
  if (dtype != 0) {
    qe = convertElementType(n.getContext(), dtype);
    if (zero && (!qe || n.inputType(2).getElementType() != qe))
      return n.emitError() << "output_dtype " << dataTypeName(dtype)
                           << " differs from the zero point's type";
    if (!qe)
      return n.emitError() << "quantization to " << dataTypeName(dtype)
                           << " is not supported; brrr quantizes to INT8, "
                              "UINT8 and FLOAT8E4M3FN";
  } else {
    qe = zero ? n.inputType(2).getElementType()
              : IntegerType::get(n.getContext(), 8, IntegerType::Unsigned);
  }
  if (!qe.isInteger(8) && !isa<Float8E4M3FNType>(qe))
    return n.emitError() << "quantization to " << quantizedTypeName(qe)
                         << " is not supported; brrr quantizes to INT8, "
                            "UINT8 and FLOAT8E4M3FN";
  bool saturate = n.sinceVersion >= 19 ? n.attrInt("saturate", 1) != 0 : true;
  auto params = parametersOf(n, qe);
  if (failed(params))
    return failure();

  auto resultType = xt.clone(qe);
  if (std::optional<Folded> f = foldedOf(*x, *params)) {
    // The kernel's arithmetic: x / scale in f32, then round and clamp.
    SmallVector<Attribute> values;
    auto it = dyn_cast<IntegerType>(qe);
    for (int64_t at = 0, e = xt.getNumElements(); at < e; ++at) {
      int64_t k = scaleIndex(params->layout, xt, at);
      float v = static_cast<float>(f->x[at]) / static_cast<float>(f->scale[k]);
      if (!it) {
        values.push_back(FloatAttr::get(qe, toFloat8(v, saturate)));
        continue;
      }
      double lo = it.isUnsigned() ? 0 : -128, hi = it.isUnsigned() ? 255 : 127;
      double q =
          std::isnan(v)
              ? 0.0
              : std::clamp(std::nearbyint(double(v)) + f->zero[k], lo, hi);
      values.push_back(IntegerAttr::get(
          qe, APInt(8, static_cast<uint64_t>(static_cast<int64_t>(q)),
                    /*isSigned=*/!it.isUnsigned())));
    }
    Value c = ConstantOp::create(n.b, n.loc,
                                 DenseElementsAttr::get(resultType, values));
    n.setOutput(0, c);
    return success();
  }
  auto operands = kernelOperands(n, *params, xt.getRank(), "quantization");
  if (failed(operands))
    return failure();
  auto y =
      n.createTyped<QuantizeOp>(resultType, *x, operands->first,
                                operands->second, n.b.getBoolAttr(saturate));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importDequantizeLinear(NodeImporter &n) {
  auto x = n.requiredInput(0), scale = n.requiredInput(1);
  if (failed(x) || failed(scale))
    return failure();
  Value zero = n.input(2);
  auto xt = n.inputType(0), st = n.inputType(1);
  Type xe = xt.getElementType();
  if (!xe.isInteger(8) && !xe.isSignlessInteger(32) &&
      !isa<Float8E4M3FNType>(xe))
    return n.emitError() << "dequantizes " << quantizedTypeName(xe)
                         << "; brrr dequantizes INT8, UINT8, INT32 and "
                            "FLOAT8E4M3FN";
  Type fe = st.getElementType();
  if (!fe.isF32() && !fe.isF16() && !fe.isBF16())
    return n.emitError() << "scale of element type " << fe
                         << "; brrr takes float, float16 and bfloat16 scales";
  if (zero && n.inputType(2).getElementType() != xe)
    return n.emitError() << "zero point of element type "
                         << quantizedTypeName(n.inputType(2).getElementType())
                         << " differs from the input's "
                         << quantizedTypeName(xe);
  auto params = parametersOf(n, xe);
  if (failed(params))
    return failure();

  auto resultType = xt.clone(fe);
  // An 8-bit matrix of weights, or a convolution's OIHW ones (per tensor
  // or per axis), stays 8 bits: brrr-quantized-products makes the product
  // that reads it multiply 8-bit operands, and evaluates the
  // dequantization where none does.
  bool productWeight =
      isEightBitProductType(xe) && (xt.getRank() == 2 || xt.getRank() == 4) &&
      xt.hasStaticShape() && params->layout.kind != Layout::blocked &&
      matchPattern(*x, m_Constant());
  std::optional<Folded> f;
  if (!productWeight)
    f = foldedOf(*x, *params);
  if (f) {
    // The kernel's arithmetic: the exact difference, times the scale in f32.
    bool isFloat8 = isa<Float8E4M3FNType>(xe);
    SmallVector<double> values(xt.getNumElements());
    for (int64_t at = 0, e = xt.getNumElements(); at < e; ++at) {
      int64_t k = scaleIndex(params->layout, xt, at);
      values[at] = dequantizeValue(f->x[at], f->zero[k], f->scale[k], isFloat8);
    }
    n.setOutput(0, ConstantOp::create(
                       n.b, n.loc,
                       makeFloatElements(resultType, values, "dequantized")));
    return success();
  }
  auto operands = kernelOperands(n, *params, xt.getRank(), "dequantization");
  if (failed(operands))
    return failure();
  auto y = n.createTyped<DequantizeOp>(resultType, *x, operands->first,
                                       operands->second);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

} // namespace

void registerQuantizeImporters(OpTable &t) {
  t["QuantizeLinear"] = {{10, 13, 19, 21}, importQuantizeLinear};
  t["DequantizeLinear"] = {{10, 13, 19, 21}, importDequantizeLinear};
}

} // namespace mlir::brrr
