#!/usr/bin/env python3
"""Post-training quantization (brrrc --precision=fp8|int8 --calibrate)
on whole models, against brrr's own fp16 build and the fp32 model.

Runs on the GPU machine (torch, transformers, torchvision, the relocatable
bundle's brrrc and Python package). For each model (random weights, seed 0,
eval mode), in fp16:
- writes --samples calibration inputs (seeds 1000+) as .npz files named
  after the model's inputs, at the export's fixed shape;
- exports the model at batch --batch (dynamo exporter) and compiles it
  three ways, in parallel: --precision=fp16; --precision=fp8 --calibrate
  the samples (writing the calibration cache); --precision=int8 from that
  cache (no second run);
- on fresh inputs (seed 7, never calibrated on): each build's output
  against the model run in fp32 on the GPU (TF32 off): relative L2 error
  and, for classifiers and language models, top-1 agreement of the last
  dimension's argmax; and the fp16 build's the same, for scale;
- times every build (CUDA events, median after warm-up, CUDA graph replay
  through the Python runtime) and prints each one's speed-up over fp16, and
  how many of its products multiply in 8 bits (brrrc --report).

    ptq.py BRRRC WORKDIR [--only bert_cls,gpt2_lm,resnet50] [--batch 128]
           [--samples 4] [--percentile P]
"""

import argparse
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import brrr  # noqa: E402
from bench import median_ms  # noqa: E402
from models import export, print_profile, rel_err  # noqa: E402


def build(name, batch, seed):
    """(model in eval mode, inputs on the CPU, input names) with weights from
    seed 0 and inputs from `seed`."""
    import transformers as tf

    torch.manual_seed(0)
    if name == "bert_cls":
        model = tf.BertForSequenceClassification(tf.BertConfig(num_labels=16))
        seq = 128
    elif name == "gpt2_lm":
        model = tf.GPT2LMHeadModel(tf.GPT2Config())
        seq = 512
    elif name == "resnet50":
        import torchvision
        model = torchvision.models.resnet50()
        seq = None
    else:
        raise SystemExit(f"unknown model {name}")
    model.eval()
    g = torch.Generator().manual_seed(seed)
    if seq is None:
        return model, (torch.randn(batch, 3, 224, 224, generator=g),), ["pixels"]

    class Logits(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, *args):
            return self.m(*args).logits

    ids = torch.randint(0, 30000, (batch, seq), generator=g)
    if name == "gpt2_lm":
        return Logits(model).eval(), (ids,), ["input_ids"]
    mask = torch.ones(batch, seq, dtype=torch.int64)
    mask[:, seq * 3 // 4:] = 0
    return Logits(model).eval(), (ids, mask), ["input_ids", "attention_mask"]


def compile_one(brrrc, onnx_path, so, flags):
    start = time.time()
    p = subprocess.run([brrrc, onnx_path, "-o", so, "--report", *flags],
                       capture_output=True, text=True)
    seconds = time.time() - start
    if p.returncode != 0:
        errors = [ln for ln in p.stderr.splitlines() if "error" in ln] or ["?"]
        return seconds, None, " / ".join(errors)[:400]
    # --report rows: "fusion_N family precision flops ...".
    rows = [ln.split() for ln in p.stdout.splitlines()
            if ln.startswith("fusion_") and len(ln.split()) > 2]
    eight = sum(r[2] in ("fp8", "int8") for r in rows)
    products = sum(r[2] != "-" for r in rows)
    # Kernel -> family, the 8-bit products marked (for --profile).
    families = {r[0]: r[1] + ("8" if r[2] in ("fp8", "int8") else "") for r in rows}
    return seconds, (eight, products, families), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("brrrc")
    ap.add_argument("dir")
    ap.add_argument("--only", default="bert_cls")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--samples", type=int, default=4)
    ap.add_argument("--percentile", type=float, default=0)
    ap.add_argument("--variant", action="append", default=[],
                    help="LABEL=PRECISION:FLAG[,FLAG...]: one more build from "
                         "the cache, e.g. pp=int8:--pingpong")
    ap.add_argument("--profile", action="store_true",
                    help="print where each build's time goes, per kernel family")
    opts = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    os.makedirs(opts.dir, exist_ok=True)
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}",
          flush=True)
    print(f"{'model':10s} {'b':>4s} {'build':8s} {'compile':>7s} {'8-bit':>7s} "
          f"{'ms':>8s} {'vs fp16':>7s} {'err/fp32':>9s} {'top-1':>6s}", flush=True)
    failures = 0
    for name in opts.only.split(","):
        model, xs, names = build(name, opts.batch, seed=7)
        calib = os.path.join(opts.dir, f"{name}.calib")
        shutil.rmtree(calib, ignore_errors=True)
        os.makedirs(calib)
        for i in range(opts.samples):
            _, cx, _ = build(name, opts.batch, seed=1000 + i)
            np.savez(os.path.join(calib, f"{i:03d}.npz"),
                     **{n: x.numpy() for n, x in zip(names, cx)})
        with torch.no_grad():
            ref = model.float().cuda()(*[x.cuda() for x in xs]).float()
        m16 = model.half().cuda().eval()
        x16 = [x.half().cuda() if x.is_floating_point() else x.cuda() for x in xs]
        path = os.path.join(opts.dir, f"{name}.fp16.b{opts.batch}.onnx")
        export(m16, tuple(x16), names, path, "dynamo")
        cache = os.path.join(opts.dir, f"{name}.calibration")
        if os.path.exists(cache):
            os.remove(cache)
        pct = [f"--calibration-percentile={opts.percentile}"] if opts.percentile else []
        builds = {"fp16": ["--precision=fp16"],
                  "fp8": ["--precision=fp8", f"--calibrate={calib}",
                          f"--calibration-cache={cache}", *pct]}
        with ThreadPoolExecutor(2) as pool:
            jobs = {b: pool.submit(compile_one, opts.brrrc, path,
                                   path[:-5] + f".{b}.so", f)
                    for b, f in builds.items()}
            results = {b: j.result() for b, j in jobs.items()}
        # INT8, and the variants, from the cache the fp8 build wrote: no
        # second calibration run.
        order = ["fp16", "fp8"]
        if results["fp8"][1] is not None:
            extra = [("int8", ["--precision=int8"])]
            for v in opts.variant:
                label, _, spec = v.partition("=")
                prec, _, flags = spec.partition(":")
                extra.append((label, [f"--precision={prec}", *flags.split(",")]))
            with ThreadPoolExecutor(2) as pool:
                jobs = {b: pool.submit(compile_one, opts.brrrc, path,
                                       path[:-5] + f".{b}.so",
                                       [*f, f"--calibration-cache={cache}"])
                        for b, f in extra}
                results.update({b: j.result() for b, j in jobs.items()})
            order += [b for b, _ in extra]
        with torch.no_grad():
            same16 = m16(*x16).float()
        base = None
        for b in order:
            seconds, counts, err = results[b]
            row = f"{name:10s} {opts.batch:4d} {b:8s} {seconds:7.1f}"
            if err:
                failures += 1
                print(f"{row} COMPILE FAILED {err}", flush=True)
                continue
            lib = brrr.load(path[:-5] + f".{b}.so")
            ctx = lib.context()
            out_dt = getattr(torch, lib.outputs[0].dtype)
            y = torch.full(tuple(ref.shape), float("nan"), dtype=out_dt, device="cuda")
            ctx.run(*x16, outputs=[y])
            torch.cuda.synchronize()
            ms = median_ms(lambda: ctx.run(*x16, outputs=[y]))
            if base is None:
                base = ms
            e = rel_err(y.float(), ref)
            top1 = (y.float().argmax(-1) == ref.argmax(-1)).double().mean().item()
            print(f"{row} {counts[0]:3d}/{counts[1]:<3d} {ms:8.3f} {base / ms:6.2f}x "
                  f"{e:9.2e} {100 * top1:5.1f}%", flush=True)
            if opts.profile:
                print_profile(ctx, x16, y, counts[2], top=8)
        e16 = rel_err(same16, ref)
        t16 = (same16.argmax(-1) == ref.argmax(-1)).double().mean().item()
        print(f"{name:10s} {opts.batch:4d} {'torch16':8s} {'':7s} {'':7s} {'':8s} "
              f"{'':7s} {e16:9.2e} {100 * t16:5.1f}%", flush=True)
        if os.path.exists(cache):
            with open(cache) as f:
                head = f.read().splitlines()[:5]
            print("  cache: " + " | ".join(head), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
