#!/usr/bin/env python3
"""Runs the brrr IR that brrrc imports on numpy, against known outputs.

Importer lowerings (Einsum, ConvTranspose, TopK, OneHot, CumSum,
LayerNormalization's statistics) turn one ONNX op into several brrr ops. This evaluates the imported IR (`brrrc --emit=brrr`) op by
op in numpy for the ops such lowerings emit, and compares its outputs with
the ONNX backend test data's (`--backend NAME ...`, under DATA_DIR; with
`--backend-bound`, one-element inputs after the first, which set shapes,
become constants of their test data's values) and with numpy references for
generated cases (`--generated`): Einsum equations (ellipses, diagonals,
three operands, implicit outputs) in f64, f32 and i64, ConvTranspose over
groups, strides, dilations, pads and output paddings in f64, OneHot (axes,
negative, out-of-range and non-integral indices), TopK (ties, NaNs, every
opset's form) and CumSum (constant axes, exclusive, reversed)
in f64, f32 and i64. An op outside the evaluated set is an error.
Prints one line per case; exits non-zero on any mismatch.
Usage: reference_run.py BRRRC DATA_DIR [--backend NAME ...] [--backend-bound NAME ...]
                        [--generated]
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
          "i32": np.int32, "i64": np.int64, "i1": np.bool_}


COMPARES = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
            "gt": np.greater, "ge": np.greater_equal}
LOGICAL = {"and": np.logical_and, "or": np.logical_or}
ARITHMETIC = {"add": np.add, "sub": np.subtract, "mul": np.multiply}


def tensor_type(text):
    m = re.match(r"tensor<((?:\d+x)*)(\w+)>", text)
    return [int(d) for d in m.group(1).split("x") if d], DTYPES[m.group(2)]


def ints(attrs, name):
    m = re.search(name + r" = array<i64(?:: ([-\d, ]+))?>", attrs)
    return [int(v) for v in m.group(1).split(",")] if m.group(1) else []


def conv2d(x, w, b, strides, pads, dilations, groups):
    n, _, _, _ = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (xp.shape[2] - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (xp.shape[3] - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    y = np.zeros((n, o, oh, ow))
    og = o // groups
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                h0, w0 = i * dilations[0], j * dilations[1]
                patch = xp[:, g * cg:(g + 1) * cg,
                           h0:h0 + strides[0] * (oh - 1) + 1:strides[0],
                           w0:w0 + strides[1] * (ow - 1) + 1:strides[1]]
                y[:, g * og:(g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, i, j])
    return y if b is None else y + b.reshape(1, -1, 1, 1)


def evaluate(ir, inputs):
    """The outputs of @main in `ir` (brrrc --emit=brrr) on `inputs`."""
    env = {}
    for line in ir.splitlines():
        m = re.match(r"\s*func.func @main\((.*)\) ->", line)
        if m:
            args = re.findall(r"(%arg\d+): tensor<", m.group(1))
            env.update(zip(args, inputs))
            continue
        m = re.match(r"\s*return (.*) :", line)
        if m:
            return [env[v.strip()] for v in m.group(1).split(",")]
        m = re.match(r"\s*(%\d+) = brrr\.(\w+) (.*)$", line)
        if not m:
            continue
        result, op, rest = m.groups()
        kind = rest.split()[0] if op in ("reduce", "compare", "pad") else None
        operands = re.findall(r"%\w+", rest.split(" : ")[0].split("{")[0])
        attrs = rest[rest.find("{"):rest.rfind("}") + 1] if "{" in rest else ""
        dims, dtype = tensor_type(rest.split(" : ")[-1].split("->")[-1].strip())
        v = [env[o] for o in operands]
        if op == "constant":
            text = re.search(r"dense<(.*)> :", line).group(1)
            if text.startswith('"0x'):
                # Large constants print as hex bytes; i1 packs 8 to a byte.
                raw = np.frombuffer(bytes.fromhex(text[3:-1]), np.uint8)
                if dtype == np.bool_:
                    raw = np.unpackbits(raw, bitorder="little")[:int(np.prod(dims))]
                else:
                    raw = raw.view(dtype)
                r = raw.reshape(dims)
            else:
                text = text.replace("true", "1").replace("false", "0")
                r = np.broadcast_to(np.array(eval(text), np.float64), dims)
        elif op == "reshape":
            r = v[0].reshape(dims)
        elif op == "expand":
            r = np.broadcast_to(v[0], dims)
        elif op == "transpose":
            r = np.transpose(v[0], ints(attrs, "perm"))
        elif op == "pad" and kind == "constant":
            low, high = ints(attrs, "low"), ints(attrs, "high")
            crop = tuple(slice(max(0, -lo), d - max(0, -hi))
                         for d, lo, hi in zip(v[0].shape, low, high))
            r = np.pad(v[0][crop], [(max(0, lo), max(0, hi)) for lo, hi in zip(low, high)])
        elif op == "slice":
            index = [np.arange(s, s + n * t, t)
                     for s, n, t in zip(ints(attrs, "starts"), ints(attrs, "sizes"),
                                        ints(attrs, "steps"))]
            r = v[0][np.ix_(*index)]
        elif op == "conv2d":
            groups = int(re.search(r"groups = (\d+)", attrs).group(1))
            r = conv2d(*[a.astype(np.float64) for a in v[:2]],
                       v[2].astype(np.float64) if len(v) > 2 else None,
                       ints(attrs, "strides"), ints(attrs, "pads"),
                       ints(attrs, "dilations"), groups)
        elif op == "matmul":
            r = np.matmul(v[0].astype(np.float64), v[1].astype(np.float64))
        elif op in ARITHMETIC:
            r = ARITHMETIC[op](v[0], v[1])
        elif op == "sqrt":
            r = np.sqrt(v[0])
        elif op == "reciprocal":
            r = 1 / v[0]
        elif op == "layer_norm":
            axis = int(re.search(r"axis = (\d+)", attrs).group(1))
            eps = float(re.search(r"epsilon = ([-+.e\d]+)", attrs).group(1))
            x = v[0].astype(np.float64)
            axes = tuple(range(axis, x.ndim))
            mean = x.mean(axis=axes, keepdims=True)
            var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
            r = (x - mean) / np.sqrt(var + eps) * v[1] + (v[2] if len(v) > 2 else 0)
        elif op in LOGICAL:
            r = LOGICAL[op](v[0], v[1])
        elif op == "not":
            r = np.logical_not(v[0])
        elif op == "cast":
            r = v[0]
        elif op == "gather":
            axis = int(re.search(r"axis = (-?\d+)", attrs).group(1))
            r = np.take(v[0], v[1].astype(np.int64), axis)
        elif op == "gather_elements":
            axis = int(re.search(r"axis = (-?\d+)", attrs).group(1))
            r = np.take_along_axis(v[0], v[1].astype(np.int64), axis)
        elif op == "where":
            r = np.where(v[0], v[1], v[2])
        elif op == "compare" and kind in COMPARES:
            r = COMPARES[kind](v[0], v[1])
        elif op == "reduce" and kind in ("sum", "mean"):
            r = (np.sum if kind == "sum" else np.mean)(
                v[0], axis=tuple(ints(attrs, "axes")), keepdims="keepdims = true" in attrs)
        else:
            raise ValueError(f"brrr.{op} {kind or ''} is not evaluated here")
        r = np.asarray(r).astype(dtype)
        if list(r.shape) != dims:
            raise ValueError(f"brrr.{op} gave {r.shape}, the IR says {dims}")
        env[result] = r
    raise ValueError("no return in @main")


def check(brrrc, name, model_path, inputs, expected):
    proc = subprocess.run([brrrc, model_path, "--emit=brrr"], capture_output=True, text=True)
    if proc.returncode:
        print(f"FAIL {name}: {proc.stderr.strip()[:300]}")
        return False
    try:
        got = evaluate(proc.stdout, inputs)
    except ValueError as err:
        print(f"FAIL {name}: {err}")
        return False
    ok = len(got) == len(expected)
    worst = 0.0
    for g, e in zip(got, expected):
        e = np.asarray(e, np.float64)
        if g.shape != e.shape:
            ok = False
            continue
        # NaN matches NaN only.
        nan = np.isnan(e)
        diff = np.abs(g.astype(np.float64) - e)
        diff = np.where(nan & np.isnan(g), 0.0, diff)
        diff = np.nan_to_num(diff, nan=np.inf)
        scale = max(np.abs(e[~nan]).max(initial=0.0), 1e-30)
        worst = max(worst, diff.max(initial=0.0) / scale)
    ok = ok and worst <= 1e-5
    print(f"{'ok  ' if ok else 'FAIL'} {name}: max error {worst:.1e}")
    return ok


EINSUMS = [
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij,jk,kl->il", [(3, 4), (4, 5), (5, 6)]),
    ("ij,jk,kl", [(3, 4), (4, 5), (5, 2)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 6)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 5, 8), (2, 3, 7, 8)]),
    ("ii->", [(4, 4)]),
    ("iij->ij", [(3, 3, 5)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("bik,bkj->b", [(2, 3, 4), (2, 4, 5)]),
    ("abc,cd,bd->ad", [(2, 3, 4), (4, 5), (3, 5)]),
    ("i...,i...->...", [(3, 2, 4), (3, 2, 4)]),
    ("jik,kj->ik", [(4, 3, 5), (5, 4)]),
    ("...,...->...", [(2, 3), (1, 3)]),
    ("...ij,jk,...kl->...il", [(3, 1, 2, 4), (4, 3), (2, 3, 5)]),
]

# input shape, weight shape, group, strides, pads, dilations, output_padding
CONV_TRANSPOSES = [
    ((2, 6, 5, 7), (6, 4, 3, 3), 2, [3, 2], [1, 2, 0, 1], [1, 2], [2, 1]),
    ((1, 4, 6, 5), (4, 2, 2, 3), 1, [2, 3], [0, 0, 0, 0], [2, 1], [1, 2]),
    ((1, 3, 4, 4), (3, 3, 4, 4), 3, [1, 1], [2, 1, 3, 0], [1, 1], [0, 0]),
    ((2, 2, 3, 5), (2, 5, 3, 2), 1, [4, 1], [3, 0, 2, 1], [3, 1], [3, 0]),
]


# shape, axis, exclusive, reverse
CUMSUMS = [((7,), 0, 0, 0), ((7,), 0, 1, 0), ((7,), 0, 0, 1), ((7,), 0, 1, 1),
           ((3, 5), 0, 0, 0), ((3, 5), -1, 1, 0), ((2, 4, 3), 1, 0, 1),
           ((2, 4, 3), -2, 1, 1), ((1, 6), 1, 0, 0)]


# shape, axis, k, largest, opset
TOPKS = [((7,), 0, 3, 1, 11), ((7,), 0, 7, 0, 11), ((3, 9), 1, 4, 1, 1),
         ((3, 9), -2, 2, 1, 10), ((2, 5, 6), 1, 5, 0, 11), ((2, 5, 6), -1, 1, 0, 11),
         ((4, 1, 33), 2, 6, 1, 11)]


def topk(x, axis, k, largest):
    """TopK by a stable sort: largest (or smallest) first, NaN above every
    number, equal values in index order."""
    moved = np.moveaxis(x, axis, -1)
    nan = np.isnan(moved) if moved.dtype.kind == "f" else np.zeros(moved.shape, bool)
    value = np.where(nan, 0, moved).astype(np.float64)
    # lexsort sorts by its last key first; argsort ties keep index order.
    keys = (-value, ~nan) if largest else (value, nan)
    order = np.lexsort(keys, axis=-1)[..., :k]
    values = np.take_along_axis(moved, order, -1)
    return np.moveaxis(values, -1, axis), np.moveaxis(order, -1, axis)


# indices shape, axis, depth, opset
ONEHOTS = [((5,), -1, 4, 11), ((2, 3), 0, 5, 11), ((2, 3), 1, 3, 9), ((3, 1, 2), -2, 6, 11)]


def one_hot(idx, depth, axis, off, on, opset):
    """OneHot by its definition: since opset 11 negative indices count from
    the end; ones outside [-depth, depth) (before 11: [0, depth)) and
    non-integral ones match nothing."""
    axis = axis + idx.ndim + 1 if axis < 0 else axis
    adjusted = np.where(idx < 0, idx + depth, idx) if opset >= 11 else idx
    adjusted = np.expand_dims(adjusted, axis)
    shape = [1] * (idx.ndim + 1)
    shape[axis] = depth
    return np.where(adjusted == np.arange(depth).reshape(shape), on, off)


def cumsum(x, axis, exclusive, reverse):
    """CumSum by its definition, summed sequentially in float64."""
    x = np.flip(x, axis) if reverse else x
    y = np.cumsum(x.astype(np.float64), axis=axis)
    if exclusive:
        y = y - x
    return np.flip(y, axis) if reverse else y


def conv_transpose(x, w, b, group, strides, pads, dilations, output_padding):
    """ConvTranspose by its definition: each input pixel scatters the window."""
    n, c, h, wd = x.shape
    _, mg, kh, kw = w.shape
    cg = c // group
    oh = strides[0] * (h - 1) + output_padding[0] + (kh - 1) * dilations[0] + 1 - pads[0] - pads[2]
    ow = strides[1] * (wd - 1) + output_padding[1] + (kw - 1) * dilations[1] + 1 - pads[1] - pads[3]
    y = np.zeros((n, group * mg, oh, ow))
    for g in range(group):
        for i in range(h):
            for j in range(wd):
                for a in range(kh):
                    for bb in range(kw):
                        r = i * strides[0] + a * dilations[0] - pads[0]
                        s = j * strides[1] + bb * dilations[1] - pads[1]
                        if 0 <= r < oh and 0 <= s < ow:
                            y[:, g * mg:(g + 1) * mg, r, s] += np.einsum(
                                "nc,cm->nm", x[:, g * cg:(g + 1) * cg, i, j],
                                w[g * cg:(g + 1) * cg, :, a, bb])
    return y + b.reshape(1, -1, 1, 1)


def generated(tmp):
    """(name, model path, inputs, expected outputs) of the generated cases."""
    rng = np.random.default_rng(0)
    onnx_types = {np.float64: TensorProto.DOUBLE, np.float32: TensorProto.FLOAT,
                  np.int64: TensorProto.INT64}

    def save_graph(name, graph, opset):
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
        model.ir_version = 8
        path = os.path.join(tmp, name + ".onnx")
        onnx.save(model, path)
        return path

    def save(name, node, inputs, opset, initializers=()):
        graph = helper.make_graph(
            [node], name,
            [helper.make_tensor_value_info(f"x{i}", onnx_types[a.dtype.type], a.shape)
             for i, a in enumerate(inputs)],
            [helper.make_tensor_value_info("y", onnx_types[inputs[0].dtype.type], None)],
            list(initializers))
        return save_graph(name, graph, opset)

    for dtype in (np.float64, np.float32, np.int64):
        for k, (equation, shapes) in enumerate(EINSUMS):
            inputs = [(rng.standard_normal(s) * 3).astype(dtype) for s in shapes]
            node = helper.make_node("Einsum", [f"x{i}" for i in range(len(shapes))], ["y"],
                                    equation=equation)
            name = f"einsum_{k}_{dtype.__name__}"
            ref = np.einsum(equation, *[a.astype(np.float64) for a in inputs])
            yield (f"{name} {equation}", save(name, node, inputs, 12), inputs,
                   [ref.astype(dtype).astype(np.float64)])
    for k, (xs, ws, group, strides, pads, dilations, output_padding) in enumerate(
            CONV_TRANSPOSES):
        x, w = rng.standard_normal(xs), rng.standard_normal(ws)
        b = rng.standard_normal(ws[1] * group)
        node = helper.make_node("ConvTranspose", ["x0", "x1", "x2"], ["y"], group=group,
                                strides=strides, pads=pads, dilations=dilations,
                                output_padding=output_padding)
        name = f"convtranspose_{k}"
        yield (name, save(name, node, [x, w, b], 11), [x, w, b],
               [conv_transpose(x, w, b, group, strides, pads, dilations, output_padding)])
    for dtype in (np.float64, np.float32, np.int64):
        for c, (shape, axis, k, largest, opset) in enumerate(TOPKS):
            # Few distinct values, so ties are common; floats get NaNs too.
            x = rng.integers(-3, 4, shape).astype(dtype)
            if dtype != np.int64:
                x = x / 2
                x.flat[rng.choice(x.size, max(1, x.size // 8), replace=False)] = np.nan
            ins = ["x0"] + (["k"] if opset >= 10 else [])
            attrs = {"axis": axis} | ({"k": k} if opset < 10 else {}) | (
                {"largest": largest} if opset >= 11 else {})
            node = helper.make_node("TopK", ins, ["v", "i"], **attrs)
            out_shape = list(shape)
            out_shape[axis] = k
            graph = helper.make_graph(
                [node], "topk",
                [helper.make_tensor_value_info("x0", onnx_types[dtype], shape)],
                [helper.make_tensor_value_info("v", onnx_types[dtype], out_shape),
                 helper.make_tensor_value_info("i", TensorProto.INT64, out_shape)],
                [numpy_helper.from_array(np.array([k], np.int64), "k")] if opset >= 10 else [])
            name = f"topk_{c}_{dtype.__name__}"
            yield (f"{name} {shape} axis {axis} k {k} largest {largest} opset {opset}",
                   save_graph(name, graph, opset), [x], list(topk(x, axis, k, largest)))
    for dtype in (np.float32, np.int64):
        for c, (shape, axis, depth, opset) in enumerate(ONEHOTS):
            idx = rng.integers(-depth - 2, depth + 2, shape).astype(dtype)
            if dtype == np.float32:
                idx.flat[0] += 0.5  # matches nothing
            values = np.array([-2.5, 7.0], np.float32)
            node = helper.make_node("OneHot", ["x0", "depth", "x1"], ["y"], axis=axis)
            out_shape = list(shape)
            out_shape.insert(axis + len(shape) + 1 if axis < 0 else axis, depth)
            graph = helper.make_graph(
                [node], "onehot",
                [helper.make_tensor_value_info("x0", onnx_types[dtype], shape),
                 helper.make_tensor_value_info("x1", TensorProto.FLOAT, [2])],
                [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)],
                [numpy_helper.from_array(np.array(depth, np.int64), "depth")])
            name = f"onehot_{c}_{dtype.__name__}"
            yield (f"{name} {shape} axis {axis} depth {depth} opset {opset}",
                   save_graph(name, graph, opset), [idx, values],
                   [one_hot(idx, depth, axis, -2.5, 7.0, opset)])
    for dtype in (np.float64, np.float32, np.int64):
        for k, (shape, axis, exclusive, reverse) in enumerate(CUMSUMS):
            x = (rng.standard_normal(shape) * 3).astype(dtype)
            node = helper.make_node("CumSum", ["x0", "axis"], ["y"], exclusive=exclusive,
                                    reverse=reverse)
            axis_init = numpy_helper.from_array(np.array(axis, np.int64), "axis")
            name = f"cumsum_{k}_{dtype.__name__}"
            yield (f"{name} {shape} axis {axis} exclusive {exclusive} reverse {reverse}",
                   save(name, node, [x], 14, [axis_init]), [x],
                   [cumsum(x, axis, exclusive, reverse).astype(dtype).astype(np.float64)])


def bind_scalar_inputs(model_path, inputs, tmp):
    """The model with its one-element inputs after the first made
    initializers holding `inputs`' values (brrr binds shapes at compile
    time, and such inputs set them: TopK's K, OneHot's depth), and the
    inputs left."""
    model = onnx.load(model_path)
    g = model.graph
    kept, left = [], [inputs[0]]
    for i, (vi, value) in enumerate(zip(list(g.input), inputs)):
        if i > 0 and value.size == 1:
            g.initializer.append(numpy_helper.from_array(value, vi.name))
        else:
            kept.append(vi)
            if i > 0:
                left.append(value)
    del g.input[:]
    g.input.extend(kept)
    path = os.path.join(tmp, os.path.basename(os.path.dirname(model_path)) + ".onnx")
    onnx.save(model, path)
    return path, left


def main():
    p = argparse.ArgumentParser()
    p.add_argument("brrrc")
    p.add_argument("data")
    p.add_argument("--backend", nargs="*", default=[])
    p.add_argument("--backend-bound", nargs="*", default=[],
                   help="backend tests whose one-element inputs after the first are bound as "
                        "constants")
    p.add_argument("--generated", action="store_true")
    args = p.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.backend + args.backend_bound:
            d = os.path.join(args.data, "node", name)
            for ds in sorted(glob.glob(os.path.join(d, "test_data_set_*"))):
                load = lambda kind: [numpy_helper.to_array(onnx.load_tensor(f)) for f in
                                     sorted(glob.glob(os.path.join(ds, kind + "_*.pb")))]
                path, inputs = os.path.join(d, "model.onnx"), load("input")
                if name in args.backend_bound:
                    path, inputs = bind_scalar_inputs(path, inputs, tmp)
                ok &= check(args.brrrc, name, path, inputs, load("output"))
    if args.generated:
        with tempfile.TemporaryDirectory() as tmp:
            for name, path, inputs, expected in generated(tmp):
                ok &= check(args.brrrc, name, path, inputs, expected)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
