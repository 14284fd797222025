//===- Calibrate.cpp - brrrc --calibrate and --calibration-cache ---------===//

#include "tools/brrrc/Calibrate.h"

#include "compiler/Artifact/ArtifactWriter.h"
#include "compiler/Calibration/Calibration.h"
#include "compiler/CodeGen/CodeGen.h"
#include "compiler/Import/OnnxImporter.h"

#include "mlir/IR/Builders.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/onnx_pb.h>

using namespace llvm;
using namespace mlir::brrr;

namespace {

bool fail(const Twine &message) {
  errs() << "brrrc: error: " << message << "\n";
  return false;
}

/// The model's graph inputs (those no initializer feeds), in order.
std::vector<calibration::InputSpec> inputsOf(const onnx::ModelProto &model) {
  llvm::StringSet<> initialized;
  for (const onnx::TensorProto &init : model.graph().initializer())
    initialized.insert(init.name());
  std::vector<calibration::InputSpec> inputs;
  for (const onnx::ValueInfoProto &input : model.graph().input())
    if (!initialized.contains(input.name()))
      inputs.push_back({input.name(), input.type().tensor_type().elem_type()});
  return inputs;
}

/// Whether `shapes` gives some input a range.
bool hasRanges(const ImportOptions &shapes) {
  for (const auto &entry : shapes.inputShapes)
    for (const InputDim &d : entry.getValue())
      if (!d.fixed())
        return true;
  return false;
}

/// Measures the table on the inputs `flags` names.
bool measure(mlir::MLIRContext &context, const onnx::ModelProto &model,
             StringRef modelPath, const brrrc::CalibrationFlags &flags,
             const ImportOptions &shapes, CompileOptions compile,
             TargetAttr target, StringRef precision, StringRef cudaPath,
             calibration::Table &table) {
  // The build the samples run on, returning every activation to quantize:
  // the model compiled with the same ranges, where it has ranges (each
  // sample runs at its own shape in them), else at the samples' one shape.
  bool ranged = hasRanges(shapes);
  std::vector<calibration::InputSpec> inputs = inputsOf(model);
  std::vector<calibration::Sample> samples;
  std::string error;
  if (!calibration::readSamples(flags.inputs, inputs, samples, error,
                                /*oneShape=*/!ranged))
    return fail("--calibrate: " + error);
  ImportOptions options = ranged ? shapes : ImportOptions();
  const calibration::Sample &first = samples.front();
  for (size_t i = 0; i < inputs.size() && !ranged; ++i) {
    std::string spec = inputs[i].name + "=";
    for (size_t d = 0; d < first.inputs[i].shape.size(); ++d)
      spec += (d ? "x" : "") + std::to_string(first.inputs[i].shape[d]);
    if (first.inputs[i].shape.empty())
      continue;
    if (!parseInputShape(spec, options, error))
      return fail("--calibrate: " + first.source + ": " + error);
  }
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importOnnxModel(context, model, modelPath, options);
  if (!module)
    return fail(ranged ? "--calibrate: the model does not import with its "
                         "ranges"
                       : "--calibrate: the model does not import at the "
                         "calibration inputs' shapes");
  (*module)->setAttr(kTargetAttrName, target);
  (*module)->setAttr("brrr.precision",
                     mlir::StringAttr::get(&context, precision));
  compile.quantize.clear();
  compile.calibrationOutputs = true;
  if (failed(runCompilePipeline(*module, compile)))
    return fail("--calibrate: the calibration build failed");
  auto kernels = compileKernels(*module, target, cudaPath);
  if (failed(kernels))
    return fail("--calibrate: the calibration build's kernels failed");
  auto image = buildArtifact(*module, target, std::move(*kernels));
  if (failed(image))
    return fail("--calibrate: the calibration build failed");
  std::string bytes;
  raw_string_ostream os(bytes);
  image->write(os);
  os.flush();
  calibration::Method method;
  method.percentile = flags.percentile;
  if (!calibration::measureRanges(bytes, samples, method, table, error))
    return fail(error);
  return true;
}

} // namespace

mlir::DictionaryAttr brrrc::calibrationTable(
    mlir::MLIRContext &context, const onnx::ModelProto &model,
    StringRef modelPath, const CalibrationFlags &flags,
    const ImportOptions &shapes, CompileOptions compile, TargetAttr target,
    StringRef precision, StringRef cudaPath) {
  calibration::Table table;
  if (!flags.inputs.empty()) {
    if (!measure(context, model, modelPath, flags, shapes, compile, target,
                 precision, cudaPath, table))
      return nullptr;
    if (!flags.cache.empty()) {
      std::string error;
      auto out = mlir::openOutputFile(flags.cache, &error);
      if (!out) {
        fail("--calibration-cache: " + error);
        return nullptr;
      }
      out->os() << calibration::printCache(table);
      out->keep();
    }
  } else {
    auto buffer = MemoryBuffer::getFile(flags.cache, /*IsText=*/true);
    if (!buffer) {
      fail("--calibration-cache: " + flags.cache + ": " +
           buffer.getError().message());
      return nullptr;
    }
    std::string error;
    if (!calibration::parseCache((*buffer)->getBuffer(), table, error)) {
      fail("--calibration-cache: " + flags.cache + ": " + error);
      return nullptr;
    }
  }
  mlir::Builder b(&context);
  llvm::StringSet<> seen;
  SmallVector<mlir::NamedAttribute> entries;
  for (const auto &[key, range] : table.ranges) {
    if (!seen.insert(key).second) {
      fail("--calibration-cache: " + flags.cache + ": key '" + key +
           "' appears twice");
      return nullptr;
    }
    entries.push_back(b.getNamedAttr(key, b.getF64FloatAttr(range)));
  }
  return b.getDictionaryAttr(entries);
}
