//===- ImportOptionsTest.cpp - --input-shape parsing and tensor conversion ===//

#include "compiler/Import/NodeImporter.h"
#include "compiler/Import/OnnxImporter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

/// The parsed dims of `name` as [min, max] pairs.
std::vector<std::pair<int64_t, int64_t>> dimsOf(const brrr::ImportOptions &o,
                                                llvm::StringRef name) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (brrr::InputDim d : o.inputShapes.lookup(name))
    out.emplace_back(d.min, d.max);
  return out;
}

using Dims = std::vector<std::pair<int64_t, int64_t>>;

TEST(ParseInputShape, AcceptsNameAndDims) {
  brrr::ImportOptions options;
  std::string error;
  ASSERT_TRUE(brrr::parseInputShape("input_ids=32x128", options, error));
  EXPECT_EQ(dimsOf(options, "input_ids"), (Dims{{32, 32}, {128, 128}}));
}

TEST(ParseInputShape, AcceptsRanges) {
  brrr::ImportOptions options;
  std::string error;
  ASSERT_TRUE(brrr::parseInputShape("ids=1..64x128x3..3", options, error));
  EXPECT_EQ(dimsOf(options, "ids"), (Dims{{1, 64}, {128, 128}, {3, 3}}));
  EXPECT_FALSE(options.inputShapes["ids"][0].fixed());
  EXPECT_TRUE(options.inputShapes["ids"][2].fixed());
}

TEST(ParseInputShape, NameMayContainEquals) {
  brrr::ImportOptions options;
  std::string error;
  ASSERT_TRUE(brrr::parseInputShape("a=b=4", options, error));
  EXPECT_EQ(dimsOf(options, "a=b"), (Dims{{4, 4}}));
}

TEST(ParseInputShape, RejectsMalformedSpecs) {
  for (const char *bad :
       {"x", "x=", "=4", "x=4xy", "x=-1", "x=4x", "x=1..", "x=..4", "x=4..2",
        "x=0..4", "x=1..2..3", "x=1...4"}) {
    brrr::ImportOptions options;
    std::string error;
    EXPECT_FALSE(brrr::parseInputShape(bad, options, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

/// Collects error messages instead of printing them.
struct Errors {
  explicit Errors(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &d) {
          messages.push_back(d.str());
          return success();
        }) {}
  std::vector<std::string> messages;
  ScopedDiagnosticHandler handler;
};

onnx::TensorProto floatTensor(std::vector<int64_t> dims,
                              std::vector<float> values) {
  onnx::TensorProto t;
  t.set_name("w");
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims)
    t.add_dims(d);
  for (float v : values)
    t.add_float_data(v);
  return t;
}

TEST(ConvertTensor, SmallTensorsStayInline) {
  MLIRContext ctx;
  auto attr = brrr::convertTensor(&ctx, UnknownLoc::get(&ctx),
                                  floatTensor({2}, {1.5f, -2.0f}), "", 64);
  ASSERT_TRUE(succeeded(attr));
  auto dense = dyn_cast<DenseFPElementsAttr>(*attr);
  ASSERT_TRUE(dense);
  EXPECT_EQ(dense.getValues<float>()[0], 1.5f);
  EXPECT_EQ(dense.getValues<float>()[1], -2.0f);
}

TEST(ConvertTensor, LargeTensorsBecomeResources) {
  MLIRContext ctx;
  std::vector<float> values(100);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<float>(i);
  auto attr = brrr::convertTensor(&ctx, UnknownLoc::get(&ctx),
                                  floatTensor({10, 10}, values), "", 64);
  ASSERT_TRUE(succeeded(attr));
  auto resource = dyn_cast<DenseResourceElementsAttr>(*attr);
  ASSERT_TRUE(resource);
  ArrayRef<char> data = resource.getRawHandle().getBlob()->getData();
  ASSERT_EQ(data.size(), 400u);
  float last;
  std::memcpy(&last, data.data() + 396, 4);
  EXPECT_EQ(last, 99.0f);
}

TEST(ConvertTensor, RejectsWrongDataSize) {
  MLIRContext ctx;
  Errors errors(ctx);
  auto attr = brrr::convertTensor(&ctx, UnknownLoc::get(&ctx),
                                  floatTensor({3}, {1.0f, 2.0f}), "", 64);
  EXPECT_TRUE(failed(attr));
  ASSERT_EQ(errors.messages.size(), 1u);
  EXPECT_NE(errors.messages[0].find("needs 12 bytes"), std::string::npos);
}

/// Writes `bytes` into a fresh directory and returns its path.
std::string writeTempFile(const std::string &name, const std::string &bytes) {
  llvm::SmallString<128> dir;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("brrr-unit", dir));
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  EXPECT_FALSE(ec);
  os << bytes;
  return dir.str().str();
}

onnx::TensorProto externalTensor(int64_t n, const std::string &offset,
                                 const std::string &length) {
  onnx::TensorProto t;
  t.set_name("ext");
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.add_dims(n);
  t.set_data_location(onnx::TensorProto::EXTERNAL);
  auto *kv = t.add_external_data();
  kv->set_key("location");
  kv->set_value("weights.bin");
  kv = t.add_external_data();
  kv->set_key("offset");
  kv->set_value(offset);
  kv = t.add_external_data();
  kv->set_key("length");
  kv->set_value(length);
  return t;
}

TEST(ConvertTensor, ReadsExternalDataAtOffset) {
  MLIRContext ctx;
  float values[3] = {0.0f, 4.0f, 8.0f};
  std::string bytes(reinterpret_cast<const char *>(values), sizeof(values));
  std::string dir = writeTempFile("weights.bin", bytes);
  auto attr = brrr::convertTensor(&ctx, UnknownLoc::get(&ctx),
                                  externalTensor(2, "4", "8"), dir, 64);
  ASSERT_TRUE(succeeded(attr));
  auto dense = cast<DenseFPElementsAttr>(*attr);
  EXPECT_EQ(dense.getValues<float>()[0], 4.0f);
  EXPECT_EQ(dense.getValues<float>()[1], 8.0f);
}

TEST(ConvertTensor, ExternalDataPastEndOfFileIsAnError) {
  MLIRContext ctx;
  Errors errors(ctx);
  std::string dir = writeTempFile("weights.bin", std::string(8, '\0'));
  auto attr = brrr::convertTensor(&ctx, UnknownLoc::get(&ctx),
                                  externalTensor(4, "0", "16"), dir, 64);
  EXPECT_TRUE(failed(attr));
  ASSERT_EQ(errors.messages.size(), 1u);
  EXPECT_NE(errors.messages[0].find("outside file"), std::string::npos);
}

TEST(ConvertTensor, ExternalDataMayNotEscapeTheModelDirectory) {
  MLIRContext ctx;
  Errors errors(ctx);
  onnx::TensorProto t = externalTensor(1, "0", "4");
  t.mutable_external_data(0)->set_value("../secret.bin");
  EXPECT_TRUE(
      failed(brrr::convertTensor(&ctx, UnknownLoc::get(&ctx), t, "/tmp", 64)));
  ASSERT_EQ(errors.messages.size(), 1u);
  EXPECT_NE(errors.messages[0].find("relative path"), std::string::npos);
}

} // namespace
