"""The models of dynamic_shapes.py: small ONNX models of the kernel families
that compile over symbolic extents, each with its float64 reference and the
ranges and shapes it runs at (`models()`); the models of ops that exports
reach beyond those are in dynamic_shapes_ops.py.

Runs where torch and onnx do (the GPU machine).
"""

import numpy as np
import torch
from onnx import TensorProto, helper, numpy_helper

F16, F32 = TensorProto.FLOAT16, TensorProto.FLOAT


def graph(name, nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def bias_add(elem, dims, width):
    """z = relu((x + b) * y), w = tanh(x + b): two outputs, a broadcast."""
    np_t = np.float16 if elem == F16 else np.float32
    b = numpy_helper.from_array(
        (np.linspace(-2, 2, width)).astype(np_t), "b")
    shape = dims + [width]
    m = graph("bias_add", [
        helper.make_node("Add", ["x", "b"], ["a"]),
        helper.make_node("Mul", ["a", "y"], ["m"]),
        helper.make_node("Relu", ["m"], ["z"]),
        helper.make_node("Tanh", ["a"], ["w"]),
    ], [helper.make_tensor_value_info("x", elem, shape),
        helper.make_tensor_value_info("y", elem, shape)],
        [helper.make_tensor_value_info("z", elem, shape),
         helper.make_tensor_value_info("w", elem, shape)], [b])

    def ref(x, y):
        bb = np.linspace(-2, 2, width).astype(np_t).astype(np.float64)
        a = x + bb
        return [np.maximum(a * y, 0), np.tanh(a)]
    return m, ref


def silu_row(elem, dims, width):
    """z = x * sigmoid(x) + 1 over a ragged row (vector width 1)."""
    shape = dims + [width]
    one = numpy_helper.from_array(np.array(1.0, np.float32), "one")
    nodes = [helper.make_node("Sigmoid", ["x"], ["s"]),
             helper.make_node("Mul", ["x", "s"], ["m"])]
    if elem == F16:
        nodes += [helper.make_node("Cast", ["one"], ["one16"], to=F16),
                  helper.make_node("Add", ["m", "one16"], ["z"])]
    else:
        nodes += [helper.make_node("Add", ["m", "one"], ["z"])]
    m = graph("silu_row", nodes,
              [helper.make_tensor_value_info("x", elem, shape)],
              [helper.make_tensor_value_info("z", elem, shape)], [one])
    return m, lambda x: [x / (1 + np.exp(-x)) + 1]


def norm_rows(elem, dims, width):
    """n = LayerNorm(x + r), z = relu(softmax(n)): two row kernels with a
    prologue and an epilogue."""
    np_t = np.float16 if elem == F16 else np.float32
    scale = np.linspace(0.5, 1.5, width).astype(np_t)
    bias = np.linspace(-1, 1, width).astype(np_t)
    shape = dims + [width]
    m = graph("norm_rows", [
        helper.make_node("Add", ["x", "r"], ["h"]),
        helper.make_node("LayerNormalization", ["h", "scale", "bias"], ["n"],
                         axis=-1, epsilon=1e-5),
        helper.make_node("Softmax", ["n"], ["s"], axis=-1),
        helper.make_node("Relu", ["s"], ["z"]),
    ], [helper.make_tensor_value_info("x", elem, shape),
        helper.make_tensor_value_info("r", elem, shape)],
        [helper.make_tensor_value_info("z", elem, shape),
         helper.make_tensor_value_info("n", elem, shape)],
        [numpy_helper.from_array(scale, "scale"),
         numpy_helper.from_array(bias, "bias")])

    def ref(x, r):
        h = x + r
        mu = h.mean(-1, keepdims=True)
        var = ((h - mu) ** 2).mean(-1, keepdims=True)
        n = (h - mu) / np.sqrt(var + 1e-5) * scale.astype(np.float64) + \
            bias.astype(np.float64)
        e = np.exp(n - n.max(-1, keepdims=True))
        return [np.maximum(e / e.sum(-1, keepdims=True), 0), n]
    return m, ref


def mlp(dims, d, h, seed, gelu=False):
    """y = act(x W1 + b1) W2 + x, f16, act a ReLU or (`gelu`) the erf GELU:
    two products (TMA + wgmma) over symbolic rows, with bias, activation
    and residual epilogues."""
    rng = np.random.default_rng(seed)
    w1 = (rng.standard_normal((d, h)) / np.sqrt(d)).astype(np.float16)
    b1 = rng.standard_normal(h).astype(np.float16)
    w2 = (rng.standard_normal((h, d)) / np.sqrt(h)).astype(np.float16)
    shape = dims + [d]
    if gelu:
        act = [helper.make_node("Div", ["a1", "sqrt2"], ["g0"]),
               helper.make_node("Erf", ["g0"], ["g1"]),
               helper.make_node("Add", ["g1", "one"], ["g2"]),
               helper.make_node("Mul", ["a1", "g2"], ["g3"]),
               helper.make_node("Mul", ["g3", "half"], ["r1"])]
        consts = [numpy_helper.from_array(np.array(v, np.float16), n)
                  for n, v in (("sqrt2", np.sqrt(2)), ("one", 1.0),
                               ("half", 0.5))]
    else:
        act, consts = [helper.make_node("Relu", ["a1"], ["r1"])], []
    m = graph("mlp", [
        helper.make_node("MatMul", ["x", "w1"], ["m1"]),
        helper.make_node("Add", ["m1", "b1"], ["a1"]),
    ] + act + [
        helper.make_node("MatMul", ["r1", "w2"], ["m2"]),
        helper.make_node("Add", ["m2", "x"], ["y"]),
    ], [helper.make_tensor_value_info("x", F16, shape)],
        [helper.make_tensor_value_info("y", F16, shape)],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
         numpy_helper.from_array(w2, "w2")] + consts)

    def ref(x):
        # The hidden activation is stored in f16 between the products.
        a1 = x @ w1.astype(np.float64) + b1.astype(np.float64)
        if gelu:
            t = torch.from_numpy(a1)
            r1 = (0.5 * t * (1 + torch.special.erf(t / np.sqrt(2)))).numpy()
        else:
            r1 = np.maximum(a1, 0)
        r1 = r1.astype(np.float16).astype(np.float64)
        return [r1 @ w2.astype(np.float64) + x]
    return m, ref


def gated_mlp(dims, d, h, seed):
    """y = (silu(x W_gate) * (x W_up)) W_down, f16: a Llama-style MLP whose
    gate and up products pair (brrr-fuse-matmul: one product by their
    weights side by side, its epilogue pairing the halves) over symbolic
    rows, on each range's body: few-rows, few-rows on Tensor Cores, wgmma."""
    rng = np.random.default_rng(seed)
    wg = (rng.standard_normal((d, h)) / np.sqrt(d)).astype(np.float16)
    wu = (rng.standard_normal((d, h)) / np.sqrt(d)).astype(np.float16)
    wd = (rng.standard_normal((h, d)) / np.sqrt(h)).astype(np.float16)
    shape = dims + [d]
    m = graph("gated_mlp", [
        helper.make_node("MatMul", ["x", "wg"], ["g"]),
        helper.make_node("MatMul", ["x", "wu"], ["u"]),
        helper.make_node("Sigmoid", ["g"], ["s"]),
        helper.make_node("Mul", ["g", "s"], ["a"]),
        helper.make_node("Mul", ["a", "u"], ["m"]),
        helper.make_node("MatMul", ["m", "wd"], ["y"]),
    ], [helper.make_tensor_value_info("x", F16, shape)],
        [helper.make_tensor_value_info("y", F16, shape)],
        [numpy_helper.from_array(wg, "wg"), numpy_helper.from_array(wu, "wu"),
         numpy_helper.from_array(wd, "wd")])

    def ref(x):
        # The gated activation is stored in f16 between the products.
        g = x @ wg.astype(np.float64)
        m = g / (1 + np.exp(-g)) * (x @ wu.astype(np.float64))
        return [m.astype(np.float16).astype(np.float64) @ wd.astype(np.float64)]
    return m, ref


def embed_heads(seed):
    """Token ids [batch, seq] -> an embedding lookup (Gather), layer norm,
    a split into heads and back ([batch, seq, 4, 8] transposed to [batch,
    seq, 8, 4] and flattened), and a Linear layer: data movement that
    carries the symbolic run through, its extents merged and split by
    reshapes."""
    rng = np.random.default_rng(seed)
    table = rng.standard_normal((64, 32)).astype(np.float32)
    w = (rng.standard_normal((32, 16)) / np.sqrt(32)).astype(np.float32)
    shape4 = numpy_helper.from_array(np.array([0, 0, 4, 8], np.int64), "s4")
    shape3 = numpy_helper.from_array(np.array([0, 0, 32], np.int64), "s3")
    m = graph("embed_heads", [
        helper.make_node("Gather", ["table", "x"], ["e"], axis=0),
        helper.make_node("LayerNormalization", ["e", "g", "b"], ["n"],
                         axis=-1),
        helper.make_node("Reshape", ["n", "s4"], ["h"]),
        helper.make_node("Transpose", ["h"], ["t"], perm=[0, 1, 3, 2]),
        helper.make_node("Reshape", ["t", "s3"], ["f"]),
        helper.make_node("MatMul", ["f", "w"], ["y"]),
    ], [helper.make_tensor_value_info("x", TensorProto.INT64,
                                      ["batch", "seq"])],
        [helper.make_tensor_value_info("y", F32, ["batch", "seq", 16])],
        [numpy_helper.from_array(table, "table"),
         numpy_helper.from_array(np.ones(32, np.float32), "g"),
         numpy_helper.from_array(np.zeros(32, np.float32), "b"),
         numpy_helper.from_array(w, "w"), shape4, shape3])

    def ref(x):
        e = table.astype(np.float64)[x.astype(np.int64)]
        n = (e - e.mean(-1, keepdims=True)) / np.sqrt(
            e.var(-1, keepdims=True) + 1e-5)
        t = n.reshape(x.shape + (4, 8)).swapaxes(-1, -2)
        return [t.reshape(x.shape + (32,)) @ w.astype(np.float64)]
    return m, ref


def seq_attention(seed, masked, heads=4, d=16, causal=False, elem=F16,
                  dv=None):
    """Self-attention (f16, or f32 with `elem`) over a symbolic batch and
    sequence: the query, key
    and value projections of x [batch, seq, heads * d], the heads split and
    transposed (keys to [batch, heads, d, seq]), scaled scores, with
    `masked` a padding mask from an int64 input [batch, seq] (BERT's
    (1 - mask) * -10000, unsqueezed to [batch, 1, 1, seq]), or with
    `causal` a decoder's mask built from the sequence's extent
    (where(arange(seq)[None, :] <= arange(seq)[:, None], 0, -inf)), the
    softmax, the product with the values, the heads merged back and an
    output projection: one attention kernel that reads the actual
    sequence. Value heads are `dv` wide (default d)."""
    rng = np.random.default_rng(seed)
    dv = dv or d
    e, ev = heads * d, heads * dv
    np_t = np.float16 if elem == F16 else np.float32

    def w(rows, cols):
        return (rng.standard_normal((rows, cols)) / np.sqrt(rows)).astype(np_t)
    ws = {"wq": w(e, e), "wk": w(e, e), "wv": w(e, ev), "wo": w(ev, e)}
    consts = [numpy_helper.from_array(v, k) for k, v in ws.items()] + [
        numpy_helper.from_array(np.array([0, 0, heads, d], np.int64), "split"),
        numpy_helper.from_array(np.array([0, 0, heads, dv], np.int64),
                                "split_v"),
        numpy_helper.from_array(np.array([0, 0, ev], np.int64), "merge"),
        numpy_helper.from_array(np.array(d ** -0.5, np_t), "scale"),
        numpy_helper.from_array(np.array(1, np_t), "one"),
        numpy_helper.from_array(np.array(-10000, np_t), "low"),
        numpy_helper.from_array(np.array([1, 2], np.int64), "axes"),
        numpy_helper.from_array(np.array(0, np.int64), "i0"),
        numpy_helper.from_array(np.array(1, np.int64), "i1"),
        numpy_helper.from_array(np.array([0], np.int64), "ax0"),
        numpy_helper.from_array(np.array([1], np.int64), "ax1"),
        numpy_helper.from_array(np.array(0, np_t), "keep"),
        numpy_helper.from_array(np.array(-np.inf, np_t), "drop")]
    nodes = [
        helper.make_node("MatMul", ["x", "wq"], ["q"]),
        helper.make_node("MatMul", ["x", "wk"], ["k"]),
        helper.make_node("MatMul", ["x", "wv"], ["v"]),
        helper.make_node("Reshape", ["q", "split"], ["qh"]),
        helper.make_node("Transpose", ["qh"], ["qt"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["k", "split"], ["kh"]),
        helper.make_node("Transpose", ["kh"], ["kt"], perm=[0, 2, 3, 1]),
        helper.make_node("Reshape", ["v", "split_v"], ["vh"]),
        helper.make_node("Transpose", ["vh"], ["vt"], perm=[0, 2, 1, 3]),
        helper.make_node("MatMul", ["qt", "kt"], ["s0"]),
        helper.make_node("Mul", ["s0", "scale"], ["s"])]
    inputs = [helper.make_tensor_value_info("x", elem, ["batch", "seq", e])]
    scores = "s"
    if masked:
        inputs.append(helper.make_tensor_value_info(
            "mask", TensorProto.INT64, ["batch", "seq"]))
        nodes += [
            helper.make_node("Cast", ["mask"], ["mf"], to=elem),
            helper.make_node("Sub", ["one", "mf"], ["inv"]),
            helper.make_node("Mul", ["inv", "low"], ["bias2"]),
            helper.make_node("Unsqueeze", ["bias2", "axes"], ["bias"]),
            helper.make_node("Add", ["s", "bias"], ["sm"])]
        scores = "sm"
    if causal:
        nodes += [
            helper.make_node("Shape", ["x"], ["seqv"], start=1, end=2),
            helper.make_node("Squeeze", ["seqv"], ["seqlen"]),
            helper.make_node("Range", ["i0", "seqlen", "i1"], ["pos"]),
            helper.make_node("Unsqueeze", ["pos", "ax1"], ["qi"]),
            helper.make_node("Unsqueeze", ["pos", "ax0"], ["kj"]),
            helper.make_node("LessOrEqual", ["kj", "qi"], ["upto"]),
            helper.make_node("Where", ["upto", "keep", "drop"], ["cbias"]),
            helper.make_node("Add", [scores, "cbias"], ["sc"])]
        scores = "sc"
    nodes += [
        helper.make_node("Softmax", [scores], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "vt"], ["o"]),
        helper.make_node("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["ot", "merge"], ["om"]),
        helper.make_node("MatMul", ["om", "wo"], ["y"])]
    m = graph("seq_attention", nodes, inputs,
              [helper.make_tensor_value_info("y", elem, ["batch", "seq", e])],
              consts)

    def ref(x, mask=None):
        t = {k: v.astype(np.float64) for k, v in ws.items()}
        x = x.astype(np.float64)
        b, n, _ = x.shape
        # The projections are stored in the model's type between kernels.
        rnd = lambda a: a.astype(np_t).astype(np.float64)  # noqa: E731

        def heads_of(a, width):
            return rnd(a).reshape(b, n, heads, width).transpose(0, 2, 1, 3)
        q, k = (heads_of(x @ t[w], d) for w in ("wq", "wk"))
        v = heads_of(x @ t["wv"], dv)
        s = q @ k.transpose(0, 1, 3, 2) * d ** -0.5
        if mask is not None:
            s = s + ((1 - mask) * -10000.0)[:, None, None, :]
        if causal:
            s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
        p = np.exp(s - s.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        o = rnd((p @ v).transpose(0, 2, 1, 3).reshape(b, n, ev))
        return [o @ t["wo"]]
    return m, ref


def broadcast_parts(elem, width):
    """Operands that broadcast along part of the symbolic extents: y =
    softmax((x + p) * m) with x [batch, seq, width], a position embedding
    p [1, seq, width] and a per-sample scale m [batch, 1, width]."""
    m = graph("broadcast_parts", [
        helper.make_node("Add", ["x", "p"], ["a"]),
        helper.make_node("Mul", ["a", "m"], ["b"]),
        helper.make_node("Softmax", ["b"], ["y"], axis=-1),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", width]),
        helper.make_tensor_value_info("p", elem, [1, "seq", width]),
        helper.make_tensor_value_info("m", elem, ["batch", 1, width])],
        [helper.make_tensor_value_info("y", elem, ["batch", "seq", width])])

    def ref(x, p, s):
        b = (x + p) * s
        if elem == F16:  # the product is stored in f16 for the softmax
            b = b.astype(np.float16).astype(np.float64)
        e = np.exp(b - b.max(-1, keepdims=True))
        return [e / e.sum(-1, keepdims=True)]
    return m, ref


def expand_mask(elem):
    """An Expand along part of the symbolic extents, as exporters write a
    padding mask: y = (1 - expand(m, shape(x))) * x with m [1, 1, 1, seq]
    and x [batch, 1, 1, seq]."""
    m = graph("expand_mask", [
        helper.make_node("Shape", ["x"], ["sh"]),
        helper.make_node("Expand", ["m", "sh"], ["e"]),
        helper.make_node("Sub", ["one", "e"], ["d"]),
        helper.make_node("Mul", ["d", "x"], ["y"]),
    ], [helper.make_tensor_value_info("x", elem, ["batch", 1, 1, "seq"]),
        helper.make_tensor_value_info("m", elem, [1, 1, 1, "seq"])],
        [helper.make_tensor_value_info("y", elem, ["batch", 1, 1, "seq"])],
        [numpy_helper.from_array(np.array(
            1, np.float16 if elem == F16 else np.float32), "one")])

    def ref(x, mask):
        return [(1 - mask) * x]
    return m, ref


def pick_tokens(elem, seed, width=64):
    """Lookups along a symbolic sequence: the first token (BERT's [CLS],
    then its pooler: tanh(c W + b)), the last (x[:, -1]), the first and
    last together by a vector of indices, two features of every token (a
    lookup along the fixed last axis of a table symbolic before it), and
    the slices x[:, 1:] and x[:, :-1] (empty at one token)."""
    np_t = np.float16 if elem == F16 else np.float32
    rng = np.random.default_rng(seed)
    w = (rng.standard_normal((width, width)) / np.sqrt(width)).astype(np_t)
    bias = rng.standard_normal(width).astype(np_t)
    inits = [numpy_helper.from_array(w, "w"),
             numpy_helper.from_array(bias, "bias"),
             numpy_helper.from_array(np.array(0, np.int64), "first"),
             numpy_helper.from_array(np.array(-1, np.int64), "last"),
             numpy_helper.from_array(np.array([0, -1], np.int64), "ends"),
             numpy_helper.from_array(np.array([3, -5], np.int64), "feats"),
             numpy_helper.from_array(np.array([0], np.int64), "zero"),
             numpy_helper.from_array(np.array([1], np.int64), "one"),
             numpy_helper.from_array(np.array([-1], np.int64), "minus"),
             numpy_helper.from_array(np.array([2**62], np.int64), "end")]
    m = graph("pick_tokens", [
        helper.make_node("Gather", ["x", "first"], ["c"], axis=1),
        helper.make_node("MatMul", ["c", "w"], ["cw"]),
        helper.make_node("Add", ["cw", "bias"], ["cb"]),
        helper.make_node("Tanh", ["cb"], ["pooled"]),
        helper.make_node("Gather", ["x", "last"], ["l"], axis=1),
        helper.make_node("Gather", ["x", "ends"], ["t"], axis=1),
        helper.make_node("Gather", ["x", "feats"], ["u"], axis=2),
        helper.make_node("Slice", ["x", "one", "end", "one"], ["rest"]),
        helper.make_node("Slice", ["x", "zero", "minus", "one"], ["drop"]),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", width])],
        [helper.make_tensor_value_info("pooled", elem, ["batch", width]),
         helper.make_tensor_value_info("l", elem, ["batch", width]),
         helper.make_tensor_value_info("t", elem, ["batch", 2, width]),
         helper.make_tensor_value_info("u", elem, ["batch", "seq", 2]),
         helper.make_tensor_value_info("rest", elem, ["batch", None, width]),
         helper.make_tensor_value_info("drop", elem, ["batch", None, width])],
        inits)

    def ref(x):
        c = x[:, 0]
        pooled = np.tanh(c @ w.astype(np.float64) + bias.astype(np.float64))
        return [pooled, x[:, -1], x[:, [0, -1]], x[:, :, [3, width - 5]],
                x[:, 1:], x[:, :-1]]
    return m, ref


def image_net(elem, seed):
    """A ResNet-like net over a symbolic batch: a 7x7 stride-2 stem (3
    channels), max pool, a 3x3 block with a residual add, a depthwise 3x3
    convolution, a strided 1x1 projection, a global mean and a linear head;
    its second output is the block's feature map (NCHW, read back from
    channels-last in f16)."""
    rng = np.random.default_rng(seed)
    np_t = np.float16 if elem == F16 else np.float32

    def w(*shape):
        fan = int(np.prod(shape[1:]))
        return (rng.standard_normal(shape) / np.sqrt(fan)).astype(np_t)
    ws = {"w0": w(64, 3, 7, 7), "b0": w(64, 1)[:, 0] * 8,
          "w1": w(64, 64, 3, 3), "b1": w(64, 1)[:, 0] * 8,
          "wd": w(64, 1, 3, 3), "w2": w(128, 64, 1, 1), "wh": w(10, 128).T.copy(),
          "bh": w(10, 1)[:, 0]}
    m = graph("image_net", [
        helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], kernel_shape=[7, 7],
                         strides=[2, 2], pads=[3, 3, 3, 3]),
        helper.make_node("Relu", ["c0"], ["r0"]),
        helper.make_node("MaxPool", ["r0"], ["p0"], kernel_shape=[3, 3],
                         strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["p0", "w1", "b1"], ["c1"],
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Add", ["c1", "p0"], ["a1"]),
        helper.make_node("Relu", ["a1"], ["f"]),
        helper.make_node("Conv", ["f", "wd"], ["cd"], kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], group=64),
        helper.make_node("Relu", ["cd"], ["d"]),
        helper.make_node("Conv", ["d", "w2"], ["c2"], kernel_shape=[1, 1],
                         strides=[2, 2]),
        helper.make_node("ReduceMean", ["c2"], ["g"], axes=[2, 3],
                         keepdims=0),
        helper.make_node("MatMul", ["g", "wh"], ["h"]),
        helper.make_node("Add", ["h", "bh"], ["y"]),
    ], [helper.make_tensor_value_info("x", elem, ["n", 3, 32, 32])],
        [helper.make_tensor_value_info("y", elem, ["n", 10]),
         helper.make_tensor_value_info("f", elem, ["n", 64, 8, 8])],
        [numpy_helper.from_array(v, k) for k, v in ws.items()])

    def ref(x):
        F = torch.nn.functional
        t = {k: torch.from_numpy(v.astype(np.float64)) for k, v in ws.items()}
        xt = torch.from_numpy(x)
        # The 16-bit kernels store activations in 16 bits between them.
        rnd = (lambda v: v.to(torch.float16).to(torch.float64)) \
            if elem == F16 else (lambda v: v)
        r0 = rnd(F.relu(F.conv2d(xt, t["w0"], t["b0"], 2, 3)))
        p0 = F.max_pool2d(r0, 3, 2, 1)
        f = rnd(F.relu(F.conv2d(p0, t["w1"], t["b1"], 1, 1) + p0))
        d = rnd(F.relu(F.conv2d(f, t["wd"], None, 1, 1, groups=64)))
        g = rnd(F.conv2d(d, t["w2"], None, 2).mean((2, 3)))
        return [(g @ t["wh"] + t["bh"]).numpy(), f.numpy()]
    return m, ref


def padded_groups_net(seed):
    """RegNet-like grouped convolutions over a symbolic batch, f16: 2
    groups of 120 channels (3x3, bias, ReLU; tiles of 128 that the groups'
    columns start) and 5 groups of 48 outputs (1x1, tiles of 64), which the
    Hopper body pads to whole slices and tiles."""
    rng = np.random.default_rng(seed)

    def w(*shape):
        fan = int(np.prod(shape[1:]))
        return (rng.standard_normal(shape) / np.sqrt(fan)).astype(np.float16)
    ws = {"w0": w(240, 120, 3, 3), "b0": w(240, 1)[:, 0] * 8, "w1": w(240, 48, 1, 1)}
    m = graph("padded_groups_net", [
        helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], group=2),
        helper.make_node("Relu", ["c0"], ["r0"]),
        helper.make_node("Conv", ["r0", "w1"], ["y"], kernel_shape=[1, 1], group=5),
    ], [helper.make_tensor_value_info("x", F16, ["n", 240, 10, 12])],
        [helper.make_tensor_value_info("y", F16, ["n", 240, 10, 12])],
        [numpy_helper.from_array(v, k) for k, v in ws.items()])

    def ref(x):
        F = torch.nn.functional
        t = {k: torch.from_numpy(v.astype(np.float64)) for k, v in ws.items()}
        r0 = F.relu(F.conv2d(torch.from_numpy(x), t["w0"], t["b0"], 1, 1, groups=2))
        r0 = r0.to(torch.float16).to(torch.float64)  # stored in 16 bits
        return [F.conv2d(r0, t["w1"], None, groups=5).numpy()]
    return m, ref


# Ragged sequences (1, 17, 77, 511), the largest shape and two between.
SEQ_SHAPES = [(1, 1), (1, 17), (3, 77), (2, 511), (4, 512), (2, 128),
              (5, 64)]
# Ragged batches of images, the largest included.
IMAGE_BATCHES = [(1,), (2,), (17,), (77,), (128,), (5,)]


# Models compiled with extra brrrc flags.
MODEL_FLAGS = {"mlp768_mma_f16": ["--few-rows-mma"]}


def models():
    """name -> (model, reference, symbolic dims {input: shape text},
    shapes to run [(per-input shapes)], dtype; MODEL_FLAGS: extra brrrc
    flags)."""
    out = {}
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = bias_add(elem, ["batch", "seq"], 64)
        out["bias_add_" + tag] = (
            m, ref, {"x": "1..8x1..512x64"},
            [(1, 1), (1, 17), (3, 77), (8, 511), (8, 512), (2, 128)], tag)
        m, ref = silu_row(elem, ["n"], 3)
        out["silu_row3_" + tag] = (
            m, ref, {"x": "1..100000x3"},
            [(1,), (17,), (77,), (511,), (99999,), (100000,)], tag)
    # Rows a block (768), packed rows (96 f16: 12 vectors, 8 rows a block)
    # and a ragged row (77).
    for elem, tag, width in ((F32, "f32", 768), (F16, "f16", 96),
                             (F32, "f32", 77), (F16, "f16", 768)):
        m, ref = norm_rows(elem, ["batch", "seq"], width)
        out["norm_rows%d_%s" % (width, tag)] = (
            m, ref, {"x": "1..8x1..512x%d" % width},
            [(1, 1), (1, 17), (3, 77), (8, 511), (8, 512), (2, 128)], tag)
    m, ref = mlp(["batch", "seq"], 64, 256, 1)
    # 1 to 4 rows: the few-rows kernels of 1, 2, and 3 and 4 rows.
    out["mlp64_f16"] = (m, ref, {"x": "1..8x1..512x64"},
                        [(1, 1), (1, 17), (3, 77), (8, 511), (8, 512),
                         (2, 128), (1, 2), (1, 3), (2, 2)], "f16")
    m, ref = mlp(["batch", "seq"], 768, 3072, 2)
    # Past 1024 rows the first product runs overlapped, past 4096 the
    # second (a residual) cooperative persistent: ragged row counts in
    # those ranges (1651, 4599, 16500) end inside a tile.
    out["mlp768_f16"] = (m, ref, {"x": "1..64x1..512x768"},
                         [(1, 1), (1, 16), (3, 77), (8, 384), (32, 128),
                          (64, 512), (2, 1), (3, 1), (1, 4), (5, 1),
                          (13, 127), (9, 511), (33, 500)], "f16")
    # The erf GELU after the first product: past 1024 rows (more 192-wide
    # tiles than multiprocessors) both products run overlapped with a drain
    # warpgroup (512 threads), the second with the residual; ragged rows in
    # those ranges end inside a tile.
    m, ref = mlp(["batch", "seq"], 768, 3072, 4, gelu=True)
    out["mlp768_gelu_f16"] = (m, ref, {"x": "1..64x1..512x768"},
                              [(1, 1), (3, 77), (8, 384), (9, 511),
                               (33, 500), (64, 512)], "f16")
    # With --few-rows-mma (MODEL_FLAGS): the ranges of 5 to 64 rows on the
    # few-rows body on Tensor Cores, each range at its smallest, ragged and
    # largest rows.
    out["mlp768_mma_f16"] = (m, ref, {"x": "1..64x1..512x768"},
                             [(5, 1), (1, 7), (8, 1), (1, 9), (1, 13),
                              (2, 8), (1, 17), (3, 8), (1, 33), (7, 7),
                              (1, 64), (1, 65), (3, 77), (1, 1)], "f16")
    # Gated pairs over symbolic rows: each range's body (few-rows of 1, 2
    # and 3-4 rows, few-rows on Tensor Cores of 5 to 32, wgmma tiles past
    # them) at its smallest, ragged and largest rows.
    m, ref = gated_mlp(["batch", "seq"], 256, 520, 3)
    out["gated_mlp_f16"] = (m, ref, {"x": "1..64x1..512x256"},
                            [(1, 1), (1, 2), (1, 3), (2, 2), (5, 1), (1, 7),
                             (3, 8), (1, 17), (1, 32), (1, 33), (3, 77),
                             (8, 384), (7, 511), (1, 512)], "f16")
    # Large enough at its largest shape that the kernel takes four vectors a
    # thread; checked where the grid has a partial block.
    m, ref = bias_add(F16, ["batch", "seq"], 768)
    out["bias_add_768_f16"] = (
        m, ref, {"x": "1..64x1..512x768"},
        [(1, 1), (1, 17), (3, 77), (64, 512), (7, 511), (32, 128)], "f16")
    m, ref = embed_heads(4)
    out["embed_heads_f32"] = (m, ref, {"x": "1..8x1..512"},
                              [(1, 1), (1, 17), (3, 77), (8, 511), (8, 512),
                               (2, 128)], "f32")
    for elem, tag, width in ((F32, "f32", 64), (F16, "f16", 768),
                             (F32, "f32", 5)):
        m, ref = broadcast_parts(elem, width)
        out["broadcast_parts%d_%s" % (width, tag)] = (
            m, ref, {"x": "1..8x1..512x%d" % width,
                     "p": "1x1..512x%d" % width,
                     "m": "1..8x1x%d" % width},
            [(1, 1), (1, 17), (3, 77), (8, 511), (8, 512), (2, 128)], tag)
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = expand_mask(elem)
        out["expand_mask_" + tag] = (
            m, ref, {"x": "1..8x1x1x1..512", "m": "1x1x1x1..512"},
            [(1, 1, 1, 1), (1, 1, 1, 17), (3, 1, 1, 77), (8, 1, 1, 511),
             (8, 1, 1, 512), (2, 1, 1, 128)], tag)
    # Attention over a symbolic sequence: ragged sequences (1, 17, 77,
    # 511), a padding mask, and the largest shape.
    m, ref = seq_attention(5, masked=False)
    out["seq_attention_f16"] = (m, ref, {"x": "1..8x1..512x64"},
                                SEQ_SHAPES, "f16")
    m, ref = seq_attention(6, masked=True)
    out["seq_attention_mask_f16"] = (
        m, ref, {"x": "1..8x1..512x64", "mask": "1..8x1..512"},
        SEQ_SHAPES, "f16")
    m, ref = seq_attention(7, masked=True, heads=2, d=64)
    out["seq_attention_d64_f16"] = (
        m, ref, {"x": "1..8x1..512x128", "mask": "1..8x1..512"},
        SEQ_SHAPES, "f16")
    m, ref = seq_attention(8, masked=False, causal=True)
    out["seq_attention_causal_f16"] = (m, ref, {"x": "1..8x1..512x64"},
                                       SEQ_SHAPES, "f16")
    m, ref = seq_attention(9, masked=False, heads=2, d=64, causal=True)
    out["seq_attention_causal_d64_f16"] = (
        m, ref, {"x": "1..8x1..512x128"}, SEQ_SHAPES, "f16")
    # Heads of 256 (key blocks of 32 on the Hopper body): masked, and
    # causal over two heads.
    m, ref = seq_attention(15, masked=True, heads=1, d=256)
    out["seq_attention_d256_f16"] = (
        m, ref, {"x": "1..8x1..512x256", "mask": "1..8x1..512"},
        SEQ_SHAPES, "f16")
    m, ref = seq_attention(16, masked=False, heads=2, d=256, causal=True)
    out["seq_attention_causal_d256_f16"] = (
        m, ref, {"x": "1..8x1..512x512"}, SEQ_SHAPES, "f16")
    # An f32 model's attention over a symbolic sequence: three tf32
    # products a step, heads of 16 (masked, key blocks of 32), 64 (causal)
    # and 128 (masked, key blocks of 16).
    m, ref = seq_attention(11, masked=True, elem=F32)
    out["seq_attention_mask_f32"] = (
        m, ref, {"x": "1..8x1..512x64", "mask": "1..8x1..512"},
        SEQ_SHAPES, "f32")
    m, ref = seq_attention(12, masked=False, heads=2, d=64, causal=True,
                           elem=F32)
    out["seq_attention_causal_d64_f32"] = (
        m, ref, {"x": "1..8x1..512x128"}, SEQ_SHAPES, "f32")
    m, ref = seq_attention(13, masked=True, heads=1, d=128, elem=F32)
    out["seq_attention_d128_f32"] = (
        m, ref, {"x": "1..8x1..512x128", "mask": "1..8x1..512"},
        SEQ_SHAPES, "f32")
    # Query and key heads of 16, value heads of 24: the key block holds
    # whole copy rounds of both widths (64 keys).
    m, ref = seq_attention(14, masked=True, heads=4, d=16, dv=24, elem=F32)
    out["seq_attention_mixed_heads_f32"] = (
        m, ref, {"x": "1..8x1..512x64", "mask": "1..8x1..512"},
        SEQ_SHAPES, "f32")
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = pick_tokens(elem, 10)
        out["pick_tokens_" + tag] = (m, ref, {"x": "1..8x1..512x64"},
                                     SEQ_SHAPES, tag)
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = image_net(elem, 3)
        out["image_net_" + tag] = (m, ref, {"x": "1..128x3x32x32"},
                                   IMAGE_BATCHES, tag)
    m, ref = padded_groups_net(4)
    out["padded_groups_net_f16"] = (m, ref, {"x": "1..64x240x10x12"},
                                    [(1,), (3,), (17,), (64,), (33,)], "f16")
    return out
