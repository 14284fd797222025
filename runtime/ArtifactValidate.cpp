//===- ArtifactValidate.cpp - semantic checks of a parsed artifact --------===//
//
// The runtime turns tensor offsets into device addresses and kernel
// arguments without checking them again, so everything that could make it
// read or write outside an allocation is rejected here, once, when the model
// is opened: bad enum values, shapes that disagree with byte sizes, tensors
// that overrun the weight block or the arena, plan entries that point at
// nothing, and tensor maps that the driver would refuse to encode or that
// would let the copy engine reach past their tensor.
//
//===----------------------------------------------------------------------===//

#include "runtime/ArtifactValidate.h"

#include <set>
#include <string>
#include <tuple>

namespace brrr::artifact {
namespace {

constexpr uint64_t kAlignment = 256;
/// Symbols are below 2^31, so that extents of a few of them multiplied stay
/// far inside int64.
constexpr int64_t kMaxSymbol = (int64_t(1) << 31) - 1;

/// cuTensorMapEncodeTiled's and cuTensorMapEncodeIm2col's limits.
constexpr size_t kMaxMapRank = 5;
constexpr size_t kMinIm2colRank = 3;
constexpr uint64_t kMaxMapDim = uint64_t(1) << 32;
constexpr uint64_t kMaxMapStride = uint64_t(1) << 40;
constexpr uint32_t kMaxMapBox = 256;
constexpr uint64_t kMapAlignment = 16;
constexpr uint32_t kMaxElementStride = 8;
constexpr uint32_t kMaxChannelsPerPixel = 256;
constexpr uint32_t kMaxPixelsPerColumn = 1024;

const char *storageName(Storage s) {
  switch (s) {
  case Storage::Input:
    return "input";
  case Storage::Output:
    return "output";
  case Storage::Weight:
    return "weight";
  case Storage::Arena:
    return "arena";
  }
  return "?";
}

/// Checks what only im2col maps have against cuTensorMapEncodeIm2col's
/// rules; `m`'s rank (3 to 5) and dims are already valid.
bool checkIm2col(const TensorMap &m, const std::string &at,
                 std::string &error) {
  auto fail = [&](std::string msg) {
    error = std::move(msg);
    return false;
  };
  size_t rank = m.dims.size(), spatial = rank - 2;
  std::string ofRank = "rank-" + std::to_string(rank) + " im2col maps";
  // The driver packs the corners into fewer bits as the rank grows.
  int32_t limit = rank == 3 ? 32768 : rank == 4 ? 128 : 16;
  for (bool lower : {true, false}) {
    const std::vector<int32_t> &c = lower ? m.lowerCorner : m.upperCorner;
    std::string name = lower ? "lower corner" : "upper corner";
    if (c.size() != spatial)
      return fail(at + " has " + std::to_string(c.size()) + " " + name +
                  " offsets for rank " + std::to_string(rank) + ", expected " +
                  std::to_string(spatial));
    for (size_t d = 0; d < spatial; ++d)
      if (c[d] < -limit || c[d] >= limit)
        return fail(at + " has " + name + " offset " + std::to_string(c[d]) +
                    " in dimension " + std::to_string(d + 1) + "; " + ofRank +
                    " allow [" + std::to_string(-limit) + ", " +
                    std::to_string(limit - 1) + "]");
  }
  // dims are at most 2^32 and corners 16-bit: no overflow in 64 bits.
  for (size_t d = 0; d < spatial; ++d) {
    int64_t lo = m.lowerCorner[d], up = m.upperCorner[d];
    if (int64_t(m.dims[d + 1]) + up - lo < 1)
      return fail(at + " has an empty bounding box in dimension " +
                  std::to_string(d + 1) + ": " + std::to_string(m.dims[d + 1]) +
                  " elements with lower corner " + std::to_string(lo) +
                  " and upper corner " + std::to_string(up));
  }
  if (m.channelsPerPixel == 0 || m.channelsPerPixel > kMaxChannelsPerPixel)
    return fail(at + " has channelsPerPixel " +
                std::to_string(m.channelsPerPixel) +
                "; im2col tensor maps allow 1 to " +
                std::to_string(kMaxChannelsPerPixel));
  if (m.pixelsPerColumn == 0 || m.pixelsPerColumn > kMaxPixelsPerColumn)
    return fail(at + " has pixelsPerColumn " +
                std::to_string(m.pixelsPerColumn) +
                "; im2col tensor maps allow 1 to " +
                std::to_string(kMaxPixelsPerColumn));
  return true;
}

class Validator {
public:
  Validator(const Artifact &a, std::string &error) : a(a), error(error) {}

  bool run() {
    return checkCode() && checkSymbols() && checkKernelCosts() &&
           checkTensors() && checkSignature(true) && checkSignature(false) &&
           checkBindings() && checkViews() && checkLaunches() &&
           checkCopies() && checkSteps();
  }

private:
  bool fail(std::string msg) {
    error = "invalid artifact: " + std::move(msg);
    return false;
  }

  std::string tensorName(size_t i) const {
    return "tensors[" + std::to_string(i) + "] '" + a.tensors[i].name + "'";
  }

  /// Symbols have distinct names and ranges within [1, 2^31); expressions
  /// are well formed and evaluate, at the smallest and at the largest value
  /// of every symbol, to at least 0. The runtime evaluates them again at
  /// each shape a run binds, and refuses what fails there.
  bool checkSymbols() {
    std::set<std::string> names;
    for (size_t i = 0; i < a.symbols.size(); ++i) {
      const Symbol &s = a.symbols[i];
      std::string at = "symbols[" + std::to_string(i) + "] '" + s.name + "'";
      if (s.name.empty() || !names.insert(s.name).second)
        return fail(at + " has an empty or repeated name");
      if (s.min < 1 || s.min > s.max || s.max > kMaxSymbol)
        return fail(at + " has range " + std::to_string(s.min) + ".." +
                    std::to_string(s.max) +
                    "; expected 1 <= min <= max < 2^31");
      lowest.push_back(s.min);
      highest.push_back(s.max);
    }
    for (size_t i = 0; i < a.exprs.size(); ++i) {
      for (bool top : {false, true}) {
        int64_t v = 0;
        std::string reason;
        const std::vector<int64_t> &at = top ? highest : lowest;
        if (!evaluate(a.exprs[i], at.data(), at.size(), v, reason))
          return fail("exprs[" + std::to_string(i) + "] is invalid: " + reason);
        if (v < 0)
          return fail("exprs[" + std::to_string(i) + "] is " +
                      std::to_string(v) + " at every symbol's " +
                      (top ? "maximum" : "minimum") + "; extents are >= 0");
      }
    }
    return true;
  }

  /// Expression `e`'s value at every symbol's maximum (checked to exist).
  int64_t largest(size_t e) const {
    int64_t v = 0;
    std::string reason;
    evaluate(a.exprs[e], highest.data(), highest.size(), v, reason);
    return v;
  }

  bool checkExprIndex(int64_t e, const std::string &at) {
    if (e < 0 || uint64_t(e) >= a.exprs.size())
      return fail(at + " is expression " + std::to_string(e) +
                  ", out of range (" + std::to_string(a.exprs.size()) +
                  " expressions)");
    return true;
  }

  /// A kernel's work and traffic at each shape are what it counts at the
  /// largest.
  bool checkKernelCosts() {
    for (size_t i = 0; i < a.kernels.size(); ++i) {
      const Kernel &k = a.kernels[i];
      std::string at = "kernels[" + std::to_string(i) + "] '" + k.name + "'";
      for (auto [e, largestValue, what] :
           {std::tuple(k.flopsExpr, k.flops, "flops"),
            std::tuple(k.bytesExpr, k.bytes, "bytes")}) {
        if (e == -1)
          continue;
        if (!checkExprIndex(e, at + " " + what))
          return false;
        if (uint64_t(largest(size_t(e))) != largestValue)
          return fail(at + " counts " + std::to_string(largestValue) + " " +
                      what + " but its expression gives " +
                      std::to_string(largest(size_t(e))) +
                      " at every symbol's maximum");
      }
    }
    return true;
  }

  /// A symbolic tensor's dims are its extents at every symbol's maximum.
  bool checkDimExprs(const Tensor &t, size_t i) {
    if (t.dimExprs.empty())
      return true;
    if (t.dimExprs.size() != t.dims.size())
      return fail(tensorName(i) + " has " + std::to_string(t.dimExprs.size()) +
                  " dimension expressions for rank " +
                  std::to_string(t.dims.size()));
    for (size_t d = 0; d < t.dims.size(); ++d) {
      int32_t e = t.dimExprs[d];
      if (e == -1)
        continue;
      std::string at = tensorName(i) + " dimension " + std::to_string(d);
      if (!checkExprIndex(e, at))
        return false;
      if (largest(size_t(e)) != t.dims[d])
        return fail(at + " is " + std::to_string(t.dims[d]) +
                    " but its extent is " + std::to_string(largest(size_t(e))) +
                    " at every symbol's maximum");
    }
    return true;
  }

  /// Every symbol is some input's dimension, where a run reads its value;
  /// an input's dimension is fixed or one symbol.
  bool checkBindings() {
    std::vector<bool> bound(a.symbols.size(), false);
    for (size_t i = 0; i < a.inputs.size(); ++i) {
      const Tensor &t = a.tensors[a.inputs[i]];
      for (size_t d = 0; d < t.dimExprs.size(); ++d) {
        int32_t e = t.dimExprs[d];
        if (e == -1)
          continue;
        const std::vector<ExprTerm> &terms = a.exprs[size_t(e)].terms;
        if (terms.size() != 1 || terms[0].op != ExprOp::Symbol)
          return fail("inputs[" + std::to_string(i) + "] '" + t.name +
                      "' dimension " + std::to_string(d) +
                      " is an expression; an input's dimension is fixed or "
                      "one symbol");
        bound[size_t(terms[0].value)] = true;
      }
    }
    for (size_t s = 0; s < bound.size(); ++s)
      if (!bound[s])
        return fail("symbols[" + std::to_string(s) + "] '" + a.symbols[s].name +
                    "' is no input's dimension");
    return true;
  }

  bool checkCode() {
    if (a.kernels.empty())
      return true;
    if (a.ptx.empty() && a.cubin.empty())
      return fail("it has " + std::to_string(a.kernels.size()) +
                  " kernels but neither PTX nor a cubin");
    for (size_t i = 0; i < a.kernels.size(); ++i)
      if (a.kernels[i].name.empty())
        return fail("kernels[" + std::to_string(i) + "] has an empty name");
    return true;
  }

  /// product(dims) * dtypeSize, or false on a negative dimension or
  /// overflow.
  bool byteSize(const Tensor &t, size_t i, uint64_t &bytes) {
    uint64_t n = dtypeSize(t.dtype);
    for (size_t d = 0; d < t.dims.size(); ++d) {
      int64_t dim = t.dims[d];
      if (dim < 0)
        return fail(tensorName(i) + " has negative dimension " +
                    std::to_string(dim) + " at position " + std::to_string(d));
      if (dim && n > UINT64_MAX / uint64_t(dim))
        return fail(tensorName(i) + " is too large: its byte size overflows "
                                    "64 bits");
      n *= uint64_t(dim);
    }
    bytes = n;
    return true;
  }

  bool inBlock(size_t i, uint64_t blockBytes, const char *block) {
    const Tensor &t = a.tensors[i];
    if (t.offset % kAlignment)
      return fail(tensorName(i) + " has " + block + " offset " +
                  std::to_string(t.offset) + ", which is not " +
                  std::to_string(kAlignment) + "-byte aligned");
    if (t.offset > blockBytes || t.bytes > blockBytes - t.offset)
      return fail(tensorName(i) + " (bytes [" + std::to_string(t.offset) +
                  ", " + std::to_string(t.offset) + " + " +
                  std::to_string(t.bytes) + ")) lies outside the " + block +
                  " of " + std::to_string(blockBytes) + " bytes");
    return true;
  }

  bool checkTensors() {
    for (size_t i = 0; i < a.tensors.size(); ++i) {
      const Tensor &t = a.tensors[i];
      if (dtypeSize(t.dtype) == 0)
        return fail(tensorName(i) + " has unknown dtype " +
                    std::to_string(uint32_t(t.dtype)));
      uint64_t bytes = 0;
      if (!byteSize(t, i, bytes) || !checkDimExprs(t, i))
        return false;
      if (bytes != t.bytes)
        return fail(tensorName(i) + " has bytes = " + std::to_string(t.bytes) +
                    " but its shape and dtype need " + std::to_string(bytes));
      switch (t.storage) {
      case Storage::Input:
      case Storage::Output: {
        size_t n =
            t.storage == Storage::Input ? a.inputs.size() : a.outputs.size();
        if (t.index >= n)
          return fail(tensorName(i) + " is " + storageName(t.storage) + " " +
                      std::to_string(t.index) + " but the model has " +
                      std::to_string(n) + " " + storageName(t.storage) + "s");
        break;
      }
      case Storage::Weight:
        if (!inBlock(i, a.weightCount(), "weight block"))
          return false;
        break;
      case Storage::Arena:
        if (!inBlock(i, a.arenaBytes, "arena"))
          return false;
        break;
      default:
        return fail(tensorName(i) + " has unknown storage " +
                    std::to_string(uint32_t(t.storage)));
      }
    }
    return true;
  }

  /// The signature lists, in order, the tensors that are the caller's
  /// buffers; each must say so, at offset 0, under a unique name.
  bool checkSignature(bool inputs) {
    const std::vector<uint32_t> &sig = inputs ? a.inputs : a.outputs;
    const char *what = inputs ? "inputs" : "outputs";
    Storage want = inputs ? Storage::Input : Storage::Output;
    std::set<std::string> names;
    for (size_t i = 0; i < sig.size(); ++i) {
      std::string at = std::string(what) + "[" + std::to_string(i) + "]";
      if (sig[i] >= a.tensors.size())
        return fail(at + " is tensor " + std::to_string(sig[i]) +
                    ", out of range (" + std::to_string(a.tensors.size()) +
                    " tensors)");
      const Tensor &t = a.tensors[sig[i]];
      if (t.storage != want || t.index != i || t.offset != 0)
        return fail(at + " is " + tensorName(sig[i]) + ", whose storage is " +
                    storageName(t.storage) + " " + std::to_string(t.index) +
                    " at offset " + std::to_string(t.offset) + ", not " +
                    storageName(want) + " " + std::to_string(i) +
                    " at offset 0");
      if (!names.insert(t.name).second)
        return fail(at + " repeats the name '" + t.name + "'");
    }
    return true;
  }

  /// Other tensors stored in an input or output buffer are views of it and
  /// must stay inside it.
  bool checkViews() {
    for (size_t i = 0; i < a.tensors.size(); ++i) {
      const Tensor &t = a.tensors[i];
      if (t.storage != Storage::Input && t.storage != Storage::Output)
        continue;
      uint32_t owner =
          t.storage == Storage::Input ? a.inputs[t.index] : a.outputs[t.index];
      uint64_t cap = a.tensors[owner].bytes;
      if (t.offset > cap || t.bytes > cap - t.offset)
        return fail(tensorName(i) + " (bytes [" + std::to_string(t.offset) +
                    ", " + std::to_string(t.offset) + " + " +
                    std::to_string(t.bytes) + ")) lies outside " +
                    storageName(t.storage) + " " + std::to_string(t.index) +
                    " of " + std::to_string(cap) + " bytes");
    }
    return true;
  }

  bool checkLaunches() {
    for (size_t i = 0; i < a.launches.size(); ++i) {
      const Launch &l = a.launches[i];
      std::string at = "launches[" + std::to_string(i) + "]";
      if (l.kernel >= a.kernels.size())
        return fail(at + " uses kernel " + std::to_string(l.kernel) +
                    ", out of range (" + std::to_string(a.kernels.size()) +
                    " kernels)");
      uint64_t threads = 1;
      for (int d = 0; d < 3; ++d) {
        if (!l.grid[d] || !l.block[d])
          return fail(at + " ('" + a.kernels[l.kernel].name +
                      "') has a zero grid or block dimension");
        threads *= l.block[d];
      }
      if (threads > 1024)
        return fail(at + " ('" + a.kernels[l.kernel].name + "') has " +
                    std::to_string(threads) +
                    " threads per block; CUDA allows at most 1024");
      for (size_t j = 0; j < l.args.size(); ++j)
        if (l.args[j] >= a.tensors.size())
          return fail(at + ".args[" + std::to_string(j) + "] is tensor " +
                      std::to_string(l.args[j]) + ", out of range (" +
                      std::to_string(a.tensors.size()) + " tensors)");
      for (int d = 0; d < 3; ++d) {
        int32_t e = l.gridExprs[d];
        if (e == -1)
          continue;
        std::string gat = at + ".gridExprs[" + std::to_string(d) + "]";
        if (!checkExprIndex(e, gat))
          return false;
        if (largest(size_t(e)) != int64_t(l.grid[d]))
          return fail(gat + " is " + std::to_string(largest(size_t(e))) +
                      " at every symbol's maximum, but grid[" +
                      std::to_string(d) + "] is " + std::to_string(l.grid[d]));
      }
      for (size_t j = 0; j < l.scalars.size(); ++j)
        if (!checkExprIndex(l.scalars[j],
                            at + ".scalars[" + std::to_string(j) + "]"))
          return false;
      if (l.guardExpr != -1) {
        if (!checkExprIndex(l.guardExpr, at + ".guardExpr"))
          return false;
        if (l.guardMin > l.guardMax)
          return fail(at + " is guarded by the empty range [" +
                      std::to_string(l.guardMin) + ", " +
                      std::to_string(l.guardMax) + "]");
      }
      for (size_t j = 0; j < l.maps.size(); ++j) {
        std::string reason;
        // A symbolic map is checked at its largest extents below, and at
        // each shape's when the runtime encodes it.
        const TensorMap &m = l.maps[j];
        std::string mat = at + ".maps[" + std::to_string(j) + "]";
        if (!m.dimExprs.empty() && m.dimExprs.size() != m.dims.size())
          return fail(mat + " has " + std::to_string(m.dimExprs.size()) +
                      " dimension expressions for rank " +
                      std::to_string(m.dims.size()));
        for (size_t d = 0; d < m.dimExprs.size(); ++d) {
          if (m.dimExprs[d] == -1)
            continue;
          std::string dat = mat + ".dimExprs[" + std::to_string(d) + "]";
          if (!checkExprIndex(m.dimExprs[d], dat))
            return false;
          if (largest(size_t(m.dimExprs[d])) != int64_t(m.dims[d]))
            return fail(
                dat + " is " + std::to_string(largest(size_t(m.dimExprs[d]))) +
                " at every symbol's maximum, but dims[" + std::to_string(d) +
                "] is " + std::to_string(m.dims[d]));
        }
        if (!validateTensorMap(a, l.maps[j],
                               at + ".maps[" + std::to_string(j) +
                                   "] (kernel '" + a.kernels[l.kernel].name +
                                   "')",
                               reason))
          return fail(std::move(reason));
      }
    }
    return true;
  }

  bool checkCopies() {
    for (size_t i = 0; i < a.copies.size(); ++i) {
      const Copy &c = a.copies[i];
      std::string at = "copies[" + std::to_string(i) + "]";
      if (c.src >= a.tensors.size() || c.dst >= a.tensors.size())
        return fail(at + " copies tensor " + std::to_string(c.src) +
                    " to tensor " + std::to_string(c.dst) + ", out of range (" +
                    std::to_string(a.tensors.size()) + " tensors)");
      const Tensor &src = a.tensors[c.src], &dst = a.tensors[c.dst];
      if (src.bytes != dst.bytes)
        return fail(at + " copies " + tensorName(c.src) + " (" +
                    std::to_string(src.bytes) + " bytes) to " +
                    tensorName(c.dst) + " (" + std::to_string(dst.bytes) +
                    " bytes)");
      // Inputs are the caller's const buffers and weights are shared by every
      // context of the model.
      if (dst.storage != Storage::Output && dst.storage != Storage::Arena)
        return fail(at + " writes to " + tensorName(c.dst) + ", a " +
                    storageName(dst.storage) +
                    " tensor; copies may only write outputs or the arena");
    }
    return true;
  }

  bool checkSteps() {
    for (size_t i = 0; i < a.steps.size(); ++i) {
      const Step &s = a.steps[i];
      std::string at = "steps[" + std::to_string(i) + "]";
      size_t n;
      const char *what;
      if (s.kind == Step::Kind::Launch) {
        n = a.launches.size();
        what = "launch";
      } else if (s.kind == Step::Kind::Copy) {
        n = a.copies.size();
        what = "copy";
      } else {
        return fail(at + " has unknown kind " +
                    std::to_string(uint32_t(s.kind)));
      }
      if (s.index >= n)
        return fail(at + " refers to " + what + " " + std::to_string(s.index) +
                    ", out of range (" + std::to_string(n) + ")");
    }
    return true;
  }

  const Artifact &a;
  std::string &error;
  /// Every symbol's smallest and largest value.
  std::vector<int64_t> lowest, highest;
};

} // namespace

// Besides the driver's rules, the farthest element of a map must lie inside
// its tensor: the hardware checks a box against the map's dims, not against
// the allocation. Sums are checked for overflow since the numbers come from
// the image.
bool validateTensorMap(const Artifact &a, const TensorMap &m,
                       const std::string &at, std::string &error) {
  auto fail = [&](std::string msg) {
    error = std::move(msg);
    return false;
  };
  auto tensorName = [&](size_t i) {
    return "tensors[" + std::to_string(i) + "] '" + a.tensors[i].name + "'";
  };
  if (m.tensor >= a.tensors.size())
    return fail(at + " is over tensor " + std::to_string(m.tensor) +
                ", out of range (" + std::to_string(a.tensors.size()) +
                " tensors)");
  const Tensor &t = a.tensors[m.tensor];
  uint64_t elem = dtypeSize(t.dtype);
  size_t rank = m.dims.size();
  if (m.mode != TensorMapMode::Tiled && m.mode != TensorMapMode::Im2col)
    return fail(at + " has unknown mode " + std::to_string(uint32_t(m.mode)) +
                "; expected 0 (tiled) or 1 (im2col)");
  bool im2col = m.mode == TensorMapMode::Im2col;
  size_t minRank = im2col ? kMinIm2colRank : 1;
  if (rank < minRank || rank > kMaxMapRank)
    return fail(at + " has rank " + std::to_string(rank) + "; " +
                (im2col ? "im2col " : "") + "tensor maps have " +
                std::to_string(minRank) + " to " + std::to_string(kMaxMapRank) +
                " dimensions");
  if (m.strides.size() != rank - 1)
    return fail(at + " has " + std::to_string(m.strides.size()) +
                " strides for rank " + std::to_string(rank) + ", expected " +
                std::to_string(rank - 1));
  if (im2col ? !m.box.empty() : m.box.size() != rank)
    return fail(at + " has " + std::to_string(m.box.size()) +
                " box extents for rank " + std::to_string(rank) +
                (im2col ? "; im2col tensor maps have none" : ""));
  if (!m.elementStrides.empty() && m.elementStrides.size() != rank)
    return fail(at + " has " + std::to_string(m.elementStrides.size()) +
                " element strides for rank " + std::to_string(rank) +
                ", expected " + std::to_string(rank) + " or none");
  for (size_t d = 0; d < rank; ++d) {
    std::string dim = " in dimension " + std::to_string(d);
    if (m.dims[d] == 0 || m.dims[d] > kMaxMapDim)
      return fail(at + " has " + std::to_string(m.dims[d]) + " elements" + dim +
                  "; tensor maps allow 1 to 2^32");
    if (!im2col && (m.box[d] == 0 || m.box[d] > kMaxMapBox))
      return fail(at + " has box extent " + std::to_string(m.box[d]) + dim +
                  "; tensor maps allow 1 to " + std::to_string(kMaxMapBox));
    if (!m.elementStrides.empty() &&
        (m.elementStrides[d] == 0 || m.elementStrides[d] > kMaxElementStride))
      return fail(at + " has element stride " +
                  std::to_string(m.elementStrides[d]) + dim +
                  "; tensor maps allow 1 to " +
                  std::to_string(kMaxElementStride));
  }
  if (im2col) {
    if (!checkIm2col(m, at, error))
      return false;
  } else if (!m.lowerCorner.empty() || !m.upperCorner.empty() ||
             m.channelsPerPixel || m.pixelsPerColumn) {
    return fail(at + " is a tiled map but has im2col corners, "
                     "channelsPerPixel or pixelsPerColumn");
  }
  for (size_t d = 0; d < m.strides.size(); ++d)
    if (m.strides[d] % kMapAlignment || m.strides[d] >= kMaxMapStride)
      return fail(at + " has stride " + std::to_string(m.strides[d]) +
                  " bytes in dimension " + std::to_string(d + 1) +
                  "; tensor map strides are multiples of " +
                  std::to_string(kMapAlignment) + " below 2^40");
  if (m.offset % kMapAlignment)
    return fail(at + " starts at byte offset " + std::to_string(m.offset) +
                ", which is not " + std::to_string(kMapAlignment) +
                "-byte aligned");
  // Weights and the arena are 256-byte aligned; a view of a caller's buffer
  // may start anywhere in it.
  if (t.offset % kMapAlignment)
    return fail(at + " is over " + tensorName(m.tensor) +
                ", which starts at byte " + std::to_string(t.offset) + " of " +
                storageName(t.storage) + " " + std::to_string(t.index) +
                ", not " + std::to_string(kMapAlignment) + "-byte aligned");
  if (m.swizzle != 0 && m.swizzle != 32 && m.swizzle != 64 && m.swizzle != 128)
    return fail(at + " has swizzle " + std::to_string(m.swizzle) +
                "; expected 0, 32, 64 or 128 bytes");
  // The innermost extent of one copy: a box row, or the channels of one
  // im2col pixel. Both are at most 256 and elem at most 8: no overflow.
  uint64_t row = uint64_t(im2col ? m.channelsPerPixel : m.box[0]) * elem;
  std::string rowName =
      im2col ? "pixel of " + std::to_string(row) + " bytes (" +
                   std::to_string(m.channelsPerPixel) + " channels)"
             : "box row of " + std::to_string(row) + " bytes";
  if (row % kMapAlignment)
    return fail(at + " has a " + rowName + ", which is not a multiple of " +
                std::to_string(kMapAlignment));
  if (m.swizzle && row > m.swizzle)
    return fail(at + " has a " + rowName + ", wider than its " +
                std::to_string(m.swizzle) + "-byte swizzle");
  uint64_t end = 0;
  bool overflow = __builtin_mul_overflow(m.dims[0], elem, &end) ||
                  __builtin_add_overflow(end, m.offset, &end);
  for (size_t d = 1; d < rank && !overflow; ++d) {
    uint64_t span = 0;
    overflow = __builtin_mul_overflow(m.dims[d] - 1, m.strides[d - 1], &span) ||
               __builtin_add_overflow(end, span, &end);
  }
  if (overflow || end > t.bytes)
    return fail(at + " reaches " +
                (overflow ? std::string("past 2^64") : std::to_string(end)) +
                " bytes into " + tensorName(m.tensor) + ", which has " +
                std::to_string(t.bytes));
  return true;
}

bool validate(const Artifact &a, std::string &error) {
  return Validator(a, error).run();
}

} // namespace brrr::artifact
