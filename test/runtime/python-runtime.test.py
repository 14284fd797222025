import os
import sys
import threading

import numpy as np

import brrr
from fake_device_array import DeviceArray, DLPackArray

lib, fake_cuda = sys.argv[1], sys.argv[2]


def show(label, fn):
    try:
        fn()
        print(label + ": ok")
    except (ValueError, brrr.BrrrError) as e:
        print("%s: %s: %s" % (label, type(e).__name__, e))


x = np.arange(128, dtype=np.float32).reshape(2, 64) % 7 - 3
y = np.arange(128, dtype=np.float32).reshape(2, 64) % 5 - 2.5
ids = np.arange(6, dtype=np.int64).reshape(2, 3)
w = 0.5 * np.arange(128, dtype=np.float32).reshape(2, 64)

# Inspection: no driver needed.
m = brrr.load(lib, device=None)
print("inputs:", " | ".join(map(str, m.inputs)))
print("outputs:", " | ".join(map(str, m.outputs)))
print("target:", m.target, "arena:", m.arena_bytes, "weights:", m.weight_bytes)
print("launches:", " ".join(l.kernel for l in m.launches))
print("nbytes:", m.inputs[0].nbytes, m.inputs[2].nbytes)

show("shape", lambda: m.check_inputs(np.zeros((3, 64), np.float32), y, ids))
show("dtype", lambda: m.check_inputs(x, y.astype(np.float64), ids))
show("count", lambda: m.check_inputs(x, y))
show("unknown", lambda: m.check_inputs({"x": x, "y": y, "ids": ids, "z": x}))
show("missing", lambda: m.check_inputs({"x": x, "y": y}))


show("mixed", lambda: m.check_inputs(DeviceArray(x), y, ids))
show("checked", lambda: m.check_inputs({"x": x, "y": y, "ids": ids}))
e = None
try:
    m(x, y, ids)
except brrr.BrrrError as err:
    e = err
print("inspection run: BrrrError", e.status_name,
      "opened for inspection only" if "inspection only" in e.message else e)

# No driver: a clean error, not a loader failure.
os.environ["BRRR_CUDA_LIBRARY"] = "/nonexistent/libcuda.so.1"
try:
    brrr.load(lib)
except brrr.BrrrError as err:
    print("no driver: BrrrError", err.status_name, err.message.split(" (")[0])

# Through the fake driver: the real device paths, on the CPU.
os.environ["BRRR_CUDA_LIBRARY"] = fake_cuda
m = brrr.load(lib)
t0 = x + w
expected = {"sum": t0 + y, "xw": t0, "relu": np.maximum(t0 + y, 0).reshape(128)}


def verdict(name, got):
    ok = got.dtype == expected[name].dtype and np.array_equal(got,
                                                              expected[name])
    return "ok" if ok else "WRONG %r" % got


s, xw, relu = m(x, y, ids)
print("call: sum", verdict("sum", s), "xw", verdict("xw", xw), "relu",
      verdict("relu", relu))
out = m.run({"ids": ids, "y": y, "x": x})
print("run dict:", list(out), verdict("relu", out["relu"]))
ctx = m.context(cuda_graphs=False)
print("no graphs:", verdict("sum", ctx.run(x, y, ids)[0]))

results = []
threads = [threading.Thread(target=lambda: results.append(
    verdict("xw", m(x, y, ids)[1]))) for _ in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("threads:", " ".join(results))

# __cuda_array_interface__ inputs and explicit outputs: zero-copy brrr_run.
dev_in = [DeviceArray(a) for a in (x, y, ids)]
dev_out = [DeviceArray(np.empty(o.shape, np.float32)) for o in m.outputs]
m(*dev_in, outputs=dev_out)
print("device run:", verdict("relu", dev_out[2].array))
show("device outputs", lambda: m(*dev_in))
strided = DeviceArray(np.asfortranarray(x))
show("strided", lambda: m(strided, *dev_in[1:], outputs=dev_out))
print("profile:", " ".join("%s=%.1f" % (launch.kernel, ms)
                           for launch, ms in m.profile(*dev_in,
                                                       outputs=dev_out)))
show("wrong output", lambda: m(*dev_in, outputs=dev_out[:2] + [
    DeviceArray(np.empty((2, 64), np.float32))]))

# DLPack producers of CUDA memory (jax, cupy, ...): read in place, asked
# for the legacy default stream; outputs may be DLPack producers too.
dl_in = [DLPackArray(a) for a in (x, y, ids)]
dl_out = [DLPackArray(np.empty(o.shape, np.float32)) for o in m.outputs]
m(*dl_in, outputs=dl_out)
print("dlpack run:", verdict("relu", dl_out[2].array), "streams",
      sorted({s for a in dl_in + dl_out for s in a.streams}))
show("dlpack strided", lambda: m(DLPackArray(np.asfortranarray(x)), *dl_in[1:],
                                 outputs=dl_out))
show("dlpack dtype", lambda: m(DLPackArray(x.astype(np.float64)), *dl_in[1:],
                               outputs=dl_out))
