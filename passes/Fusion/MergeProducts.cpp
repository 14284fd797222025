//===- MergeProducts.cpp - sibling products of one input as one ----------===//
//
// Runs after brrr-fuse-attention, before the fusion passes (flag
// brrr-merge-products). Transformers multiply one activation by their
// query, key and value weights: three products of 768 columns in
// BERT-base, each a kernel launch that reads the input again, and at
// batch 1 each too narrow to fill the GPU. Products of one left operand by
// 2-D constant weights of the same depth and element type, read only by
// attention or, behind views, by a pointwise kernel (rotary embeddings),
// become one product by the weights concatenated along their columns at
// compile time, plus the concatenated biases and scales of the chain of
// casts, constant biases and constant scales each goes through; each former
// result is a slice of the merged one, which the attention kernel reads in
// place and a pointwise kernel reads through. 8-bit products
// (brrr-quantized-products, brrr-quantize-calibrated) merge alike: their
// K-major weights stacked row after row, and the scales each applies to its
// columns concatenated like the biases. Products whose chains differ only by a
// missing bias or scale merge too (Whisper's key projection has no bias, its
// query one scaled after its bias): the missing step adds -0.0 or multiplies
// by 1.0 on their columns, which leaves every value as it was.
//
//===----------------------------------------------------------------------===//

#include "passes/Config/Movement.h"
#include "passes/Fusion/MergedWeights.h"
#include "passes/Passes.h"
#include "passes/Precision/EightBitProducts.h"

#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/Matchers.h"

#include <vector>

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRMERGEPRODUCTS
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// One op of a product's chain: a float cast, the addition of a bias of
/// its columns or the multiplication by scales, on values of `element`.
struct Step {
  enum Kind { cast, bias, scale } kind;
  Type element;
  bool operator==(const Step &o) const {
    return kind == o.kind && element == o.element;
  }
};

/// One product of a group: the matmul, an 8-bit product's K-major weight
/// bytes, and the chain of ops applied to it alone
/// before anything else reads it: float casts, additions of a constant
/// bias of its columns (with the bias's values), as an f16 product of an
/// f32 model is cast, biased and cast back, and multiplications by
/// constant scales, one per column or one for all (expanded to its
/// columns): an 8-bit product's dequantization, a query's scaling.
struct Sibling {
  MatmulOp product;
  std::vector<char> eightBit;
  SmallVector<Operation *> chain;
  /// One per add or multiply of the chain: the values of its columns.
  SmallVector<SmallVector<double>> columnValues;
  /// The chain's steps, one per op.
  SmallVector<Step> steps;
  /// Per step of the group's chain (mergeable): this product's add or
  /// multiply at that step (its index in columnValues), or -1 where it has
  /// none there and takes the identity.
  SmallVector<int64_t> at;
  int64_t columns = 0;
  Value result() {
    return chain.empty() ? product->getResult(0) : chain.back()->getResult(0);
  }
};

/// The operand of `add` that is a constant bias of `columns` values of its
/// element type (the other being `x`), if any, with its values.
Value biasOf(AddOp add, Value x, int64_t columns, SmallVector<double> &bias) {
  Value other = add.getLhs() == x ? add.getRhs() : add.getLhs();
  auto type = cast<RankedTensorType>(other.getType());
  if (other == x || add.getType() != x.getType() || type.getRank() != 1 ||
      type.getDimSize(0) != columns ||
      type.getElementType() != add.getType().getElementType())
    return Value();
  std::optional<SmallVector<double>> values = getConstFloats(other);
  if (!values)
    return Value();
  bias = std::move(*values);
  return other;
}

/// The constant operand of `mul` (the other being `x`) that scales its
/// `columns` columns, one value each or one for all, if any, with its
/// values expanded to the columns.
Value scaleOf(MulOp mul, Value x, int64_t columns, SmallVector<double> &scale) {
  Value other = mul.getLhs() == x ? mul.getRhs() : mul.getLhs();
  auto type = cast<RankedTensorType>(other.getType());
  if (other == x || mul.getType() != x.getType() ||
      type.getElementType() != mul.getType().getElementType() ||
      !(type.getRank() == 0 ||
        (type.getRank() == 1 && type.getDimSize(0) == columns)))
    return Value();
  std::optional<SmallVector<double>> values = getConstFloats(other);
  if (!values || values->empty())
    return Value();
  scale = type.getRank() == 0 ? SmallVector<double>(columns, values->front())
                              : std::move(*values);
  return other;
}

/// Records the step `kind` of `s`'s chain, on values of `type`.
void addStep(Sibling &s, Step::Kind kind, Type type) {
  s.steps.push_back({kind, cast<RankedTensorType>(type).getElementType()});
}

/// Follows `s.product` through the casts, bias additions and scales only it
/// reads.
void followChain(Sibling &s) {
  Value x = s.product.getResult();
  while (x.hasOneUse()) {
    Operation *user = *x.getUsers().begin();
    if (auto mul = dyn_cast<MulOp>(user)) {
      SmallVector<double> scale;
      if (!scaleOf(mul, x, s.columns, scale))
        break;
      s.columnValues.push_back(std::move(scale));
      addStep(s, Step::scale, mul.getType());
    } else if (auto cast = dyn_cast<CastOp>(user)) {
      if (!isa<FloatType>(cast.getType().getElementType()))
        break;
      addStep(s, Step::cast, cast.getType());
    } else if (auto add = dyn_cast<AddOp>(user)) {
      SmallVector<double> bias;
      if (!biasOf(add, x, s.columns, bias))
        break;
      s.columnValues.push_back(std::move(bias));
      addStep(s, Step::bias, add.getType());
    } else {
      break;
    }
    s.chain.push_back(user);
    x = user->getResult(0);
  }
}

/// Where `s`'s chain runs as the chain `steps`, with the steps it lacks
/// taking their identity: `s.at` set and true where `s.steps` is a
/// subsequence of `steps` with the same casts (its biases and scales in
/// order among them).
bool fitsChain(Sibling &s, ArrayRef<Step> steps) {
  SmallVector<int64_t> at;
  size_t next = 0;
  int64_t values = 0;
  for (const Step &step : steps) {
    bool isCast = step.kind == Step::cast;
    if (next < s.steps.size() && s.steps[next] == step) {
      at.push_back(isCast ? -1 : values++);
      ++next;
      continue;
    }
    // A cast changes every value's type: each product takes every one.
    if (isCast)
      return false;
    at.push_back(-1);
  }
  if (next != s.steps.size())
    return false;
  s.at = std::move(at);
  return true;
}

/// Whether a slice of a merged product could stand for `v` at no cost: `v`
/// is read only through reshapes and transposes, each reader a query, key
/// or value of `brrr.attention` (whose kernel reads the slice in place) or,
/// behind at least one view, a pointwise op or data movement (which a
/// pointwise kernel reads the slice through: rotary embeddings of the
/// queries and keys). A product read by a pointwise op directly keeps it as
/// its epilogue, and a slice read any other way would be copied by a
/// movement kernel: either costs more than the merge saves.
bool readsSliceInPlace(Value v) {
  SmallVector<std::pair<Value, bool>> work = {{v, false}};
  while (!work.empty()) {
    auto [x, viewed] = work.pop_back_val();
    for (OpOperand &use : x.getUses()) {
      Operation *user = use.getOwner();
      if (isa<ReshapeOp, TransposeOp>(user)) {
        work.push_back({user->getResult(0), true});
        continue;
      }
      if (isa<AttentionOp>(user) && use.getOperandNumber() <= 2)
        continue;
      if (viewed && (isPointwise(user) || isMovementTreeOp(user)))
        continue;
      return false;
    }
  }
  return true;
}

struct MergeProductsPass
    : public mlir::brrr::impl::BrrrMergeProductsBase<MergeProductsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(mlir::brrr::requireSupportedShapes(getOperation(), getArgument(),
                                                  PendingAttention::views)))
      return signalPassFailure();
    // Candidates by left operand, in block order.
    llvm::MapVector<Value, SmallVector<MatmulOp>> byInput;
    getOperation().walk([&](MatmulOp mm) {
      auto w = dyn_cast<RankedTensorType>(mm.getRhs().getType());
      auto x = dyn_cast<RankedTensorType>(mm.getLhs().getType());
      // Over symbolic extents, the slices of the merged product keep its
      // symbolic rows whole (the attention kernel reads them in place).
      if (!w || !x || w.getRank() != 2 || x.getRank() < 2)
        return;
      bool floatWeight = isa<FloatType>(w.getElementType()) &&
                         matchPattern(mm.getRhs(), m_Constant());
      if (!floatWeight && !eightBitWeightOf(mm))
        return;
      byInput[mm.getLhs()].push_back(mm);
    });
    for (auto &[input, products] : byInput) {
      // Products in one block with one weight type, grouped by the chain
      // of casts, bias additions and scales each goes through: the longest
      // chain left takes every product whose own chain it holds.
      std::vector<Sibling> candidates;
      for (MatmulOp mm : products) {
        if (mm->getBlock() != products.front()->getBlock() ||
            mm.getRhs().getType().getElementType() !=
                products.front().getRhs().getType().getElementType() ||
            mm.getRhs().getType().getDimSize(0) !=
                products.front().getRhs().getType().getDimSize(0))
          continue;
        Sibling s;
        s.product = mm;
        s.columns = mm.getRhs().getType().getDimSize(1);
        followChain(s);
        if (!readsSliceInPlace(s.result()))
          continue;
        candidates.push_back(std::move(s));
      }
      // Longest chain first, in block order among equals.
      std::stable_sort(candidates.begin(), candidates.end(),
                       [](const Sibling &a, const Sibling &b) {
                         return a.steps.size() > b.steps.size();
                       });
      std::vector<bool> taken(candidates.size());
      for (size_t i = 0; i < candidates.size(); ++i) {
        if (taken[i])
          continue;
        SmallVector<Step> chain = candidates[i].steps;
        std::vector<Sibling> group;
        for (size_t j = i; j < candidates.size(); ++j)
          if (!taken[j] && fitsChain(candidates[j], chain)) {
            taken[j] = true;
            group.push_back(std::move(candidates[j]));
          }
        // In block order: the merged product goes before the first.
        llvm::stable_sort(group, [](const Sibling &a, const Sibling &b) {
          return a.product->isBeforeInBlock(b.product);
        });
        merge(group, chain);
      }
    }
  }

  /// Merges `group`, whose products each run as `chain`, in runs of at most
  /// maxColumns columns.
  void merge(std::vector<Sibling> &group, ArrayRef<Step> chain) {
    SmallVector<Sibling *> run;
    int64_t columns = 0;
    auto flush = [&] {
      if (run.size() >= 2)
        mergeRun(run, chain);
      run.clear();
      columns = 0;
    };
    for (Sibling &s : group) {
      if (columns + s.columns > maxColumns)
        flush();
      run.push_back(&s);
      columns += s.columns;
    }
    flush();
  }

  void mergeRun(ArrayRef<Sibling *> run, ArrayRef<Step> chain) {
    MatmulOp first = run.front()->product;
    for (Sibling *s : run)
      if (s->product->isBeforeInBlock(first))
        first = s->product;
    auto wType = first.getRhs().getType();
    Type elem = wType.getElementType();
    bool eightBit = isEightBitProductType(elem);
    // 8-bit weights' bytes (read only now: most groups are never merged).
    int64_t depth = wType.getDimSize(0), total = 0;
    for (Sibling *s : run) {
      if (!eightBit)
        break;
      ElementsAttr weight = eightBitWeightOf(s->product);
      std::optional<std::vector<char>> bytes =
          weight ? eightBitBytes(weight) : std::nullopt;
      if (!bytes)
        return;
      s->eightBit = std::move(*bytes);
    }
    for (Sibling *s : run)
      total += s->columns;
    OpBuilder b(first);
    Location loc = first.getLoc();
    Value w;
    if (eightBit) {
      // K-major: each product's rows of K bytes, one product after the
      // other, read through one transpose.
      std::vector<char> rows;
      for (Sibling *s : run)
        rows.insert(rows.end(), s->eightBit.begin(), s->eightBit.end());
      w = kMajorWeightView(b, loc, rows, total, depth, elem, "merged_weight");
    } else {
      SmallVector<Value> weights;
      for (Sibling *s : run)
        weights.push_back(s->product.getRhs());
      w = concatColumns(b, loc, weights, "merged_weight");
      if (!w)
        return;
    }
    ArrayRef<int64_t> outShape = first.getType().getShape();
    SmallVector<int64_t> shape(outShape);
    shape.back() = total;
    // The product's shape (and symbolic extents) with all the columns.
    auto widen = [&](Type t) {
      return shapedLike(first.getType(), shape,
                        cast<RankedTensorType>(t).getElementType());
    };
    Value merged =
        MatmulOp::create(b, loc, widen(first.getType()), first.getLhs(), w);
    // The group's chain on the merged product, with the biases and scales
    // of every product side by side: -0.0 and 1.0 on the columns of a
    // product without that step (x + -0.0 and x * 1.0 are x, signed zeros
    // included).
    for (auto [position, step] : llvm::enumerate(chain)) {
      Type element = step.element;
      Type type = shapedLike(first.getType(), shape, element);
      if (step.kind == Step::cast) {
        merged = CastOp::create(b, loc, type, merged);
        continue;
      }
      bool scale = step.kind == Step::scale;
      SmallVector<double> bias;
      for (Sibling *s : run) {
        if (int64_t i = s->at[position]; i >= 0)
          bias.append(s->columnValues[i]);
        else
          bias.append(s->columns, scale ? 1.0 : -0.0);
      }
      auto bType = RankedTensorType::get({total}, element);
      Value c = ConstantOp::create(
          b, loc,
          makeFloatElements(bType, bias,
                            scale ? "merged_scale" : "merged_bias"));
      merged = scale ? MulOp::create(b, loc, type, merged, c).getResult()
                     : AddOp::create(b, loc, type, merged, c).getResult();
    }
    int64_t rank = shape.size();
    SmallVector<int64_t> starts(rank, 0), steps(rank, 1);
    int64_t at = 0;
    SmallVector<Value> slices;
    for (Sibling *s : run) {
      SmallVector<int64_t> sizes(outShape);
      sizes.back() = s->columns;
      starts.back() = at;
      at += s->columns;
      auto type = cast<RankedTensorType>(s->result().getType());
      slices.push_back(SliceOp::create(
          b, loc, type, merged, starts, sizes, steps,
          isSymbolic(type) ? extentsAttrOf(b.getContext(), extentsOf(type))
                           : ExtentsAttr()));
    }
    // The builder inserts before `first`: erase only once every op exists,
    // then the weights and biases nothing reads any more (they would still
    // be planned into the artifact).
    llvm::SetVector<Operation *> constants;
    for (auto [s, slice] : llvm::zip(run, slices)) {
      s->result().replaceAllUsesWith(slice);
      for (Operation *op : llvm::reverse(s->chain)) {
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp();
              isa_and_nonnull<ConstantOp>(def))
            constants.insert(def);
        op->erase();
      }
      Operation *weight = s->product.getRhs().getDefiningOp();
      s->product->erase();
      // An 8-bit weight's transpose, then its bytes.
      if (auto t = dyn_cast_or_null<TransposeOp>(weight)) {
        weight = t.getInput().getDefiningOp();
        if (t->use_empty())
          t->erase();
      }
      constants.insert(weight);
    }
    for (Operation *c : constants)
      if (c && c->use_empty())
        c->erase();
  }
};

} // namespace
