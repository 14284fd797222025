//===- TestArtifact.cpp - a small compiled model for runtime tests --------===//
//
// See TestArtifact.h. The PTX is written by hand in the form nvcc emits for
// one-thread-per-element kernels (no bounds check: every launch covers its
// tensor exactly), at PTX ISA 7.0 so that any driver of the last years JITs
// it.
//
//===----------------------------------------------------------------------===//

#include "TestArtifact.h"

#include <cstring>

namespace brrr::test {
namespace {

using namespace artifact;

const char *const kPtx = R"(//
// brrr runtime test kernels: elementwise f32, one thread per element.
//
.version 7.0
.target sm_80
.address_size 64

.visible .entry brrr_test_add(
	.param .u64 brrr_test_add_param_0,
	.param .u64 brrr_test_add_param_1,
	.param .u64 brrr_test_add_param_2
)
{
	.reg .b32 	%r<5>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<11>;

	ld.param.u64 	%rd1, [brrr_test_add_param_0];
	ld.param.u64 	%rd2, [brrr_test_add_param_1];
	ld.param.u64 	%rd3, [brrr_test_add_param_2];
	cvta.to.global.u64 	%rd4, %rd1;
	cvta.to.global.u64 	%rd5, %rd2;
	cvta.to.global.u64 	%rd6, %rd3;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r1, %r2, %r3;
	mul.wide.s32 	%rd7, %r4, 4;
	add.s64 	%rd8, %rd4, %rd7;
	ld.global.f32 	%f1, [%rd8];
	add.s64 	%rd9, %rd5, %rd7;
	ld.global.f32 	%f2, [%rd9];
	add.f32 	%f3, %f1, %f2;
	add.s64 	%rd10, %rd6, %rd7;
	st.global.f32 	[%rd10], %f3;
	ret;
}

.visible .entry brrr_test_relu(
	.param .u64 brrr_test_relu_param_0,
	.param .u64 brrr_test_relu_param_1
)
{
	.reg .b32 	%r<5>;
	.reg .f32 	%f<3>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [brrr_test_relu_param_0];
	ld.param.u64 	%rd2, [brrr_test_relu_param_1];
	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r1, %r2, %r3;
	mul.wide.s32 	%rd5, %r4, 4;
	add.s64 	%rd6, %rd3, %rd5;
	ld.global.f32 	%f1, [%rd6];
	max.f32 	%f2, %f1, 0f00000000;
	add.s64 	%rd7, %rd4, %rd5;
	st.global.f32 	[%rd7], %f2;
	ret;
}
)";

Tensor tensor(const char *name, DType dtype, std::vector<int64_t> dims,
              Storage storage, uint64_t indexOrOffset) {
  Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.dims = std::move(dims);
  t.storage = storage;
  if (storage == Storage::Input || storage == Storage::Output)
    t.index = indexOrOffset;
  else
    t.offset = indexOrOffset;
  t.bytes = dtypeSize(dtype);
  for (int64_t d : t.dims)
    t.bytes *= uint64_t(d);
  return t;
}

Launch launch(uint32_t kernel, uint32_t gridX, uint32_t blockX,
              std::vector<uint32_t> args) {
  Launch l;
  l.kernel = kernel;
  l.grid[0] = gridX;
  l.block[0] = blockX;
  l.args = std::move(args);
  return l;
}

/// An artifact for sm_80 with the test kernels' PTX, and nothing else.
Artifact sm80Artifact() {
  Artifact a;
  a.target = "sm_80";
  a.smMajor = 8;
  a.smMinor = 0;
  a.exactArch = false;
  a.ptx = kPtx;
  return a;
}

} // namespace

Artifact makeTestArtifact() {
  Artifact a = sm80Artifact();
  a.kernels = {{"brrr_test_add", 128, 3 * 512}, {"brrr_test_relu", 0, 1024}};
  a.tensors = {
      tensor("x", DType::F32, {2, 64}, Storage::Input, 0),       // 0
      tensor("y", DType::F32, {2, 64}, Storage::Input, 1),       // 1
      tensor("ids", DType::I64, {2, 3}, Storage::Input, 2),      // 2
      tensor("w", DType::F32, {2, 64}, Storage::Weight, 0),      // 3
      tensor("t0", DType::F32, {2, 64}, Storage::Arena, 256),    // 4
      tensor("sum", DType::F32, {2, 64}, Storage::Output, 0),    // 5
      tensor("xw", DType::F32, {2, 64}, Storage::Output, 1),     // 6
      tensor("relu", DType::F32, {128}, Storage::Output, 2),     // 7
      tensor("sum_flat", DType::F32, {128}, Storage::Output, 0), // 8
      tensor("bias", DType::F16, {4}, Storage::Weight, 512),     // 9
  };
  a.inputs = {0, 1, 2};
  a.outputs = {5, 6, 7};
  // Two blocks of 64 for the adds, one of 128 for the relu, so both the
  // block and the thread index matter.
  a.launches = {launch(0, 2, 64, {0, 3, 4}), launch(0, 2, 64, {4, 1, 5}),
                launch(1, 1, 128, {8, 7})};
  a.copies = {{4, 6}};
  a.steps = {{Step::Kind::Launch, 0},
             {Step::Kind::Launch, 1},
             {Step::Kind::Copy, 0},
             {Step::Kind::Launch, 2}};
  a.arenaBytes = 1024;
  a.weights.resize(512 + 8);
  for (int i = 0; i < kTestElements; ++i) {
    float w = testWeight(i);
    std::memcpy(&a.weights[4 * size_t(i)], &w, 4);
  }
  const uint16_t bias[4] = {0x3c00, 0x4000, 0x4200, 0x4400}; // 1, 2, 3, 4
  std::memcpy(&a.weights[512], bias, sizeof(bias));
  return a;
}

Artifact makeTensorMapArtifact() {
  Artifact a = makeTestArtifact();
  a.kernels.push_back({"brrr_test_tma_add", 128, 3 * 512});
  // f32[2,64] as the driver sees it: 64 elements innermost, rows 256 bytes
  // apart.
  auto map = [](uint32_t tensor, std::vector<uint32_t> box, uint32_t swizzle) {
    TensorMap m;
    m.tensor = tensor;
    m.dims = {64, 2};
    m.strides = {256};
    m.box = std::move(box);
    m.swizzle = swizzle;
    return m;
  };
  Launch &l = a.launches[0];
  l.kernel = 2;
  l.args = {4};
  l.maps = {map(0, {32, 2}, 128), map(3, {64, 1}, 0)};
  return a;
}

Artifact makeIm2colArtifact() {
  Artifact a = makeTensorMapArtifact();
  TensorMap &x = a.launches[0].maps[0];
  x.dims = {4, 4, 4, 2};
  x.strides = {16, 64, 256};
  x.box.clear();
  x.swizzle = 32;
  x.mode = TensorMapMode::Im2col;
  x.lowerCorner = {-1, -1};
  x.upperCorner = {-1, -1};
  x.channelsPerPixel = 4;
  x.pixelsPerColumn = 32;
  x.elementStrides = {1, 1, 1, 1};
  return a;
}

Artifact makeGatherArtifact() {
  Artifact a = sm80Artifact(); // brrr_test_gather is in the fake driver only
  a.kernels = {{"brrr_test_gather", 0, 6 * 12}};
  a.tensors = {
      tensor("ids", DType::I64, {kGatherIds}, Storage::Input, 0),      // 0
      tensor("table", DType::F32, {kGatherTable}, Storage::Weight, 0), // 1
      tensor("rows", DType::F32, {kGatherIds}, Storage::Output, 0),    // 2
  };
  a.inputs = {0};
  a.outputs = {2};
  Launch l = launch(0, 1, kGatherIds, {1, 0, 2});
  l.errorRecord = true;
  a.launches = {l};
  a.steps = {{Step::Kind::Launch, 0}};
  a.checks = {{"/embeddings/word_embeddings/Gather", "Gather"}};
  a.weights.resize(4 * kGatherTable);
  for (int i = 0; i < kGatherTable; ++i) {
    float w = gatherRow(i);
    std::memcpy(&a.weights[4 * size_t(i)], &w, 4);
  }
  return a;
}

Artifact makeSymbolicArtifact() {
  Artifact a = sm80Artifact(); // brrr_test_add_n is in the fake driver only
  // Its work and traffic at each batch: batch * 64 adds, three tensors of
  // batch * 64 floats (exprs 1 and 3).
  a.kernels = {{"brrr_test_add_n", uint64_t(kSymbolicBatch * kSymbolicRow),
                uint64_t(kSymbolicBatch * kSymbolicRow * 12), 1, 3}};
  a.symbols = {{"batch", 1, kSymbolicBatch}};
  auto sym = [](int64_t s) { return Expr{{{ExprOp::Symbol, s}}}; };
  auto cst = [](int64_t v) { return ExprTerm{ExprOp::Constant, v}; };
  a.exprs = {
      sym(0),                                                           // batch
      Expr{{{ExprOp::Symbol, 0}, cst(kSymbolicRow), {ExprOp::Mul, 0}}}, // n
      // ceildiv(batch * 64, 32): the grid of 32-thread blocks.
      Expr{{{ExprOp::Symbol, 0},
            cst(kSymbolicRow),
            {ExprOp::Mul, 0},
            cst(32),
            {ExprOp::CeilDiv, 0}}},
      Expr{{{ExprOp::Symbol, 0}, cst(kSymbolicRow * 12), {ExprOp::Mul, 0}}},
  };
  auto symbolic = [&](Tensor t) {
    t.dimExprs = {0, -1};
    return t;
  };
  const int64_t rows = kSymbolicBatch, cols = kSymbolicRow;
  a.tensors = {
      symbolic(tensor("x", DType::F32, {rows, cols}, Storage::Input, 0)),  // 0
      symbolic(tensor("y", DType::F32, {rows, cols}, Storage::Input, 1)),  // 1
      symbolic(tensor("t0", DType::F32, {rows, cols}, Storage::Arena, 0)), // 2
      symbolic(tensor("sum", DType::F32, {rows, cols}, Storage::Output, 0)),
      symbolic(tensor("xy", DType::F32, {rows, cols}, Storage::Output, 1)),
  };
  a.inputs = {0, 1};
  a.outputs = {3, 4};
  a.arenaBytes = a.tensors[2].bytes;
  auto addN = [&](std::vector<uint32_t> args) {
    Launch l = launch(0, uint32_t(rows * cols / 32), 32, std::move(args));
    l.gridExprs[0] = 2;
    l.scalars = {1};
    return l;
  };
  a.launches = {addN({0, 1, 2}), addN({2, 1, 3})};
  a.copies = {{2, 4}};
  a.steps = {
      {Step::Kind::Launch, 0}, {Step::Kind::Launch, 1}, {Step::Kind::Copy, 0}};
  return a;
}

Artifact makeSymbolicTensorMapArtifact() {
  Artifact a = makeSymbolicArtifact();
  a.kernels.push_back({"brrr_test_tma_add", 0, 0, -1, -1});
  Launch &l = a.launches[0];
  l.kernel = 1;
  l.args = {2}; // t0; x and y come through the maps
  l.scalars.clear();
  for (uint32_t tensor : {0u, 1u}) {
    TensorMap m;
    m.tensor = tensor;
    m.dims = {uint64_t(kSymbolicRow), uint64_t(kSymbolicBatch)};
    m.dimExprs = {-1, 0};
    m.strides = {uint64_t(4 * kSymbolicRow)};
    m.box = {32, 1};
    l.maps.push_back(m);
  }
  return a;
}

} // namespace brrr::test
