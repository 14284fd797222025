//===- Report.h - brrrc --report and its roofline chart ---------*- C++ -*-===//
//
// What `brrrc --report` prints and `--plot` draws (Report.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_TOOLS_BRRRC_REPORT_H
#define BRRR_TOOLS_BRRRC_REPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace brrrc {

/// The static half of `brrr-run --profile`, to stdout: per kernel its work,
/// precision, traffic, floor and bound, then why products of dequantized
/// operands and attention softmaxes were not fused. A model compiled for
/// ranges reports its largest shape, or the one `shapeSpecs` name
/// (`--shape NAME=D0xD1x...`, one per input; false after an error message
/// when they do not fit the model).
bool printReport(mlir::ModuleOp module,
                 llvm::ArrayRef<std::string> shapeSpecs = {});

/// The report's floors (at the shape `shapeSpecs` name, as printReport's)
/// as a roofline SVG at `path`, titled with the file name of `modelPath`;
/// false (after an error message) when there is
/// nothing to draw or the file cannot be written.
bool writeRoofline(mlir::ModuleOp module, llvm::StringRef path,
                   llvm::StringRef modelPath,
                   llvm::ArrayRef<std::string> shapeSpecs = {});

} // namespace brrrc

#endif // BRRR_TOOLS_BRRRC_REPORT_H
