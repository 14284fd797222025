//===- TestArtifact.h - a small compiled model for runtime tests -*- C++
//-*-===//
//
// A hand-built artifact that exercises every kind of storage and step the
// runtime handles, with real PTX so the same model runs on a GPU and, through
// the fake driver (FakeCuda.cpp implements the same kernels on the CPU), in
// CI:
//
//   inputs  x: f32[2,64], y: f32[2,64], ids: i64[2,3] (unused)
//   weights w: f32[2,64] = 0.5 * i, bias: f16[4] (unused)
//   t0   = add(x, w)              arena
//   sum  = add(t0, y)             output 0
//   xw   = copy(t0)               output 1
//   relu = relu(view of sum as f32[128])   output 2
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TEST_RUNTIME_TESTARTIFACT_H
#define BRRR_TEST_RUNTIME_TESTARTIFACT_H

#include "runtime/Artifact.h"

namespace brrr::test {

/// Elements of each f32 tensor of the test model.
constexpr int kTestElements = 128;

/// The model above, targeting sm_80 through PTX.
artifact::Artifact makeTestArtifact();

/// The model above with t0 = add(x, w) computed by brrr_test_tma_add, which
/// reads x and w through two tensor maps (x: 32x2 boxes with a 128-byte
/// swizzle, w: 64x1 boxes) and writes t0 through its one pointer. The kernel
/// exists in the fake driver only: its PTX is not in the artifact.
artifact::Artifact makeTensorMapArtifact();

/// The tensor-map model with x read through an im2col map instead: x as an
/// NHWC f32[2,4,4,4] tensor (dims {C, W, H, N} = {4, 4, 4, 2}, innermost
/// first) with the corners of a 3x3 filter padded by 1 (lower {-1, -1},
/// upper {-1, -1}), 4 channels per pixel, 32 pixels per column and a 32-byte
/// swizzle. The fake's kernel reads it as the tensor it covers, so the
/// model computes what the others do.
artifact::Artifact makeIm2colArtifact();

/// Ids and table entries of the gather model.
constexpr int kGatherIds = 6, kGatherTable = 4;

/// rows = table[ids] (Gather, axis 0) with ids: i64[6] an input and table:
/// f32[4] a weight, by brrr_test_gather, which checks its indices and takes
/// the context's error record (`Launch::errorRecord`); one index check,
/// node "/embeddings/word_embeddings/Gather". Fake driver only.
artifact::Artifact makeGatherArtifact();

/// Entry i of the gather model's table.
inline float gatherRow(int i) { return 10.0f * float(i + 1); }

/// The symbolic model's largest batch and its rows' length.
constexpr int64_t kSymbolicBatch = 4, kSymbolicRow = 64;

/// A model compiled with a range: symbol batch in 1..4, inputs x and y:
/// f32[batch, 64]; t0 = x + y (arena), sum = t0 + y (output 0), xy = copy
/// of t0 (output 1). Both additions are brrr_test_add_n, which takes the
/// element count batch * 64 as an i64 after its three pointers and runs on
/// ceildiv(batch * 64, 32) blocks of 32 threads. Fake driver only.
artifact::Artifact makeSymbolicArtifact();

/// The symbolic model with t0 = x + y computed by brrr_test_tma_add, which
/// reads x and y through tensor maps of dims {64, batch} (innermost first;
/// the batch an expression, so the runtime encodes them at each shape) and
/// 32x1 boxes, on the same ceildiv(batch * 64, 32) blocks of 32 threads.
/// Fake driver only.
artifact::Artifact makeSymbolicTensorMapArtifact();

/// The weight w[i] of the test model.
inline float testWeight(int i) { return 0.5f * float(i); }

} // namespace brrr::test

#endif // BRRR_TEST_RUNTIME_TESTARTIFACT_H
