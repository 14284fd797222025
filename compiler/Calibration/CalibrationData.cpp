//===- CalibrationData.cpp - calibration inputs from .npy, .npz, .pb ------===//
//
// Every reader checks each length and offset against the bytes it was
// given before it reads: a truncated or hostile file is an error that says
// what is wrong, never a read past the end.
//
//===----------------------------------------------------------------------===//

#include "compiler/Calibration/Calibration.h"
#include "compiler/Import/OnnxImporter.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <onnx/onnx_pb.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

using namespace llvm;
using namespace mlir::brrr::calibration;

namespace {

using DT = onnx::TensorProto::DataType;

/// The largest array a calibration input may hold (bytes): what one host
/// buffer of a run can reasonably be, and a bound on what a hostile header
/// can make this allocate.
constexpr uint64_t kMaxArrayBytes = uint64_t(4) << 30;

bool isFloat(int32_t t) {
  return t == DT::TensorProto_DataType_FLOAT ||
         t == DT::TensorProto_DataType_FLOAT16 ||
         t == DT::TensorProto_DataType_BFLOAT16 ||
         t == DT::TensorProto_DataType_DOUBLE;
}

bool isSigned(int32_t t) {
  return t == DT::TensorProto_DataType_INT8 ||
         t == DT::TensorProto_DataType_INT16 ||
         t == DT::TensorProto_DataType_INT32 ||
         t == DT::TensorProto_DataType_INT64;
}

bool isUnsigned(int32_t t) {
  return t == DT::TensorProto_DataType_UINT8 ||
         t == DT::TensorProto_DataType_UINT16 ||
         t == DT::TensorProto_DataType_UINT32 ||
         t == DT::TensorProto_DataType_UINT64;
}

template <typename T> T load(const char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T> void store(char *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

/// The element count of `shape`, or -1 if a dimension is negative or the
/// count (times `bytes` per element) passes kMaxArrayBytes.
int64_t checkedCount(ArrayRef<int64_t> shape, int64_t bytes) {
  uint64_t count = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return -1;
    if (d != 0 && count > kMaxArrayBytes / static_cast<uint64_t>(d))
      return -1;
    count *= static_cast<uint64_t>(d);
  }
  if (bytes > 0 && count > kMaxArrayBytes / static_cast<uint64_t>(bytes))
    return -1;
  return static_cast<int64_t>(count);
}

double readFloat(const char *p, int32_t t) {
  switch (t) {
  case DT::TensorProto_DataType_FLOAT:
    return load<float>(p);
  case DT::TensorProto_DataType_DOUBLE:
    return load<double>(p);
  case DT::TensorProto_DataType_FLOAT16:
    return APFloat(APFloat::IEEEhalf(), APInt(16, load<uint16_t>(p)))
        .convertToDouble();
  default: // BFLOAT16
    return APFloat(APFloat::BFloat(), APInt(16, load<uint16_t>(p)))
        .convertToDouble();
  }
}

void writeFloat(char *p, int32_t t, double v) {
  switch (t) {
  case DT::TensorProto_DataType_FLOAT:
    return store<float>(p, static_cast<float>(v));
  case DT::TensorProto_DataType_DOUBLE:
    return store<double>(p, v);
  default: {
    APFloat f(v);
    bool lost;
    f.convert(t == DT::TensorProto_DataType_FLOAT16 ? APFloat::IEEEhalf()
                                                    : APFloat::BFloat(),
              APFloat::rmNearestTiesToEven, &lost);
    store<uint16_t>(p,
                    static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue()));
  }
  }
}

/// An integer element widened: signed types as int64, unsigned as uint64
/// (returned through `u`, with `isU`).
int64_t readSigned(const char *p, int32_t t) {
  switch (t) {
  case DT::TensorProto_DataType_INT8:
    return load<int8_t>(p);
  case DT::TensorProto_DataType_INT16:
    return load<int16_t>(p);
  case DT::TensorProto_DataType_INT32:
    return load<int32_t>(p);
  default:
    return load<int64_t>(p);
  }
}

uint64_t readUnsigned(const char *p, int32_t t) {
  switch (t) {
  case DT::TensorProto_DataType_UINT8:
    return load<uint8_t>(p);
  case DT::TensorProto_DataType_UINT16:
    return load<uint16_t>(p);
  case DT::TensorProto_DataType_UINT32:
    return load<uint32_t>(p);
  default:
    return load<uint64_t>(p);
  }
}

/// The range of an integer type, as [lo, hi] in int64 and the top of the
/// unsigned ones in uint64.
void integerRange(int32_t t, int64_t &lo, uint64_t &hi) {
  int64_t bytes = elementBytes(t);
  if (isSigned(t)) {
    lo = bytes == 8 ? std::numeric_limits<int64_t>::min()
                    : -(int64_t(1) << (8 * bytes - 1));
    hi = (uint64_t(1) << (8 * bytes - 1)) - 1;
  } else {
    lo = 0;
    hi = bytes == 8 ? std::numeric_limits<uint64_t>::max()
                    : (uint64_t(1) << (8 * bytes)) - 1;
  }
}

void writeInteger(char *p, int32_t t, bool negative, int64_t s, uint64_t u) {
  int64_t bytes = elementBytes(t);
  uint64_t bits = negative ? static_cast<uint64_t>(s) : u;
  std::memcpy(p, &bits, bytes); // little-endian: the low bytes
}

} // namespace

int64_t mlir::brrr::calibration::elementBytes(int32_t t) {
  switch (t) {
  case DT::TensorProto_DataType_BOOL:
  case DT::TensorProto_DataType_INT8:
  case DT::TensorProto_DataType_UINT8:
    return 1;
  case DT::TensorProto_DataType_INT16:
  case DT::TensorProto_DataType_UINT16:
  case DT::TensorProto_DataType_FLOAT16:
  case DT::TensorProto_DataType_BFLOAT16:
    return 2;
  case DT::TensorProto_DataType_INT32:
  case DT::TensorProto_DataType_UINT32:
  case DT::TensorProto_DataType_FLOAT:
    return 4;
  case DT::TensorProto_DataType_INT64:
  case DT::TensorProto_DataType_UINT64:
  case DT::TensorProto_DataType_DOUBLE:
    return 8;
  default:
    return 0;
  }
}

std::string mlir::brrr::calibration::typeName(int32_t t) {
  if (onnx::TensorProto::DataType_IsValid(t))
    return onnx::TensorProto::DataType_Name(static_cast<DT>(t));
  return "type " + std::to_string(t);
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

namespace {

/// The ONNX type of a numpy `descr` ("<f4"), or 0.
int32_t typeOfDescr(StringRef descr) {
  if (descr.size() < 3)
    return 0;
  char order = descr[0];
  StringRef kind = descr.drop_front();
  bool oneByte = kind == "b1" || kind == "i1" || kind == "u1";
  // '<' little-endian, '|' not applicable (one byte), '=' native (x86:
  // little); '>' is refused.
  if (order != '<' && order != '=' && !(order == '|' && oneByte))
    return 0;
  static const std::map<std::string, int32_t> types = {
      {"f2", DT::TensorProto_DataType_FLOAT16},
      {"f4", DT::TensorProto_DataType_FLOAT},
      {"f8", DT::TensorProto_DataType_DOUBLE},
      {"i1", DT::TensorProto_DataType_INT8},
      {"i2", DT::TensorProto_DataType_INT16},
      {"i4", DT::TensorProto_DataType_INT32},
      {"i8", DT::TensorProto_DataType_INT64},
      {"u1", DT::TensorProto_DataType_UINT8},
      {"u2", DT::TensorProto_DataType_UINT16},
      {"u4", DT::TensorProto_DataType_UINT32},
      {"u8", DT::TensorProto_DataType_UINT64},
      {"b1", DT::TensorProto_DataType_BOOL}};
  auto it = types.find(kind.str());
  return it == types.end() ? 0 : it->second;
}

/// The text after `'key':` in a .npy header dictionary, or empty.
StringRef valueOf(StringRef header, StringRef key) {
  for (char quote : {'\'', '"'}) {
    std::string quoted = (Twine(quote) + key + Twine(quote)).str();
    size_t at = header.find(quoted);
    if (at == StringRef::npos)
      continue;
    StringRef rest = header.drop_front(at + quoted.size()).ltrim();
    if (!rest.consume_front(":"))
      return "";
    return rest.ltrim();
  }
  return "";
}

} // namespace

bool mlir::brrr::calibration::parseNpy(StringRef bytes, HostTensor &out,
                                       std::string &error) {
  if (!bytes.starts_with("\x93NUMPY") || bytes.size() < 10) {
    error = "not a .npy file (no \\x93NUMPY magic)";
    return false;
  }
  uint8_t major = bytes[6];
  uint64_t headerLength, start;
  if (major == 1) {
    headerLength = load<uint16_t>(bytes.data() + 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) {
      error = "truncated .npy header";
      return false;
    }
    headerLength = load<uint32_t>(bytes.data() + 8);
    start = 12;
  } else {
    error =
        ".npy format version " + std::to_string(major) + " (supported: 1 to 3)";
    return false;
  }
  if (headerLength > bytes.size() - start) {
    error = "truncated .npy header";
    return false;
  }
  StringRef header = bytes.substr(start, headerLength);
  StringRef data = bytes.drop_front(start + headerLength);

  StringRef descr = valueOf(header, "descr");
  if (descr.empty() || (descr[0] != '\'' && descr[0] != '"')) {
    error = ".npy header without a 'descr' string";
    return false;
  }
  descr = descr.drop_front().take_until(
      [](char c) { return c == '\'' || c == '"'; });
  int32_t type = typeOfDescr(descr);
  if (!type) {
    error = "array of numpy type '" + descr.str() +
            "' (supported: little-endian float16/32/64, int8 to int64, "
            "uint8 to uint64, bool)";
    return false;
  }
  StringRef fortran = valueOf(header, "fortran_order");
  if (fortran.starts_with("True")) {
    error = "array in Fortran order (save it C-contiguous: "
            "numpy.ascontiguousarray)";
    return false;
  }
  if (!fortran.starts_with("False")) {
    error = ".npy header without 'fortran_order'";
    return false;
  }
  StringRef shapeText = valueOf(header, "shape");
  if (!shapeText.consume_front("(") || shapeText.find(')') == StringRef::npos) {
    error = ".npy header without a 'shape' tuple";
    return false;
  }
  shapeText = shapeText.take_until([](char c) { return c == ')'; });
  std::vector<int64_t> shape;
  SmallVector<StringRef> parts;
  shapeText.split(parts, ',');
  for (StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      continue;
    int64_t d;
    if (part.getAsInteger(10, d) || d < 0) {
      error = ".npy shape has a bad dimension '" + part.str() + "'";
      return false;
    }
    shape.push_back(d);
  }
  int64_t eb = elementBytes(type);
  int64_t count = checkedCount(shape, eb);
  if (count < 0) {
    error = ".npy array larger than 4 GiB";
    return false;
  }
  if (static_cast<uint64_t>(count * eb) != data.size()) {
    error = ".npy data holds " + std::to_string(data.size()) +
            " bytes where its shape needs " + std::to_string(count * eb);
    return false;
  }
  out.onnxType = type;
  out.shape = std::move(shape);
  out.bytes.assign(data.begin(), data.end());
  return true;
}

//===----------------------------------------------------------------------===//
// .npz (a zip archive of .npy members)
//===----------------------------------------------------------------------===//

namespace {

/// The bytes of a raw-deflate stream that inflate to exactly `size`.
bool inflateRaw(StringRef in, uint64_t size, std::vector<char> &out) {
  out.assign(size, 0);
  z_stream s{};
  if (inflateInit2(&s, -MAX_WBITS) != Z_OK)
    return false;
  s.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
  s.avail_in = static_cast<uInt>(std::min<uint64_t>(in.size(), UINT32_MAX));
  s.next_out = reinterpret_cast<Bytef *>(out.data());
  s.avail_out = static_cast<uInt>(std::min<uint64_t>(size, UINT32_MAX));
  int rc = Z_OK;
  // One call inflates up to 4 GiB either way, the most kMaxArrayBytes lets
  // through; Z_STREAM_END with every byte written is success.
  while (rc == Z_OK)
    rc = inflate(&s, Z_FINISH);
  bool ok = rc == Z_STREAM_END && s.total_out == size;
  inflateEnd(&s);
  return ok;
}

} // namespace

bool mlir::brrr::calibration::parseNpz(StringRef bytes,
                                       std::vector<HostTensor> &out,
                                       std::string &error) {
  // The end-of-central-directory record: 22 bytes, then a comment of up to
  // 64 KiB.
  constexpr uint32_t kEnd = 0x06054b50, kCentral = 0x02014b50,
                     kLocal = 0x04034b50;
  if (bytes.size() < 22) {
    error = "not a .npz file (too short for a zip archive)";
    return false;
  }
  size_t end = StringRef::npos;
  for (size_t at = bytes.size() - 22;; --at) {
    if (load<uint32_t>(bytes.data() + at) == kEnd) {
      end = at;
      break;
    }
    if (at == 0 || bytes.size() - at > 22 + 65535)
      break;
  }
  if (end == StringRef::npos) {
    error = "not a .npz file (no zip end-of-directory record)";
    return false;
  }
  uint64_t entries = load<uint16_t>(bytes.data() + end + 10);
  uint64_t offset = load<uint32_t>(bytes.data() + end + 16);
  auto truncated = [&](const Twine &what) {
    error = ("corrupt .npz: " + what).str();
    return false;
  };
  for (uint64_t i = 0; i < entries; ++i) {
    if (offset > bytes.size() || bytes.size() - offset < 46 ||
        load<uint32_t>(bytes.data() + offset) != kCentral)
      return truncated("a directory entry lies outside the file");
    const char *c = bytes.data() + offset;
    uint16_t method = load<uint16_t>(c + 10);
    uint64_t packed = load<uint32_t>(c + 20);
    uint64_t size = load<uint32_t>(c + 24);
    uint64_t nameLength = load<uint16_t>(c + 28);
    uint64_t extraLength = load<uint16_t>(c + 30);
    uint64_t commentLength = load<uint16_t>(c + 32);
    uint64_t local = load<uint32_t>(c + 42);
    if (bytes.size() - offset - 46 < nameLength + extraLength + commentLength)
      return truncated("a directory entry lies outside the file");
    StringRef name(c + 46, nameLength);
    // Zip64: the sizes and offset that do not fit 32 bits follow in the
    // extra field's 0x0001 block, in this order.
    StringRef extra(c + 46 + nameLength, extraLength);
    while (extra.size() >= 4) {
      uint16_t id = load<uint16_t>(extra.data());
      uint16_t length = load<uint16_t>(extra.data() + 2);
      if (length > extra.size() - 4)
        return truncated("a bad extra field");
      StringRef block = extra.substr(4, length);
      if (id == 0x0001) {
        for (uint64_t *field : {&size, &packed, &local}) {
          if (*field != 0xffffffffu)
            continue;
          if (block.size() < 8)
            return truncated("a bad zip64 field");
          *field = load<uint64_t>(block.data());
          block = block.drop_front(8);
        }
      }
      extra = extra.drop_front(4 + length);
    }
    offset += 46 + nameLength + extraLength + commentLength;

    if (local > bytes.size() || bytes.size() - local < 30 ||
        load<uint32_t>(bytes.data() + local) != kLocal)
      return truncated("member '" + name + "' lies outside the file");
    uint64_t skip = 30 + load<uint16_t>(bytes.data() + local + 26) +
                    load<uint16_t>(bytes.data() + local + 28);
    if (bytes.size() - local < skip || bytes.size() - local - skip < packed)
      return truncated("member '" + name + "' lies outside the file");
    StringRef data = bytes.substr(local + skip, packed);
    if (size > kMaxArrayBytes) {
      error = ".npz member '" + name.str() + "' is larger than 4 GiB";
      return false;
    }
    std::vector<char> raw;
    if (method == 0) {
      if (packed != size)
        return truncated("stored member '" + name + "' changes size");
      raw.assign(data.begin(), data.end());
    } else if (method == 8) {
      // Deflate expands at most 1032:1: a larger claim is corrupt, and is
      // refused before anything that size is allocated.
      if (size / 1032 > packed + 1)
        return truncated("member '" + name + "' claims " + Twine(size) +
                         " bytes from " + Twine(packed) + " deflated");
      if (!inflateRaw(data, size, raw))
        return truncated("member '" + name + "' does not inflate");
    } else {
      error = ".npz member '" + name.str() + "' is compressed by method " +
              std::to_string(method) + " (supported: stored, deflate)";
      return false;
    }
    HostTensor t;
    t.name = name.str();
    if (StringRef(t.name).ends_with(".npy"))
      t.name.resize(t.name.size() - 4);
    std::string why;
    if (!parseNpy(StringRef(raw.data(), raw.size()), t, why)) {
      error = ".npz member '" + name.str() + "': " + why;
      return false;
    }
    out.push_back(std::move(t));
  }
  return true;
}

//===----------------------------------------------------------------------===//
// onnx.TensorProto
//===----------------------------------------------------------------------===//

bool mlir::brrr::calibration::parseTensorProto(StringRef bytes, HostTensor &out,
                                               std::string &error) {
  onnx::TensorProto proto;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    error = "not a serialized onnx.TensorProto";
    return false;
  }
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    error = "tensor '" + proto.name() +
            "' keeps its data in an external file (save it inline)";
    return false;
  }
  int32_t type = proto.data_type();
  int64_t eb = elementBytes(type);
  if (!eb) {
    error = "tensor '" + proto.name() + "' is of type " + typeName(type);
    return false;
  }
  std::vector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  int64_t count = checkedCount(shape, eb);
  if (count < 0) {
    error = "tensor '" + proto.name() +
            "' has a negative dimension or more than 4 GiB";
    return false;
  }
  // The data as the importer reads an initializer's; only as much is
  // copied as the file holds, and it is checked against the shape before
  // anything the shape's size is allocated.
  std::vector<char> storage;
  ArrayRef<char> data = inlineTensorData(proto, eb, storage);
  if (data.size() != static_cast<uint64_t>(count * eb)) {
    error =
        "tensor '" + proto.name() + "' holds " +
        (data.size() % eb ? std::string("a partial element")
                          : std::to_string(data.size() / eb) + " elements") +
        " where its shape needs " + std::to_string(count);
    return false;
  }
  out.name = proto.name();
  out.onnxType = type;
  out.shape = shape;
  out.bytes.assign(data.begin(), data.end());
  return true;
}

//===----------------------------------------------------------------------===//
// Conversion to the input's type
//===----------------------------------------------------------------------===//

bool mlir::brrr::calibration::convertTo(HostTensor &t, int32_t to,
                                        std::string &error) {
  int32_t from = t.onnxType;
  if (from == to)
    return true;
  int64_t fb = elementBytes(from), tb = elementBytes(to);
  bool floats = isFloat(from) && isFloat(to);
  bool integers =
      (isSigned(from) || isUnsigned(from)) && (isSigned(to) || isUnsigned(to));
  if (!fb || !tb || (!floats && !integers)) {
    error =
        "it is " + typeName(from) + " where the model takes " + typeName(to);
    return false;
  }
  int64_t count = t.bytes.size() / fb;
  std::vector<char> bytes(count * tb);
  if (floats) {
    for (int64_t i = 0; i < count; ++i)
      writeFloat(bytes.data() + tb * i, to,
                 readFloat(t.bytes.data() + fb * i, from));
  } else {
    int64_t lo;
    uint64_t hi;
    integerRange(to, lo, hi);
    for (int64_t i = 0; i < count; ++i) {
      const char *p = t.bytes.data() + fb * i;
      bool negative = false;
      int64_t s = 0;
      uint64_t u = 0;
      if (isSigned(from)) {
        s = readSigned(p, from);
        negative = s < 0;
        u = negative ? 0 : static_cast<uint64_t>(s);
      } else {
        u = readUnsigned(p, from);
      }
      if ((negative && s < lo) || (!negative && u > hi)) {
        error = "its value " +
                (negative ? std::to_string(s) : std::to_string(u)) +
                " does not fit the model's " + typeName(to);
        return false;
      }
      writeInteger(bytes.data() + tb * i, to, negative, s, u);
    }
  }
  t.bytes = std::move(bytes);
  t.onnxType = to;
  return true;
}

//===----------------------------------------------------------------------===//
// Samples
//===----------------------------------------------------------------------===//

namespace {

bool readFile(StringRef path, std::string &bytes, std::string &error) {
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error = path.str() + ": " + buffer.getError().message();
    return false;
  }
  bytes = (*buffer)->getBuffer().str();
  return true;
}

/// The sample in `tensors` (named, or unnamed for a single-input model),
/// in `inputs`' order and types.
bool assemble(StringRef source, std::vector<HostTensor> tensors,
              ArrayRef<InputSpec> inputs, Sample &sample, std::string &error) {
  sample.source = source.str();
  if (inputs.size() == 1 && tensors.size() == 1)
    tensors.front().name = inputs.front().name;
  for (const InputSpec &input : inputs) {
    auto it = llvm::find_if(
        tensors, [&](const HostTensor &t) { return t.name == input.name; });
    if (it == tensors.end()) {
      error = source.str() + ": gives no array for input '" + input.name + "'";
      return false;
    }
    std::string why;
    if (!convertTo(*it, input.onnxType, why)) {
      error = source.str() + ": input '" + input.name + "': " + why;
      return false;
    }
    sample.inputs.push_back(std::move(*it));
    tensors.erase(it);
  }
  if (!tensors.empty()) {
    error = source.str() + ": array '" + tensors.front().name +
            "' names no input of the model";
    return false;
  }
  return true;
}

/// One file's sample: .npz, .npy or .pb.
bool readFileSample(StringRef path, ArrayRef<InputSpec> inputs, Sample &sample,
                    std::string &error) {
  std::string bytes, why;
  if (!readFile(path, bytes, error))
    return false;
  std::vector<HostTensor> tensors;
  StringRef ext = sys::path::extension(path);
  bool ok;
  if (ext == ".npz") {
    ok = parseNpz(bytes, tensors, why);
  } else {
    tensors.emplace_back();
    ok = ext == ".npy" ? parseNpy(bytes, tensors.back(), why)
                       : parseTensorProto(bytes, tensors.back(), why);
    if (ok && ext == ".npy" && inputs.size() != 1) {
      why = "a .npy file gives one input; the model takes " +
            std::to_string(inputs.size()) + " (use .npz)";
      ok = false;
    }
  }
  if (!ok) {
    error = path.str() + ": " + why;
    return false;
  }
  return assemble(path, std::move(tensors), inputs, sample, error);
}

/// A directory of input_<i>.pb files, the i-th input each.
bool readTestDataSample(StringRef dir, ArrayRef<std::string> files,
                        ArrayRef<InputSpec> inputs, Sample &sample,
                        std::string &error) {
  std::vector<HostTensor> tensors;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string name = "input_" + std::to_string(i) + ".pb";
    if (!llvm::is_contained(files, name)) {
      error =
          dir.str() + ": no " + name + " for input '" + inputs[i].name + "'";
      return false;
    }
    SmallString<256> path(dir);
    sys::path::append(path, name);
    std::string bytes, why;
    if (!readFile(path, bytes, error))
      return false;
    HostTensor t;
    if (!parseTensorProto(bytes, t, why)) {
      error = path.str().str() + ": " + why;
      return false;
    }
    t.name = inputs[i].name;
    tensors.push_back(std::move(t));
  }
  return assemble(dir, std::move(tensors), inputs, sample, error);
}

/// The names in `dir`, sorted.
std::vector<std::string> listDir(StringRef dir, std::string &error) {
  std::vector<std::string> names;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    names.push_back(sys::path::filename(it->path()).str());
  if (ec)
    error = dir.str() + ": " + ec.message();
  llvm::sort(names);
  return names;
}

} // namespace

bool mlir::brrr::calibration::readSamples(StringRef path,
                                          ArrayRef<InputSpec> inputs,
                                          std::vector<Sample> &out,
                                          std::string &error, bool oneShape) {
  error.clear();
  if (!sys::fs::exists(path)) {
    error = path.str() + ": no such file or directory";
    return false;
  }
  auto isSampleFile = [](StringRef name) {
    StringRef ext = sys::path::extension(name);
    return ext == ".npz" || ext == ".npy" || ext == ".pb";
  };
  if (!sys::fs::is_directory(path)) {
    if (!isSampleFile(path)) {
      error = path.str() + ": calibration inputs are .npz, .npy or .pb files, "
                           "or a directory of them";
      return false;
    }
    out.emplace_back();
    if (!readFileSample(path, inputs, out.back(), error))
      return false;
  } else {
    std::vector<std::string> names = listDir(path, error);
    if (!error.empty())
      return false;
    for (const std::string &name : names) {
      SmallString<256> child(path);
      sys::path::append(child, name);
      if (sys::fs::is_directory(child)) {
        std::vector<std::string> files = listDir(child, error);
        if (!error.empty())
          return false;
        if (!llvm::is_contained(files, "input_0.pb"))
          continue;
        out.emplace_back();
        if (!readTestDataSample(child, files, inputs, out.back(), error))
          return false;
      } else if (isSampleFile(name)) {
        out.emplace_back();
        if (!readFileSample(child, inputs, out.back(), error))
          return false;
      }
    }
    if (out.empty()) {
      error = path.str() + ": holds no .npz, .npy or .pb file and no "
                           "directory of input_<i>.pb files";
      return false;
    }
  }
  for (const Sample &s : out)
    for (size_t i = 0; i < inputs.size() && oneShape; ++i)
      if (s.inputs[i].shape != out.front().inputs[i].shape) {
        auto print = [](ArrayRef<int64_t> shape) {
          std::string text;
          for (int64_t d : shape)
            text += (text.empty() ? "" : "x") + std::to_string(d);
          return text.empty() ? std::string("a scalar") : text;
        };
        error = s.source + ": input '" + inputs[i].name + "' is " +
                print(s.inputs[i].shape) + " where " + out.front().source +
                " gives " + print(out.front().inputs[i].shape) +
                " (every calibration sample has one shape)";
        return false;
      }
  return true;
}
