//===- TargetTest.cpp - the known chips of #brrr.target ------------------===//
//
// The table `brrrc --target` resolves once, the facts passes read from it,
// and what a module without a target gets.
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::brrr;

namespace {

class TargetTest : public ::testing::Test {
protected:
  TargetTest() { context.loadDialect<BrrrDialect>(); }
  MLIRContext context;
};

TEST_F(TargetTest, HopperHasTheWgmmaBodyAndItsFeatures) {
  FailureOr<TargetAttr> t = TargetAttr::known(&context, "sm_90a");
  ASSERT_TRUE(succeeded(t));
  EXPECT_EQ(t->getChip(), "sm_90a");
  EXPECT_EQ(t->getCapability(), 90);
  EXPECT_EQ(t->getMultiprocessors(), 132);
  EXPECT_EQ(t->getSharedPerBlock(), 227 * 1024);
  EXPECT_EQ(t->getSharedPerMultiprocessor(), 228 * 1024);
  EXPECT_TRUE(t->hasWgmma());
  EXPECT_TRUE(t->has(TargetFeature::arch_specific));
  EXPECT_TRUE(t->has(TargetFeature::clusters));
  EXPECT_TRUE(t->has(TargetFeature::grid_dependency));
}

TEST_F(TargetTest, AmpereRunsMmaSyncWithoutHopperFeatures) {
  FailureOr<TargetAttr> t = TargetAttr::known(&context, "sm_80");
  ASSERT_TRUE(succeeded(t));
  EXPECT_EQ(t->getCapability(), 80);
  EXPECT_EQ(t->getMultiprocessors(), 108);
  EXPECT_EQ(t->getSharedPerBlock(), 163 * 1024);
  EXPECT_FALSE(t->hasWgmma());
  EXPECT_TRUE(t->getFeatures().empty());
}

TEST_F(TargetTest, UnknownChipIsRefused) {
  EXPECT_TRUE(failed(TargetAttr::known(&context, "sm_90")));
  EXPECT_TRUE(failed(TargetAttr::known(&context, "")));
}

TEST_F(TargetTest, KnownNamesListTheTable) {
  EXPECT_EQ(TargetAttr::knownNames(), "sm_90a, sm_80");
}

TEST_F(TargetTest, ModuleWithoutTargetIsUntargeted) {
  OpBuilder b(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  TargetAttr t = targetOf(*module);
  EXPECT_EQ(t, TargetAttr::untargeted(&context));
  EXPECT_TRUE(t.getChip().empty());
  EXPECT_EQ(t.getSharedPerBlock(), 48 * 1024);
  EXPECT_EQ(t.getMultiprocessors(), 108);
  EXPECT_FALSE(t.hasWgmma());
}

TEST_F(TargetTest, ModuleTargetIsRead) {
  OpBuilder b(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  TargetAttr hopper = *TargetAttr::known(&context, "sm_90a");
  (*module)->setAttr(kTargetAttrName, hopper);
  EXPECT_EQ(targetOf(*module), hopper);
}

} // namespace
