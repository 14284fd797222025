#!/usr/bin/env python3
"""f32 products and convolutions on the staged tf32 body against torch.

For every build_bench.F32_CASES model, compiled with --precision=fp32
(3xTF32, f32 accuracy) and --precision=tf32: checks the output against a
float64 product on fresh random inputs (over poisoned outputs), then times
brrr against cuBLAS / cuDNN through torch with TF32 off (the fp32 build's
peer) and on (the tf32 build's), every side in CUDA graphs of 20 calls
(do_bench medians). Prints one row per case and precision.

Usage: f32_bench.py BENCH_DIR
"""

import sys

import torch
import torch.nn.functional as F

import brrr
from bench import graph_ms
from build_bench import F32_CASES


def inputs(kind, shape):
    if kind == "gemm":
        m, nn, k = shape
        return [torch.randn(m, k, device="cuda"),
                torch.randn(k, nn, device="cuda") / k ** 0.5]
    b, c, hw, o, r = shape
    return [torch.randn(b, c, hw, hw, device="cuda"),
            torch.randn(o, c, r, r, device="cuda") / (c * r * r) ** 0.5,
            torch.randn(o, device="cuda")]


def peer(kind, shape):
    if kind == "gemm":
        return lambda a, b: torch.matmul(a, b)
    pad = shape[4] // 2
    return lambda x, w, bias: torch.relu(F.conv2d(x, w, bias, padding=pad))


def main():
    bench_dir = sys.argv[1]
    print(torch.cuda.get_device_name())
    print(f"{'case':<28} {'precision':<9} {'rel err':>9} {'brrr ms':>9} "
          f"{'torch ms':>9} {'brrr TFLOP/s':>12} {'torch/brrr':>10}")
    failed = 0
    for name, (kind, shape) in F32_CASES.items():
        xs = inputs(kind, shape)
        fn = peer(kind, shape)
        ref = fn(*[x.double() for x in xs])
        if kind == "gemm":
            m, nn, k = shape
            flops = 2 * m * nn * k
        else:
            b, c, hw, o, r = shape
            flops = 2 * b * hw * hw * o * c * r * r
        for precision in ("fp32", "tf32"):
            torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
            torch.backends.cudnn.allow_tf32 = precision == "tf32"
            ctx = brrr.load(f"{bench_dir}/f32_{name}_{precision}.so").context()
            y = torch.full(ref.shape, float("nan"), device="cuda")
            ctx.run(*xs, outputs=[y])
            err = ((y.double() - ref).norm() / ref.norm()).item()
            ok = err <= (1e-4 if precision == "fp32" else 5e-3)
            failed += not ok
            tb = graph_ms(lambda: ctx.run(*xs, outputs=[y]))
            tt = graph_ms(lambda: fn(*xs))
            print(f"{name:<28} {precision:<9} {err:9.2e} {tb:9.4f} {tt:9.4f} "
                  f"{flops / tb * 1e-9:12.1f} {tt / tb:10.2f}"
                  + ("" if ok else "  FAIL"), flush=True)
            del ctx, y
        del xs, ref
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
