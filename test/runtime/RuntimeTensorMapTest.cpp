//===- RuntimeTensorMapTest.cpp - TMA tensor maps on a fake driver --------===//
//
// When the runtime encodes a kernel's TMA tensor maps (tiled and im2col),
// how they reach the kernel, re-encoding when buffers move, and the errors
// of a misaligned buffer, a failed encode and a driver without tensor maps
// (FakeDriverTest.h).
//
//===----------------------------------------------------------------------===//

#include "FakeDriverTest.h"
#include "runtime/TensorMaps.h"

#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <gtest/gtest.h>

using namespace brrr::test;

namespace {

uint64_t addressOf(const void *p) { return uint64_t(uintptr_t(p)); }

TEST_F(FakeDriverTest, TensorMapsArePassedFirstAsEncoded) {
  openAndCreate(makeTensorMapArtifact());
  Buffers b;
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  b.expectCorrect();
  // As the fake's cuLaunchKernel read them from the first two parameters:
  // what cuTensorMapEncodeTiled was given.
  FakeCudaStats s = fakeStats();
  ASSERT_EQ(s.lastLaunchMapCount, 2);
  const FakeTensorMap &x = s.lastLaunchMaps[0], &w = s.lastLaunchMaps[1];
  EXPECT_EQ(x.address, addressOf(b.x.data()));
  EXPECT_EQ(x.rank, 2);
  EXPECT_EQ(x.dims[0], 64u);
  EXPECT_EQ(x.dims[1], 2u);
  EXPECT_EQ(x.strides[0], 256u);
  EXPECT_EQ(x.box[0], 32u);
  EXPECT_EQ(x.box[1], 2u);
  EXPECT_EQ(x.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(x.swizzle, CU_TENSOR_MAP_SWIZZLE_128B);
  EXPECT_EQ(x.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
  EXPECT_EQ(x.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(x.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  EXPECT_EQ(x.mode, 0) << "encoded by cuTensorMapEncodeTiled";
  EXPECT_EQ(x.elementStrides[0], 1);
  EXPECT_EQ(x.elementStrides[1], 1);
  EXPECT_NE(w.address, 0u);
  EXPECT_EQ(w.box[0], 64u);
  EXPECT_EQ(w.box[1], 1u);
  EXPECT_EQ(w.swizzle, CU_TENSOR_MAP_SWIZZLE_NONE);
}

TEST_F(FakeDriverTest, Im2colMapsAreEncodedByTheIm2colEntryPoint) {
  brrr::artifact::Artifact a = makeIm2colArtifact();
  a.launches[0].maps[0].elementStrides = {1, 2, 1, 1};
  a.launches[0].maps[1].elementStrides = {1, 3};
  openAndCreate(a);
  Buffers b;
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  b.expectCorrect();
  FakeCudaStats s = fakeStats();
  EXPECT_EQ(s.tensorMapEncodes, 2);
  ASSERT_EQ(s.lastLaunchMapCount, 2);
  const FakeTensorMap &x = s.lastLaunchMaps[0], &w = s.lastLaunchMaps[1];
  EXPECT_EQ(x.mode, 1) << "encoded by cuTensorMapEncodeIm2col";
  EXPECT_EQ(x.address, addressOf(b.x.data()));
  EXPECT_EQ(x.rank, 4);
  const uint64_t dims[] = {4, 4, 4, 2}, strides[] = {16, 64, 256};
  const uint8_t elementStrides[] = {1, 2, 1, 1};
  for (int d = 0; d < 4; ++d) {
    EXPECT_EQ(x.dims[d], dims[d]) << d;
    EXPECT_EQ(x.elementStrides[d], elementStrides[d]) << d;
  }
  for (int d = 0; d < 3; ++d)
    EXPECT_EQ(x.strides[d], strides[d]) << d;
  EXPECT_EQ(x.lowerCorner[0], -1);
  EXPECT_EQ(x.lowerCorner[1], -1);
  EXPECT_EQ(x.upperCorner[0], -1);
  EXPECT_EQ(x.upperCorner[1], -1);
  EXPECT_EQ(x.channelsPerPixel, 4);
  EXPECT_EQ(x.pixelsPerColumn, 32);
  EXPECT_EQ(x.dataType, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(x.swizzle, CU_TENSOR_MAP_SWIZZLE_32B);
  EXPECT_EQ(x.interleave, CU_TENSOR_MAP_INTERLEAVE_NONE);
  EXPECT_EQ(x.l2Promotion, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
  EXPECT_EQ(x.oobFill, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  // The tiled map beside it still goes through cuTensorMapEncodeTiled, with
  // its element strides.
  EXPECT_EQ(w.mode, 0);
  EXPECT_EQ(w.box[0], 64u);
  EXPECT_EQ(w.elementStrides[0], 1);
  EXPECT_EQ(w.elementStrides[1], 3);
}

TEST_F(FakeDriverTest, TensorMapOffsetMovesTheAddress) {
  brrr::artifact::Artifact a = makeTensorMapArtifact();
  // Only x's second row, as a batch slice would read it.
  a.launches[0].maps[0].offset = 256;
  a.launches[0].maps[0].dims = {64, 1};
  openAndCreate(a);
  Buffers b;
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  FakeCudaStats s = fakeStats();
  ASSERT_EQ(s.lastLaunchMapCount, 2);
  EXPECT_EQ(s.lastLaunchMaps[0].address, addressOf(b.x.data()) + 256);
  EXPECT_EQ(s.lastLaunchMaps[0].dims[1], 1u);
}

TEST_F(FakeDriverTest, WeightMapsAreEncodedOnceInputMapsWhenBuffersMove) {
  openAndCreate(makeTensorMapArtifact());
  EXPECT_EQ(fakeStats().tensorMapEncodes, 1) << "w, at context creation";
  Buffers a(1), b(2);
  ASSERT_EQ(run(a), BRRR_OK) << lastError();
  EXPECT_EQ(fakeStats().tensorMapEncodes, 2) << "x, at the first run";
  ASSERT_EQ(run(a), BRRR_OK) << lastError();
  EXPECT_EQ(fakeStats().tensorMapEncodes, 2) << "same buffers";
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  b.expectCorrect();
  ASSERT_EQ(run(a), BRRR_OK) << lastError();
  a.expectCorrect();
  FakeCudaStats s = fakeStats();
  EXPECT_EQ(s.tensorMapEncodes, 4);
  // Each new buffer re-captured the graph with the maps re-encoded for it.
  EXPECT_EQ(s.captures, 3);
  EXPECT_EQ(s.graphLaunches, 4);
}

TEST_F(FakeDriverTest, TensorMapsWithoutGraphs) {
  openAndCreate(makeTensorMapArtifact());
  ASSERT_EQ(brrr_context_set_cuda_graphs(ctx, 0), BRRR_OK);
  Buffers a(1), b(2);
  ASSERT_EQ(run(a), BRRR_OK) << lastError();
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  a.expectCorrect();
  b.expectCorrect();
  double ms[3] = {0, 0, 0};
  ASSERT_EQ(brrr_profile(ctx, a.inputs().data(), a.outputs().data(), ms),
            BRRR_OK)
      << lastError();
  a.expectCorrect();
  FakeCudaStats s = fakeStats();
  EXPECT_EQ(s.captures, 0);
  EXPECT_EQ(s.tensorMapEncodes, 4);
  Buffers host(3);
  ASSERT_EQ(runHost(host), BRRR_OK) << lastError();
  host.expectCorrect();
}

TEST_F(FakeDriverTest, MisalignedBufferForATensorMap) {
  openAndCreate(makeTensorMapArtifact());
  Buffers b;
  std::vector<float> shifted(kTestElements + 1);
  std::vector<const void *> inputs = b.inputs();
  inputs[0] = shifted.data() + 1;
  EXPECT_EQ(brrr_run(ctx, inputs.data(), b.outputs().data(), nullptr),
            BRRR_ERROR_INVALID_ARGUMENT);
  std::string error = lastError();
  EXPECT_TRUE(contains(error, "brrr_run: input 0 ('x') at 0x")) << error;
  EXPECT_TRUE(contains(error, " is not 16-byte aligned; brrr's kernels "
                              "access buffers in 16-byte vectors"))
      << error;
  // brrr_profile takes device buffers too, and checks them the same way.
  std::vector<double> ms(brrr_model_num_launches(model) + 1);
  EXPECT_EQ(brrr_profile(ctx, inputs.data(), b.outputs().data(), ms.data()),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(lastError(), "brrr_profile: input 0 ('x') at 0x"))
      << lastError();
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  b.expectCorrect();
}

TEST_F(FakeDriverTest, FailedEncodeNamesTheMap) {
  {
    ScopedEnv fails("FAKE_CUDA_TENSOR_MAP_ERROR", "1");
    ASSERT_EQ(open(makeTensorMapArtifact()), BRRR_OK) << lastError();
    EXPECT_EQ(brrr_context_create(model, &ctx), BRRR_ERROR_CUDA);
    EXPECT_EQ(ctx, nullptr);
    EXPECT_EQ(lastError(), "encoding tensor map 1 of kernel "
                           "'brrr_test_tma_add' (launch 0): "
                           "CUDA_ERROR_INVALID_VALUE: invalid argument");
  }
  ASSERT_EQ(brrr_context_create(model, &ctx), BRRR_OK) << lastError();
  Buffers b;
  {
    ScopedEnv fails("FAKE_CUDA_TENSOR_MAP_ERROR", "1");
    EXPECT_EQ(run(b), BRRR_ERROR_CUDA);
    EXPECT_EQ(lastError(), "encoding tensor map 0 of kernel "
                           "'brrr_test_tma_add' (launch 0): "
                           "CUDA_ERROR_INVALID_VALUE: invalid argument");
  }
  // The failed map is encoded again by the next run with the same buffers.
  ASSERT_EQ(run(b), BRRR_OK) << lastError();
  b.expectCorrect();
}

TEST_F(FakeDriverTest, DriverWithoutTensorMaps) {
  ScopedEnv old("BRRR_CUDA_LIBRARY", BRRR_FAKE_CUDA_NO_TMA_PATH);
  ASSERT_EQ(open(makeTestArtifact()), BRRR_OK) << lastError();
  brrr_model_close(model);
  model = nullptr;
  EXPECT_EQ(open(makeTensorMapArtifact()), BRRR_ERROR_NO_DRIVER);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(lastError(), std::string("kernel 'brrr_test_tma_add' reads its "
                                     "operands through TMA tensor maps, but "
                                     "the CUDA driver '") +
                             BRRR_FAKE_CUDA_NO_TMA_PATH +
                             "' (version 11.8) lacks cuTensorMapEncodeTiled; "
                             "a CUDA 12.0 or newer driver is needed");
  EXPECT_EQ(open(makeIm2colArtifact()), BRRR_ERROR_NO_DRIVER);
  EXPECT_EQ(model, nullptr);
  EXPECT_EQ(lastError(), std::string("kernel 'brrr_test_tma_add' reads its "
                                     "operands through TMA im2col tensor "
                                     "maps, but the CUDA driver '") +
                             BRRR_FAKE_CUDA_NO_TMA_PATH +
                             "' (version 11.8) lacks cuTensorMapEncodeIm2col; "
                             "a CUDA 12.0 or newer driver is needed");
}

TEST(TensorMapTest, DtypesMapToTheDriversElementTypes) {
  using brrr::artifact::DType;
  using brrr::runtime::tensorMapDataType;
  EXPECT_EQ(tensorMapDataType(DType::F16), CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(tensorMapDataType(DType::BF16), CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(tensorMapDataType(DType::F32), CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(tensorMapDataType(DType::F64), CU_TENSOR_MAP_DATA_TYPE_FLOAT64);
  EXPECT_EQ(tensorMapDataType(DType::I8), CU_TENSOR_MAP_DATA_TYPE_UINT8);
  EXPECT_EQ(tensorMapDataType(DType::U8), CU_TENSOR_MAP_DATA_TYPE_UINT8);
  EXPECT_EQ(tensorMapDataType(DType::Bool), CU_TENSOR_MAP_DATA_TYPE_UINT8);
  EXPECT_EQ(tensorMapDataType(DType::I16), CU_TENSOR_MAP_DATA_TYPE_UINT16);
  EXPECT_EQ(tensorMapDataType(DType::U16), CU_TENSOR_MAP_DATA_TYPE_UINT16);
  EXPECT_EQ(tensorMapDataType(DType::I32), CU_TENSOR_MAP_DATA_TYPE_INT32);
  EXPECT_EQ(tensorMapDataType(DType::U32), CU_TENSOR_MAP_DATA_TYPE_UINT32);
  EXPECT_EQ(tensorMapDataType(DType::I64), CU_TENSOR_MAP_DATA_TYPE_INT64);
  EXPECT_EQ(tensorMapDataType(DType::U64), CU_TENSOR_MAP_DATA_TYPE_UINT64);
}

} // namespace
