#!/usr/bin/env bash
# Installs what is missing, builds brrr (Release, Ninja) and runs every test:
# the gtest unit tests and the lit suite (dialect, importer, examples, tools,
# and the import sweep over the ONNX backend test data).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BRRR_BUILD_DIR:-$root/build}"
jobs="${BRRR_JOBS:-$(nproc)}"

"$root/scripts/install-deps.sh"
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$jobs"
cd "$build"
ctest --output-on-failure -j 1
