//===- ImportSlice.cpp - ONNX Slice -> brrr.slice or a lookup ------------===//
//
// Slice, opsets 1 to 13: starts, ends, axes and steps (attributes before
// opset 10, inputs after: constants, or starts and ends that Shape's
// symbolic constants give), clamped as the spec says. Over a
// static input, one brrr.slice. Over symbolic extents: a slice whose
// length is the same at every extent in range (`x[:, -k:]`, `x[:, :k]`) is
// a lookup of fixed indices counted from the actual end or beginning
// (sliceAsLookup); one that changes a symbolic extent (`x[:, 1:]`,
// `x[:, :-1]`) is a brrr.slice whose extents say so; anything that could
// leave the input, or come out shorter than empty, somewhere in range is
// an error naming the node.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

/// One dimension of an ONNX Slice, clamped the way the spec does.
struct SliceDim {
  int64_t start, size;
};

SliceDim clampSlice(int64_t start, int64_t end, int64_t step, int64_t dim) {
  if (dim == 0)
    return {0, 0};
  if (start < 0)
    start += dim;
  if (end < 0)
    end += dim;
  // ceil(span / |step|) as (span - 1) / |step| + 1 in unsigned arithmetic:
  // no step, INT64_MIN and INT64_MAX included, overflows.
  auto count = [](int64_t span, int64_t step) -> int64_t {
    uint64_t magnitude = step > 0 ? static_cast<uint64_t>(step)
                                  : 0 - static_cast<uint64_t>(step);
    return span > 0 ? static_cast<int64_t>(
                          (static_cast<uint64_t>(span) - 1) / magnitude + 1)
                    : 0;
  };
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    int64_t size = count(end - start, step);
    return {size ? start : 0, size};
  }
  start = std::clamp<int64_t>(start, 0, dim - 1);
  end = std::clamp<int64_t>(end, -1, dim - 1);
  int64_t size = count(start - end, step);
  return {size ? start : 0, size};
}

/// Beyond any extent: ONNX's "to the end" (INT64_MAX and the like).
constexpr int64_t kToTheEnd = int64_t(1) << 62;

/// The slice [start, end) by `step` of symbolic axis `axis` of `x` as a
/// lookup of the fixed indices start, start + step, ... below the end,
/// where its length is the same at every extent in range: counted from the
/// actual end (a negative start, the last tokens of a sequence: `x[:, -k:]`;
/// the end is the axis' end or negative too), or from its beginning (the
/// first tokens, `x[:, :k]`, the end a constant). The run lies inside the
/// axis at every extent in range.
FailureOr<Value> sliceAsLookup(NodeImporter &n, Value x, int64_t axis,
                               int64_t start, AffineExpr end, int64_t step) {
  auto in = cast<RankedTensorType>(x.getType());
  auto dims = dimsOf(x.getParentRegion()->getParentOp());
  AffineExpr dim = extentsOf(in)[axis];
  auto dimRange = rangeOf(dim, dims);
  // The end, counted as the start is: from the axis' end for a negative
  // start (0 for the end itself, any end at or past the largest extent),
  // from its beginning for the others.
  std::optional<int64_t> last;
  auto c = dyn_cast<AffineConstantExpr>(end);
  if (start < 0) {
    if (end == dim || (c && dimRange && c.getValue() >= dimRange->second))
      last = 0;
    else if (c && c.getValue() < 0)
      last = c.getValue();
  } else if (c && c.getValue() >= 0) {
    last = c.getValue();
  }
  bool inside =
      dimRange && last &&
      (start < 0 ? start + dimRange->first >= 0 : *last <= dimRange->first);
  if (!inside || *last <= start)
    return n.emitError() << "the slice [" << start << ", "
                         << extentName(end, dims) << ") of the symbolic axis "
                         << axis << " of " << symbolicShapeName(in, dims)
                         << " is not one run of the same length at every "
                            "extent in range";
  SmallVector<int64_t> indices;
  for (int64_t i = start; i < *last; i += step)
    indices.push_back(i);
  return n.create<GatherOp>(x, n.constI64(indices), uint64_t(axis));
}

/// Whether the slice [start, end) of symbolic axis `axis` (not the first)
/// of `x` is a lookup (sliceAsLookup): its start is negative, or its end a
/// constant that lies inside the axis at every extent in range.
bool isLookupSlice(Value x, int64_t axis, int64_t start, AffineExpr end) {
  auto in = cast<RankedTensorType>(x.getType());
  if (axis == 0 || !in.isDynamicDim(axis))
    return false;
  if (start < 0)
    return true;
  auto c = dyn_cast<AffineConstantExpr>(end);
  auto dimRange =
      rangeOf(extentsOf(in)[axis], dimsOf(x.getParentRegion()->getParentOp()));
  return c && dimRange && c.getValue() >= 0 && c.getValue() <= dimRange->first;
}

/// Slice where the input or the ends are symbolic: each start a constant
/// (from the end of the dimension when negative: for a static one, a
/// start; for a symbolic one, a lookup, sliceAsLookup), each step
/// positive, each end a constant or an extent; the slice must stay inside
/// the input and be no shorter than empty at every value in range.
LogicalResult importSymbolicSlice(NodeImporter &n, Value x,
                                  ArrayRef<AffineExpr> starts,
                                  ArrayRef<AffineExpr> ends,
                                  ArrayRef<int64_t> axes,
                                  ArrayRef<int64_t> steps) {
  auto dims = dimsOf(x.getParentRegion()->getParentOp());
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  // Runs of fixed length along symbolic axes first, each a lookup.
  SmallVector<bool> looked(starts.size(), false);
  for (size_t i = 0; i < starts.size(); ++i) {
    auto axis = n.normalizeAxis(axes[i], rank);
    if (failed(axis))
      return failure();
    auto start = dyn_cast<AffineConstantExpr>(starts[i]);
    if (!start || steps[i] < 1 ||
        !isLookupSlice(x, *axis, start.getValue(), ends[i]))
      continue;
    FailureOr<Value> tail =
        sliceAsLookup(n, x, *axis, start.getValue(), ends[i], steps[i]);
    if (failed(tail))
      return failure();
    x = *tail;
    looked[i] = true;
  }
  if (llvm::all_of(looked, [](bool l) { return l; })) {
    n.setOutput(0, x);
    return success();
  }
  auto in = cast<RankedTensorType>(x.getType());
  SmallVector<AffineExpr> inExtents = extentsOf(in), extents = inExtents;
  SmallVector<int64_t> outStarts(rank, 0), outSteps(rank, 1);
  for (size_t i = 0; i < starts.size(); ++i) {
    if (looked[i])
      continue;
    auto axis = n.normalizeAxis(axes[i], rank);
    if (failed(axis))
      return failure();
    AffineExpr dim = inExtents[*axis];
    auto dimRange = rangeOf(dim, dims);
    auto start = dyn_cast<AffineConstantExpr>(starts[i]);
    if (!start || steps[i] < 1 || !dimRange)
      return n.emitError() << "a slice of " << symbolicShapeName(in, dims)
                           << " along axis " << *axis
                           << " needs a constant start and a positive step";
    int64_t s0 = start.getValue();
    if (s0 < 0) {
      if (dimRange->first != dimRange->second)
        return n.emitError() << "a negative start along the symbolic axis "
                             << *axis << " is not supported";
      s0 = std::max<int64_t>(0, s0 + dimRange->first);
    }
    AffineExpr end = ends[i];
    if (auto c = dyn_cast<AffineConstantExpr>(end)) {
      if (c.getValue() >= kToTheEnd || c.getValue() >= dimRange->second)
        end = dim;
      else if (c.getValue() < 0)
        end = dim + c.getValue();
    }
    // min(end, dim): the end must not pass the dimension at any value.
    auto beyond = rangeOf(dim - end, dims);
    AffineExpr size = (end - s0).ceilDiv(steps[i]);
    auto sizeRange = rangeOf(size, dims);
    if (!beyond || beyond->first < 0 || !sizeRange || sizeRange->first < 0 ||
        s0 > dimRange->first)
      return n.emitError() << "the slice [" << s0 << ", "
                           << extentName(end, dims) << ") of axis " << *axis
                           << " of " << symbolicShapeName(in, dims)
                           << " is not inside it at every extent in range";
    outStarts[*axis] = s0;
    outSteps[*axis] = steps[i];
    extents[*axis] = size;
  }
  SmallVector<int64_t> sizes;
  for (AffineExpr e : extents) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    sizes.push_back(c ? c.getValue() : ShapedType::kDynamic);
  }
  auto y = n.createTyped<SliceOp>(
      tensorTypeOf(n.getContext(), extents, in.getElementType()), x, outStarts,
      sizes, outSteps, extentsAttrOf(n.getContext(), extents));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importSlice(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto in = n.inputType(0);
  // Starts and ends as extents: constants, or symbolic constants where
  // they are inputs (opset 10 on).
  SmallVector<AffineExpr> startExtents, endExtents;
  SmallVector<int64_t> axes, steps;
  if (n.sinceVersion < 10) {
    auto asExtents = [&](StringRef name) {
      SmallVector<AffineExpr> extents;
      for (int64_t v : n.attrInts(name).value_or(SmallVector<int64_t>()))
        extents.push_back(getAffineConstantExpr(v, n.getContext()));
      return extents;
    };
    startExtents = asExtents("starts");
    endExtents = asExtents("ends");
    axes = n.attrInts("axes").value_or(SmallVector<int64_t>());
  } else {
    auto s = n.extentInts(1, "starts"), e = n.extentInts(2, "ends");
    if (failed(s) || failed(e))
      return failure();
    startExtents = *s;
    endExtents = *e;
    if (n.hasInput(3)) {
      auto a = n.constInts(3, "axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
    if (n.hasInput(4)) {
      auto st = n.constInts(4, "steps");
      if (failed(st))
        return failure();
      steps = *st;
    }
  }
  size_t count = startExtents.size();
  if (axes.empty())
    for (size_t i = 0; i < count; ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(count, 1);
  if (endExtents.size() != count || axes.size() != count ||
      steps.size() != count)
    return n.emitError() << "starts, ends, axes and steps differ in length";
  auto constant = [](AffineExpr v) { return isa<AffineConstantExpr>(v); };
  if (isSymbolic(in) || !llvm::all_of(startExtents, constant) ||
      !llvm::all_of(endExtents, constant))
    return importSymbolicSlice(n, *x, startExtents, endExtents, axes, steps);
  SmallVector<int64_t> starts, ends;
  for (auto [start, end] : llvm::zip(startExtents, endExtents)) {
    starts.push_back(cast<AffineConstantExpr>(start).getValue());
    ends.push_back(cast<AffineConstantExpr>(end).getValue());
  }
  int64_t rank = in.getRank();
  SmallVector<int64_t> outStarts(rank, 0), sizes(in.getShape()),
      outSteps(rank, 1);
  for (size_t i = 0; i < starts.size(); ++i) {
    auto axis = n.normalizeAxis(axes[i], rank);
    if (failed(axis))
      return failure();
    if (steps[i] == 0)
      return n.emitError() << "step is zero";
    SliceDim sd =
        clampSlice(starts[i], ends[i], steps[i], in.getDimSize(*axis));
    outStarts[*axis] = sd.start;
    sizes[*axis] = sd.size;
    // One element is read whatever the step: keep index arithmetic small.
    outSteps[*axis] = sd.size > 1 ? steps[i] : 1;
  }
  auto y = n.create<SliceOp>(*x, outStarts, sizes, outSteps);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

} // namespace

void registerSliceImporters(OpTable &t) {
  t["Slice"] = {{1, 10, 11, 13}, importSlice};
}

} // namespace mlir::brrr
