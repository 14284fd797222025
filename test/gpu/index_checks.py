#!/usr/bin/env python3
"""Out-of-range indices on whole models, and what the checks cost.

Runs on the GPU machine (torch, transformers, numpy, a C++ compiler), from
test/gpu, with the brrr package on PYTHONPATH:

  index_checks.py BRRRC CPP_RUN DIR

1. A tiny BERT (vocabulary 1,024; dynamo export, f32) is compiled once and
   run with token ids 5000 and 2^40 among valid ones from C (cpp_run, the C
   API through dlopen), C++ (a host linked against the model.so through
   brrr_runtime.hpp) and Python (numpy: brrr_run_host; torch: brrr_run and
   Context.check after a synchronize). Every run must fail with
   BRRR_ERROR_INVALID_INPUT and a message naming a Gather node, the value and
   the extent 1024; the same context must then run valid ids, negative ones
   included, to torch's output (negative ids wrapped for torch, whose
   embedding refuses them).
2. Cost: BERT-base (fp16, batch 1, 128 tokens) and a gather-heavy model
   (eight embedding tables of 50,000 x 128 in f16 summed over 4,096 ids
   each, batch 4096) compiled with and without --unchecked-indices: GPU time
   per run (CUDA events around each CUDA-graph replay, alternating rounds,
   median), host time of one brrr_run (cpp_run --host-overhead), and torch
   eager in the same run.

Prints a report; exits non-zero if any check fails.
"""

import os
import statistics
import subprocess
import sys

import numpy as np
import torch

import brrr
from models import _Outputs, export

VOCAB = 1024
failures = []


def fail(what):
    failures.append(what)
    print("FAIL", what)


def compile_model(brrrc, onnx_path, so, flags=()):
    proc = subprocess.run([brrrc, onnx_path, "-o", so, *flags],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"brrrc {onnx_path} {flags}: {proc.stderr[-400:]}")


def expect_error(label, message, value):
    want = [f"index {value} is out of range", "of extent 1024", "': Gather index",
            "node '"]
    missing = [w for w in want if w not in message]
    if missing:
        fail(f"{label}: missing {missing} in {message!r}")
    else:
        print(f"ok   {label}: {message.strip().splitlines()[-1][:220]}")


def tiny_bert(brrrc, cpp_run, d):
    import transformers as tf
    torch.manual_seed(0)
    cfg = tf.BertConfig(hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=256, vocab_size=VOCAB,
                        max_position_embeddings=64)
    model = _Outputs(tf.BertModel(cfg).eval())
    seq = 16
    ids = torch.randint(0, VOCAB, (1, seq))
    mask = torch.ones(1, seq, dtype=torch.int64)
    path = os.path.join(d, "tiny_bert.onnx")
    export(model, (ids, mask), ["input_ids", "attention_mask"], path, "dynamo")
    so = os.path.join(d, "tiny_bert.so")
    compile_model(brrrc, path, so)
    # The C++ host linked against this library.
    raii = os.path.join(d, "raii_run")
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.join(here, "..", "..")
    subprocess.run(["g++", "-O2", "-std=c++17", "-I", os.path.join(root, "runtime"),
                    "-I", here, os.path.join(here, "cpp_raii_run.cpp"), so,
                    "-Wl,-rpath," + d, "-o", raii], check=True)

    def with_id(value, at=5):
        bad = ids.clone()
        bad[0, at] = value
        return bad

    # C and C++ (host buffers, brrr_run_host).
    for label, exe, value in (("C, id 5000", cpp_run, 5000),
                              ("C, id 2^40", cpp_run, 2**40),
                              ("C++, id 5000", raii, 5000),
                              ("C++, id 2^40", raii, 2**40)):
        np.save(os.path.join(d, "ids.npy"), with_id(value).numpy())
        np.save(os.path.join(d, "mask.npy"), mask.numpy())
        proc = subprocess.run([exe, so, d, os.path.join(d, "ids.npy"),
                               os.path.join(d, "mask.npy")],
                              capture_output=True, text=True)
        if proc.returncode == 0:
            fail(f"{label}: the run succeeded")
        else:
            expect_error(label, proc.stderr, value)

    m = brrr.load(so)
    with torch.no_grad():
        torch.backends.cuda.matmul.allow_tf32 = False
        valid = ids.clone()
        valid[0, 2], valid[0, 7] = -1, -VOCAB  # negative ids, valid in ONNX
        ref = model.cuda()(valid.remainder(VOCAB).cuda(), mask.cuda()).float().cpu()

    def close(out, label):
        out = torch.as_tensor(np.asarray(out) if not torch.is_tensor(out) else out)
        err = ((out.float().cpu() - ref).norm() / ref.norm()).item()
        if err > 1e-3:
            fail(f"{label}: relative error {err:.2e} against torch")
        else:
            print(f"ok   {label}: relative error {err:.2e} against torch")

    # Python with numpy.
    for value in (5000, 2**40):
        try:
            m(with_id(value).numpy(), mask.numpy())
            fail(f"numpy, id {value}: the run succeeded")
        except brrr.BrrrError as e:
            if e.status_name != "BRRR_ERROR_INVALID_INPUT":
                fail(f"numpy, id {value}: {e.status_name}")
            expect_error(f"Python numpy, id {value}", str(e), value)
    close(m(valid.numpy(), mask.numpy()), "Python numpy, valid ids after the errors")

    # Python with torch CUDA tensors: an asynchronous run, checked after a
    # synchronize; an unchecked error fails the next run.
    ctx = m.context()
    dmask = mask.cuda()
    for value in (5000, 2**40):
        ctx.run(with_id(value).cuda(), dmask)
        torch.cuda.synchronize()
        try:
            ctx.check()
            fail(f"torch, id {value}: no error reported")
        except brrr.BrrrError as e:
            expect_error(f"Python torch + check(), id {value}", str(e), value)
    ctx.run(with_id(5000).cuda(), dmask)
    torch.cuda.synchronize()
    try:
        ctx.run(valid.cuda(), dmask)
        fail("torch: the run after an unreported error ran")
    except brrr.BrrrError as e:
        if "a run queued earlier" not in str(e):
            fail(f"torch, next run: {e}")
        else:
            expect_error("Python torch, the next run", str(e), 5000)
    out = ctx.run(valid.cuda(), dmask)[0]
    torch.cuda.synchronize()
    ctx.check()
    close(out, "Python torch, valid ids after the errors")
    ctx.close()


def gpu_ms(runs, rounds=5, iters=200):
    """Median per-run GPU time of each of `runs` (callables), alternating
    rounds after warm-up."""
    times = [[] for _ in runs]
    for f in runs:
        for _ in range(20):
            f()
    torch.cuda.synchronize()
    for _ in range(rounds):
        for k, f in enumerate(runs):
            start, end = torch.cuda.Event(True), torch.cuda.Event(True)
            start.record()
            for _ in range(iters):
                f()
            end.record()
            end.synchronize()
            times[k].append(start.elapsed_time(end) / iters)
    return [statistics.median(t) for t in times]


def host_us(cpp_run, so):
    out = subprocess.run([cpp_run, so, "--host-overhead", "3000"], capture_output=True,
                         text=True, check=True).stdout
    return float(out.split()[-1])


class Embeddings(torch.nn.Module):
    def __init__(self, tables=8, rows=50000, width=128):
        super().__init__()
        self.tables = torch.nn.ModuleList(torch.nn.Embedding(rows, width)
                                          for _ in range(tables))

    def forward(self, ids):
        out = self.tables[0](ids[0])
        for k in range(1, len(self.tables)):
            out = out + self.tables[k](ids[k])
        return out


def cost(brrrc, cpp_run, d):
    import transformers as tf
    torch.manual_seed(0)
    rows = []
    cases = []
    bert = _Outputs(tf.BertModel(tf.BertConfig()).eval()).half()
    ids = torch.randint(0, 30522, (1, 128))
    mask = torch.ones(1, 128, dtype=torch.int64)
    cases.append(("BERT-base fp16, batch 1 x 128", bert, (ids, mask),
                  ["input_ids", "attention_mask"], ["--precision=fp16"]))
    emb = Embeddings().eval().half()
    eids = torch.randint(0, 50000, (8, 4096))
    cases.append(("8 embedding tables 50000x128 f16, 4096 ids", emb, (eids,), ["ids"], []))
    for k, (name, model, args, names, flags) in enumerate(cases):
        # brrr.load keeps each library it loaded by path: a name per model.
        path = os.path.join(d, f"cost{k}.onnx")
        export(model, args, names, path, "dynamo")
        so_c = os.path.join(d, f"checked{k}.so")
        so_u = os.path.join(d, f"unchecked{k}.so")
        compile_model(brrrc, path, so_c, flags)
        compile_model(brrrc, path, so_u, [*flags, "--unchecked-indices"])
        mc, mu = brrr.load(so_c), brrr.load(so_u)
        dev = [a.cuda() for a in args]
        cc, cu = mc.context(), mu.context()
        outs_c = [torch.empty(o.shape, dtype=getattr(torch, o.dtype), device="cuda")
                  for o in mc.outputs]
        outs_u = [torch.empty_like(o) for o in outs_c]
        model = model.cuda()
        with torch.no_grad():
            ref = model(*dev)
            t_c, t_u, t_eager = gpu_ms([lambda: cc.run(*dev, outputs=outs_c),
                                        lambda: cu.run(*dev, outputs=outs_u),
                                        lambda: model(*dev)])
        torch.cuda.synchronize()
        cc.check()
        err = ((outs_c[0].float() - ref.float()).norm() / ref.float().norm()).item()
        same = torch.equal(outs_c[0], outs_u[0])
        h_c, h_u = host_us(cpp_run, so_c), host_us(cpp_run, so_u)
        rows.append((name, t_c, t_u, t_eager, h_c, h_u, err, same))
        cc.close()
        cu.close()
        model.cpu()
    print()
    print("| model | checked ms | unchecked ms | torch eager ms | checked host us "
          "per brrr_run | unchecked host us | rel. err vs torch | outputs identical |")
    print("|---|---|---|---|---|---|---|---|")
    for name, t_c, t_u, t_e, h_c, h_u, err, same in rows:
        print(f"| {name} | {t_c:.4f} | {t_u:.4f} | {t_e:.4f} | {h_c:.2f} | {h_u:.2f} | "
              f"{err:.1e} | {same} |")
        if err > 2e-2 or not same:
            fail(f"{name}: error {err:.2e}, checked and unchecked identical: {same}")


def main():
    brrrc, cpp_run, d = sys.argv[1:4]
    os.makedirs(d, exist_ok=True)
    print(torch.cuda.get_device_name())
    tiny_bert(brrrc, cpp_run, d)
    cost(brrrc, cpp_run, d)
    print(f"index checks: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
