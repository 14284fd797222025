"""The models of dynamic_shapes.py for ops that exports reach over symbolic
extents beyond the kernel families' own (dynamic_shapes_models.py):
rotary embeddings, head transposes, concatenations along the sequence,
pooling and other reductions over it, ArgMax, pads and activations, each
with its float64 reference, and the image ops of dynamic_shapes_image_ops.py
(`op_models()`, entries as `models()`'s).

Runs where torch and onnx do (the GPU machine).
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from dynamic_shapes_image_ops import (conv_transpose, image_ops, resize_images,
                                      resize_sizes, squeeze_excite)
from dynamic_shapes_models import F16, F32, IMAGE_BATCHES, SEQ_SHAPES, graph


def seq_rotary(seed, heads=4, d=32):
    """Llama's rotary embeddings over a symbolic batch and sequence, f16:
    the cos and sin tables computed from the sequence's extent (positions
    times inverse frequencies, concatenated twice, cos and sin in f32, cast
    to f16), q * cos + rotate_half(q) * sin with rotate_half a slice, a
    negation and a concatenation. The queries rotate before their heads
    transpose (tables [1, seq, 1, d]) and are an output too; the keys after
    it, as Hugging Face writes them (tables [1, 1, seq, d]). Then causal
    attention and an output projection."""
    rng = np.random.default_rng(seed)
    e, half = heads * d, d // 2

    def w(rows, cols):
        return (rng.standard_normal((rows, cols)) /
                np.sqrt(rows)).astype(np.float16)
    ws = {"wq": w(e, e), "wk": w(e, e), "wv": w(e, e), "wo": w(e, e)}
    inv = (1.0 / 10000 ** (np.arange(0, d, 2) / d)).astype(np.float32)
    i64 = lambda v: np.array(v, np.int64)  # noqa: E731
    consts = [numpy_helper.from_array(v, k) for k, v in ws.items()] + [
        numpy_helper.from_array(inv.reshape(1, half), "inv"),
        numpy_helper.from_array(i64([0, 0, heads, d]), "split"),
        numpy_helper.from_array(i64([0, 0, e]), "merge"),
        numpy_helper.from_array(np.array(d ** -0.5, np.float16), "scale"),
        numpy_helper.from_array(i64(0), "i0"),
        numpy_helper.from_array(i64(1), "i1"),
        numpy_helper.from_array(i64([0]), "ax0"),
        numpy_helper.from_array(i64([1]), "ax1"),
        numpy_helper.from_array(i64([0, 2]), "ax02"),
        numpy_helper.from_array(i64([0, 1]), "ax01"),
        numpy_helper.from_array(i64([0]), "lo0"),
        numpy_helper.from_array(i64([half]), "mid"),
        numpy_helper.from_array(i64([d]), "end"),
        numpy_helper.from_array(i64([-1]), "last"),
        numpy_helper.from_array(np.array(0, np.float16), "keep"),
        numpy_helper.from_array(np.array(-np.inf, np.float16), "drop")]

    def rotate(t, cos, sin):
        return [
            helper.make_node("Mul", [t, cos], [t + "_c"]),
            helper.make_node("Slice", [t, "lo0", "mid", "last"], [t + "_lo"]),
            helper.make_node("Slice", [t, "mid", "end", "last"], [t + "_hi"]),
            helper.make_node("Neg", [t + "_hi"], [t + "_nh"]),
            helper.make_node("Concat", [t + "_nh", t + "_lo"], [t + "_r"],
                             axis=-1),
            helper.make_node("Mul", [t + "_r", sin], [t + "_s"]),
            helper.make_node("Add", [t + "_c", t + "_s"], [t + "_rot"])]
    nodes = [
        helper.make_node("Shape", ["x"], ["seqv"], start=1, end=2),
        helper.make_node("Squeeze", ["seqv"], ["seqlen"]),
        helper.make_node("Range", ["i0", "seqlen", "i1"], ["pos"]),
        helper.make_node("Cast", ["pos"], ["posf"], to=F32),
        helper.make_node("Unsqueeze", ["posf", "ax1"], ["pcol"]),
        helper.make_node("Mul", ["pcol", "inv"], ["freqs"]),
        helper.make_node("Concat", ["freqs", "freqs"], ["emb"], axis=-1),
        helper.make_node("Cos", ["emb"], ["cos32"]),
        helper.make_node("Sin", ["emb"], ["sin32"]),
        helper.make_node("Cast", ["cos32"], ["cos"], to=F16),
        helper.make_node("Cast", ["sin32"], ["sin"], to=F16),
        helper.make_node("Unsqueeze", ["cos", "ax02"], ["cos_q"]),
        helper.make_node("Unsqueeze", ["sin", "ax02"], ["sin_q"]),
        helper.make_node("Unsqueeze", ["cos", "ax01"], ["cos_k"]),
        helper.make_node("Unsqueeze", ["sin", "ax01"], ["sin_k"]),
        helper.make_node("MatMul", ["x", "wq"], ["q"]),
        helper.make_node("MatMul", ["x", "wk"], ["k"]),
        helper.make_node("MatMul", ["x", "wv"], ["v"]),
        helper.make_node("Reshape", ["q", "split"], ["qh"])]
    nodes += rotate("qh", "cos_q", "sin_q")
    nodes += [
        helper.make_node("Transpose", ["qh_rot"], ["qt"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["k", "split"], ["kh"]),
        helper.make_node("Transpose", ["kh"], ["kt"], perm=[0, 2, 1, 3])]
    nodes += rotate("kt", "cos_k", "sin_k")
    nodes += [
        helper.make_node("Transpose", ["kt_rot"], ["ktt"], perm=[0, 1, 3, 2]),
        helper.make_node("Reshape", ["v", "split"], ["vh"]),
        helper.make_node("Transpose", ["vh"], ["vt"], perm=[0, 2, 1, 3]),
        helper.make_node("MatMul", ["qt", "ktt"], ["s0"]),
        helper.make_node("Mul", ["s0", "scale"], ["s"]),
        helper.make_node("Unsqueeze", ["pos", "ax1"], ["qi"]),
        helper.make_node("Unsqueeze", ["pos", "ax0"], ["kj"]),
        helper.make_node("LessOrEqual", ["kj", "qi"], ["upto"]),
        helper.make_node("Where", ["upto", "keep", "drop"], ["cbias"]),
        helper.make_node("Add", ["s", "cbias"], ["sc"]),
        helper.make_node("Softmax", ["sc"], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "vt"], ["o"]),
        helper.make_node("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["ot", "merge"], ["om"]),
        helper.make_node("MatMul", ["om", "wo"], ["y"])]
    m = graph("seq_rotary", nodes,
              [helper.make_tensor_value_info("x", F16, ["batch", "seq", e])],
              [helper.make_tensor_value_info("y", F16, ["batch", "seq", e]),
               helper.make_tensor_value_info(
                   "qh_rot", F16, ["batch", "seq", heads, d])],
              consts)

    def ref(x):
        t = {k: v.astype(np.float64) for k, v in ws.items()}
        b, n, _ = x.shape
        # Stored in f16 between kernels: the projections, the tables, the
        # rotated queries and keys, the attention's output.
        rnd = lambda a: a.astype(np.float16).astype(np.float64)  # noqa: E731
        freqs = np.arange(n, dtype=np.float32)[:, None] * inv[None, :]
        emb = np.concatenate([freqs, freqs], -1).astype(np.float64)
        cos, sin = rnd(np.cos(emb)), rnd(np.sin(emb))

        def rotary(a, c, s):  # a [..., n, heads?, d] with c, s broadcast
            r = np.concatenate([-a[..., half:], a[..., :half]], -1)
            return rnd(a * c + r * s)
        q = rnd(x @ t["wq"]).reshape(b, n, heads, d)
        qr = rotary(q, cos[None, :, None, :], sin[None, :, None, :])
        k = rnd(x @ t["wk"]).reshape(b, n, heads, d).transpose(0, 2, 1, 3)
        kr = rotary(k, cos[None, None], sin[None, None])
        v = rnd(x @ t["wv"]).reshape(b, n, heads, d).transpose(0, 2, 1, 3)
        s = qr.transpose(0, 2, 1, 3) @ kr.transpose(0, 1, 3, 2) * d ** -0.5
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
        p = np.exp(s - s.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        o = rnd((p @ v).transpose(0, 2, 1, 3).reshape(b, n, e))
        return [o @ t["wo"], qr]
    return m, ref


def heads_transpose(elem, seed):
    """A projection's heads as an output in their own order, as a decoder
    returns its present keys: y = transpose(reshape(x W, [b, s, 2, 32]),
    [0, 2, 1, 3]), a movement kernel over the actual extents; and
    z = relu(y), a pointwise kernel that reads it."""
    rng = np.random.default_rng(seed)
    np_t = np.float16 if elem == F16 else np.float32
    w = (rng.standard_normal((64, 64)) / 8).astype(np_t)
    m = graph("heads_transpose", [
        helper.make_node("MatMul", ["x", "w"], ["p"]),
        helper.make_node("Reshape", ["p", "split"], ["h"]),
        helper.make_node("Transpose", ["h"], ["y"], perm=[0, 2, 1, 3]),
        helper.make_node("Relu", ["y"], ["z"]),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", 64])],
        [helper.make_tensor_value_info("y", elem, ["batch", 2, "seq", 32]),
         helper.make_tensor_value_info("z", elem, ["batch", 2, "seq", 32])],
        [numpy_helper.from_array(w, "w"),
         numpy_helper.from_array(np.array([0, 0, 2, 32], np.int64),
                                 "split")])

    def ref(x):
        p = x @ w.astype(np.float64)
        if elem == F16:  # the product is stored in f16
            p = p.astype(np.float16).astype(np.float64)
        y = p.reshape(x.shape[0], x.shape[1], 2, 32).transpose(0, 2, 1, 3)
        return [y, np.maximum(y, 0)]
    return m, ref


def seq_pool(elem):
    """Reductions over a symbolic sequence, as sentence embeddings pool
    their tokens: a masked mean (the mask expanded to the tokens' shape,
    summed, clamped, divided: sentence-transformers' mean pooling), a
    maximum kept as [batch, 1, 64] and a plain mean, each a split-rows
    kernel over the actual rows."""
    np_t = np.float16 if elem == F16 else np.float32
    m = graph("seq_pool", [
        helper.make_node("Cast", ["mask"], ["mf"], to=elem),
        helper.make_node("Unsqueeze", ["mf", "last"], ["mu"]),
        helper.make_node("Shape", ["x"], ["sh"]),
        helper.make_node("Expand", ["mu", "sh"], ["me"]),
        helper.make_node("Mul", ["x", "me"], ["xm"]),
        helper.make_node("ReduceSum", ["xm", "ax1"], ["num"], keepdims=0),
        helper.make_node("ReduceSum", ["me", "ax1"], ["den"], keepdims=0),
        helper.make_node("Clip", ["den", "eps"], ["dc"]),
        helper.make_node("Div", ["num", "dc"], ["mean"]),
        helper.make_node("ReduceMax", ["x"], ["top"], axes=[1], keepdims=1),
        helper.make_node("ReduceMean", ["x"], ["avg"], axes=[1],
                         keepdims=0),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", 64]),
        helper.make_tensor_value_info("mask", TensorProto.INT64,
                                      ["batch", "seq"])],
        [helper.make_tensor_value_info("mean", elem, ["batch", 64]),
         helper.make_tensor_value_info("top", elem, ["batch", 1, 64]),
         helper.make_tensor_value_info("avg", elem, ["batch", 64])],
        [numpy_helper.from_array(np.array([-1], np.int64), "last"),
         numpy_helper.from_array(np.array([1], np.int64), "ax1"),
         numpy_helper.from_array(np.array(1e-4, np_t), "eps")])

    def ref(x, mask):
        mk = mask[..., None].astype(np.float64)
        num = (x * mk).sum(1)
        if elem == F16:  # the masked tokens are stored in f16
            num = (x * mk).astype(np.float16).astype(np.float64).sum(1)
        den = np.maximum(np.broadcast_to(mk, x.shape).sum(1), 1e-4)
        return [num / den, x.max(1, keepdims=True), x.mean(1)]
    return m, ref


def argmax_logits(elem, width):
    """A language model's greedy pick over a symbolic batch and sequence:
    y = argmax(x, -1) of logits [batch, seq, width] (int64 [batch, seq]),
    and z = argmin(x, -1) kept as [batch, seq, 1]."""
    m = graph("argmax_logits", [
        helper.make_node("ArgMax", ["x"], ["y"], axis=-1, keepdims=0),
        helper.make_node("ArgMin", ["x"], ["z"], axis=-1, keepdims=1),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", width])],
        [helper.make_tensor_value_info("y", TensorProto.INT64,
                                       ["batch", "seq"]),
         helper.make_tensor_value_info("z", TensorProto.INT64,
                                       ["batch", "seq", 1])])

    def ref(x):
        return [x.argmax(-1), x.argmin(-1)[..., None]]
    return m, ref


def last_token(elem):
    """Each sequence's last token over a symbolic batch and sequence, as
    transformers' classifiers pick it (x[arange(batch), last], last the
    argmax of ids [batch, seq]), in the three forms exporters write: the
    table flattened to [batch * seq, 8] at arange(batch) * seq + last, one
    GatherND with a batch dimension, and one by (arange(batch), last)
    tuples. Each is a lookup in the flattened table at an index computed
    from the actual sequence's length."""
    i64 = lambda v: np.array(v, np.int64)  # noqa: E731
    consts = [numpy_helper.from_array(i64(0), "zero"),
              numpy_helper.from_array(i64(1), "one"),
              numpy_helper.from_array(i64([-1, 8]), "rows"),
              numpy_helper.from_array(i64([-1]), "minus")]
    m = graph("last_token", [
        helper.make_node("ArgMax", ["ids"], ["last"], axis=-1, keepdims=0),
        helper.make_node("ArgMax", ["ids"], ["last2"], axis=-1, keepdims=1),
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "zero"], ["b"], axis=0),
        helper.make_node("Gather", ["shape", "one"], ["s"], axis=0),
        helper.make_node("Range", ["zero", "b", "one"], ["r"]),
        helper.make_node("Mul", ["r", "s"], ["base"]),
        helper.make_node("Add", ["base", "last"], ["at"]),
        helper.make_node("Reshape", ["x", "rows"], ["xf"]),
        helper.make_node("Gather", ["xf", "at"], ["flat"], axis=0),
        helper.make_node("GatherND", ["x", "last2"], ["bybatch"],
                         batch_dims=1),
        helper.make_node("Unsqueeze", ["r", "minus"], ["r2"]),
        helper.make_node("Concat", ["r2", "last2"], ["tuples"], axis=1),
        helper.make_node("GatherND", ["x", "tuples"], ["bytuples"]),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", 8]),
        helper.make_tensor_value_info("ids", TensorProto.INT64,
                                      ["batch", "seq"])],
        [helper.make_tensor_value_info(n, elem, ["batch", 8])
         for n in ("flat", "bybatch", "bytuples")], consts)

    def ref(x, ids):
        y = x[np.arange(x.shape[0]), ids.argmax(1)]
        return [y, y, y]
    return m, ref


def relative_scores(elem, span=8, attend=False):
    """DeBERTa's content-to-position scores over a symbolic batch and
    sequence: the queries [batch, 2, seq, 16] times relative position keys
    (16 x 2 * span), looked up along their last axis at clip(i - j + span,
    0, 2 * span - 1), an index of [seq, seq] expanded to [batch, 2, seq,
    seq] (GatherElements, whose tensors share no outer run). With `attend`,
    DeBERTa's attention around them: q @ (k^T * 1/4) plus those scores,
    masked_fill'd with the type's lowest where the pairwise mask m_i * m_j
    of a padding mask is 0 (a padded query's row masks every key: torch
    averages it), softmax, times the values."""
    rng = np.random.default_rng(31)
    np_elem = np.float16 if elem == F16 else np.float32
    posk = (rng.standard_normal((16, 2 * span)) / 4).astype(np_elem)
    i64 = lambda v: np.array(v, np.int64)  # noqa: E731
    low = np.finfo(np_elem).min
    consts = [numpy_helper.from_array(posk, "posk"),
              numpy_helper.from_array(i64(0), "zero"),
              numpy_helper.from_array(i64(1), "one"),
              numpy_helper.from_array(i64([0]), "ax0"),
              numpy_helper.from_array(i64([1]), "ax1"),
              numpy_helper.from_array(i64([0, 1]), "ax01"),
              numpy_helper.from_array(i64(span), "span"),
              numpy_helper.from_array(i64(2 * span - 1), "top"),
              numpy_helper.from_array(i64([0, 0, 2, 16]), "heads"),
              numpy_helper.from_array(i64([0]), "from"),
              numpy_helper.from_array(i64([3]), "to"),
              numpy_helper.from_array(np.array(0.25, np_elem), "quarter"),
              numpy_helper.from_array(np.array(low, np_elem), "low"),
              numpy_helper.from_array(i64([1, 2]), "ax12"),
              numpy_helper.from_array(i64([1, 3]), "ax13"),
              numpy_helper.from_array(i64([0, 0, 32]), "merge")]
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "one"], ["s"], axis=0),
        helper.make_node("Unsqueeze", ["s", "ax0"], ["s1"]),
        helper.make_node("Range", ["zero", "s", "one"], ["r"]),
        helper.make_node("Unsqueeze", ["r", "ax1"], ["qi"]),
        helper.make_node("Unsqueeze", ["r", "ax0"], ["kj"]),
        helper.make_node("Sub", ["qi", "kj"], ["rel"]),
        helper.make_node("Add", ["rel", "span"], ["shifted"]),
        helper.make_node("Clip", ["shifted", "zero", "top"], ["idx"]),
        helper.make_node("Reshape", ["x", "heads"], ["xh"]),
        helper.make_node("Transpose", ["xh"], ["qh"], perm=[0, 2, 1, 3]),
        helper.make_node("MatMul", ["qh", "posk"], ["c2p"]),
        helper.make_node("Unsqueeze", ["idx", "ax01"], ["idx4"]),
        helper.make_node("Shape", ["c2p"], ["c2pshape"]),
        helper.make_node("Slice", ["c2pshape", "from", "to"], ["bhq"]),
        helper.make_node("Concat", ["bhq", "s1"], ["grid"], axis=0),
        helper.make_node("Expand", ["idx4", "grid"], ["idxe"]),
        helper.make_node("GatherElements", ["c2p", "idxe"], ["y"], axis=-1)]
    inputs = [helper.make_tensor_value_info("x", elem, ["batch", "seq", 32])]
    outputs = [helper.make_tensor_value_info(
        "y", elem, ["batch", 2, "seq", "seq"])]
    if attend:
        nodes += [
            helper.make_node("Transpose", ["xh"], ["kh"], perm=[0, 2, 3, 1]),
            helper.make_node("Mul", ["kh", "quarter"], ["khs"]),
            helper.make_node("MatMul", ["qh", "khs"], ["qk"]),
            helper.make_node("Add", ["qk", "y"], ["sc"]),
            helper.make_node("Unsqueeze", ["mask", "ax12"], ["mq"]),
            helper.make_node("Unsqueeze", ["mask", "ax13"], ["mk"]),
            helper.make_node("Mul", ["mq", "mk"], ["mm"]),
            helper.make_node("Cast", ["mm"], ["keep"], to=TensorProto.BOOL),
            helper.make_node("Where", ["keep", "sc", "low"], ["filled"]),
            helper.make_node("Softmax", ["filled"], ["p"], axis=-1),
            helper.make_node("MatMul", ["p", "qh"], ["o"]),
            helper.make_node("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]),
            helper.make_node("Reshape", ["ot", "merge"], ["out"])]
        inputs.append(helper.make_tensor_value_info(
            "mask", TensorProto.INT64, ["batch", "seq"]))
        outputs = [helper.make_tensor_value_info(
            "out", elem, ["batch", "seq", 32])]
    m = graph("deberta_attention" if attend else "relative_scores", nodes,
              inputs, outputs, consts)

    def scores(x):
        b, n, _ = x.shape
        q = x.astype(np.float64).reshape(b, n, 2, 16).transpose(0, 2, 1, 3)
        c2p = q @ posk.astype(np.float64)
        i = np.arange(n)
        idx = np.clip(i[:, None] - i[None, :] + span, 0, 2 * span - 1)
        return q, np.take_along_axis(
            c2p, np.broadcast_to(idx, (b, 2, n, n)), axis=-1)

    def ref(x):
        return [scores(x)[1]]

    def attention_ref(x, mask):
        q, rel = scores(x)
        b, n, _ = x.shape
        s = q @ (q.transpose(0, 1, 3, 2) * 0.25) + rel
        keep = (mask[:, None, None, :] * mask[:, None, :, None]) != 0
        s = np.where(keep, s, float(low))
        p = np.exp(s - s.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        return [(p @ q).transpose(0, 2, 1, 3).reshape(b, n, 32)]
    return m, attention_ref if attend else ref


def argmax_seq(elem):
    """The index of the extreme along a symbolic sequence: y = argmax(x, 1)
    of scores [batch, seq] (int64 [batch]) and z = argmin(x, 1) kept as
    [batch, 1], the last of equal minima (select_last_index; f16 scores
    tie). The candidates are the actual sequence's indices, the sentinel
    past them the largest sequence."""
    m = graph("argmax_seq", [
        helper.make_node("ArgMax", ["x"], ["y"], axis=1, keepdims=0),
        helper.make_node("ArgMin", ["x"], ["z"], axis=1, keepdims=1,
                         select_last_index=1),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq"])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, ["batch"]),
         helper.make_tensor_value_info("z", TensorProto.INT64, ["batch", 1])])

    def ref(x):
        last = x.shape[1] - 1 - x[:, ::-1].argmin(1)
        return [x.argmax(1), last[:, None]]
    return m, ref


def softmax_seq(elem):
    """Softmaxes along a symbolic sequence that are not attention's, written
    as reductions over the actual rows: y = softmax(x, -1) of scores
    [batch, seq] and z = log_softmax(t, 1) of [batch, seq, 4]."""
    m = graph("softmax_seq", [
        helper.make_node("Softmax", ["x"], ["y"], axis=-1),
        helper.make_node("LogSoftmax", ["t"], ["z"], axis=1),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq"]),
        helper.make_tensor_value_info("t", elem, ["batch", "seq", 4])],
        [helper.make_tensor_value_info("y", elem, ["batch", "seq"]),
         helper.make_tensor_value_info("z", elem, ["batch", "seq", 4])])

    def ref(x, t):
        e = np.exp(x - x.max(-1, keepdims=True))
        s = t - t.max(1, keepdims=True)
        return [e / e.sum(-1, keepdims=True),
                s - np.log(np.exp(s).sum(1, keepdims=True))]
    return m, ref


def mask_reductions(elem):
    """Reductions up to the innermost axis over a symbolic sequence, split
    rows of one element: a padding mask's lengths (ReduceSum over [batch,
    seq], int64) and position ids (CumSum - 1, as transformers derive them
    from the mask), and a mean over the sequence read through a transpose
    ([batch, 64, seq], the transpose a kernel over the actual extents)."""
    m = graph("mask_reductions", [
        helper.make_node("ReduceSum", ["mask", "ax1"], ["lengths"],
                         keepdims=0),
        helper.make_node("CumSum", ["mask", "one"], ["c"]),
        helper.make_node("Sub", ["c", "one"], ["positions"]),
        helper.make_node("Transpose", ["x"], ["t"], perm=[0, 2, 1]),
        helper.make_node("ReduceMean", ["t"], ["avg"], axes=[2],
                         keepdims=0),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", 64]),
        helper.make_tensor_value_info("mask", TensorProto.INT64,
                                      ["batch", "seq"])],
        [helper.make_tensor_value_info("lengths", TensorProto.INT64,
                                       ["batch"]),
         helper.make_tensor_value_info("positions", TensorProto.INT64,
                                       ["batch", "seq"]),
         helper.make_tensor_value_info("avg", elem, ["batch", 64])],
        [numpy_helper.from_array(np.array([1], np.int64), "ax1"),
         numpy_helper.from_array(np.array(1, np.int64), "one")])

    def ref(x, mask):
        mask = mask.astype(np.int64)
        return [mask.sum(1), mask.cumsum(1) - 1, x.mean(1)]
    return m, ref


def composite_reductions():
    """ReduceL1, ReduceL2, ReduceSumSquare and ReduceLogSumExp (f32) over
    a symbolic batch and sequence, along the fixed innermost axis (row
    kernels) and along the sequence (split rows over the actual rows), kept
    dimensions; and a sentence embedding's L2 normalization, x / ||x||."""
    ops = ("ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSumExp")
    nodes, outs = [], []
    for op in ops:
        for axis, shape in ((-1, ["batch", "seq", 1]),
                            (1, ["batch", 1, 64])):
            name = "%s_%s" % (op, "last" if axis < 0 else "seq")
            nodes.append(helper.make_node(op, ["x"], [name], axes=[axis],
                                          keepdims=1))
            outs.append(helper.make_tensor_value_info(name, F32, shape))
    nodes.append(helper.make_node("Div", ["x", "ReduceL2_last"], ["unit"]))
    outs.append(helper.make_tensor_value_info("unit", F32,
                                              ["batch", "seq", 64]))
    m = graph("composite_reductions", nodes,
              [helper.make_tensor_value_info("x", F32, ["batch", "seq", 64])],
              outs)

    def ref(x):
        got = []
        for op in ops:
            for axis in (-1, 1):
                if op == "ReduceL1":
                    r = np.abs(x).sum(axis, keepdims=True)
                elif op == "ReduceL2":
                    r = np.sqrt((x * x).sum(axis, keepdims=True))
                elif op == "ReduceSumSquare":
                    r = (x * x).sum(axis, keepdims=True)
                else:
                    r = np.log(np.exp(x).sum(axis, keepdims=True))
                got.append(r)
        got.append(x / np.sqrt((x * x).sum(-1, keepdims=True)))
        return got
    return m, ref


def logsumexp_f16():
    """ReduceLogSumExp of 20 * x in f16, along the innermost axis and along
    the sequence: exp(20 * x) overflows f16 past x = 0.55, so only the
    shifted form (m + log(sum(exp(x - m)))) matches."""
    nodes = [helper.make_node("Mul", ["x", "k"], ["big"])]
    outs = []
    for axis, shape in ((-1, ["batch", "seq", 1]), (1, ["batch", 1, 64])):
        name = "lse_last" if axis < 0 else "lse_seq"
        nodes.append(helper.make_node("ReduceLogSumExp", ["big"], [name],
                                      axes=[axis], keepdims=1))
        outs.append(helper.make_tensor_value_info(name, F16, shape))
    m = graph("logsumexp_f16", nodes,
              [helper.make_tensor_value_info("x", F16, ["batch", "seq", 64])],
              outs, [numpy_helper.from_array(np.array(20, np.float16), "k")])

    def ref(x):
        big = (x * 20).astype(np.float16).astype(np.float64)
        got = []
        for axis in (-1, 1):
            mx = big.max(axis, keepdims=True)
            got.append(mx + np.log(np.exp(big - mx).sum(axis, keepdims=True)))
        return got
    return m, ref


def pad_features(elem):
    """Pads along the fixed feature axis of [batch, seq, 64]: constant 1.5
    (3 before, 5 after) and reflect (2 and 2), movement kernels over the
    symbolic batch and sequence."""
    np_t = np.float16 if elem == F16 else np.float32
    m = graph("pad_features", [
        helper.make_node("Pad", ["x", "pads", "value"], ["y"]),
        helper.make_node("Pad", ["x", "pads_r"], ["z"], mode="reflect"),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", 64])],
        [helper.make_tensor_value_info("y", elem, ["batch", "seq", 72]),
         helper.make_tensor_value_info("z", elem, ["batch", "seq", 68])],
        [numpy_helper.from_array(np.array([0, 0, 3, 0, 0, 5], np.int64),
                                 "pads"),
         numpy_helper.from_array(np.array([0, 0, 2, 0, 0, 2], np.int64),
                                 "pads_r"),
         numpy_helper.from_array(np.array(1.5, np_t), "value")])

    def ref(x):
        return [np.pad(x, ((0, 0), (0, 0), (3, 5)), constant_values=1.5),
                np.pad(x, ((0, 0), (0, 0), (2, 2)), mode="reflect")]
    return m, ref


def activations_f32():
    """Pointwise activations over a symbolic batch and sequence, f32:
    HardSigmoid, HardSwish, LeakyRelu, Elu, Selu, Softplus, Dropout (the
    identity at inference), PRelu by a slope per feature, Mod with fmod,
    and a LogSoftmax over the fixed feature axis."""
    slope = (np.arange(64) / 64).astype(np.float32)
    div = np.float32(0.7)
    ops = [("HardSigmoid", {}), ("HardSwish", {}),
           ("LeakyRelu", {"alpha": 0.1}), ("Elu", {}), ("Selu", {}),
           ("Softplus", {}), ("Dropout", {}), ("LogSoftmax", {"axis": -1})]
    nodes = [helper.make_node(op, ["x"], ["y_" + op], **at)
             for op, at in ops]
    nodes += [helper.make_node("PRelu", ["x", "slope"], ["y_PRelu"]),
              helper.make_node("Mod", ["x", "div"], ["y_Mod"], fmod=1)]
    names = [op for op, _ in ops] + ["PRelu", "Mod"]
    m = graph("activations", nodes,
              [helper.make_tensor_value_info("x", F32, ["batch", "seq", 64])],
              [helper.make_tensor_value_info("y_" + n, F32,
                                             ["batch", "seq", 64])
               for n in names],
              [numpy_helper.from_array(slope, "slope"),
               numpy_helper.from_array(div, "div")])

    def ref(x):
        a, g = 1.67326319217681884765625, 1.05070102214813232421875
        e = np.exp(x - x.max(-1, keepdims=True))
        return [np.clip(0.2 * x + 0.5, 0, 1),
                x * np.clip(x / 6 + 0.5, 0, 1),
                np.where(x > 0, x, 0.1 * x),
                np.where(x > 0, x, np.expm1(x)),
                g * np.where(x > 0, x, a * np.expm1(x)),
                np.log1p(np.exp(x)),
                x,
                np.log(e / e.sum(-1, keepdims=True)),
                np.where(x > 0, x, slope * x),
                np.fmod(x, np.float64(div))]
    return m, ref


def concat_seq(elem):
    """Concatenations along a symbolic sequence, movement kernels over the
    actual extents: a token prepended (cls [batch, 1, 64] before x [batch,
    seq, 64]: [batch, seq + 1, 64]) and a sequence doubled ([batch, 2 *
    seq, 64]), then a pointwise op over the result."""
    m = graph("concat_seq", [
        helper.make_node("Concat", ["cls", "x"], ["y"], axis=1),
        helper.make_node("Concat", ["x", "x"], ["xx"], axis=1),
        helper.make_node("Relu", ["xx"], ["z"]),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", 64]),
        helper.make_tensor_value_info("cls", elem, ["batch", 1, 64])],
        [helper.make_tensor_value_info("y", elem, ["batch", "seq1", 64]),
         helper.make_tensor_value_info("z", elem, ["batch", "seq2", 64])])

    def ref(x, cls):
        return [np.concatenate([cls, x], 1),
                np.maximum(np.concatenate([x, x], 1), 0)]
    return m, ref


def router_topk(elem):
    """TopK over a symbolic batch and sequence of router logits [batch,
    seq, 8]: the 2 largest along the experts (values and indices), and the
    3 smallest along axis 1 of the transpose [batch, 8, seq]."""
    m = graph("router_topk", [
        helper.make_node("TopK", ["x", "k"], ["v", "i"]),
        helper.make_node("Transpose", ["x"], ["t"], perm=[0, 2, 1]),
        helper.make_node("TopK", ["t", "k3"], ["w", "j"], axis=1, largest=0),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", 8])],
        [helper.make_tensor_value_info("v", elem, ["batch", "seq", 2]),
         helper.make_tensor_value_info("i", TensorProto.INT64,
                                       ["batch", "seq", 2]),
         helper.make_tensor_value_info("w", elem, ["batch", 3, "seq"]),
         helper.make_tensor_value_info("j", TensorProto.INT64,
                                       ["batch", 3, "seq"])],
        [numpy_helper.from_array(np.array([2], np.int64), "k"),
         numpy_helper.from_array(np.array([3], np.int64), "k3")])

    def ref(x):
        # Stable: equal values by index, as TopK orders them.
        i = np.argsort(-x, axis=-1, kind="stable")[..., :2]
        t = x.transpose(0, 2, 1)
        j = np.argsort(t, axis=1, kind="stable")[:, :3, :]
        return [np.take_along_axis(x, i, -1), i.astype(np.int64),
                np.take_along_axis(t, j, 1), j.astype(np.int64)]
    return m, ref


def einsum_seq(elem):
    """Einsum over a symbolic batch and sequence: a Linear layer
    (`bsd,de->bse`, a product over symbolic rows) and a sum over the
    sequence (`bsd->bd`)."""
    np_t = np.float16 if elem == F16 else np.float32
    w = (np.random.default_rng(18).standard_normal((64, 32)) / 8).astype(np_t)
    m = graph("einsum_seq", [
        helper.make_node("Einsum", ["x", "w"], ["y"], equation="bsd,de->bse"),
        helper.make_node("Einsum", ["x"], ["p"], equation="bsd->bd"),
    ], [helper.make_tensor_value_info("x", elem, ["batch", "seq", 64])],
        [helper.make_tensor_value_info("y", elem, ["batch", "seq", 32]),
         helper.make_tensor_value_info("p", elem, ["batch", 64])],
        [numpy_helper.from_array(w, "w")])

    def ref(x):
        return [x @ w.astype(np.float64), x.sum(axis=1)]
    return m, ref


def op_models():
    """name -> (model, reference, symbolic dims {input: shape text},
    shapes to run [(per-input shapes)], dtype)."""
    out = {}
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = heads_transpose(elem, 17)
        out["heads_transpose_" + tag] = (m, ref, {"x": "1..8x1..512x64"},
                                         SEQ_SHAPES, tag)
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = seq_pool(elem)
        out["seq_pool_" + tag] = (m, ref, {"x": "1..8x1..512x64",
                                           "mask": "1..8x1..512"},
                                  SEQ_SHAPES, tag)
    for elem, tag, width in ((F32, "f32", 1000), (F16, "f16", 64)):
        m, ref = argmax_logits(elem, width)
        out["argmax_logits%d_%s" % (width, tag)] = (
            m, ref, {"x": "1..8x1..512x%d" % width}, SEQ_SHAPES, tag)
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = softmax_seq(elem)
        out["softmax_seq_" + tag] = (m, ref, {"x": "1..8x1..512",
                                              "t": "1..8x1..512x4"},
                                     SEQ_SHAPES, tag)
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = argmax_seq(elem)
        out["argmax_seq_" + tag] = (m, ref, {"x": "1..8x1..512"},
                                    SEQ_SHAPES, tag)
        m, ref = relative_scores(elem)
        out["relative_scores_" + tag] = (m, ref, {"x": "1..8x1..512x32"},
                                         SEQ_SHAPES, tag)
        m, ref = relative_scores(elem, attend=True)
        out["deberta_attention_" + tag] = (
            m, ref, {"x": "1..8x1..512x32", "mask": "1..8x1..512"},
            SEQ_SHAPES, tag)
        m, ref = last_token(elem)
        out["last_token_" + tag] = (
            m, ref, {"x": "1..8x1..512x8", "ids": "1..8x1..512"}, SEQ_SHAPES,
            tag)
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = mask_reductions(elem)
        out["mask_reductions_" + tag] = (
            m, ref, {"x": "1..8x1..512x64", "mask": "1..8x1..512"},
            SEQ_SHAPES, tag)
    m, ref = composite_reductions()
    out["composite_reductions_f32"] = (m, ref, {"x": "1..8x1..512x64"},
                                       SEQ_SHAPES, "f32")
    m, ref = logsumexp_f16()
    out["logsumexp_f16"] = (m, ref, {"x": "1..8x1..512x64"}, SEQ_SHAPES,
                            "f16")
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = pad_features(elem)
        out["pad_features_" + tag] = (m, ref, {"x": "1..8x1..512x64"},
                                      SEQ_SHAPES, tag)
    m, ref = activations_f32()
    out["activations_f32"] = (m, ref, {"x": "1..8x1..512x64"}, SEQ_SHAPES,
                              "f32")
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = concat_seq(elem)
        out["concat_seq_" + tag] = (m, ref, {"x": "1..8x1..512x64",
                                             "cls": "1..8x1x64"},
                                    SEQ_SHAPES, tag)
    # Rotary embeddings over the actual sequence: one kernel each for the
    # queries and the keys, reading the tables from the actual extents.
    m, ref = seq_rotary(15)
    out["seq_rotary_f16"] = (m, ref, {"x": "1..8x1..512x128"}, SEQ_SHAPES,
                             "f16")
    m, ref = seq_rotary(16, heads=2, d=64)
    out["seq_rotary_d64_f16"] = (m, ref, {"x": "1..8x1..512x128"},
                                 SEQ_SHAPES, "f16")
    # Ops of one input x, at f32 and f16: the builder, x's range, the shapes.
    for build, x, shapes in (
            (image_ops, "1..128x8x4x6", IMAGE_BATCHES),
            (router_topk, "1..8x1..512x8", SEQ_SHAPES),
            (einsum_seq, "1..8x1..512x64", SEQ_SHAPES),
            (conv_transpose, "1..128x16x6x6", IMAGE_BATCHES)):
        for elem, tag in ((F32, "f32"), (F16, "f16")):
            m, ref = build(elem)
            out["%s_%s" % (build.__name__, tag)] = (m, ref, {"x": x}, shapes,
                                                    tag)
    m, ref = squeeze_excite(17)
    out["squeeze_excite_f16"] = (
        m, ref, {"x": "1..128x64x4x4"},
        IMAGE_BATCHES + [(3,), (4,)], "f16")
    m, ref = resize_sizes(F16)
    out["resize_sizes_f16"] = (m, ref, {"x": "1..128x8x6x6"}, IMAGE_BATCHES,
                               "f16")
    for elem, tag in ((F32, "f32"), (F16, "f16")):
        m, ref = resize_images(elem)
        out["resize_images_" + tag] = (m, ref, {"x": "1..128x8x6x6"},
                                       IMAGE_BATCHES, tag)
    return out
