//===- Calibrate.h - brrrc --calibrate and --calibration-cache --*- C++ -*-===//
//
// The calibration table that --precision=fp8|int8 quantizes by: measured on
// the calibration inputs by a build of the model that returns the
// activations to quantize, or read from a cache an earlier compile wrote.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TOOLS_BRRRC_CALIBRATE_H
#define BRRR_TOOLS_BRRRC_CALIBRATE_H

#include "compiler/Import/OnnxImporter.h"
#include "compiler/Pipeline/Pipeline.h"
#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <string>

namespace onnx {
class ModelProto;
} // namespace onnx

namespace brrrc {

struct CalibrationFlags {
  /// --calibrate: the calibration inputs (a file or a directory).
  std::string inputs;
  /// --calibration-cache: written after a run, else read.
  std::string cache;
  /// --calibration-percentile (0: the largest magnitude).
  double percentile = 0;
};

/// The table (key -> largest magnitude) for `model`, or null after an error
/// message. A run builds the model with `compile`'s settings, `target` and
/// the float `precision`, with kernels from the CUDA toolkit at `cudaPath`:
/// with `shapes`' ranges where it has any (each calibration input runs at
/// its own shape in them), else for the calibration inputs' shape.
mlir::DictionaryAttr
calibrationTable(mlir::MLIRContext &context, const onnx::ModelProto &model,
                 llvm::StringRef modelPath, const CalibrationFlags &flags,
                 const mlir::brrr::ImportOptions &shapes,
                 mlir::brrr::CompileOptions compile,
                 mlir::brrr::TargetAttr target, llvm::StringRef precision,
                 llvm::StringRef cudaPath);

} // namespace brrrc

#endif // BRRR_TOOLS_BRRRC_CALIBRATE_H
