//===- BroadcastIndexTest.cpp - IndexMath::broadcastIndex -----------------===//
//
// The index arithmetic every epilogue and pointwise read uses to find the
// input element that broadcasts to an output element: built as arith ops,
// then evaluated here at every element of several shapes and checked
// against numpy's broadcasting rule, from the linear index alone and from
// its row and column.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/KernelUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <functional>

using namespace mlir;

namespace {

/// The value of `v` when the values in `bound` are given: the arith ops
/// IndexMath builds (constants, additions, products, unsigned quotients and
/// remainders), or -1 for anything else.
int64_t evaluate(Value v, const DenseMap<Value, int64_t> &bound) {
  if (auto it = bound.find(v); it != bound.end())
    return it->second;
  Operation *op = v.getDefiningOp();
  if (!op)
    return -1;
  if (auto c = dyn_cast<arith::ConstantIndexOp>(op))
    return c.value();
  auto both = [&](auto f) {
    return f(evaluate(op->getOperand(0), bound),
             evaluate(op->getOperand(1), bound));
  };
  if (isa<arith::AddIOp>(op))
    return both([](int64_t x, int64_t y) { return x + y; });
  if (isa<arith::MulIOp>(op))
    return both([](int64_t x, int64_t y) { return x * y; });
  if (isa<arith::DivUIOp>(op))
    return both([](int64_t x, int64_t y) { return x / y; });
  if (isa<arith::RemUIOp>(op))
    return both([](int64_t x, int64_t y) { return x % y; });
  return -1;
}

/// The numpy broadcast: element `linear` of `out` reads the input at the
/// output's coordinates, 0 where the input has extent 1 (right-aligned).
int64_t reference(int64_t linear, ArrayRef<int64_t> out, ArrayRef<int64_t> in) {
  int64_t index = 0, inStride = 1, rest = linear;
  SmallVector<int64_t> coords(out.size());
  for (int64_t d = out.size() - 1; d >= 0; --d) {
    coords[d] = rest % out[d];
    rest /= out[d];
  }
  int64_t offset = out.size() - in.size();
  for (int64_t d = in.size() - 1; d >= 0; --d) {
    if (in[d] != 1)
      index += coords[d + offset] * inStride;
    inStride *= in[d];
  }
  return index;
}

struct Case {
  SmallVector<int64_t> out, in;
};

class BroadcastIndexTest : public ::testing::Test {
protected:
  BroadcastIndexTest() {
    ctx.loadDialect<arith::ArithDialect>();
    module = ModuleOp::create(UnknownLoc::get(&ctx));
    b.setInsertionPointToStart(module->getBody());
    // Three opaque index values to bind: linear, row and column.
    for (int i = 0; i < 3; ++i)
      vars.push_back(arith::ConstantIndexOp::create(b, b.getUnknownLoc(), -1));
  }

  /// Every element of `c`'s output, from the linear index and from its row
  /// and column; returns the ops the split form built (its cost).
  void check(const Case &c) {
    mlir::brrr::IndexMath e{b, b.getUnknownLoc()};
    Value plain = e.broadcastIndex(vars[0], c.out, c.in);
    Value split = e.broadcastIndex(vars[0], c.out, c.in, vars[1], vars[2]);
    int64_t total = 1;
    for (int64_t d : c.out)
      total *= d;
    int64_t n = c.out.back();
    for (int64_t linear = 0; linear < total; ++linear) {
      DenseMap<Value, int64_t> bound = {
          {vars[0], linear}, {vars[1], linear / n}, {vars[2], linear % n}};
      int64_t want = reference(linear, c.out, c.in);
      ASSERT_EQ(evaluate(plain, bound), want) << "element " << linear;
      ASSERT_EQ(evaluate(split, bound), want) << "element " << linear;
    }
  }

  /// Whether `v`'s computation divides (a quotient or a remainder).
  bool divides(Value v) {
    Operation *op = v.getDefiningOp();
    if (!op || isa<arith::ConstantIndexOp>(op))
      return false;
    if (isa<arith::DivUIOp, arith::RemUIOp>(op))
      return true;
    return llvm::any_of(op->getOperands(),
                        [&](Value x) { return divides(x); });
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  OpBuilder b{&ctx};
  SmallVector<Value> vars;
};

TEST_F(BroadcastIndexTest, MatchesNumpyBroadcasting) {
  const Case cases[] = {
      {{6, 10}, {10}},          // a bias along the rows
      {{6, 10}, {6, 10}},       // a residual
      {{6, 10}, {6, 1}},        // a per-row scale
      {{4, 3, 10}, {3, 10}},    // kept runs spanning the last dimension
      {{4, 3, 10}, {4, 1, 10}}, // kept, broadcast, kept
      {{4, 3, 10}, {1, 3, 1}},  // a middle dimension only
      {{2, 1, 3, 5}, {3, 1}},   // extents of 1 on both sides
      {{7, 9}, {1}},            // a scalar
      {{3, 5, 1}, {5, 1}},      // a last dimension of 1
  };
  for (const Case &c : cases)
    check(c);
}

TEST_F(BroadcastIndexTest, RowAndColumnNeedNoDivision) {
  mlir::brrr::IndexMath e{b, b.getUnknownLoc()};
  // A bias is read at the column; a residual at the linear index itself.
  SmallVector<int64_t> out = {16384, 3072};
  EXPECT_EQ(e.broadcastIndex(vars[0], out, {3072}, vars[1], vars[2]), vars[2]);
  EXPECT_EQ(e.broadcastIndex(vars[0], out, out, vars[1], vars[2]), vars[0]);
  EXPECT_FALSE(
      divides(e.broadcastIndex(vars[0], out, {16384, 1}, vars[1], vars[2])));
  // From the linear index alone, the bias's column is a remainder.
  EXPECT_TRUE(divides(e.broadcastIndex(vars[0], out, {3072})));
}

} // namespace
