#!/bin/sh
# A new user's first hour, on the GPU machine, from the repository root:
#   test/gpu/first_hour.sh WHEEL [OUT]
# Installs the wheel into a fresh virtual environment (a .pth file lends it
# the machine's torch and numpy), exports BERT-base and ResNet-50 (test/gpu/models.py,
# dynamo), compiles them with the venv's brrrc (fp16), profiles each with
# `brrr-run --profile --plot` (OUT/roofline-*.svg), and times a first and a
# second brrr.compile of BERT-base (the second from the cache).
set -eu
wheel=$1
out=${2:-${OUT:-.}}
work=$(mktemp -d)
sitedir=$(python3 -c "import os, torch; print(os.path.dirname(os.path.dirname(torch.__file__)))")
python3 -m venv "$work/venv"
# torch and numpy from wherever this machine's Python has them.
"$work/venv/bin/python" -c "import site, sys; open(site.getsitepackages()[0] + '/system.pth', 'w').write(sys.argv[1])" "$sitedir"
"$work/venv/bin/pip" install --no-index --no-cache-dir -q "$wheel"
export PATH="$work/venv/bin:$PATH"
echo "brrrc: $(command -v brrrc)"
brrrc --version | head -n 1
(cd test/gpu && python3 models.py export "$work/models" --only bert,resnet50 2>&1 | grep -E "^(OK|FAIL)")
ls "$work/models"
for m in bert resnet50; do
  brrrc "$work/models/$m.dynamo.onnx" -o "$work/$m.so" --precision=fp16
  brrr-run "$work/$m.so" --profile --plot "$out/roofline-$m.svg" | tail -n 3
done
cd "$work" && BRRR_CACHE_DIR="$work/cache" python3 - <<'PY'
import time

import brrr
import torch

for k in range(2):
    t = time.perf_counter()
    m = brrr.compile("models/bert.dynamo.onnx", precision="fp16")
    print(f"brrr.compile {'first (compiles)' if k == 0 else 'second (cache)'}: "
          f"{time.perf_counter() - t:.3f} s")
ids = torch.randint(0, 30000, (1, 128), device="cuda")
mask = torch.ones(1, 128, dtype=torch.int64, device="cuda")
y = m(ids, mask)
print("ran on torch tensors:", tuple(y.shape), y.dtype, y.device)
PY
BRRR_CACHE_DIR="$work/cache" python3 -c "
import time, brrr
t = time.perf_counter(); m = brrr.compile('models/bert.dynamo.onnx', precision='fp16')
print(f'brrr.compile in a new process (cache, and the CUDA context made): {time.perf_counter() - t:.3f} s')"
