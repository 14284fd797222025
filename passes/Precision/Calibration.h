//===- Calibration.h - what calibration and its passes share ---*- C++ -*-===//
//
// The names brrr-calibration-outputs, brrr-quantize-calibrated and brrrc's
// calibration agree on.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_PASSES_PRECISION_CALIBRATION_H
#define BRRR_PASSES_PRECISION_CALIBRATION_H

#include "llvm/ADT/StringRef.h"

namespace mlir::brrr {

/// The module attribute holding the calibration table: a dictionary from
/// each key to its activation's largest magnitude (an f64 FloatAttr).
constexpr llvm::StringLiteral kCalibrationAttrName = "brrr.calibration";

/// What names a calibration output: this prefix, then its key.
constexpr llvm::StringLiteral kCalibrationOutputPrefix = "brrr.calibration:";

} // namespace mlir::brrr

#endif // BRRR_PASSES_PRECISION_CALIBRATION_H
