//===- ArtifactTest.cpp - the artifact format and its validation ----------===//
//
// Round trips of the image, and one case per way an image can be broken:
// every truncation point, bad magic and version, corrupt counts, and every
// semantic check of ArtifactValidate.cpp but the tensor maps' (in
// ArtifactTensorMapTest.cpp). Each test asserts the message, not just the
// failure, since the message is what a user sees.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <gtest/gtest.h>

#include <set>

using namespace brrr::artifact;
using brrr::test::corruptEveryByte;
using brrr::test::makeGatherArtifact;
using brrr::test::makeIm2colArtifact;
using brrr::test::makeTensorMapArtifact;
using brrr::test::makeTestArtifact;
using brrr::test::rejection;

namespace {

void putU64(std::vector<uint8_t> &image, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    image[at + size_t(i)] = uint8_t(v >> (8 * i));
}

/// An artifact with no strings or code before the kernel table, so that
/// byte offsets into its image are easy to compute: kernels' count is at 49.
Artifact bareArtifact() {
  Artifact a = makeTestArtifact();
  a.target.clear();
  a.ptx.clear();
  a.cubin.clear();
  a.kernels.clear();
  a.launches.clear();
  a.steps = {{Step::Kind::Copy, 0}};
  return a;
}

TEST(ArtifactTest, RoundTripKeepsEveryField) {
  Artifact a = makeTestArtifact();
  a.cubin = {0x7f, 'E', 'L', 'F', 0, 1, 2, 255};
  a.smMinor = 6;
  a.launches[1].grid[2] = 3;
  a.launches[1].block[1] = 2;
  a.launches[2].sharedBytes = 4096;
  a.launches[2].programmatic = brrr::artifact::Programmatic::inOneWave;
  a.launches[1].programmatic = brrr::artifact::Programmatic::fitting;
  a.launches[0].errorRecord = true;
  a.checks = {{"/embeddings/Gather", "Gather"}, {"", "ScatterND"}};
  std::vector<uint8_t> image = serialize(a);
  Artifact b;
  std::string error;
  ASSERT_TRUE(deserialize(image.data(), image.size(), b, error)) << error;

  EXPECT_EQ(b.target, a.target);
  EXPECT_EQ(b.smMajor, a.smMajor);
  EXPECT_EQ(b.smMinor, 6u);
  EXPECT_EQ(b.exactArch, a.exactArch);
  EXPECT_EQ(b.ptx, a.ptx);
  EXPECT_EQ(b.cubin, a.cubin);
  ASSERT_EQ(b.kernels.size(), a.kernels.size());
  for (size_t i = 0; i < a.kernels.size(); ++i) {
    EXPECT_EQ(b.kernels[i].name, a.kernels[i].name);
    EXPECT_EQ(b.kernels[i].flops, a.kernels[i].flops);
    EXPECT_EQ(b.kernels[i].bytes, a.kernels[i].bytes);
  }
  ASSERT_EQ(b.tensors.size(), a.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    const Tensor &x = a.tensors[i], &y = b.tensors[i];
    EXPECT_EQ(y.name, x.name);
    EXPECT_EQ(y.dtype, x.dtype);
    EXPECT_EQ(y.dims, x.dims);
    EXPECT_EQ(y.storage, x.storage);
    EXPECT_EQ(y.index, x.index);
    EXPECT_EQ(y.offset, x.offset);
    EXPECT_EQ(y.bytes, x.bytes);
  }
  EXPECT_EQ(b.inputs, a.inputs);
  EXPECT_EQ(b.outputs, a.outputs);
  ASSERT_EQ(b.launches.size(), a.launches.size());
  for (size_t i = 0; i < a.launches.size(); ++i) {
    const Launch &x = a.launches[i], &y = b.launches[i];
    EXPECT_EQ(y.kernel, x.kernel);
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(y.grid[d], x.grid[d]);
      EXPECT_EQ(y.block[d], x.block[d]);
    }
    EXPECT_EQ(y.sharedBytes, x.sharedBytes);
    EXPECT_EQ(y.args, x.args);
    EXPECT_EQ(y.programmatic, x.programmatic);
    EXPECT_EQ(y.errorRecord, x.errorRecord);
  }
  ASSERT_EQ(b.checks.size(), 2u);
  EXPECT_EQ(b.checks[0].node, "/embeddings/Gather");
  EXPECT_EQ(b.checks[0].op, "Gather");
  EXPECT_EQ(b.checks[1].node, "");
  EXPECT_EQ(b.checks[1].op, "ScatterND");
  ASSERT_EQ(b.copies.size(), 1u);
  EXPECT_EQ(b.copies[0].src, 4u);
  EXPECT_EQ(b.copies[0].dst, 6u);
  ASSERT_EQ(b.steps.size(), a.steps.size());
  for (size_t i = 0; i < a.steps.size(); ++i) {
    EXPECT_EQ(b.steps[i].kind, a.steps[i].kind);
    EXPECT_EQ(b.steps[i].index, a.steps[i].index);
  }
  EXPECT_EQ(b.arenaBytes, a.arenaBytes);
  EXPECT_EQ(
      std::vector<uint8_t>(b.weightBytes(), b.weightBytes() + b.weightCount()),
      a.weights);
  EXPECT_EQ(serialize(b), image);
}

TEST(ArtifactTest, ImageStartsWithMagicAndVersion) {
  std::vector<uint8_t> image = serialize(makeTestArtifact());
  ASSERT_GE(image.size(), 16u);
  EXPECT_EQ(std::string(reinterpret_cast<char *>(image.data()), 8),
            std::string("BRRRART\0", 8));
  EXPECT_EQ(image[8], kFormatVersion);
  EXPECT_EQ(image[9] | image[10] | image[11], 0);
}

TEST(ArtifactTest, EveryTruncatedPrefixIsRejectedCleanly) {
  std::vector<uint8_t> image = serialize(makeTestArtifact());
  std::set<std::string> fields;
  for (size_t n = 0; n < image.size(); ++n) {
    // Exactly sized copies, so that a read past the end would be a heap
    // overflow that sanitizers see.
    std::vector<uint8_t> prefix(image.begin(), image.begin() + long(n));
    std::string error = rejection(prefix);
    std::string expected =
        "artifact truncated at byte " + std::to_string(n) + " while reading ";
    ASSERT_EQ(error.compare(0, expected.size(), expected), 0)
        << "prefix " << n << ": " << error;
    std::string field = error.substr(expected.size());
    fields.insert(field.substr(0, field.find(' ')));
  }
  // A count that the remaining bytes cannot hold is reported at the count,
  // so truncations inside the early elements of a table name the table.
  for (const char *f :
       {"magic", "formatVersion", "target", "ptx", "kernels", "kernels[1].name",
        "tensors", "tensors[9].dims", "tensors[9].bytes", "inputs", "outputs",
        "launches", "launches[2].gridExprs", "launches[2].guardMax", "copies",
        "steps", "arenaBytes", "weights"})
    EXPECT_TRUE(fields.count(f)) << "no truncation reported in " << f;
}

TEST(ArtifactTest, CorruptBytesAreRejectedOrConsistent) {
  corruptEveryByte(serialize(makeTestArtifact()));
}

TEST(ArtifactTest, CorruptTensorMapBytesAreRejectedOrConsistent) {
  corruptEveryByte(serialize(makeTensorMapArtifact()));
}

TEST(ArtifactTest, CorruptIm2colMapBytesAreRejectedOrConsistent) {
  corruptEveryByte(serialize(makeIm2colArtifact()));
}

TEST(ArtifactTest, CorruptIndexCheckBytesAreRejectedOrConsistent) {
  corruptEveryByte(serialize(makeGatherArtifact()));
}

TEST(ArtifactTest, ErrorRecordMustBeABool) {
  Artifact a = makeGatherArtifact();
  a.weights.clear();
  a.tensors[1].storage = Storage::Arena;
  a.arenaBytes = 256;
  std::vector<uint8_t> image = serialize(a);
  // The launch's errorRecord flag: before its grid expressions, scalars'
  // count and guard, the copies' count, the steps (count, one kind/index
  // pair), the check table (count, node, op), the symbols' and expressions'
  // counts, the arena size and the weights' length.
  size_t checks = 8 + (8 + a.checks[0].node.size()) + (8 + 6);
  size_t at =
      image.size() - 8 - (8 + 8) - checks - 8 - 8 - 8 - 8 - 12 - 8 - 20 - 1;
  ASSERT_EQ(image[at], 1);
  image[at] = 2;
  EXPECT_EQ(rejection(image), "artifact field launches[0].errorRecord is 2 "
                              "at offset " +
                                  std::to_string(at) + ", expected 0 or 1");
}

TEST(ArtifactTest, BadMagic) {
  std::vector<uint8_t> image = serialize(makeTestArtifact());
  image[1] = 'X';
  EXPECT_EQ(rejection(image),
            "not a brrr artifact: bad magic (expected \"BRRRART\\0\")");
  EXPECT_EQ(rejection(std::vector<uint8_t>{'E', 'L'}),
            "not a brrr artifact: bad magic (expected \"BRRRART\\0\")");
}

TEST(ArtifactTest, NewerFormatVersion) {
  std::vector<uint8_t> image = serialize(makeTestArtifact());
  image[8] = kFormatVersion + 1;
  EXPECT_EQ(rejection(image),
            "artifact format version " + std::to_string(kFormatVersion + 1) +
                ", this runtime reads " + std::to_string(kFormatVersion) +
                " (the model was built by a newer brrrc)");
}

TEST(ArtifactTest, OlderFormatVersionAsksForARebuild) {
  std::vector<uint8_t> image = serialize(makeTestArtifact());
  // 1: before tensor maps; 2: before im2col maps and element strides; 3:
  // before programmatic launches; 4: before index checks; 5: before the
  // flags word; 6: before symbolic shapes; 7: before guards; 8: before
  // programmatic launches in one wave; 9: before fitting ones.
  for (uint8_t version = 1; version < kFormatVersion; ++version) {
    image[8] = version;
    EXPECT_EQ(rejection(image),
              "artifact format version " + std::to_string(version) +
                  ", this runtime reads " + std::to_string(kFormatVersion) +
                  " (rebuild the model with this brrrc)");
  }
}

TEST(ArtifactTest, UnknownFlagsAreRefused) {
  std::vector<uint8_t> image = serialize(makeTestArtifact());
  image[13] = 0x80;
  EXPECT_EQ(rejection(image), "artifact has unknown flags 0x8000 (the model "
                              "was built by a newer brrrc)");
}

TEST(ArtifactTest, ReadingKeepsTheWeightsInTheImage) {
  Artifact a = makeTestArtifact();
  std::vector<uint8_t> image = serialize(a);
  Artifact b;
  std::string error;
  ASSERT_TRUE(deserialize(image.data(), image.size(), b, error)) << error;
  EXPECT_TRUE(b.weights.empty());
  EXPECT_EQ(b.weightSize, a.weights.size());
  ASSERT_GE(b.weightData, image.data());
  EXPECT_EQ(b.weightData + b.weightSize, image.data() + image.size())
      << "the weights are the image's last bytes";
  EXPECT_EQ(std::vector<uint8_t>(b.weightData, b.weightData + b.weightSize),
            a.weights);
}

TEST(ArtifactTest, WeightsStoredApart) {
  Artifact a = makeTestArtifact();
  uint64_t id = weightsId(a.weights.data(), a.weights.size());
  std::vector<uint8_t> head = serializeHead(a, a.weights.size(), id);
  EXPECT_EQ(imageFlags(head.data(), head.size()), kFlagWeightsApart);
  EXPECT_EQ(imageFlags(serialize(a).data(), 16), 0u);
  EXPECT_EQ(apartWeightSize(head.data(), head.size()), a.weights.size());
  std::vector<uint8_t> whole = serialize(a);
  EXPECT_EQ(apartWeightSize(whole.data(), whole.size()), std::nullopt);
  EXPECT_EQ(apartWeightSize(head.data(), 24), std::nullopt);
  // Without its weights the image is refused, saying where they are.
  EXPECT_EQ(rejection(head), "artifact's 520 bytes of weights are stored "
                             "apart from it (appended to the model.so it is "
                             "embedded in); open that library");
  Artifact b;
  std::string error;
  ApartWeights apart{a.weights.data(), a.weights.size()};
  ASSERT_TRUE(deserialize(head.data(), head.size(), b, error, &apart)) << error;
  EXPECT_EQ(b.weightData, a.weights.data());
  EXPECT_EQ(b.weightCount(), a.weights.size());
  // Another block of the same size (one byte changed where the id samples
  // it), or of another size, is not this image's.
  std::vector<uint8_t> other = a.weights;
  other[0] ^= 1;
  ApartWeights changed{other.data(), other.size()};
  EXPECT_FALSE(deserialize(head.data(), head.size(), b, error, &changed));
  EXPECT_EQ(error, "the weights found (520 bytes) are not this artifact's "
                   "(520 bytes): they come from another compile, or were "
                   "changed");
  ApartWeights shorter{a.weights.data(), a.weights.size() - 8};
  EXPECT_FALSE(deserialize(head.data(), head.size(), b, error, &shorter));
  // Every truncation of the head is refused cleanly.
  for (size_t n = 0; n < head.size(); ++n) {
    std::vector<uint8_t> cut(head.begin(), head.begin() + n);
    EXPECT_FALSE(deserialize(cut.data(), cut.size(), b, error, &apart)) << n;
  }
}

TEST(ArtifactTest, WeightsTrailerRoundTrips) {
  WeightsTrailer t;
  t.offset = 3 * kWeightsAlignment;
  t.size = (uint64_t(5) << 32) + 7;
  t.id = 0x0123456789abcdefull;
  std::vector<uint8_t> bytes = encodeTrailer(t);
  ASSERT_EQ(bytes.size(), kWeightsTrailerBytes);
  EXPECT_EQ(std::string(reinterpret_cast<char *>(bytes.data()), 8),
            std::string("BRRRWTS\0", 8));
  WeightsTrailer u;
  ASSERT_TRUE(decodeTrailer(bytes.data(), u));
  EXPECT_EQ(u.offset, t.offset);
  EXPECT_EQ(u.size, t.size);
  EXPECT_EQ(u.id, t.id);
  bytes[3] = 'X';
  EXPECT_FALSE(decodeTrailer(bytes.data(), u));
}

TEST(ArtifactTest, WeightsIdSamplesLargeBlocks) {
  // 8 MiB: the first and last MiB and 64 spread blocks are read, the rest
  // is not; the size always counts.
  std::vector<uint8_t> block(8 << 20, 7);
  uint64_t id = weightsId(block.data(), block.size());
  block[(1 << 20) + 5000] ^= 1; // between samples
  EXPECT_EQ(weightsId(block.data(), block.size()), id);
  block[block.size() / 64 * 9 + 5] ^= 1; // in the tenth sampled block
  EXPECT_NE(weightsId(block.data(), block.size()), id);
  EXPECT_NE(weightsId(block.data(), block.size() - 1),
            weightsId(block.data(), block.size()));
}

TEST(ArtifactTest, TrailingBytes) {
  std::vector<uint8_t> image = serialize(makeTestArtifact());
  image.push_back(0);
  EXPECT_NE(rejection(image).find("1 trailing bytes"), std::string::npos);
}

TEST(ArtifactTest, HugeCountIsTruncationNotAllocation) {
  std::vector<uint8_t> image = serialize(bareArtifact());
  ASSERT_EQ(rejection(image), "<accepted>");
  putU64(image, 49, uint64_t(1) << 60);
  std::string error = rejection(image);
  EXPECT_NE(error.find("while reading kernels (1152921504606846976 elements"),
            std::string::npos)
      << error;
}

TEST(ArtifactTest, HugeStringLength) {
  std::vector<uint8_t> image = serialize(bareArtifact());
  putU64(image, 16, ~uint64_t(0)); // target's length
  EXPECT_NE(rejection(image).find("while reading target"), std::string::npos);
}

TEST(ArtifactTest, ExactArchMustBeABool) {
  std::vector<uint8_t> image = serialize(bareArtifact());
  image[32] = 2;
  EXPECT_EQ(rejection(image),
            "artifact field exactArch is 2 at offset 32, expected 0 or 1");
}

TEST(ArtifactTest, ProgrammaticMustBeOneOfItsValues) {
  Artifact a = makeTestArtifact();
  a.weights.clear();
  a.arenaBytes = 0;
  std::vector<uint8_t> image = serialize(a);
  // The last launch's flag: before its errorRecord flag, grid expressions,
  // scalars' count and guard, the copies (count, src, dst), the steps
  // (count, four kind/index pairs), the counts of checks, symbols and
  // expressions, the arena size and the weights' length.
  size_t at = image.size() - (8 + 8) - (8 + 4 * 8) - 8 - 8 - 8 - 8 - 8 - 1 -
              12 - 8 - 20 - 1;
  ASSERT_EQ(image[at], 0);
  image[at] = 4;
  EXPECT_EQ(rejection(image), "artifact field launches[2].programmatic is 4 "
                              "at offset " +
                                  std::to_string(at) +
                                  ", expected 0, 1, 2 or 3");
}

TEST(ArtifactTest, IndexOutOfRange) {
  Artifact a = makeTestArtifact();
  a.inputs[1] = 99;
  EXPECT_EQ(rejection(a),
            "invalid artifact: inputs[1] is tensor 99, out of range (10 "
            "tensors)");
  a = makeTestArtifact();
  a.launches[2].args[1] = 10;
  EXPECT_EQ(rejection(a), "invalid artifact: launches[2].args[1] is tensor 10, "
                          "out of range (10 tensors)");
  a = makeTestArtifact();
  a.launches[0].kernel = 2;
  EXPECT_EQ(rejection(a), "invalid artifact: launches[0] uses kernel 2, out of "
                          "range (2 kernels)");
  a = makeTestArtifact();
  a.steps[1].index = 3;
  EXPECT_EQ(rejection(a), "invalid artifact: steps[1] refers to launch 3, out "
                          "of range (3)");
  a = makeTestArtifact();
  a.steps[2].index = 1;
  EXPECT_EQ(rejection(a), "invalid artifact: steps[2] refers to copy 1, out of "
                          "range (1)");
  a = makeTestArtifact();
  a.steps[0].kind = Step::Kind(5);
  EXPECT_EQ(rejection(a), "invalid artifact: steps[0] has unknown kind 5");
  a = makeTestArtifact();
  a.copies[0].dst = 10;
  EXPECT_NE(rejection(a).find("copies[0] copies tensor 4 to tensor 10, out of "
                              "range"),
            std::string::npos);
  a = makeTestArtifact();
  a.tensors[2].index = 3; // ids claims input 3 of 3
  EXPECT_EQ(rejection(a), "invalid artifact: tensors[2] 'ids' is input 3 but "
                          "the model has 3 inputs");
}

TEST(ArtifactTest, TensorOutsideArenaOrWeights) {
  Artifact a = makeTestArtifact();
  a.tensors[4].offset = 768; // t0: 512 bytes in a 1024-byte arena
  EXPECT_EQ(rejection(a), "invalid artifact: tensors[4] 't0' (bytes [768, 768 "
                          "+ 512)) lies outside the arena of 1024 bytes");
  a = makeTestArtifact();
  a.weights.resize(516);
  EXPECT_EQ(rejection(a), "invalid artifact: tensors[9] 'bias' (bytes [512, "
                          "512 + 8)) lies outside the weight block of 516 "
                          "bytes");
  a = makeTestArtifact();
  a.tensors[4].offset = ~uint64_t(0) - 255; // would wrap around
  EXPECT_NE(rejection(a).find("lies outside the arena"), std::string::npos);
  a = makeTestArtifact();
  a.tensors[4].offset = 100;
  EXPECT_EQ(rejection(a), "invalid artifact: tensors[4] 't0' has arena offset "
                          "100, which is not 256-byte aligned");
}

TEST(ArtifactTest, BytesMustMatchShapeAndDtype) {
  Artifact a = makeTestArtifact();
  a.tensors[0].bytes = 100;
  EXPECT_EQ(rejection(a), "invalid artifact: tensors[0] 'x' has bytes = 100 "
                          "but its shape and dtype need 512");
  a = makeTestArtifact();
  a.tensors[2].dtype = DType::I32; // ids: 2x3 i32 is 24 bytes, not 48
  EXPECT_NE(rejection(a).find("need 24"), std::string::npos);
  a = makeTestArtifact();
  a.tensors[1].dims = {2, -64};
  EXPECT_EQ(rejection(a), "invalid artifact: tensors[1] 'y' has negative "
                          "dimension -64 at position 1");
  a = makeTestArtifact();
  a.tensors[1].dims = {int64_t(1) << 40, int64_t(1) << 40};
  EXPECT_NE(rejection(a).find("overflows 64 bits"), std::string::npos);
  a = makeTestArtifact();
  a.tensors[1].dtype = DType(99);
  EXPECT_EQ(rejection(a), "invalid artifact: tensors[1] 'y' has unknown dtype "
                          "99");
  a = makeTestArtifact();
  a.tensors[3].storage = Storage(9);
  EXPECT_EQ(rejection(a), "invalid artifact: tensors[3] 'w' has unknown "
                          "storage 9");
}

TEST(ArtifactTest, SignatureMustDescribeTheCallersBuffers) {
  Artifact a = makeTestArtifact();
  a.outputs = {5, 7, 6}; // relu is output 2, not 1
  EXPECT_NE(rejection(a).find("outputs[1] is tensors[7] 'relu', whose storage "
                              "is output 2 at offset 0, not output 1"),
            std::string::npos);
  a = makeTestArtifact();
  a.tensors[1].name = "x";
  EXPECT_EQ(rejection(a), "invalid artifact: inputs[1] repeats the name 'x'");
  a = makeTestArtifact();
  a.tensors[8].dims = {256}; // a view of 'sum' larger than 'sum'
  a.tensors[8].bytes = 1024;
  EXPECT_EQ(rejection(a), "invalid artifact: tensors[8] 'sum_flat' (bytes [0, "
                          "0 + 1024)) lies outside output 0 of 512 bytes");
}

TEST(ArtifactTest, CopiesAndLaunchesAreChecked) {
  Artifact a = makeTestArtifact();
  a.copies[0].dst = 0;
  EXPECT_NE(rejection(a).find("copies may only write outputs or the arena"),
            std::string::npos);
  a = makeTestArtifact();
  a.copies[0].dst = 2;
  EXPECT_NE(rejection(a).find("(512 bytes) to tensors[2] 'ids' (48 bytes)"),
            std::string::npos);
  a = makeTestArtifact();
  a.launches[0].block[0] = 0;
  EXPECT_NE(rejection(a).find("zero grid or block dimension"),
            std::string::npos);
  a = makeTestArtifact();
  a.launches[0].block[0] = 2048;
  EXPECT_NE(rejection(a).find("2048 threads per block"), std::string::npos);
}

TEST(ArtifactTest, CodeMustMatchTheTarget) {
  Artifact a = makeTestArtifact();
  a.ptx.clear();
  EXPECT_EQ(rejection(a), "invalid artifact: it has 2 kernels but neither PTX "
                          "nor a cubin");
  a = makeTestArtifact();
  a.kernels[1].name.clear();
  EXPECT_EQ(rejection(a), "invalid artifact: kernels[1] has an empty name");
}

TEST(ArtifactTest, DtypeSizes) {
  EXPECT_EQ(dtypeSize(DType::F32), 4u);
  EXPECT_EQ(dtypeSize(DType::BF16), 2u);
  EXPECT_EQ(dtypeSize(DType::F64), 8u);
  EXPECT_EQ(dtypeSize(DType::U8), 1u);
  EXPECT_EQ(dtypeSize(DType::Bool), 1u);
  EXPECT_EQ(dtypeSize(DType::U64), 8u);
  EXPECT_EQ(dtypeSize(DType(0)), 0u);
}

TEST(ArtifactTest, CheckThroughTheCApi) {
  std::vector<uint8_t> image = serialize(makeTestArtifact());
  EXPECT_EQ(brrr_artifact_check(image.data(), image.size()), BRRR_OK);
  image[8] = kFormatVersion + 1;
  EXPECT_EQ(brrr_artifact_check(image.data(), image.size()),
            BRRR_ERROR_CORRUPT_ARTIFACT);
  EXPECT_EQ(std::string(brrr_last_error()),
            "artifact format version " + std::to_string(kFormatVersion + 1) +
                ", this runtime reads " + std::to_string(kFormatVersion) +
                " (the model was built by a newer brrrc)");
  EXPECT_EQ(brrr_artifact_check(image.data(), 3), BRRR_ERROR_CORRUPT_ARTIFACT);
  EXPECT_EQ(brrr_artifact_check(nullptr, 10), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(brrr_last_error(), "brrr_artifact_check: data is null");
}

} // namespace
