//===- KernelUtils.cpp - shared pieces of the kernel families ------------===//

#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

gpu::GPUFuncOp mlir::brrr::createKernel(OpBuilder &moduleBuilder, Location loc,
                                        StringRef name, unsigned numBuffers,
                                        int64_t blockSize, unsigned numByValue,
                                        unsigned numScalars, bool errorRecord) {
  MLIRContext *ctx = moduleBuilder.getContext();
  SmallVector<Type> args(numByValue, LLVM::LLVMPointerType::get(ctx));
  args.append(numBuffers, LLVM::LLVMPointerType::get(ctx, 1));
  args.append(numScalars, moduleBuilder.getI64Type());
  if (errorRecord)
    args.push_back(LLVM::LLVMPointerType::get(ctx, 1));
  auto func = gpu::GPUFuncOp::create(moduleBuilder, loc, name,
                                     moduleBuilder.getFunctionType(args, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                moduleBuilder.getUnitAttr());
  func.setKnownBlockSizeAttr(moduleBuilder.getDenseI32ArrayAttr(
      {static_cast<int32_t>(blockSize), 1, 1}));
  if (numByValue) {
    SmallVector<int32_t> byValue;
    for (unsigned i = 0; i < numByValue; ++i) {
      byValue.push_back(i);
      func.setArgAttr(i, "llvm.align", moduleBuilder.getI64IntegerAttr(64));
    }
    func->setAttr(kByValueAttrName,
                  moduleBuilder.getDenseI32ArrayAttr(byValue));
  }
  return func;
}

Value mlir::brrr::indexArgument(OpBuilder &b, Location loc, Block &entry,
                                unsigned i) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                    entry.getArgument(i));
}

FailureOr<Operation *> mlir::brrr::singleOp(FusionOp fusion, StringRef family) {
  auto ops = fusion.getBody().front().without_terminator();
  if (std::distance(ops.begin(), ops.end()) != 1)
    return fusion.emitOpError() << family << " kernels hold exactly one op";
  return &*ops.begin();
}

SmallVector<int64_t> mlir::brrr::rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

Value mlir::brrr::StagedMath::minu(Value x, int64_t c) {
  return arith::MinUIOp::create(b, loc, x, idx(c));
}

Value mlir::brrr::StagedMath::i32(int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                   b.getI32IntegerAttr(v));
}

Value mlir::brrr::StagedMath::i64(Value v) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
}

Value mlir::brrr::StagedMath::gep(Value base, Type elem, Value index) {
  return LLVM::GEPOp::create(b, loc, base.getType(), elem, base,
                             ValueRange{i64(index)});
}

Value mlir::brrr::StagedMath::stageOffset(ArrayRef<int64_t> offsets, Value s) {
  Value at = idx(offsets[0]);
  for (int64_t k = 1; k < static_cast<int64_t>(offsets.size()); ++k)
    at = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s, idx(k)),
        idx(offsets[k]), at);
  return at;
}

void mlir::brrr::StagedMath::copy16(Value dst, Value src, Value valid) {
  copy(dst, src, valid, 16);
}

void mlir::brrr::StagedMath::copy(Value dst, Value src, Value valid,
                                  int64_t bytes) {
  Value size = arith::SelectOp::create(b, loc, valid, i32(bytes), i32(0));
  auto cache = bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                           : NVVM::LoadCacheModifierKind::CA;
  NVVM::CpAsyncOp::create(
      b, loc, dst, src, b.getI32IntegerAttr(bytes),
      NVVM::LoadCacheModifierKindAttr::get(b.getContext(), cache), size);
}

Value mlir::brrr::StagedMath::pipelineStep(
    Value kt, int64_t stages, Value count,
    llvm::function_ref<void(Value buffer, Value slice)> load, bool asyncProxy,
    int64_t lead) {
  if (lead <= 0)
    lead = stages - 1;
  NVVM::CpAsyncWaitGroupOp::create(b, loc, lead - 1);
  if (asyncProxy)
    fenceAsyncShared();
  gpu::BarrierOp::create(b, loc);
  Value next = add(kt, idx(lead));
  auto ifNext = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next, count),
      false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifNext.getThenRegion().front());
    load(rem(next, stages), next);
  }
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
  return rem(kt, stages);
}

void mlir::brrr::StagedMath::fenceAsyncShared() {
  NVVM::FenceProxyOp::create(
      b, loc,
      NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

SmallVector<Value> mlir::brrr::StagedMath::ldmatrix4(Value ptr,
                                                     NVVM::MMALayout layout) {
  Type i32 = b.getI32Type();
  auto regs4 =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32, i32, i32});
  auto op = NVVM::LdMatrixOp::create(
      b, loc, regs4, ptr, 4, layout,
      NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
  SmallVector<Value> r;
  for (int64_t i = 0; i < 4; ++i)
    r.push_back(LLVM::ExtractValueOp::create(b, loc, op.getRes(), i));
  return r;
}

Value mlir::brrr::StagedMath::mmaOperand(Value reg, Type et) {
  if (!et.isF16())
    return reg;
  return LLVM::BitcastOp::create(b, loc, VectorType::get({2}, et), reg);
}

void mlir::brrr::StagedMath::mma16816(ArrayRef<Value> a, ArrayRef<Value> bRegs,
                                      MutableArrayRef<Value> c, Type et) {
  NVVM::MMATypes ptxType =
      et.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  llvm::copy(mmaSync(b, loc, ptxType, 16, a, bRegs, c), c.begin());
}

SmallVector<Value> mlir::brrr::mmaSync(OpBuilder &b, Location loc,
                                       NVVM::MMATypes type, int64_t k,
                                       ArrayRef<Value> a, ArrayRef<Value> bRegs,
                                       ArrayRef<Value> acc) {
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  auto op = NVVM::MmaOp::create(
      b, loc, resultType, a, bRegs, acc, {16, 8, static_cast<int>(k)},
      std::nullopt, std::nullopt, std::array<NVVM::MMATypes, 2>{type, type},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> out;
  for (int64_t i = 0; i < 4; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, op.getRes(), i));
  return out;
}

void mlir::brrr::clusterBarrier(OpBuilder &b, Location loc) {
  NVVM::ClusterArriveOp::create(b, loc, nullptr);
  NVVM::ClusterWaitOp::create(b, loc, nullptr);
}

Value mlir::brrr::sumOverCluster(OpBuilder &b, Location loc, Value local,
                                 Type type, int64_t blocks,
                                 unsigned alignment) {
  auto clusterPtr = LLVM::LLVMPointerType::get(b.getContext(), 7);
  Value sum;
  for (int64_t q = 0; q < blocks; ++q) {
    Value rank = arith::ConstantOp::create(b, loc, b.getI32Type(),
                                           b.getI32IntegerAttr(q));
    Value peer = NVVM::MapaOp::create(b, loc, clusterPtr, local, rank);
    Value part = LLVM::LoadOp::create(b, loc, type, peer, alignment);
    sum = q ? arith::AddFOp::create(b, loc, sum, part).getResult() : part;
  }
  return sum;
}

Value mlir::brrr::IndexMath::idx(int64_t v) {
  if (type)
    return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value mlir::brrr::IndexMath::add(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value mlir::brrr::IndexMath::mul(Value x, int64_t c) {
  return c == 1 ? x : Value(arith::MulIOp::create(b, loc, x, idx(c)));
}

Value mlir::brrr::IndexMath::div(Value x, int64_t c) {
  return c == 1 ? x : Value(arith::DivUIOp::create(b, loc, x, idx(c)));
}

Value mlir::brrr::IndexMath::rem(Value x, int64_t c) {
  return c == 1 ? idx(0) : Value(arith::RemUIOp::create(b, loc, x, idx(c)));
}

Value mlir::brrr::IndexMath::ult(Value x, int64_t c) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, idx(c));
}

Value mlir::brrr::IndexMath::clamp(Value x, int64_t lo, int64_t hi) {
  x = arith::MaxSIOp::create(b, loc, x, idx(lo));
  return arith::MinSIOp::create(b, loc, x, idx(hi));
}

Value mlir::brrr::IndexMath::linear(ArrayRef<Value> coords,
                                    ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  Value l = idx(0);
  for (auto [c, s] : llvm::zip(coords, strides))
    l = add(l, mul(c, s));
  return l;
}

SmallVector<Value> mlir::brrr::IndexMath::coordsOf(Value linear,
                                                   ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  SmallVector<Value> coords;
  for (auto [d, n] : llvm::enumerate(shape))
    coords.push_back(d == 0 ? div(linear, strides[d])
                            : rem(div(linear, strides[d]), n));
  return coords;
}

Value mlir::brrr::IndexMath::broadcastIndex(Value linear,
                                            ArrayRef<int64_t> outShape,
                                            ArrayRef<int64_t> inShape,
                                            Value row, Value col) {
  // Runs of adjacent output dimensions, outer to inner, that the input
  // keeps or broadcasts alike (a dimension of extent 1 joins either).
  struct Run {
    int64_t extent;
    bool kept;
  };
  int64_t rank = outShape.size();
  int64_t offset = rank - static_cast<int64_t>(inShape.size());
  SmallVector<Run> runs;
  for (int64_t od = 0; od < rank; ++od) {
    if (outShape[od] == 1)
      continue;
    bool kept = od >= offset && inShape[od - offset] != 1;
    if (!runs.empty() && runs.back().kept == kept)
      runs.back().extent *= outShape[od];
    else
      runs.push_back({outShape[od], kept});
  }
  int64_t n = rank ? outShape.back() : 1;
  bool split = row && col && n > 1;
  // A caller that splits `linear` into its row and column reads within the
  // output; others may pass any index, which wraps into it.
  if (split && llvm::all_of(runs, [](const Run &r) { return r.kept; }))
    return linear;
  Value index;
  int64_t outStride = 1, inStride = 1;
  for (int64_t i = runs.size() - 1; i >= 0; --i) {
    const Run &r = runs[i];
    if (r.kept) {
      // The run's coordinate: linear / outStride mod its extent (within
      // the output, the outermost run's needs no remainder).
      Value coord;
      if (!split) {
        coord = rem(div(linear, outStride), r.extent);
      } else if (outStride == 1) {
        // The innermost run holds the last dimension (n > 1): the column,
        // and past it rows of the run's own.
        coord = col;
        if (r.extent != n) {
          Value rows = i > 0 ? rem(row, r.extent / n) : row;
          coord = add(mul(rows, n), col);
        }
      } else {
        coord = div(row, outStride / n);
        if (i > 0)
          coord = rem(coord, r.extent);
      }
      Value term = mul(coord, inStride);
      index = index ? add(index, term) : term;
      inStride *= r.extent;
    }
    outStride *= r.extent;
  }
  return index ? index : idx(0);
}

namespace {

/// Fusion input `operand` read for elements `at` .. `at` + `width` - 1 of a
/// producer's result of `outShape` (consecutive in the input: one vector
/// load when `width` > 1), at its broadcast index, in compute type.
SmallVector<Value> loadEpilogueInput(OpBuilder &b, Location loc, Value operand,
                                     Value at, ArrayRef<int64_t> outShape,
                                     llvm::function_ref<Value(Value)> arg,
                                     int64_t width = 1, Value row = {},
                                     Value col = {}) {
  mlir::brrr::IndexMath e{b, loc};
  auto type = cast<RankedTensorType>(operand.getType());
  Value index = e.broadcastIndex(at, outShape, type.getShape(), row, col);
  return mlir::brrr::loadElements(b, loc, arg(operand), type.getElementType(),
                                  index, width);
}

/// Where a fusion's epilogue after `producer` starts: the op its pointwise
/// ops follow, and the shape of the elements it computes on. A product
/// whose epilogue pairs its halves (pairedHalvesOf) starts after the
/// second half's slice, on elements of a half.
struct EpilogueStart {
  Operation *after;
  SmallVector<int64_t> shape;
  std::optional<mlir::brrr::PairedHalves> halves;
};

EpilogueStart epilogueStartOf(Operation *producer) {
  EpilogueStart start{producer, {}, std::nullopt};
  if (auto mm = dyn_cast<mlir::brrr::MatmulOp>(producer))
    start.halves = mlir::brrr::pairedHalvesOf(mm);
  if (start.halves)
    start.after = start.halves->high;
  start.shape.assign(
      cast<RankedTensorType>(start.after->getResult(0).getType()).getShape());
  return start;
}

} // namespace

SmallVector<Value> mlir::brrr::loadElements(OpBuilder &b, Location loc,
                                            Value base, Type elem, Value index,
                                            int64_t width) {
  pointwise::PointwiseEmitter pe(b, loc);
  Type mt = pointwise::memoryType(elem);
  Value i =
      index.getType().isIndex()
          ? Value(arith::IndexCastOp::create(b, loc, b.getI64Type(), index))
          : Value(arith::ExtUIOp::create(b, loc, b.getI64Type(), index));
  Value p =
      LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1),
                          mt, base, ValueRange{i});
  if (width == 1)
    return {pe.fromMemory(LLVM::LoadOp::create(b, loc, mt, p), elem)};
  // Buffers are 16-byte aligned: a wider vector is split into 16-byte loads.
  Value vec =
      LLVM::LoadOp::create(b, loc, VectorType::get({width}, mt), p,
                           std::min<int64_t>(16, elementBytes(elem) * width));
  SmallVector<Value> values;
  for (int64_t t = 0; t < width; ++t)
    values.push_back(
        pe.fromMemory(LLVM::ExtractElementOp::create(
                          b, loc, vec,
                          arith::ConstantOp::create(b, loc, b.getI32Type(),
                                                    b.getI32IntegerAttr(t))),
                      elem));
  return values;
}

SmallVector<DenseMap<Value, Value>> mlir::brrr::loadEpilogueInputs(
    OpBuilder &b, Location loc, FusionOp fusion, Operation *producer, Value at,
    llvm::function_ref<Value(Value)> arg, int64_t width, Value row, Value col) {
  Block &body = fusion.getBody().front();
  EpilogueStart start = epilogueStartOf(producer);
  ArrayRef<int64_t> outShape = start.shape;
  IndexMath e{b, loc};
  SmallVector<DenseMap<Value, Value>> loaded(width);
  for (Operation &op : llvm::make_range(std::next(start.after->getIterator()),
                                        Block::iterator(body.getTerminator())))
    for (Value v : op.getOperands()) {
      if (!isa<BlockArgument>(v) || loaded[0].count(v))
        continue;
      auto type = cast<RankedTensorType>(v.getType());
      // Elements at .. at + width - 1 (one row of the result, width | its
      // length) are consecutive in an input whose last dimension is the
      // result's: one vector load.
      bool rowWise = width > 1 && type.getRank() > 0 &&
                     type.getShape().back() == outShape.back();
      if (rowWise) {
        SmallVector<Value> values =
            loadEpilogueInput(b, loc, v, at, outShape, arg, width, row, col);
        for (int64_t t = 0; t < width; ++t)
          loaded[t][v] = values[t];
        continue;
      }
      for (int64_t t = 0; t < width; ++t)
        loaded[t][v] = loadEpilogueInput(
            b, loc, v, t ? e.add(at, e.idx(t)) : at, outShape, arg, 1, row,
            col && t ? e.add(col, e.idx(t)) : col)[0];
    }
  return loaded;
}

namespace {

using namespace mlir::brrr;

/// Stores yielded transpose `t`'s value for element `at` of its input at
/// the element's permuted position in `out`.
void storeTransposed(OpBuilder &b, Location loc, TransposeOp t, Value value,
                     Value at, Value out) {
  IndexMath e{b, loc};
  pointwise::PointwiseEmitter pe(b, loc);
  // Element `at` of the input goes to its permuted coordinates: output
  // dimension d is input dimension perm[d].
  ArrayRef<int64_t> inShape = t.getInput().getType().getShape();
  SmallVector<int64_t> inStrides = rowMajorStrides(inShape);
  SmallVector<int64_t> outStrides = rowMajorStrides(t.getType().getShape());
  Value index = e.idx(0);
  for (auto [d, p] : llvm::enumerate(t.getPerm())) {
    Value coord = arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, at, e.idx(inStrides[p])),
        e.idx(inShape[p]));
    index = e.add(index, e.mul(coord, outStrides[d]));
  }
  Type elem = t.getType().getElementType();
  Type mt = pointwise::memoryType(elem);
  Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  LLVM::StoreOp::create(
      b, loc, pe.toMemory(value, elem),
      LLVM::GEPOp::create(b, loc, ptr, mt, out, ValueRange{i}));
}

} // namespace

LogicalResult mlir::brrr::computeEpilogue(OpBuilder &b, Location loc,
                                          FusionOp fusion, Operation *producer,
                                          Value produced, Value at,
                                          llvm::function_ref<Value(Value)> arg,
                                          const DenseMap<Value, Value> *inputs,
                                          DenseMap<Value, Value> &scalar,
                                          Value partner) {
  Block &body = fusion.getBody().front();
  EpilogueStart start = epilogueStartOf(producer);
  ArrayRef<int64_t> outShape = start.shape;
  pointwise::PointwiseEmitter pe(b, loc);
  if (inputs)
    scalar = *inputs;
  if (start.halves) {
    if (!partner)
      return producer->emitOpError(
          "pairs the halves of its columns, but its kernel computes one");
    scalar[start.halves->low.getResult()] = produced;
    scalar[start.halves->high.getResult()] = partner;
  } else {
    scalar[producer->getResult(0)] = produced;
  }
  for (Value y : cast<YieldOp>(body.getTerminator()).getValues())
    if (y.getDefiningOp<TransposeOp>())
      scalar[y] = Value();
  auto load = [&](Value operand) -> Value {
    return loadEpilogueInput(b, loc, operand, at, outShape, arg)[0];
  };
  return pe.emitOps(llvm::make_range(std::next(start.after->getIterator()),
                                     Block::iterator(body.getTerminator())),
                    scalar, load);
}

LogicalResult mlir::brrr::emitEpilogue(
    OpBuilder &b, Location loc, FusionOp fusion, Operation *producer,
    Value produced, Value at, llvm::function_ref<Value(Value)> arg,
    ValueRange outputs, const DenseMap<Value, Value> *inputs, Value partner) {
  DenseMap<Value, Value> scalar;
  if (failed(computeEpilogue(b, loc, fusion, producer, produced, at, arg,
                             inputs, scalar, partner)))
    return failure();
  auto yield = cast<YieldOp>(fusion.getBody().front().getTerminator());
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  pointwise::PointwiseEmitter pe(b, loc);
  for (auto [y, out] : llvm::zip(yield.getValues(), outputs)) {
    if (auto t = y.getDefiningOp<TransposeOp>()) {
      storeTransposed(b, loc, t, scalar.lookup(t.getInput()), at, out);
      continue;
    }
    Type elem = cast<RankedTensorType>(y.getType()).getElementType();
    Type mt = pointwise::memoryType(elem);
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), at);
    LLVM::StoreOp::create(
        b, loc, pe.toMemory(scalar.lookup(y), elem),
        LLVM::GEPOp::create(b, loc, ptr, mt, out, ValueRange{i}));
  }
  return success();
}

LogicalResult mlir::brrr::emitEpilogueVector(
    OpBuilder &b, Location loc, FusionOp fusion, Operation *producer,
    ArrayRef<Value> produced, Value at, llvm::function_ref<Value(Value)> arg,
    ValueRange outputs, ArrayRef<DenseMap<Value, Value>> loaded,
    ArrayRef<Value> partners) {
  int64_t width = produced.size();
  if (width == 1)
    return emitEpilogue(b, loc, fusion, producer, produced[0], at, arg, outputs,
                        loaded.empty() ? nullptr : &loaded[0],
                        partners.empty() ? Value() : partners[0]);
  IndexMath e{b, loc};
  pointwise::PointwiseEmitter pe(b, loc);
  SmallVector<DenseMap<Value, Value>> inputs(loaded);
  if (inputs.empty())
    inputs = loadEpilogueInputs(b, loc, fusion, producer, at, arg, width);
  SmallVector<DenseMap<Value, Value>> scalars(width);
  SmallVector<Value> ats;
  for (int64_t t = 0; t < width; ++t) {
    ats.push_back(t ? e.add(at, e.idx(t)) : at);
    if (failed(computeEpilogue(b, loc, fusion, producer, produced[t], ats[t],
                               arg, &inputs[t], scalars[t],
                               partners.empty() ? Value() : partners[t])))
      return failure();
  }
  auto yield = cast<YieldOp>(fusion.getBody().front().getTerminator());
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  for (auto [y, out] : llvm::zip(yield.getValues(), outputs)) {
    if (auto t = y.getDefiningOp<TransposeOp>()) {
      for (int64_t k = 0; k < width; ++k)
        storeTransposed(b, loc, t, scalars[k].lookup(t.getInput()), ats[k],
                        out);
      continue;
    }
    Type elem = cast<RankedTensorType>(y.getType()).getElementType();
    Type mt = pointwise::memoryType(elem);
    SmallVector<Value> values;
    for (int64_t k = 0; k < width; ++k)
      values.push_back(scalars[k].lookup(y));
    Value v = pe.memoryVector(values, elem);
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), at);
    LLVM::StoreOp::create(
        b, loc, v, LLVM::GEPOp::create(b, loc, ptr, mt, out, ValueRange{i}),
        elementBytes(elem) * width);
  }
  return success();
}

std::pair<Value, Value> mlir::brrr::alignShared(OpBuilder &b, Location loc,
                                                Value raw, int64_t align) {
  Type i64 = b.getI64Type();
  auto c = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  Value rawAddr = LLVM::PtrToIntOp::create(b, loc, i64, raw);
  Value pad = arith::AndIOp::create(
      b, loc, arith::SubIOp::create(b, loc, c(0), rawAddr), c(align - 1));
  Value ptr = LLVM::GEPOp::create(b, loc, raw.getType(), b.getIntegerType(8),
                                  raw, ValueRange{pad});
  return {ptr, arith::AddIOp::create(b, loc, rawAddr, pad)};
}

Value mlir::brrr::dynamicShared(OpBuilder &moduleBuilder, OpBuilder &b,
                                Location loc) {
  constexpr llvm::StringLiteral name = "brrr_dynamic_shared";
  Block *module = moduleBuilder.getInsertionBlock();
  if (llvm::none_of(module->getOps<LLVM::GlobalOp>(),
                    [&](LLVM::GlobalOp g) { return g.getSymName() == name; })) {
    OpBuilder::InsertionGuard guard(moduleBuilder);
    moduleBuilder.setInsertionPointToStart(module);
    LLVM::GlobalOp::create(
        moduleBuilder, loc,
        LLVM::LLVMArrayType::get(moduleBuilder.getIntegerType(8), 0),
        /*isConstant=*/false, LLVM::Linkage::External, name, Attribute(),
        /*alignment=*/16, /*addrSpace=*/3);
  }
  return LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), name);
}

FailureOr<SharedPlanAttr> mlir::brrr::sharedPlanOf(FusionOp fusion) {
  auto plan = fusion->getAttrOfType<SharedPlanAttr>(kSharedPlanAttrName);
  if (!plan)
    return fusion.emitOpError("has no shared-memory plan "
                              "(brrr-plan-shared-memory)");
  return plan;
}

int64_t mlir::brrr::sharedBytesOf(FusionOp fusion) {
  auto plan = fusion->getAttrOfType<SharedPlanAttr>(kSharedPlanAttrName);
  return plan ? plan.getBytes() : 0;
}

FailureOr<int64_t> mlir::brrr::sharedOffset(FusionOp fusion, SharedRole role,
                                            int64_t index) {
  FailureOr<SharedPlanAttr> plan = sharedPlanOf(fusion);
  if (failed(plan))
    return failure();
  if (SharedBufferAttr buffer = plan->find(role, index))
    return buffer.getOffset();
  return fusion.emitOpError("the shared-memory plan has no ")
         << stringifySharedRole(role) << " buffer " << index;
}

bool mlir::brrr::storedThrough(Operation &op) {
  return isa<TransposeOp>(op) && llvm::all_of(op.getUsers(), [](Operation *u) {
           return isa<YieldOp>(u);
         });
}

Value mlir::brrr::kernelArgument(Block &entry, Value v) {
  return entry.getArgument(cast<BlockArgument>(v).getArgNumber());
}

int64_t mlir::brrr::fusionBytes(FusionOp fusion) {
  int64_t bytes = 0;
  for (Value v : fusion.getInputs())
    bytes += bufferBytes(v);
  for (Value v : fusion.getResults())
    bytes += bufferBytes(v);
  return bytes;
}

LogicalResult mlir::brrr::checkProductFusion(FusionOp fusion,
                                             Operation *product) {
  bool after = false;
  // A product whose epilogue pairs its halves reads them through the two
  // slices after it.
  std::optional<PairedHalves> halves;
  if (auto mm = dyn_cast<MatmulOp>(product))
    halves = pairedHalvesOf(mm);
  for (Operation &op : fusion.getBody().front().without_terminator()) {
    if (&op == product) {
      after = true;
      continue;
    }
    if (halves && (&op == halves->low || &op == halves->high))
      continue;
    if (after ? !isPointwise(&op) && !isa<ConstantOp>(op) && !storedThrough(op)
              : !isa<TransposeOp, ReshapeOp, SliceOp>(op))
      return op.emitOpError("cannot be fused with a ") << product->getName();
  }
  return success();
}

Value mlir::brrr::batchOffset(IndexMath &e, const OperandLayout &layout,
                              ArrayRef<int64_t> batch, Value z) {
  SmallVector<int64_t> batchStrides = rowMajorStrides(batch);
  int64_t rank = layout.shape.size(), skip = batch.size() - (rank - 2);
  Value at = e.idx(0);
  for (int64_t d = 0; d < rank - 2; ++d)
    if (layout.shape[d] != 1)
      at = e.add(at,
                 e.mul(e.rem(e.div(z, batchStrides[d + skip]), batch[d + skip]),
                       layout.strides[d]));
  return at;
}

LogicalResult mlir::brrr::stageOffsets(FusionOp fusion, int64_t stages,
                                       SmallVectorImpl<int64_t> &a,
                                       SmallVectorImpl<int64_t> &b,
                                       SharedRole first, SharedRole second) {
  for (int64_t s = 0; s < stages; ++s) {
    FailureOr<int64_t> aAt = sharedOffset(fusion, first, s);
    FailureOr<int64_t> bAt = sharedOffset(fusion, second, s);
    if (failed(aAt) || failed(bAt))
      return failure();
    a.push_back(*aAt);
    b.push_back(*bAt);
  }
  return success();
}
