//===- RuntimeShapesTest.cpp - symbolic shapes in the image and the runtime ==//
//
// A model compiled with ranges (TestArtifact.h's symbolic model, batch in
// 1..4): expressions and their evaluation, the image's round trip and the
// validator's refusals, the signature queries, runs at every batch through
// the fake driver (grids, kernel scalars, copies and host staging at the
// actual size), one graph per shape in a bounded cache, and the refusals of
// shapes outside the range, before anything is launched.
//
//===----------------------------------------------------------------------===//

#include "FakeDriverTest.h"
#include "TestUtil.h"
#include "runtime/brrr_runtime.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>

using namespace brrr::artifact;
using namespace brrr::test;

namespace {

ExprTerm cst(int64_t v) { return {ExprOp::Constant, v}; }
ExprTerm sym(int64_t s) { return {ExprOp::Symbol, s}; }
ExprTerm op(ExprOp o) { return {o, 0}; }

/// `e` at `values`, or the reason it fails.
std::string eval(const Expr &e, std::vector<int64_t> values) {
  int64_t out = 0;
  std::string error;
  if (!evaluate(e, values.data(), values.size(), out, error))
    return "error: " + error;
  return std::to_string(out);
}

TEST(ExprTest, EvaluatesPostfixWithFloorSemantics) {
  Expr e{{sym(0), sym(1), op(ExprOp::Mul), cst(768), op(ExprOp::Mul)}};
  EXPECT_EQ(eval(e, {3, 77}), std::to_string(3 * 77 * 768));
  EXPECT_EQ(eval(Expr{{sym(0), cst(32), op(ExprOp::CeilDiv)}}, {65}), "3");
  EXPECT_EQ(eval(Expr{{sym(0), cst(32), op(ExprOp::CeilDiv)}}, {64}), "2");
  EXPECT_EQ(eval(Expr{{sym(0), cst(32), op(ExprOp::FloorDiv)}}, {63}), "1");
  EXPECT_EQ(eval(Expr{{sym(0), cst(5), op(ExprOp::Mod)}}, {17}), "2");
  // Like MLIR's affine maps: floor division and a non-negative remainder.
  Expr negative{{cst(-7), cst(2), op(ExprOp::FloorDiv)}};
  EXPECT_EQ(eval(negative, {}), "-4");
  EXPECT_EQ(eval(Expr{{cst(-7), cst(2), op(ExprOp::Mod)}}, {}), "1");
  EXPECT_EQ(eval(Expr{{cst(-7), cst(2), op(ExprOp::CeilDiv)}}, {}), "-3");
  EXPECT_EQ(eval(Expr{{sym(0), cst(-1), op(ExprOp::Add)}}, {10}), "9");
}

TEST(ExprTest, RefusesWhatCannotBeEvaluated) {
  EXPECT_TRUE(contains(eval(Expr{}, {}), "leaves 0 values"));
  EXPECT_TRUE(contains(eval(Expr{{cst(1), cst(2)}}, {}), "leaves 2 values"));
  EXPECT_TRUE(
      contains(eval(Expr{{cst(1), op(ExprOp::Add)}}, {}), "lacks operands"));
  EXPECT_TRUE(contains(eval(Expr{{sym(1)}}, {5}), "symbol 1 of 1"));
  EXPECT_TRUE(contains(eval(Expr{{sym(-1)}}, {5}), "symbol -1"));
  EXPECT_TRUE(contains(eval(Expr{{sym(0), cst(0), op(ExprOp::Mod)}}, {5}),
                       "divides by 0"));
  EXPECT_TRUE(contains(
      eval(Expr{{cst(INT64_MAX), cst(2), op(ExprOp::Mul)}}, {}), "overflows"));
  EXPECT_TRUE(contains(
      eval(Expr{{cst(1), {ExprOp(99), 0}, op(ExprOp::Add)}}, {}), "unknown"));
  Expr deep;
  for (int i = 0; i < 40; ++i)
    deep.terms.push_back(cst(1));
  EXPECT_TRUE(contains(eval(deep, {}), "deeper"));
}

TEST(SymbolicArtifactTest, RoundTripKeepsSymbolsAndExpressions) {
  Artifact a = makeSymbolicArtifact();
  std::vector<uint8_t> image = serialize(a);
  Artifact b;
  std::string error;
  ASSERT_TRUE(deserialize(image.data(), image.size(), b, error)) << error;
  ASSERT_EQ(b.symbols.size(), 1u);
  EXPECT_EQ(b.symbols[0].name, "batch");
  EXPECT_EQ(b.symbols[0].min, 1);
  EXPECT_EQ(b.symbols[0].max, kSymbolicBatch);
  ASSERT_EQ(b.exprs.size(), a.exprs.size());
  for (size_t e = 0; e < a.exprs.size(); ++e) {
    ASSERT_EQ(b.exprs[e].terms.size(), a.exprs[e].terms.size());
    for (size_t t = 0; t < a.exprs[e].terms.size(); ++t) {
      EXPECT_EQ(b.exprs[e].terms[t].op, a.exprs[e].terms[t].op);
      EXPECT_EQ(b.exprs[e].terms[t].value, a.exprs[e].terms[t].value);
    }
  }
  for (size_t i = 0; i < a.tensors.size(); ++i)
    EXPECT_EQ(b.tensors[i].dimExprs, a.tensors[i].dimExprs);
  ASSERT_EQ(b.kernels.size(), 1u);
  EXPECT_EQ(b.kernels[0].flopsExpr, 1);
  EXPECT_EQ(b.kernels[0].bytesExpr, 3);
  for (size_t i = 0; i < a.launches.size(); ++i) {
    EXPECT_EQ(b.launches[i].scalars, a.launches[i].scalars);
    for (int d = 0; d < 3; ++d)
      EXPECT_EQ(b.launches[i].gridExprs[d], a.launches[i].gridExprs[d]);
  }
  EXPECT_EQ(serialize(b), image);
}

TEST(SymbolicArtifactTest, RoundTripKeepsGuards) {
  Artifact a = makeSymbolicArtifact();
  a.launches[1].guardExpr = 0;
  a.launches[1].guardMin = 2;
  a.launches[1].guardMax = 3;
  std::vector<uint8_t> image = serialize(a);
  Artifact b;
  std::string error;
  ASSERT_TRUE(deserialize(image.data(), image.size(), b, error)) << error;
  EXPECT_EQ(b.launches[0].guardExpr, -1);
  EXPECT_EQ(b.launches[1].guardExpr, 0);
  EXPECT_EQ(b.launches[1].guardMin, 2u);
  EXPECT_EQ(b.launches[1].guardMax, 3u);
  EXPECT_EQ(serialize(b), image);
}

TEST(SymbolicArtifactTest, TruncationsNameTheSymbolicFields) {
  std::vector<uint8_t> image = serialize(makeSymbolicArtifact());
  std::set<std::string> fields;
  for (size_t n = 0; n < image.size(); ++n) {
    std::vector<uint8_t> prefix(image.begin(), image.begin() + long(n));
    std::string error = rejection(prefix);
    size_t at = error.find("while reading ");
    ASSERT_NE(at, std::string::npos) << error;
    std::string field = error.substr(at + 14);
    fields.insert(field.substr(0, field.find(' ')));
  }
  // Truncations early in a table are reported at its count.
  for (const char *f :
       {"tensors[4].dimExprs", "launches[1].gridExprs", "launches[1].scalars",
        "launches[1].guardExpr", "launches[1].guardMax", "symbols",
        "symbols[0].max", "exprs", "exprs[2].terms"})
    EXPECT_TRUE(fields.count(f)) << "no truncation reported in " << f;
}

TEST(SymbolicArtifactTest, CorruptBytesAreRejectedOrConsistent) {
  corruptEveryByte(serialize(makeSymbolicArtifact()));
}

TEST(SymbolicArtifactTest, CorruptTensorMapBytesAreRejectedOrConsistent) {
  corruptEveryByte(serialize(makeSymbolicTensorMapArtifact()));
}

TEST(SymbolicArtifactTest, ValidatorRefusesInconsistentSymbols) {
  auto refuses = [](void (*edit)(Artifact &), const std::string &part) {
    Artifact a = makeSymbolicArtifact();
    edit(a);
    std::string why = rejection(a);
    EXPECT_TRUE(contains(why, part)) << why;
  };
  refuses([](Artifact &a) { a.symbols[0].min = 0; }, "1 <= min <= max");
  refuses([](Artifact &a) { a.symbols[0].min = 5; }, "range 5..4");
  refuses([](Artifact &a) { a.symbols.push_back(a.symbols[0]); },
          "repeated name");
  refuses([](Artifact &a) { a.launches[1].guardExpr = 4; },
          "launches[1].guardExpr is expression 4, out of range (4 "
          "expressions)");
  refuses(
      [](Artifact &a) {
        a.launches[1].guardExpr = 0;
        a.launches[1].guardMin = 3;
        a.launches[1].guardMax = 2;
      },
      "launches[1] is guarded by the empty range [3, 2]");
  refuses([](Artifact &a) { a.exprs[2].terms[1] = cst(32); },
          "gridExprs[0] is 4 at every symbol's maximum, but grid[0] is 8");
  refuses([](Artifact &a) { a.exprs[2].terms[3] = cst(0); },
          "exprs[2] is invalid: it divides by 0");
  refuses(
      [](Artifact &a) {
        a.exprs[1] = Expr{{sym(0), cst(-100), op(ExprOp::Add)}};
      },
      "exprs[1] is -99");
  refuses(
      [](Artifact &a) {
        a.tensors[2].dimExprs = {7, -1};
      },
      "is expression 7, out of range");
  refuses([](Artifact &a) { a.tensors[2].dimExprs = {0}; },
          "1 dimension expressions for rank 2");
  refuses([](Artifact &a) { a.tensors[2].dims[0] = 3; },
          "dimension 0 is 3 but its extent is 4");
  refuses(
      [](Artifact &a) {
        a.exprs[0] = Expr{{sym(0), cst(1), op(ExprOp::Mul)}};
      },
      "an input's dimension is fixed or one symbol");
  refuses(
      [](Artifact &a) {
        for (uint32_t i : a.inputs)
          a.tensors[i].dimExprs.clear();
        for (uint32_t i : a.inputs)
          a.tensors[i].dims[0] = kSymbolicBatch;
      },
      "'batch' is no input's dimension");
  refuses([](Artifact &a) { a.launches[0].gridExprs[1] = 2; },
          "gridExprs[1] is 8 at every symbol's maximum, but grid[1] is 1");
  refuses([](Artifact &a) { a.launches[0].scalars = {4}; },
          "scalars[0] is expression 4, out of range");
  refuses([](Artifact &a) { a.kernels[0].bytesExpr = 4; },
          "kernels[0] 'brrr_test_add_n' bytes is expression 4, out of range");
  refuses([](Artifact &a) { a.kernels[0].flops = 100; },
          "kernels[0] 'brrr_test_add_n' counts 100 flops but its expression "
          "gives 256 at every symbol's maximum");
  auto refusesMap = [](void (*edit)(Artifact &), const std::string &part) {
    Artifact a = makeSymbolicTensorMapArtifact();
    edit(a);
    std::string why = rejection(a);
    EXPECT_TRUE(contains(why, part)) << why;
  };
  refusesMap([](Artifact &a) { a.launches[0].maps[1].dimExprs = {0}; },
             "maps[1] has 1 dimension expressions for rank 2");
  refusesMap(
      [](Artifact &a) {
        a.launches[0].maps[0].dimExprs = {-1, 9};
      },
      "maps[0].dimExprs[1] is expression 9, out of range");
  refusesMap([](Artifact &a) { a.launches[0].maps[0].dims[1] = 3; },
             "maps[0].dimExprs[1] is 4 at every symbol's maximum, but "
             "dims[1] is 3");
  // The largest map must stay inside its tensor, as a fixed one does.
  refusesMap(
      [](Artifact &a) {
        a.exprs.push_back(Expr{{sym(0), cst(2), op(ExprOp::Mul)}});
        a.launches[0].maps[0].dimExprs = {-1, int32_t(a.exprs.size() - 1)};
        a.launches[0].maps[0].dims[1] = 8;
      },
      "reaches 2048 bytes into tensors[0] 'x', which has 1024");
}

/// The symbolic model opened on the fake driver, which checks at the end
/// that closing it released every driver object (FakeDriverTest).
class ShapesTest : public FakeDriverTest {
protected:
  virtual Artifact artifact() { return makeSymbolicArtifact(); }
  void SetUp() override {
    FakeDriverTest::SetUp();
    openAndCreate(artifact());
  }

  brrr_status setBatch(int64_t batch, int64_t yBatch = -1) {
    int64_t x[2] = {batch, kSymbolicRow};
    int64_t y[2] = {yBatch == -1 ? batch : yBatch, kSymbolicRow};
    if (brrr_status s = brrr_context_set_input_shape(ctx, 0, x, 2))
      return s;
    return brrr_context_set_input_shape(ctx, 1, y, 2);
  }

  /// Runs at `batch` (set before) with fresh inputs and poisoned outputs
  /// of the largest size, and checks the first batch rows of each output
  /// and that nothing past them was written.
  void runAndCheck(int64_t batch, bool host, float seed = 1) {
    size_t largest = size_t(kSymbolicBatch * kSymbolicRow),
           n = size_t(batch * kSymbolicRow);
    std::vector<float> x(largest), y(largest), sum(largest, -7),
        xy(largest, -7);
    for (size_t i = 0; i < largest; ++i) {
      x[i] = seed * float(i % 13) - 5;
      y[i] = float(i % 3) + seed;
    }
    const void *in[2] = {x.data(), y.data()};
    void *out[2] = {sum.data(), xy.data()};
    brrr_status s =
        host ? brrr_run_host(ctx, in, out) : brrr_run(ctx, in, out, nullptr);
    ASSERT_EQ(s, BRRR_OK) << brrr_last_error();
    for (size_t i = 0; i < largest; ++i) {
      float t0 = x[i] + y[i];
      ASSERT_EQ(xy[i], i < n ? t0 : -7) << "xy[" << i << "] at batch " << batch;
      ASSERT_EQ(sum[i], i < n ? t0 + y[i] : -7)
          << "sum[" << i << "] at batch " << batch;
    }
  }
};

TEST_F(ShapesTest, SignatureShowsTheSymbols) {
  ASSERT_EQ(brrr_model_num_symbols(model), 1);
  brrr_symbol_info s;
  ASSERT_EQ(brrr_model_symbol(model, 0, &s), BRRR_OK);
  EXPECT_STREQ(s.name, "batch");
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, kSymbolicBatch);
  EXPECT_EQ(brrr_model_symbol(model, 1, &s), BRRR_ERROR_INVALID_ARGUMENT);
  brrr_tensor_info info;
  ASSERT_EQ(brrr_model_input(model, 1, &info), BRRR_OK);
  EXPECT_EQ(info.dims[0], -1);
  EXPECT_EQ(info.dims[1], kSymbolicRow);
  EXPECT_EQ(info.size_bytes, uint64_t(4 * kSymbolicBatch * kSymbolicRow));
  int32_t symbol = 7;
  ASSERT_EQ(brrr_model_input_symbol(model, 1, 0, &symbol), BRRR_OK);
  EXPECT_EQ(symbol, 0);
  ASSERT_EQ(brrr_model_input_symbol(model, 1, 1, &symbol), BRRR_OK);
  EXPECT_EQ(symbol, -1);
  EXPECT_EQ(brrr_model_input_symbol(model, 1, 2, &symbol),
            BRRR_ERROR_INVALID_ARGUMENT);
}

// A launch's work and traffic at the context's shapes; the model's plan
// keeps the largest shape's.
TEST_F(ShapesTest, LaunchesCountTheirWorkAtTheContextsShapes) {
  brrr_launch_info l{};
  EXPECT_EQ(brrr_context_launch(ctx, 0, &l), BRRR_ERROR_INVALID_SHAPE);
  EXPECT_TRUE(contains(brrr_last_error(), "brrr_context_launch: input 0 ('x') "
                                          "has a symbolic shape"))
      << brrr_last_error();
  for (int64_t batch : {3, 1, 4}) {
    ASSERT_EQ(setBatch(batch), BRRR_OK) << brrr_last_error();
    for (int32_t i : {0, 1}) {
      ASSERT_EQ(brrr_context_launch(ctx, i, &l), BRRR_OK) << brrr_last_error();
      EXPECT_STREQ(l.kernel, "brrr_test_add_n");
      EXPECT_EQ(l.flops, uint64_t(batch * kSymbolicRow)) << batch;
      EXPECT_EQ(l.bytes, uint64_t(batch * kSymbolicRow * 12)) << batch;
    }
  }
  ASSERT_EQ(brrr_model_launch(model, 0, &l), BRRR_OK);
  EXPECT_EQ(l.flops, uint64_t(kSymbolicBatch * kSymbolicRow));
  EXPECT_EQ(brrr_context_launch(ctx, 2, &l), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(brrr_last_error(), "launch index 2 is out of range"))
      << brrr_last_error();
  EXPECT_EQ(brrr_context_launch(ctx, 0, nullptr), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(brrr_context_launch(nullptr, 0, &l), BRRR_ERROR_INVALID_ARGUMENT);
}

// A model of fixed shapes: a context's launches are the model's.
class FixedShapesTest : public FakeDriverTest {};

TEST_F(FixedShapesTest, ContextLaunchesAreTheModels) {
  openAndCreate();
  for (int32_t i = 0; i < brrr_model_num_launches(model); ++i) {
    brrr_launch_info fromModel{}, fromContext{};
    ASSERT_EQ(brrr_model_launch(model, i, &fromModel), BRRR_OK);
    ASSERT_EQ(brrr_context_launch(ctx, i, &fromContext), BRRR_OK)
        << lastError();
    EXPECT_STREQ(fromContext.kernel, fromModel.kernel);
    EXPECT_EQ(fromContext.flops, fromModel.flops);
    EXPECT_EQ(fromContext.bytes, fromModel.bytes);
  }
}

TEST_F(ShapesTest, RunsAtEveryBatchInRange) {
  for (int64_t batch : {3, 1, 4, 2}) {
    ASSERT_EQ(setBatch(batch), BRRR_OK) << brrr_last_error();
    int64_t dims[2] = {-1, -1};
    uint64_t bytes = 0;
    ASSERT_EQ(brrr_context_output_shape(ctx, 1, dims, &bytes), BRRR_OK);
    EXPECT_EQ(dims[0], batch);
    EXPECT_EQ(dims[1], kSymbolicRow);
    EXPECT_EQ(bytes, uint64_t(4 * batch * kSymbolicRow));
    runAndCheck(batch, /*host=*/true, float(batch));
    // ceildiv(batch * 64, 32) blocks: the fake aborts on a grid too small.
    EXPECT_EQ(fakeStats().lastGrid[0], uint32_t(2 * batch));
  }
}

/// The symbolic model with its first kernel in two versions, each guarded
/// by a range of the batch: t0 = x + y up to 2 images, t0 = x + x from 3.
class GuardedShapesTest : public ShapesTest {
protected:
  Artifact artifact() override {
    Artifact a = makeSymbolicArtifact();
    Launch twice = a.launches[0];
    twice.args = {0, 0, 2};
    a.launches[0].guardExpr = twice.guardExpr = 0; // the batch
    a.launches[0].guardMin = 1;
    a.launches[0].guardMax = 2;
    twice.guardMin = 3;
    twice.guardMax = UINT64_MAX;
    a.launches.push_back(twice);
    a.steps.insert(a.steps.begin() + 1,
                   {Step::Kind::Launch, uint32_t(a.launches.size() - 1)});
    return a;
  }
};

TEST_F(GuardedShapesTest, EachShapeRunsTheLaunchItsGuardPicks) {
  for (int64_t batch : {3, 1, 4, 2, 3}) {
    ASSERT_EQ(setBatch(batch), BRRR_OK) << brrr_last_error();
    size_t n = size_t(batch * kSymbolicRow);
    std::vector<float> x(n), y(n), sum(n, -7), xy(n, -7);
    for (size_t i = 0; i < n; ++i) {
      x[i] = float(i % 13) - 5;
      y[i] = float(i % 3) + 1;
    }
    const void *in[2] = {x.data(), y.data()};
    void *out[2] = {sum.data(), xy.data()};
    ASSERT_EQ(brrr_run_host(ctx, in, out), BRRR_OK) << brrr_last_error();
    for (size_t i = 0; i < n; ++i) {
      float t0 = batch <= 2 ? x[i] + y[i] : x[i] + x[i];
      ASSERT_EQ(xy[i], t0) << "xy[" << i << "] at batch " << batch;
      ASSERT_EQ(sum[i], t0 + y[i]) << "sum[" << i << "] at batch " << batch;
    }
  }
}

TEST_F(GuardedShapesTest, ProfileTimesOnlyTheLaunchesMadeAtTheShapes) {
  size_t largest = size_t(kSymbolicBatch * kSymbolicRow);
  std::vector<float> x(largest, 1), y(largest, 2), sum(largest), xy(largest);
  const void *in[2] = {x.data(), y.data()};
  void *out[2] = {sum.data(), xy.data()};
  int32_t launches = brrr_model_num_launches(model);
  ASSERT_GE(launches, 2);
  for (int64_t batch : {1, 3, 2}) {
    ASSERT_EQ(setBatch(batch), BRRR_OK);
    std::vector<double> ms(size_t(launches), -7);
    ASSERT_EQ(brrr_profile(ctx, in, out, ms.data()), BRRR_OK)
        << brrr_last_error();
    // Launch 0 runs up to 2 images, its twin (the last) from 3; the others
    // always.
    if (batch <= 2) {
      EXPECT_GE(ms[0], 0) << batch;
      EXPECT_EQ(ms.back(), -1) << batch;
    } else {
      EXPECT_EQ(ms[0], -1) << batch;
      EXPECT_GE(ms.back(), 0) << batch;
    }
    for (int32_t i = 1; i + 1 < launches; ++i)
      EXPECT_GE(ms[size_t(i)], 0) << "launch " << i << " at " << batch;
  }
}

/// The symbolic model with both kernels programmatic under `mode`, on a
/// device of 4 multiprocessors: each grid is 2 * batch blocks.
template <brrr::artifact::Programmatic mode>
class ProgrammaticShapesTest : public ShapesTest {
protected:
  Artifact artifact() override {
    Artifact a = makeSymbolicArtifact();
    for (Launch &l : a.launches)
      l.programmatic = mode;
    return a;
  }
  ScopedEnv multiprocessors{"FAKE_CUDA_MULTIPROCESSORS", "4"};
};
using OneWaveShapesTest =
    ProgrammaticShapesTest<brrr::artifact::Programmatic::inOneWave>;
using FittingShapesTest =
    ProgrammaticShapesTest<brrr::artifact::Programmatic::fitting>;

// Up to 2 images both grids fit one wave and both kernels launch as
// programmatic dependents; from 3 neither does (the first's grid is above
// one wave, and the second follows it). Each shape's graph keeps its own.
TEST_F(OneWaveShapesTest, LaunchesEarlyWhereTheGridsAreOneWave) {
  int64_t launches = int64_t(makeSymbolicArtifact().launches.size());
  ASSERT_EQ(launches, 2);
  for (int64_t batch : {1, 3, 2, 4, 1, 3}) {
    ASSERT_EQ(setBatch(batch), BRRR_OK) << brrr_last_error();
    int64_t before = fakeStats().programmaticRun;
    runAndCheck(batch, /*host=*/true);
    EXPECT_EQ(fakeStats().programmaticRun - before, batch <= 2 ? launches : 0)
        << "at batch " << batch;
  }
}

// At 1 image the second kernel's 2 blocks fit beside the first's 2 and it
// launches early; from 2 images (4 blocks each) it does not. The first
// kernel follows no grid and never launches early.
TEST_F(FittingShapesTest, LaunchesEarlyWhereTheBlocksFitBesideTheGridAhead) {
  ASSERT_EQ(makeSymbolicArtifact().launches.size(), 2u);
  for (int64_t batch : {1, 2, 3, 1, 4, 2}) {
    ASSERT_EQ(setBatch(batch), BRRR_OK) << brrr_last_error();
    int64_t before = fakeStats().programmaticRun;
    runAndCheck(batch, /*host=*/true);
    EXPECT_EQ(fakeStats().programmaticRun - before, batch == 1 ? 1 : 0)
        << "at batch " << batch;
  }
}

TEST_F(ShapesTest, EachShapeCapturesOnceThenReplays) {
  for (int64_t batch : {1, 2, 1, 2, 2, 1}) {
    ASSERT_EQ(setBatch(batch), BRRR_OK);
    runAndCheck(batch, /*host=*/false);
  }
  FakeCudaStats s = fakeStats();
  // The buffers differ per run (fresh vectors), so a shape's graph is
  // updated in place; only the first run at each shape instantiates.
  EXPECT_EQ(s.instantiations, 2);
  EXPECT_EQ(s.graphLaunches, 6);
  EXPECT_EQ(s.liveExecs - baseline.liveExecs, 2);
}

TEST_F(ShapesTest, ReplaysAtCachedShapesWithTheSameBuffers) {
  size_t largest = size_t(kSymbolicBatch * kSymbolicRow);
  std::vector<float> x(largest), y(largest), sum(largest), xy(largest);
  const void *in[2] = {x.data(), y.data()};
  void *out[2] = {sum.data(), xy.data()};
  for (int64_t batch : {1, 3, 1, 3, 3, 1}) {
    for (size_t i = 0; i < largest; ++i) {
      x[i] = float(i % 11) + float(batch);
      y[i] = float(i % 5);
    }
    std::fill(sum.begin(), sum.end(), -7.0f);
    ASSERT_EQ(setBatch(batch), BRRR_OK);
    ASSERT_EQ(brrr_run(ctx, in, out, nullptr), BRRR_OK) << brrr_last_error();
    size_t n = size_t(batch * kSymbolicRow);
    for (size_t i = 0; i < largest; ++i)
      ASSERT_EQ(sum[i], i < n ? x[i] + 2 * y[i] : -7) << i << " at " << batch;
  }
  FakeCudaStats s = fakeStats();
  EXPECT_EQ(s.captures, 2);
  EXPECT_EQ(s.instantiations, 2);
  EXPECT_EQ(s.graphLaunches, 6);
}

TEST_F(ShapesTest, TheCacheKeepsTheMostRecentShapes) {
  ASSERT_EQ(brrr_context_set_graph_cache(ctx, 0), BRRR_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(brrr_context_set_graph_cache(ctx, 2), BRRR_OK);
  for (int64_t batch : {1, 2, 3, 1}) {
    ASSERT_EQ(setBatch(batch), BRRR_OK);
    runAndCheck(batch, /*host=*/true);
  }
  FakeCudaStats s = fakeStats();
  // 3 evicted 1, so 1 was captured again.
  EXPECT_EQ(s.instantiations, 4);
  EXPECT_EQ(s.liveExecs - baseline.liveExecs, 2);
  ASSERT_EQ(brrr_context_set_graph_cache(ctx, 1), BRRR_OK);
  EXPECT_EQ(fakeStats().liveExecs - baseline.liveExecs, 1);
  // The graph kept is the last run's: running it again captures nothing.
  runAndCheck(1, /*host=*/true);
  EXPECT_EQ(fakeStats().instantiations, 4);
}

TEST_F(ShapesTest, ShapesOutsideTheRangeAreRefusedAndTheContextGoesOn) {
  ASSERT_EQ(setBatch(2), BRRR_OK);
  runAndCheck(2, /*host=*/true);
  int64_t launches = fakeStats().launches;

  int64_t big[2] = {kSymbolicBatch + 1, kSymbolicRow};
  EXPECT_EQ(brrr_context_set_input_shape(ctx, 0, big, 2),
            BRRR_ERROR_INVALID_SHAPE);
  std::string why = brrr_last_error();
  EXPECT_TRUE(contains(why, "input 0 ('x') dimension 0 is 5 in shape [5, 64], "
                            "outside the range of symbol 'batch', 1..4"))
      << why;
  int64_t zero[2] = {0, kSymbolicRow};
  EXPECT_EQ(brrr_context_set_input_shape(ctx, 0, zero, 2),
            BRRR_ERROR_INVALID_SHAPE);
  int64_t wrongFixed[2] = {2, 63};
  EXPECT_EQ(brrr_context_set_input_shape(ctx, 1, wrongFixed, 2),
            BRRR_ERROR_INVALID_SHAPE);
  why = brrr_last_error();
  EXPECT_TRUE(contains(why, "input 1 ('y') dimension 1 is 63 in shape [2, 63], "
                            "but the model fixes it at 64"))
      << why;
  EXPECT_EQ(brrr_context_set_input_shape(ctx, 1, wrongFixed, 1),
            BRRR_ERROR_INVALID_SHAPE);
  EXPECT_TRUE(contains(brrr_last_error(), "has rank 2, not 1"));
  EXPECT_EQ(brrr_context_set_input_shape(ctx, 1, nullptr, 2),
            BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(fakeStats().launches, launches) << "a refusal launched something";
  // The context kept batch 2.
  runAndCheck(2, /*host=*/true);
}

TEST_F(ShapesTest, InputsSharingASymbolMustAgree) {
  ASSERT_EQ(setBatch(2, 3), BRRR_OK);
  int64_t launches = fakeStats().launches;
  std::vector<float> x(256), y(256), sum(256), xy(256);
  const void *in[2] = {x.data(), y.data()};
  void *out[2] = {sum.data(), xy.data()};
  EXPECT_EQ(brrr_run(ctx, in, out, nullptr), BRRR_ERROR_INVALID_SHAPE);
  std::string why = brrr_last_error();
  EXPECT_TRUE(contains(why, "brrr_run: input 1 ('y') dimension 0 is 3, but it "
                            "is symbol 'batch', which input 0 ('x') sets to 2"))
      << why;
  EXPECT_EQ(brrr_context_output_shape(ctx, 0, nullptr, nullptr),
            BRRR_ERROR_INVALID_SHAPE);
  EXPECT_EQ(fakeStats().launches, launches);
  ASSERT_EQ(setBatch(3), BRRR_OK);
  runAndCheck(3, /*host=*/false);
}

TEST_F(ShapesTest, ASymbolicInputMustBeSetBeforeTheFirstRun) {
  std::vector<float> x(256), y(256), sum(256), xy(256);
  const void *in[2] = {x.data(), y.data()};
  void *out[2] = {sum.data(), xy.data()};
  EXPECT_EQ(brrr_run_host(ctx, in, out), BRRR_ERROR_INVALID_SHAPE);
  std::string why = brrr_last_error();
  EXPECT_TRUE(contains(why, "input 0 ('x') has a symbolic shape (dimension 0 "
                            "is 'batch', 1..4); set its shape with "
                            "brrr_context_set_input_shape"))
      << why;
  EXPECT_EQ(fakeStats().launches, 0);
}

TEST_F(ShapesTest, ProfileRunsAtTheContextsShape) {
  ASSERT_EQ(setBatch(3), BRRR_OK);
  std::vector<float> x(256, 1), y(256, 2), sum(256, -7), xy(256, -7);
  const void *in[2] = {x.data(), y.data()};
  void *out[2] = {sum.data(), xy.data()};
  double ms[2] = {-1, -1};
  ASSERT_EQ(brrr_profile(ctx, in, out, ms), BRRR_OK) << brrr_last_error();
  EXPECT_EQ(fakeStats().lastGrid[0], 6u);
  EXPECT_EQ(sum[3 * 64 - 1], 5);
  EXPECT_EQ(sum[3 * 64], -7);
  EXPECT_GE(ms[0], 0);
}

class ShapedTensorMapsTest : public ShapesTest {
protected:
  Artifact artifact() override { return makeSymbolicTensorMapArtifact(); }
};

TEST_F(ShapedTensorMapsTest, MapsAreEncodedAtEachShape) {
  // The same buffers throughout: the maps over them move only with the
  // shape, and each shape's graph holds its own.
  size_t largest = size_t(kSymbolicBatch * kSymbolicRow);
  std::vector<float> x(largest), y(largest), sum(largest), xy(largest);
  const void *in[2] = {x.data(), y.data()};
  void *out[2] = {sum.data(), xy.data()};
  std::set<int64_t> seen;
  for (int64_t batch : {3, 1, 4, 1, 3}) {
    for (size_t i = 0; i < largest; ++i) {
      x[i] = float(i % 13) - float(batch);
      y[i] = float(i % 7);
    }
    std::fill(xy.begin(), xy.end(), -7.0f);
    ASSERT_EQ(setBatch(batch), BRRR_OK);
    ASSERT_EQ(brrr_run(ctx, in, out, nullptr), BRRR_OK) << brrr_last_error();
    size_t n = size_t(batch * kSymbolicRow);
    for (size_t i = 0; i < largest; ++i)
      ASSERT_EQ(xy[i], i < n ? x[i] + y[i] : -7) << i << " at " << batch;
    // A new shape's capture launched the maps it encoded (a replay
    // launches nothing the fake records).
    if (seen.insert(batch).second) {
      FakeCudaStats s = fakeStats();
      EXPECT_EQ(s.lastLaunchMaps[0].dims[0], uint64_t(kSymbolicRow));
      EXPECT_EQ(s.lastLaunchMaps[0].dims[1], uint64_t(batch));
      EXPECT_EQ(s.lastLaunchMaps[1].dims[1], uint64_t(batch));
    }
  }
  EXPECT_EQ(fakeStats().instantiations, 3);
}

// The C++ wrapper over the same calls: symbols, shapes, refusals.
TEST(ShapesCppTest, WrapperSetsShapesAndReportsRefusals) {
  ScopedEnv library("BRRR_CUDA_LIBRARY", BRRR_FAKE_CUDA_PATH);
  std::vector<uint8_t> image = serialize(makeSymbolicArtifact());
  auto model = brrr::Model::openArtifact(image.data(), image.size(), 0);
  ASSERT_TRUE(model) << model.error().message;
  std::vector<brrr_symbol_info> symbols = model->symbols();
  ASSERT_EQ(symbols.size(), 1u);
  EXPECT_STREQ(symbols[0].name, "batch");
  EXPECT_EQ(symbols[0].max, kSymbolicBatch);
  auto ctx = model->createContext();
  ASSERT_TRUE(ctx) << ctx.error().message;
  EXPECT_FALSE(ctx->setGraphCache(2));
  brrr::Error e = ctx->setInputShape(0, {kSymbolicBatch + 3, kSymbolicRow});
  EXPECT_EQ(e.status, BRRR_ERROR_INVALID_SHAPE);
  EXPECT_TRUE(contains(e.message, "outside the range of symbol 'batch', 1..4"))
      << e.message;
  ASSERT_FALSE(ctx->setInputShape(0, {2, kSymbolicRow}));
  ASSERT_FALSE(ctx->setInputShape(1, {2, kSymbolicRow}));
  auto shape = ctx->outputShape(1);
  ASSERT_TRUE(shape) << shape.error().message;
  EXPECT_EQ(*shape, (std::vector<int64_t>{2, kSymbolicRow}));
  auto launches = ctx->launches();
  ASSERT_TRUE(launches) << launches.error().message;
  ASSERT_EQ(launches->size(), 2u);
  EXPECT_EQ((*launches)[1].bytes, uint64_t(2 * kSymbolicRow * 12));
  std::vector<float> x(2 * kSymbolicRow, 1), y(2 * kSymbolicRow, 2),
      sum(2 * kSymbolicRow), xy(2 * kSymbolicRow);
  ASSERT_FALSE(ctx->runHost({x.data(), y.data()}, {sum.data(), xy.data()}));
  EXPECT_EQ(sum[2 * kSymbolicRow - 1], 5);
  EXPECT_EQ(xy[0], 3);
}

} // namespace

/// The symbolic model with a third output of extent batch - 1 (`x[1:]`),
/// which nothing writes: empty at batch 1.
class EmptyOutputTest : public ShapesTest {
protected:
  Artifact artifact() override {
    Artifact a = makeSymbolicArtifact();
    a.exprs.push_back(
        Expr{{{ExprOp::Symbol, 0}, {ExprOp::Constant, -1}, {ExprOp::Add, 0}}});
    Tensor rest = a.tensors[3];
    rest.name = "rest";
    rest.index = 2;
    rest.dims = {kSymbolicBatch - 1, kSymbolicRow};
    rest.bytes = uint64_t(4 * (kSymbolicBatch - 1) * kSymbolicRow);
    rest.dimExprs = {int32_t(a.exprs.size() - 1), -1};
    a.tensors.push_back(rest);
    a.outputs.push_back(uint32_t(a.tensors.size() - 1));
    return a;
  }
};

TEST_F(EmptyOutputTest, AnOutputEmptyAtTheseShapesMayBeNull) {
  size_t largest = size_t(kSymbolicBatch * kSymbolicRow);
  std::vector<float> x(largest, 1), y(largest, 2), sum(largest), xy(largest),
      rest(largest, -7);
  const void *in[2] = {x.data(), y.data()};
  void *out[3] = {sum.data(), xy.data(), nullptr};
  ASSERT_EQ(setBatch(1), BRRR_OK) << brrr_last_error();
  uint64_t bytes = 1;
  ASSERT_EQ(brrr_context_output_shape(ctx, 2, nullptr, &bytes), BRRR_OK);
  EXPECT_EQ(bytes, 0u);
  ASSERT_EQ(brrr_run(ctx, in, out, nullptr), BRRR_OK) << brrr_last_error();
  EXPECT_EQ(xy[0], 3.0f);
  ASSERT_EQ(brrr_run_host(ctx, in, out), BRRR_OK) << brrr_last_error();
  // At batch 2 it holds a row: null is refused, by name.
  ASSERT_EQ(setBatch(2), BRRR_OK) << brrr_last_error();
  EXPECT_EQ(brrr_run(ctx, in, out, nullptr), BRRR_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(brrr_last_error(), "output 2 ('rest') is null"))
      << brrr_last_error();
  out[2] = rest.data();
  EXPECT_EQ(brrr_run_host(ctx, in, out), BRRR_OK) << brrr_last_error();
}
