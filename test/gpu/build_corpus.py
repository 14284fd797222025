#!/usr/bin/env python3
"""Compiles the GPU check corpus on the build machine (no GPU needed).

Writes DEST/<case>/model.so plus inputs and reference outputs as .npy:
  - every ONNX backend node test that brrrc compiles (references from the
    test data), and
  - generated kernel cases (kernel_cases.py: pointwise chains, broadcasts,
    f16/bf16/int/bool, ragged sizes, every kernel family), whose
    references run_checks.py computes on the device in float64 with torch
    (kernel_references.py).

Usage: build_corpus.py BRRRC DEST [--onnx-data DIR] [--jobs N] [--only WORDS]
(--only: just the kernel cases and ONNX backend node tests whose names
contain one of the comma-separated WORDS, for a check of one change.)
Run it with Debian's /usr/bin/python3 (onnx, numpy).
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from kernel_cases import FLAGS, GRAPH_OF, KERNEL_CASES, OPSETS, TOLERANCES
from kernel_constants import CONSTANTS, TENSOR_CONSTANTS


def compile_case(brrrc, model, dest, flags=()):
    os.makedirs(dest, exist_ok=True)
    proc = subprocess.run([brrrc, model, "-o", os.path.join(dest, "model.so"), *flags],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        shutil.rmtree(dest, ignore_errors=True)
        return False, proc.stderr.strip().splitlines()[-1:] or ["?"]
    return True, []


def declared_shapes(model_path):
    """Static input shapes the model declares (None where unknown)."""
    g = onnx.load(model_path, load_external_data=False).graph
    inits = {i.name for i in g.initializer}
    return [tuple(d.dim_value if d.HasField("dim_value") else None
                  for d in i.type.tensor_type.shape.dim)
            for i in g.input if i.name not in inits]


def backend_case(brrrc, model_dir, dest):
    ok, why = compile_case(brrrc, os.path.join(model_dir, "model.onnx"), dest)
    if not ok:
        return ok, why
    # A few test sets feed shapes their own model does not declare; the
    # runtime rejects those (as it should), so they cannot check results.
    data = os.path.join(model_dir, "test_data_set_0")
    for i, shape in enumerate(declared_shapes(os.path.join(model_dir, "model.onnx"))):
        t = onnx.TensorProto()
        with open(os.path.join(data, f"input_{i}.pb"), "rb") as f:
            t.ParseFromString(f.read())
        if tuple(t.dims) != shape:
            shutil.rmtree(dest, ignore_errors=True)
            print(f"{os.path.basename(model_dir)}: input {i} data has shape "
                  f"{tuple(t.dims)}, the model declares {shape}; not a check case")
            return False, ["inconsistent test data"]
    data = os.path.join(model_dir, "test_data_set_0")
    for kind in ("input", "output"):
        i = 0
        while os.path.exists(os.path.join(data, f"{kind}_{i}.pb")):
            t = onnx.TensorProto()
            with open(os.path.join(data, f"{kind}_{i}.pb"), "rb") as f:
                t.ParseFromString(f.read())
            # numpy_helper gives rank-0 tensors shape (1,): use the dims.
            arr = numpy_helper.to_array(t).reshape(tuple(t.dims))
            if t.data_type == TensorProto.BFLOAT16 and kind == "input":
                # The model reads raw bf16 bits; the values are exact bf16.
                arr = (np.asarray(arr, np.float32).view(np.uint32) >> 16).astype(np.uint16)
            np.save(os.path.join(dest, f"{kind}_{i}.npy"), arr)
            i += 1
    with open(os.path.join(dest, "case.json"), "w") as f:
        json.dump({"reference": "onnx"}, f)
    return True, []


def kernel_case(brrrc, case, dest_root):
    name, nodes, ins, outs = case
    used = {i for node in nodes for i in node.input}
    inits = [numpy_helper.from_array(v, k) for k, v in CONSTANTS.items() if k in used]
    inits += [t for k, t in TENSOR_CONSTANTS.items() if k in used]
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info(a, t, s) for a, t, s in ins],
        [helper.make_tensor_value_info(a, t, s) for a, t, s in outs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSETS.get(name, 17))])
    model.ir_version = 8
    dest = os.path.join(dest_root, name)
    os.makedirs(dest, exist_ok=True)
    path = os.path.join(dest, "model.onnx")
    onnx.save(model, path)
    ok, why = compile_case(brrrc, path, dest, FLAGS.get(name, ()))
    if ok:
        os.remove(path)
        meta = {"reference": "torch", "name": name}
        if name in GRAPH_OF:
            meta["graph"] = GRAPH_OF[name]
        if name in TOLERANCES:
            meta["tolerance"] = TOLERANCES[name]
        with open(os.path.join(dest, "case.json"), "w") as f:
            json.dump(meta, f)
    return ok, why


# Accuracy each --precision promises against an f32 reference (README).
PRECISION_TOLERANCE = {"tf32": 5e-3, "fp16": 2e-2, "bf16": 2e-2}


def example_case(brrrc, model, dest, precision=None):
    """A bundled example, checked against onnxruntime on the device; with
    `precision`, compiled with --precision and held to that mode's
    tolerance."""
    flags = [f"--precision={precision}"] if precision else []
    ok, why = compile_case(brrrc, model, dest, flags)
    if ok:
        shutil.copy(model, os.path.join(dest, "model.onnx"))
        with open(os.path.join(dest, "case.json"), "w") as f:
            # Whole models: float16 activations (norm_block) round at every
            # kernel boundary; f32 models compound rounding over many kernels.
            json.dump({"reference": "onnxruntime",
                       "tolerance": PRECISION_TOLERANCE.get(precision, 5e-3)}, f)
    return ok, why


def main():
    p = argparse.ArgumentParser()
    p.add_argument("brrrc")
    p.add_argument("dest")
    p.add_argument("--onnx-data", default="/usr/share/libonnx-testdata/data/node")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--only", default="")
    args = p.parse_args()
    only = [w for w in args.only.split(",") if w]
    cases = [c for c in KERNEL_CASES if not only or any(w in c[0] for w in only)]
    shutil.rmtree(args.dest, ignore_errors=True)
    os.makedirs(args.dest)
    jobs = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for case in cases:
            jobs.append((case[0], pool.submit(kernel_case, args.brrrc, case, args.dest)))
        examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "examples")
        for ex in [] if only else sorted(os.listdir(examples)):
            if ex.endswith(".onnx"):
                jobs.append(("example_" + ex[:-5], pool.submit(
                    example_case, args.brrrc, os.path.join(examples, ex),
                    os.path.join(args.dest, "example_" + ex[:-5]))))
        # The f32 examples in every lower precision.
        for ex in () if only else ("cnn_block", "transformer_block"):
            for precision in PRECISION_TOLERANCE:
                name = f"example_{ex}_{precision}"
                jobs.append((name, pool.submit(
                    example_case, args.brrrc, os.path.join(examples, ex + ".onnx"),
                    os.path.join(args.dest, name), precision)))
        for d in sorted(os.listdir(args.onnx_data)):
            if only and not any(w in d for w in only):
                continue
            jobs.append((d, pool.submit(backend_case, args.brrrc,
                                        os.path.join(args.onnx_data, d),
                                        os.path.join(args.dest, "onnx_" + d))))
        compiled = [name for name, j in jobs if j.result()[0]]
    kernel_names = {c[0] for c in cases}
    missing = kernel_names - set(compiled)
    for name, j in jobs:
        if name in missing:
            print(f"kernel case {name} did not compile: {j.result()[1]}")
    print(f"compiled {len(compiled)} cases "
          f"({len([c for c in compiled if c in kernel_names])} kernel cases)")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
