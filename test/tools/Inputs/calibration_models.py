"""A small f16 model for brrrc --precision=fp8|int8, its calibration
caches and inputs, made at test time (Debian's python3: onnx, numpy).

  calibration_models.py DIR
      DIR/mlp.onnx: x: f16[8, 64], z: f16[8, 24] ->
          y = Gemm(relu(x @ W1), W2, transB=1) + b   (nodes fc1, fc2)
          o = z @ W3                                  (node odd: a
              contraction of 24, not a multiple of 16, stays f16)
      DIR/mlp_batch.onnx: the same with a dynamic batch (`batch`)
      DIR/mlp.calibration: the cache of ranges fc1 = 3, fc2 = 2.5
      DIR/missing.calibration: fc1 only
      DIR/nan.calibration: fc1 = nan
      DIR/bad.calibration: no header
      DIR/sample.npz: x and z, one calibration sample
      DIR/wrong.npz: x and q (no input q)
      DIR/attention.onnx: q, k, v: f16[1, 2, 64, 64] ->
          y = (softmax(q k^T / 8) v, heads joined: [1, 64, 128]) @ W
          (node proj), and its cache attention.calibration
      DIR/attention_seq.onnx: the same over a symbolic sequence S
      DIR/cnn.onnx: x: f16[2, 32, 8, 8] -> y = conv2(relu(conv1(x)))
          (conv1 3 x 3, 32 -> 64, padded; conv2 1 x 1, 64 -> 48), and its
          cache cnn.calibration: conv1 = 4, conv2 = 2
      DIR/cnn_kept.onnx: the same, relu(conv1(x)) an output too (r)
      DIR/residual.onnx: x: f16[2, 64, 8, 8] -> r = relu(conv1(x)),
          s = relu(conv2(r) + r), y = relu(conv3(s) + s) (3 x 3
          convolutions of 64 channels, padded), and its cache
          residual.calibration: conv1 = 4, conv2 = 3, conv3 = 5
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((64, 64)) * 0.1).astype(np.float16)
    w2 = (rng.standard_normal((32, 64)) * 0.1).astype(np.float16)
    b = (rng.standard_normal(32) * 0.1).astype(np.float16)
    w3 = (rng.standard_normal((24, 8)) * 0.1).astype(np.float16)
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
        helper.make_node("Relu", ["h"], ["r"], name="relu"),
        helper.make_node("Gemm", ["r", "w2", "b"], ["y"], name="fc2",
                         transB=1),
        helper.make_node("MatMul", ["z", "w3"], ["o"], name="odd"),
    ]
    graph = helper.make_graph(
        nodes, "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [8, 64]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT16, [8, 24])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [8, 32]),
         helper.make_tensor_value_info("o", TensorProto.FLOAT16, [8, 8])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2"),
         numpy_helper.from_array(b, "b"), numpy_helper.from_array(w3, "w3")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "mlp.onnx"))
    for value in list(model.graph.input) + list(model.graph.output):
        value.type.tensor_type.shape.dim[0].dim_param = "batch"
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "mlp_batch.onnx"))

    def cache(name, lines, header="brrr calibration 1\nmethod max\nsamples 1\n"):
        with open(os.path.join(out, name), "w") as f:
            f.write(header + "".join(l + "\n" for l in lines))

    cache("mlp.calibration", ["3 fc1", "2.5 fc2"])
    cache("missing.calibration", ["3 fc1"])
    cache("nan.calibration", ["nan fc1", "2.5 fc2"])
    cache("bad.calibration", ["3 fc1"], header="")
    x = rng.standard_normal((8, 64)).astype(np.float32)
    z = rng.standard_normal((8, 24)).astype(np.float32)
    np.savez(os.path.join(out, "sample.npz"), x=x, z=z)
    np.savez(os.path.join(out, "wrong.npz"), x=x, q=z)

    # Attention whose output a product reads: the attention kernel stores
    # it quantized.
    w = (rng.standard_normal((128, 128)) * 0.1).astype(np.float16)
    heads = [helper.make_tensor_value_info(n, TensorProto.FLOAT16,
                                           [1, 2, 64, 64]) for n in "qkv"]
    nodes = [
        helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]),
        helper.make_node("MatMul", ["q", "kt"], ["s"]),
        helper.make_node("Mul", ["s", "scale"], ["ss"]),
        helper.make_node("Softmax", ["ss"], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "v"], ["o"]),
        helper.make_node("Transpose", ["o"], ["ot"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["ot", "shape"], ["oj"]),
        helper.make_node("MatMul", ["oj", "w"], ["y"], name="proj"),
    ]
    graph = helper.make_graph(
        nodes, "attention", heads,
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [1, 64, 128])],
        [numpy_helper.from_array(np.array(0.125, np.float16), "scale"),
         numpy_helper.from_array(np.array([1, 64, 128], np.int64), "shape"),
         numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "attention.onnx"))
    cache("attention.calibration", ["1.5 proj"])

    # The same over a symbolic sequence S: the heads joined by [1, -1, 128].
    for value in list(model.graph.input):
        value.type.tensor_type.shape.dim[2].dim_param = "S"
    model.graph.output[0].type.tensor_type.shape.dim[1].dim_param = "S"
    for init in model.graph.initializer:
        if init.name == "shape":
            init.CopyFrom(numpy_helper.from_array(
                np.array([1, -1, 128], np.int64), "shape"))
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "attention_seq.onnx"))

    # Two convolutions the 8-bit convolution body runs.
    c1 = (rng.standard_normal((64, 32, 3, 3)) * 0.1).astype(np.float16)
    c2 = (rng.standard_normal((48, 64, 1, 1)) * 0.1).astype(np.float16)
    nodes = [
        helper.make_node("Conv", ["x", "c1"], ["h"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["h"], ["r"], name="relu"),
        helper.make_node("Conv", ["r", "c2"], ["y"], name="conv2"),
    ]
    graph = helper.make_graph(
        nodes, "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2, 32, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2, 48, 8, 8])],
        [numpy_helper.from_array(c1, "c1"), numpy_helper.from_array(c2, "c2")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "cnn.onnx"))
    cache("cnn.calibration", ["4 conv1", "2 conv2"])
    # The same, relu(conv1(x)) returned too: read twice, as it is and
    # quantized for conv2.
    model.graph.output.insert(0, helper.make_tensor_value_info("r", TensorProto.FLOAT16,
                                                         [2, 64, 8, 8]))
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "cnn_kept.onnx"))

    # Two residual blocks: r and s are each read by a convolution and by
    # the addition after it.
    ws = [(rng.standard_normal((64, 64, 3, 3)) * 0.05).astype(np.float16)
          for _ in range(3)]
    conv = lambda i, src, dst: helper.make_node(  # noqa: E731
        "Conv", [src, f"w{i}"], [dst], name=f"conv{i}", pads=[1, 1, 1, 1])
    nodes = [
        conv(1, "x", "h1"), helper.make_node("Relu", ["h1"], ["r"]),
        conv(2, "r", "h2"), helper.make_node("Add", ["h2", "r"], ["a2"]),
        helper.make_node("Relu", ["a2"], ["s"]),
        conv(3, "s", "h3"), helper.make_node("Add", ["h3", "s"], ["a3"]),
        helper.make_node("Relu", ["a3"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "residual",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2, 64, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2, 64, 8, 8])],
        [numpy_helper.from_array(w, f"w{i + 1}") for i, w in enumerate(ws)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "residual.onnx"))
    cache("residual.calibration", ["4 conv1", "3 conv2", "5 conv3"])


if __name__ == "__main__":
    main(sys.argv[1])
