//===- ImportResize.cpp - Resize and Upsample -> brrr.resize -------------===//
//
// Resize (opsets 10 to 19) and Upsample (7, 9: opset 10's Resize, its
// scales an attribute before opset 9) as brrr.resize: nearest or linear,
// by scales or by output sizes, with the coordinate and nearest modes the
// operator names. Over symbolic extents (an image batch) a symbolic
// dimension keeps its extent, at scale 1.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

/// Resize, and Upsample (opsets 7 and 9, which Resize replaced): Upsample
/// is opset 10's Resize, scales given as an attribute before opset 9.
LogicalResult importResizeOrUpsample(NodeImporter &n, bool upsample) {
  auto x = n.requiredInput(0);
  if (failed(x))
    return failure();
  auto in = n.inputType(0);
  int64_t rank = in.getRank();
  if (n.attrInt("antialias", 0) != 0)
    return n.emitError() << "antialias = 1 is not supported";
  if (n.attr("axes") ||
      n.attrString("keep_aspect_ratio_policy", "stretch") != "stretch")
    return n.emitError() << "'axes' and keep_aspect_ratio_policy are not "
                            "supported";
  // Upsample and Resize 10: (X, scales); Resize 11+: (X, roi, scales,
  // sizes).
  bool legacy = upsample || n.sinceVersion < 11;
  unsigned scalesIdx = legacy ? 1 : 2, sizesIdx = 3;
  SmallVector<int64_t> outShape;
  // Over symbolic extents (an image batch), a symbolic dimension keeps its
  // extent: only a scale of 1 may apply to it.
  SmallVector<AffineExpr> inExtents = extentsOf(in);
  // Where the model gives scales, the coordinate mapping divides by them.
  DenseF64ArrayAttr scaleAttr;
  if (!legacy && n.hasInput(sizesIdx) &&
      n.inputType(sizesIdx).getNumElements() > 0) {
    // Sizes over symbolic extents (an exporter's Concat of the input's
    // Shape): a symbolic dimension keeps its extent.
    auto sizes = n.extentInts(sizesIdx, "sizes");
    if (failed(sizes))
      return failure();
    if (static_cast<int64_t>(sizes->size()) != rank)
      return n.emitError() << "sizes has " << sizes->size()
                           << " entries for rank " << rank;
    for (auto [d, e] : llvm::enumerate(*sizes)) {
      if (ShapedType::isDynamic(in.getDimSize(d))) {
        if (e != inExtents[d])
          return n.emitError() << "size of dim " << d
                               << ", which is symbolic, differs from the "
                                  "input's extent: a symbolic extent is kept";
        outShape.push_back(ShapedType::kDynamic);
        continue;
      }
      auto c = dyn_cast<AffineConstantExpr>(e);
      if (!c)
        return n.emitError() << "size of dim " << d << ", which is fixed, is "
                             << "symbolic";
      if (c.getValue() < 0)
        return n.emitError()
               << "size " << c.getValue() << " of dim " << d << " is negative";
      outShape.push_back(c.getValue());
    }
  } else {
    FailureOr<SmallVector<double>> scales = SmallVector<double>();
    if (upsample && n.sinceVersion < 9) {
      const onnx::AttributeProto *a = n.attr("scales");
      if (!a || a->type() != onnx::AttributeProto::FLOATS)
        return n.emitError() << "needs a 'scales' attribute of floats";
      scales->assign(a->floats().begin(), a->floats().end());
    } else {
      scales = n.constFloats(scalesIdx, "scales");
    }
    if (failed(scales))
      return failure();
    if (static_cast<int64_t>(scales->size()) != rank)
      return n.emitError() << "scales has " << scales->size()
                           << " entries for rank " << rank;
    for (int64_t d = 0; d < rank; ++d) {
      if (!((*scales)[d] > 0 && std::isfinite((*scales)[d])))
        return n.emitError() << "scale " << (*scales)[d] << " of dim " << d
                             << " is not positive and finite";
      if (ShapedType::isDynamic(in.getDimSize(d))) {
        if ((*scales)[d] != 1)
          return n.emitError() << "scale " << (*scales)[d] << " of dim " << d
                               << ", which is symbolic: only a scale of 1 "
                                  "keeps a symbolic extent";
        outShape.push_back(ShapedType::kDynamic);
        continue;
      }
      // Checked before converting: a double beyond int64 has no integer
      // value, and the conversion would be undefined.
      double size = std::floor(in.getDimSize(d) * (*scales)[d]);
      if (!(size >= 0 && size < 0x1p62))
        return n.emitError() << "scale " << (*scales)[d] << " of dim " << d
                             << " gives an output size of " << size;
      outShape.push_back(static_cast<int64_t>(size));
    }
    scaleAttr = n.b.getDenseF64ArrayAttr(*scales);
  }
  if (static_cast<int64_t>(outShape.size()) != rank)
    return n.emitError() << "output sizes have the wrong rank";
  std::string modeName = n.attrString("mode", "nearest");
  ResizeMode mode;
  if (modeName == "nearest")
    mode = ResizeMode::nearest;
  else if (modeName == "linear" || (upsample && modeName == "bilinear"))
    mode = ResizeMode::linear;
  else
    return n.emitError() << "resize mode '" << modeName << "' is not supported";
  std::string coord = n.attrString("coordinate_transformation_mode",
                                   legacy ? "asymmetric" : "half_pixel");
  auto coordMode = symbolizeCoordinateMode(coord);
  if (!coordMode)
    return n.emitError() << "coordinate_transformation_mode '" << coord
                         << "' is not supported";
  std::string nearest =
      n.attrString("nearest_mode", legacy ? "floor" : "round_prefer_floor");
  auto nearestMode = symbolizeNearestMode(nearest);
  if (!nearestMode)
    return n.emitError() << "nearest_mode '" << nearest << "' is not supported";
  RankedTensorType outType =
      RankedTensorType::get(outShape, in.getElementType());
  if (isSymbolic(in)) {
    SmallVector<AffineExpr> extents;
    for (auto [d, size] : llvm::enumerate(outShape))
      extents.push_back(ShapedType::isDynamic(size)
                            ? inExtents[d]
                            : getAffineConstantExpr(size, n.getContext()));
    outType = tensorTypeOf(n.getContext(), extents, in.getElementType());
  }
  auto y = n.createTyped<ResizeOp>(outType, mode, *x, *coordMode, *nearestMode,
                                   scaleAttr);
  if (failed(y))
    return failure();
  n.setOutput(0, *y);
  return success();
}

LogicalResult importResize(NodeImporter &n) {
  return importResizeOrUpsample(n, /*upsample=*/false);
}

LogicalResult importUpsample(NodeImporter &n) {
  return importResizeOrUpsample(n, /*upsample=*/true);
}

} // namespace

void registerResizeImporters(OpTable &t) {
  t["Resize"] = {{10, 11, 13, 18, 19}, importResize};
  t["Upsample"] = {{7, 9}, importUpsample};
}

} // namespace mlir::brrr
