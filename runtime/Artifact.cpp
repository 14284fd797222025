//===- Artifact.cpp - serialize and validate the compiled-model image -----===//
//
// The one reader and writer of the format documented in Artifact.h. The
// reader is the runtime's first line of defence: an image comes from a file
// or a shared library that may be truncated, stale or corrupt, so every
// length is checked against the bytes that remain before anything is
// allocated, and every index, offset and size is checked before the runtime
// turns it into a device address. Errors name the field being read
// ("tensors[3].dims") so that a broken image can be diagnosed from the
// message alone.
//
//===----------------------------------------------------------------------===//

#include "runtime/Artifact.h"
#include "runtime/ArtifactValidate.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace brrr::artifact {

uint32_t dtypeSize(DType t) {
  switch (t) {
  case DType::I8:
  case DType::U8:
  case DType::Bool:
    return 1;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  }
  return 0;
}

bool evaluate(const Expr &e, const int64_t *values, size_t count, int64_t &out,
              std::string &error) {
  // Expressions are short (an extent, a grid dimension): a fixed stack keeps
  // evaluation free of allocations.
  constexpr size_t kDepth = 32;
  int64_t stack[kDepth];
  size_t depth = 0;
  for (const ExprTerm &t : e.terms) {
    switch (t.op) {
    case ExprOp::Constant:
    case ExprOp::Symbol:
      if (depth == kDepth) {
        error = "it needs a stack deeper than " + std::to_string(kDepth);
        return false;
      }
      if (t.op == ExprOp::Symbol &&
          (t.value < 0 || uint64_t(t.value) >= count)) {
        error = "it reads symbol " + std::to_string(t.value) + " of " +
                std::to_string(count);
        return false;
      }
      stack[depth++] = t.op == ExprOp::Constant ? t.value : values[t.value];
      continue;
    case ExprOp::Add:
    case ExprOp::Mul:
    case ExprOp::FloorDiv:
    case ExprOp::CeilDiv:
    case ExprOp::Mod:
      break;
    default:
      error = "it has unknown operation " + std::to_string(uint32_t(t.op));
      return false;
    }
    if (depth < 2) {
      error = "an operation lacks operands";
      return false;
    }
    int64_t b = stack[--depth], a = stack[depth - 1], r = 0;
    bool overflow = false;
    if (t.op == ExprOp::Add) {
      overflow = __builtin_add_overflow(a, b, &r);
    } else if (t.op == ExprOp::Mul) {
      overflow = __builtin_mul_overflow(a, b, &r);
    } else {
      if (b <= 0) {
        error = "it divides by " + std::to_string(b);
        return false;
      }
      // Floor semantics for negative dividends, like MLIR's affine maps.
      int64_t q = a / b, m = a % b;
      if (m < 0) {
        m += b;
        --q;
      }
      r = t.op == ExprOp::FloorDiv ? q : t.op == ExprOp::Mod ? m : q + (m != 0);
    }
    if (overflow) {
      error = "it overflows 64 bits";
      return false;
    }
    stack[depth - 1] = r;
  }
  if (depth != 1) {
    error = "it leaves " + std::to_string(depth) + " values, not one";
    return false;
  }
  out = stack[0];
  return true;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

namespace {

/// Appends little-endian fields; byte by byte so that the image is the same
/// on any host.
class Writer {
public:
  std::vector<uint8_t> out;

  void u8(uint8_t v) { out.push_back(v); }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i)
      out.push_back(uint8_t(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i)
      out.push_back(uint8_t(v >> (8 * i)));
  }
  void raw(const void *data, size_t n) {
    const auto *p = static_cast<const uint8_t *>(data);
    out.insert(out.end(), p, p + n);
  }
  void str(const std::string &s) {
    u64(s.size());
    raw(s.data(), s.size());
  }
  void bytes(const std::vector<uint8_t> &b) {
    u64(b.size());
    raw(b.data(), b.size());
  }
  void u32s(const std::vector<uint32_t> &v) {
    u64(v.size());
    for (uint32_t x : v)
      u32(x);
  }
  void u64s(const std::vector<uint64_t> &v) {
    u64(v.size());
    for (uint64_t x : v)
      u64(x);
  }
  void i32s(const std::vector<int32_t> &v) {
    u64(v.size());
    for (int32_t x : v)
      u32(uint32_t(x));
  }
};

} // namespace

std::vector<uint8_t> serialize(const Artifact &a) {
  std::vector<uint8_t> image = serializeHead(a, a.weightCount());
  image.insert(image.end(), a.weightBytes(), a.weightBytes() + a.weightCount());
  return image;
}

std::vector<uint8_t> encodeTrailer(const WeightsTrailer &t) {
  Writer w;
  w.raw(kWeightsMagic, sizeof(kWeightsMagic));
  w.u64(t.offset);
  w.u64(t.size);
  w.u64(t.id);
  return std::move(w.out);
}

bool decodeTrailer(const uint8_t *bytes, WeightsTrailer &out) {
  if (std::memcmp(bytes, kWeightsMagic, sizeof(kWeightsMagic)) != 0)
    return false;
  auto u64 = [&](size_t at) {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= uint64_t(bytes[at + i]) << (8 * i);
    return v;
  };
  out.offset = u64(8);
  out.size = u64(16);
  out.id = u64(24);
  return true;
}

uint64_t
weightsId(uint64_t size,
          const std::function<void(uint64_t, uint64_t, uint8_t *)> &read) {
  uint64_t h = 0xcbf29ce484222325ull; // FNV-1a
  auto mix = [&](const uint8_t *p, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i)
      h = (h ^ p[i]) * 0x100000001b3ull;
  };
  uint8_t sizeBytes[8];
  for (int i = 0; i < 8; ++i)
    sizeBytes[i] = uint8_t(size >> (8 * i));
  mix(sizeBytes, 8);
  constexpr uint64_t kEnd = 1 << 20, kBlock = 4096, kBlocks = 64;
  std::vector<uint8_t> buffer(kEnd);
  auto sample = [&](uint64_t offset, uint64_t n) {
    n = std::min(n, size - std::min(offset, size));
    if (!n)
      return;
    read(offset, n, buffer.data());
    mix(buffer.data(), n);
  };
  sample(0, kEnd);
  sample(size > kEnd ? size - kEnd : 0, kEnd);
  for (uint64_t k = 0; k < kBlocks; ++k)
    sample(size / kBlocks * k, kBlock);
  return h;
}

uint64_t weightsId(const uint8_t *data, uint64_t size) {
  return weightsId(size, [&](uint64_t offset, uint64_t n, uint8_t *out) {
    std::memcpy(out, data + offset, n);
  });
}

std::optional<uint64_t> apartWeightSize(const uint8_t *data, size_t size) {
  // The header, then at least the size and the id that end such an image.
  if (!(imageFlags(data, size) & kFlagWeightsApart) || size < 16 + 16)
    return std::nullopt;
  uint64_t weightSize = 0;
  for (int i = 0; i < 8; ++i)
    weightSize |= uint64_t(data[size - 16 + i]) << (8 * i);
  return weightSize;
}

uint32_t imageFlags(const uint8_t *data, size_t size) {
  if (!data || size < 16 || std::memcmp(data, kMagic, sizeof(kMagic)) != 0)
    return 0;
  return uint32_t(data[12]) | uint32_t(data[13]) << 8 |
         uint32_t(data[14]) << 16 | uint32_t(data[15]) << 24;
}

std::vector<uint8_t> serializeHead(const Artifact &a, uint64_t weightBytes,
                                   std::optional<uint64_t> apartId) {
  Writer w;
  w.raw(kMagic, sizeof(kMagic));
  w.u32(kFormatVersion);
  w.u32(apartId ? kFlagWeightsApart : 0);
  w.str(a.target);
  w.u32(a.smMajor);
  w.u32(a.smMinor);
  w.u8(a.exactArch ? 1 : 0);
  w.str(a.ptx);
  w.bytes(a.cubin);
  w.u64(a.kernels.size());
  for (const Kernel &k : a.kernels) {
    w.str(k.name);
    w.u64(k.flops);
    w.u64(k.bytes);
    w.u32(uint32_t(k.flopsExpr));
    w.u32(uint32_t(k.bytesExpr));
  }
  w.u64(a.tensors.size());
  for (const Tensor &t : a.tensors) {
    w.str(t.name);
    w.u32(uint32_t(t.dtype));
    w.u64(t.dims.size());
    for (int64_t d : t.dims)
      w.u64(uint64_t(d));
    w.u32(uint32_t(t.storage));
    w.u64(t.index);
    w.u64(t.offset);
    w.u64(t.bytes);
    w.i32s(t.dimExprs);
  }
  w.u32s(a.inputs);
  w.u32s(a.outputs);
  w.u64(a.launches.size());
  for (const Launch &l : a.launches) {
    w.u32(l.kernel);
    for (uint32_t g : l.grid)
      w.u32(g);
    for (uint32_t b : l.block)
      w.u32(b);
    w.u32(l.sharedBytes);
    w.u32s(l.args);
    w.u64(l.maps.size());
    for (const TensorMap &m : l.maps) {
      w.u32(m.tensor);
      w.u64(m.offset);
      w.u64s(m.dims);
      w.u64s(m.strides);
      w.u32s(m.box);
      w.u32(m.swizzle);
      w.u32(uint32_t(m.mode));
      w.i32s(m.lowerCorner);
      w.i32s(m.upperCorner);
      w.u32(m.channelsPerPixel);
      w.u32(m.pixelsPerColumn);
      w.u32s(m.elementStrides);
      w.i32s(m.dimExprs);
    }
    w.u8(uint8_t(l.programmatic));
    w.u8(l.errorRecord ? 1 : 0);
    for (int32_t g : l.gridExprs)
      w.u32(uint32_t(g));
    w.u32s(l.scalars);
    w.u32(uint32_t(l.guardExpr));
    w.u64(l.guardMin);
    w.u64(l.guardMax);
  }
  w.u64(a.copies.size());
  for (const Copy &c : a.copies) {
    w.u32(c.src);
    w.u32(c.dst);
  }
  w.u64(a.steps.size());
  for (const Step &s : a.steps) {
    w.u32(uint32_t(s.kind));
    w.u32(s.index);
  }
  w.u64(a.checks.size());
  for (const IndexCheck &c : a.checks) {
    w.str(c.node);
    w.str(c.op);
  }
  w.u64(a.symbols.size());
  for (const Symbol &s : a.symbols) {
    w.str(s.name);
    w.u64(uint64_t(s.min));
    w.u64(uint64_t(s.max));
  }
  w.u64(a.exprs.size());
  for (const Expr &e : a.exprs) {
    w.u64(e.terms.size());
    for (const ExprTerm &t : e.terms) {
      w.u32(uint32_t(t.op));
      w.u64(uint64_t(t.value));
    }
  }
  w.u64(a.arenaBytes);
  w.u64(weightBytes); // the weights themselves follow, last
  if (apartId)
    w.u64(*apartId); // instead
  return std::move(w.out);
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

/// Reads fields with bounds checks. `where` names the record being read
/// (e.g. "tensors[3]") so that errors point at the field.
class Reader {
public:
  Reader(const uint8_t *data, size_t size, std::string &error)
      : data(data), size(size), error(error) {}

  std::string where;

  size_t offset() const { return pos; }
  size_t left() const { return size - pos; }

  bool fail(const char *field, uint64_t need) {
    error = "artifact truncated at byte " + std::to_string(size) +
            " while reading " + name(field) + " (needs " +
            std::to_string(need) + " bytes at offset " + std::to_string(pos) +
            ", " + std::to_string(left()) + " left)";
    return false;
  }

  bool raw(void *dst, size_t n, const char *field) {
    if (n > left())
      return fail(field, n);
    // An empty vector's data() may be null, which memcpy must not get.
    if (n)
      std::memcpy(dst, data + pos, n);
    pos += n;
    return true;
  }
  /// Moves past `n` bytes that the caller checked are there.
  void skip(size_t n) { pos += n; }
  bool u8(uint8_t &v, const char *field) { return raw(&v, 1, field); }
  /// A `bool`: one byte, 0 or 1.
  /// A byte of at most `max` (a bool, or a small enum).
  bool byteUpTo(uint8_t &v, uint8_t max, const char *field) {
    if (!u8(v, field))
      return false;
    if (v > max) {
      std::string expected = "0";
      for (unsigned k = 1; k <= max; ++k)
        expected += (k == max ? " or " : ", ") + std::to_string(k);
      error = "artifact field " + name(field) + " is " + std::to_string(v) +
              " at offset " + std::to_string(pos - 1) + ", expected " +
              expected;
      return false;
    }
    return true;
  }
  bool flag(bool &v, const char *field) {
    uint8_t byte = 0;
    if (!byteUpTo(byte, 1, field))
      return false;
    v = byte == 1;
    return true;
  }
  bool u32(uint32_t &v, const char *field) {
    uint8_t b[4] = {0};
    if (!raw(b, 4, field))
      return false;
    v = 0;
    for (int i = 3; i >= 0; --i)
      v = (v << 8) | b[i];
    return true;
  }
  bool u64(uint64_t &v, const char *field) {
    uint8_t b[8] = {0};
    if (!raw(b, 8, field))
      return false;
    v = 0;
    for (int i = 7; i >= 0; --i)
      v = (v << 8) | b[i];
    return true;
  }

  /// Reads a count of elements of at least `elemBytes` each, refusing counts
  /// that the remaining bytes cannot hold, so a corrupt count never becomes
  /// a huge allocation.
  bool count(uint64_t &n, uint64_t elemBytes, const char *field) {
    if (!u64(n, field))
      return false;
    if (elemBytes && n > left() / elemBytes) {
      pos -= 8;
      error = "artifact truncated at byte " + std::to_string(size) +
              " while reading " + name(field) + " (" + std::to_string(n) +
              " elements of " + std::to_string(elemBytes) +
              " bytes at offset " + std::to_string(pos + 8) + ", " +
              std::to_string(left() - 8) + " bytes left)";
      return false;
    }
    return true;
  }

  template <typename Container> bool blob(Container &out, const char *field) {
    uint64_t n = 0;
    if (!count(n, 1, field))
      return false;
    out.resize(size_t(n));
    return raw(out.data(), size_t(n), field);
  }

  bool u32s(std::vector<uint32_t> &out, const char *field) {
    uint64_t n = 0;
    if (!count(n, 4, field))
      return false;
    out.resize(size_t(n));
    for (uint32_t &v : out)
      if (!u32(v, field))
        return false;
    return true;
  }

  bool i32s(std::vector<int32_t> &out, const char *field) {
    uint64_t n = 0;
    if (!count(n, 4, field))
      return false;
    out.resize(size_t(n));
    for (int32_t &v : out) {
      uint32_t bits = 0;
      if (!u32(bits, field))
        return false;
      v = int32_t(bits);
    }
    return true;
  }

  bool u64s(std::vector<uint64_t> &out, const char *field) {
    uint64_t n = 0;
    if (!count(n, 8, field))
      return false;
    out.resize(size_t(n));
    for (uint64_t &v : out)
      if (!u64(v, field))
        return false;
    return true;
  }

private:
  std::string name(const char *field) const {
    return where.empty() ? std::string(field) : where + "." + field;
  }

  const uint8_t *data;
  size_t size;
  size_t pos = 0;
  std::string &error;
};

std::string indexed(const char *vec, size_t i) {
  return std::string(vec) + "[" + std::to_string(i) + "]";
}

bool readKernels(Reader &r, std::vector<Kernel> &kernels) {
  uint64_t n = 0;
  // name length + flops + bytes + their expressions.
  if (!r.count(n, 32, "kernels"))
    return false;
  kernels.resize(size_t(n));
  for (size_t i = 0; i < kernels.size(); ++i) {
    r.where = indexed("kernels", i);
    Kernel &k = kernels[i];
    uint32_t flopsExpr = 0, bytesExpr = 0;
    if (!r.blob(k.name, "name") || !r.u64(k.flops, "flops") ||
        !r.u64(k.bytes, "bytes") || !r.u32(flopsExpr, "flopsExpr") ||
        !r.u32(bytesExpr, "bytesExpr"))
      return false;
    k.flopsExpr = int32_t(flopsExpr);
    k.bytesExpr = int32_t(bytesExpr);
  }
  r.where.clear();
  return true;
}

bool readTensors(Reader &r, std::vector<Tensor> &tensors) {
  uint64_t n = 0;
  // name length, dtype, dims count, storage, index, offset, bytes,
  // dimExprs count.
  if (!r.count(n, 56, "tensors"))
    return false;
  tensors.resize(size_t(n));
  for (size_t i = 0; i < tensors.size(); ++i) {
    r.where = indexed("tensors", i);
    Tensor &t = tensors[i];
    uint32_t dtype = 0, storage = 0;
    uint64_t rank = 0;
    if (!r.blob(t.name, "name") || !r.u32(dtype, "dtype") ||
        !r.count(rank, 8, "dims"))
      return false;
    t.dims.resize(size_t(rank));
    for (int64_t &d : t.dims) {
      uint64_t v;
      if (!r.u64(v, "dims"))
        return false;
      d = int64_t(v);
    }
    if (!r.u32(storage, "storage") || !r.u64(t.index, "index") ||
        !r.u64(t.offset, "offset") || !r.u64(t.bytes, "bytes") ||
        !r.i32s(t.dimExprs, "dimExprs"))
      return false;
    // Range-checked in validate(); the casts keep the raw value for the
    // message.
    t.dtype = DType(dtype);
    t.storage = Storage(storage);
  }
  r.where.clear();
  return true;
}

/// Reads launch `launch`'s tensor maps; `r.where` names each map while it
/// is read and is left at the launch.
bool readMaps(Reader &r, std::vector<TensorMap> &maps) {
  std::string launch = r.where;
  uint64_t n = 0;
  // tensor, offset, dims count, strides count, box count, swizzle, mode,
  // corner counts, channelsPerPixel, pixelsPerColumn, elementStrides count,
  // dimExprs count.
  if (!r.count(n, 84, "maps"))
    return false;
  maps.resize(size_t(n));
  for (size_t i = 0; i < maps.size(); ++i) {
    r.where = launch + "." + indexed("maps", i);
    TensorMap &m = maps[i];
    uint32_t mode = 0;
    if (!r.u32(m.tensor, "tensor") || !r.u64(m.offset, "offset") ||
        !r.u64s(m.dims, "dims") || !r.u64s(m.strides, "strides") ||
        !r.u32s(m.box, "box") || !r.u32(m.swizzle, "swizzle") ||
        !r.u32(mode, "mode") || !r.i32s(m.lowerCorner, "lowerCorner") ||
        !r.i32s(m.upperCorner, "upperCorner") ||
        !r.u32(m.channelsPerPixel, "channelsPerPixel") ||
        !r.u32(m.pixelsPerColumn, "pixelsPerColumn") ||
        !r.u32s(m.elementStrides, "elementStrides") ||
        !r.i32s(m.dimExprs, "dimExprs"))
      return false;
    // Range-checked in validate().
    m.mode = TensorMapMode(mode);
  }
  r.where = launch;
  return true;
}

bool readLaunches(Reader &r, std::vector<Launch> &launches) {
  uint64_t n = 0;
  // kernel, grid, block, sharedBytes, args count, maps count, programmatic,
  // errorRecord, gridExprs, scalars count, guard.
  if (!r.count(n, 89, "launches"))
    return false;
  launches.resize(size_t(n));
  for (size_t i = 0; i < launches.size(); ++i) {
    r.where = indexed("launches", i);
    Launch &l = launches[i];
    if (!r.u32(l.kernel, "kernel"))
      return false;
    for (uint32_t &g : l.grid)
      if (!r.u32(g, "grid"))
        return false;
    for (uint32_t &b : l.block)
      if (!r.u32(b, "block"))
        return false;
    if (!r.u32(l.sharedBytes, "sharedBytes") || !r.u32s(l.args, "args") ||
        !readMaps(r, l.maps))
      return false;
    uint8_t programmatic = 0;
    if (!r.byteUpTo(programmatic, uint8_t(Programmatic::fitting),
                    "programmatic"))
      return false;
    l.programmatic = Programmatic(programmatic);
    if (!r.flag(l.errorRecord, "errorRecord"))
      return false;
    for (int32_t &g : l.gridExprs) {
      uint32_t bits = 0;
      if (!r.u32(bits, "gridExprs"))
        return false;
      g = int32_t(bits);
    }
    uint32_t guard = 0;
    if (!r.u32s(l.scalars, "scalars") || !r.u32(guard, "guardExpr") ||
        !r.u64(l.guardMin, "guardMin") || !r.u64(l.guardMax, "guardMax"))
      return false;
    l.guardExpr = int32_t(guard);
  }
  r.where.clear();
  return true;
}

/// Reads a count and that many records with `read`, each named
/// "name[i]" in errors (inside the record being read, if any: records of
/// records are "outer[j].name[i]"); `minBytes` is the least a record takes.
template <typename T, typename ReadFn>
bool readRecords(Reader &r, std::vector<T> &out, uint64_t minBytes,
                 const char *name, ReadFn read) {
  std::string outer = r.where;
  uint64_t n = 0;
  if (!r.count(n, minBytes, name))
    return false;
  out.resize(size_t(n));
  for (size_t i = 0; i < out.size(); ++i) {
    r.where = outer.empty() ? indexed(name, i) : outer + "." + indexed(name, i);
    if (!read(out[i]))
      return false;
  }
  r.where = outer;
  return true;
}

bool readPlan(Reader &r, Artifact &a) {
  return readRecords(r, a.copies, 8, "copies",
                     [&](Copy &c) {
                       return r.u32(c.src, "src") && r.u32(c.dst, "dst");
                     }) &&
         readRecords(r, a.steps, 8, "steps",
                     [&](Step &s) {
                       uint32_t kind = 0;
                       if (!r.u32(kind, "kind") || !r.u32(s.index, "index"))
                         return false;
                       s.kind = Step::Kind(kind);
                       return true;
                     }) &&
         readRecords(r, a.checks, 16, "checks",
                     [&](IndexCheck &c) {
                       return r.blob(c.node, "node") && r.blob(c.op, "op");
                     }) &&
         readRecords(r, a.symbols, 24, "symbols",
                     [&](Symbol &s) {
                       uint64_t lo = 0, hi = 0;
                       if (!r.blob(s.name, "name") || !r.u64(lo, "min") ||
                           !r.u64(hi, "max"))
                         return false;
                       s.min = int64_t(lo);
                       s.max = int64_t(hi);
                       return true;
                     }) &&
         readRecords(r, a.exprs, 8, "exprs", [&](Expr &e) {
           return readRecords(r, e.terms, 12, "terms", [&](ExprTerm &t) {
             uint32_t op = 0;
             uint64_t value = 0;
             if (!r.u32(op, "op") || !r.u64(value, "value"))
               return false;
             // Range-checked in validate().
             t.op = ExprOp(op);
             t.value = int64_t(value);
             return true;
           });
         });
}

bool readHeader(Reader &r, size_t size, const uint8_t *data, uint32_t &flags,
                std::string &error) {
  size_t n = size < sizeof(kMagic) ? size : sizeof(kMagic);
  if (std::memcmp(data, kMagic, n) != 0) {
    error = "not a brrr artifact: bad magic (expected \"BRRRART\\0\")";
    return false;
  }
  char magic[8];
  uint32_t version = 0;
  if (!r.raw(magic, sizeof(magic), "magic") || !r.u32(version, "formatVersion"))
    return false;
  if (version != kFormatVersion) {
    error =
        "artifact format version " + std::to_string(version) +
        ", this runtime reads " + std::to_string(kFormatVersion) +
        (version > kFormatVersion ? " (the model was built by a newer brrrc)"
                                  : " (rebuild the model with this brrrc)");
    return false;
  }
  if (!r.u32(flags, "flags"))
    return false;
  if (flags & ~kKnownFlags) {
    char hex[16];
    std::snprintf(hex, sizeof(hex), "%x", unsigned(flags & ~kKnownFlags));
    error = std::string("artifact has unknown flags 0x") + hex +
            " (the model was built by a newer brrrc)";
    return false;
  }
  return true;
}

} // namespace

bool deserialize(const uint8_t *data, size_t size, Artifact &out,
                 std::string &error, const ApartWeights *apart) {
  out = Artifact();
  if (!data && size) {
    error = "artifact image is a null pointer";
    return false;
  }
  static const uint8_t empty = 0;
  Reader r(data ? data : &empty, size, error);
  uint32_t flags = 0;
  if (!readHeader(r, size, data ? data : &empty, flags, error))
    return false;

  if (!r.blob(out.target, "target") || !r.u32(out.smMajor, "smMajor") ||
      !r.u32(out.smMinor, "smMinor") || !r.flag(out.exactArch, "exactArch"))
    return false;
  if (!r.blob(out.ptx, "ptx") || !r.blob(out.cubin, "cubin") ||
      !readKernels(r, out.kernels) || !readTensors(r, out.tensors) ||
      !r.u32s(out.inputs, "inputs") || !r.u32s(out.outputs, "outputs") ||
      !readLaunches(r, out.launches) || !readPlan(r, out) ||
      !r.u64(out.arenaBytes, "arenaBytes"))
    return false;
  if (flags & kFlagWeightsApart) {
    uint64_t id = 0;
    if (!r.u64(out.weightSize, "weights") || !r.u64(id, "weightsId"))
      return false;
    if (!apart) {
      error = "artifact's " + std::to_string(out.weightSize) +
              " bytes of weights are stored apart from it (appended to the "
              "model.so it is embedded in); open that library";
      return false;
    }
    if (apart->size != out.weightSize ||
        weightsId(apart->data, apart->size) != id) {
      error = "the weights found (" + std::to_string(apart->size) +
              " bytes) are not this artifact's (" +
              std::to_string(out.weightSize) +
              " bytes): they come from another compile, or were changed";
      return false;
    }
    out.weightData = apart->data;
  } else {
    // The length is checked against what is left before it becomes a
    // pointer; the weights stay where they are.
    if (!r.count(out.weightSize, 1, "weights"))
      return false;
    out.weightData = (data ? data : &empty) + r.offset();
    r.skip(size_t(out.weightSize));
  }
  if (r.left()) {
    error = "artifact has " + std::to_string(r.left()) +
            " trailing bytes after the weights (image is " +
            std::to_string(size) + " bytes, payload ends at " +
            std::to_string(r.offset()) + ")";
    return false;
  }
  return validate(out, error);
}

} // namespace brrr::artifact
