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
from build_bench import GEMM_SHAPES


def graph_ms(fn, reps=20):
    """Median time of one call of fn, from replays of a CUDA graph holding
    `reps` calls back to back: no host overhead on either side."""
    fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(reps):
            fn()
    return median_ms(g.replay) / reps


def launch_ms(ctx, *args, outputs=None, runs=5):
    """Each launch of a brrr context's plan with its median time over `runs`
    runs timed launch by launch (Context.profile): [(LaunchInfo, ms)]."""
    samples = [ctx.profile(*args, outputs=outputs) for _ in range(runs)]
    return [(launches[0][0], sorted(ms for _, ms in launches)[runs // 2])
            for launches in zip(*samples)]


def median_ms(fn, *args):
    if args:  # a torch.compile'd function: compile outside the timing
        fn(*args)
        return median_ms(lambda: fn(*args))
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

    # Row kernels: softmax and layer norm over 32768 x 4096 float16 rows.
    R, C = 32768, 4096
    row_bytes = 2 * R * C * 2
    xh = torch.randn(R, C, device="cuda", dtype=torch.float16) * 4
    g = torch.randn(C, device="cuda", dtype=torch.float16)
    b = torch.randn(C, device="cuda", dtype=torch.float16)
    yh = torch.empty_like(xh)
    row_rows = []
    sm = brrr.load(f"{bench_dir}/softmax.so").context()
    sm.run(xh, outputs=[yh])
    torch.cuda.synchronize()
    row_err = {"softmax": ((yh.double() - torch.softmax(xh.double(), -1)).norm()
                           / torch.softmax(xh.double(), -1).norm()).item()}
    t = median_ms(lambda: sm.run(xh, outputs=[yh]))
    row_rows.append(("brrr softmax 32768x4096 f16", t, row_bytes / (t * 1e-3)))
    t = median_ms(lambda: torch.softmax(xh, -1))
    row_rows.append(("torch eager softmax", t, row_bytes / (t * 1e-3)))
    csm = torch.compile(lambda v: torch.softmax(v, -1))
    csm(xh)
    t = median_ms(lambda: csm(xh))
    row_rows.append(("torch.compile softmax", t, row_bytes / (t * 1e-3)))
    ln = brrr.load(f"{bench_dir}/layernorm.so").context()
    ln.run(xh, g, b, outputs=[yh])
    torch.cuda.synchronize()
    ref = torch.nn.functional.layer_norm(xh.double(), (C,), g.double(), b.double(), 1e-5)
    row_err["layernorm"] = ((yh.double() - ref).norm() / ref.norm()).item()
    t = median_ms(lambda: ln.run(xh, g, b, outputs=[yh]))
    row_rows.append(("brrr layernorm 32768x4096 f16", t, row_bytes / (t * 1e-3)))
    f_ln = lambda v: torch.nn.functional.layer_norm(v, (C,), g, b, 1e-5)
    t = median_ms(lambda: f_ln(xh))
    row_rows.append(("torch eager layernorm", t, row_bytes / (t * 1e-3)))
    cln = torch.compile(f_ln)
    cln(xh)
    t = median_ms(lambda: cln(xh))
    row_rows.append(("torch.compile layernorm", t, row_bytes / (t * 1e-3)))
    rows += row_rows

    # Matmul, 4096^3 f16: the untiled mma.sync kernel against cuBLAS.
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    bm = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    ym = torch.empty_like(a)
    mm = brrr.load(f"{bench_dir}/matmul.so").context()
    mm.run(a, bm, outputs=[ym])
    torch.cuda.synchronize()
    refm = a.double() @ bm.double()
    mm_err = ((ym.double() - refm).norm() / refm.norm()).item()
    t_brrr = median_ms(lambda: mm.run(a, bm, outputs=[ym]))
    t_cublas = median_ms(lambda: torch.matmul(a, bm))
    flop = 2 * 4096 ** 3
    del a, bm, ym

    # Plain products against cuBLAS (torch.matmul), every shape of
    # build_bench.GEMM_SHAPES, checked against a float32 product first and
    # timed in CUDA graphs (the small ones last ~10 us, under a Python
    # call's host time).
    gemm_rows = []
    for t, m, nn, k in GEMM_SHAPES:
        dt = torch.float16 if t == "f16" else torch.bfloat16
        ga = torch.randn(m, k, device="cuda", dtype=dt)
        gb = torch.randn(k, nn, device="cuda", dtype=dt) / k ** 0.5
        gy = torch.full((m, nn), float("nan"), device="cuda", dtype=dt)
        ctx_g = brrr.load(f"{bench_dir}/gemm_{t}_{m}x{nn}x{k}.so").context()
        ctx_g.run(ga, gb, outputs=[gy])
        ref = ga.float() @ gb.float()
        g_err = ((gy.float() - ref).norm() / ref.norm()).item()
        tb = graph_ms(lambda: ctx_g.run(ga, gb, outputs=[gy]))
        tc = graph_ms(lambda: torch.matmul(ga, gb))
        gemm_rows.append((f"{t} {m}x{nn}x{k}", 2 * m * nn * k, tb, tc, g_err))
        del ga, gb, gy, ref, ctx_g

    # gelu(x @ W + b) (PEERS.md's matmul case) and a ResNet-stage conv, each
    # against torch eager (cuBLAS / cuDNN) and torch.compile.
    peers = []
    xg = torch.randn(8192, 4096, device="cuda", dtype=torch.float16)
    wg = torch.randn(4096, 16384, device="cuda", dtype=torch.float16) / 64
    bg = torch.randn(16384, device="cuda", dtype=torch.float16)
    yg = torch.empty(8192, 16384, device="cuda", dtype=torch.float16)
    gm = brrr.load(f"{bench_dir}/gelu_mm.so").context()
    gm.run(xg, wg, bg, outputs=[yg])
    f_gm = lambda x: torch.nn.functional.gelu(x @ wg + bg)
    ref = f_gm(xg).float()
    gm_err = ((yg.float() - ref).norm() / ref.norm()).item()
    del ref
    gflop = 2 * 8192 * 4096 * 16384
    peers.append(("gelu(x@W+b) 8192x4096x16384", gflop, gm_err,
                  median_ms(lambda: gm.run(xg, wg, bg, outputs=[yg])),
                  median_ms(lambda: f_gm(xg)), median_ms(torch.compile(f_gm), xg)))
    del xg, wg, bg, yg
    xc = torch.randn(32, 64, 56, 56, device="cuda", dtype=torch.float16)
    wc = torch.randn(64, 64, 3, 3, device="cuda", dtype=torch.float16) / 24
    bc = torch.randn(64, device="cuda", dtype=torch.float16)
    yc = torch.empty_like(xc)
    cv = brrr.load(f"{bench_dir}/conv.so").context()
    cv.run(xc, wc, bc, outputs=[yc])
    f_cv = lambda x: torch.relu(torch.nn.functional.conv2d(x, wc, bc, padding=1))
    ref = f_cv(xc).float()
    cv_err = ((yc.float() - ref).norm() / ref.norm()).item()
    cflop = 2 * 32 * 56 * 56 * 64 * 64 * 9
    peers.append(("relu(conv3x3+b) 32x64x56x56", cflop, cv_err,
                  median_ms(lambda: cv.run(xc, wc, bc, outputs=[yc])),
                  median_ms(lambda: f_cv(xc)), median_ms(torch.compile(f_cv), xc)))

    print(f"device: {dev}")
    print("row kernel relative errors vs float64: " +
          ", ".join(f"{k} {v:.2e}" for k, v in row_err.items()))
    print(f"brrr cos(cos(x)) relative error vs float64: {err:.2e}")
    print(f"{'case':32s} {'ms':>9s} {'TB/s':>7s} {'% copy':>7s}")
    for name, ms, bw in rows:
        print(f"{name:32s} {ms:9.4f} {bw / 1e12:7.3f} {100 * bw / copy_bw:6.1f}%")
    brrr_ms = rows[1][1]
    print(f"ratios: brrr/eager {rows[2][1] / brrr_ms:.2f}x faster, "
          f"brrr/torch.compile {rows[3][1] / brrr_ms:.2f}x faster")
    print(f"matmul 4096^3 f16: brrr {t_brrr:.3f} ms ({flop / t_brrr / 1e9:.0f} TFLOP/s), "
          f"cuBLAS {t_cublas:.3f} ms ({flop / t_cublas / 1e9:.0f} TFLOP/s), "
          f"brrr/cuBLAS time {t_brrr / t_cublas:.1f}x; rel err {mm_err:.2e}")
    print(f"{'GEMM (brrr vs cuBLAS)':24s} {'brrr ms':>9s} {'cuBLAS ms':>9s} "
          f"{'brrr TF/s':>9s} {'cuBLAS TF/s':>11s} {'% cuBLAS':>8s}  rel err")
    for name, flops, tb, tc, err_ in gemm_rows:
        print(f"{name:24s} {tb:9.4f} {tc:9.4f} {flops / tb / 1e9:9.1f} "
              f"{flops / tc / 1e9:11.1f} {100 * tc / tb:7.1f}%  {err_:.1e}")
    transformer = [100 * tc / tb for name, _, tb, tc, _ in gemm_rows
                   if name.startswith("f16") and not name.endswith("x4096") and
                   not name.endswith("x8192")]
    if transformer:
        geo = 1.0
        for r in transformer:
            geo *= r ** (1 / len(transformer))
        print(f"transformer shapes: min {min(transformer):.1f}% of cuBLAS, "
              f"geometric mean {geo:.1f}%")
    print(f"{'Tensor Core case (f16)':30s} {'brrr ms':>9s} {'eager ms':>9s} "
          f"{'compile ms':>10s} {'brrr TF/s':>9s} {'compile/brrr':>12s}  rel err")
    for name, flops, err_, tb, te, tc in peers:
        print(f"{name:30s} {tb:9.3f} {te:9.3f} {tc:10.3f} {flops / tb / 1e9:9.1f} "
              f"{tc / tb:11.3f}x  {err_:.1e}")
    host = subprocess.run([cpp_run, f"{bench_dir}/chain50.so", "--host-overhead", "2000"],
                          capture_output=True, text=True)
    print("chain50 (50 kernels) host time per brrr_run with CUDA graph:",
          host.stdout.strip() or host.stderr.strip())


if __name__ == "__main__":
    main()
