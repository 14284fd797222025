//===- Artifact.h - the compiled-model image ----------------------*- C++
//-*-===//
//
// What brrrc writes and the runtime reads: kernels (cubin and PTX), the
// launch plan, the tensor table with the memory plan, weights, and the
// signature. The compiler fills an `Artifact` and serializes it; the image is
// embedded in model.so, and the runtime deserializes and validates it. Pure
// C++17 with no dependencies, so both sides share this file.
//
// Image layout (all integers little-endian, signed ones two's complement):
//   "BRRRART\0" | u32 formatVersion | u32 flags | payload
// The payload is the fields of `Artifact` in declaration order: strings and
// byte arrays as u64 length + bytes, vectors as u64 count + elements, enums
// as u32, `bool` as one byte (0 or 1), fixed arrays (grid, block) as their
// elements without a count.
//
// Version 2 added the launches' tensor maps (`Launch::maps`, after `args`);
// version 3 their im2col mode and element strides (the `TensorMap` fields
// after `swizzle`); version 4 `Launch::programmatic` (after `maps`);
// version 5 `Launch::errorRecord` (after `programmatic`) and the index
// checks (`Artifact::checks`, after `steps`); version 6 the flags word
// (reserved before) and images whose weights are stored apart; version 7
// symbolic shapes: `Tensor::dimExprs` (after `bytes`),
// `TensorMap::dimExprs` (after `elementStrides`), `Launch::gridExprs` and
// `Launch::scalars` (after `errorRecord`), `Artifact::symbols` and
// `Artifact::exprs` (after `checks`). An expression is a u64 count of terms,
// each a u32 op and a u64 value. Version 8 the launches' guards
// (`Launch::guardExpr`, `guardMin`, `guardMax`, after `scalars`). Version
// 9 `Launch::programmatic` as a byte of `Programmatic` (2: in one wave);
// version 10 its value 3 (fitting beside the launch before it); version 11
// a kernel's work and traffic at each shape (`Kernel::flopsExpr`,
// `bytesExpr`, after `bytes`, as i32).
//
// Weights apart (kFlagWeightsApart): the image ends after the weight
// block's length with a u64 weights id (weightsId()) instead of the bytes.
// brrrc writes model.so this way when its weights are large: the image is
// embedded in the library and the weight block appended to the library's
// file, page-aligned and followed by a WeightsTrailer, so that no weight
// byte passes through the linker or the small code model's 2 GiB reach.
// The runtime reads only its own version: an image of another one is
// rejected with a message that says which side is older.
//
//===----------------------------------------------------------------------===//

#ifndef BRRR_RUNTIME_ARTIFACT_H
#define BRRR_RUNTIME_ARTIFACT_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace brrr::artifact {

constexpr char kMagic[8] = {'B', 'R', 'R', 'R', 'A', 'R', 'T', '\0'};
constexpr uint32_t kFormatVersion = 11;

/// Bits of the header's flags word.
constexpr uint32_t kFlagWeightsApart = 1u; ///< see "Weights apart" above
constexpr uint32_t kKnownFlags = kFlagWeightsApart;

/// Element types; values equal the C API's brrr_dtype.
enum class DType : uint32_t {
  F32 = 1,
  F16 = 2,
  BF16 = 3,
  F64 = 4,
  I8 = 5,
  I16 = 6,
  I32 = 7,
  I64 = 8,
  U8 = 9,
  U16 = 10,
  U32 = 11,
  U64 = 12,
  Bool = 13
};

/// Bytes per element (bool: 1).
uint32_t dtypeSize(DType t);

/// Where a tensor lives at run time.
enum class Storage : uint32_t {
  Input = 0,  ///< the caller's input buffer `index`
  Output = 1, ///< the caller's output buffer `index`
  Weight = 2, ///< `offset` into the weight block, uploaded once at open
  Arena = 3,  ///< `offset` into the context's intermediate arena
};

/// A symbolic dimension (`brrrc --input-shape NAME=MIN..MAX`): each run
/// binds it to a value in [min, max] read from its inputs' shapes.
struct Symbol {
  std::string name;
  int64_t min = 1, max = 1;
};

/// The operations of an expression over the symbols (`Expr`).
enum class ExprOp : uint32_t {
  Constant = 0, ///< pushes `value`
  Symbol = 1,   ///< pushes symbol `value`'s value
  Add = 2,      ///< pops b, a; pushes a + b
  Mul = 3,      ///< a * b
  FloorDiv = 4, ///< floor(a / b), b > 0
  CeilDiv = 5,  ///< ceil(a / b), b > 0
  Mod = 6,      ///< a mod b in [0, b), b > 0
};

struct ExprTerm {
  ExprOp op = ExprOp::Constant;
  int64_t value = 0; ///< Constant: the value; Symbol: its index; else 0
};

/// An integer expression over the symbols, in postfix: what an extent, a
/// grid dimension or a kernel's scalar parameter is at the symbols' values
/// of a run (the compiler's affine expressions, e.g. ceildiv(s0 * 768, 1024)).
struct Expr {
  std::vector<ExprTerm> terms;
};

/// Evaluates `e` at `values` (one per symbol); false, with the reason in
/// `error`, for a malformed expression, a symbol out of range, a divisor
/// that is not positive, or a result or step outside int64.
bool evaluate(const Expr &e, const int64_t *values, size_t count, int64_t &out,
              std::string &error);

struct Tensor {
  std::string name;
  DType dtype = DType::F32;
  /// The largest shape (every symbol at its maximum); `bytes` is its size,
  /// which the memory plan reserves.
  std::vector<int64_t> dims;
  Storage storage = Storage::Arena;
  uint64_t index = 0;  ///< input/output position for Input/Output
  uint64_t offset = 0; ///< byte offset for Weight/Arena (256-byte aligned)
  uint64_t bytes = 0;
  /// Empty for a fixed shape; else one entry per dimension: -1 where it is
  /// fixed, or the index into `Artifact::exprs` of its extent.
  std::vector<int32_t> dimExprs;
};

/// A kernel in the cubin/PTX module.
struct Kernel {
  std::string name;
  /// Roofline data for `--profile`/`--report`: work done and the fewest
  /// bytes it must move (at the largest shape).
  uint64_t flops = 0;
  uint64_t bytes = 0;
  /// A kernel over symbolic extents: the indices into `Artifact::exprs` of
  /// its work and traffic at a run's shapes, equal to `flops` and `bytes`
  /// at every symbol's maximum; -1 where they are fixed.
  int32_t flopsExpr = -1;
  int32_t bytesExpr = -1;
};

/// How a tensor map walks its tensor: the driver entry point that encodes
/// it and the TMA copy mode of the kernels that read through it.
enum class TensorMapMode : uint32_t {
  Tiled = 0,  ///< boxes of `box` (cuTensorMapEncodeTiled)
  Im2col = 1, ///< im2col columns of an NHWC-like tensor
              ///< (cuTensorMapEncodeIm2col), for implicit-GEMM convolution
};

/// A TMA tensor map over a tensor, encoded by the runtime at run time and
/// passed by value before the launch's pointer arguments.
///
/// An im2col map reads `pixelsPerColumn` pixels of `channelsPerPixel`
/// channels each; its dims are {C, W, H, N} innermost first for an NHWC
/// tensor (rank 3 to 5), and the corners bound the pixels a filter's
/// top-left tap visits in the spatial dims (dims[1..rank-2], innermost
/// first: {W, H} for NHWC). For padding p, filter extent k and dilation d
/// in a dimension, lower = -p and upper = p - (k - 1) * d.
struct TensorMap {
  uint32_t tensor = 0;           ///< index into `tensors`
  uint64_t offset = 0;           ///< byte offset of element 0 (multiple of 16)
  std::vector<uint64_t> dims;    ///< elements per dimension, innermost first
                                 ///< (rank 1..5; im2col 3..5)
  std::vector<uint64_t> strides; ///< byte strides of dims[1..] (rank - 1
                                 ///< entries, multiples of 16)
  std::vector<uint32_t> box;     ///< tiled: box extent per dimension
                                 ///< (1..256); im2col: empty
  uint32_t swizzle = 0;          ///< 0, 32, 64 or 128 (bytes)
  TensorMapMode mode = TensorMapMode::Tiled;
  std::vector<int32_t> lowerCorner; ///< im2col: rank - 2 offsets, innermost
  std::vector<int32_t> upperCorner; ///< spatial dim first; tiled: empty
  uint32_t channelsPerPixel = 0;    ///< im2col: 1..256; tiled: 0
  uint32_t pixelsPerColumn = 0;     ///< im2col: 1..1024; tiled: 0
  /// Traversal step per dimension (1..8): `rank` entries, or none for all 1.
  std::vector<uint32_t> elementStrides;
  /// Empty for fixed extents; else one entry per dimension, innermost
  /// first: -1 where `dims` holds it, or the index into `Artifact::exprs`
  /// of its extent (`dims` then holds the largest). The runtime encodes
  /// the map again at each shape.
  std::vector<int32_t> dimExprs;
};

/// When a launch goes as a programmatic dependent of the one before it.
enum class Programmatic : uint8_t {
  never = 0,
  always = 1,
  /// At the shapes where its grid and that of the kernel launched before it
  /// each have at most as many blocks as the device has multiprocessors.
  inOneWave = 2,
  /// At the shapes where its grid's blocks and those of the kernel launched
  /// before it together are at most the device's multiprocessors: each of
  /// its blocks has a multiprocessor that kernel leaves idle.
  fitting = 3,
};

/// One launch: the kernel's parameters are its tensor maps (128-byte
/// CUtensorMap values), then one device address per tensor of `args`, then
/// one i64 per expression of `scalars`, then the error record's address.
struct Launch {
  uint32_t kernel = 0; ///< index into `kernels`
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t sharedBytes = 0;
  std::vector<uint32_t> args;  ///< indices into `tensors`
  std::vector<TensorMap> maps; ///< tensor-map parameters, passed first
  /// Whether the runtime launches it as a programmatic dependent of the
  /// grid before it in the stream, so that its blocks are placed during
  /// that grid's last wave instead of after it. The kernel waits for that
  /// grid itself (griddepcontrol.wait, sm_90+) before touching memory.
  Programmatic programmatic = Programmatic::never;
  /// The kernel checks the indices it reads and takes the context's
  /// `ErrorRecord` as its last parameter, after `args` and `scalars`.
  bool errorRecord = false;
  /// Per grid dimension: -1 where `grid` holds it, else the index into
  /// `Artifact::exprs` of its extent (`grid` then holds the largest).
  int32_t gridExprs[3] = {-1, -1, -1};
  /// Indices into `Artifact::exprs` of the kernel's i64 parameters that
  /// follow `args`: the extents it reads at run time.
  std::vector<uint32_t> scalars;
  /// -1, or the index into `Artifact::exprs` of the extent that picks this
  /// launch: it runs at the shapes where that extent lies in [guardMin,
  /// guardMax], and not at the others (one kernel of several, each for a
  /// range of a product's rows).
  int32_t guardExpr = -1;
  uint64_t guardMin = 0, guardMax = 0;
};

/// A device-to-device copy (an output that aliases an input or a weight).
struct Copy {
  uint32_t src = 0, dst = 0; ///< indices into `tensors`
};

/// A step of the plan: a launch or a copy.
struct Step {
  enum class Kind : uint32_t { Launch = 0, Copy = 1 } kind = Kind::Launch;
  uint32_t index = 0; ///< into `launches` or `copies`
};

/// An index check of a kernel (brrr-check-indices): what the runtime's
/// message names when the check fails.
struct IndexCheck {
  std::string node; ///< the ONNX node ("" when the model names none)
  std::string op;   ///< the index op, by its ONNX name: "Gather",
                    ///< "ScatterND", ... (the node may be larger: a loss)
};

/// What a checking kernel writes when an index it reads lies outside
/// [-extent, extent): one record per context, in host memory the device
/// writes to, cleared by the runtime once it has reported it. The first
/// thread to move `state` from kRecordClear to kRecordWriting (an atomic
/// compare-and-swap) fills the record and then stores kRecordWritten with
/// release semantics; every later failure leaves it alone.
struct ErrorRecord {
  uint32_t state;
  uint32_t check; ///< index into `Artifact::checks`
  uint32_t axis;  ///< the dimension of the indexed tensor
  uint32_t reserved;
  int64_t value;  ///< the index as the model gave it
  int64_t extent; ///< that dimension's size
};
constexpr uint32_t kRecordClear = 0, kRecordWriting = 1, kRecordWritten = 2;

struct Artifact {
  std::string target;    ///< "sm_90a", "sm_80"
  uint32_t smMajor = 9;  ///< the card must have this compute capability
  uint32_t smMinor = 0;  ///< (sm_80 PTX also JIT-compiles on newer cards)
  bool exactArch = true; ///< true for "a" targets (sm_90a): cubin only
  std::string ptx;
  std::vector<uint8_t> cubin;
  std::vector<Kernel> kernels;
  std::vector<Tensor> tensors;
  std::vector<uint32_t> inputs;  ///< tensor indices, in signature order
  std::vector<uint32_t> outputs; ///< tensor indices, in signature order
  std::vector<Launch> launches;
  std::vector<Copy> copies;
  std::vector<Step> steps;
  std::vector<IndexCheck> checks; ///< by the id the kernels record
  std::vector<Symbol> symbols;    ///< the dimensions a run binds
  std::vector<Expr> exprs;        ///< extents over `symbols`
  uint64_t arenaBytes = 0;
  /// The weight block. The compiler and tests fill `weights`; deserialize()
  /// leaves it empty and points `weightData` into the image instead, or at
  /// the weights it is given for an image whose weights are stored apart.
  std::vector<uint8_t> weights;
  const uint8_t *weightData = nullptr;
  uint64_t weightSize = 0;

  /// The weight block, wherever it is.
  const uint8_t *weightBytes() const {
    return weights.empty() ? weightData : weights.data();
  }
  uint64_t weightCount() const {
    return weights.empty() ? weightSize : weights.size();
  }
};

/// The last bytes of a model.so whose weights are appended to it: the
/// weight block lies at [offset, offset + size) of the file, `offset` a
/// multiple of kWeightsAlignment, and this trailer follows it directly, at
/// the file's end. Little-endian, kWeightsTrailerBytes bytes.
struct WeightsTrailer {
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t id = 0; ///< weightsId() of the block
};
constexpr char kWeightsMagic[8] = {'B', 'R', 'R', 'R', 'W', 'T', 'S', '\0'};
constexpr uint64_t kWeightsAlignment = 4096;
constexpr size_t kWeightsTrailerBytes = 8 + 3 * 8;

/// Encodes and decodes a trailer (magic, offset, size, id); decode returns
/// false for bytes without the magic.
std::vector<uint8_t> encodeTrailer(const WeightsTrailer &t);
bool decodeTrailer(const uint8_t *bytes, WeightsTrailer &out);

/// Identifies a weight block of `size` bytes cheaply, from its size and a
/// sample of its bytes (the first and last MiB and 64 blocks of 4 KiB spread
/// over it, FNV-1a): what tells a model's own weights from another
/// compile's, or from a file cut short, at open without reading gigabytes.
/// `read(offset, length, out)` copies bytes of the block.
uint64_t
weightsId(uint64_t size,
          const std::function<void(uint64_t, uint64_t, uint8_t *)> &read);
uint64_t weightsId(const uint8_t *data, uint64_t size);

/// Serializes `a` into an image.
std::vector<uint8_t> serialize(const Artifact &a);

/// The image of `a` up to its weights, which come last: appending
/// `weightBytes` bytes of weights (ignoring `a.weights`) completes it. The
/// compiler streams multi-gigabyte weights this way instead of copying them.
/// With `apartId`, the image of `a` with its weights stored apart
/// (kFlagWeightsApart), complete as it is.
std::vector<uint8_t> serializeHead(const Artifact &a, uint64_t weightBytes,
                                   std::optional<uint64_t> apartId = {});

/// Parses and validates an image: magic, version, lengths, every index in
/// range, every Weight/Arena tensor inside its block, tensor sizes equal to
/// dims x dtype, every tensor map encodable and inside its tensor. On
/// failure returns false with a message in `error`.
///
/// The weights are not copied: `out.weightData` points into `data`. An
/// image whose weights are stored apart needs `apart`, the block it names
/// (its size and weightsId() are checked); without it, it is refused.
struct ApartWeights {
  const uint8_t *data = nullptr;
  uint64_t size = 0;
  /// The open file `data` maps, and where in it they begin, for reading
  /// them with pread rather than through the mapping's page faults; -1 when
  /// there is none. Only the upload reads them; deserialize ignores them.
  int fd = -1;
  uint64_t fileOffset = 0;
};
bool deserialize(const uint8_t *data, size_t size, Artifact &out,
                 std::string &error, const ApartWeights *apart = nullptr);

/// The header's flags of an image (0 when it is too short to have them).
uint32_t imageFlags(const uint8_t *data, size_t size);

/// For an image whose weights are stored apart, the weight block's size as
/// the image states it (its last fields but the id), to find the block by;
/// nullopt for any other image. deserialize() checks it with the rest.
std::optional<uint64_t> apartWeightSize(const uint8_t *data, size_t size);

} // namespace brrr::artifact

#endif // BRRR_RUNTIME_ARTIFACT_H
