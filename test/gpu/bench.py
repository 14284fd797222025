#!/usr/bin/env python3
"""Benchmarks brrr against its peers on the GPU machine, in one run.

Times with triton.testing.do_bench (CUDA events, warm-up, median).
Pointwise: y = cos(cos(x)) over 64M float32 with brrr (CUDA graph replay
through the Python runtime), torch eager and torch.compile, against the
device-to-device copy rate of the same card. Host overhead: the C++
harness times brrr_run of a 50-kernel model.

Usage: bench.py BENCH_DIR CPP_RUN
"""

import subprocess
import sys

import torch
import triton.testing

import brrr


def median_ms(fn):
    return triton.testing.do_bench(fn, warmup=50, rep=500, return_mode="median")


def main():
    bench_dir, cpp_run = sys.argv[1], sys.argv[2]
    dev = torch.cuda.get_device_name()
    rows = []

    src = torch.empty(256 * 1024 * 1024, dtype=torch.float32, device="cuda")
    dst = torch.empty_like(src)
    t = median_ms(lambda: dst.copy_(src))
    copy_bw = 2 * src.numel() * 4 / (t * 1e-3)
    rows.append(("d2d copy 1 GiB", t, copy_bw))
    del src, dst

    N = 64 * 1024 * 1024
    x = torch.randn(N, device="cuda")
    y = torch.empty_like(x)
    model = brrr.load(f"{bench_dir}/cos_cos.so")
    ctx = model.context()
    ctx.run(x, outputs=[y])
    torch.cuda.synchronize()
    ref = torch.cos(torch.cos(x.double()))
    err = ((y.double() - ref).norm() / ref.norm()).item()
    t = median_ms(lambda: ctx.run(x, outputs=[y]))
    rows.append(("brrr cos(cos(x)) 64M f32", t, 8 * N / (t * 1e-3)))
    t = median_ms(lambda: torch.cos(torch.cos(x)))
    rows.append(("torch eager", t, 8 * N / (t * 1e-3)))
    compiled = torch.compile(lambda v: torch.cos(torch.cos(v)))
    compiled(x)
    t = median_ms(lambda: compiled(x))
    rows.append(("torch.compile", t, 8 * N / (t * 1e-3)))

    print(f"device: {dev}")
    print(f"brrr cos(cos(x)) relative error vs float64: {err:.2e}")
    print(f"{'case':32s} {'ms':>9s} {'TB/s':>7s} {'% copy':>7s}")
    for name, ms, bw in rows:
        print(f"{name:32s} {ms:9.4f} {bw / 1e12:7.3f} {100 * bw / copy_bw:6.1f}%")
    brrr_ms = rows[1][1]
    print(f"ratios: brrr/eager {rows[2][1] / brrr_ms:.2f}x faster, "
          f"brrr/torch.compile {rows[3][1] / brrr_ms:.2f}x faster")
    host = subprocess.run([cpp_run, f"{bench_dir}/chain50.so", "--host-overhead", "2000"],
                          capture_output=True, text=True)
    print("chain50 (50 kernels) host time per brrr_run with CUDA graph:",
          host.stdout.strip() or host.stderr.strip())


if __name__ == "__main__":
    main()
