import os
import sys

import brrr

examples, tmp = sys.argv[1], sys.argv[2]
os.makedirs(tmp, exist_ok=True)

ir = brrr.compile(os.path.join(examples, "cnn_block.onnx"), emit="brrr")
print("ir has main:", "func.func @main" in ir)

model = os.path.join(tmp, "dyn.onnxtext")
with open(model, "w") as f:
    f.write('<ir_version: 8, opset_import: ["" : 13]>\n'
            "g (float[N, 4] x) => (float[N, 4] y) { y = Relu(x) }\n")
ir = brrr.compile(model, input_shapes={"x": [3, 4]}, emit="brrr")
print("bound:", "tensor<3x4xf32>" if "tensor<3x4xf32>" in ir else ir)

out = os.path.join(tmp, "out.mlir")
brrr.compile(model, output=out, input_shapes={"x": (3, 4)}, emit="brrr")
print("written:", os.path.getsize(out) > 0)

# Without emit: a model.so, loaded (for inspection: no GPU here).
so = os.path.join(tmp, "relu.so")
m = brrr.compile(model, output=so, input_shapes={"x": [3, 4]}, device=None)
print("loaded:", type(m).__name__, m.inputs[0].shape, os.path.isfile(so))

# A range: one library for every N in 1..64, its signature naming the
# symbol; "1..64" is the same range as (1, 64).
so = os.path.join(tmp, "relu-range.so")
m = brrr.compile(model, output=so, input_shapes={"x": [(1, 64), 4]},
                 device=None)
print("range:", m.symbols, m.inputs[0].shape, m.outputs[0].shape)
ir = brrr.compile(model, input_shapes={"x": ["1..64", 4]}, emit="brrr")
print("range ir:", '#brrr.dim<"N", 1, 64>' in ir)

try:
    brrr.compile(model, emit="brrr")
except brrr.CompileError as e:
    print("error raised:", type(e).__name__)
    print("diagnostics:", sum("error:" in d for d in e.diagnostics))
    print(e)
