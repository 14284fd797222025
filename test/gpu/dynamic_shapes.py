"""Models compiled for a range of shapes, checked and timed on the GPU.

Runs on the GPU machine with the relocatable bundle's brrrc and Python
package. Builds small ONNX models of the kernel families that compile over
symbolic extents (so far: pointwise and row kernels, layer norm and
softmax with their prologues and epilogues, products whose rows are
symbolic, lookups along a symbolic sequence, and over a symbolic batch of
images: convolutions, data movement, pooling and reductions), compiles each once with ranges
(`--input-shape x=1..8x1..512x64`), and at each of several shapes, ragged
ones included:
- runs it on fresh random inputs from numpy (brrr_run_host) and from torch
  CUDA tensors into NaN-poisoned outputs, and compares both with float64
  numpy;
- checks that a shape outside the range raises BRRR_ERROR_INVALID_SHAPE and
  the model runs on;
- with --time, times the dynamic library against a static compile of the
  same shape: the kernels alone (brrr_profile's CUDA events, median of 30
  profiles) and whole calls from Python (CUDA events around each call,
  median of 200 after warm-up), with torch eager's call beside them; with
  --cpp-run, the host cost of one brrr_run replaying a cached shape's graph
  (cpp_run --host-overhead: shapes alternating, or one shape) against a
  static model's;
- with --sanitize TOOLS, runs each compiled model at every one of its
  shapes once more under NVIDIA's compute-sanitizer (memcheck, racecheck,
  synccheck, initcheck): one child process (--sanitize-child NAME) per
  model and tool, which loads the library and runs each shape on fresh
  numpy inputs through brrr_run_host, checking the results as well.

    python3 test/gpu/dynamic_shapes.py BRRRC WORKDIR [--time] [--only NAMES]
        [--sanitize memcheck,racecheck,...] [--jobs J]
    python3 test/gpu/dynamic_shapes.py BRRRC WORKDIR --sanitize-child NAME

Prints one line per model and shape, and exits 1 on any mismatch.
"""

import argparse
import os
import statistics
import subprocess
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

import brrr

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


def mlp(dims, d, h, seed):
    """y = relu(x W1 + b1) W2 + x, f16: two products (TMA + wgmma) over
    symbolic rows, with bias, activation and residual epilogues."""
    rng = np.random.default_rng(seed)
    w1 = (rng.standard_normal((d, h)) / np.sqrt(d)).astype(np.float16)
    b1 = rng.standard_normal(h).astype(np.float16)
    w2 = (rng.standard_normal((h, d)) / np.sqrt(h)).astype(np.float16)
    shape = dims + [d]
    m = graph("mlp", [
        helper.make_node("MatMul", ["x", "w1"], ["m1"]),
        helper.make_node("Add", ["m1", "b1"], ["a1"]),
        helper.make_node("Relu", ["a1"], ["r1"]),
        helper.make_node("MatMul", ["r1", "w2"], ["m2"]),
        helper.make_node("Add", ["m2", "x"], ["y"]),
    ], [helper.make_tensor_value_info("x", F16, shape)],
        [helper.make_tensor_value_info("y", F16, shape)],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
         numpy_helper.from_array(w2, "w2")])

    def ref(x):
        # The hidden activation is stored in f16 between the products.
        r1 = np.maximum(x @ w1.astype(np.float64) + b1.astype(np.float64), 0)
        r1 = r1.astype(np.float16).astype(np.float64)
        return [r1 @ w2.astype(np.float64) + x]
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


def seq_attention(seed, masked, heads=4, d=16, causal=False):
    """f16 self-attention over a symbolic batch and sequence: the query, key
    and value projections of x [batch, seq, heads * d], the heads split and
    transposed (keys to [batch, heads, d, seq]), scaled scores, with
    `masked` a padding mask from an int64 input [batch, seq] (BERT's
    (1 - mask) * -10000, unsqueezed to [batch, 1, 1, seq]), or with
    `causal` a decoder's mask built from the sequence's extent
    (where(arange(seq)[None, :] <= arange(seq)[:, None], 0, -inf)), the
    softmax, the product with the values, the heads merged back and an
    output projection: one attention kernel that reads the actual
    sequence."""
    rng = np.random.default_rng(seed)
    e = heads * d

    def w():
        return (rng.standard_normal((e, e)) / np.sqrt(e)).astype(np.float16)
    ws = {"wq": w(), "wk": w(), "wv": w(), "wo": w()}
    consts = [numpy_helper.from_array(v, k) for k, v in ws.items()] + [
        numpy_helper.from_array(np.array([0, 0, heads, d], np.int64), "split"),
        numpy_helper.from_array(np.array([0, 0, e], np.int64), "merge"),
        numpy_helper.from_array(np.array(d ** -0.5, np.float16), "scale"),
        numpy_helper.from_array(np.array(1, np.float16), "one"),
        numpy_helper.from_array(np.array(-10000, np.float16), "low"),
        numpy_helper.from_array(np.array([1, 2], np.int64), "axes"),
        numpy_helper.from_array(np.array(0, np.int64), "i0"),
        numpy_helper.from_array(np.array(1, np.int64), "i1"),
        numpy_helper.from_array(np.array([0], np.int64), "ax0"),
        numpy_helper.from_array(np.array([1], np.int64), "ax1"),
        numpy_helper.from_array(np.array(0, np.float16), "keep"),
        numpy_helper.from_array(np.array(-np.inf, np.float16), "drop")]
    nodes = [
        helper.make_node("MatMul", ["x", "wq"], ["q"]),
        helper.make_node("MatMul", ["x", "wk"], ["k"]),
        helper.make_node("MatMul", ["x", "wv"], ["v"]),
        helper.make_node("Reshape", ["q", "split"], ["qh"]),
        helper.make_node("Transpose", ["qh"], ["qt"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["k", "split"], ["kh"]),
        helper.make_node("Transpose", ["kh"], ["kt"], perm=[0, 2, 3, 1]),
        helper.make_node("Reshape", ["v", "split"], ["vh"]),
        helper.make_node("Transpose", ["vh"], ["vt"], perm=[0, 2, 1, 3]),
        helper.make_node("MatMul", ["qt", "kt"], ["s0"]),
        helper.make_node("Mul", ["s0", "scale"], ["s"])]
    inputs = [helper.make_tensor_value_info("x", F16, ["batch", "seq", e])]
    scores = "s"
    if masked:
        inputs.append(helper.make_tensor_value_info(
            "mask", TensorProto.INT64, ["batch", "seq"]))
        nodes += [
            helper.make_node("Cast", ["mask"], ["mf"], to=F16),
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
              [helper.make_tensor_value_info("y", F16, ["batch", "seq", e])],
              consts)

    def ref(x, mask=None):
        t = {k: v.astype(np.float64) for k, v in ws.items()}
        x = x.astype(np.float64)
        b, n, _ = x.shape
        # The projections are stored in f16 between kernels.
        rnd = lambda a: a.astype(np.float16).astype(np.float64)  # noqa: E731

        def heads_of(a):
            return rnd(a).reshape(b, n, heads, d).transpose(0, 2, 1, 3)
        q, k, v = (heads_of(x @ t[w]) for w in ("wq", "wk", "wv"))
        s = q @ k.transpose(0, 1, 3, 2) * d ** -0.5
        if mask is not None:
            s = s + ((1 - mask) * -10000.0)[:, None, None, :]
        if causal:
            s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
        p = np.exp(s - s.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        o = rnd((p @ v).transpose(0, 2, 1, 3).reshape(b, n, e))
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


def models():
    """name -> (model, reference, symbolic dims {input: shape text},
    shapes to run [(per-input shapes)], dtype)."""
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
    out["mlp64_f16"] = (m, ref, {"x": "1..8x1..512x64"},
                        [(1, 1), (1, 17), (3, 77), (8, 511), (8, 512),
                         (2, 128)], "f16")
    m, ref = mlp(["batch", "seq"], 768, 3072, 2)
    out["mlp768_f16"] = (m, ref, {"x": "1..64x1..512x768"},
                         [(1, 1), (1, 16), (3, 77), (8, 384), (32, 128),
                          (64, 512)], "f16")
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
    seq_shapes = [(1, 1), (1, 17), (3, 77), (2, 511), (4, 512), (2, 128),
                  (5, 64)]
    m, ref = seq_attention(5, masked=False)
    out["seq_attention_f16"] = (m, ref, {"x": "1..8x1..512x64"},
                                seq_shapes, "f16")
    m, ref = seq_attention(6, masked=True)
    out["seq_attention_mask_f16"] = (
        m, ref, {"x": "1..8x1..512x64", "mask": "1..8x1..512"},
        seq_shapes, "f16")
    m, ref = seq_attention(7, masked=True, heads=2, d=64)
    out["seq_attention_d64_f16"] = (
        m, ref, {"x": "1..8x1..512x128", "mask": "1..8x1..512"},
        seq_shapes, "f16")
    m, ref = seq_attention(8, masked=False, causal=True)
    out["seq_attention_causal_f16"] = (m, ref, {"x": "1..8x1..512x64"},
                                       seq_shapes, "f16")
    m, ref = seq_attention(9, masked=False, heads=2, d=64, causal=True)
    out["seq_attention_causal_d64_f16"] = (
        m, ref, {"x": "1..8x1..512x128"}, seq_shapes, "f16")
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = pick_tokens(elem, 10)
        out["pick_tokens_" + tag] = (m, ref, {"x": "1..8x1..512x64"},
                                     seq_shapes, tag)
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = image_net(elem, 3)
        out["image_net_" + tag] = (m, ref, {"x": "1..128x3x32x32"},
                                   [(1,), (2,), (17,), (77,), (128,), (5,)],
                                   tag)
    return out


def inputs_for(model, dims, dtype, rng):
    arrays = []
    for inp in model.graph.input:
        fixed = [d.dim_value for d in inp.type.tensor_type.shape.dim]
        # A leading dimension the model fixes (a broadcast operand's 1)
        # keeps its extent.
        shape = [f if f else d for f, d in zip(fixed, dims)] + \
            fixed[len(dims):]
        if inp.name == "mask":
            # A padding mask: each row keeps its first position.
            a = rng.integers(0, 2, shape).astype(np.int64)
            a[..., 0] = 1
        elif inp.type.tensor_type.elem_type == TensorProto.INT64:
            a = rng.integers(0, 64, shape).astype(np.int64)
        else:
            a = rng.standard_normal(shape).astype(
                np.float16 if dtype == "f16" else np.float32)
        arrays.append(a)
    return arrays


def tolerance(dtype):
    return (2e-2, 2e-2) if dtype == "f16" else (2e-5, 2e-5)


def compare(got, want, dtype):
    rtol, atol = tolerance(dtype)
    got = np.asarray(got, np.float64)
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol)
    if bad.any():
        i = np.unravel_index(np.argmax(bad), bad.shape)
        return "%d mismatches, first at %s: %r vs %r" % (
            bad.sum(), i, got[i], want[i])
    return None


def compile_model(brrrc, path, so, shapes):
    cmd = [brrrc, path, "-o", so]
    for name, text in shapes.items():
        cmd += ["--input-shape", "%s=%s" % (name, text)]
    subprocess.run(cmd, check=True)


def check(name, spec, brrrc, work):
    model, ref, ranges, shapes, dtype = spec
    path = os.path.join(work, name + ".onnx")
    onnx.save(model, path)
    so = os.path.join(work, name + ".so")
    compile_model(brrrc, path, so, ranges)
    m = brrr.load(so)
    ok = True
    rng = np.random.default_rng(len(name))
    for dims in shapes:
        ins = inputs_for(model, dims, dtype, rng)
        want = ref(*[a.astype(np.float64) for a in ins])
        # numpy through brrr_run_host
        errs = [compare(g, w, dtype) for g, w in zip(
            m(*ins) if len(want) > 1 else [m(*ins)], want)]
        # torch CUDA tensors into NaN-poisoned outputs of the actual shape
        tins = [torch.from_numpy(a).cuda() for a in ins]
        out_dtype = torch.float16 if dtype == "f16" else torch.float32
        touts = [torch.full(w.shape, float("nan"),
                            dtype=out_dtype, device="cuda") for w in want]
        m._default_context().run(*tins, outputs=touts)
        torch.cuda.synchronize()
        errs += [compare(t.cpu().numpy(), w, dtype)
                 for t, w in zip(touts, want)]
        bad = [e for e in errs if e]
        ok &= not bad
        print("%-18s %-14s %s" % (name, "x".join(map(str, dims)),
                                  "ok" if not bad else "MISMATCH " + bad[0]),
              flush=True)
    # Token ids out of the table's range, at a shape below the largest: the
    # run reports the lookup's node (its error record, read back through
    # the same launch's parameters as the element count), and the model
    # runs on.
    if model.graph.input[0].type.tensor_type.elem_type == TensorProto.INT64:
        ids = inputs_for(model, (3, 77), dtype, rng)[0]
        ids[2, 40] = 5000
        try:
            m(ids)
            print("%-18s id 5000: NOT REPORTED" % name)
            ok = False
        except brrr.BrrrError as e:
            print("%-18s id 5000: %s: %s" % (name, e.status_name,
                                             e.message[:110]))
            ok &= "Gather" in e.message
    # Outside the range: refused, and the model runs on.
    top = [int(t.split("..")[-1]) for t in
           ranges["x"].split("x")[:len(shapes[0])]]
    big = inputs_for(model, [top[0] + 1] + top[1:], dtype, rng)
    try:
        m(*big)
        print("%-18s out of range: NOT REFUSED" % name)
        ok = False
    except brrr.BrrrError as e:
        print("%-18s out of range: %s: %s" % (name, e.status_name,
                                              e.message[:110]))
        ok &= e.status_name == "BRRR_ERROR_INVALID_SHAPE"
    ins = inputs_for(model, shapes[0], dtype, rng)
    want = ref(*[a.astype(np.float64) for a in ins])
    again = m(*ins) if len(want) > 1 else [m(*ins)]
    ok &= all(compare(g, w, dtype) is None for g, w in zip(again, want))
    return ok


def sanitize_child(name, spec, work):
    """Runs the compiled `name` at each of its shapes (numpy inputs through
    brrr_run_host), under the sanitizer the parent started; exits 1 on a
    mismatch."""
    model, ref, _, shapes, dtype = spec
    m = brrr.load(os.path.join(work, name + ".so"))
    rng = np.random.default_rng(len(name) + 1)
    bad = 0
    for dims in shapes:
        ins = inputs_for(model, dims, dtype, rng)
        want = ref(*[a.astype(np.float64) for a in ins])
        got = m(*ins) if len(want) > 1 else [m(*ins)]
        errs = [e for e in (compare(g, w, dtype) for g, w in zip(got, want))
                if e]
        if errs:
            print("%s %s: MISMATCH %s" % (name, "x".join(map(str, dims)),
                                          errs[0]), flush=True)
            bad += 1
    sys.exit(1 if bad else 0)


def sanitize(names, tools, brrrc, work, jobs):
    """compute-sanitizer over each model's run at all its shapes, one child
    per model and tool (in parallel); True when every run is clean and
    matches."""
    import concurrent.futures

    from sanitize import run_under

    def one(name, tool):
        errors, excerpt = run_under(tool, [
            sys.executable, os.path.abspath(__file__), brrrc, work,
            "--sanitize-child", name])
        return name, tool, errors, excerpt

    ok = True
    clean = {t: 0 for t in tools}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        runs = [pool.submit(one, n, t) for n in names for t in tools]
        for r in runs:
            name, tool, errors, excerpt = r.result()
            if errors == 0:
                clean[tool] += 1
                continue
            ok = False
            print("SANITIZE %-28s %-9s %s\n    %s" % (
                name, tool, "run failed" if errors < 0 else
                "%d errors" % errors, excerpt), flush=True)
    for t in tools:
        print("sanitize %-9s %d of %d models clean at every shape" % (
            t, clean[t], len(names)), flush=True)
    return ok


def check_exports(brrrc, work, exports):
    """The torch exports in `exports` (NAME_{dynamo,ts}.onnx with NAME.npz:
    inputs in{k}_0 and torch's outputs y{k} at several shapes) over the
    dimensions the compiler takes symbolically so far, compiled once for
    each range at fp32 and at fp16 (--precision=fp16: BERT's attention
    fuses), against torch's outputs at every shape the range holds, and
    against onnxruntime (CPU) at further batches, fresh token ids
    (relative L2 error: 1e-3 fp32, 2e-2 fp16):
    - the CNN over a batch of 1..128;
    - BERT and GPT-2 over a batch of 1..64, once for each sequence
      length, and at fp16 over a batch of 1..64 and a sequence of
      1..512 at once (GPT-2's causal mask over the symbolic sequence)."""
    import onnxruntime as ort

    ok = True
    cases = [("cnn", ["x=1..128x3x64x64"], ())]
    for text in ("bert", "gpt2"):
        data = np.load(os.path.join(exports, text + ".npz"))
        seqs = sorted({data["in%d_0" % k].shape[1]
                       for k in range(len(data) // 2)})
        cases.append((text, ["x=1..64x%d" % s for s in seqs], (1, 5, 64)))
    rng = np.random.default_rng(7)
    for model, ranges, batches in cases:
        data = np.load(os.path.join(exports, model + ".npz"))
        for exporter in ("dynamo", "ts"):
            path = os.path.join(exports, "%s_%s.onnx" % (model, exporter))
            if not os.path.exists(path):  # GPT-2: dynamo only
                continue
            session = ort.InferenceSession(
                path, providers=["CPUExecutionProvider"]) if batches else None
            for precision, tol in (("fp32", 1e-3), ("fp16", 2e-2)):
                for r in ranges:
                    rest = [int(d) for d in r.split("=")[1].split("x")[1:]]
                    so = os.path.join(work, "%s_%s_%s_%s.so" % (
                        model, exporter, precision, "x".join(map(str, rest))))
                    subprocess.run([brrrc, path, "-o", so, "--input-shape",
                                    r, "--precision=" + precision],
                                   check=True)
                    m = brrr.load(so)
                    checks = []
                    k = 0
                    while "in%d_0" % k in data:
                        x = data["in%d_0" % k]
                        if list(x.shape[1:]) == rest:
                            checks.append(("torch", x, data["y%d" % k]))
                        k += 1
                    for b in batches:
                        x = rng.integers(0, 1024, (b, *rest)).astype(np.int64)
                        checks.append(("onnxruntime", x,
                                       session.run(None, {"x": x})[0]))
                    ok &= compare_checks(m, checks, tol, "%s_%s_%s" % (
                        model, exporter, precision))
    # BERT and GPT-2 over a symbolic batch and sequence, one compile for
    # every shape (16-bit: attention over a symbolic sequence compiles
    # fused).
    for model, exporter in (("bert", "dynamo"), ("bert", "ts"),
                            ("gpt2", "dynamo")):
        data = np.load(os.path.join(exports, model + ".npz"))
        path = os.path.join(exports, "%s_%s.onnx" % (model, exporter))
        session = ort.InferenceSession(path,
                                       providers=["CPUExecutionProvider"])
        so = os.path.join(work, "%s_%s_fp16_seq.so" % (model, exporter))
        subprocess.run([brrrc, path, "-o", so, "--input-shape",
                        "x=1..64x1..512", "--precision=fp16"], check=True)
        m = brrr.load(so)
        checks = [("torch", data["in%d_0" % k], data["y%d" % k])
                  for k in range(len(data.files) // 2)]
        for b, n in ((1, 2), (3, 77), (5, 300), (64, 512), (2, 511)):
            x = rng.integers(0, 1024, (b, n)).astype(np.int64)
            checks.append(("onnxruntime", x, session.run(None, {"x": x})[0]))
        ok &= compare_checks(m, checks, 2e-2,
                             "%s_%s_fp16_seq" % (model, exporter))
    return ok


def compare_checks(m, checks, tol, label):
    """Runs `m` on each (peer, input, expected output) of `checks` and
    prints the relative L2 error against the peer's output."""
    ok = True
    for peer, x, want in checks:
        got = np.asarray(m(x), np.float64)
        want = np.asarray(want, np.float64)
        err = (np.linalg.norm(got - want) / np.linalg.norm(want)
               if got.shape == want.shape else np.inf)
        good = err <= tol
        ok &= bool(good)
        print("%-20s %-10s vs %-11s rel err %.2e %s" % (
            label, "x".join(map(str, x.shape)), peer, err,
            "ok" if good else "MISMATCH"), flush=True)
    return ok


args_cpp_run = ""


def median_ms(fn, reps=200):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def time_model(name, spec, brrrc, work):
    """Dynamic vs static compile vs torch eager at each shape."""
    model, ref, ranges, shapes, dtype = spec
    dyn = brrr.load(os.path.join(work, name + ".so"))
    path = os.path.join(work, name + ".onnx")
    rng = np.random.default_rng(0)
    for dims in shapes:
        ins = inputs_for(model, dims, dtype, rng)
        tins = [torch.from_numpy(a).cuda() for a in ins]
        static_so = os.path.join(work, "%s_%s.so" % (
            name, "x".join(map(str, dims))))
        full = ranges["x"].split("x")
        fixed = "x".join([str(d) for d in dims] + full[len(dims):])
        def at(r):
            parts = r.split("x")
            return "x".join([p if ".." not in p else str(d)
                             for p, d in zip(parts, dims)] +
                            parts[len(dims):])
        compile_model(brrrc, path, static_so,
                      {n: at(r) for n, r in ranges.items()})
        st = brrr.load(static_so)
        out_dtype = torch.float16 if dtype == "f16" else torch.float32
        outs_d = [torch.empty(w.shape, dtype=out_dtype, device="cuda")
                  for w in ref(*[a.astype(np.float64) for a in ins])]
        outs_s = [torch.empty_like(o) for o in outs_d]
        cd, cs = dyn.context(), st.context()
        t_dyn = median_ms(lambda: cd.run(*tins, outputs=outs_d))
        t_static = median_ms(lambda: cs.run(*tins, outputs=outs_s))
        k_dyn = statistics.median(
            sum(ms for _, ms in cd.profile(*tins, outputs=outs_d) if ms)
            for _ in range(30))
        k_static = statistics.median(
            sum(ms for _, ms in cs.profile(*tins, outputs=outs_s) if ms)
            for _ in range(30))
        if name.startswith("mlp"):
            w1 = torch.from_numpy(numpy_helper.to_array(
                model.graph.initializer[0])).cuda()
            b1 = torch.from_numpy(numpy_helper.to_array(
                model.graph.initializer[1])).cuda()
            w2 = torch.from_numpy(numpy_helper.to_array(
                model.graph.initializer[2])).cuda()

            def eager():
                return torch.relu(tins[0] @ w1 + b1) @ w2 + tins[0]
        elif name.startswith("norm_rows"):
            w = model.graph.input[0].type.tensor_type.shape.dim[-1].dim_value
            sc = torch.linspace(0.5, 1.5, w, device="cuda").to(tins[0].dtype)
            bi = torch.linspace(-1, 1, w, device="cuda").to(tins[0].dtype)

            def eager():
                n = torch.nn.functional.layer_norm(tins[0] + tins[1], (w,),
                                                   sc, bi, 1e-5)
                return torch.relu(torch.softmax(n, -1)), n
        elif name.startswith("bias_add"):
            w = max(model.graph.input[0].type.tensor_type.shape.dim[-1]
                    .dim_value, 1)
            bt = torch.linspace(-2, 2, w, device="cuda").to(tins[0].dtype)

            def eager():
                a = tins[0] + bt
                return torch.relu(a * tins[1]), torch.tanh(a)
        elif name.startswith("embed_heads"):
            t = {i.name: torch.from_numpy(numpy_helper.to_array(i)).cuda()
                 for i in model.graph.initializer}
            ids = tins[0]

            def eager():
                n = torch.nn.functional.layer_norm(t["table"][ids], (32,))
                h = n.view(*ids.shape, 4, 8).transpose(-1, -2)
                return h.reshape(*ids.shape, 32) @ t["w"]
        elif name.startswith("image_net"):
            t = {i.name: torch.from_numpy(numpy_helper.to_array(i)).cuda()
                 for i in model.graph.initializer}
            F = torch.nn.functional

            def eager():
                r0 = F.relu(F.conv2d(tins[0], t["w0"], t["b0"], 2, 3))
                p0 = F.max_pool2d(r0, 3, 2, 1)
                f = F.relu(F.conv2d(p0, t["w1"], t["b1"], 1, 1) + p0)
                d = F.relu(F.conv2d(f, t["wd"], None, 1, 1, groups=64))
                g = F.conv2d(d, t["w2"], None, 2).mean((2, 3))
                return g @ t["wh"] + t["bh"], f
        elif name.startswith("seq_attention"):
            t = {i.name: torch.from_numpy(numpy_helper.to_array(i)).cuda()
                 for i in model.graph.initializer}
            heads, d = (int(v) for v in numpy_helper.to_array(
                next(i for i in model.graph.initializer
                     if i.name == "split"))[2:])
            x = tins[0]
            bias = None
            if len(tins) > 1:
                bias = ((1 - tins[1].to(x.dtype)) * -10000)[:, None, None, :]

            def eager():
                b, n, e = x.shape

                def split(w):
                    return (x @ t[w]).view(b, n, heads, d).transpose(1, 2)
                o = torch.nn.functional.scaled_dot_product_attention(
                    split("wq"), split("wk"), split("wv"), attn_mask=bias,
                    is_causal="causal" in name)
                return o.transpose(1, 2).reshape(b, n, e) @ t["wo"]
        else:
            def eager():
                return tins[0] * torch.sigmoid(tins[0]) + 1
        t_eager = median_ms(eager)
        print("time %-18s %-10s kernels: dynamic %.4f ms static %.4f ms "
              "(%.2fx) | calls: dynamic %.4f static %.4f torch eager %.4f ms"
              % (name, "x".join(map(str, dims)), k_dyn, k_static,
                 k_dyn / k_static, t_dyn, t_static, t_eager), flush=True)
        if args_cpp_run and dims == shapes[2]:
            shape_list = ";".join(
                "x".join(map(str, list(d) + [int(t) for t in full[len(d):]]))
                for d in shapes)
            dyn_so = os.path.join(work, name + ".so")
            for label, so, extra in (
                    ("dynamic, shapes alternating", dyn_so, [shape_list]),
                    ("dynamic, one shape", dyn_so, [fixed]),
                    ("static", static_so, [])):
                out = subprocess.run([args_cpp_run, so, "--host-overhead",
                                      "2000"] + extra, capture_output=True,
                                     text=True)
                print("host %-18s %s brrr_run: %s" % (
                    name, label, (out.stdout + out.stderr).strip()),
                    flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("brrrc")
    p.add_argument("work")
    p.add_argument("--time", action="store_true")
    p.add_argument("--only", default="")
    p.add_argument("--cpp-run", default="")
    p.add_argument("--exports", default="",
                   help="a folder of torch exports with dynamic dimensions "
                   "and their outputs (check_exports)")
    p.add_argument("--sanitize", default="",
                   help="compute-sanitizer tools to run each model under, "
                   "at all its shapes, e.g. memcheck,racecheck")
    p.add_argument("--jobs", type=int, default=8,
                   help="sanitizer runs at once")
    p.add_argument("--sanitize-child", default="", help=argparse.SUPPRESS)
    args = p.parse_args()
    global args_cpp_run
    args_cpp_run = args.cpp_run
    os.makedirs(args.work, exist_ok=True)
    specs = models()
    if args.sanitize_child:
        sanitize_child(args.sanitize_child, specs[args.sanitize_child],
                       args.work)
    names = [n for n in specs if not args.only or n in args.only.split(",")]
    ok = True
    for n in names:
        ok &= check(n, specs[n], args.brrrc, args.work)
    if args.sanitize:
        ok &= sanitize(names, [t for t in args.sanitize.split(",") if t],
                       args.brrrc, args.work, args.jobs)
    if args.exports:
        ok &= check_exports(args.brrrc, args.work, args.exports)
    if args.time:
        for n in names:
            time_model(n, specs[n], args.brrrc, args.work)
    print("all ok" if ok else "FAILURES")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
