//===- Calibrate.cpp - ranges from a calibration run, and their cache -----===//

#include "compiler/Calibration/Calibration.h"
#include "passes/Precision/Calibration.h"

#include "brrr_runtime.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

using namespace llvm;
using namespace mlir::brrr;
using namespace mlir::brrr::calibration;

namespace {

constexpr StringLiteral kCacheHeader = "brrr calibration 1";

/// The magnitudes of the elements in the first `size` bytes of a float
/// output, passed one at a time to `f`. False for an output type that is
/// not a float.
template <typename F>
bool forEachMagnitude(const std::vector<char> &bytes, uint64_t size,
                      brrr_dtype type, F f) {
  const char *p = bytes.data();
  size = std::min<uint64_t>(size, bytes.size());
  switch (type) {
  case BRRR_DTYPE_F32:
    for (size_t i = 0; i + 4 <= size; i += 4) {
      float v;
      std::memcpy(&v, p + i, 4);
      f(std::fabs(static_cast<double>(v)));
    }
    return true;
  case BRRR_DTYPE_F16:
  case BRRR_DTYPE_BF16: {
    const fltSemantics &sem =
        type == BRRR_DTYPE_F16 ? APFloat::IEEEhalf() : APFloat::BFloat();
    // Every 16-bit pattern's magnitude, once.
    std::vector<double> table(1 << 16);
    for (uint32_t bits = 0; bits < table.size(); ++bits)
      table[bits] = std::fabs(APFloat(sem, APInt(16, bits)).convertToDouble());
    for (size_t i = 0; i + 2 <= size; i += 2) {
      uint16_t bits;
      std::memcpy(&bits, p + i, 2);
      f(table[bits]);
    }
    return true;
  }
  default:
    return false;
  }
}

} // namespace

double mlir::brrr::calibration::percentileOf(ArrayRef<uint64_t> histogram,
                                             double width, double percentile) {
  uint64_t total = 0;
  for (uint64_t c : histogram)
    total += c;
  if (total == 0)
    return 0;
  double need = percentile / 100.0 * static_cast<double>(total);
  uint64_t seen = 0;
  for (size_t i = 0; i < histogram.size(); ++i) {
    seen += histogram[i];
    if (static_cast<double>(seen) >= need)
      return width * static_cast<double>(i + 1);
  }
  return width * static_cast<double>(histogram.size());
}

bool mlir::brrr::calibration::measureRanges(StringRef artifact,
                                            ArrayRef<Sample> samples,
                                            const Method &method, Table &table,
                                            std::string &error) {
  brrr_model *model = nullptr;
  if (brrr_model_open_artifact(artifact.data(), artifact.size(), 0, &model) !=
      BRRR_OK) {
    error = std::string("calibration runs the model on GPU 0, and cannot: ") +
            brrr_last_error() +
            " (or pass --calibration-cache with a cache written where it "
            "can)";
    return false;
  }
  scope_exit closeModel([&] { brrr_model_close(model); });
  brrr_context *context = nullptr;
  if (brrr_context_create(model, &context) != BRRR_OK) {
    error = std::string("calibration: ") + brrr_last_error();
    return false;
  }
  scope_exit closeContext([&] { brrr_context_destroy(context); });
  // Each run once: no graph to capture.
  brrr_context_set_cuda_graphs(context, 0);

  int32_t numInputs = brrr_model_num_inputs(model);
  int32_t numOutputs = brrr_model_num_outputs(model);
  // A build with ranges runs each sample at its own shape; a static one
  // takes samples of its one shape.
  bool symbolic = brrr_model_num_symbols(model) > 0;
  for (const Sample &s : samples) {
    if (static_cast<int32_t>(s.inputs.size()) != numInputs) {
      error = "calibration: " + s.source + " gives " +
              std::to_string(s.inputs.size()) + " inputs; the model takes " +
              std::to_string(numInputs);
      return false;
    }
    for (int32_t i = 0; i < numInputs; ++i) {
      brrr_tensor_info info;
      brrr_model_input(model, i, &info);
      if (symbolic) {
        // Its shape is checked against the ranges when the sample runs;
        // its bytes must be that shape's.
        const HostTensor &t = s.inputs[i];
        uint64_t bytes = elementBytes(t.onnxType);
        for (int64_t d : t.shape)
          bytes *= static_cast<uint64_t>(d);
        if (bytes != t.bytes.size()) {
          error = "calibration: " + s.source + ": input '" + info.name +
                  "' holds " + std::to_string(t.bytes.size()) +
                  " bytes where its shape takes " + std::to_string(bytes);
          return false;
        }
        continue;
      }
      if (info.size_bytes != s.inputs[i].bytes.size()) {
        error = "calibration: " + s.source + ": input '" + info.name +
                "' holds " + std::to_string(s.inputs[i].bytes.size()) +
                " bytes where the model takes " +
                std::to_string(info.size_bytes);
        return false;
      }
    }
  }

  struct Output {
    std::string key;
    brrr_dtype type;
    double amax = 0;
    std::vector<uint64_t> histogram;
  };
  std::vector<std::vector<char>> buffers(numOutputs);
  // Each output's bytes at the running sample's shape.
  std::vector<uint64_t> sizes(numOutputs);
  std::vector<void *> outputPointers(numOutputs);
  std::vector<int32_t> measured; // output index per entry of `outputs`
  std::vector<Output> outputs;
  for (int32_t o = 0; o < numOutputs; ++o) {
    brrr_tensor_info info;
    brrr_model_output(model, o, &info);
    buffers[o].resize(info.size_bytes);
    sizes[o] = info.size_bytes;
    outputPointers[o] = buffers[o].data();
    StringRef name(info.name);
    if (!name.consume_front(kCalibrationOutputPrefix))
      continue;
    measured.push_back(o);
    outputs.push_back({name.str(), info.dtype});
  }

  auto runAll = [&](auto &&visit) {
    for (const Sample &s : samples) {
      std::vector<const void *> in;
      for (const HostTensor &t : s.inputs)
        in.push_back(t.bytes.data());
      if (symbolic) {
        for (int32_t i = 0; i < numInputs; ++i) {
          const std::vector<int64_t> &shape = s.inputs[i].shape;
          if (brrr_context_set_input_shape(
                  context, i, shape.data(),
                  static_cast<int32_t>(shape.size())) != BRRR_OK) {
            error = "calibration: " + s.source + ": " + brrr_last_error();
            return false;
          }
        }
        for (int32_t o = 0; o < numOutputs; ++o)
          if (brrr_context_output_shape(context, o, nullptr, &sizes[o]) !=
              BRRR_OK) {
            error = "calibration: " + s.source + ": " + brrr_last_error();
            return false;
          }
      }
      if (brrr_run_host(context, in.data(), outputPointers.data()) != BRRR_OK) {
        error = "calibration: running " + s.source + ": " + brrr_last_error();
        return false;
      }
      for (size_t i = 0; i < outputs.size(); ++i)
        if (!visit(s, outputs[i], buffers[measured[i]], sizes[measured[i]]))
          return false;
    }
    return true;
  };
  bool ok =
      runAll([&](const Sample &s, Output &out, const std::vector<char> &bytes,
                 uint64_t size) {
        bool finite = true;
        if (!forEachMagnitude(bytes, size, out.type, [&](double m) {
              finite &= std::isfinite(m);
              out.amax = std::max(out.amax, m);
            })) {
          error = "calibration: the activation of '" + out.key +
                  "' is not a float tensor";
          return false;
        }
        if (!finite) {
          error = "calibration: the activation of '" + out.key +
                  "' is NaN or infinite on " + s.source +
                  " (it cannot be quantized by one scale)";
          return false;
        }
        return true;
      });
  if (!ok)
    return false;
  if (method.percentile > 0) {
    for (Output &out : outputs)
      out.histogram.assign(kHistogramBins, 0);
    ok = runAll([&](const Sample &, Output &out, const std::vector<char> &bytes,
                    uint64_t size) {
      if (out.amax == 0)
        return true;
      double perBin = kHistogramBins / out.amax;
      forEachMagnitude(bytes, size, out.type, [&](double m) {
        auto bin = static_cast<int64_t>(m * perBin);
        ++out.histogram[std::min<int64_t>(bin, kHistogramBins - 1)];
      });
      return true;
    });
    if (!ok)
      return false;
    for (Output &out : outputs)
      out.amax = percentileOf(out.histogram, out.amax / kHistogramBins,
                              method.percentile);
  }
  table.method = method;
  table.samples = samples.size();
  table.ranges.clear();
  for (const Output &out : outputs)
    table.ranges.emplace_back(out.key, out.amax);
  return true;
}

std::string mlir::brrr::calibration::printCache(const Table &table) {
  std::string text = kCacheHeader.str() + "\n";
  char number[64];
  if (table.method.percentile > 0) {
    std::snprintf(number, sizeof(number), "%.15g", table.method.percentile);
    text += "method percentile " + std::string(number) + "\n";
  } else {
    text += "method max\n";
  }
  text += "samples " + std::to_string(table.samples) + "\n";
  for (const auto &[key, range] : table.ranges) {
    std::snprintf(number, sizeof(number), "%.17g", range);
    text += std::string(number) + " " + key + "\n";
  }
  return text;
}

bool mlir::brrr::calibration::parseCache(StringRef text, Table &table,
                                         std::string &error) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (lines.empty() || lines.front().trim() != kCacheHeader) {
    error = "not a calibration cache (its first line is not '" +
            kCacheHeader.str() + "')";
    return false;
  }
  auto number = [](StringRef word, double &v) {
    std::string s = word.str();
    char *end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return !s.empty() && end == s.c_str() + s.size();
  };
  table = Table();
  for (size_t i = 1; i < lines.size(); ++i) {
    StringRef line = lines[i].rtrim("\r");
    auto bad = [&](const Twine &why) {
      error = ("line " + Twine(i + 1) + ": " + why).str();
      return false;
    };
    if (line.starts_with("#"))
      continue;
    auto [word, rest] = line.split(' ');
    if (word == "method") {
      double p;
      if (rest == "max")
        table.method.percentile = 0;
      else if (rest.consume_front("percentile ") && number(rest, p) && p > 0 &&
               p < 100)
        table.method.percentile = p;
      else
        return bad("bad method '" + rest + "' (max, or percentile P)");
      continue;
    }
    if (word == "samples") {
      if (rest.getAsInteger(10, table.samples) || table.samples < 0)
        return bad("bad sample count '" + rest + "'");
      continue;
    }
    double range;
    if (!number(word, range) || rest.empty())
      return bad("expected 'RANGE KEY', got '" + line + "'");
    table.ranges.emplace_back(rest.str(), range);
  }
  return true;
}
