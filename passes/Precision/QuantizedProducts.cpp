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
// Every dequantize of constants that no product claimed is then evaluated
// (up to 2^26 elements; a larger one stays a kernel), as the importer
// evaluates other constant dequantizations.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
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
  // The scales, once: sa * sw[n] in f32.
  SmallVector<double> scales;
  for (double s : weightScales)
    scales.push_back(static_cast<float>(static_cast<float>(activationScale) *
                                        static_cast<float>(s)));
  bool uniform = llvm::all_equal(scales);
  auto scaleType = uniform ? RankedTensorType::get({}, b.getF32Type())
                           : RankedTensorType::get({N}, b.getF32Type());
  Value s = ConstantOp::create(
      b, loc,
      makeFloatElements(scaleType,
                        uniform ? ArrayRef<double>(scales).take_front()
                                : ArrayRef<double>(scales),
                        "product_scale"));
  Value y = MulOp::create(b, loc, product, s);
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
  auto unfused = [&](const Twine &why) {
    mm->setAttr("brrr.quantized_unfused",
                StringAttr::get(mm.getContext(), why.str()));
  };
  ElementsAttr weights;
  if (!matchPattern(wdq.getInput(), m_Constant(&weights)))
    return unfused("it multiplies two computed tensors; 8-bit products "
                   "take a constant weight");
  auto qa = cast<RankedTensorType>(adq.getInput().getType());
  auto wt = cast<RankedTensorType>(wdq.getInput().getType());
  Type q = qa.getElementType();
  // A UINT8 activation (ONNX Runtime's default) is read as INT8, 128
  // less: its quantize writes INT8 with a zero point 128 lower, which
  // clamps alike, and the zero point correction takes z - 128.
  QuantizeOp unsignedQuantize;
  double unsignedZero = 0;
  if (q.isUnsignedInteger(8)) {
    unsignedQuantize = adq.getInput().getDefiningOp<QuantizeOp>();
    std::optional<SmallVector<double>> zq =
        unsignedQuantize ? constantValues(unsignedQuantize.getZeroPoint())
                         : std::nullopt;
    if (!zq || zq->size() != 1)
      return unfused("its UINT8 activation is not quantized in the model by "
                     "one zero point");
    unsignedZero = zq->front();
  } else if (!isEightBitProductType(q)) {
    return unfused("its activation is " + quantizedTypeName(q) +
                   "; 8-bit products take INT8, UINT8 or FLOAT8E4M3FN");
  }
  // A float8 activation takes a float8 weight; an INT8 or UINT8 one an
  // INT8 weight (ONNX Runtime's default: UINT8 activations, INT8 weights).
  Type wq = wt.getElementType();
  if (isa<Float8E4M3FNType>(q) ? wq != q : !wq.isSignlessInteger(8))
    return unfused("its activation is " + quantizedTypeName(q) +
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
  // An integer activation's zero point z: sum (qa - z) w = sum qa w - z
  // sum w, the second term a constant per output column.
  std::optional<SmallVector<double>> za = constantValues(adq.getZeroPoint());
  if (!za || za->size() != 1)
    return unfused("its activation's zero point is not one constant");
  if (!allZero(wdq.getZeroPoint()))
    return unfused("its weight's zero point is not 0");
  std::optional<SmallVector<double>> sa = constantValues(adq.getScale());
  if (!sa || sa->size() != 1)
    return unfused("its activation's scale is not one constant");
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
  Value activation = adq.getInput();
  double z = za->front();
  if (unsignedQuantize) {
    OpBuilder b(unsignedQuantize);
    b.setInsertionPointAfter(unsignedQuantize);
    Location at = unsignedQuantize.getLoc();
    auto signedZero = RankedTensorType::get({}, b.getI8Type());
    Value shifted = ConstantOp::create(
        b, at,
        DenseElementsAttr::get(
            signedZero,
            b.getIntegerAttr(b.getI8Type(),
                             static_cast<int64_t>(unsignedZero) - 128)));
    activation = QuantizeOp::create(b, at, unsignedQuantize.getInput(),
                                    unsignedQuantize.getScale(), shifted,
                                    unsignedQuantize.getSaturate());
    z -= 128;
  }
  replaceWithEightBitProduct(mm, activation, z, sa->front(), *sw, wq, kMajor, N,
                             K);
  // The float view of W, unless something else reads it.
  if (t && t->use_empty())
    t->erase();
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
    SmallVector<MatmulOp> products;
    func.walk([&](MatmulOp mm) { products.push_back(mm); });
    for (MatmulOp mm : products)
      claim(mm, target);
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
