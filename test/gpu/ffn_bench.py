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
time and TFLOP/s. The up-projection (fc1, K = 768) is the kernel whose
epilogue (scales, bias, activation, the quantize for fc2) weighs most
against its products.

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
    "fast": ["--fp8-fast-accumulation"],
    "fast-pingpong": ["--fp8-fast-accumulation", "--pingpong"],
    "tile128x128": ["--matmul-tile=128x128x4"],
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
    from bench import launch_ms

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
    failures = 0
    for (act, prec, sched, so, _), (rc, err) in zip(jobs, results):
        label = f"{act:5s} {prec:5s} {sched:14s}"
        if rc:
            # A flag a precision does not take is refused with a message.
            print(f"{label} not compiled: {' '.join(err)}", flush=True)
            failures += 1
            continue
        ctx = brrr.load(so).context()
        ctx.run(x, outputs=[y])
        torch.cuda.synchronize()
        products = [(info, ms) for info, ms in launch_ms(ctx, x, outputs=[y], runs=21)
                    if info.flops > 100 * x.numel()]
        print(label + "  ".join(f"  {info.kernel} {ms * 1e3:7.1f} us {info.flops / ms / 1e9:6.0f} TF"
                                for info, ms in products), flush=True)
    return 1 if failures == len(jobs) else 0


if __name__ == "__main__":
    sys.exit(main())
