#!/usr/bin/python3
"""Writes the bundled example models (run with Debian's /usr/bin/python3).

transformer_block.onnx: one pre-norm transformer encoder block as PyTorch
  exports it at opset 17 (LayerNormalization, attention with a Shape-driven
  head reshape, Softmax, erf-form GELU, residual adds), batch 2, 16 tokens,
  width 64, 4 heads.
norm_block.onnx: layer norm, bias + GELU, residual and softmax over
  32x128x1024 float16, the part of a transformer that brrr's code generator
  compiles end to end today (3 kernels).
cnn_block.onnx: a ResNet-style block (Conv + BatchNormalization + Relu twice,
  a 1x1 projection shortcut, MaxPool, GlobalAveragePool, Flatten, Gemm head),
  batch 1, 3x32x32 images, 10 classes.

Weights are seeded random numbers, so the files are reproducible.
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(0)


def weight(name, *shape, scale=None):
    fan_in = shape[0] if len(shape) == 2 else int(np.prod(shape[1:]))
    scale = scale if scale is not None else 1.0 / np.sqrt(fan_in)
    data = (rng.standard_normal(shape) * scale).astype(np.float32)
    return numpy_helper.from_array(data, name)


def const_i64(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def transformer_block():
    B, T, D, H = 2, 16, 64, 4
    F = 4 * D
    inits = [
        weight("ln1.weight", D, scale=0.1), weight("ln1.bias", D, scale=0.1),
        weight("attn.qkv.weight", D, 3 * D), weight("attn.qkv.bias", 3 * D, scale=0.02),
        weight("attn.out.weight", D, D), weight("attn.out.bias", D, scale=0.02),
        weight("ln2.weight", D, scale=0.1), weight("ln2.bias", D, scale=0.1),
        weight("ffn.up.weight", D, F), weight("ffn.up.bias", F, scale=0.02),
        weight("ffn.down.weight", F, D), weight("ffn.down.bias", D, scale=0.02),
        numpy_helper.from_array(np.array(np.sqrt(D // H), np.float32), "scale"),
        numpy_helper.from_array(np.array(np.sqrt(2.0), np.float32), "sqrt2"),
        numpy_helper.from_array(np.array(1.0, np.float32), "one"),
        numpy_helper.from_array(np.array(0.5, np.float32), "half"),
        const_i64("idx0", 0), const_i64("idx1", 1),
        const_i64("heads_tail", [H, D // H]), const_i64("axes0", [0]),
        const_i64("width", [D]),
    ]
    n = helper.make_node
    nodes = [
        n("LayerNormalization", ["x", "ln1.weight", "ln1.bias"], ["h"], axis=-1,
          epsilon=1e-5, name="ln1"),
        n("MatMul", ["h", "attn.qkv.weight"], ["qkv_mm"], name="qkv_matmul"),
        n("Add", ["qkv_mm", "attn.qkv.bias"], ["qkv"], name="qkv_bias"),
        n("Split", ["qkv"], ["q", "k", "v"], axis=-1, name="qkv_split"),
        # The head reshape target is computed from Shape(x), as exporters do.
        n("Shape", ["x"], ["x_shape"], name="shape"),
        n("Gather", ["x_shape", "idx0"], ["batch"], axis=0, name="batch_dim"),
        n("Gather", ["x_shape", "idx1"], ["tokens"], axis=0, name="token_dim"),
        n("Unsqueeze", ["batch", "axes0"], ["batch1"], name="batch_unsq"),
        n("Unsqueeze", ["tokens", "axes0"], ["tokens1"], name="tokens_unsq"),
        n("Concat", ["batch1", "tokens1", "heads_tail"], ["heads_shape"], axis=0,
          name="heads_shape"),
        n("Concat", ["batch1", "tokens1", "width"], ["merged_shape"], axis=0,
          name="merged_shape"),
    ]
    for t in "qkv":
        nodes += [
            n("Reshape", [t, "heads_shape"], [f"{t}_heads"], name=f"{t}_reshape"),
            n("Transpose", [f"{t}_heads"], [f"{t}_t"],
              perm=[0, 2, 3, 1] if t == "k" else [0, 2, 1, 3],
              name=f"{t}_transpose"),
        ]
    nodes += [
        n("MatMul", ["q_t", "k_t"], ["scores_raw"], name="qk_matmul"),
        n("Div", ["scores_raw", "scale"], ["scores"], name="qk_scale"),
        n("Softmax", ["scores"], ["probs"], axis=-1, name="softmax"),
        n("MatMul", ["probs", "v_t"], ["ctx_heads"], name="pv_matmul"),
        n("Transpose", ["ctx_heads"], ["ctx_t"], perm=[0, 2, 1, 3],
          name="ctx_transpose"),
        n("Reshape", ["ctx_t", "merged_shape"], ["ctx"], name="ctx_reshape"),
        n("MatMul", ["ctx", "attn.out.weight"], ["attn_mm"], name="out_matmul"),
        n("Add", ["attn_mm", "attn.out.bias"], ["attn"], name="out_bias"),
        n("Add", ["x", "attn"], ["r1"], name="residual1"),
        n("LayerNormalization", ["r1", "ln2.weight", "ln2.bias"], ["h2"],
          axis=-1, epsilon=1e-5, name="ln2"),
        n("MatMul", ["h2", "ffn.up.weight"], ["up_mm"], name="up_matmul"),
        n("Add", ["up_mm", "ffn.up.bias"], ["up"], name="up_bias"),
        # GELU, erf form, as exported before opset 20.
        n("Div", ["up", "sqrt2"], ["g_div"], name="gelu_div"),
        n("Erf", ["g_div"], ["g_erf"], name="gelu_erf"),
        n("Add", ["g_erf", "one"], ["g_add"], name="gelu_add"),
        n("Mul", ["up", "g_add"], ["g_mul"], name="gelu_mul"),
        n("Mul", ["g_mul", "half"], ["act"], name="gelu_half"),
        n("MatMul", ["act", "ffn.down.weight"], ["down_mm"], name="down_matmul"),
        n("Add", ["down_mm", "ffn.down.bias"], ["down"], name="down_bias"),
        n("Add", ["r1", "down"], ["y"], name="residual2"),
    ]
    graph = helper.make_graph(
        nodes, "transformer_block",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [B, T, D])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [B, T, D])],
        inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                             producer_name="brrr-examples")


def conv_bn(prefix, cin, cout, k, inits):
    inits += [
        weight(f"{prefix}.weight", cout, cin, k, k),
        numpy_helper.from_array(
            (1 + 0.1 * rng.standard_normal(cout)).astype(np.float32), f"{prefix}.bn.scale"),
        weight(f"{prefix}.bn.bias", cout, scale=0.1),
        weight(f"{prefix}.bn.mean", cout, scale=0.1),
        numpy_helper.from_array(
            (1 + 0.1 * rng.random(cout)).astype(np.float32), f"{prefix}.bn.var"),
    ]


def cnn_block():
    inits = []
    conv_bn("conv1", 3, 16, 3, inits)
    conv_bn("conv2", 16, 16, 3, inits)
    conv_bn("proj", 3, 16, 1, inits)
    inits += [weight("fc.weight", 10, 16), weight("fc.bias", 10, scale=0.02)]
    n = helper.make_node

    def cbn(prefix, inp, out, pad):
        return [
            n("Conv", [inp, f"{prefix}.weight"], [f"{prefix}.c"], pads=[pad] * 4,
              kernel_shape=[1 + 2 * pad] * 2, name=f"{prefix}.conv"),
            n("BatchNormalization",
              [f"{prefix}.c", f"{prefix}.bn.scale", f"{prefix}.bn.bias",
               f"{prefix}.bn.mean", f"{prefix}.bn.var"], [out], epsilon=1e-5,
              name=f"{prefix}.bn"),
        ]

    nodes = (cbn("conv1", "x", "b1", 1)
             + [n("Relu", ["b1"], ["a1"], name="relu1")]
             + cbn("conv2", "a1", "b2", 1)
             + cbn("proj", "x", "shortcut", 0)
             + [n("Add", ["b2", "shortcut"], ["sum"], name="residual"),
                n("Relu", ["sum"], ["a2"], name="relu2"),
                n("MaxPool", ["a2"], ["pool"], kernel_shape=[2, 2], strides=[2, 2],
                  name="maxpool"),
                n("GlobalAveragePool", ["pool"], ["gap"], name="gap"),
                n("Flatten", ["gap"], ["flat"], axis=1, name="flatten"),
                n("Gemm", ["flat", "fc.weight", "fc.bias"], ["logits"], transB=1,
                  name="fc")])
    graph = helper.make_graph(
        nodes, "cnn_block",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32, 32])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])],
        inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                             producer_name="brrr-examples")


def norm_block():
    """What brrr's code generator covers end to end today: layer norm, an
    erf GELU with a bias, a residual add and a softmax, on 32 x 128 x 1024
    float16 activations (every op is a row or pointwise kernel)."""
    B, T, D = 32, 128, 1024
    f16 = lambda a: a.astype(np.float16)
    inits = [
        numpy_helper.from_array(f16(1 + 0.1 * rng.standard_normal(D)), "ln.weight"),
        numpy_helper.from_array(f16(0.1 * rng.standard_normal(D)), "ln.bias"),
        numpy_helper.from_array(f16(0.1 * rng.standard_normal(D)), "act.bias"),
        numpy_helper.from_array(np.array(np.sqrt(2.0), np.float16), "sqrt2"),
        numpy_helper.from_array(np.array(1.0, np.float16), "one"),
        numpy_helper.from_array(np.array(0.5, np.float16), "half"),
    ]
    n = helper.make_node
    nodes = [
        n("LayerNormalization", ["x", "ln.weight", "ln.bias"], ["h"], axis=-1,
          epsilon=1e-5, name="ln"),
        n("Add", ["h", "act.bias"], ["hb"], name="bias"),
        n("Div", ["hb", "sqrt2"], ["d"], name="gelu_div"),
        n("Erf", ["d"], ["e"], name="gelu_erf"),
        n("Add", ["e", "one"], ["p"], name="gelu_add"),
        n("Mul", ["hb", "p"], ["m"], name="gelu_mul"),
        n("Mul", ["m", "half"], ["g"], name="gelu_half"),
        n("Add", ["x", "g"], ["r"], name="residual"),
        n("Softmax", ["r"], ["y"], axis=-1, name="softmax"),
    ]
    graph = helper.make_graph(
        nodes, "norm_block",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [B, T, D])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [B, T, D])],
        inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                             producer_name="brrr-examples")


def main():
    for name, model in [("transformer_block", transformer_block()),
                        ("cnn_block", cnn_block()),
                        ("norm_block", norm_block())]:
        model.ir_version = 8
        onnx.checker.check_model(model)
        path = os.path.join(HERE, f"{name}.onnx")
        onnx.save(model, path)
        print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()
