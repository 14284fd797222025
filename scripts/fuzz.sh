#!/usr/bin/env bash
# Fuzzes the importer and the canonicalizer (tools/brrr-fuzz-import) with
# libFuzzer under AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   scripts/fuzz.sh [SECONDS] [BUILD_DIR]      (default: 60 s, build-fuzz)
#
# Builds the target with clang-22 in BUILD_DIR (only what it links), seeds
# it with the ONNX backend test models and the repository's own models
# (binary and text), keeps the grown corpus in BUILD_DIR/fuzz-corpus between
# runs, and fails on any finding (the crashing input is left in BUILD_DIR).
# FUZZ_JOBS (default 1) runs that many fuzzing processes side by side.
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath -m "${2:-$root/build-fuzz}")
jobs=${FUZZ_JOBS:-1}

"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  mkdir -p "$build"
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-g1 \
    -DBRRR_FUZZ=ON -DBRRR_BUILD_TESTS=OFF > "$build/cmake.log" || {
    cat "$build/cmake.log"; exit 1; }
fi
ninja -C "$build" -j "${BRRR_JOBS:-$(nproc)}" brrr-fuzz-import

# Seeds: every small model the project knows, binary and text.
seeds="$build/fuzz-seeds"
rm -rf "$seeds" && mkdir -p "$seeds" "$build/fuzz-corpus"
i=0
while IFS= read -r f; do
  cp "$f" "$seeds/$i.$(basename "$f")"
  i=$((i + 1))
done < <(find /usr/share/libonnx-testdata/data "$root/test" \
  \( -name '*.onnx' -o -name '*.onnxtext' \) -size -64k | sort)
echo "fuzz: $i seeds; fuzzing for $seconds s with $jobs job(s)"

cd "$build"
args=(-max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096
      -max_len=65536 -print_final_stats=1)
if [ "$jobs" -gt 1 ]; then
  args+=(-jobs="$jobs" -workers="$jobs")
fi
# LLVM's headers poison what its allocators hand out when they see ASan,
# and the prebuilt LLVM libraries (uninstrumented) do not unpoison it:
# user poisoning is off, so only real errors are reported.
ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  "$build/bin/brrr-fuzz-import" "${args[@]}" "$build/fuzz-corpus" "$seeds"
