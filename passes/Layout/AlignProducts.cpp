//===- AlignProducts.cpp - constant-weight products laid out for tiles ---===//
//
// Runs before brrr-fuse-matmul (flag brrr-align-products). The tiled Tensor
// Core bodies read operands in 16-byte chunks: the contraction K of A and
// the rows of B must be whole chunks (8 16-bit elements), or the product
// falls back to the untiled body, about ten times slower. MLP-Mixer's
// token mixing contracts its 196 tokens, and multiplies by weights of 196
// columns. For a 16-bit product by a constant 2-D weight W [K, N]:
//  - K not a multiple of 8: K is zero-padded to the next multiple, in W's
//    rows at compile time and in A by a pad that runs as its own copy (a
//    memory-bound kernel, a small fraction of such a product's time);
//  - N not a multiple of 8 on a wgmma target: W is stored K-major, as
//    [N, K] read through a transpose, which the TMA body reads as B;
// both where the product is large enough to pay for the pad's launch
// (`min-work` multiply-adds); small products run the untiled body well.
// A product of at most four static rows (a classifier at batch 1) stores
// W K-major at any size, f32 too, and pads nothing: the few-rows body
// (isFewRowsMatmul) reads each column's weights along K, in 16-byte
// vectors where K allows. So does a 16-bit product over symbolic rows as
// few as four (a decoder at one token), whose smallest ranges run that
// body (takesFewRowsRanges) and the others the wgmma body. So does a
// 16-bit product of at most `few-rows-mma`'s static rows (32 by
// default, 64 with `always`), K whole chunks: the few-rows body on Tensor
// Cores (takesFewRowsMma).
// Padding contributes products of zeros, so the sums are those of the
// unpadded product.
//
//===----------------------------------------------------------------------===//

#include "passes/Analysis.h"
#include "passes/Config/Products.h"
#include "passes/Passes.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRALIGNPRODUCTS
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// 16-bit elements per 16-byte chunk.
constexpr int64_t kChunk = 8;

/// The [K, N] weight `w` stored as `type`: [rows, N] with rows past K zero,
/// or K-major, [N, rows].
ElementsAttr storedValues(ArrayRef<double> w, int64_t K, int64_t N,
                          int64_t rows, bool kMajor, RankedTensorType type) {
  SmallVector<double> stored(rows * N, 0.0);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n)
      stored[kMajor ? n * rows + k : k * N + n] = w[k * N + n];
  return makeFloatElements(type, stored, "aligned_weight");
}

struct AlignProductsPass
    : public mlir::brrr::impl::BrrrAlignProductsBase<AlignProductsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::views)))
      return signalPassFailure();
    FailureOr<Choice> use =
        choiceOf(getOperation(), "few-rows-mma", fewRowsMma);
    if (failed(use))
      return signalPassFailure();
    bool wgmma = targetOf(getOperation()).hasWgmma();
    SmallVector<MatmulOp> products;
    getOperation().walk([&](MatmulOp mm) {
      if (!mm->getParentOfType<FusionOp>())
        products.push_back(mm);
    });
    for (MatmulOp mm : products)
      align(mm, wgmma, fewRowsMmaRows(*use));
  }

  void align(MatmulOp mm, bool wgmma, int64_t mmaRows) {
    auto lt = cast<RankedTensorType>(mm.getLhs().getType());
    auto wt = cast<RankedTensorType>(mm.getRhs().getType());
    Type et = lt.getElementType();
    int64_t K = wt.getRank() == 2 ? wt.getDimSize(0) : 0;
    bool sixteen = et.isF16() || et.isBF16();
    bool fewRows = (sixteen || et.isF32()) && lt.hasStaticShape() && K > 0 &&
                   lt.getNumElements() >= K &&
                   lt.getNumElements() / K <= kOnePixelRows;
    // Up to `few-rows-mma`'s rows (fewRowsMmaRows), 16-bit rows in whole
    // chunks of K: the few-rows body on Tensor Cores (takesFewRowsMma).
    if (sixteen && lt.hasStaticShape() && K > 0 && K % kChunk == 0 &&
        lt.getNumElements() >= K && lt.getNumElements() / K <= mmaRows)
      fewRows = true;
    // Over symbolic rows as few as kOnePixelRows, 16-bit, K whole chunks,
    // on a wgmma target: those ranges run the few-rows body
    // (takesFewRowsRanges), the others the wgmma body, which reads a
    // K-major B as well.
    if (sixteen && wgmma && isSymbolic(lt) && K > 0 && K % kChunk == 0) {
      std::optional<std::pair<int64_t, int64_t>> elements =
          rangeOf(elementCountOf(lt), dimsOf(mm));
      fewRows = elements && elements->first >= K &&
                elements->first / K <= kOnePixelRows;
    }
    if (!(sixteen || fewRows) || wt.getRank() != 2 || !wt.hasStaticShape() ||
        mm.getLhs() == mm.getRhs() || !mm.getRhs().getDefiningOp<ConstantOp>())
      return;
    int64_t N = wt.getDimSize(1);
    // Both only for products large enough that the tiled body pays for a
    // pad's launch; small ones run the untiled body well. Over symbolic
    // rows (a language model's head over a symbolic batch), the largest
    // shape's work decides, and only the weight is stored K-major: the
    // pad of A is a static copy.
    int64_t rowsTimesK = 1;
    for (int64_t d : largestShapeOf(mm.getLhs()))
      rowsTimesK *= d;
    if (K == 0 || N == 0 || (!fewRows && rowsTimesK / K * N * K < minWork))
      return;
    int64_t paddedK = llvm::alignTo(K, kChunk);
    bool padK = !fewRows && K % kChunk != 0;
    bool kMajor = fewRows || (wgmma && N % kChunk != 0);
    if ((!padK && !kMajor) || (padK && !lt.hasStaticShape()))
      return;
    int64_t rows = padK ? paddedK : K;
    auto storedType = RankedTensorType::get(kMajor ? ArrayRef<int64_t>{N, rows}
                                                   : ArrayRef<int64_t>{rows, N},
                                            wt.getElementType());
    // A weight blob only transposed is permuted as bytes (a language
    // model's head: tens of millions of elements); otherwise the values.
    ElementsAttr weights =
        padK ? nullptr
             : transposeWeights(
                   mm.getRhs().getDefiningOp<ConstantOp>().getValue(),
                   storedType, ArrayRef<int64_t>{1, 0});
    if (!weights) {
      std::optional<SmallVector<double>> w = getConstFloats(mm.getRhs());
      if (!w)
        return;
      weights = storedValues(*w, K, N, rows, kMajor, storedType);
    }
    OpBuilder b(mm);
    Location loc = mm.getLoc();
    Type wet = wt.getElementType();
    Value lhs = mm.getLhs();
    if (padK) {
      int64_t rank = lt.getRank();
      SmallVector<int64_t> shape(lt.getShape()), low(rank, 0), high(rank, 0);
      shape.back() = paddedK;
      high.back() = paddedK - K;
      lhs = PadOp::create(b, loc, RankedTensorType::get(shape, et),
                          PadMode::constant, lhs, low, high, APFloat(0.0));
    }
    Value rhs = ConstantOp::create(b, loc, weights);
    if (kMajor)
      rhs = TransposeOp::create(b, loc, RankedTensorType::get({rows, N}, wet),
                                rhs, ArrayRef<int64_t>{1, 0});
    Operation *old = mm.getRhs().getDefiningOp();
    mm.getLhsMutable().assign(lhs);
    mm.getRhsMutable().assign(rhs);
    if (old->use_empty())
      old->erase();
  }
};

} // namespace
