"""Writes small QDQ models to the directory argv[1], one per case name.

The float8 element types (ONNX 1.14) are newer than the onnx package the
tests run with, so their tensors and value infos are written with the raw
data type numbers: FLOAT8E4M3FN is 17, FLOAT8E5M2 19.
"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, save

F8E4M3FN, F8E5M2 = 17, 19
FLOAT, INT8, UINT8, INT16 = TensorProto.FLOAT, TensorProto.INT8, TensorProto.UINT8, TensorProto.INT16


def tensor(name, dtype, dims, values=None, raw=None):
    t = TensorProto()
    t.name = name
    t.data_type = dtype
    t.dims.extend(dims)
    if raw is not None:
        t.raw_data = bytes(raw)
    elif dtype == FLOAT:
        t.float_data.extend(values)
    else:
        t.int32_data.extend(values)
    return t


def model(nodes, inputs, outputs, inits, opset):
    graph = helper.make_graph(nodes, "g", inputs, outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                             ir_version=9)


def vi(name, dtype, dims):
    return helper.make_tensor_value_info(name, dtype, dims)


def qdq_activation(scale, zero=None, zero_type=INT8, opset=19, **attrs):
    """x -> QuantizeLinear -> DequantizeLinear -> y with a constant scale."""
    inits = [tensor("s", FLOAT, [len(scale)] if len(scale) > 1 else [], scale)]
    q_in = ["x", "s"]
    if zero is not None:
        inits.append(tensor("z", zero_type, [len(zero)] if len(zero) > 1 else [],
                            raw=zero) if zero_type == F8E4M3FN else
                     tensor("z", zero_type, [len(zero)] if len(zero) > 1 else [], zero))
        q_in.append("z")
    nodes = [helper.make_node("QuantizeLinear", q_in, ["q"], name="quant", **attrs),
             helper.make_node("DequantizeLinear", ["q"] + q_in[1:], ["y"], name="dequant",
                              **{k: v for k, v in attrs.items() if k == "axis"})]
    return model(nodes, [vi("x", FLOAT, [4, 8])], [vi("y", FLOAT, [4, 8])], inits, opset)


def fp8_weight_matmul(opset):
    """y = x @ DequantizeLinear(w8, per-channel scale): float8 weights whose
    bytes cover the format's corners: zero, -0, the smallest subnormal
    (2^-9), a normal, the largest finite (448), NaN."""
    w = np.array([0x00, 0x80, 0x01, 0x38, 0x7E, 0xFE, 0x7F, 0x40], np.uint8)
    inits = [tensor("w", F8E4M3FN, [2, 4], raw=w.tobytes()),
             tensor("s", FLOAT, [4], [1.0, 2.0, 0.5, 4.0])]
    nodes = [helper.make_node("DequantizeLinear", ["w", "s"], ["wf"], name="dq_w", axis=1),
             helper.make_node("MatMul", ["x", "wf"], ["y"], name="mm")]
    return model(nodes, [vi("x", FLOAT, [3, 2])], [vi("y", FLOAT, [3, 4])], inits, opset)


def fp8_qdq_matmul():
    """y = DQ(Q(x)) @ DQ(w8): a float8 activation of 300 rows times a float8
    256 x 200 weight (every finite byte but NaN, in a fixed pattern), one
    scale each: an 8-bit product on the wgmma body."""
    k, n = 256, 200
    w = (np.arange(k * n) * 37 % 254).astype(np.uint8)
    w = np.where(w >= 0x7F, w + 1, w).astype(np.uint8)
    inits = [tensor("w", F8E4M3FN, [k, n], raw=w.tobytes()),
             tensor("ws", FLOAT, [], [0.01]), tensor("xs", FLOAT, [], [0.05]),
             tensor("z", F8E4M3FN, [], raw=[0])]
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "z"], ["q"], name="quant"),
             helper.make_node("DequantizeLinear", ["q", "xs", "z"], ["a"], name="dq_x"),
             helper.make_node("DequantizeLinear", ["w", "ws", "z"], ["b"], name="dq_w"),
             helper.make_node("MatMul", ["a", "b"], ["y"], name="mm")]
    return model(nodes, [vi("x", FLOAT, [300, k])], [vi("y", FLOAT, [300, n])], inits, 19)


def qdq_matmul_persistent(dtype):
    """y = relu(DQ(Q(x)) @ DQ(w8) + b): 2000 rows of 768 times an 8-bit 768 x
    1536 weight (float8 or INT8, bytes in a fixed pattern), one scale each,
    a bias: 8-bit products whose tiles outnumber the multiprocessors."""
    k, n = 768, 1536
    w = (np.arange(k * n) * 37 % 254).astype(np.uint8)
    w = np.where(w >= 0x7F, w + 1, w).astype(np.uint8)
    if dtype == INT8:
        w = (w.astype(np.int64) % 15 + 249).astype(np.uint8)
    inits = [tensor("w", dtype, [k, n], raw=w.tobytes()),
             tensor("ws", FLOAT, [], [0.01]), tensor("xs", FLOAT, [], [0.05]),
             tensor("z", dtype, [], raw=[0]) if dtype == F8E4M3FN else
             tensor("z", dtype, [], [0]),
             tensor("b", FLOAT, [n], list(np.linspace(-1, 1, n)))]
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "z"], ["q"], name="quant"),
             helper.make_node("DequantizeLinear", ["q", "xs", "z"], ["a"], name="dq_x"),
             helper.make_node("DequantizeLinear", ["w", "ws", "z"], ["b8"], name="dq_w"),
             helper.make_node("MatMul", ["a", "b8"], ["m"], name="mm"),
             helper.make_node("Add", ["m", "b"], ["h"], name="bias"),
             helper.make_node("Relu", ["h"], ["y"], name="relu")]
    return model(nodes, [vi("x", FLOAT, [2000, k])], [vi("y", FLOAT, [2000, n])], inits, 19)


def fp8_input():
    nodes = [helper.make_node("Cast", ["x"], ["y"], name="up", to=FLOAT)]
    return model(nodes, [vi("x", F8E4M3FN, [4])], [vi("y", FLOAT, [4])], [], 19)


def cast_fp8(saturate):
    nodes = [helper.make_node("Cast", ["x"], ["h"], name="to_f8", to=F8E4M3FN,
                              saturate=saturate),
             helper.make_node("Cast", ["h"], ["y"], name="from_f8", to=FLOAT)]
    return model(nodes, [vi("x", FLOAT, [4, 8])], [vi("y", FLOAT, [4, 8])], [], 19)


def cast_fp8_fold():
    """Casts of constants to float8 evaluated at import: 500 saturates to
    448, 0.3 rounds to the nearest float8 (0.3125), 2^-10 ties to even
    (0), NaN stays NaN."""
    inits = [tensor("c", FLOAT, [4], [500.0, 0.3, 2.0 ** -10, float("nan")])]
    nodes = [helper.make_node("Cast", ["c"], ["h"], name="to_f8", to=F8E4M3FN),
             helper.make_node("Cast", ["h"], ["y"], name="from_f8", to=FLOAT)]
    return model(nodes, [], [vi("y", FLOAT, [4])], inits, 19)


def blocked_activation():
    inits = [tensor("s", FLOAT, [4, 4], [1.0] * 16)]
    nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["q"], name="quant", axis=1,
                              block_size=2),
             helper.make_node("DequantizeLinear", ["q", "s"], ["y"], name="dequant", axis=1,
                              block_size=2)]
    return model(nodes, [vi("x", FLOAT, [4, 8])], [vi("y", FLOAT, [4, 8])], inits, 21)


def e5m2_weight():
    inits = [tensor("w", F8E5M2, [2, 2], raw=bytes([0x3C, 0x40, 0xBC, 0x00])),
             tensor("s", FLOAT, [], [1.0])]
    nodes = [helper.make_node("DequantizeLinear", ["w", "s"], ["wf"], name="dq_w"),
             helper.make_node("MatMul", ["x", "wf"], ["y"], name="mm")]
    return model(nodes, [vi("x", FLOAT, [3, 2])], [vi("y", FLOAT, [3, 2])], inits, 19)


def int16_output():
    inits = [tensor("s", FLOAT, [], [1.0])]
    nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["y"], name="quant",
                              output_dtype=INT16)]
    return model(nodes, [vi("x", FLOAT, [4, 8])], [vi("y", INT16, [4, 8])], inits, 21)


CASES = {
    "fp8_qdq_opset19": lambda: qdq_activation([0.5], [0], F8E4M3FN, 19),
    "fp8_qdq_no_saturate": lambda: qdq_activation([0.5], [0], F8E4M3FN, 19, saturate=0),
    "fp8_qdq_scale2": lambda: qdq_activation([2.0], [0], F8E4M3FN, 19),
    "fp8_weight_opset19": lambda: fp8_weight_matmul(19),
    "fp8_weight_opset21": lambda: fp8_weight_matmul(21),
    "fp8_qdq_matmul": fp8_qdq_matmul,
    "fp8_qdq_matmul_persistent": lambda: qdq_matmul_persistent(F8E4M3FN),
    "int8_qdq_matmul_persistent": lambda: qdq_matmul_persistent(INT8),
    "cast_fp8_saturate": lambda: cast_fp8(1),
    "cast_fp8_no_saturate": lambda: cast_fp8(0),
    "cast_fp8_fold": cast_fp8_fold,
    "int8_per_axis_opset21": lambda: qdq_activation([0.5] * 8, [0] * 8, INT8, 21, axis=1),
    "error_zero_scale": lambda: qdq_activation([0.0]),
    "error_negative_scale": lambda: qdq_activation([0.5, -1.0, 1, 1, 1, 1, 1, 1], axis=1),
    "error_nan_scale": lambda: qdq_activation([float("nan")]),
    "error_inf_scale": lambda: qdq_activation([float("inf")]),
    "error_fp8_zero_point": lambda: qdq_activation([0.5], [0x38], F8E4M3FN, 19),
    "error_axis_size": lambda: qdq_activation([0.5] * 3, [0] * 3, INT8, 13, axis=1),
    "error_blocked_activation": blocked_activation,
    "error_e5m2": e5m2_weight,
    "error_int16": int16_output,
    "error_fp8_input": fp8_input,
}

if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make in CASES.items():
        save(make(), os.path.join(out, name + ".onnx"))
