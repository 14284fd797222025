//===- ConvKernel.cpp - brrr.fusion conv -> gpu.func ----------------------===//
//
// The convolution kernel family: brrr.conv2d as an implicit GEMM on the
// shared Tensor Core body (GemmKernel.h), with its fused pointwise epilogue
// (batch norm that could not be folded, activation, residual add). Per
// group (grid z): rows are output pixels (n, oh, ow), columns the group's
// output channels, K runs over (input channel, kh, kw). A is the input seen
// through im2col, gathered while the fragments load, so the unfolded matrix
// never exists; padding is the zero of the masked loads.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/GemmKernel.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::brrr;

FailureOr<KernelInfo> mlir::brrr::emitConvKernel(FusionOp fusion,
                                                 OpBuilder &moduleBuilder,
                                                 StringRef name) {
  Block &body = fusion.getBody().front();
  auto conv = dyn_cast<Conv2DOp>(&body.front());
  if (!conv)
    return fusion.emitOpError("conv kernels start with a brrr.conv2d");
  bool last = conv.getChannelsLast();
  ConvGemm g = ConvGemm::shapeOf(conv);
  // Over a symbolic batch: the largest shape's kernel, its rows read at
  // run time.
  std::optional<LargestShapeView> largest;
  if (g.batchExtent)
    largest.emplace(fusion);
  int64_t C = g.C, H = g.H, W = g.W, O = g.O, OH = g.OH, OW = g.OW;
  int64_t KH = g.KH, KW = g.KW, Cg = C / g.G, Og = O / g.G;
  int64_t sh = g.sh, sw = g.sw, pt = g.pt, pl = g.pl, dh = g.dh, dw = g.dw;
  int64_t groups = g.G;
  int64_t OHW = OH * OW, KHW = KH * KW;

  GemmSpec spec;
  spec.product = conv;
  spec.M = g.N * OHW;
  spec.rowsExtent = g.product().rowsExtent;
  spec.N = Og;
  spec.K = Cg * KHW;
  spec.batches = groups;
  spec.elem = conv.getInput().getType().getElementType();
  int64_t M = spec.M, K = spec.K;
  Value input = conv.getInput(), weight = conv.getWeight(),
        bias = conv.getBias();

  // K runs over (c, kh, kw) in NCHW, as OIHW weights store it, and over
  // (kh, kw, c) channels-last, as its KH x KW x O x I weights do.
  auto tapOf = [=](GemmBuilder &e, Value k) {
    Value q = last ? e.div(k, Cg) : e.rem(k, KHW);
    Value c = last ? e.rem(k, Cg) : e.div(k, KHW);
    return std::make_tuple(c, e.div(q, KW), e.rem(q, KW), q);
  };
  spec.a.source = input;
  // Channels-last images and every weight layout run along K (channels, or
  // OIHW rows); NCHW images along the output pixels.
  spec.a.alongK = last;
  spec.a.at = [=](GemmBuilder &e, Value row, Value k) {
    Value n = e.div(row, OHW), p = e.rem(row, OHW);
    Value oh = e.div(p, OW), ow = e.rem(p, OW);
    auto [c, kh, kw, q] = tapOf(e, k);
    // ih = oh * sh - pt + kh * dh (may fall in the padding, below 0).
    Value ih = e.add(e.add(e.mul(oh, sh), e.mul(kh, dh)), e.idx(-pt));
    Value iw = e.add(e.add(e.mul(ow, sw), e.mul(kw, dw)), e.idx(-pl));
    Value valid = e.both(e.both(e.belowRows(row, M), e.ult(k, K)),
                         e.both(e.inRange(ih, H), e.inRange(iw, W)));
    Value channel = e.add(e.mul(e.z, Cg), c);
    Value index =
        last ? e.add(e.mul(e.add(e.mul(e.add(e.mul(n, H), ih), W), iw), C),
                     channel)
             : e.add(e.mul(e.add(e.mul(e.add(e.mul(n, C), channel), H), ih), W),
                     iw);
    return std::make_pair(valid, index);
  };
  spec.b.source = weight;
  spec.b.at = [=](GemmBuilder &e, Value k, Value col) {
    Value valid = e.both(e.ult(k, K), e.ult(col, Og));
    Value o = e.add(e.mul(e.z, Og), col);
    Value index;
    if (last) {
      auto [c, kh, kw, q] = tapOf(e, k);
      index = e.add(e.mul(e.add(e.mul(q, O), o), Cg), c);
    } else {
      index = e.add(e.mul(o, K), k);
    }
    return std::make_pair(valid, index);
  };
  spec.outIndex = [=](GemmBuilder &e, Value row, Value col) {
    Value o = e.add(e.mul(e.z, Og), col);
    if (last)
      return e.add(e.mul(row, O), o);
    Value n = e.div(row, OHW), p = e.rem(row, OHW);
    return e.add(e.mul(e.add(e.mul(n, O), o), OHW), p);
  };
  if (bias) {
    Type bt = cast<RankedTensorType>(bias.getType()).getElementType();
    spec.addBias = [=](GemmBuilder &e, Value col, Value acc) -> Value {
      auto ptr = LLVM::LLVMPointerType::get(e.b.getContext(), 1);
      Value i = arith::IndexCastOp::create(e.b, e.loc, e.b.getI64Type(),
                                           e.add(e.mul(e.z, Og), col));
      Value p =
          LLVM::GEPOp::create(e.b, e.loc, ptr, bt, e.arg(bias), ValueRange{i});
      pointwise::PointwiseEmitter pe(e.b, e.loc);
      Value v = pe.fromMemory(LLVM::LoadOp::create(e.b, e.loc, bt, p), bt);
      return arith::AddFOp::create(e.b, e.loc, acc, v);
    };
  }
  return emitGemmKernel(fusion, spec, moduleBuilder, name);
}
