"""Small models for brrrc's --precision=auto, made at test time (Debian's
python3: onnx, numpy).

  precision_models.py DIR
      DIR/ts_f16.onnx: TorchScript's shape of an f16 model: an f16 weight
        product, then the result upcast to f32 and multiplied by itself in
        f32 (the exporter's attention scores), cast back to f16.
      DIR/f32.onnx: the same graph with f32 weights and input.
      DIR/bf16.onnx: bf16 weights and input.
      DIR/inputs_f16.onnx: no weights; two f16 inputs upcast and
        multiplied in f32.
      DIR/mixed.onnx: no weights; an f16 and an f32 input.
      DIR/gemm_f16.onnx: an f32 input cast to f16 for a Gemm by an f16
        weight stored [N, K] (transB), then the f32 product of ts_f16.
      DIR/qdq_f32.onnx, DIR/qdq_f16.onnx (opset 19): an explicitly quantized
        product (an input through QuantizeLinear and DequantizeLinear, an
        INT8 weight through DequantizeLinear) whose scales, and so its
        dequantized values, are f32 or f16, then the f32 product of ts_f16.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def upcast_product(dtype, weight):
    t = {"f16": TensorProto.FLOAT16, "f32": TensorProto.FLOAT,
         "bf16": TensorProto.BFLOAT16}[dtype]
    nodes = [helper.make_node("MatMul", ["x", "w"], ["q"]),
             helper.make_node("Cast", ["q"], ["qf"], to=TensorProto.FLOAT),
             helper.make_node("Transpose", ["qf"], ["qt"], perm=[1, 0]),
             helper.make_node("MatMul", ["qf", "qt"], ["s"]),
             helper.make_node("Cast", ["s"], ["y"], to=t)]
    return helper.make_graph(
        nodes, "upcast", [helper.make_tensor_value_info("x", t, [32, 64])],
        [helper.make_tensor_value_info("y", t, [32, 32])], [weight])


def quantized(dtype, w):
    t = {"f16": TensorProto.FLOAT16, "f32": TensorProto.FLOAT}[dtype]
    np_t = {"f16": np.float16, "f32": np.float32}[dtype]
    nodes = [helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
             helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
             helper.make_node("DequantizeLinear", ["wq", "sw", "zw"], ["wd"]),
             helper.make_node("MatMul", ["xd", "wd"], ["q"]),
             helper.make_node("Cast", ["q"], ["qf"], to=TensorProto.FLOAT),
             helper.make_node("Transpose", ["qf"], ["qt"], perm=[1, 0]),
             helper.make_node("MatMul", ["qf", "qt"], ["s"]),
             helper.make_node("Cast", ["s"], ["y"], to=t)]
    inits = [numpy_helper.from_array(np.array(0.05, np_t), "sx"),
             numpy_helper.from_array(np.array(0, np.int8), "zx"),
             numpy_helper.from_array((w * 8).astype(np.int8), "wq"),
             numpy_helper.from_array(np.array(0.125, np_t), "sw"),
             numpy_helper.from_array(np.array(0, np.int8), "zw")]
    return helper.make_graph(
        nodes, "quantized", [helper.make_tensor_value_info("x", t, [32, 64])],
        [helper.make_tensor_value_info("y", t, [32, 32])], inits)


def save(graph, path, opset=17):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.save(model, path)


def main(out):
    os.makedirs(out, exist_ok=True)
    w = (np.arange(64 * 64).reshape(64, 64) % 7 - 3) / 8.0
    save(upcast_product("f16", numpy_helper.from_array(w.astype(np.float16), "w")),
         os.path.join(out, "ts_f16.onnx"))
    save(upcast_product("f32", numpy_helper.from_array(w.astype(np.float32), "w")),
         os.path.join(out, "f32.onnx"))
    bits = (w.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    bf = helper.make_tensor("w", TensorProto.BFLOAT16, [64, 64], bits.tobytes(), raw=True)
    save(upcast_product("bf16", bf), os.path.join(out, "bf16.onnx"))
    for name, types in (("inputs_f16", (TensorProto.FLOAT16, TensorProto.FLOAT16)),
                        ("mixed", (TensorProto.FLOAT16, TensorProto.FLOAT))):
        nodes = [helper.make_node("Cast", ["a"], ["af"], to=TensorProto.FLOAT),
                 helper.make_node("Cast", ["b"], ["bf"], to=TensorProto.FLOAT),
                 helper.make_node("MatMul", ["af", "bf"], ["y"])]
        graph = helper.make_graph(
            nodes, name, [helper.make_tensor_value_info("a", types[0], [32, 64]),
                          helper.make_tensor_value_info("b", types[1], [64, 32])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [32, 32])])
        save(graph, os.path.join(out, name + ".onnx"))
    nodes = [helper.make_node("Cast", ["x"], ["xh"], to=TensorProto.FLOAT16),
             helper.make_node("Gemm", ["xh", "w"], ["q"], transB=1),
             helper.make_node("Cast", ["q"], ["qf"], to=TensorProto.FLOAT),
             helper.make_node("Transpose", ["qf"], ["qt"], perm=[1, 0]),
             helper.make_node("MatMul", ["qf", "qt"], ["y"])]
    graph = helper.make_graph(
        nodes, "gemm", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [32, 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [32, 32])],
        [numpy_helper.from_array(w.astype(np.float16), "w")])
    save(graph, os.path.join(out, "gemm_f16.onnx"))
    for dtype in ("f32", "f16"):
        save(quantized(dtype, w), os.path.join(out, "qdq_%s.onnx" % dtype), opset=19)


if __name__ == "__main__":
    main(sys.argv[1])
