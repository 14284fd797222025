//===- BrrrOps.h - brrr dialect and ops -------------------------*- C++ -*-===//
//
// Public C++ interface of the brrr tensor graph dialect: the dialect class,
// the generated op classes, and the shape helpers that the importer and the
// ops' type inference share.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_DIALECTS_BRRR_BRRROPS_H
#define BRRR_DIALECTS_BRRR_BRRROPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/Brrr/BrrrDialect.h.inc"
#include "dialects/Brrr/BrrrEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Brrr/BrrrAttrs.h.inc"

namespace mlir::brrr {

/// Largest number of elements a folder materializes as a new constant.
/// Shape computations and mask builders (a 56x56 window mask) stay below
/// it; real data never gets copied.
constexpr int64_t kMaxFoldElements = 16384;

/// The `brrr.fusion` attribute holding its kernel's `#brrr.kernel` config.
constexpr llvm::StringLiteral kKernelConfigAttrName = "brrr.config";

/// Over symbolic rows, a Tensor Core kernel's config for each range of
/// rows whose best config differs from the next range's
/// (brrr-select-kernel-config): `brrr.variants`, ascending, each a
/// dictionary {rows: the range's largest rows (i64), config: its
/// #brrr.kernel}, the rows of the fusion's own `brrr.config` above the
/// last; `brrr.variant_rows` the rows as a map of the symbols. Code
/// generation emits a kernel per variant (`brrr.launch_variants`: the
/// launch attributes of each, and its `rows`), and the runtime launches the
/// one whose range holds the actual rows.
constexpr llvm::StringLiteral kVariantsAttrName = "brrr.variants";
constexpr llvm::StringLiteral kVariantRowsAttrName = "brrr.variant_rows";
constexpr llvm::StringLiteral kLaunchVariantsAttrName = "brrr.launch_variants";

/// The `brrr.fusion` attribute holding its kernel's `#brrr.shared` plan.
constexpr llvm::StringLiteral kSharedPlanAttrName = "brrr.shared";

/// The attribute of a `brrr.fusion` (one `#brrr.placement` per result)
/// and of a `brrr.constant` (one) placing them in global memory.
constexpr llvm::StringLiteral kMemoryPlanAttrName = "brrr.memory";
/// A stream-K product kernel's global scratch (`brrr.workspace`, recorded
/// by brrr-plan-global-memory): two arena placements, the blocks' f32
/// partial tiles (live while the kernel runs) and one i32 flag a block,
/// never shared with another buffer, zero when the context is created and
/// left zero by every launch.
constexpr llvm::StringLiteral kWorkspaceAttrName = "brrr.workspace";

/// The `brrr.fusion` attribute holding its kernel's `#brrr.index_check`.
constexpr llvm::StringLiteral kIndexCheckAttrName = "brrr.index_check";

/// The module attribute holding the `#brrr.target` it is compiled for.
constexpr llvm::StringLiteral kTargetAttrName = "brrr.target";

/// The widest wgmma tile whose float8 sums are promoted (`precision =
/// promoted`): a consumer holds 64 x 192 accumulators and as many sums of
/// the slice in flight, 96 + 96 f32 registers a thread.
constexpr int64_t kPromotedWidth = 192;
/// The widest such tile on the overlapped schedule, whose consumers run on
/// fewer registers (the drain warps take the rest): 64 + 64 a thread.
constexpr int64_t kPromotedOverlappedWidth = 128;
/// The widest tile of an overlapped kernel with a drain warpgroup of its
/// own, whose 512 threads launch with 128 registers each: ptxas refused a
/// 256-wide convolution's consumers there (64 x 256 f32 accumulators, 128
/// a thread, needed 154).
constexpr int64_t kDrainGroupWidth = 192;

/// A tiled transpose's config (a movement kernel): tiles of kTransposeTile
/// x kTransposeTile elements through shared memory, kTransposeTile x
/// kTransposeRows threads a tile (`tile = [32, 8]`).
constexpr int64_t kTransposeTile = 32, kTransposeRows = 8;

/// The target of the module that holds `op` (or is `op`): its
/// `brrr.target`, or TargetAttr::untargeted without one.
TargetAttr targetOf(Operation *op);

//===----------------------------------------------------------------------===//
// Symbolic dimensions
//===----------------------------------------------------------------------===//

/// The module attribute listing the symbolic dimensions (`#brrr.dim`) that
/// `#brrr.extents` encodings name s0, s1, ...
constexpr llvm::StringLiteral kDimsAttrName = "brrr.dims";

/// The `brrr.fusion` attributes of a kernel over symbolic extents, set by
/// code generation: its grid as a map of the module's symbols to (x, y, z),
/// and the extents it takes as i64 parameters after its buffers (a map to
/// one result per parameter).
constexpr llvm::StringLiteral kGridExtentsAttrName = "brrr.grid_extents";
constexpr llvm::StringLiteral kScalarsAttrName = "brrr.scalars";

/// Whether `t` is a ranked tensor type each of whose dimensions is static
/// or, where it is `?`, given by a `#brrr.extents` encoding.
bool isStaticOrSymbolic(Type t);

/// Whether `t` is a tensor type with symbolic (`?`) dimensions.
bool isSymbolic(Type t);

/// The extent of each dimension of `t`: a constant where it is static, the
/// `#brrr.extents` expression where it is symbolic (null if it has none).
SmallVector<AffineExpr> extentsOf(RankedTensorType t);

/// The tensor type of `extents` and `elementType`: static where every
/// extent is a constant (not negative), else `?` where an extent is not
/// and a `#brrr.extents` encoding.
RankedTensorType tensorTypeOf(MLIRContext *context,
                              ArrayRef<AffineExpr> extents, Type elementType);

/// How many symbols `extents` name: one past the largest position.
unsigned symbolCountOf(ArrayRef<AffineExpr> extents);

/// The `#brrr.extents` of `extents`, over symbolCountOf(extents) symbols.
ExtentsAttr extentsAttrOf(MLIRContext *context, ArrayRef<AffineExpr> extents);

/// The symbolic dimensions of the module that holds `op` (or is `op`):
/// its `brrr.dims`, empty without one.
SmallVector<DimAttr> dimsOf(Operation *op);

/// The smallest and largest value `extent` takes over `dims`' ranges, or
/// nullopt if it names a symbol `dims` lacks, divides by a non-positive
/// constant or overflows int64.
std::optional<std::pair<int64_t, int64_t>> rangeOf(AffineExpr extent,
                                                   ArrayRef<DimAttr> dims);

/// Symbol values largestWithin walks at most (of all symbols but the last).
constexpr uint64_t kLargestWithinPoints = uint64_t(1) << 16;

/// The largest value each of `exprs` takes over `dims`' ranges where
/// `bound` is at most `upTo` (0 each where it never is), or nullopt where
/// `bound` or one of `exprs` may decrease as a symbol grows (a remainder, a
/// negative factor), names a symbol `dims` lacks or overflows, or where the
/// symbols but the last take more than kLargestWithinPoints values
/// together.
std::optional<SmallVector<int64_t>> largestWithin(ArrayRef<AffineExpr> exprs,
                                                  AffineExpr bound,
                                                  int64_t upTo,
                                                  ArrayRef<DimAttr> dims);

/// `t`'s shape with every symbolic extent at its largest value over
/// `dims`, or nullopt if rangeOf fails for one.
std::optional<SmallVector<int64_t>> largestShape(RankedTensorType t,
                                                 ArrayRef<DimAttr> dims);

/// The tensor type of `shape` and `elementType` whose `?` dimensions take
/// `like`'s symbolic extents, in order (the k-th `?` of `shape` the k-th
/// symbolic extent of `like`), for a pass that rebuilds a type around
/// symbolic dimensions it carries through unchanged (a batch through a
/// layout change); static if `like` is. Asserts that the counts agree.
RankedTensorType shapedLike(RankedTensorType like, ArrayRef<int64_t> shape,
                            Type elementType);

/// `extent` spelled with `dims`' names for diagnostics: "batch * 128".
std::string extentName(AffineExpr extent, ArrayRef<DimAttr> dims);

/// `t`'s extents spelled with `dims`' names and the ranges of the symbols
/// they use, for diagnostics: "[batch, 3, 64, 64] (batch in 1..128)".
std::string symbolicShapeName(RankedTensorType t, ArrayRef<DimAttr> dims);

/// The name of the ONNX node behind `loc` (the importer's NameLoc, found
/// through the fused locations that rewrites leave), or empty.
StringRef nodeNameOf(Location loc);

/// Fails with an error naming `pass` and the first value under `root`
/// with symbolic extents that `compiles` does not accept (all, without
/// it): results of ops it rejects, and block arguments of regions of ops
/// it rejects. The gate of every pass, which passes through what the
/// compiler handles symbolically (see passes/Passes.h's
/// requireSupportedShapes).
LogicalResult
requireStaticShapes(Operation *root, StringRef pass,
                    llvm::function_ref<bool(Operation *)> compiles = nullptr);

/// How many leading dimensions of `t` hold its symbolic extents: one past
/// the last symbolic dimension (0 for a static type). A kernel reads that
/// outer run at run time and everything after it is static.
unsigned outerRunOf(RankedTensorType t);

/// `t` at its largest shape over `dims`, static and without encoding; `t`
/// itself when it is static; null when rangeOf fails for an extent.
RankedTensorType largestTypeOf(RankedTensorType t, ArrayRef<DimAttr> dims);

/// An extent that is a product: a constant times symbols (positions into
/// the module's `brrr.dims`, sorted, a symbol once per factor).
struct ExtentProduct {
  int64_t coefficient = 1;
  SmallVector<unsigned> symbols;
  bool operator==(const ExtentProduct &other) const {
    return coefficient == other.coefficient && symbols == other.symbols;
  }
  bool operator!=(const ExtentProduct &other) const {
    return !(*this == other);
  }
};

/// `extent` as a product, or nullopt if it is none (a sum, a quotient) or
/// its coefficient overflows int64.
std::optional<ExtentProduct> productOf(AffineExpr extent);

/// The product of `extents` (an element count), or nullopt if one is not
/// a product or the coefficient overflows.
std::optional<ExtentProduct> productOf(ArrayRef<AffineExpr> extents);

/// `p` as an extent expression.
AffineExpr extentOf(const ExtentProduct &p, MLIRContext *context);

/// Whether `e` is the constant extent 1 (a dimension that broadcasts).
bool isUnitExtent(AffineExpr e);

/// The numpy broadcast of two shapes given as extents, or failure with the
/// reason in `why`: a pair of dimensions that are neither equal nor 1 (a
/// symbolic extent broadcasts only against 1 or an equal extent).
FailureOr<SmallVector<AffineExpr>> broadcastExtents(ArrayRef<AffineExpr> lhs,
                                                    ArrayRef<AffineExpr> rhs);

/// The numpy broadcast of two shapes, or failure if some dimension pair is
/// neither equal nor 1.
FailureOr<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> lhs,
                                                ArrayRef<int64_t> rhs);

/// Result type of an elementwise op over `lhs` and `rhs`: the broadcast shape
/// with `resultElementType`, or the operands' common element type if null.
LogicalResult inferBroadcastResult(std::optional<Location> loc, Value lhs,
                                   Value rhs, Type resultElementType,
                                   SmallVectorImpl<Type> &types);

/// The extent of a window of `kernel` taps `dilation` apart,
/// dilation * (kernel - 1) + 1, or nullopt if it overflows int64.
std::optional<int64_t> windowExtent(int64_t kernel, int64_t dilation);

/// Result type of 2-D pooling (shared by max and average pooling) over an
/// NCHW input, or NHWC with `channelsLast`.
LogicalResult inferPool2DResult(std::optional<Location> loc, Value input,
                                ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> pads,
                                ArrayRef<int64_t> dilations, bool ceilMode,
                                bool channelsLast,
                                SmallVectorImpl<Type> &types);

/// What is known of an integer (or boolean) tensor whose every element is
/// offset + sum_d coefficients[d] * i_d at its index (i_0, i_1, ...), at
/// every value of the module's symbols: positions and masks that exporters
/// build from ranges. A coefficient of a dimension of extent 1 is 0.
struct IndexValues {
  int64_t offset = 0;
  SmallVector<int64_t> coefficients;
  /// Whether every element is `offset`.
  bool isUniform() const;
};

/// The IndexValues of `v` when they can be derived through the ops that
/// keep them (constants, views, slices, concatenations, sums, comparisons,
/// in-range lookups; see BrrrIndexValues.cpp), each value fitting its
/// element type; nullopt otherwise.
std::optional<IndexValues> indexValuesOf(Value v);

/// Bytes one element of type `t` takes in memory (i1: one byte).
inline int64_t elementBytes(Type t) {
  return t.isInteger(1) ? 1 : (t.getIntOrFloatBitWidth() + 7) / 8;
}

/// Most bytes one tensor may take: no supported GPU has more memory (an
/// H200 has 141 GB), so a larger tensor cannot run anywhere.
constexpr int64_t kMaxTensorBytes = 141'000'000'000;

/// Why `type` cannot be a tensor of a compiled model (a dynamic or negative
/// dimension, a size that overflows int64 or exceeds kMaxTensorBytes), or
/// an empty string if it can.
std::string invalidTensorType(ShapedType type);
/// The same for a tensor type that may be symbolic, at its largest extents
/// over `dims`.
std::string invalidTensorType(RankedTensorType type, ArrayRef<DimAttr> dims);

/// The values of an integer constant (dense or dense_resource), if `v` is
/// produced by one.
std::optional<SmallVector<int64_t>> getConstInts(Value v);
/// The values of a float or integer constant as doubles, if `v` is
/// produced by one.
std::optional<SmallVector<double>> getConstFloats(Value v);

/// `v` rounded to the float type `t` (to nearest, ties to even), as a
/// value of `t` holds it.
double roundedTo(Type t, double v);

/// A float constant of `type` holding `values` (rounded to the element
/// type): inline for a few elements, else a `dense_resource` blob named
/// after `key`, like imported weights.
ElementsAttr makeFloatElements(RankedTensorType type, ArrayRef<double> values,
                               StringRef key);

/// `weights` (a `dense_resource` blob) transposed by `perm` into a new blob
/// of `type`, or null for other constants.
ElementsAttr transposeWeights(ElementsAttr weights, RankedTensorType type,
                              ArrayRef<int64_t> perm);

/// Constant-folds an elementwise binary op whose operands are small dense
/// constants; returns null when it does not apply.
OpFoldResult foldBinaryOp(Operation *op, Attribute lhs, Attribute rhs);

/// Why an elementwise binary op, comparison or cast whose operands are
/// small constants does not fold: some element has no defined value
/// (integer division by zero, say) and is left to the kernel. Empty if it
/// folds or is not such an op.
std::string undefinedFoldReason(Operation *op);

/// Whether `x pred 0` holds for every x in [lo, hi] (true) or for none
/// (false): the outcome of comparing two values whose difference lies
/// there; nullopt where it depends on x.
std::optional<bool> comparePredicateOver(ComparePredicate pred, int64_t lo,
                                         int64_t hi);

/// Whether `lhs pred rhs` holds.
template <typename T>
bool comparePredicateHolds(ComparePredicate pred, T lhs, T rhs) {
  switch (pred) {
  case ComparePredicate::eq:
    return lhs == rhs;
  case ComparePredicate::ne:
    return lhs != rhs;
  case ComparePredicate::lt:
    return lhs < rhs;
  case ComparePredicate::le:
    return lhs <= rhs;
  case ComparePredicate::gt:
    return lhs > rhs;
  case ComparePredicate::ge:
    return lhs >= rhs;
  }
  return false;
}

/// Whether `t` is an operand type of 8-bit products: float8 E4M3FN or
/// (signless) INT8.
inline bool isEightBitProductType(Type t) {
  return isa<Float8E4M3FNType>(t) || t.isSignlessInteger(8);
}

/// The ONNX name of an element type brrr quantizes to or from (INT8,
/// UINT8, FLOAT8E4M3FN, ...), or the MLIR spelling of any other.
std::string quantizedTypeName(Type t);

/// ONNX's DequantizeLinear of one value in f32: the exact difference of
/// `x` and `zero` (integers, or float8 values), times `scale`.
double dequantizeValue(double x, double zero, double scale, bool isFloat8);

/// `v` rounded to float8 E4M3FN, to nearest even: beyond the largest finite
/// value (448) it saturates to it with `saturate` (ONNX's default; an
/// infinity too) and becomes NaN without. NaN stays NaN.
APFloat roundToFloat8(APFloat v, bool saturate);

/// Whether every value of element type `from` survives a cast to `to`
/// exactly (a float to a float with at least its exponent range and
/// precision, an integer to a wider one of the same signedness).
bool widensExactly(Type from, Type to);

} // namespace mlir::brrr

#define GET_OP_CLASSES
#include "dialects/Brrr/BrrrOps.h.inc"

#endif // BRRR_DIALECTS_BRRR_BRRROPS_H
