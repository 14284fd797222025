#!/usr/bin/env bash
# Installs what is missing, builds brrr (Release, Ninja) and runs every test:
# the gtest unit tests and the lit suite (dialect, importer, examples, tools,
# and the import sweep over the ONNX backend test data), then fuzzes the
# importer for BRRR_FUZZ_SECONDS (default 60; 0 skips it) under ASan and
# UBSan (scripts/fuzz.sh, its own build in build-fuzz/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BRRR_BUILD_DIR:-$root/build}"
jobs="${BRRR_JOBS:-$(nproc)}"

"$root/scripts/install-deps.sh"
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$jobs"
cd "$build"
ctest --output-on-failure -j 1
fuzz_seconds="${BRRR_FUZZ_SECONDS:-60}"
if [ "$fuzz_seconds" -gt 0 ]; then
  BRRR_JOBS="$jobs" "$root/scripts/fuzz.sh" "$fuzz_seconds" "$build-fuzz"
fi
