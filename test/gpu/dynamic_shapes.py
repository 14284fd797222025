"""Models compiled for a range of shapes, checked and timed on the GPU.

Runs on the GPU machine with the relocatable bundle's brrrc and Python
package. Builds small ONNX models of the kernel families that compile over
symbolic extents (so far: pointwise and row kernels, layer norm and
softmax with their prologues and epilogues, products whose rows are
symbolic, lookups along a symbolic sequence, and over a symbolic batch of
images: convolutions, data movement, pooling and reductions), compiles each once with ranges
(`--input-shape x=1..8x1..512x64`), and at each of several shapes, ragged
ones included:
- runs it on fresh random inputs from numpy (brrr_run_host) and from torch
  CUDA tensors into NaN-poisoned outputs, and compares both with float64
  numpy;
- checks that a shape outside the range raises BRRR_ERROR_INVALID_SHAPE and
  the model runs on;
- with --time, times the dynamic library against a static compile of the
  same shape: the kernels alone (brrr_profile's CUDA events, median of 30
  profiles) and whole calls from Python (CUDA events around each call,
  median of 200 after warm-up), with torch eager's call beside them; with
  --cpp-run, the host cost of one brrr_run replaying a cached shape's graph
  (cpp_run --host-overhead: shapes alternating, or one shape) against a
  static model's;
- with --sanitize TOOLS, runs each compiled model at every one of its
  shapes once more under NVIDIA's compute-sanitizer (memcheck, racecheck,
  synccheck, initcheck): one child process (--sanitize-child NAME) per
  model and tool, which loads the library and runs each shape on fresh
  numpy inputs through brrr_run_host, checking the results as well.

    python3 test/gpu/dynamic_shapes.py BRRRC WORKDIR [--time] [--only NAMES]
        [--sanitize memcheck,racecheck,...] [--jobs J]
    python3 test/gpu/dynamic_shapes.py BRRRC WORKDIR --sanitize-child NAME

Prints one line per model and shape, and exits 1 on any mismatch.
"""

import argparse
import os
import statistics
import subprocess
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, numpy_helper

import brrr
from dynamic_shapes_models import MODEL_FLAGS, models
from dynamic_shapes_ops import op_models

def inputs_for(model, dims, dtype, rng):
    arrays = []
    for inp in model.graph.input:
        fixed = [d.dim_value for d in inp.type.tensor_type.shape.dim]
        # A leading dimension the model fixes (a broadcast operand's 1)
        # keeps its extent.
        shape = [f if f else d for f, d in zip(fixed, dims)] + \
            fixed[len(dims):]
        if inp.name == "mask":
            # A padding mask: each row keeps its first position.
            a = rng.integers(0, 2, shape).astype(np.int64)
            a[..., 0] = 1
        elif inp.type.tensor_type.elem_type == TensorProto.INT64:
            a = rng.integers(0, 64, shape).astype(np.int64)
        else:
            a = rng.standard_normal(shape).astype(
                np.float16 if dtype == "f16" else np.float32)
        arrays.append(a)
    return arrays


def tolerance(dtype):
    return (2e-2, 2e-2) if dtype == "f16" else (2e-5, 2e-5)


def compare(got, want, dtype):
    rtol, atol = tolerance(dtype)
    got = np.asarray(got, np.float64)
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    bad = ~np.isclose(got, want, rtol=rtol, atol=atol)
    if bad.any():
        i = np.unravel_index(np.argmax(bad), bad.shape)
        return "%d mismatches, first at %s: %r vs %r" % (
            bad.sum(), i, got[i], want[i])
    return None


def compile_model(brrrc, path, so, shapes, flags=()):
    cmd = [brrrc, path, "-o", so, *flags]
    for name, text in shapes.items():
        cmd += ["--input-shape", "%s=%s" % (name, text)]
    subprocess.run(cmd, check=True)


def check(name, spec, brrrc, work):
    model, ref, ranges, shapes, dtype = spec
    path = os.path.join(work, name + ".onnx")
    onnx.save(model, path)
    so = os.path.join(work, name + ".so")
    compile_model(brrrc, path, so, ranges, MODEL_FLAGS.get(name, ()))
    m = brrr.load(so)
    ok = True
    rng = np.random.default_rng(len(name))
    for dims in shapes:
        ins = inputs_for(model, dims, dtype, rng)
        want = ref(*[a.astype(np.float64) for a in ins])
        # numpy through brrr_run_host
        errs = [compare(g, w, dtype) for g, w in zip(
            m(*ins) if len(want) > 1 else [m(*ins)], want)]
        # torch CUDA tensors into NaN-poisoned outputs of the actual shape
        tins = [torch.from_numpy(a).cuda() for a in ins]
        out_dtype = torch.float16 if dtype == "f16" else torch.float32
        # Integer outputs (indices) are poisoned with -1.
        touts = [torch.full(w.shape, -1, dtype=torch.int64, device="cuda")
                 if np.issubdtype(w.dtype, np.integer) else
                 torch.full(w.shape, float("nan"), dtype=out_dtype,
                            device="cuda") for w in want]
        m._default_context().run(*tins, outputs=touts)
        torch.cuda.synchronize()
        errs += [compare(t.cpu().numpy(), w, dtype)
                 for t, w in zip(touts, want)]
        bad = [e for e in errs if e]
        ok &= not bad
        print("%-18s %-14s %s" % (name, "x".join(map(str, dims)),
                                  "ok" if not bad else "MISMATCH " + bad[0]),
              flush=True)
    # Token ids out of the table's range, at a shape below the largest: the
    # run reports the lookup's node (its error record, read back through
    # the same launch's parameters as the element count), and the model
    # runs on.
    if model.graph.input[0].type.tensor_type.elem_type == TensorProto.INT64:
        ids = inputs_for(model, (3, 77), dtype, rng)[0]
        ids[2, 40] = 5000
        try:
            m(ids)
            print("%-18s id 5000: NOT REPORTED" % name)
            ok = False
        except brrr.BrrrError as e:
            print("%-18s id 5000: %s: %s" % (name, e.status_name,
                                             e.message[:110]))
            ok &= "Gather" in e.message
    # Outside the range: refused, and the model runs on.
    top = [int(t.split("..")[-1]) for t in
           ranges["x"].split("x")[:len(shapes[0])]]
    big = inputs_for(model, [top[0] + 1] + top[1:], dtype, rng)
    try:
        m(*big)
        print("%-18s out of range: NOT REFUSED" % name)
        ok = False
    except brrr.BrrrError as e:
        print("%-18s out of range: %s: %s" % (name, e.status_name,
                                              e.message[:110]))
        ok &= e.status_name == "BRRR_ERROR_INVALID_SHAPE"
    ins = inputs_for(model, shapes[0], dtype, rng)
    want = ref(*[a.astype(np.float64) for a in ins])
    again = m(*ins) if len(want) > 1 else [m(*ins)]
    ok &= all(compare(g, w, dtype) is None for g, w in zip(again, want))
    return ok


def sanitize_child(name, spec, work):
    """Runs the compiled `name` at each of its shapes (numpy inputs through
    brrr_run_host), under the sanitizer the parent started; exits 1 on a
    mismatch."""
    model, ref, _, shapes, dtype = spec
    m = brrr.load(os.path.join(work, name + ".so"))
    rng = np.random.default_rng(len(name) + 1)
    bad = 0
    for dims in shapes:
        ins = inputs_for(model, dims, dtype, rng)
        want = ref(*[a.astype(np.float64) for a in ins])
        got = m(*ins) if len(want) > 1 else [m(*ins)]
        errs = [e for e in (compare(g, w, dtype) for g, w in zip(got, want))
                if e]
        if errs:
            print("%s %s: MISMATCH %s" % (name, "x".join(map(str, dims)),
                                          errs[0]), flush=True)
            bad += 1
    sys.exit(1 if bad else 0)


def sanitize(names, tools, brrrc, work, jobs):
    """compute-sanitizer over each model's run at all its shapes, one child
    per model and tool (in parallel); True when every run is clean and
    matches."""
    import concurrent.futures

    from sanitize import run_under

    def one(name, tool):
        errors, excerpt = run_under(tool, [
            sys.executable, os.path.abspath(__file__), brrrc, work,
            "--sanitize-child", name])
        return name, tool, errors, excerpt

    ok = True
    clean = {t: 0 for t in tools}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        runs = [pool.submit(one, n, t) for n in names for t in tools]
        for r in runs:
            name, tool, errors, excerpt = r.result()
            if errors == 0:
                clean[tool] += 1
                continue
            ok = False
            print("SANITIZE %-28s %-9s %s\n    %s" % (
                name, tool, "run failed" if errors < 0 else
                "%d errors" % errors, excerpt), flush=True)
    for t in tools:
        print("sanitize %-9s %d of %d models clean at every shape" % (
            t, clean[t], len(names)), flush=True)
    return ok


def check_exports(brrrc, work, exports):
    """The torch exports in `exports` (NAME_{dynamo,ts}.onnx with NAME.npz:
    inputs in{k}_0 and torch's outputs y{k} at several shapes) over the
    dimensions the compiler takes symbolically so far, compiled once for
    each range at fp32 and at fp16 (--precision=fp16: BERT's attention
    fuses), against torch's outputs at every shape the range holds, and
    against onnxruntime (CPU) at further batches, fresh token ids
    (relative L2 error: 1e-3 fp32, 2e-2 fp16):
    - the CNN over a batch of 1..128;
    - BERT and GPT-2 over a batch of 1..64, once for each sequence
      length, and over a batch of 1..64 and a sequence of 1..512 at once
      (GPT-2's causal mask over the symbolic sequence; in f32, attention
      fused as three tf32 products)."""
    import onnxruntime as ort

    ok = True
    cases = [("cnn", ["x=1..128x3x64x64"], ())]
    for text in ("bert", "gpt2"):
        data = np.load(os.path.join(exports, text + ".npz"))
        seqs = sorted({data["in%d_0" % k].shape[1]
                       for k in range(len(data) // 2)})
        cases.append((text, ["x=1..64x%d" % s for s in seqs], (1, 5, 64)))
    rng = np.random.default_rng(7)
    for model, ranges, batches in cases:
        data = np.load(os.path.join(exports, model + ".npz"))
        for exporter in ("dynamo", "ts"):
            path = os.path.join(exports, "%s_%s.onnx" % (model, exporter))
            if not os.path.exists(path):  # GPT-2: dynamo only
                continue
            session = ort.InferenceSession(
                path, providers=["CPUExecutionProvider"]) if batches else None
            for precision, tol in (("fp32", 1e-3), ("fp16", 2e-2)):
                for r in ranges:
                    rest = [int(d) for d in r.split("=")[1].split("x")[1:]]
                    so = os.path.join(work, "%s_%s_%s_%s.so" % (
                        model, exporter, precision, "x".join(map(str, rest))))
                    subprocess.run([brrrc, path, "-o", so, "--input-shape",
                                    r, "--precision=" + precision],
                                   check=True)
                    m = brrr.load(so)
                    checks = []
                    k = 0
                    while "in%d_0" % k in data:
                        x = data["in%d_0" % k]
                        if list(x.shape[1:]) == rest:
                            checks.append(("torch", x, data["y%d" % k]))
                        k += 1
                    for b in batches:
                        x = rng.integers(0, 1024, (b, *rest)).astype(np.int64)
                        checks.append(("onnxruntime", x,
                                       session.run(None, {"x": x})[0]))
                    ok &= compare_checks(m, checks, tol, "%s_%s_%s" % (
                        model, exporter, precision))
    # BERT and GPT-2 over a symbolic batch and sequence, one compile for
    # every shape, in f32 (the model's own precision: attention fuses over
    # a symbolic sequence as three tf32 products) and in fp16.
    for model, exporter in (("bert", "dynamo"), ("bert", "ts"),
                            ("gpt2", "dynamo")):
        data = np.load(os.path.join(exports, model + ".npz"))
        path = os.path.join(exports, "%s_%s.onnx" % (model, exporter))
        session = ort.InferenceSession(path,
                                       providers=["CPUExecutionProvider"])
        checks = [("torch", data["in%d_0" % k], data["y%d" % k])
                  for k in range(len(data.files) // 2)]
        for b, n in ((1, 2), (3, 77), (5, 300), (64, 512), (2, 511)):
            x = rng.integers(0, 1024, (b, n)).astype(np.int64)
            checks.append(("onnxruntime", x, session.run(None, {"x": x})[0]))
        for precision, tol in (("fp32", 1e-3), ("fp16", 2e-2)):
            so = os.path.join(work, "%s_%s_%s_seq.so" % (model, exporter,
                                                         precision))
            subprocess.run([brrrc, path, "-o", so, "--input-shape",
                            "x=1..64x1..512", "--precision=" + precision],
                           check=True)
            ok &= compare_checks(brrr.load(so), checks, tol, "%s_%s_%s_seq" % (
                model, exporter, precision))
    return ok


def compare_checks(m, checks, tol, label):
    """Runs `m` on each (peer, input, expected output) of `checks` and
    prints the relative L2 error against the peer's output."""
    ok = True
    for peer, x, want in checks:
        got = np.asarray(m(x), np.float64)
        want = np.asarray(want, np.float64)
        err = (np.linalg.norm(got - want) / np.linalg.norm(want)
               if got.shape == want.shape else np.inf)
        good = err <= tol
        ok &= bool(good)
        print("%-20s %-10s vs %-11s rel err %.2e %s" % (
            label, "x".join(map(str, x.shape)), peer, err,
            "ok" if good else "MISMATCH"), flush=True)
    return ok


args_cpp_run = ""


def median_ms(fn, reps=200):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def time_model(name, spec, brrrc, work):
    """Dynamic vs static compile vs torch eager at each shape."""
    model, ref, ranges, shapes, dtype = spec
    dyn = brrr.load(os.path.join(work, name + ".so"))
    path = os.path.join(work, name + ".onnx")
    rng = np.random.default_rng(0)
    for dims in shapes:
        ins = inputs_for(model, dims, dtype, rng)
        tins = [torch.from_numpy(a).cuda() for a in ins]
        static_so = os.path.join(work, "%s_%s.so" % (
            name, "x".join(map(str, dims))))
        full = ranges["x"].split("x")
        fixed = "x".join([str(d) for d in dims] + full[len(dims):])
        def at(r):
            parts = r.split("x")
            return "x".join([p if ".." not in p else str(d)
                             for p, d in zip(parts, dims)] +
                            parts[len(dims):])
        compile_model(brrrc, path, static_so,
                      {n: at(r) for n, r in ranges.items()},
                      MODEL_FLAGS.get(name, ()))
        st = brrr.load(static_so)
        out_dtype = torch.float16 if dtype == "f16" else torch.float32
        outs_d = [torch.empty(w.shape, dtype=out_dtype, device="cuda")
                  for w in ref(*[a.astype(np.float64) for a in ins])]
        outs_s = [torch.empty_like(o) for o in outs_d]
        cd, cs = dyn.context(), st.context()
        t_dyn = median_ms(lambda: cd.run(*tins, outputs=outs_d))
        t_static = median_ms(lambda: cs.run(*tins, outputs=outs_s))
        k_dyn = statistics.median(
            sum(ms for _, ms in cd.profile(*tins, outputs=outs_d) if ms)
            for _ in range(30))
        k_static = statistics.median(
            sum(ms for _, ms in cs.profile(*tins, outputs=outs_s) if ms)
            for _ in range(30))
        if name.startswith("mlp"):
            w1 = torch.from_numpy(numpy_helper.to_array(
                model.graph.initializer[0])).cuda()
            b1 = torch.from_numpy(numpy_helper.to_array(
                model.graph.initializer[1])).cuda()
            w2 = torch.from_numpy(numpy_helper.to_array(
                model.graph.initializer[2])).cuda()

            def eager():
                return torch.relu(tins[0] @ w1 + b1) @ w2 + tins[0]
        elif name.startswith("norm_rows"):
            w = model.graph.input[0].type.tensor_type.shape.dim[-1].dim_value
            sc = torch.linspace(0.5, 1.5, w, device="cuda").to(tins[0].dtype)
            bi = torch.linspace(-1, 1, w, device="cuda").to(tins[0].dtype)

            def eager():
                n = torch.nn.functional.layer_norm(tins[0] + tins[1], (w,),
                                                   sc, bi, 1e-5)
                return torch.relu(torch.softmax(n, -1)), n
        elif name.startswith("bias_add"):
            w = max(model.graph.input[0].type.tensor_type.shape.dim[-1]
                    .dim_value, 1)
            bt = torch.linspace(-2, 2, w, device="cuda").to(tins[0].dtype)

            def eager():
                a = tins[0] + bt
                return torch.relu(a * tins[1]), torch.tanh(a)
        elif name.startswith("embed_heads"):
            t = {i.name: torch.from_numpy(numpy_helper.to_array(i)).cuda()
                 for i in model.graph.initializer}
            ids = tins[0]

            def eager():
                n = torch.nn.functional.layer_norm(t["table"][ids], (32,))
                h = n.view(*ids.shape, 4, 8).transpose(-1, -2)
                return h.reshape(*ids.shape, 32) @ t["w"]
        elif name.startswith("image_net"):
            t = {i.name: torch.from_numpy(numpy_helper.to_array(i)).cuda()
                 for i in model.graph.initializer}
            F = torch.nn.functional

            def eager():
                r0 = F.relu(F.conv2d(tins[0], t["w0"], t["b0"], 2, 3))
                p0 = F.max_pool2d(r0, 3, 2, 1)
                f = F.relu(F.conv2d(p0, t["w1"], t["b1"], 1, 1) + p0)
                d = F.relu(F.conv2d(f, t["wd"], None, 1, 1, groups=64))
                g = F.conv2d(d, t["w2"], None, 2).mean((2, 3))
                return g @ t["wh"] + t["bh"], f
        elif name.startswith("seq_attention"):
            t = {i.name: torch.from_numpy(numpy_helper.to_array(i)).cuda()
                 for i in model.graph.initializer}
            heads, d = (int(v) for v in numpy_helper.to_array(
                next(i for i in model.graph.initializer
                     if i.name == "split"))[2:])
            x = tins[0]
            bias = None
            if len(tins) > 1:
                bias = ((1 - tins[1].to(x.dtype)) * -10000)[:, None, None, :]

            def eager():
                b, n, e = x.shape

                def split(w):
                    return (x @ t[w]).view(b, n, heads, d).transpose(1, 2)
                o = torch.nn.functional.scaled_dot_product_attention(
                    split("wq"), split("wk"), split("wv"), attn_mask=bias,
                    is_causal="causal" in name)
                return o.transpose(1, 2).reshape(b, n, e) @ t["wo"]
        else:
            def eager():
                return tins[0] * torch.sigmoid(tins[0]) + 1
        t_eager = median_ms(eager)
        print("time %-18s %-10s kernels: dynamic %.4f ms static %.4f ms "
              "(%.2fx) | calls: dynamic %.4f static %.4f torch eager %.4f ms"
              % (name, "x".join(map(str, dims)), k_dyn, k_static,
                 k_dyn / k_static, t_dyn, t_static, t_eager), flush=True)
        if args_cpp_run and dims == shapes[2]:
            shape_list = ";".join(
                "x".join(map(str, list(d) + [int(t) for t in full[len(d):]]))
                for d in shapes)
            dyn_so = os.path.join(work, name + ".so")
            for label, so, extra in (
                    ("dynamic, shapes alternating", dyn_so, [shape_list]),
                    ("dynamic, one shape", dyn_so, [fixed]),
                    ("static", static_so, [])):
                out = subprocess.run([args_cpp_run, so, "--host-overhead",
                                      "2000"] + extra, capture_output=True,
                                     text=True)
                print("host %-18s %s brrr_run: %s" % (
                    name, label, (out.stdout + out.stderr).strip()),
                    flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("brrrc")
    p.add_argument("work")
    p.add_argument("--time", action="store_true")
    p.add_argument("--only", default="")
    p.add_argument("--cpp-run", default="")
    p.add_argument("--exports", default="",
                   help="a folder of torch exports with dynamic dimensions "
                   "and their outputs (check_exports)")
    p.add_argument("--sanitize", default="",
                   help="compute-sanitizer tools to run each model under, "
                   "at all its shapes, e.g. memcheck,racecheck")
    p.add_argument("--jobs", type=int, default=8,
                   help="sanitizer runs at once")
    p.add_argument("--sanitize-child", default="", help=argparse.SUPPRESS)
    args = p.parse_args()
    global args_cpp_run
    args_cpp_run = args.cpp_run
    os.makedirs(args.work, exist_ok=True)
    specs = {**models(), **op_models()}
    if args.sanitize_child:
        sanitize_child(args.sanitize_child, specs[args.sanitize_child],
                       args.work)
    names = [n for n in specs if not args.only or n in args.only.split(",")]
    ok = True
    for n in names:
        ok &= check(n, specs[n], args.brrrc, args.work)
    if args.sanitize:
        ok &= sanitize(names, [t for t in args.sanitize.split(",") if t],
                       args.brrrc, args.work, args.jobs)
    if args.exports:
        ok &= check_exports(args.brrrc, args.work, args.exports)
    if args.time:
        for n in names:
            time_model(n, specs[n], args.brrrc, args.work)
    print("all ok" if ok else "FAILURES")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
