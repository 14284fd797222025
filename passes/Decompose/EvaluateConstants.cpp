//===- EvaluateConstants.cpp - values of constants, computed on the host --===//
//
// Runs after canonicalization (flag brrr-evaluate-constants). The folders
// fold small integer and elementwise arithmetic on constants; other values
// that depend on constants only become kernels that recompute them every
// run. A decoder's rotary embedding computes its cos and sin tables from
// the positions: a product (or its multiply), a concatenation, cos and sin,
// four or five kernels a run. This pass computes such values on the host,
// op by op in double precision, each result rounded to its element type
// (as exact as the kernels or more), and stores them as constants.
//
// Over symbolic extents the positions are a prefix of a constant range up
// to the extent's largest value (the importer's Range: a slice from 0 with
// a symbolic size). A value computed from such prefixes by ops that map
// each index to operand elements at the same index of the symbolic
// dimension (elementwise ops, casts, transposes, expands, concatenations
// and slices along other dimensions, products whose rows, columns or
// batches carry it, reshapes that keep ones before it) is, at every
// extent, the prefix of its value at the largest one. The pass computes
// that value and reads its prefix through a slice, as the importer reads
// Range's.
//
// A value is stored where something the pass does not compute reads it,
// where some op computed it (not only moved constants) and where it holds
// at most `max-elements` elements; over symbolic extents, where its one
// symbolic dimension has only ones before it (its prefix is a prefix of
// its elements in memory order).
//
//===----------------------------------------------------------------------===//

#include "dialects/Brrr/BrrrFoldUtils.h"
#include "passes/Analysis.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <functional>

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRREVALUATECONSTANTS
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// A value computed here: its elements, row-major, at the largest
/// extents, rounded to its element type.
struct Evaluated {
  SmallVector<int64_t> shape;
  std::vector<double> data;
};

/// Integers that doubles hold exactly.
constexpr double kExactIntegers = 9007199254740992.0; // 2^53

/// Float types whose values this pass computes.
bool isComputedFloat(Type t) {
  return t.isF16() || t.isBF16() || t.isF32() || t.isF64();
}

int64_t countOf(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// Calls `fn(index, linear)` for every multi-index of `shape` in row-major
/// order.
template <typename Fn> void forEachIndex(ArrayRef<int64_t> shape, Fn fn) {
  int64_t n = countOf(shape);
  SmallVector<int64_t> idx(shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    fn(ArrayRef<int64_t>(idx), i);
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

/// The symbolic dimensions of `t`.
SmallVector<unsigned> symbolicDims(RankedTensorType t) {
  SmallVector<unsigned> dims;
  for (auto [d, e] : llvm::enumerate(extentsOf(t)))
    if (!isa<AffineConstantExpr>(e))
      dims.push_back(d);
  return dims;
}

/// Whether `t` is static, or has one symbolic dimension with only ones
/// before it: its elements at any extent are a prefix, in memory order, of
/// those at the largest, at the same offsets.
bool isMemoryPrefix(RankedTensorType t) {
  SmallVector<unsigned> dims = symbolicDims(t);
  if (dims.empty())
    return true;
  if (dims.size() != 1)
    return false;
  for (unsigned d = 0; d < dims.front(); ++d)
    if (t.getDimSize(d) != 1)
      return false;
  return true;
}

double unaryOf(Operation *op, double x) {
  return llvm::TypeSwitch<Operation *, double>(op)
      .Case([&](CosOp) { return std::cos(x); })
      .Case([&](SinOp) { return std::sin(x); })
      .Case([&](ExpOp) { return std::exp(x); })
      .Case([&](LogOp) { return std::log(x); })
      .Case([&](NegOp) { return -x; })
      .Case([&](SqrtOp) { return std::sqrt(x); })
      .Case([&](RsqrtOp) { return 1.0 / std::sqrt(x); })
      .Case([&](ReciprocalOp) { return 1.0 / x; })
      .Case([&](AbsOp) { return std::fabs(x); })
      .Case([&](TanhOp) { return std::tanh(x); })
      .Case([&](SigmoidOp) { return 1.0 / (1.0 + std::exp(-x)); })
      // NaN propagates, as the kernels' maximumf does.
      .Case([&](ReluOp) { return std::isnan(x) ? x : std::max(x, 0.0); })
      .Case([&](ErfOp) { return std::erf(x); })
      .Case([&](FloorOp) { return std::floor(x); })
      .Case([&](CeilOp) { return std::ceil(x); })
      .Default([](Operation *) { return std::nan(""); });
}

bool isUnary(Operation *op) {
  return isa<CosOp, SinOp, ExpOp, LogOp, NegOp, SqrtOp, RsqrtOp, ReciprocalOp,
             AbsOp, TanhOp, SigmoidOp, ReluOp, ErfOp, FloorOp, CeilOp>(op);
}

/// max and min propagate NaN, as numpy's and ONNX's do.
double binaryOf(Operation *op, double a, double b) {
  if (isa<MaxOp, MinOp>(op) && (std::isnan(a) || std::isnan(b)))
    return std::nan("");
  return llvm::TypeSwitch<Operation *, double>(op)
      .Case([&](AddOp) { return a + b; })
      .Case([&](SubOp) { return a - b; })
      .Case([&](MulOp) { return a * b; })
      .Case([&](DivOp) { return a / b; })
      .Case([&](PowOp) { return std::pow(a, b); })
      .Case([&](MaxOp) { return std::max(a, b); })
      .Case([&](MinOp) { return std::min(a, b); })
      .Default([](Operation *) { return std::nan(""); });
}

bool isBinary(Operation *op) {
  return isa<AddOp, SubOp, MulOp, DivOp, PowOp, MaxOp, MinOp>(op);
}

/// Whether `op`'s result keeps each index of a symbolic dimension at that
/// index of its operands (its prefix at any extent is its value there), as
/// far as its kind and types say; compute checks the rest against the
/// elements' shapes.
bool keepsPrefixes(Operation *op) {
  if (auto r = dyn_cast<ReshapeOp>(op))
    // A reshape keeps memory order; over a symbolic extent, only where both
    // sides keep it at every extent.
    return isMemoryPrefix(cast<RankedTensorType>(r.getInput().getType())) &&
           isMemoryPrefix(r.getType());
  if (auto c = dyn_cast<ConcatOp>(op)) {
    // Along a fixed dimension: the pieces keep their offsets.
    return llvm::none_of(c.getInputs().getTypes(), [&](Type t) {
      return cast<RankedTensorType>(t).isDynamicDim(c.getAxis());
    });
  }
  if (auto sl = dyn_cast<SliceOp>(op)) {
    // Static starts and steps; a symbolic size only from the start in steps
    // of 1 (a prefix at every extent), the whole of a symbolic input's.
    auto in = cast<RankedTensorType>(sl.getInput().getType());
    auto out = cast<RankedTensorType>(sl.getType());
    for (unsigned d : symbolicDims(out))
      if (sl.getStarts()[d] != 0 || sl.getSteps()[d] != 1 ||
          (in.isDynamicDim(d) && extentsOf(in)[d] != extentsOf(out)[d]))
        return false;
    return llvm::all_of(symbolicDims(in),
                        [&](unsigned d) { return out.isDynamicDim(d); });
  }
  if (isa<GatherOp, GatherNDOp>(op))
    // Static only: the indices pick anywhere along their axes.
    return llvm::none_of(op->getOperandTypes(), isSymbolic) &&
           !isSymbolic(op->getResult(0).getType());
  if (auto mm = dyn_cast<MatmulOp>(op)) {
    // The contraction fixed (a symbolic one is no prefix); rows, columns and
    // batches broadcast.
    auto lt = cast<RankedTensorType>(mm.getLhs().getType());
    auto rt = cast<RankedTensorType>(mm.getRhs().getType());
    return lt.getRank() >= 2 && rt.getRank() >= 2 &&
           !lt.isDynamicDim(lt.getRank() - 1) &&
           !rt.isDynamicDim(rt.getRank() - 2);
  }
  // Elementwise ops, casts, transposes and expands map each index to the
  // same one, permuted or broadcast.
  return true;
}

struct EvaluateConstantsPass
    : public mlir::brrr::impl::BrrrEvaluateConstantsBase<
          EvaluateConstantsPass> {
  using Base::Base;

  /// What the pass may compute: each value's shape at the largest extents
  /// and whether an op computed it (not only moved constants).
  struct Node {
    SmallVector<int64_t> shape;
    bool computed = false;
  };
  DenseMap<Value, Node> nodes;
  /// The elements of the values computed so far.
  DenseMap<Value, Evaluated> values;
  int64_t budget = 0;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // The ops whose results depend on constants only, in order.
    SmallVector<Operation *> admitted;
    for (Operation &op : func.getBody().front().without_terminator())
      if (!isa<ConstantOp>(op) && admit(&op))
        admitted.push_back(&op);
    // The values to store: computed ones that something else reads, and
    // the ops they need.
    SmallVector<Value> targets;
    for (Operation *op : admitted) {
      Value v = op->getResult(0);
      auto t = cast<RankedTensorType>(v.getType());
      bool readElsewhere = llvm::any_of(v.getUsers(), [&](Operation *user) {
        return user->getNumResults() != 1 || !nodes.count(user->getResult(0));
      });
      if (readElsewhere && nodes[v].computed &&
          isComputedFloat(t.getElementType()) && isMemoryPrefix(t))
        targets.push_back(v);
    }
    llvm::SetVector<Operation *> needed;
    SmallVector<Value> work(targets);
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || isa<ConstantOp>(def) || !needed.insert(def))
        continue;
      work.append(def->operand_begin(), def->operand_end());
    }
    // Computed in order, at most four values of the largest size in
    // doubles at once.
    budget = 4 * maxElements;
    for (Operation *op : admitted)
      if (needed.contains(op))
        evaluate(op);
    llvm::SetVector<Operation *> read;
    for (Operation *op : needed)
      for (Value u : op->getOperands())
        if (auto c = u.getDefiningOp<ConstantOp>())
          read.insert(c);
    for (Value v : targets)
      if (values.count(v))
        store(v);
    // The ops that computed them, and the constants they read, where
    // nothing else reads them.
    for (Operation *op : llvm::reverse(admitted))
      if (op->use_empty())
        op->erase();
    for (Operation *c : read)
      if (c->use_empty())
        c->erase();
  }

  /// The node of `v`: a small constant's, or an admitted op's.
  const Node *nodeOf(Value v) {
    if (auto it = nodes.find(v); it != nodes.end())
      return &it->second;
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !t.hasStaticShape() || t.getNumElements() > maxElements ||
        !v.getDefiningOp<ConstantOp>())
      return nullptr;
    Type et = t.getElementType();
    if (!isComputedFloat(et) && !isa<IntegerType>(et))
      return nullptr;
    Node n;
    n.shape.assign(t.getShape().begin(), t.getShape().end());
    return &nodes.try_emplace(v, std::move(n)).first->second;
  }

  /// Whether the pass can compute `op`'s result: its kind, its types and
  /// its operands (constants, or results it can compute) allow.
  bool admit(Operation *op) {
    if (op->getNumResults() != 1 || op->getNumRegions() != 0)
      return false;
    auto rt = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!rt || symbolicDims(rt).size() > 1)
      return false;
    SmallVector<int64_t> shape = largestShapeOf(op->getResult(0));
    if ((shape.empty() && rt.getRank() != 0) || countOf(shape) > maxElements)
      return false;
    Type et = rt.getElementType();
    // Integers only move (positions, before their cast to floats).
    bool moves = isa<ReshapeOp, TransposeOp, ConcatOp, SliceOp, ExpandOp,
                     GatherOp, GatherNDOp>(op);
    if (!isComputedFloat(et) && !(moves && isa<IntegerType>(et)))
      return false;
    if (!moves && !isUnary(op) && !isBinary(op) && !isa<CastOp, MatmulOp>(op))
      return false;
    if (auto c = dyn_cast<CastOp>(op)) {
      Type from = getElementTypeOrSelf(c.getInput().getType());
      if (!isComputedFloat(from) && !isa<IntegerType>(from))
        return false;
    }
    if (!keepsPrefixes(op))
      return false;
    bool computed = !moves;
    for (Value v : op->getOperands()) {
      auto ot = dyn_cast<RankedTensorType>(v.getType());
      const Node *n = ot && symbolicDims(ot).size() <= 1 ? nodeOf(v) : nullptr;
      if (!n)
        return false;
      computed |= n->computed;
    }
    Node n;
    n.shape = std::move(shape);
    n.computed = computed;
    nodes.try_emplace(op->getResult(0), std::move(n));
    return true;
  }

  /// The elements of `v` (a constant's, read now, or computed before);
  /// null where a constant does not hold what this pass computes with, or
  /// the budget is spent.
  const Evaluated *operand(Value v) {
    if (auto it = values.find(v); it != values.end())
      return &it->second;
    if (!v.getDefiningOp<ConstantOp>())
      return nullptr;
    auto t = cast<RankedTensorType>(v.getType());
    std::optional<SmallVector<double>> data = getConstFloats(v);
    if (!data || int64_t(data->size()) != t.getNumElements() ||
        int64_t(data->size()) > budget)
      return nullptr;
    // Integers past 2^53 do not survive doubles.
    if (isa<IntegerType>(t.getElementType()) &&
        llvm::any_of(*data,
                     [](double x) { return std::fabs(x) >= kExactIntegers; }))
      return nullptr;
    budget -= data->size();
    Evaluated e;
    e.shape.assign(t.getShape().begin(), t.getShape().end());
    e.data.assign(data->begin(), data->end());
    return &values.try_emplace(v, std::move(e)).first->second;
  }

  /// Computes the admitted `op`'s result where its operands' elements are
  /// at hand and the budget allows.
  void evaluate(Operation *op) {
    const Node &n = nodes.find(op->getResult(0))->second;
    int64_t count = countOf(n.shape);
    if (count > budget)
      return;
    SmallVector<const Evaluated *> in;
    for (Value v : op->getOperands()) {
      const Evaluated *e = operand(v);
      if (!e)
        return;
      in.push_back(e);
    }
    Evaluated out;
    out.shape = n.shape;
    if (!compute(op, in, out,
                 cast<RankedTensorType>(op->getResult(0).getType())
                     .getElementType()))
      return;
    budget -= count;
    values.try_emplace(op->getResult(0), std::move(out));
  }

  bool compute(Operation *op, ArrayRef<const Evaluated *> in, Evaluated &out,
               Type et) {
    std::vector<double> &y = out.data;
    ArrayRef<int64_t> shape = out.shape;
    int64_t count = countOf(shape);
    y.resize(count);
    auto round = [&](double v) {
      return isComputedFloat(et) ? roundedTo(et, v) : v;
    };
    if (isUnary(op)) {
      for (int64_t i = 0; i < count; ++i)
        y[i] = round(unaryOf(op, in[0]->data[i]));
      return true;
    }
    if (isBinary(op)) {
      SmallVector<int64_t> sa = fold::stridesOf(in[0]->shape),
                           sb = fold::stridesOf(in[1]->shape);
      forEachIndex(shape, [&](ArrayRef<int64_t> idx, int64_t i) {
        y[i] = round(binaryOf(
            op, in[0]->data[fold::broadcastSource(idx, in[0]->shape, sa)],
            in[1]->data[fold::broadcastSource(idx, in[1]->shape, sb)]));
      });
      return true;
    }
    if (isa<CastOp>(op)) {
      for (int64_t i = 0; i < count; ++i)
        y[i] = round(in[0]->data[i]);
      return true;
    }
    if (isa<ReshapeOp>(op)) {
      y = in[0]->data;
      return int64_t(y.size()) == count;
    }
    if (auto t = dyn_cast<TransposeOp>(op)) {
      ArrayRef<int64_t> perm = t.getPerm();
      SmallVector<int64_t> s = fold::stridesOf(in[0]->shape);
      forEachIndex(shape, [&](ArrayRef<int64_t> idx, int64_t i) {
        int64_t at = 0;
        for (size_t d = 0; d < perm.size(); ++d)
          at += idx[d] * s[perm[d]];
        y[i] = in[0]->data[at];
      });
      return true;
    }
    if (isa<ExpandOp>(op)) {
      SmallVector<int64_t> s = fold::stridesOf(in[0]->shape);
      forEachIndex(shape, [&](ArrayRef<int64_t> idx, int64_t i) {
        y[i] = in[0]->data[fold::broadcastSource(idx, in[0]->shape, s)];
      });
      return true;
    }
    if (auto c = dyn_cast<ConcatOp>(op)) {
      int64_t axis = c.getAxis();
      SmallVector<int64_t> starts;
      int64_t start = 0;
      for (const Evaluated *e : in) {
        starts.push_back(start);
        start += e->shape[axis];
      }
      forEachIndex(shape, [&](ArrayRef<int64_t> idx, int64_t i) {
        size_t k = llvm::upper_bound(starts, idx[axis]) - starts.begin() - 1;
        SmallVector<int64_t> src(idx);
        src[axis] -= starts[k];
        SmallVector<int64_t> s = fold::stridesOf(in[k]->shape);
        int64_t at = 0;
        for (size_t d = 0; d < src.size(); ++d)
          at += src[d] * s[d];
        y[i] = in[k]->data[at];
      });
      return true;
    }
    if (auto sl = dyn_cast<SliceOp>(op)) {
      ArrayRef<int64_t> starts = sl.getStarts(), steps = sl.getSteps();
      for (size_t d = 0; d < shape.size(); ++d)
        if (starts[d] < 0 || steps[d] < 1 ||
            (shape[d] > 0 &&
             starts[d] + (shape[d] - 1) * steps[d] >= in[0]->shape[d]))
          return false;
      SmallVector<int64_t> st = fold::stridesOf(in[0]->shape);
      forEachIndex(shape, [&](ArrayRef<int64_t> idx, int64_t i) {
        int64_t at = 0;
        for (size_t d = 0; d < idx.size(); ++d)
          at += (starts[d] + idx[d] * steps[d]) * st[d];
        y[i] = in[0]->data[at];
      });
      return true;
    }
    if (isa<GatherOp, GatherNDOp>(op)) {
      // Each element from where the folders' index walk says (negative
      // indices from the end); an index out of range stays the kernel's to
      // report.
      ArrayRef<int64_t> is = in[0]->shape, ids = in[1]->shape;
      const std::vector<double> &idx = in[1]->data;
      auto indexAt = [&](int64_t linear, int64_t dim) -> int64_t {
        double v = idx[linear] < 0 ? idx[linear] + dim : idx[linear];
        return v >= 0 && v < dim ? int64_t(v) : -1;
      };
      SmallVector<int64_t> inStrides = fold::stridesOf(is),
                           idxStrides = fold::stridesOf(ids);
      // Where each output element comes from: -1 for an index out of range.
      std::function<int64_t(ArrayRef<int64_t>)> source;
      if (auto g = dyn_cast<GatherOp>(op)) {
        int64_t rank = is.size(),
                axis = g.getAxis() < 0 ? g.getAxis() + rank : g.getAxis();
        if (axis < 0 || axis >= rank)
          return false;
        source = [&, axis](ArrayRef<int64_t> out) {
          return fold::gatherSource(out, is, inStrides, axis, idxStrides,
                                    indexAt);
        };
      } else {
        int64_t batch = cast<GatherNDOp>(op).getBatchDims();
        if (batch < 0 || batch >= int64_t(ids.size()) ||
            batch + ids.back() > int64_t(is.size()))
          return false;
        source = [&, batch](ArrayRef<int64_t> out) {
          return fold::gatherNDSource(out, is, inStrides, batch, ids.back(),
                                      idxStrides, indexAt);
        };
      }
      bool inRange = true;
      forEachIndex(shape, [&](ArrayRef<int64_t> out, int64_t i) {
        int64_t at = source(out);
        inRange &= at >= 0;
        y[i] = at >= 0 ? in[0]->data[at] : 0.0;
      });
      return inRange;
    }
    if (isa<MatmulOp>(op)) {
      ArrayRef<int64_t> ls = in[0]->shape, rs = in[1]->shape;
      int64_t K = ls.back(), M = ls.end()[-2], N = rs.back();
      if (rs.end()[-2] != K || count * K > maxElements * 64)
        return false;
      SmallVector<int64_t> lb(ls.drop_back(2)), rb(rs.drop_back(2));
      SmallVector<int64_t> batch(shape.begin(), shape.end() - 2);
      SmallVector<int64_t> lbs = fold::stridesOf(lb), rbs = fold::stridesOf(rb);
      int64_t batches = countOf(batch);
      SmallVector<int64_t> bidx(batch.size(), 0);
      for (int64_t z = 0; z < batches; ++z) {
        int64_t lo = fold::broadcastSource(bidx, lb, lbs) * M * K;
        int64_t ro = fold::broadcastSource(bidx, rb, rbs) * K * N;
        for (int64_t m = 0; m < M; ++m)
          for (int64_t n = 0; n < N; ++n) {
            double sum = 0;
            for (int64_t k = 0; k < K; ++k)
              sum += in[0]->data[lo + m * K + k] * in[1]->data[ro + k * N + n];
            y[(z * M + m) * N + n] = round(sum);
          }
        for (int64_t d = int64_t(batch.size()) - 1; d >= 0; --d) {
          if (++bidx[d] < batch[d])
            break;
          bidx[d] = 0;
        }
      }
      return true;
    }
    return false;
  }

  /// Replaces `v` by a constant of its elements (over a symbolic extent,
  /// a slice of the largest extent's).
  void store(Value v) {
    const Evaluated &e = values.find(v)->second;
    auto t = cast<RankedTensorType>(v.getType());
    Operation *def = v.getDefiningOp();
    OpBuilder b(def);
    Location loc = def->getLoc();
    auto staticType = RankedTensorType::get(e.shape, t.getElementType());
    Value c = ConstantOp::create(
        b, loc, makeFloatElements(staticType, e.data, "evaluated"));
    if (isSymbolic(t)) {
      SmallVector<int64_t> zeros(t.getRank(), 0), ones(t.getRank(), 1);
      c = SliceOp::create(b, loc, t, c, zeros, t.getShape(), ones,
                          extentsAttrOf(b.getContext(), extentsOf(t)));
    }
    v.replaceAllUsesWith(c);
  }
};

} // namespace
