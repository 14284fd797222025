#!/bin/sh
# The whole GPU check and benchmark, in one go, on the GPU machine.
#
# Here (build machine):
#   /usr/bin/python3 test/gpu/build_corpus.py build/bin/brrrc .device/corpus
#   /usr/bin/python3 test/gpu/build_bench.py build/bin/brrrc .device/bench
#   (cd .device && tar cJf corpus.tar.xz corpus bench)
# There, from the repository root (torch, numpy, onnxruntime, a C++ compiler):
#   test/gpu/run_device.sh [checks|bench|attention|sanitize|all] [RESULTS_DIR]
# Builds the C++ harnesses (cpp_run over the C API; a raii_run linked
# against each bundled example through brrr_runtime.hpp), runs the checks
# (table in RESULTS_DIR/checks.txt, summary printed) and the benchmarks
# (bench.py, f32_bench.py);
# `sanitize` runs compute-sanitizer over the corpus (test/gpu/sanitize.py).
set -eu
what=${1:-all}
results=${2:-${OUT:-.device}}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root/.device"
[ -d corpus ] || tar xJf corpus.tar.xz
cxx="g++ -O2 -std=c++17 -I$root/runtime -I$root/test/gpu"
$cxx "$root/test/gpu/cpp_run.cpp" -ldl -o cpp_run
for d in corpus/example_*; do
  [ -e "$d/model.so" ] || continue  # a corpus of benchmarks only
  $cxx "$root/test/gpu/cpp_raii_run.cpp" "$d/model.so" \
    -Wl,-rpath,"$PWD/$d" -o "$d/raii_run"
done
nvidia-smi --query-gpu=name --format=csv,noheader
status=0
if [ "$what" = checks ] || [ "$what" = all ]; then
  PYTHONPATH="$root/python" python3 "$root/test/gpu/run_checks.py" corpus ./cpp_run \
    > "$results/checks.txt" 2>&1 || status=1
  grep -E "^FAIL" "$results/checks.txt" || true
  grep -E "^PASS  example_" "$results/checks.txt" | cut -c1-160
  tail -n 1 "$results/checks.txt"
fi
if [ "$what" = sanitize ]; then
  # SANITIZE_TOOLS (default all four) and SANITIZE_SHARD (K/N) split the
  # run into calls that fit the device's time limit.
  PYTHONPATH="$root/python" python3 "$root/test/gpu/sanitize.py" corpus ./cpp_run \
    --tools "${SANITIZE_TOOLS:-memcheck,racecheck,synccheck,initcheck}" \
    --shard "${SANITIZE_SHARD:-0/1}" > "$results/sanitize.txt" 2>&1 || status=1
  grep -E -A6 "^FAIL" "$results/sanitize.txt" | head -60 || true
  grep -E "cases, .* clean|^shard" "$results/sanitize.txt"
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  PYTHONPATH="$root/python" python3 "$root/test/gpu/bench.py" bench ./cpp_run 2>&1 |
    grep -v Warning
  PYTHONPATH="$root/python" python3 "$root/test/gpu/f32_bench.py" bench 2>&1 |
    grep -v Warning
fi
if [ "$what" != checks ] && [ "$what" != sanitize ]; then
  PYTHONPATH="$root/python:$root/test/gpu" python3 "$root/test/gpu/attention_bench.py" \
    bench 2>&1 | grep -v Warning
fi
exit $status
