#!/usr/bin/env python3
"""8-bit products of QDQ models against torch's 8-bit GEMMs, in one run.

For each product M x N x K and each kind a QDQ model is written and
compiled with BRRRC:

    y = MatMul(DequantizeLinear(QuantizeLinear(x)), DequantizeLinear(W))

x float16 [M, K], W an 8-bit constant [K, N] (float8: one scale; INT8: one
per column), y float16. brrr runs the product on the 8-bit Tensor Cores,
the scales in its epilogue, after a pointwise kernel that quantizes x.
Each output is checked against the float64 product of the dequantized
operands (fresh random inputs, a NaN-poisoned output), and timed:

- brrr model: the whole graph (quantize + product), graph_ms;
- brrr product: the product kernel alone, timed launch by launch;
- the peer: torch._scaled_mm (float8, the same scales, float16 out) or
  torch._int_mm (INT8 to int32, no scales), on operands quantized
  beforehand: a GEMM only.

The kinds: `fp8` (FLOAT8E4M3FN, default flags: each 128-deep slice's sums
promoted to f32; the peer with its default promoted accumulation),
`fp8fast` (--fp8-fast-accumulation: the Tensor Cores' own accumulation
over the whole contraction; the peer with use_fast_accum=True) and `int8`.

Usage: qdq_gemm_bench.py BRRRC DIR [MxNxK,...] [--kinds fp8,fp8fast,int8]
       [--flags "BRRRC FLAGS"] (added to every compile, e.g. a pinned tile)
"""

import os
import subprocess
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper

import brrr
from bench import graph_ms, launch_ms

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 3072, 768),
          (8192, 768, 3072), (1000, 1000, 1024), (4093, 2050, 4096)]
FLOAT8 = 17


def model(path, kind, m, n, k, w_bytes, w_scale, x_scale):
    """Writes the QDQ product model; w_bytes: the 8-bit weight [K, N]."""
    qt = FLOAT8 if kind == "fp8" else TensorProto.INT8
    inits = [
        helper.make_tensor("xs", TensorProto.FLOAT16, [], [x_scale]),
        helper.make_tensor("xz", qt, [], [0]) if kind == "int8" else
        helper.make_tensor("xz", qt, [], vals=b"\0", raw=True),
        helper.make_tensor("w", qt, [k, n], vals=w_bytes.tobytes(), raw=True),
        helper.make_tensor("ws", TensorProto.FLOAT16, list(w_scale.shape),
                           w_scale.astype(np.float16).tolist()),
    ]
    if kind == "int8":
        inits.append(helper.make_tensor("wz", qt, [n], np.zeros(n, np.int8).tolist()))
    else:
        inits.append(helper.make_tensor("wz", qt, [], vals=b"\0", raw=True))
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["q"]),
        helper.make_node("DequantizeLinear", ["q", "xs", "xz"], ["a"]),
        helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["b"],
                         axis=1),
        helper.make_node("MatMul", ["a", "b"], ["y"]),
    ]
    g = helper.make_graph(
        nodes, "qdq_gemm",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [m, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [m, n])],
        inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)],
                                ir_version=10), path)


def main():
    brrrc, out = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    kinds = ["fp8", "fp8fast", "int8"]
    extra = []
    if "--flags" in args:
        i = args.index("--flags")
        extra = args[i + 1].split()
        del args[i:i + 2]
    if "--kinds" in args:
        i = args.index("--kinds")
        kinds = args[i + 1].split(",")
        del args[i:i + 2]
    shapes = SHAPES
    if args:
        shapes = [tuple(int(v) for v in s.split("x")) for s in args[0].split(",")]
    os.makedirs(out, exist_ok=True)
    print(f"device: {torch.cuda.get_device_name()}")
    print(f"{'case':22s} {'rel err':>9s} {'peer err':>9s} {'model ms':>9s} {'prod ms':>9s} "
          f"{'peer ms':>9s} {'TFLOP/s':>8s} {'peer TF':>8s} {'prod/peer':>9s}")
    failures = 0
    gen = torch.Generator(device="cuda").manual_seed(0)
    for kind in kinds:
        fast = kind == "fp8fast"
        kind = "fp8" if fast else kind
        for m, n, k in shapes:
            name = f"{kind}{'fast' if fast else ''}_{m}x{n}x{k}"
            # x / xs within the 8-bit range; W's values spread over it.
            x = torch.randn(m, k, device="cuda", generator=gen).half()
            x_scale = float(np.float16(4.0 / 100 if kind == "int8" else 4.0 / 400))
            if kind == "fp8":
                w = (torch.randn(k, n, device="cuda", generator=gen) * 64).clamp(-448, 448)
                w8 = w.to(torch.float8_e4m3fn)
                w_bytes = w8.view(torch.uint8).cpu().numpy()
                w_scale = np.array(1.0 / (64 * k ** 0.5), np.float32)
                ws = torch.tensor(float(np.float16(w_scale)), device="cuda")
            else:
                w8 = torch.randint(-127, 128, (k, n), device="cuda", generator=gen,
                                   dtype=torch.int8)
                w_bytes = w8.cpu().numpy()
                w_scale = (np.random.default_rng(1).uniform(0.5, 2.0, n) /
                           (64 * k ** 0.5)).astype(np.float32)
                ws = torch.tensor(w_scale.astype(np.float16).astype(np.float32),
                                  device="cuda")
            path = os.path.join(out, name + ".onnx")
            so = os.path.join(out, name + ".so")
            model(path, kind, m, n, k, w_bytes, w_scale, x_scale)
            flags = ["--fp8-fast-accumulation"] if fast else []
            r = subprocess.run([brrrc, path, "-o", so] + flags + extra, capture_output=True,
                               text=True)
            if r.returncode:
                print(f"{name:22s} COMPILE FAILED {r.stderr.strip()[:300]}", flush=True)
                failures += 1
                continue
            ctx = brrr.load(so).context()
            y = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
            ctx.run(x, outputs=[y])
            torch.cuda.synchronize()
            # The reference: the dequantized operands' product in float64.
            xs = torch.tensor(x_scale, device="cuda", dtype=torch.float32)
            if kind == "fp8":
                # Saturating, as QuantizeLinear (torch's cast is NaN past 464).
                xq = (x.float() / xs).clamp(-448, 448).to(torch.float8_e4m3fn)
            else:
                xq = torch.round(x.float() / xs).clamp(-128, 127).to(torch.int8)
            a = xq.double() * xs.double()
            b = w8.double() * ws.double()
            ref = a @ b
            err = ((y.double() - ref).norm() / ref.norm()).item()
            # The f16 output's rounding; float8's fast sums run the Tensor
            # Cores' own accumulation over the whole contraction.
            ok = err < (5e-3 if fast else 2e-3) and not torch.isnan(y).any().item()
            failures += not ok
            model_ms = graph_ms(lambda: ctx.run(x, outputs=[y]))
            launches = launch_ms(ctx, x, outputs=[y])
            prod_ms = max(ms for info, ms in launches if info.flops > 0)
            if kind == "fp8":
                bt = w8.t().contiguous().t()  # column-major, as cuBLAS wants
                peer = lambda: torch._scaled_mm(xq, bt, scale_a=xs, scale_b=ws,
                                                out_dtype=torch.float16,
                                                use_fast_accum=fast)
            else:
                bt = w8.t().contiguous().t()  # column-major: cuBLASLt's int8 layout
                peer = lambda: torch._int_mm(xq, bt)
            try:  # cuBLAS wants sizes in multiples of 16 (8 for _int_mm)
                py = peer().double()
                if kind == "int8":
                    py = py * xs.double() * ws.double()
                peer_err = ((py - ref).norm() / ref.norm()).item()
                del py
                peer_ms = graph_ms(peer)
            except RuntimeError:
                peer_ms = peer_err = float("nan")
            flops = 2 * m * n * k
            print(f"{name:22s} {err:9.2e} {peer_err:9.2e} {model_ms:9.4f} {prod_ms:9.4f} "
                  f"{peer_ms:9.4f} {flops / prod_ms / 1e9:8.0f} "
                  f"{flops / peer_ms / 1e9:8.0f} {peer_ms / prod_ms:9.1%}"
                  + ("" if ok else "  FAIL"), flush=True)
            os.remove(path)
            del ctx, y, ref, a, b, x, xq, w8
            torch.cuda.empty_cache()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
