//===- brrrc.cpp - the brrr compiler driver -----------------------------===//
//
// `brrrc MODEL -o model.so`: imports an ONNX model, runs the compile
// pipeline (fusion, memory planning, kernel generation), compiles the
// kernels to PTX and cubin, and links a self-contained model.so. `--emit`
// stops earlier and prints what each stage produced; `--report` prints the
// static roofline of every kernel. Every diagnostic is printed as
// `MODEL: error: ...` and any error makes the exit status non-zero.
//
//===----------------------------------------------------------------------===//

#include "compiler/Artifact/ArtifactWriter.h"
#include "compiler/CodeGen/CodeGen.h"
#include "compiler/Import/OnnxImporter.h"
#include "compiler/Pipeline/Pipeline.h"
#include "passes/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <map>

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

cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Bind a graph input's shape, e.g. --input-shape x=1x3x224x224 "
             "(repeatable)"),
    cl::value_desc("NAME=D0xD1x..."), cl::cat(category));

cl::opt<std::string> precision(
    "precision",
    cl::desc("How f32 matmuls and convolutions multiply: fp32 (default, f32 "
             "accuracy), tf32 (one tf32 product), fp16 or bf16 (weights "
             "converted at compile time, f32 accumulation; outputs keep "
             "their types)"),
    cl::init("fp32"), cl::cat(category));

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
    cl::desc("Multiply float8 QDQ products on the 8-bit Tensor Cores too, "
             "summing in their float8 accumulation (relative error about "
             "2e-4 per product; default: only INT8 products, which sum "
             "exactly, run in 8 bits)"),
    cl::init(false), cl::cat(category));

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

} // namespace

static int writeOutput(StringRef bytes);
static int printModule(mlir::ModuleOp module);
static void printReport(mlir::ModuleOp module);
static bool writeRoofline(mlir::ModuleOp module, StringRef path);

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "brrr " << BRRR_VERSION << "\n  LLVM/MLIR " << LLVM_VERSION_STRING
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
  compile.float8Products = fp8FastAccumulation;
  compile.pingpong = pingpong;
  compile.overlap = overlapEpilogue;
  compile.programmaticLaunch = !serialLaunches;
  compile.indexChecks = !uncheckedIndices;

  if (!plot.empty() && !report) {
    errs() << "brrrc: error: --plot draws the report; add --report\n";
    return 1;
  }
  if (precision != "fp32" && precision != "tf32" && precision != "fp16" &&
      precision != "bf16") {
    errs() << "brrrc: error: unknown --precision '" << precision
           << "' (supported: fp32, tf32, fp16, bf16)\n";
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
    (*module)->setAttr("brrr.precision",
                       mlir::StringAttr::get(&context, precision));
    if (failed(mlir::brrr::runCompilePipeline(*module, compile, &total)) ||
        errors) {
      errs() << "brrrc: " << errors << " error(s); nothing was written\n";
      return 1;
    }
    if (report)
      printReport(*module);
    if (!plot.empty() && !writeRoofline(*module, plot))
      return 1;
  }
  if (mode == Emit::Brrr || mode == Emit::Kernels)
    return printModule(*module);

  std::string cuda = cudaPath;
  if (cuda.empty())
    cuda =
        std::getenv("CUDA_HOME") ? std::getenv("CUDA_HOME") : "/usr/local/cuda";
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

/// The precision a kernel multiplies in and the rate that bounds its
/// arithmetic on an H100 SXM (datasheet, dense): Tensor Cores at 1979
/// TFLOP/s (TOPS) for 8-bit operands (fp8, int8), 990 for f16/bf16, 495
/// for tf32 and a third of that for f32 kept exact by three tf32 products;
/// 67 TFLOP/s of plain f32 otherwise.
static std::pair<const char *, double> precisionOf(mlir::brrr::FusionOp f) {
  auto config = f->getAttrOfType<mlir::brrr::KernelConfigAttr>(
      mlir::brrr::kKernelConfigAttrName);
  if (!config || config.getBody() == mlir::brrr::KernelBody::simt)
    return {"-", 67e12};
  mlir::Operation *product = mlir::brrr::tensorCoreProductOf(f);
  if (!product)
    return {"-", 67e12};
  mlir::Type et =
      mlir::cast<mlir::RankedTensorType>(product->getOperand(0).getType())
          .getElementType();
  if (mlir::isa<mlir::Float8E4M3FNType>(et))
    return {"fp8", 1979e12};
  if (et.isSignlessInteger(8))
    return {"int8", 1979e12};
  if (et.isF16())
    return {"f16", 990e12};
  if (et.isBF16())
    return {"bf16", 990e12};
  if (config.getPrecision() == mlir::brrr::KernelPrecision::tf32)
    return {"tf32", 495e12};
  return {"f32", 165e12};
}

/// HBM3's 3.35 TB/s on an H100 SXM: the memory ceiling of the report.
constexpr double kReportBandwidth = 3.35e12;

/// A kernel of the report: its fusion, name, work, traffic and the
/// precision (and rate) it multiplies in.
struct ReportKernel {
  mlir::brrr::FusionOp fusion;
  StringRef name;
  double flops, bytes;
  const char *precision;
  double peak;

  /// The longer of its memory and arithmetic floors, in seconds.
  double floorSeconds() const {
    return std::max(bytes / kReportBandwidth, flops / peak);
  }
};

/// Every kernel of `module` that says its work and traffic, in order.
static SmallVector<ReportKernel> reportKernels(mlir::ModuleOp module) {
  SmallVector<ReportKernel> kernels;
  module.walk([&](mlir::brrr::FusionOp f) {
    auto flops = f->getAttrOfType<mlir::IntegerAttr>("brrr.flops");
    auto bytes = f->getAttrOfType<mlir::IntegerAttr>("brrr.bytes");
    auto name = f->getAttrOfType<mlir::StringAttr>("brrr.kernel");
    if (!flops || !bytes || !name)
      return;
    auto [prec, peak] = precisionOf(f);
    kernels.push_back({f, name.getValue(), double(flops.getInt()),
                       double(bytes.getInt()), prec, peak});
  });
  return kernels;
}

/// The ceiling that bounds `flops` of work and `bytes` of traffic at
/// `peak` flop/s: "overhead" when both floors are under 2 us (launch-bound
/// without graphs), else "memory" or "compute", whichever floor is longer.
static const char *boundOf(double flops, double bytes, double peak) {
  double tMem = bytes / kReportBandwidth, tMath = flops / peak;
  if (std::max(tMem, tMath) * 1e6 < 2.0)
    return "overhead";
  return tMem >= tMath ? "memory" : "compute";
}

/// A line per op of `module` that says in `attr` why something did not
/// happen to it: `lead` + its kernel and location + "): " + the reason +
/// `tail`.
static void printWhyNot(mlir::ModuleOp module, StringRef attr, StringRef lead,
                        StringRef tail) {
  module.walk([&](mlir::Operation *op) {
    auto why = op->getAttrOfType<mlir::StringAttr>(attr);
    if (!why)
      return;
    auto kernel = op->getParentOfType<mlir::brrr::FusionOp>();
    auto name = kernel ? kernel->getAttrOfType<mlir::StringAttr>("brrr.kernel")
                       : mlir::StringAttr();
    std::string where;
    llvm::raw_string_ostream(where) << op->getLoc();
    outs() << lead << (name ? name.getValue() : "no kernel") << ", " << where
           << "): " << why.getValue() << tail << "\n";
  });
}

/// The static half of `brrr-run --profile`: per kernel, the work it does,
/// the precision it multiplies in, the fewest bytes it must move, whether it
/// launches early (as a programmatic dependent of the kernel before it), and
/// which ceiling bounds it on an H100 (HBM3 3.35 TB/s; the precision's
/// rate).
static void printReport(mlir::ModuleOp module) {
  outs() << llvm::format("%-14s %-10s %-9s %14s %14s %8s %10s %-6s  %s\n",
                         "kernel", "family", "precision", "flops", "bytes",
                         "flop/B", "floor us", "launch", "bound");
  for (ReportKernel &k : reportKernels(module)) {
    StringRef bound = boundOf(k.flops, k.bytes, k.peak);
    if (bound == "overhead")
      bound = "overhead (< 2 us of work: launch-bound without graphs)";
    const char *launch = k.fusion->hasAttr("brrr.programmatic") ? "early" : "-";
    outs() << llvm::format(
        "%-14s %-10s %-9s %14.0f %14.0f %8.2f %10.2f %-6s  %s\n",
        k.name.str().c_str(),
        mlir::brrr::stringifyKernelFamily(k.fusion.getKind()).str().c_str(),
        k.precision, k.flops, k.bytes, k.bytes ? k.flops / k.bytes : 0.0,
        k.floorSeconds() * 1e6, launch, bound.str().c_str());
  }
  // Products of dequantized 8-bit operands that multiply in float.
  printWhyNot(module, "brrr.quantized_unfused", "8-bit product not used (",
              "; it multiplies in float");
  // Softmaxes that feed a product with values but stayed unfused.
  printWhyNot(module, "brrr.attention_unfused",
              "attention not fused (softmax in ", "");
}

namespace {
/// One kernel of the static roofline: its launches summed.
struct PlotKernel {
  std::string name;
  double flops = 0, bytes = 0, floorSeconds = 0, peak = 0;
  std::string precision, regime;
};

std::string siPrefix(double v) {
  char text[32];
  for (auto [factor, prefix] : {std::pair<double, const char *>{1e15, "P"},
                                {1e12, "T"},
                                {1e9, "G"},
                                {1e6, "M"},
                                {1e3, "k"}})
    if (v >= factor) {
      std::snprintf(text, sizeof(text), "%g%s", v / factor, prefix);
      return text;
    }
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}

std::string xmlEscape(StringRef s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}
} // namespace

/// `brrrc --report --plot FILE.svg`: the report's floors as a roofline
/// chart, drawn like `brrr-run --profile --plot` (python/brrr/roofline.py)
/// but with each kernel at its floor (on the roof of its precision, or on
/// the memory roof) instead of a measured time: where each kernel's time
/// can at best go, on an H100's datasheet ceilings (HBM3 3.35 TB/s; the
/// precision's dense rate). Kernels that do no arithmetic sit at the left
/// edge at their byte rate times that intensity.
static bool writeRoofline(mlir::ModuleOp module, StringRef path) {
  constexpr double kBandwidth = kReportBandwidth, kMinIntensity = 1.0 / 16;
  std::vector<PlotKernel> kernels;
  llvm::StringMap<size_t> index;
  std::map<std::string, double> peaks;
  for (const ReportKernel &r : reportKernels(module)) {
    auto [it, fresh] = index.try_emplace(r.name, kernels.size());
    if (fresh)
      kernels.push_back({r.name.str(), 0, 0, 0, r.peak, r.precision, ""});
    PlotKernel &k = kernels[it->second];
    k.flops += r.flops;
    k.bytes += r.bytes;
    k.floorSeconds += r.floorSeconds();
    StringRef prec = r.precision;
    peaks[prec == "-"     ? "f32 SIMT"
          : prec == "f32" ? "f32 (3 tf32 products)"
                          : prec.str()] = r.peak;
  }
  for (PlotKernel &k : kernels)
    k.regime = boundOf(k.flops, k.bytes, k.peak);
  double topPeak = 0;
  for (auto &[n, p] : peaks)
    topPeak = std::max(topPeak, p);
  if (kernels.empty() || topPeak == 0) {
    errs() << "brrrc: error: --plot: the model has no kernels to draw\n";
    return false;
  }
  auto rate = [&](const PlotKernel &k) {
    if (k.floorSeconds <= 0)
      return 0.0;
    if (k.flops > 0 && k.bytes > 0 && k.flops / k.bytes >= kMinIntensity)
      return k.flops / k.floorSeconds;
    return std::max(k.bytes / k.floorSeconds * kMinIntensity, 1.0);
  };
  double xMax = kMinIntensity * 2, yMin = kBandwidth * kMinIntensity / 10;
  for (const PlotKernel &k : kernels) {
    if (k.flops > 0 && k.bytes > 0)
      xMax = std::max(xMax, k.flops / k.bytes);
    if (rate(k) > 0)
      yMin = std::min(yMin, rate(k));
  }
  xMax =
      std::exp2(std::ceil(std::log2(std::max(xMax, topPeak / kBandwidth * 8))));
  double yMax = std::pow(10, std::ceil(std::log10(topPeak * 1.5)));
  yMin = std::pow(10, std::floor(std::log10(yMin)));
  const double width = 900, height = 560, left = 80, right = 30, top = 50,
               bottom = 70, pw = width - left - right,
               ph = height - top - bottom;
  auto px = [&](double x) {
    return left +
           pw * std::log(x / kMinIntensity) / std::log(xMax / kMinIntensity);
  };
  auto py = [&](double y) {
    return top + ph * (1 - std::log(y / yMin) / std::log(yMax / yMin));
  };
  std::string err;
  auto file = mlir::openOutputFile(path, &err);
  if (!file) {
    errs() << "brrrc: error: --plot: " << err << "\n";
    return false;
  }
  raw_ostream &os = file->os();
  double total = 0;
  for (const PlotKernel &k : kernels)
    total += k.floorSeconds;
  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                      "height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
                      "font-family=\"sans-serif\" font-size=\"12\">\n",
                      width, height);
  os << llvm::formatv("<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
                      width, height);
  os << llvm::formatv("<text x=\"{0}\" y=\"24\" text-anchor=\"middle\" "
                      "font-size=\"15\">{1}: floors of {2} kernels, {3:f1} us "
                      "(H100 ceilings)</text>\n",
                      width / 2, xmlEscape(sys::path::filename(inputPath)),
                      kernels.size(), total * 1e6);
  os << "<g class=\"axes\" stroke=\"#ddd\">\n";
  for (int e = -4; std::exp2(e) <= xMax; e += 2)
    os << llvm::formatv(
        "<line x1=\"{0:f1}\" y1=\"{1}\" x2=\"{0:f1}\" y2=\"{2}\"/>"
        "<text x=\"{0:f1}\" y=\"{3}\" text-anchor=\"middle\" "
        "stroke=\"none\" fill=\"#333\">{4}</text>\n",
        px(std::exp2(e)), top, top + ph, top + ph + 16,
        e < 0 ? llvm::formatv("2^{0}", e).str() : std::to_string(1ll << e));
  for (double d = std::log10(yMin); std::pow(10, d) <= yMax * 1.001; d += 1)
    os << llvm::formatv(
        "<line x1=\"{0}\" y1=\"{1:f1}\" x2=\"{2}\" y2=\"{1:f1}\"/>"
        "<text x=\"{3}\" y=\"{4:f1}\" text-anchor=\"end\" "
        "stroke=\"none\" fill=\"#333\">{5}</text>\n",
        left, py(std::pow(10, d)), left + pw, left - 6, py(std::pow(10, d)) + 4,
        siPrefix(std::pow(10, d)));
  os << "</g>\n";
  os << llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
                      "fill=\"none\" stroke=\"#333\"/>\n",
                      left, top, pw, ph);
  os << llvm::formatv(
      "<text x=\"{0}\" y=\"{1}\" text-anchor=\"middle\">arithmetic "
      "intensity (flop per byte of the fewest bytes moved)"
      "</text>\n<text x=\"18\" y=\"{2}\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 18 {2})\">floor throughput (flop/s)"
      "</text>\n",
      left + pw / 2, height - 24, top + ph / 2);
  os << "<g class=\"roofs\" stroke-width=\"2\" fill=\"none\">\n";
  os << llvm::formatv("<line class=\"roof\" x1=\"{0:f1}\" y1=\"{1:f1}\" "
                      "x2=\"{2:f1}\" y2=\"{3:f1}\" stroke=\"#2471a3\"/>"
                      "<text x=\"{4:f1}\" y=\"{5:f1}\" fill=\"#2471a3\" "
                      "stroke=\"none\">HBM3 3.35 TB/s</text>\n",
                      px(kMinIntensity), py(kBandwidth * kMinIntensity),
                      px(topPeak / kBandwidth), py(topPeak),
                      px(kMinIntensity) + 8,
                      py(kBandwidth * kMinIntensity) - 8);
  for (auto &[name, peak] : peaks)
    os << llvm::formatv(
        "<line class=\"roof\" x1=\"{0:f1}\" y1=\"{1:f1}\" "
        "x2=\"{2:f1}\" y2=\"{1:f1}\" stroke=\"#c0392b\" "
        "stroke-dasharray=\"6 3\"/><text x=\"{3:f1}\" y=\"{4:f1}\" "
        "text-anchor=\"end\" fill=\"#c0392b\" stroke=\"none\">"
        "{5} {6}flop/s</text>\n",
        px(peak / kBandwidth), py(peak), left + pw, left + pw - 4, py(peak) - 5,
        xmlEscape(name), siPrefix(peak));
  os << "</g>\n<g class=\"kernels\">\n";
  std::vector<const PlotKernel *> ordered;
  for (const PlotKernel &k : kernels)
    ordered.push_back(&k);
  std::stable_sort(ordered.begin(), ordered.end(), [](auto *a, auto *b) {
    return a->floorSeconds > b->floorSeconds;
  });
  auto colour = [](StringRef regime) {
    return regime == "compute"  ? "#c0392b"
           : regime == "memory" ? "#2471a3"
                                : "#7f8c8d";
  };
  auto at = [&](const PlotKernel &k) {
    double x = k.flops > 0 && k.bytes > 0
                   ? std::max(k.flops / k.bytes, kMinIntensity)
                   : kMinIntensity;
    return std::pair<double, double>{px(x), py(rate(k))};
  };
  for (const PlotKernel *k : ordered) {
    if (k->floorSeconds <= 0)
      continue;
    auto [x, y] = at(*k);
    os << llvm::formatv(
        "<circle class=\"kernel\" cx=\"{0:f1}\" cy=\"{1:f1}\" r=\"{2:f1}\" "
        "fill=\"{3}\" fill-opacity=\"0.75\" stroke=\"{4}\"><title>{5}: floor "
        "{6:f2} us, {7}, {8}</title></circle>\n",
        x, y, 3 + 12 * std::sqrt(k->floorSeconds / total),
        k->flops > 0 ? colour(k->regime) : "white", colour(k->regime),
        xmlEscape(k->name), k->floorSeconds * 1e6, k->precision, k->regime);
  }
  for (size_t i = 0; i < ordered.size() && i < 8; ++i) {
    if (ordered[i]->floorSeconds <= 0)
      continue;
    auto [x, y] = at(*ordered[i]);
    os << llvm::formatv("<text class=\"label\" x=\"{0:f1}\" y=\"{1:f1}\" "
                        "fill=\"#222\">{2} {3:f0}%</text>\n",
                        x + 8, y - 6, xmlEscape(ordered[i]->name),
                        100 * ordered[i]->floorSeconds / total);
  }
  os << "</g>\n</svg>\n";
  file->keep();
  outs() << "roofline written to " << path << "\n";
  return true;
}
