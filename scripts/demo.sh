#!/usr/bin/env bash
# The README's main command: compiles a bundled model (default:
# examples/norm_block.onnx) to a GPU library, prints what the compiler
# produced (the kernels it formed and each kernel's roofline), and, where an
# NVIDIA driver is present, runs the library and profiles every kernel.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BRRR_BUILD_DIR:-$root/build}"
model="${1:-$root/examples/norm_block.onnx}"
if [ ! -x "$build/bin/brrrc" ]; then
  echo "demo: $build/bin/brrrc is missing; run scripts/build-and-test.sh first" >&2
  exit 1
fi
out="$build/demo"
mkdir -p "$out"
lib="$out/$(basename "${model%.*}").so"

echo "== brrrc $(basename "$model") -o $lib --report"
"$build/bin/brrrc" "$model" -o "$lib" --report
echo
echo "== the kernels brrrc formed (brrr IR after fusion and memory planning)"
"$build/bin/brrrc" "$model" --emit=kernels | sed -n '/func.func @main/,/^  }$/p'
echo

python=""
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null && "$p" -c "import numpy" 2>/dev/null; then
    python="$p"
    break
  fi
done
if [ -z "$python" ]; then
  echo "== no Python 3 with numpy here: not running $lib"
  exit 0
fi
if ! "$python" -c "import ctypes; ctypes.CDLL('libcuda.so.1')" 2>/dev/null; then
  echo "== no NVIDIA driver on this machine: $lib is built; run it on a GPU with"
  echo "   $build/bin/brrr-run $lib --bench --profile"
  exit 0
fi
echo "== brrr-run $(basename "$lib") --bench --profile"
"$python" "$build/bin/brrr-run" "$lib" --bench --profile
