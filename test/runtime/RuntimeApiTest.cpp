//===- RuntimeApiTest.cpp - the C API without a device --------------------===//
//
// What works everywhere: opening a model for inspection (device -1) and
// reading its signature and plan, the errors for a missing driver or
// embedded image, and argument checking of every entry point. Also the C++
// wrapper, on the same paths.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"
#include "runtime/brrr_runtime.hpp"

#include <gtest/gtest.h>

#include <thread>

using brrr::test::ScopedEnv;
using brrr::test::testImage;

namespace {

std::string lastError() { return brrr_last_error(); }

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

class InspectionTest : public ::testing::Test {
protected:
  void SetUp() override {
    image = testImage();
    ASSERT_EQ(brrr_model_open_artifact(image.data(), image.size(), -1, &model),
              BRRR_OK)
        << lastError();
  }
  void TearDown() override { brrr_model_close(model); }

  std::vector<uint8_t> image;
  brrr_model *model = nullptr;
};

TEST_F(InspectionTest, ReportsTheSignature) {
  EXPECT_EQ(brrr_api_version(), uint32_t(BRRR_API_VERSION));
  ASSERT_EQ(brrr_model_num_inputs(model), 3);
  ASSERT_EQ(brrr_model_num_outputs(model), 3);
  brrr_tensor_info info;
  ASSERT_EQ(brrr_model_input(model, 0, &info), BRRR_OK);
  EXPECT_STREQ(info.name, "x");
  EXPECT_EQ(info.dtype, BRRR_DTYPE_F32);
  ASSERT_EQ(info.rank, 2);
  EXPECT_EQ(info.dims[0], 2);
  EXPECT_EQ(info.dims[1], 64);
  EXPECT_EQ(info.size_bytes, 512u);
  ASSERT_EQ(brrr_model_input(model, 2, &info), BRRR_OK);
  EXPECT_STREQ(info.name, "ids");
  EXPECT_EQ(info.dtype, BRRR_DTYPE_I64);
  ASSERT_EQ(info.rank, 2);
  EXPECT_EQ(info.dims[1], 3);
  EXPECT_EQ(info.size_bytes, 48u);
  ASSERT_EQ(brrr_model_output(model, 2, &info), BRRR_OK);
  EXPECT_STREQ(info.name, "relu");
  ASSERT_EQ(info.rank, 1);
  EXPECT_EQ(info.dims[0], 128);
  EXPECT_EQ(info.size_bytes, 512u);
  EXPECT_STREQ(brrr_model_target(model), "sm_80");
  EXPECT_EQ(brrr_model_arena_bytes(model), 1024u);
  EXPECT_EQ(brrr_model_weight_bytes(model), 520u);
}

TEST_F(InspectionTest, ReportsTheLaunches) {
  ASSERT_EQ(brrr_model_num_launches(model), 3);
  brrr_launch_info l;
  ASSERT_EQ(brrr_model_launch(model, 0, &l), BRRR_OK);
  EXPECT_STREQ(l.kernel, "brrr_test_add");
  EXPECT_EQ(l.flops, 128u);
  EXPECT_EQ(l.bytes, 1536u);
  ASSERT_EQ(brrr_model_launch(model, 2, &l), BRRR_OK);
  EXPECT_STREQ(l.kernel, "brrr_test_relu");
  EXPECT_EQ(l.bytes, 1024u);
}

TEST_F(InspectionTest, ContextCreationFails) {
  brrr_context *ctx = reinterpret_cast<brrr_context *>(1);
  EXPECT_EQ(brrr_context_create(model, &ctx), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ctx, nullptr);
  EXPECT_TRUE(contains(lastError(), "opened for inspection only (device -1)"))
      << lastError();
}

TEST_F(InspectionTest, BadIndicesAndNullPointers) {
  brrr_tensor_info info;
  EXPECT_EQ(brrr_model_input(model, 3, &info), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "brrr_model_input: input index 3 is out of range "
                         "(the model has 3)");
  EXPECT_EQ(brrr_model_output(model, -1, &info), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(brrr_model_input(model, 0, nullptr), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "brrr_model_input: out is null");
  EXPECT_EQ(brrr_model_input(nullptr, 0, &info), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "brrr_model_input: model is null");
  brrr_launch_info l;
  EXPECT_EQ(brrr_model_launch(model, 3, &l), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(brrr_model_launch(model, 0, nullptr), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(brrr_model_launch(nullptr, 0, &l), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(brrr_context_create(model, nullptr), BRRR_ERROR_INVALID_ARGUMENT);
}

TEST(RuntimeApiTest, NullModelQueries) {
  EXPECT_EQ(brrr_model_num_inputs(nullptr), -1);
  EXPECT_EQ(lastError(), "brrr_model_num_inputs: model is null");
  EXPECT_EQ(brrr_model_num_outputs(nullptr), -1);
  EXPECT_EQ(brrr_model_num_launches(nullptr), -1);
  EXPECT_STREQ(brrr_model_target(nullptr), "");
  EXPECT_EQ(brrr_model_arena_bytes(nullptr), 0u);
  EXPECT_EQ(brrr_model_weight_bytes(nullptr), 0u);
  brrr_model_close(nullptr);
  brrr_context_destroy(nullptr);
}

TEST(RuntimeApiTest, NullContextAndBuffers) {
  EXPECT_EQ(brrr_run(nullptr, nullptr, nullptr, nullptr),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "brrr_run: context is null");
  EXPECT_EQ(brrr_run_host(nullptr, nullptr, nullptr),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(brrr_profile(nullptr, nullptr, nullptr, nullptr),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(brrr_context_set_cuda_graphs(nullptr, 1),
            BRRR_ERROR_INVALID_ARGUMENT);
  brrr_context *ctx = nullptr;
  EXPECT_EQ(brrr_context_create(nullptr, &ctx), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "brrr_context_create: model is null");
}

TEST(RuntimeApiTest, OpenArgumentChecks) {
  std::vector<uint8_t> image = testImage();
  brrr_model *m = reinterpret_cast<brrr_model *>(1);
  EXPECT_EQ(brrr_model_open_artifact(image.data(), image.size(), -1, nullptr),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(brrr_model_open_artifact(nullptr, 10, -1, &m),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(m, nullptr);
  EXPECT_EQ(lastError(), "brrr_model_open_artifact: data is null");
  EXPECT_EQ(brrr_model_open_artifact(image.data(), image.size(), -2, &m),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(lastError(), "device -2 is not a device ordinal"));
  EXPECT_EQ(brrr_model_open(0, nullptr), BRRR_ERROR_INVALID_ARGUMENT);
}

TEST(RuntimeApiTest, CorruptImageOnOpen) {
  std::vector<uint8_t> image = testImage();
  image.resize(100);
  brrr_model *m = reinterpret_cast<brrr_model *>(1);
  EXPECT_EQ(brrr_model_open_artifact(image.data(), image.size(), -1, &m),
            BRRR_ERROR_CORRUPT_ARTIFACT);
  EXPECT_EQ(m, nullptr);
  EXPECT_TRUE(contains(lastError(), "artifact truncated at byte 100 while "
                                    "reading ptx"))
      << lastError();
}

// The test executable links the runtime without an embedded image.
TEST(RuntimeApiTest, OpenWithoutEmbeddedImage) {
  brrr_model *m = nullptr;
  EXPECT_EQ(brrr_model_open(-1, &m), BRRR_ERROR_CORRUPT_ARTIFACT);
  EXPECT_EQ(m, nullptr);
  EXPECT_TRUE(contains(lastError(), "no embedded model")) << lastError();
}

TEST(RuntimeApiTest, MissingDriverLibrary) {
  ScopedEnv env("BRRR_CUDA_LIBRARY", "/nonexistent/libcuda.so.1");
  std::vector<uint8_t> image = testImage();
  brrr_model *m = nullptr;
  EXPECT_EQ(brrr_model_open_artifact(image.data(), image.size(), 0, &m),
            BRRR_ERROR_NO_DRIVER);
  EXPECT_EQ(m, nullptr);
  EXPECT_TRUE(contains(lastError(), "cannot load the CUDA driver library "
                                    "'/nonexistent/libcuda.so.1' (from "
                                    "BRRR_CUDA_LIBRARY)"))
      << lastError();
}

TEST(RuntimeApiTest, LastErrorIsPerThread) {
  brrr_model_num_inputs(nullptr);
  std::string other = "unset";
  std::thread([&] { other = brrr_last_error(); }).join();
  EXPECT_EQ(other, "");
  EXPECT_EQ(lastError(), "brrr_model_num_inputs: model is null");
}

TEST(RuntimeApiTest, CppWrapper) {
  std::vector<uint8_t> image = testImage();
  auto model = brrr::Model::openArtifact(image.data(), image.size(), -1);
  ASSERT_TRUE(bool(model)) << model.error().message;
  EXPECT_EQ(model->inputs().size(), 3u);
  EXPECT_STREQ(model->outputs()[1].name, "xw");
  EXPECT_EQ(model->launches().size(), 3u);
  EXPECT_EQ(model->target(), "sm_80");
  auto ctx = model->createContext();
  EXPECT_FALSE(bool(ctx));
  EXPECT_EQ(ctx.error().status, BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(ctx.error().message, "inspection only"));
#if defined(__cpp_exceptions)
  EXPECT_THROW(ctx.value(), brrr::Exception);
#endif
  auto bad = brrr::Model::openArtifact(image.data(), 5, -1);
  EXPECT_EQ(bad.error().status, BRRR_ERROR_CORRUPT_ARTIFACT);
}

} // namespace
