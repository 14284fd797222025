import os
import sys

import numpy as np

import brrr
from fake_device_array import DeviceArray

lib, fake_cuda = sys.argv[1], sys.argv[2]
os.environ["BRRR_CUDA_LIBRARY"] = fake_cuda


def error(fn):
    try:
        fn()
        return "ok"
    except brrr.BrrrError as e:
        return "%s %s" % (e.status_name, e.message)
    except ValueError as e:
        return "ValueError: %s" % e


def inputs(batch, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((batch, 64)).astype(np.float32),
            rng.standard_normal((batch, 64)).astype(np.float32))


def agrees(x, y, out):
    s, xy = out
    return np.array_equal(xy, x + y) and np.array_equal(s, x + y + y)


m = brrr.load(lib)
print("symbols:", m.symbols)
print("inputs:", " | ".join(map(str, m.inputs)))
print("outputs:", " | ".join(map(str, m.outputs)))
print("nbytes:", m.inputs[0].nbytes)
for batch in (1, 3, 4, 2):
    x, y = inputs(batch, batch)
    out = m(x, y)
    print("batch %d:" % batch, out[0].shape, out[1].shape,
          "ok" if agrees(x, y, out) else "WRONG")
print("output shapes:", m._default_context().output_shapes())
x, y = inputs(5, 0)
print("batch 5:", error(lambda: m(x, y)))
print("row 63:", error(lambda: m(np.zeros((2, 63), np.float32),
                                 np.zeros((2, 63), np.float32))))
x, y = inputs(2, 7)
print("disagree:", error(lambda: m(x, inputs(3, 0)[1])))
out = m(x, y)
print("after:", out[0].shape, "ok" if agrees(x, y, out) else "WRONG")

# CUDA arrays: the outputs are the caller's, at the actual shape.
x, y = inputs(3, 11)
sums = DeviceArray(np.full((3, 64), -1, np.float32))
xys = DeviceArray(np.full((3, 64), -1, np.float32))
ctx = m.context()
ctx.run(DeviceArray(x), DeviceArray(y), outputs=[sums, xys])
print("device 3:", ctx.output_shapes()[0],
      "ok" if agrees(x, y, (sums.array, xys.array)) else "WRONG")
# Each launch's work and traffic at the shapes last run; the model's plan
# holds the largest shape's.
print("launches at 3:", [(l.flops, l.bytes) for l in ctx.launches()])
x, y = inputs(2, 5)
profile = ctx.profile(DeviceArray(x), DeviceArray(y), outputs=[
    DeviceArray(np.zeros((2, 64), np.float32)),
    DeviceArray(np.zeros((2, 64), np.float32))])
print("profile at 2:", [(l.kernel, l.flops, l.bytes, ms is not None)
                        for l, ms in profile])
print("launches at most:", [(l.flops, l.bytes) for l in m.launches],
      "api", m.api_version)
ctx.set_graph_cache(1)
print("cache:", error(lambda: ctx.set_graph_cache(0)) != "ok" and "ok")
