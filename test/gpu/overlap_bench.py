#!/usr/bin/env python3
"""Programmatic dependent launches against serial ones, in one run.

Each DIR holds the bench models built one way (build_bench.py, e.g. by
default: on sm_90a each kernel a programmatic dependent of the one before
it; or with --flag=--serial-launches), named by the directory's name.
Rounds alternate between the builds and cuBLAS, so that the card's drift
falls on all of them alike; each figure is the median over rounds of
do_bench medians.

- chain50 (50 dependent small kernels): GPU time of one brrr_run (the
  model's own CUDA graph, replayed back to back), and of one run inside a
  caller's CUDA graph of 20 runs (the kernels enqueued directly);
- every GEMM_SHAPES product, 20 calls in a CUDA graph against
  torch.matmul's, as bench.py times them.

Usage: overlap_bench.py [--rounds N] DIR...
"""

import argparse
import os
import statistics

import torch

import brrr
from bench import graph_ms, median_ms
from build_bench import GEMM_SHAPES


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("dirs", nargs="+")
    args = p.parse_args()
    dirs = {os.path.basename(os.path.normpath(d)): d for d in args.dirs}
    rounds = args.rounds
    first = next(iter(dirs))
    print("device:", torch.cuda.get_device_name())

    x = torch.randn(4, 256, device="cuda")
    y = {k: torch.full_like(x, float("nan")) for k in dirs}
    chains = {k: brrr.load(f"{d}/chain50.so").context() for k, d in dirs.items()}
    for k, c in chains.items():
        c.run(x, outputs=[y[k]])
    torch.cuda.synchronize()
    for k in dirs:
        assert torch.equal(y[k], y[first]), f"chain50 builds {k} and {first} differ"
    assert not y[first].isnan().any(), "chain50 left outputs unwritten"
    chain = {(k, how): [] for k in dirs for how in ("run", "graph")}
    for _ in range(rounds):
        for k, c in chains.items():
            chain[(k, "run")].append(median_ms(lambda: c.run(x, outputs=[y[k]])))
            chain[(k, "graph")].append(graph_ms(lambda: c.run(x, outputs=[y[k]])))

    gemm = []
    for t, m, nn, k in GEMM_SHAPES:
        dt = torch.float16 if t == "f16" else torch.bfloat16
        a = torch.randn(m, k, device="cuda", dtype=dt)
        b = torch.randn(k, nn, device="cuda", dtype=dt) / k ** 0.5
        ref = a.float() @ b.float()
        ctx, out, err = {}, {}, {}
        for key, d in dirs.items():
            ctx[key] = brrr.load(f"{d}/gemm_{t}_{m}x{nn}x{k}.so").context()
            out[key] = torch.full((m, nn), float("nan"), device="cuda", dtype=dt)
            ctx[key].run(a, b, outputs=[out[key]])
            torch.cuda.synchronize()
            err[key] = ((out[key].float() - ref).norm() / ref.norm()).item()
        times = {key: [] for key in [*dirs, "cublas"]}
        for _ in range(rounds):
            for key in dirs:
                times[key].append(graph_ms(lambda: ctx[key].run(a, b, outputs=[out[key]])))
            times["cublas"].append(graph_ms(lambda: torch.matmul(a, b)))
        med = {key: statistics.median(v) for key, v in times.items()}
        gemm.append((f"{t} {m}x{nn}x{k}", med, max(err.values())))
        del a, b, ref, ctx, out

    print(f"chain50 per run, ms (median of {rounds} rounds)")
    for how, label in (("run", "brrr_run (its own graph)"),
                       ("graph", "inside a caller's graph")):
        print(f"  {label:26s} " + "  ".join(
            f"{k} {statistics.median(chain[(k, how)]):.4f}" for k in dirs))
    print(f"{'GEMM':20s} " + " ".join(f"{k[:9]:>9s}" for k in dirs) +
          f" {'cuBLAS':>9s}  " + " ".join(f"{k[:7] + ' %':>9s}" for k in dirs) +
          "  rel err")
    ratios = {k: [] for k in dirs}
    for name, med, err in gemm:
        row = []
        for key in dirs:
            r = 100 * med["cublas"] / med[key]
            row.append(r)
            if name.startswith("f16") and not name.endswith(("x4096", "x8192")):
                ratios[key].append(r)
        print(f"{name:20s} " + " ".join(f"{med[k]:9.4f}" for k in dirs) +
              f" {med['cublas']:9.4f}  " + " ".join(f"{r:8.1f}%" for r in row) +
              f"  {err:.1e}")
    for key, rs in ratios.items():
        if rs:
            print(f"transformer shapes, {key}: min {min(rs):.1f}% of cuBLAS, "
                  f"geometric mean {statistics.geometric_mean(rs):.1f}%")

if __name__ == "__main__":
    main()
