//===- ShapeInferenceTest.cpp - brrr shape helpers ----------------------===//

#include "dialects/Brrr/BrrrOps.h"

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

} // namespace
