#!/usr/bin/env python3
"""Times every tile and schedule variant of build_bench.py --sweep against cuBLAS, in one run.

For each product of build_bench.GEMM_SHAPES (f16 and bf16) and the gelu(x@W+b)
product, every variant DIR/<case>__<tile>.so is checked against a float32
product and timed; plain products are compared with torch.matmul (cuBLAS).
Times come from graph_ms: 20 calls back to back inside one CUDA graph (brrr's
launches join torch's graph), so neither side pays host overhead; the median
replay over 20. The last row is each variant's geometric mean over the
transformer shapes (every product but the square ones).

Usage: gemm_sweep.py SWEEP_DIR [VARIANT,VARIANT,...]
(the variants to time, default all: "default", a tile, or a schedule)

gemm_sweep.py --stream-k DIR times build_bench.py --stream-k-sweep's
products instead (DIR/streamk/<case>__<variant>.so, every STREAM_K_SHAPES
product under each --stream-k of STREAM_K_VARIANTS), the last row their
geometric mean over every shape.
"""

import math
import os
import sys

import torch

import brrr
from bench import graph_ms
from build_bench import (GEMM_SHAPES, STREAM_K_SHAPES, STREAM_K_VARIANTS,
                         SWEEP_SCHEDULES, SWEEP_TILES)


def main():
    print(f"device: {torch.cuda.get_device_name()}")
    if sys.argv[1] == "--stream-k":
        shapes, tiles = STREAM_K_SHAPES, list(STREAM_K_VARIANTS)
        sweep(os.path.join(sys.argv[2], "streamk"), shapes, tiles, gelu=False,
              averaged=lambda m, n, k: True, label="geomean")
        return
    tiles = ["default"] + SWEEP_TILES + list(SWEEP_SCHEDULES)
    if len(sys.argv) > 2:
        tiles = [t for t in sys.argv[2].split(",") if t in tiles]
    sweep(sys.argv[1], GEMM_SHAPES, tiles, gelu=True,
          averaged=lambda m, n, k: not m == n == k, label="transformer geomean")


def sweep(sweep_dir, shapes, tiles, gelu, averaged, label):
    """Times <case>__<tile>.so for every product of `shapes` (and the gelu
    product with `gelu`); the last row is each tile's geometric mean over the
    products that `averaged(m, n, k)` selects."""
    header = f"{'case':26s} {'peer ms':>8s}" + "".join(f" {t:>10s}" for t in tiles)
    print("% of the peer's speed (peer time / brrr time) per tile; "
          "gelu: ms (peer: torch.compile)")
    print(header)
    cases = [(f"gemm_{t}_{m}x{n}x{k}", t, m, n, k) for t, m, n, k in shapes]
    if gelu:
        cases.append(("gelu_mm", "f16", 8192, 16384, 4096))
    # Per variant, the speed ratios of the averaged shapes, for their
    # geometric mean.
    ratios = {tile: [] for tile in tiles}
    for name, t, m, n, k in cases:
        dt = torch.float16 if t == "f16" else torch.bfloat16
        a = torch.randn(m, k, device="cuda", dtype=dt)
        b = torch.randn(k, n, device="cuda", dtype=dt) / k ** 0.5
        y = torch.empty(m, n, device="cuda", dtype=dt)
        args = [a, b]
        if name == "gelu_mm":
            bias = torch.randn(n, device="cuda", dtype=dt)
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
            ms = graph_ms(lambda: ctx.run(*args, outputs=[y]))
            cells.append(f"{ms:10.3f}" if name == "gelu_mm" else f"{100 * peer / ms:9.1f}%")
            if name != "gelu_mm" and averaged(m, n, k):
                ratios[tile].append(peer / ms)
        print(f"{name:26s} {peer:8.4f}" + "".join(f" {c}" for c in cells))
        del a, b, y, ref
    count = sum(1 for c in cases if c[0] != "gelu_mm" and averaged(*c[2:]))
    cells = [f"{100 * math.exp(sum(map(math.log, r)) / len(r)):9.1f}%"
             if len(r) == count else f"{'(BAD)':>10s}" for r in ratios.values()]
    print(f"{label:26s} {'':8s}" + "".join(f" {c}" for c in cells))


if __name__ == "__main__":
    main()
