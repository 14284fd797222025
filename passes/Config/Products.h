//===- Products.h - product kernels' shapes and tiles -----------*- C++ -*-===//
//
// Matmul and convolution kernels (the Tensor Core families): their
// operands' layouts, shapes and TMA views, the tile each body takes, and
// the heuristics brrr-select-kernel-config chooses them with
// (ProductTiles.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_CONFIG_PRODUCTS_H
#define BRRR_PASSES_CONFIG_PRODUCTS_H

#include "passes/Analysis.h"

#include "llvm/Support/MathExtras.h"

#include <array>
#include <optional>
#include <string>

namespace mlir::brrr {

/// Where the elements of a matmul operand live: the value the kernel reads
/// and, per logical dimension, the element stride in it, from an element
/// offset. Views fused into the matmul kernel (transpose, reshape, slice
/// with positive steps) only change these numbers.
struct OperandLayout {
  Value source;                 ///< the tensor in memory
  SmallVector<int64_t> shape;   ///< the operand's logical shape
  SmallVector<int64_t> strides; ///< element strides of the logical dims
  int64_t offset = 0;           ///< element offset of element 0
  /// The view ops between `source` and the operand, in program order.
  SmallVector<Operation *> views;
};
/// The layout of `operand`, looking back through the chain of views that
/// it reads while strides can express them (each view read once, or only by
/// other views: the slices of a stacked query, key and value); the chain
/// stops at a value that must be materialized.
OperandLayout operandLayoutOf(Value operand);
/// An OperandLayout over symbolic extents: the operand's extents, and each
/// stride and the offset, as products of a constant and symbols.
struct SymbolicLayout {
  SmallVector<ExtentProduct> shape, strides;
  ExtentProduct offset;
};
/// `l`'s layout over the symbolic extents of its source and views (read
/// before the types are narrowed to the largest shape), or none where an
/// extent, stride or offset is not such a product.
std::optional<SymbolicLayout> symbolicLayoutOf(const OperandLayout &l);
/// The row-major strides of a tensor of `extents`, as products of symbols,
/// or none where one is not such a product.
std::optional<SmallVector<ExtentProduct>>
rowMajorProducts(ArrayRef<AffineExpr> extents);
/// isStageable for a symbolic layout, at every value of the symbols.
bool isStageable(Type et, const SymbolicLayout &l);
/// Whether a product of `et` operands laid out as `lhs` and `rhs` can be
/// staged through shared memory in 16-byte copies: f16/bf16, the innermost
/// logical dimension contiguous, every other stride a whole 16 bytes.
bool isStageable(Type et, const OperandLayout &lhs, const OperandLayout &rhs);
/// Whether the attention kernel stages an operand of `et` laid out as `l`
/// in 16-byte copies: f16, bf16 or f32, the innermost dimension contiguous,
/// every other stride a whole 16 bytes (at every value of the symbols).
bool isAttentionStageable(Type et, const OperandLayout &l);
bool isAttentionStageable(Type et, const SymbolicLayout &l);
/// Whether the wgmma body multiplies operands of `et`: f16, bf16, and the
/// 8-bit float8 E4M3FN and INT8 (isEightBitProductType).
inline bool isWgmmaOperandType(Type et) {
  return et.isF16() || et.isBF16() || isEightBitProductType(et);
}

struct ProductShape;

/// The block tile of a Tensor Core matmul staged through shared memory:
/// the C++ view of a matmul's `#brrr.kernel` config with a tile.
/// mma_sync: an m x n output tile per block of (m/64) x (n/64) warps, each
/// warp a 64 x 64 tile. wgmma: one producer warpgroup issuing TMA copies
/// and m/64 consumer warpgroups, each computing 64 rows x n. Either way
/// k-deep slices of A and B stream through `stages` buffers.
struct MatmulTile {
  KernelBody body = KernelBody::mma_sync;
  int64_t m = 128, n = 128, k = 32, stages = 3;
  /// wgmma only: the blocks of a persistent grid (0: one block per tile)
  /// and the columns its epilogue stages at a time (0: the whole tile, over
  /// the stages).
  int64_t persistent = 0, epilogue = 0;
  /// wgmma only, persistent: how the consumer warpgroups share the tiles
  /// (KernelSchedule: both compute each tile; each computes whole tiles,
  /// taking turns with the other; or both compute each tile and leave its
  /// epilogue to warps of the producer warpgroup).
  KernelSchedule schedule = KernelSchedule::cooperative;
  bool pingpong() const { return schedule == KernelSchedule::pingpong; }
  bool overlapped() const { return schedule == KernelSchedule::overlapped; }
  /// wgmma only: the blocks of a cluster that split the k-slices of one
  /// tile between them and sum their accumulators through distributed
  /// shared memory (1: one block per tile).
  int64_t cluster = 1;
  /// wgmma only: the blocks of a cluster (2) that compute vertically
  /// adjacent tiles of the same columns and multicast each k-slice of B to
  /// each other, each copying its share (1: each block copies its own).
  int64_t multicast = 1;
  /// wgmma only, persistent: the blocks split the product's k-slices
  /// evenly instead of its tiles (stream-K; KernelConfigAttr's
  /// `stream_k`), a tile shared by consecutive blocks summed through the
  /// kernel's workspace.
  bool streamK = false;
  /// wgmma with float8 operands: `promoted` (each slice summed apart, then
  /// added in f32) or `fast` (the Tensor Cores' float8 accumulation);
  /// `exact` otherwise.
  KernelPrecision precision = KernelPrecision::exact;
  /// wgmma only, overlapped: warpgroups beside the producer's warps 1-3
  /// that only drain staged tiles (0 or 1; the config's `threads` says
  /// which: 128 x (1 + m / 64 + drainGroups)).
  int64_t drainGroups = 0;
  int64_t threads() const {
    return body == KernelBody::wgmma ? 128 * (1 + m / 64 + drainGroups)
                                     : 32 * (m / 64) * (n / 64);
  }
  /// Bytes of an operand element: 2 (f16, bf16), or 1 on the wgmma body's
  /// 8-bit products (float8, INT8), whose 128-byte rows hold k = 128. Not
  /// part of the config: the product's operand type (elementBytesOf).
  int64_t elementBytes = 2;
  /// Padded shared-memory row pitch (elements) of the A and B slices: 16
  /// bytes of padding keep ldmatrix rows on distinct banks. The wgmma body
  /// reads 128-byte swizzled rows instead: k elements, no padding.
  int64_t aPitch() const { return body == KernelBody::wgmma ? k : k + 8; }
  int64_t bPitch() const { return body == KernelBody::wgmma ? k : n + 8; }
  /// Shared bytes of one stage's A and B slice.
  int64_t aStageBytes() const { return elementBytes * m * aPitch(); }
  int64_t bStageBytes() const {
    return body == KernelBody::wgmma ? elementBytes * n * k
                                     : elementBytes * k * bPitch();
  }
  int64_t stageBytes() const { return aStageBytes() + bStageBytes(); }
  /// The f32 mma_sync body (tf32 Tensor Cores): a block of (m / rows) x
  /// (n / 32) warps, each a `rows` (64 or 32) x 32 tile.
  int64_t f32Threads(int64_t rows = 64) const {
    return 32 * (m / rows) * (n / 32);
  }
  /// Its slices keep their contiguous dimension innermost, padded so that
  /// neither the copies nor the fragment reads conflict on banks: `rows` x
  /// (k + 4) f32 where k is contiguous, k x (rows + 8) where rows are.
  static int64_t f32Pitch(bool alongK, int64_t rows, int64_t k) {
    return alongK ? k + 4 : rows + 8;
  }
  /// Bytes of one f32 slice of `rows` x k, in either layout.
  static int64_t f32SliceBytes(int64_t rows, int64_t k) {
    return 4 * std::max(rows * f32Pitch(true, rows, k),
                        k * f32Pitch(false, rows, k));
  }
  int64_t f32StageBytes() const {
    return f32SliceBytes(m, k) + f32SliceBytes(n, k);
  }
  /// Shared bytes of the wgmma epilogue's staging: every consumer's 64
  /// rows of `epilogue` columns (or of the whole tile), rows padded by
  /// wgmmaEpiloguePitch, in f32, or in an overlapped kernel in
  /// stagedBytes.
  int64_t epilogueBytes() const;
  /// Bytes of an element an overlapped kernel stages: a 16-bit product's
  /// own 16-bit result, an 8-bit product's f32 sums (INT8's converted), on
  /// which its epilogue applies the scales.
  int64_t stagedBytes() const { return elementBytes == 1 ? 4 : 2; }
  /// Shared bytes of the wgmma body's mbarriers: a full and an empty one
  /// per stage, and in an overlapped kernel a "staged" and a "drained" one
  /// for its epilogue staging.
  int64_t barrierBytes() const { return 16 * (stages + overlapped()); }
  /// The output tiles of a product of shape `p`, over all its batches.
  int64_t tilesOf(const ProductShape &p) const;

  /// The config of a matmul (or conv) kernel with this tile.
  KernelConfigAttr config(MLIRContext *ctx,
                          KernelFamily family = KernelFamily::matmul) const;
  /// The tile of a config with one (mma_sync, wgmma), or none, for
  /// operands of `elementBytes`.
  static std::optional<MatmulTile> of(KernelConfigAttr config,
                                      int64_t elementBytes = 2);
  /// The operand element bytes of the product `fusion` holds (a matmul or
  /// convolution): 1 for 8-bit operands, else 2.
  static int64_t elementBytesOf(FusionOp fusion);
};

/// The staged tile of an f32 product (matmul or convolution) of shape `p`
/// on mma.sync tf32: 128 x 128 where its tiles fill the multiprocessors
/// (128 x 64 for at most 64 columns), else 128 x 64 or 64 x 64, among
/// those whose two stages fit `sharedBudget`; 32-deep k-slices (16 where K
/// is at most 16, or where no 32-deep tile fits) through up to three
/// stages, one more (or one fewer) where a tile's k-slices are exactly as
/// many as its stages.
/// On sm_90a, where even 64 x 64 tiles leave multiprocessors idle, each
/// tile's k-slices split over a cluster of 2, 4 or 8 blocks (at least two
/// slices each, no more blocks than multiprocessors), whose partial tiles
/// are summed through distributed shared memory. None when no tile fits
/// two stages in `sharedBudget`.
std::optional<MatmulTile> f32TileOf(const ProductShape &p, TargetAttr target,
                                    int64_t sharedBudget);

/// How the wgmma body reads a matmul operand through a TMA tensor map:
/// the contiguous dimension (K for A; K or N for B) is the map's innermost,
/// the other matrix dimension the next, and the batch, flattened, a third
/// with one stride (0: the operand is broadcast over the batch).
struct TmaOperand {
  bool kContiguous = true;
  int64_t batchStride = 0; ///< elements between consecutive flattened batches
};
/// The TMA reading of `layout` (the lhs when `isLhs`) in a product over
/// `batch`, or none: 16-bit elements, 16-byte aligned start and strides,
/// and batch dimensions that flatten to a single stride.
std::optional<TmaOperand> tmaOperandOf(const OperandLayout &layout,
                                       ArrayRef<int64_t> batch, bool isLhs);

/// The sizes of a batched matmul: C[batch][M, N] = A[.., M, K] x B[.., K, N].
struct ProductShape {
  /// At the largest shape over symbolic extents (compilesSymbolically),
  /// with `rowsExtent` the rows M as an expression of the symbols (null for
  /// a static product), or `batchesExtent` the batches (the symbolic
  /// extents are batch dimensions of both operands: attention's products).
  int64_t M = 0, N = 0, K = 0;
  AffineExpr rowsExtent, batchesExtent;
  SmallVector<int64_t> batch; ///< the result's batch dimensions
  int64_t batches = 1;        ///< their product
  /// Whether the rows or the batches are symbolic.
  bool symbolic() const { return rowsExtent || batchesExtent; }
  /// Whether a tile must not straddle two batches' columns: a grouped
  /// convolution's groups are batches side by side along N.
  bool wholeColumns = false;
  /// Whether the product's epilogue pairs its two halves of N / 2 columns
  /// (pairedHalvesOf: a gated unit's two products side by side): each
  /// wgmma tile of n columns holds n / 2 of each, n a multiple of 128, on
  /// the cooperative or overlapped schedule, without multicast.
  bool pairedHalves = false;
};
/// The product `mm`'s kernel computes (productOperandsOf's shape).
ProductShape productShapeOf(MatmulOp mm);

/// A matmul's product and the layouts its kernel reads its operands
/// through (operandLayoutOf). Where B has no batch dimensions of its own
/// (a Linear layer's [K, N] weights) and A's rows are evenly spaced across
/// its batch dimensions, those fold into the rows: a Linear over an
/// [N, H, W, C] activation is one product of N x H x W rows, whose tiles
/// span batch boundaries, not N x H products of W rows each. The result's
/// element order is the same either way.
struct ProductOperands {
  ProductShape shape;
  OperandLayout lhs, rhs;
};
ProductOperands productOperandsOf(MatmulOp mm);

/// The width (64, 128, 192 or 256) of the wgmma body's 128-row tiles for
/// a product of shape `p`: 64 for at most 64 columns, else the one that
/// minimizes waves x time per tile (a wave of 128 x n tiles takes 64 +
/// 3n/4 units: a 128-wide tile does half a 256-wide one's work at about 0.8
/// of its rate, measured on an H100, test/gpu/NOTES.md), so a narrower
/// tile wins when it saves a wave. With `wholeColumns`, 256 where it
/// divides N, else 128 where 128 does; otherwise the narrowest of 128, 192
/// and 256 that holds N, or 128.
int64_t wgmmaTileWidth(const ProductShape &p, TargetAttr target,
                       int64_t widest = 256);

/// How a wgmma `tile` over `operand`s of a product of shape `p` sums:
/// float8 ones `fast` (the Tensor Cores' own float8 accumulation) with
/// `fastFloat8`, else `promoted` (each slice apart, added in f32), which
/// narrows a wider tile to at most kPromotedWidth columns (wgmmaTileWidth
/// up to that): the slice's sums and the accumulators are both held in
/// registers. Other tiles keep `exact`.
void chooseFloat8Sums(MatmulTile &tile, Type operand, bool fastFloat8,
                      const ProductShape &p, TargetAttr target,
                      int64_t sharedBudget);

/// The wgmma body's tile for a product of shape `p` on sm_90a over
/// operands of `elementBytes`: 128 x n (wgmmaTileWidth) over slices one
/// 128-byte row deep (64 16-bit elements, 128 8-bit ones), as many stages
/// (up to 4) as `sharedBudget` holds, or none when fewer than 2 fit.
std::optional<MatmulTile> wgmmaTileOf(const ProductShape &p, TargetAttr target,
                                      int64_t sharedBudget,
                                      int64_t elementBytes = 2);

/// Makes a wgmma `tile` over a product of shape `p` persistent where its
/// tiles outnumber the multiprocessors (brrr-select-kernel-config: every
/// convolution, products with `persistent`): one block per multiprocessor
/// walks them, its epilogue staged through a buffer of its own (the widest
/// column chunk that fits `sharedBudget` beside the stages, with a ring one
/// stage shorter where that makes it 64 columns or more) so that the
/// producer streams the next tile's slices while the consumers store this
/// one's. Other tiles keep one block per tile. With `schedule` pingpong the
/// tile narrows to at most 128 columns, one consumer warpgroup's
/// accumulators, and the consumers take turns on whole tiles; overlapped,
/// the epilogue stages the whole tile in 16 bits beside a ring of at most
/// four stages (at least two; a 256-column tile narrows to 192 where that
/// keeps four and pads N no more) and warps of the producer warpgroup
/// drain it (the caller asks for it only for products of a 16-bit
/// result or 8-bit operands), with `drainGroups` (0 or 1) warpgroups of
/// drain warps of their own beside. A promoted float8 tile overlapped is
/// at most kPromotedOverlappedWidth wide, and ping-pong narrows it to 64
/// columns: its slice's sums sit beside the accumulators.
/// With `fewerTiles`, even where the tiles do not outnumber the
/// multiprocessors (chooseStreamK: its blocks split the slices).
void choosePersistence(MatmulTile &tile, const ProductShape &p,
                       TargetAttr target, int64_t sharedBudget,
                       KernelSchedule schedule = KernelSchedule::cooperative,
                       int64_t drainGroups = 0, bool fewerTiles = false);

/// Whether the tile of a drain warpgroup (at most kDrainGroupWidth wide:
/// wgmmaTileWidth up to that) runs a 16-bit product of shape `p` no slower
/// than `tile`, wider, runs it with its epilogue in the consumers' time:
/// the busiest multiprocessor's tiles, each a main loop of (64 + 3n/4)
/// units a unit of depth (wgmmaTileWidth's law), the wider ones each
/// adding an epilogue as long as kExposedEpilogueDepth more of it. A tile
/// at most that wide keeps its width, and pays.
bool drainTileKeepsPace(const MatmulTile &tile, const ProductShape &p,
                        TargetAttr target);

/// Splits each of a wgmma product's tiles between `tile.cluster` blocks of
/// a cluster (2, 4 or 8; 1: none) when its tiles leave most
/// multiprocessors idle: the blocks take equal runs of the k-slices and
/// sum their f32 accumulators through distributed shared memory, each
/// applying the epilogue to its share of the rows. Chosen by estimated
/// time: waves of blocks, each streaming its slices after a fixed start,
/// plus the exchange; a wave holds 120 blocks of clusters of 4 or 8 (a
/// cluster stays within a GPC). A persistent tile is never split.
void chooseClusterSplit(MatmulTile &tile, const ProductShape &p,
                        TargetAttr target);

/// Makes a wgmma `tile` over a product of shape `p`, `kTiles` k-slices a
/// tile, split its k-slices evenly between its blocks instead of its tiles
/// (stream-K: `stream_k`), where the tiles do not divide evenly between
/// the multiprocessors and `use` asks: `always`, or `automatic` where the
/// busiest block's slices, plus kStreamKFixupSlices for storing and adding
/// partial tiles, are at most 7/8 of whole tiles' (a last wave under about
/// three quarters full: ViT-B/16's 768-wide products at batch 32, 200
/// tiles over 132 blocks; ResNet-50's 98-tile convolutions at batch 32).
/// A persistent tile keeps its schedule (cooperative or overlapped); one
/// block a tile, over fewer tiles than multiprocessors, becomes a
/// persistent grid of every multiprocessor on the cooperative schedule.
/// Not over a cluster split, multicasting pairs, symbolic extents or
/// partial column tiles.
void chooseStreamK(MatmulTile &tile, const ProductShape &p, int64_t kTiles,
                   TargetAttr target, int64_t sharedBudget, Choice use);

/// Narrows a wgmma product's (or a one-group convolution's) 128 x n
/// `tile` (one block per tile, split by chooseClusterSplit) to 128 x 64
/// where those tiles still make at most one wave and, split as
/// chooseClusterSplit would split them, finish sooner by its estimate: the
/// 128- and 512-row products of a transformer at small batches, and CNNs'
/// convolutions at batch 1, which 128-wide tiles leave on a few dozen
/// multiprocessors. The narrow ring holds a block's whole run of slices:
/// two to six stages.
void chooseNarrowTile(MatmulTile &tile, const ProductShape &p,
                      TargetAttr target, int64_t sharedBudget);

/// The matmul a matmul kernel computes (after the views it reads through),
/// or null.
MatmulOp matmulOf(FusionOp fusion);

/// A matmul kernel's product whose epilogue pairs the halves of its
/// columns (brrr-fuse-matmul's gated pairs: silu(x W_gate) * (x W_up) as
/// one product by [W_gate | W_up]): the product is read only by the two
/// slices that follow it in the kernel, `low` the first `columns` of its
/// last dimension and `high` the next `columns`, the whole of the others.
/// The epilogue computes on one element of each half at a time.
struct PairedHalves {
  SliceOp low, high;
  int64_t columns = 0;
};
std::optional<PairedHalves> pairedHalvesOf(MatmulOp mm);

/// The slices `first` and the op after it where they read `wide` (a tensor
/// whose last dimension is even and static) as its halves, `low` its first
/// half of the last dimension and `high` its second, the whole of the
/// others, and nothing else reads `wide`.
std::optional<PairedHalves> halvesAt(Value wide, Operation *first);

/// The tile a matmul kernel runs with on `target`,
/// or none (the untiled body): f16 and bf16 operands whose rows are whole
/// 16-byte chunks (K and N multiples of 8). On a wgmma target, products whose
/// operands TMA can read run the wgmma body. Stages: as many as
/// `sharedBudget` bytes hold, up to the body's useful depth.
/// brrr-select-kernel-config records it in the fusion's config.
std::optional<MatmulTile> matmulTileOf(FusionOp fusion, TargetAttr target,
                                       int64_t sharedBudget);

/// A channels-last convolution as the implicit GEMM the wgmma body runs:
/// rows are the N x OH x OW output pixels, columns the O output channels,
/// K the KH x KW taps of C channels each.
struct ConvGemm {
  int64_t N = 0, H = 0, W = 0, C = 0, O = 0, OH = 0, OW = 0, KH = 0, KW = 0;
  /// A symbolic batch's extent (N is then its largest value); null for a
  /// static batch.
  AffineExpr batchExtent;
  int64_t sh = 1, sw = 1, pt = 0, pl = 0, pb = 0, pr = 0, dh = 1, dw = 1;
  /// Groups: group g reads input channels [g C/G, (g + 1) C/G) and writes
  /// output channels [g O/G, (g + 1) O/G). C and O count all groups.
  int64_t G = 1;
  /// The geometry of `conv`, in either layout.
  static ConvGemm shapeOf(Conv2DOp conv);
  /// The geometry of `conv`, or none when TMA's im2col mode cannot read
  /// it: channels-last, f16/bf16 or (one group of more than 16 channels)
  /// 8-bit, rows of input channels in whole 16-byte chunks, a bounding box
  /// whose corners fit the 8 signed bits of a 4-D map, tap offsets up to 255
  /// and strides up to 8. With several groups, groups the body pads
  /// (wgmmaPadsConvGroups).
  static std::optional<ConvGemm> of(Conv2DOp conv);
  /// The product the body computes: N x OH x OW rows, O / G columns in
  /// each of G groups side by side, K = KH x KW x C / G; over a symbolic
  /// batch, the largest rows, and their extent in `rowsExtent`.
  ProductShape product() const;
  /// Bytes of channels each copy of a k-slice holds, the slice's swizzle
  /// for operands of `elementBytes`: 128, one tap's block of channels; or
  /// where a group's channels fill less of a convolution of several taps,
  /// 32 or 64 bytes of each of several taps (a slice of 64-channel
  /// half-empty blocks would multiply zeros: an 8-bit 3 x 3 convolution of
  /// 64 channels a group takes two taps a 128-deep slice). With at most 16
  /// channels (the stem's 3, padded to 8; 16-bit only), 32 bytes, even of
  /// one tap.
  int64_t wgmmaBoxBytes(int64_t elementBytes) const;
  /// Taps each k-slice `k` channels deep covers: 1, or several
  /// (wgmmaBoxBytes less than the slice's bytes).
  int64_t wgmmaTapsPerSlice(int64_t k, int64_t elementBytes) const;
  /// The k-slices the wgmma body streams over slices `k` channels deep:
  /// each tap's channel blocks of k, or each wgmmaTapsPerSlice taps (the
  /// last slice's taps past the last read zeros).
  int64_t wgmmaSlices(int64_t k, int64_t elementBytes) const;
};

/// The tile a conv kernel runs with on `target`, or none (the untiled
/// body): on sm_90a, a convolution ConvGemm describes runs the wgmma body
/// with 128 x n tiles (n by the same wave cost model as matmuls) over
/// 64-channel k-slices.
std::optional<MatmulTile> convTileOf(FusionOp fusion, TargetAttr target,
                                     int64_t sharedBudget);

/// Input channels per group up to which a grouped convolution runs the
/// direct body instead of a Tensor Core product: depthwise convolutions
/// (one channel per group) and narrow groups are products of a few columns
/// and a short K, memory-bound, so each output walks its window on plain
/// threads.
constexpr int64_t kDirectConvGroupChannels = 8;

/// Whether `conv` runs the direct body: more than one group, of at most
/// kDirectConvGroupChannels input channels each.
bool isDirectConv(Conv2DOp conv);

/// Rows (the batch) up to which a one-pixel convolution runs the one-pixel
/// body, and the output channels (one a warp) of its blocks.
constexpr int64_t kOnePixelRows = 4, kOnePixelChannelsPerBlock = 8;

/// Weights (elements) up to which a one-pixel convolution runs the
/// one-pixel body; past them, the Tensor Core body's TMA copies stream
/// them faster than one warp an output channel reads them.
constexpr int64_t kOnePixelMaxWeights = int64_t(1) << 20;

/// Whether `conv` runs the one-pixel body (the conv family's `simt` body
/// with a tile of [rows, channels per block]): a 1 x 1 convolution over a
/// 1 x 1 image (a squeeze-and-excitation block's, a pooled classifier's)
/// of a static batch of at most kOnePixelRows, of floats, not direct
/// (isDirectConv), with at most kOnePixelMaxWeights weights. As a product
/// it is at most four rows, which a 128-row Tensor Core tile pads 32-fold:
/// each warp instead computes one output channel for every row, its lanes
/// reading the channel's weights and each row's input in 16-byte vectors,
/// and sums across the warp.
bool isOnePixelConv(Conv2DOp conv);

/// Whether `conv`, a 16-bit one-pixel convolution as isOnePixelConv
/// describes over a symbolic batch whose smallest value is at most
/// kOnePixelRows, runs its ranges of at most that many rows on the
/// one-pixel body (recordRowVariants), the actual batch read at run time:
/// a squeeze-and-excitation block at batch 1 over a batch range.
bool takesOnePixelRanges(Conv2DOp conv);

/// The blocks of `s`-block clusters that one wave of `sms` multiprocessors
/// holds, a block each: a cluster stays within one GPC, and an H200's GPCs
/// hold 66 clusters of 2 but only 30 of 4 and 15 of 8, 120 blocks
/// (cudaOccupancyMaxActiveClusters, test/gpu/NOTES.md), taken for every
/// sm_90a chip.
int64_t clusterWave(int64_t sms, int64_t s);

/// Whether `mm` runs the few-rows body (the matmul family's `simt` body
/// with a tile of [rows, columns per block], compiler/CodeGen/Products/
/// FewRowsKernel.h): one batch of at most kOnePixelRows static rows, f16,
/// bf16 or f32, both operands read along K (brrr-align-products stores a
/// constant weight of such a product K-major, [N, K] read through a
/// transpose). As on the one-pixel body, each warp computes one output
/// column for every row.
bool isFewRowsMatmul(MatmulOp mm);

/// Whether `mm`, over symbolic rows whose smallest value is at most
/// kOnePixelRows, runs its ranges of at most that many rows on the
/// few-rows body (recordRowVariants): its operands as isFewRowsMatmul
/// asks, the rows read at run time. A decoder's products at one token
/// read their weights once, as a static compile of one row does, where a
/// 128-row Tensor Core tile would pad them 128-fold.
bool takesFewRowsRanges(MatmulOp mm);

/// The elements of the few-rows body's vector loads of `mm`: the most, in
/// at most 16 bytes, that divide K and every row's and column's start.
int64_t fewRowsVectorWidth(MatmulOp mm);

/// Rows up to which a 16-bit product may run the few-rows body on Tensor
/// Cores, and the columns each of its warps computes.
constexpr int64_t kFewRowsMmaMaxRows = 64, kFewRowsMmaColumns = 16;

/// Rows up to which the body runs by default: on an H200 it took 0.48-0.93x
/// the time of the wgmma body's 128-row tiles at 5 to 32 rows on chains of
/// 2048-, 4096- and 768-wide products (test/gpu/skinny_bench.py), 0.83-1.23x
/// at 48 and 1.12-1.50x at 64.
constexpr int64_t kFewRowsMmaAutoRows = 32;

/// The most rows of a product that runs the few-rows body on Tensor Cores
/// under `few-rows-mma` (products of more than kOnePixelRows rows): up to
/// kFewRowsMmaAutoRows by default, kFewRowsMmaMaxRows always, or none.
inline int64_t fewRowsMmaRows(Choice use) {
  switch (use) {
  case Choice::automatic:
    return kFewRowsMmaAutoRows;
  case Choice::always:
    return kFewRowsMmaMaxRows;
  case Choice::never:
    return 0;
  }
  return 0;
}

/// Whether `mm` can run the few-rows body on Tensor Cores (the matmul
/// family's `warp_mma` body with a tile of [rows, columns per block],
/// compiler/CodeGen/Products/FewRowsKernel.h): f16 or bf16 operands read
/// along K as isFewRowsMatmul asks, in 16-byte vectors
/// (fewRowsVectorWidth 8), and rows either static, more than
/// kOnePixelRows and at most kFewRowsMmaMaxRows, or symbolic as
/// takesFewRowsRanges asks. Each warp multiplies 16 columns' weights by
/// every row's inputs on mma.sync, the weights as A: a product of 16 rows
/// reads its weights once at no Tensor Core waste, where the wgmma body's
/// 128-row tile multiplies 112 rows of zeros.
bool takesFewRowsMma(MatmulOp mm);

/// Whether groups of `inChannels` input and `outChannels` output channels
/// each fill the wgmma convolution body's copies and tiles: whole
/// 64-channel slices and 128-wide tiles (brrr-pack-conv-groups).
inline bool wgmmaTakesConvGroups(int64_t inChannels, int64_t outChannels) {
  return inChannels % 64 == 0 && outChannels % 128 == 0;
}

/// Whether the wgmma convolution body runs groups of `inChannels` input
/// channels each at all: more than the direct body's, in whole 16-byte
/// chunks (TMA's stride alignment of the weights' rows). A group's last
/// 64-channel slice may be partial: the weights' map reads zeros past the
/// group's channels, so the activations read there (the next group's, or
/// zeros past the last) add +0 (NaN where one of them is infinite or NaN,
/// as in a dense pack, brrr-pack-conv-groups). Its last column tile may be
/// partial: the tile reads the next group's weights into columns its epilogue
/// does not store.
inline bool wgmmaPadsConvGroups(int64_t inChannels) {
  return inChannels > kDirectConvGroupChannels && inChannels % 8 == 0;
}

/// The share of the wgmma body's multiply-adds that a grouped convolution
/// needs, on groups it pads: the group's channels over whole 64-channel
/// slices, times its outputs over whole 128-wide tiles (a narrower tile
/// runs slower, costing about as much). The packs were measured against
/// this share; groups of at most 32 channels over several taps now pad
/// less (ConvGemm::wgmmaBoxBytes), which it does not count yet.
inline double wgmmaPaddedGroupUse(int64_t inChannels, int64_t outChannels) {
  return double(inChannels) / double(llvm::alignTo(inChannels, 64)) *
         double(outChannels) / double(llvm::alignTo(outChannels, 128));
}

/// Output channels each thread of a direct convolution computes: for a
/// channels-last depthwise convolution (one input and one output channel
/// per group), 16 bytes of consecutive channels, halved until it divides
/// the channel count, so that every tap is one vector load of the input
/// and one of the weights; otherwise 1.
int64_t directConvVectorWidth(Conv2DOp conv);

/// The output pixels along a row that one thread of a channels-last
/// depthwise direct convolution computes (its config's `tile = [pixels]`):
/// each input vector of the row it loads serves every output whose window
/// covers it, and each weight vector all of them. 4 (or 2) where that
/// still leaves a wave of 256-thread blocks on `target`'s
/// multiprocessors, 1 otherwise and for other direct convolutions.
int64_t directConvPixels(Conv2DOp conv, TargetAttr target);

/// The matmul, convolution or attention a Tensor Core kernel computes, or
/// null.
Operation *tensorCoreProductOf(FusionOp fusion);
/// Whether `fusion`'s Tensor Core product (matmul, conv or attention)
/// multiplies f32 operands: the staged tf32 body's products.
bool isF32Product(FusionOp fusion);

/// Row pitch (f32 elements) of the wgmma body's epilogue staging: n plus 8
/// words keeps the fragment writes (8 rows of 4 lanes x 8 bytes per
/// half-warp) on distinct banks.
inline int64_t wgmmaEpiloguePitch(int64_t n) { return n + 8; }

/// Shared bytes the wgmma body keeps beside its stages: its mbarriers
/// (MatmulTile::barrierBytes, `barriers` bytes) and room to align the stages
/// to the 1024 bytes the 128-byte swizzle repeats over.
inline int64_t wgmmaExtraShared(int64_t barriers) { return barriers + 1024; }

struct ConfigOptions;
struct Grid;
struct SharedBuffer;

/// Why pairs of blocks of the wgmma `tile` over `product` (of shape `p` on
/// that body) cannot multicast B to each other, or none: they must compute
/// vertically adjacent tiles of the same columns (an even count of row
/// tiles, and of persistent blocks, whose walk then pairs them up), each
/// copying half of a slice of B's box rows (of the tile's columns where B
/// is read along K, of the slice's k rows where it is read along N; not a
/// grouped convolution's partial tiles) in whole 8-row swizzle atoms, with
/// no split of the k-slices and no symbolic extent.
std::optional<std::string> multicastRefusal(Operation *product,
                                            const MatmulTile &tile,
                                            const ProductShape &p);
/// Sets `tile.multicast` to 2 where `use` asks for it and
/// multicastRefusal allows it: automatically, where the tiles outnumber
/// the multiprocessors (measured, test/gpu/notes/2026-12-04-f.md:
/// BERT-base fp16 at batch 128 1.3% faster, GPT-2 at batch 8 2%; the
/// conv family asks only for `always`, and so do matmuls whose B is read
/// along N and 8-bit products, measured 1.3-1.8x slower paired,
/// test/gpu/notes/2026-12-07-c.md).
void chooseMulticast(MatmulTile &tile, Operation *product,
                     const ProductShape &p, TargetAttr target, Choice use);

/// The rules the matmul and conv families share
/// (passes/Config/Families/Products.cpp).
///
/// The schedule `options` force on `product`'s persistent grid: ping-pong,
/// overlapped (for a 16-bit result, which it stages in its own type, or
/// 8-bit operands, whose f32 sums it stages) or cooperative.
KernelSchedule forcedSchedule(Operation *product, const ConfigOptions &options);
/// Whether `product`'s result is f16 or bf16.
bool hasHalfResult(Operation *product);
/// The config of a product that no 16-bit tile takes: f32 operands on the
/// staged mma_sync body (3xTF32, or one tf32 product under
/// `--precision=tf32`), or failure where no such tile fits the budget;
/// 8-bit operands are a diagnostic (only the wgmma body multiplies them);
/// the rest run the untiled warp_mma body.
FailureOr<KernelConfigAttr> untiledProductConfig(FusionOp fusion,
                                                 const ConfigOptions &options);
/// Over symbolic rows `p.rowsExtent` (from the smallest to the largest
/// rows, `p.M`): records on `fusion` the configs `configAt` chooses at the
/// largest rows of each power-of-two range of rows (smallest x 2^k; a
/// matmul's split again at smallest x 3 x 2^(k-1)) where it differs from
/// the next range's (kVariantsAttrName); `main` is the largest range's. A
/// range's kernel then runs between the rows the range below it was
/// chosen for and its own, where a static compile of each shape would
/// choose at the shape's own rows.
void recordRowVariants(
    FusionOp fusion, const ProductShape &p, KernelConfigAttr main,
    function_ref<KernelConfigAttr(const ProductShape &)> configAt);
/// Whether a product's Tensor Core body lays `fusion` out under `config`:
/// warp_mma multiplies f16 or bf16; mma_sync f32 operands on the staged
/// tf32 body (a warp a 64 x 32 or 32 x 32 tile) or 16-bit ones of a matmul
/// it stages in 16-byte chunks (a warp a 64 x 64 tile, no cluster); wgmma
/// operands TMA reads, in slices one 128-byte row deep that split evenly
/// over the cluster, symbolic rows over one batch on the cooperative
/// schedule, symbolic batches a block a tile, and float8 sums promoted or
/// fast, others exact. Each grid within the launch limits.
LogicalResult verifyProduct(FusionOp fusion, KernelConfigAttr config);
/// The grid of a product on a Tensor Core body: warp_mma a warp a 16 x 8
/// output tile, mma_sync a block a tile (over the blocks of a cluster where
/// its k-slices are split), wgmma a block a tile of each batch (over a
/// cluster's blocks where split; persistent: the config's blocks, at most
/// one a tile, walk every batch's tiles).
FailureOr<Grid> productGrid(FusionOp fusion, KernelConfigAttr config);
/// The shared buffers of a product on a tiled body (none on warp_mma).
LogicalResult productBuffers(FusionOp fusion, KernelConfigAttr config,
                             SmallVectorImpl<SharedBuffer> &buffers,
                             int64_t &slack);

} // namespace mlir::brrr

#endif // BRRR_PASSES_CONFIG_PRODUCTS_H
