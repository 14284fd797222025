#!/usr/bin/env bash
# Builds brrr with clang-22 under AddressSanitizer and UndefinedBehavior-
# Sanitizer (BRRR_SANITIZE=ON, in BUILD_DIR, default build-asan/) and runs
# the whole CPU test suite (gtest units, lit) with it. Any report fails the
# run. Too slow for CI on two cores; run it by hand:
#
#   scripts/sanitize-cpu.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath -m "${1:-$root/build-asan}")
jobs=${BRRR_JOBS:-$(nproc)}

"$root/scripts/install-deps.sh"
mkdir -p "$build"
cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-g1 -DBRRR_SANITIZE=ON \
  > "$build/cmake.log"
cmake --build "$build" -j "$jobs"
cd "$build"
# allow_user_poisoning=0: LLVM's headers poison allocator memory that the
# prebuilt (uninstrumented) LLVM libraries never unpoison. Leaks are left to
# the fuzzer, which checks them per input; tools that exit keep their
# process-lifetime state on purpose.
export ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --output-on-failure -j 1
