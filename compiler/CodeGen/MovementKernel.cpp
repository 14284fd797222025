//===- MovementKernel.cpp - brrr.fusion movement -> gpu.func --------------===//
//
// The data-movement kernel family: transpose, slice, expand, concat, pad,
// trees of those (with reshapes between them: a concatenation picks the
// operand that holds each element), and the
// index-driven gather, gather_elements, gather_nd, scatter_elements and
// scatter_nd. Each thread writes one output element and reads the input
// element it comes from, found by index arithmetic on static shapes
// (constant divisors). Elements move as raw bits; only a scatter's
// reduction computes. Gather indices are normalized (negative counts from
// the end) and clamped into range so that a bad index can never read
// outside the input.
//
// A scatter is computed from the output's side too, so that no two threads
// write one element and the result is deterministic: the thread of element
// e starts from the input's e and walks the updates that can land on e in
// their row-major order (every index tuple for scatter_nd; the one line
// along the axis for scatter_elements), combining each that does. An index
// out of range matches no element and writes nothing.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <functional>

using namespace mlir;
using namespace mlir::brrr;

namespace {

constexpr int64_t kBlockSize = 256;

/// Type an element has in memory: i8 for i1, signless integers.
Type storageType(Type t) {
  if (t.isInteger(1))
    return IntegerType::get(t.getContext(), 8);
  if (auto it = dyn_cast<IntegerType>(t))
    return IntegerType::get(t.getContext(), it.getWidth());
  return t;
}

struct Emitter : IndexMath {
  Value linear(ArrayRef<Value> coords, ArrayRef<int64_t> shape) {
    SmallVector<int64_t> strides = rowMajorStrides(shape);
    Value l = idx(0);
    for (auto [c, s] : llvm::zip(coords, strides))
      l = add(l, mul(c, s));
    return l;
  }
  Value load(Value base, Type elem, Value linearIndex) {
    auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
    Value i = linearIndex.getType().isIndex()
                  ? Value(arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                                     linearIndex))
                  : Value(arith::ExtUIOp::create(b, loc, b.getI64Type(),
                                                 linearIndex));
    Value p = LLVM::GEPOp::create(b, loc, ptr, elem, base, ValueRange{i});
    return LLVM::LoadOp::create(b, loc, elem, p);
  }
  /// min(max(v, lo), hi) on index values.
  Value clamp(Value v, int64_t lo, int64_t hi) {
    v = arith::MaxSIOp::create(b, loc, v, idx(lo));
    return arith::MinSIOp::create(b, loc, v, idx(hi));
  }
  /// The index stored at `linearIndex` of an index tensor, negative values
  /// counted from the end of a dimension of size `dim`. Not clamped.
  Value loadIndex(Value base, Value indices, Value linearIndex, int64_t dim) {
    Type t =
        storageType(cast<RankedTensorType>(indices.getType()).getElementType());
    Value k = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                         load(base, t, linearIndex));
    Value neg =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, k, idx(0));
    return arith::SelectOp::create(b, loc, neg, add(k, idx(dim)), k);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  /// `acc` combined with `update` per a scatter's reduction; `type` is the
  /// tensor's element type (i1 stored as i8: add/max are or, mul/min and).
  Value combine(ScatterReduction r, Type type, Value acc, Value update) {
    bool isFloat = isa<FloatType>(type), isBool = type.isInteger(1);
    bool isUnsigned = type.isUnsignedInteger();
    switch (r) {
    case ScatterReduction::none:
      return update;
    case ScatterReduction::add:
      if (isFloat)
        return arith::AddFOp::create(b, loc, acc, update);
      if (isBool)
        return arith::OrIOp::create(b, loc, acc, update);
      return arith::AddIOp::create(b, loc, acc, update);
    case ScatterReduction::mul:
      if (isFloat)
        return arith::MulFOp::create(b, loc, acc, update);
      if (isBool)
        return arith::AndIOp::create(b, loc, acc, update);
      return arith::MulIOp::create(b, loc, acc, update);
    case ScatterReduction::max:
      if (isFloat)
        return arith::MaximumFOp::create(b, loc, acc, update);
      if (isBool || isUnsigned)
        return arith::MaxUIOp::create(b, loc, acc, update);
      return arith::MaxSIOp::create(b, loc, acc, update);
    case ScatterReduction::min:
      if (isFloat)
        return arith::MinimumFOp::create(b, loc, acc, update);
      if (isBool || isUnsigned)
        return arith::MinUIOp::create(b, loc, acc, update);
      return arith::MinSIOp::create(b, loc, acc, update);
    }
    return update;
  }
  /// Folds `step(i, acc)` over i in [0, count), starting from `init`.
  Value loop(int64_t count, Value init,
             function_ref<Value(Value, Value)> step) {
    auto forOp = scf::ForOp::create(b, loc, idx(0), idx(count), idx(1),
                                    ValueRange{init});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    scf::YieldOp::create(
        b, loc,
        step(forOp.getInductionVar(), forOp.getRegionIterArgs().front()));
    return forOp.getResult(0);
  }
};

/// A constant pad's fill `v` as an element of storage type `elem`.
Value fillValue(OpBuilder &b, Location loc, Type elem, double v) {
  if (auto ft = dyn_cast<FloatType>(elem))
    return arith::ConstantOp::create(b, loc, ft, b.getFloatAttr(ft, v));
  return arith::ConstantOp::create(
      b, loc, elem, b.getIntegerAttr(elem, static_cast<int64_t>(v)));
}

/// The runs [ib, ie) of `in`'s dimensions and [ob, oe) of `out`'s that a
/// reshape maps onto each other: consecutive, each the shortest whose
/// sizes multiply to the same count (size-1 dimensions join the run
/// before them; one run covers everything when a size is 0).
SmallVector<std::array<size_t, 4>> reshapeGroups(ArrayRef<int64_t> in,
                                                 ArrayRef<int64_t> out) {
  if (llvm::is_contained(in, 0) || llvm::is_contained(out, 0))
    return {{0, in.size(), 0, out.size()}};
  SmallVector<std::array<size_t, 4>> groups;
  size_t i = 0, o = 0;
  while (i < in.size() || o < out.size()) {
    size_t ib = i, ob = o;
    int64_t pi = i < in.size() ? in[i++] : 1;
    int64_t po = o < out.size() ? out[o++] : 1;
    while (pi != po) {
      if (pi < po && i < in.size())
        pi *= in[i++];
      else if (po < pi && o < out.size())
        po *= out[o++];
      else
        return {{0, in.size(), 0, out.size()}};
    }
    // Trailing size-1 dimensions join this run.
    while (i < in.size() && in[i] == 1 && (o >= out.size() || out[o] != 1))
      ++i;
    while (o < out.size() && out[o] == 1 && (i >= in.size() || in[i] != 1))
      ++o;
    groups.push_back({ib, i, ob, o});
  }
  return groups;
}

/// The element of `v`, a value of a movement tree (index maps and
/// concatenations), at coordinates `coords`, walked back to one load from a
/// kernel input (`argOf`: its kernel argument): a reshape maps the
/// coordinates through the linear index, a transpose by its permutation, a
/// slice by its starts and steps, an expand by dropping broadcast
/// dimensions, a pad by its low sides, clamped into the input (edge and
/// reflect padding are such clamps; constant padding selects its fill where
/// the element lies outside), and a concatenation branches to the operand
/// that holds the element along its axis.
Value mapBack(Emitter &e, Value v, SmallVector<Value> coords, Type elem,
              function_ref<Value(Value)> argOf) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto shapeOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  };
  Operation *op = v.getDefiningOp();
  if (!op)
    return e.load(argOf(v), elem, e.linear(coords, shapeOf(v)));
  if (auto c = dyn_cast<ConcatOp>(op)) {
    // Operands empty along the axis hold nothing; of the others, the last
    // whose start is <= the coordinate holds the element.
    int64_t axis = c.getAxis();
    SmallVector<std::pair<Value, int64_t>> parts;
    int64_t start = 0;
    for (Value in : c.getInputs()) {
      if (shapeOf(in)[axis] != 0)
        parts.push_back({in, start});
      start += shapeOf(in)[axis];
    }
    if (parts.empty()) // an empty result: no thread gets here
      return fillValue(b, loc, elem, 0);
    std::function<Value(size_t)> pick = [&](size_t k) -> Value {
      auto [in, first] = parts[k];
      SmallVector<Value> at(coords);
      at[axis] = arith::SubIOp::create(b, loc, coords[axis], e.idx(first));
      if (k + 1 == parts.size())
        return mapBack(e, in, std::move(at), elem, argOf);
      Value here =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, coords[axis],
                                e.idx(parts[k + 1].second));
      auto ifHere = scf::IfOp::create(b, loc, TypeRange{elem}, here, true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifHere.getThenRegion().front());
      scf::YieldOp::create(b, loc, mapBack(e, in, std::move(at), elem, argOf));
      b.setInsertionPointToStart(&ifHere.getElseRegion().front());
      scf::YieldOp::create(b, loc, pick(k + 1));
      return ifHere.getResult(0);
    };
    return pick(0);
  }
  ArrayRef<int64_t> inShape = shapeOf(op->getOperand(0));
  ArrayRef<int64_t> outShape = shapeOf(op->getResult(0));
  SmallVector<Value> in(inShape.size());
  std::optional<std::pair<Value, double>> fill;
  if (isa<ReshapeOp>(op)) {
    // Group by group: the shortest runs of input and output dimensions
    // of equal sizes (a split or merge of dimensions), so that the
    // dimensions a reshape keeps pass through untouched.
    for (auto [ib, ie, ob, oe] : reshapeGroups(inShape, outShape)) {
      ArrayRef<int64_t> outGroup = outShape.slice(ob, oe - ob);
      ArrayRef<int64_t> inGroup = inShape.slice(ib, ie - ib);
      if (outGroup == inGroup) {
        for (size_t d = 0; d < inGroup.size(); ++d)
          in[ib + d] = coords[ob + d];
        continue;
      }
      Value lin =
          e.linear(ArrayRef<Value>(coords).slice(ob, oe - ob), outGroup);
      SmallVector<int64_t> strides = rowMajorStrides(inGroup);
      for (size_t d = 0; d < inGroup.size(); ++d)
        in[ib + d] = e.rem(e.div(lin, strides[d]), inGroup[d]);
    }
  } else if (auto t = dyn_cast<TransposeOp>(op)) {
    for (auto [i, p] : llvm::enumerate(t.getPerm()))
      in[p] = coords[i];
  } else if (auto s = dyn_cast<SliceOp>(op)) {
    for (size_t d = 0; d < inShape.size(); ++d)
      in[d] = e.add(
          e.idx(s.getStarts()[d]),
          arith::MulIOp::create(b, loc, coords[d], e.idx(s.getSteps()[d])));
  } else if (auto x = dyn_cast<ExpandOp>(op)) {
    int64_t offset = outShape.size() - inShape.size();
    for (size_t d = 0; d < inShape.size(); ++d)
      in[d] = inShape[d] == 1 ? e.idx(0) : coords[d + offset];
  } else {
    auto p = cast<PadOp>(op);
    Value inside =
        arith::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
    for (size_t d = 0; d < inShape.size(); ++d) {
      Value c = arith::SubIOp::create(b, loc, coords[d], e.idx(p.getLow()[d]));
      int64_t n = inShape[d];
      if (p.getMode() == PadMode::constant) {
        Value ok = arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, c,
                                  e.idx(0)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c,
                                  e.idx(n)));
        inside = arith::AndIOp::create(b, loc, inside, ok);
        c = e.clamp(c, 0, n - 1);
      } else if (p.getMode() == PadMode::edge) {
        c = e.clamp(c, 0, n - 1);
      } else {
        // reflect: ... 2 1 | 0 1 2 ... n-1 | n-2 ...; one bounce suffices
        // because the verifier bounds the padding by n - 1.
        Value negC = arith::SubIOp::create(b, loc, e.idx(0), c);
        c = arith::SelectOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c,
                                  e.idx(0)),
            negC, c);
        Value over = arith::SubIOp::create(b, loc, e.idx(2 * (n - 1)), c);
        c = arith::SelectOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, c,
                                  e.idx(n)),
            over, c);
      }
      in[d] = c;
    }
    if (p.getMode() == PadMode::constant)
      fill = {inside, p.getValue().convertToDouble()};
  }
  Value value = mapBack(e, op->getOperand(0), std::move(in), elem, argOf);
  if (fill)
    value = arith::SelectOp::create(b, loc, fill->first, value,
                                    fillValue(b, loc, elem, fill->second));
  return value;
}

/// Tile edge of the shared-memory transpose; 32 x 8 threads move a tile.
constexpr int64_t kTile = 32, kTileRows = 8;

/// [B][R][S] -> [B][S][R] through a 32 x 33 shared tile per block: reads
/// along S and writes along R are both coalesced (a thread per element
/// reads one side with a stride of a whole row otherwise).
FailureOr<KernelInfo> emitTiledTranspose(FusionOp fusion, TransposeOp t,
                                         std::array<int64_t, 3> brs,
                                         OpBuilder &moduleBuilder,
                                         StringRef name) {
  MLIRContext *ctx = fusion.getContext();
  Location loc = fusion.getLoc();
  auto [B, R, S] = brs;
  Type elem = storageType(t.getType().getElementType());
  int64_t tilesS = llvm::divideCeil(S, kTile),
          tilesR = llvm::divideCeil(R, kTile);
  // The tile, a static shared array of this kernel.
  auto tileType = LLVM::LLVMArrayType::get(elem, kTile * (kTile + 1));
  std::string tileName = (name + "_tile").str();
  {
    OpBuilder::InsertionGuard guard(moduleBuilder);
    moduleBuilder.setInsertionPointToStart(moduleBuilder.getInsertionBlock());
    LLVM::GlobalOp::create(moduleBuilder, loc, tileType, /*isConstant=*/false,
                           LLVM::Linkage::Internal, tileName, Attribute(),
                           /*alignment=*/16, /*addrSpace=*/3);
  }
  auto func = createKernel(moduleBuilder, loc, name,
                           fusion.getInputs().size() + 1, kTile * kTileRows);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Emitter e{{b, loc}};
  auto sharedPtr = LLVM::LLVMPointerType::get(ctx, 3);
  Value tile = LLVM::AddressOfOp::create(b, loc, sharedPtr, tileName);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value tx = e.rem(tid, kTile), ty = e.div(tid, kTile);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value batch = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value r0 = e.mul(e.div(bid, tilesS), kTile);
  Value s0 = e.mul(e.rem(bid, tilesS), kTile);
  Value in = kernelArgument(entry, t.getInput());
  Value out = entry.getArgument(fusion.getInputs().size());
  auto slot = [&](Value row, Value col) {
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                         e.add(e.mul(row, kTile + 1), col));
    return LLVM::GEPOp::create(b, loc, sharedPtr, elem, tile, ValueRange{i});
  };
  auto global = [&](Value base, Value index) {
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    return LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 1), elem,
                               base, ValueRange{i});
  };
  auto both = [&](Value x, int64_t nx, Value y, int64_t ny) {
    return arith::AndIOp::create(b, loc, e.ult(x, nx), e.ult(y, ny));
  };
  // Rows r0 + ty + 8i of the input's [R][S] slab, columns s0 + tx.
  for (int64_t i = 0; i < kTile / kTileRows; ++i) {
    Value row = e.add(ty, e.idx(kTileRows * i));
    Value r = e.add(r0, row), s = e.add(s0, tx);
    auto ifIn = scf::IfOp::create(b, loc, both(r, R, s, S), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    Value v = LLVM::LoadOp::create(
        b, loc, elem,
        global(in, e.add(e.mul(batch, R * S), e.add(e.mul(r, S), s))));
    LLVM::StoreOp::create(b, loc, v, slot(row, tx));
  }
  gpu::BarrierOp::create(b, loc);
  // Rows s0 + ty + 8i of the output's [S][R] slab, columns r0 + tx.
  for (int64_t i = 0; i < kTile / kTileRows; ++i) {
    Value col = e.add(ty, e.idx(kTileRows * i));
    Value s = e.add(s0, col), r = e.add(r0, tx);
    auto ifIn = scf::IfOp::create(b, loc, both(s, S, r, R), false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    Value v = LLVM::LoadOp::create(b, loc, elem, slot(tx, col));
    LLVM::StoreOp::create(
        b, loc, v,
        global(out, e.add(e.mul(batch, R * S), e.add(e.mul(s, R), r))));
  }
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.grid = tilesS * tilesR;
  info.gridZ = B;
  info.block = kTile * kTileRows;
  info.bytes = 2 * t.getType().getNumElements() *
               elementBytes(t.getType().getElementType());
  return info;
}

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitMovementKernel(FusionOp fusion,
                                                     OpBuilder &moduleBuilder,
                                                     StringRef name) {
  MLIRContext *ctx = fusion.getContext();
  Location loc = fusion.getLoc();
  Block &body = fusion.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  if (ops.empty())
    return fusion.emitOpError("movement kernels hold at least one op");
  // A tree of index maps and concatenations, each reading kernel inputs or
  // ops before it, whose last op is the result; or one op of any other
  // kind.
  bool isTree = true;
  for (auto [i, op] : llvm::enumerate(ops)) {
    isTree &= isMovementTreeOp(op);
    for (Value v : op->getOperands())
      isTree &=
          isa<BlockArgument>(v) ||
          llvm::is_contained(ArrayRef(ops).take_front(i), v.getDefiningOp());
  }
  isTree &= body.getTerminator()->getOperands() ==
            ValueRange(ops.back()->getResults());
  if (!isTree && ops.size() > 1)
    return fusion.emitOpError("movement kernels hold one op or a tree of "
                              "index maps and concatenations");
  Operation *op = ops.back();
  // A transpose of two groups of dimensions, each at least a tile's edge
  // long, moves through shared memory (a grid's z is below 2^16).
  if (auto t = dyn_cast<TransposeOp>(op); t && ops.size() == 1)
    if (isTiledTranspose(t) && isa<BlockArgument>(t.getInput()))
      return emitTiledTranspose(fusion, t, *batchedTransposeOf(t),
                                moduleBuilder, name);
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  ArrayRef<int64_t> shape = outType.getShape();
  int64_t numel = outType.getNumElements();
  Type elem = storageType(outType.getElementType());

  auto ptrTy = LLVM::LLVMPointerType::get(ctx, 1);
  auto func = createKernel(moduleBuilder, loc, name,
                           fusion.getInputs().size() + 1, kBlockSize);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Emitter e{{b, loc}};
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value lin = e.add(e.mul(bid, kBlockSize), tid);
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lin,
                                        e.idx(numel));
  auto ifIn = scf::IfOp::create(b, loc, inRange, false);
  gpu::ReturnOp::create(b, loc);
  b.setInsertionPointToStart(&ifIn.getThenRegion().front());

  // Output coordinates of this thread's element.
  SmallVector<int64_t> outStrides = rowMajorStrides(shape);
  SmallVector<Value> out;
  for (size_t d = 0; d < shape.size(); ++d)
    out.push_back(arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, lin, e.idx(outStrides[d])),
        e.idx(shape[d])));
  auto argOf = [&](Value v) { return kernelArgument(entry, v); };
  auto shapeOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  };

  FailureOr<Value> value = failure();
  if (isTree) {
    // In 32 bits where every tensor of the tree fits (offsets and the
    // pads' signed coordinates included).
    bool narrow = llvm::all_of(ops, [](Operation *c) {
      auto small = [](Value v) {
        return cast<RankedTensorType>(v.getType()).getNumElements() <
               (int64_t(1) << 30);
      };
      return llvm::all_of(c->getOperands(), small) && small(c->getResult(0));
    });
    Emitter ce{{b, loc, narrow ? b.getI32Type() : Type()}};
    SmallVector<Value> coords = out;
    if (narrow) {
      Value lin32 = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), lin);
      for (size_t d = 0; d < shape.size(); ++d)
        coords[d] = ce.rem(ce.div(lin32, outStrides[d]), shape[d]);
    }
    value = mapBack(ce, ops.back()->getResult(0), coords, elem, argOf);
  } else if (auto g = dyn_cast<GatherOp>(op)) {
    ArrayRef<int64_t> inShape = shapeOf(g.getInput());
    ArrayRef<int64_t> idxShape = shapeOf(g.getIndices());
    int64_t axis = g.getAxis(), r = idxShape.size();
    SmallVector<Value> idxCoords(out.begin() + axis, out.begin() + axis + r);
    int64_t dim = inShape[axis];
    Value k = e.loadIndex(argOf(g.getIndices()), g.getIndices(),
                          e.linear(idxCoords, idxShape), dim);
    k = e.clamp(k, 0, std::max<int64_t>(dim - 1, 0));
    SmallVector<Value> in(out.begin(), out.begin() + axis);
    in.push_back(k);
    in.append(out.begin() + axis + r, out.end());
    value = e.load(argOf(g.getInput()), elem, e.linear(in, inShape));
  } else if (auto g = dyn_cast<GatherElementsOp>(op)) {
    // The output has the indices' shape.
    int64_t axis = g.getAxis();
    ArrayRef<int64_t> inShape = shapeOf(g.getInput());
    Value k =
        e.loadIndex(argOf(g.getIndices()), g.getIndices(), lin, inShape[axis]);
    SmallVector<Value> in(out);
    in[axis] = e.clamp(k, 0, std::max<int64_t>(inShape[axis] - 1, 0));
    value = e.load(argOf(g.getInput()), elem, e.linear(in, inShape));
  } else if (auto g = dyn_cast<GatherNDOp>(op)) {
    ArrayRef<int64_t> inShape = shapeOf(g.getInput());
    ArrayRef<int64_t> idxShape = shapeOf(g.getIndices());
    int64_t q = idxShape.size(), k = idxShape.back(), batch = g.getBatchDims();
    Value tuple = e.mul(
        e.linear(ArrayRef<Value>(out).take_front(q - 1), idxShape.drop_back()),
        k);
    SmallVector<Value> in(out.begin(), out.begin() + batch);
    for (int64_t j = 0; j < k; ++j) {
      int64_t dim = inShape[batch + j];
      Value c = e.loadIndex(argOf(g.getIndices()), g.getIndices(),
                            e.add(tuple, e.idx(j)), dim);
      in.push_back(e.clamp(c, 0, std::max<int64_t>(dim - 1, 0)));
    }
    in.append(out.begin() + q - 1, out.end());
    value = e.load(argOf(g.getInput()), elem, e.linear(in, inShape));
  } else if (auto s = dyn_cast<ScatterNDOp>(op)) {
    ArrayRef<int64_t> idxShape = shapeOf(s.getIndices());
    int64_t k = idxShape.back(), tuples = 1, slice = 1;
    for (int64_t d : idxShape.drop_back())
      tuples *= d;
    for (int64_t d : shape.drop_front(k))
      slice *= d;
    Value inSlice =
        e.linear(ArrayRef<Value>(out).drop_front(k), shape.drop_front(k));
    Type type = outType.getElementType();
    Value init = e.load(argOf(s.getInput()), elem, lin);
    value = e.loop(tuples, init, [&](Value u, Value acc) {
      Value hit =
          arith::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
      for (int64_t j = 0; j < k; ++j) {
        Value c = e.loadIndex(argOf(s.getIndices()), s.getIndices(),
                              e.add(e.mul(u, k), e.idx(j)), shape[j]);
        hit = arith::AndIOp::create(b, loc, hit, e.eq(c, out[j]));
      }
      Value update =
          e.load(argOf(s.getUpdates()), elem, e.add(e.mul(u, slice), inSlice));
      return arith::SelectOp::create(
          b, loc, hit, e.combine(s.getReduction(), type, acc, update), acc);
    });
  } else if (auto s = dyn_cast<ScatterElementsOp>(op)) {
    // Only the updates on this element's line along the axis can land on
    // it; none can where the element lies outside the indices' extent.
    int64_t axis = s.getAxis();
    ArrayRef<int64_t> idxShape = shapeOf(s.getIndices());
    Value covered =
        arith::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
    SmallVector<Value> at(out);
    for (size_t d = 0; d < shape.size(); ++d) {
      if (static_cast<int64_t>(d) == axis || idxShape[d] == shape[d])
        continue;
      covered =
          arith::AndIOp::create(b, loc, covered, e.ult(out[d], idxShape[d]));
      at[d] = e.clamp(out[d], 0, std::max<int64_t>(idxShape[d] - 1, 0));
    }
    int64_t count = llvm::is_contained(idxShape, 0) ? 0 : idxShape[axis];
    Type type = outType.getElementType();
    Value init = e.load(argOf(s.getInput()), elem, lin);
    value = e.loop(count, init, [&](Value t, Value acc) {
      SmallVector<Value> pos(at);
      pos[axis] = t;
      Value p = e.linear(pos, idxShape);
      Value c =
          e.loadIndex(argOf(s.getIndices()), s.getIndices(), p, shape[axis]);
      Value hit = arith::AndIOp::create(b, loc, covered, e.eq(c, out[axis]));
      Value update = e.load(argOf(s.getUpdates()), elem, p);
      return arith::SelectOp::create(
          b, loc, hit, e.combine(s.getReduction(), type, acc, update), acc);
    });
  } else if (auto p = dyn_cast<PadOp>(op);
             p && p.getMode() == PadMode::constant &&
             llvm::is_contained(shapeOf(p.getInput()), 0)) {
    // Padding an empty tensor: every element is the fill value.
    value = fillValue(b, loc, elem, p.getValue().convertToDouble());
  } else {
    return op->emitOpError("has no data-movement code generation");
  }

  Value outBase = entry.getArgument(fusion.getInputs().size());
  Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), lin);
  Value ptr = LLVM::GEPOp::create(b, loc, ptrTy, elem, outBase, ValueRange{i});
  LLVM::StoreOp::create(b, loc, *value, ptr);

  KernelInfo info;
  info.name = name.str();
  info.grid = llvm::divideCeil(numel, kBlockSize);
  info.block = kBlockSize;
  info.flops = 0;
  int64_t width = elementBytes(outType.getElementType());
  info.bytes = 2 * numel * width;
  return info;
}
