//===- MatmulKernel.cpp - brrr.fusion matmul -> gpu.func ------------------===//
//
// The matmul kernel family: a batched brrr.matmul (batch dimensions
// broadcast, one batch per grid z) with its fused pointwise epilogue,
// reading its operands through their layouts (fused transposes, reshapes
// and slices are strides and an offset). The config's body picks the code
// (the code generator's table of emitters sends the Hopper TMA + wgmma body
// to WgmmaMatmulKernel.cpp, WgmmaBody.cpp): here, a few rows on plain
// threads or on mma.sync (Products/FewRowsKernel.h), the staged mma_sync tile
// for f16/bf16 (TiledMatmulKernel.cpp), or the bodies shared with
// convolutions (GemmKernel.h): f32 on staged mma_sync tiles, f16/bf16 rows
// that are not whole 16-byte chunks on the untiled warp_mma body.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/Products/FewRowsKernel.h"
#include "compiler/CodeGen/Products/GemmKernel.h"

#include "passes/Config/Products.h"

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// The few-rows bodies (isFewRowsMatmul; takesFewRowsMma on Tensor Cores):
/// row r's inputs and column n's weights each run along K from where their
/// layouts put them.
FailureOr<KernelInfo> emitFewRowsMatmul(FusionOp fusion, MatmulOp mm,
                                        bool tensorCores,
                                        OpBuilder &moduleBuilder,
                                        StringRef name) {
  if (failed(checkProductFusion(fusion, mm)))
    return failure();
  bool symbolic = isSymbolic(mm.getType());
  if (tensorCores ? !takesFewRowsMma(mm)
                  : !(symbolic ? takesFewRowsRanges(mm) : isFewRowsMatmul(mm)))
    return mm.emitOpError("the few-rows body takes at most ")
           << (tensorCores ? kFewRowsMmaMaxRows : kOnePixelRows)
           << " rows of one batch read along K";
  ProductOperands po = productOperandsOf(mm);
  OperandLayout lhs = po.lhs, rhs = po.rhs;
  FewRowsSpec spec;
  spec.product = mm;
  spec.rows = po.shape.M;
  // Over symbolic rows: a range's kernel, of the config's rows (the
  // verifier keeps them at most kOnePixelRows, kFewRowsMmaMaxRows on
  // Tensor Cores), the epilogue at the largest shape's layout.
  std::optional<LargestShapeView> largest;
  if (symbolic) {
    FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
    if (failed(config))
      return failure();
    spec.rows = config->getTile()[0];
    spec.rowsExtent = po.shape.rowsExtent;
    largest.emplace(fusion);
  }
  spec.columns = po.shape.N;
  if (std::optional<PairedHalves> halves = pairedHalvesOf(mm))
    spec.pairedColumns = halves->columns;
  spec.depth = po.shape.K;
  spec.input = lhs.source;
  spec.weight = rhs.source;
  int64_t rowStride = lhs.strides.end()[-2], columnStride = rhs.strides.back();
  spec.inputAt = [=](IndexMath &e, int64_t r, Value) {
    return e.idx(lhs.offset + r * rowStride);
  };
  spec.weightAt = [=](IndexMath &e, Value n) {
    return e.add(e.idx(rhs.offset), e.mul(n, columnStride));
  };
  spec.rowAt = [=](IndexMath &e, Value r) {
    return e.add(e.idx(lhs.offset), e.mul(r, rowStride));
  };
  if (tensorCores)
    return emitFewRowsMmaKernel(fusion, spec, moduleBuilder, name);
  return emitFewRowsKernel(fusion, spec, moduleBuilder, name);
}

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitMatmulKernel(FusionOp fusion,
                                                   OpBuilder &moduleBuilder,
                                                   StringRef name) {
  // Views the product reads through, the matmul, then its epilogue.
  MatmulOp mm = matmulOf(fusion);
  if (!mm)
    return fusion.emitOpError("matmul kernels hold a brrr.matmul");
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  Type et = mm.getLhs().getType().getElementType();
  if (config->getBody() == KernelBody::mma_sync && !et.isF32())
    return emitTiledMatmulKernel(fusion, moduleBuilder, name);
  // The few-rows bodies: a tile of [rows, columns per block].
  if (config->getBody() == KernelBody::simt ||
      (config->getBody() == KernelBody::warp_mma &&
       config->getTile().size() == 2))
    return emitFewRowsMatmul(fusion, mm,
                             config->getBody() == KernelBody::warp_mma,
                             moduleBuilder, name);
  if (config->getBody() != KernelBody::warp_mma &&
      config->getBody() != KernelBody::mma_sync)
    return fusion.emitOpError("matmul kernels have no ")
           << stringifyKernelBody(config->getBody()) << " body";
  ProductOperands po = productOperandsOf(mm);
  const ProductShape &shape = po.shape;
  // Over symbolic rows or batches: the largest shape's kernel, its rows or
  // batches read at run time.
  std::optional<LargestShapeView> largest;
  if (isSymbolic(mm.getType())) {
    if (!shape.symbolic())
      return mm.emitOpError("symbolic extents compile where they are the "
                            "product's rows or batches only");
    largest.emplace(fusion);
  }
  int64_t M = shape.M, N = shape.N, K = shape.K;
  SmallVector<int64_t> batch = shape.batch;

  GemmSpec spec;
  spec.product = mm;
  spec.M = M;
  spec.N = N;
  spec.K = K;
  spec.rowsExtent = shape.rowsExtent;
  spec.batchesExtent = shape.batchesExtent;
  spec.elem = et;
  spec.batches = shape.batches;
  // Element (row, col) of batch z of an operand, through its layout.
  auto offsetOf = [batch](GemmBuilder &e, const OperandLayout &l, Value row,
                          Value col) {
    int64_t rank = l.shape.size();
    Value at = e.add(e.idx(l.offset), e.add(e.mul(row, l.strides[rank - 2]),
                                            e.mul(col, l.strides[rank - 1])));
    return e.add(at, batchOffset(e, l, batch, e.z));
  };
  OperandLayout lhs = po.lhs, rhs = po.rhs;
  spec.a.source = lhs.source;
  spec.a.at = [=](GemmBuilder &e, Value row, Value k) {
    return std::make_pair(e.both(e.belowRows(row, M), e.ult(k, K)),
                          offsetOf(e, lhs, row, k));
  };
  spec.a.alongK = lhs.strides.back() == 1 || lhs.strides.end()[-2] != 1;
  spec.b.source = rhs.source;
  spec.b.at = [=](GemmBuilder &e, Value k, Value col) {
    return std::make_pair(e.both(e.ult(k, K), e.ult(col, N)),
                          offsetOf(e, rhs, k, col));
  };
  spec.b.alongK = rhs.strides.end()[-2] == 1 && rhs.strides.back() != 1;
  spec.outIndex = [=](GemmBuilder &e, Value row, Value col) {
    return e.add(e.mul(e.z, M * N), e.add(e.mul(row, N), col));
  };
  return emitGemmKernel(fusion, spec, moduleBuilder, name);
}
