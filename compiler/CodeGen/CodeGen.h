//===- CodeGen.h - brrr kernels -> gpu.module -> PTX/cubin ------*- C++ -*-===//
//
// The code generator, after fusion and memory planning: the outlining pass
// turns every `brrr.fusion` into a `gpu.func` of one `gpu.module` (kernel
// families: PointwiseKernel.cpp, RowKernel.cpp, MovementKernel.cpp,
// ReduceKernel.cpp, MatmulKernel.cpp with TiledMatmulKernel.cpp and
// WgmmaMatmulKernel.cpp over WgmmaBody.cpp, AttentionKernel.cpp,
// ConvKernel.cpp with DirectConvKernel.cpp, PoolKernel.cpp), recording the
// kernel name and launch shape on the fusion; compileKernels lowers that module
// through NVVM and LLVM's NVPTX back end to PTX and, with ptxas, to cubin.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CODEGEN_CODEGEN_H
#define BRRR_COMPILER_CODEGEN_CODEGEN_H

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Support/Timing.h"

#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::brrr {

#define GEN_PASS_DECL
#include "compiler/CodeGen/CodeGenPasses.h.inc"
#define GEN_PASS_REGISTRATION
#include "compiler/CodeGen/CodeGenPasses.h.inc"

/// Name of the gpu.module holding every kernel.
constexpr llvm::StringLiteral kKernelModuleName = "brrr_kernels";

/// A kernel attribute listing its parameters passed by value as 128-byte
/// `__grid_constant__` blobs (TMA tensor maps); NVVMTarget applies it.
constexpr llvm::StringLiteral kByValueAttrName = "brrr.by_value";

/// A unit attribute brrr-outline-kernels sets on a fusion under its
/// `prefetch-weights` option while it emits the fusion's kernel, where that
/// kernel may launch early: a body that can copy its constant weights ahead
/// of its inputs does so (the wgmma body: B of its first k-slices) and
/// records where it then waits (KernelInfo::independentThrough).
constexpr llvm::StringLiteral kWeightsBeforeWaitAttrName =
    "brrr.weights_before_wait";

/// What the launch plan needs to know about one generated kernel.
struct KernelInfo {
  std::string name;
  int64_t grid = 1, gridY = 1, gridZ = 1, block = 1, sharedBytes = 0;
  int64_t flops = 0, bytes = 0;
  /// TMA tensor maps the kernel takes by value before its buffers (see
  /// `brrr.tensor_maps`), or null.
  ArrayAttr tensorMaps;
  /// Each block takes a whole multiprocessor's registers (the wgmma body:
  /// setmaxnreg moves the producer's registers to the consumers), so no two
  /// blocks share one.
  bool wholeMultiprocessor = false;
  /// The op after which the kernel first reads what an earlier kernel
  /// wrote: everything up to it reads only the kernel's parameters and
  /// constant weights (the few-rows bodies' first weight vectors). A kernel
  /// launched early as a programmatic dependent waits for the kernel before
  /// it there, so that these loads overlap that kernel's end. Null: it
  /// waits at its start.
  Operation *independentThrough = nullptr;
  /// A kernel over symbolic extents: its grid (x, y, z) as expressions over
  /// the module's symbols, whose values at the largest shape are `grid`,
  /// `gridY` and `gridZ` (empty for a static grid; both from the config),
  /// and the extents it takes as i64 parameters after its buffers, in
  /// order.
  SmallVector<AffineExpr, 3> gridExtents;
  SmallVector<AffineExpr> scalars;
};

/// Emits the pointwise kernel of `fusion` as `gpu.func @name` at the
/// builder's insertion point (inside the kernel gpu.module).
FailureOr<KernelInfo>
emitPointwiseKernel(FusionOp fusion, OpBuilder &moduleBuilder, StringRef name);

/// Emits the row-reduction kernel (softmax, log-softmax, layer norm) of
/// `fusion` as `gpu.func @name`, with its shared memory as a global.
FailureOr<KernelInfo> emitRowKernel(FusionOp fusion, OpBuilder &moduleBuilder,
                                    StringRef name);

/// Emits the general reduction kernel (any axes, integer elements) of
/// `fusion`: one thread per output element.
FailureOr<KernelInfo>
emitReduceKernel(FusionOp fusion, OpBuilder &moduleBuilder, StringRef name);

/// Emits the data-movement kernel (transpose, slice, expand, gather,
/// concat, pad) of `fusion` as `gpu.func @name`.
FailureOr<KernelInfo>
emitMovementKernel(FusionOp fusion, OpBuilder &moduleBuilder, StringRef name);

/// Emits the Tensor Core matmul kernel of `fusion` as `gpu.func @name` on
/// the mma_sync or warp_mma body its config names.
FailureOr<KernelInfo>
emitMatmulKernel(FusionOp fusion, OpBuilder &moduleBuilder, StringRef name);

/// Emits the staged Tensor Core matmul of `fusion` (its config's body is
/// mma_sync).
FailureOr<KernelInfo> emitTiledMatmulKernel(FusionOp fusion,
                                            OpBuilder &moduleBuilder,
                                            StringRef name);

/// Emits the Hopper TMA + wgmma matmul of `fusion` (its config's body is
/// wgmma).
FailureOr<KernelInfo> emitWgmmaMatmulKernel(FusionOp fusion,
                                            OpBuilder &moduleBuilder,
                                            StringRef name);

/// Emits the fused attention kernel of `fusion` (FlashAttention-2 style on
/// mma.sync).
FailureOr<KernelInfo>
emitAttentionKernel(FusionOp fusion, OpBuilder &moduleBuilder, StringRef name);

/// Emits the Hopper implicit-GEMM convolution of `fusion` (a channels-last
/// convolution with a wgmma config): TMA im2col copies of the activations.
FailureOr<KernelInfo>
emitWgmmaConvKernel(FusionOp fusion, OpBuilder &moduleBuilder, StringRef name);

/// Emits the direct convolution of `fusion` (a depthwise or narrow-group
/// convolution with a simt config): each thread walks its window.
FailureOr<KernelInfo>
emitDirectConvKernel(FusionOp fusion, OpBuilder &moduleBuilder, StringRef name);

/// Emits the one-pixel convolution of `fusion` (a 1 x 1 convolution of one
/// pixel and a few rows with a simt config tiled [rows, channels per
/// block]): a warp an output channel.
FailureOr<KernelInfo> emitOnePixelConvKernel(FusionOp fusion,
                                             OpBuilder &moduleBuilder,
                                             StringRef name);

/// Emits the convolution kernel of `fusion` as an implicit GEMM on the
/// mma_sync or warp_mma body its config names.
FailureOr<KernelInfo> emitConvKernel(FusionOp fusion, OpBuilder &moduleBuilder,
                                     StringRef name);

/// Emits the windowed max/average pooling kernel of `fusion`.
FailureOr<KernelInfo> emitPoolKernel(FusionOp fusion, OpBuilder &moduleBuilder,
                                     StringRef name);

/// PTX and cubin of the kernel module of `module`.
struct CompiledKernels {
  std::string ptx;
  std::vector<uint8_t> cubin; ///< empty when compiled without a cubin
};
/// Lowers the `brrr_kernels` gpu.module of `module` (left unchanged) to PTX
/// and, with `withCubin`, to a cubin for `target`. `cudaPath` holds
/// nvvm/libdevice and bin/ptxas (ptxas is also looked for on PATH); without
/// ptxas, compiling a cubin fails with a diagnostic that says so. With
/// `timing`, its stages are timed under it: the lowering to LLVM, LLVM's
/// NVPTX back end, ptxas.
FailureOr<CompiledKernels> compileKernels(ModuleOp module, TargetAttr target,
                                          StringRef cudaPath,
                                          bool withCubin = true,
                                          TimingScope *timing = nullptr);

/// Registers the dialects, interfaces and translations code generation uses.
void registerCodeGenDialects(DialectRegistry &registry);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_CODEGEN_CODEGEN_H
