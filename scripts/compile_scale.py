#!/usr/bin/python3
"""How brrrc's compile time and memory scale with a model's size.

Generates, in a temporary directory, (1) chains of N pointwise Adds and
(2) a model with one external-data weight of G GiB, compiles each with
`brrrc -o model.so`, and prints wall time and peak RSS. It then checks the
scaling targets: time per node on the longest chain at most 2x that of the
shortest, and peak RSS at most 1.5x the weight bytes plus 256 MiB. Exit
status 1 if a target is missed. Too slow for CI at full size; run it by
hand:

    /usr/bin/python3 scripts/compile_scale.py build/bin/brrrc
    /usr/bin/python3 scripts/compile_scale.py build/bin/brrrc --chains 1000 20000 --weight-gib 4
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

FIXED_RSS = 256 << 20


def chain_model(n, path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1024])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1024])
    nodes, prev = [], "x"
    for i in range(n):
        out = "y" if i == n - 1 else f"t{i}"
        nodes.append(helper.make_node("Add", [prev, "x"], [out]))
        prev = out
    graph = helper.make_graph(nodes, "chain", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)


def weight_model(gib, path):
    """y = x + W with W (f32, `gib` GiB) in a side file, written in chunks."""
    n = int(gib * (1 << 30)) // 4
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [n])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])
    w = TensorProto(name="W", data_type=TensorProto.FLOAT, dims=[n])
    w.data_location = TensorProto.EXTERNAL
    for key, value in (("location", "weights.bin"), ("offset", "0"),
                       ("length", str(4 * n))):
        entry = w.external_data.add()
        entry.key, entry.value = key, value
    graph = helper.make_graph([helper.make_node("Add", ["x", "W"], ["y"])],
                              "weights", [x], [y], initializer=[w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, path)
    chunk = np.arange(1 << 22, dtype=np.float32).tobytes()
    with open(os.path.join(os.path.dirname(path), "weights.bin"), "wb") as f:
        left = 4 * n
        while left:
            f.write(chunk[: min(left, len(chunk))])
            left -= min(left, len(chunk))
    return 4 * n


def compile_once(brrrc, model, out):
    """Wall seconds and peak RSS bytes of `brrrc model -o out`, alone."""
    code = (
        "import resource, subprocess, sys, time\n"
        "t = time.time()\n"
        "subprocess.run(sys.argv[1:], check=True)\n"
        "print(time.time() - t, "
        "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)\n"
    )
    # A fresh interpreter, so that RUSAGE_CHILDREN sees this compile only.
    res = subprocess.run([sys.executable, "-c", code, brrrc, model, "-o", out],
                         check=True, capture_output=True, text=True)
    seconds, rss = res.stdout.split()
    return float(seconds), int(rss)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("brrrc")
    parser.add_argument("--chains", type=int, nargs="+", default=[1000, 20000])
    parser.add_argument("--weight-gib", type=float, default=1.0)
    args = parser.parse_args()
    brrrc = os.path.abspath(args.brrrc)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        per_node = []
        for n in args.chains:
            model = os.path.join(tmp, f"chain{n}.onnx")
            chain_model(n, model)
            seconds, rss = compile_once(brrrc, model, model + ".so")
            per_node.append(seconds / n)
            print(f"chain of {n:6d} adds: {seconds:7.2f} s "
                  f"({1e3 * seconds / n:.3f} ms/node), peak RSS {rss >> 20} MiB")
        ratio = per_node[-1] / per_node[0]
        print(f"time per node, longest / shortest chain: {ratio:.2f} "
              "(target <= 2)")
        ok &= ratio <= 2
        if args.weight_gib > 0:
            wdir = os.path.join(tmp, "weights")
            os.mkdir(wdir)
            model = os.path.join(wdir, "model.onnx")
            weight_bytes = weight_model(args.weight_gib, model)
            seconds, rss = compile_once(brrrc, model, model + ".so")
            limit = 1.5 * weight_bytes + FIXED_RSS
            print(f"{args.weight_gib:g} GiB weight: {seconds:7.2f} s, peak RSS "
                  f"{rss >> 20} MiB = {rss / weight_bytes:.2f}x the weights "
                  f"(target <= 1.5x + {FIXED_RSS >> 20} MiB)")
            ok &= rss <= limit
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
