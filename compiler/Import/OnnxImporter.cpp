//===- OnnxImporter.cpp - ONNX model -> brrr IR -------------------------===//
//
// Model-level import: file loading, opset resolution, the graph signature
// with --input-shape bindings, initializers, and the node loop that
// dispatches to the op-family importers through the opset table. Import does
// not stop at the first unsupported op: the outputs of a failed node are
// marked poisoned, nodes that depend on them are only checked for support,
// and every problem is reported before the import fails.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/OnnxImporter.h"
#include "compiler/Import/NodeImporter.h"
#include "compiler/Import/OnnxCalls.h"

#include "dialects/Brrr/BrrrOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace mlir::brrr {

bool parseInputShape(StringRef text, ImportOptions &options,
                     std::string &error) {
  auto [name, dims] = text.rsplit('=');
  if (name.empty() || dims.empty() || !text.contains('=')) {
    error = "expected NAME=D0xD1x..., got '" + text.str() + "'";
    return false;
  }
  SmallVector<InputDim> shape;
  SmallVector<StringRef> parts;
  dims.split(parts, 'x');
  for (StringRef p : parts) {
    auto [lo, hi] = p.split("..");
    InputDim d;
    bool range = p.contains("..");
    if (lo.getAsInteger(10, d.min) || d.min < 0 ||
        (range && (hi.getAsInteger(10, d.max) || d.max < 0))) {
      error = "bad dimension '" + p.str() + "' in '" + text.str() + "'";
      return false;
    }
    if (!range)
      d.max = d.min;
    if (range && (d.min < 1 || d.max < d.min)) {
      error = "range '" + p.str() + "' in '" + text.str() +
              "' must start at 1 or more and not decrease";
      return false;
    }
    shape.push_back(d);
  }
  options.inputShapes[name] = shape;
  return true;
}

void registerImportDialects(MLIRContext &context) {
  context.loadDialect<mlir::brrr::BrrrDialect, func::FuncDialect>();
}

std::unique_ptr<onnx::ModelProto> loadOnnxModel(MLIRContext &context,
                                                StringRef path) {
  Location loc = FileLineColLoc::get(&context, path, 0, 0);
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                                   /*RequiresNullTerminator=*/
                                                   true);
  if (!buffer) {
    emitError(loc) << "cannot read '" << path
                   << "': " << buffer.getError().message();
    return nullptr;
  }
  return parseOnnxModel(context, (*buffer)->getBuffer(),
                        path.ends_with(".onnxtext") || path.ends_with(".txt"),
                        path);
}

std::unique_ptr<onnx::ModelProto> parseOnnxModel(MLIRContext &context,
                                                 StringRef data, bool text,
                                                 StringRef name) {
  Location loc = FileLineColLoc::get(&context, name, 0, 0);
  auto model = std::make_unique<onnx::ModelProto>();
  if (text) {
    std::string error = parseOnnxText(data, *model);
    if (!error.empty()) {
      emitError(loc) << "malformed ONNX text model: " << error;
      return nullptr;
    }
    return model;
  }
  if (data.size() > static_cast<size_t>(INT_MAX) ||
      !model->ParseFromArray(data.data(), static_cast<int>(data.size()))) {
    emitError(loc) << "'" << name
                   << "' is not a valid ONNX model (the protobuf is "
                      "malformed or truncated)";
    return nullptr;
  }
  if (!model->has_graph()) {
    emitError(loc) << "'" << name << "' holds no graph; is it an ONNX model?";
    return nullptr;
  }
  return model;
}

namespace {

/// Imports one graph into `func.func @main`.
class GraphImporter {
public:
  GraphImporter(MLIRContext &context, const onnx::ModelProto &model,
                StringRef modelPath, const ImportOptions &options)
      : context(context), model(model), modelPath(modelPath), options(options),
        builder(&context) {
    registerEinsumImporters(table);
    registerElementwiseImporters(table);
    registerGeneratorImporters(table);
    registerIndexingImporters(table);
    registerLossImporters(table);
    registerNNImporters(table);
    registerNormalizeImporters(table);
    registerQuantizeImporters(table);
    registerReduceImporters(table);
    registerResizeImporters(table);
    registerSliceImporters(table);
    registerTensorImporters(table);
  }

  OwningOpRef<ModuleOp> run();

private:
  Location fileLoc() { return FileLineColLoc::get(&context, modelPath, 0, 0); }
  LogicalResult resolveOpsets();
  FailureOr<RankedTensorType>
  valueType(const onnx::ValueInfoProto &info,
            SmallVectorImpl<std::string> &unresolved);
  LogicalResult importSignature(func::FuncOp &func);
  LogicalResult importInitializers();
  void importNode(const onnx::NodeProto &node, unsigned index);
  LogicalResult importOutputs();

  MLIRContext &context;
  const onnx::ModelProto &model;
  StringRef modelPath;
  const ImportOptions &options;
  OpBuilder builder;
  OpTable table;
  int64_t opset = 0;
  llvm::StringMap<int64_t> domainOpsets;
  llvm::StringMap<Value> values;
  llvm::StringSet<> poisoned;
  bool hadError = false;
  /// The symbolic dimensions, in the order the inputs first name them: the
  /// module's `brrr.dims`.
  SmallVector<DimAttr> symbolDims;
  /// --input-shape's bindings of named dimensions (`dim_param`), which
  /// hold for every input that names them.
  llvm::StringMap<InputDim> namedBindings;
  LogicalResult bindNamedDims();
  FailureOr<AffineExpr> symbol(StringRef name, InputDim range);
  SmallVector<Type> resultTypes;
  SmallVector<Value> resultValues;
};

LogicalResult GraphImporter::resolveOpsets() {
  for (const auto &id : model.opset_import())
    domainOpsets[id.domain()] = id.version();
  auto it = domainOpsets.find("");
  if (it == domainOpsets.end())
    it = domainOpsets.find("ai.onnx");
  if (it == domainOpsets.end()) {
    // IR version 1 and 2 models predate opset_import and mean opset 1.
    if (model.ir_version() < 3)
      opset = 1;
    else
      return emitError(fileLoc())
             << "model imports no default-domain (ai.onnx) opset";
  } else {
    opset = it->second;
  }
  if (opset > kMaxSupportedOpset)
    return emitError(fileLoc())
           << "model uses ai.onnx opset " << opset
           << "; brrr implements opsets up to " << kMaxSupportedOpset;
  return success();
}

/// An --input-shape dimension as written: "8" or "1..64".
static std::string spellDim(InputDim d) {
  return d.fixed() ? std::to_string(d.min)
                   : std::to_string(d.min) + ".." + std::to_string(d.max);
}

/// Records the extent or range --input-shape gives each named dimension of
/// the inputs it binds; one name given two values is an error.
LogicalResult GraphImporter::bindNamedDims() {
  for (const auto &in : model.graph().input()) {
    auto bound = options.inputShapes.find(in.name());
    if (bound == options.inputShapes.end() || !in.has_type() ||
        !in.type().has_tensor_type() || !in.type().tensor_type().has_shape())
      continue;
    const auto &ds = in.type().tensor_type().shape().dim();
    for (int i = 0; i < ds.size() && i < (int)bound->second.size(); ++i) {
      if (ds[i].has_dim_value() || ds[i].dim_param().empty())
        continue;
      InputDim d = bound->second[i];
      auto [it, inserted] = namedBindings.try_emplace(ds[i].dim_param(), d);
      if (!inserted && (it->second.min != d.min || it->second.max != d.max))
        return emitError(fileLoc())
               << "--input-shape gives dimension '" << ds[i].dim_param()
               << "' two values: " << spellDim(it->second) << " and "
               << spellDim(d) << " (for input '" << in.name() << "')";
    }
  }
  return success();
}

/// The symbol of the dimension `name` ranging over `range`, declared on
/// first use.
FailureOr<AffineExpr> GraphImporter::symbol(StringRef name, InputDim range) {
  for (auto [i, d] : llvm::enumerate(symbolDims))
    if (d.getName() == name) {
      if (d.getMin() != range.min || d.getMax() != range.max)
        return emitError(fileLoc())
               << "dimension '" << name << "' is given the ranges "
               << d.getMin() << ".." << d.getMax() << " and " << range.min
               << ".." << range.max;
      return getAffineSymbolExpr(i, &context);
    }
  symbolDims.push_back(DimAttr::get(&context, name, range.min, range.max));
  return getAffineSymbolExpr(symbolDims.size() - 1, &context);
}

FailureOr<RankedTensorType>
GraphImporter::valueType(const onnx::ValueInfoProto &info,
                         SmallVectorImpl<std::string> &unresolved) {
  const std::string &name = info.name();
  if (!info.has_type() || !info.type().has_tensor_type())
    return emitError(fileLoc())
           << "graph input '" << name << "' is not a tensor";
  const auto &tt = info.type().tensor_type();
  Type et = convertElementType(&context, tt.elem_type());
  if (!et)
    return emitError(fileLoc())
           << "graph input '" << name << "' has unsupported element type "
           << dataTypeName(tt.elem_type());
  auto bound = options.inputShapes.find(name);
  SmallVector<AffineExpr> extents;
  if (!tt.has_shape()) {
    if (bound == options.inputShapes.end()) {
      unresolved.push_back("input '" + name +
                           "': rank and all dimensions unknown");
      return RankedTensorType();
    }
    for (auto [i, d] : llvm::enumerate(bound->second)) {
      if (d.fixed()) {
        extents.push_back(getAffineConstantExpr(d.min, &context));
        continue;
      }
      auto s = symbol(name + "." + std::to_string(i), d);
      if (failed(s))
        return failure();
      extents.push_back(*s);
    }
    return tensorTypeOf(&context, extents, et);
  }
  const auto &dims = tt.shape().dim();
  if (bound != options.inputShapes.end() &&
      bound->second.size() != static_cast<size_t>(dims.size()))
    return emitError(fileLoc())
           << "--input-shape for '" << name << "' has rank "
           << bound->second.size() << " but the model declares rank "
           << dims.size();
  for (int i = 0; i < dims.size(); ++i) {
    const auto &dim = dims[i];
    if (dim.has_dim_value() && dim.dim_value() < 0)
      return emitError(fileLoc())
             << "graph input '" << name << "' declares dim " << i << " as "
             << dim.dim_value() << "; dimensions are never negative";
    bool known = dim.has_dim_value();
    bool named = !known && !dim.dim_param().empty();
    std::optional<InputDim> want;
    if (bound != options.inputShapes.end())
      want = bound->second[i];
    else if (auto it = namedBindings.find(named ? dim.dim_param() : "");
             named && it != namedBindings.end())
      want = it->second;
    if (known) {
      if (want && (!want->fixed() || want->min != dim.dim_value()))
        return emitError(fileLoc())
               << "--input-shape for '" << name << "' sets dim " << i << " to "
               << (want->fixed() ? "" : "the range ") << spellDim(*want)
               << " but the model fixes it to " << dim.dim_value();
      extents.push_back(getAffineConstantExpr(dim.dim_value(), &context));
    } else if (want && want->fixed()) {
      extents.push_back(getAffineConstantExpr(want->min, &context));
    } else if (want) {
      auto s = symbol(named ? dim.dim_param() : name + "." + std::to_string(i),
                      *want);
      if (failed(s))
        return failure();
      extents.push_back(*s);
    } else {
      std::string what =
          named ? "'" + dim.dim_param() + "'" : std::string("unknown");
      unresolved.push_back("input '" + name + "' dim " + std::to_string(i) +
                           " (" + what + ")");
      extents.push_back(getAffineConstantExpr(0, &context));
    }
  }
  return tensorTypeOf(&context, extents, et);
}

LogicalResult GraphImporter::importSignature(func::FuncOp &func) {
  const auto &graph = model.graph();
  llvm::StringSet<> initializers;
  for (const auto &init : graph.initializer())
    initializers.insert(init.name());

  if (failed(bindNamedDims()))
    return failure();
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames, unresolved;
  llvm::StringSet<> inputNames;
  for (const auto &in : graph.input()) {
    // Before IR version 4, initializers were also listed as inputs.
    if (initializers.contains(in.name()))
      continue;
    if (!inputNames.insert(in.name()).second)
      return emitError(fileLoc())
             << "graph input '" << in.name() << "' is declared twice";
    auto type = valueType(in, unresolved);
    if (failed(type))
      return failure();
    argTypes.push_back(*type);
    argNames.push_back(in.name());
  }
  for (const auto &entry : options.inputShapes)
    if (!inputNames.contains(entry.getKey()))
      return emitError(fileLoc()) << "--input-shape names '" << entry.getKey()
                                  << "', which is not a graph input";
  if (!unresolved.empty()) {
    auto diag = emitError(fileLoc())
                << "the model has " << unresolved.size()
                << " dynamic input dimension(s); bind them with "
                   "--input-shape NAME=D0xD1x... (each D an extent or a "
                   "range MIN..MAX):";
    for (const auto &u : unresolved)
      diag << "\n  " << u;
    return failure();
  }

  for (auto [type, name] : llvm::zip(argTypes, argNames)) {
    std::string invalid =
        invalidTensorType(cast<RankedTensorType>(type), symbolDims);
    if (!invalid.empty())
      return emitError(fileLoc()) << "graph input '" << name << "' of type "
                                  << type << " is invalid: " << invalid;
  }

  auto module = cast<ModuleOp>(func->getParentOp());
  if (!symbolDims.empty())
    module->setAttr(kDimsAttrName, builder.getArrayAttr(SmallVector<Attribute>(
                                       symbolDims.begin(), symbolDims.end())));
  builder.setInsertionPointToEnd(module.getBody());
  func.setFunctionType(builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  for (auto [i, name] : llvm::enumerate(argNames)) {
    values[name] = entry->getArgument(i);
    func.setArgAttr(i, "brrr.name", builder.getStringAttr(name));
  }
  builder.setInsertionPointToStart(entry);
  return success();
}

LogicalResult GraphImporter::importInitializers() {
  StringRef baseDir = llvm::sys::path::parent_path(modelPath);
  bool ok = true;
  for (const auto &init : model.graph().initializer()) {
    Location loc = NameLoc::get(builder.getStringAttr(init.name()), fileLoc());
    auto attr =
        convertTensor(&context, loc, init, baseDir, options.maxInlineElements);
    if (failed(attr)) {
      ok = false;
      continue;
    }
    if (values.count(init.name())) {
      emitError(loc) << "initializer '" << init.name() << "' is defined twice";
      ok = false;
      continue;
    }
    values[init.name()] = mlir::brrr::ConstantOp::create(builder, loc, *attr);
  }
  return success(ok);
}

/// The ops whose import carries symbolic extents (`brrrc --input-shape
/// NAME=MIN..MAX`) from their inputs to their outputs; a node of another
/// op with a symbolic input is an error. (Shape values, the symbolic
/// constants that Shape yields, are static tensors and fold through the
/// shape arithmetic of any op.)
const llvm::StringSet<> kSymbolicOps = {
    // Elementwise.
    "Abs", "Acos", "Acosh", "Add", "And", "Asin", "Asinh", "Atan", "Atanh",
    "AveragePool", "BatchNormalization", "Cast", "Ceil", "Celu", "Clip", "Cos",
    "Cosh", "Div", "Dropout", "Elu", "Equal", "Erf", "Exp", "Floor", "Gelu",
    "Greater", "GreaterOrEqual", "HardSigmoid", "HardSwish", "Identity",
    "LeakyRelu", "Less", "LessOrEqual", "Log", "Max", "Min", "Mod", "Mul",
    "Neg", "Not", "Or", "Pow", "PRelu", "Reciprocal", "Relu", "Round", "Selu",
    "Shrink", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus", "Softsign", "Sqrt",
    "Sub", "Sum", "Tan", "Tanh", "ThresholdedRelu", "Where", "Xor", "IsNaN",
    // Quantization, its scale and zero point static.
    "DequantizeLinear", "QuantizeLinear",
    // Products, windows, rows and reductions.
    "ArgMax", "ArgMin", "Conv", "ConvTranspose", "CumSum", "Einsum", "Gemm",
    "GlobalAveragePool", "GlobalMaxPool", "InstanceNormalization",
    "LayerNormalization", "MatMul", "MaxPool", "ReduceL1", "ReduceL2",
    "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin",
    "ReduceProd", "ReduceSum", "ReduceSumSquare", "Softmax", "LogSoftmax",
    "TopK",
    // Data movement and indexing; Shape yields a symbolic constant.
    "Concat", "DepthToSpace", "Expand", "Flatten", "Gather", "GatherElements",
    "GatherND", "Pad", "SpaceToDepth", "Reshape", "Resize", "Shape", "Slice",
    "Split", "Squeeze", "Transpose", "Unsqueeze", "Upsample"};

void GraphImporter::importNode(const onnx::NodeProto &node, unsigned index) {
  std::string name = node.name().empty()
                         ? node.op_type() + "_" + std::to_string(index)
                         : node.name();
  Location loc = NameLoc::get(builder.getStringAttr(name), fileLoc());
  std::string domain = node.domain().empty() ? "ai.onnx" : node.domain();
  bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
  auto poison = [&] {
    for (const auto &out : node.output())
      poisoned.insert(out);
  };
  auto fail = [&]() -> InFlightDiagnostic {
    hadError = true;
    poison();
    auto diag = emitError(loc) << "node '" << name << "' (" << node.op_type()
                               << ", " << domain;
    if (defaultDomain)
      diag << " opset " << opset;
    else if (domainOpsets.count(node.domain()))
      diag << " opset " << domainOpsets[node.domain()];
    else
      diag << ", a domain the model does not import";
    diag << "): ";
    return diag;
  };

  // Support is checked first, so an unsupported op is reported even where
  // an earlier failure already poisoned its inputs.
  auto entry = table.find(node.op_type());
  if (!defaultDomain || entry == table.end()) {
    fail() << "unsupported op '" << node.op_type() << "' in domain '" << domain
           << "'";
    return;
  }
  const auto &versions = entry->second.sinceVersions;
  auto since = llvm::upper_bound(versions, opset);
  if (since == versions.begin()) {
    auto diag = fail() << "op '" << node.op_type() << "' is not supported at "
                       << "opset " << opset << "; brrr implements its versions";
    for (int64_t v : versions)
      diag << " " << v;
    return;
  }
  int64_t sinceVersion = *std::prev(since);
  std::string nonconforming = checkNodeSchema(node, name, opset, sinceVersion);
  if (!nonconforming.empty()) {
    fail() << "does not conform to the ONNX schema of " << node.op_type()
           << ": " << nonconforming;
    return;
  }

  SmallVector<Value> inputs;
  for (const auto &in : node.input()) {
    if (in.empty()) {
      inputs.push_back(Value());
      continue;
    }
    if (poisoned.contains(in)) {
      poison();
      return;
    }
    auto it = values.find(in);
    if (it == values.end()) {
      fail() << "input '" << in << "' is not defined before this node";
      return;
    }
    inputs.push_back(it->second);
  }

  // Symbolic extents flow only through the ops whose import carries them.
  if (!kSymbolicOps.contains(node.op_type()))
    for (auto [i, v] : llvm::enumerate(inputs))
      if (v && isSymbolic(v.getType())) {
        fail() << "input '" << node.input(i) << "' has symbolic extents "
               << symbolicShapeName(cast<RankedTensorType>(v.getType()),
                                    symbolDims)
               << ", and " << node.op_type()
               << " imports with static shapes only; give its dimensions "
                  "single extents with --input-shape";
        return;
      }

  OpBuilder::InsertionGuard guard(builder);
  NodeImporter ni(builder, loc, node, name, opset, sinceVersion, inputs);
  ni.baseDir = llvm::sys::path::parent_path(modelPath).str();
  if (failed(entry->second.fn(ni)) || ni.hadAttributeError()) {
    hadError = true;
    poison();
    return;
  }
  ArrayRef<Value> outs = ni.getOutputs();
  for (int i = 0; i < node.output_size(); ++i) {
    const std::string &out = node.output(i);
    if (out.empty())
      continue;
    // SSA: a name is defined once, by a graph input, an initializer or one
    // node output.
    if (values.count(out)) {
      fail() << "output #" << i << " ('" << out
             << "') redefines a value defined before";
      return;
    }
    if (i >= static_cast<int>(outs.size()) || !outs[i]) {
      fail() << "output #" << i << " ('" << out
             << "') is not produced by the importer";
      return;
    }
    values[out] = outs[i];
  }
}

LogicalResult GraphImporter::importOutputs() {
  for (const auto &out : model.graph().output()) {
    if (poisoned.contains(out.name()))
      continue;
    auto it = values.find(out.name());
    if (it == values.end())
      return emitError(fileLoc())
             << "graph output '" << out.name() << "' is never produced";
    auto type = cast<RankedTensorType>(it->second.getType());
    // A declared output type must agree with what the importer inferred.
    if (out.has_type() && out.type().has_tensor_type()) {
      const auto &tt = out.type().tensor_type();
      Type et = convertElementType(&context, tt.elem_type());
      if (tt.elem_type() && et && et != type.getElementType())
        return emitError(fileLoc())
               << "graph output '" << out.name() << "' is declared with "
               << "element type " << et << " but computes "
               << type.getElementType();
      if (tt.has_shape()) {
        const auto &dims = tt.shape().dim();
        bool rankOk = dims.size() == type.getRank();
        for (int i = 0; rankOk && i < dims.size(); ++i)
          if (dims[i].has_dim_value() &&
              dims[i].dim_value() != type.getDimSize(i))
            rankOk = false;
        if (!rankOk)
          return emitError(fileLoc())
                 << "graph output '" << out.name()
                 << "' is declared with a shape that differs from the "
                    "computed "
                 << type;
      }
    }
    resultTypes.push_back(type);
    resultValues.push_back(it->second);
  }
  return success();
}

OwningOpRef<ModuleOp> GraphImporter::run() {
  if (failed(resolveOpsets()))
    return nullptr;
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc());
  module->getOperation()->setAttr("brrr.opset",
                                  builder.getI64IntegerAttr(opset));
  if (!model.graph().name().empty())
    module->getOperation()->setAttr(
        "brrr.graph_name", builder.getStringAttr(model.graph().name()));
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, fileLoc(), "main",
                                   builder.getFunctionType({}, {}));
  if (failed(importSignature(func)))
    return nullptr;
  if (failed(importInitializers()))
    return nullptr;
  unsigned index = 0;
  for (const auto &node : model.graph().node())
    importNode(node, index++);
  if (hadError)
    return nullptr;
  if (failed(importOutputs()))
    return nullptr;
  func::ReturnOp::create(builder, fileLoc(), resultValues);
  // Shape subgraphs leave folded-away constants and unused initializers
  // behind; drop every dead side-effect-free op, last to first.
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front().without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
  SmallVector<Type> argTypes(func.getArgumentTypes());
  func.setFunctionType(builder.getFunctionType(argTypes, resultTypes));
  for (auto [i, out] : llvm::enumerate(model.graph().output()))
    if (i < resultTypes.size())
      func.setResultAttr(i, "brrr.name", builder.getStringAttr(out.name()));
  if (failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

} // namespace

OwningOpRef<ModuleOp> importOnnxModel(MLIRContext &context,
                                      const onnx::ModelProto &model,
                                      StringRef modelPath,
                                      const ImportOptions &options) {
  registerImportDialects(context);
  return GraphImporter(context, model, modelPath, options).run();
}

} // namespace mlir::brrr
