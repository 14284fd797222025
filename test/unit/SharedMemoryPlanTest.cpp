//===- SharedMemoryPlanTest.cpp - brrr-plan-shared-memory placement ------===//
//
// The placement rule of the shared-memory planner on buffer lists no
// kernel family produces yet: reuse across disjoint phases, alignment, and
// largest-first order.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/SharedBuffers.h"

#include <gtest/gtest.h>

using mlir::brrr::placeSharedBuffers;
using mlir::brrr::SharedBuffer;

namespace {

SharedBuffer buffer(int64_t bytes, int64_t first, int64_t last,
                    int64_t align = 16) {
  SharedBuffer b;
  b.bytes = bytes;
  b.align = align;
  b.firstUse = first;
  b.lastUse = last;
  return b;
}

TEST(SharedMemoryPlanTest, DisjointPhasesShareBytes) {
  // Three reductions' scratch: k overlaps k + 1, k + 2 reuses k.
  SharedBuffer bufs[] = {buffer(32, 0, 1), buffer(32, 1, 2), buffer(32, 2, 3)};
  EXPECT_EQ(placeSharedBuffers(bufs), 64);
  EXPECT_EQ(bufs[0].offset, 0);
  EXPECT_EQ(bufs[1].offset, 32);
  EXPECT_EQ(bufs[2].offset, 0);
}

TEST(SharedMemoryPlanTest, BuffersAliveTogetherNeverOverlap) {
  SharedBuffer bufs[] = {buffer(100, 0, 5), buffer(40, 2, 3), buffer(40, 3, 4)};
  int64_t total = placeSharedBuffers(bufs);
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      bool together = bufs[i].firstUse <= bufs[j].lastUse &&
                      bufs[j].firstUse <= bufs[i].lastUse;
      bool overlap = bufs[i].offset < bufs[j].offset + bufs[j].bytes &&
                     bufs[j].offset < bufs[i].offset + bufs[i].bytes;
      EXPECT_FALSE(together && overlap) << "buffers " << i << " and " << j;
    }
  EXPECT_GE(total, 100 + 40 + 40);
  EXPECT_EQ(total % 16, 0);
}

TEST(SharedMemoryPlanTest, OffsetsHonourAlignment) {
  // The 1024-byte-aligned tiles go first (largest): the second skips to
  // 1024; the small buffer fits first in the gap the alignment left.
  SharedBuffer bufs[] = {buffer(8, 0, 0, 4), buffer(1000, 0, 0, 1024),
                         buffer(1000, 0, 0, 1024)};
  int64_t total = placeSharedBuffers(bufs);
  EXPECT_EQ(bufs[1].offset, 0);
  EXPECT_EQ(bufs[2].offset, 1024);
  EXPECT_EQ(bufs[0].offset, 1000);
  EXPECT_EQ(total, 2032); // 1024 + 1000, rounded to 16
}

TEST(SharedMemoryPlanTest, EmptyPlanNeedsNothing) {
  EXPECT_EQ(placeSharedBuffers({}), 0);
}

} // namespace
