//===- FewRowsKernel.h - products of a few rows, a warp a column -*- C++
//-*-===//
//
// The few-rows body both the matmul and the convolution families emit for
// products of at most four rows (a classifier's or a squeeze-and-
// excitation block's at batch 1 to 4), which a 128-row Tensor Core tile
// would pad 32-fold: each warp computes one output column for every row,
// its lanes reading the column's weights and each row's inputs along K in
// 16-byte vectors, and sums across the warp. A family says where a row's
// inputs and a column's weights start; the loop, the sums and the epilogue
// are written once here. Products of 16-bit operands and up to 64 rows may
// run the same layout on Tensor Cores instead (emitFewRowsMmaKernel): a
// warp 16 columns, mma.sync with the weights as A. A product whose
// epilogue pairs its halves (pairedHalvesOf) computes each output column
// from a column of each half: a warp both, or on Tensor Cores a block 8
// of each.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_PRODUCTS_FEWROWSKERNEL_H
#define BRRR_COMPILER_CODEGEN_PRODUCTS_FEWROWSKERNEL_H

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"

#include <functional>

namespace mlir::brrr {

/// A product of `rows` rows and `columns` columns, each column a sum over
/// `depth` elements that lie consecutively in memory in both operands.
struct FewRowsSpec {
  Operation *product;
  int64_t rows, columns, depth;
  /// Over symbolic rows: the actual rows as an expression of the symbols,
  /// read at run time (a kernel parameter) and at most `rows`; rows past
  /// them read row 0 and store nothing. Null for static rows.
  AffineExpr rowsExtent;
  /// The fusion values of the rows' inputs, the columns' weights, and the
  /// bias added to each column (or null).
  Value input, weight, bias;
  /// Element offsets: where row `r`'s inputs for column `n` start, and
  /// where column `n`'s weights start.
  std::function<Value(IndexMath &, int64_t r, Value n)> inputAt;
  std::function<Value(IndexMath &, Value n)> weightAt;
  /// Where row `r`'s inputs start, for any row: the Tensor Core body's
  /// lanes each read a row of their own (null where only the plain body
  /// runs).
  std::function<Value(IndexMath &, Value r)> rowAt;
  /// Where the epilogue pairs the product's halves (pairedHalvesOf): the
  /// columns of each half (`columns` counts both; no bias), else 0. Each
  /// column n of the epilogue's result is computed from columns n and
  /// n + pairedColumns.
  int64_t pairedColumns = 0;
  /// The columns of the epilogue's result.
  int64_t outputColumns() const {
    return pairedColumns ? pairedColumns : columns;
  }
};

/// What both few-rows bodies build alike: the kernel of `threads` threads
/// (over symbolic rows, the actual rows its one parameter), the kernel
/// pointers of the fusion's values, the store of one output element and
/// the kernel's info.
struct FewRowsFrame {
  FewRowsFrame(FusionOp fusion, const FewRowsSpec &spec,
               OpBuilder &moduleBuilder, StringRef name, int64_t threads);
  /// The kernel pointer of fusion value `v`.
  Value arg(Value v) const { return kernelArgument(*entry, v); }
  /// Adds column `n`'s bias to `sum` (the product's element (r, n), in the
  /// compute type) and runs the fused epilogue on it, at b's insertion
  /// point. Paired halves: `sum` is element (r, n) of the first half,
  /// `partner` of the second.
  LogicalResult store(Value sum, Value r, Value n, Value partner = {});
  /// Marks the kernel's ops so far as reading only its parameters and
  /// constant weights, where the weights are a constant and this is not
  /// within a loop (first call only): KernelInfo::independentThrough.
  void weightsLoaded();
  /// Ends the kernel; its launch info.
  KernelInfo finish();

  FusionOp fusion;
  const FewRowsSpec &spec;
  std::string name;
  int64_t threads;
  Block *entry;
  /// Appends to the kernel's entry block.
  OpBuilder b;
  /// The actual rows over symbolic rows (index), else null.
  Value actualRows;
  /// See weightsLoaded.
  Operation *independentThrough = nullptr;
  bool marked = false;
  SmallVector<Value> outputs;
};

/// Emits `fusion`, whose config is the few-rows body (`simt`, a tile of
/// [rows, columns per block], a warp a column, loads of `vector` elements),
/// as `spec` lays out its product.
FailureOr<KernelInfo> emitFewRowsKernel(FusionOp fusion,
                                        const FewRowsSpec &spec,
                                        OpBuilder &moduleBuilder,
                                        StringRef name);

/// Emits `fusion`, whose config is the few-rows body on Tensor Cores
/// (`warp_mma`, a tile of [rows rounded up to 8, kFewRowsMmaColumns], its
/// warps splitting K, loads of 8 elements: FewRowsMmaKernel.cpp), as `spec`
/// lays out its product of 16-bit operands.
FailureOr<KernelInfo> emitFewRowsMmaKernel(FusionOp fusion,
                                           const FewRowsSpec &spec,
                                           OpBuilder &moduleBuilder,
                                           StringRef name);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_CODEGEN_PRODUCTS_FEWROWSKERNEL_H
