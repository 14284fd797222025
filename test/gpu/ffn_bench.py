#!/usr/bin/env python3
"""A transformer's feed-forward block, kernel by kernel, across precisions,
activations and schedules: where an epilogue's cost shows.

Runs on the GPU machine (torch, onnx, the relocatable bundle). Writes
x[M, 768] @ W1[768, 3072] + b1 -> activation -> @ W2[3072, 768] + b2 in
f16 (random weights, seed 0; activation GELU, ReLU or none), compiles it
with the bundle's brrrc for each precision (fp16; fp8 and int8 from a
fixed calibration cache: fc1's input ranges to 4, fc2's to 3) and each
schedule flag, all in parallel, then times each build launch by launch
(median of 21 runs, Context.profile) and prints every product kernel's
time and TFLOP/s, and the whole block's time replayed back to back in a
CUDA graph (the peer's measure), with its relative error against the
block computed in f32 from the same weights. The up-projection (fc1,
K = 768) is the kernel whose epilogue (scales, bias, activation, the
quantize for fc2) weighs most against its products. The peer, timed first in the same run: cuBLAS's
fc1 and fc2 (bias in their epilogue), torch's GELU kernel, and the GELU
block under torch.compile.

    ffn_bench.py BUNDLE WORKDIR [--rows 16384] [--precisions fp16,fp8,int8]
                 [--activations gelu,relu,none] [--schedules default,...]
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

SCHEDULES = {
    "default": [],
    "persistent": ["--persistent"],
    "pingpong": ["--pingpong"],
    "overlap": ["--overlap-epilogue"],
    "overlap-nomulticast": ["--overlap-epilogue", "--multicast=never"],
    "drain": ["--overlap-epilogue", "--drain-warpgroup"],
    "fast": ["--fp8-fast-accumulation"],
    "fast-pingpong": ["--fp8-fast-accumulation", "--pingpong"],
    "tile128x128": ["--matmul-tile=128x128x4"],
    "overlap192": ["--overlap-epilogue", "--matmul-tile=128x192x4"],
    "tile192": ["--matmul-tile=128x192x4"],
    "nomulticast": ["--multicast=never"],
    "pingpong-nomulticast": ["--pingpong", "--multicast=never"],
}
K, N = 768, 3072


def write_model(path, rows, activation):
    rng = np.random.default_rng(0)

    def tensor(name, *shape, scale):
        return numpy_helper.from_array(
            (rng.standard_normal(shape) * scale).astype(np.float16), name)

    inits = [tensor("W1", K, N, scale=0.03), tensor("b1", N, scale=0.1),
             tensor("W2", N, K, scale=0.03), tensor("b2", K, scale=0.1)]
    node = helper.make_node
    nodes = [node("MatMul", ["x", "W1"], ["m1"], name="fc1"),
             node("Add", ["m1", "b1"], ["a1"])]
    op = {"gelu": "Gelu", "relu": "Relu", "none": "Identity"}[activation]
    nodes += [node(op, ["a1"], ["g"]),
              node("MatMul", ["g", "W2"], ["m2"], name="fc2"),
              node("Add", ["m2", "b2"], ["y"])]
    graph = helper.make_graph(
        nodes, "ffn", [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [rows, K])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [rows, K])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)]), path)


def peer(x, float8=False):
    """The peer in the same run: cuBLAS's fc1 (bias in its epilogue), torch's
    GELU after it, and cuBLAS's fc2, each timed alone (median of CUDA-graph
    replays); then the whole GELU block under torch.compile; with `float8`,
    cuBLAS's FP8 fc1 and fc2 too (torch._scaled_mm)."""
    from bench import graph_ms
    rows = x.shape[0]
    w1 = torch.randn(N, K, dtype=x.dtype, device=x.device) * 0.03
    w2 = torch.randn(K, N, dtype=x.dtype, device=x.device) * 0.03
    b1 = torch.randn(N, dtype=x.dtype, device=x.device) * 0.1
    b2 = torch.randn(K, dtype=x.dtype, device=x.device) * 0.1
    h = torch.nn.functional.linear(x, w1, b1)
    flops = 2 * rows * K * N
    fc1 = graph_ms(lambda: torch.nn.functional.linear(x, w1, b1))
    gelu = graph_ms(lambda: torch.nn.functional.gelu(h))
    fc2 = graph_ms(lambda: torch.nn.functional.linear(h, w2, b2))
    block = torch.compile(lambda t: torch.nn.functional.linear(
        torch.nn.functional.gelu(torch.nn.functional.linear(t, w1, b1)), w2, b2))
    block(x)
    whole = graph_ms(lambda: block(x))
    print(f"peer  cuBLAS fc1 + bias {fc1 * 1e3:7.1f} us {flops / fc1 / 1e9:6.0f} TF"
          f"  GELU {gelu * 1e3:6.1f} us"
          f"  fc2 + bias {fc2 * 1e3:7.1f} us {flops / fc2 / 1e9:6.0f} TF"
          f"  torch.compile block {whole * 1e3:7.1f} us", flush=True)
    if not float8:
        return
    try:
        print(float8_peer(x, h, w1, w2, b1, b2), flush=True)
    except RuntimeError as err:  # a torch whose FP8 GEMM refuses these
        print(f"peer  cuBLAS FP8 not run: {str(err).splitlines()[0][:120]}", flush=True)


def float8_peer(x, h, w1, w2, b1, b2):
    """cuBLAS's FP8 fc1 and fc2 (torch._scaled_mm: E4M3 operands, one
    scale each, the bias in its epilogue where torch takes one, f16 out),
    with promoted sums and with fast accumulation: one line."""
    from bench import graph_ms
    flops = 2 * x.shape[0] * K * N
    f8 = torch.float8_e4m3fn
    one = torch.ones((), device=x.device)
    xq, hq = x.to(f8), h.clamp(-448, 448).to(f8)
    w1q, w2q = w1.to(f8), w2.to(f8)
    line = "peer  cuBLAS FP8"
    try:
        torch._scaled_mm(xq, w1q.t(), one, one, bias=b1, out_dtype=x.dtype)
    except RuntimeError as err:  # a torch without a bias for FP8
        line += f" (no bias: {str(err).splitlines()[0][:60]})"
        b1 = b2 = None
    for fast in (False, True):
        def mm(a, w, bias):
            return torch._scaled_mm(a, w.t(), one, one, bias=bias,
                                    out_dtype=x.dtype, use_fast_accum=fast)
        mm(xq, w1q, b1)
        t1 = graph_ms(lambda: mm(xq, w1q, b1))
        t2 = graph_ms(lambda: mm(hq, w2q, b2))
        line += (f"  {'fast' if fast else 'promoted'}: fc1 + bias {t1 * 1e3:7.1f} us"
                 f" {flops / t1 / 1e9:6.0f} TF, fc2 + bias {t2 * 1e3:7.1f} us"
                 f" {flops / t2 / 1e9:6.0f} TF")
    return line


def reference(model, x):
    """The block in f32 from the model's own f16 weights."""
    graph = onnx.load(model).graph
    w = {t.name: torch.from_numpy(numpy_helper.to_array(t).astype(np.float32)).cuda()
         for t in graph.initializer}
    op = graph.node[2].op_type
    h = x.float() @ w["W1"] + w["b1"]
    h = {"Gelu": torch.nn.functional.gelu, "Relu": torch.relu}.get(op, lambda t: t)(h)
    return h @ w["W2"] + w["b2"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle")
    ap.add_argument("dir")
    ap.add_argument("--rows", type=int, default=16384)
    ap.add_argument("--precisions", default="fp16,fp8,int8")
    ap.add_argument("--activations", default="gelu,relu,none")
    ap.add_argument("--schedules", default="default,persistent,pingpong")
    opts = ap.parse_args()
    sys.path.insert(0, os.path.join(opts.bundle, "python"))
    import brrr
    from bench import graph_ms, launch_ms

    os.makedirs(opts.dir, exist_ok=True)
    cache = os.path.join(opts.dir, "ffn.calibration")
    with open(cache, "w") as f:
        f.write("brrr calibration 1\nmethod max\nsamples 1\n4 fc1\n3 fc2\n")
    jobs = []
    for act in opts.activations.split(","):
        model = os.path.join(opts.dir, f"ffn_{act}.onnx")
        write_model(model, opts.rows, act)
        for prec in opts.precisions.split(","):
            for sched in opts.schedules.split(","):
                so = os.path.join(opts.dir, f"{act}.{prec}.{sched}.so")
                cmd = [os.path.join(opts.bundle, "bin", "brrrc"), model, "-o", so,
                       f"--precision={prec}"] + SCHEDULES[sched]
                if prec in ("fp8", "int8"):
                    cmd += ["--calibration-cache", cache]
                jobs.append((act, prec, sched, so, cmd))

    def compile_one(job):
        r = subprocess.run(job[4], capture_output=True, text=True)
        return r.returncode, r.stderr.strip().splitlines()[-1:] if r.returncode else []

    with ThreadPoolExecutor(os.cpu_count() or 4) as pool:
        results = list(pool.map(compile_one, jobs))
    print(f"device: {torch.cuda.get_device_name()}  rows {opts.rows}  "
          f"fc1 {2 * opts.rows * K * N / 1e9:.1f} GFLOP", flush=True)
    x = torch.randn(opts.rows, K, dtype=torch.float16, device="cuda")
    y = torch.empty(opts.rows, K, dtype=torch.float16, device="cuda")
    peer(x, float8="fp8" in opts.precisions.split(","))
    failures = 0
    refs = {}
    for (act, prec, sched, so, _), (rc, err) in zip(jobs, results):
        label = f"{act:5s} {prec:5s} {sched:14s}"
        if rc:
            # A flag a precision does not take is refused with a message.
            print(f"{label} not compiled: {' '.join(err)}", flush=True)
            failures += 1
            continue
        ctx = brrr.load(so).context()
        y.fill_(float("nan"))
        ctx.run(x, outputs=[y])
        torch.cuda.synchronize()
        if act not in refs:
            refs[act] = reference(os.path.join(opts.dir, f"ffn_{act}.onnx"), x)
        ref = refs[act]
        err = ((y.float() - ref).norm() / ref.norm()).item()
        label += f" err {err:8.2e}"
        products = [(info, ms) for info, ms in launch_ms(ctx, x, outputs=[y], runs=21)
                    if info.flops > 100 * x.numel()]
        # The whole block back to back in a CUDA graph, as the peer's.
        label += f" block {graph_ms(lambda: ctx.run(x, outputs=[y])) * 1e3:7.1f} us"
        print(label + "  ".join(f"  {info.kernel} {ms * 1e3:7.1f} us {info.flops / ms / 1e9:6.0f} TF"
                                for info, ms in products), flush=True)
    return 1 if failures == len(jobs) else 0


if __name__ == "__main__":
    sys.exit(main())
