#!/usr/bin/env python3
"""GPU checks of the Python runtime, for a machine with a GPU and torch
(CI has neither; the lit test python-runtime.test covers the rest through
the fake driver).

Runs libbrrr-test-model.so (see TestArtifact.h) through the real driver
from numpy, torch CUDA tensors (current and side streams, explicit outputs,
inside torch.cuda.graph capture) and cupy, checks every result, and prints
the Python-side cost of one call. Exits non-zero on any failure.

Usage: PYTHONPATH=python gpu_check.py build/lib/libbrrr-test-model.so
"""

import sys
import time

import numpy as np
import torch

import brrr

failures = 0


def expect(label, got, want):
    global failures
    got = got.cpu().numpy() if isinstance(got, torch.Tensor) else got
    got = got.get() if hasattr(got, "get") else got
    ok = np.array_equal(np.asarray(got), want)
    failures += not ok
    print("%-28s %s" % (label, "ok" if ok else "WRONG"))


def expect_error(label, kind, fn):
    global failures
    try:
        fn()
    except kind as e:
        print("%-28s ok (%s: %s)" % (label, kind.__name__, e))
        return
    failures += 1
    print("%-28s WRONG: no %s" % (label, kind.__name__))


m = brrr.load(sys.argv[1])
print(m)
x = np.arange(128, dtype=np.float32).reshape(2, 64) % 7 - 3
y = np.arange(128, dtype=np.float32).reshape(2, 64) % 5 - 2.5
ids = np.arange(6, dtype=np.int64).reshape(2, 3)
t0 = x + 0.5 * np.arange(128, dtype=np.float32).reshape(2, 64)
want = [t0 + y, t0, np.maximum(t0 + y, 0).reshape(128)]

outs = m(x, y, ids)
for name, o, w in zip(("sum", "xw", "relu"), outs, want):
    expect("numpy " + name, o, w)

xt, yt, it = (torch.from_numpy(a).cuda() for a in (x, y, ids))
outs = m(xt, yt, it)
for name, o, w in zip(("sum", "xw", "relu"), outs, want):
    expect("torch " + name, o, w)

side = torch.cuda.Stream()
with torch.cuda.stream(side):
    xs, ys, is_ = xt.clone(), yt.clone(), it.clone()
    outs = m(xs, ys, is_)
torch.cuda.synchronize()
expect("torch side stream", outs[2], want[2])

static = [torch.full(o.shape, float("nan"), device="cuda") for o in m.outputs]
m(xt, yt, it, outputs=static)  # warm up: context, arena and graph exist
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    m(xt, yt, it, outputs=static)
for o in static:
    o.fill_(float("nan"))
xt.add_(1)
graph.replay()
torch.cuda.synchronize()
expect("inside torch.cuda.graph", static[1], t0 + 1)
xt.sub_(1)

try:
    import cupy
    xc, yc, ic = (cupy.asarray(a) for a in (x, y, ids))
    outs = m(xc, yc, ic)
    cupy.cuda.Device().synchronize()
    expect("cupy relu", outs[2], want[2])
except ImportError:
    print("cupy: not installed, skipped")

for launch, ms in m.profile(xt, yt, it):
    print("profile %-20s %.4f ms" % (launch.kernel, ms))

expect_error("torch cpu + cuda", ValueError, lambda: m(xt, yt, it.cpu()))
expect_error("non-contiguous", ValueError,
             lambda: m(xt.t().contiguous().t(), yt, it))
expect_error("wrong dtype", ValueError, lambda: m(xt.double(), yt, it))
expect_error("device 7", brrr.BrrrError, lambda: brrr.load(sys.argv[1], 7))

ctx = m.context()
ctx.run(xt, yt, it, outputs=static)
torch.cuda.synchronize()
n = 2000
start = time.perf_counter()
for _ in range(n):
    ctx.run(xt, yt, it, outputs=static)
torch.cuda.synchronize()
print("python ctx.run with outputs=: %.1f us per call"
      % ((time.perf_counter() - start) / n * 1e6))
start = time.perf_counter()
for _ in range(n):
    m(xt, yt, it)
torch.cuda.synchronize()
print("python model(...) allocating outputs: %.1f us per call"
      % ((time.perf_counter() - start) / n * 1e6))

print("gpu checks: %s" % ("FAILED %d" % failures if failures else "all passed"))
sys.exit(1 if failures else 0)
