//===- brrrc.cpp - the brrr compiler driver -----------------------------===//
//
// `brrrc MODEL -o model.so`: imports an ONNX model, runs the compile
// pipeline (fusion, memory planning, kernel generation), compiles the
// kernels to PTX and cubin, and links a self-contained model.so. `--emit`
// stops earlier and prints what each stage produced; `--report` prints the
// static roofline of every kernel (Report.cpp). Every diagnostic is printed as
// `MODEL: error: ...` and any error makes the exit status non-zero.
//
//===----------------------------------------------------------------------===//

#include "compiler/Artifact/ArtifactWriter.h"
#include "compiler/CodeGen/CodeGen.h"
#include "compiler/Import/OnnxImporter.h"
#include "compiler/Pipeline/Pipeline.h"
#include "dialects/Brrr/BrrrOps.h"
#include "passes/Analysis.h"
#include "passes/Precision/Calibration.h"
#include "tools/brrrc/Calibrate.h"
#include "tools/brrrc/Report.h"
#include "tools/brrrc/Version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
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

enum class Emit { Brrr, Kernels, Ptx, Artifact, Library };
cl::opt<Emit> emit(
    "emit",
    cl::desc("What to produce (default: so for a .so output, else brrr)"),
    cl::values(
        clEnumValN(Emit::Brrr, "brrr", "the imported brrr IR"),
        clEnumValN(
            Emit::Kernels, "kernels",
            "the IR after fusion, memory planning and kernel generation"),
        clEnumValN(Emit::Ptx, "ptx", "the PTX of every kernel"),
        clEnumValN(Emit::Artifact, "artifact",
                   "the compiled model image (what model.so embeds)"),
        clEnumValN(Emit::Library, "so", "the model as a GPU shared library")),
    cl::init(Emit::Brrr), cl::cat(category));

cl::opt<std::string>
    targetName("target",
               cl::desc("GPU target: sm_90a (Hopper, default) "
                        "or sm_80 (Ampere and newer, PTX JIT)"),
               cl::init("sm_90a"), cl::cat(category));

cl::opt<std::string>
    cudaPath("cuda-path",
             cl::desc("CUDA toolkit with bin/ptxas and nvvm/libdevice "
                      "(default: $CUDA_HOME or /usr/local/cuda)"),
             cl::init(""), cl::cat(category));

cl::opt<bool> noCubin(
    "no-cubin",
    cl::desc("Leave PTX only, for the driver to compile when the model is "
             "loaded (needs no ptxas here)"),
    cl::init(false), cl::cat(category));

cl::opt<std::string>
    runtimeLib("runtime-lib",
               cl::desc("The runtime archive linked into model.so (default: "
                        "lib/libbrrr_runtime.a next to brrrc's bin/)"),
               cl::init(""), cl::cat(category));

cl::opt<bool> report("report",
                     cl::desc("Print every kernel's work, traffic and "
                              "arithmetic intensity (no GPU needed)"),
                     cl::init(false), cl::cat(category));
cl::opt<std::string>
    plot("plot",
         cl::desc("With --report: write a roofline chart of the kernels' "
                  "floors to this SVG file"),
         cl::value_desc("FILE.svg"), cl::init(""), cl::cat(category));

cl::list<std::string> reportShapes(
    "shape",
    cl::desc("With --report on a model compiled for ranges: report at this "
             "input shape, e.g. --shape x=3x128 (repeatable; a symbol no "
             "input given here sizes takes its largest value)"),
    cl::value_desc("NAME=D0xD1x..."), cl::cat(category));

cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Bind a graph input's shape, e.g. --input-shape x=1x3x224x224 "
             "(repeatable); a dimension MIN..MAX is symbolic"),
    cl::value_desc("NAME=D0xD1x..."), cl::cat(category));

cl::opt<std::string> precision(
    "precision",
    cl::desc("How f32 matmuls and convolutions multiply: auto (default: "
             "fp16 or bf16 for a model whose weights are mostly of that "
             "type, or, 8-bit in a quantized model, dequantize to it, else "
             "fp32; --report says which), fp32 (f32 accuracy), "
             "tf32 (one tf32 product), fp16 or bf16 (weights converted at "
             "compile time, f32 accumulation; outputs keep their types); "
             "fp8 or int8: post-training quantization, every product of an "
             "activation by a constant matrix in 8 bits by scales from "
             "--calibrate or --calibration-cache, the rest as auto but "
             "16-bit (fp16 for an f32 model)"),
    cl::init("auto"), cl::cat(category));

cl::opt<std::string> calibrate(
    "calibrate",
    cl::desc("With --precision=fp8|int8: the calibration inputs, a .npz "
             "(arrays named after the inputs), .npy or .pb (ONNX "
             "TensorProto) file, or a directory of them or of ONNX "
             "test-data sets (input_<i>.pb); each is one run on the GPU"),
    cl::value_desc("FILE|DIR"), cl::init(""), cl::cat(category));

cl::opt<std::string> calibrationCache(
    "calibration-cache",
    cl::desc("With --precision=fp8|int8: the calibration cache, written "
             "after a --calibrate run, else read instead of running (no GPU "
             "needed)"),
    cl::value_desc("FILE"), cl::init(""), cl::cat(category));

cl::opt<double> calibrationPercentile(
    "calibration-percentile",
    cl::desc("With --calibrate: quantize each activation by this percentile "
             "of its magnitudes (e.g. 99.99) instead of the largest"),
    cl::value_desc("P"), cl::init(0), cl::cat(category));

cl::opt<std::string> matmulTile(
    "matmul-tile",
    cl::desc("Pin every tiled matmul's tile to MxN with S stages, for tile "
             "sweeps (default: chosen per product)"),
    cl::value_desc("MxNxS"), cl::init(""), cl::cat(category));

cl::opt<std::string> attentionTile(
    "attention-tile",
    cl::desc("Pin every attention kernel to R query rows, K keys per block "
             "and W warps, for tile sweeps (default: chosen per kernel)"),
    cl::value_desc("RxKxW"), cl::init(""), cl::cat(category));

cl::opt<bool> persistent(
    "persistent",
    cl::desc("Run Hopper products whose output tiles outnumber the "
             "multiprocessors as persistent kernels, as convolutions always "
             "are (one block per multiprocessor walking the tiles; default: "
             "one block per tile)"),
    cl::init(false), cl::cat(category));

cl::opt<bool> fp8FastAccumulation(
    "fp8-fast-accumulation",
    cl::desc("Sum float8 QDQ products in the 8-bit Tensor Cores' float8 "
             "accumulation across the whole contraction (faster, relative "
             "error about 2e-3; default: each 128-deep slice's sums are "
             "added in f32)"),
    cl::init(false), cl::cat(category));

cl::opt<std::string> fewRowsMma(
    "few-rows-mma",
    cl::desc("16-bit products of a few rows (a decoder's at a few tokens) "
             "on Tensor Cores a warp 16 columns, reading the weights once: "
             "auto (default: 5 to 32 rows), always (5 to 64; the bare flag) "
             "or never (128-row wgmma tiles)"),
    cl::init("auto"), cl::ValueOptional, cl::cat(category));

cl::opt<bool> pingpong(
    "pingpong",
    cl::desc("Run Hopper products and convolutions whose output tiles "
             "outnumber the multiprocessors as persistent kernels whose two "
             "consumer warpgroups take turns on whole tiles of at most 128 x "
             "128, one storing a tile while the other multiplies"),
    cl::init(false), cl::cat(category));

cl::opt<bool> overlapEpilogue(
    "overlap-epilogue",
    cl::desc("Run Hopper products and convolutions whose output tiles "
             "outnumber the multiprocessors as persistent kernels whose "
             "consumers stage each tile's 16-bit products and go on to the "
             "next tile while spare producer warps apply the epilogue"),
    cl::init(false), cl::cat(category));

cl::opt<std::string> multicast(
    "multicast",
    cl::desc("Where pairs of Hopper product blocks computing vertically "
             "adjacent tiles copy each slice of B once and multicast it to "
             "both: auto (16-bit matmuls whose tiles outnumber the "
             "multiprocessors), always (wherever the tiles pair up) or "
             "never"),
    cl::init("auto"), cl::cat(category));

cl::opt<std::string> streamK(
    "stream-k",
    cl::desc("Where persistent Hopper products split their k-slices evenly "
             "between the blocks instead of their output tiles, a tile "
             "shared by two blocks summed through a workspace: auto (where "
             "the tiles' last wave leaves enough multiprocessors idle), "
             "always (wherever the tiles do not divide evenly between the "
             "blocks) or never (the default)"),
    cl::init("never"), cl::cat(category));

cl::opt<std::string> hopperAttention(
    "hopper-attention",
    cl::desc("Whether fused attention runs the Hopper body (warpgroups on "
             "wgmma, the probabilities from registers): auto (the default) "
             "or always (the same: 16-bit heads of a multiple of 16 up to "
             "256 on sm_90a), or never (the mma.sync body)"),
    cl::init("auto"), cl::cat(category));

cl::opt<std::string> drainWarpgroup(
    "drain-warpgroup",
    cl::desc("Which overlapped Hopper products and convolutions run a "
             "warpgroup of epilogue warps of its own beside the producer's "
             "spare warps (7 drain warps, 512 threads, tiles at most 192 "
             "wide): auto (default: 16-bit products at least 768 deep whose "
             "epilogue reads a residual, or is heavy and under 1536 deep, "
             "where their narrower tiles keep pace), always (every overlapped "
             "one; the bare flag) or never"),
    cl::init("auto"), cl::ValueOptional, cl::cat(category));

cl::opt<bool> overlapAttention(
    "overlap-attention",
    cl::desc("With the Hopper attention body, issue each key block's scores "
             "before the previous block's product with the values and run "
             "its softmax while that product does (three stages of keys "
             "and values)"),
    cl::init(false), cl::cat(category));

cl::opt<int64_t> maxPackedGroups(
    "max-packed-groups",
    cl::desc("Pack at most N neighbouring groups of a narrow-group f16/bf16 "
             "convolution into one of whole tiles, its weights block "
             "diagonal, so that the Hopper convolution body runs it; groups "
             "no such pack divides pack densely where that pays (1: pack "
             "none)"),
    cl::value_desc("N"), cl::init(32), cl::cat(category));

cl::opt<std::string> prefetchWeights(
    "prefetch-weights",
    cl::desc("On sm_90a, where kernels load constant weights before they "
             "wait for the kernel ahead: auto (default: a kernel launched "
             "early waits after its first weight loads, and Hopper products "
             "that may launch early copy their first slices' weights "
             "first), always (also launch products of a few rows of one "
             "wave early after a kernel of one wave; the bare flag) or "
             "never"),
    cl::init("auto"), cl::ValueOptional, cl::cat(category));

cl::opt<bool> earlyFitting(
    "early-fitting",
    cl::desc("On sm_90a, also launch a kernel whose blocks may share a "
             "multiprocessor as a programmatic dependent of the kernel "
             "before it where both are one wave and their blocks together "
             "fit the multiprocessors (default: on; --early-fitting=false "
             "launches early only kernels whose blocks take a whole "
             "multiprocessor)"),
    cl::init(true), cl::cat(category));

cl::opt<bool> quantizeResiduals(
    "quantize-residuals",
    cl::desc("With --precision=fp8|int8: additions that read an activation "
             "quantized for convolutions (a residual connection) read it "
             "quantized too, so that it is stored in 8 bits alone (default: "
             "on)"),
    cl::init(true), cl::cat(category));

cl::opt<bool> serialLaunches(
    "serial-launches",
    cl::desc("On sm_90a, start each kernel only after the one before it has "
             "finished (default: one-wave Hopper products and convolutions "
             "after one-wave kernels launch as programmatic dependents, "
             "placed during the previous kernel's last wave)"),
    cl::init(false), cl::cat(category));

enum class Weights { Auto, Embedded, Appended };
cl::opt<Weights> weightsLayout(
    "weights",
    cl::desc("Where model.so keeps the weights (default: auto, appended from "
             "1 GiB of weights)"),
    cl::values(
        clEnumValN(Weights::Auto, "auto",
                   "embedded below 1 GiB of weights, appended from there"),
        clEnumValN(Weights::Embedded, "embedded",
                   "in the library's read-only data (up to about 2 GiB)"),
        clEnumValN(Weights::Appended, "appended",
                   "appended to the library's file, any size; the runtime "
                   "maps them from the file at open")),
    cl::init(Weights::Auto), cl::cat(category));

cl::opt<bool> uncheckedIndices(
    "unchecked-indices",
    cl::desc("Do not check the indices of Gather, GatherElements, GatherND, "
             "ScatterElements and ScatterND at run time (default: the first "
             "out-of-range index fails the run with an error naming the node, "
             "the value and the extent). Unchecked kernels still never read "
             "or write out of bounds: they clamp bad indices"),
    cl::init(false), cl::cat(category));

cl::opt<bool> timing(
    "timing",
    cl::desc("Print, on stderr, how long each phase of the compile took (read, "
             "import, each pass, kernel code generation with ptxas, the "
             "artifact, the link)"),
    cl::init(false), cl::cat(category));

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

/// --cuda-path, $CUDA_HOME, or /usr/local/cuda.
std::string cudaDir() {
  if (!cudaPath.empty())
    return cudaPath;
  const char *home = std::getenv("CUDA_HOME");
  return home ? home : "/usr/local/cuda";
}

} // namespace

static int writeOutput(StringRef bytes);
static int printModule(mlir::ModuleOp module);

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "brrr " << brrr::version() << "\n  LLVM/MLIR " << LLVM_VERSION_STRING
       << "\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "brrrc: compile an ONNX model for NVIDIA GPUs\n\n"
      "  brrrc model.onnx --emit=brrr          print the imported brrr IR\n"
      "  brrrc model.onnx -o model.mlir        write it to a file\n");

  mlir::DialectRegistry registry;
  mlir::brrr::registerCodeGenDialects(registry);
  mlir::MLIRContext context(registry);
  unsigned errors = 0;
  context.getDiagEngine().registerHandler([&](mlir::Diagnostic &diag) {
    const char *severity = "remark";
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error) {
      severity = "error";
      ++errors;
    } else if (diag.getSeverity() == mlir::DiagnosticSeverity::Warning) {
      severity = "warning";
    }
    // A pass's diagnostic on an op names the node the op came from, unless
    // the message names it already (the importer's begin "node 'NAME'").
    std::string message = diag.str();
    StringRef node = mlir::brrr::nodeNameOf(diag.getLocation());
    errs() << fileOf(diag.getLocation()) << ": " << severity << ": ";
    if (!node.empty() && !StringRef(message).contains(("'" + node + "'").str()))
      errs() << "node '" << node << "': ";
    errs() << message << "\n";
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

  mlir::brrr::CompileOptions compile;
  // "AxBxC" as three positive integers, or an error naming the flag.
  auto parseTile = [](StringRef flag, StringRef text, StringRef example,
                      std::vector<int64_t> &out) {
    SmallVector<StringRef> parts;
    text.split(parts, 'x');
    for (StringRef part : parts) {
      int64_t v = 0;
      if (part.getAsInteger(10, v) || v <= 0) {
        out.clear();
        break;
      }
      out.push_back(v);
    }
    if (out.size() == 3)
      return true;
    errs() << "brrrc: error: --" << flag << " takes " << example << ", got '"
           << text << "'\n";
    return false;
  };
  if (!matmulTile.empty() &&
      !parseTile("matmul-tile", matmulTile, "MxNxS (e.g. 128x128x4)",
                 compile.matmulTile))
    return 1;
  if (!attentionTile.empty() &&
      !parseTile("attention-tile", attentionTile, "RxKxW (e.g. 128x64x4)",
                 compile.attentionTile))
    return 1;
  compile.persistent = persistent;
  compile.fp8FastAccumulation = fp8FastAccumulation;
  // Options of auto, always or never; a bare flag (an empty value, where
  // the value is optional) is `always`.
  auto choice = [](cl::opt<std::string> &flag, std::string &into) {
    into = flag.empty() && flag.getValueExpectedFlag() == cl::ValueOptional
               ? "always"
               : flag.getValue();
    if (mlir::brrr::choiceNamed(into))
      return true;
    errs() << "brrrc: error: --" << flag.ArgStr
           << " takes auto, always or never, got '" << into << "'\n";
    return false;
  };
  if (!choice(fewRowsMma, compile.fewRowsMma) ||
      !choice(multicast, compile.multicast) ||
      !choice(streamK, compile.streamK) ||
      !choice(drainWarpgroup, compile.drainWarpgroup) ||
      !choice(hopperAttention, compile.hopperAttention) ||
      !choice(prefetchWeights, compile.prefetchWeights))
    return 1;
  compile.pingpong = pingpong;
  compile.overlap = overlapEpilogue;
  compile.overlapAttention = overlapAttention;
  compile.maxPackedGroups = maxPackedGroups;
  compile.programmaticLaunch = !serialLaunches;
  compile.earlyFitting = earlyFitting;
  compile.indexChecks = !uncheckedIndices;

  if (!plot.empty() && !report) {
    errs() << "brrrc: error: --plot draws the report; add --report\n";
    return 1;
  }
  if (!reportShapes.empty() && !report) {
    errs() << "brrrc: error: --shape picks the report's shape; add --report\n";
    return 1;
  }
  if (precision != "auto" && precision != "fp32" && precision != "tf32" &&
      precision != "fp16" && precision != "bf16" && precision != "fp8" &&
      precision != "int8") {
    errs() << "brrrc: error: unknown --precision '" << precision
           << "' (supported: auto, fp32, tf32, fp16, bf16, fp8, int8)\n";
    return 1;
  }
  bool quantize = precision == "fp8" || precision == "int8";
  if (quantize && calibrate.empty() && calibrationCache.empty()) {
    errs() << "brrrc: error: --precision=" << precision
           << " needs the activations' ranges: --calibrate FILE|DIR, or "
              "--calibration-cache FILE\n";
    return 1;
  }
  if (!quantize && (!calibrate.empty() || !calibrationCache.empty())) {
    errs() << "brrrc: error: --calibrate and --calibration-cache go with "
              "--precision=fp8 or int8\n";
    return 1;
  }
  if (calibrationPercentile.getNumOccurrences() &&
      (calibrate.empty() || !(calibrationPercentile > 0) ||
       !(calibrationPercentile < 100))) {
    errs() << "brrrc: error: --calibration-percentile takes a percentile "
              "in (0, 100), with --calibrate\n";
    return 1;
  }

  Emit mode = emit;
  if (emit.getNumOccurrences() == 0 && StringRef(outputPath).ends_with(".so"))
    mode = Emit::Library;
  context.getOrLoadDialect<mlir::brrr::BrrrDialect>();
  auto target = mlir::brrr::TargetAttr::known(&context, targetName);
  if (failed(target)) {
    errs() << "brrrc: error: unknown --target '" << targetName
           << "' (supported: " << mlir::brrr::TargetAttr::knownNames() << ")\n";
    return 1;
  }

  // Printed as a tree when main returns.
  mlir::DefaultTimingManager timings;
  timings.setEnabled(timing);
  timings.setDisplayMode(mlir::DefaultTimingManager::DisplayMode::Tree);
  mlir::TimingScope total = timings.getRootScope();
  mlir::TimingScope phase = total.nest("read ONNX");
  std::unique_ptr<onnx::ModelProto> model =
      mlir::brrr::loadOnnxModel(context, inputPath);
  if (!model)
    return 1;
  phase = total.nest("import");
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::brrr::importOnnxModel(context, *model, inputPath, options);
  phase.stop();
  if (!module || errors) {
    errs() << "brrrc: " << errors << " error(s); nothing was written\n";
    return 1;
  }
  if (mode != Emit::Brrr || report) {
    // Passes read the target (shared-memory budget, bodies) and the
    // precision from the IR.
    (*module)->setAttr(mlir::brrr::kTargetAttrName, *target);
    // --precision=auto: 16-bit models multiply their f32 stretches (the
    // TorchScript exporter's upcast attention) in their own type.
    // --precision=fp8|int8: the products it quantizes are 8-bit, the rest
    // 16-bit: as auto, and fp16 where auto would keep f32 (attention of an
    // f32 model then fuses, as with --precision=fp16).
    std::string chosen = precision, why;
    if (precision == "auto" || quantize) {
      chosen = mlir::brrr::autoPrecision(*module, why);
      if (quantize && chosen == "fp32") {
        chosen = "fp16";
        why += "; fp16 with --precision=" + precision.getValue();
      }
      (*module)->setAttr("brrr.precision_auto",
                         mlir::StringAttr::get(&context, why));
    }
    (*module)->setAttr("brrr.precision",
                       mlir::StringAttr::get(&context, chosen));
    if (quantize) {
      brrrc::CalibrationFlags flags;
      flags.inputs = calibrate;
      flags.cache = calibrationCache;
      flags.percentile = calibrationPercentile;
      phase = total.nest("calibration");
      mlir::DictionaryAttr table =
          brrrc::calibrationTable(context, *model, inputPath, flags, options,
                                  compile, *target, chosen, cudaDir());
      phase.stop();
      if (!table)
        return 1;
      (*module)->setAttr(mlir::brrr::kCalibrationAttrName, table);
      compile.quantize = precision;
      compile.quantizeResiduals = quantizeResiduals;
    }
    if (failed(mlir::brrr::runCompilePipeline(*module, compile, &total)) ||
        errors) {
      errs() << "brrrc: " << errors << " error(s); nothing was written\n";
      return 1;
    }
    if (report && !brrrc::printReport(*module, reportShapes))
      return 1;
    if (!plot.empty() &&
        !brrrc::writeRoofline(*module, plot, inputPath, reportShapes))
      return 1;
  }
  if (mode == Emit::Brrr || mode == Emit::Kernels)
    return printModule(*module);

  std::string cuda = cudaDir();
  phase = total.nest("kernel code");
  auto kernels = mlir::brrr::compileKernels(
      *module, *target, cuda, !noCubin && mode != Emit::Ptx, &phase);
  phase.stop();
  if (failed(kernels)) {
    errs() << "brrrc: kernel compilation failed; nothing was written\n";
    return 1;
  }
  if (mode == Emit::Ptx)
    return writeOutput(kernels->ptx);
  phase = total.nest("artifact");
  auto artifact =
      mlir::brrr::buildArtifact(*module, *target, std::move(*kernels));
  phase.stop();
  if (failed(artifact)) {
    errs() << "brrrc: " << errors << " error(s); nothing was written\n";
    return 1;
  }
  if (mode == Emit::Artifact) {
    std::string error;
    auto output = mlir::openOutputFile(outputPath, &error);
    if (!output) {
      errs() << "brrrc: error: " << error << "\n";
      return 1;
    }
    artifact->write(output->os());
    output->keep();
    return 0;
  }
  if (outputPath == "-") {
    errs() << "brrrc: error: a shared library needs an output file (-o "
              "model.so)\n";
    return 1;
  }
  std::string lib = runtimeLib;
  if (lib.empty()) {
    SmallString<256> path(sys::path::parent_path(sys::path::parent_path(
        sys::fs::getMainExecutable(argv[0], reinterpret_cast<void *>(&main)))));
    sys::path::append(path, "lib", "libbrrr_runtime.a");
    lib = path.str().str();
  }
  auto layout =
      weightsLayout == Weights::Appended ||
              (weightsLayout == Weights::Auto &&
               artifact->weightBytes >= mlir::brrr::kAppendWeightsFrom)
          ? mlir::brrr::WeightsLayout::Appended
          : mlir::brrr::WeightsLayout::Embedded;
  if (layout == mlir::brrr::WeightsLayout::Embedded &&
      artifact->weightBytes >= (uint64_t(2) << 30)) {
    errs() << inputPath << ": error: --weights=embedded cannot hold "
           << artifact->weightBytes
           << " bytes of weights: the linker's 32-bit relocations reach about "
              "2 GiB (use --weights=appended or auto)\n";
    return 1;
  }
  phase = total.nest("link (C++ compiler)");
  if (failed(mlir::brrr::linkModelLibrary(
          mlir::FileLineColLoc::get(&context, inputPath, 0, 0), *artifact, lib,
          outputPath, layout)))
    return 1;
  return 0;
}

static int writeOutput(StringRef bytes) {
  std::string error;
  auto output = mlir::openOutputFile(outputPath, &error);
  if (!output) {
    errs() << "brrrc: error: " << error << "\n";
    return 1;
  }
  output->os() << bytes;
  output->keep();
  return 0;
}

static int printModule(mlir::ModuleOp module) {
  std::string error;
  auto output = mlir::openOutputFile(outputPath, &error);
  if (!output) {
    errs() << "brrrc: error: " << error << "\n";
    return 1;
  }
  mlir::OpPrintingFlags flags;
  if (!printWeights) {
    // A limit of 0 elides every blob before it is encoded (any other limit
    // hex-encodes each blob first: minutes and gigabytes for large
    // weights), but leaves an empty resource section behind: drop it.
    flags.elideLargeResourceString(0);
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os, flags);
    StringRef printed(text);
    printed.consume_back("\n\n{-#\n\n#-}\n");
    output->os() << printed;
    if (!printed.ends_with("\n"))
      output->os() << "\n";
  } else {
    module->print(output->os(), flags);
  }
  output->keep();
  return 0;
}
