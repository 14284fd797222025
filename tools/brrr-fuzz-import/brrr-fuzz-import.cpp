//===- brrr-fuzz-import.cpp - libFuzzer target: import and canonicalize ---===//
//
// Feeds arbitrary bytes to the front of the compiler: the ONNX text parser
// (input starting with '<', '#' or whitespace) or the protobuf parser, the
// importer with every dynamic input dimension bound to 2, and the
// canonicalizer (brrr's folders). Any crash, hang, sanitizer report or
// out-of-memory is a finding; diagnostics are the expected outcome of bad
// input and are discarded. Built by scripts/fuzz.sh (clang, libFuzzer,
// AddressSanitizer and UndefinedBehaviorSanitizer).
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/OnnxImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <onnx/onnx_pb.h>

#include <cctype>
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  bool text = size && (data[0] == '<' || data[0] == '#' ||
                       std::isspace(static_cast<unsigned char>(data[0])));
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  context.getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::brrr::registerImportDialects(context);
  auto model = mlir::brrr::parseOnnxModel(context, bytes, text, "fuzz.onnx");
  if (!model)
    return 0;
  // Bind what the model leaves dynamic, so that fuzzed graphs import.
  mlir::brrr::ImportOptions options;
  for (const auto &in : model->graph().input()) {
    if (!in.type().tensor_type().has_shape())
      continue;
    llvm::SmallVector<mlir::brrr::InputDim> dims;
    for (const auto &d : in.type().tensor_type().shape().dim()) {
      int64_t extent = d.has_dim_value() ? d.dim_value() : 2;
      dims.push_back({extent, extent});
    }
    options.inputShapes[in.name()] = dims;
  }
  // External data resolves against a directory that does not exist.
  auto module = mlir::brrr::importOnnxModel(context, *model,
                                            "/nonexistent/fuzz.onnx", options);
  if (!module)
    return 0;
  mlir::PassManager pm(&context);
  pm.addPass(mlir::createCanonicalizerPass());
  (void)pm.run(*module);
  return 0;
}
