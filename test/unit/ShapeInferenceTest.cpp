//===- ShapeInferenceTest.cpp - brrr shape helpers ----------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

TEST(BroadcastShapes, NumpyRules) {
  auto s = brrr::broadcastShapes({4, 1, 3}, {5, 1});
  ASSERT_TRUE(succeeded(s));
  EXPECT_EQ(*s, (SmallVector<int64_t>{4, 5, 3}));
  auto scalar = brrr::broadcastShapes({}, {2, 3});
  ASSERT_TRUE(succeeded(scalar));
  EXPECT_EQ(*scalar, (SmallVector<int64_t>{2, 3}));
  auto empty = brrr::broadcastShapes({0, 3}, {1, 3});
  ASSERT_TRUE(succeeded(empty));
  EXPECT_EQ(*empty, (SmallVector<int64_t>{0, 3}));
}

TEST(BroadcastShapes, RejectsMismatchedDims) {
  EXPECT_TRUE(failed(brrr::broadcastShapes({4, 3}, {2, 3})));
  EXPECT_TRUE(failed(brrr::broadcastShapes({3}, {0})));
}

/// Symbolic extents over batch (s0, 1..64) and seq (s1, 1..512).
struct Symbols : ::testing::Test {
  Symbols() {
    ctx.loadDialect<brrr::BrrrDialect>();
    dims = {brrr::DimAttr::get(&ctx, "batch", 1, 64),
            brrr::DimAttr::get(&ctx, "seq", 1, 512)};
  }
  AffineExpr c(int64_t v) { return getAffineConstantExpr(v, &ctx); }
  AffineExpr s(unsigned i) { return getAffineSymbolExpr(i, &ctx); }
  MLIRContext ctx;
  SmallVector<brrr::DimAttr> dims;
};

TEST_F(Symbols, RangesOfExtents) {
  using R = std::pair<int64_t, int64_t>;
  EXPECT_EQ(brrr::rangeOf(s(0) * s(1), dims), (R{1, 32768}));
  EXPECT_EQ(brrr::rangeOf(s(1) * 768 + 1, dims), (R{769, 393217}));
  EXPECT_EQ(brrr::rangeOf(s(1).floorDiv(2), dims), (R{0, 256}));
  EXPECT_EQ(brrr::rangeOf(s(1).ceilDiv(128), dims), (R{1, 4}));
  EXPECT_EQ(brrr::rangeOf(s(0) - 1, dims), (R{0, 63}));
  EXPECT_EQ(brrr::rangeOf(s(0) % 8, dims), (R{0, 7}));
  // A symbol the module does not declare, or a product past int64.
  EXPECT_FALSE(brrr::rangeOf(s(2), dims));
  EXPECT_FALSE(brrr::rangeOf(s(0) * (int64_t(1) << 62), dims));
}

TEST_F(Symbols, LargestValuesWithinABound) {
  using V = SmallVector<int64_t>;
  AffineExpr rows = s(0) * s(1);
  // Blocks of 128 rows, and a second extent of the sequence alone, where
  // the rows are at most 4096: 4096 rows (8 x 512, 64 x 64, ...) and the
  // sequence's 512 (at batch 1..8).
  EXPECT_EQ(*brrr::largestWithin({rows.ceilDiv(128), s(1)}, rows, 4096, dims),
            (V{32, 512}));
  // A bound only the smallest point meets, and one no point meets (0).
  EXPECT_EQ(*brrr::largestWithin({rows}, rows, 1, dims), (V{1}));
  EXPECT_EQ(*brrr::largestWithin({rows}, rows + 7, 7, dims), (V{0}));
  // Rows of 100 a batch, at most 250: two batches, whatever the sequence.
  EXPECT_EQ(
      *brrr::largestWithin({s(0) * 100, s(1) + s(0)}, s(0) * 100, 250, dims),
      (V{200, 514}));
  // A ragged bound: 17 rows a sequence token, at most 17 x 77 + 16.
  EXPECT_EQ(*brrr::largestWithin({rows}, s(1) * 17, 17 * 77 + 16, dims),
            (V{64 * 77}));
  // Expressions that may fall as a symbol grows, or name a symbol the
  // module lacks, give no answer.
  EXPECT_FALSE(brrr::largestWithin({s(1) % 8}, rows, 4096, dims));
  EXPECT_FALSE(brrr::largestWithin({rows}, s(0) * -1 + 64, 10, dims));
  EXPECT_FALSE(brrr::largestWithin({s(2)}, rows, 4096, dims));
  // Too many points of the symbols but the last to walk.
  SmallVector<brrr::DimAttr> wide = {brrr::DimAttr::get(&ctx, "a", 1, 1 << 17),
                                     brrr::DimAttr::get(&ctx, "b", 1, 4)};
  EXPECT_FALSE(brrr::largestWithin({s(0)}, s(0) * s(1), 100, wide));
}

TEST_F(Symbols, TypesRoundTripTheirExtents) {
  SmallVector<AffineExpr> extents = {s(0), s(1) * 2, c(768)};
  auto t = brrr::tensorTypeOf(&ctx, extents, Float16Type::get(&ctx));
  EXPECT_TRUE(brrr::isSymbolic(t));
  EXPECT_EQ(t.getShape(), (ArrayRef<int64_t>{ShapedType::kDynamic,
                                             ShapedType::kDynamic, 768}));
  EXPECT_EQ(brrr::extentsOf(t), extents);
  EXPECT_EQ(*brrr::largestShape(t, dims),
            (SmallVector<int64_t>{64, 1024, 768}));
  EXPECT_EQ(brrr::symbolicShapeName(t, dims),
            "[batch, seq * 2, 768] (batch in 1..64, seq in 1..512)");
  // All constant: a static type with no encoding.
  auto fixed = brrr::tensorTypeOf(&ctx, {c(4), c(8)}, Float16Type::get(&ctx));
  EXPECT_EQ(fixed, RankedTensorType::get({4, 8}, Float16Type::get(&ctx)));
}

TEST_F(Symbols, BroadcastOnlyAgainstOneOrItself) {
  auto b = brrr::broadcastExtents({s(0), c(1), c(8)}, {s(1), c(8)});
  ASSERT_TRUE(succeeded(b));
  EXPECT_EQ(*b, (SmallVector<AffineExpr>{s(0), s(1), c(8)}));
  EXPECT_TRUE(failed(brrr::broadcastExtents({s(0)}, {c(4)})));
  EXPECT_TRUE(failed(brrr::broadcastExtents({s(0)}, {s(1)})));
}

TEST_F(Symbols, ProductsCancelSymbolBySymbol) {
  auto p = brrr::productOf({s(1), c(12), s(0) * 64});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->coefficient, 768);
  EXPECT_EQ(p->symbols, (SmallVector<unsigned>{0, 1}));
  EXPECT_EQ(brrr::productOf({s(0) * s(1), c(768)}), p);
  // A sum or a quotient is no product.
  EXPECT_FALSE(brrr::productOf(s(0) + 1));
  EXPECT_FALSE(brrr::productOf(s(0).floorDiv(2)));
}

} // namespace
