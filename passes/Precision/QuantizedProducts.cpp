//===- QuantizedProducts.cpp - 8-bit products from QDQ models ------------===//
//
// Runs first on the imported graph (flag brrr-quantized-products). A QDQ
// model multiplies dequantized operands:
//
//   y = matmul(dequantize(qa, sa, 0), dequantize(W, sw, 0))
//
// with `qa` an 8-bit activation (the quantize before it), `W` an 8-bit
// constant matrix (read directly, or transposed: Gemm's transB), `sa` one
// scale and `sw` one scale or one per output column. On a target with the
// 8-bit Tensor Cores (wgmma) that product becomes
//
//   y = cast(matmul(qa, transpose(W')) * (sa * sw))
//
// where the matmul multiplies the 8-bit values exactly and sums them in
// 32-bit integers (INT8) or in f32 (FLOAT8E4M3FN: each k-slice's sums
// promoted, see brrr-select-kernel-config), the scales are one f32
// constant applied in the product's epilogue, and W' is W stored K-major
// (rows of the contraction: the layout the 8-bit wgmma reads B in), an
// 8-bit blob in the artifact (EightBitProducts.h). An INT8 activation's
// zero point is subtracted as z times each column's sum of W. What the
// rewrite needs and does not find (a weight zero point other than zero,
// an activation scale computed at run time, a contraction not a multiple
// of 16 bytes, a target without wgmma, mixed types) leaves the product in
// float, as the model wrote it.
//
// A convolution of a dequantized activation and dequantized constant
// weights becomes the same on the Hopper convolution body: a channels-last
// conv2d of the 8-bit activation and weights packed KH x KW x O x I, its
// scales (and the zero point's correction) applied after it, between NCHW
// views that brrr-channels-last cancels.
//
// Every dequantize of constants that no product claimed is then evaluated
// (up to 2^26 elements; a larger one stays a kernel), as the importer
// evaluates other constant dequantizations.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
#include "passes/Config/Products.h"
#include "passes/Passes.h"
#include "passes/Precision/EightBitProducts.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRQUANTIZEDPRODUCTS
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

/// The scales of an 8-bit product's N columns, once: sa * sw[n] in f32, a
/// scalar where they are all one value.
static Value productScale(OpBuilder &b, Location loc, double activationScale,
                          ArrayRef<double> weightScales) {
  SmallVector<double> scales;
  for (double s : weightScales)
    scales.push_back(static_cast<float>(static_cast<float>(activationScale) *
                                        static_cast<float>(s)));
  bool uniform = llvm::all_equal(scales);
  auto scaleType =
      uniform ? RankedTensorType::get({}, b.getF32Type())
              : RankedTensorType::get({static_cast<int64_t>(scales.size())},
                                      b.getF32Type());
  return ConstantOp::create(
      b, loc,
      makeFloatElements(scaleType,
                        uniform ? ArrayRef<double>(scales).take_front()
                                : ArrayRef<double>(scales),
                        "product_scale"));
}

void mlir::brrr::replaceWithEightBitProduct(
    MatmulOp mm, Value activation, double zeroPoint, double activationScale,
    ArrayRef<double> weightScales, Type weightType, ArrayRef<char> kMajor,
    int64_t N, int64_t K) {
  OpBuilder b(mm);
  Location loc = mm.getLoc();
  Value wView =
      kMajorWeightView(b, loc, kMajor, N, K, weightType, "weight_k_major");
  Value product = MatmulOp::create(b, loc, activation, wView);
  if (zeroPoint != 0) {
    // z * (the column's sum of W), exact in f32 up to 2^24.
    SmallVector<double> offsets(N, 0.0);
    for (int64_t n = 0; n < N; ++n) {
      int64_t sum = 0;
      for (int64_t k = 0; k < K; ++k)
        sum += static_cast<int8_t>(kMajor[n * K + k]);
      offsets[n] = zeroPoint * static_cast<double>(sum);
    }
    Value offset = ConstantOp::create(
        b, loc,
        makeFloatElements(RankedTensorType::get({N}, b.getF32Type()), offsets,
                          "zero_point_offset"));
    product = SubOp::create(b, loc, product, offset);
  }
  Value y = MulOp::create(b, loc, product,
                          productScale(b, loc, activationScale, weightScales));
  if (mm.getType() != y.getType())
    y = CastOp::create(b, loc, mm.getType(), y);
  mm.replaceAllUsesWith(y);
  mm.erase();
}

/// The bytes of an 8-bit constant, one per element (a splat expanded).
std::optional<std::vector<char>> mlir::brrr::eightBitBytes(ElementsAttr attr) {
  int64_t n = attr.getNumElements();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || static_cast<int64_t>(blob->getData().size()) != n)
      return std::nullopt;
    return std::vector<char>(blob->getData().begin(), blob->getData().end());
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return std::nullopt;
  ArrayRef<char> raw = dense.getRawData();
  if (dense.isSplat() && !raw.empty())
    return std::vector<char>(n, raw.front());
  if (static_cast<int64_t>(raw.size()) != n)
    return std::nullopt;
  return std::vector<char>(raw.begin(), raw.end());
}

ElementsAttr mlir::brrr::eightBitWeightOf(MatmulOp mm) {
  auto t = mm.getRhs().getDefiningOp<TransposeOp>();
  ElementsAttr w;
  if (!t || t.getPerm() != ArrayRef<int64_t>{1, 0} ||
      !isEightBitProductType(mm.getRhs().getType().getElementType()) ||
      !matchPattern(t.getInput(), m_Constant(&w)))
    return nullptr;
  return w;
}

Value mlir::brrr::kMajorWeightView(OpBuilder &b, Location loc,
                                   ArrayRef<char> kMajor, int64_t N, int64_t K,
                                   Type type, StringRef name) {
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocateAndCopyWithAlign(kMajor, alignof(uint64_t));
  Value w = ConstantOp::create(
      b, loc,
      cast<ElementsAttr>(DenseResourceElementsAttr::get(
          RankedTensorType::get({N, K}, type), name, std::move(blob))));
  return TransposeOp::create(b, loc, RankedTensorType::get({K, N}, type), w,
                             b.getDenseI64ArrayAttr({1, 0}));
}

namespace {

/// Elements a dequantization of constants may have to be evaluated here:
/// the importer's limit.
constexpr int64_t kMaxEvaluated = int64_t(1) << 26;

/// The values of a constant, seen through reshapes (the importer reshapes
/// per-axis scales, weight blobs it does not fold, onto their axis).
std::optional<SmallVector<double>> constantValues(Value v) {
  while (auto reshape = v.getDefiningOp<ReshapeOp>())
    v = reshape.getInput();
  return getConstFloats(v);
}

bool allZero(Value v) {
  std::optional<SmallVector<double>> values = constantValues(v);
  return values && llvm::all_of(*values, [](double x) { return x == 0; });
}

/// The per-column scales of a weight dequantization over a `K x N` matrix
/// stored as `shape` (N x K when `transposed`): one value, or one per
/// column; none if the scale is not a constant or varies along K.
std::optional<SmallVector<double>> columnScales(Value scale, int64_t N,
                                                bool transposed) {
  std::optional<SmallVector<double>> values = constantValues(scale);
  if (!values || values->empty())
    return std::nullopt;
  if (values->size() == 1)
    return SmallVector<double>(N, values->front());
  // A per-axis scale broadcasts along the axis of N: shape [1, N] or [N]
  // over K x N, [N, 1] over N x K.
  ArrayRef<int64_t> shape = cast<RankedTensorType>(scale.getType()).getShape();
  int64_t numel = values->size();
  bool alongN = transposed
                    ? (shape.size() == 2 && shape[0] == N && shape[1] == 1)
                    : (numel == N && !shape.empty() && shape.back() == N);
  if (!alongN)
    return std::nullopt;
  return values;
}

/// Tells product `op`, which stays in float, why (`brrrc --report`).
void markUnfused(Operation *op, const Twine &why) {
  op->setAttr("brrr.quantized_unfused",
              StringAttr::get(op->getContext(), why.str()));
}

/// The 8-bit activation of a product: its values, the zero point its
/// product subtracts, its scale.
struct EightBitActivation {
  DequantizeOp dq;
  /// The quantize of a UINT8 activation, which the rewrite replaces by
  /// one to INT8 (signedActivation).
  QuantizeOp unsignedQuantize;
  double unsignedZero = 0;
  double zero = 0;
  double scale = 1;
  Type type;
};

/// The activation of a product whose operand `adq` dequantizes an 8-bit
/// one, or why it cannot multiply in 8 bits (`why`, none returned).
std::optional<EightBitActivation> activationOf(DequantizeOp adq,
                                               std::string &why) {
  EightBitActivation a;
  a.dq = adq;
  a.type = cast<RankedTensorType>(adq.getInput().getType()).getElementType();
  // A UINT8 activation (ONNX Runtime's default) is read as INT8, 128
  // less: its quantize writes INT8 with a zero point 128 lower, which
  // clamps alike, and the zero point correction takes z - 128.
  if (a.type.isUnsignedInteger(8)) {
    a.unsignedQuantize = adq.getInput().getDefiningOp<QuantizeOp>();
    std::optional<SmallVector<double>> zq =
        a.unsignedQuantize ? constantValues(a.unsignedQuantize.getZeroPoint())
                           : std::nullopt;
    if (!zq || zq->size() != 1) {
      why = "its UINT8 activation is not quantized in the model by one zero "
            "point";
      return std::nullopt;
    }
    a.unsignedZero = zq->front();
  } else if (!isEightBitProductType(a.type)) {
    why = "its activation is " + quantizedTypeName(a.type) +
          "; 8-bit products take INT8, UINT8 or FLOAT8E4M3FN";
    return std::nullopt;
  }
  // An integer activation's zero point z: sum (qa - z) w = sum qa w - z
  // sum w, the second term a constant per output column.
  std::optional<SmallVector<double>> za = constantValues(adq.getZeroPoint());
  if (!za || za->size() != 1) {
    why = "its activation's zero point is not one constant";
    return std::nullopt;
  }
  a.zero = za->front() - (a.unsignedQuantize ? 128 : 0);
  std::optional<SmallVector<double>> sa = constantValues(adq.getScale());
  if (!sa || sa->size() != 1) {
    why = "its activation's scale is not one constant";
    return std::nullopt;
  }
  a.scale = sa->front();
  return a;
}

/// Whether weights of `wq` multiply an activation of `a`'s type: a float8
/// activation takes a float8 weight; an INT8 or UINT8 one an INT8 weight
/// (ONNX Runtime's default: UINT8 activations, INT8 weights).
bool weightTypeMatches(const EightBitActivation &a, Type wq) {
  return isa<Float8E4M3FNType>(a.type) ? wq == a.type : wq.isSignlessInteger(8);
}

/// The INT8 or float8 values the 8-bit product reads: the activation as
/// quantized, or a UINT8 one's quantize rewritten to INT8.
Value signedActivation(EightBitActivation a) {
  if (!a.unsignedQuantize)
    return a.dq.getInput();
  QuantizeOp q = a.unsignedQuantize;
  OpBuilder b(q);
  b.setInsertionPointAfter(q);
  Location at = q.getLoc();
  auto signedZero = RankedTensorType::get({}, b.getI8Type());
  Value shifted = ConstantOp::create(
      b, at,
      DenseElementsAttr::get(
          signedZero,
          b.getIntegerAttr(b.getI8Type(),
                           static_cast<int64_t>(a.unsignedZero) - 128)));
  return QuantizeOp::create(b, at, q.getInput(), q.getScale(), shifted,
                            q.getSaturate());
}

/// Rewrites `mm` to multiply 8-bit operands if it is a product of
/// dequantized ones the 8-bit body can run.
/// A product of two dequantized operands that stays in float is told why
/// (`brrr.quantized_unfused`, printed by brrrc --report); other products
/// are left alone.
void claim(MatmulOp mm, TargetAttr target) {
  auto adq = mm.getLhs().getDefiningOp<DequantizeOp>();
  if (!adq)
    return;
  Value rhs = mm.getRhs();
  bool transposed = false;
  TransposeOp t = rhs.getDefiningOp<TransposeOp>();
  if (t && t.getPerm() == ArrayRef<int64_t>{1, 0}) {
    rhs = t.getInput();
    transposed = true;
  }
  auto wdq = rhs.getDefiningOp<DequantizeOp>();
  if (!wdq)
    return;
  auto unfused = [&](const Twine &why) { markUnfused(mm, why); };
  ElementsAttr weights;
  if (!matchPattern(wdq.getInput(), m_Constant(&weights)))
    return unfused("it multiplies two computed tensors; 8-bit products "
                   "take a constant weight");
  auto wt = cast<RankedTensorType>(wdq.getInput().getType());
  std::string why;
  std::optional<EightBitActivation> a = activationOf(adq, why);
  if (!a)
    return unfused(why);
  Type wq = wt.getElementType();
  if (!weightTypeMatches(*a, wq))
    return unfused("its activation is " + quantizedTypeName(a->type) +
                   " and its weight " + quantizedTypeName(wq));
  if (wt.getRank() != 2)
    return unfused("its weight is not a matrix");
  int64_t K = wt.getDimSize(transposed ? 1 : 0);
  int64_t N = wt.getDimSize(transposed ? 0 : 1);
  if (!target.hasWgmma())
    return unfused("target " + target.getChip() + " has no 8-bit wgmma");
  // The 8-bit body reads rows of K bytes through TMA: whole 16 bytes.
  if (K % 16 != 0 || K == 0 || N == 0)
    return unfused("its contraction of " + Twine(K) +
                   " is not a positive multiple of 16");
  if (!allZero(wdq.getZeroPoint()))
    return unfused("its weight's zero point is not 0");
  std::optional<SmallVector<double>> sw =
      columnScales(wdq.getScale(), N, transposed);
  if (!sw)
    return unfused("its weight's scale is not one constant, or one per "
                   "output column");
  std::optional<std::vector<char>> bytes = eightBitBytes(weights);
  if (!bytes)
    return unfused("its weight's bytes cannot be read");

  // W' (N x K): W's rows of K as stored, or W transposed.
  std::vector<char> kMajor(N * K);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < K; ++k)
      kMajor[n * K + k] =
          transposed ? (*bytes)[n * K + k] : (*bytes)[k * N + n];
  replaceWithEightBitProduct(mm, signedActivation(*a), a->zero, a->scale, *sw,
                             wq, kMajor, N, K);
  // The float view of W, unless something else reads it.
  if (t && t->use_empty())
    t->erase();
}

/// Rewrites `conv` (NCHW, OIHW weights) to multiply 8-bit operands if it
/// convolves a dequantized activation with dequantized constant weights
/// the 8-bit Hopper convolution body can run:
///
///   y = transpose(conv2d{channels_last}(transpose(qa), W') - corr) * s + b
///
/// with W' the weights packed KH x KW x O x I (each tap's O x I matrix
/// K-major, as the body reads B), s = sa * sw[o], and corr the zero point's
/// correction: z times the weights the window covers inside the image, per
/// output channel where no window reaches into the padding, else per output
/// pixel and channel (the padding holds zeros, not z). The NCHW views on
/// either side cancel against brrr-channels-last's. Otherwise the
/// convolution stays in float and is told why, as products are.
void claim(Conv2DOp conv, TargetAttr target) {
  auto adq = conv.getInput().getDefiningOp<DequantizeOp>();
  auto wdq = conv.getWeight().getDefiningOp<DequantizeOp>();
  if (!adq || !wdq || conv.getChannelsLast())
    return;
  auto unfused = [&](const Twine &why) { markUnfused(conv, why); };
  ElementsAttr weights;
  if (!matchPattern(wdq.getInput(), m_Constant(&weights)))
    return unfused("its weights are computed; 8-bit convolutions take "
                   "constant weights");
  std::string why;
  std::optional<EightBitActivation> a = activationOf(adq, why);
  if (!a)
    return unfused(why);
  auto it = cast<RankedTensorType>(conv.getInput().getType());
  auto wt = cast<RankedTensorType>(wdq.getInput().getType());
  auto ot = cast<RankedTensorType>(conv.getType());
  Type wq = wt.getElementType();
  if (!weightTypeMatches(*a, wq))
    return unfused("its activation is " + quantizedTypeName(a->type) +
                   " and its weights " + quantizedTypeName(wq));
  if (!target.hasWgmma())
    return unfused("target " + target.getChip() + " has no 8-bit wgmma");
  if (!it.hasStaticShape() || !ot.hasStaticShape())
    return unfused("its shape is symbolic; 8-bit convolutions are static");
  if (conv.getGroups() != 1)
    return unfused("it has " + Twine(conv.getGroups()) +
                   " groups; 8-bit convolutions have one");
  int64_t N = it.getDimSize(0), C = it.getDimSize(1), H = it.getDimSize(2),
          W = it.getDimSize(3);
  int64_t O = wt.getDimSize(0), KH = wt.getDimSize(2), KW = wt.getDimSize(3);
  int64_t OH = ot.getDimSize(2), OW = ot.getDimSize(3);
  // TMA's im2col copies read whole 16-byte rows of channels; more than 16
  // (the stem's few channels stay in float).
  if (C % 16 != 0 || C <= 16)
    return unfused("its " + Twine(C) +
                   " input channels are not a multiple of 16 above 16");
  if (!allZero(wdq.getZeroPoint()))
    return unfused("its weights' zero point is not 0");
  std::optional<SmallVector<double>> wScale = constantValues(wdq.getScale());
  ArrayRef<int64_t> sShape =
      cast<RankedTensorType>(wdq.getScale().getType()).getShape();
  // One scale, or one per output channel along the weights' axis 0 (the
  // importer reshapes a per-axis scale to O x 1 x 1 x 1).
  bool perChannel = wScale && static_cast<int64_t>(wScale->size()) == O &&
                    sShape.size() == 4 && sShape[0] == O;
  if (!wScale || (wScale->size() != 1 && !perChannel))
    return unfused("its weights' scale is not one constant, or one per "
                   "output channel");
  std::optional<std::vector<char>> bytes = eightBitBytes(weights);
  if (!bytes)
    return unfused("its weights' bytes cannot be read");

  OpBuilder b(conv);
  Location loc = conv.getLoc();
  // OIHW -> (KH, KW, O, I).
  std::vector<char> packed(bytes->size());
  for (int64_t o = 0; o < O; ++o)
    for (int64_t i = 0; i < C; ++i)
      for (int64_t h = 0; h < KH; ++h)
        for (int64_t k = 0; k < KW; ++k)
          packed[((h * KW + k) * O + o) * C + i] =
              (*bytes)[((o * C + i) * KH + h) * KW + k];
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocateAndCopyWithAlign(packed, alignof(uint64_t));
  Value w =
      ConstantOp::create(b, loc,
                         cast<ElementsAttr>(DenseResourceElementsAttr::get(
                             RankedTensorType::get({KH, KW, O, C}, wq),
                             "channels_last_weight", std::move(blob))));
  Value activation = signedActivation(*a);
  b.setInsertionPoint(conv);
  Type f32 = b.getF32Type();
  Value x =
      TransposeOp::create(b, loc, RankedTensorType::get({N, H, W, C}, wq),
                          activation, b.getDenseI64ArrayAttr({0, 2, 3, 1}));
  auto last = Conv2DOp::create(
      b, loc, RankedTensorType::get({N, OH, OW, O}, f32), x, w, Value(),
      conv.getStridesAttr(), conv.getPadsAttr(), conv.getDilationsAttr(),
      conv.getGroupsAttr(), b.getUnitAttr());
  // The body reads it through TMA's im2col mode, or it stays in float.
  if (!ConvGemm::of(last)) {
    Operation *shifted = activation.getDefiningOp();
    for (Operation *op :
         {last.getOperation(), x.getDefiningOp(), w.getDefiningOp()})
      op->erase();
    if (activation != adq.getInput() && shifted->use_empty())
      shifted->erase();
    return unfused("its window, padding or strides are past what TMA's "
                   "im2col copies reach");
  }
  Value y = last;
  if (a->zero != 0) {
    // z * (the weights of o the window of (oh, ow) covers inside the
    // image), exact in f32 up to 2^24; one per channel without padding.
    ArrayRef<int64_t> strides = conv.getStrides(), pads = conv.getPads(),
                      dilations = conv.getDilations();
    bool padded = llvm::any_of(pads, [](int64_t p) { return p != 0; });
    SmallVector<double> tapSums(KH * KW * O, 0.0);
    for (int64_t o = 0; o < O; ++o)
      for (int64_t i = 0; i < C; ++i)
        for (int64_t tap = 0; tap < KH * KW; ++tap)
          tapSums[tap * O + o] +=
              static_cast<int8_t>((*bytes)[(o * C + i) * KH * KW + tap]);
    int64_t pixels = padded ? OH * OW : 1;
    SmallVector<double> corr(pixels * O, 0.0);
    for (int64_t p = 0; p < pixels; ++p) {
      int64_t oh = p / OW, ow = p % OW;
      for (int64_t h = 0; h < KH; ++h)
        for (int64_t k = 0; k < KW; ++k) {
          int64_t ih = oh * strides[0] - pads[0] + h * dilations[0];
          int64_t iw = ow * strides[1] - pads[1] + k * dilations[1];
          if (padded && (ih < 0 || ih >= H || iw < 0 || iw >= W))
            continue;
          for (int64_t o = 0; o < O; ++o)
            corr[p * O + o] += a->zero * tapSums[(h * KW + k) * O + o];
        }
    }
    auto ct = padded ? RankedTensorType::get({1, OH, OW, O}, f32)
                     : RankedTensorType::get({O}, f32);
    Value c = ConstantOp::create(
        b, loc, makeFloatElements(ct, corr, "zero_point_offset"));
    y = SubOp::create(b, loc, y, c);
  }
  y = MulOp::create(b, loc, y, productScale(b, loc, a->scale, *wScale));
  Type et = ot.getElementType();
  if (et != f32)
    y = CastOp::create(b, loc, RankedTensorType::get({N, OH, OW, O}, et), y);
  if (Value bias = conv.getBias())
    y = AddOp::create(b, loc, y, bias);
  y = TransposeOp::create(b, loc, ot, y, b.getDenseI64ArrayAttr({0, 3, 1, 2}));
  conv.replaceAllUsesWith(y);
  conv.erase();
}

/// The value of a dequantization of constants, or null.
ElementsAttr evaluated(DequantizeOp dq) {
  auto type = cast<RankedTensorType>(dq.getType());
  if (type.getNumElements() > kMaxEvaluated)
    return nullptr;
  std::optional<SmallVector<double>> x = getConstFloats(dq.getInput()),
                                     scale = constantValues(dq.getScale()),
                                     zero = constantValues(dq.getZeroPoint());
  if (!x || !scale || !zero)
    return nullptr;
  auto st = cast<RankedTensorType>(dq.getScale().getType());
  auto zt = cast<RankedTensorType>(dq.getZeroPoint().getType());
  bool isFloat8 =
      isa<Float8E4M3FNType>(dq.getInput().getType().getElementType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  // The element of a broadcast operand of `operand`'s shape that index
  // `idx` of the result reads (right-aligned, size-1 dimensions repeat).
  auto source = [&](ArrayRef<int64_t> idx, ArrayRef<int64_t> operand) {
    int64_t at = 0, skip = rank - static_cast<int64_t>(operand.size());
    for (int64_t d = 0; d < static_cast<int64_t>(operand.size()); ++d)
      at = at * operand[d] + (operand[d] == 1 ? 0 : idx[d + skip]);
    return at;
  };
  SmallVector<double> values(type.getNumElements());
  SmallVector<int64_t> idx(rank, 0);
  for (int64_t i = 0, e = values.size(); i < e; ++i) {
    values[i] = dequantizeValue((*x)[i], (*zero)[source(idx, zt.getShape())],
                                (*scale)[source(idx, st.getShape())], isFloat8);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  return makeFloatElements(type, values, "dequantized");
}

struct QuantizedProductsPass
    : brrr::impl::BrrrQuantizedProductsBase<QuantizedProductsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Nothing to claim without quantization: the canonicalizer after this
    // pass folds what the exporters write before any pass reads a shape.
    bool quantized = false;
    func.walk(
        [&](Operation *op) { quantized |= isa<QuantizeOp, DequantizeOp>(op); });
    // No gate on symbolic extents here: this pass runs on the graph as
    // imported, where canonicalization has yet to fold the exporters'
    // lookups and masks, and its rewrites (8-bit products, folded
    // constants) keep the extents they find; brrr-lower-precision's gate
    // follows the canonicalizer.
    if (!quantized)
      return;
    TargetAttr target = targetOf(func);
    SmallVector<Operation *> products;
    func.walk([&](Operation *op) {
      if (isa<MatmulOp, Conv2DOp>(op))
        products.push_back(op);
    });
    for (Operation *op : products) {
      if (auto mm = dyn_cast<MatmulOp>(op))
        claim(mm, target);
      else
        claim(cast<Conv2DOp>(op), target);
    }
    SmallVector<DequantizeOp> left;
    func.walk([&](DequantizeOp dq) { left.push_back(dq); });
    for (DequantizeOp dq : left) {
      if (dq->use_empty()) {
        dq->erase();
        continue;
      }
      if (ElementsAttr value = evaluated(dq)) {
        OpBuilder b(dq);
        dq.replaceAllUsesWith(
            ConstantOp::create(b, dq.getLoc(), value).getResult());
        dq->erase();
      }
    }
  }
};

} // namespace
