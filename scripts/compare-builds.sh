#!/usr/bin/env bash
# Compiles the GPU check corpus (test/gpu/build_corpus.py: every kernel
# case, the bundled examples in every precision, the ONNX backend node
# tests) with two brrrc binaries and lists the cases whose artifacts differ:
# a refactor that should change no generated code shows none. No GPU needed.
#
#   scripts/compare-builds.sh OLD_BRRRC NEW_BRRRC [WORKDIR]
#
# Artifacts hold the PTX, the cubin, the launch plan and the weights.
# COMPARE_EMIT=ptx compares the PTX alone (--emit=ptx), for two builds whose
# artifact formats differ.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
old="$(realpath "$1")" new="$(realpath "$2")"
work="$(realpath -m "${3:-$(mktemp -d)}")"
mkdir -p "$work"
# Stands in for brrrc in build_corpus.py: the artifact goes where the case's
# model.so would, so that no library is linked.
cat > "$work/emit-artifact.sh" <<'WRAP'
#!/usr/bin/env bash
args=() out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "-o" ]; then out="$2"; shift 2; continue; fi
  args+=("$1"); shift
done
exec "$BRRRC" "${args[@]}" --emit="$COMPARE_EMIT" -o "$out"
WRAP
chmod +x "$work/emit-artifact.sh"
export COMPARE_EMIT="${COMPARE_EMIT:-artifact}"
for side in old new; do
  bin=$old; [ "$side" = new ] && bin=$new
  BRRRC="$bin" /usr/bin/python3 "$root/test/gpu/build_corpus.py" \
    "$work/emit-artifact.sh" "$work/$side" > "$work/$side.log" 2>&1 || true
  tail -n 1 "$work/$side.log"
done
differ=0 total=0
while IFS= read -r f; do
  case=${f#"$work/old/"}
  total=$((total + 1))
  if ! cmp -s "$f" "$work/new/$case"; then
    echo "differs: ${case%/model.so}"
    differ=$((differ + 1))
  fi
done < <(find "$work/old" -name model.so | sort)
only_new=$(comm -13 <(cd "$work/old" && find . -name model.so | sort) \
                    <(cd "$work/new" && find . -name model.so | sort) | wc -l)
echo "$differ of $total artifacts differ; $only_new compile only with the new build"
[ "$differ" -eq 0 ] && [ "$only_new" -eq 0 ]
