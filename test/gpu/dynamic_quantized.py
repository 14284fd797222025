#!/usr/bin/env python3
"""Quantized models over a symbolic batch and sequence, one compile each.

Runs on the GPU machine (numpy, onnx, onnxruntime, the relocatable
bundle's brrrc and Python package), from test/gpu:

  dynamic_quantized.py BRRRC MODELS WORKDIR

MODELS is the shared test models' directory (its qdq/ and dyn/).

- Explicit quantization: the QDQ MLPs and CNNs of MODELS/qdq (INT8 and
  FP8), their batch made a dimension `batch`, compiled once for a range of
  batches; at batches 1, 5 and the file's own, on fresh inputs, brrr's
  output against onnxruntime's CPU run of the same file (optimizations
  off), held to qdq_models.py's bound (one quantization step of the last
  quantized activation times the largest weight sum after it). At the
  file's own batch, also against a static compile of the file: where the
  dynamic library is outside the bound and the static one gives the same
  output, the row says so and it is not the dynamic shape's failure
  (qdq_models.py owns the static check).
- Post-training quantization: the tiny BERT of MODELS/dyn (f32, token ids),
  compiled once for 1..64 x 128 tokens and once for 1..64 x 1..512 with
  --precision=int8 and fp8, calibrated (`--calibrate`) on samples of
  different shapes (seeds 1, 2, ...); at several shapes, ragged ones among
  them, on fresh token ids, its output against a static compile of that
  shape from the same calibration cache (the same scales: the two must
  agree), and against onnxruntime's run of the f32 model (printed, for
  scale). Over a symbolic sequence the attention kernel quantizes its
  output for the 8-bit product after it.

Exits non-zero on a failed compile or a check outside its bound.
"""

import os
import subprocess
import sys

import numpy as np
import onnx

import brrr
from qdq_models import ort_run, within_one_step

QDQ = {"mlp_int8": 64, "mlp_fp8": 64, "cnn_int8": 8, "cnn_fp8": 8}
PTQ_SEQ = 128
PTQ_CALIBRATION = [2, 8, 1, 4]
PTQ_BATCHES = [1, 3, 16, 64]
# Batch and sequence both symbolic: the attention over the actual sequence
# quantizes its output for the 8-bit product after it.
PTQ_SEQ_CALIBRATION = [(1, 16), (2, 77), (4, 128), (1, 1), (3, 512)]
PTQ_SEQ_TESTS = [(1, 1), (1, 17), (3, 77), (2, 128), (4, 511)]
# brrr's dynamic build against its static build of one shape, from the
# same scales (relative L2).
SAME_SCALES = 1e-2


def compile_so(brrrc, path, so, flags):
    out = subprocess.run([brrrc, path, "-o", so] + flags, capture_output=True,
                         text=True)
    if out.returncode:
        print(f"COMPILE FAILED {os.path.basename(path)} {' '.join(flags)}: "
              f"{(out.stdout + out.stderr).strip()[-400:]}", flush=True)
        return False
    return True


def run(so, feeds):
    """The library's first output for host arrays `feeds`."""
    return np.asarray(brrr.load(so).context().run(feeds)[0])


def rel(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if not np.all(np.isfinite(a)):
        return float("inf")
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30))


def explicit(brrrc, models, work):
    failures = 0
    for name, most in QDQ.items():
        src = os.path.join(models, "qdq", name + ".onnx")
        m = onnx.load(src)
        own = m.graph.input[0].type.tensor_type.shape.dim[0].dim_value
        rest = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim[1:]]
        for v in list(m.graph.input) + list(m.graph.output):
            v.type.tensor_type.shape.dim[0].dim_param = "batch"
        path = os.path.join(work, name + "_batch.onnx")
        onnx.save(m, path)
        so = path[:-5] + ".so"
        static = os.path.join(work, name + ".static.so")
        shape = "x".join(map(str, [f"1..{most}"] + rest))
        if not (compile_so(brrrc, path, so, [f"--input-shape=x={shape}"]) and
                compile_so(brrrc, src, static, [])):
            failures += 1
            continue
        rng = np.random.default_rng(7)
        for b in sorted({1, 5, own}):
            x = rng.standard_normal((b, *rest)).astype(np.float32)
            ref = ort_run(path, {"x": x}).astype(np.float64)
            y = run(so, {"x": x}).astype(np.float64)
            err, bound, ok = within_one_step(path, y, ref)
            note = "" if ok else "  FAIL"
            if b == own:
                same = np.array_equal(y, run(static, {"x": x}))
                note += ", static identical" if same else ", static differs"
                if not ok and same:
                    note = "  outside the bound, as the static build"
                    ok = True
            failures += not ok
            print(f"qdq {name:9s} batch {b:3d} of 1..{most}: max|brrr-ort| "
                  f"{err:.4g} bound {bound:.4g}{note}", flush=True)
    return failures


def post_training(brrrc, models, work, name, shape_range, calibration,
                  tests):
    """Calibrates the tiny BERT on `calibration` (token-id shapes), compiles
    it once for `shape_range` (`BxS` with ranges) per 8-bit precision, and
    checks it at each shape of `tests` against a static compile of that
    shape from the same calibration cache."""
    failures = 0
    path = os.path.join(models, "dyn", "bert_dynamo.onnx")
    samples = os.path.join(work, name + ".samples")
    os.makedirs(samples, exist_ok=True)
    for i, shape in enumerate(calibration):
        ids = np.random.default_rng(i + 1).integers(0, 1024, shape)
        np.save(os.path.join(samples, f"{i}.npy"), ids.astype(np.int64))
    print(f"ptq {name}: one compile for {shape_range}, calibrated on "
          f"{calibration}", flush=True)
    rng = np.random.default_rng(7)
    inputs = {s: rng.integers(0, 1024, s).astype(np.int64) for s in tests}
    for precision in ("int8", "fp8"):
        cache = os.path.join(work, f"{name}.{precision}.calibration")
        so = os.path.join(work, f"{name}.{precision}.dyn.so")
        if not compile_so(brrrc, path, so, [
                f"--precision={precision}", f"--calibrate={samples}",
                f"--calibration-cache={cache}",
                f"--input-shape=x={shape_range}"]):
            failures += 1
            continue
        for s, ids in inputs.items():
            static = os.path.join(work, f"{name}.{precision}.{s[0]}x{s[1]}.so")
            if not compile_so(brrrc, path, static, [
                    f"--precision={precision}", f"--calibration-cache={cache}",
                    f"--input-shape=x={s[0]}x{s[1]}"]):
                failures += 1
                continue
            y = run(so, {"x": ids})
            ys = run(static, {"x": ids})
            f32 = ort_run(path, {"x": ids})
            same = rel(y, ys)
            ok = y.shape == ys.shape and same <= SAME_SCALES
            failures += not ok
            print(f"ptq {name} {precision} {s[0]}x{s[1]:<4d}: dynamic/static "
                  f"{same:.2e}, dynamic/f32 {rel(y, f32):.2e}, static/f32 "
                  f"{rel(ys, f32):.2e}" + ("" if ok else "  FAIL"), flush=True)
    return failures


def main():
    brrrc, models, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    failures = explicit(brrrc, models, work)
    failures += post_training(
        brrrc, models, work, "batch", f"1..64x{PTQ_SEQ}",
        [(b, PTQ_SEQ) for b in PTQ_CALIBRATION],
        [(b, PTQ_SEQ) for b in PTQ_BATCHES])
    failures += post_training(brrrc, models, work, "sequence", "1..64x1..512",
                              PTQ_SEQ_CALIBRATION, PTQ_SEQ_TESTS)
    print(f"dynamic_quantized: {failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
