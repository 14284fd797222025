#!/usr/bin/env python3
"""Every distinct convolution of ResNet-50, brrr against cuDNN, in one run.

Runs on the GPU machine (torch, torchvision, onnx) with a brrrc there (the
relocatable bundle, scripts/package.sh):

  conv_bench.py BRRRC DIR [--batches 1,32] [--model resnet50] [--profile]
                [--variant NAME=FLAGS ...]

For each batch, the model's convolutions are found by running torchvision's
model (random weights) with forward hooks; each distinct one (input shape,
channels, window, stride, padding) becomes a one-convolution ONNX model
with a bias, whose input and output are NHWC (transposes around the
NCHW Conv, which brrr-channels-last cancels), compiled with BRRRC into
DIR. Both sides run f16 with channels-last activations: brrr's library
against F.conv2d on channels_last tensors (cuDNN), each timed in a CUDA
graph of 20 calls (no host overhead; median of CUDA-event timings after
warm-up). The output is checked against torch's (relative L2 error).

Prints one row per convolution (how many the model has, brrr and cuDNN in
microseconds, cuDNN / brrr, brrr's TFLOP/s) and the sums weighted by count.
The stem's row includes brrr's input preparation (space to depth: pad and
rearrange the 3-channel image), which cuDNN's time does not. With
--profile, a row whose library launches more than one kernel is followed
by each launch's time, launch by launch (median of 5 runs without graphs).
Each --variant NAME=FLAGS (FLAGS comma-separated brrrc flags, e.g.
sk=--stream-k=auto) also compiles every convolution with those flags,
checks it and times it in the same run: a column of microseconds each,
after the default build's.
"""

import argparse
import collections
import os
import subprocess
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
import torchvision
from onnx import TensorProto, helper, numpy_helper

import brrr
from bench import graph_ms, launch_ms

Conv = collections.namedtuple("Conv", "n c h w o k s p")


def convolutions(model_name, batch):
    """The model's distinct convolutions at `batch`, with their counts."""
    model = getattr(torchvision.models, model_name)().eval()
    seen = collections.Counter()

    def hook(mod, inputs, _):
        n, c, h, w = inputs[0].shape
        assert mod.groups == 1 and mod.dilation == (1, 1)
        seen[Conv(n, c, h, w, mod.out_channels, mod.kernel_size[0], mod.stride[0],
                  mod.padding[0])] += 1

    for m in model.modules():
        if isinstance(m, torch.nn.Conv2d):
            m.register_forward_hook(hook)
    with torch.no_grad():
        model(torch.zeros(batch, 3, 224, 224))
    return seen


def out_size(x, k, s, p):
    return (x + 2 * p - k) // s + 1


def write_model(cv, path, weight, bias):
    oh, ow = out_size(cv.h, cv.k, cv.s, cv.p), out_size(cv.w, cv.k, cv.s, cv.p)
    nodes = [helper.make_node("Transpose", ["x"], ["xn"], perm=[0, 3, 1, 2]),
             helper.make_node("Conv", ["xn", "w", "b"], ["yn"], kernel_shape=[cv.k, cv.k],
                              strides=[cv.s, cv.s], pads=[cv.p] * 4),
             helper.make_node("Transpose", ["yn"], ["y"], perm=[0, 2, 3, 1])]
    graph = helper.make_graph(
        nodes, "conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [cv.n, cv.h, cv.w, cv.c])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [cv.n, oh, ow, cv.o])],
        [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(bias, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("brrrc")
    ap.add_argument("dir")
    ap.add_argument("--batches", default="32")
    ap.add_argument("--model", default="resnet50")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--variant", action="append", default=[],
                    help="NAME=FLAGS: also time a build with these brrrc flags "
                         "(comma-separated)")
    opts = ap.parse_args()
    variants = [("", [])] + [(v.split("=", 1)[0], v.split("=", 1)[1].split(","))
                             for v in opts.variant]
    os.makedirs(opts.dir, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
          f"cuDNN {torch.backends.cudnn.version()}", flush=True)
    failures = 0
    for batch in [int(b) for b in opts.batches.split(",")]:
        print(f"{'convolution':34s} {'count':>5s} {'brrr us':>8s}" +
              "".join(f" {name + ' us':>8s}" for name, _ in variants[1:]) +
              f" {'cuDNN us':>8s} {'cuDNN/brrr':>10s} {'TFLOP/s':>8s} {'rel err':>8s}",
              flush=True)
        sums = [0.0] * (len(variants) + 1)
        rng = np.random.default_rng(0)
        for cv, count in convolutions(opts.model, batch).items():
            label = (f"{cv.n}x{cv.c}x{cv.h}x{cv.w} {cv.k}x{cv.k}/{cv.s} -> {cv.o}")
            weight = (rng.standard_normal((cv.o, cv.c, cv.k, cv.k)) /
                      np.sqrt(cv.c * cv.k * cv.k)).astype(np.float16)
            bias = (rng.standard_normal(cv.o) * 0.1).astype(np.float16)
            base = os.path.join(opts.dir, f"conv_{cv.n}_{cv.c}_{cv.h}_{cv.w}_{cv.o}_"
                                f"{cv.k}_{cv.s}_{cv.p}")
            write_model(cv, base + ".onnx", weight, bias)
            contexts = []
            for name, flags in variants:
                so = base + (f"__{name}" if name else "") + ".so"
                proc = subprocess.run([opts.brrrc, base + ".onnx", "-o", so, *flags],
                                      capture_output=True, text=True)
                if proc.returncode != 0:
                    break
                contexts.append(brrr.load(so).context())
            if proc.returncode != 0:
                failures += 1
                print(f"{label:34s} COMPILE FAILED {proc.stderr.strip()[-200:]}", flush=True)
                continue
            ctx = contexts[0]
            x = torch.randn(cv.n, cv.h, cv.w, cv.c, device="cuda").half()
            oh, ow = out_size(cv.h, cv.k, cv.s, cv.p), out_size(cv.w, cv.k, cv.s, cv.p)
            y = torch.full((cv.n, oh, ow, cv.o), float("nan"), device="cuda",
                           dtype=torch.float16)
            wt = torch.from_numpy(weight).cuda().to(memory_format=torch.channels_last)
            bt = torch.from_numpy(bias).cuda()
            xc = x.permute(0, 3, 1, 2)  # NCHW view of NHWC memory: channels_last
            peer = lambda: F.conv2d(xc, wt, bt, stride=cv.s, padding=cv.p)
            ref = peer().permute(0, 2, 3, 1).float()
            # Every build checked (the worst error shown), then timed.
            err, times = 0.0, []
            for c in contexts:
                y.fill_(float("nan"))
                c.run(x, outputs=[y])
                err = max(err, ((y.float() - ref).norm() / ref.norm()).item())
                times.append(graph_ms(lambda: c.run(x, outputs=[y])) * 1e3)
            ok = err <= 2e-3
            failures += not ok
            tb = times[0]
            tc = graph_ms(peer) * 1e3
            flops = 2 * cv.n * oh * ow * cv.o * cv.c * cv.k * cv.k
            for i, t in enumerate(times + [tc]):
                sums[i] += count * t
            print(f"{label:34s} {count:5d} {tb:8.1f}" +
                  "".join(f" {t:8.1f}" for t in times[1:]) +
                  f" {tc:8.1f} {tc / tb:10.2f} "
                  f"{flops / tb / 1e6:8.1f} {err:8.1e}{'' if ok else '  MISMATCH'}",
                  flush=True)
            if opts.profile:
                launches = launch_ms(ctx, x, outputs=[y])
                if len(launches) > 1:
                    print("    launches: " + ", ".join(
                        f"{info.kernel} {ms * 1e3:.1f} us" for info, ms in launches), flush=True)
        print(f"{'all, weighted by count':34s} {'':5s}" +
              "".join(f" {t:8.1f}" for t in sums) +
              f" {sums[-1] / sums[0]:10.2f}", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
