"""Models with large weights, made at test time, and what brrrc and the
runtime do with them (Debian's python3: onnx, numpy).

  large_weights.py make DIR ROWS COLS
      DIR/model.onnx: y = x @ w with x f32[8, ROWS] an input and w
      f32[ROWS, COLS] an initializer in DIR/model.onnx.data (external
      data), written in slices so that this script never holds it.
  large_weights.py compile BRRRC MODEL LIB [FLAG...]
      Runs brrrc and prints its peak resident memory as a multiple of the
      weights' bytes ("peak/weights 1.1x").
  large_weights.py inspect LIB
      Opens LIB for inspection (brrr.load(device=None)) and prints its
      weight bytes, or the error.
  large_weights.py corrupt LIB truncate|extend|flip-weight
      Cuts the last byte, appends one, or flips the weights' first byte of
      an appended-weights library in place.
  large_weights.py layout LIB
      Prints what the trailer says ("appended page-aligned=True size=N
      ends-file=True"), or "embedded".
"""

import os
import resource
import struct
import subprocess
import sys

import numpy as np

MAGIC = b"BRRRWTS\0"


def make(d, rows, cols):
    import onnx
    from onnx import TensorProto, helper
    os.makedirs(d, exist_ok=True)
    rows, cols = int(rows), int(cols)
    data = os.path.join(d, "model.onnx.data")
    with open(data, "wb") as f:
        step = max(1, (64 << 20) // (4 * cols))
        for r in range(0, rows, step):
            n = min(step, rows - r)
            block = (np.arange(r * cols, (r + n) * cols, dtype=np.int64) % 251 - 125)
            f.write((block.astype(np.float32) / 256).tobytes())
    w = TensorProto()
    w.name = "w"
    w.data_type = TensorProto.FLOAT
    w.dims.extend([rows, cols])
    w.data_location = TensorProto.EXTERNAL
    for k, v in (("location", "model.onnx.data"), ("offset", "0"),
                 ("length", str(4 * rows * cols))):
        e = w.external_data.add()
        e.key, e.value = k, v
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "large",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, rows])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, cols])], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    with open(os.path.join(d, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    print("weights", 4 * rows * cols)


def compile_(brrrc, model, lib, *flags):
    proc = subprocess.run([brrrc, model, "-o", lib, *flags], capture_output=True,
                          text=True)
    sys.stderr.write(proc.stderr)
    if proc.returncode:
        sys.exit(proc.returncode)
    data = os.path.join(os.path.dirname(model), "model.onnx.data")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    print("peak/weights %.2fx" % (peak / os.path.getsize(data)))


def inspect(lib):
    import brrr
    try:
        m = brrr.load(lib, device=None)
        print("weights", m.weight_bytes)
    except brrr.BrrrError as e:
        print("error", e.status_name, e.message)


def trailer(lib):
    with open(lib, "rb") as f:
        f.seek(-32, os.SEEK_END)
        tail = f.read(32)
    if tail[:8] != MAGIC:
        return None
    return struct.unpack("<QQQ", tail[8:])


def corrupt(lib, how):
    size = os.path.getsize(lib)
    if how == "truncate":
        os.truncate(lib, size - 1)
    elif how == "extend":
        with open(lib, "ab") as f:
            f.write(b"\0")
    else:
        offset, _, _ = trailer(lib)
        with open(lib, "r+b") as f:
            f.seek(offset)
            b = f.read(1)
            f.seek(offset)
            f.write(bytes([b[0] ^ 1]))


def layout(lib):
    t = trailer(lib)
    if t is None:
        print("embedded")
    else:
        print("appended page-aligned=%s size=%d ends-file=%s" % (
            t[0] % 4096 == 0, t[1], t[0] + t[1] + 32 == os.path.getsize(lib)))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"make": make, "compile": compile_, "inspect": inspect, "corrupt": corrupt,
     "layout": layout}[cmd](*args)
