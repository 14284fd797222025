//===- CalibratedQuantization.cpp - 8-bit products from calibration ------===//
//
// Post-training quantization of a float model's products (brrrc
// --precision=fp8|int8 with --calibrate). Two passes share what they
// quantize:
//
// - brrr-calibration-outputs returns each activation to quantize, so that
//   a build of the model run on the calibration inputs measures its range;
// - brrr-quantize-calibrated takes the measured ranges (the module's
//   `brrr.calibration` table) and writes each product in 8 bits, in the
//   form brrr-quantized-products gives a QDQ model's (EightBitProducts.h).
//
// A product is quantized when it is a matmul of a float activation by a
// constant float matrix (directly, or transposed: Gemm's transB) whose
// contraction is a positive multiple of 16: the 8-bit body reads rows of K
// bytes through TMA; or a convolution of one group over more than 16 input
// channels in whole 16-byte rows, with constant weights. Its key is the
// name of its ONNX node; products that read one activation share it, under
// the key of the first. A convolution is written as a QDQ model's
// (dequantized 8-bit activation and weights, a scale per output channel),
// which brrr-quantized-products then claims. Additions that read a
// convolution's activation (a residual connection) read its dequantized
// copy too (`residuals`).
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
#include "passes/Passes.h"
#include "passes/Precision/Calibration.h"
#include "passes/Precision/EightBitProducts.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRCALIBRATIONOUTPUTS
#define GEN_PASS_DEF_BRRRQUANTIZECALIBRATED
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// A product to quantize: a matmul, its weight read as a K x N matrix, or
/// a convolution, its OIHW weights N (output channels) rows of K.
struct Product {
  MatmulOp mm;
  Conv2DOp conv;
  Value weight; // the constant (N x K when transposed)
  TransposeOp transpose;
  int64_t K = 0, N = 0;
  Operation *op() { return mm ? mm.getOperation() : conv.getOperation(); }
};

/// The activations to quantize, in program order, each with its key and
/// the products that read it.
struct Activation {
  std::string key;
  SmallVector<Product> products;
};

/// `mm` as a product to quantize, if it is one: its activation of any
/// extents (symbolic rows too), its weight a constant matrix.
std::optional<Product> productOf(MatmulOp mm) {
  auto at = dyn_cast<RankedTensorType>(mm.getLhs().getType());
  if (!at || at.getRank() < 2 || ShapedType::isDynamic(at.getShape().back()) ||
      !isa<Float16Type, BFloat16Type, Float32Type>(at.getElementType()))
    return std::nullopt;
  // Already quantized by the model (brrr-quantized-products' business), or
  // a constant: nothing to measure.
  if (mm.getLhs().getDefiningOp<DequantizeOp>() ||
      matchPattern(mm.getLhs(), m_Constant()))
    return std::nullopt;
  Product p;
  p.mm = mm;
  p.weight = mm.getRhs();
  if (auto t = p.weight.getDefiningOp<TransposeOp>();
      t && t.getPerm() == ArrayRef<int64_t>{1, 0}) {
    p.transpose = t;
    p.weight = t.getInput();
  }
  auto wt = dyn_cast<RankedTensorType>(p.weight.getType());
  if (!wt || wt.getRank() != 2 || wt.getElementType() != at.getElementType() ||
      !matchPattern(p.weight, m_Constant()))
    return std::nullopt;
  p.K = wt.getDimSize(p.transpose ? 1 : 0);
  p.N = wt.getDimSize(p.transpose ? 0 : 1);
  if (p.K <= 0 || p.K % 16 != 0 || p.N <= 0)
    return std::nullopt;
  return p;
}

/// `conv` as a product to quantize, if it is one: NCHW, static, one
/// group of more than 16 float input channels in whole 16-byte rows (what
/// the 8-bit convolution body reads), constant weights of the same type.
std::optional<Product> productOf(Conv2DOp conv) {
  auto it = dyn_cast<RankedTensorType>(conv.getInput().getType());
  auto wt = dyn_cast<RankedTensorType>(conv.getWeight().getType());
  if (conv.getChannelsLast() || conv.getGroups() != 1 || !it || !wt ||
      !it.hasStaticShape() || !wt.hasStaticShape() || it.getRank() != 4 ||
      wt.getRank() != 4 ||
      !isa<Float16Type, BFloat16Type, Float32Type>(it.getElementType()) ||
      wt.getElementType() != it.getElementType())
    return std::nullopt;
  int64_t C = it.getDimSize(1);
  if (C % 16 != 0 || C <= 16 || conv.getInput().getDefiningOp<DequantizeOp>() ||
      matchPattern(conv.getInput(), m_Constant()) ||
      !matchPattern(conv.getWeight(), m_Constant()))
    return std::nullopt;
  Product p;
  p.conv = conv;
  p.weight = conv.getWeight();
  p.N = wt.getDimSize(0);
  p.K = wt.getNumElements() / p.N;
  return p;
}

/// The activations `func` quantizes, keyed as brrr-calibration-outputs
/// names them. A node name that two activations would share gets `#2`,
/// `#3`, ... after it, in program order.
llvm::MapVector<Value, Activation> activationsOf(func::FuncOp func) {
  llvm::MapVector<Value, Activation> out;
  llvm::StringSet<> keys;
  unsigned unnamed = 0;
  func.walk([&](Operation *op) {
    std::optional<Product> p;
    if (auto mm = dyn_cast<MatmulOp>(op))
      p = productOf(mm);
    else if (auto conv = dyn_cast<Conv2DOp>(op))
      p = productOf(conv);
    if (!p)
      return;
    Activation &a = out[op->getOperand(0)];
    if (a.key.empty()) {
      std::string base = nodeNameOf(op->getLoc()).str();
      if (base.empty())
        base = (p->mm ? "matmul_" : "conv_") + std::to_string(unnamed++);
      std::string key = base;
      for (int i = 2; keys.contains(key); ++i)
        key = base + "#" + std::to_string(i);
      keys.insert(key);
      a.key = key;
    }
    a.products.push_back(*p);
  });
  return out;
}

struct CalibrationOutputsPass
    : brrr::impl::BrrrCalibrationOutputsBase<CalibrationOutputsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    llvm::MapVector<Value, Activation> activations = activationsOf(func);
    if (activations.empty())
      return;
    auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    SmallVector<Value> results(ret.getOperands());
    SmallVector<Type> types(func.getFunctionType().getResults());
    unsigned first = results.size();
    for (auto &[value, activation] : activations) {
      results.push_back(value);
      types.push_back(value.getType());
    }
    ret->setOperands(results);
    func.setType(FunctionType::get(func.getContext(),
                                   func.getFunctionType().getInputs(), types));
    unsigned i = first;
    for (auto &[value, activation] : activations)
      func.setResultAttr(
          i++, "brrr.name",
          StringAttr::get(func.getContext(),
                          kCalibrationOutputPrefix.str() + activation.key));
  }
};

/// `x` rounded to the nearest value of `type`, no smaller than its
/// smallest normal magnitude.
double roundToType(double x, FloatType type) {
  const llvm::fltSemantics &sem = type.getFloatSemantics();
  APFloat v(x);
  bool lost;
  v.convert(sem, APFloat::rmNearestTiesToEven, &lost);
  APFloat smallest = APFloat::getSmallestNormalized(sem);
  if (v < smallest)
    v = smallest;
  v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return v.convertToDouble();
}

/// The 8-bit code of `x` (already divided by its scale): INT8 rounds half
/// to even and clamps to [-127, 127]; FLOAT8E4M3FN (`float8`) rounds to
/// nearest even and saturates at 448.
char quantizeWeight(double x, bool float8) {
  if (float8) {
    APFloat v = roundToFloat8(APFloat(x), /*saturate=*/true);
    return static_cast<char>(v.bitcastToAPInt().getZExtValue());
  }
  double r = std::nearbyint(std::clamp(x, -127.0, 127.0));
  return static_cast<char>(static_cast<int8_t>(r));
}

/// Rows 0..N-1 of K weights (`value(n, k)`) quantized row by row: each
/// row's scale is its largest magnitude over `qmax` (`rounded` as its
/// consumer stores it; a row of zeros keeps 1, as any scale gives it
/// zeros), in `scales`; the codes row after row.
std::vector<char> quantizeRows(int64_t N, int64_t K,
                               function_ref<double(int64_t, int64_t)> value,
                               double qmax, bool float8,
                               function_ref<double(double)> rounded,
                               SmallVectorImpl<double> &scales) {
  scales.assign(N, 1.0);
  std::vector<char> codes(N * K);
  for (int64_t n = 0; n < N; ++n) {
    double wmax = 0;
    for (int64_t k = 0; k < K; ++k)
      wmax = std::max(wmax, std::fabs(value(n, k)));
    if (wmax > 0)
      scales[n] = rounded(wmax / qmax);
    for (int64_t k = 0; k < K; ++k)
      codes[n * K + k] = quantizeWeight(value(n, k) / scales[n], float8);
  }
  return codes;
}

struct QuantizeCalibratedPass
    : brrr::impl::BrrrQuantizeCalibratedBase<QuantizeCalibratedPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (precision != "fp8" && precision != "int8") {
      func.emitError() << "brrr-quantize-calibrated: unknown precision '"
                       << precision << "' (supported: fp8, int8)";
      return signalPassFailure();
    }
    llvm::MapVector<Value, Activation> activations = activationsOf(func);
    if (activations.empty())
      return;
    auto module = func->getParentOfType<ModuleOp>();
    auto table =
        module ? module->getAttrOfType<DictionaryAttr>(kCalibrationAttrName)
               : nullptr;
    if (!table) {
      func.emitError() << "8-bit products need the calibration table (module "
                          "attribute '"
                       << kCalibrationAttrName
                       << "'; brrrc --calibrate or --calibration-cache)";
      return signalPassFailure();
    }
    TargetAttr target = targetOf(func);
    if (!target.hasWgmma()) {
      func.emitWarning() << "target " << target.getChip()
                         << " has no 8-bit wgmma: every product stays in "
                            "float";
      return;
    }
    bool float8 = precision == "fp8";
    bool failed = false;
    for (auto &[x, activation] : activations) {
      Operation *first = activation.products.front().op();
      auto entry = table.getAs<FloatAttr>(activation.key);
      if (!entry) {
        first->emitError() << "product '" << activation.key
                           << "' has no entry in the calibration table: it was "
                              "measured on another model";
        failed = true;
        continue;
      }
      double amax = entry.getValueAsDouble();
      if (!std::isfinite(amax) || amax < 0) {
        char number[32];
        std::snprintf(number, sizeof(number), "%g", amax);
        StringRef range = std::isnan(amax) ? "NaN"
                          : std::isinf(amax)
                              ? (amax < 0 ? "-infinity" : "infinity")
                              : number;
        first->emitError() << "calibration gives product '" << activation.key
                           << "' an activation range of " << range
                           << "; it needs a finite largest magnitude >= 0";
        failed = true;
        continue;
      }
      if (amax == 0) {
        for (Product &p : activation.products)
          p.op()->setAttr("brrr.quantized_unfused",
                          StringAttr::get(&getContext(),
                                          "its activation was 0 on every "
                                          "calibration input"));
        continue;
      }
      quantize(x, amax, activation.products, float8);
    }
    if (failed)
      signalPassFailure();
  }

  /// Quantizes activation `x` of largest magnitude `amax` and rewrites
  /// each product reading it.
  void quantize(Value x, double amax, MutableArrayRef<Product> products,
                bool float8) {
    double qmax = float8 ? 448.0 : 127.0;
    double scale = amax / qmax;
    auto xt = cast<RankedTensorType>(x.getType());
    auto ft = cast<FloatType>(xt.getElementType());
    // A float8 scale is a power of two (the next at or above range / 448):
    // E4M3FN is a float, so that only moves the range down at most one
    // binade (to 224..448; precision is lost only at the subnormal end),
    // and the quantizing kernel multiplies by the reciprocal exactly
    // instead of dividing (a division's SASS sequence per element, in
    // the epilogue of every product whose output is quantized).
    if (float8)
      scale = std::exp2(std::ceil(std::log2(scale)));
    scale = roundToType(scale, ft);
    MLIRContext *ctx = &getContext();
    Type q = float8 ? Type(Float8E4M3FNType::get(ctx))
                    : Type(IntegerType::get(ctx, 8));
    OpBuilder b(products.front().op());
    if (Operation *def = x.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(x.getParentBlock());
    Location loc = products.front().op()->getLoc();
    auto scalar = [&](Type t) { return RankedTensorType::get({}, t); };
    Value s = ConstantOp::create(
        b, loc, makeFloatElements(scalar(ft), {scale}, "activation_scale"));
    Value zero = ConstantOp::create(
        b, loc, DenseElementsAttr::get(scalar(q), b.getZeroAttr(q)));
    Value qx = QuantizeOp::create(b, loc, x, s, zero, /*saturate=*/true);
    Value dx;
    for (Product &p : products) {
      std::optional<SmallVector<double>> w = getConstFloats(p.weight);
      if (!w || static_cast<int64_t>(w->size()) != p.K * p.N) {
        p.op()->setAttr("brrr.quantized_unfused",
                        StringAttr::get(ctx, "its weight's values cannot be "
                                             "read"));
        continue;
      }
      if (!llvm::all_of(*w, [](double v) { return std::isfinite(v); })) {
        p.op()->setAttr("brrr.quantized_unfused",
                        StringAttr::get(ctx, "its weight holds a NaN or an "
                                             "infinity"));
        continue;
      }
      if (p.conv) {
        if (!dx)
          dx = DequantizeOp::create(b, loc, qx, s, zero);
        quantizeConv(p, *w, dx, q, ft, qmax, float8);
        continue;
      }
      // W[k][n], stored K x N, or N x K under a transpose.
      auto at = [&](int64_t k, int64_t n) {
        return p.transpose ? (*w)[n * p.K + k] : (*w)[k * p.N + n];
      };
      SmallVector<double> columnScales;
      std::vector<char> kMajor = quantizeRows(
          p.N, p.K, [&](int64_t n, int64_t k) { return at(k, n); }, qmax,
          float8, [](double scale) { return scale; }, columnScales);
      TransposeOp t = p.transpose;
      replaceWithEightBitProduct(p.mm, qx, 0, scale, columnScales, q, kMajor,
                                 p.N, p.K);
      if (t && t->use_empty())
        t->erase();
    }
    // The residual stream: additions of two tensors of its shape beside
    // the convolutions read the dequantized copy too, so that the kernel
    // computing `x` stores it in 8 bits alone and the one adding it reads
    // 8 bits.
    if (residuals && dx &&
        llvm::all_of(products, [](Product &p) { return bool(p.conv); }))
      for (OpOperand &use : llvm::make_early_inc_range(x.getUses()))
        if (auto add = dyn_cast<AddOp>(use.getOwner());
            add && add.getLhs().getType() == x.getType() &&
            add.getRhs().getType() == x.getType())
          use.set(dx);
  }

  /// Makes convolution `p` read the dequantized activation `dx` and its
  /// weights quantized per output channel (by their largest magnitude over
  /// `qmax`, rounded to the weights' type `ft`) and dequantized: a QDQ
  /// model's convolution, for brrr-quantized-products.
  void quantizeConv(Product &p, ArrayRef<double> w, Value dx, Type q,
                    FloatType ft, double qmax, bool float8) {
    OpBuilder b(p.conv);
    Location loc = p.conv.getLoc();
    auto wt = cast<RankedTensorType>(p.weight.getType());
    SmallVector<double> scales;
    std::vector<char> codes = quantizeRows(
        p.N, p.K, [&](int64_t n, int64_t k) { return w[n * p.K + k]; }, qmax,
        float8, [&](double scale) { return roundToType(scale, ft); }, scales);
    AsmResourceBlob blob =
        HeapAsmResourceBlob::allocateAndCopyWithAlign(codes, alignof(uint64_t));
    Value wq = ConstantOp::create(
        b, loc,
        cast<ElementsAttr>(DenseResourceElementsAttr::get(
            wt.clone(q), "calibrated_weight", std::move(blob))));
    auto axis = RankedTensorType::get({p.N, 1, 1, 1}, ft);
    Value ws = ConstantOp::create(
        b, loc, makeFloatElements(axis, scales, "weight_scale"));
    Value wz = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({p.N, 1, 1, 1}, q),
                               b.getZeroAttr(q)));
    Value wd = DequantizeOp::create(b, loc, wq, ws, wz);
    p.conv.getInputMutable().assign(dx);
    p.conv.getWeightMutable().assign(wd);
  }
};

} // namespace
