//===- WgmmaMatmulKernel.cpp - Hopper TMA + wgmma products ----------------===//
//
// The fronts of the Hopper body (sm_90a, WgmmaBody.h) for f16/bf16
// products whose operands TMA can read: matmuls (tmaOperandOf) through
// tiled tensor maps, and channels-last convolutions (ConvGemm) as implicit
// GEMMs whose activations arrive through im2col maps. Each describes its
// product as a WgmmaProblem (rows, columns, batches, k-slices, the maps,
// the bias) and issues each k-slice's copies; brrr-select-kernel-config
// chose the tile and brrr-plan-shared-memory placed the stages.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/WgmmaBody.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::wgmma;

namespace {

/// The tensor map of an operand laid out as `l` read as `t`: rows x cols of
/// the map (innermost: the contiguous dimension) and its box.
MapSpec mapOf(const OperandLayout &l, const TmaOperand &t,
              bool contiguousIsLast, int64_t boxOuter, int64_t batches,
              int64_t eb) {
  int64_t rank = l.shape.size();
  MapSpec m;
  m.input = cast<BlockArgument>(l.source).getArgNumber();
  m.offsetBytes = eb * l.offset;
  int64_t inner = contiguousIsLast ? rank - 1 : rank - 2;
  int64_t outer = contiguousIsLast ? rank - 2 : rank - 1;
  // A dimension of size 1 may carry any stride; TMA wants a real one.
  int64_t outerStride = l.shape[outer] == 1 ? 16 / eb : l.strides[outer];
  m.dims = {l.shape[inner], l.shape[outer]};
  m.strides = {eb * outerStride};
  m.box = {kSwizzleBytes / eb, boxOuter};
  if (t.batchStride != 0 && batches > 1) {
    m.dims.push_back(batches);
    m.strides.push_back(eb * t.batchStride);
    m.box.push_back(1);
    m.batched = true;
  }
  return m;
}

} // namespace

FailureOr<KernelInfo>
mlir::brrr::emitWgmmaMatmulKernel(FusionOp fusion, OpBuilder &moduleBuilder,
                                  StringRef name) {
  MatmulOp mm = matmulOf(fusion);
  if (!mm)
    return fusion.emitOpError("matmul kernels hold a brrr.matmul");
  FailureOr<MatmulTile> tileOr = productTileOf(fusion, mm);
  if (failed(tileOr))
    return failure();
  MatmulTile tile = *tileOr;

  ProductOperands po = productOperandsOf(mm);
  const ProductShape &shape = po.shape;
  // Over symbolic extents: the largest shape's kernel (the epilogue reads
  // its inputs at the largest types), its rows or batches read at run time.
  bool symbolic = isSymbolic(mm.getType());
  if (symbolic && !shape.symbolic())
    return mm.emitOpError("symbolic extents compile where they are the "
                          "product's rows or batches only");
  std::optional<LargestShapeView> largest;
  if (symbolic)
    largest.emplace(fusion);
  const OperandLayout &lhs = po.lhs, &rhs = po.rhs;
  std::optional<TmaOperand> ta = tmaOperandOf(lhs, shape.batch, true),
                            tb = tmaOperandOf(rhs, shape.batch, false);
  if (!ta || !tb)
    return fusion.emitOpError("has a wgmma tile but operands TMA cannot read");
  WgmmaProblem p;
  p.product = mm;
  p.elem = mm.getLhs().getType().getElementType();
  p.M = shape.M;
  p.rowsExtent = shape.rowsExtent;
  p.batchesExtent = shape.batchesExtent;
  p.N = shape.N;
  p.batches = shape.batches;
  p.kTiles = llvm::divideCeil(shape.K, tile.k);
  p.flops = 2 * shape.batches * shape.M * shape.N * shape.K;
  p.bKContiguous = tb->kContiguous;
  if (std::optional<PairedHalves> halves = pairedHalvesOf(mm)) {
    if (tile.n % 128 || tile.multicast != 1 || tile.pingpong())
      return mm.emitOpError("pairs the halves of its columns, which takes "
                            "tiles of 128 or 256 columns without multicast "
                            "or ping-pong");
    p.pairedColumns = halves->columns;
  }
  // B's box: a paired tile copies each half's n / 2 columns apart.
  int64_t bColumns = p.pairedColumns ? tile.n / 2 : tile.n;
  int64_t eb = tile.elementBytes;
  // Tensor maps: A is rows of K; B is rows of K (B^T stored) or of N (only
  // 16-bit operands: tmaOperandOf).
  p.aMap =
      mapOf(lhs, *ta, /*contiguousIsLast=*/true, tile.m, shape.batches, eb);
  if (shape.rowsExtent) {
    // A's rows (its outer map dimension) are the symbolic ones: the runtime
    // encodes the map at each shape.
    if (p.aMap.dims.size() != 2)
      return mm.emitOpError("a symbolic product's A is one matrix");
    p.aMap.extents = {getAffineConstantExpr(p.aMap.dims[0], mm.getContext()),
                      shape.rowsExtent};
  }
  p.bMap = tb->kContiguous ? mapOf(rhs, *tb, false, bColumns, shape.batches, eb)
                           : mapOf(rhs, *tb, true, tile.k, shape.batches, eb);
  // Over symbolic batches, a batched map's outer dimension is the batch:
  // the runtime encodes it at each shape, so that no copy reaches past the
  // actual batches.
  if (shape.batchesExtent)
    for (MapSpec *m : {&p.aMap, &p.bMap})
      if (m->batched)
        m->extents = {getAffineConstantExpr(m->dims[0], mm.getContext()),
                      getAffineConstantExpr(m->dims[1], mm.getContext()),
                      shape.batchesExtent};
  bool kContiguous = tb->kContiguous;
  int64_t paired = p.pairedColumns;
  p.copies = [=](WgmmaBuilder &e, Value kt, Value aDst, Value bDst,
                 const auto &copy, Value row0, Value col0) {
    Value k0 = e.toI32(e.mul(kt, tile.k));
    copy(aDst, true, {k0, e.toI32(row0)}, {});
    // B's column `c` of the tile (a whole box's first): paired halves take
    // their first n / 2 at the tile's columns of the first half, the rest
    // at the same columns of the second.
    auto bColumn = [&](int64_t c) -> Value {
      if (!paired)
        return c ? e.add(col0, e.idx(c)) : col0;
      Value half0 = e.div(col0, 2);
      int64_t h = tile.n / 2;
      return e.add(half0, e.idx(c < h ? c : paired + c - h));
    };
    if (kContiguous) {
      // Rows of K: one box of the tile's n rows, or of each half's n / 2.
      for (int64_t c = 0; c < tile.n; c += bColumns)
        copy(e.at(bDst, c * kSwizzleBytes), false, {k0, e.toI32(bColumn(c))},
             {});
    } else {
      // N-contiguous B: n/64 boxes of 64 columns x k rows side by side.
      for (int64_t j = 0; j < tile.n / 64; ++j)
        copy(e.at(bDst, j * 64 * tile.k * 2), false,
             {e.toI32(bColumn(64 * j)), k0}, {});
    }
  };
  return emitWgmmaBody(fusion, tile, p, moduleBuilder, name);
}

FailureOr<KernelInfo> mlir::brrr::emitWgmmaConvKernel(FusionOp fusion,
                                                      OpBuilder &moduleBuilder,
                                                      StringRef name) {
  auto conv = dyn_cast<Conv2DOp>(&fusion.getBody().front().front());
  if (!conv || !conv.getChannelsLast())
    return fusion.emitOpError(
        "a wgmma conv kernel starts with a channels-last brrr.conv2d");
  FailureOr<MatmulTile> tileOr = productTileOf(fusion, conv);
  if (failed(tileOr))
    return failure();
  MatmulTile tile = *tileOr;
  std::optional<ConvGemm> g = ConvGemm::of(conv);
  auto input = dyn_cast<BlockArgument>(conv.getInput());
  auto weight = dyn_cast<BlockArgument>(conv.getWeight());
  if (!g || !input || !weight)
    return fusion.emitOpError("has a wgmma tile but a convolution that TMA's "
                              "im2col mode cannot read");
  // Over a symbolic batch: the largest shape's kernel (the epilogue reads
  // its inputs at the largest types), its rows read at run time.
  std::optional<LargestShapeView> largest;
  if (g->batchExtent)
    largest.emplace(fusion);

  WgmmaProblem p;
  p.product = conv;
  p.elem = conv.getInput().getType().getElementType();
  // Bytes an element: 2, or 1 for 8-bit operands (128-channel slices).
  int64_t eb = tile.elementBytes;
  p.M = g->N * g->OH * g->OW;
  p.rowsExtent = g->product().rowsExtent;
  p.N = g->O;
  // A slice is 64 16-bit channels (128 8-bit ones) of one tap, or where a
  // group's channels fill at most 32 or 64 bytes, that many bytes of
  // channels of each of several taps, each copy swizzled over its bytes
  // (ConvGemm::wgmmaBoxBytes): a 64-channel box of the stem's 8 would read
  // 8 times the zeros. A group's last slice may be partial (ConvGemm::of,
  // wgmmaPadsConvGroups): the weights' map reads zeros past the group's
  // channels.
  int64_t Cg = g->C / g->G, Og = g->O / g->G;
  int64_t taps = g->KH * g->KW;
  int64_t perSlice = g->wgmmaTapsPerSlice(tile.k, eb);
  bool severalTaps = perSlice > 1;
  int64_t chunk = tile.k / perSlice;
  int64_t cBlocks = llvm::divideCeil(Cg, chunk);
  p.kTiles = g->wgmmaSlices(tile.k, eb);
  p.swizzle = g->wgmmaBoxBytes(eb);
  p.flops = 2 * p.M * g->O * Cg * g->KH * g->KW;
  p.bKContiguous = true;
  if (g->G > 1 && Og % tile.n != 0)
    p.groupColumns = Og;
  // A: im2col over the N x H x W x C input, dims innermost first; each copy
  // takes m consecutive output pixels (n, oh, ow) of 64 channels, a tap's
  // offsets from each pixel's window corner. The corners hold the padding
  // and the window's reach, the element strides the convolution's strides.
  MapSpec &a = p.aMap;
  a.input = input.getArgNumber();
  a.im2col = true;
  a.dims = {g->C, g->W, g->H, g->N};
  a.strides = {eb * g->C, eb * g->W * g->C, eb * g->H * g->W * g->C};
  a.lower = {-g->pl, -g->pt};
  a.upper = {g->pr - (g->KW - 1) * g->dw, g->pb - (g->KH - 1) * g->dh};
  a.channels = chunk;
  a.pixels = tile.m;
  a.swizzle = p.swizzle;
  a.elementStrides = {1, g->sw, g->sh, 1};
  // The batch, the outermost dimension, is the symbolic one: the runtime
  // encodes the map at each shape.
  if (g->batchExtent) {
    MLIRContext *ctx = conv.getContext();
    a.extents = {getAffineConstantExpr(g->C, ctx),
                 getAffineConstantExpr(g->W, ctx),
                 getAffineConstantExpr(g->H, ctx), g->batchExtent};
  }
  // B: the KH x KW x O x I weights, a tap's O x I matrix at a time (B^T
  // stored: rows of K).
  MapSpec &w = p.bMap;
  w.input = weight.getArgNumber();
  w.dims = {Cg, g->O, g->KH * g->KW};
  w.strides = {eb * Cg, eb * g->O * Cg};
  w.box = {chunk, tile.n, 1};
  w.swizzle = p.swizzle;
  ConvGemm c = *g;
  int64_t OHW = c.OH * c.OW;
  // Slice kt: channel block kt % cBlocks of tap kt / cBlocks, or taps
  // perSlice kt ... perSlice kt + perSlice - 1, one chunk each (a tap past
  // the last reads the last tap's pixels against weights TMA fills with
  // zeros). A block's columns lie in one group (each group's columns start
  // a tile), whose input channels start at group * Cg.
  p.copies = [=](WgmmaBuilder &e, Value kt, Value aDst, Value bDst,
                 const auto &copy, Value row0, Value col0) {
    Value n = e.div(row0, OHW), pix = e.rem(row0, OHW);
    Value oh = e.div(pix, c.OW), ow = e.rem(pix, c.OW);
    Value w0 = e.toI32(e.add(e.mul(ow, c.sw), e.idx(-c.pl)));
    Value h0 = e.toI32(e.add(e.mul(oh, c.sh), e.idx(-c.pt)));
    auto i16 = [&](Value v) {
      return arith::IndexCastUIOp::create(e.b, e.loc, e.b.getI16Type(), v);
    };
    Value groupC0 = c.G > 1 ? e.mul(e.div(col0, Og), Cg) : Value();
    for (int64_t t = 0; t < perSlice; ++t) {
      Value tap = severalTaps ? e.add(e.mul(kt, perSlice), e.idx(t))
                              : e.div(kt, cBlocks);
      Value c0 = severalTaps ? e.idx(0) : e.mul(e.rem(kt, cBlocks), chunk);
      Value readTap =
          severalTaps ? arith::MinUIOp::create(e.b, e.loc, tap, e.idx(taps - 1))
                      : tap;
      Value r = e.div(readTap, c.KW), s = e.rem(readTap, c.KW);
      copy(e.at(aDst, t * tile.m * eb * chunk), true,
           {e.toI32(groupC0 ? e.add(groupC0, c0) : c0), w0, h0, e.toI32(n)},
           {i16(e.mul(s, c.dw)), i16(e.mul(r, c.dh))});
      copy(e.at(bDst, t * tile.n * eb * chunk), false,
           {e.toI32(c0), e.toI32(col0), e.toI32(tap)}, {});
    }
  };
  if (Value bias = conv.getBias()) {
    Type bt = cast<RankedTensorType>(bias.getType()).getElementType();
    p.addBias = [=](WgmmaBuilder &e, Value col, Value acc,
                    function_ref<Value(Value)> arg) -> Value {
      auto ptr = LLVM::LLVMPointerType::get(e.b.getContext(), 1);
      Type mt = pointwise::memoryType(bt);
      Value i = arith::IndexCastOp::create(e.b, e.loc, e.b.getI64Type(), col);
      Value at =
          LLVM::GEPOp::create(e.b, e.loc, ptr, mt, arg(bias), ValueRange{i});
      pointwise::PointwiseEmitter pe(e.b, e.loc);
      Value v = pe.fromMemory(LLVM::LoadOp::create(e.b, e.loc, mt, at), bt);
      return arith::AddFOp::create(e.b, e.loc, acc, v);
    };
  }
  return emitWgmmaBody(fusion, tile, p, moduleBuilder, name);
}
