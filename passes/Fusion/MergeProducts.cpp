//===- MergeProducts.cpp - sibling products of one input as one ----------===//
//
// Runs after brrr-fuse-attention, before the fusion passes (flag
// brrr-merge-products). Transformers multiply one activation by their
// query, key and value weights: three products of 768 columns in
// BERT-base, each a kernel launch that reads the input again, and at
// batch 1 each too narrow to fill the GPU. Products of one left operand by
// 2-D constant weights of the same depth and element type, read only by
// attention, become one product by the weights concatenated along their
// columns at compile time, plus the concatenated biases when every product
// of the group adds a constant bias of its columns; each former result is
// a slice of the merged one, which the attention kernel reads in place.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/IR/Matchers.h"

namespace mlir::brrr {
#define GEN_PASS_DEF_BRRRMERGEPRODUCTS
#include "passes/Passes.h.inc"
} // namespace mlir::brrr

using namespace mlir;
using namespace mlir::brrr;

namespace {

/// One product of a group: the matmul, its weights' values, and its bias
/// add and the bias's values when it has one.
struct Sibling {
  MatmulOp product;
  SmallVector<double> weights;
  AddOp biasAdd;
  SmallVector<double> bias;
  int64_t columns = 0;
};

/// The constant bias of `columns` values that `product`'s only user adds
/// to it (either operand order), if any.
AddOp biasAddOf(MatmulOp product, int64_t columns, SmallVector<double> &bias) {
  if (!product->hasOneUse())
    return AddOp();
  auto add = dyn_cast<AddOp>(*product->getUsers().begin());
  if (!add || add.getType() != product.getType())
    return AddOp();
  Value other = add.getLhs() == product.getResult() ? add.getRhs() : add.getLhs();
  auto type = cast<RankedTensorType>(other.getType());
  if (type.getRank() != 1 || type.getDimSize(0) != columns ||
      type.getElementType() != product.getType().getElementType())
    return AddOp();
  std::optional<SmallVector<double>> values = getConstFloats(other);
  if (!values)
    return AddOp();
  bias = std::move(*values);
  return add;
}

/// Whether `v` is read only as a query, key or value of `brrr.attention`,
/// through reshapes and transposes: the attention kernel then reads a
/// slice of a merged product in place. A slice read any other way would
/// be copied by a movement kernel, costing more than the merge saves.
bool feedsOnlyAttention(Value v) {
  SmallVector<Value> work = {v};
  while (!work.empty()) {
    Value x = work.pop_back_val();
    for (OpOperand &use : x.getUses()) {
      Operation *user = use.getOwner();
      if (isa<ReshapeOp, TransposeOp>(user)) {
        work.push_back(user->getResult(0));
        continue;
      }
      if (!isa<AttentionOp>(user) || use.getOperandNumber() > 2)
        return false;
    }
  }
  return true;
}

struct MergeProductsPass
    : public mlir::brrr::impl::BrrrMergeProductsBase<MergeProductsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Candidates by left operand, in block order.
    llvm::MapVector<Value, SmallVector<MatmulOp>> byInput;
    getOperation().walk([&](MatmulOp mm) {
      auto w = dyn_cast<RankedTensorType>(mm.getRhs().getType());
      auto x = dyn_cast<RankedTensorType>(mm.getLhs().getType());
      if (!w || !x || w.getRank() != 2 || x.getRank() < 2 ||
          !isa<FloatType>(w.getElementType()) ||
          !matchPattern(mm.getRhs(), m_Constant()))
        return;
      byInput[mm.getLhs()].push_back(mm);
    });
    for (auto &[input, products] : byInput) {
      // Products in one block with one weight type; with and without a
      // bias apart.
      SmallVector<Sibling> withBias, plain;
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
        s.biasAdd = biasAddOf(mm, s.columns, s.bias);
        if (!feedsOnlyAttention(s.biasAdd ? s.biasAdd.getResult()
                                          : mm.getResult()))
          continue;
        (s.biasAdd ? withBias : plain).push_back(std::move(s));
      }
      merge(withBias);
      merge(plain);
    }
  }

  /// Merges `group` in runs of at most maxColumns columns.
  void merge(SmallVector<Sibling> &group) {
    SmallVector<Sibling *> run;
    int64_t columns = 0;
    auto flush = [&] {
      if (run.size() >= 2)
        mergeRun(run);
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

  void mergeRun(ArrayRef<Sibling *> run) {
    MatmulOp first = run.front()->product;
    for (Sibling *s : run)
      if (s->product->isBeforeInBlock(first))
        first = s->product;
    // Weights' values (read only now: most groups are never merged).
    for (Sibling *s : run) {
      std::optional<SmallVector<double>> values =
          getConstFloats(s->product.getRhs());
      if (!values)
        return;
      s->weights = std::move(*values);
    }
    auto wType = first.getRhs().getType();
    int64_t depth = wType.getDimSize(0), total = 0;
    for (Sibling *s : run)
      total += s->columns;
    SmallVector<double> weights(depth * total), bias;
    int64_t at = 0;
    for (Sibling *s : run) {
      for (int64_t k = 0; k < depth; ++k)
        std::copy_n(s->weights.begin() + k * s->columns, s->columns,
                    weights.begin() + k * total + at);
      if (s->biasAdd)
        bias.append(s->bias);
      at += s->columns;
    }
    OpBuilder b(first);
    Location loc = first.getLoc();
    Type elem = wType.getElementType();
    auto mergedWType = RankedTensorType::get({depth, total}, elem);
    Value w = ConstantOp::create(
        b, loc, makeFloatElements(mergedWType, weights, "merged_weight"));
    ArrayRef<int64_t> outShape = first.getType().getShape();
    SmallVector<int64_t> shape(outShape);
    shape.back() = total;
    auto outType =
        RankedTensorType::get(shape, first.getType().getElementType());
    Value merged = MatmulOp::create(b, loc, outType, first.getLhs(), w);
    if (run.front()->biasAdd) {
      auto bType = RankedTensorType::get({total}, outType.getElementType());
      Value c = ConstantOp::create(
          b, loc, makeFloatElements(bType, bias, "merged_bias"));
      merged = AddOp::create(b, loc, outType, merged, c);
    }
    int64_t rank = outType.getRank();
    SmallVector<int64_t> starts(rank, 0), steps(rank, 1);
    at = 0;
    SmallVector<Value> slices;
    for (Sibling *s : run) {
      SmallVector<int64_t> sizes(outShape);
      sizes.back() = s->columns;
      starts.back() = at;
      at += s->columns;
      slices.push_back(SliceOp::create(b, loc, first.getType().clone(sizes),
                                       merged, starts, sizes, steps));
    }
    // The builder inserts before `first`: erase only once every op exists,
    // then the weights and biases nothing reads any more (they would still
    // be planned into the artifact).
    SmallVector<Operation *> constants;
    for (auto [s, slice] : llvm::zip(run, slices)) {
      Operation *result =
          s->biasAdd ? s->biasAdd.getOperation() : s->product.getOperation();
      result->getResult(0).replaceAllUsesWith(slice);
      if (s->biasAdd) {
        Value bias = s->biasAdd.getLhs() == s->product.getResult()
                         ? s->biasAdd.getRhs()
                         : s->biasAdd.getLhs();
        constants.push_back(bias.getDefiningOp());
        s->biasAdd->erase();
      }
      constants.push_back(s->product.getRhs().getDefiningOp());
      s->product->erase();
    }
    for (Operation *c : constants)
      if (c && c->use_empty())
        c->erase();
  }
};

} // namespace
