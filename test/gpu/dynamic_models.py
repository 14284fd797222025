#!/usr/bin/env python3
"""Real models exported with a dynamic batch, one compile for a range.

Runs on the GPU machine (torch, torchvision, transformers, the relocatable
bundle's brrrc and Python package). For each model (models.py's builders,
random weights, eval mode; images or token ids and attention masks) in fp16
and each exporter, exports it once with the batch of every input
dynamic (dynamo: `dynamic_shapes`; TorchScript: `dynamic_axes`), compiles
it once for the batch range (`--input-shape NAME=1..MAXx...`), and also
compiles the same export at each batch on its own (`--input-shape
NAME=Bx...`: a static compile), the compiles in parallel. At each batch:
- checks the dynamic library's output, into a NaN-poisoned buffer, against
  torch in fp16 (relative L2 error <= 2e-2, or against float64 within 25%
  of torch's own error, as models.py), and shows the dynamic library's,
  the static one's and torch's errors against float64;
- times the dynamic and the static library and torch.compile(dynamic=True,
  mode="reduce-overhead") (CUDA events, median after warm-up, host overhead
  included on every side), and prints the ratios.
Prints the compile times (dynamic, and the static ones' median), one row per
batch, and exits non-zero on a failed compile or a mismatch. With --serial
the compiles run one after another, each with the machine to itself, so
that their times compare.

    dynamic_models.py BRRRC WORKDIR [--only resnet50] [--batches 1,7,32,128]
                      [--max-batch 128] [--exporters dynamo,torchscript]
    dynamic_models.py BRRRC WORKDIR --only bert --max-batch 64 --max-seq 512
                      --batches 1x16,3x77,64x512 [--no-peer]
      Transformers with their token inputs' sequence dynamic too: one
      compile for 1..64 x 1..512, checked and timed at each BxS shape
      against a static compile of it and torch.compile(dynamic=True).
    --flags "F ...": extra brrrc flags for every compile (dynamic and static).
"""

import argparse
import inspect
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import brrr  # noqa: E402
from bench import median_ms  # noqa: E402
from models import EXPORTERS, build, rel_err  # noqa: E402

TOLERANCE = 2e-2


def is_tokens(x):
    """Token ids or an attention mask: integers of [batch, sequence]."""
    return not x.is_floating_point() and x.dim() == 2


def batch_dims(model, xs, batch, seq=None):
    """torch.export's dynamic_shapes for `model`'s forward over `xs`: the
    first dimension of each input is `batch` (and with `seq` the second of
    token inputs), whether forward names its inputs or takes them as *args
    (the transformers wrapper)."""
    dims = tuple({0: batch, 1: seq} if seq is not None and is_tokens(x)
                 else {0: batch} for x in xs)
    params = list(inspect.signature(model.forward).parameters.values())
    if params and params[0].kind == inspect.Parameter.VAR_POSITIONAL:
        return (dims,)
    return dims


def export(model, xs, names, path, exporter, max_batch, max_seq=0):
    """Exports `model` with the batch of every input dynamic, and with
    `max_seq` the sequence of its token inputs."""
    with torch.no_grad():
        if exporter == "dynamo":
            batch = torch.export.Dim("batch", min=1, max=max_batch)
            seq = torch.export.Dim("sequence", min=1, max=max_seq) \
                if max_seq else None
            torch.onnx.export(model, xs, path, input_names=names,
                              output_names=["y"], dynamo=True,
                              opset_version=EXPORTERS[exporter],
                              external_data=False,
                              dynamic_shapes=batch_dims(model, xs, batch, seq))
        else:
            torch.onnx.export(
                model, xs, path, input_names=names, output_names=["y"],
                dynamo=False, opset_version=EXPORTERS[exporter],
                dynamic_axes={n: ({0: "batch", 1: "sequence"}
                                  if max_seq and is_tokens(x) else {0: "batch"})
                              for n, x in zip(names, xs)})


def inputs_at(args, b, seq=None):
    """Fresh inputs like the example `args` at batch `b` (and sequence
    `seq` for token inputs): random images (fp16), token ids below 1000,
    and attention masks (the example's int64 inputs of 0s and 1s) whose
    last quarter is padding, the first token always kept: where a row
    masks every key, torch's eager model and its ONNX export disagree
    (masked_rows.py), so no such row checks brrr against torch."""
    xs = []
    for a in args:
        rest = tuple(a.shape[1:])
        if seq is not None and is_tokens(a):
            rest = (seq,)
        if a.is_floating_point():
            xs.append(torch.randn(b, *rest, device="cuda").half())
        elif a.max() <= 1:
            mask = torch.ones(b, *rest, dtype=a.dtype, device="cuda")
            mask[:, max(1, rest[0] * 3 // 4):] = 0
            xs.append(mask)
        else:
            xs.append(torch.randint(0, 1000, (b, *rest), dtype=a.dtype,
                                    device="cuda"))
    return xs


def compile_so(brrrc, onnx_path, so, shapes, flags=()):
    start = time.time()
    cmd = [brrrc, onnx_path, "-o", so, "--precision=fp16", *flags]
    for shape in shapes:
        cmd += ["--input-shape", shape]
    out = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.time() - start
    err = None
    if out.returncode:
        lines = (out.stdout + out.stderr).strip().splitlines()
        err = next((ln for ln in lines if "error" in ln), lines[-1:] or "?")
    return seconds, err


def run(opts):
    # Shapes: batches, or with --max-seq BxS pairs.
    batches = [tuple(int(d) for d in b.split("x")) if "x" in b else int(b)
               for b in opts.batches.split(",")]
    failures = 0
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}"
          + (f"  brrrc flags: {opts.flags}" if opts.flags else ""), flush=True)
    for name in opts.only.split(","):
        model, args, inputs = build(name, batch=2)
        rests = ["x".join(str(d) for d in a.shape[1:]) for a in args]
        m = model.half().cuda().eval()
        example = tuple((a.half() if a.is_floating_point() else a).cuda()
                        for a in args)

        def shapes(batch, seq=None):
            return [f"{n}={batch}x{seq if seq is not None and is_tokens(a) else r}"
                    for n, r, a in zip(inputs, rests, args)]

        def shapes_at(k):
            return shapes(*k) if isinstance(k, tuple) else shapes(k)
        for exporter in opts.exporters.split(","):
            path = os.path.join(opts.work, f"{name}.{exporter}.dyn.onnx")
            try:
                export(m, example, inputs, path, exporter, opts.max_batch,
                       opts.max_seq)
            except Exception as err:  # torch could not export it
                print(f"{name} {exporter}: EXPORT FAILED {type(err).__name__}: "
                      f"{str(err).strip().splitlines()[0][:200]}", flush=True)
                failures += 1
                continue
            jobs = {"dyn": shapes(f"1..{opts.max_batch}",
                                  f"1..{opts.max_seq}" if opts.max_seq
                                  else None)}
            for b in batches:
                jobs[b] = shapes_at(b)
            sos = {k: path[:-5] + ".%s.so" % (
                "x".join(map(str, k)) if isinstance(k, tuple) else k)
                for k in jobs}
            with ThreadPoolExecutor(1 if opts.serial else len(jobs)) as pool:
                done = dict(zip(jobs, pool.map(
                    lambda k: compile_so(opts.brrrc, path, sos[k], jobs[k],
                                         opts.flags.split()),
                    jobs)))
            for k, (_, err) in done.items():
                if err:
                    print(f"{name} {exporter} {' '.join(jobs[k])}: "
                          f"COMPILE FAILED {err}",
                          flush=True)
                    failures += 1
            if done["dyn"][1]:
                continue
            static_s = statistics.median(done[b][0] for b in batches)
            print(f"{name} {exporter}: compile dynamic {done['dyn'][0]:.1f} s, "
                  f"static (median of {len(batches)}, "
                  f"{'one at a time' if opts.serial else 'in parallel'}) "
                  f"{static_s:.1f} s ({done['dyn'][0] / static_s:.2f}x)",
                  flush=True)
            dyn = brrr.load(sos["dyn"])
            torch._dynamo.reset()
            peer = None if opts.no_peer else torch.compile(
                m, dynamic=True, mode="reduce-overhead")
            print(f"{'model':10s} {'exporter':11s} {'shape':>7s} {'vs torch':>9s} "
                  f"{'brrr/f64':>9s} {'static/f64':>10s} {'torch/f64':>9s} "
                  f"{'dyn ms':>8s} "
                  f"{'static ms':>9s} {'dyn/st':>7s} {'peer ms':>8s} "
                  f"{'dyn/peer':>8s}", flush=True)
            for b in batches:
                xs = inputs_at(args, *b) if isinstance(b, tuple) \
                    else inputs_at(args, b)
                with torch.no_grad():
                    same = m(*xs)
                    ref = m.double()(*[x.double() if x.is_floating_point()
                                       else x for x in xs])
                    m.half()
                torch_err = rel_err(same, ref)
                ctx = dyn.context()
                # The export's declared output type (TorchScript's BERT
                # returns f32 from an f16 model).
                y = torch.full(tuple(same.shape), float("nan"),
                               dtype=getattr(torch, dyn.outputs[0].dtype),
                               device="cuda")
                ctx.run(*xs, outputs=[y])
                torch.cuda.synchronize()
                e, e64 = rel_err(y, same), rel_err(y, ref)
                ok = e <= TOLERANCE or e64 <= max(TOLERANCE, 1.25 * torch_err)
                failures += not ok
                t_dyn = median_ms(lambda: ctx.run(*xs, outputs=[y]))
                t_st = e_st = float("nan")
                if not done[b][1]:
                    st = brrr.load(sos[b]).context()
                    ys = torch.full_like(y, float("nan"))
                    st.run(*xs, outputs=[ys])
                    torch.cuda.synchronize()
                    e_st = rel_err(ys, ref)
                    t_st = median_ms(lambda: st.run(*xs, outputs=[ys]))
                t_peer = float("nan")
                if peer is not None:
                    with torch.no_grad():
                        for _ in range(3):
                            peer(*xs)
                        t_peer = median_ms(lambda: peer(*xs))
                shape = "x".join(map(str, b)) if isinstance(b, tuple) else b
                print(f"{name:10s} {exporter:11s} {shape:>7} {e:9.2e} {e64:9.2e} "
                      f"{e_st:10.2e} {torch_err:9.2e} {t_dyn:8.3f} {t_st:9.3f} "
                      f"{t_dyn / t_st:7.2f} {t_peer:8.3f} "
                      f"{t_dyn / t_peer:8.2f}" + ("" if ok else "  MISMATCH"),
                      flush=True)
            torch._dynamo.reset()
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("brrrc")
    p.add_argument("work")
    p.add_argument("--only", default="resnet50")
    p.add_argument("--batches", default="1,7,32,128")
    p.add_argument("--max-batch", type=int, default=128)
    p.add_argument("--max-seq", type=int, default=0,
                   help="make token inputs' sequence dynamic too, up to this "
                   "length; --batches then lists BxS shapes")
    p.add_argument("--exporters", default="dynamo,torchscript")
    p.add_argument("--serial", action="store_true",
                   help="compile one library at a time (comparable compile times)")
    p.add_argument("--no-peer", action="store_true",
                   help="time brrr's dynamic and static libraries only")
    p.add_argument("--flags", default="",
                   help="extra brrrc flags for every compile, e.g. "
                   "--flags=--few-rows-mma=never")
    opts = p.parse_args()
    os.makedirs(opts.work, exist_ok=True)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    sys.exit(1 if run(opts) else 0)


if __name__ == "__main__":
    main()
