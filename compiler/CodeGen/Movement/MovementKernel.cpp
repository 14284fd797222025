//===- MovementKernel.cpp - brrr.fusion movement -> gpu.func --------------===//
//
// The data-movement kernel family: transpose, slice, expand, concat, pad,
// trees of those (with reshapes between them: a concatenation picks the
// operand that holds each element), and the
// index-driven gather, gather_elements, gather_nd, scatter_elements and
// scatter_nd, and resize. A tree's kernel (its config chosen by
// brrr-select-kernel-config) is emitted as a pointwise kernel without
// arithmetic: each thread stores a vector of consecutive output elements
// and reads each through the tree (PointwiseReads.h; 16-bit floats pass
// through f32, exactly but for a NaN's payload). Otherwise each thread writes
// one output element and reads the input element it comes from, found by index
// arithmetic on static shapes (constant divisors), or for a lookup, slice,
// transpose or concatenation whose strides change with the shape
// (movesAtActualExtents, transposesAtActualExtents, concatsAtActualExtents),
// on the actual extents, kernel parameters.
// Elements move as raw bits; only a scatter's reduction computes. Gather
// indices are normalized (negative counts from the end) and clamped into range
// so that a bad index can never read outside the input. A kernel with a
// `#brrr.index_check` also reports the first index outside [-extent, extent) it
// reads into the run's error record (runtime/Artifact.h's ErrorRecord), its
// last parameter.
//
// A scatter is computed from the output's side too, so that no two threads
// write one element and the result is deterministic: the thread of element
// e starts from the input's e and walks the updates that can land on e in
// their row-major order (every index tuple for scatter_nd; the one line
// along the axis for scatter_elements), combining each that does. An index
// out of range matches no element and writes nothing.
//
// A resize's thread computes its element as ResizeElement.h says. What
// the kernels share (index loads and checks, scatter reductions, a tree's
// element mapped back to its input) is in MovementEmitter.h.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/IndexMaps.h"
#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/Movement/MovementEmitter.h"
#include "compiler/CodeGen/Movement/ResizeElement.h"

#include "passes/Analysis.h"
#include "passes/Config/Movement.h"
#include "runtime/Artifact.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <cstddef>
#include <functional>

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::movement;

namespace {

/// [B][R][S] -> [B][S][R] through an edge x (edge + 1) shared tile per
/// block (the config's tile: [edge, rows], edge x rows threads): reads
/// along S and writes along R are both coalesced (a thread per element
/// reads one side with a stride of a whole row otherwise).
FailureOr<KernelInfo> emitTiledTranspose(FusionOp fusion, TransposeOp t,
                                         std::array<int64_t, 3> brs,
                                         KernelConfigAttr config,
                                         OpBuilder &moduleBuilder,
                                         StringRef name) {
  int64_t edge = config.getTile()[0], rows = config.getTile()[1];
  // Over a symbolic outer run, which lies in B (compilesSymbolically): the
  // largest shape's kernel over the actual batches, one grid z each (the
  // config's grid_extents).
  std::optional<LargestShapeView> largest;
  if (isSymbolic(t.getInput().getType()))
    largest.emplace(fusion);
  MLIRContext *ctx = fusion.getContext();
  Location loc = fusion.getLoc();
  auto [B, R, S] = brs;
  Type elem = storageType(t.getType().getElementType());
  int64_t tilesS = llvm::divideCeil(S, edge);
  // The tile, a static shared array of this kernel.
  auto tileType = LLVM::LLVMArrayType::get(elem, edge * (edge + 1));
  std::string tileName = (name + "_tile").str();
  {
    OpBuilder::InsertionGuard guard(moduleBuilder);
    moduleBuilder.setInsertionPointToStart(moduleBuilder.getInsertionBlock());
    LLVM::GlobalOp::create(moduleBuilder, loc, tileType, /*isConstant=*/false,
                           LLVM::Linkage::Internal, tileName, Attribute(),
                           /*alignment=*/16, /*addrSpace=*/3);
  }
  auto func = createKernel(moduleBuilder, loc, name,
                           fusion.getInputs().size() + 1, config.getThreads());
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  Emitter e{{b, loc}};
  auto sharedPtr = LLVM::LLVMPointerType::get(ctx, 3);
  Value tile = LLVM::AddressOfOp::create(b, loc, sharedPtr, tileName);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value tx = e.rem(tid, edge), ty = e.div(tid, edge);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value batch = gpu::BlockIdOp::create(b, loc, gpu::Dimension::z);
  Value r0 = e.mul(e.div(bid, tilesS), edge);
  Value s0 = e.mul(e.rem(bid, tilesS), edge);
  Value in = kernelArgument(entry, t.getInput());
  Value out = entry.getArgument(fusion.getInputs().size());
  auto slot = [&](Value row, Value col) {
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                         e.add(e.mul(row, edge + 1), col));
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
  for (int64_t i = 0; i < edge / rows; ++i) {
    Value row = e.add(ty, e.idx(rows * i));
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
  for (int64_t i = 0; i < edge / rows; ++i) {
    Value col = e.add(ty, e.idx(rows * i));
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
  info.block = config.getThreads();
  info.bytes = 2 * t.getType().getNumElements() *
               elementBytes(t.getType().getElementType());
  return info;
}

/// A data-movement kernel of an element a thread (neither a tree of
/// vectors nor a tiled transpose): each thread takes one output element,
/// its coordinates, the op's value there (a function per kind of op, or
/// the tree mapped back to its inputs), and stores it. Over a symbolic outer
/// run (a tree or a gather that carries it through, compilesSymbolically):
/// the largest shape's kernel, its element count read at run time.
class ElementMover {
public:
  ElementMover(FusionOp fusion, ArrayRef<Operation *> ops, bool isTree,
               KernelConfigAttr config, OpBuilder &moduleBuilder)
      : fusion(fusion), ops(ops), isTree(isTree), op(ops.back()),
        moduleBuilder(moduleBuilder), loc(fusion.getLoc()),
        blockSize(config.getThreads()), b(fusion.getContext()), e{{b, loc}} {}

  FailureOr<KernelInfo> emit(StringRef name);

private:
  /// The extents read at run time, and the kernel's types at the largest
  /// shape.
  void readShapes();
  /// The kernel function, this thread's element and its coordinates.
  void createFunction(StringRef name);
  /// A tree of index maps and concatenations, mapped back to its inputs.
  Value treeValue();
  Value gatherValue(GatherOp g);
  /// A lookup in a table whose strides change with the shape, and a slice
  /// of a symbolic axis whose extent it changes: every coordinate and
  /// offset from the actual extents (`actual`).
  Value actualGatherValue(GatherOp g);
  Value actualSliceValue(SliceOp s);
  /// A lookup along an axis by indices of the output's shape where the
  /// extents do not share one outer run (movesAtActualExtents): every
  /// coordinate from the actual extents.
  Value actualGatherElementsValue(GatherElementsOp g);
  /// A transpose that moves symbolic extents out of its outer run
  /// (transposesAtActualExtents), from the actual extents.
  Value actualTransposeValue(TransposeOp t);
  /// A concatenation along a symbolic axis (concatsAtActualExtents): the
  /// input whose run along the axis holds the element, read at its actual
  /// extents.
  Value actualConcatValue(ConcatOp c);
  /// The extents `actual` lists from position `from` on, `n` of them: each
  /// a constant, or the next kernel parameter.
  SmallVector<Value> actualExtents(size_t from, size_t n);
  /// This thread's element's coordinates in a tensor of extents `dims`.
  SmallVector<Value> actualCoords(ArrayRef<Value> dims);
  /// The row-major index of `coords` in a tensor of extents `dims`.
  Value actualLinear(ArrayRef<Value> coords, ArrayRef<Value> dims);
  Value gatherElementsValue(GatherElementsOp g);
  Value gatherNDValue(GatherNDOp g);
  Value scatterNDValue(ScatterNDOp s);
  Value scatterElementsValue(ScatterElementsOp s);
  Value resizeValue(ResizeOp r);
  KernelInfo info(StringRef name) const;

  Value argOf(Value v) { return kernelArgument(*entry, v); }
  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }

  FusionOp fusion;
  ArrayRef<Operation *> ops;
  bool isTree;
  Operation *op; ///< the last op, whose result the kernel stores
  OpBuilder &moduleBuilder;
  Location loc;
  int64_t blockSize;
  OpBuilder b;
  Emitter e;

  /// The element count over symbolic extents (null where fixed), and a
  /// lookup's table extent where the table is symbolic in its first
  /// dimension: the lookup bounds the indices by it, read at run time
  /// after the count.
  AffineExpr count, tableExtent;
  /// Where strides change with the shape (movesAtActualExtents,
  /// transposesAtActualExtents, concatsAtActualExtents): a lookup's table
  /// extents, or a slice's, transpose's or concatenation's output then input
  /// extents. The symbolic ones are read at run time after the count, in
  /// order.
  SmallVector<AffineExpr> actual;
  std::optional<LargestShapeView> largest;
  RankedTensorType outType;
  ArrayRef<int64_t> shape;
  int64_t numel = 0;
  Type elem;
  IndexCheckAttr check;
  unsigned numInputs = 0, numBuffers = 0;

  Block *entry = nullptr;
  Value lin;              ///< this thread's output element
  SmallVector<Value> out; ///< its coordinates
  SmallVector<int64_t> outStrides;
};

void ElementMover::readShapes() {
  auto symbolicOut = cast<RankedTensorType>(op->getResult(0).getType());
  count = isSymbolic(symbolicOut) ? elementCountOf(symbolicOut) : AffineExpr();
  if (movesAtActualExtents(op) || transposesAtActualExtents(op)) {
    if (isa<SliceOp, TransposeOp, GatherElementsOp>(op))
      actual = extentsOf(cast<RankedTensorType>(op->getResult(0).getType()));
    llvm::append_range(
        actual, extentsOf(cast<RankedTensorType>(op->getOperand(0).getType())));
  } else if (concatsAtActualExtents(op)) {
    // The output's extents, then each input's.
    actual = extentsOf(cast<RankedTensorType>(op->getResult(0).getType()));
    for (Type t : op->getOperandTypes())
      llvm::append_range(actual, extentsOf(cast<RankedTensorType>(t)));
  } else if (count && isa<GatherOp, GatherNDOp>(op) &&
             isSymbolic(op->getOperand(0).getType()))
    tableExtent =
        extentsOf(cast<RankedTensorType>(op->getOperand(0).getType())).front();
  if (count)
    largest.emplace(fusion);
  outType = cast<RankedTensorType>(op->getResult(0).getType());
  shape = outType.getShape();
  numel = outType.getNumElements();
  elem = storageType(outType.getElementType());
  check = fusion->getAttrOfType<IndexCheckAttr>(kIndexCheckAttrName);
  numInputs = fusion.getInputs().size();
  // The inputs and the output, the element count over symbolic extents,
  // then the error record where indices are checked.
  numBuffers = numInputs + 1;
}

void ElementMover::createFunction(StringRef name) {
  auto func =
      createKernel(moduleBuilder, loc, name, numBuffers, blockSize,
                   /*numByValue=*/0,
                   /*numScalars=*/(count ? 1 : 0) + (tableExtent ? 1 : 0) +
                       unsigned(llvm::count_if(actual, isRunTimeExtent)),
                   /*errorRecord=*/bool(check));
  entry = &func.getBody().front();
  b.setInsertionPointToStart(entry);
  if (check) {
    e.record = entry->getArguments().back();
    e.checkId = check.getId();
  }
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  lin = e.add(e.mul(bid, blockSize), tid);
  Value end = count ? indexArgument(b, loc, *entry, numBuffers) : e.idx(numel);
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lin, end);
  auto ifIn = scf::IfOp::create(b, loc, inRange, false);
  gpu::ReturnOp::create(b, loc);
  b.setInsertionPointToStart(&ifIn.getThenRegion().front());
  // Output coordinates of this thread's element (from the actual extents,
  // actualCoords, where strides change with the shape).
  if (!actual.empty())
    return;
  outStrides = rowMajorStrides(shape);
  for (size_t d = 0; d < shape.size(); ++d)
    out.push_back(arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, lin, e.idx(outStrides[d])),
        e.idx(shape[d])));
}

Value ElementMover::treeValue() {
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
  return mapBack(ce, ops.back()->getResult(0), coords, elem,
                 [&](Value v) { return argOf(v); });
}

Value ElementMover::gatherValue(GatherOp g) {
  ArrayRef<int64_t> inShape = shapeOf(g.getInput());
  ArrayRef<int64_t> idxShape = shapeOf(g.getIndices());
  int64_t axis = g.getAxis(), r = idxShape.size();
  SmallVector<Value> idxCoords(out.begin() + axis, out.begin() + axis + r);
  int64_t dim = inShape[axis];
  // The table's actual rows where they are symbolic (axis 0).
  Extent rows = tableExtent
                    ? Extent(indexArgument(b, loc, *entry, numBuffers + 1))
                    : Extent(dim);
  Value k = e.loadIndex(argOf(g.getIndices()), g.getIndices(),
                        e.linear(idxCoords, idxShape), rows, axis);
  k = rows.value ? e.clampBelow(k, rows.value)
                 : e.clamp(k, 0, std::max<int64_t>(dim - 1, 0));
  SmallVector<Value> in(out.begin(), out.begin() + axis);
  in.push_back(k);
  in.append(out.begin() + axis + r, out.end());
  return e.load(argOf(g.getInput()), elem, e.linear(in, inShape));
}

SmallVector<Value> ElementMover::actualExtents(size_t from, size_t n) {
  // Parameters after the count, one per symbolic extent before `from`.
  unsigned next =
      numBuffers + (count ? 1 : 0) +
      llvm::count_if(ArrayRef(actual).take_front(from), isRunTimeExtent);
  SmallVector<Value> dims;
  for (AffineExpr x : ArrayRef(actual).slice(from, n))
    dims.push_back(isRunTimeExtent(x)
                       ? indexArgument(b, loc, *entry, next++)
                       : e.idx(cast<AffineConstantExpr>(x).getValue()));
  return dims;
}

SmallVector<Value> ElementMover::actualCoords(ArrayRef<Value> dims) {
  // Innermost first; the first coordinate is what is left (the element is
  // below the count).
  SmallVector<Value> coords(dims.size());
  Value rest = lin;
  for (size_t d = dims.size(); d-- > 1;) {
    coords[d] = arith::RemUIOp::create(b, loc, rest, dims[d]);
    rest = arith::DivUIOp::create(b, loc, rest, dims[d]);
  }
  if (!dims.empty())
    coords[0] = rest;
  return coords;
}

Value ElementMover::actualLinear(ArrayRef<Value> coords, ArrayRef<Value> dims) {
  Value at = coords.front();
  for (size_t d = 1; d < coords.size(); ++d)
    at = e.add(arith::MulIOp::create(b, loc, at, dims[d]), coords[d]);
  return at;
}

Value ElementMover::actualGatherValue(GatherOp g) {
  SmallVector<Value> table = actualExtents(0, actual.size());
  ArrayRef<int64_t> idxShape = shapeOf(g.getIndices());
  int64_t axis = g.getAxis(), r = idxShape.size();
  // The output's: the table's with the axis replaced by the indices'.
  SmallVector<Value> dims(table.begin(), table.begin() + axis);
  for (int64_t d : idxShape)
    dims.push_back(e.idx(d));
  dims.append(table.begin() + axis + 1, table.end());
  SmallVector<Value> coords = actualCoords(dims);
  SmallVector<Value> idxCoords(coords.begin() + axis,
                               coords.begin() + axis + r);
  Extent rows(table[axis]);
  Value k = e.loadIndex(argOf(g.getIndices()), g.getIndices(),
                        e.linear(idxCoords, idxShape), rows, axis);
  k = e.clampBelow(k, rows.value);
  SmallVector<Value> in(coords.begin(), coords.begin() + axis);
  in.push_back(k);
  in.append(coords.begin() + axis + r, coords.end());
  return e.load(argOf(g.getInput()), elem, actualLinear(in, table));
}

Value ElementMover::actualSliceValue(SliceOp s) {
  size_t rank = s.getStarts().size();
  SmallVector<Value> outDims = actualExtents(0, rank);
  SmallVector<Value> inDims = actualExtents(rank, rank);
  SmallVector<Value> in = actualCoords(outDims);
  for (auto [c, start, step] : llvm::zip_equal(in, s.getStarts(), s.getSteps()))
    c = e.add(e.mul(c, step), e.idx(start));
  return e.load(argOf(s.getInput()), elem, actualLinear(in, inDims));
}

Value ElementMover::actualGatherElementsValue(GatherElementsOp g) {
  size_t rank = shapeOf(g.getIndices()).size();
  int64_t axis = g.getAxis();
  SmallVector<Value> outDims = actualExtents(0, rank);
  SmallVector<Value> inDims = actualExtents(rank, rank);
  SmallVector<Value> in = actualCoords(outDims);
  // The indices have the output's extents: this element's is at its own
  // linear index.
  Extent dim(inDims[axis]);
  Value k = e.loadIndex(argOf(g.getIndices()), g.getIndices(), lin, dim, axis);
  in[axis] = e.clampBelow(k, dim.value);
  return e.load(argOf(g.getInput()), elem, actualLinear(in, inDims));
}

Value ElementMover::actualTransposeValue(TransposeOp t) {
  ArrayRef<int64_t> perm = t.getPerm();
  SmallVector<Value> outDims = actualExtents(0, perm.size());
  SmallVector<Value> inDims = actualExtents(perm.size(), perm.size());
  SmallVector<Value> coords = actualCoords(outDims);
  // Output dimension d is the input's perm[d].
  SmallVector<Value> in(perm.size());
  for (auto [d, p] : llvm::enumerate(perm))
    in[p] = coords[d];
  return e.load(argOf(t.getInput()), elem, actualLinear(in, inDims));
}

Value ElementMover::actualConcatValue(ConcatOp c) {
  size_t rank = c.getType().getRank();
  int64_t axis = c.getAxis();
  SmallVector<Value> outDims = actualExtents(0, rank);
  SmallVector<Value> coords = actualCoords(outDims);
  SmallVector<SmallVector<Value>> inDims;
  for (size_t i = 0; i < c.getInputs().size(); ++i)
    inDims.push_back(actualExtents(rank * (i + 1), rank));
  // Input i holds the axis coordinates from the sum of the extents before
  // it: the first whose run ends past the element's, else the last.
  std::function<Value(size_t, Value)> from = [&](size_t i,
                                                 Value start) -> Value {
    auto read = [&] {
      SmallVector<Value> in(coords);
      in[axis] = arith::SubIOp::create(b, loc, coords[axis], start);
      return e.load(argOf(c.getInputs()[i]), elem, actualLinear(in, inDims[i]));
    };
    if (i + 1 == c.getInputs().size())
      return read();
    Value end = e.add(start, inDims[i][axis]);
    auto inside = scf::IfOp::create(
        b, loc, TypeRange{elem},
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, coords[axis],
                              end),
        true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&inside.getThenRegion().front());
    scf::YieldOp::create(b, loc, read());
    b.setInsertionPointToStart(&inside.getElseRegion().front());
    scf::YieldOp::create(b, loc, from(i + 1, end));
    return inside.getResult(0);
  };
  return from(0, e.idx(0));
}

Value ElementMover::gatherElementsValue(GatherElementsOp g) {
  // The output has the indices' shape.
  int64_t axis = g.getAxis();
  ArrayRef<int64_t> inShape = shapeOf(g.getInput());
  Value k = e.loadIndex(argOf(g.getIndices()), g.getIndices(), lin,
                        inShape[axis], axis);
  SmallVector<Value> in(out);
  in[axis] = e.clamp(k, 0, std::max<int64_t>(inShape[axis] - 1, 0));
  return e.load(argOf(g.getInput()), elem, e.linear(in, inShape));
}

Value ElementMover::gatherNDValue(GatherNDOp g) {
  ArrayRef<int64_t> inShape = shapeOf(g.getInput());
  ArrayRef<int64_t> idxShape = shapeOf(g.getIndices());
  int64_t q = idxShape.size(), k = idxShape.back(), batch = g.getBatchDims();
  Value tuple = e.mul(
      e.linear(ArrayRef<Value>(out).take_front(q - 1), idxShape.drop_back()),
      k);
  SmallVector<Value> in(out.begin(), out.begin() + batch);
  for (int64_t j = 0; j < k; ++j) {
    // The first dimension's actual extent where it is symbolic.
    int64_t fixed = inShape[batch + j];
    Extent dim = tableExtent && batch + j == 0
                     ? Extent(indexArgument(b, loc, *entry, numBuffers + 1))
                     : Extent(fixed);
    Value c = e.loadIndex(argOf(g.getIndices()), g.getIndices(),
                          e.add(tuple, e.idx(j)), dim, batch + j);
    in.push_back(dim.value ? e.clampBelow(c, dim.value)
                           : e.clamp(c, 0, std::max<int64_t>(fixed - 1, 0)));
  }
  in.append(out.begin() + q - 1, out.end());
  return e.load(argOf(g.getInput()), elem, e.linear(in, inShape));
}

Value ElementMover::scatterNDValue(ScatterNDOp s) {
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
  return e.loop(tuples, init, [&](Value u, Value acc) {
    Value hit =
        arith::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
    for (int64_t j = 0; j < k; ++j) {
      Value c = e.loadIndex(argOf(s.getIndices()), s.getIndices(),
                            e.add(e.mul(u, k), e.idx(j)), shape[j], j);
      hit = arith::AndIOp::create(b, loc, hit, e.eq(c, out[j]));
    }
    Value update =
        e.load(argOf(s.getUpdates()), elem, e.add(e.mul(u, slice), inSlice));
    return arith::SelectOp::create(
        b, loc, hit, e.combine(s.getReduction(), type, acc, update), acc);
  });
}

Value ElementMover::scatterElementsValue(ScatterElementsOp s) {
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
  int64_t updates = llvm::is_contained(idxShape, 0) ? 0 : idxShape[axis];
  Type type = outType.getElementType();
  Value init = e.load(argOf(s.getInput()), elem, lin);
  return e.loop(updates, init, [&](Value t, Value acc) {
    SmallVector<Value> pos(at);
    pos[axis] = t;
    Value p = e.linear(pos, idxShape);
    Value c = e.loadIndex(argOf(s.getIndices()), s.getIndices(), p, shape[axis],
                          axis);
    Value hit = arith::AndIOp::create(b, loc, covered, e.eq(c, out[axis]));
    Value update = e.load(argOf(s.getUpdates()), elem, p);
    return arith::SelectOp::create(
        b, loc, hit, e.combine(s.getReduction(), type, acc, update), acc);
  });
}

Value ElementMover::resizeValue(ResizeOp r) {
  Value input = argOf(r.getInput());
  return resizeElement(e, r, out, elem,
                       [&](Value at) { return e.load(input, elem, at); });
}

KernelInfo ElementMover::info(StringRef name) const {
  KernelInfo info;
  info.name = name.str();
  info.block = blockSize;
  info.flops = 0;
  int64_t width = elementBytes(outType.getElementType());
  info.bytes = 2 * numel * width;
  if (count)
    info.scalars = {count};
  if (tableExtent)
    info.scalars.push_back(tableExtent);
  llvm::append_range(info.scalars,
                     llvm::make_filter_range(actual, isRunTimeExtent));
  return info;
}

FailureOr<KernelInfo> ElementMover::emit(StringRef name) {
  readShapes();
  // Float8 values move as bytes (storageType): an op that computes with
  // them (a scatter's reduction, a resize's interpolation) has no code.
  Type out = outType.getElementType();
  bool computes = isa<ResizeOp>(op);
  if (auto s = dyn_cast<ScatterNDOp>(op))
    computes = s.getReduction() != ScatterReduction::none;
  if (auto s = dyn_cast<ScatterElementsOp>(op))
    computes = s.getReduction() != ScatterReduction::none;
  if (computes && storageType(out) != out && isa<FloatType>(out))
    return op->emitOpError("computes with ")
           << out << " values, which movement kernels only copy";
  createFunction(name);
  Value value;
  if (auto s = dyn_cast<SliceOp>(op); s && !actual.empty()) {
    value = actualSliceValue(s);
  } else if (auto t = dyn_cast<TransposeOp>(op); t && !actual.empty()) {
    value = actualTransposeValue(t);
  } else if (auto c = dyn_cast<ConcatOp>(op); c && !actual.empty()) {
    value = actualConcatValue(c);
  } else if (isTree) {
    value = treeValue();
  } else if (auto g = dyn_cast<GatherOp>(op)) {
    value = actual.empty() ? gatherValue(g) : actualGatherValue(g);
  } else if (auto g = dyn_cast<GatherElementsOp>(op)) {
    value =
        actual.empty() ? gatherElementsValue(g) : actualGatherElementsValue(g);
  } else if (auto g = dyn_cast<GatherNDOp>(op)) {
    value = gatherNDValue(g);
  } else if (auto s = dyn_cast<ScatterNDOp>(op)) {
    value = scatterNDValue(s);
  } else if (auto s = dyn_cast<ScatterElementsOp>(op)) {
    value = scatterElementsValue(s);
  } else if (auto r = dyn_cast<ResizeOp>(op)) {
    value = resizeValue(r);
  } else if (auto p = dyn_cast<PadOp>(op);
             p && p.getMode() == PadMode::constant &&
             llvm::is_contained(shapeOf(p.getInput()), 0)) {
    // Padding an empty tensor: every element is the fill value.
    value = fillValue(b, loc, outType.getElementType(),
                      p.getValue().convertToDouble());
  } else {
    return op->emitOpError("has no data-movement code generation");
  }
  Value outBase = entry->getArgument(numInputs);
  Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), lin);
  auto ptrTy = LLVM::LLVMPointerType::get(fusion.getContext(), 1);
  Value ptr = LLVM::GEPOp::create(b, loc, ptrTy, elem, outBase, ValueRange{i});
  LLVM::StoreOp::create(b, loc, value, ptr);
  return info(name);
}

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitMovementKernel(FusionOp fusion,
                                                     OpBuilder &moduleBuilder,
                                                     StringRef name) {
  Block &body = fusion.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  if (ops.empty())
    return fusion.emitOpError("movement kernels hold at least one op");
  // A tree of index maps and concatenations, or one op of any other kind.
  bool isTree = isMovementTree(fusion);
  if (!isTree && ops.size() > 1)
    return fusion.emitOpError("movement kernels hold one op or a tree of "
                              "index maps and concatenations");
  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  // A tree whose config names the vectors a thread computes
  // (movementVectorWidth) writes vectors of consecutive elements, read
  // through the tree as a pointwise kernel reads through data movement.
  if (config->getTile().size() == 1)
    return emitPointwiseKernel(fusion, moduleBuilder, name);
  // A transpose of two groups of dimensions, each at least a tile's edge
  // long, moves through shared tiles (a grid's z is below 2^16).
  if (config->getTile().size() == 2) {
    auto t = cast<TransposeOp>(body.front());
    return emitTiledTranspose(fusion, t, *batchedTransposeOf(t), *config,
                              moduleBuilder, name);
  }
  // Otherwise an element a thread.
  return ElementMover(fusion, ops, isTree, *config, moduleBuilder).emit(name);
}
