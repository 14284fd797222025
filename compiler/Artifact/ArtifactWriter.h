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

/// Builds the artifact of a module that went through fusion, memory
/// planning and kernel outlining, with `kernels` compiled for `target`.
FailureOr<::brrr::artifact::Artifact>
buildArtifact(ModuleOp module, const Target &target, CompiledKernels kernels);

/// Links `image` and the runtime archive `runtimeLib` into the shared
/// library `outputPath` with the system C++ compiler ($CXX or c++).
LogicalResult linkModelLibrary(Location loc, llvm::ArrayRef<uint8_t> image,
                               StringRef runtimeLib, StringRef outputPath);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_ARTIFACT_ARTIFACTWRITER_H
