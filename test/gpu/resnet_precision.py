#!/usr/bin/env python3
"""ResNet-50 in every --precision, on the GPU machine, in one run.

Exports torchvision's ResNet-50 (random weights, seed 0, randomized batch
norm statistics, eval, batch 1) with the TorchScript exporter at opset 17,
compiles it there with BRRRC once per precision (fp32, tf32, fp16, bf16;
compile time recorded), checks each library's output against a float64
torch reference on the GPU (README's tolerances: fp32 1e-4, tf32 5e-3,
fp16/bf16 2e-2), and times it (CUDA graph replays) next to torch eager in
f32 (TF32 off) and f16 and torch.compile(mode="reduce-overhead") in f16.

Usage: resnet_precision.py BRRRC WORKDIR
"""

import os
import subprocess
import sys
import time

import torch
import torchvision

import brrr
from bench import graph_ms, median_ms

TOLERANCE = {"fp32": 1e-4, "tf32": 5e-3, "fp16": 2e-2, "bf16": 2e-2}


def main():
    brrrc, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(0)
    model = torchvision.models.resnet50().eval()
    with torch.no_grad():
        for mod in model.modules():
            if isinstance(mod, torch.nn.BatchNorm2d):
                mod.running_mean.uniform_(-0.1, 0.1)
                mod.running_var.uniform_(0.5, 1.5)
    x = torch.randn(1, 3, 224, 224)
    path = os.path.join(work, "resnet50.onnx")
    torch.onnx.export(model, (x,), path, opset_version=17, dynamo=False,
                      input_names=["x"], output_names=["y"])
    with torch.no_grad():
        ref = model.double().cuda()(x.double().cuda())
    print(f"device: {torch.cuda.get_device_name()}")
    print(f"{'ResNet-50 b1':18s} {'compile s':>9s} {'rel err':>9s} {'tolerance':>9s} "
          f"{'ms':>8s}")
    xc = x.cuda()
    ok = True
    for precision, tol in TOLERANCE.items():
        so = os.path.join(work, f"resnet50_{precision}.so")
        start = time.time()
        subprocess.run([brrrc, path, "-o", so, f"--precision={precision}"], check=True)
        seconds = time.time() - start
        ctx = brrr.load(so).context()
        y = torch.full((1, 1000), float("nan"), device="cuda")
        ctx.run(xc, outputs=[y])
        err = ((y.double() - ref).norm() / ref.norm()).item()
        ok &= err <= tol
        t = graph_ms(lambda: ctx.run(xc, outputs=[y]))
        print(f"brrr {precision:13s} {seconds:9.1f} {err:9.2e} {tol:9.0e} {t:8.3f}"
              f"{'' if err <= tol else '  FAIL'}")
    with torch.no_grad():
        # torch's own error against the same reference, for scale.
        m32 = model.float().cuda()
        e32 = ((m32(xc).double() - ref).norm() / ref.norm()).item()
        print(f"{'torch eager fp32':18s} {'':9s} {e32:9.2e} {'':9s} "
              f"{median_ms(lambda: m32(xc)):8.3f}")
        m16 = model.half().cuda()
        x16 = xc.half()
        e16 = ((m16(x16).double() - ref).norm() / ref.norm()).item()
        print(f"{'torch eager fp16':18s} {'':9s} {e16:9.2e} {'':9s} "
              f"{median_ms(lambda: m16(x16)):8.3f}")
        compiled = torch.compile(m16, mode="reduce-overhead")
        for _ in range(3):
            compiled(x16)
        print(f"{'compile+graphs fp16':18s} {'':9s} {'':9s} {'':9s} "
              f"{median_ms(lambda: compiled(x16)):8.3f}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
