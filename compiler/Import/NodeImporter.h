//===- NodeImporter.h - per-node import context -----------------*- C++ -*-===//
//
// What an op-family importer (ImportElementwise.cpp, ImportNN.cpp, ...) sees
// of one ONNX node: its inputs as brrr values, its attributes with ONNX
// defaults, constant inputs, and builders that infer, verify and fold every
// op they create so that bad shapes surface as diagnostics on the node.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_IMPORT_NODEIMPORTER_H
#define BRRR_COMPILER_IMPORT_NODEIMPORTER_H

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>

namespace mlir::brrr {

class NodeImporter;

/// Imports one ONNX node; emits a diagnostic and fails on error.
using OpImportFn = mlir::LogicalResult (*)(NodeImporter &);

/// One ONNX op the importer knows: the opset versions in which its semantics
/// changed ("since versions"), ascending, and the function that imports it.
struct OpImporter {
  llvm::SmallVector<int64_t, 8> sinceVersions;
  OpImportFn fn;
};

using OpTable = llvm::StringMap<OpImporter>;

void registerEinsumImporters(OpTable &table);
void registerElementwiseImporters(OpTable &table);
void registerGeneratorImporters(OpTable &table);
void registerIndexingImporters(OpTable &table);
void registerLossImporters(OpTable &table);
void registerNNImporters(OpTable &table);
void registerNormalizeImporters(OpTable &table);
void registerQuantizeImporters(OpTable &table);
void registerReduceImporters(OpTable &table);
void registerResizeImporters(OpTable &table);
void registerSliceImporters(OpTable &table);
void registerTensorImporters(OpTable &table);

/// The import state of one node.
class NodeImporter {
public:
  NodeImporter(mlir::OpBuilder &builder, mlir::Location loc,
               const onnx::NodeProto &node, llvm::StringRef name, int64_t opset,
               int64_t sinceVersion, llvm::ArrayRef<mlir::Value> inputs)
      : b(builder), loc(loc), node(node), name(name.str()), opset(opset),
        sinceVersion(sinceVersion), inputs(inputs.begin(), inputs.end()) {}

  mlir::OpBuilder &b;
  mlir::Location loc;
  const onnx::NodeProto &node;
  /// The node's name, or OpType_index for an unnamed node.
  std::string name;
  /// Directory of the model file, for external data of Constant nodes.
  std::string baseDir;
  /// The model's default-domain opset.
  int64_t opset;
  /// The version of this op's semantics in effect at `opset`.
  int64_t sinceVersion;

  mlir::MLIRContext *getContext() { return b.getContext(); }

  /// "node 'NAME' (OP, DOMAIN opset N): ", how diagnostics begin.
  std::string label() const;
  /// Error on this node; the message says node name, op type and opset.
  mlir::InFlightDiagnostic emitError();

  // Inputs -------------------------------------------------------------
  unsigned numInputs() const { return inputs.size(); }
  /// Whether input `i` is present (ONNX marks absent optionals with "").
  bool hasInput(unsigned i) const { return i < inputs.size() && inputs[i]; }
  /// Input `i`, or null if absent.
  mlir::Value input(unsigned i) const {
    return hasInput(i) ? inputs[i] : mlir::Value();
  }
  /// Input `i`; emits an error if it is absent.
  mlir::FailureOr<mlir::Value> requiredInput(unsigned i);
  /// Input `i`, a float tensor; emits an error if it is absent or not.
  mlir::FailureOr<mlir::Value> requiredFloatInput(unsigned i);
  mlir::RankedTensorType inputType(unsigned i) const {
    return mlir::cast<mlir::RankedTensorType>(input(i).getType());
  }
  llvm::ArrayRef<mlir::Value> allInputs() const { return inputs; }

  /// The integer values of a constant input, or an error naming `what`.
  mlir::FailureOr<llvm::SmallVector<int64_t>> constInts(unsigned i,
                                                        llvm::StringRef what);
  /// The values of a constant float or integer input, as doubles.
  mlir::FailureOr<llvm::SmallVector<double>> constFloats(unsigned i,
                                                         llvm::StringRef what);
  /// Why present input `i` is not a constant, naming its tensor: a graph
  /// input, or a value computed from the model's data.
  std::string whyNotConstant(unsigned i) const;

  // Attributes -----------------------------------------------------------
  // The typed accessors check the attribute's declared type: a mismatch (a
  // STRING where an INT belongs) is an error on the node, and the import
  // fails even if the op's importer goes on with the default.
  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  int64_t attrInt(llvm::StringRef name, int64_t dflt) const;
  double attrFloat(llvm::StringRef name, double dflt) const;
  std::string attrString(llvm::StringRef name, llvm::StringRef dflt) const;
  std::optional<llvm::SmallVector<int64_t>>
  attrInts(llvm::StringRef name) const;

  /// Whether a typed accessor met an attribute of the wrong type.
  bool hadAttributeError() const { return attributeError; }

  // Outputs --------------------------------------------------------------
  unsigned numOutputs() const { return node.output_size(); }
  bool wantsOutput(unsigned i) const {
    return i < static_cast<unsigned>(node.output_size()) &&
           !node.output(i).empty();
  }
  /// Defines output `i` (ignored if the model does not use it).
  void setOutput(unsigned i, mlir::Value v) {
    if (outputs.size() <= i)
      outputs.resize(i + 1);
    outputs[i] = v;
  }
  llvm::ArrayRef<mlir::Value> getOutputs() const { return outputs; }
  /// Fails with an error if the model asks for output `i` or later, which
  /// the importer does not produce (training-only outputs, say).
  mlir::LogicalResult rejectOutputsFrom(unsigned i, llvm::StringRef why);

  // Helpers --------------------------------------------------------------
  /// Normalizes a possibly negative axis into [0, rank); error if outside.
  mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank);
  /// The node's `axis` attribute (`defaultAxis` when absent) normalized for
  /// input 0, which must have rank >= 1; errors otherwise.
  mlir::FailureOr<int64_t> inputAxis(int64_t defaultAxis);

  /// Builds `OpTy` with a placeholder result type, infers the real type
  /// (InferTypeOpInterface) or takes `resultType`, verifies and folds it.
  template <typename OpTy, typename... Args>
  mlir::FailureOr<mlir::Value> create(Args &&...args) {
    auto op =
        OpTy::create(b, loc, b.getNoneType(), std::forward<Args>(args)...);
    return finish(op.getOperation(), mlir::Type());
  }
  template <typename OpTy, typename... Args>
  mlir::FailureOr<mlir::Value> createTyped(mlir::Type resultType,
                                           Args &&...args) {
    auto op = OpTy::create(b, loc, resultType, std::forward<Args>(args)...);
    return finish(op.getOperation(), resultType);
  }

  /// A constant of `type` from doubles (cast to the element type).
  mlir::Value constant(mlir::RankedTensorType type,
                       llvm::ArrayRef<double> values);
  /// A rank-0 constant of `elementType`.
  mlir::Value scalar(mlir::Type elementType, double value);
  /// A 1-D i64 constant.
  mlir::Value constI64(llvm::ArrayRef<int64_t> values);
  /// `brrr.reshape` of `v` to `shape`.
  mlir::FailureOr<mlir::Value> reshape(mlir::Value v,
                                       llvm::ArrayRef<int64_t> shape);
  /// The values of input `i` (named `what` in errors), a constant or a
  /// symbolic constant integer tensor, as extents.
  mlir::FailureOr<llvm::SmallVector<mlir::AffineExpr>>
  extentInts(unsigned i, llvm::StringRef what);
  /// `brrr.reshape` of `v` to `extents` (constants, or expressions of the
  /// module's symbolic dimensions).
  mlir::FailureOr<mlir::Value>
  reshapeTo(mlir::Value v, llvm::ArrayRef<mlir::AffineExpr> extents);
  /// Fails with a diagnostic unless input `i` is static in every dimension
  /// but its batch (0): `what` takes symbolic batches only.
  mlir::LogicalResult requireStaticBeyondBatch(unsigned i,
                                               llvm::StringRef what);
  /// Expands `v` to `shape` with `brrr.expand` (no-op if already there).
  mlir::FailureOr<mlir::Value> expandTo(mlir::Value v,
                                        llvm::ArrayRef<int64_t> shape);
  /// Expands `v` to `extents` (constants, or expressions of the module's
  /// symbolic dimensions) with `brrr.expand` (no-op if already there).
  mlir::FailureOr<mlir::Value>
  expandToExtents(mlir::Value v, llvm::ArrayRef<mlir::AffineExpr> extents);
  /// `v` with element type `et` through `brrr.cast` (no-op if it has it).
  mlir::FailureOr<mlir::Value> castTo(mlir::Value v, mlir::Type et);
  /// 0, 1, ... along `axis` of a tensor of type `t`, as an i64 constant of
  /// size 1 in every other dimension, to broadcast against it. An axis
  /// longer than kMaxIndices is an error naming the node: the constant is
  /// materialized at compile time, even where the tensor is empty.
  mlir::FailureOr<mlir::Value> indicesAlong(mlir::RankedTensorType t,
                                            int64_t axis);
  static constexpr int64_t kMaxIndices = int64_t(1) << 24;

private:
  mlir::FailureOr<mlir::Value> finish(mlir::Operation *op,
                                      mlir::Type resultType);
  /// Attribute `name` if present with `type`; null (after an error) if
  /// present with another.
  const onnx::AttributeProto *
  typedAttr(llvm::StringRef name,
            onnx::AttributeProto::AttributeType type) const;

  mutable bool attributeError = false;

  llvm::SmallVector<mlir::Value> inputs;
  llvm::SmallVector<mlir::Value> outputs;
};

/// TensorProto's FLOAT8E4M3FN (ONNX 1.14), beyond the enum of libonnx 1.12.
constexpr int32_t kFloat8E4M3FN = 17;

/// The MLIR element type of an ONNX TensorProto data type, or null.
mlir::Type convertElementType(mlir::MLIRContext *context, int32_t onnxType);
/// The ONNX name of a TensorProto data type (FLOAT, STRING, ...).
std::string dataTypeName(int32_t onnxType);

/// The constant attribute of an ONNX tensor (inline or raw data; external
/// data resolved against `baseDir`). Float tensors above `maxInlineElements`
/// and integer tensors above kMaxFoldElements become dense_resource blobs.
/// Emits an error at `loc` on failure.
mlir::FailureOr<mlir::ElementsAttr>
convertTensor(mlir::MLIRContext *context, mlir::Location loc,
              const onnx::TensorProto &tensor, llvm::StringRef baseDir,
              int64_t maxInlineElements);

} // namespace mlir::brrr

#endif // BRRR_COMPILER_IMPORT_NODEIMPORTER_H
