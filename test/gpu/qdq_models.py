#!/usr/bin/env python3
"""QDQ models against onnxruntime's CPU execution of the same files.

Runs on the GPU machine (numpy, onnx, onnxruntime), from test/gpu, with the
brrr package on PYTHONPATH:

  qdq_models.py MODELS_DIR SO_DIR

MODELS_DIR holds the QDQ test models (NAME.onnx) and their inputs
(mlp.npz, cnn.npz, bert.npz: `x`, `y_fp32`, `y_int8`; mlp_fp8.npz: `x`,
`y_fp8`); SO_DIR holds NAME.so, each compiled by brrrc from NAME.onnx.
onnxruntime runs every model with graph optimizations off (its QDQ fusion
rejects float8), and its INT8 outputs are compared with the `.npz`'s as a
check of the reference itself.

The bound: brrr's output and onnxruntime's may differ by one quantization
step of the activation quantized last before the output, times the largest
weight sum that step can reach, no more (a value on a rounding boundary
rounds either way when the two sum in different orders). Reported per
model: max |brrr - ort|, that bound, and both against the float model
(the largest and the mean difference: a value that rounds the other way
at one quantization moves a few outputs, not the whole).
Exits non-zero if a model exceeds its bound or fails to run.
"""

import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

import brrr

MODELS = ["mlp_int8", "cnn_int8", "bert_int8", "mlp_fp8", "cnn_fp8", "bert_fp8"]


def npz_of(name):
    return "mlp_fp8" if name == "mlp_fp8" else name.split("_")[0]


def ort_run(path, feeds):
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    s = ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    return s.run(None, feeds)[0]


def last_step(path):
    """The scale of the last QuantizeLinear before the output, and the
    largest sum of |weights| of the product that consumes it (1 if no
    product follows)."""
    m = onnx.load(path)
    inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    consts = {}
    for n in m.graph.node:
        if n.op_type == "Constant":
            consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
    vals = {**inits, **consts}
    producers = {o: n for n in m.graph.node for o in n.output}
    quants = [n for n in m.graph.node if n.op_type == "QuantizeLinear"]
    q = quants[-1]
    scale = float(np.max(vals[q.input[1]].astype(np.float64)))
    # The consumer chain: Q -> DQ -> product whose other operand is a DQ of a
    # constant weight.
    gain = 1.0
    consumers = [n for n in m.graph.node if q.output[0] in n.input]
    for dq in consumers:
        for prod in [n for n in m.graph.node if dq.output[0] in n.input]:
            for w in prod.input:
                p = producers.get(w)
                if p is not None and p.op_type == "DequantizeLinear" and p.input[0] in vals:
                    wq = vals[p.input[0]].astype(np.float64)
                    ws = vals[p.input[1]].astype(np.float64)
                    if wq.ndim == 2 and ws.ndim == 1:
                        wf = wq * (ws[None, :] if ws.shape[0] == wq.shape[1] else ws[:, None])
                    else:
                        wf = wq * ws
                    gain = max(gain, float(np.max(np.sum(np.abs(wf), axis=0))),
                               float(np.max(np.sum(np.abs(wf), axis=-1))))
    return scale, gain


def within_one_step(path, y, ref):
    """brrr's output `y` against onnxruntime's `ref` for the model at
    `path`: (the largest difference, the bound, whether y is finite and
    within the bound, give or take f32's rounding of it)."""
    scale, gain = last_step(path)
    bound = scale * gain
    err = float(np.max(np.abs(y - ref)))
    return err, bound, bool(np.all(np.isfinite(y))) and err <= bound * (1 + 1e-5)


def main():
    models_dir, so_dir = sys.argv[1], sys.argv[2]
    failures = 0
    print(f"{'model':<10} {'max|brrr-ort|':>14} {'bound':>10} {'|ort-fp32|':>11}"
          f" {'|brrr-fp32|':>11} {'mean|b-o|':>10} {'mean|o-f|':>10} {'mean|b-f|':>10}"
          f" {'max|y|':>8}  result")
    for name in MODELS:
        path = os.path.join(models_dir, name + ".onnx")
        data = np.load(os.path.join(models_dir, npz_of(name) + ".npz"))
        x = data["x"]
        try:
            ref = ort_run(path, {"x": x}).astype(np.float64)
        except Exception as e:  # noqa: BLE001
            print(f"{name:<10} onnxruntime failed: {e}")
            failures += 1
            continue
        if "y_int8" in data and name.endswith("int8"):
            d = np.max(np.abs(ref - data["y_int8"]))
            if d > 1e-4 * max(1.0, np.max(np.abs(ref))):
                print(f"{name:<10} note: onnxruntime here differs from the npz by {d:.3g}")
        if name == "mlp_fp8":
            d = np.max(np.abs(ref - data["y_fp8"]))
            if d > 1e-4 * max(1.0, np.max(np.abs(ref))):
                print(f"{name:<10} note: onnxruntime here differs from the npz by {d:.3g}")
        try:
            model = brrr.load(os.path.join(so_dir, name + ".so"))
            inp = x.astype(model.inputs[0].dtype)
            y = np.asarray(model(inp)).astype(np.float64)
        except Exception as e:  # noqa: BLE001
            print(f"{name:<10} brrr failed: {e}")
            failures += 1
            continue
        err, bound, ok = within_one_step(path, y, ref)
        fp32 = data["y_fp32"].astype(np.float64) if "y_fp32" in data else None
        e_ort = float(np.max(np.abs(ref - fp32))) if fp32 is not None else float("nan")
        e_brrr = float(np.max(np.abs(y - fp32))) if fp32 is not None else float("nan")
        m_err = float(np.mean(np.abs(y - ref)))
        m_ort = float(np.mean(np.abs(ref - fp32))) if fp32 is not None else float("nan")
        m_brrr = float(np.mean(np.abs(y - fp32))) if fp32 is not None else float("nan")
        failures += not ok
        print(f"{name:<10} {err:>14.4g} {bound:>10.4g} {e_ort:>11.4g} {e_brrr:>11.4g}"
              f" {m_err:>10.3g} {m_ort:>10.3g} {m_brrr:>10.3g}"
              f" {np.max(np.abs(ref)):>8.3g}  {'PASS' if ok else 'FAIL'}")
    print("qdq:", "all pass" if not failures else f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
