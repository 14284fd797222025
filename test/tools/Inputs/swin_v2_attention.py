"""A Swin V2 window attention as torch's exporter writes it (torchvision's
ShiftedWindowAttentionV2): cosine attention (F.normalize of the queries and
keys, a learned temperature per head), a continuous position bias from a
small MLP over a constant table (its rows picked by GatherND, as torch's
dynamo export writes it), a mask for each window. Writes
OUT/swin_v2_attention.onnx (64 windows of 64 tokens, 96 channels, 3 heads).

Usage: swin_v2_attention.py OUT (Debian's /usr/bin/python3: onnx, numpy).
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, TensorProto as T, numpy_helper as nh
rng = np.random.default_rng(0)
Bw, P, N, C, H = 64, 4, 64, 96, 3   # windows, windows per image, tokens, channels, heads
d = C // H
f16 = np.float16
def c(name, a): return nh.from_array(np.asarray(a), name)
inits = [
  c("wqkv", (rng.standard_normal((C, 3 * C)) * 0.1).astype(f16)),
  c("bqkv", (rng.standard_normal(3 * C) * 0.1).astype(f16)),
  c("shape5", np.array([Bw, N, 3, H, d], np.int64)),
  c("i0", np.array(0, np.int64)), c("i1", np.array(1, np.int64)), c("i2", np.array(2, np.int64)),
  c("eps", np.array(1e-12, np.float32).astype(f16)),
  c("ls", np.log(10 * np.ones((H, 1, 1))).astype(f16) + (rng.standard_normal((H, 1, 1)) * 0.3).astype(f16)),
  c("lsmax", np.array(np.log(100.0), f16)),
  # the continuous position bias
  c("table", (rng.standard_normal((1, 15, 15, 2))).astype(f16)),
  c("w1", (rng.standard_normal((2, 512)) * 0.5).astype(f16)),
  c("b1", (rng.standard_normal(512) * 0.1).astype(f16)),
  c("w2", (rng.standard_normal((512, H)) * 0.05).astype(f16)),
  c("sh2", np.array([-1, H], np.int64)),
  c("index", rng.integers(0, 225, (N * N, 1)).astype(np.int64)),
  c("sh3", np.array([N, N, -1], np.int64)),
  c("sixteen", np.array(16, f16)),
  c("zero", np.array([0], np.int64)),
  c("mask", np.where(rng.random((1, P, 1, N, N)) < 0.3, -100.0, 0.0).astype(f16)),
  c("sh5s", np.array([Bw // P, P, H, N, N], np.int64)),
  c("sh4s", np.array([Bw, H, N, N], np.int64)),
  c("sh3o", np.array([Bw, N, C], np.int64)),
]
n = helper.make_node
nodes = [
  n("MatMul", ["x", "wqkv"], ["qkv0"]), n("Add", ["qkv0", "bqkv"], ["qkv1"]),
  n("Reshape", ["qkv1", "shape5"], ["qkv2"]),
  n("Transpose", ["qkv2"], ["qkv"], perm=[2, 0, 3, 1, 4]),
  n("Gather", ["qkv", "i0"], ["q"], axis=0),
  n("Gather", ["qkv", "i1"], ["k"], axis=0),
  n("Gather", ["qkv", "i2"], ["v"], axis=0),
  # F.normalize
  n("ReduceL2", ["q"], ["qn0"], axes=[-1], keepdims=1), n("Max", ["qn0", "eps"], ["qn1"]),
  n("Div", ["q", "qn1"], ["qn"]),
  n("ReduceL2", ["k"], ["kn0"], axes=[-1], keepdims=1), n("Max", ["kn0", "eps"], ["kn1"]),
  n("Div", ["k", "kn1"], ["kn"]),
  n("Transpose", ["kn"], ["knT"], perm=[0, 1, 3, 2]),
  n("MatMul", ["qn", "knT"], ["s0"]),
  n("Min", ["ls", "lsmax"], ["ls1"]), n("Exp", ["ls1"], ["ls2"]),
  n("Mul", ["s0", "ls2"], ["s1"]),
  # bias = 16 * sigmoid(cpb_mlp(table)[index]) as [1, H, N, N]
  n("MatMul", ["table", "w1"], ["t1"]), n("Add", ["t1", "b1"], ["t2"]), n("Relu", ["t2"], ["t3"]),
  n("MatMul", ["t3", "w2"], ["t4"]), n("Reshape", ["t4", "sh2"], ["t5"]),
  n("GatherND", ["t5", "index"], ["t6"]), n("Reshape", ["t6", "sh3"], ["t7"]),
  n("Transpose", ["t7"], ["t8"], perm=[2, 0, 1]),
  n("Sigmoid", ["t8"], ["t9"]), n("Mul", ["sixteen", "t9"], ["t10"]),
  n("Unsqueeze", ["t10", "zero"], ["bias"]),
  n("Add", ["s1", "bias"], ["s2"]),
  n("Reshape", ["s2", "sh5s"], ["s3"]), n("Add", ["s3", "mask"], ["s4"]),
  n("Reshape", ["s4", "sh4s"], ["s5"]),
  n("Softmax", ["s5"], ["p"], axis=-1),
  n("MatMul", ["p", "v"], ["o0"]),
  n("Transpose", ["o0"], ["o1"], perm=[0, 2, 1, 3]),
  n("Reshape", ["o1", "sh3o"], ["y"]),
]
g = helper.make_graph(nodes, "swinv2", [helper.make_tensor_value_info("x", T.FLOAT16, [Bw, N, C])],
                      [helper.make_tensor_value_info("y", T.FLOAT16, [Bw, N, C])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(m)
os.makedirs(sys.argv[1], exist_ok=True)
onnx.save(m, os.path.join(sys.argv[1], "swin_v2_attention.onnx"))
