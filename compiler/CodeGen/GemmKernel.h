//===- GemmKernel.h - warp-tile Tensor Core GEMM, shared --------*- C++ -*-===//
//
// The Tensor Core kernel body both the matmul and the convolution families
// emit: C[z][row, col] = sum_k A(z, row, k) * B(z, k, col) for an M x N x K
// problem per grid z, one warp per 16x8 output tile with `mma.sync`
// (m16n8k16 for f16/bf16; three m16n8k8 tf32 products for f32 so results
// keep f32 accuracy), then the fused pointwise epilogue on the f32
// accumulators and the only store. A family says where its operands live
// (a matrix, or an image seen through im2col) and where each output element
// goes; the tile loop, fragments and epilogue are written once here.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_GEMMKERNEL_H
#define BRRR_COMPILER_CODEGEN_GEMMKERNEL_H

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"

#include <functional>

namespace mlir::brrr {

/// What the operand and output callbacks build with: index arithmetic, the
/// grid z of the tile, and the kernel argument of a fusion input.
struct GemmBuilder : IndexMath {
  Value z;
  std::function<Value(Value)> arg;

  /// 0 <= x < c on signed index values.
  Value inRange(Value x, int64_t c);
  Value both(Value p, Value q);
  /// base[index] (elements of `elem`) where `valid`, else 0; the address
  /// of an invalid element is never formed.
  Value loadIf(Value base, Type elem, Value valid, Value index);
};

/// One GEMM-shaped kernel: sizes, operand element type, and callbacks.
struct GemmSpec {
  /// The op (first in the fusion) whose result the accumulators hold.
  Operation *product = nullptr;
  int64_t M = 0, N = 0, K = 0, batches = 1;
  Type elem;
  /// A(z, row, k) and B(z, k, col), 0 outside the problem; the indices may
  /// lie past M, N and K at ragged edges.
  std::function<Value(GemmBuilder &, Value row, Value k)> loadA, loadB;
  /// Linear index in the output tensor of C[z][row, col] (row < M, col < N).
  std::function<Value(GemmBuilder &, Value row, Value col)> outIndex;
  /// Optional: the accumulator after a per-column bias (f32).
  std::function<Value(GemmBuilder &, Value col, Value acc)> addBias;
};

/// Emits `fusion` (spec.product then pointwise epilogue ops) as
/// `gpu.func @name`.
FailureOr<KernelInfo> emitGemmKernel(FusionOp fusion, const GemmSpec &spec,
                                     OpBuilder &moduleBuilder, StringRef name);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_CODEGEN_GEMMKERNEL_H
