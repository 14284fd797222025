//===- PointwiseKernel.cpp - brrr.fusion pointwise -> gpu.func -----------===//
//
// The pointwise kernel family. Each thread owns `vec` consecutive output
// elements (16 bytes of the widest same-shaped operand): operands with the
// output's shape are read and written with one 16-byte access, broadcast
// operands element by element through their strides, transposed inputs
// element by element through the permutation. The fused ops are
// re-emitted per element as arith/math scalars; f16 and bf16 are computed in
// f32 and rounded once at the store. Booleans are one byte in memory.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"
#include "compiler/CodeGen/PointwiseEmitter.h"

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::brrr;
using namespace mlir::brrr::pointwise;

namespace {

/// Vectors per thread go from 1 to 4 once the grid would still have this
/// many blocks (about 2 waves of 4 blocks on a 132-SM GPU).
constexpr int64_t kUnrollMinBlocks = 1056;

} // namespace

FailureOr<KernelInfo> mlir::brrr::emitPointwiseKernel(FusionOp fusion,
                                                      OpBuilder &moduleBuilder,
                                                      StringRef name) {
  MLIRContext *ctx = fusion.getContext();
  Location loc = fusion.getLoc();
  auto outType = cast<RankedTensorType>(fusion.getResult(0).getType());
  for (Value r : fusion.getResults())
    if (cast<RankedTensorType>(r.getType()).getShape() != outType.getShape())
      return fusion.emitOpError("pointwise results must share one shape");
  ArrayRef<int64_t> shape = outType.getShape();
  int64_t numel = outType.getNumElements();

  FailureOr<KernelConfigAttr> config = kernelConfigOf(fusion);
  if (failed(config))
    return failure();
  int64_t vec = config->getVector(), blockSize = config->getThreads();
  if (numel % vec != 0)
    return fusion.emitOpError("vector width ")
           << vec << " does not divide the " << numel << " elements";

  auto ptrTy = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  auto func = createKernel(moduleBuilder, loc, name,
                           fusion.getInputs().size() + fusion.getNumResults(),
                           blockSize);

  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  PointwiseEmitter e(b, loc);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  // Each block covers `unroll` consecutive chunks of blockSize vectors;
  // a thread issues all its 16-byte loads before computing, so more bytes
  // are in flight per thread. Blocks wholly inside the tensor take the
  // unguarded path; the last one checks every vector.
  int64_t numVectors = numel / vec;
  int64_t unroll = numVectors >= 4 * blockSize * kUnrollMinBlocks ? 4 : 1;
  int64_t chunk = blockSize * vec;
  OpBuilder end = OpBuilder::atBlockEnd(&entry);
  gpu::ReturnOp::create(end, loc);
  b.setInsertionPoint(entry.getTerminator());
  Value blockStart = arith::MulIOp::create(b, loc, bid, e.idx(unroll * chunk));
  Value threadOffset = arith::MulIOp::create(b, loc, tid, e.idx(vec));

  auto i64 = b.getI64Type();
  auto toI64 = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, i64, v);
  };
  Block &body = fusion.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  // Transposes of inputs (brrr-fuse-elementwise keeps them at the leaves,
  // with the kernel's shape); inputs read only through them are not loaded
  // in the kernel's index space.
  SmallVector<TransposeOp> transposes;
  SmallVector<bool> readOnlyTransposed(body.getNumArguments(), false);
  for (Operation &op : body.without_terminator()) {
    if (isPointwise(&op) || isa<ConstantOp>(op))
      continue;
    auto tr = dyn_cast<TransposeOp>(op);
    if (!tr || !isa<BlockArgument>(tr.getInput()) ||
        tr.getType().getShape() != shape)
      return op.emitOpError("cannot be fused into a pointwise kernel");
    transposes.push_back(tr);
  }
  for (BlockArgument arg : body.getArguments())
    readOnlyTransposed[arg.getArgNumber()] =
        !arg.use_empty() && llvm::all_of(arg.getUsers(), [](Operation *u) {
          return isa<TransposeOp>(u);
        });

  // Loads, computes and stores the vectors starting at `firsts`.
  auto emitVectors = [&](ArrayRef<Value> firsts) -> LogicalResult {
    // Every load of every vector first, so they are all in flight at once
    // (a store could alias a later load, so nothing may be reordered).
    SmallVector<SmallVector<SmallVector<Value>>> lanesOf;
    for (Value first : firsts) {
      Value firstI64 = toI64(first);
      // Loads: lanes[input][lane] holds the scalar in its compute type.
      SmallVector<SmallVector<Value>> lanes;
      for (auto [k, input] : llvm::enumerate(fusion.getInputs())) {
        auto t = cast<RankedTensorType>(input.getType());
        Type et = t.getElementType(), mt = memoryType(et);
        Value base = entry.getArgument(k);
        SmallVector<Value> values;
        auto finish = [&](Value raw) { return e.fromMemory(raw, et); };
        if (readOnlyTransposed[k]) {
          // Read through its transposes only (below).
        } else if (t.getShape() == shape) {
          Type vt = vec > 1 ? Type(VectorType::get({vec}, mt)) : mt;
          Value ptr = LLVM::GEPOp::create(b, loc, ptrTy, mt, base,
                                          ValueRange{firstI64});
          Value loaded =
              LLVM::LoadOp::create(b, loc, vt, ptr, vec * elementBytes(et));
          for (int64_t l = 0; l < vec; ++l) {
            Value raw = vec > 1 ? Value(LLVM::ExtractElementOp::create(
                                      b, loc, loaded, e.cst(b.getI32Type(), l)))
                                : loaded;
            values.push_back(finish(raw));
          }
        } else {
          // Broadcast operand: per lane, the element that broadcasts to
          // the lane's output element.
          IndexMath im{b, loc};
          for (int64_t l = 0; l < vec; ++l) {
            Value linear = arith::AddIOp::create(b, loc, first, e.idx(l));
            Value index = im.broadcastIndex(linear, shape, t.getShape());
            Value ptr = LLVM::GEPOp::create(b, loc, ptrTy, mt, base,
                                            ValueRange{toI64(index)});
            values.push_back(finish(LLVM::LoadOp::create(b, loc, mt, ptr)));
          }
        }
        lanes.push_back(std::move(values));
      }
      // Transposed inputs: per lane, the element at the permuted
      // coordinates of the lane's output element.
      for (TransposeOp tr : transposes) {
        auto arg = cast<BlockArgument>(tr.getInput());
        auto inType = cast<RankedTensorType>(arg.getType());
        Type et = inType.getElementType(), mt = memoryType(et);
        SmallVector<int64_t> inStrides = rowMajorStrides(inType.getShape());
        SmallVector<int64_t> outStrides = rowMajorStrides(shape);
        IndexMath im{b, loc};
        SmallVector<Value> values;
        for (int64_t l = 0; l < vec; ++l) {
          Value linear = arith::AddIOp::create(b, loc, first, e.idx(l));
          Value index = e.idx(0);
          for (auto [d, p] : llvm::enumerate(tr.getPerm())) {
            Value coord = arith::RemUIOp::create(
                b, loc,
                arith::DivUIOp::create(b, loc, linear, e.idx(outStrides[d])),
                e.idx(shape[d]));
            index = im.add(index, im.mul(coord, inStrides[p]));
          }
          Value ptr = LLVM::GEPOp::create(b, loc, ptrTy, mt,
                                          entry.getArgument(arg.getArgNumber()),
                                          ValueRange{toI64(index)});
          values.push_back(
              e.fromMemory(LLVM::LoadOp::create(b, loc, mt, ptr), et));
        }
        lanes.push_back(std::move(values));
      }
      lanesOf.push_back(std::move(lanes));
    }
    for (auto [f, first] : llvm::enumerate(firsts)) {
      Value firstI64 = toI64(first);
      auto &lanes = lanesOf[f];

      // Compute every lane.
      SmallVector<SmallVector<Value>> results(fusion.getNumResults());
      for (int64_t l = 0; l < vec; ++l) {
        DenseMap<Value, Value> scalar;
        for (auto [k, arg] : llvm::enumerate(body.getArguments()))
          if (!readOnlyTransposed[k])
            scalar[arg] = lanes[k][l];
        for (auto [k, tr] : llvm::enumerate(transposes))
          scalar[tr.getResult()] = lanes[body.getNumArguments() + k][l];
        // Every input is loaded above: nothing is left to `load`.
        if (failed(e.emitOps(body.without_terminator(), scalar,
                             [](Value) { return Value(); })))
          return failure();
        for (auto [k, v] : llvm::enumerate(yield.getValues()))
          results[k].push_back(scalar.lookup(v));
      }

      // Stores.
      for (auto [k, r] : llvm::enumerate(fusion.getResults())) {
        Type et = elementOf(r), mt = memoryType(et);
        Value base = entry.getArgument(fusion.getInputs().size() + k);
        SmallVector<Value> stored;
        for (Value v : results[k])
          stored.push_back(e.toMemory(v, et));
        Value ptr =
            LLVM::GEPOp::create(b, loc, ptrTy, mt, base, ValueRange{firstI64});
        if (vec == 1) {
          LLVM::StoreOp::create(b, loc, stored[0], ptr);
          continue;
        }
        auto vt = VectorType::get({vec}, mt);
        Value v = LLVM::PoisonOp::create(b, loc, vt);
        for (int64_t l = 0; l < vec; ++l)
          v = LLVM::InsertElementOp::create(b, loc, v, stored[l],
                                            e.cst(b.getI32Type(), l));
        LLVM::StoreOp::create(b, loc, v, ptr, vec * elementBytes(et));
      }
    }
    return success();
  };

  if (unroll > 1) {
    Value full = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule,
        arith::AddIOp::create(b, loc, blockStart, e.idx(unroll * chunk)),
        e.idx(numel));
    auto ifFull = scf::IfOp::create(b, loc, full, /*withElseRegion=*/true);
    b.setInsertionPointToStart(&ifFull.getThenRegion().front());
    SmallVector<Value> firsts;
    for (int64_t k = 0; k < unroll; ++k)
      firsts.push_back(arith::AddIOp::create(
          b, loc, blockStart,
          arith::AddIOp::create(b, loc, e.idx(k * chunk), threadOffset)));
    if (failed(emitVectors(firsts)))
      return failure();
    b.setInsertionPointToStart(&ifFull.getElseRegion().front());
  }
  for (int64_t k = 0; k < unroll; ++k) {
    Value first = arith::AddIOp::create(
        b, loc, blockStart,
        arith::AddIOp::create(b, loc, e.idx(k * chunk), threadOffset));
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          first, e.idx(numel));
    auto ifIn = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifIn.getThenRegion().front());
    if (failed(emitVectors({first})))
      return failure();
  }

  KernelInfo info;
  info.name = name.str();
  info.grid = llvm::divideCeil(numVectors, blockSize * unroll);
  info.block = blockSize;
  int64_t ops = 0;
  for (Operation &op : body.without_terminator())
    if (!isa<ConstantOp>(op))
      ++ops;
  info.flops = ops * numel;
  info.bytes = fusionBytes(fusion);
  return info;
}
