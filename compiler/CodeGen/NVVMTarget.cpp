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
#include "mlir/IR/Threading.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

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

/// The PTX that LLVM's NVPTX back end writes for a whole module, from the
/// PTX it wrote for `parts`, copies of the module that each define a run of
/// its kernels (in order; `firstIndex[i]` is the module index of part i's
/// first kernel): the header, every part's module-scope declarations once
/// in the module's order of its globals (`globals`), then the kernels,
/// their block labels and local depots renumbered by module index. Nothing
/// if the parts do not have that form (a header that differs, one name
/// declared two ways, a declaration of no global): the caller then writes
/// the module whole.
static std::optional<std::string> mergePtx(ArrayRef<std::string> parts,
                                           ArrayRef<unsigned> firstIndex,
                                           ArrayRef<StringRef> globals) {
  static const llvm::Regex numbered("(\\$L__BB|__local_depot)([0-9]+)");
  std::string header, bodies;
  bool blankAfterDecls = false;
  llvm::StringMap<std::string> declared;
  for (auto [i, text] : llvm::enumerate(parts)) {
    SmallVector<StringRef> lines;
    StringRef(text).split(lines, '\n');
    size_t globl = 0;
    while (globl < lines.size() && !lines[globl].starts_with("\t// .globl\t"))
      ++globl;
    size_t entry = globl;
    while (entry < lines.size() && !lines[entry].starts_with(".visible .entry"))
      ++entry;
    if (entry == lines.size())
      return std::nullopt;
    std::string partHeader;
    for (StringRef l : ArrayRef(lines).take_front(globl))
      partHeader += (l + "\n").str();
    if (i == 0)
      header = partHeader + (lines[globl] + "\n").str();
    else if (partHeader != header.substr(0, partHeader.size()))
      return std::nullopt;
    for (StringRef line : ArrayRef(lines).slice(globl + 1, entry - globl - 1)) {
      StringRef l = line;
      if (l.empty()) {
        blankAfterDecls |= i == 0;
        continue;
      }
      // The global a line declares (the last word before any [size] or
      // initializer) or says was demoted, declared the same way by every
      // part that declares it.
      StringRef name;
      if (l.consume_front("// ") && l.consume_back(" has been demoted"))
        name = l;
      else if (l.starts_with("."))
        name =
            l.split('=').first.rtrim(" ;").rsplit(' ').second.split('[').first;
      else
        return std::nullopt;
      auto [it, fresh] = declared.try_emplace(name, line.str());
      if (!fresh && it->second != line)
        return std::nullopt;
    }
    if (i > 0)
      bodies += (lines[globl] + "\n").str();
    ArrayRef<StringRef> body = ArrayRef(lines).drop_front(entry);
    if (i + 1 < parts.size())
      while (!body.empty() && body.back().empty())
        body = body.drop_back();
    for (StringRef l : body) {
      std::string line = l.str();
      SmallVector<StringRef> m;
      std::string renumbered;
      StringRef rest = line;
      while (numbered.match(rest, &m)) {
        size_t at = m[0].data() - rest.data();
        unsigned k = 0;
        m[2].getAsInteger(10, k);
        renumbered += rest.take_front(at).str() + m[1].str() +
                      std::to_string(k + firstIndex[i]);
        rest = rest.drop_front(at + m[0].size());
      }
      bodies += renumbered + rest.str() + "\n";
    }
  }
  // The last part's final newline was a line of its own.
  if (!bodies.empty())
    bodies.pop_back();
  std::string decls;
  for (StringRef name : globals)
    if (auto it = declared.find(name); it != declared.end()) {
      decls += it->second + "\n";
      declared.erase(it);
    }
  if (!declared.empty())
    return std::nullopt;
  if (blankAfterDecls)
    decls += "\n";
  return header + decls + bodies;
}

/// Runs ptxas as MLIR's NVPTX serializer does (-arch, --opt-level 3 and
/// `options`) on `ptx`, returning the cubin.
static FailureOr<std::string> runPtxas(ModuleOp module, StringRef ptxas,
                                       StringRef chip, StringRef ptx,
                                       StringRef options) {
  SmallString<128> ptxFile, cubinFile, logFile;
  for (auto [path, suffix] :
       {std::pair{&ptxFile, "ptx"}, {&cubinFile, "cubin"}, {&logFile, "log"}})
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("brrr-kernels", suffix, *path))
      return module.emitError("cannot create a temporary file: ")
             << ec.message();
  auto remove = llvm::make_scope_exit([&] {
    for (StringRef path : {ptxFile.str(), cubinFile.str(), logFile.str()})
      llvm::sys::fs::remove(path);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(ptxFile, ec);
    if (ec)
      return module.emitError("cannot write ")
             << ptxFile << ": " << ec.message();
    out << ptx;
  }
  SmallVector<StringRef> args = {"ptxas", "-arch",   chip,          ptxFile,
                                 "-o",    cubinFile, "--opt-level", "3"};
  SmallVector<StringRef> extra;
  options.split(extra, ' ', -1, /*KeepEmpty=*/false);
  llvm::append_range(args, extra);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logFile),
                                          StringRef(logFile)};
  std::string message;
  if (llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0,
                                &message)) {
    auto log = llvm::MemoryBuffer::getFile(logFile);
    return module.emitError("ptxas failed: ")
           << (log ? (*log)->getBuffer() : StringRef(message));
  }
  auto cubin = llvm::MemoryBuffer::getFile(cubinFile, /*IsText=*/false);
  if (!cubin)
    return module.emitError("ptxas wrote no cubin at ") << cubinFile;
  return (*cubin)->getBuffer().str();
}

/// The kernels of `kernels` (gpu.funcs before lowering) in runs of
/// consecutive ones, one run per thread of the context, each of about the
/// same count of ops: the module index of each run's first kernel. None
/// (empty) where the module holds a function that is not a kernel, or too
/// few kernels for two runs.
static SmallVector<unsigned> kernelRuns(gpu::GPUModuleOp kernels) {
  SmallVector<int64_t> sizes;
  int64_t total = 0;
  for (Operation &op : kernels.getBody()->getOperations()) {
    if (auto f = dyn_cast<gpu::GPUFuncOp>(op)) {
      if (!f.isKernel())
        return {};
      int64_t n = 0;
      f.walk([&](Operation *) { ++n; });
      sizes.push_back(n);
      total += n;
    } else if (auto f = dyn_cast<FunctionOpInterface>(op);
               f && !f.isExternal()) {
      return {};
    }
  }
  MLIRContext *ctx = kernels.getContext();
  unsigned threads = ctx->isMultithreadingEnabled() ? ctx->getNumThreads() : 1;
  unsigned partCount = std::min<size_t>(threads, sizes.size() / 2);
  if (partCount < 2)
    return {};
  SmallVector<unsigned> firstIndex = {0};
  int64_t acc = 0;
  for (auto [k, n] : llvm::enumerate(sizes)) {
    if (acc >= total * int64_t(firstIndex.size()) / partCount &&
        firstIndex.size() < partCount && k > firstIndex.back())
      firstIndex.push_back(k);
    acc += n;
  }
  return firstIndex;
}

/// A module holding one module per run of `firstIndex` (kernelRuns), each
/// a container of a copy of `kernels` that holds the module's other ops
/// (declarations, globals) and that run's kernels; the copies are made on
/// every thread of the context.
static OwningOpRef<ModuleOp> splitKernels(gpu::GPUModuleOp kernels,
                                          ArrayRef<unsigned> firstIndex) {
  MLIRContext *ctx = kernels.getContext();
  SmallVector<Operation *> defined;
  for (auto f : kernels.getOps<gpu::GPUFuncOp>())
    defined.push_back(f);
  SmallVector<OwningOpRef<ModuleOp>> parts(firstIndex.size());
  parallelForEach(ctx, llvm::seq<size_t>(0, parts.size()), [&](size_t i) {
    unsigned end =
        i + 1 < firstIndex.size() ? firstIndex[i + 1] : defined.size();
    DenseSet<Operation *> others;
    for (unsigned k = 0; k < defined.size(); ++k)
      if (k < firstIndex[i] || k >= end)
        others.insert(defined[k]);
    parts[i] = ModuleOp::create(kernels.getLoc());
    (*parts[i])->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                         UnitAttr::get(ctx));
    OpBuilder pb = OpBuilder::atBlockEnd((*parts[i]).getBody());
    Operation *part = pb.cloneWithoutRegions(*kernels);
    OpBuilder kb = OpBuilder::atBlockEnd(&part->getRegion(0).emplaceBlock());
    for (Operation &op : kernels.getBody()->getOperations())
      if (!others.contains(&op))
        kb.clone(op);
  });
  OwningOpRef<ModuleOp> all = ModuleOp::create(kernels.getLoc());
  for (OwningOpRef<ModuleOp> &part : parts)
    all->getBody()->push_back(part.release());
  return all;
}

/// Lowers the kernel gpu.module of `container` to the NVVM and LLVM
/// dialects for `target`; with `nested`, that of each module `container`
/// holds, side by side on the context's threads.
static LogicalResult lowerKernels(ModuleOp container, TargetAttr target,
                                  bool nested) {
  GpuNVVMAttachTargetOptions attach;
  attach.chip = target.getChip().str();
  attach.features = "+ptx80";
  attach.optLevel = 3;
  PassManager pm(container.getContext());
  OpPassManager &mpm = nested ? pm.nest<ModuleOp>() : pm;
  mpm.addPass(createGpuNVVMAttachTarget(attach));
  OpPassManager &gpm = mpm.nest<gpu::GPUModuleOp>();
  gpm.addPass(createSCFToControlFlowPass());
  gpm.addPass(createConvertGpuOpsToNVVMOps());
  // NVVM ops without an LLVM intrinsic (wgmma.mma_async, mbarrier waits)
  // become inline PTX.
  gpm.addPass(createConvertNVVMToLLVMPass());
  gpm.addPass(createMarkGridConstants());
  gpm.addPass(createCanonicalizerPass());
  gpm.addPass(createReconcileUnrealizedCastsPass());
  return pm.run(container);
}

/// The PTX of the lowered modules `all` holds (splitKernels,
/// lowerKernels), written with LLVM's NVPTX back end side by side and
/// merged into the text the module whole would give (mergePtx), or nothing
/// where they do not merge.
static std::optional<std::string>
partsPtx(ModuleOp all, ArrayRef<unsigned> firstIndex, StringRef cudaPath) {
  SmallVector<ModuleOp> parts(all.getOps<ModuleOp>());
  // Every part declares the module's globals it uses, in the module's
  // order of them (each part's order is that order, less the others'),
  // read before the parts become binaries.
  SmallVector<std::string> names;
  llvm::StringSet<> seen;
  for (ModuleOp part : parts)
    part.walk([&](LLVM::GlobalOp g) {
      if (seen.insert(g.getSymName()).second)
        names.push_back(g.getSymName().str());
    });
  SmallVector<std::string> texts(parts.size());
  LogicalResult written = failableParallelForEach(
      all.getContext(), llvm::seq<size_t>(0, parts.size()), [&](size_t i) {
        std::optional<SymbolTable> symbols;
        auto symbolTable = [&]() -> SymbolTable * {
          if (!symbols)
            symbols.emplace(parts[i]);
          return &*symbols;
        };
        // Named: TargetOptions keeps a reference to it.
        auto keep = [&](StringRef text) { texts[i] = text.str(); };
        gpu::TargetOptions options(
            cudaPath, /*librariesToLink=*/{}, /*cmdOptions=*/{},
            /*elfSection=*/{}, gpu::CompilationTarget::Assembly, symbolTable,
            /*initialLlvmIRCallback=*/{}, /*linkedLlvmIRCallback=*/{},
            /*optimizedLlvmIRCallback=*/{}, keep);
        return gpu::transformGpuModulesToBinaries(parts[i], nullptr, options);
      });
  if (failed(written))
    return std::nullopt;
  SmallVector<StringRef> globals(names.begin(), names.end());
  return mergePtx(texts, firstIndex, globals);
}

/// Lowers a copy of the kernel module and serializes it once: LLVM's NVPTX
/// back end writes the PTX, which `keepPtx` receives, and with `withCubin`
/// ptxas (given `ptxasOptions`) turns that same text into the cubin
/// returned. Serializing to PTX and to cubin separately ran the back end
/// twice, a quarter of the compile time of a CNN. The kernels are lowered
/// and written on every thread: in runs of about equal size (kernelRuns),
/// each its own module from lowering to PTX, the texts merged into the one
/// the module whole would give; a module that does not split so, or whose
/// parts' texts do not merge, is lowered and written whole.
static FailureOr<std::string> serialize(ModuleOp module, TargetAttr target,
                                        StringRef cudaPath, bool withCubin,
                                        StringRef ptxasOptions, StringRef ptxas,
                                        std::string &keepPtx,
                                        TimingScope *timing) {
  TimingScope stage;
  if (timing)
    stage = timing->nest("lower to LLVM");
  auto kernels = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName);
  if (!kernels)
    return module.emitError("no gpu.module @") << kKernelModuleName;

  if (SmallVector<unsigned> runs = kernelRuns(kernels); !runs.empty()) {
    OwningOpRef<ModuleOp> all = splitKernels(kernels, runs);
    if (failed(lowerKernels(*all, target, /*nested=*/true)))
      return failure();
    if (timing)
      stage = timing->nest("LLVM NVPTX back end");
    if (std::optional<std::string> ptx = partsPtx(*all, runs, cudaPath)) {
      keepPtx = std::move(*ptx);
      if (!withCubin)
        return std::string();
      if (timing)
        stage = timing->nest("ptxas");
      return runPtxas(module, ptxas, target.getChip(), keepPtx, ptxasOptions);
    }
    if (timing)
      stage = timing->nest("lower to LLVM");
  }

  OwningOpRef<ModuleOp> copy = ModuleOp::create(module.getLoc());
  (*copy)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                   UnitAttr::get(module.getContext()));
  copy->getBody()->push_back(kernels->clone());
  if (failed(lowerKernels(*copy, target, /*nested=*/false)))
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
  std::string ptxasOptions, ptxas;
  if (withCubin) {
    auto found = findPtxas(module, cudaPath);
    if (failed(found))
      return failure();
    ptxas = *found;
    // Every CPU optimizes kernels in parallel: the code is the same as on
    // one thread (the cubins of ConvNeXt-T differ only in the note that
    // records ptxas's command line).
    if (splitsCompile(ptxas))
      ptxasOptions = "-split-compile 0";
  }
  CompiledKernels out;
  auto object = serialize(module, target, cudaPath, withCubin, ptxasOptions,
                          ptxas, out.ptx, timing);
  if (failed(object))
    return failure();
  if (withCubin)
    out.cubin.assign(object->begin(), object->end());
  return out;
}
