#!/usr/bin/env python3
"""Fused attention against torch's scaled_dot_product_attention, one run.

For every build_bench.ATTENTION_SHAPES model (compiled by build_bench.py):
checks brrr's output against the float32 math on fresh inputs, then times
brrr and SDPA's flash and memory-efficient backends, each in CUDA graphs
(no host time on either side; median of do_bench). The flash backend takes
no additive mask, so masked cases time it on the same shapes without one
(less work than brrr does), beside the efficient backend with the mask.

With --sweep, times every tile of BENCH_DIR/attention_sweep instead
(build_bench.py --attention-sweep), one row per shape and tile.

Usage: attention_bench.py BENCH_DIR [--sweep]
"""

import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import brrr
from bench import graph_ms
from build_bench import ATTENTION_SHAPES, ATTENTION_TILES, attention_name


def sdpa(backend, q, k, v, mask, causal):
    with sdpa_kernel(backend):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=causal)


def main():
    bench_dir = sys.argv[1]
    sweep = "--sweep" in sys.argv[2:]
    print(f"device: {torch.cuda.get_device_name()}")
    print(f"{'attention (f16)':34s} {'brrr us':>8s} {'flash us':>8s} {'effic. us':>9s} "
          f"{'brrr TF/s':>9s} {'flash/brrr':>10s}  rel err")
    for b, h, s, d, form in ATTENTION_SHAPES:
        gen = torch.Generator(device="cuda").manual_seed(0)
        q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.float16, generator=gen)
                   for _ in range(3))
        ins = [q, k, v]
        mask = None
        if form == "mask":
            # Each sequence pads a different number of trailing keys.
            lengths = torch.randint(s // 2, s + 1, (b,), device="cuda", generator=gen)
            keep = torch.arange(s, device="cuda")[None, :] < lengths[:, None]
            mask = torch.where(keep, 0.0, float("-inf")).half().reshape(b, 1, 1, s)
            ins.append(mask)
        causal = form == "causal"
        ref = sdpa(SDPBackend.MATH, q.float(), k.float(), v.float(),
                   None if mask is None else mask.float(), causal)
        tf = graph_ms(lambda: sdpa(SDPBackend.FLASH_ATTENTION, q, k, v, None, causal))
        te = graph_ms(lambda: sdpa(SDPBackend.EFFICIENT_ATTENTION, q, k, v, mask, causal))
        pairs = b * h * (s * s - (s * (s - 1) // 2 if causal else 0))
        flops = 4 * pairs * d
        name = attention_name(b, h, s, d, form)
        tiles = ["default"] + ATTENTION_TILES if sweep else [None]
        for tile in tiles:
            so = (f"{bench_dir}/attention_sweep/{name}__{tile}.so" if tile
                  else f"{bench_dir}/{name}.so")
            label = f"{form} {b}x{h}x{s}x{d}" + (f" {tile}" if tile else "")
            if tile and not os.path.exists(so):
                print(f"{label:34s} not compiled (build_bench.py said why)")
                continue
            y = torch.full_like(q, float("nan"))
            ctx = brrr.load(so).context()
            ctx.run(*ins, outputs=[y])
            err = ((y.float() - ref).norm() / ref.norm()).item()
            tb = graph_ms(lambda: ctx.run(*ins, outputs=[y]))
            print(f"{label:34s} {tb * 1e3:8.1f} {tf * 1e3:8.1f} {te * 1e3:9.1f} "
                  f"{flops / tb / 1e9:9.1f} {tf / tb:9.2f}x  {err:.1e}")
            del ctx


if __name__ == "__main__":
    main()
