//===- SplitK.cpp - skinny products split along K -------------------------===//
//
// Graph pass (flag brrr-split-k), after brrr-fuse-attention and before the
// fusion passes. A product whose output tiles leave most multiprocessors
// idle (the 128-row products of batch-1 transformers: BERT's 128 x 768 x
// 3072 makes 6 tiles for 132 multiprocessors, each walking K = 3072) is
// computed as S products over K / S each,
//
//   P = matmul(transpose(reshape(A, M x S x K/S)), reshape(B, S x K/S x N))
//   C = cast(reduce_sum(cast(P, f32), axis 0), type of C)
//
// The views cost nothing (the matmul kernel reads through them), the
// partial products leave their kernel as f32 accumulators (the cast is
// their epilogue), and the reduction kernel takes the product's own
// epilogue (bias, activation, residual). The split is chosen here, from
// the estimated time of both forms; the IR shows it as the partial
// product's leading dimension.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRSPLITK
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Estimates of an H100 (test/gpu/NOTES.md): one 128-row wgmma tile runs
/// at about 4.5 TFLOP/s on its multiprocessor, partial products stream at
/// 3 TB/s, and the extra reduction kernel costs 2 us of launch and latency
/// inside a CUDA graph.
constexpr double kTileFlopsPerSecond = 4.5e12;
constexpr double kBytesPerSecond = 3e12;
constexpr double kExtraKernelSeconds = 2e-6;

/// The number of parts to split `mm`'s K into on `target` (1: none): only
/// f16/bf16 products on the wgmma body, with one matrix, into parts of at
/// least 256 that are whole 64-deep slices, when that is estimated faster.
int64_t splitOf(MatmulOp mm, StringRef target) {
  Type et = mm.getLhs().getType().getElementType();
  if (target != "sm_90a" || !(et.isF16() || et.isBF16()))
    return 1;
  ProductShape p = productShapeOf(mm);
  if (p.batches != 1 || mm.getRhs().getType().getNumElements() != p.K * p.N)
    return 1;
  int64_t n = wgmmaTileWidth(p, target), sms = multiprocessors(target);
  int64_t tiles = llvm::divideCeil(p.M, 128) * llvm::divideCeil(p.N, n);
  auto seconds = [&](int64_t s) {
    int64_t waves = llvm::divideCeil(tiles * s, sms);
    double t = waves * 2.0 * 128 * n * (p.K / s) / kTileFlopsPerSecond;
    if (s > 1)
      t += 8.0 * s * p.M * p.N / kBytesPerSecond + kExtraKernelSeconds;
    return t;
  };
  int64_t best = 1;
  for (int64_t s = 2; s <= 16; ++s)
    if (p.K % (64 * s) == 0 && p.K / s >= 256 && seconds(s) < seconds(best))
      best = s;
  return best;
}

void splitProduct(MatmulOp mm, int64_t s) {
  OpBuilder b(mm);
  Location loc = mm.getLoc();
  ProductShape p = productShapeOf(mm);
  Type et = mm.getLhs().getType().getElementType();
  Type f32 = b.getF32Type();
  auto tensor = [](ArrayRef<int64_t> shape, Type t) {
    return RankedTensorType::get(shape, t);
  };
  Value a =
      ReshapeOp::create(b, loc, tensor({p.M, s, p.K / s}, et), mm.getLhs());
  a = TransposeOp::create(b, loc, tensor({s, p.M, p.K / s}, et), a,
                          b.getDenseI64ArrayAttr({1, 0, 2}));
  Value bv =
      ReshapeOp::create(b, loc, tensor({s, p.K / s, p.N}, et), mm.getRhs());
  Value parts = MatmulOp::create(b, loc, tensor({s, p.M, p.N}, et), a, bv);
  parts = CastOp::create(b, loc, tensor({s, p.M, p.N}, f32), parts);
  // Summed into the product's own shape, so its epilogue reads the sum.
  ArrayRef<int64_t> shape = mm.getType().getShape();
  SmallVector<int64_t> partShape = {s};
  llvm::append_range(partShape, shape);
  if (shape.size() != 2)
    parts = ReshapeOp::create(b, loc, tensor(partShape, f32), parts);
  Value sum = ReduceOp::create(
      b, loc, tensor(shape, f32),
      ReduceKindAttr::get(b.getContext(), ReduceKind::sum), parts,
      b.getDenseI64ArrayAttr({0}), b.getBoolAttr(false));
  Value c = CastOp::create(b, loc, mm.getType(), sum);
  mm.getResult().replaceAllUsesWith(c);
  mm->erase();
}

struct SplitKPass : public mlir::brrr::impl::BrrrSplitKBase<SplitKPass> {
  void runOnOperation() override {
    StringRef target = targetOf(getOperation());
    SmallVector<std::pair<MatmulOp, int64_t>> splits;
    getOperation().walk([&](MatmulOp mm) {
      if (mm->getParentOfType<FusionOp>())
        return;
      if (int64_t s = splitOf(mm, target); s > 1)
        splits.push_back({mm, s});
    });
    for (auto [mm, s] : splits)
      splitProduct(mm, s);
  }
};

} // namespace
