//===- Calibration.h - calibration inputs, ranges and caches ----*- C++ -*-===//
//
// Post-training quantization (brrrc --precision=fp8|int8) measures the range
// of every activation it quantizes by running a build of the model on
// calibration inputs (brrr-calibration-outputs returns those activations).
// This library reads the inputs (.npy, .npz, ONNX TensorProto .pb), runs
// the build through the runtime, reduces its outputs to one range per
// activation, and reads and writes the calibration cache, a text file that
// lets a later compile skip the run (and run where there is no GPU).
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_COMPILER_CALIBRATION_CALIBRATION_H
#define BRRR_COMPILER_CALIBRATION_CALIBRATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::brrr::calibration {

/// A host tensor: ONNX element type (TensorProto::DataType), shape, and its
/// elements row-major, little-endian.
struct HostTensor {
  std::string name;
  int32_t onnxType = 0;
  std::vector<int64_t> shape;
  std::vector<char> bytes;
};

/// A graph input as the model declares it.
struct InputSpec {
  std::string name;
  int32_t onnxType = 0;
};

/// One run's inputs, in the model's input order, and the file(s) they came
/// from.
struct Sample {
  std::string source;
  std::vector<HostTensor> inputs;
};

/// Bytes per element of an ONNX type, 0 for a type calibration inputs do
/// not take.
int64_t elementBytes(int32_t onnxType);
/// The ONNX name of a type ("FLOAT16").
std::string typeName(int32_t onnxType);

/// A .npy file's array. Errors (`error`) say what is wrong with it.
bool parseNpy(llvm::StringRef bytes, HostTensor &out, std::string &error);
/// The arrays of a .npz archive (stored or deflated), each named after its
/// member without `.npy`.
bool parseNpz(llvm::StringRef bytes, std::vector<HostTensor> &out,
              std::string &error);
/// A serialized onnx.TensorProto (data inline: raw or typed fields).
bool parseTensorProto(llvm::StringRef bytes, HostTensor &out,
                      std::string &error);
/// `t` converted to `onnxType`: floats to floats (rounded to nearest even),
/// integers to integers that hold every value, booleans to booleans.
bool convertTo(HostTensor &t, int32_t onnxType, std::string &error);

/// The calibration samples at `path`:
/// - a .npz file: one sample, its arrays named after the inputs;
/// - a .npy or .pb file: one sample of a model with one input (a .pb may
///   name its input instead);
/// - a directory: each .npz, .npy and .pb file in it, and each
///   subdirectory of `input_<i>.pb` files (ONNX's test-data layout, the
///   i-th input each), one sample, in name order.
/// Every input must be given, each converted to its declared type, and
/// with `oneShape` (a build of fixed shapes) every sample must have the
/// shapes of the first. Errors name the file and the input.
bool readSamples(llvm::StringRef path, llvm::ArrayRef<InputSpec> inputs,
                 std::vector<Sample> &out, std::string &error,
                 bool oneShape = true);

/// How calibration reduces an activation's magnitudes to its range.
struct Method {
  /// 0: the largest magnitude over every input. In (0, 100): that
  /// percentile of the magnitudes, read off a 2048-bin histogram over
  /// [0, largest] (a second run of every sample).
  double percentile = 0;
};

/// The calibration table: each key's range, in the order measured.
struct Table {
  Method method;
  int64_t samples = 0;
  std::vector<std::pair<std::string, double>> ranges;
};

/// Bins of the percentile histogram.
constexpr int64_t kHistogramBins = 2048;

/// The smallest upper bin edge below which at least `percentile` percent
/// of `histogram`'s counts lie, bins of `width` from 0.
double percentileOf(llvm::ArrayRef<uint64_t> histogram, double width,
                    double percentile);

/// Runs the artifact image `artifact` (built with brrr-calibration-outputs)
/// on GPU 0 for every sample and fills `table` with the range of each
/// output named `brrr.calibration:KEY`. A build with ranges runs each
/// sample at its own shape and measures each output at that shape; a
/// static build takes samples of its one shape. Fails, saying why, without
/// a GPU, for a sample the build does not take, or if an activation is NaN
/// or infinite.
bool measureRanges(llvm::StringRef artifact, llvm::ArrayRef<Sample> samples,
                   const Method &method, Table &table, std::string &error);

/// The cache's text: a header line, the method, the sample count, then one
/// `RANGE KEY` line per entry (the range as a round-trip decimal).
std::string printCache(const Table &table);
/// Reads what printCache wrote. Ranges are taken as written, NaN and
/// negative ones included: brrr-quantize-calibrated judges them, naming the
/// node.
bool parseCache(llvm::StringRef text, Table &table, std::string &error);

} // namespace mlir::brrr::calibration

#endif // BRRR_COMPILER_CALIBRATION_CALIBRATION_H
