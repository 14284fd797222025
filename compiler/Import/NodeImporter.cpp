//===- NodeImporter.cpp - per-node import helpers -----------------------===//
//
// Attribute access with ONNX defaults, constant inputs, checked op creation
// (infer, verify, fold), and conversion of ONNX tensors into constant
// attributes, inline or as dense_resource blobs.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"
#include "compiler/Import/OnnxImporter.h"

#include "llvm/ADT/APSInt.h"

#include "llvm/ADT/Sequence.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InterleavedRange.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstring>

using namespace mlir;

namespace mlir::brrr {

std::string NodeImporter::label() const {
  std::string domain = node.domain().empty() ? "ai.onnx" : node.domain();
  return "node '" + name + "' (" + node.op_type() + ", " + domain + " opset " +
         std::to_string(opset) + "): ";
}

InFlightDiagnostic NodeImporter::emitError() {
  return mlir::emitError(loc) << label();
}

FailureOr<Value> NodeImporter::requiredInput(unsigned i) {
  if (!hasInput(i))
    return emitError() << "missing required input #" << i;
  return input(i);
}

FailureOr<Value> NodeImporter::requiredFloatInput(unsigned i) {
  FailureOr<Value> x = requiredInput(i);
  if (failed(x))
    return failure();
  if (!isa<FloatType>(inputType(i).getElementType()))
    return emitError() << "input must be a float tensor, not " << x->getType();
  return x;
}

std::string NodeImporter::whyNotConstant(unsigned i) const {
  std::string tensor = i < static_cast<unsigned>(node.input_size())
                           ? node.input(i)
                           : std::string("?");
  if (isa<BlockArgument>(input(i)))
    return "'" + tensor +
           "' is a graph input, known only when the model runs; brrr fixes "
           "shapes and the values that set them when it compiles (make it an "
           "initializer)";
  return "'" + tensor +
         "' is computed from the model's data, not from constants and "
         "shapes alone";
}

FailureOr<SmallVector<int64_t>> NodeImporter::constInts(unsigned i,
                                                        StringRef what) {
  if (!hasInput(i))
    return emitError() << "missing input '" << what << "'";
  auto values = getConstInts(input(i));
  if (!values)
    return emitError() << "input '" << what
                       << "' must be a compile-time constant integer tensor: "
                       << whyNotConstant(i);
  return *values;
}

FailureOr<SmallVector<AffineExpr>> NodeImporter::extentInts(unsigned i,
                                                            StringRef what) {
  if (hasInput(i))
    if (auto symbolic =
            input(i).getDefiningOp<mlir::brrr::SymbolicConstantOp>())
      return llvm::to_vector(symbolic.getValue().getMap().getResults());
  auto values = constInts(i, what);
  if (failed(values))
    return failure();
  SmallVector<AffineExpr> extents;
  for (int64_t v : *values)
    extents.push_back(getAffineConstantExpr(v, getContext()));
  return extents;
}

FailureOr<SmallVector<double>> NodeImporter::constFloats(unsigned i,
                                                         StringRef what) {
  if (!hasInput(i))
    return emitError() << "missing input '" << what << "'";
  auto values = getConstFloats(input(i));
  if (!values)
    return emitError() << "input '" << what
                       << "' must be a compile-time constant: "
                       << whyNotConstant(i);
  return *values;
}

const onnx::AttributeProto *NodeImporter::attr(StringRef name) const {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

const onnx::AttributeProto *
NodeImporter::typedAttr(StringRef name,
                        onnx::AttributeProto::AttributeType type) const {
  const auto *a = attr(name);
  // Old models may leave `type` unset; the field read is then the judge.
  if (!a || a->type() == type || a->type() == onnx::AttributeProto::UNDEFINED)
    return a;
  if (!attributeError) {
    attributeError = true;
    mlir::emitError(loc) << label() << "attribute '" << name.str()
                         << "' must be "
                         << onnx::AttributeProto::AttributeType_Name(type)
                         << ", not "
                         << onnx::AttributeProto::AttributeType_Name(a->type());
  }
  return nullptr;
}

int64_t NodeImporter::attrInt(StringRef name, int64_t dflt) const {
  const auto *a = typedAttr(name, onnx::AttributeProto::INT);
  return a ? a->i() : dflt;
}

double NodeImporter::attrFloat(StringRef name, double dflt) const {
  const auto *a = typedAttr(name, onnx::AttributeProto::FLOAT);
  return a ? a->f() : dflt;
}

std::string NodeImporter::attrString(StringRef name, StringRef dflt) const {
  const auto *a = typedAttr(name, onnx::AttributeProto::STRING);
  return a ? a->s() : dflt.str();
}

std::optional<SmallVector<int64_t>>
NodeImporter::attrInts(StringRef name) const {
  const auto *a = typedAttr(name, onnx::AttributeProto::INTS);
  if (!a)
    return std::nullopt;
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

LogicalResult NodeImporter::rejectOutputsFrom(unsigned i, StringRef why) {
  for (unsigned k = i; k < numOutputs(); ++k)
    if (wantsOutput(k))
      return emitError() << "output #" << k << " is not supported: " << why;
  return success();
}

FailureOr<int64_t> NodeImporter::normalizeAxis(int64_t axis, int64_t rank) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank)
    return emitError() << "axis " << axis << " is out of range for rank "
                       << rank;
  return normalized;
}

FailureOr<int64_t> NodeImporter::inputAxis(int64_t defaultAxis) {
  int64_t rank = inputType(0).getRank();
  if (rank == 0)
    return emitError() << "expects an input of rank >= 1";
  return normalizeAxis(attrInt("axis", defaultAxis), rank);
}

FailureOr<Value> NodeImporter::finish(Operation *op, Type resultType) {
  // Inference and verification report against the op; collect their
  // messages and re-emit them once, prefixed with the ONNX node.
  std::string messages;
  LogicalResult built = success();
  {
    ScopedDiagnosticHandler capture(getContext(), [&](Diagnostic &diag) {
      if (!messages.empty())
        messages += "; ";
      messages += diag.str();
      return success();
    });
    if (!resultType) {
      SmallVector<Type> types;
      built = cast<InferTypeOpInterface>(op).inferReturnTypes(
          getContext(), loc, op->getOperands(), op->getRawDictionaryAttrs(),
          op->getPropertiesStorage(), op->getRegions(), types);
      if (succeeded(built))
        op->getResult(0).setType(types.front());
    }
    // Shapes computed from hostile constants (a tile of 2^62 copies) are
    // refused before any verifier multiplies their dimensions.
    for (Type t : op->getResultTypes()) {
      auto shaped = dyn_cast<RankedTensorType>(t);
      if (failed(built))
        break;
      if (!shaped)
        continue;
      std::string invalid =
          mlir::brrr::invalidTensorType(shaped, mlir::brrr::dimsOf(op));
      if (!invalid.empty()) {
        op->emitError() << "result type " << t << " is invalid: " << invalid;
        built = failure();
      }
    }
    if (succeeded(built))
      built = mlir::verify(op, /*verifyRecursively=*/false);
  }
  if (failed(built)) {
    StringRef name = op->getName().getStringRef();
    op->erase();
    return emitError() << "cannot build " << name << ": " << messages;
  }
  // Fold constants and identities as they are built: ONNX shape subgraphs
  // become constants here, before any node needs them as static values.
  SmallVector<OpFoldResult> folded;
  if (!isa<mlir::brrr::ConstantOp, mlir::brrr::SymbolicConstantOp>(op) &&
      succeeded(op->fold(folded)) && folded.size() == 1) {
    Value result;
    if (auto v = dyn_cast<Value>(folded.front()))
      result = v;
    else if (auto attr =
                 dyn_cast<ElementsAttr>(cast<Attribute>(folded.front())))
      result = mlir::brrr::ConstantOp::create(b, loc, attr);
    else if (auto extents = dyn_cast<mlir::brrr::ExtentsAttr>(
                 cast<Attribute>(folded.front())))
      result = mlir::brrr::SymbolicConstantOp::create(
          b, loc, op->getResult(0).getType(), extents);
    if (result) {
      op->erase();
      return result;
    }
  }
  std::string undefined = mlir::brrr::undefinedFoldReason(op);
  if (!undefined.empty())
    mlir::emitRemark(loc) << label()
                          << "not folded at compile time: " << undefined
                          << " has no defined value; the kernel computes it";
  return op->getResult(0);
}

Value NodeImporter::constant(RankedTensorType type, ArrayRef<double> values) {
  SmallVector<Attribute> attrs;
  Type et = type.getElementType();
  for (double v : values) {
    if (auto ft = dyn_cast<FloatType>(et)) {
      attrs.push_back(FloatAttr::get(ft, v));
      continue;
    }
    // Toward zero and saturating (0 for NaN): defined for any double,
    // where a cast of one outside int64 would not be.
    auto it = cast<IntegerType>(et);
    APSInt i(it.getWidth(), it.isUnsigned() || it.getWidth() == 1);
    bool exact = false;
    APFloat(v).convertToInteger(i, APFloat::rmTowardZero, &exact);
    attrs.push_back(IntegerAttr::get(et, i));
  }
  return mlir::brrr::ConstantOp::create(b, loc,
                                        DenseElementsAttr::get(type, attrs));
}

Value NodeImporter::scalar(Type elementType, double value) {
  return constant(RankedTensorType::get({}, elementType), {value});
}

Value NodeImporter::constI64(ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    b.getI64Type());
  return mlir::brrr::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(type, values));
}

FailureOr<Value> NodeImporter::reshape(Value v, ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(
      shape, cast<RankedTensorType>(v.getType()).getElementType());
  return createTyped<mlir::brrr::ReshapeOp>(type, v);
}

FailureOr<Value> NodeImporter::reshapeTo(Value v,
                                         ArrayRef<AffineExpr> extents) {
  auto type = mlir::brrr::tensorTypeOf(
      getContext(), extents,
      cast<RankedTensorType>(v.getType()).getElementType());
  return createTyped<mlir::brrr::ReshapeOp>(type, v);
}

LogicalResult NodeImporter::requireStaticBeyondBatch(unsigned i,
                                                     StringRef what) {
  RankedTensorType t = inputType(i);
  for (auto [d, extent] : llvm::enumerate(t.getShape()))
    if (ShapedType::isDynamic(extent) && d != 0)
      return emitError() << "input '" << node.input(i)
                         << "' has symbolic extents "
                         << mlir::brrr::symbolicShapeName(
                                t, mlir::brrr::dimsOf(
                                       b.getInsertionBlock()->getParentOp()))
                         << "; " << what
                         << " take a symbolic batch (dimension 0) only";
  return success();
}

FailureOr<Value> NodeImporter::expandTo(Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  return createTyped<mlir::brrr::ExpandOp>(
      RankedTensorType::get(shape, type.getElementType()), v);
}

FailureOr<Value> NodeImporter::expandToExtents(Value v,
                                               ArrayRef<AffineExpr> extents) {
  auto type = cast<RankedTensorType>(v.getType());
  auto to =
      mlir::brrr::tensorTypeOf(getContext(), extents, type.getElementType());
  if (to == type)
    return v;
  return createTyped<mlir::brrr::ExpandOp>(to, v);
}

FailureOr<Value> NodeImporter::castTo(Value v, Type et) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getElementType() == et)
    return v;
  return createTyped<mlir::brrr::CastOp>(type.clone(et), v);
}

FailureOr<Value> NodeImporter::indicesAlong(RankedTensorType t, int64_t axis) {
  // A symbolic extent counts up to its largest value, a slice of which is
  // the actual extent's indices.
  AffineExpr extent = mlir::brrr::extentsOf(t)[axis];
  auto dims = mlir::brrr::dimsOf(b.getInsertionBlock()->getParentOp());
  std::optional<std::pair<int64_t, int64_t>> range =
      extent ? mlir::brrr::rangeOf(extent, dims) : std::nullopt;
  if (!range || range->first < 0)
    return emitError() << "dimension " << axis << " of " << t
                       << " has no range to index";
  if (range->second > kMaxIndices)
    return emitError() << "dimension " << axis << " of " << t << " has "
                       << range->second
                       << " positions; at most 2^24 index constants are "
                          "built at compile time";
  Value all = constI64(llvm::to_vector(llvm::seq<int64_t>(0, range->second)));
  if (range->first != range->second) {
    auto sliced = createTyped<mlir::brrr::SliceOp>(
        mlir::brrr::tensorTypeOf(getContext(), {extent}, b.getI64Type()), all,
        ArrayRef<int64_t>{0}, ArrayRef<int64_t>{ShapedType::kDynamic},
        ArrayRef<int64_t>{1},
        mlir::brrr::extentsAttrOf(getContext(), {extent}));
    if (failed(sliced))
      return failure();
    all = *sliced;
  }
  SmallVector<AffineExpr> along(t.getRank(), b.getAffineConstantExpr(1));
  along[axis] = extent;
  return reshapeTo(all, along);
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

Type convertElementType(MLIRContext *context, int32_t onnxType) {
  Builder b(context);
  switch (onnxType) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::INT8:
    return b.getIntegerType(8);
  case onnx::TensorProto::INT16:
    return b.getIntegerType(16);
  case onnx::TensorProto::INT32:
    return b.getIntegerType(32);
  case onnx::TensorProto::INT64:
    return b.getIntegerType(64);
  case onnx::TensorProto::UINT8:
    return b.getIntegerType(8, false);
  case onnx::TensorProto::UINT16:
    return b.getIntegerType(16, false);
  case onnx::TensorProto::UINT32:
    return b.getIntegerType(32, false);
  case onnx::TensorProto::UINT64:
    return b.getIntegerType(64, false);
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  case kFloat8E4M3FN:
    return Float8E4M3FNType::get(context);
  default:
    return nullptr;
  }
}

std::string dataTypeName(int32_t t) {
  // The types of ONNX 1.14 and later, which the protobuf enum predates.
  static const char *const later[] = {
      "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ",
      "UINT4",        "INT4",           "FLOAT4E2M1"};
  if (t >= kFloat8E4M3FN && t < kFloat8E4M3FN + 7)
    return later[t - kFloat8E4M3FN];
  if (onnx::TensorProto::DataType_IsValid(t))
    return onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(t));
  return "data type " + std::to_string(t);
}

/// Appends the little-endian bytes of `value` (width bytes) to `out`.
static void appendBytes(std::vector<char> &out, uint64_t value,
                        unsigned width) {
  for (unsigned i = 0; i < width; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

ArrayRef<char> inlineTensorData(const onnx::TensorProto &t, unsigned width,
                                std::vector<char> &storage) {
  if (t.has_raw_data())
    return ArrayRef<char>(t.raw_data().data(), t.raw_data().size());
  storage.clear();
  if (t.float_data_size()) {
    for (float f : t.float_data()) {
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      appendBytes(storage, bits, 4);
    }
  } else if (t.double_data_size()) {
    for (double d : t.double_data()) {
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      appendBytes(storage, bits, 8);
    }
  } else if (t.int64_data_size()) {
    for (int64_t v : t.int64_data())
      appendBytes(storage, static_cast<uint64_t>(v), width);
  } else if (t.uint64_data_size()) {
    for (uint64_t v : t.uint64_data())
      appendBytes(storage, v, width);
  } else if (t.int32_data_size()) {
    for (int32_t v : t.int32_data())
      appendBytes(storage, static_cast<uint32_t>(v), width);
  }
  return ArrayRef<char>(storage.data(), storage.size());
}

/// Reads the bytes of a tensor stored in an external file. Only a regular
/// file whose resolved path (symbolic links followed) lies inside the
/// model's directory is read, and only within its size: a model cannot pull
/// other files of the compiling machine into its artifact, nor hang the
/// compiler on a FIFO or exhaust it on /dev/zero.
static FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
readExternal(Location loc, const onnx::TensorProto &t, StringRef baseDir) {
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const auto &kv : t.external_data()) {
    if (kv.key() == "location") {
      location = kv.value();
      continue;
    }
    if (kv.key() != "offset" && kv.key() != "length")
      continue;
    uint64_t value;
    if (StringRef(kv.value()).getAsInteger(10, value))
      return emitError(loc)
             << "tensor '" << t.name() << "': external data " << kv.key()
             << " '" << kv.value() << "' is not a non-negative integer";
    (kv.key() == "offset" ? offset : length.emplace()) = value;
  }
  auto fail = [&]() -> InFlightDiagnostic {
    return emitError(loc) << "tensor '" << t.name() << "': ";
  };
  if (location.empty())
    return fail() << "external data without a location";
  bool climbs = llvm::any_of(llvm::make_range(llvm::sys::path::begin(location),
                                              llvm::sys::path::end(location)),
                             [](StringRef part) { return part == ".."; });
  if (llvm::sys::path::is_absolute(location) || climbs)
    return fail() << "external data location '" << location
                  << "' must be a relative path inside the model's directory";
  SmallString<256> dir(baseDir.empty() ? "." : baseDir), path(dir);
  llvm::sys::path::append(path, location);
  SmallString<256> realDir, realPath;
  if (std::error_code ec = llvm::sys::fs::real_path(dir, realDir))
    return fail() << "cannot resolve the model's directory '" << dir
                  << "': " << ec.message();
  if (std::error_code ec = llvm::sys::fs::real_path(path, realPath))
    return fail() << "cannot read external data file '" << path
                  << "': " << ec.message();
  StringRef inside = realPath;
  if (!inside.consume_front(realDir) ||
      !llvm::sys::path::is_separator(inside.empty() ? '\0' : inside.front()))
    return fail() << "external data file '" << path << "' resolves to '"
                  << realPath << "', outside the model's directory '" << realDir
                  << "'";
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(realPath, status))
    return fail() << "cannot read external data file '" << path
                  << "': " << ec.message();
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return fail() << "external data file '" << path
                  << "' is not a regular file";
  uint64_t size = status.getSize();
  uint64_t len = length.value_or(size >= offset ? size - offset : 0);
  if (offset > size || len > size - offset)
    return fail() << "external data [" << offset << ", " << offset + len
                  << ") is outside file '" << path << "' of " << size
                  << " bytes";
  // Mapped, not read: weights are never copied in bulk (the blob keeps the
  // mapping). The file must not shrink while brrrc runs.
  auto buffer = llvm::MemoryBuffer::getFileSlice(realPath, len, offset,
                                                 /*IsVolatile=*/false);
  if (!buffer)
    return fail() << "cannot read external data file '" << path
                  << "': " << buffer.getError().message();
  if ((*buffer)->getBufferSize() != len)
    return fail() << "external data file '" << path << "' changed while read";
  return std::move(*buffer);
}

FailureOr<ElementsAttr> convertTensor(MLIRContext *context, Location loc,
                                      const onnx::TensorProto &t,
                                      StringRef baseDir,
                                      int64_t maxInlineElements) {
  Type et = convertElementType(context, t.data_type());
  if (!et)
    return emitError(loc) << "tensor '" << t.name() << "' has unsupported "
                          << dataTypeName(t.data_type());
  SmallVector<int64_t> shape(t.dims().begin(), t.dims().end());
  auto type = RankedTensorType::get(shape, et);
  std::string invalid = invalidTensorType(type);
  if (!invalid.empty())
    return emitError(loc) << "tensor '" << t.name() << "' of shape ["
                          << llvm::interleaved(shape)
                          << "] is invalid: " << invalid;
  int64_t numel = type.getNumElements();
  unsigned width = elementBytes(et);

  // Gather little-endian element bytes from whichever field holds them.
  // `data` views the element bytes where they lie: a mapping of the
  // external file, the protobuf's raw_data, or `bytes` filled from typed
  // fields.
  std::unique_ptr<llvm::MemoryBuffer> mapped;
  std::vector<char> bytes;
  ArrayRef<char> data;
  if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    auto ext = readExternal(loc, t, baseDir);
    if (failed(ext))
      return failure();
    mapped = std::move(*ext);
    data = ArrayRef<char>(mapped->getBufferStart(), mapped->getBufferSize());
  } else {
    data = inlineTensorData(t, width, bytes);
  }
  if (data.size() != static_cast<size_t>(numel) * width)
    return emitError(loc) << "tensor '" << t.name() << "' of shape " << type
                          << " needs " << numel * width << " bytes of data, "
                          << "found " << data.size();

  bool isShapeData = isa<IntegerType>(et) && numel <= kMaxFoldElements;
  if (numel <= maxInlineElements || isShapeData) {
    SmallVector<Attribute> values;
    for (int64_t i = 0; i < numel; ++i) {
      uint64_t bits = 0;
      std::memcpy(&bits, data.data() + i * width, width);
      if (auto ft = dyn_cast<FloatType>(et))
        values.push_back(FloatAttr::get(
            ft, APFloat(ft.getFloatSemantics(), APInt(ft.getWidth(), bits))));
      else
        values.push_back(
            IntegerAttr::get(et, APInt(et.getIntOrFloatBitWidth(), bits)));
    }
    return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
  }
  // Weights: a resource blob, printed elided, never copied into the IR text.
  std::string key = t.name().empty() ? "weight" : t.name();
  for (char &c : key)
    if (!llvm::isAlnum(c) && c != '_' && c != '.')
      c = '_';
  if (!llvm::isAlpha(key.front()) && key.front() != '_')
    key = "w_" + key;
  AsmResourceBlob blob;
  if (mapped &&
      reinterpret_cast<uintptr_t>(data.data()) % alignof(uint64_t) == 0) {
    // The blob owns the mapping: no copy of the weights is ever made.
    llvm::MemoryBuffer *owner = mapped.release();
    blob = AsmResourceBlob(
        data, alignof(uint64_t),
        [owner](void *, size_t, size_t) { delete owner; },
        /*dataIsMutable=*/false);
  } else {
    blob =
        HeapAsmResourceBlob::allocateAndCopyWithAlign(data, alignof(uint64_t));
  }
  return cast<ElementsAttr>(
      DenseResourceElementsAttr::get(type, key, std::move(blob)));
}

} // namespace mlir::brrr
