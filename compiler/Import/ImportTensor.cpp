//===- ImportTensor.cpp - data movement and shape ONNX ops -> brrr ------===//
//
// Reshape-like ops (Reshape, Flatten, Squeeze, Unsqueeze all become
// brrr.reshape), Transpose, DepthToSpace and SpaceToDepth (a reshape, a
// transpose and a reshape), Expand, Tile, Concat, Split, Pad, and the
// identities (Identity, inference-mode Dropout).
// Shape-valued inputs must be constants after folding (symbolic extents come
// from the inputs' ranges). Slice is in ImportSlice.cpp; the ops that produce
// shape data live in ImportGenerators.cpp, Resize and Upsample in
// ImportResize.cpp.
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

LogicalResult forward(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  n.setOutput(0, *x);
  return success();
}

/// The value 1 of an element type.
Attribute makeOne(Type t) {
  if (auto ft = dyn_cast<FloatType>(t))
    return FloatAttr::get(ft, 1.0);
  return IntegerAttr::get(t, 1);
}

LogicalResult importDropout(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  if (n.sinceVersion >= 12 && n.hasInput(2)) {
    auto training = getConstInts(n.input(2));
    if (!training)
      return n.emitError() << "training_mode must be a constant";
    // Training with ratio 0 (torchvision's Swin attention dropout, exported
    // with training left on) keeps every element and scales by 1: the
    // identity. Any other ratio (an absent one is 0.5) drops elements at
    // random.
    if (llvm::any_of(*training, [](int64_t v) { return v; })) {
      auto ratio = n.hasInput(1) ? getConstFloats(n.input(1)) : std::nullopt;
      if (!ratio || llvm::any_of(*ratio, [](double r) { return r != 0.0; }))
        return n.emitError() << "training_mode = true drops elements at "
                                "random: only training_mode false or a "
                                "constant ratio of 0 compiles";
    }
  }
  n.setOutput(0, *x);
  if (n.wantsOutput(1)) {
    // Inference keeps every element: the mask is all ones, typed like the
    // data before opset 10 and bool since.
    auto x0 = n.inputType(0);
    if (n.sinceVersion < 10)
      n.setOutput(1, ConstantOp::create(n.b, n.loc,
                                        DenseElementsAttr::get(
                                            x0, makeOne(x0.getElementType()))));
    else
      n.setOutput(1, ConstantOp::create(
                         n.b, n.loc,
                         DenseElementsAttr::get(x0.clone(n.b.getI1Type()),
                                                n.b.getBoolAttr(true))));
  }
  return success();
}

/// Sets output 0 to `x` reshaped to `shape`.
LogicalResult setReshaped(NodeImporter &n, Value x, ArrayRef<int64_t> shape) {
  auto y = n.reshape(x, shape);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// Reshape of a tensor with symbolic extents to the constant `shape`: a 0
/// copies the input's extent (symbolic or not), and -1 is what is left of
/// the element count once the other extents divide it out, symbol by
/// symbol.
LogicalResult importSymbolicReshape(NodeImporter &n, Value x,
                                    ArrayRef<AffineExpr> shape,
                                    bool allowZero) {
  auto in = cast<RankedTensorType>(x.getType());
  auto dims = dimsOf(x.getParentRegion()->getParentOp());
  SmallVector<AffineExpr> inExtents = extentsOf(in), extents;
  int64_t inferred = -1;
  for (auto [i, e] : llvm::enumerate(shape)) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c) {
      extents.push_back(e);
      continue;
    }
    int64_t d = c.getValue();
    if (d == 0 && !allowZero) {
      if (static_cast<int64_t>(i) >= in.getRank())
        return n.emitError() << "shape copies dim " << i << " of a rank-"
                             << in.getRank() << " input";
      extents.push_back(inExtents[i]);
      continue;
    }
    if (d == -1) {
      if (inferred >= 0)
        return n.emitError() << "shape has more than one -1";
      inferred = i;
      extents.push_back(AffineExpr());
      continue;
    }
    if (d < 0)
      return n.emitError() << "invalid dimension " << d << " in shape";
    extents.push_back(getAffineConstantExpr(d, n.getContext()));
  }
  if (inferred >= 0) {
    SmallVector<AffineExpr> known;
    for (AffineExpr e : extents)
      if (e)
        known.push_back(e);
    auto total = productOf(inExtents), part = productOf(known);
    // What is left: the coefficient divides, and every symbol of the known
    // extents is a factor of the element count.
    bool divides = total && part && part->coefficient != 0 &&
                   total->coefficient % part->coefficient == 0;
    SmallVector<unsigned> left =
        divides ? total->symbols : SmallVector<unsigned>();
    for (unsigned s : divides ? part->symbols : SmallVector<unsigned>()) {
      auto it = llvm::find(left, s);
      if (it == left.end()) {
        divides = false;
        break;
      }
      left.erase(it);
    }
    if (!divides)
      return n.emitError() << "cannot infer the -1 dimension: the element "
                              "count of "
                           << symbolicShapeName(in, dims)
                           << " does not divide by the other extents";
    extents[inferred] =
        extentOf(ExtentProduct{total->coefficient / part->coefficient, left},
                 n.getContext());
  }
  auto y = n.reshapeTo(x, extents);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importReshape(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> shape;
  auto in = n.inputType(0);
  bool allowZero = n.attrInt("allowzero", 0) != 0;
  if (n.sinceVersion < 5) {
    auto a = n.attrInts("shape");
    if (!a)
      return n.emitError() << "missing attribute 'shape'";
    shape = *a;
  } else {
    auto v = n.extentInts(1, "shape");
    if (failed(v))
      return failure();
    if (isSymbolic(in) || llvm::any_of(*v, [](AffineExpr e) {
          return !isa<AffineConstantExpr>(e);
        }))
      return importSymbolicReshape(n, *x, *v, allowZero);
    for (AffineExpr e : *v)
      shape.push_back(cast<AffineConstantExpr>(e).getValue());
  }
  if (isSymbolic(in)) {
    SmallVector<AffineExpr> target;
    for (int64_t d : shape)
      target.push_back(getAffineConstantExpr(d, n.getContext()));
    return importSymbolicReshape(n, *x, target, allowZero);
  }
  int64_t known = 1, inferred = -1;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d == 0 && !allowZero) {
      if (static_cast<int64_t>(i) >= in.getRank())
        return n.emitError() << "shape copies dim " << i << " of a rank-"
                             << in.getRank() << " input";
      d = in.getDimSize(i);
    }
    if (d == -1) {
      if (inferred >= 0)
        return n.emitError() << "shape has more than one -1";
      inferred = i;
      continue;
    }
    if (d < 0)
      return n.emitError() << "invalid dimension " << d << " in shape";
    if (llvm::MulOverflow(known, d, known))
      return n.emitError() << "shape's dimensions multiply past 64 bits";
  }
  if (inferred >= 0) {
    if (known == 0 || in.getNumElements() % known != 0)
      return n.emitError() << "cannot infer the -1 dimension: "
                           << in.getNumElements()
                           << " elements do not divide by " << known;
    shape[inferred] = in.getNumElements() / known;
  }
  return setReshaped(n, *x, shape);
}

LogicalResult importFlatten(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto in = n.inputType(0);
  int64_t axis = n.attrInt("axis", 1);
  if (axis < 0)
    axis += in.getRank();
  if (axis < 0 || axis > in.getRank())
    return n.emitError() << "axis " << n.attrInt("axis", 1)
                         << " is out of range for rank " << in.getRank();
  if (isSymbolic(in)) {
    SmallVector<AffineExpr> e = extentsOf(in);
    auto outer = productOf(ArrayRef(e).take_front(axis));
    auto inner = productOf(ArrayRef(e).drop_front(axis));
    if (!outer || !inner)
      return n.emitError() << "cannot flatten the symbolic extents "
                           << symbolicShapeName(
                                  in,
                                  dimsOf(x->getParentRegion()->getParentOp()))
                           << " at axis " << axis;
    auto y = n.reshapeTo(*x, {extentOf(*outer, n.getContext()),
                              extentOf(*inner, n.getContext())});
    if (failed(y))
      return failure();
    n.setOutput(0, *y);
    return success();
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < in.getRank(); ++d)
    (d < axis ? outer : inner) *= in.getDimSize(d);
  return setReshaped(n, *x, {outer, inner});
}

/// Axes from the attribute (before opset 13) or the optional input.
FailureOr<SmallVector<int64_t>> axesOperand(NodeImporter &n) {
  if (n.sinceVersion < 13)
    return n.attrInts("axes").value_or(SmallVector<int64_t>());
  if (!n.hasInput(1))
    return SmallVector<int64_t>();
  return n.constInts(1, "axes");
}

LogicalResult importSqueeze(NodeImporter &n) {
  auto x = n.requiredInput(0);
  auto axes = axesOperand(n);
  if (failed(x) || failed(axes))
    return failure();
  auto in = n.inputType(0);
  SmallVector<bool> drop(in.getRank(), false);
  if (axes->empty()) {
    for (int64_t d = 0; d < in.getRank(); ++d)
      drop[d] = in.getDimSize(d) == 1;
  }
  for (int64_t a : *axes) {
    auto d = n.normalizeAxis(a, in.getRank());
    if (failed(d))
      return failure();
    if (in.getDimSize(*d) != 1)
      return n.emitError() << "cannot squeeze dim " << *d << " of size "
                           << in.getDimSize(*d);
    drop[*d] = true;
  }
  SmallVector<AffineExpr> inExtents = extentsOf(in), extents;
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (!drop[d])
      extents.push_back(inExtents[d]);
  auto y = n.reshapeTo(*x, extents);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importUnsqueeze(NodeImporter &n) {
  auto x = n.requiredInput(0);
  auto axes = axesOperand(n);
  if (failed(x) || failed(axes))
    return failure();
  auto in = n.inputType(0);
  int64_t rank = in.getRank() + axes->size();
  SmallVector<bool> inserted(rank, false);
  for (int64_t a : *axes) {
    auto d = n.normalizeAxis(a, rank);
    if (failed(d))
      return failure();
    if (inserted[*d])
      return n.emitError() << "axes repeat dim " << *d;
    inserted[*d] = true;
  }
  SmallVector<AffineExpr> inExtents = extentsOf(in), extents;
  int64_t src = 0;
  for (int64_t d = 0; d < rank; ++d)
    extents.push_back(inserted[d] ? getAffineConstantExpr(1, n.getContext())
                                  : inExtents[src++]);
  auto y = n.reshapeTo(*x, extents);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importTranspose(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  int64_t rank = n.inputType(0).getRank();
  SmallVector<int64_t> perm;
  if (auto p = n.attrInts("perm"))
    perm = *p;
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  auto y = n.create<TransposeOp>(*x, perm);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// reshape(x, split), transpose(perm), reshape(to merged): how DepthToSpace
/// and SpaceToDepth move blocks of pixels between channels and space. The
/// batch may be symbolic: it stays the leading extent throughout.
LogicalResult importBlockShuffle(NodeImporter &n, Value x,
                                 ArrayRef<AffineExpr> split,
                                 ArrayRef<int64_t> perm,
                                 ArrayRef<AffineExpr> merged) {
  auto r = n.reshapeTo(x, split);
  if (failed(r))
    return failure();
  auto t = n.create<TransposeOp>(*r, perm);
  if (failed(t))
    return failure();
  auto y = n.reshapeTo(*t, merged);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// The NCHW input of DepthToSpace or SpaceToDepth, its dimensions (the
/// batch a constant or a symbolic extent) and the block size.
struct BlockInput {
  Value x;
  int64_t b;
  AffineExpr N;
  int64_t C, H, W;
};

FailureOr<BlockInput> blockInput(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  if (n.inputType(0).getRank() != 4)
    return n.emitError() << "input must have rank 4 (N, C, H, W), not "
                         << n.inputType(0).getRank();
  int64_t b = n.attrInt("blocksize", 0);
  if (b < 1)
    return n.emitError() << "blocksize " << b << " is not positive";
  SmallVector<AffineExpr> extents = extentsOf(n.inputType(0));
  if (llvm::any_of(ArrayRef(extents).drop_front(1),
                   [](AffineExpr e) { return !isa<AffineConstantExpr>(e); }))
    return n.emitError() << "symbolic channel or spatial extents are not "
                            "supported";
  ArrayRef<int64_t> s = n.inputType(0).getShape();
  return BlockInput{*x, b, extents[0], s[1], s[2], s[3]};
}

/// DepthToSpace (opsets 1, 11, 13): channel blocks of blocksize^2 become
/// blocksize x blocksize pixels. DCR (the default, and the only mode before
/// opset 11) reads the channel as (row in block, column in block, output
/// channel); CRD as (output channel, row, column).
LogicalResult importDepthToSpace(NodeImporter &n) {
  auto in = blockInput(n);
  if (failed(in))
    return failure();
  auto [x, b, N, C, H, W] = *in;
  int64_t bb;
  if (llvm::MulOverflow(b, b, bb) || C % bb)
    return n.emitError() << C << " channels do not split into blocks of " << b
                         << " x " << b;
  std::string mode = n.sinceVersion >= 11 ? n.attrString("mode", "DCR") : "DCR";
  auto k = [&](int64_t v) { return getAffineConstantExpr(v, N.getContext()); };
  int64_t c = C / bb;
  SmallVector<AffineExpr> merged = {N, k(c), k(H * b), k(W * b)};
  if (mode == "DCR")
    return importBlockShuffle(n, x, {N, k(b), k(b), k(c), k(H), k(W)},
                              {0, 3, 4, 1, 5, 2}, merged);
  if (mode == "CRD")
    return importBlockShuffle(n, x, {N, k(c), k(b), k(b), k(H), k(W)},
                              {0, 1, 4, 2, 5, 3}, merged);
  return n.emitError() << "mode '" << mode << "' is neither DCR nor CRD";
}

/// SpaceToDepth (opsets 1, 13): blocksize x blocksize pixels become one
/// pixel of blocksize^2 times the channels, ordered (row in block, column
/// in block, input channel).
LogicalResult importSpaceToDepth(NodeImporter &n) {
  auto in = blockInput(n);
  if (failed(in))
    return failure();
  auto [x, b, N, C, H, W] = *in;
  int64_t bb, depth;
  if (H % b || W % b || llvm::MulOverflow(b, b, bb) ||
      llvm::MulOverflow(C, bb, depth))
    return n.emitError() << "a " << H << " x " << W
                         << " image does not split into blocks of " << b
                         << " x " << b;
  auto k = [&](int64_t v) { return getAffineConstantExpr(v, N.getContext()); };
  return importBlockShuffle(n, x, {N, k(C), k(H / b), k(b), k(W / b), k(b)},
                            {0, 3, 5, 1, 2, 4},
                            {N, k(depth), k(H / b), k(W / b)});
}

LogicalResult importExpand(NodeImporter &n) {
  auto x = n.requiredInput(0);
  auto target = n.extentInts(1, "shape");
  if (failed(x) || failed(target))
    return failure();
  if (isSymbolic(n.inputType(0)) || llvm::any_of(*target, [](AffineExpr e) {
        return !isa<AffineConstantExpr>(e);
      })) {
    auto out = broadcastExtents(extentsOf(n.inputType(0)), *target);
    if (failed(out))
      return n.emitError() << "cannot broadcast "
                           << symbolicShapeName(
                                  n.inputType(0),
                                  dimsOf((*x).getParentRegion()->getParentOp()))
                           << " to the requested shape";
    auto type =
        tensorTypeOf(n.getContext(), *out, n.inputType(0).getElementType());
    if (type == n.inputType(0)) {
      n.setOutput(0, *x);
      return success();
    }
    auto y = n.createTyped<ExpandOp>(type, *x);
    if (failed(y))
      return failure();
    n.setOutput(0, *y);
    return success();
  }
  SmallVector<int64_t> shape;
  for (AffineExpr e : *target)
    shape.push_back(cast<AffineConstantExpr>(e).getValue());
  // ONNX Expand broadcasts both ways: the target may hold 1 where the input
  // does not.
  auto out = broadcastShapes(n.inputType(0).getShape(), shape);
  if (failed(out))
    return n.emitError() << "cannot broadcast " << n.inputType(0)
                         << " to the requested shape";
  auto y = n.expandTo(*x, *out);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

/// Tile as reshape -> expand -> reshape: [d0, d1] with repeats [r0, r1]
/// becomes [1, d0, 1, d1] -> [r0, d0, r1, d1] -> [r0 * d0, r1 * d1]. A
/// repeat may be a symbolic extent (DeBERTa repeats its relative keys over
/// a symbolic batch): the extents carry it.
LogicalResult importTile(NodeImporter &n) {
  auto x = n.requiredInput(0);
  auto repeats = n.extentInts(1, "repeats");
  if (failed(x) || failed(repeats))
    return failure();
  auto in = n.inputType(0);
  if (repeats->size() != static_cast<size_t>(in.getRank()))
    return n.emitError() << "repeats has " << repeats->size()
                         << " entries for a rank-" << in.getRank() << " input";
  SmallVector<AffineExpr> inExtents = extentsOf(in);
  SmallVector<AffineExpr> split, expanded, out;
  AffineExpr one = getAffineConstantExpr(1, n.getContext());
  for (int64_t d = 0; d < in.getRank(); ++d) {
    AffineExpr r = (*repeats)[d], dim = inExtents[d];
    auto rc = dyn_cast<AffineConstantExpr>(r);
    auto dc = dyn_cast<AffineConstantExpr>(dim);
    if (rc && rc.getValue() < 0)
      return n.emitError() << "negative repeat " << rc.getValue();
    int64_t tiled;
    if (rc && dc && llvm::MulOverflow(rc.getValue(), dc.getValue(), tiled))
      return n.emitError() << "repeat " << rc.getValue() << " of dim " << d
                           << " (size " << dc.getValue()
                           << ") overflows its size";
    split.append({one, dim});
    expanded.append({r, dim});
    out.push_back(r * dim);
  }
  auto a = n.reshapeTo(*x, split);
  if (failed(a))
    return failure();
  auto b = n.expandToExtents(*a, expanded);
  if (failed(b))
    return failure();
  auto y = n.reshapeTo(*b, out);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importConcat(NodeImporter &n) {
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < n.numInputs(); ++i)
    if (n.hasInput(i))
      inputs.push_back(n.input(i));
  if (inputs.empty())
    return n.emitError() << "expects at least one input";
  int64_t rank = cast<RankedTensorType>(inputs[0].getType()).getRank();
  auto axis = n.normalizeAxis(n.attrInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  auto y = n.create<ConcatOp>(inputs, static_cast<uint64_t>(*axis));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importSplit(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto in = n.inputType(0);
  auto axis = n.normalizeAxis(n.attrInt("axis", 0), in.getRank());
  if (failed(axis))
    return failure();
  if (in.isDynamicDim(*axis))
    return n.emitError() << "cannot split the symbolic dimension " << *axis;
  int64_t dim = in.getDimSize(*axis);
  int64_t parts = n.numOutputs();
  SmallVector<int64_t> sizes;
  if (n.sinceVersion < 13) {
    sizes = n.attrInts("split").value_or(SmallVector<int64_t>());
  } else if (n.hasInput(1)) {
    auto s = n.constInts(1, "split");
    if (failed(s))
      return failure();
    sizes = *s;
  }
  if (sizes.empty()) {
    if (n.sinceVersion >= 18)
      parts = n.attrInt("num_outputs", parts);
    if (parts <= 0 || parts != n.numOutputs())
      return n.emitError() << "split into " << parts << " parts for "
                           << n.numOutputs() << " outputs";
    // Uneven chunks (the last one smaller) exist only since opset 18.
    if (n.sinceVersion < 18 && dim % parts != 0)
      return n.emitError() << "dim " << *axis << " of size " << dim
                           << " does not split evenly into " << parts
                           << " outputs";
    int64_t chunk = (dim + parts - 1) / parts;
    for (int64_t i = 0, left = dim; i < parts; ++i, left -= chunk)
      sizes.push_back(std::max<int64_t>(0, std::min(chunk, left)));
  }
  int64_t total = 0;
  for (int64_t s : sizes)
    if (s < 0 || llvm::AddOverflow(total, s, total))
      return n.emitError() << "split sizes must be non-negative and sum to "
                           << dim;
  if (total != dim || static_cast<int64_t>(sizes.size()) != n.numOutputs())
    return n.emitError() << "split sizes do not cover dim " << *axis
                         << " of size " << dim << " with " << n.numOutputs()
                         << " outputs";
  int64_t offset = 0;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    SmallVector<int64_t> starts(in.getRank(), 0), shape(in.getShape()),
        steps(in.getRank(), 1);
    starts[*axis] = size ? offset : 0;
    shape[*axis] = size;
    FailureOr<Value> y;
    if (isSymbolic(in)) {
      // The other dimensions keep their extents.
      SmallVector<AffineExpr> extents = extentsOf(in);
      extents[*axis] = getAffineConstantExpr(size, n.getContext());
      auto type = tensorTypeOf(n.getContext(), extents, in.getElementType());
      y = n.createTyped<SliceOp>(type, *x, starts, shape, steps,
                                 extentsAttrOf(n.getContext(), extents));
    } else {
      y = n.create<SliceOp>(*x, starts, shape, steps);
    }
    if (failed(y))
      return failure();
    n.setOutput(i, *y);
    offset += size;
  }
  return success();
}

LogicalResult importPad(NodeImporter &n) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  int64_t rank = n.inputType(0).getRank();
  std::string modeName = n.attrString("mode", "constant");
  PadMode mode;
  if (modeName == "constant")
    mode = PadMode::constant;
  else if (modeName == "reflect")
    mode = PadMode::reflect;
  else if (modeName == "edge")
    mode = PadMode::edge;
  else
    return n.emitError() << "pad mode '" << modeName << "' is not supported";
  SmallVector<int64_t> pads, axes;
  double value = 0;
  if (n.sinceVersion < 11) {
    pads = n.attrInts("pads").value_or(SmallVector<int64_t>());
    value = n.attrFloat("value", 0);
  } else {
    auto p = n.constInts(1, "pads");
    if (failed(p))
      return failure();
    pads = *p;
    if (n.hasInput(2)) {
      auto v = n.constFloats(2, "constant_value");
      if (failed(v))
        return failure();
      if (v->size() != 1)
        return n.emitError() << "constant_value must be a scalar";
      value = v->front();
    }
    if (n.hasInput(3)) {
      auto a = n.constInts(3, "axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
  }
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  if (pads.size() != 2 * axes.size())
    return n.emitError() << "pads has " << pads.size() << " entries, expected "
                         << 2 * axes.size();
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (auto [i, a] : llvm::enumerate(axes)) {
    auto d = n.normalizeAxis(a, rank);
    if (failed(d))
      return failure();
    low[*d] = pads[i];
    high[*d] = pads[i + axes.size()];
  }
  auto y = n.create<PadOp>(mode, *x, low, high, APFloat(value));
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

} // namespace

void registerTensorImporters(OpTable &t) {
  t["Concat"] = {{4, 11, 13}, importConcat};
  t["DepthToSpace"] = {{1, 11, 13}, importDepthToSpace};
  t["Dropout"] = {{7, 10, 12, 13}, importDropout};
  t["Expand"] = {{8, 13}, importExpand};
  t["Flatten"] = {{1, 9, 11, 13, 21}, importFlatten};
  t["Identity"] = {{1, 13, 14, 16, 19, 21}, forward};
  t["Pad"] = {{2, 11, 13, 18, 19, 21}, importPad};
  t["Reshape"] = {{1, 5, 13, 14, 19, 21}, importReshape};
  t["SpaceToDepth"] = {{1, 13}, importSpaceToDepth};
  t["Split"] = {{2, 11, 13, 18}, importSplit};
  t["Squeeze"] = {{1, 11, 13, 21}, importSqueeze};
  t["Tile"] = {{6, 13}, importTile};
  t["Transpose"] = {{1, 13, 21}, importTranspose};
  t["Unsqueeze"] = {{1, 11, 13, 21}, importUnsqueeze};
}

} // namespace mlir::brrr
