//===- LowerPrecision.cpp - f32 products in f16 or bf16 -------------------===//
//
// Runs on the graph after batch norm is folded, before fusion (flag
// brrr-lower-precision), when the module asks for a lower precision
// (`brrr.precision` = "fp16" or "bf16", from brrrc --precision). Every f32
// matmul and convolution then multiplies in that type on Tensor Cores, with
// f32 accumulation: constant operands (weights, folded batch norm) are
// converted once at compile time, other operands are cast where they are
// read (the cast joins the producer's kernel), and the product is cast back
// to f32, so everything around it (softmax, normalizations, reductions,
// the model's outputs) keeps its declared f32. Other modes leave the graph
// alone: "tf32" is a kernel config (brrr-select-kernel-config).
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
#include "passes/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Format.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRLOWERPRECISION
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// `v` (f32) as a tensor of `low`: a converted constant, or a cast.
Value lowered(OpBuilder &b, Location loc, Value v, Type low) {
  auto type = cast<RankedTensorType>(v.getType());
  auto lowType = type.clone(low);
  if (auto c = v.getDefiningOp<ConstantOp>())
    if (std::optional<SmallVector<double>> values = getConstFloats(c))
      return ConstantOp::create(
          b, loc, makeFloatElements(lowType, *values, "lowered_weight"));
  return CastOp::create(b, loc, lowType, v);
}

/// Rebuilds `op` (a matmul or conv2d with f32 operands) on `low` operands
/// and casts its result back to f32.
void lowerProduct(Operation *op, Type low) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value v : op->getOperands())
    operands.push_back(lowered(b, loc, v, low));
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  OperationState state(loc, op->getName(), operands,
                       TypeRange{resultType.clone(low)}, op->getAttrs());
  Operation *product = b.create(state);
  Value back = CastOp::create(b, loc, resultType, product->getResult(0));
  op->getResult(0).replaceAllUsesWith(back);
  SmallVector<Value> old(op->getOperands());
  op->erase();
  // f32 weights nothing else reads would still be written to the artifact.
  for (Value v : old)
    if (auto c = v.getDefiningOp<ConstantOp>(); c && c->use_empty())
      c->erase();
}

struct LowerPrecisionPass
    : public mlir::brrr::impl::BrrrLowerPrecisionBase<LowerPrecisionPass> {
  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::ops)))
      return signalPassFailure();
    auto module = getOperation()->getParentOfType<ModuleOp>();
    auto precision = module
                         ? module->getAttrOfType<StringAttr>("brrr.precision")
                         : StringAttr();
    if (!precision)
      return;
    Builder b(&getContext());
    Type low;
    if (precision.getValue() == "fp16")
      low = b.getF16Type();
    else if (precision.getValue() == "bf16")
      low = b.getBF16Type();
    else if (precision.getValue() != "fp32" && precision.getValue() != "tf32") {
      module.emitError("unknown brrr.precision '")
          << precision.getValue() << "' (supported: fp32, tf32, fp16, bf16)";
      return signalPassFailure();
    }
    if (!low)
      return;
    SmallVector<Operation *> products;
    getOperation().walk([&](Operation *op) {
      if (isa<MatmulOp, Conv2DOp>(op) &&
          cast<RankedTensorType>(op->getOperand(0).getType())
              .getElementType()
              .isF32())
        products.push_back(op);
    });
    for (Operation *op : products)
      lowerProduct(op, low);
  }
};

} // namespace

std::string mlir::brrr::autoPrecision(ModuleOp module, std::string &why) {
  // Bytes of the products' constant operands (the weights, as stored: seen
  // through the casts an exporter wraps them in, the transposes and
  // reshapes that lay them out (a Gemm's transB), and the dequantization of
  // an explicitly quantized model) by element type. Scalars elsewhere (a
  // softmax scale, a mask's fill) do not count. The 8-bit weights of a
  // quantized model count apart, by the float type they dequantize to.
  uint64_t f16 = 0, bf16 = 0, f32 = 0;
  uint64_t eightTo16 = 0, eightToBf16 = 0, eightTo32 = 0;
  DenseSet<Operation *> counted;
  module.walk([&](Operation *op) {
    if (!isa<MatmulOp, Conv2DOp>(op))
      return;
    for (Value v : op->getOperands()) {
      Type dequantized;
      while (isa_and_nonnull<CastOp, TransposeOp, ReshapeOp, DequantizeOp>(
          v.getDefiningOp())) {
        if (auto dq = v.getDefiningOp<DequantizeOp>())
          dequantized = getElementTypeOrSelf(dq.getResult().getType());
        v = v.getDefiningOp()->getOperand(0);
      }
      auto c = v.getDefiningOp<ConstantOp>();
      auto type = c ? dyn_cast<RankedTensorType>(c.getType()) : nullptr;
      if (!type || !type.hasStaticShape() || !counted.insert(c).second)
        continue;
      Type et = type.getElementType();
      uint64_t n = type.getNumElements();
      if (dequantized && (et.isInteger(8) || isa<Float8E4M3FNType>(et))) {
        if (dequantized.isF16())
          eightTo16 += n;
        else if (dequantized.isBF16())
          eightToBf16 += n;
        else
          eightTo32 += n;
      } else if (et.isF16())
        f16 += 2 * n;
      else if (et.isBF16())
        bf16 += 2 * n;
      else if (et.isF32())
        f32 += 4 * n;
    }
  });
  auto size = [](uint64_t bytes) {
    std::string s;
    llvm::raw_string_ostream os(s);
    if (bytes < (1u << 20))
      os << llvm::format("%.1f KiB", bytes / 1024.0);
    else
      os << llvm::format("%.1f MiB", bytes / 1048576.0);
    return s;
  };
  uint64_t eight = eightTo16 + eightToBf16 + eightTo32;
  if (eight > f16 + bf16 + f32) {
    // An explicitly quantized model: its float products multiply in the
    // type its weights dequantize to, as the model (and onnxruntime) computes
    // them; its 8-bit products are the quantization's, whatever this says.
    std::string to = eightTo16 > eightTo32 && eightTo16 >= eightToBf16 ? "f16"
                     : eightToBf16 > eightTo32                         ? "bf16"
                                                                       : "f32";
    why = "product weights: " + size(eight) + " 8-bit, dequantized to " + to +
          "; " + size(f16) + " f16, " + size(bf16) + " bf16, " + size(f32) +
          " f32";
    return to == "f16" ? "fp16" : to == "bf16" ? "bf16" : "fp32";
  }
  if (f16 + bf16 + f32 > 0) {
    why = "product weights: " + size(f16) + " f16, " + size(bf16) + " bf16, " +
          size(f32) + " f32";
    if (f16 > f32 && f16 >= bf16)
      return "fp16";
    return bf16 > f32 ? "bf16" : "fp32";
  }
  // No product weights: the float inputs decide, when they agree.
  std::string input;
  bool mixed = false;
  module.walk([&](func::FuncOp f) {
    for (Type t : f.getArgumentTypes()) {
      auto type = dyn_cast<RankedTensorType>(t);
      if (!type || !isa<FloatType>(type.getElementType()))
        continue;
      Type et = type.getElementType();
      std::string name = et.isF16() ? "fp16" : et.isBF16() ? "bf16" : "fp32";
      mixed |= !input.empty() && input != name;
      input = name;
    }
  });
  if (input.empty() || mixed) {
    why = "no product weights, and no one float type of the inputs";
    return "fp32";
  }
  why = "no product weights; every float input is " +
        std::string(input == "fp32"   ? "f32"
                    : input == "fp16" ? "f16"
                                      : "bf16");
  return input;
}
