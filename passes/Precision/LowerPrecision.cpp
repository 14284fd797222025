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

#include "passes/Passes.h"

#include "mlir/IR/PatternMatch.h"

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
    if (failed(
            mlir::brrr::requireSupportedShapes(getOperation(), getArgument())))
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
