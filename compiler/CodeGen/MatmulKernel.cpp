//===- MatmulKernel.cpp - brrr.fusion matmul -> gpu.func ------------------===//
//
// The matmul kernel family: a batched brrr.matmul (batch dimensions
// broadcast through per-operand offsets, one batch per grid z) with its
// fused pointwise epilogue. Products with a planned `brrr.tile` run the
// staged body (TiledMatmulKernel.cpp); the others (f32, rows that are not
// whole 16-byte chunks) the shared untiled body (GemmKernel.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/GemmKernel.h"

using namespace mlir;
using namespace mlir::brrr;

FailureOr<KernelInfo> mlir::brrr::emitMatmulKernel(FusionOp fusion,
                                                   OpBuilder &moduleBuilder,
                                                   StringRef name) {
  Block &body = fusion.getBody().front();
  // The matmul comes first; pointwise ops after it are its fused epilogue.
  auto mm = dyn_cast<MatmulOp>(&body.front());
  if (!mm)
    return fusion.emitOpError("matmul kernels start with a brrr.matmul");
  if (fusion->hasAttr("brrr.tile"))
    return emitTiledMatmulKernel(fusion, moduleBuilder, name);
  auto lt = cast<RankedTensorType>(mm.getLhs().getType());
  auto rt = cast<RankedTensorType>(mm.getRhs().getType());
  auto ot = cast<RankedTensorType>(mm.getType());
  int64_t M = ot.getDimSize(ot.getRank() - 2),
          N = ot.getDimSize(ot.getRank() - 1);
  int64_t K = lt.getDimSize(lt.getRank() - 1);
  SmallVector<int64_t> batch(ot.getShape().drop_back(2));

  GemmSpec spec;
  spec.product = mm;
  spec.M = M;
  spec.N = N;
  spec.K = K;
  spec.elem = lt.getElementType();
  for (int64_t d : batch)
    spec.batches *= d;
  // Offset of batch z in an operand (broadcast dimensions have stride 0).
  auto batchOffset = [batch](GemmBuilder &e, RankedTensorType type) {
    ArrayRef<int64_t> shape = type.getShape();
    int64_t matrix = shape[shape.size() - 1] * shape[shape.size() - 2];
    return e.mul(e.broadcastIndex(e.z, batch, shape.drop_back(2)), matrix);
  };
  Value lhs = mm.getLhs(), rhs = mm.getRhs();
  Type et = spec.elem;
  spec.loadA = [=](GemmBuilder &e, Value row, Value k) {
    return e.loadIf(e.arg(lhs), et, e.both(e.ult(row, M), e.ult(k, K)),
                    e.add(batchOffset(e, lt), e.add(e.mul(row, K), k)));
  };
  spec.loadB = [=](GemmBuilder &e, Value k, Value col) {
    return e.loadIf(e.arg(rhs), et, e.both(e.ult(k, K), e.ult(col, N)),
                    e.add(batchOffset(e, rt), e.add(e.mul(k, N), col)));
  };
  spec.outIndex = [=](GemmBuilder &e, Value row, Value col) {
    return e.add(e.mul(e.z, M * N), e.add(e.mul(row, N), col));
  };
  return emitGemmKernel(fusion, spec, moduleBuilder, name);
}
