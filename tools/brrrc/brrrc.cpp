//===- brrrc.cpp - the brrr compiler driver -----------------------------===//
//
// `brrrc MODEL [-o OUT] [--emit=brrr] [--input-shape NAME=D0xD1...]`.
// Imports an ONNX model into brrr IR and prints or writes it. Every
// diagnostic is printed as `MODEL: error: ...` and any error makes the exit
// status non-zero. Producing a GPU library (`-o model.so`) needs the code
// generator, which this build does not have yet; the driver says so.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/OnnxImporter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/onnx_pb.h>

using namespace llvm;

namespace {

cl::OptionCategory category("brrrc options");

cl::opt<std::string> inputPath(cl::Positional, cl::desc("<model.onnx>"),
                               cl::Required, cl::cat(category));
cl::opt<std::string> outputPath("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(category));

enum class Emit { Brrr, Library };
cl::opt<Emit> emit(
    "emit", cl::desc("What to produce"),
    cl::values(clEnumValN(Emit::Brrr, "brrr", "the imported brrr IR"),
               clEnumValN(Emit::Library, "so",
                          "a GPU shared library (needs the code generator)")),
    cl::init(Emit::Brrr), cl::cat(category));

cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Bind a graph input's shape, e.g. --input-shape x=1x3x224x224 "
             "(repeatable)"),
    cl::value_desc("NAME=D0xD1x..."), cl::cat(category));

cl::opt<bool> printWeights(
    "print-weights",
    cl::desc("Print weight blobs in full instead of eliding them (the output "
             "can then be re-parsed by brrr-opt)"),
    cl::init(false), cl::cat(category));

/// The file a location points at, through name and fused locations.
std::string fileOf(mlir::Location loc) {
  if (auto file = dyn_cast<mlir::FileLineColLoc>(loc))
    return file.getFilename().str();
  if (auto name = dyn_cast<mlir::NameLoc>(loc))
    return fileOf(name.getChildLoc());
  return inputPath;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "brrrc: compile an ONNX model for NVIDIA GPUs\n\n"
      "  brrrc model.onnx --emit=brrr          print the imported brrr IR\n"
      "  brrrc model.onnx -o model.mlir        write it to a file\n");

  mlir::MLIRContext context;
  unsigned errors = 0;
  context.getDiagEngine().registerHandler([&](mlir::Diagnostic &diag) {
    const char *severity = "remark";
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error) {
      severity = "error";
      ++errors;
    } else if (diag.getSeverity() == mlir::DiagnosticSeverity::Warning) {
      severity = "warning";
    }
    errs() << fileOf(diag.getLocation()) << ": " << severity << ": " << diag
           << "\n";
    for (const mlir::Diagnostic &note : diag.getNotes())
      errs() << "  note: " << note << "\n";
    return mlir::success();
  });

  mlir::brrr::ImportOptions options;
  for (const std::string &spec : inputShapes) {
    std::string error;
    if (!mlir::brrr::parseInputShape(spec, options, error)) {
      errs() << "brrrc: error: --input-shape: " << error << "\n";
      return 1;
    }
  }

  bool wantsLibrary =
      emit == Emit::Library ||
      (emit.getNumOccurrences() == 0 && StringRef(outputPath).ends_with(".so"));

  std::unique_ptr<onnx::ModelProto> model =
      mlir::brrr::loadOnnxModel(context, inputPath);
  if (!model)
    return 1;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::brrr::importOnnxModel(context, *model, inputPath, options);
  if (!module || errors) {
    errs() << "brrrc: " << errors << " error(s); nothing was written\n";
    return 1;
  }
  if (wantsLibrary) {
    errs() << "brrrc: error: this build of brrr has no GPU code generator "
              "yet, so it cannot write '"
           << outputPath
           << "'. The model imported cleanly; use --emit=brrr to see it.\n";
    return 2;
  }

  std::string error;
  auto output = mlir::openOutputFile(outputPath, &error);
  if (!output) {
    errs() << "brrrc: error: " << error << "\n";
    return 1;
  }
  mlir::OpPrintingFlags flags;
  if (!printWeights)
    flags.elideLargeResourceString(64);
  module->print(output->os(), flags);
  output->keep();
  return 0;
}
