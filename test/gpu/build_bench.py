#!/usr/bin/python3
"""Compiles the benchmark models (build machine, Debian's python3).

DEST/cos_cos.so   y = cos(cos(x)), x: 64M float32 (PEERS.md's pointwise case)
DEST/softmax.so   softmax over rows of 32768x4096 float16
DEST/layernorm.so layer norm over rows of 32768x4096 float16
DEST/matmul.so    4096^3 float16 matrix product
DEST/gelu_mm.so   gelu(x @ W + b), 8192x4096 @ 4096x16384 float16 (PEERS.md)
DEST/conv.so      relu(conv3x3(x) + b), 32x64x56x56 float16 (a ResNet stage)
DEST/gemm_<t>_<M>x<N>x<K>.so  plain products (GEMM_SHAPES): 4096^3 and
                  8192^3 in f16 and bf16, and the transformer shapes
                  M in {128, 512, 4096} x (N, K) of BERT-base in f16
DEST/attention_<form>_<B>x<H>x<S>x<D>.so  fused attention (ATTENTION_SHAPES)
DEST/chain50.so   50 dependent kernels (softmax and cos alternating, so
                  none fuses): the host cost of one run
DEST/f32_<case>_<precision>.so  f32 models (F32_CASES) compiled with
                  --precision=fp32 (3xTF32) and tf32, for f32_bench.py
With --sweep, DEST/sweep/ instead holds every GEMM_SHAPES product and the
gelu product compiled once per tile of SWEEP_TILES (brrrc --matmul-tile)
and schedule of SWEEP_SCHEDULES, as <case>__<tile>.so, for gemm_sweep.py; with --attention-sweep,
DEST/attention_sweep/ holds every ATTENTION_SHAPES model once per variant of
ATTENTION_VARIANTS (brrrc --attention-tile, --hopper-attention,
--overlap-attention), for
attention_bench.py --sweep; with --stream-k-sweep, DEST/streamk/ holds every
STREAM_K_SHAPES product once per STREAM_K_VARIANTS (brrrc --stream-k), for
gemm_sweep.py --stream-k.
Each --flag=F adds F to every brrrc command line (e.g. --flag=--persistent,
to compare a compile option against the default bench in the same run).
Usage: build_bench.py BRRRC DEST [--sweep | --attention-sweep | --stream-k-sweep] [--flag=F ...]
"""

import os
import subprocess
import sys

import onnx
from onnx import TensorProto, helper


# brrrc flags every model of this run compiles with (--flag=F).
EXTRA_FLAGS = [a[len("--flag="):] for a in sys.argv[3:] if a.startswith("--flag=")]


def save_and_compile(brrrc, model, dest, name, flags=()):
    model.ir_version = 8
    path = os.path.join(dest, name + ".onnx")
    onnx.save(model, path)
    subprocess.run([brrrc, path, "-o", os.path.join(dest, name + ".so"), *flags, *EXTRA_FLAGS],
                   check=True)
    os.remove(path)


# (dtype, M, N, K): the square sizes and BERT-base's projections (qkv
# 2304x768, attention output 768x768, MLP 3072x768 and 768x3072) at three
# token counts.
GEMM_SHAPES = ([(t, s, s, s) for t in ("f16", "bf16") for s in (4096, 8192)] +
               [("f16", m, n, k) for m in (128, 512, 4096)
                for n, k in ((768, 768), (2304, 768), (3072, 768), (768, 3072))])


# Products whose tiles leave their last wave part empty, or number fewer
# than the multiprocessors (stream-K's cases): ViT-B/16's and CLIP's four
# products at batch 32 (6304 tokens) and Whisper's encoder's at one clip
# (1500), and BERT-base's output projection at batch 128 (512 tiles in 3.9
# waves, which `auto` leaves whole).
STREAM_K_SHAPES = ([("f16", m, n, k) for m in (6304, 1500)
                    for n, k in ((768, 768), (2304, 768), (3072, 768), (768, 3072))] +
                   [("f16", 16384, 768, 768)])
STREAM_K_VARIANTS = {"default": [], "auto": ["--stream-k=auto"],
                     "always": ["--stream-k=always"]}


# Fused attention (batch, heads, sequence, head size, form): BERT-base
# (seq 128) with and without a padding mask, GPT-2 (seq 512) causal, and a
# long causal sequence with 128-wide heads.
ATTENTION_SHAPES = [(1, 12, 128, 64, "mask"), (32, 12, 128, 64, "mask"),
                    (1, 12, 128, 64, "plain"), (32, 12, 128, 64, "plain"),
                    (1, 12, 512, 64, "causal"), (8, 12, 512, 64, "causal"),
                    (4, 16, 2048, 128, "causal"), (8, 8, 512, 256, "mask"),
                    (4, 8, 2048, 256, "causal"), (32, 12, 197, 64, "plain"),
                    (1, 12, 1500, 64, "plain"), (8, 32, 512, 64, "causal"),
                    (1, 12, 512, 128, "causal"), (4, 16, 2048, 128, "plain")]


def attention_model(b, h, s, d, form):
    """softmax(q k^T / sqrt(d) [+ mask]) v in the exporters' decomposed form
    (which brrr-fuse-attention fuses): q, k, v are B x H x S x D f16 inputs;
    "mask" adds a B x 1 x 1 x S input, "causal" a constant causal mask."""
    n = helper.make_node
    H, I64 = TensorProto.FLOAT16, TensorProto.INT64
    shape = [b, h, s, d]
    nodes = [n("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]),
             n("MatMul", ["q", "kt"], ["qk"]), n("Mul", ["qk", "scale"], ["x"])]
    inputs = [helper.make_tensor_value_info(a, H, shape) for a in "qkv"]
    inits = [helper.make_tensor("scale", H, [], [d ** -0.5])]
    scores = "x"
    if form == "mask":
        nodes.append(n("Add", ["x", "m"], ["xm"]))
        inputs.append(helper.make_tensor_value_info("m", H, [b, 1, 1, s]))
        scores = "xm"
    elif form == "causal":
        nodes += [n("LessOrEqual", ["cols", "rows"], ["keep"]),
                  n("Where", ["keep", "zero", "low"], ["bias"]),
                  n("Add", ["x", "bias"], ["xm"])]
        inits += [helper.make_tensor("cols", I64, [1, 1, 1, s], list(range(s))),
                  helper.make_tensor("rows", I64, [1, 1, s, 1], list(range(s))),
                  helper.make_tensor("zero", H, [], [0.0]),
                  helper.make_tensor("low", H, [], [-65504.0])]
        scores = "xm"
    nodes += [n("Softmax", [scores], ["p"], axis=-1), n("MatMul", ["p", "v"], ["y"])]
    g = helper.make_graph(nodes, "attention", inputs,
                          [helper.make_tensor_value_info("y", H, shape)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def attention_name(b, h, s, d, form):
    return f"attention_{form}_{b}x{h}x{s}x{d}"


# ATTENTION_SHAPE_ONLY=s (the environment) keeps the shapes whose name
# (attention_name) holds s, in the attention benches and sweep.
ATTENTION_SHAPES = [s for s in ATTENTION_SHAPES
                    if os.environ.get("ATTENTION_SHAPE_ONLY", "") in attention_name(*s)]


# What the attention sweep compiles every ATTENTION_SHAPES model with,
# besides the chosen config ("default": on sm_90a the wgmma body wherever
# it takes the heads, as --hopper-attention=always): the mma_sync body
# ("mma_sync", --hopper-attention=never) and its tile of 128 queries over 4
# warps, the wgmma body on one or two warpgroups of 64 queries with key
# blocks of 64 or 128, and its overlapped schedule (--overlap-attention).
ATTENTION_VARIANTS = {"mma_sync": ["--hopper-attention=never"],
                      "128x64x4": ["--attention-tile=128x64x4"],
                      **{f"wgmma_{tile}": [f"--attention-tile={tile}"]
                         for tile in ["64x128x4", "128x64x8", "128x128x8"]},
                      "overlapped": ["--overlap-attention"],
                      **{f"overlapped_{tile}": ["--overlap-attention", f"--attention-tile={tile}"]
                         for tile in ["64x128x4", "128x64x8", "128x128x8"]}}
# ATTENTION_ONLY=a,b (the environment) keeps those variants alone.
ATTENTION_TILES = [t for t in ATTENTION_VARIANTS
                   if t in os.environ.get("ATTENTION_ONLY", t).split(",")]


def compile_all(brrrc, dest, builds, tolerate=False):
    """Compiles every (model, name, flags) of `builds` into DEST, on every
    core at once. With `tolerate`, a build brrrc refuses is left out, and
    said so; otherwise its failure is raised."""
    import concurrent.futures
    os.makedirs(dest, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        jobs = [pool.submit(save_and_compile, brrrc, model, dest, name, flags)
                for model, name, flags in builds]
        for j in jobs:
            try:
                j.result()
            except subprocess.CalledProcessError as e:
                if not tolerate:
                    raise
                print(f"not compiled: {os.path.basename(e.cmd[1])}", flush=True)


def attention_sweep(brrrc, dest):
    # A variant whose tile the kernel does not take at a shape (heads of
    # 256 on key blocks of 128) is left out there, and said so.
    compile_all(brrrc, os.path.join(dest, "attention_sweep"),
                [(attention_model(*shape), f"{attention_name(*shape)}__{tile}",
                  ATTENTION_VARIANTS.get(tile, []))
                 for shape in ATTENTION_SHAPES for tile in ["default"] + ATTENTION_TILES],
                tolerate=True)


# Tiles (m x n x stages) the sweep compiles every product with, besides the
# one brrr-select-kernel-config chooses ("default").
SWEEP_TILES = ["128x256x4", "128x256x3", "128x192x5", "128x192x4", "128x128x6", "128x128x4", "128x128x3"]
# Schedules the sweep compiles every product with too (brrrc flags): the
# persistent grids, cooperative, ping-pong and overlapped, on their own
# tiles.
SWEEP_SCHEDULES = {"persistent": ["--persistent"], "pingpong": ["--pingpong"],
                   "overlapped": ["--overlap-epilogue"]}


# f32 models on the staged tf32 body (f32_bench.py): a square product,
# BERT-base's MLP product at batch 32, ResNet's first-stage 3x3
# convolution and a last-stage 1x1 one, NCHW as exported.
F32_CASES = {"gemm_4096x4096x4096": ("gemm", (4096, 4096, 4096)),
             "gemm_4096x3072x768": ("gemm", (4096, 3072, 768)),
             "conv3x3_32x64x56x56": ("conv", (32, 64, 56, 64, 3)),
             "conv1x1_32x1024x14x14": ("conv", (32, 1024, 14, 256, 1))}


def f32_model(kind, shape):
    F = TensorProto.FLOAT
    n = helper.make_node
    if kind == "gemm":
        m, nn, k = shape
        g = helper.make_graph(
            [n("MatMul", ["a", "b"], ["y"])], "gemm",
            [helper.make_tensor_value_info("a", F, [m, k]),
             helper.make_tensor_value_info("b", F, [k, nn])],
            [helper.make_tensor_value_info("y", F, [m, nn])])
    else:
        b, c, hw, o, r = shape
        g = helper.make_graph(
            [n("Conv", ["x", "w", "bias"], ["c"], pads=[r // 2] * 4),
             n("Relu", ["c"], ["y"])], "conv",
            [helper.make_tensor_value_info("x", F, [b, c, hw, hw]),
             helper.make_tensor_value_info("w", F, [o, c, r, r]),
             helper.make_tensor_value_info("bias", F, [o])],
            [helper.make_tensor_value_info("y", F, [b, o, hw, hw])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def gemm_model(t, m, nn, k):
    et = TensorProto.FLOAT16 if t == "f16" else TensorProto.BFLOAT16
    g = helper.make_graph(
        [helper.make_node("MatMul", ["a", "b"], ["y"])], "gemm",
        [helper.make_tensor_value_info("a", et, [m, k]),
         helper.make_tensor_value_info("b", et, [k, nn])],
        [helper.make_tensor_value_info("y", et, [m, nn])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def gelu_model():
    n = helper.make_node
    H = TensorProto.FLOAT16
    g = helper.make_graph(
        [n("MatMul", ["x", "w"], ["m"]), n("Add", ["m", "b"], ["t"]), n("Gelu", ["t"], ["y"])],
        "gelu_mm",
        [helper.make_tensor_value_info("x", H, [8192, 4096]),
         helper.make_tensor_value_info("w", H, [4096, 16384]),
         helper.make_tensor_value_info("b", H, [16384])],
        [helper.make_tensor_value_info("y", H, [8192, 16384])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 20)])


def sweep(brrrc, dest):
    cases = [(f"gemm_{t}_{m}x{nn}x{k}", gemm_model(t, m, nn, k))
             for t, m, nn, k in GEMM_SHAPES]
    cases.append(("gelu_mm", gelu_model()))
    compile_all(brrrc, os.path.join(dest, "sweep"),
                [(model, f"{name}__{tile}",
                  [] if tile == "default" else SWEEP_SCHEDULES.get(
                      tile, [f"--matmul-tile={tile}"]))
                 for name, model in cases
                 for tile in ["default"] + SWEEP_TILES + list(SWEEP_SCHEDULES)])


def stream_k_sweep(brrrc, dest):
    compile_all(brrrc, os.path.join(dest, "streamk"),
                [(gemm_model(t, m, nn, k), f"gemm_{t}_{m}x{nn}x{k}__{variant}", flags)
                 for t, m, nn, k in STREAM_K_SHAPES
                 for variant, flags in STREAM_K_VARIANTS.items()])


def main():
    brrrc, dest = sys.argv[1], sys.argv[2]
    os.makedirs(dest, exist_ok=True)
    if "--sweep" in sys.argv[3:]:
        return sweep(brrrc, dest)
    if "--attention-sweep" in sys.argv[3:]:
        return attention_sweep(brrrc, dest)
    if "--stream-k-sweep" in sys.argv[3:]:
        return stream_k_sweep(brrrc, dest)
    n = helper.make_node
    N = 64 * 1024 * 1024
    g = helper.make_graph(
        [n("Cos", ["x"], ["c"]), n("Cos", ["c"], ["y"])], "cos_cos",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [N])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [N])])
    save_and_compile(brrrc, helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]),
                     dest, "cos_cos")
    R, C = 32768, 4096
    H = TensorProto.FLOAT16
    g = helper.make_graph(
        [n("Softmax", ["x"], ["y"], axis=-1)], "softmax",
        [helper.make_tensor_value_info("x", H, [R, C])],
        [helper.make_tensor_value_info("y", H, [R, C])])
    save_and_compile(brrrc, helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]),
                     dest, "softmax")
    g = helper.make_graph(
        [n("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1, epsilon=1e-5)], "layernorm",
        [helper.make_tensor_value_info("x", H, [R, C]),
         helper.make_tensor_value_info("g", H, [C]),
         helper.make_tensor_value_info("b", H, [C])],
        [helper.make_tensor_value_info("y", H, [R, C])])
    save_and_compile(brrrc, helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]),
                     dest, "layernorm")
    g = helper.make_graph(
        [n("MatMul", ["a", "b"], ["y"])], "matmul",
        [helper.make_tensor_value_info("a", H, [4096, 4096]),
         helper.make_tensor_value_info("b", H, [4096, 4096])],
        [helper.make_tensor_value_info("y", H, [4096, 4096])])
    save_and_compile(brrrc, helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]),
                     dest, "matmul")
    for t, m, nn, k in GEMM_SHAPES:
        save_and_compile(brrrc, gemm_model(t, m, nn, k), dest, f"gemm_{t}_{m}x{nn}x{k}")
    save_and_compile(brrrc, gelu_model(), dest, "gelu_mm")
    for shape in ATTENTION_SHAPES:
        save_and_compile(brrrc, attention_model(*shape), dest, attention_name(*shape))
    g = helper.make_graph(
        [n("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]), n("Relu", ["c"], ["y"])],
        "conv",
        [helper.make_tensor_value_info("x", H, [32, 64, 56, 56]),
         helper.make_tensor_value_info("w", H, [64, 64, 3, 3]),
         helper.make_tensor_value_info("b", H, [64])],
        [helper.make_tensor_value_info("y", H, [32, 64, 56, 56])])
    save_and_compile(brrrc, helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]),
                     dest, "conv")
    for name, (kind, shape) in F32_CASES.items():
        for precision in ("fp32", "tf32"):
            save_and_compile(brrrc, f32_model(kind, shape), dest,
                             f"f32_{name}_{precision}", [f"--precision={precision}"])
    # Softmax (a row kernel) and Cos (pointwise) alternate, so no two
    # neighbours fuse: 50 kernels in one dependent chain.
    nodes = []
    prev = "x"
    for i in range(50):
        op = "Softmax" if i % 2 == 0 else "Cos"
        nodes.append(n(op, [prev], [f"t{i}"], **({"axis": -1} if op == "Softmax" else {})))
        prev = f"t{i}"
    nodes[-1].output[0] = "y"
    g = helper.make_graph(nodes, "chain50",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 256])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 256])])
    save_and_compile(brrrc, helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]),
                     dest, "chain50")


if __name__ == "__main__":
    main()
