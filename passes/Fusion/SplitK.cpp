//===- SplitK.cpp - deep convolutions split along their channels ---------===//
//
// Graph pass (flag brrr-split-k), after brrr-fuse-attention and before the
// fusion passes. A channels-last convolution on the wgmma body (ConvGemm)
// whose output tiles leave most multiprocessors idle is computed as S
// convolutions over C / S input channels each: a grouped convolution over
// weights rearranged so that group s holds channels s C/S ... (s+1) C/S - 1
// of every output, then an f32 sum over S:
//
//   P = conv2d{groups = S}(x, w')            N x OH x OW x (S O)
//   C = cast(reduce_sum(reshape(cast(P, f32), N x OH x OW x S x O), axis 3)
//            + bias, type of C)
//
// The partial convolutions leave their kernel as f32 accumulators (the
// cast is their epilogue), and the reduction kernel takes the
// convolution's own epilogue (residual, activation). ResNet-50's
// last-stage 3 x 3 convolution at batch 1 makes 4 tiles of 49 x 128 over
// K = 4608; split 8 ways it makes 32 over 576. The split is chosen here,
// from the estimated time of both forms; the IR shows it as the
// convolution's groups. (Matrix products split inside their kernel
// instead: the blocks of a cluster sum their partial tiles through
// distributed shared memory, chooseClusterSplit.)
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// The best number of parts (1: none, at most 16) to split the K of an
/// M x N product of 128 x n tiles into, among those `allowed` takes (whole
/// 64-deep slices, parts of at least 256), by estimated time: tile waves at
/// the wgmma rate, plus the f32 partials' traffic and one more kernel.
int64_t bestSplit(int64_t M, int64_t N, int64_t K, int64_t n, StringRef target,
                  function_ref<bool(int64_t)> allowed) {
  int64_t sms = multiprocessors(target);
  int64_t tiles = llvm::divideCeil(M, 128) * llvm::divideCeil(N, n);
  auto seconds = [&](int64_t s) {
    int64_t waves = llvm::divideCeil(tiles * s, sms);
    double t = waves * 2.0 * 128 * n * (K / s) / kTileFlopsPerSecond;
    if (s > 1)
      t += 8.0 * s * M * N / kBytesPerSecond + kExtraKernelSeconds;
    return t;
  };
  int64_t best = 1;
  for (int64_t s = 2; s <= 16; ++s)
    if (K % (64 * s) == 0 && K / s >= 256 && allowed(s) &&
        seconds(s) < seconds(best))
      best = s;
  return best;
}

/// The number of parts to split `conv`'s input channels into (1: none): a
/// convolution of one group on the wgmma body whose split still is one
/// (whole 64-channel slices per part; outputs in whole 128-wide tiles).
int64_t splitOf(Conv2DOp conv, StringRef target) {
  std::optional<ConvGemm> g = ConvGemm::of(conv);
  if (target != "sm_90a" || !g || g->G != 1 || g->C % 64 != 0 ||
      g->O % 128 != 0)
    return 1;
  ProductShape p = g->product();
  return bestSplit(p.M, p.N, p.K, wgmmaTileWidth(p, target), target,
                   [&](int64_t s) { return g->C % (64 * s) == 0; });
}

/// `conv`'s KH x KW x O x C weights as S groups of C / S channels: w'[kh]
/// [kw][s O + o][c] = w[kh][kw][o][s C/S + c], one new blob for constants.
Value splitWeights(OpBuilder &b, Location loc, Value w, int64_t s) {
  auto t = cast<RankedTensorType>(w.getType());
  int64_t KH = t.getDimSize(0), KW = t.getDimSize(1), O = t.getDimSize(2),
          C = t.getDimSize(3), Cs = C / s;
  auto split = t.clone({KH, KW, s * O, Cs});
  if (std::optional<SmallVector<double>> v = getConstFloats(w)) {
    SmallVector<double> out(v->size());
    for (int64_t tap = 0; tap < KH * KW; ++tap)
      for (int64_t p = 0; p < s; ++p)
        for (int64_t o = 0; o < O; ++o)
          for (int64_t c = 0; c < Cs; ++c)
            out[((tap * s + p) * O + o) * Cs + c] =
                (*v)[(tap * O + o) * C + p * Cs + c];
    return ConstantOp::create(b, loc,
                              makeFloatElements(split, out, "split_k_weight"));
  }
  Value v =
      ReshapeOp::create(b, loc, t.clone({KH, KW, O, s, Cs}), w).getResult();
  v = TransposeOp::create(b, loc, t.clone({KH, KW, s, O, Cs}), v,
                          b.getDenseI64ArrayAttr({0, 1, 3, 2, 4}));
  return ReshapeOp::create(b, loc, split, v);
}

void splitConv(Conv2DOp conv, int64_t s) {
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  auto ot = cast<RankedTensorType>(conv.getType());
  int64_t N = ot.getDimSize(0), OH = ot.getDimSize(1), OW = ot.getDimSize(2),
          O = ot.getDimSize(3);
  Type f32 = b.getF32Type();
  Value w = splitWeights(b, loc, conv.getWeight(), s);
  Value parts = Conv2DOp::create(
      b, loc, ot.clone({N, OH, OW, s * O}), conv.getInput(), w, Value(),
      conv.getStridesAttr(), conv.getPadsAttr(), conv.getDilationsAttr(),
      b.getI64IntegerAttr(s), b.getUnitAttr());
  parts = CastOp::create(b, loc, RankedTensorType::get({N, OH, OW, s * O}, f32),
                         parts);
  parts = ReshapeOp::create(
      b, loc, RankedTensorType::get({N, OH, OW, s, O}, f32), parts);
  auto sumType = RankedTensorType::get({N, OH, OW, O}, f32);
  Value sum = ReduceOp::create(
      b, loc, sumType, ReduceKindAttr::get(b.getContext(), ReduceKind::sum),
      parts, b.getDenseI64ArrayAttr({3}), b.getBoolAttr(false));
  if (Value bias = conv.getBias()) {
    Value bf = CastOp::create(b, loc, RankedTensorType::get({O}, f32), bias);
    sum = AddOp::create(b, loc, sumType, sum, bf);
  }
  Value original = conv.getWeight();
  conv.replaceAllUsesWith(CastOp::create(b, loc, ot, sum).getResult());
  conv.erase();
  // The weights in their first arrangement, when nothing else reads them.
  if (Operation *def = original.getDefiningOp();
      def && def->use_empty() && isMemoryEffectFree(def))
    def->erase();
}

struct SplitKPass : public mlir::brrr::impl::BrrrSplitKBase<SplitKPass> {
  /// Splits every convolution outside a fusion whose splitOf chooses a
  /// split.
  void runOnOperation() override {
    StringRef target = targetOf(getOperation());
    SmallVector<std::pair<Conv2DOp, int64_t>> splits;
    getOperation().walk([&](Conv2DOp conv) {
      if (conv->getParentOfType<FusionOp>())
        return;
      if (int64_t s = splitOf(conv, target); s > 1)
        splits.push_back({conv, s});
    });
    for (auto [conv, s] : splits)
      splitConv(conv, s);
  }
};

} // namespace
