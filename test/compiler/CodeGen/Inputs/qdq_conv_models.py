"""Writes small QDQ convolutions to the directory argv[1], one per case:
8-bit ones the Hopper convolution body runs, and ones that stay in float.
FLOAT8E4M3FN tensors are written with the raw type number 17 (newer than
the onnx package the tests run with)."""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

F8E4M3FN = 17
FLOAT = TensorProto.FLOAT


def float8(name, values):
    t = TensorProto(name=name, data_type=F8E4M3FN, dims=list(values.shape))
    t.raw_data = values.astype(np.uint8).tobytes()
    return t


def qdq_conv(C, O, k, H, act_zero, weights, per_channel=True, pads=0, stride=1, group=1):
    """y = Conv(DQ(Q(x)), DQ(w)) + b over x of 2 x C x H x H (f32)."""
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(np.array(0.05, np.float32), "sa"), act_zero,
             weights,
             numpy_helper.from_array(
                 (rng.uniform(0.5, 2, O) / 64).astype(np.float32) if per_channel
                 else np.array(0.02, np.float32), "sw"),
             numpy_helper.from_array(rng.standard_normal(O).astype(np.float32), "b")]
    w_zero = ["sw"]
    if weights.data_type != F8E4M3FN:
        inits.append(numpy_helper.from_array(
            np.zeros(O if per_channel else (), np.int8), "zw"))
        w_zero.append("zw")
    nodes = [helper.make_node("QuantizeLinear", ["x", "sa", "za"], ["q"]),
             helper.make_node("DequantizeLinear", ["q", "sa", "za"], ["a"]),
             helper.make_node("DequantizeLinear", [weights.name] + w_zero, ["w"],
                              **({"axis": 0} if per_channel else {})),
             helper.make_node("Conv", ["a", "w", "b"], ["y"], name="conv", pads=[pads] * 4,
                              strides=[stride, stride], group=group)]
    OH = (H + 2 * pads - k) // stride + 1
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", FLOAT, [2, C, H, H])],
        [helper.make_tensor_value_info("y", FLOAT, [2, O, OH, OH])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)


def int8_weights(O, C, k):
    w = np.random.default_rng(1).integers(-127, 128, (O, C, k, k)).astype(np.int8)
    return numpy_helper.from_array(w, "wq")


def u8(v):
    return numpy_helper.from_array(np.array(v, np.uint8), "za")


def f8_zero():
    return float8("za", np.zeros((), np.uint8))


def f8_weights(O, C, k):
    b = np.random.default_rng(2).integers(0, 254, (O, C, k, k)).astype(np.uint8)
    return float8("wq", np.where(b >= 0x7F, b + 1, b))


CASES = {
    # UINT8 activations with a zero point through a padded 3 x 3 window.
    "conv_u8_pad": lambda: qdq_conv(64, 96, 3, 10, u8(117), int8_weights(96, 64, 3), pads=1),
    # Float8, 1 x 1, one weight scale.
    "conv_fp8_1x1": lambda: qdq_conv(256, 130, 1, 7, f8_zero(), f8_weights(130, 256, 1),
                                     per_channel=False),
    # Stay in float: 3 input channels (a stem), two groups.
    "conv_u8_stem": lambda: qdq_conv(3, 32, 3, 16, u8(0), int8_weights(32, 3, 3), pads=1,
                                     stride=2),
    "conv_u8_groups": lambda: qdq_conv(64, 64, 3, 8, u8(0), int8_weights(64, 32, 3), pads=1,
                                       group=2),
}

if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make in CASES.items():
        save(make(), os.path.join(out, name + ".onnx"))
