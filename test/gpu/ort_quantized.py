#!/usr/bin/env python3
"""Models quantized by onnxruntime's own tool, with its default settings,
against onnxruntime's CPU execution of the same files.

Runs on the GPU machine (torch, onnx, onnxruntime with its quantization
tools), from test/gpu, with the brrr package on PYTHONPATH:

  ort_quantized.py BRRRC DIR

A float MLP (Linear 256 -> 512 -> 512 -> 256 with ReLUs, batch 64) is
exported by torch and quantized by `onnxruntime.quantization.
quantize_static` with its defaults (QDQ, UINT8 activations with zero
points, INT8 weights), per tensor and per channel, calibrated on 8 random
batches. brrrc compiles each; `brrrc --report` counts the products that
run in 8 bits. Each runs on fresh inputs against onnxruntime (graph
optimizations off) and is held to qdq_models.py's bound: one quantization
step of the last quantized activation times the largest weight sum after
it. Exits non-zero on a failure.
"""

import os
import subprocess
import sys

import numpy as np
import onnxruntime as ort
import torch
from onnxruntime.quantization import CalibrationDataReader, quantize_static

import brrr
from qdq_models import ort_run, within_one_step


class Batches(CalibrationDataReader):
    def __init__(self, batches):
        self.it = iter([{"x": b} for b in batches])

    def get_next(self):
        return next(self.it, None)


def main():
    brrrc, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(),
                              torch.nn.Linear(512, 512), torch.nn.ReLU(),
                              torch.nn.Linear(512, 256)).eval()
    x = torch.randn(64, 256)
    fp32 = os.path.join(out, "mlp_fp32.onnx")
    torch.onnx.export(mlp, (x,), fp32, input_names=["x"], output_names=["y"],
                      dynamo=False)
    rng = np.random.default_rng(0)
    calib = [rng.standard_normal((64, 256)).astype(np.float32) for _ in range(8)]
    failures = 0
    print(f"{'model':<14} {'8-bit':>6} {'max|brrr-ort|':>14} {'bound':>10} "
          f"{'mean|b-o|':>10} {'mean|o-f|':>10} {'mean|b-f|':>10}  result")
    for per_channel in (False, True):
        name = "mlp_u8_" + ("per_channel" if per_channel else "per_tensor")
        path = os.path.join(out, name + ".onnx")
        quantize_static(fp32, path, Batches(calib), per_channel=per_channel)
        so = os.path.join(out, name + ".so")
        r = subprocess.run([brrrc, path, "-o", so, "--report"], capture_output=True,
                           text=True)
        if r.returncode:
            print(f"{name:<14} COMPILE FAILED {r.stderr.strip()[:300]}")
            failures += 1
            continue
        eight = sum(1 for line in r.stdout.splitlines() if " matmul " in line and " int8 " in line)
        feed = rng.standard_normal((64, 256)).astype(np.float32)
        ref = ort_run(path, {"x": feed}).astype(np.float64)
        flt = ort_run(fp32, {"x": feed}).astype(np.float64)
        y = np.asarray(brrr.load(so)(feed)).astype(np.float64)
        err, bound, ok = within_one_step(path, y, ref)
        failures += not ok
        print(f"{name:<14} {eight:>6} {err:>14.4g} {bound:>10.4g} "
              f"{np.mean(np.abs(y - ref)):>10.3g} {np.mean(np.abs(ref - flt)):>10.3g} "
              f"{np.mean(np.abs(y - flt)):>10.3g}  {'PASS' if ok else 'FAIL'}")
    print("ort-quantized:", "all pass" if not failures else f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
