//===- ResizeElement.cpp - one element of a resize ------------------------===//
//
// A resize's output element from its coordinates (ResizeElement.h), for
// the movement family's thread of that element.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Movement/ResizeElement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::brrr;

Value mlir::brrr::resizeElement(IndexMath &e, ResizeOp r, ArrayRef<Value> out,
                                Type elem, function_ref<Value(Value)> loadAt) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  ArrayRef<int64_t> shape = r.getType().getShape();
  ArrayRef<int64_t> inShape = r.getInput().getType().getShape();
  std::optional<ArrayRef<double>> scales = r.getScales();
  // Coordinates in f64: the spec's formulas, exact but for rounding far
  // below a coordinate's unit (in f32, as onnxruntime computes them,
  // 3.5 / 0.7f - 0.5 is a tie, 4.5, where it is 4.50000009). The weights
  // and sums in f32 (f64 for f64 data).
  auto ft = cast<FloatType>(b.getF64Type());
  auto vt = cast<FloatType>(elem.isF64() ? b.getF64Type() : b.getF32Type());
  auto fc = [&](double v) -> Value {
    return arith::ConstantOp::create(b, loc, ft, b.getFloatAttr(ft, v));
  };
  auto toIndex = [&](Value x) -> Value {
    Value i = arith::FPToSIOp::create(b, loc, b.getI64Type(), x);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
  };
  auto clampF = [&](Value x, int64_t n) -> Value {
    return arith::MinimumFOp::create(
        b, loc, arith::MaximumFOp::create(b, loc, x, fc(0)), fc(n - 1));
  };
  SmallVector<Value> at(out.begin(), out.end());
  // Linearly interpolated dimensions: (dimension, lower index, upper
  // index, weight of the upper one).
  struct Lerp {
    size_t d;
    Value lo, hi, w;
  };
  SmallVector<Lerp> lerps;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t n = inShape[d], m = shape[d];
    double scale = scales ? (*scales)[d] : double(m) / double(n);
    if (n == m && scale == 1.0)
      continue; // the identity at every coordinate mode
    Value o = arith::SIToFPOp::create(
        b, loc, ft, arith::IndexCastOp::create(b, loc, b.getI64Type(), out[d]));
    Value x;
    switch (r.getCoordinateMode()) {
    case CoordinateMode::half_pixel:
      x = arith::SubFOp::create(
          b, loc,
          arith::DivFOp::create(
              b, loc, arith::AddFOp::create(b, loc, o, fc(0.5)), fc(scale)),
          fc(0.5));
      break;
    case CoordinateMode::pytorch_half_pixel:
      x = m > 1 ? Value(arith::SubFOp::create(
                      b, loc,
                      arith::DivFOp::create(
                          b, loc, arith::AddFOp::create(b, loc, o, fc(0.5)),
                          fc(scale)),
                      fc(0.5)))
                : fc(0);
      break;
    case CoordinateMode::align_corners:
      x = m > 1 ? Value(arith::DivFOp::create(
                      b, loc, arith::MulFOp::create(b, loc, o, fc(n - 1)),
                      fc(m - 1)))
                : fc(0);
      break;
    case CoordinateMode::asymmetric:
      x = arith::DivFOp::create(b, loc, o, fc(scale));
      break;
    }
    if (r.getMode() == ResizeMode::nearest) {
      Value v;
      switch (r.getNearestMode()) {
      case NearestMode::round_prefer_floor: // halves round down
        v = math::CeilOp::create(b, loc,
                                 arith::SubFOp::create(b, loc, x, fc(0.5)));
        break;
      case NearestMode::round_prefer_ceil: // halves round up
        v = math::FloorOp::create(b, loc,
                                  arith::AddFOp::create(b, loc, x, fc(0.5)));
        break;
      case NearestMode::floor:
        v = math::FloorOp::create(b, loc, x);
        break;
      case NearestMode::ceil:
        v = math::CeilOp::create(b, loc, x);
        break;
      }
      // Clamped while a float: no conversion sees a value out of range.
      at[d] = toIndex(clampF(v, n));
      continue;
    }
    x = clampF(x, n);
    Value lo = math::FloorOp::create(b, loc, x);
    Value w = arith::SubFOp::create(b, loc, x, lo);
    if (vt != ft)
      w = arith::TruncFOp::create(b, loc, vt, w);
    Value loIdx = toIndex(lo);
    Value hiIdx =
        arith::MinSIOp::create(b, loc, e.add(loIdx, e.idx(1)), e.idx(n - 1));
    lerps.push_back({d, loIdx, hiIdx, w});
  }
  if (lerps.empty())
    return loadAt(e.linear(at, inShape));
  // Every corner of the cell around the coordinate, weighted by the
  // product of its dimensions' weights.
  Value sum;
  for (int64_t corner = 0; corner < (int64_t(1) << lerps.size()); ++corner) {
    Value weight;
    for (auto [k, l] : llvm::enumerate(lerps)) {
      bool upper = corner >> k & 1;
      at[l.d] = upper ? l.hi : l.lo;
      Value wk = upper ? l.w
                       : Value(arith::SubFOp::create(
                             b, loc,
                             arith::ConstantOp::create(b, loc, vt,
                                                       b.getFloatAttr(vt, 1)),
                             l.w));
      weight = weight ? Value(arith::MulFOp::create(b, loc, weight, wk)) : wk;
    }
    Value v = loadAt(e.linear(at, inShape));
    if (elem != vt)
      v = arith::ExtFOp::create(b, loc, vt, v);
    Value term = arith::MulFOp::create(b, loc, weight, v);
    sum = sum ? Value(arith::AddFOp::create(b, loc, sum, term)) : term;
  }
  return elem == vt ? sum : Value(arith::TruncFOp::create(b, loc, elem, sum));
}
