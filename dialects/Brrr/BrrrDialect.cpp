//===- BrrrDialect.cpp - brrr dialect registration ----------------------===//
//
// Registers the brrr ops and materializes folded constants as
// `brrr.constant`.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

using namespace mlir;
using namespace mlir::brrr;

#include "dialects/Brrr/BrrrDialect.cpp.inc"
#include "dialects/Brrr/BrrrEnums.cpp.inc"

void BrrrDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Brrr/BrrrOps.cpp.inc"
      >();
}

Operation *BrrrDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
