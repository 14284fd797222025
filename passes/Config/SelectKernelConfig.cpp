//===- SelectKernelConfig.cpp - every kernel's geometry, chosen once -----===//
//
// Runs after fusion, before memory planning (flag brrr-select-kernel-config).
// Each `brrr.fusion` gets its kernel's decisions as one typed attribute,
// `brrr.config = #brrr.kernel<...>`: the body (plain threads, an untiled
// warp-per-tile mma.sync, a staged mma.sync block tile (f16/bf16 through
// 16-byte copies, f32 through element copies on tf32), or Hopper's TMA +
// wgmma), the block size, the tile and its stages, the vector width. The
// shared-memory planner and the code generator only read it, and a lit test
// can check what was chosen apart from what is produced. Each family's
// rules choose its configs (rulesOf, passes/Config/Families/); this pass
// checks and records them with their launch grids. A config already on a
// fusion (written by hand, or by an earlier run) is kept.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Attention.h"
#include "passes/Config/Families.h"
#include "passes/Config/Launch.h"
#include "passes/Config/Products.h"
#include "passes/Passes.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRSELECTKERNELCONFIG
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// The first compute capability that converts to float8 (Ada, sm_89).
constexpr int64_t kFloat8Capability = 89;

/// Whether a kernel reads, computes or writes float8 values.
bool usesFloat8(FusionOp fusion) {
  auto isF8 = [](Type t) {
    return isa<Float8E4M3FNType>(getElementTypeOrSelf(t));
  };
  WalkResult r = fusion.walk([&](Operation *op) {
    if (llvm::any_of(op->getOperandTypes(), isF8) ||
        llvm::any_of(op->getResultTypes(), isF8))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

/// Records `config` on `fusion` with its launch grid, and the grids of its
/// ranges' configs (kVariantsAttrName), each verified by the family's rules
/// (verifyFor).
LogicalResult recordLaunchGrids(FusionOp fusion, KernelConfigAttr config) {
  if (failed(verifyFor(fusion, config)))
    return failure();
  FailureOr<KernelConfigAttr> main = withLaunchGrid(fusion, config);
  if (failed(main))
    return failure();
  fusion->setAttr(kKernelConfigAttrName, *main);
  auto variants = fusion->getAttrOfType<ArrayAttr>(kVariantsAttrName);
  if (!variants)
    return success();
  SmallVector<Attribute> gridded;
  for (Attribute v : variants) {
    NamedAttrList entries(cast<DictionaryAttr>(v));
    auto variant = cast<KernelConfigAttr>(entries.get("config"));
    if (failed(verifyFor(fusion, variant)))
      return failure();
    FailureOr<KernelConfigAttr> c = withLaunchGrid(fusion, variant);
    if (failed(c))
      return failure();
    entries.set("config", *c);
    gridded.push_back(entries.getDictionary(fusion.getContext()));
  }
  fusion->setAttr(kVariantsAttrName,
                  ArrayAttr::get(fusion.getContext(), gridded));
  return success();
}

struct SelectKernelConfigPass
    : public mlir::brrr::impl::BrrrSelectKernelConfigBase<
          SelectKernelConfigPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(
            mlir::brrr::requireSupportedShapes(getOperation(), getArgument())))
      return signalPassFailure();
    if (!matmulTile.empty() && matmulTile.size() != 3) {
      getOperation().emitError("matmul-tile takes m,n,stages; got ")
          << matmulTile.size() << " values";
      return signalPassFailure();
    }
    auto module = getOperation()->getParentOfType<ModuleOp>();
    TargetAttr target = targetOf(getOperation());
    int64_t budget = sharedMemoryBudgetOf(getOperation());

    if (!attentionTile.empty() && attentionTile.size() != 3) {
      getOperation().emitError("attention-tile takes rows,keys,warps; got ")
          << attentionTile.size() << " values";
      return signalPassFailure();
    }
    SmallVector<int64_t> pinned(matmulTile.begin(), matmulTile.end());
    SmallVector<int64_t> pinnedAttention(attentionTile.begin(),
                                         attentionTile.end());
    ConfigOptions options;
    options.target = target;
    options.budget = budget;
    options.pinnedTile = pinned;
    options.pinnedAttention = pinnedAttention;
    if (auto p = module ? module->getAttrOfType<StringAttr>("brrr.precision")
                        : StringAttr())
      options.precision = p.getValue();
    options.persistent = persistent;
    options.pingpong = pingpong;
    options.overlap = overlap;
    options.fastFloat8 = fp8FastAccumulation;
    FailureOr<Choice> rows =
        choiceOf(getOperation(), "few-rows-mma", fewRowsMma);
    FailureOr<Choice> pairs = choiceOf(getOperation(), "multicast", multicast);
    FailureOr<Choice> streamKUse =
        choiceOf(getOperation(), "stream-k", streamK);
    FailureOr<Choice> drain =
        choiceOf(getOperation(), "drain-warpgroup", drainWarpgroup);
    FailureOr<Choice> hopper =
        choiceOf(getOperation(), "hopper-attention", hopperAttention);
    if (failed(rows) || failed(pairs) || failed(drain) || failed(hopper) ||
        failed(streamKUse))
      return signalPassFailure();
    options.drainGroup = *drain;
    options.fewRowsMma = *rows;
    options.multicast = *pairs;
    options.streamK = *streamKUse;
    options.hopperAttention = *hopper;
    options.overlapAttention = overlapAttention;
    WalkResult walk = getOperation().walk([&](FusionOp fusion) {
      // A config pinned without its grid gets the one its decisions give;
      // one with a grid is verified as it is.
      if (auto pinnedConfig =
              fusion->getAttrOfType<KernelConfigAttr>(kKernelConfigAttrName)) {
        if (failed(pinnedConfig.getGrid().empty()
                       ? recordLaunchGrids(fusion, pinnedConfig)
                       : verifyFor(fusion, pinnedConfig)))
          return WalkResult::interrupt();
        return WalkResult::advance();
      }
      if (target.getCapability() < kFloat8Capability && usesFloat8(fusion)) {
        mlir::emitError(fusion.getLoc(),
                        "float8 (E4M3FN) tensors need compute capability ")
            << kFloat8Capability / 10 << "." << kFloat8Capability % 10
            << " or later (cvt to e4m3); target " << target.getChip() << " has "
            << target.getCapability() / 10 << "."
            << target.getCapability() % 10;
        return WalkResult::interrupt();
      }
      FailureOr<KernelConfigAttr> config =
          rulesOf(fusion.getKind()).choose(fusion, options);
      if (failed(config))
        return WalkResult::interrupt();
      auto diag = [&] { return fusion.emitOpError(); };
      if (failed(KernelConfigAttr::verify(
              diag, config->getFamily(), config->getBody(),
              config->getThreads(), config->getTile(), config->getStages(),
              config->getVector(), config->getCluster(), config->getPrecision(),
              config->getPersistent(), config->getEpilogue(),
              config->getSchedule(), config->getMulticast(),
              config->getStreamK(), {}, {})) ||
          failed(recordLaunchGrids(fusion, *config)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

Operation *mlir::brrr::tensorCoreProductOf(FusionOp fusion) {
  for (Operation &op : fusion.getBody().front())
    if (isa<MatmulOp, Conv2DOp, AttentionOp>(op))
      return &op;
  return nullptr;
}

KernelConfigAttr MatmulTile::config(MLIRContext *ctx,
                                    KernelFamily family) const {
  return KernelConfigAttr::get(ctx, family, body, threads(), {m, n, k}, stages,
                               1, cluster, precision, persistent, epilogue,
                               schedule, multicast, streamK, {}, {});
}

std::optional<MatmulTile> MatmulTile::of(KernelConfigAttr config,
                                         int64_t elementBytes) {
  if (!config || config.getTile().size() != 3)
    return std::nullopt;
  MatmulTile tile;
  tile.elementBytes = elementBytes;
  tile.body = config.getBody();
  tile.m = config.getTile()[0];
  tile.n = config.getTile()[1];
  tile.k = config.getTile()[2];
  tile.stages = config.getStages();
  tile.persistent = config.getPersistent();
  tile.epilogue = config.getEpilogue();
  tile.schedule = config.getSchedule();
  tile.cluster = config.getCluster();
  tile.multicast = config.getMulticast();
  tile.streamK = config.getStreamK();
  tile.precision = config.getPrecision();
  if (tile.body == KernelBody::wgmma && tile.overlapped())
    tile.drainGroups = config.getThreads() / 128 - 1 - tile.m / 64;
  return tile;
}

int64_t MatmulTile::elementBytesOf(FusionOp fusion) {
  Operation *product = tensorCoreProductOf(fusion);
  return product && isEightBitProductType(
                        getElementTypeOrSelf(product->getOperand(0).getType()))
             ? 1
             : 2;
}

KernelConfigAttr AttentionTile::config(MLIRContext *ctx) const {
  return KernelConfigAttr::get(
      ctx, KernelFamily::attention, body, threads(), {rows, keys}, stages, 1, 1,
      KernelPrecision::exact, 0, 0,
      overlapped ? KernelSchedule::overlapped : KernelSchedule::cooperative, 1,
      false, {}, {});
}

std::optional<AttentionTile> AttentionTile::of(KernelConfigAttr config) {
  if (!config || config.getFamily() != KernelFamily::attention ||
      config.getTile().size() != 2)
    return std::nullopt;
  AttentionTile tile;
  tile.rows = config.getTile()[0];
  tile.keys = config.getTile()[1];
  tile.stages = config.getStages();
  tile.warps = config.getThreads() / 32;
  tile.body = config.getBody();
  tile.overlapped = config.getSchedule() == KernelSchedule::overlapped;
  return tile;
}

bool mlir::brrr::isF32Product(FusionOp fusion) {
  Operation *product = tensorCoreProductOf(fusion);
  return product && cast<RankedTensorType>(product->getOperand(0).getType())
                        .getElementType()
                        .isF32();
}

AttentionOp mlir::brrr::attentionOf(FusionOp fusion) {
  auto ops = fusion.getBody().front().getOps<AttentionOp>();
  return ops.empty() ? AttentionOp() : *ops.begin();
}

FailureOr<KernelConfigAttr> mlir::brrr::kernelConfigOf(FusionOp fusion) {
  if (auto config =
          fusion->getAttrOfType<KernelConfigAttr>(kKernelConfigAttrName))
    return config;
  return fusion.emitOpError("has no kernel config (") << kKernelConfigAttrName
                                                      << "); run "
                                                         "brrr-select-kernel-"
                                                         "config first";
}
