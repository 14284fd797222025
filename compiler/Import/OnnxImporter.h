//===- OnnxImporter.h - ONNX model -> brrr IR -------------------*- C++ -*-===//
//
// The front of the brrr pipeline: reads an ONNX model (binary protobuf or the
// ONNX text syntax), binds dynamic input dimensions, and builds a `func.func
// @main` of brrr ops with static shapes. Every problem in the model is a
// diagnostic on the MLIRContext naming the node, op type, domain and opset;
// importing continues past unsupported ops so that one run reports them all.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_IMPORT_ONNXIMPORTER_H
#define BRRR_COMPILER_IMPORT_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace onnx {
class ModelProto;
class TensorProto;
} // namespace onnx

namespace mlir::brrr {

/// Newest default-domain opset whose semantics the importer implements.
constexpr int64_t kMaxSupportedOpset = 21;
/// Oldest opset the project supports (older models may still import).
constexpr int64_t kMinSupportedOpset = 13;

/// One dimension of `--input-shape`: one extent (min == max), or the range
/// MIN..MAX of a symbolic dimension.
struct InputDim {
  int64_t min = 0;
  int64_t max = 0;
  bool fixed() const { return min == max; }
};

struct ImportOptions {
  /// Shapes for graph inputs, by input name: bind dynamic dims to one
  /// extent or to a range (a symbolic dimension), and must agree with the
  /// dims the model fixes. A named dimension (`dim_param`) bound for one
  /// input is bound for every input that names it.
  llvm::StringMap<llvm::SmallVector<InputDim>> inputShapes;
  /// Float initializers with at most this many elements stay inline `dense`
  /// constants; larger ones become `dense_resource` blobs. Integer tensors
  /// (shape data) stay inline up to kMaxFoldElements so that they fold.
  int64_t maxInlineElements = 8;
};

/// Parses `text` of the form NAME=D0xD1x..., each D an extent or a range
/// MIN..MAX, into `options`; false with a message in `error` if malformed.
bool parseInputShape(llvm::StringRef text, ImportOptions &options,
                     std::string &error);

/// Reads a model from `path`: ONNX text syntax if it ends in `.onnxtext` or
/// `.txt`, binary protobuf otherwise. Errors go to the context's diagnostics.
std::unique_ptr<onnx::ModelProto> loadOnnxModel(mlir::MLIRContext &context,
                                                llvm::StringRef path);

/// Parses a model held in memory: ONNX text syntax if `text`, binary
/// protobuf otherwise. `name` names it in diagnostics.
std::unique_ptr<onnx::ModelProto> parseOnnxModel(mlir::MLIRContext &context,
                                                 llvm::StringRef data,
                                                 bool text,
                                                 llvm::StringRef name);

/// Builds the brrr module of `model`. `modelPath` locates external weight
/// files and names locations. Returns null after emitting diagnostics.
mlir::OwningOpRef<mlir::ModuleOp> importOnnxModel(mlir::MLIRContext &context,
                                                  const onnx::ModelProto &model,
                                                  llvm::StringRef modelPath,
                                                  const ImportOptions &options);

/// Registers every dialect the importer produces.
/// The little-endian element bytes of `t`'s inline data, `width` bytes
/// each: its raw_data, or the typed field that holds them (int32_data
/// holds every type narrower than 32 bits, float16 and bfloat16 as bits),
/// copied into `storage`. Data in an external file is not read here.
llvm::ArrayRef<char> inlineTensorData(const onnx::TensorProto &t,
                                      unsigned width,
                                      std::vector<char> &storage);

void registerImportDialects(mlir::MLIRContext &context);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_IMPORT_ONNXIMPORTER_H
