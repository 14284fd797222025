//===- PointwiseKernel.cpp - brrr.fusion pointwise -> gpu.func -----------===//
//
// The pointwise kernel family. Each thread owns `vec` consecutive output
// elements (16 bytes of the widest same-shaped operand): operands with the
// output's shape are read and written with one 16-byte access, broadcast
// operands element by element through their strides. The fused ops are
// re-emitted per element as arith/math scalars; f16 and bf16 are computed in
// f32 and rounded once at the store. Booleans are one byte in memory.
//
//===----------------------------------------------------------------------===//

#include "compiler/CodeGen/CodeGen.h"
#include "compiler/CodeGen/KernelUtils.h"

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

namespace {

constexpr int64_t kBlockSize = 256;
/// Vectors per thread go from 1 to 4 once the grid would still have this
/// many blocks (about 2 waves of 4 blocks on a 132-SM GPU).
constexpr int64_t kUnrollMinBlocks = 1056;

/// Element type of a tensor value.
Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

bool isUnsigned(Type t) {
  auto it = dyn_cast<IntegerType>(t);
  return it && it.isUnsigned();
}

/// Signless version of an integer type (arith and llvm take only those;
/// signedness is kept in the tensor type and picks the operations).
Type signless(Type t) {
  if (auto it = dyn_cast<IntegerType>(t))
    return IntegerType::get(t.getContext(), it.getWidth());
  return t;
}

/// Type arithmetic happens in: f32 for 16-bit floats, signless integers.
Type computeType(Type t) {
  if (t.isF16() || t.isBF16())
    return Float32Type::get(t.getContext());
  return signless(t);
}

/// Type an element has in memory: i8 for i1, else the signless type.
Type memoryType(Type t) {
  return t.isInteger(1) ? IntegerType::get(t.getContext(), 8) : signless(t);
}

class PointwiseEmitter {
public:
  PointwiseEmitter(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value cst(Type t, double v) {
    if (auto ft = dyn_cast<FloatType>(t))
      return arith::ConstantOp::create(b, loc, ft, b.getFloatAttr(ft, v));
    return arith::ConstantOp::create(
        b, loc, t, b.getIntegerAttr(t, static_cast<int64_t>(v)));
  }
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// Converts a scalar of element type `from` (held in computeType(from))
  /// to element type `to` (held in computeType(to)), with ONNX Cast rules.
  /// A cast to f16/bf16 rounds to that type even though the value is then
  /// carried in f32: an explicit Cast is a request for that precision.
  Value convert(Value x, Type from, Type to) {
    Type cf = computeType(from), ct = computeType(to);
    if (from == to)
      return x;
    if (to.isInteger(1)) {
      if (isa<FloatType>(cf))
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                     cst(cf, 0));
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                   cst(cf, 0));
    }
    bool fromUnsigned = isUnsigned(from) || from.isInteger(1);
    if (isa<FloatType>(to)) {
      Type exact = to; // the precision to round to
      Value v;
      if (isa<FloatType>(cf)) {
        unsigned wf = cf.getIntOrFloatBitWidth(),
                 wt = exact.getIntOrFloatBitWidth();
        v = wf < wt ? Value(arith::ExtFOp::create(b, loc, exact, x))
            : wf > wt || cf != exact
                ? Value(arith::TruncFOp::create(b, loc, exact, x))
                : x;
      } else {
        v = fromUnsigned ? Value(arith::UIToFPOp::create(b, loc, exact, x))
                         : Value(arith::SIToFPOp::create(b, loc, exact, x));
      }
      if (v.getType() != ct)
        v = arith::ExtFOp::create(b, loc, ct, v);
      return v;
    }
    if (isa<FloatType>(cf))
      return isUnsigned(to) ? Value(arith::FPToUIOp::create(b, loc, ct, x))
                            : Value(arith::FPToSIOp::create(b, loc, ct, x));
    unsigned wf = cf.getIntOrFloatBitWidth(), wt = ct.getIntOrFloatBitWidth();
    if (wf == wt)
      return x;
    if (wf > wt)
      return arith::TruncIOp::create(b, loc, ct, x);
    return fromUnsigned ? Value(arith::ExtUIOp::create(b, loc, ct, x))
                        : Value(arith::ExtSIOp::create(b, loc, ct, x));
  }

  /// Emits one fused op on scalars. `args` are the operands' scalars.
  FailureOr<Value> emit(Operation *op, ArrayRef<Value> args) {
    Type et = op->getNumResults() ? elementOf(op->getResult(0)) : Type();
    Type ct = et ? computeType(et) : Type();
    bool isFloat = ct && isa<FloatType>(ct);
    Value x = args.empty() ? Value() : args[0];
    auto one = [&] { return cst(ct, 1.0); };
    auto sigmoid = [&](Value v) -> Value {
      Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, v));
      return arith::DivFOp::create(b, loc, one(),
                                   arith::AddFOp::create(b, loc, one(), e));
    };
    return llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
        .Case([&](AbsOp) -> Value {
          if (isFloat)
            return math::AbsFOp::create(b, loc, x);
          if (isUnsigned(et))
            return x;
          Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                            x, cst(ct, 0));
          return arith::SelectOp::create(
              b, loc, neg, arith::SubIOp::create(b, loc, cst(ct, 0), x), x);
        })
        .Case([&](CeilOp) -> Value { return math::CeilOp::create(b, loc, x); })
        .Case([&](CosOp) -> Value { return math::CosOp::create(b, loc, x); })
        .Case([&](ErfOp) -> Value { return math::ErfOp::create(b, loc, x); })
        .Case([&](ExpOp) -> Value { return math::ExpOp::create(b, loc, x); })
        .Case(
            [&](FloorOp) -> Value { return math::FloorOp::create(b, loc, x); })
        .Case([&](LogOp) -> Value { return math::LogOp::create(b, loc, x); })
        .Case([&](NegOp) -> Value {
          return isFloat ? Value(arith::NegFOp::create(b, loc, x))
                         : Value(arith::SubIOp::create(b, loc, cst(ct, 0), x));
        })
        .Case([&](NotOp) -> Value {
          return arith::XOrIOp::create(b, loc, x, cst(ct, 1));
        })
        .Case([&](ReciprocalOp) -> Value {
          return arith::DivFOp::create(b, loc, one(), x);
        })
        .Case([&](ReluOp) -> Value {
          return isFloat
                     ? Value(arith::MaximumFOp::create(b, loc, x, cst(ct, 0)))
                 : isUnsigned(et)
                     ? x
                     : Value(arith::MaxSIOp::create(b, loc, x, cst(ct, 0)));
        })
        .Case(
            [&](RsqrtOp) -> Value { return math::RsqrtOp::create(b, loc, x); })
        .Case([&](SigmoidOp) -> Value { return sigmoid(x); })
        .Case([&](SiluOp) -> Value {
          return arith::MulFOp::create(b, loc, x, sigmoid(x));
        })
        .Case([&](SinOp) -> Value { return math::SinOp::create(b, loc, x); })
        .Case([&](SqrtOp) -> Value { return math::SqrtOp::create(b, loc, x); })
        .Case([&](TanhOp) -> Value { return math::TanhOp::create(b, loc, x); })
        .Case([&](GeluOp g) -> Value {
          Value half = arith::MulFOp::create(b, loc, x, cst(ct, 0.5));
          Value inner;
          if (g.getApproximate() == GeluApproximation::tanh) {
            // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
            Value x3 = arith::MulFOp::create(
                b, loc, x, arith::MulFOp::create(b, loc, x, x));
            Value poly = arith::AddFOp::create(
                b, loc, x,
                arith::MulFOp::create(b, loc, x3, cst(ct, 0.044715)));
            inner = math::TanhOp::create(
                b, loc,
                arith::MulFOp::create(b, loc, poly,
                                      cst(ct, std::sqrt(2.0 / M_PI))));
          } else {
            inner = math::ErfOp::create(
                b, loc, arith::MulFOp::create(b, loc, x, cst(ct, M_SQRT1_2)));
          }
          return arith::MulFOp::create(
              b, loc, half, arith::AddFOp::create(b, loc, one(), inner));
        })
        .Case([&](ClipOp c) -> Value {
          Value v = x;
          if (c.getMin())
            v = isFloat
                    ? Value(arith::MaximumFOp::create(
                          b, loc, v, cst(ct, c.getMin()->convertToDouble())))
                : isUnsigned(et)
                    ? Value(arith::MaxUIOp::create(
                          b, loc, v, cst(ct, c.getMin()->convertToDouble())))
                    : Value(arith::MaxSIOp::create(
                          b, loc, v, cst(ct, c.getMin()->convertToDouble())));
          if (c.getMax())
            v = isFloat
                    ? Value(arith::MinimumFOp::create(
                          b, loc, v, cst(ct, c.getMax()->convertToDouble())))
                : isUnsigned(et)
                    ? Value(arith::MinUIOp::create(
                          b, loc, v, cst(ct, c.getMax()->convertToDouble())))
                    : Value(arith::MinSIOp::create(
                          b, loc, v, cst(ct, c.getMax()->convertToDouble())));
          return v;
        })
        .Case([&](CastOp c) -> Value {
          return convert(x, elementOf(c.getInput()), et);
        })
        .Case([&](AddOp) -> Value {
          return isFloat ? Value(arith::AddFOp::create(b, loc, x, args[1]))
                         : Value(arith::AddIOp::create(b, loc, x, args[1]));
        })
        .Case([&](SubOp) -> Value {
          return isFloat ? Value(arith::SubFOp::create(b, loc, x, args[1]))
                         : Value(arith::SubIOp::create(b, loc, x, args[1]));
        })
        .Case([&](MulOp) -> Value {
          return isFloat ? Value(arith::MulFOp::create(b, loc, x, args[1]))
                         : Value(arith::MulIOp::create(b, loc, x, args[1]));
        })
        .Case([&](DivOp) -> Value {
          return isFloat ? Value(arith::DivFOp::create(b, loc, x, args[1]))
                 : isUnsigned(et)
                     ? Value(arith::DivUIOp::create(b, loc, x, args[1]))
                     : Value(arith::DivSIOp::create(b, loc, x, args[1]));
        })
        .Case([&](MaxOp) -> Value {
          return isFloat ? Value(arith::MaximumFOp::create(b, loc, x, args[1]))
                 : isUnsigned(et)
                     ? Value(arith::MaxUIOp::create(b, loc, x, args[1]))
                     : Value(arith::MaxSIOp::create(b, loc, x, args[1]));
        })
        .Case([&](MinOp) -> Value {
          return isFloat ? Value(arith::MinimumFOp::create(b, loc, x, args[1]))
                 : isUnsigned(et)
                     ? Value(arith::MinUIOp::create(b, loc, x, args[1]))
                     : Value(arith::MinSIOp::create(b, loc, x, args[1]));
        })
        .Case([&](PowOp) -> FailureOr<Value> {
          if (isFloat)
            return Value(math::PowFOp::create(b, loc, x, args[1]));
          return op->emitOpError("integer pow has no GPU kernel yet");
        })
        .Case([&](AndOp) -> Value {
          return arith::AndIOp::create(b, loc, x, args[1]);
        })
        .Case([&](OrOp) -> Value {
          return arith::OrIOp::create(b, loc, x, args[1]);
        })
        .Case([&](XorOp) -> Value {
          return arith::XOrIOp::create(b, loc, x, args[1]);
        })
        .Case([&](CompareOp c) -> Value {
          Type in = elementOf(c.getLhs());
          if (isa<FloatType>(computeType(in))) {
            arith::CmpFPredicate p;
            switch (c.getPredicate()) {
            case ComparePredicate::eq:
              p = arith::CmpFPredicate::OEQ;
              break;
            case ComparePredicate::ne:
              p = arith::CmpFPredicate::UNE;
              break;
            case ComparePredicate::lt:
              p = arith::CmpFPredicate::OLT;
              break;
            case ComparePredicate::le:
              p = arith::CmpFPredicate::OLE;
              break;
            case ComparePredicate::gt:
              p = arith::CmpFPredicate::OGT;
              break;
            case ComparePredicate::ge:
              p = arith::CmpFPredicate::OGE;
              break;
            }
            return arith::CmpFOp::create(b, loc, p, x, args[1]);
          }
          bool u = isUnsigned(in) || in.isInteger(1);
          arith::CmpIPredicate p;
          switch (c.getPredicate()) {
          case ComparePredicate::eq:
            p = arith::CmpIPredicate::eq;
            break;
          case ComparePredicate::ne:
            p = arith::CmpIPredicate::ne;
            break;
          case ComparePredicate::lt:
            p = u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
            break;
          case ComparePredicate::le:
            p = u ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
            break;
          case ComparePredicate::gt:
            p = u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
            break;
          case ComparePredicate::ge:
            p = u ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
            break;
          }
          return arith::CmpIOp::create(b, loc, p, x, args[1]);
        })
        .Case([&](WhereOp) -> Value {
          return arith::SelectOp::create(b, loc, x, args[1], args[2]);
        })
        .Default([&](Operation *) -> FailureOr<Value> {
          return op->emitOpError("has no pointwise code generation");
        });
  }

private:
  OpBuilder &b;
  Location loc;
};

/// The splat value of a constant inside a fusion body.
std::optional<double> splatValue(ConstantOp c) {
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!dense || !dense.isSplat())
    return std::nullopt;
  Attribute a = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValueAsDouble();
  auto i = cast<IntegerAttr>(a);
  return isUnsigned(i.getType()) || i.getType().isInteger(1)
             ? static_cast<double>(i.getValue().getZExtValue())
             : static_cast<double>(i.getValue().getSExtValue());
}

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

  // Vector width: 16 bytes of the widest element among same-shaped tensors.
  int64_t widest = 1;
  auto consider = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getShape() == shape)
      widest = std::max(
          widest, bufferBytes(RankedTensorType::get({1}, t.getElementType())));
  };
  for (Value v : fusion.getInputs())
    consider(v);
  for (Value v : fusion.getResults())
    consider(v);
  int64_t vec = 16 / widest;
  while (vec > 1 && numel % vec != 0)
    vec /= 2;

  auto ptrTy = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  auto func = createKernel(moduleBuilder, loc, name,
                           fusion.getInputs().size() + fusion.getNumResults(),
                           kBlockSize);

  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  PointwiseEmitter e(b, loc);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  // Each block covers `unroll` consecutive chunks of kBlockSize vectors;
  // a thread issues all its 16-byte loads before computing, so more bytes
  // are in flight per thread. Blocks wholly inside the tensor take the
  // unguarded path; the last one checks every vector.
  int64_t numVectors = numel / vec;
  int64_t unroll = numVectors >= 4 * kBlockSize * kUnrollMinBlocks ? 4 : 1;
  int64_t chunk = kBlockSize * vec;
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
        auto finish = [&](Value raw) -> Value {
          if (et.isInteger(1))
            return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, raw,
                                         e.cst(mt, 0));
          if (et.isF16() || et.isBF16())
            return arith::ExtFOp::create(b, loc, computeType(et), raw);
          return raw;
        };
        if (t.getShape() == shape) {
          Type vt = vec > 1 ? Type(VectorType::get({vec}, mt)) : mt;
          Value ptr = LLVM::GEPOp::create(b, loc, ptrTy, mt, base,
                                          ValueRange{firstI64});
          Value loaded = LLVM::LoadOp::create(
              b, loc, vt, ptr,
              vec * bufferBytes(RankedTensorType::get({1}, et)));
          for (int64_t l = 0; l < vec; ++l) {
            Value raw = vec > 1 ? Value(LLVM::ExtractElementOp::create(
                                      b, loc, loaded, e.cst(b.getI32Type(), l)))
                                : loaded;
            values.push_back(finish(raw));
          }
        } else {
          // Broadcast operand: per lane, map the output coordinate to its
          // linear index through the operand's (right-aligned) strides.
          SmallVector<int64_t> outStrides(shape.size(), 1);
          for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
            outStrides[d] = outStrides[d + 1] * shape[d + 1];
          ArrayRef<int64_t> inShape = t.getShape();
          int64_t offset = shape.size() - inShape.size();
          SmallVector<int64_t> inStrides(inShape.size(), 1);
          for (int64_t d = static_cast<int64_t>(inShape.size()) - 2; d >= 0;
               --d)
            inStrides[d] = inStrides[d + 1] * inShape[d + 1];
          for (int64_t l = 0; l < vec; ++l) {
            Value linear = arith::AddIOp::create(b, loc, first, e.idx(l));
            Value index = e.idx(0);
            for (size_t d = 0; d < inShape.size(); ++d) {
              if (inShape[d] == 1)
                continue;
              int64_t od = d + offset;
              Value coord = arith::RemUIOp::create(
                  b, loc,
                  arith::DivUIOp::create(b, loc, linear, e.idx(outStrides[od])),
                  e.idx(shape[od]));
              index = arith::AddIOp::create(
                  b, loc, index,
                  arith::MulIOp::create(b, loc, coord, e.idx(inStrides[d])));
            }
            Value ptr = LLVM::GEPOp::create(b, loc, ptrTy, mt, base,
                                            ValueRange{toI64(index)});
            values.push_back(finish(LLVM::LoadOp::create(b, loc, mt, ptr)));
          }
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
          scalar[arg] = lanes[k][l];
        for (Operation &op : body.without_terminator()) {
          if (auto c = dyn_cast<ConstantOp>(op)) {
            auto v = splatValue(c);
            if (!v)
              return c.emitOpError("non-splat constants must be kernel inputs");
            Type et = elementOf(c.getResult());
            Value s = e.cst(signless(computeType(et)), *v);
            scalar[c.getResult()] = s;
            continue;
          }
          SmallVector<Value> args;
          for (Value operand : op.getOperands())
            args.push_back(scalar.lookup(operand));
          auto r = e.emit(&op, args);
          if (failed(r))
            return failure();
          scalar[op.getResult(0)] = *r;
        }
        for (auto [k, v] : llvm::enumerate(yield.getValues()))
          results[k].push_back(scalar.lookup(v));
      }

      // Stores.
      for (auto [k, r] : llvm::enumerate(fusion.getResults())) {
        Type et = elementOf(r), mt = memoryType(et);
        Value base = entry.getArgument(fusion.getInputs().size() + k);
        SmallVector<Value> stored;
        for (Value v : results[k]) {
          if (et.isInteger(1))
            v = arith::ExtUIOp::create(b, loc, mt, v);
          else if (et.isF16() || et.isBF16())
            v = arith::TruncFOp::create(b, loc, et, v);
          stored.push_back(v);
        }
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
        LLVM::StoreOp::create(
            b, loc, v, ptr, vec * bufferBytes(RankedTensorType::get({1}, et)));
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
  info.grid = llvm::divideCeil(numVectors, kBlockSize * unroll);
  info.block = kBlockSize;
  int64_t ops = 0;
  for (Operation &op : body.without_terminator())
    if (!isa<ConstantOp>(op))
      ++ops;
  info.flops = ops * numel;
  for (Value v : fusion.getInputs())
    info.bytes += bufferBytes(cast<RankedTensorType>(v.getType()));
  for (Value v : fusion.getResults())
    info.bytes += bufferBytes(cast<RankedTensorType>(v.getType()));
  return info;
}
