//===- WgmmaBody.h - the Hopper TMA + wgmma product body --------*- C++ -*-===//
//
// What the fronts of the Hopper body (WgmmaMatmulKernel.cpp: matmuls
// through tiled tensor maps, channels-last convolutions through im2col
// ones) hand to it (WgmmaBody.cpp): the product as a WgmmaProblem, with
// its operands' tensor maps and a callback that issues each k-slice's TMA
// copies.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_PRODUCTS_WGMMABODY_H
#define BRRR_COMPILER_CODEGEN_PRODUCTS_WGMMABODY_H

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"

#include "passes/Config/Products.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <functional>

namespace mlir::brrr::wgmma {

/// Bytes of the 128-byte swizzle's rows: one k-slice row of 64 elements.
constexpr int64_t kSwizzleBytes = 128;

/// Index and i32/i64 arithmetic plus the pointer pieces the body uses.
struct WgmmaBuilder : IndexMath {
  Value i32(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                     b.getI32IntegerAttr(v));
  }
  Value i16(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI16Type(),
                                     b.getI16IntegerAttr(v));
  }
  Value i64(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64Type(),
                                     b.getI64IntegerAttr(v));
  }
  Value toI32(Value index) {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
  }
  Value eq(Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, idx(c));
  }
  /// `base` + `bytes` (a shared pointer).
  Value at(Value base, Value bytes) {
    return LLVM::GEPOp::create(
        b, loc, base.getType(), b.getIntegerType(8), base,
        ValueRange{arith::IndexCastOp::create(b, loc, b.getI64Type(), bytes)});
  }
  Value at(Value base, int64_t bytes) { return at(base, idx(bytes)); }
};

/// A wgmma matrix descriptor for a slice swizzled over `swizzle` bytes (128,
/// 64 or 32) at shared address `addr` (i64): start, leading and stride byte
/// offsets in 16-byte units, the swizzle mode (1: 128 bytes, 2: 64, 3: 32)
/// in the top bits.
Value descriptor(WgmmaBuilder &e, Value addr, int64_t leading, int64_t stride,
                 int64_t swizzle = kSwizzleBytes);

/// The descriptor of step `step` (32 bytes along K) of a K-major slice at
/// shared address `base` (i64): boxes of rows `swizzle` bytes wide, `rows`
/// rows a box, one box after the other; the step reads 32 bytes of box
/// step / (swizzle / 32), 8 rows a core matrix.
Value kMajorDescriptor(WgmmaBuilder &e, Value base, int64_t rows,
                       int64_t swizzle, int64_t step);

/// The descriptor of step `step` (16 rows of K) of a 16-bit MN-major slice
/// at shared address `base` (i64), `depth` rows of K deep: boxes of
/// `swizzle` bytes of columns, `depth` rows each, one after the other (the
/// leading offset), 8-row atoms `8 swizzle` bytes apart (the stride).
Value mnMajorDescriptor(WgmmaBuilder &e, Value base, int64_t depth,
                        int64_t swizzle, int64_t step);

/// One operand's tensor map: what the kernel's copies address and what the
/// runtime encodes (dims innermost first, byte strides of the outer dims).
struct MapSpec {
  int64_t input = 0, offsetBytes = 0;
  int64_t swizzle = kSwizzleBytes;
  SmallVector<int64_t> dims, strides, box;
  /// An im2col map (no box): `pixels` output pixels of `channels` channels
  /// each, walked inside the bounding box the corners give (innermost
  /// spatial dimension first), `elementStrides` apart.
  bool im2col = false;
  SmallVector<int64_t> lower, upper, elementStrides;
  int64_t channels = 0, pixels = 0;
  /// Whether the block's batch (grid z) is the map's last coordinate: a
  /// matmul operand that advances over the batch.
  bool batched = false;
  /// Over symbolic extents: each dimension's extent, innermost first, as an
  /// expression of the module's symbols (`dims` then holds the largest);
  /// empty for a fixed map.
  SmallVector<AffineExpr> extents;
};

/// What the body computes: C[z][M, N] = sum over kTiles 64-deep k-slices
/// of A (rows of M, K-contiguous) times B, with the product's fused
/// epilogue. `copies` issues slice kt's TMA copies of A and B.
struct WgmmaProblem {
  Operation *product = nullptr;
  Type elem;
  int64_t M = 0, N = 0, batches = 1, kTiles = 0, flops = 0;
  /// Over symbolic extents: the rows as an expression of the symbols, the
  /// kernel taking them as an i64 after its buffers (M is then the
  /// largest); null for static rows.
  AffineExpr rowsExtent;
  /// Over symbolic batches: their count, the grid z read at run time
  /// (batches is then the largest count; one block a tile only).
  AffineExpr batchesExtent;
  bool bKContiguous = true;
  /// A grouped convolution's output channels per group where they are not
  /// whole tiles (0 otherwise): each group's columns start a tile of their
  /// own, and the epilogue stores none past the group's.
  int64_t groupColumns = 0;
  /// Where the epilogue pairs the product's halves (pairedHalvesOf): the
  /// columns of each half (N counts both), else 0. A tile of n columns
  /// then computes n / 2 of each half, B's boxes for its first half's from
  /// the first half of the weights and its second half's from the second,
  /// and stores n / 2 columns of the epilogue's result, of these columns.
  int64_t pairedColumns = 0;
  /// 32: each k-slice is four 16-deep chunks of A (m x 32 bytes) and B
  /// (n x 32 bytes, K-contiguous), each swizzled over 32 bytes and stored
  /// one after the other; 128: one slice of 128-byte swizzled rows.
  int64_t swizzle = kSwizzleBytes;
  MapSpec aMap, bMap;
  /// Issues k-slice `kt`'s copies: A's m x 64 box to `aDst`, B's to `bDst`.
  std::function<void(
      WgmmaBuilder &e, Value kt, Value aDst, Value bDst,
      const std::function<void(Value dst, bool isA, SmallVector<Value> coords,
                               SmallVector<Value> offsets)> &copy,
      Value row0, Value col0)>
      copies;
  /// Adds column `col`'s bias to an accumulator (f32), or null.
  std::function<Value(WgmmaBuilder &e, Value col, Value acc,
                      function_ref<Value(Value)> arg)>
      addBias;
};

/// The warp-specialized TMA + wgmma body for `problem` with the fusion's
/// config tile `tile`, as gpu.func @name.
FailureOr<KernelInfo> emitWgmmaBody(FusionOp fusion, const MatmulTile &tile,
                                    const WgmmaProblem &problem,
                                    OpBuilder &moduleBuilder, StringRef name);

/// The tile of a product kernel on this body, once the fusion holds only
/// the product and its epilogue (the config's verifier holds the tile to
/// what this body supports).
FailureOr<MatmulTile> productTileOf(FusionOp fusion, Operation *product);

} // namespace mlir::brrr::wgmma

#endif // BRRR_COMPILER_CODEGEN_PRODUCTS_WGMMABODY_H
