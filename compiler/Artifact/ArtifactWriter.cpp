//===- ArtifactWriter.cpp - planned brrr IR -> model.so ------------------===//
//
// Turns @main after code generation into the launch plan: a tensor table
// (inputs, outputs, weights, arena buffers, and reshape views that share
// their root's memory), one launch per fusion in program order with the TMA
// tensor maps its kernel takes, and copies for outputs that are not written
// by a kernel directly. Weights are gathered into one block at the offsets
// the memory plan chose.
//
//===----------------------------------------------------------------------===//

#include "compiler/Artifact/ArtifactWriter.h"
#include "compiler/CodeGen/KernelCost.h"

#include "passes/Analysis.h"
#include "runtime/ArtifactValidate.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::brrr;
namespace art = ::brrr::artifact;

namespace {

FailureOr<art::DType> dtypeOf(Location loc, Type t) {
  if (t.isF32())
    return art::DType::F32;
  if (t.isF16())
    return art::DType::F16;
  if (t.isBF16())
    return art::DType::BF16;
  if (t.isF64())
    return art::DType::F64;
  if (t.isInteger(1))
    return art::DType::Bool;
  // Float8 values are bytes to the runtime: the weights and intermediates
  // of 8-bit products (a model's inputs and outputs cannot be float8).
  if (isa<Float8E4M3FNType>(t))
    return art::DType::U8;
  if (auto it = dyn_cast<IntegerType>(t)) {
    bool u = it.isUnsigned();
    switch (it.getWidth()) {
    case 8:
      return u ? art::DType::U8 : art::DType::I8;
    case 16:
      return u ? art::DType::U16 : art::DType::I16;
    case 32:
      return u ? art::DType::U32 : art::DType::I32;
    case 64:
      return u ? art::DType::U64 : art::DType::I64;
    default:
      break;
    }
  }
  return emitError(loc) << "element type " << t
                        << " has no runtime representation";
}

/// A constant's bytes in the weight block at `offset`: a weight blob's own
/// bytes, or the little-endian bytes of an inline constant (bools one byte
/// each, splats expanded).
FailureOr<WeightSlice> weightSlice(ConstantOp c, uint64_t offset) {
  auto type = c.getType();
  int64_t bytes = bufferBytes(type);
  WeightSlice slice;
  slice.offset = offset;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(c.getValue())) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || static_cast<int64_t>(blob->getData().size()) != bytes)
      return c.emitOpError("weight blob is missing or has the wrong size");
    slice.blob = llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(blob->getData().data()), bytes);
    return slice;
  }
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!dense)
    return c.emitOpError("unsupported constant attribute");
  std::vector<uint8_t> &out = slice.owned;
  out.resize(bytes);
  if (type.getElementType().isInteger(1)) {
    int64_t i = 0;
    for (bool v : dense.getValues<bool>())
      out[i++] = v;
  } else if (dense.isSplat()) {
    ArrayRef<char> raw = dense.getRawData();
    int64_t width = elementBytes(type.getElementType());
    for (int64_t i = 0; i < type.getNumElements(); ++i)
      std::memcpy(out.data() + i * width, raw.data(), width);
  } else {
    std::memcpy(out.data(), dense.getRawData().data(), bytes);
  }
  return slice;
}

std::string exprText(AffineExpr e) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << e;
  return text;
}

/// The artifact's expression table: each distinct extent once, in postfix.
class Expressions {
public:
  explicit Expressions(art::Artifact &a) : a(a) {}

  /// The index of `e` (an affine expression of the module's symbols) in the
  /// table, adding it the first time.
  FailureOr<uint32_t> indexOf(AffineExpr e, Location loc) {
    auto [it, inserted] = index.try_emplace(e, uint32_t(a.exprs.size()));
    if (!inserted)
      return it->second;
    art::Expr out;
    if (failed(append(e, out, loc))) {
      index.erase(e);
      return failure();
    }
    a.exprs.push_back(std::move(out));
    return it->second;
  }

private:
  LogicalResult append(AffineExpr e, art::Expr &out, Location loc) {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      out.terms.push_back({art::ExprOp::Constant, c.getValue()});
      return success();
    }
    if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
      if (s.getPosition() >= a.symbols.size())
        return emitError(loc) << "extent " << exprText(e) << " names symbol s"
                              << s.getPosition() << " of " << a.symbols.size();
      out.terms.push_back({art::ExprOp::Symbol, int64_t(s.getPosition())});
      return success();
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return emitError(loc)
             << "extent " << exprText(e) << " is not an expression of symbols";
    art::ExprOp op;
    switch (e.getKind()) {
    case AffineExprKind::Add:
      op = art::ExprOp::Add;
      break;
    case AffineExprKind::Mul:
      op = art::ExprOp::Mul;
      break;
    case AffineExprKind::FloorDiv:
      op = art::ExprOp::FloorDiv;
      break;
    case AffineExprKind::CeilDiv:
      op = art::ExprOp::CeilDiv;
      break;
    case AffineExprKind::Mod:
      op = art::ExprOp::Mod;
      break;
    default:
      return emitError(loc)
             << "extent " << exprText(e) << " is not an expression of symbols";
    }
    if (failed(append(bin.getLHS(), out, loc)) ||
        failed(append(bin.getRHS(), out, loc)))
      return failure();
    out.terms.push_back({op, 0});
    return success();
  }

  art::Artifact &a;
  DenseMap<AffineExpr, uint32_t> index;
};

/// Reads the TMA tensor maps the code generator recorded on `fusion`
/// (`brrr.tensor_maps`) into `launch.maps`: an array of dictionaries
///   {input = i64 (into the fusion's inputs), offset = i64 (bytes),
///    dims = array<i64> (innermost first), strides = array<i64> (bytes of
///    dims[1..]), swizzle = i64 (bytes),
///    element_strides = array<i64> (optional, one per dim; absent: all 1),
///    mode = "im2col" (optional; absent: a tiled map), and then
///    for a tiled map: box = array<i64>;
///    for an im2col map: lower = array<i64>, upper = array<i64> (the
///    corners, one per spatial dim innermost first, may be negative),
///    channels = i64 (channels per pixel), pixels = i64 (pixels per
///    column),
///    extents = affine map of the module's symbols (optional: one result
///    per dim, innermost first, a constant where fixed; `dims` holds the
///    largest)}
/// Each map is checked against the rules the runtime checks when it loads
/// the model, so that a map the driver cannot encode is a compile error.
LogicalResult readTensorMaps(FusionOp fusion, const art::Artifact &a,
                             const DenseMap<Value, uint32_t> &tensorOf,
                             Expressions &exprs, art::Launch &launch) {
  Attribute attr = fusion->getAttr("brrr.tensor_maps");
  if (!attr)
    return success();
  auto maps = dyn_cast<ArrayAttr>(attr);
  if (!maps)
    return fusion.emitOpError("brrr.tensor_maps must be an array of "
                              "dictionaries, got ")
           << attr;
  for (auto [i, entry] : llvm::enumerate(maps)) {
    std::string at = "brrr.tensor_maps[" + std::to_string(i) + "]";
    auto dict = dyn_cast<DictionaryAttr>(entry);
    if (!dict)
      return fusion.emitOpError(at) << " must be a dictionary, got " << entry;
    auto integer = [&](StringRef key, int64_t max,
                       int64_t &out) -> LogicalResult {
      auto v = dict.getAs<IntegerAttr>(key);
      if (!v)
        return fusion.emitOpError(at) << " needs an integer '" << key << "'";
      const APInt &value = v.getValue();
      if (value.getSignificantBits() > 64 || value.getSExtValue() < 0 ||
          value.getSExtValue() > max) {
        SmallString<24> text;
        value.toStringSigned(text);
        return fusion.emitOpError(at) << " has " << key << " = " << text
                                      << ", outside [0, " << max << "]";
      }
      out = value.getSExtValue();
      return success();
    };
    auto array = [&](StringRef key, int64_t min, int64_t max,
                     SmallVectorImpl<int64_t> &out) -> LogicalResult {
      auto v = dict.getAs<DenseI64ArrayAttr>(key);
      if (!v)
        return fusion.emitOpError(at)
               << " needs a DenseI64ArrayAttr '" << key << "'";
      for (int64_t x : v.asArrayRef()) {
        if (x < min || x > max)
          return fusion.emitOpError(at)
                 << " has " << key << " element " << x << ", outside [" << min
                 << ", " << max << "]";
        out.push_back(x);
      }
      return success();
    };
    // The keys of the other mode are errors rather than ignored, so that a
    // code generator that mixes the modes up hears of it.
    auto absent = [&](StringRef key, StringRef mode) -> LogicalResult {
      if (dict.get(key))
        return fusion.emitOpError(at)
               << " is a " << mode << " map and takes no '" << key << "'";
      return success();
    };
    bool im2col = false;
    if (Attribute mode = dict.get("mode")) {
      auto name = dyn_cast<StringAttr>(mode);
      if (!name || name.getValue() != "im2col")
        return fusion.emitOpError(at)
               << " has mode " << mode
               << "; expected \"im2col\" (or no mode for a tiled map)";
      im2col = true;
    }
    int64_t input = 0, offset = 0, swizzle = 0, channels = 0, pixels = 0;
    SmallVector<int64_t> dims, strides, box, lower, upper, elementStrides;
    int64_t numInputs = fusion.getInputs().size();
    if (numInputs == 0)
      return fusion.emitOpError(at) << " names an input, but the fusion has "
                                       "none";
    if (failed(integer("input", numInputs - 1, input)) ||
        failed(integer("offset", INT64_MAX, offset)) ||
        failed(array("dims", 0, INT64_MAX, dims)) ||
        failed(array("strides", 0, INT64_MAX, strides)) ||
        failed(integer("swizzle", UINT32_MAX, swizzle)))
      return failure();
    if (dict.get("element_strides") &&
        failed(array("element_strides", 0, UINT32_MAX, elementStrides)))
      return failure();
    if (im2col) {
      if (failed(absent("box", "im2col")) ||
          failed(array("lower", INT32_MIN, INT32_MAX, lower)) ||
          failed(array("upper", INT32_MIN, INT32_MAX, upper)) ||
          failed(integer("channels", UINT32_MAX, channels)) ||
          failed(integer("pixels", UINT32_MAX, pixels)))
        return failure();
    } else {
      for (StringRef key : {"lower", "upper", "channels", "pixels"})
        if (failed(absent(key, "tiled")))
          return failure();
      if (failed(array("box", 0, UINT32_MAX, box)))
        return failure();
    }
    art::TensorMap m;
    m.tensor = tensorOf.lookup(fusion.getInputs()[input]);
    m.offset = offset;
    m.dims.assign(dims.begin(), dims.end());
    m.strides.assign(strides.begin(), strides.end());
    m.box.assign(box.begin(), box.end());
    m.swizzle = swizzle;
    m.mode = im2col ? art::TensorMapMode::Im2col : art::TensorMapMode::Tiled;
    m.lowerCorner.assign(lower.begin(), lower.end());
    m.upperCorner.assign(upper.begin(), upper.end());
    m.channelsPerPixel = channels;
    m.pixelsPerColumn = pixels;
    m.elementStrides.assign(elementStrides.begin(), elementStrides.end());
    // Symbolic extents (one per dimension, innermost first), the largest of
    // which `dims` holds.
    if (Attribute e = dict.get("extents")) {
      auto map = dyn_cast<AffineMapAttr>(e);
      if (!map || map.getValue().getNumResults() != dims.size())
        return fusion.emitOpError(at)
               << " has extents " << e << "; expected a map with one result "
               << "per dimension";
      for (AffineExpr d : map.getValue().getResults()) {
        if (isa<AffineConstantExpr>(d)) {
          m.dimExprs.push_back(-1);
          continue;
        }
        FailureOr<uint32_t> i = exprs.indexOf(d, fusion.getLoc());
        if (failed(i))
          return failure();
        m.dimExprs.push_back(int32_t(*i));
      }
    }
    std::string error;
    if (!art::validateTensorMap(a, m, at, error))
      return fusion.emitOpError(error);
    launch.maps.push_back(std::move(m));
  }
  return success();
}

/// The expressions of map attribute `name` on `fusion` (one per result),
/// as indices into the table; none when it is absent.
FailureOr<SmallVector<uint32_t>> mapExprs(FusionOp fusion, StringRef name,
                                          Expressions &exprs) {
  SmallVector<uint32_t> out;
  auto map = fusion->getAttrOfType<AffineMapAttr>(name);
  if (!map)
    return out;
  for (AffineExpr e : map.getValue().getResults()) {
    FailureOr<uint32_t> i = exprs.indexOf(e, fusion.getLoc());
    if (failed(i))
      return failure();
    out.push_back(*i);
  }
  return out;
}

} // namespace

LogicalResult mlir::brrr::checkCodeGenSupport(ModuleOp module) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return module.emitError("no func.func @main");
  bool ok = true;
  for (Operation &op : main.getBody().front()) {
    if (isa<FusionOp, ConstantOp, func::ReturnOp>(op) || isView(&op))
      continue;
    op.emitError("no GPU kernel family handles '")
        << op.getName()
        << "' yet (kernels exist for pointwise ops, softmax, "
           "log-softmax, layer norm, reductions, transpose, slice, expand, "
           "gather, scatter, concat, pad, resize, f16/bf16/f32 and 8-bit "
           "matmul and 2-D convolution, and 2-D max and average pooling)";
    ok = false;
  }
  return success(ok);
}

FailureOr<ModelImage> mlir::brrr::buildArtifact(ModuleOp module,
                                                TargetAttr target,
                                                CompiledKernels kernels) {
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return module.emitError("no func.func @main");
  ModelImage image;
  art::Artifact &a = image.artifact;
  a.target = target.getChip().str();
  a.smMajor = target.getCapability() / 10;
  a.smMinor = target.getCapability() % 10;
  a.exactArch = target.has(TargetFeature::arch_specific);
  a.ptx = std::move(kernels.ptx);
  a.cubin = std::move(kernels.cubin);
  if (auto arena = main->getAttrOfType<IntegerAttr>("brrr.arena_bytes"))
    a.arenaBytes = arena.getInt();
  if (auto w = main->getAttrOfType<IntegerAttr>("brrr.weight_bytes"))
    image.weightBytes = w.getInt();
  SmallVector<DimAttr> dims = dimsOf(module);
  for (DimAttr d : dims)
    a.symbols.push_back({d.getName().str(), d.getMin(), d.getMax()});
  Expressions exprs(a);

  DenseMap<Value, uint32_t> tensorOf;
  auto addTensor = [&](Value v, std::string name, art::Storage storage,
                       uint64_t index, uint64_t offset) -> FailureOr<uint32_t> {
    auto type = cast<RankedTensorType>(v.getType());
    if (isa<Float8E4M3FNType>(type.getElementType()) &&
        (storage == art::Storage::Input || storage == art::Storage::Output))
      return emitError(v.getLoc())
             << "model "
             << (storage == art::Storage::Input ? "input" : "output") << " '"
             << name
             << "' is float8 (E4M3FN), which the runtime does not take or "
                "return; cast it to or from float16 in the model";
    auto dtype = dtypeOf(v.getLoc(), type.getElementType());
    if (failed(dtype))
      return failure();
    art::Tensor t;
    t.name = std::move(name);
    t.dtype = *dtype;
    // A symbolic tensor: its largest shape, and an expression per symbolic
    // dimension.
    RankedTensorType largest = largestTypeOf(type, dims);
    if (!largest)
      return emitError(v.getLoc())
             << "the extents of " << type << " have no largest value";
    t.dims.assign(largest.getShape().begin(), largest.getShape().end());
    if (isSymbolic(type))
      for (auto [d, e] : llvm::enumerate(extentsOf(type))) {
        if (!type.isDynamicDim(d)) {
          t.dimExprs.push_back(-1);
          continue;
        }
        FailureOr<uint32_t> i = exprs.indexOf(e, v.getLoc());
        if (failed(i))
          return failure();
        t.dimExprs.push_back(int32_t(*i));
      }
    t.storage = storage;
    t.index = index;
    t.offset = offset;
    t.bytes = bufferBytes(largest);
    a.tensors.push_back(std::move(t));
    return a.tensors.size() - 1;
  };

  Block &body = main.getBody().front();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto name = main.getArgAttrOfType<StringAttr>(i, "brrr.name");
    auto t = addTensor(arg, name ? name.str() : "input" + std::to_string(i),
                       art::Storage::Input, i, 0);
    if (failed(t))
      return failure();
    tensorOf[arg] = *t;
    a.inputs.push_back(*t);
  }

  auto ret = cast<func::ReturnOp>(body.getTerminator());
  auto outputName = [&](unsigned i) {
    auto name = main.getResultAttrOfType<StringAttr>(i, "brrr.name");
    return name ? name.str() : "output" + std::to_string(i);
  };
  // The output buffer each returned buffer was planned into: the first
  // return of it, directly or through views (as the planner does).
  DenseMap<Value, unsigned> firstReturn;
  for (auto [i, v] : llvm::enumerate(ret.getOperands()))
    firstReturn.try_emplace(viewedRootOf(v), i);

  std::map<std::string, uint32_t> kernelIndex;
  for (Operation &op : body.without_terminator()) {
    if (auto c = dyn_cast<ConstantOp>(op)) {
      if (c.use_empty())
        continue;
      auto mem = c->getAttrOfType<ArrayAttr>(kMemoryPlanAttrName);
      auto place = mem && mem.size() == 1 ? dyn_cast<PlacementAttr>(mem[0])
                                          : PlacementAttr();
      if (!place || place.getStorage() != BufferStorage::weight)
        return c.emitOpError("has no memory plan of one weight placement");
      int64_t offset = place.getOffset();
      auto slice = weightSlice(c, offset);
      if (failed(slice))
        return failure();
      if (offset < 0 || offset + slice->bytes().size() > image.weightBytes)
        return c.emitOpError("weight lies outside the planned weight block");
      image.weights.push_back(std::move(*slice));
      auto t =
          addTensor(c.getResult(), "weight", art::Storage::Weight, 0, offset);
      if (failed(t))
        return failure();
      tensorOf[c.getResult()] = *t;
      continue;
    }
    if (isView(&op)) {
      // The viewed tensor's memory, at the view's extents.
      const art::Tensor root = a.tensors[tensorOf.lookup(op.getOperand(0))];
      auto t = addTensor(op.getResult(0), root.name, root.storage, root.index,
                         root.offset);
      if (failed(t))
        return failure();
      tensorOf[op.getResult(0)] = *t;
      continue;
    }
    auto fusion = cast<FusionOp>(op);
    // One placement a result (the fusion's verifier).
    auto mem = fusion->getAttrOfType<ArrayAttr>(kMemoryPlanAttrName);
    auto kernel = fusion->getAttrOfType<StringAttr>("brrr.kernel");
    if (!mem || !kernel)
      return fusion.emitOpError("has no memory plan or kernel");
    art::Launch launch;
    for (Value in : fusion.getInputs())
      launch.args.push_back(tensorOf.lookup(in));
    for (auto [k, r] : llvm::enumerate(fusion.getResults())) {
      auto place = cast<PlacementAttr>(mem[k]);
      FailureOr<uint32_t> t = failure();
      if (place.getStorage() == BufferStorage::weight)
        return fusion.emitOpError("places a result among the weights");
      if (place.getStorage() == BufferStorage::output)
        t = addTensor(r, outputName(firstReturn.lookup(r)),
                      art::Storage::Output, firstReturn.lookup(r), 0);
      else
        t = addTensor(r, "intermediate", art::Storage::Arena, 0,
                      place.getOffset());
      if (failed(t))
        return failure();
      tensorOf[r] = *t;
      launch.args.push_back(*t);
    }
    // A stream-K kernel's workspace follows its results: its partial
    // tiles (f32) and its flags (i32), in the arena.
    if (auto workspace = fusion->getAttrOfType<ArrayAttr>(kWorkspaceAttrName)) {
      if (workspace.size() != 2)
        return fusion.emitOpError(kWorkspaceAttrName)
               << " holds " << workspace.size() << " placements, not 2";
      for (auto [k, entry] : llvm::enumerate(workspace)) {
        auto place = dyn_cast<PlacementAttr>(entry);
        if (!place || place.getStorage() != BufferStorage::arena ||
            place.getBytes() % 4 || place.getOffset() < 0 ||
            uint64_t(place.getOffset() + place.getBytes()) > a.arenaBytes)
          return fusion.emitOpError(kWorkspaceAttrName)
                 << " places its buffers outside the arena";
        art::Tensor t;
        t.name = k == 0 ? "stream-k partials" : "stream-k flags";
        t.dtype = k == 0 ? art::DType::F32 : art::DType::I32;
        t.dims = {place.getBytes() / 4};
        t.storage = art::Storage::Arena;
        t.offset = place.getOffset();
        t.bytes = place.getBytes();
        a.tensors.push_back(std::move(t));
        launch.args.push_back(a.tensors.size() - 1);
      }
    }
    // The kernel, its launch shape and its parameters, from the fusion's
    // attributes (those of its kernels for ranges of rows are set in turn).
    auto describe = [&](art::Launch &launch) -> LogicalResult {
      if (failed(readTensorMaps(fusion, a, tensorOf, exprs, launch)))
        return failure();
      auto kernel = fusion->getAttrOfType<StringAttr>("brrr.kernel");
      auto [it, inserted] =
          kernelIndex.try_emplace(kernel.str(), a.kernels.size());
      if (inserted) {
        art::Kernel k;
        k.name = kernel.str();
        if (auto f = fusion->getAttrOfType<IntegerAttr>("brrr.flops"))
          k.flops = f.getInt();
        if (auto b = fusion->getAttrOfType<IntegerAttr>("brrr.bytes"))
          k.bytes = b.getInt();
        FailureOr<SmallVector<uint32_t>> cost =
            mapExprs(fusion, kRooflineExtentsAttrName, exprs);
        if (failed(cost))
          return failure();
        if (!cost->empty()) {
          if (cost->size() != 2)
            return fusion.emitOpError(kRooflineExtentsAttrName)
                   << " has " << cost->size() << " results, not 2";
          k.flopsExpr = int32_t((*cost)[0]);
          k.bytesExpr = int32_t((*cost)[1]);
        }
        a.kernels.push_back(k);
      }
      launch.kernel = it->second;
      auto grid = fusion->getAttrOfType<DenseI64ArrayAttr>("brrr.grid");
      auto block = fusion->getAttrOfType<DenseI64ArrayAttr>("brrr.block");
      for (int d = 0; d < 3; ++d) {
        launch.grid[d] = grid[d];
        launch.block[d] = block[d];
      }
      FailureOr<SmallVector<uint32_t>> gridExprs =
          mapExprs(fusion, kGridExtentsAttrName, exprs);
      FailureOr<SmallVector<uint32_t>> scalars =
          mapExprs(fusion, kScalarsAttrName, exprs);
      if (failed(gridExprs) || failed(scalars))
        return failure();
      if (!gridExprs->empty() && gridExprs->size() != 3)
        return fusion.emitOpError("brrr.grid_extents has ")
               << gridExprs->size() << " results, not 3";
      for (auto [d, e] : llvm::enumerate(*gridExprs))
        launch.gridExprs[d] = int32_t(e);
      launch.scalars.assign(scalars->begin(), scalars->end());
      if (auto shared =
              fusion->getAttrOfType<SharedPlanAttr>(kSharedPlanAttrName))
        launch.sharedBytes = shared.getBytes();
      launch.programmatic = fusion->hasAttr("brrr.programmatic")
                                ? art::Programmatic::always
                            : fusion->hasAttr(kProgrammaticInOneWaveAttrName)
                                ? art::Programmatic::inOneWave
                            : fusion->hasAttr(kProgrammaticFittingAttrName)
                                ? art::Programmatic::fitting
                                : art::Programmatic::never;
      return success();
    };
    // Kernels for ranges of a product's rows (kLaunchVariantsAttrName), in
    // ascending order, each guarded by its range; the fusion's own kernel
    // takes the rows above the last.
    SmallVector<art::Launch> variants;
    uint64_t rowsFrom = 0;
    int32_t rowsExpr = -1;
    if (auto launches =
            fusion->getAttrOfType<ArrayAttr>(kLaunchVariantsAttrName)) {
      auto rows = fusion->getAttrOfType<AffineMapAttr>(kVariantRowsAttrName);
      if (!rows || rows.getValue().getNumResults() != 1)
        return fusion.emitOpError("has kernels for ranges of rows but no ")
               << kVariantRowsAttrName;
      FailureOr<uint32_t> e =
          exprs.indexOf(rows.getValue().getResult(0), fusion.getLoc());
      if (failed(e))
        return failure();
      rowsExpr = int32_t(*e);
      NamedAttrList own(fusion->getAttrDictionary());
      for (Attribute attr : launches) {
        auto entries = cast<DictionaryAttr>(attr);
        for (NamedAttribute entry : entries)
          if (entry.getName() != "rows")
            fusion->setAttr(entry.getName(), entry.getValue());
        for (StringRef name :
             {"brrr.programmatic", kProgrammaticInOneWaveAttrName.data(),
              kProgrammaticFittingAttrName.data(), "brrr.tensor_maps",
              kGridExtentsAttrName.data()})
          if (!entries.get(name))
            fusion->removeAttr(name);
        art::Launch variant = launch;
        LogicalResult described = describe(variant);
        fusion->setAttrs(own);
        if (failed(described))
          return failure();
        auto upto = cast<IntegerAttr>(entries.get("rows")).getInt();
        variant.guardExpr = rowsExpr;
        variant.guardMin = rowsFrom;
        variant.guardMax = uint64_t(upto);
        rowsFrom = uint64_t(upto) + 1;
        variants.push_back(std::move(variant));
      }
    }
    if (failed(describe(launch)))
      return failure();
    if (rowsExpr != -1) {
      launch.guardExpr = rowsExpr;
      launch.guardMin = rowsFrom;
      launch.guardMax = UINT64_MAX;
    }
    if (auto check =
            fusion->getAttrOfType<IndexCheckAttr>(kIndexCheckAttrName)) {
      // The kernel writes the check's id into the record; the table maps it
      // back to the node.
      launch.errorRecord = true;
      size_t id = size_t(check.getId());
      if (a.checks.size() <= id)
        a.checks.resize(id + 1);
      if (!a.checks[id].op.empty())
        return fusion.emitOpError("repeats index check ") << id;
      a.checks[id] = {check.getNode().str(), check.getOp().str()};
    }
    if (launch.grid[0] == 0)
      continue; // Empty output: nothing to compute.
    variants.push_back(std::move(launch));
    for (art::Launch &l : variants) {
      a.steps.push_back(
          {art::Step::Kind::Launch, static_cast<uint32_t>(a.launches.size())});
      a.launches.push_back(std::move(l));
    }
  }

  // Outputs: written by their kernel (a view of the buffer it wrote is the
  // same bytes), or copied from wherever they live.
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    uint32_t src = tensorOf.lookup(v);
    const art::Tensor &t = a.tensors[src];
    if (t.storage == art::Storage::Output && t.index == i) {
      a.outputs.push_back(src);
      continue;
    }
    auto dst = addTensor(v, outputName(i), art::Storage::Output, i, 0);
    if (failed(dst))
      return failure();
    a.outputs.push_back(*dst);
    a.steps.push_back(
        {art::Step::Kind::Copy, static_cast<uint32_t>(a.copies.size())});
    a.copies.push_back({src, *dst});
  }
  // Weights in offset order, each in its own range (the planner's), so that
  // write() streams them front to back.
  llvm::sort(image.weights, [](const WeightSlice &x, const WeightSlice &y) {
    return x.offset < y.offset;
  });
  for (size_t i = 1; i < image.weights.size(); ++i)
    if (image.weights[i].offset <
        image.weights[i - 1].offset + image.weights[i - 1].bytes().size())
      return main.emitOpError("weights overlap in the planned weight block");
  return image;
}
