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
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <string>

using namespace mlir;
using namespace mlir::brrr;

/// A fusion's kind, as the bare family keyword: `brrr.fusion row(...)`.
static ParseResult parseKernelFamily(OpAsmParser &parser,
                                     KernelFamilyAttr &kind) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseKeyword(&word))
    return failure();
  std::optional<KernelFamily> family = symbolizeKernelFamily(word);
  if (!family)
    return parser.emitError(loc, "unknown kernel family '")
           << word
           << "' (pointwise, row, reduce, movement, matmul, conv, pool or "
              "attention)";
  kind = KernelFamilyAttr::get(parser.getContext(), *family);
  return success();
}

static void printKernelFamily(OpAsmPrinter &printer, Operation *,
                              KernelFamilyAttr kind) {
  printer << stringifyKernelFamily(kind.getValue());
}

#define GET_OP_CLASSES
#include "dialects/Brrr/BrrrOps.cpp.inc"

std::string mlir::brrr::invalidTensorType(ShapedType type) {
  // Every stride and offset of the tensor is at most the product of its
  // non-zero dimensions, so that product must fit even when a zero
  // dimension makes the tensor empty.
  int64_t extent = 1;
  bool empty = false;
  for (int64_t d : type.getShape()) {
    if (ShapedType::isDynamic(d))
      return "it has a dynamic dimension";
    if (d < 0)
      return "dimension " + std::to_string(d) + " is negative";
    empty |= d == 0;
    if (d && llvm::MulOverflow(extent, d, extent))
      return "its element count overflows a 64-bit integer";
  }
  Type et = type.getElementType();
  if (empty || !et.isIntOrFloat())
    return "";
  int64_t bytes;
  if (llvm::MulOverflow(extent, elementBytes(et), bytes) ||
      bytes > kMaxTensorBytes)
    return "its " + std::to_string(extent) +
           " elements need more memory than any GPU has (" +
           std::to_string(kMaxTensorBytes / 1'000'000'000) + " GB)";
  return "";
}

std::string mlir::brrr::invalidTensorType(RankedTensorType type,
                                          ArrayRef<DimAttr> dims) {
  if (!isSymbolic(type))
    return invalidTensorType(type);
  std::optional<SmallVector<int64_t>> largest = largestShape(type, dims);
  if (!largest)
    return "an extent names an undeclared dimension or overflows a 64-bit "
           "integer";
  for (int64_t d : *largest)
    if (d < 0)
      return "an extent can be negative";
  return invalidTensorType(
      RankedTensorType::get(*largest, type.getElementType()));
}

LogicalResult ClipOp::verify() {
  if (getMin() && getMax() &&
      getMin()->convertToDouble() > getMax()->convertToDouble())
    return emitOpError("min ")
           << getMin()->convertToDouble() << " is greater than max "
           << getMax()->convertToDouble();
  return success();
}

LogicalResult AttentionOp::verify() {
  auto q = getQuery().getType(), k = getKey().getType(),
       v = getValue().getType();
  auto out = getResult().getType();
  for (auto [what, t] :
       {std::pair{"query", q}, {"key", k}, {"value", v}, {"result", out}})
    if (t.getRank() != 4)
      return emitOpError(what) << " must have rank 4 (batch, heads, "
                                  "sequence, head size), got "
                               << t;
  if (k.getElementType() != q.getElementType() ||
      v.getElementType() != q.getElementType())
    return emitOpError("query, key and value must have one element type");
  // Batch and sequences may be symbolic (compared as extents); heads and
  // head sizes are fixed.
  for (auto [what, t] :
       {std::pair{"query", q}, {"key", k}, {"value", v}, {"result", out}})
    if (t.isDynamicDim(1) || t.isDynamicDim(3))
      return emitOpError(what)
             << " heads and head size must be fixed, got " << t;
  SmallVector<AffineExpr> qe = extentsOf(q), ke = extentsOf(k),
                          ve = extentsOf(v), oe = extentsOf(out);
  SmallVector<DimAttr> dims = dimsOf(*this);
  auto text = [&](AffineExpr e) { return extentName(e, dims); };
  AffineExpr b = qe[0], sq = qe[2], sk = ke[2];
  int64_t h = q.getDimSize(1), d = q.getDimSize(3), hk = k.getDimSize(1);
  if (ke[0] != b || ve[0] != b)
    return emitOpError("key and value must have the query's batch ") << text(b);
  if (hk == 0 || h % hk || v.getDimSize(1) != hk)
    return emitOpError("key and value heads (")
           << hk << ", " << v.getDimSize(1)
           << ") must be equal and divide the query's " << h;
  if (k.getDimSize(3) != d)
    return emitOpError("key head size ")
           << k.getDimSize(3) << " differs from the query's " << d;
  if (ve[2] != sk)
    return emitOpError("value has ")
           << text(ve[2]) << " positions, key has " << text(sk);
  if (oe[0] != b || oe[1] != qe[1] || oe[2] != sq || oe[3] != ve[3])
    return emitOpError("result must be ")
           << text(b) << "x" << h << "x" << text(sq) << "x" << v.getDimSize(3)
           << ", got " << out;
  if (Value bias = getBias()) {
    auto bt = cast<RankedTensorType>(bias.getType());
    SmallVector<AffineExpr> scores = {b, qe[1], sq, sk};
    if (bt.getRank() > 5)
      return emitOpError("bias of rank ") << bt.getRank() << " exceeds 5";
    if (bt.getRank() == 5) {
      // The batch split as (B / P, P).
      int64_t period = bt.getDimSize(1);
      auto batch = dyn_cast<AffineConstantExpr>(b);
      if (!batch)
        return emitOpError("bias ")
               << bt << " splits a batch of symbolic extent " << text(b);
      if (period < 1 || batch.getValue() % period != 0)
        return emitOpError("bias ")
               << bt << " splits the batch of " << batch.getValue() << " by "
               << period << ", which does not divide it";
      scores = {getAffineConstantExpr(batch.getValue() / period, getContext()),
                getAffineConstantExpr(period, getContext()), qe[1], sq, sk};
    }
    SmallVector<AffineExpr> be = extentsOf(bt);
    for (int64_t i = 0; i < bt.getRank(); ++i) {
      AffineExpr want = scores[scores.size() - bt.getRank() + i];
      if (bt.getDimSize(i) != 1 && be[i] != want)
        return emitOpError("bias ")
               << bt << " does not broadcast to the scores " << text(b) << "x"
               << h << "x" << text(sq) << "x" << text(sk);
    }
  }
  if (!std::isfinite(getScale().convertToDouble()))
    return emitOpError("scale must be finite");
  return success();
}

LogicalResult LayerNormOp::verify() {
  if (getRms() && getBias())
    return emitOpError("an RMS norm takes no bias");
  if (getL2() && (getBias() || getRms()))
    return emitOpError("an L2 normalization takes no bias and is no RMS norm");
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
  if (isSymbolic(in) || isSymbolic(out)) {
    SmallVector<AffineExpr> ie = extentsOf(in), oe = extentsOf(out);
    for (int64_t i = 0; i < in.getRank(); ++i) {
      auto one = dyn_cast<AffineConstantExpr>(ie[i]);
      if ((!one || one.getValue() != 1) && ie[i] != oe[i + offset])
        return emitOpError("operand dimension ")
               << i << " cannot broadcast to the result's";
    }
    return success();
  }
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
  if (isSymbolic(in) || isSymbolic(out)) {
    auto from = productOf(extentsOf(in)), to = productOf(extentsOf(out));
    if (!from || !to || *from != *to)
      return emitOpError("the element counts of ")
             << in << " and " << out << " are not provably equal";
    return success();
  }
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("operand has ")
           << in.getNumElements() << " elements but the result has "
           << out.getNumElements();
  return success();
}

LogicalResult CastOp::verify() {
  if (extentsOf(getInput().getType()) != extentsOf(getResult().getType()))
    return emitOpError("extents change from ")
           << getInput().getType() << " to " << getResult().getType();
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
  std::optional<ArrayRef<double>> scales = getScales();
  // A symbolic extent is kept, at scale 1.
  SmallVector<AffineExpr> inExtents = extentsOf(in),
                          outExtents = extentsOf(out);
  for (int64_t i = 0; i < in.getRank(); ++i)
    if ((ShapedType::isDynamic(in.getDimSize(i)) ||
         ShapedType::isDynamic(out.getDimSize(i))) &&
        (inExtents[i] != outExtents[i] ||
         (scales && i < int64_t(scales->size()) && (*scales)[i] != 1.0)))
      return emitOpError("resizes symbolic dimension ")
             << i << "; a symbolic extent is kept, at scale 1";
  if (scales) {
    if (static_cast<int64_t>(scales->size()) != in.getRank())
      return emitOpError("has ")
             << scales->size() << " scales for rank " << in.getRank();
    for (double s : *scales)
      if (!(s > 0 && std::isfinite(s)))
        return emitOpError("scale ") << s << " is not positive and finite";
  }
  // Linear interpolation reads 2^k elements for k resized dimensions:
  // bilinear and trilinear, as onnxruntime runs them.
  int64_t resized = 0;
  for (int64_t i = 0; i < in.getRank(); ++i)
    resized += in.getDimSize(i) != out.getDimSize(i) ||
               (scales && (*scales)[i] != 1.0);
  if (getMode() == ResizeMode::linear && resized > 3)
    return emitOpError("linear resize interpolates at most 3 dimensions, "
                       "not ")
           << resized;
  return success();
}

void FusionOp::build(OpBuilder &builder, OperationState &state,
                     KernelFamily kind, ValueRange inputs,
                     TypeRange resultTypes) {
  state.addAttribute(getKindAttrName(state.name),
                     KernelFamilyAttr::get(builder.getContext(), kind));
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
           << block.getNumArguments() << " arguments for " << getInputs().size()
           << " inputs";
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
    if (kernel.getFamily() != getKind())
      return emitOpError("has a ")
             << stringifyKernelFamily(kernel.getFamily())
             << " kernel config but is a '" << stringifyKernelFamily(getKind())
             << "' fusion";
  }
  // Configs for ranges of rows: {rows, config} of the fusion's family,
  // rows ascending, below those of the fusion's own config.
  if (Attribute variants = (*this)->getAttr(kVariantsAttrName)) {
    auto list = dyn_cast<ArrayAttr>(variants);
    if (!list)
      return emitOpError(kVariantsAttrName)
             << " must be an array of {rows, config} dictionaries, got "
             << variants;
    if (!(*this)->getAttr(kKernelConfigAttrName))
      return emitOpError(kVariantsAttrName)
             << " needs a " << kKernelConfigAttrName
             << " for the rows above its last range";
    int64_t below = 0;
    for (Attribute v : list) {
      auto entry = dyn_cast<DictionaryAttr>(v);
      auto rows = entry ? entry.getAs<IntegerAttr>("rows") : IntegerAttr();
      auto kernel =
          entry ? entry.getAs<KernelConfigAttr>("config") : KernelConfigAttr();
      if (!rows || !rows.getType().isSignlessInteger(64) || !kernel ||
          entry.size() != 2)
        return emitOpError(kVariantsAttrName)
               << " entries are {rows = <i64>, config = #brrr.kernel<...>}, "
                  "got "
               << v;
      if (rows.getInt() <= below)
        return emitOpError(kVariantsAttrName)
               << " rows must ascend from 1, got " << rows.getInt() << " after "
               << below;
      if (kernel.getFamily() != getKind())
        return emitOpError(kVariantsAttrName)
               << " holds a " << stringifyKernelFamily(kernel.getFamily())
               << " kernel config but is a '"
               << stringifyKernelFamily(getKind()) << "' fusion";
      below = rows.getInt();
    }
  }
  // Its results' places in global memory: one #brrr.placement each.
  if (Attribute memory = (*this)->getAttr(kMemoryPlanAttrName)) {
    auto list = dyn_cast<ArrayAttr>(memory);
    if (!list || list.size() != getNumResults() ||
        !llvm::all_of(list, llvm::IsaPred<PlacementAttr>))
      return emitOpError(kMemoryPlanAttrName)
             << " must hold one #brrr.placement per result, got " << memory;
  }
  return success();
}
