#!/usr/bin/env python3
"""Times every tile and schedule variant of build_bench.py --sweep against cuBLAS, in one run.

For each product of build_bench.GEMM_SHAPES (f16) and the gelu(x@W+b)
product, every variant DIR/<case>__<tile>.so is checked against a float32
product and timed; plain products are compared with torch.matmul (cuBLAS).
Times come from graph_ms: 20 calls back to back inside one CUDA graph (brrr's
launches join torch's graph), so neither side pays host overhead; the median
replay over 20.

Usage: gemm_sweep.py SWEEP_DIR [VARIANT,VARIANT,...]
(the variants to time, default all: "default", a tile, or a schedule)
"""

import os
import sys

import torch

import brrr
from bench import graph_ms
from build_bench import GEMM_SHAPES, SWEEP_SCHEDULES, SWEEP_TILES


def main():
    sweep_dir = sys.argv[1]
    print(f"device: {torch.cuda.get_device_name()}")
    tiles = ["default"] + SWEEP_TILES + list(SWEEP_SCHEDULES)
    if len(sys.argv) > 2:
        tiles = [t for t in sys.argv[2].split(",") if t in tiles]
    header = f"{'case':26s} {'peer ms':>8s}" + "".join(f" {t:>10s}" for t in tiles)
    print("% of the peer's speed (peer time / brrr time) per tile; "
          "gelu: ms (peer: torch.compile)")
    print(header)
    cases = [(f"gemm_f16_{m}x{n}x{k}", m, n, k) for t, m, n, k in GEMM_SHAPES if t == "f16"]
    cases.append(("gelu_mm", 8192, 16384, 4096))
    for name, m, n, k in cases:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16) / k ** 0.5
        y = torch.empty(m, n, device="cuda", dtype=torch.float16)
        args = [a, b]
        if name == "gelu_mm":
            bias = torch.randn(n, device="cuda", dtype=torch.float16)
            args.append(bias)
            ref_fn = lambda: torch.nn.functional.gelu(a @ b + bias)
            compiled = torch.compile(ref_fn)
            compiled()
            peer = graph_ms(compiled)
        else:
            ref_fn = lambda: torch.matmul(a, b)
            peer = graph_ms(ref_fn)
        ref = ref_fn().float()
        cells = []
        for tile in tiles:
            path = os.path.join(sweep_dir, f"{name}__{tile}.so")
            ctx = brrr.load(path).context()
            y.fill_(float("nan"))
            ctx.run(*args, outputs=[y])
            err = ((y.float() - ref).norm() / ref.norm()).item()
            if not err < 2e-2:
                cells.append(f"{'BAD ' + format(err, '.0e'):>10s}")
                continue
            t = graph_ms(lambda: ctx.run(*args, outputs=[y]))
            cells.append(f"{t:10.3f}" if name == "gelu_mm" else f"{100 * peer / t:9.1f}%")
        print(f"{name:26s} {peer:8.4f}" + "".join(f" {c}" for c in cells))
        del a, b, y, ref


if __name__ == "__main__":
    main()
