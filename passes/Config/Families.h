//===- Families.h - what the passes know of each kernel family -*- C++ -*-===//
//
// One row per kernel family (rulesOf, Families.cpp) holds all that the
// passes know of it: the config brrr-select-kernel-config chooses for a
// fusion, whether its code generator lays a fusion out under a config, the
// launch grid a config gives, and the shared buffers it declares. Each family's
// rules live in a file of their own (passes/Config/Families/), beside its code
// generator's row of the emitter table (compiler/CodeGen/OutlineKernels.cpp): a
// new body or schedule of a family changes its enum case, its rules, its
// emitter and that row. The passes that use the rules (the config pass, the
// launch grid, the shared-memory planner) name no family.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_CONFIG_FAMILIES_H
#define BRRR_PASSES_CONFIG_FAMILIES_H

#include "passes/Config/Products.h"
#include "passes/Config/SharedBuffers.h"

namespace mlir::brrr {

/// What brrr-select-kernel-config chooses under: the target, the shared
/// bytes a block may use, and the pass's options.
struct ConfigOptions {
  TargetAttr target;
  int64_t budget = 0;
  /// `matmul-tile`: the m, n and stages of every tiled matmul (empty: the
  /// heuristics').
  ArrayRef<int64_t> pinnedTile;
  /// `attention-tile`: the query rows, keys per block and warps of every
  /// attention kernel (empty: the heuristics').
  ArrayRef<int64_t> pinnedAttention;
  /// The module's `brrr.precision` (`tf32`: f32 products on one tf32
  /// product).
  StringRef precision;
  /// Schedules forced for every product: persistent, ping-pong,
  /// overlapped; and float8 products summed in the Tensor Cores' own
  /// accumulation.
  bool persistent = false, pingpong = false, overlap = false,
       fastFloat8 = false;
  /// `drain-warpgroup`: which overlapped kernels run a warpgroup of drain
  /// warps of their own beside the producer's warps 1-3: those where it
  /// pays (chooseMatmul), every one, or none.
  Choice drainGroup = Choice::automatic;
  /// `few-rows-mma`: products of 5 to fewRowsMmaRows(use) rows (static, or
  /// a range's) run the few-rows body on Tensor Cores where their operands
  /// allow (takesFewRowsMma).
  Choice fewRowsMma = Choice::automatic;
  /// `multicast`: where pairs of wgmma blocks multicast B to each other
  /// (chooseMulticast finds it pays), wherever the tiles pair up, or
  /// nowhere.
  Choice multicast = Choice::automatic;
  /// `stream-k`: where persistent wgmma products split their k-slices
  /// evenly between the blocks (chooseStreamK finds the last wave
  /// part-empty enough), wherever their tiles do not divide evenly, or
  /// nowhere (the default until measured on the GPU).
  Choice streamK = Choice::never;
  /// `hopper-attention`: whether 16-bit attention runs the wgmma body:
  /// automatically or always (the same: heads up to 256), or never.
  Choice hopperAttention = Choice::automatic;
  /// `overlap-attention`: the wgmma body's overlapped schedule.
  bool overlapAttention = false;
};

/// A launch grid: blocks along x, y and z at the largest shape, and the
/// expressions of those that are read at run time (null where fixed).
struct Grid {
  int64_t x = 1, y = 1, z = 1;
  AffineExpr atRunX, atRunY, atRunZ;
};

/// One kernel family's rules.
struct FamilyRules {
  /// The config of `fusion` (its grid not yet recorded), or failure with a
  /// diagnostic.
  FailureOr<KernelConfigAttr> (*choose)(FusionOp fusion,
                                        const ConfigOptions &options);
  /// Whether the family's code generator lays `fusion` out under `config`
  /// (one the attribute's own verifier accepts), or a diagnostic on the
  /// fusion or its op naming what it cannot: checked on every config
  /// chosen or pinned, and again before code generation, so that emitters
  /// only read the config. Null: every config.
  LogicalResult (*verify)(FusionOp fusion, KernelConfigAttr config);
  /// The grid `config` launches `fusion`'s kernel over, or a diagnostic on
  /// the fusion where its code generator cannot lay the kernel out so.
  FailureOr<Grid> (*grid)(FusionOp fusion, KernelConfigAttr config);
  /// Appends the shared buffers `config` needs for `fusion`, in the order
  /// the plan records them, or fails with a diagnostic; `slack`: bytes the
  /// kernel adds to align its own base (sharedBuffersOf). Null: none.
  LogicalResult (*sharedBuffers)(FusionOp fusion, KernelConfigAttr config,
                                 SmallVectorImpl<SharedBuffer> &buffers,
                                 int64_t &slack);
};

/// A config on plain threads (`simt`): `threads` a block, and `tile` and
/// `vector` as `family` reads them; no stages, cluster, persistence or
/// schedule.
KernelConfigAttr simtConfig(MLIRContext *ctx, KernelFamily family,
                            int64_t threads, ArrayRef<int64_t> tile,
                            int64_t vector);

/// Records on `fusion` the configs of its ranges (kVariantsAttrName): each
/// `{rows, config}` runs up to `rows` of `rows` (kVariantRowsAttrName, an
/// expression of the module's symbols), ascending, below the fusion's own
/// config. Records nothing for no ranges.
void recordVariants(FusionOp fusion,
                    ArrayRef<std::pair<int64_t, KernelConfigAttr>> ranges,
                    AffineExpr rows);

/// The few-rows body's config (a matmul's, or a one-pixel convolution's):
/// a warp a column of `rows` rows, kOnePixelChannelsPerBlock columns a
/// block, loads of `vector` elements.
KernelConfigAttr fewRowsConfig(MLIRContext *ctx, KernelFamily family,
                               int64_t rows, int64_t vector);

/// The few-rows body on Tensor Cores (takesFewRowsMma) for `rows` rows
/// (the tile's, a multiple of 8, where rows past the product's read row 0
/// and store nothing), `N` columns and a contraction `K` deep, on a chip of
/// `sms` multiprocessors: a block of kFewRowsMmaColumns columns whose warps
/// split K (enough warps for eight a multiprocessor, 4 to 16, at most one
/// per 32-deep chunk of K), loads of 8 elements.
KernelConfigAttr fewRowsMmaConfig(MLIRContext *ctx, int64_t rows, int64_t N,
                                  int64_t K, int64_t sms);

/// The rules of `family`.
const FamilyRules &rulesOf(KernelFamily family);

/// Whether `fusion`'s family lays it out under `config` (its rules'
/// verify).
LogicalResult verifyFor(FusionOp fusion, KernelConfigAttr config);

extern const FamilyRules kPointwiseRules, kMovementRules, kRowRules,
    kReduceRules, kPoolRules, kAttentionRules, kMatmulRules, kConvRules;

} // namespace mlir::brrr

#endif // BRRR_PASSES_CONFIG_FAMILIES_H
