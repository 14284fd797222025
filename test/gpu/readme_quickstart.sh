#!/bin/sh
# The README's quickstart as a new user types it, on the GPU machine, from
# the repository root: test/gpu/readme_quickstart.sh WHEEL
# A fresh virtual environment gets the wheel (a .pth file lends it the
# machine's torch and numpy); then the command line, Python and C++ steps of
# the README run on examples/cnn_block.onnx, and the three outputs agree.
set -eu
wheel=$1
work=$(mktemp -d)
sitedir=$(python3 -c "import os, torch; print(os.path.dirname(os.path.dirname(torch.__file__)))")
python3 -m venv "$work/venv"
"$work/venv/bin/python" -c "import site, sys; open(site.getsitepackages()[0] + '/system.pth', 'w').write(sys.argv[1])" "$sitedir"
"$work/venv/bin/pip" install --no-index --no-cache-dir -q "$wheel"
export PATH="$work/venv/bin:$PATH" BRRR_CACHE_DIR="$work/cache"
cp examples/cnn_block.onnx examples/quickstart.cpp "$work/"
cd "$work"
echo "== command line"
brrrc cnn_block.onnx -o model.so --report | tail -n 4
brrr-run model.so --bench --profile | tail -n 6
echo "== Python"
python3 - <<'PY'
import numpy as np
import torch

import brrr

m = brrr.compile("cnn_block.onnx")
print(m.inputs, m.outputs)
x = np.ones(m.inputs[0].shape, dtype=np.float32)
y = m(x)
print("numpy:", type(y).__name__, y.shape, y.reshape(-1)[:4])
yt = m(torch.ones(m.inputs[0].shape, device="cuda"))
print("torch:", type(yt).__name__, tuple(yt.shape), yt.device,
      "same as numpy:", bool(np.array_equal(yt.cpu().numpy(), y)))
print("outs:", list(m.run({m.inputs[0].name: x})))
PY
echo "== C++"
g++ -std=c++17 -I"$(python3 -c 'import brrr; print(brrr.include_dir())')" \
    quickstart.cpp model.so -Wl,-rpath,"$PWD" -o quickstart
./quickstart
