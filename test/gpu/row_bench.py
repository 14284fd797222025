#!/usr/bin/env python3
"""Row kernels of transformer widths against the copy rate, across builds.

Runs on the GPU machine (torch, onnx, the relocatable bundle). Writes
layer norms (with scale and bias, alone, followed by an erf GELU, after a
residual add or before one), softmaxes and RMS-style normalizations over
R x C rows of the widths transformers have (192 to 4096 columns, f16 and
f32), compiles each with
every BRRRC given, checks each build's output against a float64 torch
reference on fresh inputs (outputs poisoned with NaN first), and times
each (CUDA events, CUDA graph of 20 calls, median of do_bench) against
torch eager and a device-to-device copy of the same bytes (read once,
written once; for a post-norm residual, an add of the two inputs). Rounds alternate between the builds.

    row_bench.py build WORKDIR NAME=BRRRC [NAME=BRRRC ...] [--rows R,...]
    row_bench.py run WORKDIR NAME [NAME ...] [--rows R,...]

`build` needs only onnx and numpy (a build machine can compile the
libraries of brrrc builds that do not travel); `run` needs the GPU.
"""

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# (kind, columns, dtype)
CASES = [
    ("layernorm", 768, "f16"), ("layernorm", 1024, "f16"),
    ("layernorm", 512, "f16"), ("layernorm", 2048, "f16"),
    ("layernorm", 4096, "f16"), ("layernorm", 768, "f32"),
    ("layernorm_gelu", 1024, "f16"), ("add_layernorm", 768, "f16"),
    ("add_layernorm", 192, "f16"), ("add_layernorm", 384, "f16"),
    ("add_layernorm", 512, "f16"),
    ("layernorm_add", 192, "f16"), ("layernorm_add", 384, "f16"),
    ("layernorm_add", 768, "f16"),
    ("softmax", 1024, "f16"),
    ("softmax", 768, "f16"), ("softmax", 384, "f16"),
]
ONNX_TYPE = {"f16": TensorProto.FLOAT16, "f32": TensorProto.FLOAT}


def write_model(path, kind, rows, cols, dtype):
    t = ONNX_TYPE[dtype]
    npt = np.float16 if dtype == "f16" else np.float32
    rng = np.random.default_rng(0)
    inits, nodes = [], []
    x = helper.make_tensor_value_info("x", t, [rows, cols])
    y = helper.make_tensor_value_info("y", t, [rows, cols])
    ins, outs = [x], [y]
    if kind == "add_layernorm":
        # A residual stream: s = x + r kept, and its layer norm.
        ins.append(helper.make_tensor_value_info("r", t, [rows, cols]))
        outs.append(helper.make_tensor_value_info("s", t, [rows, cols]))
        inits = [numpy_helper.from_array((1 + 0.1 * rng.standard_normal(cols)).astype(npt), "g"),
                 numpy_helper.from_array((0.1 * rng.standard_normal(cols)).astype(npt), "b")]
        nodes = [helper.make_node("Add", ["x", "r"], ["s"]),
                 helper.make_node("LayerNormalization", ["s", "g", "b"], ["y"],
                                  axis=-1, epsilon=1e-5)]
    elif kind == "layernorm_add":
        # A post-norm residual (Swin V2's): y = r + layer_norm(x).
        ins.append(helper.make_tensor_value_info("r", t, [rows, cols]))
        inits = [numpy_helper.from_array((1 + 0.1 * rng.standard_normal(cols)).astype(npt), "g"),
                 numpy_helper.from_array((0.1 * rng.standard_normal(cols)).astype(npt), "b")]
        nodes = [helper.make_node("LayerNormalization", ["x", "g", "b"], ["ln"],
                                  axis=-1, epsilon=1e-5),
                 helper.make_node("Add", ["r", "ln"], ["y"])]
    elif kind.startswith("layernorm"):
        inits = [numpy_helper.from_array((1 + 0.1 * rng.standard_normal(cols)).astype(npt), "g"),
                 numpy_helper.from_array((0.1 * rng.standard_normal(cols)).astype(npt), "b")]
        out = "ln" if kind == "layernorm_gelu" else "y"
        nodes.append(helper.make_node("LayerNormalization", ["x", "g", "b"], [out],
                                      axis=-1, epsilon=1e-5))
        if kind == "layernorm_gelu":
            nodes.append(helper.make_node("Gelu", ["ln"], ["y"]))
    elif kind == "softmax":
        nodes.append(helper.make_node("Softmax", ["x"], ["y"], axis=-1))
    graph = helper.make_graph(nodes, kind, ins, outs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    onnx.save(model, path)
    return [numpy_helper.to_array(i) for i in inits]


def reference(kind, x, params, r=None):
    import torch
    xd = x.double()
    if kind == "add_layernorm":
        xd = xd + r.double()
    if "layernorm" in kind:
        g, b = (torch.from_numpy(p.astype(np.float64)).cuda() for p in params)
        y = torch.nn.functional.layer_norm(xd, (x.shape[-1],), g, b, 1e-5)
        if kind == "layernorm_gelu":
            y = torch.nn.functional.gelu(y)
        if kind == "layernorm_add":
            y = y + r.double()
        return y
    return torch.softmax(xd, -1)


def torch_fn(kind, x, params, y, r=None):
    import torch
    dt = x.dtype
    if kind == "add_layernorm":
        g, b = (torch.from_numpy(p).cuda().to(dt) for p in params)
        return lambda: torch.nn.functional.layer_norm(x + r, (x.shape[-1],), g, b, 1e-5)
    if kind == "layernorm_add":
        g, b = (torch.from_numpy(p).cuda().to(dt) for p in params)
        return lambda: torch.add(
            r, torch.nn.functional.layer_norm(x, (x.shape[-1],), g, b, 1e-5), out=y)
    if kind.startswith("layernorm"):
        g, b = (torch.from_numpy(p).cuda().to(dt) for p in params)
        if kind == "layernorm_gelu":
            return lambda: y.copy_(torch.nn.functional.gelu(
                torch.nn.functional.layer_norm(x, (x.shape[-1],), g, b, 1e-5)))
        return lambda: torch.nn.functional.layer_norm(x, (x.shape[-1],), g, b, 1e-5)
    return lambda: torch.softmax(x, -1)


def cases_of(opts):
    return [(k, c, d, r) for (k, c, d) in CASES
            for r in map(int, opts.rows.split(","))
            if not opts.only or k in opts.only.split(",")]


def stem_of(work, case):
    k, c, d, r = case
    return f"{work}/{k}_{r}x{c}_{d}"


def cmd_build(opts):
    builds = [b.split("=", 1) for b in opts.builds]
    os.makedirs(opts.work, exist_ok=True)
    jobs = []
    for case in cases_of(opts):
        stem = stem_of(opts.work, case)
        k, c, d, r = case
        write_model(stem + ".onnx", k, r, c, d)
        for name, brrrc in builds:
            jobs.append([brrrc, stem + ".onnx", "-o", f"{stem}_{name}.so"])
    failed = 0
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for cmd, res in zip(jobs, pool.map(
                lambda c: subprocess.run(c, capture_output=True, text=True), jobs)):
            if res.returncode:
                failed += 1
                print("COMPILE FAILED", " ".join(cmd), res.stderr[-400:])
    print(f"{len(jobs) - failed} of {len(jobs)} compiled")
    sys.exit(1 if failed else 0)


def cmd_run(opts):
    import torch

    import brrr
    from bench import graph_ms
    torch_type = {"f16": torch.float16, "f32": torch.float32}
    names = opts.builds
    print(f"device: {torch.cuda.get_device_name()}")
    head = f"{'case':28s} {'copy us':>8s} {'torch us':>8s}"
    for name in names:
        head += f" {name + ' us':>10s} {'%copy':>6s} {'err':>8s}"
    print(head, flush=True)
    failures = 0
    for case in cases_of(opts):
        k, c, d, r = case
        stem = stem_of(opts.work, case)
        params = write_model(stem + ".onnx", k, r, c, d)
        x = torch.randn(r, c, device="cuda", dtype=torch_type[d]) * 2
        res = torch.randn_like(x) if k in ("add_layernorm", "layernorm_add") else None
        ref = reference(k, x, params, res)
        y = torch.empty_like(x)
        src = torch.empty_like(x)
        # A residual case reads two tensors and writes two (a pre-norm
        # stream) or one (post-norm): its copy reference moves the same
        # bytes.
        ins = [x, res] if res is not None else [x]
        outs = [y, torch.empty_like(x)] if k == "add_layernorm" else [y]
        if k == "add_layernorm":
            copy = lambda: (y.copy_(src), outs[1].copy_(res))
        elif k == "layernorm_add":
            copy = lambda: torch.add(src, res, out=y)
        else:
            copy = lambda: y.copy_(src)
        ctxs, errs = {}, {}
        for name in names:
            so = f"{stem}_{name}.so"
            if not os.path.exists(so):
                continue
            ctx = brrr.load(so).context()
            for o in outs:
                o.fill_(float("nan"))
            ctx.run(*ins, outputs=outs)
            torch.cuda.synchronize()
            err = ((y.double() - ref).norm() / ref.norm()).item()
            if not err <= (2e-3 if d == "f16" else 1e-5):
                failures += 1
            errs[name] = err
            ctxs[name] = ctx
        times = {n: [] for n in ctxs}
        copy_t, torch_t = [], []
        tf = torch_fn(k, x, params, y, res)
        for _ in range(opts.rounds):
            copy_t.append(graph_ms(copy))
            torch_t.append(graph_ms(tf))
            for n, ctx in ctxs.items():
                times[n].append(graph_ms(lambda: ctx.run(*ins, outputs=outs)))
        cp = float(np.median(copy_t)) * 1e3
        row = f"{k + f' {r}x{c} {d}':28s} {cp:8.2f} {np.median(torch_t) * 1e3:8.2f}"
        for name in names:
            if name not in times:
                row += f" {'-':>10s} {'':>6s} {'':>8s}"
                continue
            t = float(np.median(times[name])) * 1e3
            row += f" {t:10.2f} {100 * cp / t:5.0f}% {errs[name]:8.1e}"
        print(row, flush=True)
    print(f"{failures} outputs outside tolerance")
    sys.exit(1 if failures else 0)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("cmd", choices=["build", "run"])
    p.add_argument("work")
    p.add_argument("builds", nargs="+", help="build: NAME=BRRRC; run: NAME")
    p.add_argument("--rows", default="16384,3072")
    p.add_argument("--only")
    p.add_argument("--rounds", type=int, default=3)
    opts = p.parse_args()
    (cmd_build if opts.cmd == "build" else cmd_run)(opts)


if __name__ == "__main__":
    main()
