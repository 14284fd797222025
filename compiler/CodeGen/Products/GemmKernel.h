//===- GemmKernel.h - warp-tile Tensor Core GEMM, shared --------*- C++ -*-===//
//
// The Tensor Core kernel bodies both the matmul and the convolution
// families emit for operands the TMA and cp.async bodies cannot read:
// C[z][row, col] = sum_k A(z, row, k) * B(z, k, col) for an M x N x K
// problem per grid z on `mma.sync` (m16n8k16 for f16/bf16; for f32, three
// m16n8k8 tf32 products so results keep f32 accuracy, or one with
// --precision=tf32), then the fused pointwise epilogue on the f32
// accumulators and the only store. f16/bf16 run untiled, one warp per 16x8
// output tile; f32 runs staged block tiles. A family says where its operands
// live (a matrix, or an image seen through im2col) and where each output
// element goes; the tile loop, fragments and epilogue are written once here.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_PRODUCTS_GEMMKERNEL_H
#define BRRR_COMPILER_CODEGEN_PRODUCTS_GEMMKERNEL_H

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"

#include <functional>

namespace mlir::brrr {

/// What the operand and output callbacks build with: index arithmetic, the
/// grid z of the tile, and the kernel argument of a fusion input.
struct GemmBuilder : IndexMath {
  Value z;
  std::function<Value(Value)> arg;
  /// The rows at run time (an index) where they are symbolic
  /// (GemmSpec::rowsExtent); null otherwise.
  Value rows;
  /// row < the rows: `rows` where they are read at run time, else `M`.
  Value belowRows(Value row, int64_t M);

  /// 0 <= x < c on signed index values.
  Value inRange(Value x, int64_t c);
  Value both(Value p, Value q);
  /// base[index] (elements of `elem`) where `valid`, else 0; the address
  /// of an invalid element is never formed.
  Value loadIf(Value base, Type elem, Value valid, Value index);
};

/// Where a GEMM operand's elements live: A(z, row, k) or B(z, k, col).
struct GemmOperand {
  /// The fusion block argument whose buffer holds the operand.
  Value source;
  /// (valid, element index in `source`) of one element; `valid` is false
  /// outside the problem (padding, ragged edges: the indices may lie past
  /// M, N and K there), and the index is then never used as an address.
  std::function<std::pair<Value, Value>(GemmBuilder &, Value, Value)> at;
  /// Whether consecutive k are adjacent in memory (otherwise consecutive
  /// rows of A, columns of B): the staged body's copies run that way, so
  /// that a warp's copies read contiguous memory.
  bool alongK = true;
};

/// One GEMM-shaped kernel: sizes, operand element type, and callbacks.
struct GemmSpec {
  /// The op (first in the fusion) whose result the accumulators hold.
  Operation *product = nullptr;
  int64_t M = 0, N = 0, K = 0, batches = 1;
  /// Where the rows are symbolic: their extent, read at run time as the
  /// kernel's i64 parameter after its buffers (M is then the largest
  /// rows, and the operand callbacks bound rows with belowRows).
  AffineExpr rowsExtent;
  /// Where the batches are symbolic: their count, the grid z read at run
  /// time (batches is then the largest count).
  AffineExpr batchesExtent;
  Type elem;
  GemmOperand a, b;
  /// Linear index in the output tensor of C[z][row, col] (row < M, col < N).
  std::function<Value(GemmBuilder &, Value row, Value col)> outIndex;
  /// Optional: the accumulator after a per-column bias (f32).
  std::function<Value(GemmBuilder &, Value col, Value acc)> addBias;
};

/// f32 `v` rounded to nearest (ties away from zero, as cvt.rna.tf32.f32)
/// to tf32's 10 mantissa bits, as the i32 register mma.sync takes.
/// Truncating instead biases every product toward zero, and the bias
/// compounds over a deep network's layers.
Value roundToTf32(OpBuilder &b, Location loc, Value v);

/// f32 `v` as big + small, two tf32 registers: big is `v` rounded to
/// nearest tf32 and small the rest (exact in f32), rounded to nearest tf32
/// in turn, so that a * b ~ big * big + big * small + small * big is off by
/// at most 2^-22 of |a * b|. Truncating either half (the Tensor Cores read
/// only a register's top 19 bits) made it 2^-20, biased toward zero: 16x
/// torch's f32 error on ResNet-50.
std::pair<Value, Value> splitTf32(OpBuilder &b, Location loc, Value v);

/// acc + a x b by one mma.sync m16n8k8 on tf32 registers (A: 4, B: 2;
/// A row-major, B column-major) into four f32 accumulators.
SmallVector<Value> mmaTf32(OpBuilder &b, Location loc, ArrayRef<Value> a,
                           ArrayRef<Value> bRegs, ArrayRef<Value> acc);

/// acc + a x b for split operands (splitTf32): the three products start
/// from zero and join `acc` through an f32 add that rounds to nearest. The
/// Tensor Cores' own accumulation truncates, and over K steps that bias
/// grew the error with K (1.5e-5 for ResNet-50's K = 2048 classifier
/// against float64).
SmallVector<Value> mma3xTf32(OpBuilder &b, Location loc, ArrayRef<Value> aBig,
                             ArrayRef<Value> aSmall, ArrayRef<Value> bBig,
                             ArrayRef<Value> bSmall, ArrayRef<Value> acc);

/// Emits `fusion` (spec.product then pointwise epilogue ops) as
/// `gpu.func @name`, on the body its config names: warp_mma (untiled) or,
/// for f32 operands, mma_sync (emitStagedGemmKernel).
FailureOr<KernelInfo> emitGemmKernel(FusionOp fusion, const GemmSpec &spec,
                                     OpBuilder &moduleBuilder, StringRef name);

/// The staged f32 body (StagedGemmKernel.cpp): block tiles of 64 x 32 or 32 x
/// 32 warp tiles on mma.sync tf32, k-slices copied element by element into
/// shared memory with cp.async through the config's stages.
FailureOr<KernelInfo> emitStagedGemmKernel(FusionOp fusion,
                                           const GemmSpec &spec,
                                           OpBuilder &moduleBuilder,
                                           StringRef name);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_CODEGEN_PRODUCTS_GEMMKERNEL_H
