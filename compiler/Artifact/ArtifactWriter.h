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
};

/// Builds the image of a module that went through fusion, memory planning
/// and kernel outlining, with `kernels` compiled for `target`.
FailureOr<ModelImage> buildArtifact(ModuleOp module, TargetAttr target,
                                    CompiledKernels kernels);

/// Links `image` and the runtime archive `runtimeLib` into the shared
/// library `outputPath` with the system C++ compiler ($CXX or c++).
LogicalResult linkModelLibrary(Location loc, const ModelImage &image,
                               StringRef runtimeLib, StringRef outputPath);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_ARTIFACT_ARTIFACTWRITER_H
