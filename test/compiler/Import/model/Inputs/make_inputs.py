#!/usr/bin/env python3
"""Recreates the binary ONNX inputs of the model-level importer tests.

Run with a Python that has the `onnx` package (tested with onnx 1.12):

    python3 test/compiler/Import/model/Inputs/make_inputs.py

It writes, next to this script:

  relu.onnx               a small valid binary model (Relu of float[2, 3]),
                          cut short by the truncated-model test
  external.onnx           Add of an input and a float[8, 16] initializer 'W'
  weights.bin             W's 512 bytes (W[i, j] = 16 * i + j), stored as
                          external data of external.onnx
  external-constant.onnx  a Constant node whose float[8, 16] 'value' tensor
                          lives in constant.bin (attribute external data)
  constant.bin            that tensor's bytes (-(16 * i + j))
  external-escape.onnx    like external.onnx, but W's location is
                          '../weights.bin', outside the model's directory
  external-dots.onnx      like external.onnx, but W's location is
                          'weights..bin', a legal name inside it
  external-bad-offset.onnx  like external.onnx, but W's offset is '-8'
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


def relu_model():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])],
                              "relu", [x], [y])
    model = helper.make_model(graph, producer_name="brrr-tests",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path("relu.onnx"))


def add_weight_model(name):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 16])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, 16])
    w = numpy_helper.from_array(
        np.arange(128, dtype=np.float32).reshape(8, 16), "W")
    graph = helper.make_graph([helper.make_node("Add", ["x", "W"], ["y"])],
                              name, [x], [y], initializer=[w])
    model = helper.make_model(graph, producer_name="brrr-tests",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def external_model():
    # Saving moves the initializer's bytes into weights.bin and leaves a
    # data_location = EXTERNAL reference in the model.
    onnx.save_model(add_weight_model("external"), path("external.onnx"),
                    save_as_external_data=True, all_tensors_to_one_file=True,
                    location="weights.bin", size_threshold=0)


def external_reference_model(name, location, offset="0", length="512"):
    model = add_weight_model(name.replace("-", "_"))
    w = model.graph.initializer[0]
    w.ClearField("raw_data")
    w.data_location = TensorProto.EXTERNAL
    for key, value in (("location", location), ("offset", offset),
                       ("length", length)):
        entry = w.external_data.add()
        entry.key = key
        entry.value = value
    onnx.save(model, path(name + ".onnx"))


def external_escape_model():
    external_reference_model("external-escape", "../weights.bin")
    external_reference_model("external-dots", "weights..bin")
    external_reference_model("external-bad-offset", "weights.bin",
                             offset="-8")


def external_constant_model():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 16])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, 16])
    c = numpy_helper.from_array(
        -np.arange(128, dtype=np.float32).reshape(8, 16), "C")
    nodes = [helper.make_node("Constant", [], ["c"], value=c),
             helper.make_node("Add", ["x", "c"], ["y"])]
    graph = helper.make_graph(nodes, "external_constant", [x], [y])
    model = helper.make_model(graph, producer_name="brrr-tests",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save_model(model, path("external-constant.onnx"),
                    save_as_external_data=True, all_tensors_to_one_file=True,
                    location="constant.bin", size_threshold=0,
                    convert_attribute=True)


if __name__ == "__main__":
    relu_model()
    external_model()
    external_escape_model()
    external_constant_model()
