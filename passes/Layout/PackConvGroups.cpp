//===- PackConvGroups.cpp - narrow conv groups packed for Tensor Cores ---===//
//
// Runs before brrr-channels-last. The wgmma convolution body takes groups
// of whole 64-channel input slices and 128-wide output tiles. ResNeXt's
// 3 x 3 convolutions have 32 groups of 4 to 32 channels: the groups of 4
// and 8 ran the direct body, those of 16 and 32 the untiled one, at 2 to 8
// TFLOP/s. Packing `k` neighbouring groups into one makes the weights of
// the packed group block diagonal: group i of the pack reads only its own
// input channels, the other (k - 1) blocks of its rows are zeros. The
// packed convolution does k times the multiply-adds, on a body that runs
// them 20 to 100 times faster, and reads the input and writes the output
// once, as before. Measured on an H200 (test/gpu/notes/2026-12-01.md):
// ResNeXt-50 at batch 32 4.13 ms unpacked, 3.08 with at most 8 groups a
// pack, 1.47 with at most 32, the default.
//
// Groups that no pack of whole tiles divides (RegNetY's groups of 24
// channels: 2, 5, 14 and 37 of them) are packed all into one, a dense
// convolution of any width, where they have more than
// kDirectConvGroupChannels input channels each (the direct body's narrow
// groups stay there) and the dense convolution pays (densePackPays): it
// does `groups` times the work, on a body that runs it about
// kPackedRateGain times faster once its tiles fill the multiprocessors,
// proportionally slower below. RegNetY-1.6GF at batch 32 packs every
// stage; at batch 1, only the first (test/gpu/notes/2026-12-03-e.md).
//
// The wgmma body also runs groups of any whole 16-byte chunks of channels
// as they are, padding each to whole slices and tiles
// (wgmmaPadsConvGroups). Where it does, a pack of k groups is taken only
// where k times the work costs no more than the padding
// (wgmmaPaddedGroupUse): ResNeXt's groups of 16 to 64 channels still pack,
// RegNetX's of 120 and RegNetY's 37 of 24 run padded.
//
// Exactness: each output sums the same products as before plus products
// of zero weights, which add +0. The one difference is a non-finite input
// value: infinity times a zero weight is NaN, so an infinite or NaN input
// channel reaches the outputs of the other groups of its pack, where the
// grouped convolution would confine it to its own.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Products.h"
#include "passes/Passes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRPACKCONVGROUPS
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// A dense pack's nominal output tile on the wgmma body: 128 output pixels
/// by 128 output channels.
constexpr uint64_t kPackTileRows = 128, kPackTileChannels = 128;

/// How many times faster the wgmma body runs a dense pack's multiply-adds
/// than the untiled body runs the grouped convolution's, with enough tiles
/// to fill the multiprocessors. Measured on an H200 on RegNetY-1.6GF's
/// groups of 24 channels (test/gpu/notes/2026-12-03-e.md): the untiled
/// body 6.3 to 6.8 TFLOP/s at batch 32, the dense packs 290 to 400.
constexpr uint64_t kPackedRateGain = 64;

/// Whether packing all `groups` (of `cg` input channels each) of a
/// convolution into one dense convolution is faster than running them
/// grouped: its tiles, up to one per multiprocessor, times
/// kPackedRateGain, at least `groups` times the multiprocessors.
/// RegNetY-1.6GF (132 multiprocessors): at batch 32 its 37 groups (91
/// tiles) pack, 1.3x faster; at batch 1 its 14 groups (6 tiles) do not,
/// packed 1.7x slower, nor 37 (7 tiles), 4x slower.
/// `tiles` are the dense convolution's output tiles; where it does not pay,
/// `whyNot` says so, for `brrrc --report`.
bool densePackPays(int64_t groups, int64_t cg, uint64_t tiles,
                   TargetAttr target, std::string &whyNot) {
  // Saturating: a hostile model's extents and group count overflow no
  // product.
  uint64_t sms =
      static_cast<uint64_t>(std::max<int64_t>(target.getMultiprocessors(), 1));
  if (std::min(tiles, sms) * kPackedRateGain >=
      llvm::SaturatingMultiply(static_cast<uint64_t>(groups), sms))
    return true;
  llvm::raw_string_ostream(whyNot)
      << groups << " groups of " << cg
      << " channels stay grouped: one dense convolution would do " << groups
      << " times the multiply-adds over " << tiles << " output tiles of "
      << kPackTileRows << " x " << kPackTileChannels << ", which pays from "
      << llvm::divideCeil(
             llvm::SaturatingMultiply(static_cast<uint64_t>(groups), sms),
             kPackedRateGain)
      << " on " << sms << " multiprocessors";
  return false;
}

/// How brrr-pack-conv-groups packs a convolution's groups: `groups` of them
/// a pack (1: none), and why a dense pack was not taken.
struct GroupPack {
  int64_t groups = 1;
  std::string whyNot;
};

/// The fewest neighbouring groups of `conv` whose union the wgmma
/// convolution body takes (wgmmaTakesConvGroups), dividing the groups, at
/// most `maxGroups`; else, with `maxGroups` above 1, all of them (one
/// dense convolution) where they have more than kDirectConvGroupChannels
/// input channels each and densePackPays; 1 when neither is.
GroupPack convGroupsPerPack(Conv2DOp conv, int64_t maxGroups,
                            TargetAttr target) {
  auto in = cast<RankedTensorType>(conv.getInput().getType());
  auto out = cast<RankedTensorType>(conv.getType());
  int64_t groups = conv.getGroups();
  if (groups < 2 || conv.getChannelsLast() || !in.hasStaticShape() ||
      !out.hasStaticShape() || in.getRank() != 4)
    return {};
  int64_t cg = in.getDimSize(1) / groups, og = out.getDimSize(1) / groups;
  // Already what the body takes.
  if (wgmmaTakesConvGroups(cg, og))
    return {};
  // Where the body pads the groups (wgmmaPadsConvGroups), a pack of k of
  // them is taken only where its k times the multiply-adds cost no more
  // than the padding's: RegNetX-8GF's 16 groups of 120 channels would do
  // 16 times the work packed, 1.14 times padded.
  double use = wgmmaPadsConvGroups(cg) ? wgmmaPaddedGroupUse(cg, og) : 0.0;
  auto packPays = [&](int64_t k) { return use == 0.0 || k * use <= 1.0; };
  for (int64_t k = 2; k <= std::min(groups, maxGroups) && packPays(k); ++k)
    if (groups % k == 0 && wgmmaTakesConvGroups(k * cg, k * og))
      return {k, ""};
  if (maxGroups <= 1 || cg <= kDirectConvGroupChannels)
    return {};
  if (!packPays(groups)) {
    GroupPack padded;
    llvm::raw_string_ostream(padded.whyNot)
        << groups << " groups of " << cg
        << " channels stay grouped on the wgmma body, which pads them: one "
           "dense convolution would do "
        << groups << " times the multiply-adds, the padding "
        << llvm::format("%.2f", 1.0 / use) << " times";
    return padded;
  }
  auto extent = [&](unsigned d) {
    return static_cast<uint64_t>(out.getDimSize(d));
  };
  uint64_t rows = llvm::SaturatingMultiply(
      llvm::SaturatingMultiply(extent(0), extent(2)), extent(3));
  uint64_t tiles =
      llvm::SaturatingMultiply(llvm::divideCeil(rows, kPackTileRows),
                               llvm::divideCeil(extent(1), kPackTileChannels));
  GroupPack pack;
  if (densePackPays(groups, cg, tiles, target, pack.whyNot))
    pack.groups = groups;
  return pack;
}

struct PackConvGroupsPass
    : public mlir::brrr::impl::BrrrPackConvGroupsBase<PackConvGroupsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::ops)))
      return signalPassFailure();
    TargetAttr target = targetOf(getOperation());
    if (!target.hasWgmma())
      return;
    SmallVector<Conv2DOp> convs;
    getOperation().walk([&](Conv2DOp c) {
      if (!c->getParentOfType<FusionOp>())
        convs.push_back(c);
    });
    for (Conv2DOp c : convs)
      pack(c, target);
  }

  void pack(Conv2DOp conv, TargetAttr target) {
    Type elem =
        cast<RankedTensorType>(conv.getInput().getType()).getElementType();
    // The wgmma convolution body multiplies 16-bit operands.
    if (!elem.isF16() && !elem.isBF16())
      return;
    GroupPack pack = convGroupsPerPack(conv, maxGroups, target);
    if (!pack.whyNot.empty())
      conv->setAttr("brrr.groups_unpacked",
                    StringAttr::get(conv.getContext(), pack.whyNot));
    int64_t k = pack.groups;
    if (k == 1)
      return;
    auto wType = cast<RankedTensorType>(conv.getWeight().getType());
    std::optional<SmallVector<double>> weights =
        getConstFloats(conv.getWeight());
    if (!weights)
      return;
    int64_t groups = conv.getGroups();
    int64_t o = wType.getDimSize(0), cg = wType.getDimSize(1);
    int64_t taps = wType.getDimSize(2) * wType.getDimSize(3);
    int64_t og = o / groups;
    // W'[oc, j * cg + c, tap] = W[oc, c, tap] where j is oc's group's
    // place in its pack, else 0: output channels keep their order.
    SmallVector<double> packed(o * k * cg * taps, 0.0);
    for (int64_t oc = 0; oc < o; ++oc) {
      int64_t j = (oc / og) % k;
      for (int64_t c = 0; c < cg; ++c)
        for (int64_t t = 0; t < taps; ++t)
          packed[(oc * k * cg + j * cg + c) * taps + t] =
              (*weights)[(oc * cg + c) * taps + t];
    }
    OpBuilder b(conv);
    auto type = RankedTensorType::get(
        {o, k * cg, wType.getDimSize(2), wType.getDimSize(3)},
        wType.getElementType());
    Value w = ConstantOp::create(
        b, conv.getLoc(), makeFloatElements(type, packed, "packed_groups"));
    Operation *weightOp = conv.getWeight().getDefiningOp();
    conv.getWeightMutable().assign(w);
    conv.setGroups(groups / k);
    if (weightOp && weightOp->use_empty())
      weightOp->erase();
  }
};

} // namespace
