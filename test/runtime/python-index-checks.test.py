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


m = brrr.load(lib)
valid = np.array([0, 3, 2, 1, -1, -4], np.int64)
print("valid:", m(valid))
for label, value in (("5000", 5000), ("2^40", 2**40)):
    ids = valid.copy()
    ids[2] = value
    print("numpy %s: %s" % (label, error(lambda: m(ids))))
print("valid again:", m(valid))

ctx = m.context()
rows = DeviceArray(np.empty(6, np.float32))
bad = valid.copy()
bad[1] = -5
ctx.run(DeviceArray(bad), outputs=[rows])
print("device run: ok")
print("check:", error(ctx.check))
print("check again:", error(ctx.check))
bad[1] = 4
m(DeviceArray(bad), outputs=[rows])
print("model check:", error(m.check))
bad[1] = 9
ctx.run(DeviceArray(bad), outputs=[rows])
print("next run:", error(lambda: ctx.run(DeviceArray(valid), outputs=[rows])))
ctx.run(DeviceArray(valid), outputs=[rows])
ctx.check()
print("retry:", rows.array)
