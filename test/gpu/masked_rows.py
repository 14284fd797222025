#!/usr/bin/env python3
"""Attention rows whose every key is masked, checked against onnxruntime.

Runs on the GPU machine (torch, transformers, onnxruntime, the relocatable
bundle's brrrc and Python package). transformers' BERT for sequence
classification (`models.py`'s `bert_cls`, tiny and base) is exported once
with torch's dynamo exporter, batch and sequence dynamic, in f32 and f16.
At each case, token ids and an attention mask where some row masks every
token (one token, masked; two rows of four, one masked), and cases with
no such row, each export runs:
- under onnxruntime's CPU provider, graph optimizations off (the file's
  own semantics);
- compiled by brrrc for that shape (the f16 export with --precision=fp16,
  the f32 one with --precision=fp32), into a NaN-poisoned output;
- as the torch model, eager, in f32 and float64.

Prints each one's relative L2 error against float64 torch and brrr's
against onnxruntime's run of the same export, and exits non-zero where
brrr departs from it (f32 above 1e-4, f16 above 2e-2). Where a row masks every
key, the export's attention zeroes the row (`where(isnan(p), 0, p)` after
the softmax), which onnxruntime and brrr follow and torch's eager model
does not: those rows differ from torch, by design of the export.

    masked_rows.py BRRRC WORKDIR
"""

import os
import subprocess
import sys

import numpy as np
import onnxruntime as ort
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import brrr  # noqa: E402
from dynamic_models import export  # noqa: E402
from models import build, rel_err  # noqa: E402

TOLERANCE = {"fp32": 1e-4, "fp16": 2e-2}

CASES = {
    "1x1 masked": [[0]],
    "1x1 open": [[1]],
    "2x4 one row masked": [[1, 1, 1, 0], [0, 0, 0, 0]],
    "1x4 open": [[1, 1, 1, 1]],
}


def ort_run(path, feeds):
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(path, opts,
                                   providers=["CPUExecutionProvider"])
    return torch.from_numpy(session.run(None, feeds)[0].astype(np.float32))


def brrr_run(brrrc, path, precision, ids, mask, like):
    b, s = ids.shape
    so = f"{path[:-5]}.{b}x{s}.so"
    cmd = [brrrc, path, "-o", so, f"--precision={precision}",
           f"--input-shape=input_ids={b}x{s}",
           f"--input-shape=attention_mask={b}x{s}"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"brrrc failed: {out.stderr.strip()[-300:]}")
    model = brrr.load(so)
    y = torch.full(tuple(like.shape), float("nan"),
                   dtype=getattr(torch, model.outputs[0].dtype), device="cuda")
    model.context().run(ids, mask, outputs=[y])
    torch.cuda.synchronize()
    return y


def main():
    brrrc, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    failures = 0
    for tiny in (True, False):
        tag = "tiny" if tiny else "base"
        model, args, names = build("bert_cls", tiny=tiny, batch=2)
        example = tuple(a.cuda() for a in args)
        paths = {}
        # One module: exported in f16 first, then in f32 (the f16 weights'
        # values, so both exports hold the same numbers).
        for precision, dtype in (("fp16", torch.float16), ("fp32", torch.float32)):
            paths[precision] = os.path.join(work, f"{tag}.{precision}.onnx")
            m = model.to(dtype).cuda().eval()
            export(m, example, names, paths[precision], "dynamo", 64, 512)
        m = model.float()
        for case, rows in CASES.items():
            mask = torch.tensor(rows, dtype=torch.int64, device="cuda")
            ids = torch.randint(0, 1000, mask.shape, device="cuda")
            with torch.no_grad():
                t64 = m.double()(ids, mask).double()
                t32 = m.float()(ids, mask)
            feeds = {"input_ids": ids.cpu().numpy(),
                     "attention_mask": mask.cpu().numpy()}
            row = [f"{tag:4s} {case:20s}", f"torch/f64 {rel_err(t32, t64):.2e}"]
            for precision, path in paths.items():
                o = ort_run(path, feeds)
                y = brrr_run(brrrc, path, precision, ids, mask, t32)
                e = rel_err(y.cpu(), o)
                ok = e <= TOLERANCE[precision]
                failures += not ok
                row.append(f"{precision}: ort/f64 {rel_err(o, t64.cpu()):.2e} "
                           f"brrr/f64 {rel_err(y, t64):.2e} brrr/ort {e:.2e}"
                           + ("" if ok else " MISMATCH"))
            print("  ".join(row), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
