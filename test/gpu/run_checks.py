#!/usr/bin/env python3
"""GPU correctness checks for a corpus made by build_corpus.py.

Runs on the GPU machine. Every case runs from C++ (cpp_run, host buffers,
outputs poisoned with 0xff bytes; cases whose directory holds a raii_run
binary, a host linked against that model.so through brrr_runtime.hpp,
run through it too) and, where the brrr Python package is
importable, from Python with numpy arrays and with torch CUDA tensors:
through the context's CUDA graph, with graphs off (every kernel launched
from the host), and captured into a torch CUDA graph replayed twice over
outputs poisoned with NaN / a sentinel before each replay. References: the
ONNX test data, or torch in float64 on fresh random inputs. Prints a table
and a summary line; exits non-zero on any failure.

Index-driven kernel cases (BAD_INDEX) also run with one index out of range
from C++, numpy and torch: each run must fail with BRRR_ERROR_INVALID_INPUT
and a message naming the node, the value and the extent, and the same
context must then run valid inputs correctly.

Usage: run_checks.py CORPUS CPP_RUN [--out DIR]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

from kernel_references import torch_inputs, torch_reference

TOL = {np.dtype("float32"): 1e-5, np.dtype("float64"): 1e-12,
       np.dtype("float16"): 2e-3, "bfloat16": 1e-2}


def rel_err(out, ref):
    """||out - ref|| / ||ref|| in float64, NaNs required at the same places."""
    out = np.asarray(out, np.float64)
    ref = np.asarray(ref, np.float64)
    if out.shape != ref.shape:
        return float("inf"), f"shape {out.shape} != {ref.shape}"
    nan_o, nan_r = np.isnan(out), np.isnan(ref)
    if (nan_o != nan_r).any():
        return float("inf"), f"{int((nan_o != nan_r).sum())} NaN mismatches"
    keep = ~nan_r
    inf_o, inf_r = np.isinf(out[keep]), np.isinf(ref[keep])
    if (inf_o != inf_r).any() or (out[keep][inf_r] != ref[keep][inf_r]).any():
        return float("inf"), "inf mismatch"
    o, r = out[keep][~inf_r], ref[keep][~inf_r]
    denom = np.linalg.norm(r)
    err = np.linalg.norm(o - r) / (denom if denom > 0 else 1.0)
    return float(err), f"max abs {np.max(np.abs(o - r)) if o.size else 0:.3g}"


def to_numpy(t):
    """A numpy array of a torch tensor; bf16 as float32 values."""
    if isinstance(t, np.ndarray):
        return t
    t = t.detach().cpu()
    if t.dtype == torch.bfloat16:
        return t.float().numpy()
    return t.numpy()


def save_input(path, t):
    """.npy bytes exactly as the model expects them (bf16: raw bits)."""
    t = t.detach().cpu().contiguous()
    arr = t.view(torch.int16).numpy().view(np.uint16) if t.dtype == torch.bfloat16 else t.numpy()
    np.save(path, arr)


def load_output(path, dtype_name):
    arr = np.load(path)
    if dtype_name == "bfloat16":
        return torch.from_numpy(arr.view(np.int16)).view(torch.bfloat16).float().numpy()
    return arr


def tolerance(dtype_name, ref):
    if dtype_name == "bfloat16":
        return TOL["bfloat16"]
    dt = np.dtype(dtype_name) if dtype_name else ref.dtype
    return TOL.get(dt, 0.0)


def check(outs, refs, out_dtypes, onnx_case, tol=None):
    """(passed, worst relative error, note) of outputs against references.
    ONNX cases: numpy allclose at the backend tests' rtol 1e-3 (1e-2 for
    bfloat16 outputs); generated cases: relative L2 error per dtype."""
    if len(outs) != len(refs):
        return False, float("inf"), f"{len(outs)} outputs, expected {len(refs)}"
    worst, notes = 0.0, []
    for o, r, dt in zip(outs, refs, out_dtypes):
        err, note = rel_err(o, r)
        if onnx_case and np.issubdtype(np.asarray(r).dtype, np.floating):
            rtol = 1e-2 if dt == "bfloat16" else 1e-3
            ok = np.isfinite(err) and np.allclose(
                np.asarray(o, np.float64), np.asarray(r, np.float64),
                rtol=rtol, atol=1e-5, equal_nan=True)
            if not ok:
                return False, err, f"outside rtol {rtol} atol 1e-5; " + note
        elif not err <= (tol if tol is not None else tolerance(dt, np.asarray(r))):
            return False, err, note
        worst = max(worst, err)
        notes.append(note)
    return True, worst, "; ".join(notes)

def write_inputs(directory, ins):
    """Saves `ins` as in_K.npy files in `directory`; returns their paths."""
    paths = []
    for k, t in enumerate(ins):
        paths.append(os.path.join(directory, f"in_{k}.npy"))
        save_input(paths[-1], t)
    return paths


def case_inputs(d, meta, gen):
    """A case's inputs (torch CPU tensors), reference outputs (numpy) and
    their dtypes (None: taken from the references): the ONNX test data,
    fresh random inputs run through onnxruntime, or fresh random inputs run
    through torch in float64."""
    if meta["reference"] == "onnx":
        ins = []
        i = 0
        while os.path.exists(os.path.join(d, f"input_{i}.npy")):
            ins.append(torch.from_numpy(np.load(os.path.join(d, f"input_{i}.npy"))))
            i += 1
        refs = []
        i = 0
        while os.path.exists(os.path.join(d, f"output_{i}.npy")):
            refs.append(np.load(os.path.join(d, f"output_{i}.npy")))
            i += 1
        if os.path.basename(d) == "onnx_test_cast_FLOAT_to_BFLOAT16":
            # ONNX 1.12's data truncates to bfloat16; the ONNX reference
            # since 1.13 (and the hardware) round to nearest even.
            refs = [ins[0].to(torch.bfloat16).float().numpy()]
        out_dtypes = [str(r.dtype) for r in refs]
    elif meta["reference"] == "onnxruntime":
        import onnxruntime as ort
        sess = ort.InferenceSession(os.path.join(d, "model.onnx"),
                                    providers=["CPUExecutionProvider"])
        ins = []
        for i in sess.get_inputs():
            shape = [int(x) for x in i.shape]
            dt = torch.float16 if "float16" in i.type else torch.float32
            ins.append(torch.randn(*shape, generator=gen).to(dt))
        feeds = {i.name: t.numpy() for i, t in zip(sess.get_inputs(), ins)}
        refs = sess.run(None, feeds)
        out_dtypes = [str(r.dtype) for r in refs]
    else:
        graph = meta.get("graph", meta["name"])
        ins = torch_inputs(graph, gen)
        refs = [to_numpy(r) for r in torch_reference(graph, ins)]
        out_dtypes = None
    return ins, refs, out_dtypes


def main():
    p = argparse.ArgumentParser()
    p.add_argument("corpus")
    p.add_argument("cpp_run")
    args = p.parse_args()
    try:
        import brrr  # noqa: F401
        have_py = hasattr(brrr, "load")
    except ImportError:
        have_py = False
    gen = torch.Generator().manual_seed(int.from_bytes(os.urandom(4), "little"))
    rows, failures = [], 0
    for case in sorted(os.listdir(args.corpus)):
        d = os.path.join(args.corpus, case)
        meta = json.load(open(os.path.join(d, "case.json")))
        so = os.path.join(d, "model.so")
        try:
            ins, refs, out_dtypes = case_inputs(d, meta, gen)
        except KeyError as e:
            # A case without inputs or a reference fails on its own row.
            failures += 1
            rows.append((case, False, {"reference": (False, float("inf"),
                                                     f"no inputs or reference for {e}")}))
            continue
        results = {}
        with tempfile.TemporaryDirectory() as tmp:
            paths = write_inputs(tmp, ins)
            # cpp: the C API through dlopen; cpp-raii: a host linked
            # against this model.so through brrr_runtime.hpp, where built.
            harnesses = [("cpp", args.cpp_run)]
            if os.access(os.path.join(d, "raii_run"), os.X_OK):
                harnesses.append(("cpp-raii", os.path.join(d, "raii_run")))
            for label, exe in harnesses:
                for old in os.listdir(tmp):
                    if old.startswith("out_"):
                        os.remove(os.path.join(tmp, old))
                proc = subprocess.run([exe, so, tmp] + paths,
                                      capture_output=True, text=True)
                if proc.returncode != 0:
                    results[label] = (False, float("inf"), proc.stderr.strip()[-200:])
                    continue
                outs, dts = [], []
                k = 0
                while os.path.exists(os.path.join(tmp, f"out_{k}.npy")):
                    raw = np.load(os.path.join(tmp, f"out_{k}.npy"))
                    with open(os.path.join(tmp, f"out_{k}.dtype")) as f:
                        dt = f.read().strip() or str(raw.dtype)
                    outs.append(load_output(os.path.join(tmp, f"out_{k}.npy"), dt))
                    dts.append(dt)
                    k += 1
                results[label] = check(outs, refs, dts, meta["reference"] == "onnx",
                                       meta.get("tolerance"))
        if have_py:
            results.update(run_python(so, ins, refs, out_dtypes, meta))
            if meta.get("name") in BAD_INDEX:
                results.update(run_bad_indices(so, ins, refs, meta, args.cpp_run))
        ok = all(passed for passed, _, _ in results.values())
        failures += not ok
        rows.append((case, ok, results))
    for case, ok, results in rows:
        detail = "  ".join(f"{k}: {e:.2e} ({n})" for k, (_, e, n) in results.items())
        print(f"{'PASS' if ok else 'FAIL'}  {case:55s} {detail}")
    print(f"gpu checks: {len(rows) - failures} passed, {failures} failed")
    return 1 if failures else 0


# Kernel cases that read indices: (input holding them, flat position of the
# index to corrupt, extent of the dimension it indexes, node name).
BAD_INDEX = {
    "gather_rows_negative": (1, 0, 50, "Gather_0"),
    "gather_elements_negative_f16": (1, 4, 70, "GatherElements_0"),
    "gather_nd_batch_f32": (1, 2, 9, "GatherND_0"),
    "scatter_nd_add_duplicates_f32": (1, 3, 10, "ScatterND_0"),
    "scatter_nd_replace_f16": (1, 0, 33, "ScatterND_0"),
    "scatter_elements_max_i64": (1, 5, 13, "ScatterElements_0"),
}


def run_bad_indices(so, ins, refs, meta, cpp_run):
    """Runs `so` with one index out of range from C++ (brrr_run_host), numpy
    (brrr_run_host) and torch (brrr_run, then Context.check after a
    synchronize), each expecting the error; then valid inputs on the same
    context. Values: past the end, below -extent, 5000 and 2^40."""
    import brrr
    which, pos, extent, node = BAD_INDEX[meta["name"]]
    res = {}

    def bad(value):
        out = [t.clone() for t in ins]
        out[which].view(-1)[pos] = value
        return out

    def expect(label, message, value):
        want = [f"node '{node}'", f"index {value} is out of range",
                f"of extent {extent}"]
        missing = [w for w in want if w not in message]
        res[label] = (not missing, 0.0 if not missing else float("inf"),
                      "reported" if not missing else
                      f"missing {missing} in: {message[-200:]}")

    with tempfile.TemporaryDirectory() as tmp:
        paths = write_inputs(tmp, bad(5000))
        proc = subprocess.run([cpp_run, so, tmp] + paths, capture_output=True,
                              text=True)
        if proc.returncode == 0:
            res["bad-cpp"] = (False, float("inf"), "the run succeeded")
        else:
            expect("bad-cpp", proc.stderr, 5000)
    try:
        model = brrr.load(so)
        np_bad = [to_numpy(t) for t in bad(2**40)]
        try:
            model(*np_bad)
            res["bad-numpy"] = (False, float("inf"), "the run succeeded")
        except brrr.BrrrError as e:
            if e.status_name != "BRRR_ERROR_INVALID_INPUT":
                res["bad-numpy"] = (False, float("inf"), str(e)[-200:])
            else:
                expect("bad-numpy", str(e), 2**40)
        outs = model(*[to_numpy(t) for t in ins])
        outs = outs if isinstance(outs, (list, tuple)) else [outs]
        res["bad-then-good-numpy"] = check(outs, refs, [str(o.dtype) for o in outs],
                                           False, meta.get("tolerance"))
        ctx = model.context()
        for label, value in (("bad-torch-past-end", extent),
                             ("bad-torch-below", -extent - 1)):
            ctx.run(*[t.cuda() for t in bad(value)])
            torch.cuda.synchronize()
            try:
                ctx.check()
                res[label] = (False, float("inf"), "no error reported")
            except brrr.BrrrError as e:
                expect(label, str(e), value)
        outs = ctx.run(*[t.cuda() for t in ins])
        torch.cuda.synchronize()
        ctx.check()
        res["bad-then-good-torch"] = check(
            [to_numpy(o) for o in outs], refs,
            [str(o.dtype).replace("torch.", "") for o in outs], False,
            meta.get("tolerance"))
        ctx.close()
    except Exception as e:  # noqa: BLE001 - report every failure as a row
        res["bad-py"] = (False, float("inf"), f"{type(e).__name__}: {e}"[:200])
    return res


def poisoned(t):
    """Fills `t` with a value no kernel computes by chance: NaN, or a
    recognizable integer pattern."""
    if t.dtype.is_floating_point:
        return t.fill_(float("nan"))
    if t.dtype == torch.bool:
        return t.fill_(True)
    return t.fill_(0x5A)


def run_python(so, ins, refs, out_dtypes, meta):
    import brrr
    res = {}

    def check_torch(outs):
        """check() of torch CUDA outputs."""
        return check([to_numpy(o) for o in outs], refs,
                     [str(o.dtype).replace("torch.", "") for o in outs],
                     meta["reference"] == "onnx", meta.get("tolerance"))

    try:
        model = brrr.load(so)
        np_ins = [to_numpy(t) if t.dtype != torch.bfloat16 else None for t in ins]
        if all(a is not None for a in np_ins):
            outs = model(*np_ins)
            outs = outs if isinstance(outs, (list, tuple)) else [outs]
            res["py-numpy"] = check(outs, refs, [str(o.dtype) for o in outs],
                                    meta["reference"] == "onnx", meta.get("tolerance"))
        # ONNX data holds bfloat16 as raw uint16 bits; torch has the type.
        dev = [t.view(torch.bfloat16).cuda() if info.dtype == "bfloat16" and t.dtype == torch.uint16
               else t.cuda() for t, info in zip(ins, model.inputs)]
        outs = model(*dev)
        outs = outs if isinstance(outs, (list, tuple)) else [outs]
        res["py-torch"] = check_torch(outs)
        # The two paths that launch each kernel from the host rather than
        # through the context's own CUDA graph (programmatic launches
        # included): graphs off, and the kernels captured into the caller's
        # graph and replayed twice over poisoned outputs.
        eager = model.context(cuda_graphs=False)
        outs = eager.run(*dev)
        res["py-eager"] = check_torch(outs)
        eager.close()
        ctx = model.context()
        outs = [poisoned(torch.empty(i.shape, dtype=getattr(torch, i.dtype),
                                     device="cuda")) for i in model.outputs]
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            ctx.run(*dev, outputs=outs)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            ctx.run(*dev, outputs=outs)
        for _ in range(2):
            for o in outs:
                poisoned(o)
            graph.replay()
        torch.cuda.synchronize()
        res["py-captured"] = check_torch(outs)
        ctx.close()
    except Exception as e:  # noqa: BLE001 - report every failure as a row
        res["py"] = (False, float("inf"), f"{type(e).__name__}: {e}"[:200])
    return res


if __name__ == "__main__":
    sys.exit(main())
