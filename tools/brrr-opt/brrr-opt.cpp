//===- brrr-opt.cpp - brrr's mlir-opt -----------------------------------===//
//
// The pass driver for lit tests: MlirOptMain with the brrr dialect, the
// upstream dialects brrr IR is embedded in and lowers to, the brrr passes
// and the generic passes (canonicalize, cse) that brrr tests use.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "dialects/Brrr/BrrrOps.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  mlir::brrr::registerBrrrPasses();
  mlir::brrr::registerBrrrCodeGenPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::brrr::BrrrDialect, mlir::func::FuncDialect>();
  mlir::brrr::registerCodeGenDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "brrr optimizer driver\n", registry));
}
