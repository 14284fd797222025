//===- CodeGenPasses.td - brrr code generation passes ---------*- tablegen -*-===//

#ifndef BRRR_CODEGEN_PASSES_TD
#define BRRR_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def BrrrOutlineKernels : Pass<"brrr-outline-kernels", "ModuleOp"> {
  let summary = "Generate one gpu.func per brrr.fusion";
  let description = [{
    Creates the `gpu.module @brrr_kernels` of the module and, for every
    `brrr.fusion` of `@main` in program order, a kernel from the fusion's
    kernel family. The fusion records what the launch plan needs:
    `brrr.kernel` (the gpu.func name), `brrr.grid` and `brrr.block`
    (x, y, z), and the roofline data `brrr.flops` and `brrr.bytes`.
    A fusion whose family has no generator is an error on that fusion.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect"
  ];
}

#endif // BRRR_CODEGEN_PASSES_TD
