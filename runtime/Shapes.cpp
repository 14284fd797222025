//===- Shapes.cpp - symbolic shapes: binding, checking, evaluating --------===//
//
// A model compiled with ranges (`brrrc --input-shape x=1..64x128`) has
// symbols, and its plan's extents, grids and kernel scalars are expressions
// over them (artifact::Expr). A context holds the input shapes the caller
// set; the first run after a change binds each symbol from the inputs that
// name it, checks every binding against the others and the symbol's range,
// and evaluates the plan at those values: launch grids, the scalars that
// kernels take, and each tensor's extents, checked against what the memory
// plan reserved. A shape is refused before anything is launched, and the
// context keeps working at the shapes it had.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"
#include "runtime/TensorMaps.h"

#include <algorithm>

namespace brrr::runtime {
namespace {

using artifact::Artifact;

std::string inputLabel(const brrr_model &m, size_t i) {
  return "input " + std::to_string(i) + " ('" + m.inputs[i].name + "')";
}

std::string symbolLabel(const Artifact &a, size_t s) {
  return "'" + a.symbols[s].name + "', " + std::to_string(a.symbols[s].min) +
         ".." + std::to_string(a.symbols[s].max);
}

/// Tensor `t`'s dimension `d` at the bound symbols.
int64_t dimOf(const brrr_context &c, const artifact::Tensor &t, size_t d) {
  if (t.dimExprs.empty() || t.dimExprs[d] == -1)
    return t.dims[d];
  return c.exprValues[size_t(t.dimExprs[d])];
}

std::string shapeText(const int64_t *dims, size_t rank) {
  std::string s = "[";
  for (size_t d = 0; d < rank; ++d)
    s += (d ? ", " : "") + std::to_string(dims[d]);
  return s + "]";
}

} // namespace

brrr_status setInputShape(brrr_context *c, int32_t index, const int64_t *dims,
                          int32_t rank) {
  const brrr_model &m = *c->model;
  const char *fn = "brrr_context_set_input_shape";
  size_t i = size_t(index);
  const brrr_tensor_info &info = m.inputs[i];
  if (rank != info.rank)
    return fail(BRRR_ERROR_INVALID_SHAPE, std::string(fn) + ": " +
                                              inputLabel(m, i) + " has rank " +
                                              std::to_string(info.rank) +
                                              ", not " + std::to_string(rank));
  // The shape the context has was checked when it was set: a comparison,
  // and nothing is built, on the path of every run.
  std::vector<int64_t> &shape = c->inputShapes[i];
  if (shape.size() == size_t(rank) &&
      std::equal(shape.begin(), shape.end(), dims))
    return BRRR_OK;
  const artifact::Tensor &t = m.art.tensors[m.art.inputs[i]];
  for (size_t d = 0; d < size_t(rank); ++d) {
    int32_t s = m.inputSymbols[i][d];
    auto at = [&] {
      return std::string(fn) + ": " + inputLabel(m, i) + " dimension " +
             std::to_string(d) + " is " + std::to_string(dims[d]) +
             " in shape " + shapeText(dims, size_t(rank)) + ", ";
    };
    if (s == -1 && dims[d] != t.dims[d])
      return fail(BRRR_ERROR_INVALID_SHAPE, at() +
                                                "but the model fixes it at " +
                                                std::to_string(t.dims[d]));
    if (s != -1 && (dims[d] < m.art.symbols[size_t(s)].min ||
                    dims[d] > m.art.symbols[size_t(s)].max))
      return fail(BRRR_ERROR_INVALID_SHAPE, at() +
                                                "outside the range of symbol " +
                                                symbolLabel(m.art, size_t(s)) +
                                                ", the model was compiled for");
  }
  shape.assign(dims, dims + rank);
  c->symbolsBound = false;
  return BRRR_OK;
}

brrr_status bindSymbols(brrr_context &c, const char *fn) {
  const brrr_model &m = *c.model;
  const Artifact &a = m.art;
  if (c.symbolsBound || a.symbols.empty())
    return BRRR_OK;
  // Each symbol's value and the input it came from.
  std::vector<int64_t> values(a.symbols.size(), -1);
  std::vector<size_t> from(a.symbols.size(), 0);
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    const std::vector<int32_t> &symbols = m.inputSymbols[i];
    bool symbolic = false;
    for (int32_t s : symbols)
      symbolic |= s != -1;
    if (!symbolic)
      continue;
    const std::vector<int64_t> &shape = c.inputShapes[i];
    if (shape.empty()) {
      std::string which;
      for (size_t d = 0; d < symbols.size(); ++d)
        if (symbols[d] != -1)
          which += std::string(which.empty() ? "" : ", ") + "dimension " +
                   std::to_string(d) + " is " +
                   symbolLabel(a, size_t(symbols[d]));
      return fail(BRRR_ERROR_INVALID_SHAPE,
                  std::string(fn) + ": " + inputLabel(m, i) +
                      " has a symbolic shape (" + which +
                      "); set its shape with brrr_context_set_input_shape "
                      "before running");
    }
    for (size_t d = 0; d < symbols.size(); ++d) {
      int32_t s = symbols[d];
      if (s == -1)
        continue;
      if (values[size_t(s)] == -1) {
        values[size_t(s)] = shape[d];
        from[size_t(s)] = i;
      } else if (values[size_t(s)] != shape[d]) {
        return fail(BRRR_ERROR_INVALID_SHAPE,
                    std::string(fn) + ": " + inputLabel(m, i) + " dimension " +
                        std::to_string(d) + " is " + std::to_string(shape[d]) +
                        ", but it is symbol '" + a.symbols[size_t(s)].name +
                        "', which " + inputLabel(m, from[size_t(s)]) +
                        " sets to " + std::to_string(values[size_t(s)]));
      }
    }
  }
  if (values != c.symbols) {
    c.symbols = std::move(values);
    c.planBound = false;
  }
  c.symbolsBound = true;
  return BRRR_OK;
}

brrr_status bindShapes(brrr_context &c, const char *fn) {
  const Artifact &a = c.model->art;
  if (a.symbols.empty())
    return BRRR_OK;
  if (brrr_status s = bindSymbols(c, fn))
    return s;
  if (c.planBound)
    return BRRR_OK;
  const std::vector<int64_t> &values = c.symbols;
  // The plan at those values: every expression, then what it feeds. What
  // fails here is the artifact's fault (validate() checked the extremes).
  std::vector<int64_t> exprs(a.exprs.size());
  for (size_t e = 0; e < a.exprs.size(); ++e) {
    std::string reason;
    if (!artifact::evaluate(a.exprs[e], values.data(), values.size(), exprs[e],
                            reason) ||
        exprs[e] < 0)
      return fail(BRRR_ERROR_CORRUPT_ARTIFACT,
                  std::string(fn) + ": the model's expression " +
                      std::to_string(e) + " fails at these shapes: " +
                      (reason.empty() ? "it is negative" : reason));
  }
  std::vector<std::array<uint32_t, 3>> grids(a.launches.size());
  for (size_t l = 0; l < a.launches.size(); ++l)
    for (int d = 0; d < 3; ++d) {
      const artifact::Launch &launch = a.launches[l];
      int32_t e = launch.gridExprs[d];
      int64_t g = e == -1 ? launch.grid[d] : exprs[size_t(e)];
      // The largest grid passed validation; a smaller shape's is smaller.
      if (g > int64_t(launch.grid[d]))
        return fail(BRRR_ERROR_CORRUPT_ARTIFACT,
                    std::string(fn) + ": launch " + std::to_string(l) +
                        " has grid dimension " + std::to_string(g) +
                        " at these shapes, above its largest, " +
                        std::to_string(launch.grid[d]));
      grids[l][size_t(d)] = uint32_t(g);
    }
  // A guarded launch runs where its extent lies in its range; elsewhere
  // its grid is empty, which every enqueue skips.
  for (size_t l = 0; l < a.launches.size(); ++l) {
    const artifact::Launch &launch = a.launches[l];
    if (launch.guardExpr == -1)
      continue;
    uint64_t v = uint64_t(exprs[size_t(launch.guardExpr)]);
    if (v < launch.guardMin || v > launch.guardMax)
      grids[l] = {0, 0, 0};
  }
  c.exprValues = std::move(exprs);
  // Every tensor fits what the plan reserved for it.
  for (uint32_t t = 0; t < a.tensors.size(); ++t)
    if (tensorBytes(c, t) > a.tensors[t].bytes) {
      std::string reason = std::string(fn) + ": tensor '" + a.tensors[t].name +
                           "' needs " + std::to_string(tensorBytes(c, t)) +
                           " bytes at these shapes, more than the " +
                           std::to_string(a.tensors[t].bytes) +
                           " the model reserves for it";
      return fail(BRRR_ERROR_CORRUPT_ARTIFACT, std::move(reason));
    }
  c.grids = std::move(grids);
  for (const brrr_context::ScalarSlot &s : c.scalarSlots)
    c.values[s.slot] = CUdeviceptr(uint64_t(c.exprValues[s.expr]));
  if (brrr_status s = encodeShapedTensorMaps(c, fn))
    return s;
  c.planBound = true;
  return BRRR_OK;
}

uint64_t tensorBytes(const brrr_context &c, uint32_t t) {
  const artifact::Tensor &x = c.model->art.tensors[t];
  if (x.dimExprs.empty())
    return x.bytes;
  uint64_t n = artifact::dtypeSize(x.dtype);
  // Each extent is at most its largest (bindShapes checks the product), so
  // the product is at most `bytes`... unless an extent alone exceeds it:
  // saturate instead of wrapping so that the check still refuses it.
  for (size_t d = 0; d < x.dims.size(); ++d) {
    uint64_t dim = uint64_t(dimOf(c, x, d));
    if (__builtin_mul_overflow(n, dim, &n))
      return UINT64_MAX;
  }
  return n;
}

void tensorDims(const brrr_context &c, uint32_t t, int64_t *dims) {
  const artifact::Tensor &x = c.model->art.tensors[t];
  for (size_t d = 0; d < x.dims.size(); ++d)
    dims[d] = dimOf(c, x, d);
}

brrr_status setGraphCache(brrr_context *c, size_t capacity) {
  c->graphCapacity = capacity;
  if (c->graphs.size() <= capacity)
    return BRRR_OK;
  CurrentContext current(*c->cuda, c->model->ctx);
  BRRR_CU(*c->cuda, current.result, "making the model's CUDA context current");
  // Keeps the most recently run.
  std::sort(c->graphs.begin(), c->graphs.end(),
            [](const brrr_context::Graph &x, const brrr_context::Graph &y) {
              return x.lastRun > y.lastRun;
            });
  for (size_t i = capacity; i < c->graphs.size(); ++i)
    c->cuda->cuGraphExecDestroy(c->graphs[i].exec);
  c->graphs.resize(capacity);
  return BRRR_OK;
}

} // namespace brrr::runtime
