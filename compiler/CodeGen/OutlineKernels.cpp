//===- OutlineKernels.cpp - brrr.fusion -> gpu.func ----------------------===//
//
// The pass that starts code generation (flag brrr-outline-kernels): one
// kernel per fusion, from the fusion's kernel family, in a single
// `gpu.module @brrr_kernels`, then one per distinct code (fusions whose
// kernels are the same share the first); the launch shape and roofline
// data are attributes on the fusion for the artifact writer and reports.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelCost.h"
#include "passes/Config/Families.h"
#include "passes/Config/Launch.h"
#include "passes/Config/SharedBuffers.h"
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

/// Shared memory the hardware reserves for each resident block.
constexpr int64_t kSharedReservedPerBlock = 1024;

/// Blocks of a launch.
int64_t blocksOf(const KernelInfo &info) {
  return info.grid * info.gridY * info.gridZ;
}

/// Whether a kernel is launched as a programmatic dependent of the kernel
/// before it (`previous`; null when it is the plan's first), its blocks
/// placed while that kernel still runs. Early placement pays where launch
/// latency is a large part of a kernel's time, and costs where the blocks
/// land badly, so a kernel launches early only when:
/// - no two of its blocks fit one multiprocessor (its registers or its
///   shared memory). Blocks placed early go wherever the running kernel
///   leaves room: a kernel that can stack several blocks on a
///   multiprocessor crowds onto the few idle ones and leaves the rest idle
///   once the kernel before it ends (GPT-2 at batch 1 ran 14% slower with
///   every kernel placed early);
/// - it and the kernel before it each run in one wave (no more blocks than
///   multiprocessors): BERT-base at batch 32, whose products run several
///   waves, ran 3-5% slower with its products placed early, while at batch
///   1 (one wave each) it ran 4% faster.
/// A kernel whose grid is read at run time meets the second condition at
/// some shapes and not at others: where it takes a whole multiprocessor,
/// it waits for the kernel before it, and the runtime launches it early at
/// the shapes where both grids are one wave (`brrr.programmatic_in_one_wave`);
/// one whose blocks may stack, with `early-fitting`, at the shapes where
/// both grids' blocks together fit the multiprocessors
/// (`brrr.programmatic_fitting`).
bool takesWholeMultiprocessor(const KernelInfo &info, TargetAttr target) {
  return info.wholeMultiprocessor ||
         2 * (info.sharedBytes + kSharedReservedPerBlock) >
             target.getSharedPerMultiprocessor();
}

/// Whether `info` may launch early at shapes where it and the kernel before
/// it are one wave: its blocks take a whole multiprocessor, or, with
/// `stacking` (prefetch-weights = always), it loads constant weights
/// before it waits (KernelInfo::independentThrough).
bool mayLaunchEarly(const KernelInfo &info, TargetAttr target, bool stacking) {
  return takesWholeMultiprocessor(info, target) ||
         (stacking && info.independentThrough);
}

/// With `fitting`, also a kernel whose blocks may stack where the kernel
/// before it leaves a multiprocessor idle for each of them.
bool launchesEarly(const KernelInfo &info, const KernelInfo *previous,
                   TargetAttr target, bool stacking, bool fitting) {
  int64_t multiprocessors = target.getMultiprocessors();
  if (fitting && previous &&
      blocksOf(info) + blocksOf(*previous) <= multiprocessors)
    return true;
  return mayLaunchEarly(info, target, stacking) &&
         blocksOf(info) <= multiprocessors &&
         (!previous || blocksOf(*previous) <= multiprocessors);
}

/// Starts kernel `info` (`func`) with its part in programmatic launches:
/// it lets the next kernel launch at once (which matters only where that
/// one launches early) and, when it launches early itself (`waits`),
/// waits for the kernel before it to finish and its writes to be visible:
/// after KernelInfo::independentThrough where the kernel has one and
/// `afterWeights`, else ahead of everything it does.
void beginWithGridDependency(gpu::GPUFuncOp func, const KernelInfo &info,
                             bool waits, bool afterWeights) {
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  Location loc = func.getLoc();
  NVVM::GriddepcontrolOp::create(b, loc,
                                 NVVM::GridDepActionKind::launch_dependents);
  if (!waits)
    return;
  if (afterWeights && info.independentThrough)
    b.setInsertionPointAfter(info.independentThrough);
  NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
}

using EmitFn = FailureOr<KernelInfo> (*)(FusionOp, OpBuilder &, StringRef);

/// The emitter of each kernel family and body: one table in place of a
/// dispatch per family. A row without a body serves all of its family's
/// kernels.
struct Emitter {
  KernelFamily family;
  std::optional<KernelBody> body;
  EmitFn emit;
};
const Emitter kEmitters[] = {
    {KernelFamily::pointwise, std::nullopt, emitPointwiseKernel},
    {KernelFamily::row, std::nullopt, emitRowKernel},
    {KernelFamily::reduce, std::nullopt, emitReduceKernel},
    {KernelFamily::movement, std::nullopt, emitMovementKernel},
    {KernelFamily::pool, std::nullopt, emitPoolKernel},
    {KernelFamily::attention, KernelBody::mma_sync, emitAttentionKernel},
    {KernelFamily::attention, KernelBody::wgmma, emitAttentionKernel},
    {KernelFamily::matmul, KernelBody::wgmma, emitWgmmaMatmulKernel},
    // 16-bit operands run the tiled body, f32 ones the staged 3xTF32 body.
    {KernelFamily::matmul, KernelBody::mma_sync, emitMatmulKernel},
    {KernelFamily::matmul, KernelBody::warp_mma, emitMatmulKernel},
    // A few rows: a warp a column (Products/FewRowsKernel.h).
    {KernelFamily::matmul, KernelBody::simt, emitMatmulKernel},
    {KernelFamily::conv, KernelBody::wgmma, emitWgmmaConvKernel},
    {KernelFamily::conv, KernelBody::simt, emitDirectConvKernel},
    {KernelFamily::conv, KernelBody::mma_sync, emitConvKernel},
    {KernelFamily::conv, KernelBody::warp_mma, emitConvKernel},
};

/// The kernel of `fusion`, from the emitter of its family and body,
/// launched over the grid its config records: the config checked first by
/// its family's rules (verifyFor), the grid against its decisions.
FailureOr<KernelInfo> emitKernel(FusionOp fusion, OpBuilder &kb,
                                 const std::string &name) {
  // Every kernel needs a config: the diagnostic names the pass that
  // records it.
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  for (const Emitter &row : kEmitters) {
    if (row.family != fusion.getKind() ||
        (row.body && row.body != config->getBody()))
      continue;
    if (failed(verifyFor(fusion, *config)))
      return failure();
    ArrayRef<int64_t> grid = config->getGrid();
    if (grid.empty())
      return fusion.emitOpError("kernel config ")
             << *config << " records no launch grid; run "
             << "brrr-select-kernel-config first";
    if (failed(verifyLaunchGrid(fusion, *config)))
      return failure();
    FailureOr<KernelInfo> info = row.emit(fusion, kb, name);
    if (failed(info))
      return failure();
    info->grid = grid[0];
    info->gridY = grid[1];
    info->gridZ = grid[2];
    info->gridExtents.clear();
    if (AffineMapAttr map = config->getGridExtents())
      llvm::append_range(info->gridExtents, map.getValue().getResults());
    return info;
  }
  return fusion.emitOpError("no code generator builds a ")
         << stringifyKernelFamily(fusion.getKind()) << " kernel on the "
         << stringifyKernelBody(config->getBody()) << " body";
}

/// Compiles each distinct kernel once: a kernel whose code, attributes
/// included, is the same to the letter as an earlier one's but for its name
/// (a model's repeated layers: BERT-base's twelve) is erased, and its
/// fusions launch the earlier kernel. Each launch keeps its own grid,
/// parameters and tensor maps, so it computes what it did; LLVM's back end
/// and ptxas then see one copy.
void shareIdenticalKernels(func::FuncOp main, gpu::GPUModuleOp kernels) {
  llvm::StringMap<StringAttr> firstWith;
  DenseMap<StringAttr, StringAttr> sharedWith;
  SmallVector<gpu::GPUFuncOp> repeats;
  for (auto func : kernels.getOps<gpu::GPUFuncOp>()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    func->print(os, OpPrintingFlags().useLocalScope());
    // The name is printed once, as the function's symbol.
    std::string symbol = ("@" + func.getName() + "(").str();
    size_t at = text.find(symbol);
    if (at == std::string::npos)
      continue;
    text.erase(at + 1, func.getName().size());
    auto [first, inserted] = firstWith.try_emplace(text, func.getNameAttr());
    if (!inserted) {
      sharedWith[func.getNameAttr()] = first->second;
      repeats.push_back(func);
    }
  }
  if (repeats.empty())
    return;
  main.walk([&](FusionOp fusion) {
    if (auto kernel = fusion->getAttrOfType<StringAttr>("brrr.kernel"))
      if (StringAttr first = sharedWith.lookup(kernel))
        fusion->setAttr("brrr.kernel", first);
    // The kernels of its ranges of rows too.
    auto variants = fusion->getAttrOfType<ArrayAttr>(kLaunchVariantsAttrName);
    if (!variants)
      return;
    SmallVector<Attribute> renamed;
    for (Attribute v : variants) {
      NamedAttrList entries(cast<DictionaryAttr>(v));
      auto kernel = cast<StringAttr>(entries.get("brrr.kernel"));
      if (StringAttr first = sharedWith.lookup(kernel))
        entries.set("brrr.kernel", first);
      renamed.push_back(entries.getDictionary(fusion.getContext()));
    }
    fusion->setAttr(kLaunchVariantsAttrName,
                    ArrayAttr::get(fusion.getContext(), renamed));
  });
  for (gpu::GPUFuncOp func : repeats)
    func.erase();
}

struct OutlineKernelsPass
    : public mlir::brrr::impl::BrrrOutlineKernelsBase<OutlineKernelsPass> {
  using BrrrOutlineKernelsBase::BrrrOutlineKernelsBase;

  void runOnOperation() override {
    if (failed(
            mlir::brrr::requireSupportedShapes(getOperation(), getArgument())))
      return signalPassFailure();
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
    TargetAttr target = targetOf(main);
    bool programmatic =
        programmaticLaunch && target.has(TargetFeature::grid_dependency);
    // `prefetch-weights`: where kernels load constant weights before they
    // wait for the kernel ahead. auto: a kernel that launches early waits
    // after its constant weights' first loads (KernelInfo::
    // independentThrough), and Hopper products that may launch early copy
    // their first slices' weights first; always: few-rows products of one
    // wave after a kernel of one wave also launch early where their blocks
    // may stack; never: every kernel that launches early waits at its
    // start.
    FailureOr<Choice> prefetch =
        choiceOf(module, "prefetch-weights", prefetchWeights);
    if (failed(prefetch))
      return signalPassFailure();
    bool afterWeights = *prefetch != Choice::never;
    bool stacking = *prefetch == Choice::always;

    unsigned index = 0;
    unsigned symbols = dimsOf(module).size();
    auto mapOf = [&](ArrayRef<AffineExpr> exprs) {
      return AffineMapAttr::get(
          AffineMap::get(0, symbols, exprs, module.getContext()));
    };
    int64_t multiprocessors = target.getMultiprocessors();
    // The rule for a kernel whose grid is read at run time, as the attribute
    // that tells the runtime when to launch it early: where its blocks take
    // a whole multiprocessor, at the shapes where it and the kernel before
    // it are one wave; with early-fitting, any other kernel but the plan's
    // first at the shapes where the two grids' blocks together fit the
    // multiprocessors. None (empty): it never launches early.
    std::optional<KernelInfo> previous;
    auto earlyAtRunTime = [&](const KernelInfo &info) -> StringRef {
      if (!programmatic)
        return {};
      if (mayLaunchEarly(info, target, stacking))
        return kProgrammaticInOneWaveAttrName;
      if (earlyFitting && previous)
        return kProgrammaticFittingAttrName;
      return {};
    };
    // Unless prefetch-weights is never, a kernel that may launch early
    // copies its constant weights before it waits: its grid (at its range's
    // largest shape) is one wave, and the kernel before it one wave too or
    // read at run time. Elsewhere it waits nowhere, and the weights copied
    // first would only hold back its first stage (GPT-2 at batch 8 ran 3%
    // slower with every product so). A range's kernel (`rowsUpTo`: the
    // largest rows of its range) counts its grid at the largest shape of
    // its range (largestWithin), which its config's grid, recorded at the
    // largest shape of all, overstates.
    auto markWeightsFirst = [&](FusionOp fusion, Attribute attr,
                                bool afterOneWave,
                                std::optional<int64_t> rowsUpTo = {}) {
      auto config = dyn_cast_or_null<KernelConfigAttr>(attr);
      SmallVector<int64_t> grid;
      if (config)
        llvm::append_range(grid, config.getGrid());
      auto rows = fusion->getAttrOfType<AffineMapAttr>(kVariantRowsAttrName);
      if (rowsUpTo && rows && config && config.getGridExtents())
        if (std::optional<SmallVector<int64_t>> within = largestWithin(
                config.getGridExtents().getValue().getResults(),
                rows.getValue().getResult(0), *rowsUpTo, dimsOf(module)))
          grid = *within;
      bool oneWave =
          grid.size() == 3 && grid[0] * grid[1] * grid[2] <= multiprocessors;
      if (programmatic && afterWeights && oneWave && afterOneWave)
        fusion->setAttr(kWeightsBeforeWaitAttrName, b.getUnitAttr());
      else
        fusion->removeAttr(kWeightsBeforeWaitAttrName);
    };
    WalkResult walk = main.walk([&](FusionOp fusion) {
      std::string name = "fusion_" + std::to_string(index++);
      // A kernel for each range of rows with a config of its own, under
      // that config and its shared plan (the fusion keeps its own).
      if (auto variants = fusion->getAttrOfType<ArrayAttr>(kVariantsAttrName)) {
        Attribute config = fusion->getAttr(kKernelConfigAttrName);
        Attribute shared = fusion->getAttr(kSharedPlanAttrName);
        SmallVector<Attribute> launches;
        for (auto [k, v] : llvm::enumerate(variants)) {
          auto variant = cast<DictionaryAttr>(v);
          fusion->setAttr(kKernelConfigAttrName, variant.get("config"));
          FailureOr<SharedPlanAttr> plan = planSharedMemory(fusion);
          if (failed(plan))
            return WalkResult::interrupt();
          fusion->setAttr(kSharedPlanAttrName, *plan);
          markWeightsFirst(fusion, variant.get("config"), true,
                           variant.getAs<IntegerAttr>("rows").getInt());
          FailureOr<KernelInfo> vinfo =
              emitKernel(fusion, kb, name + "_r" + std::to_string(k));
          fusion->setAttr(kKernelConfigAttrName, config);
          fusion->setAttr(kSharedPlanAttrName, shared);
          if (failed(vinfo))
            return WalkResult::interrupt();
          // Its grid is read at run time: the runtime launches it early at
          // the shapes where that pays.
          StringRef early = earlyAtRunTime(*vinfo);
          if (programmatic)
            beginWithGridDependency(
                kernels.lookupSymbol<gpu::GPUFuncOp>(vinfo->name), *vinfo,
                !early.empty(), afterWeights);
          // Its work and traffic are the fusion's (`brrr.flops`,
          // `brrr.bytes` and their expressions): the same at each shape.
          SmallVector<NamedAttribute> entries = {
              b.getNamedAttr("rows", variant.get("rows")),
              b.getNamedAttr("brrr.kernel", b.getStringAttr(vinfo->name)),
              b.getNamedAttr("brrr.grid",
                             b.getDenseI64ArrayAttr(
                                 {vinfo->grid, vinfo->gridY, vinfo->gridZ})),
              b.getNamedAttr("brrr.block",
                             b.getDenseI64ArrayAttr({vinfo->block, 1, 1})),
              b.getNamedAttr(kSharedPlanAttrName, *plan),
              b.getNamedAttr(kScalarsAttrName, mapOf(vinfo->scalars))};
          if (!vinfo->gridExtents.empty())
            entries.push_back(b.getNamedAttr(kGridExtentsAttrName,
                                             mapOf(vinfo->gridExtents)));
          if (vinfo->tensorMaps)
            entries.push_back(
                b.getNamedAttr("brrr.tensor_maps", vinfo->tensorMaps));
          if (!early.empty())
            entries.push_back(b.getNamedAttr(early, b.getUnitAttr()));
          launches.push_back(b.getDictionaryAttr(entries));
        }
        fusion->setAttr(kLaunchVariantsAttrName, b.getArrayAttr(launches));
      }
      auto config =
          fusion->getAttrOfType<KernelConfigAttr>(kKernelConfigAttrName);
      markWeightsFirst(fusion, config,
                       (config && config.getGridExtents()) || !previous ||
                           blocksOf(*previous) <= multiprocessors);
      FailureOr<KernelInfo> info = emitKernel(fusion, kb, name);
      fusion->removeAttr(kWeightsBeforeWaitAttrName);
      if (failed(info))
        return WalkResult::interrupt();
      fusion->setAttr("brrr.kernel", b.getStringAttr(info->name));
      fusion->setAttr("brrr.grid", b.getDenseI64ArrayAttr(
                                       {info->grid, info->gridY, info->gridZ}));
      fusion->setAttr("brrr.block",
                      b.getDenseI64ArrayAttr({info->block, 1, 1}));
      if (!info->gridExtents.empty() || !info->scalars.empty()) {
        if (!info->gridExtents.empty())
          fusion->setAttr(kGridExtentsAttrName, mapOf(info->gridExtents));
        fusion->setAttr(kScalarsAttrName, mapOf(info->scalars));
      }
      fusion->setAttr("brrr.flops", b.getI64IntegerAttr(info->flops));
      fusion->setAttr("brrr.bytes", b.getI64IntegerAttr(info->bytes));
      if (std::optional<AffineMap> cost =
              rooflineExtents(fusion, info->flops, info->bytes, symbols))
        fusion->setAttr(kRooflineExtentsAttrName, AffineMapAttr::get(*cost));
      if (info->tensorMaps)
        fusion->setAttr("brrr.tensor_maps", info->tensorMaps);
      if (programmatic && !info->gridExtents.empty()) {
        StringRef early = earlyAtRunTime(*info);
        beginWithGridDependency(
            kernels.lookupSymbol<gpu::GPUFuncOp>(info->name), *info,
            !early.empty(), afterWeights);
        if (!early.empty())
          fusion->setAttr(early, b.getUnitAttr());
      } else if (programmatic) {
        bool early = launchesEarly(*info, previous ? &*previous : nullptr,
                                   target, stacking, earlyFitting);
        beginWithGridDependency(
            kernels.lookupSymbol<gpu::GPUFuncOp>(info->name), *info, early,
            afterWeights);
        if (early)
          fusion->setAttr("brrr.programmatic", b.getUnitAttr());
      }
      // An empty output launches nothing (the artifact skips it).
      if (blocksOf(*info) > 0)
        previous = *info;
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    shareIdenticalKernels(main, kernels);
  }
};

} // namespace
