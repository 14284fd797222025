//===- BrrrOps.cpp - brrr op definitions and verifiers ------------------===//
//
// Generated op definitions plus the verifiers of ops whose result shape is
// given rather than inferred. Type inference lives in
// BrrrShapeInference.cpp, folding and canonicalization in BrrrFolders.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::brrr;

#define GET_OP_CLASSES
#include "dialects/Brrr/BrrrOps.cpp.inc"

LogicalResult ClipOp::verify() {
  if (getMin() && getMax() &&
      getMin()->convertToDouble() > getMax()->convertToDouble())
    return emitOpError("min ")
           << getMin()->convertToDouble() << " is greater than max "
           << getMax()->convertToDouble();
  return success();
}

LogicalResult ExpandOp::verify() {
  auto in = getInput().getType();
  auto out = getResult().getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("element type changes from ")
           << in.getElementType() << " to " << out.getElementType();
  if (in.getRank() > out.getRank())
    return emitOpError("cannot broadcast rank ")
           << in.getRank() << " to the lower rank " << out.getRank();
  int64_t offset = out.getRank() - in.getRank();
  for (int64_t i = 0; i < in.getRank(); ++i) {
    int64_t d = in.getDimSize(i);
    if (d != 1 && d != out.getDimSize(i + offset))
      return emitOpError("operand dimension ")
             << i << " of size " << d << " cannot broadcast to size "
             << out.getDimSize(i + offset);
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto in = getInput().getType();
  auto out = getResult().getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("element type changes from ")
           << in.getElementType() << " to " << out.getElementType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("operand has ")
           << in.getNumElements() << " elements but the result has "
           << out.getNumElements();
  return success();
}

LogicalResult ResizeOp::verify() {
  auto in = getInput().getType();
  auto out = getResult().getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("element type changes from ")
           << in.getElementType() << " to " << out.getElementType();
  if (in.getRank() != out.getRank())
    return emitOpError("rank changes from ")
           << in.getRank() << " to " << out.getRank();
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (in.getDimSize(i) == 0 && out.getDimSize(i) != 0)
      return emitOpError("cannot resize empty dimension ") << i;
  return success();
}

void FusionOp::build(OpBuilder &builder, OperationState &state, StringRef kind,
                     ValueRange inputs, TypeRange resultTypes) {
  state.addAttribute(getKindAttrName(state.name), builder.getStringAttr(kind));
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value v : inputs)
    block->addArgument(v.getType(), v.getLoc());
}

LogicalResult FusionOp::verify() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("body has ")
           << block.getNumArguments() << " arguments for "
           << getInputs().size() << " inputs";
  for (auto [arg, in] : llvm::zip(block.getArguments(), getInputs()))
    if (arg.getType() != in.getType())
      return emitOpError("body argument type ")
             << arg.getType() << " differs from input type " << in.getType();
  auto yield = cast<YieldOp>(block.getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("yields ")
           << yield.getValues().getTypes() << " but the results are "
           << getResultTypes();
  if (Attribute config = (*this)->getAttr(kKernelConfigAttrName)) {
    auto kernel = dyn_cast<KernelConfigAttr>(config);
    if (!kernel)
      return emitOpError(kKernelConfigAttrName)
             << " must be a #brrr.kernel, got " << config;
    if (stringifyKernelFamily(kernel.getFamily()) != getKind())
      return emitOpError("has a ")
             << stringifyKernelFamily(kernel.getFamily())
             << " kernel config but is a '" << getKind() << "' fusion";
  }
  return success();
}
