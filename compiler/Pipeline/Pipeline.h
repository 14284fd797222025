//===- Pipeline.h - the brrrc compilation pipeline --------------*- C++ -*-===//
//
// The passes between import and artifact, in order, as brrrc runs them:
// canonicalize, decompose batch norm, form kernels (pointwise DAGs, row
// kernels, data movement, matmul), check that every op has a kernel
// family, select every kernel's config, plan shared and global memory,
// outline kernels.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_PIPELINE_PIPELINE_H
#define BRRR_COMPILER_PIPELINE_PIPELINE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"

#include <string>
#include <vector>

namespace mlir::brrr {

/// What a compile may pin instead of letting the passes choose.
struct CompileOptions {
  /// m, n and stages of every tiled matmul (empty: chosen per product), for
  /// tile sweeps; see brrr-select-kernel-config's matmul-tile option.
  std::vector<int64_t> matmulTile;
  /// Query rows, keys per block and warps of every attention kernel (empty:
  /// chosen per kernel); see brrr-select-kernel-config's attention-tile.
  std::vector<int64_t> attentionTile;
  /// Run wgmma products with more tiles than multiprocessors on a
  /// persistent grid; see brrr-select-kernel-config's `persistent`.
  bool persistent = false;
  /// Sum float8 products in the Tensor Cores' own float8 accumulation;
  /// see brrr-select-kernel-config's `fp8-fast-accumulation`.
  bool fp8FastAccumulation = false;
  /// Which 16-bit products of 5 to 64 rows run the few-rows body on Tensor
  /// Cores: auto, always or never; see brrr-select-kernel-config's
  /// `few-rows-mma`.
  std::string fewRowsMma = "auto";
  /// Run them on a persistent grid whose consumer warpgroups take turns on
  /// whole tiles; see brrr-select-kernel-config's `pingpong`.
  bool pingpong = false;
  /// Run them on a persistent grid whose epilogue overlaps the next tile's
  /// products; see brrr-select-kernel-config's `overlap`.
  bool overlap = false;
  /// Which overlapped kernels drain their tiles with a warpgroup of their
  /// own too: auto, always or never; see brrr-select-kernel-config's
  /// `drain-warpgroup`.
  std::string drainWarpgroup = "auto";
  /// Where pairs of wgmma blocks multicast B to each other: auto, always
  /// or never; see brrr-select-kernel-config's `multicast`.
  std::string multicast = "auto";
  /// Where persistent wgmma products split their k-slices evenly between
  /// the blocks: auto, always or never; see brrr-select-kernel-config's
  /// `stream-k`.
  std::string streamK = "never";
  /// Whether fused attention runs the wgmma body: auto, always or never; see
  /// brrr-select-kernel-config's `hopper-attention`.
  std::string hopperAttention = "auto";
  /// On the wgmma body, overlap each key block's softmax with the previous
  /// block's values; see brrr-select-kernel-config's `overlap-attention`.
  bool overlapAttention = false;
  /// Narrow convolution groups packed into one; see
  /// brrr-pack-conv-groups' `max-groups`.
  int64_t maxPackedGroups = 32;
  /// On sm_90a, launch kernels as programmatic dependents of the kernel
  /// before them where that pays; see brrr-outline-kernels'
  /// `programmatic-launch`.
  bool programmaticLaunch = true;
  /// Where kernels load constant weights before they wait for the kernel
  /// ahead: auto, always or never; see brrr-outline-kernels'
  /// `prefetch-weights`.
  std::string prefetchWeights = "auto";
  /// With it, also launch early kernels whose blocks may share a
  /// multiprocessor where they fit beside the kernel before; see
  /// brrr-outline-kernels' `early-fitting`.
  bool earlyFitting = true;
  /// Index-driven kernels report out-of-range indices to the runtime; see
  /// brrr-check-indices (brrrc --unchecked-indices turns it off).
  bool indexChecks = true;
  /// "fp8" or "int8": multiply the products of float activations by
  /// constant matrices in that 8-bit type, by the module's calibration
  /// table; see brrr-quantize-calibrated. Empty: as the model says.
  std::string quantize;
  /// With `quantize`: additions read the convolutions' quantized
  /// activations too (brrr-quantize-calibrated's `residuals`).
  bool quantizeResiduals = true;
  /// Return every activation that `quantize` would quantize, for a
  /// calibration run; see brrr-calibration-outputs.
  bool calibrationOutputs = false;
};

/// Runs the graph passes and kernel outlining on an imported module; with
/// `timing`, each pass's time is recorded under it ("graph passes" and
/// "kernel passes").
LogicalResult runCompilePipeline(ModuleOp module,
                                 const CompileOptions &options = {},
                                 TimingScope *timing = nullptr);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_PIPELINE_PIPELINE_H
