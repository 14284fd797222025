//===- BrrrSymbolic.cpp - symbolic dimensions and their extents ----------===//
//
// A dimension fixed only at run time is `?` in its tensor type, and the
// type's `#brrr.extents` encoding says which extent it is: an affine
// expression of the module's symbolic dimensions (`brrr.dims`). This file
// holds the helpers that build, compare, bound and print those extents, and
// the verifiers of the two attributes.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::brrr;

LogicalResult DimAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              StringRef name, int64_t min, int64_t max) {
  if (name.empty())
    return emitError() << "a symbolic dimension needs a name";
  if (min < 1 || max < min)
    return emitError() << "symbolic dimension '" << name << "' has range "
                       << min << ".." << max
                       << "; a range starts at 1 or more and does not "
                          "decrease";
  return success();
}

LogicalResult ExtentsAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  AffineMap map = getMap();
  if (map.getNumDims() != 0 || map.getNumResults() != shape.size())
    return emitError() << "#brrr.extents needs a map of no dimensions and one "
                          "result per tensor dimension ("
                       << shape.size() << "), got " << AffineMapAttr::get(map);
  for (auto [i, d] : llvm::enumerate(shape)) {
    AffineExpr e = map.getResult(i);
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (ShapedType::isDynamic(d) ? bool(c) : !c || c.getValue() != d)
      return emitError() << "dimension " << i << " of the tensor is "
                         << (ShapedType::isDynamic(d) ? std::string("?")
                                                      : std::to_string(d))
                         << " but its #brrr.extents says " << extentName(e, {})
                         << "; static dimensions are constants, symbolic "
                            "ones are not";
  }
  return success();
}

bool mlir::brrr::isStaticOrSymbolic(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  if (!rt)
    return false;
  if (rt.hasStaticShape())
    return !rt.getEncoding();
  return isa_and_nonnull<ExtentsAttr>(rt.getEncoding());
}

bool mlir::brrr::isSymbolic(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && !rt.hasStaticShape() &&
         isa_and_nonnull<ExtentsAttr>(rt.getEncoding());
}

SmallVector<AffineExpr> mlir::brrr::extentsOf(RankedTensorType t) {
  MLIRContext *context = t.getContext();
  auto encoding = dyn_cast_or_null<ExtentsAttr>(t.getEncoding());
  SmallVector<AffineExpr> extents;
  for (auto [i, d] : llvm::enumerate(t.getShape())) {
    if (!ShapedType::isDynamic(d))
      extents.push_back(getAffineConstantExpr(d, context));
    else
      extents.push_back(encoding ? encoding.getMap().getResult(i)
                                 : AffineExpr());
  }
  return extents;
}

unsigned mlir::brrr::symbolCountOf(ArrayRef<AffineExpr> extents) {
  unsigned symbols = 0;
  for (AffineExpr e : extents)
    if (e)
      e.walk([&](AffineExpr sub) {
        if (auto s = dyn_cast<AffineSymbolExpr>(sub))
          symbols = std::max(symbols, s.getPosition() + 1);
      });
  return symbols;
}

ExtentsAttr mlir::brrr::extentsAttrOf(MLIRContext *context,
                                      ArrayRef<AffineExpr> extents) {
  return ExtentsAttr::get(
      context, AffineMap::get(0, symbolCountOf(extents), extents, context));
}

RankedTensorType mlir::brrr::tensorTypeOf(MLIRContext *context,
                                          ArrayRef<AffineExpr> extents,
                                          Type elementType) {
  SmallVector<int64_t> shape;
  bool symbolic = false;
  for (AffineExpr e : extents) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    symbolic |= !c || c.getValue() < 0;
    shape.push_back(c && c.getValue() >= 0 ? c.getValue()
                                           : ShapedType::kDynamic);
  }
  if (!symbolic)
    return RankedTensorType::get(shape, elementType);
  return RankedTensorType::get(shape, elementType,
                               extentsAttrOf(context, extents));
}

RankedTensorType mlir::brrr::shapedLike(RankedTensorType like,
                                        ArrayRef<int64_t> shape,
                                        Type elementType) {
  SmallVector<AffineExpr> symbolic;
  for (AffineExpr e : extentsOf(like))
    if (!isa<AffineConstantExpr>(e))
      symbolic.push_back(e);
  SmallVector<AffineExpr> extents;
  size_t next = 0;
  for (int64_t d : shape) {
    if (!ShapedType::isDynamic(d)) {
      extents.push_back(getAffineConstantExpr(d, like.getContext()));
      continue;
    }
    assert(next < symbolic.size() && "more ? dimensions than symbolic extents");
    extents.push_back(symbolic[next++]);
  }
  assert(next == symbolic.size() && "fewer ? dimensions than symbolic extents");
  return tensorTypeOf(like.getContext(), extents, elementType);
}

SmallVector<DimAttr> mlir::brrr::dimsOf(Operation *op) {
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  SmallVector<DimAttr> dims;
  if (!module)
    return dims;
  if (auto list = module->getAttrOfType<ArrayAttr>(kDimsAttrName))
    for (Attribute a : list)
      if (auto d = dyn_cast<DimAttr>(a))
        dims.push_back(d);
  return dims;
}

namespace {
using Range = std::pair<int64_t, int64_t>;

std::optional<Range> rangeOfImpl(AffineExpr e, ArrayRef<DimAttr> dims) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return Range{c.getValue(), c.getValue()};
  if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
    if (s.getPosition() >= dims.size())
      return std::nullopt;
    return Range{dims[s.getPosition()].getMin(),
                 dims[s.getPosition()].getMax()};
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return std::nullopt; // a dimension expression: never an extent
  auto l = rangeOfImpl(bin.getLHS(), dims);
  auto r = rangeOfImpl(bin.getRHS(), dims);
  if (!l || !r)
    return std::nullopt;
  int64_t a, b;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(l->first, r->first, a) ||
        llvm::AddOverflow(l->second, r->second, b))
      return std::nullopt;
    return Range{a, b};
  case AffineExprKind::Mul: {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t x : {l->first, l->second})
      for (int64_t y : {r->first, r->second}) {
        int64_t p;
        if (llvm::MulOverflow(x, y, p))
          return std::nullopt;
        lo = std::min(lo, p);
        hi = std::max(hi, p);
      }
    return Range{lo, hi};
  }
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    // Affine division is by a positive constant, so it is monotone.
    if (r->first != r->second || r->first <= 0)
      return std::nullopt;
    bool ceil = e.getKind() == AffineExprKind::CeilDiv;
    auto div = [&](int64_t x) {
      return ceil ? llvm::divideCeilSigned(x, r->first)
                  : llvm::divideFloorSigned(x, r->first);
    };
    return Range{div(l->first), div(l->second)};
  }
  case AffineExprKind::Mod:
    if (r->first != r->second || r->first <= 0)
      return std::nullopt;
    return Range{0, r->first - 1};
  default:
    return std::nullopt;
  }
}
} // namespace

std::optional<std::pair<int64_t, int64_t>>
mlir::brrr::rangeOf(AffineExpr extent, ArrayRef<DimAttr> dims) {
  if (!extent)
    return std::nullopt;
  // Terms that cancel (s0 - (s0 - 1)) must cancel before the interval
  // arithmetic widens them.
  unsigned symbols = std::max<unsigned>(dims.size(), symbolCountOf(extent));
  return rangeOfImpl(simplifyAffineExpr(extent, 0, symbols), dims);
}

namespace {
/// `e` at the symbol values `at`, or nullopt where it names a dimension or
/// a symbol past `at`, divides by a non-positive value or overflows.
std::optional<int64_t> valueAt(AffineExpr e, ArrayRef<int64_t> at) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return s.getPosition() < at.size()
               ? std::optional<int64_t>(at[s.getPosition()])
               : std::nullopt;
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return std::nullopt;
  std::optional<int64_t> l = valueAt(bin.getLHS(), at),
                         r = valueAt(bin.getRHS(), at);
  if (!l || !r)
    return std::nullopt;
  int64_t v;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(*l, *r, v))
      return std::nullopt;
    return v;
  case AffineExprKind::Mul:
    if (llvm::MulOverflow(*l, *r, v))
      return std::nullopt;
    return v;
  case AffineExprKind::FloorDiv:
    return *r > 0 ? std::optional<int64_t>(llvm::divideFloorSigned(*l, *r))
                  : std::nullopt;
  case AffineExprKind::CeilDiv:
    return *r > 0 ? std::optional<int64_t>(llvm::divideCeilSigned(*l, *r))
                  : std::nullopt;
  case AffineExprKind::Mod:
    return *r > 0 ? std::optional<int64_t>(llvm::mod(*l, *r)) : std::nullopt;
  default:
    return std::nullopt;
  }
}

/// Whether `e` never decreases as any symbol grows over `dims`' ranges:
/// sums, products of operands that are never negative, and quotients by
/// positive constants of such expressions (no remainder).
bool isMonotone(AffineExpr e, ArrayRef<DimAttr> dims) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return isa<AffineConstantExpr, AffineSymbolExpr>(e);
  auto nonNegative = [&](AffineExpr x) {
    std::optional<std::pair<int64_t, int64_t>> r = rangeOf(x, dims);
    return r && r->first >= 0 && isMonotone(x, dims);
  };
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return isMonotone(bin.getLHS(), dims) && isMonotone(bin.getRHS(), dims);
  case AffineExprKind::Mul:
    return nonNegative(bin.getLHS()) && nonNegative(bin.getRHS());
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    return isa<AffineConstantExpr>(bin.getRHS()) &&
           cast<AffineConstantExpr>(bin.getRHS()).getValue() > 0 &&
           isMonotone(bin.getLHS(), dims);
  default:
    return false;
  }
}
} // namespace

std::optional<SmallVector<int64_t>>
mlir::brrr::largestWithin(ArrayRef<AffineExpr> exprs, AffineExpr bound,
                          int64_t upTo, ArrayRef<DimAttr> dims) {
  auto known = [&](AffineExpr e) {
    return e && symbolCountOf(e) <= dims.size() && isMonotone(e, dims);
  };
  if (dims.empty() || !known(bound) || !llvm::all_of(exprs, known))
    return std::nullopt;
  // Every point of the region is below one where the last symbol is as
  // large as the bound allows: walk the other symbols' values and search
  // the last one's.
  uint64_t points = 1;
  for (DimAttr d : dims.drop_back()) {
    // Each factor is checked before it multiplies: no product overflows
    // (a range does not decrease: DimAttr::verify).
    uint64_t values = uint64_t(d.getMax()) - uint64_t(d.getMin()) + 1;
    if (values > kLargestWithinPoints ||
        (points *= values) > kLargestWithinPoints)
      return std::nullopt;
  }
  SmallVector<int64_t> largest(exprs.size(), 0);
  SmallVector<int64_t> at;
  for (DimAttr d : dims)
    at.push_back(d.getMin());
  auto fits = [&](int64_t last) {
    at.back() = last;
    std::optional<int64_t> v = valueAt(bound, at);
    return v && *v <= upTo;
  };
  while (true) {
    int64_t lo = dims.back().getMin(), hi = dims.back().getMax();
    if (fits(lo)) {
      while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (fits(mid))
          lo = mid;
        else
          hi = mid - 1;
      }
      at.back() = lo;
      for (auto [i, e] : llvm::enumerate(exprs)) {
        std::optional<int64_t> v = valueAt(e, at);
        if (!v)
          return std::nullopt;
        largest[i] = std::max(largest[i], *v);
      }
    }
    // The next values of the other symbols, the first fastest.
    size_t k = 0;
    for (; k + 1 < dims.size(); ++k) {
      if (at[k] < dims[k].getMax()) {
        ++at[k];
        break;
      }
      at[k] = dims[k].getMin();
    }
    if (k + 1 >= dims.size())
      return largest;
  }
}

std::optional<SmallVector<int64_t>>
mlir::brrr::largestShape(RankedTensorType t, ArrayRef<DimAttr> dims) {
  SmallVector<int64_t> shape;
  for (AffineExpr e : extentsOf(t)) {
    auto range = rangeOf(e, dims);
    if (!range)
      return std::nullopt;
    shape.push_back(range->second);
  }
  return shape;
}

std::string mlir::brrr::extentName(AffineExpr extent, ArrayRef<DimAttr> dims) {
  if (!extent)
    return "?";
  if (auto c = dyn_cast<AffineConstantExpr>(extent))
    return std::to_string(c.getValue());
  if (auto s = dyn_cast<AffineSymbolExpr>(extent))
    return s.getPosition() < dims.size()
               ? dims[s.getPosition()].getName().str()
               : "s" + std::to_string(s.getPosition());
  auto bin = dyn_cast<AffineBinaryOpExpr>(extent);
  if (!bin)
    return "?";
  bool sum = extent.getKind() == AffineExprKind::Add;
  // Operands of a product or quotient that are sums get parentheses.
  auto operand = [&](AffineExpr e) {
    std::string text = extentName(e, dims);
    return !sum && e.getKind() == AffineExprKind::Add ? "(" + text + ")" : text;
  };
  const char *op = " + ";
  switch (extent.getKind()) {
  case AffineExprKind::Mul:
    op = " * ";
    break;
  case AffineExprKind::FloorDiv:
    op = " floordiv ";
    break;
  case AffineExprKind::CeilDiv:
    op = " ceildiv ";
    break;
  case AffineExprKind::Mod:
    op = " mod ";
    break;
  default:
    break;
  }
  return operand(bin.getLHS()) + op + operand(bin.getRHS());
}

std::string mlir::brrr::symbolicShapeName(RankedTensorType t,
                                          ArrayRef<DimAttr> dims) {
  std::string text = "[";
  llvm::SmallSetVector<unsigned, 4> used;
  for (auto [i, e] : llvm::enumerate(extentsOf(t))) {
    text += (i ? ", " : "") + extentName(e, dims);
    if (e)
      e.walk([&](AffineExpr sub) {
        if (auto s = dyn_cast<AffineSymbolExpr>(sub))
          used.insert(s.getPosition());
      });
  }
  text += "]";
  std::string ranges;
  for (unsigned s : used)
    if (s < dims.size())
      ranges += (ranges.empty() ? "" : ", ") + dims[s].getName().str() +
                " in " + std::to_string(dims[s].getMin()) + ".." +
                std::to_string(dims[s].getMax());
  return ranges.empty() ? text : text + " (" + ranges + ")";
}

StringRef mlir::brrr::nodeNameOf(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().getValue();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (StringRef name = nodeNameOf(inner); !name.empty())
        return name;
  return {};
}

LogicalResult mlir::brrr::requireStaticShapes(
    Operation *root, StringRef pass,
    llvm::function_ref<bool(Operation *)> compiles) {
  SmallVector<DimAttr> dims = dimsOf(root);
  auto report = [&](Operation *at, Type t) {
    InFlightDiagnostic diag = at->emitError();
    if (StringRef node = nodeNameOf(at->getLoc()); !node.empty())
      diag << "node '" << node << "': ";
    diag << "'" << at->getName()
         << "' with symbolic extents does not compile yet; this value has "
            "extents "
         << symbolicShapeName(cast<RankedTensorType>(t), dims)
         << " (checked before '" << pass << "')";
    return WalkResult::interrupt();
  };
  WalkResult walk = root->walk([&](Operation *op) {
    if (compiles && compiles(op))
      return WalkResult::advance();
    for (Type t : op->getResultTypes())
      if (isSymbolic(t))
        return report(op, t);
    for (Type t : op->getOperandTypes())
      if (isSymbolic(t))
        return report(op, t);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type t : block.getArgumentTypes())
          if (isSymbolic(t))
            return report(op, t);
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

unsigned mlir::brrr::outerRunOf(RankedTensorType t) {
  unsigned run = 0;
  for (auto [d, size] : llvm::enumerate(t.getShape()))
    if (ShapedType::isDynamic(size))
      run = unsigned(d) + 1;
  return run;
}

RankedTensorType mlir::brrr::largestTypeOf(RankedTensorType t,
                                           ArrayRef<DimAttr> dims) {
  if (!isSymbolic(t))
    return t;
  std::optional<SmallVector<int64_t>> shape = largestShape(t, dims);
  if (!shape)
    return {};
  return RankedTensorType::get(*shape, t.getElementType());
}

std::optional<ExtentProduct> mlir::brrr::productOf(AffineExpr extent) {
  if (!extent)
    return std::nullopt;
  if (auto c = dyn_cast<AffineConstantExpr>(extent))
    return ExtentProduct{c.getValue(), {}};
  if (auto s = dyn_cast<AffineSymbolExpr>(extent))
    return ExtentProduct{1, {s.getPosition()}};
  if (extent.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto bin = cast<AffineBinaryOpExpr>(extent);
  return productOf(ArrayRef<AffineExpr>{bin.getLHS(), bin.getRHS()});
}

std::optional<ExtentProduct>
mlir::brrr::productOf(ArrayRef<AffineExpr> extents) {
  ExtentProduct product;
  for (AffineExpr e : extents) {
    auto p = productOf(e);
    if (!p || llvm::MulOverflow(product.coefficient, p->coefficient,
                                product.coefficient))
      return std::nullopt;
    product.symbols.append(p->symbols);
  }
  llvm::sort(product.symbols);
  if (product.coefficient == 0)
    product.symbols.clear(); // empty, whatever the symbols
  return product;
}

AffineExpr mlir::brrr::extentOf(const ExtentProduct &p, MLIRContext *context) {
  AffineExpr e = getAffineConstantExpr(p.coefficient, context);
  for (unsigned s : llvm::reverse(p.symbols))
    e = getAffineSymbolExpr(s, context) * e;
  return e;
}

bool mlir::brrr::isUnitExtent(AffineExpr e) {
  auto c = dyn_cast_or_null<AffineConstantExpr>(e);
  return c && c.getValue() == 1;
}

FailureOr<SmallVector<AffineExpr>>
mlir::brrr::broadcastExtents(ArrayRef<AffineExpr> lhs,
                             ArrayRef<AffineExpr> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<AffineExpr> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    AffineExpr l =
        i < rank - lhs.size() ? AffineExpr() : lhs[i - (rank - lhs.size())];
    AffineExpr r =
        i < rank - rhs.size() ? AffineExpr() : rhs[i - (rank - rhs.size())];
    if (!l || isUnitExtent(l)) {
      out[i] = r ? r : l;
    } else if (!r || isUnitExtent(r) || l == r) {
      out[i] = l;
    } else {
      return failure();
    }
    if (!out[i])
      return failure();
  }
  return out;
}

LogicalResult BrrrDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() != kDimsAttrName)
    return success();
  auto list = dyn_cast<ArrayAttr>(attr.getValue());
  if (!isa<ModuleOp>(op) || !list ||
      !llvm::all_of(list, [](Attribute a) { return isa<DimAttr>(a); }))
    return op->emitError() << "'" << kDimsAttrName
                           << "' is a module's list of #brrr.dim";
  llvm::StringSet<> names;
  for (Attribute a : list)
    if (!names.insert(cast<DimAttr>(a).getName()).second)
      return op->emitError()
             << "symbolic dimension '" << cast<DimAttr>(a).getName()
             << "' is declared twice";
  // Every extent names a declared dimension.
  WalkResult walk = op->walk([&](Operation *inner) {
    auto check = [&](Type t) {
      auto rt = dyn_cast<RankedTensorType>(t);
      auto encoding =
          rt ? dyn_cast_or_null<ExtentsAttr>(rt.getEncoding()) : ExtentsAttr();
      if (!encoding || encoding.getMap().getNumSymbols() <= list.size())
        return true;
      inner->emitError() << "type " << t << " names symbol s"
                         << encoding.getMap().getNumSymbols() - 1 << " but '"
                         << kDimsAttrName << "' declares " << list.size();
      return false;
    };
    for (Type t : inner->getResultTypes())
      if (!check(t))
        return WalkResult::interrupt();
    // Symbolic constants and slices hold extents as attributes.
    for (NamedAttribute a : inner->getAttrs())
      if (auto extents = dyn_cast<ExtentsAttr>(a.getValue());
          extents && extents.getMap().getNumSymbols() > list.size()) {
        inner->emitError() << "'" << a.getName().getValue()
                           << "' names symbol s"
                           << extents.getMap().getNumSymbols() - 1 << " but '"
                           << kDimsAttrName << "' declares " << list.size();
        return WalkResult::interrupt();
      }
    for (Region &region : inner->getRegions())
      for (Block &block : region)
        for (Type t : block.getArgumentTypes())
          if (!check(t))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

OpFoldResult SymbolicConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult SymbolicConstantOp::verify() {
  AffineMap map = getValue().getMap();
  if (map.getNumDims() != 0 ||
      map.getNumResults() != getResult().getType().getNumElements())
    return emitOpError("needs one extent per element of ")
           << getResult().getType() << ", got " << map.getNumResults();
  return success();
}

LogicalResult SliceOp::verify() {
  // Static slices were checked by type inference; a symbolic size or
  // input dimension must keep every index read inside the input at every
  // value in range.
  auto in = getInput().getType();
  SmallVector<AffineExpr> inExtents = extentsOf(in);
  SmallVector<AffineExpr> sizes = extentsOf(getType());
  SmallVector<DimAttr> dims = dimsOf(*this);
  for (int64_t d = 0; d < in.getRank(); ++d) {
    if (!in.isDynamicDim(d) && !getType().isDynamicDim(d))
      continue;
    int64_t start = getStarts()[d], step = getSteps()[d];
    // Inside when start >= 0, the step positive, and the last index read,
    // start + (size - 1) * step, below dim over every value: dim - start -
    // (size - 1) * step >= 1. That last index is at least start wherever
    // the slice reads anything (size >= 1), so it is never negative then
    // (`x[:, :-1]`: size seq - 1, which is 0 at seq = 1).
    AffineExpr last = sizes[d] * step + (start - step);
    auto room = rangeOf(inExtents[d] - last, dims);
    auto size = rangeOf(sizes[d], dims);
    if (!room || !size || size->first < 0 || start < 0 || step < 1 ||
        (size->second > 0 && room->first < 1))
      return emitOpError("slice of dimension ")
             << d << " (start " << start << ", size "
             << extentName(sizes[d], dims) << ", step " << step
             << ") may read outside the input's extent "
             << extentName(inExtents[d], dims);
  }
  return success();
}

LogicalResult GatherElementsOp::verify() {
  auto in = getInput().getType();
  auto idx = getIndices().getType();
  SmallVector<AffineExpr> inExtents = extentsOf(in),
                          idxExtents = extentsOf(idx);
  SmallVector<DimAttr> dims = dimsOf(*this);
  for (int64_t d = 0; d < in.getRank(); ++d) {
    if (d == static_cast<int64_t>(getAxis()) ||
        (!in.isDynamicDim(d) && !idx.isDynamicDim(d)))
      continue;
    auto room = rangeOf(inExtents[d] - idxExtents[d], dims);
    if (!room || room->first < 0)
      return emitOpError("indices dimension ")
             << d << " (" << extentName(idxExtents[d], dims)
             << ") may exceed the input's " << extentName(inExtents[d], dims);
  }
  return success();
}
