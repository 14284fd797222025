//===- ArtifactWriter.h - planned brrr IR -> model.so -----------*- C++ -*-===//
//
// The end of the compiler: reads the decisions the passes left in the IR
// (brrr.memory, brrr.kernel, brrr.grid, ...) into the runtime's Artifact
// (runtime/Artifact.h), and links the serialized image with the prebuilt
// runtime into a self-contained model.so.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_ARTIFACT_ARTIFACTWRITER_H
#define BRRR_COMPILER_ARTIFACT_ARTIFACTWRITER_H

#include "compiler/CodeGen/CodeGen.h"
#include "runtime/Artifact.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::brrr {

/// Reports every op of @main that no kernel family handles yet; fails if
/// there is one. Run after fusion, before code generation.
LogicalResult checkCodeGenSupport(ModuleOp module);

/// One weight and where it goes in the artifact's weight block. The bytes
/// of a weight blob are the blob's own (the MLIR context keeps them alive),
/// never a copy; small inline constants own their little-endian bytes.
struct WeightSlice {
  uint64_t offset = 0;
  llvm::ArrayRef<uint8_t> blob;
  std::vector<uint8_t> owned;
  llvm::ArrayRef<uint8_t> bytes() const {
    return blob.empty() ? llvm::ArrayRef<uint8_t>(owned) : blob;
  }
};

/// A compiled model ready to write: the artifact with its weight block left
/// empty, and the weights that fill it, streamed into the image.
struct ModelImage {
  ::brrr::artifact::Artifact artifact;
  uint64_t weightBytes = 0;
  /// In offset order, each in its own range of the weight block.
  std::vector<WeightSlice> weights;

  /// Bytes of the serialized image.
  uint64_t size() const;
  /// Writes the image (what ::brrr::artifact::deserialize reads), weights
  /// copied from their blobs straight into `os`.
  void write(llvm::raw_ostream &os) const;
  /// The weight block alone, zero-filled between weights.
  void writeWeights(llvm::raw_ostream &os) const;
  /// Copies bytes [offset, offset + length) of the weight block to `out`.
  void readWeights(uint64_t offset, uint64_t length, uint8_t *out) const;
  /// ::brrr::artifact::weightsId() of the weight block.
  uint64_t weightsId() const;
};

/// Where model.so keeps its weights.
enum class WeightsLayout {
  /// In the library's read-only data, like its code: one self-contained
  /// file that any tool (strip, patchelf) may rewrite.
  Embedded,
  /// Appended to the library's file after it is linked, page-aligned, with
  /// a trailer; the runtime maps them from the file it was loaded from. No
  /// weight byte passes through the assembler or the linker, and the
  /// library's code and data stay within the small code model's 2 GiB
  /// whatever the weights' size. Tools that rewrite the file from its
  /// sections (strip) drop them, which the runtime reports at open.
  Appended,
};

/// Weights at or above this many bytes are appended by default: well
/// below the 2 GiB that the linker's 32-bit relocations reach.
constexpr uint64_t kAppendWeightsFrom = 1ull << 30;

/// Builds the image of a module that went through fusion, memory planning
/// and kernel outlining, with `kernels` compiled for `target`.
FailureOr<ModelImage> buildArtifact(ModuleOp module, TargetAttr target,
                                    CompiledKernels kernels);

/// Links `image` and the runtime archive `runtimeLib` into the shared
/// library `outputPath` with the system C++ compiler ($CXX or c++), its
/// weights laid out as `layout` says.
LogicalResult linkModelLibrary(Location loc, const ModelImage &image,
                               StringRef runtimeLib, StringRef outputPath,
                               WeightsLayout layout);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_ARTIFACT_ARTIFACTWRITER_H
