//===- OutlineKernels.cpp - brrr.fusion -> gpu.func ----------------------===//
//
// The pass that starts code generation (flag brrr-outline-kernels): one
// kernel per fusion, from the fusion's kernel family, in a single
// `gpu.module @brrr_kernels`; the launch shape and roofline data are
// attributes on the fusion for the artifact writer and reports.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRROUTLINEKERNELS
#include "compiler/CodeGen/CodeGenPasses.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Starts kernel `func` with its programmatic-launch prologue: it lets the
/// next kernel launch at once, then waits for the grid before it to finish
/// and its writes to be visible, ahead of everything it does.
void beginWithGridDependency(gpu::GPUFuncOp func) {
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  Location loc = func.getLoc();
  NVVM::GriddepcontrolOp::create(b, loc,
                                 NVVM::GridDepActionKind::launch_dependents);
  NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
}

struct OutlineKernelsPass
    : public mlir::brrr::impl::BrrrOutlineKernelsBase<OutlineKernelsPass> {
  using BrrrOutlineKernelsBase::BrrrOutlineKernelsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main) {
      module.emitError("no func.func @main to generate kernels for");
      return signalPassFailure();
    }
    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    auto kernels =
        gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModuleName);
    OpBuilder kb = OpBuilder::atBlockBegin(kernels.getBody());
    // griddepcontrol needs sm_90.
    bool programmatic = programmaticLaunch && targetOf(main) == "sm_90a";

    unsigned index = 0;
    WalkResult walk = main.walk([&](FusionOp fusion) {
      std::string name = "fusion_" + std::to_string(index++);
      FailureOr<KernelInfo> info = failure();
      if (fusion.getKind() == "pointwise")
        info = emitPointwiseKernel(fusion, kb, name);
      else if (fusion.getKind() == "row")
        info = emitRowKernel(fusion, kb, name);
      else if (fusion.getKind() == "reduce")
        info = emitReduceKernel(fusion, kb, name);
      else if (fusion.getKind() == "movement")
        info = emitMovementKernel(fusion, kb, name);
      else if (fusion.getKind() == "matmul")
        info = emitMatmulKernel(fusion, kb, name);
      else if (fusion.getKind() == "attention")
        info = emitAttentionKernel(fusion, kb, name);
      else if (fusion.getKind() == "conv")
        info = emitConvKernel(fusion, kb, name);
      else if (fusion.getKind() == "pool")
        info = emitPoolKernel(fusion, kb, name);
      else
        return WalkResult(fusion.emitOpError("kernel family '")
                          << fusion.getKind() << "' has no code generator");
      if (failed(info))
        return WalkResult::interrupt();
      fusion->setAttr("brrr.kernel", b.getStringAttr(info->name));
      fusion->setAttr("brrr.grid", b.getDenseI64ArrayAttr(
                                       {info->grid, info->gridY, info->gridZ}));
      fusion->setAttr("brrr.block",
                      b.getDenseI64ArrayAttr({info->block, 1, 1}));
      fusion->setAttr("brrr.flops", b.getI64IntegerAttr(info->flops));
      fusion->setAttr("brrr.bytes", b.getI64IntegerAttr(info->bytes));
      if (info->tensorMaps)
        fusion->setAttr("brrr.tensor_maps", info->tensorMaps);
      if (programmatic) {
        beginWithGridDependency(
            kernels.lookupSymbol<gpu::GPUFuncOp>(info->name));
        fusion->setAttr("brrr.programmatic", b.getUnitAttr());
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
  }
};

} // namespace
