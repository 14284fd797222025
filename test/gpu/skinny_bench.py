#!/usr/bin/env python3
"""Products of few rows against cuBLAS: a decoder's projections at 1 to 128 tokens.

Runs on the GPU machine (torch, onnx, the relocatable bundle). A product of
few rows reads its whole weight for little arithmetic: its floor is the
weight's bytes at the memory's rate. Each case is a chain of products of
f16 constant weights (random, seed 0) whose weights together exceed the
L2 cache, so that every product reads its weight from memory as it would
in a model:
- square: 8 x (2048 -> 2048), a Llama-style decoder's query and output;
- mlp:    3 x (2048 -> 5632 -> 2048), its feed-forward;
- bert:   8 x (768 -> 3072 -> 768), BERT's and GPT-2's.
Each chain is exported once with its rows symbolic and compiled at each row
count (`--input-shape x=MxK`, a static compile) three ways: with
`--few-rows-mma=never` (the wgmma body's 128-row tiles past 4 rows),
`--few-rows-mma=always` (products of 5 to 64 rows on the few-rows body on
Tensor Cores), by default (`auto`: that body up to 32 rows) and by
default with `--prefetch-weights` (each product launched early, its first
weights loaded before it waits for the one ahead); and once
for the range (`x=1..MAXxK`, by default), all in parallel. At each row
count: checks every library's output (poisoned with NaN first) against
the chain in float32 from the same weights, and times them and cuBLAS
(torch's F.linear over the weights stored [N, K], as nn.Linear stores
them) as 20 chains back to back in one CUDA graph (median replay; no host
overhead on either side). Prints the time per product of each, the weight
bytes a microsecond (GB/s) that the default and cuBLAS reach, and the
ratios.

    skinny_bench.py BRRRC WORKDIR [--rows 1,4,5,8,13,16,24,32,48,64,128]
                    [--only square,mlp,bert] [--max-rows 256]
"""

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import brrr  # noqa: E402
from bench import graph_ms  # noqa: E402

# name: the widths of the chain, input first.
CHAINS = {
    "square": [2048] * 9,
    "mlp": [2048, 5632] * 3 + [2048],
    "bert": [768, 3072] * 8 + [768],
}


def weights_of(widths):
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float16)
            for k, n in zip(widths, widths[1:])]


def write_chain(path, widths, weights):
    nodes, inits = [], []
    cur = "x"
    for i, w in enumerate(weights):
        inits.append(numpy_helper.from_array(w, f"w{i}"))
        out = "y" if i == len(weights) - 1 else f"h{i}"
        nodes.append(helper.make_node("MatMul", [cur, f"w{i}"], [out]))
        cur = out
    g = helper.make_graph(
        nodes, "chain",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT16, ["M", widths[0]])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, ["M", widths[-1]])],
        inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)


def compile_so(brrrc, onnx_path, so, shape, flags):
    out = subprocess.run([brrrc, onnx_path, "-o", so, "--input-shape", shape, *flags],
                         capture_output=True, text=True)
    if out.returncode:
        return (out.stdout + out.stderr).strip().splitlines()[-1]
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("brrrc")
    p.add_argument("work")
    p.add_argument("--rows", default="1,4,5,8,13,16,24,32,48,64,128")
    p.add_argument("--only", default=",".join(CHAINS))
    p.add_argument("--max-rows", type=int, default=256)
    opts = p.parse_args()
    os.makedirs(opts.work, exist_ok=True)
    rows = [int(r) for r in opts.rows.split(",")]
    names = opts.only.split(",")
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}",
          flush=True)
    builds = {"never": ["--few-rows-mma=never"], "always": ["--few-rows-mma=always"],
              "default": [], "prefetch": ["--prefetch-weights"]}
    jobs, weights = {}, {}
    for name in names:
        widths = CHAINS[name]
        weights[name] = weights_of(widths)
        path = os.path.join(opts.work, f"{name}.onnx")
        write_chain(path, widths, weights[name])
        for m in rows:
            for build, flags in builds.items():
                jobs[(name, m, build)] = (
                    path, os.path.join(opts.work, f"{name}.{m}.{build}.so"),
                    f"x={m}x{widths[0]}", flags)
        jobs[(name, "dyn", "default")] = (
            path, os.path.join(opts.work, f"{name}.dyn.so"),
            f"x=1..{opts.max_rows}x{widths[0]}", builds["default"])
    with ThreadPoolExecutor(min(len(jobs), 16)) as pool:
        errs = dict(zip(jobs, pool.map(
            lambda k: compile_so(opts.brrrc, *jobs[k]), jobs)))
    failures = 0
    for k, err in errs.items():
        if err:
            print(f"{k}: COMPILE FAILED {err}", flush=True)
            failures += 1
    print("us per product; GB/s of weights; ratios of times", flush=True)
    print(f"{'chain':7s} {'rows':>5s} {'never':>8s} {'always':>8s} {'default':>8s} "
          f"{'prefetch':>8s} {'dyn':>8s} {'cuBLAS':>8s} {'def GB/s':>9s} "
          f"{'cuBLAS GB/s':>11s} {'alw/never':>9s} {'pf/def':>7s} {'def/cuBLAS':>10s} "
          f"{'dyn/def':>8s} {'max err':>8s}", flush=True)
    for name in names:
        widths = CHAINS[name]
        ws = [torch.from_numpy(w).cuda() for w in weights[name]]
        wts = [w.t().contiguous() for w in ws]  # [N, K], as nn.Linear
        gbs = sum(w.numel() * 2 for w in ws) / len(ws) / 1e3
        dyn = (None if errs[(name, "dyn", "default")]
               else brrr.load(jobs[(name, "dyn", "default")][1]))
        for m in rows:
            torch.manual_seed(m)
            x = torch.randn(m, widths[0], device="cuda", dtype=torch.float16)
            ref = x.float()
            for w in ws:
                ref = ref @ w.float()

            def peer():
                h = x
                for w in wts:
                    h = torch.nn.functional.linear(h, w)
                return h
            t_peer = graph_ms(peer) * 1e3 / len(ws)
            libs = {b: None if errs[(name, m, b)] else brrr.load(jobs[(name, m, b)][1])
                    for b in builds}
            libs["dyn"] = dyn
            us, worst = {}, 0.0
            for kind, lib in libs.items():
                if lib is None:
                    us[kind] = float("nan")
                    continue
                ctx = lib.context()
                y = torch.full((m, widths[-1]), float("nan"), device="cuda",
                               dtype=torch.float16)
                ctx.run(x, outputs=[y])
                torch.cuda.synchronize()
                e = ((y.float() - ref).norm() / ref.norm()).item()
                if not e < 1e-2:
                    print(f"{name} {m} {kind}: MISMATCH {e:.2e}", flush=True)
                    failures += 1
                worst = max(worst, e) if e == e else float("nan")
                us[kind] = graph_ms(lambda: ctx.run(x, outputs=[y])) * 1e3 / len(ws)
            print(f"{name:7s} {m:5d} {us['never']:8.2f} {us['always']:8.2f} "
                  f"{us['default']:8.2f} {us['prefetch']:8.2f} {us['dyn']:8.2f} "
                  f"{t_peer:8.2f} {gbs / us['default']:9.0f} {gbs / t_peer:11.0f} "
                  f"{us['always'] / us['never']:9.2f} "
                  f"{us['prefetch'] / us['default']:7.2f} {us['default'] / t_peer:10.2f} "
                  f"{us['dyn'] / us['default']:8.2f} {worst:8.1e}", flush=True)
    return failures


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
