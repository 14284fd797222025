//===- ImportEinsum.cpp - Einsum as products, diagonals and sums ----------===//
//
// Einsum lowered to ops brrr already runs. Each term's labels name its
// operand's dimensions (an ellipsis the broadcast dimensions, right
// aligned across operands); then:
//   - a label repeated in one term takes that operand's diagonal (a where
//     against equal indices, summed over the repeat);
//   - a label that only one operand has and nothing after it reads is
//     summed out of that operand first;
//   - operands fold left to right: labels both sides have and something
//     later (or the output) reads are batch dimensions, those nothing later
//     reads are contracted. f16, bf16 and f32 operands contract through
//     brrr.matmul, transposed and reshaped to [batch, M, K] x [batch, K, N];
//     other types, and pairs with nothing to contract, through a broadcast
//     multiply and a sum;
//   - the result is transposed to the output's order (given after `->`, or
//     in implicit mode the ellipsis then the labels used once, sorted).
// A label's size is an extent: a constant, or an expression of the
// module's symbolic dimensions (`bsd,de->bse` over a symbolic batch and
// sequence is a product over symbolic rows); a diagonal takes constant
// sizes only.
//
//===----------------------------------------------------------------------===//

#include "compiler/Import/NodeImporter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::brrr;

namespace mlir::brrr {
namespace {

/// Labels: letters are their characters; the ellipsis' broadcast
/// dimensions (right aligned across operands) are kEllipsis + position.
using Label = int64_t;
constexpr Label kEllipsis = 1000;
/// The longest diagonal taken (its indices become constants).
constexpr int64_t kMaxDiagonal = 1 << 20;

/// An operand (or partial result) and the label of each of its dimensions.
struct Labeled {
  Value value;
  SmallVector<Label> labels;
  RankedTensorType type() const {
    return cast<RankedTensorType>(value.getType());
  }
};

/// One term of the equation: its letters and where its ellipsis sits
/// (among the letters), if it has one.
struct Term {
  SmallVector<char> letters;
  std::optional<size_t> ellipsisAt;
};

FailureOr<Term> parseTerm(NodeImporter &n, StringRef text) {
  Term t;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      if (t.ellipsisAt || !text.substr(i).starts_with("..."))
        return n.emitError()
               << "term '" << text << "' has a '.' outside one ellipsis '...'";
      t.ellipsisAt = t.letters.size();
      i += 2;
      continue;
    }
    if (!llvm::isAlpha(c))
      return n.emitError() << "term '" << text << "' has '" << c
                           << "', not a letter";
    t.letters.push_back(c);
  }
  return t;
}

/// The labels of a term over an operand of `rank` dimensions whose
/// ellipsis spans the last of `ellipsisRank` broadcast dimensions.
SmallVector<Label> labelsOf(const Term &t, int64_t rank, int64_t ellipsisRank) {
  SmallVector<Label> labels;
  int64_t spans = rank - static_cast<int64_t>(t.letters.size());
  for (size_t i = 0; i <= t.letters.size(); ++i) {
    if (t.ellipsisAt && *t.ellipsisAt == i)
      for (int64_t d = 0; d < spans; ++d)
        labels.push_back(kEllipsis + ellipsisRank - spans + d);
    if (i < t.letters.size())
      labels.push_back(t.letters[i]);
  }
  return labels;
}

std::string labelName(Label l) {
  return l >= kEllipsis ? "..." + std::to_string(l - kEllipsis)
                        : std::string(1, static_cast<char>(l));
}

/// `x` with its dimensions ordered as `order` (a permutation of its
/// labels).
FailureOr<Labeled> permute(NodeImporter &n, const Labeled &x,
                           ArrayRef<Label> order) {
  SmallVector<int64_t> perm;
  for (Label l : order)
    perm.push_back(llvm::find(x.labels, l) - x.labels.begin());
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return Labeled{x.value, SmallVector<Label>(order)};
  auto y = n.create<TransposeOp>(x.value, perm);
  if (failed(y))
    return failure();
  return Labeled{*y, SmallVector<Label>(order)};
}

/// `x` summed over the dimensions labeled in `labels`.
FailureOr<Labeled> sumOut(NodeImporter &n, const Labeled &x,
                          ArrayRef<Label> labels) {
  SmallVector<int64_t> axes;
  Labeled y;
  for (auto [d, l] : llvm::enumerate(x.labels)) {
    if (llvm::is_contained(labels, l))
      axes.push_back(d);
    else
      y.labels.push_back(l);
  }
  if (axes.empty())
    return x;
  auto v = n.create<ReduceOp>(ReduceKind::sum, x.value, axes, false);
  if (failed(v))
    return failure();
  y.value = *v;
  return y;
}

/// `x` with its repeated labels replaced by their diagonal.
FailureOr<Labeled> diagonal(NodeImporter &n, Labeled x) {
  for (size_t p = 0; p < x.labels.size(); ++p) {
    for (size_t q = p + 1; q < x.labels.size(); ++q) {
      if (x.labels[p] != x.labels[q])
        continue;
      RankedTensorType t = x.type();
      if (ShapedType::isDynamic(t.getDimSize(p)) ||
          ShapedType::isDynamic(t.getDimSize(q)))
        return n.emitError() << "label '" << labelName(x.labels[p])
                             << "' repeats over a symbolic dimension: a "
                                "diagonal takes fixed sizes";
      if (t.getDimSize(p) != t.getDimSize(q))
        return n.emitError() << "label '" << labelName(x.labels[p])
                             << "' repeats over dimensions of sizes "
                             << t.getDimSize(p) << " and " << t.getDimSize(q);
      // The indices compared are constants of the diagonal's length.
      if (t.getDimSize(p) > kMaxDiagonal)
        return n.emitError() << "a diagonal of " << t.getDimSize(p)
                             << " elements is more than " << kMaxDiagonal;
      auto ip = n.indicesAlong(t, p), iq = n.indicesAlong(t, q);
      if (failed(ip) || failed(iq))
        return failure();
      auto same = n.create<CompareOp>(ComparePredicate::eq, *ip, *iq);
      if (failed(same))
        return failure();
      auto kept =
          n.create<WhereOp>(*same, x.value, n.scalar(t.getElementType(), 0));
      if (failed(kept))
        return failure();
      auto sum = n.create<ReduceOp>(ReduceKind::sum, *kept,
                                    ArrayRef<int64_t>{int64_t(q)}, false);
      if (failed(sum))
        return failure();
      x.value = *sum;
      x.labels.erase(x.labels.begin() + q);
      --q;
    }
  }
  return x;
}

/// Each label's size: a constant or symbolic extent.
using Sizes = llvm::DenseMap<Label, AffineExpr>;

/// `x` broadcast to the sizes `sizeOf` gives its labels.
FailureOr<Labeled> broadcast(NodeImporter &n, const Labeled &x,
                             const Sizes &sizeOf) {
  SmallVector<AffineExpr> extents;
  for (Label l : x.labels)
    extents.push_back(sizeOf.lookup(l));
  if (llvm::equal(extents, extentsOf(x.type())))
    return x;
  auto type = tensorTypeOf(n.getContext(), extents, x.type().getElementType());
  auto v = n.createTyped<ExpandOp>(type, x.value);
  if (failed(v))
    return failure();
  return Labeled{*v, x.labels};
}

/// `x` ordered as `order` and broadcast to the sizes `sizeOf` gives.
FailureOr<Labeled> arrange(NodeImporter &n, const Labeled &x,
                           ArrayRef<Label> order, const Sizes &sizeOf) {
  auto p = permute(n, x, order);
  if (failed(p))
    return failure();
  return broadcast(n, *p, sizeOf);
}

/// The product of `a` and `b` summed over `contract`, its labels `batch`,
/// then a's own, then b's own.
FailureOr<Labeled> contractPair(NodeImporter &n, const Labeled &a,
                                const Labeled &b, ArrayRef<Label> batch,
                                ArrayRef<Label> contract, const Sizes &sizeOf) {
  SmallVector<Label> aOwn, bOwn;
  for (Label l : a.labels)
    if (!llvm::is_contained(b.labels, l))
      aOwn.push_back(l);
  for (Label l : b.labels)
    if (!llvm::is_contained(a.labels, l))
      bOwn.push_back(l);
  // Sizes multiply within one valid tensor type (at the largest shape), or
  // are refused.
  Value av = a.value;
  SmallVector<DimAttr> dims = dimsOf(av.getParentRegion()->getParentOp());
  bool overflow = false;
  auto product = [&](ArrayRef<Label> labels) {
    AffineExpr p = getAffineConstantExpr(1, n.getContext());
    for (Label l : labels) {
      p = p * sizeOf.lookup(l);
      overflow |= !rangeOf(p, dims);
    }
    return p;
  };
  SmallVector<Label> labels(batch);
  llvm::append_range(labels, aOwn);
  llvm::append_range(labels, bOwn);
  SmallVector<AffineExpr> shape;
  for (Label l : labels)
    shape.push_back(sizeOf.lookup(l));
  Type et = a.type().getElementType();
  bool tensorCores = et.isF16() || et.isBF16() || et.isF32();
  if (tensorCores && !contract.empty()) {
    // [batch, M, K] x [batch, K, N] -> [batch, M, N].
    auto side = [&](const Labeled &x, ArrayRef<Label> own,
                    bool isLhs) -> FailureOr<Value> {
      SmallVector<Label> order(batch);
      if (isLhs) {
        llvm::append_range(order, own);
        llvm::append_range(order, contract);
      } else {
        llvm::append_range(order, contract);
        llvm::append_range(order, own);
      }
      auto wide = arrange(n, x, order, sizeOf);
      if (failed(wide))
        return failure();
      SmallVector<AffineExpr> matrix;
      if (!batch.empty())
        matrix.push_back(product(batch));
      AffineExpr own1 = product(own), k = product(contract);
      matrix.push_back(isLhs ? own1 : k);
      matrix.push_back(isLhs ? k : own1);
      if (overflow)
        return n.emitError() << "the operands' sizes multiply past 64 bits";
      return n.reshapeTo(wide->value, matrix);
    };
    auto lhs = side(a, aOwn, true), rhs = side(b, bOwn, false);
    if (failed(lhs) || failed(rhs))
      return failure();
    auto mm = n.create<MatmulOp>(*lhs, *rhs);
    if (failed(mm))
      return failure();
    auto y = n.reshapeTo(*mm, shape);
    if (failed(y))
      return failure();
    return Labeled{*y, labels};
  }
  // A broadcast multiply over [batch, a's own, b's own, contract], then the
  // sum over the contracted labels.
  SmallVector<Label> all(labels);
  llvm::append_range(all, contract);
  auto spread = [&](const Labeled &x) -> FailureOr<Value> {
    SmallVector<Label> order;
    SmallVector<AffineExpr> extents, own = extentsOf(x.type());
    for (Label l : all) {
      bool has = llvm::is_contained(x.labels, l);
      if (has)
        order.push_back(l);
      extents.push_back(has ? own[llvm::find(x.labels, l) - x.labels.begin()]
                            : getAffineConstantExpr(1, n.getContext()));
    }
    auto p = permute(n, x, order);
    if (failed(p))
      return failure();
    return n.reshapeTo(p->value, extents);
  };
  auto lhs = spread(a), rhs = spread(b);
  if (failed(lhs) || failed(rhs))
    return failure();
  auto mul = n.create<MulOp>(*lhs, *rhs);
  if (failed(mul))
    return failure();
  return sumOut(n, Labeled{*mul, all}, contract);
}

LogicalResult importEinsum(NodeImporter &n) {
  std::string equation = n.attrString("equation", "");
  llvm::erase_if(equation, llvm::isSpace);
  if (equation.empty())
    return n.emitError() << "missing attribute 'equation'";
  StringRef lhs = equation, rhs;
  size_t arrow = lhs.find("->");
  bool explicitOutput = arrow != StringRef::npos;
  if (explicitOutput) {
    rhs = lhs.drop_front(arrow + 2);
    lhs = lhs.take_front(arrow);
  }
  SmallVector<StringRef> termTexts;
  lhs.split(termTexts, ',');
  if (termTexts.size() != n.numInputs())
    return n.emitError() << "equation '" << equation << "' has "
                         << termTexts.size() << " terms for " << n.numInputs()
                         << " inputs";
  SmallVector<Term> terms;
  for (StringRef text : termTexts) {
    auto t = parseTerm(n, text);
    if (failed(t))
      return failure();
    terms.push_back(*t);
  }
  // Each term's letters and ellipsis cover its operand's dimensions.
  int64_t ellipsisRank = 0;
  Type et;
  for (auto [i, t] : llvm::enumerate(terms)) {
    auto x = n.requiredInput(i);
    if (failed(x))
      return failure();
    RankedTensorType type = n.inputType(i);
    if (!et)
      et = type.getElementType();
    if (type.getElementType() != et)
      return n.emitError() << "inputs 0 and " << i << " have types " << et
                           << " and " << type.getElementType();
    int64_t letters = t.letters.size();
    if (t.ellipsisAt ? type.getRank() < letters : type.getRank() != letters)
      return n.emitError() << "term '" << termTexts[i] << "' does not fit "
                           << "input " << i << " of rank " << type.getRank();
    ellipsisRank = std::max(ellipsisRank, type.getRank() - letters);
  }
  SmallVector<Labeled> operands;
  Sizes sizeOf;
  AffineExpr one = getAffineConstantExpr(1, n.getContext());
  for (auto [i, t] : llvm::enumerate(terms)) {
    Labeled x{n.input(i), labelsOf(t, n.inputType(i).getRank(), ellipsisRank)};
    SmallVector<AffineExpr> extents = extentsOf(x.type());
    for (auto [d, l] : llvm::enumerate(x.labels)) {
      AffineExpr size = extents[d];
      auto [it, inserted] = sizeOf.try_emplace(l, size);
      if (inserted || it->second == size)
        continue;
      // Broadcast dimensions stretch from 1; letters must agree.
      if (l >= kEllipsis && (it->second == one || size == one)) {
        if (it->second == one)
          it->second = size;
        continue;
      }
      auto text = [](AffineExpr e) {
        std::string t;
        llvm::raw_string_ostream os(t);
        e.print(os);
        return t;
      };
      return n.emitError() << "label '" << labelName(l) << "' has sizes "
                           << text(it->second) << " and " << text(size);
    }
    operands.push_back(std::move(x));
  }
  // The output's labels.
  SmallVector<Label> output;
  SmallVector<Label> ellipsis;
  for (int64_t d = 0; d < ellipsisRank; ++d)
    ellipsis.push_back(kEllipsis + d);
  if (explicitOutput) {
    auto out = parseTerm(n, rhs);
    if (failed(out))
      return failure();
    bool anyEllipsis = llvm::any_of(
        terms, [](const Term &t) { return t.ellipsisAt.has_value(); });
    if (out->ellipsisAt && !anyEllipsis)
      return n.emitError() << "the output has an ellipsis no input has";
    if (!out->ellipsisAt && ellipsisRank > 0)
      return n.emitError() << "the output drops the inputs' ellipsis";
    output = labelsOf(*out, out->letters.size() + ellipsisRank, ellipsisRank);
    for (auto [i, l] : llvm::enumerate(output)) {
      if (!sizeOf.count(l))
        return n.emitError()
               << "output label '" << labelName(l) << "' is in no input";
      if (llvm::is_contained(ArrayRef(output).take_front(i), l))
        return n.emitError() << "output label '" << labelName(l) << "' repeats";
    }
  } else {
    output = ellipsis;
    llvm::DenseMap<Label, int> uses;
    for (const Term &t : terms)
      for (char c : t.letters)
        ++uses[c];
    SmallVector<Label> once;
    for (auto [l, count] : uses)
      if (count == 1)
        once.push_back(l);
    llvm::sort(once);
    llvm::append_range(output, once);
  }
  // Diagonals, then labels nothing else reads summed out of each operand,
  // then the operands folded left to right.
  auto readAfter = [&](size_t i) {
    SmallVector<Label> keep(output);
    for (size_t j = i + 1; j < operands.size(); ++j)
      llvm::append_range(keep, operands[j].labels);
    return keep;
  };
  for (size_t i = 0; i < operands.size(); ++i) {
    auto d = diagonal(n, operands[i]);
    if (failed(d))
      return failure();
    operands[i] = *d;
  }
  Labeled acc;
  for (size_t i = 0; i < operands.size(); ++i) {
    SmallVector<Label> keep = readAfter(i);
    for (size_t j = 0; j < i; ++j)
      llvm::append_range(keep, operands[j].labels);
    SmallVector<Label> alone;
    for (Label l : operands[i].labels)
      if (!llvm::is_contained(keep, l))
        alone.push_back(l);
    auto own = sumOut(n, operands[i], alone);
    if (failed(own))
      return failure();
    if (i == 0) {
      acc = *own;
      continue;
    }
    // Labels both sides have: batch if read later, else contracted; labels
    // of the running result nothing later reads are summed out of it.
    SmallVector<Label> later = readAfter(i), batch, contract, done;
    for (Label l : acc.labels) {
      bool shared = llvm::is_contained(own->labels, l);
      bool needed = llvm::is_contained(later, l);
      if (shared)
        (needed ? batch : contract).push_back(l);
      else if (!needed)
        done.push_back(l);
    }
    auto left = sumOut(n, acc, done);
    if (failed(left))
      return failure();
    auto pair = contractPair(n, *left, *own, batch, contract, sizeOf);
    if (failed(pair))
      return failure();
    acc = *pair;
  }
  SmallVector<Label> extra;
  for (Label l : acc.labels)
    if (!llvm::is_contained(output, l))
      extra.push_back(l);
  auto summed = sumOut(n, acc, extra);
  if (failed(summed))
    return failure();
  // Broadcast dimensions only one operand stretched keep their size.
  auto wide = arrange(n, *summed, output, sizeOf);
  if (failed(wide))
    return failure();
  n.setOutput(0, wide->value);
  return success();
}

} // namespace

void registerEinsumImporters(OpTable &t) { t["Einsum"] = {{12}, importEinsum}; }

} // namespace mlir::brrr
