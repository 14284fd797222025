//===- CalibrationTest.cpp - calibration inputs, ranges and cache --------===//
//
// The CPU side of post-training quantization: the readers of calibration
// inputs on good and hostile files, the conversion to the inputs' types,
// the percentile, the cache, and the measurement itself, run through the
// runtime on the fake driver (the test model of test/runtime, its outputs
// renamed as calibration outputs).
//
//===----------------------------------------------------------------------===//

#include "compiler/Calibration/Calibration.h"
#include "passes/Precision/Calibration.h"
#include "test/runtime/TestArtifact.h"
#include "test/runtime/TestUtil.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/onnx_pb.h>
#include <zlib.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>

using namespace mlir::brrr::calibration;

namespace {

using DT = onnx::TensorProto;

/// A .npy file (version 1) of `descr` and `shape` holding `data`.
std::string npy(const std::string &descr, const std::string &shape,
                const std::string &data, bool fortran = false) {
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  uint16_t length = header.size();
  out.append(reinterpret_cast<const char *>(&length), 2);
  return out + header + data;
}

template <typename T> std::string bytesOf(const std::vector<T> &values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
}

template <typename T> std::vector<T> valuesOf(const HostTensor &t) {
  std::vector<T> out(t.bytes.size() / sizeof(T));
  std::memcpy(out.data(), t.bytes.data(), t.bytes.size());
  return out;
}

void put16(std::string &s, uint16_t v) { s.append((const char *)&v, 2); }
void put32(std::string &s, uint32_t v) { s.append((const char *)&v, 4); }

/// A zip archive of `members` (name, bytes), each stored or raw-deflated.
std::string zip(const std::vector<std::pair<std::string, std::string>> &members,
                bool compress) {
  std::string out, directory;
  for (const auto &[name, data] : members) {
    std::string packed = data;
    if (compress) {
      z_stream s{};
      deflateInit2(&s, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8,
                   Z_DEFAULT_STRATEGY);
      packed.assign(deflateBound(&s, data.size()), 0);
      s.next_in = (Bytef *)data.data();
      s.avail_in = data.size();
      s.next_out = (Bytef *)packed.data();
      s.avail_out = packed.size();
      deflate(&s, Z_FINISH);
      packed.resize(s.total_out);
      deflateEnd(&s);
    }
    uint32_t offset = out.size();
    uint16_t method = compress ? 8 : 0;
    put32(out, 0x04034b50);
    put16(out, 20);
    put16(out, 0);
    put16(out, method);
    put32(out, 0); // time, date
    put32(out, crc32(0, (const Bytef *)data.data(), data.size()));
    put32(out, packed.size());
    put32(out, data.size());
    put16(out, name.size());
    put16(out, 0);
    out += name + packed;
    put32(directory, 0x02014b50);
    put16(directory, 20);
    put16(directory, 20);
    put16(directory, 0);
    put16(directory, method);
    put32(directory, 0);
    put32(directory, crc32(0, (const Bytef *)data.data(), data.size()));
    put32(directory, packed.size());
    put32(directory, data.size());
    put16(directory, name.size());
    put16(directory, 0);
    put16(directory, 0);
    put16(directory, 0);
    put16(directory, 0);
    put32(directory, 0);
    put32(directory, offset);
    directory += name;
  }
  uint32_t start = out.size();
  out += directory;
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, members.size());
  put16(out, members.size());
  put32(out, directory.size());
  put32(out, start);
  put16(out, 0);
  return out;
}

TEST(CalibrationNpy, ReadsArrays) {
  HostTensor t;
  std::string error;
  std::vector<float> v = {1, -2, 3, 4.5f, 5, 6};
  ASSERT_TRUE(parseNpy(npy("<f4", "(2, 3)", bytesOf(v)), t, error)) << error;
  EXPECT_EQ(t.onnxType, DT::FLOAT);
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(valuesOf<float>(t), v);
  // A scalar and a one-element tuple.
  std::vector<int64_t> ids = {7};
  ASSERT_TRUE(parseNpy(npy("<i8", "()", bytesOf(ids)), t, error)) << error;
  EXPECT_TRUE(t.shape.empty());
  ASSERT_TRUE(parseNpy(npy("<i8", "(1,)", bytesOf(ids)), t, error)) << error;
  EXPECT_EQ(t.shape, (std::vector<int64_t>{1}));
  ASSERT_TRUE(parseNpy(npy("|b1", "(1,)", std::string(1, '\1')), t, error));
  EXPECT_EQ(t.onnxType, DT::BOOL);
}

TEST(CalibrationNpy, RefusesWhatItCannotRead) {
  HostTensor t;
  std::string error;
  std::vector<float> v = {1, 2};
  EXPECT_FALSE(parseNpy("PK\3\4", t, error));
  EXPECT_NE(error.find("no \\x93NUMPY magic"), std::string::npos) << error;
  EXPECT_FALSE(parseNpy(npy("<f4", "(3,)", bytesOf(v)), t, error));
  EXPECT_EQ(error, ".npy data holds 8 bytes where its shape needs 12");
  EXPECT_FALSE(parseNpy(npy(">f4", "(2,)", bytesOf(v)), t, error));
  EXPECT_NE(error.find("numpy type '>f4'"), std::string::npos) << error;
  EXPECT_FALSE(parseNpy(npy("<c8", "(1,)", bytesOf(v)), t, error));
  EXPECT_NE(error.find("numpy type '<c8'"), std::string::npos) << error;
  EXPECT_FALSE(parseNpy(npy("<f4", "(2,)", bytesOf(v), true), t, error));
  EXPECT_NE(error.find("Fortran order"), std::string::npos) << error;
  EXPECT_FALSE(parseNpy(npy("<f4", "(-2,)", bytesOf(v)), t, error));
  EXPECT_NE(error.find("bad dimension '-2'"), std::string::npos) << error;
  // A shape whose byte count overflows is refused before anything is
  // allocated.
  EXPECT_FALSE(
      parseNpy(npy("<f4", "(4294967296, 4294967296)", bytesOf(v)), t, error));
  EXPECT_EQ(error, ".npy array larger than 4 GiB");
  // A header length past the end of the file.
  std::string truncated = npy("<f4", "(2,)", bytesOf(v)).substr(0, 20);
  EXPECT_FALSE(parseNpy(truncated, t, error));
  EXPECT_EQ(error, "truncated .npy header");
}

TEST(CalibrationNpz, ReadsStoredAndDeflatedMembers) {
  std::vector<float> x = {1, 2, 3, 4};
  std::vector<int64_t> ids = {5, 6};
  for (bool deflate : {false, true}) {
    std::vector<HostTensor> out;
    std::string error;
    ASSERT_TRUE(parseNpz(zip({{"x.npy", npy("<f4", "(2, 2)", bytesOf(x))},
                              {"ids.npy", npy("<i8", "(2,)", bytesOf(ids))}},
                             deflate),
                         out, error))
        << error;
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].name, "x");
    EXPECT_EQ(valuesOf<float>(out[0]), x);
    EXPECT_EQ(out[1].name, "ids");
    EXPECT_EQ(valuesOf<int64_t>(out[1]), ids);
  }
}

TEST(CalibrationNpz, RefusesCorruptArchives) {
  std::vector<float> x = {1, 2, 3, 4};
  std::string good = zip({{"x.npy", npy("<f4", "(4,)", bytesOf(x))}}, true);
  std::vector<HostTensor> out;
  std::string error;
  EXPECT_FALSE(parseNpz("short", out, error));
  EXPECT_NE(error.find("too short"), std::string::npos) << error;
  EXPECT_FALSE(parseNpz(std::string(100, 'x'), out, error));
  EXPECT_NE(error.find("no zip end-of-directory"), std::string::npos);
  // Every truncation of the archive is an error, never a read past its end.
  for (size_t cut = 1; cut < good.size(); cut += 7) {
    std::string bad = good.substr(0, good.size() - cut);
    out.clear();
    EXPECT_FALSE(parseNpz(bad, out, error)) << "cut " << cut;
  }
  // A member whose local header lies past the end of the file.
  std::string far = good;
  size_t entry = far.find("PK\1\2");
  uint32_t past = 0xfffffff0u;
  std::memcpy(&far[entry + 42], &past, 4);
  out.clear();
  EXPECT_FALSE(parseNpz(far, out, error));
  EXPECT_EQ(error, "corrupt .npz: member 'x.npy' lies outside the file");
  // A member that claims far more bytes than its deflated ones can hold.
  std::string bomb = good;
  size_t member = bomb.find("PK\1\2");
  uint32_t claim = 0x7fffffffu;
  std::memcpy(&bomb[member + 24], &claim, 4);
  out.clear();
  EXPECT_FALSE(parseNpz(bomb, out, error));
  EXPECT_NE(error.find("claims 2147483647 bytes from"), std::string::npos)
      << error;
  // A corrupted deflate stream.
  std::string flipped = good;
  flipped[40] ^= 0x5a;
  out.clear();
  EXPECT_FALSE(parseNpz(flipped, out, error));
}

TEST(CalibrationTensorProto, ReadsRawAndTypedData) {
  onnx::TensorProto p;
  p.set_name("x");
  p.set_data_type(DT::FLOAT);
  p.add_dims(2);
  p.add_float_data(1.5f);
  p.add_float_data(-2);
  HostTensor t;
  std::string error;
  ASSERT_TRUE(parseTensorProto(p.SerializeAsString(), t, error)) << error;
  EXPECT_EQ(t.name, "x");
  EXPECT_EQ(valuesOf<float>(t), (std::vector<float>{1.5f, -2}));
  p.clear_float_data();
  std::vector<float> raw = {3, 4};
  p.set_raw_data(bytesOf(raw));
  ASSERT_TRUE(parseTensorProto(p.SerializeAsString(), t, error)) << error;
  EXPECT_EQ(valuesOf<float>(t), raw);
  // float16 bits in int32_data.
  onnx::TensorProto h;
  h.set_data_type(DT::FLOAT16);
  h.add_dims(1);
  h.add_int32_data(0x3c00); // 1.0
  ASSERT_TRUE(parseTensorProto(h.SerializeAsString(), t, error)) << error;
  EXPECT_EQ(valuesOf<uint16_t>(t), (std::vector<uint16_t>{0x3c00}));

  p.add_dims(3); // 2 x 3 needs 6 elements
  EXPECT_FALSE(parseTensorProto(p.SerializeAsString(), t, error));
  EXPECT_EQ(error, "tensor 'x' holds 2 elements where its shape needs 6");
  // A shape of 2^30 floats and no data: refused before 4 GiB are allocated.
  onnx::TensorProto huge;
  huge.set_name("h");
  huge.set_data_type(DT::FLOAT);
  huge.add_dims(int64_t(1) << 28);
  huge.add_dims(3);
  EXPECT_FALSE(parseTensorProto(huge.SerializeAsString(), t, error));
  EXPECT_EQ(error,
            "tensor 'h' holds 0 elements where its shape needs 805306368");
  onnx::TensorProto partial = h;
  partial.clear_int32_data();
  partial.set_raw_data(std::string(3, '\0')); // one and a half float16s
  partial.set_name("f");
  EXPECT_FALSE(parseTensorProto(partial.SerializeAsString(), t, error));
  EXPECT_EQ(error,
            "tensor 'f' holds a partial element where its shape needs 1");
  p.set_data_location(DT::EXTERNAL);
  EXPECT_FALSE(parseTensorProto(p.SerializeAsString(), t, error));
  EXPECT_NE(error.find("external file"), std::string::npos) << error;
  EXPECT_FALSE(parseTensorProto("\xff\xff\xff", t, error));
  EXPECT_EQ(error, "not a serialized onnx.TensorProto");
}

TEST(CalibrationConvert, ConvertsWithinKinds) {
  HostTensor t;
  t.onnxType = DT::FLOAT;
  std::vector<float> v = {1.0f / 3, -65504, 1e6f};
  t.bytes.assign((char *)v.data(), (char *)v.data() + 12);
  std::string error;
  ASSERT_TRUE(convertTo(t, DT::FLOAT16, error)) << error;
  // 1/3 rounds to 0x3555; -65504 is the largest f16; 1e6 overflows to inf.
  EXPECT_EQ(valuesOf<uint16_t>(t),
            (std::vector<uint16_t>{0x3555, 0xfbff, 0x7c00}));

  HostTensor i;
  i.onnxType = DT::INT64;
  std::vector<int64_t> ids = {1, -5, int64_t(1) << 40};
  i.bytes.assign((char *)ids.data(), (char *)ids.data() + 24);
  HostTensor narrow = i;
  EXPECT_FALSE(convertTo(narrow, DT::INT32, error));
  EXPECT_EQ(error, "its value 1099511627776 does not fit the model's INT32");
  HostTensor unsignedIds = i;
  EXPECT_FALSE(convertTo(unsignedIds, DT::UINT64, error));
  EXPECT_EQ(error, "its value -5 does not fit the model's UINT64");
  ids[2] = 7;
  i.bytes.assign((char *)ids.data(), (char *)ids.data() + 24);
  ASSERT_TRUE(convertTo(i, DT::INT32, error)) << error;
  EXPECT_EQ(valuesOf<int32_t>(i), (std::vector<int32_t>{1, -5, 7}));
  EXPECT_FALSE(convertTo(i, DT::FLOAT, error));
  EXPECT_EQ(error, "it is INT32 where the model takes FLOAT");
}

/// A scratch directory, removed at the end of the test.
struct ScratchDir {
  llvm::SmallString<128> path;
  ScratchDir() { llvm::sys::fs::createUniqueDirectory("calibration", path); }
  ~ScratchDir() { llvm::sys::fs::remove_directories(path); }
  std::string write(const std::string &name, const std::string &bytes) {
    llvm::SmallString<128> file(path);
    llvm::sys::path::append(file, name);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(file));
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    os << bytes;
    return file.str().str();
  }
};

TEST(CalibrationSamples, ReadsFilesAndDirectories) {
  ScratchDir dir;
  std::vector<float> a = {1, 2, 3, 4}, b = {5, 6, 7, 8};
  std::vector<int64_t> ids = {1, 2};
  std::vector<InputSpec> inputs = {{"x", DT::FLOAT16}, {"ids", DT::INT32}};
  dir.write("s/0.npz", zip({{"x.npy", npy("<f4", "(2, 2)", bytesOf(a))},
                            {"ids.npy", npy("<i8", "(2,)", bytesOf(ids))}},
                           false));
  // ONNX's test-data layout: input_<i>.pb, the i-th input.
  onnx::TensorProto x, i;
  x.set_data_type(DT::FLOAT);
  x.add_dims(2);
  x.add_dims(2);
  for (float v : b)
    x.add_float_data(v);
  i.set_data_type(DT::INT64);
  i.add_dims(2);
  i.add_int64_data(3);
  i.add_int64_data(4);
  dir.write("s/test_data_set_1/input_0.pb", x.SerializeAsString());
  dir.write("s/test_data_set_1/input_1.pb", i.SerializeAsString());
  dir.write("s/notes.txt", "ignored");
  std::vector<Sample> samples;
  std::string error;
  ASSERT_TRUE(readSamples((dir.path + "/s").str(), inputs, samples, error))
      << error;
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].inputs[0].onnxType, DT::FLOAT16);
  EXPECT_EQ(samples[0].inputs[1].onnxType, DT::INT32);
  EXPECT_EQ(valuesOf<int32_t>(samples[1].inputs[1]),
            (std::vector<int32_t>{3, 4}));
  EXPECT_EQ(valuesOf<uint16_t>(samples[1].inputs[0])[0], 0x4500); // 5.0

  // A .npy is one sample of a single-input model.
  samples.clear();
  std::string single = dir.write("x.npy", npy("<f4", "(2, 2)", bytesOf(a)));
  ASSERT_TRUE(readSamples(single, {{"x", DT::FLOAT}}, samples, error)) << error;
  EXPECT_FALSE(readSamples(single, inputs, samples, error));
  EXPECT_NE(error.find("a .npy file gives one input; the model takes 2"),
            std::string::npos)
      << error;

  // Samples of different shapes, an input left out, an extra array.
  samples.clear();
  dir.write("t/0.npy", npy("<f4", "(2, 2)", bytesOf(a)));
  dir.write("t/1.npy", npy("<f4", "(4,)", bytesOf(b)));
  EXPECT_FALSE(
      readSamples((dir.path + "/t").str(), {{"x", DT::FLOAT}}, samples, error));
  EXPECT_NE(error.find("input 'x' is 4 where"), std::string::npos) << error;
  EXPECT_NE(error.find("gives 2x2 (every calibration sample has one shape)"),
            std::string::npos)
      << error;
  // For a build with ranges, each sample keeps its own shape.
  samples.clear();
  ASSERT_TRUE(readSamples((dir.path + "/t").str(), {{"x", DT::FLOAT}}, samples,
                          error, /*oneShape=*/false))
      << error;
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0].inputs[0].shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(samples[1].inputs[0].shape, (std::vector<int64_t>{4}));
  samples.clear();
  std::string partial = dir.write(
      "p.npz", zip({{"x.npy", npy("<f4", "(4,)", bytesOf(a))}}, false));
  EXPECT_FALSE(readSamples(partial, inputs, samples, error));
  EXPECT_NE(error.find("gives no array for input 'ids'"), std::string::npos);
  samples.clear();
  std::string extra =
      dir.write("e.npz", zip({{"x.npy", npy("<f4", "(4,)", bytesOf(a))},
                              {"y.npy", npy("<f4", "(4,)", bytesOf(a))}},
                             false));
  EXPECT_FALSE(readSamples(extra, {{"x", DT::FLOAT}}, samples, error));
  EXPECT_NE(error.find("array 'y' names no input of the model"),
            std::string::npos)
      << error;
  samples.clear();
  EXPECT_FALSE(
      readSamples((dir.path + "/missing").str(), inputs, samples, error));
  EXPECT_NE(error.find("no such file or directory"), std::string::npos);
}

TEST(CalibrationPercentile, ReadsTheHistogram) {
  // 100 counts: 10 in bin 0, 80 in bin 1, 10 in bin 3; bins 0.5 wide.
  std::vector<uint64_t> h = {10, 80, 0, 10};
  EXPECT_EQ(percentileOf(h, 0.5, 5), 0.5);
  EXPECT_EQ(percentileOf(h, 0.5, 10), 0.5);
  EXPECT_EQ(percentileOf(h, 0.5, 50), 1.0);
  EXPECT_EQ(percentileOf(h, 0.5, 90), 1.0);
  EXPECT_EQ(percentileOf(h, 0.5, 90.5), 2.0);
  EXPECT_EQ(percentileOf(h, 0.5, 99.99), 2.0);
  EXPECT_EQ(percentileOf({0, 0}, 0.5, 50), 0.0);
}

TEST(CalibrationCache, RoundTrips) {
  Table t;
  t.method.percentile = 99.99;
  t.samples = 3;
  t.ranges = {{"/encoder/layer.0/MatMul", 0.1 + 0.2},
              {"name with spaces", 448},
              {"zero", 0}};
  std::string text = printCache(t);
  EXPECT_EQ(text.substr(0, text.find('\n')), "brrr calibration 1");
  Table back;
  std::string error;
  ASSERT_TRUE(parseCache(text, back, error)) << error;
  EXPECT_EQ(back.method.percentile, 99.99);
  EXPECT_EQ(back.samples, 3);
  EXPECT_EQ(back.ranges, t.ranges); // exact: printed to round-trip

  // NaN and negative ranges are read as written, for the pass to judge.
  ASSERT_TRUE(parseCache("brrr calibration 1\nnan a\n-1 b\n", back, error));
  EXPECT_TRUE(std::isnan(back.ranges[0].second));
  EXPECT_EQ(back.ranges[1].second, -1);
  EXPECT_FALSE(parseCache("calibration\n", back, error));
  EXPECT_NE(error.find("not a calibration cache"), std::string::npos);
  EXPECT_FALSE(parseCache("brrr calibration 1\n1.5\n", back, error));
  EXPECT_EQ(error, "line 2: expected 'RANGE KEY', got '1.5'");
  EXPECT_FALSE(parseCache("brrr calibration 1\nmethod mean\n", back, error));
  EXPECT_EQ(error, "line 2: bad method 'mean' (max, or percentile P)");
}

/// `a` with its outputs named as calibration outputs (each output's name
/// its key), as an image.
std::string calibrationImage(brrr::artifact::Artifact a) {
  for (uint32_t o : a.outputs)
    a.tensors[o].name =
        mlir::brrr::kCalibrationOutputPrefix.str() + a.tensors[o].name;
  std::vector<uint8_t> image = brrr::artifact::serialize(a);
  return std::string(image.begin(), image.end());
}

Sample testSample(float shift, float yValue) {
  Sample s;
  s.source = "sample(" + std::to_string(shift) + ")";
  HostTensor x, y, ids;
  std::vector<float> xs(brrr::test::kTestElements), ys(xs.size(), yValue);
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = shift - 0.75f * float(i);
  x.bytes.assign((char *)xs.data(), (char *)xs.data() + 4 * xs.size());
  y.bytes.assign((char *)ys.data(), (char *)ys.data() + 4 * ys.size());
  ids.bytes.assign(6 * 8, 0);
  s.inputs = {x, y, ids};
  return s;
}

TEST(CalibrationRun, MeasuresEachActivationOnTheFakeDriver) {
  brrr::test::ScopedEnv driver("BRRR_CUDA_LIBRARY", BRRR_FAKE_CUDA_PATH);
  // The runtime's test model (sum = x + w + y, xw = x + w, relu =
  // relu(sum), w[i] = 0.5 i): keys "sum", "xw" and "relu".
  std::string image = calibrationImage(brrr::test::makeTestArtifact());
  // x + w = shift - 0.25 i: at i = 127, -31.75 + shift; y adds 2 or -1.
  std::vector<Sample> samples = {testSample(1, 2), testSample(0.5f, -1)};
  Table table;
  std::string error;
  ASSERT_TRUE(measureRanges(image, samples, Method(), table, error)) << error;
  ASSERT_EQ(table.ranges.size(), 3u);
  EXPECT_EQ(table.samples, 2);
  std::map<std::string, double> r(table.ranges.begin(), table.ranges.end());
  // xw: max |shift - 0.25 i| = 31.75 - 0.5 (shift 0.5); sum: 31.75 - 0.5 + 1
  // (y = -1) = 32.25; relu(sum): the largest positive sum, 1 + 2 = 3.
  EXPECT_EQ(r["xw"], 31.25);
  EXPECT_EQ(r["sum"], 32.25);
  EXPECT_EQ(r["relu"], 3.0);

  // The 99.9th percentile of 256 magnitudes is the largest's bin: its upper
  // edge is the largest itself. The median lies within a bin of the true
  // median of xw's magnitudes (|shift - 0.25 i|, about 16).
  Method p999;
  p999.percentile = 99.9;
  ASSERT_TRUE(measureRanges(image, samples, p999, table, error)) << error;
  r = std::map<std::string, double>(table.ranges.begin(), table.ranges.end());
  EXPECT_EQ(r["sum"], 32.25);
  Method median;
  median.percentile = 50;
  ASSERT_TRUE(measureRanges(image, samples, median, table, error)) << error;
  r = std::map<std::string, double>(table.ranges.begin(), table.ranges.end());
  EXPECT_NEAR(r["xw"], 15.5, 31.25 / kHistogramBins + 0.5);

  // A NaN in an activation is an error naming it and the sample.
  std::vector<Sample> nan = {testSample(NAN, 0)};
  EXPECT_FALSE(measureRanges(image, nan, Method(), table, error));
  EXPECT_NE(error.find("the activation of 'sum' is NaN or infinite on "
                       "sample(nan)"),
            std::string::npos)
      << error;
  // Inputs of the wrong size.
  std::vector<Sample> wrong = {testSample(0, 0)};
  wrong[0].inputs[0].bytes.resize(4);
  EXPECT_FALSE(measureRanges(image, wrong, Method(), table, error));
  EXPECT_NE(error.find("input 'x' holds 4 bytes where the model takes 512"),
            std::string::npos)
      << error;
}

/// A sample of `batch` rows: x = `value` everywhere, y = 0.
Sample symbolicSample(int64_t batch, float value) {
  Sample s;
  s.source = "rows(" + std::to_string(batch) + ")";
  std::vector<float> xs(batch * brrr::test::kSymbolicRow, value),
      ys(xs.size(), 0.0f);
  HostTensor x, y;
  x.name = "x";
  y.name = "y";
  x.onnxType = y.onnxType = DT::FLOAT;
  x.shape = y.shape = {batch, brrr::test::kSymbolicRow};
  x.bytes.assign((char *)xs.data(), (char *)xs.data() + 4 * xs.size());
  y.bytes.assign((char *)ys.data(), (char *)ys.data() + 4 * ys.size());
  s.inputs = {x, y};
  return s;
}

TEST(CalibrationRun, RunsEachSampleAtItsShapeOnABuildWithRanges) {
  brrr::test::ScopedEnv driver("BRRR_CUDA_LIBRARY", BRRR_FAKE_CUDA_PATH);
  // The symbolic test model (batch in 1..4 rows of 64 f32: sum = x + 2y,
  // xy = x + y): keys "sum" and "xy".
  std::string image = calibrationImage(brrr::test::makeSymbolicArtifact());
  // Four rows of 8, then five samples of one row of 1: 256 magnitudes of 8
  // and 320 of 1. Each output is read at its sample's shape: the buffers
  // still hold the first sample's 8s past the first row, which must not
  // count again (they would make the median 8).
  std::vector<Sample> samples = {symbolicSample(4, 8)};
  for (int i = 0; i < 5; ++i)
    samples.push_back(symbolicSample(1, -1));
  Table table;
  std::string error;
  ASSERT_TRUE(measureRanges(image, samples, Method(), table, error)) << error;
  std::map<std::string, double> r(table.ranges.begin(), table.ranges.end());
  EXPECT_EQ(r["sum"], 8.0);
  EXPECT_EQ(r["xy"], 8.0);
  Method median;
  median.percentile = 50;
  ASSERT_TRUE(measureRanges(image, samples, median, table, error)) << error;
  r = std::map<std::string, double>(table.ranges.begin(), table.ranges.end());
  // Magnitude 1 lies in bin 256 of 2048 over [0, 8]: its upper edge.
  EXPECT_EQ(r["sum"], 257 * 8.0 / kHistogramBins);

  // A sample outside the ranges is refused with the runtime's message,
  // naming the sample; one whose bytes are not its shape's, before it runs.
  std::vector<Sample> tooMany = {symbolicSample(5, 1)};
  EXPECT_FALSE(measureRanges(image, tooMany, Method(), table, error));
  EXPECT_NE(error.find("calibration: rows(5): "), std::string::npos) << error;
  EXPECT_NE(error.find("dimension 0 is 5"), std::string::npos) << error;
  EXPECT_NE(error.find("outside the range of symbol"), std::string::npos)
      << error;
  std::vector<Sample> short_ = {symbolicSample(2, 1)};
  short_[0].inputs[1].bytes.resize(4 * brrr::test::kSymbolicRow);
  EXPECT_FALSE(measureRanges(image, short_, Method(), table, error));
  EXPECT_NE(error.find("input 'y' holds 256 bytes where its shape takes 512"),
            std::string::npos)
      << error;
}

} // namespace
