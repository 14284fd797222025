//===- ArtifactTensorMapTest.cpp - tensor maps in the artifact ------------===//
//
// The TMA tensor maps of the image: round trips of tiled and im2col maps,
// truncations inside them, and one case per rule of validateTensorMap, so
// that every map the driver would refuse to encode, or that would let a
// copy reach past its tensor, is rejected when the model is opened with the
// message a user sees.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <gtest/gtest.h>

#include <set>

using namespace brrr::artifact;
using brrr::test::makeIm2colArtifact;
using brrr::test::makeTensorMapArtifact;
using brrr::test::rejection;

namespace {

/// Deserializes `a`'s image and expects every tensor map back as it was.
void expectMapsRoundTrip(const Artifact &a) {
  std::vector<uint8_t> image = serialize(a);
  Artifact b;
  std::string error;
  ASSERT_TRUE(deserialize(image.data(), image.size(), b, error)) << error;
  ASSERT_EQ(b.launches.size(), a.launches.size());
  for (size_t i = 0; i < a.launches.size(); ++i) {
    ASSERT_EQ(b.launches[i].maps.size(), a.launches[i].maps.size());
    for (size_t k = 0; k < a.launches[i].maps.size(); ++k) {
      const TensorMap &x = a.launches[i].maps[k], &y = b.launches[i].maps[k];
      EXPECT_EQ(y.tensor, x.tensor);
      EXPECT_EQ(y.offset, x.offset);
      EXPECT_EQ(y.dims, x.dims);
      EXPECT_EQ(y.strides, x.strides);
      EXPECT_EQ(y.box, x.box);
      EXPECT_EQ(y.swizzle, x.swizzle);
      EXPECT_EQ(y.mode, x.mode);
      EXPECT_EQ(y.lowerCorner, x.lowerCorner);
      EXPECT_EQ(y.upperCorner, x.upperCorner);
      EXPECT_EQ(y.channelsPerPixel, x.channelsPerPixel);
      EXPECT_EQ(y.pixelsPerColumn, x.pixelsPerColumn);
      EXPECT_EQ(y.elementStrides, x.elementStrides);
    }
  }
  EXPECT_EQ(b.launches[0].args, a.launches[0].args);
  EXPECT_EQ(serialize(b), image);
}

TEST(ArtifactTensorMapTest, TensorMapsRoundTrip) {
  Artifact a = makeTensorMapArtifact();
  a.launches[0].maps[1].offset = 16;
  a.launches[0].maps[1].dims = {60, 2};
  a.launches[2].maps = {a.launches[0].maps[0]};
  expectMapsRoundTrip(a);
}

TEST(ArtifactTensorMapTest, Im2colMapsAndElementStridesRoundTrip) {
  Artifact a = makeIm2colArtifact();
  TensorMap &x = a.launches[0].maps[0];
  x.lowerCorner = {-2, 3};
  x.upperCorner = {-3, 0};
  x.elementStrides = {1, 2, 3, 1};
  a.launches[0].maps[1].elementStrides = {1, 8};
  ASSERT_EQ(rejection(a), "<accepted>");
  expectMapsRoundTrip(a);
  // Both corners' signs survive the unsigned encoding.
  std::vector<uint8_t> image = serialize(a);
  Artifact b;
  std::string error;
  ASSERT_TRUE(deserialize(image.data(), image.size(), b, error)) << error;
  const TensorMap &y = b.launches[0].maps[0];
  EXPECT_EQ(y.mode, TensorMapMode::Im2col);
  EXPECT_EQ(y.lowerCorner, (std::vector<int32_t>{-2, 3}));
  EXPECT_EQ(y.upperCorner, (std::vector<int32_t>{-3, 0}));
  EXPECT_EQ(y.channelsPerPixel, 4u);
  EXPECT_EQ(y.pixelsPerColumn, 32u);
  EXPECT_TRUE(y.box.empty());
  EXPECT_EQ(b.launches[0].maps[1].mode, TensorMapMode::Tiled);
  EXPECT_EQ(b.launches[0].maps[1].elementStrides,
            (std::vector<uint32_t>{1, 8}));
}

TEST(ArtifactTensorMapTest, TruncatedTensorMapsNameTheField) {
  std::vector<uint8_t> image = serialize(makeTensorMapArtifact());
  std::set<std::string> fields;
  for (size_t n = 0; n < image.size(); ++n) {
    std::vector<uint8_t> prefix(image.begin(), image.begin() + long(n));
    std::string error = rejection(prefix);
    size_t at = error.find(" while reading ");
    ASSERT_NE(at, std::string::npos) << "prefix " << n << ": " << error;
    std::string field = error.substr(at + 15);
    fields.insert(field.substr(0, field.find(' ')));
  }
  // Truncations early in launch 0 are reported at the counts before them
  // (the launch table needs 89 bytes a launch, two maps 84 bytes each).
  for (const char *f :
       {"launches[0].maps[1].pixelsPerColumn",
        "launches[0].maps[1].elementStrides", "launches[0].maps[1].dimExprs",
        "launches[0].guardMax", "launches[1].maps", "launches[2].maps"})
    EXPECT_TRUE(fields.count(f)) << "no truncation reported in " << f;
}

/// The rejection of the tensor-map artifact with launch 0's map `k` changed
/// by `change`.
template <typename F> std::string mapRejection(size_t k, F change) {
  Artifact a = makeTensorMapArtifact();
  change(a.launches[0].maps[k]);
  return rejection(a);
}

const std::string kMap0 =
    "invalid artifact: launches[0].maps[0] (kernel 'brrr_test_tma_add') ";
const std::string kMap1 =
    "invalid artifact: launches[0].maps[1] (kernel 'brrr_test_tma_add') ";

/// The rejection of the im2col artifact with its im2col map changed by
/// `change`.
template <typename F> std::string im2colRejection(F change) {
  Artifact a = makeIm2colArtifact();
  change(a.launches[0].maps[0]);
  return rejection(a);
}

TEST(ArtifactTensorMapTest, TensorMapsAreValid) {
  EXPECT_EQ(rejection(makeTensorMapArtifact()), "<accepted>");
}

TEST(ArtifactTensorMapTest, TensorMapTensorInRange) {
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.tensor = 10; }),
            kMap1 + "is over tensor 10, out of range (10 tensors)");
}

TEST(ArtifactTensorMapTest, TensorMapRankIsOneToFive) {
  EXPECT_EQ(mapRejection(0,
                         [](TensorMap &m) {
                           m.dims.clear();
                           m.strides.clear();
                           m.box.clear();
                         }),
            kMap0 + "has rank 0; tensor maps have 1 to 5 dimensions");
  EXPECT_EQ(mapRejection(0,
                         [](TensorMap &m) {
                           m.dims = {64, 2, 1, 1, 1, 1};
                           m.strides = {256, 512, 512, 512, 512};
                           m.box = {32, 2, 1, 1, 1, 1};
                         }),
            kMap0 + "has rank 6; tensor maps have 1 to 5 dimensions");
}

TEST(ArtifactTensorMapTest, TensorMapStridesAndBoxMatchTheRank) {
  EXPECT_EQ(mapRejection(0, [](TensorMap &m) { m.strides.push_back(512); }),
            kMap0 + "has 2 strides for rank 2, expected 1");
  EXPECT_EQ(mapRejection(0, [](TensorMap &m) { m.box = {32}; }),
            kMap0 + "has 1 box extents for rank 2");
}

TEST(ArtifactTensorMapTest, TensorMapDimsAreOneTo2To32) {
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.dims[1] = 0; }),
            kMap1 + "has 0 elements in dimension 1; tensor maps allow 1 to "
                    "2^32");
  EXPECT_EQ(mapRejection(
                1, [](TensorMap &m) { m.dims[0] = (uint64_t(1) << 32) + 1; }),
            kMap1 + "has 4294967297 elements in dimension 0; tensor maps "
                    "allow 1 to 2^32");
}

TEST(ArtifactTensorMapTest, TensorMapBoxIsOneTo256) {
  EXPECT_EQ(mapRejection(0, [](TensorMap &m) { m.box[1] = 0; }),
            kMap0 + "has box extent 0 in dimension 1; tensor maps allow 1 to "
                    "256");
  EXPECT_EQ(mapRejection(0, [](TensorMap &m) { m.box[1] = 257; }),
            kMap0 + "has box extent 257 in dimension 1; tensor maps allow 1 "
                    "to 256");
}

TEST(ArtifactTensorMapTest, TensorMapStridesAreMultiplesOf16Below2To40) {
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.strides[0] = 200; }),
            kMap1 + "has stride 200 bytes in dimension 1; tensor map strides "
                    "are multiples of 16 below 2^40");
  EXPECT_EQ(
      mapRejection(1, [](TensorMap &m) { m.strides[0] = uint64_t(1) << 40; }),
      kMap1 + "has stride 1099511627776 bytes in dimension 1; tensor "
              "map strides are multiples of 16 below 2^40");
}

TEST(ArtifactTensorMapTest, TensorMapOffsetIs16ByteAligned) {
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.offset = 8; }),
            kMap1 + "starts at byte offset 8, which is not 16-byte aligned");
  // A view that starts inside its buffer at a misaligned byte.
  Artifact a = makeTensorMapArtifact();
  a.tensors[8].dims = {64};
  a.tensors[8].bytes = 256;
  a.tensors[8].offset = 4;
  a.launches[0].maps[0] = {};
  a.launches[0].maps[0].tensor = 8;
  a.launches[0].maps[0].dims = {64};
  a.launches[0].maps[0].box = {64};
  EXPECT_EQ(rejection(a), kMap0 + "is over tensors[8] 'sum_flat', which "
                                  "starts at byte 4 of output 0, not "
                                  "16-byte aligned");
}

TEST(ArtifactTensorMapTest, TensorMapSwizzleIsAKnownSpan) {
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.swizzle = 48; }),
            kMap1 + "has swizzle 48; expected 0, 32, 64 or 128 bytes");
}

TEST(ArtifactTensorMapTest, TensorMapBoxRowFitsTheSwizzle) {
  // 32 f32 elements are 128 bytes.
  EXPECT_EQ(mapRejection(0, [](TensorMap &m) { m.swizzle = 64; }),
            kMap0 + "has a box row of 128 bytes, wider than its 64-byte "
                    "swizzle");
}

TEST(ArtifactTensorMapTest, TensorMapBoxRowIsWhole16ByteChunks) {
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.box[0] = 2; }),
            kMap1 + "has a box row of 8 bytes, which is not a multiple of 16");
}

TEST(ArtifactTensorMapTest, TensorMapStaysInsideItsTensor) {
  EXPECT_EQ(mapRejection(0, [](TensorMap &m) { m.offset = 16; }),
            kMap0 + "reaches 528 bytes into tensors[0] 'x', which has 512");
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.dims[1] = 3; }),
            kMap1 + "reaches 768 bytes into tensors[3] 'w', which has 512");
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.strides[0] = 512; }),
            kMap1 + "reaches 768 bytes into tensors[3] 'w', which has 512");
  // Sums that wrap around 64 bits must not pass for small ones.
  EXPECT_EQ(mapRejection(1,
                         [](TensorMap &m) {
                           m.dims = {64, uint64_t(1) << 32};
                           m.strides = {(uint64_t(1) << 40) - 16};
                         }),
            kMap1 + "reaches past 2^64 bytes into tensors[3] 'w', which has "
                    "512");
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.offset = ~uint64_t(0) - 15; }),
            kMap1 + "reaches past 2^64 bytes into tensors[3] 'w', which has "
                    "512");
}

TEST(ArtifactTensorMapTest, TensorMapModeIsTiledOrIm2col) {
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.mode = TensorMapMode(2); }),
            kMap1 + "has unknown mode 2; expected 0 (tiled) or 1 (im2col)");
}

TEST(ArtifactTensorMapTest, TiledMapHasNoIm2colFields) {
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.lowerCorner = {0}; }),
            kMap1 + "is a tiled map but has im2col corners, channelsPerPixel "
                    "or pixelsPerColumn");
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.pixelsPerColumn = 8; }),
            kMap1 + "is a tiled map but has im2col corners, channelsPerPixel "
                    "or pixelsPerColumn");
}

TEST(ArtifactTensorMapTest, ElementStridesMatchTheRank) {
  EXPECT_EQ(mapRejection(1, [](TensorMap &m) { m.elementStrides = {1}; }),
            kMap1 + "has 1 element strides for rank 2, expected 2 or none");
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.elementStrides = {1, 1};
            }),
            kMap0 + "has 2 element strides for rank 4, expected 4 or none");
}

TEST(ArtifactTensorMapTest, ElementStridesAreOneToEight) {
  EXPECT_EQ(mapRejection(1,
                         [](TensorMap &m) {
                           m.elementStrides = {1, 0};
                         }),
            kMap1 + "has element stride 0 in dimension 1; tensor maps allow 1 "
                    "to 8");
  EXPECT_EQ(
      im2colRejection([](TensorMap &m) {
        m.elementStrides = {1, 1, 9, 1};
      }),
      kMap0 + "has element stride 9 in dimension 2; tensor maps allow 1 to 8");
}

TEST(ArtifactTensorMapTest, Im2colMapsAreValid) {
  EXPECT_EQ(rejection(makeIm2colArtifact()), "<accepted>");
  EXPECT_EQ(im2colRejection([](TensorMap &m) { m.elementStrides.clear(); }),
            "<accepted>");
}

TEST(ArtifactTensorMapTest, Im2colRankIsThreeToFive) {
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.dims = {64, 2};
              m.strides = {256};
              m.lowerCorner = m.upperCorner = {};
              m.elementStrides.clear();
            }),
            kMap0 + "has rank 2; im2col tensor maps have 3 to 5 dimensions");
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.dims = {4, 4, 4, 2, 1, 1};
              m.strides = {16, 64, 256, 512, 512};
              m.elementStrides.clear();
            }),
            kMap0 + "has rank 6; im2col tensor maps have 3 to 5 dimensions");
}

TEST(ArtifactTensorMapTest, Im2colMapHasNoBox) {
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.box = {4, 4, 4, 2};
            }),
            kMap0 + "has 4 box extents for rank 4; im2col tensor maps have "
                    "none");
}

TEST(ArtifactTensorMapTest, Im2colCornersHaveOneOffsetPerSpatialDim) {
  EXPECT_EQ(im2colRejection([](TensorMap &m) { m.lowerCorner = {-1}; }),
            kMap0 + "has 1 lower corner offsets for rank 4, expected 2");
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.upperCorner = {0, 0, 0};
            }),
            kMap0 + "has 3 upper corner offsets for rank 4, expected 2");
}

TEST(ArtifactTensorMapTest, Im2colCornerRangeShrinksWithTheRank) {
  // Rank 3: NWC f32[2,16,4].
  auto rank3 = [](TensorMap &m) {
    m.dims = {4, 16, 2};
    m.strides = {16, 256};
    m.lowerCorner = {-32768};
    m.upperCorner = {32767};
    m.elementStrides.clear();
  };
  EXPECT_EQ(im2colRejection(rank3), "<accepted>");
  EXPECT_EQ(im2colRejection([&](TensorMap &m) {
              rank3(m);
              m.lowerCorner = {-32769};
            }),
            kMap0 + "has lower corner offset -32769 in dimension 1; rank-3 "
                    "im2col maps allow [-32768, 32767]");
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.lowerCorner = {-129, 0};
            }),
            kMap0 + "has lower corner offset -129 in dimension 1; rank-4 "
                    "im2col maps allow [-128, 127]");
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.upperCorner = {0, 128};
            }),
            kMap0 + "has upper corner offset 128 in dimension 2; rank-4 "
                    "im2col maps allow [-128, 127]");
  // Rank 5: NDHWC f32[2,4,2,2,4].
  auto rank5 = [](TensorMap &m) {
    m.dims = {4, 2, 2, 4, 2};
    m.strides = {16, 32, 64, 256};
    m.lowerCorner = {-16, 0, 0};
    m.upperCorner = {0, 0, 15};
    m.elementStrides.clear();
  };
  EXPECT_EQ(im2colRejection(rank5), "<accepted>");
  EXPECT_EQ(im2colRejection([&](TensorMap &m) {
              rank5(m);
              m.upperCorner = {0, 0, 16};
            }),
            kMap0 + "has upper corner offset 16 in dimension 3; rank-5 "
                    "im2col maps allow [-16, 15]");
}

TEST(ArtifactTensorMapTest, Im2colBoundingBoxIsNotEmpty) {
  // W = 4: the box spans 4 + upper - lower pixels.
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.lowerCorner = {3, -1};
              m.upperCorner = {0, -1};
            }),
            "<accepted>");
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.lowerCorner = {-1, 5};
              m.upperCorner = {-1, 0};
            }),
            kMap0 + "has an empty bounding box in dimension 2: 4 elements "
                    "with lower corner 5 and upper corner 0");
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.lowerCorner = {0, 0};
              m.upperCorner = {-4, 0};
            }),
            kMap0 + "has an empty bounding box in dimension 1: 4 elements "
                    "with lower corner 0 and upper corner -4");
}

TEST(ArtifactTensorMapTest, Im2colChannelsPerPixelIsOneTo256) {
  EXPECT_EQ(im2colRejection([](TensorMap &m) { m.channelsPerPixel = 0; }),
            kMap0 + "has channelsPerPixel 0; im2col tensor maps allow 1 to "
                    "256");
  EXPECT_EQ(im2colRejection([](TensorMap &m) { m.channelsPerPixel = 260; }),
            kMap0 + "has channelsPerPixel 260; im2col tensor maps allow 1 to "
                    "256");
}

TEST(ArtifactTensorMapTest, Im2colPixelsPerColumnIsOneTo1024) {
  EXPECT_EQ(im2colRejection([](TensorMap &m) { m.pixelsPerColumn = 0; }),
            kMap0 + "has pixelsPerColumn 0; im2col tensor maps allow 1 to "
                    "1024");
  EXPECT_EQ(im2colRejection([](TensorMap &m) { m.pixelsPerColumn = 1025; }),
            kMap0 + "has pixelsPerColumn 1025; im2col tensor maps allow 1 to "
                    "1024");
}

TEST(ArtifactTensorMapTest, Im2colPixelIsWhole16ByteChunks) {
  EXPECT_EQ(im2colRejection([](TensorMap &m) { m.channelsPerPixel = 2; }),
            kMap0 + "has a pixel of 8 bytes (2 channels), which is not a "
                    "multiple of 16");
}

TEST(ArtifactTensorMapTest, Im2colPixelFitsTheSwizzle) {
  EXPECT_EQ(im2colRejection([](TensorMap &m) { m.channelsPerPixel = 16; }),
            kMap0 + "has a pixel of 64 bytes (16 channels), wider than its "
                    "32-byte swizzle");
  EXPECT_EQ(im2colRejection([](TensorMap &m) {
              m.channelsPerPixel = 16;
              m.swizzle = 0;
            }),
            "<accepted>");
}

TEST(ArtifactTensorMapTest, Im2colMapStaysInsideItsTensor) {
  EXPECT_EQ(im2colRejection([](TensorMap &m) { m.strides[2] = 512; }),
            kMap0 + "reaches 768 bytes into tensors[0] 'x', which has 512");
  EXPECT_EQ(im2colRejection([](TensorMap &m) { m.strides[0] = 24; }),
            kMap0 + "has stride 24 bytes in dimension 1; tensor map strides "
                    "are multiples of 16 below 2^40");
}

} // namespace
