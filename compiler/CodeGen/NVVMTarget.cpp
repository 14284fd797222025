//===- NVVMTarget.cpp - kernel gpu.module -> PTX and cubin ---------------===//
//
// The last compiler stage before the artifact: upstream MLIR lowers the
// kernel module (scf -> cf, gpu/arith/math -> NVVM + LLVM, libdevice for
// math functions) and serializes it with LLVM's NVPTX back end to PTX, and
// that PTX with ptxas to cubin. The target chip and PTX version come from
// the `#brrr.target` it is given.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::brrr;

void mlir::brrr::registerCodeGenDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                  math::MathDialect, NVVM::NVVMDialect, scf::SCFDialect>();
  // convert-gpu-to-nvvm lowers the other dialects through these interfaces.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

namespace {
/// Makes the parameters a kernel lists in `brrr.by_value` (TMA tensor maps,
/// 128 bytes each) by-value `nvvm.grid_constant` parameters: NVPTX then
/// leaves them in parameter space and hands the kernel their address. Both
/// marks are only legal (and only survive) on the lowered llvm.func.
struct MarkGridConstants
    : PassWrapper<MarkGridConstants, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MarkGridConstants)
  StringRef getArgument() const override { return "brrr-mark-grid-constants"; }
  void runOnOperation() override {
    getOperation().walk([](LLVM::LLVMFuncOp func) {
      auto byValue = func->getAttrOfType<DenseI32ArrayAttr>(kByValueAttrName);
      if (!byValue)
        return;
      MLIRContext *ctx = func.getContext();
      auto bytes = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 128);
      for (int32_t i : byValue.asArrayRef()) {
        func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(bytes));
        func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                        UnitAttr::get(ctx));
      }
      func->removeAttr(kByValueAttrName);
    });
  }
};
std::unique_ptr<Pass> createMarkGridConstants() {
  return std::make_unique<MarkGridConstants>();
}
} // namespace

/// Lowers a copy of the kernel module and serializes it once: LLVM's NVPTX
/// back end writes the PTX, which `keepPtx` receives, and with `withCubin`
/// ptxas (given `ptxasOptions`) turns that same text into the cubin
/// returned. Serializing to PTX and to cubin separately ran the back end
/// twice, a quarter of the compile time of a CNN.
static FailureOr<std::string> serialize(ModuleOp module, TargetAttr target,
                                        StringRef cudaPath, bool withCubin,
                                        StringRef ptxasOptions,
                                        std::string &keepPtx,
                                        TimingScope *timing) {
  TimingScope stage;
  if (timing)
    stage = timing->nest("lower to LLVM");
  auto kernels = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
  if (!kernels)
    return module.emitError("no gpu.module @") << kKernelModuleName;
  OwningOpRef<ModuleOp> copy = ModuleOp::create(module.getLoc());
  (*copy)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                   UnitAttr::get(module.getContext()));
  copy->getBody()->push_back(kernels->clone());

  PassManager pm(module.getContext());
  GpuNVVMAttachTargetOptions attach;
  attach.chip = target.getChip().str();
  attach.features = "+ptx80";
  attach.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(attach));
  OpPassManager &gpm = pm.nest<gpu::GPUModuleOp>();
  gpm.addPass(createSCFToControlFlowPass());
  gpm.addPass(createConvertGpuOpsToNVVMOps());
  // NVVM ops without an LLVM intrinsic (wgmma.mma_async, mbarrier waits)
  // become inline PTX.
  gpm.addPass(createConvertNVVMToLLVMPass());
  gpm.addPass(createMarkGridConstants());
  gpm.addPass(createCanonicalizerPass());
  gpm.addPass(createReconcileUnrealizedCastsPass());
  if (failed(pm.run(*copy)))
    return failure();
  if (timing)
    stage = timing->nest("LLVM NVPTX back end");

  std::optional<SymbolTable> symbols;
  auto symbolTable = [&]() -> SymbolTable * {
    if (!symbols)
      symbols.emplace(*copy);
    return &*symbols;
  };
  auto ptx = [&](StringRef text) {
    keepPtx = text.str();
    if (timing && withCubin)
      stage = timing->nest("ptxas");
  };
  gpu::TargetOptions options(
      cudaPath, /*librariesToLink=*/{}, ptxasOptions, /*elfSection=*/{},
      withCubin ? gpu::CompilationTarget::Binary
                : gpu::CompilationTarget::Assembly,
      symbolTable, /*initialLlvmIRCallback=*/{}, /*linkedLlvmIRCallback=*/{},
      /*optimizedLlvmIRCallback=*/{}, ptx);
  if (failed(gpu::transformGpuModulesToBinaries(*copy, nullptr, options)))
    return failure();
  stage.stop();
  auto binary = copy->lookupSymbol<gpu::BinaryOp>(kKernelModuleName);
  if (!binary || binary.getObjects().size() != 1 || keepPtx.empty())
    return module.emitError("kernel serialization produced no object");
  auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
  return object.getObject().getValue().str();
}

/// The ptxas that MLIR's serializer runs (`cudaPath`/bin/ptxas, else ptxas
/// on PATH), or an error saying where it looked.
static FailureOr<std::string> findPtxas(ModuleOp module, StringRef cudaPath) {
  SmallString<256> ptxas(cudaPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (llvm::sys::fs::can_execute(ptxas))
    return std::string(ptxas);
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  return emitError(module.getLoc(), "ptxas was not found at '")
         << ptxas
         << "' nor on PATH: install the CUDA toolkit and point --cuda-path "
            "(or CUDA_HOME) at it, or pass --no-cubin to leave PTX for the "
            "driver to compile when the model is loaded";
}

/// Whether `ptxas` takes -split-compile: the ptxas versions that have it
/// list it in their --help, and older ones would reject it.
static bool splitsCompile(StringRef ptxas) {
  SmallString<128> help;
  if (llvm::sys::fs::createTemporaryFile("brrr-ptxas-help", "txt", help))
    return false;
  auto remove = llvm::make_scope_exit([&] { llvm::sys::fs::remove(help); });
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(help),
                                          StringRef(help)};
  if (llvm::sys::ExecuteAndWait(ptxas, {ptxas, "--help"}, std::nullopt,
                                redirects) != 0)
    return false;
  auto text = llvm::MemoryBuffer::getFile(help);
  return text && (*text)->getBuffer().contains("--split-compile");
}

FailureOr<CompiledKernels> mlir::brrr::compileKernels(ModuleOp module,
                                                      TargetAttr target,
                                                      StringRef cudaPath,
                                                      bool withCubin,
                                                      TimingScope *timing) {
  std::string ptxasOptions;
  if (withCubin) {
    auto ptxas = findPtxas(module, cudaPath);
    if (failed(ptxas))
      return failure();
    // Every CPU optimizes kernels in parallel: the code is the same as on
    // one thread (the cubins of ConvNeXt-T differ only in the note that
    // records ptxas's command line).
    if (splitsCompile(*ptxas))
      ptxasOptions = "-split-compile 0";
  }
  CompiledKernels out;
  auto object = serialize(module, target, cudaPath, withCubin, ptxasOptions,
                          out.ptx, timing);
  if (failed(object))
    return failure();
  if (withCubin)
    out.cubin.assign(object->begin(), object->end());
  return out;
}
