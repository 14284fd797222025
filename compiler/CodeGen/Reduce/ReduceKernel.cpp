//===- ReduceKernel.cpp - brrr.fusion reduce -> gpu.func ------------------===//
//
// The general reduction family, for the reductions row kernels do not take:
// leading or interleaved axes (a sum over the batch, a mean over H of
// NCHW), integer elements, whole tensors. Elements combine in their
// compute type (f32 for 16-bit floats), and a pointwise epilogue (a cast,
// an activation) runs on the result before the only store. As the config says
// (tile absent or [threads]):
// - one thread per output element walks the reduced elements in row-major
//   order. Neighbouring threads own neighbouring kept coordinates, so when
//   the innermost axis is kept (reducing leading axes) every step of the
//   walk is one coalesced read across the warp;
// - or one block per output: thread t combines reduced elements t,
//   t + threads, ... and the block combines the partial results in a tree
//   through the shared slots brrr-plan-shared-memory placed;
// - or, split rows (tile [lanes, groups]), for a run of reduced axes
//   before a kept innermost one ([outer][rows][inner]: a mean over H and W
//   of NHWC): a block takes `lanes` consecutive vectors of inner elements
//   of one outer index, `groups` threads walk the rows of each (a warp
//   reads whole rows of consecutive vectors), four rows in flight at a
//   time, and the groups combine in a tree through shared memory. A sum
//   or mean whose blocks would leave the GPU idle splits the rows over the
//   blocks of a cluster (config `cluster`), and block 0 adds the blocks'
//   partials through distributed shared memory.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "passes/Config/Rows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"


using namespace mlir;
using namespace mlir::brrr;

namespace {

/// Rows a split-rows thread has in flight at a time.
constexpr int64_t kSplitRowsUnroll = 4;

/// The combination a reduction applies, on values of its compute type.
struct Combination {
  ReduceKind kind;
  Type et;

  Value identity(pointwise::PointwiseEmitter &pe) const {
    Type ct = pointwise::computeType(et);
    switch (kind) {
    case ReduceKind::sum:
    case ReduceKind::mean:
      return pe.cst(ct, 0);
    case ReduceKind::prod:
      return pe.cst(ct, 1);
    case ReduceKind::max:
      return pe.extreme(et, /*lowest=*/true);
    case ReduceKind::min:
      return pe.extreme(et, /*lowest=*/false);
    }
    llvm_unreachable("unknown reduction");
  }

  Value combine(OpBuilder &b, Location loc, pointwise::PointwiseEmitter &pe,
                Value acc, Value v) const {
    bool isFloat = isa<FloatType>(pointwise::computeType(et));
    switch (kind) {
    case ReduceKind::sum:
    case ReduceKind::mean:
      return isFloat ? Value(arith::AddFOp::create(b, loc, acc, v))
                     : Value(arith::AddIOp::create(b, loc, acc, v));
    case ReduceKind::prod:
      return isFloat ? Value(arith::MulFOp::create(b, loc, acc, v))
                     : Value(arith::MulIOp::create(b, loc, acc, v));
    case ReduceKind::max:
      return pe.max(acc, v, et);
    case ReduceKind::min:
      return pe.min(acc, v, et);
    }
    llvm_unreachable("unknown reduction");
  }
};

/// The split-rows kernel of `fusion` (see the file comment) for `red`
/// under `config`; over symbolic rows (`rowsExtent`, their count as an
/// expression of the symbols) the actual rows are its i64 parameter after
/// the buffers.
FailureOr<KernelInfo> emitSplitRows(FusionOp fusion, ReduceOp red,
                                    KernelConfigAttr config,
                                    const Combination &how,
                                    AffineExpr rowsExtent,
                                    OpBuilder &moduleBuilder, StringRef name) {
  Location loc = fusion.getLoc();
  // A shape SplitRows describes, in vectors that divide its innermost
  // axis (the reduce rules' verify).
  std::optional<SplitRows> shape =
      SplitRows::shapeOf(red, /*toInnermost=*/bool(rowsExtent));
  int64_t vec = config.getVector();
  int64_t lanes = config.getTile()[0], groups = config.getTile()[1];
  int64_t threads = config.getThreads();
  int64_t rows = shape->rows, inner = shape->inner;
  int64_t chunks = inner / vec;
  int64_t chunkBlocks = llvm::divideCeil(chunks, lanes);
  int64_t cluster = config.getCluster();
  if (cluster > 1 && how.kind != ReduceKind::sum &&
      how.kind != ReduceKind::mean)
    return red.emitOpError("only sums and means split their rows over a "
                           "cluster");
  FailureOr<int64_t> partials = sharedOffset(fusion, SharedRole::partials);
  if (failed(partials))
    return failure();
  Type et = how.et, ct = pointwise::computeType(et);
  int64_t slotBytes = ct.getIntOrFloatBitWidth() / 8;
  if (*partials % slotBytes)
    return fusion.emitOpError("split-rows partials must be aligned to ")
           << slotBytes << " bytes";

  unsigned numInputs = fusion.getInputs().size();
  unsigned numBuffers = numInputs + fusion.getNumResults();
  auto func = createKernel(moduleBuilder, loc, name, numBuffers, threads,
                           /*numByValue=*/0,
                           /*numScalars=*/rowsExtent ? 1 : 0);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  IndexMath e{b, loc};
  pointwise::PointwiseEmitter pe(b, loc);
  auto select = [&](Value c, Value x, Value y) -> Value {
    return arith::SelectOp::create(b, loc, c, x, y);
  };
  // The rows: the actual ones over symbolic rows (at most `rows`, the
  // largest shape's, which sized the groups), else a constant.
  Value actualRows =
      rowsExtent ? indexArgument(b, loc, entry, numBuffers) : Value();
  auto rowCount = [&]() { return actualRows ? actualRows : e.idx(rows); };

  Value t = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  // A cluster's blocks are consecutive in x: block `rank` of a cluster
  // walks the rows rank * groups + group, then every groups * cluster on.
  Value clusterBlock = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value rank = e.rem(clusterBlock, cluster);
  Value blockId = e.div(clusterBlock, cluster);
  Value lane = e.rem(t, lanes), group = e.div(t, lanes);
  Value outer = e.div(blockId, chunkBlocks);
  Value chunk = e.add(e.mul(e.rem(blockId, chunkBlocks), lanes), lane);
  Value inGroups = e.ult(group, groups);
  Value active = arith::AndIOp::create(b, loc, inGroups, e.ult(chunk, chunks));
  Value base =
      e.add(actualRows
                ? e.mul(arith::MulIOp::create(b, loc, outer, actualRows), inner)
                : e.mul(outer, rows * inner),
            e.mul(select(active, chunk, e.idx(0)), vec));
  Value identity = how.identity(pe);

  // Rows group, group + groups, ... four at a time into four sets of
  // accumulators; an inactive thread walks none.
  SmallVector<Value> init(kSplitRowsUnroll * vec, identity);
  int64_t stride = groups * cluster;
  auto loop = scf::ForOp::create(
      b, loc, select(active, e.add(group, e.mul(rank, groups)), rowCount()),
      rowCount(), e.idx(stride * kSplitRowsUnroll), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> acc(loop.getRegionIterArgs());
    for (int64_t u = 0; u < kSplitRowsUnroll; ++u) {
      Value r = e.add(loop.getInductionVar(), e.idx(u * stride));
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, r,
                                       rowCount());
      Value at = select(ok, e.add(base, e.mul(r, inner)), base);
      SmallVector<Value> xs =
          loadElements(b, loc, entry.getArgument(0), et, at, vec);
      for (int64_t j = 0; j < vec; ++j) {
        Value x = select(ok, xs[j], identity);
        acc[u * vec + j] = how.combine(b, loc, pe, acc[u * vec + j], x);
      }
    }
    scf::YieldOp::create(b, loc, acc);
  }
  SmallVector<Value> acc;
  for (int64_t j = 0; j < vec; ++j) {
    Value a = loop.getResult(j);
    for (int64_t u = 1; u < kSplitRowsUnroll; ++u)
      a = how.combine(b, loc, pe, a, loop.getResult(u * vec + j));
    acc.push_back(a);
  }

  // Slot (t, j) holds element j of thread t's vector: a warp's slots are
  // consecutive. Group g's tree partner is the thread width * lanes on.
  Value smem = dynamicShared(moduleBuilder, b, loc);
  auto sptr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  auto slot = [&](Value thread, int64_t j) -> Value {
    Value at = e.add(e.add(thread, e.idx(j * lanes * groups)),
                     e.idx(*partials / slotBytes));
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), at);
    return LLVM::GEPOp::create(b, loc, sptr, ct, smem, ValueRange{i});
  };
  {
    auto store = scf::IfOp::create(b, loc, inGroups, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&store.getThenRegion().front());
    for (int64_t j = 0; j < vec; ++j)
      LLVM::StoreOp::create(b, loc, acc[j], slot(t, j));
  }
  gpu::BarrierOp::create(b, loc);
  for (int64_t width = llvm::PowerOf2Ceil(groups) / 2; width >= 1; width /= 2) {
    Value partner = e.add(group, e.idx(width));
    auto step =
        scf::IfOp::create(b, loc,
                          arith::AndIOp::create(b, loc, e.ult(group, width),
                                                e.ult(partner, groups)),
                          false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&step.getThenRegion().front());
      Value other = e.add(t, e.idx(width * lanes));
      for (int64_t j = 0; j < vec; ++j) {
        Value mine = LLVM::LoadOp::create(b, loc, ct, slot(t, j));
        Value theirs = LLVM::LoadOp::create(b, loc, ct, slot(other, j));
        LLVM::StoreOp::create(b, loc, how.combine(b, loc, pe, mine, theirs),
                              slot(t, j));
      }
    }
    gpu::BarrierOp::create(b, loc);
  }
  // Over a cluster, block 0 sums every block's partials (in block order)
  // once all are in shared memory.
  Value storing =
      arith::AndIOp::create(b, loc, e.ult(t, lanes), e.ult(chunk, chunks));
  if (cluster > 1) {
    clusterBarrier(b, loc);
    storing = arith::AndIOp::create(b, loc, storing, e.ult(rank, 1));
  }
  auto first = scf::IfOp::create(b, loc, storing, false);
  b.setInsertionPointToStart(&first.getThenRegion().front());
  for (int64_t j = 0; j < vec; ++j) {
    acc[j] = cluster > 1 ? sumOverCluster(b, loc, slot(t, j), ct, cluster,
                                          static_cast<unsigned>(slotBytes))
                         : LLVM::LoadOp::create(b, loc, ct, slot(t, j));
    if (how.kind == ReduceKind::mean)
      acc[j] = arith::DivFOp::create(
          b, loc, acc[j],
          actualRows ? Value(arith::UIToFPOp::create(
                           b, loc, ct,
                           arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                                        actualRows)))
                     : pe.cst(ct, static_cast<double>(rows)));
  }
  Value at = e.add(e.mul(outer, inner), e.mul(chunk, vec));
  if (failed(emitEpilogueVector(
          b, loc, fusion, red, acc, at,
          [&](Value v) { return kernelArgument(entry, v); },
          entry.getArguments().drop_front(numInputs))))
    return failure();
  b.setInsertionPointToEnd(&entry);
  // No block leaves while block 0 still reads its partials.
  if (cluster > 1) {
    clusterBarrier(b, loc);
    func->setAttr("nvvm.cluster_dim",
                  moduleBuilder.getDenseI32ArrayAttr(
                      {static_cast<int32_t>(cluster), 1, 1}));
  }
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.block = threads;
  info.flops =
      cast<RankedTensorType>(red.getInput().getType()).getNumElements();
  info.bytes = fusionBytes(fusion);
  if (rowsExtent)
    info.scalars = {rowsExtent};
  return info;
}

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitReduceKernel(FusionOp fusion,
                                                   OpBuilder &moduleBuilder,
                                                   StringRef name) {
  Location loc = fusion.getLoc();
  // The reduction, then only its pointwise epilogue.
  Block &body = fusion.getBody().front();
  auto red = dyn_cast<ReduceOp>(&body.front());
  if (!red || red.getInput() != body.getArgument(0))
    return fusion.emitOpError("reduce kernels start with a reduction of their "
                              "first input");
  for (Operation &op : llvm::drop_begin(body.without_terminator()))
    if (!isPointwise(&op) && !isa<ConstantOp>(op))
      return op.emitOpError("cannot be fused after a reduction");
  // Over a symbolic outer run (dimensions before every reduced axis,
  // compilesSymbolically): the largest shape's kernel, over the actual
  // outputs where a thread computes each (its grid is the config's).
  ReduceExtents extents = symbolicExtentsOf(red);
  AffineExpr outputsExtent = extents.outputs;
  std::optional<LargestShapeView> largest;
  if (outputsExtent)
    largest.emplace(fusion);
  auto inType = cast<RankedTensorType>(red.getInput().getType());
  Type et = inType.getElementType();
  if (et.isInteger(1))
    return red.emitOpError("reductions of booleans have no kernel");
  Type ct = pointwise::computeType(et), mt = pointwise::memoryType(et);
  bool isFloat = isa<FloatType>(ct);
  if (!isFloat && red.getKind() == ReduceKind::mean)
    return red.emitOpError("integer means have no kernel");

  ArrayRef<int64_t> shape = inType.getShape();
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  SmallVector<int64_t> kept, reduced;
  for (int64_t d = 0; d < inType.getRank(); ++d)
    (llvm::is_contained(red.getAxes(), d) ? reduced : kept).push_back(d);
  int64_t outputs = 1, count = 1;
  for (int64_t d : kept)
    outputs *= shape[d];
  for (int64_t d : reduced)
    count *= shape[d];

  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  Combination how{red.getKind(), et};
  if (config->getTile().size() == 2)
    return emitSplitRows(fusion, red, *config, how, extents.rows, moduleBuilder,
                         name);
  if (extents.rows)
    return red.emitOpError("symbolic rows reduce in split rows only");
  bool cooperative = !config->getTile().empty();
  int64_t block = config->getThreads();
  int64_t partials = 0;
  if (cooperative) {
    FailureOr<int64_t> offset = sharedOffset(fusion, SharedRole::partials);
    if (failed(offset))
      return failure();
    partials = *offset;
  }

  unsigned numInputs = fusion.getInputs().size();
  unsigned numBuffers = numInputs + fusion.getNumResults();
  // A thread per output bounds its threads by the actual outputs.
  bool boundAtRunTime = outputsExtent && !cooperative;
  auto func = createKernel(moduleBuilder, loc, name, numBuffers, block,
                           /*numByValue=*/0,
                           /*numScalars=*/boundAtRunTime ? 1 : 0);
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  IndexMath e{b, loc};
  pointwise::PointwiseEmitter pe(b, loc);
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 1);
  /// Coordinate `d` of a row-major index into `dims`, as a sum of
  /// coordinate * input stride over those dimensions.
  auto offsetOf = [&](Value linear, ArrayRef<int64_t> dims) {
    Value offset = e.idx(0);
    int64_t inner = 1;
    for (int64_t d : llvm::reverse(dims)) {
      Value coord = arith::RemUIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, linear, e.idx(inner)),
          e.idx(shape[d]));
      offset = e.add(offset, e.mul(coord, strides[d]));
      inner *= shape[d];
    }
    return offset;
  };

  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  // The output this thread (or, cooperating, this block) computes.
  Value tid = cooperative ? blockId : e.add(e.mul(blockId, block), thread);
  scf::IfOp inBounds;
  if (!cooperative) {
    Value bound = boundAtRunTime ? indexArgument(b, loc, entry, numBuffers)
                                 : e.idx(outputs);
    inBounds = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, bound),
        false);
    b.setInsertionPointToStart(&inBounds.getThenRegion().front());
  }
  Value base = offsetOf(tid, kept);

  Value init = how.identity(pe);
  auto combine = [&](Value acc, Value v) {
    return how.combine(b, loc, pe, acc, v);
  };

  auto loop = cooperative
                  ? scf::ForOp::create(b, loc, thread, e.idx(count),
                                       e.idx(block), ValueRange{init})
                  : scf::ForOp::create(b, loc, e.idx(0), e.idx(count),
                                       e.idx(1), ValueRange{init});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value at = e.add(base, offsetOf(loop.getInductionVar(), reduced));
    Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(), at);
    Value p = LLVM::GEPOp::create(b, loc, ptr, mt, entry.getArgument(0),
                                  ValueRange{i});
    Value v = pe.fromMemory(LLVM::LoadOp::create(b, loc, mt, p), et);
    scf::YieldOp::create(b, loc, combine(loop.getRegionIterArgs()[0], v));
  }
  Value acc = loop.getResult(0);
  if (cooperative) {
    // Tree over the block's partial results: after the step of width s,
    // slot t < s holds the combination of slots t, t + s, ...
    Value smem = dynamicShared(moduleBuilder, b, loc);
    auto sptr = LLVM::LLVMPointerType::get(b.getContext(), 3);
    auto slot = [&](Value i) -> Value {
      Value at = e.add(i, e.idx(partials / 8));
      Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), at);
      // Slots are 8 bytes whatever the compute type.
      Value p = LLVM::GEPOp::create(b, loc, sptr, b.getI64Type(), smem,
                                    ValueRange{i64});
      return p;
    };
    LLVM::StoreOp::create(b, loc, acc, slot(thread));
    gpu::BarrierOp::create(b, loc);
    for (int64_t width = block / 2; width >= 1; width /= 2) {
      auto active = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread,
                                e.idx(width)),
          false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&active.getThenRegion().front());
        Value mine = LLVM::LoadOp::create(b, loc, ct, slot(thread));
        Value other = LLVM::LoadOp::create(
            b, loc, ct, slot(e.add(thread, e.idx(width))));
        LLVM::StoreOp::create(b, loc, combine(mine, other), slot(thread));
      }
      gpu::BarrierOp::create(b, loc);
    }
    inBounds = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                              e.idx(0)),
        false);
    b.setInsertionPointToStart(&inBounds.getThenRegion().front());
    acc = LLVM::LoadOp::create(b, loc, ct, slot(e.idx(0)));
  }
  if (red.getKind() == ReduceKind::mean)
    acc = arith::DivFOp::create(b, loc, acc,
                                pe.cst(ct, static_cast<double>(count)));
  // Stored by the epilogue (the pointwise ops after the reduction, read
  // at output element `tid`).
  if (failed(emitEpilogue(
          b, loc, fusion, red, acc, tid,
          [&](Value v) { return kernelArgument(entry, v); },
          entry.getArguments().slice(numInputs, fusion.getNumResults()))))
    return failure();
  b.setInsertionPointToEnd(&entry);
  gpu::ReturnOp::create(b, loc);

  KernelInfo info;
  info.name = name.str();
  info.block = block;
  info.flops = inType.getNumElements();
  info.bytes = fusionBytes(fusion);
  if (boundAtRunTime)
    info.scalars = {outputsExtent};
  return info;
}
