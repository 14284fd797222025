#!/usr/bin/env python3
"""Convolutional networks quantized by onnxruntime's own tool (QDQ, INT8),
compiled by brrrc: their 8-bit convolutions against onnxruntime's CPU
execution of the same file and against the float model, and timed against
brrr's own fp16 build of the float model.

Runs on the GPU machine (torch, torchvision, onnx, onnxruntime with its
quantization tools), from test/gpu, with the brrr package on PYTHONPATH:

  qdq_cnn.py BRRRC DIR [--only resnet50,...] [--batch 32] [--samples 4]
             [--profile [--profile-top N]]

Each torchvision model (random weights, seed 0, eval mode) is exported in
f32 by the TorchScript exporter (batch norms folded into the
convolutions), then `onnxruntime.quantization.quantize_static` quantizes
it with its defaults (QDQ, UINT8 activations with zero points, INT8
weights) per channel, calibrated on --samples random batches (seeds
1000+). brrrc compiles the float model with --precision=fp16 and the QDQ
model as it is and with --precision=fp16 (its float products, the stem
and the classifier, in 16 bits); --report counts the 8-bit kernels. On
fresh inputs (seed 7): each build's relative L2 error and top-1 agreement
against the float model in f32 on the GPU (TF32 off), the QDQ builds'
largest and mean difference from onnxruntime's run of the QDQ file
(graph optimizations off), and each build's time (CUDA graph replay,
median after warm-up) with its speed-up over the fp16 build. Exits
non-zero if a build fails to compile or run.
"""

import argparse
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import brrr  # noqa: E402
from bench import median_ms  # noqa: E402
from models import print_profile, rel_err  # noqa: E402
from ptq import compile_one  # noqa: E402
from qdq_models import ort_run  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("brrrc")
    ap.add_argument("dir")
    ap.add_argument("--only", default="resnet50")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--samples", type=int, default=4)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--profile-top", type=int, default=8)
    opts = ap.parse_args()
    import torchvision
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat,
                                          quantize_static)

    class Batches(CalibrationDataReader):
        def __init__(self, batches):
            self.it = iter([{"x": b} for b in batches])

        def get_next(self):
            return next(self.it, None)

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    os.makedirs(opts.dir, exist_ok=True)
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}",
          flush=True)
    print(f"{'model':16s} {'b':>4s} {'build':10s} {'8-bit':>7s} {'ms':>8s} "
          f"{'vs fp16':>7s} {'err/fp32':>9s} {'top-1':>6s} {'max|b-ort|':>10s} "
          f"{'mean|b-ort|':>11s} {'top-1 ort':>9s}", flush=True)
    failures = 0
    B = opts.batch
    for name in opts.only.split(","):
        torch.manual_seed(0)
        model = torchvision.models.get_model(name, weights=None).eval()
        x = torch.randn(B, 3, 224, 224, generator=torch.Generator().manual_seed(7))
        fp32 = os.path.join(opts.dir, f"{name}.b{B}.onnx")
        with torch.no_grad():
            torch.onnx.export(model, (x,), fp32, input_names=["x"], output_names=["y"],
                              dynamo=False)
            ref = model.cuda()(x.cuda()).float()
        calib = [torch.randn(B, 3, 224, 224,
                             generator=torch.Generator().manual_seed(1000 + i)).numpy()
                 for i in range(opts.samples)]
        int8 = os.path.join(opts.dir, f"{name}.b{B}.int8.onnx")
        quantize_static(fp32, int8, Batches(calib), quant_format=QuantFormat.QDQ,
                        per_channel=True)
        builds = [("fp16", fp32, ["--precision=fp16"]), ("int8", int8, []),
                  ("int8+fp16", int8, ["--precision=fp16"])]
        feed = x.numpy()
        ort_y = ort_run(int8, {"x": feed}).astype(np.float64)
        ort_top1 = (ort_y.argmax(-1) == ref.argmax(-1).cpu().numpy()).mean()
        base = None
        for label, path, flags in builds:
            so = os.path.join(opts.dir, f"{name}.b{B}.{label}.so")
            _, counts, err = compile_one(opts.brrrc, path, so, flags)
            row = f"{name:16s} {B:4d} {label:10s}"
            if err:
                failures += 1
                print(f"{row} COMPILE FAILED {err}", flush=True)
                continue
            lib = brrr.load(so)
            ctx = lib.context()
            xi = x.cuda()
            y = torch.full(tuple(ref.shape), float("nan"), device="cuda",
                           dtype=getattr(torch, lib.outputs[0].dtype))
            ctx.run(xi, outputs=[y])
            torch.cuda.synchronize()
            ms = median_ms(lambda: ctx.run(xi, outputs=[y]))
            base = base or ms
            e = rel_err(y.float(), ref)
            top1 = (y.float().argmax(-1) == ref.argmax(-1)).double().mean().item()
            vs_ort = ""
            if path == int8:
                d = np.abs(y.double().cpu().numpy() - ort_y)
                agree = (y.float().argmax(-1).cpu().numpy() == ort_y.argmax(-1)).mean()
                vs_ort = f" {d.max():10.4g} {d.mean():11.3g} {100 * agree:8.1f}%"
            print(f"{row} {counts[0]:3d}/{counts[1]:<3d} {ms:8.3f} {base / ms:6.2f}x "
                  f"{e:9.2e} {100 * top1:5.1f}%{vs_ort}", flush=True)
            if opts.profile:
                print_profile(ctx, [xi], y, counts[2], top=opts.profile_top)
        print(f"{name:16s} {B:4d} {'ort int8':10s} {'':7s} {'':8s} {'':7s} "
              f"{rel_err(torch.from_numpy(ort_y), ref.double().cpu()):9.2e} "
              f"{100 * ort_top1:5.1f}%", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
