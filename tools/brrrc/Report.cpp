//===- Report.cpp - brrrc --report and its roofline chart ----------------===//
//
// The static roofline of a compiled module (`brrrc --report`): per kernel
// its work, traffic, precision and the ceiling that bounds it, the lines
// that say why a product or attention was not fused, and the same floors
// drawn as an SVG chart (`--plot`).
//
//===----------------------------------------------------------------------===//

#include "tools/brrrc/Report.h"

#include "compiler/CodeGen/KernelCost.h"

#include "passes/Config/Attention.h"
#include "passes/Config/Products.h"
#include "passes/Precision/Calibration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>

using namespace llvm;

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

namespace {
/// The symbols' values a report is printed at: each input `--shape` names
/// binds the symbols its dimensions are; the others take their largest.
struct ReportShape {
  SmallVector<mlir::brrr::DimAttr> dims; ///< the module's symbols
  SmallVector<mlir::brrr::DimAttr> at;   ///< each pinned to its value
  std::string text;                      ///< "batch = 3, ..." for the header

  /// `e` at the bound values.
  int64_t eval(mlir::AffineExpr e) const {
    std::optional<std::pair<int64_t, int64_t>> r = mlir::brrr::rangeOf(e, at);
    return r ? r->first : 0;
  }
};

/// The shape `specs` (NAME=D0xD1x..., one per input) name for `module`'s
/// symbols, or an error message.
std::optional<ReportShape> parseReportShape(mlir::ModuleOp module,
                                            ArrayRef<std::string> specs,
                                            std::string &error) {
  ReportShape shape;
  shape.dims = mlir::brrr::dimsOf(module);
  if (shape.dims.empty()) {
    error = "the model has no symbolic dimensions; --shape picks a shape of "
            "a model compiled for ranges (--input-shape NAME=MIN..MAX)";
    return std::nullopt;
  }
  auto main = module.lookupSymbol<mlir::func::FuncOp>("main");
  SmallVector<std::optional<int64_t>> values(shape.dims.size());
  for (const std::string &spec : specs) {
    auto [name, dimsText] = StringRef(spec).split('=');
    mlir::RankedTensorType type;
    for (unsigned i = 0; main && i < main.getNumArguments(); ++i)
      if (auto n = main.getArgAttrOfType<mlir::StringAttr>(i, "brrr.name");
          n && n.getValue() == name)
        type = mlir::dyn_cast<mlir::RankedTensorType>(
            main.getArgument(i).getType());
    if (!type) {
      error = "no input named '" + name.str() + "'";
      return std::nullopt;
    }
    SmallVector<StringRef> parts;
    dimsText.split(parts, 'x');
    if (parts.size() != size_t(type.getRank())) {
      error = "input '" + name.str() + "' has rank " +
              std::to_string(type.getRank()) + ", not " +
              std::to_string(parts.size());
      return std::nullopt;
    }
    SmallVector<mlir::AffineExpr> extents = mlir::brrr::extentsOf(type);
    for (auto [d, part] : llvm::enumerate(parts)) {
      int64_t v = 0;
      std::string where =
          "dimension " + std::to_string(d) + " of input '" + name.str() + "'";
      if (part.getAsInteger(10, v) || v < 0) {
        error = where + " is '" + part.str() + "', not a size";
        return std::nullopt;
      }
      if (auto c = mlir::dyn_cast<mlir::AffineConstantExpr>(extents[d])) {
        if (c.getValue() != v) {
          error = where + " is fixed at " + std::to_string(c.getValue());
          return std::nullopt;
        }
        continue;
      }
      auto sym = mlir::dyn_cast<mlir::AffineSymbolExpr>(extents[d]);
      if (!sym || sym.getPosition() >= shape.dims.size()) {
        error = where + " is not one symbolic dimension";
        return std::nullopt;
      }
      mlir::brrr::DimAttr dim = shape.dims[sym.getPosition()];
      if (v < dim.getMin() || v > dim.getMax()) {
        error = where + " (" + dim.getName().str() + ") is " +
                std::to_string(v) + ", outside " +
                std::to_string(dim.getMin()) + ".." +
                std::to_string(dim.getMax());
        return std::nullopt;
      }
      std::optional<int64_t> &bound = values[sym.getPosition()];
      if (bound && *bound != v) {
        error = dim.getName().str() + " is given as " + std::to_string(*bound) +
                " and as " + std::to_string(v);
        return std::nullopt;
      }
      bound = v;
    }
  }
  for (auto [dim, value] : llvm::zip(shape.dims, values)) {
    int64_t v = value.value_or(dim.getMax());
    shape.at.push_back(
        mlir::brrr::DimAttr::get(module.getContext(), dim.getName(), v, v));
    shape.text += (shape.text.empty() ? "" : ", ") + dim.getName().str() +
                  " = " + std::to_string(v) + (value ? "" : " (its largest)");
  }
  return shape;
}
/// `shape` set to the shape `specs` name for `module` (left empty without
/// specs: the largest); false, after an error message, when they do not
/// fit the model.
bool reportShapeOf(mlir::ModuleOp module, ArrayRef<std::string> specs,
                   std::optional<ReportShape> &shape) {
  if (specs.empty())
    return true;
  std::string error;
  shape = parseReportShape(module, specs, error);
  if (!shape)
    errs() << "brrrc: error: --shape: " << error << "\n";
  return shape.has_value();
}
} // namespace

/// Every kernel of `module` that says its work and traffic, in order, at
/// the largest shape or at `shape`.
static SmallVector<ReportKernel>
reportKernels(mlir::ModuleOp module, const ReportShape *shape = nullptr) {
  SmallVector<ReportKernel> kernels;
  module.walk([&](mlir::brrr::FusionOp f) {
    auto flops = f->getAttrOfType<mlir::IntegerAttr>("brrr.flops");
    auto bytes = f->getAttrOfType<mlir::IntegerAttr>("brrr.bytes");
    auto name = f->getAttrOfType<mlir::StringAttr>("brrr.kernel");
    if (!flops || !bytes || !name)
      return;
    auto [prec, peak] = precisionOf(f);
    ReportKernel k{f,
                   name.getValue(),
                   double(flops.getInt()),
                   double(bytes.getInt()),
                   prec,
                   peak};
    // At a shape: what its cost expressions give there (KernelCost.h).
    auto cost = f->getAttrOfType<mlir::AffineMapAttr>(
        mlir::brrr::kRooflineExtentsAttrName);
    if (shape && cost) {
      k.flops = double(shape->eval(cost.getValue().getResult(0)));
      k.bytes = double(shape->eval(cost.getValue().getResult(1)));
    }
    kernels.push_back(k);
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
bool brrrc::printReport(mlir::ModuleOp module,
                        ArrayRef<std::string> shapeSpecs) {
  std::optional<ReportShape> shape;
  if (!reportShapeOf(module, shapeSpecs, shape))
    return false;
  outs() << llvm::format("%-14s %-10s %-9s %14s %14s %8s %10s %-6s  %s\n",
                         "kernel", "family", "precision", "flops", "bytes",
                         "flop/B", "floor us", "launch", "bound");
  int64_t eightBit = 0;
  for (ReportKernel &k : reportKernels(module, shape ? &*shape : nullptr)) {
    eightBit +=
        StringRef(k.precision) == "fp8" || StringRef(k.precision) == "int8";
    StringRef bound = boundOf(k.flops, k.bytes, k.peak);
    if (bound == "overhead")
      bound = "overhead (< 2 us of work: launch-bound without graphs)";
    // `shape`: the runtime decides at each shape (a grid read at run time).
    const char *launch =
        k.fusion->hasAttr("brrr.programmatic") ? "early"
        : k.fusion->hasAttr(mlir::brrr::kProgrammaticInOneWaveAttrName) ||
                k.fusion->hasAttr(mlir::brrr::kProgrammaticFittingAttrName)
            ? "shape"
            : "-";
    outs() << llvm::format(
        "%-14s %-10s %-9s %14.0f %14.0f %8.2f %10.2f %-6s  %s\n",
        k.name.str().c_str(),
        mlir::brrr::stringifyKernelFamily(k.fusion.getKind()).str().c_str(),
        k.precision, k.flops, k.bytes, k.bytes ? k.flops / k.bytes : 0.0,
        k.floorSeconds() * 1e6, launch, bound.str().c_str());
  }
  // A model compiled with ranges: the table and the memory plan are the
  // largest shape's.
  SmallVector<mlir::brrr::DimAttr> dims = mlir::brrr::dimsOf(module);
  if (!dims.empty()) {
    std::string ranges;
    for (mlir::brrr::DimAttr d : dims)
      ranges += (ranges.empty() ? "" : ", ") + d.getName().str() + " in " +
                std::to_string(d.getMin()) + ".." + std::to_string(d.getMax());
    int64_t arena = 0;
    if (auto main = module.lookupSymbol<mlir::func::FuncOp>("main"))
      if (auto a = main->getAttrOfType<mlir::IntegerAttr>("brrr.arena_bytes"))
        arena = a.getInt();
    if (shape)
      outs() << "symbolic shapes (" << ranges << ") at " << shape->text
             << ": flops, bytes and floors at that shape; the arena (" << arena
             << " bytes) is planned for the largest shape\n";
    else
      outs() << "symbolic shapes (" << ranges
             << "): flops, bytes and floors are the largest shape's (--shape "
                "picks another); the arena ("
             << arena << " bytes) is planned for the largest shape\n";
  }
  // Products that split their k-slices between persistent blocks
  // (--stream-k), and the workspace each sums its shared tiles through.
  module.walk([&](mlir::brrr::FusionOp f) {
    auto config = f->getAttrOfType<mlir::brrr::KernelConfigAttr>(
        mlir::brrr::kKernelConfigAttrName);
    auto name = f->getAttrOfType<mlir::StringAttr>("brrr.kernel");
    if (!config || !config.getStreamK() || !name || config.getTile().size() < 2)
      return;
    int64_t workspace = 0;
    if (auto places =
            f->getAttrOfType<mlir::ArrayAttr>(mlir::brrr::kWorkspaceAttrName))
      for (mlir::Attribute a : places)
        if (auto place = mlir::dyn_cast<mlir::brrr::PlacementAttr>(a))
          workspace += place.getBytes();
    outs() << "stream-K: " << name.getValue()
           << " splits its k-slices evenly between " << config.getPersistent()
           << " blocks (tiles of " << config.getTile()[0] << " x "
           << config.getTile()[1] << "), summing shared tiles through "
           << workspace << " bytes of workspace\n";
  });
  // --precision=fp8|int8: how many products calibration made 8-bit; what
  // is not 8-bit takes auto's 16-bit precision.
  auto table = module->getAttrOfType<mlir::DictionaryAttr>(
      mlir::brrr::kCalibrationAttrName);
  if (table)
    outs() << "post-training quantization: " << eightBit
           << " kernel(s) multiply in 8 bits; the calibration table holds "
           << table.size() << " activation range(s)\n";
  // What --precision=auto chose, and why.
  if (auto why = module->getAttrOfType<mlir::StringAttr>("brrr.precision_auto"))
    if (auto p = module->getAttrOfType<mlir::StringAttr>("brrr.precision"))
      outs() << "precision: " << p.getValue()
             << (table ? " for what is not 8-bit" : "")
             << ", chosen by --precision=auto (" << why.getValue() << ")"
             << (p.getValue() == "fp32" || table
                     ? "\n"
                     : "; --precision=fp32 keeps f32 products in f32\n");
  // Products of dequantized 8-bit operands that multiply in float.
  printWhyNot(module, "brrr.quantized_unfused", "8-bit product not used (",
              "; it multiplies in float");
  // Grouped convolutions that a dense pack would not pay for.
  printWhyNot(module, "brrr.groups_unpacked",
              "grouped convolution not packed (", "");
  // Softmaxes that feed a product with values but stayed unfused.
  printWhyNot(module, "brrr.attention_unfused",
              "attention not fused (softmax in ", "");
  return true;
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
bool brrrc::writeRoofline(mlir::ModuleOp module, StringRef path,
                          StringRef modelPath,
                          ArrayRef<std::string> shapeSpecs) {
  constexpr double kBandwidth = kReportBandwidth, kMinIntensity = 1.0 / 16;
  std::optional<ReportShape> shape;
  if (!reportShapeOf(module, shapeSpecs, shape))
    return false;
  std::vector<PlotKernel> kernels;
  llvm::StringMap<size_t> index;
  std::map<std::string, double> peaks;
  for (const ReportKernel &r :
       reportKernels(module, shape ? &*shape : nullptr)) {
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
                      width / 2, xmlEscape(sys::path::filename(modelPath)),
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
