//===- OnnxCalls.h - libonnx calls that report by exception -----*- C++ -*-===//
//
// libonnx's text parser and schema checker throw on bad input, and the rest
// of the compiler is built without exceptions. These wrappers are the only
// place that catches them: each turns an exception into an error message
// for the importer to report as a diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_IMPORT_ONNXCALLS_H
#define BRRR_COMPILER_IMPORT_ONNXCALLS_H

#include "llvm/ADT/StringRef.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>

namespace mlir::brrr {

/// Parses an ONNX text model (the `.onnxtext` syntax) into `model`; returns
/// an error message, empty on success.
std::string parseOnnxText(llvm::StringRef text, onnx::ModelProto &model);

/// Checks a default-domain node against libonnx's schema of its op at
/// `opset`: input and output counts, attribute names and types, required
/// attributes. The check runs only where that schema is the version in
/// effect, i.e. `opset` is one libonnx knows or the schema's version is
/// `sinceVersion`. Messages call the node `name`. Returns an error
/// message, empty if the node conforms or was not checked.
std::string checkNodeSchema(const onnx::NodeProto &node, llvm::StringRef name,
                            int64_t opset, int64_t sinceVersion);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_IMPORT_ONNXCALLS_H
