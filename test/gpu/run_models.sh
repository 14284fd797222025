#!/bin/sh
# The whole-model suite (models.py) in device calls of under 10 minutes:
# one model and dtype per call, both exporters, batch 1 and 32, every peer
# (measured on an H100: BERT-base fp16 took 228 s this way, GPT-2 ~190 s).
#
#   test/gpu/run_models.sh list               the calls, numbered
#   test/gpu/run_models.sh K BUNDLE [OUT]     runs call K with the unpacked
#                                             bundle BUNDLE (scripts/package.sh),
#                                             appending its rows to
#                                             OUT/models.txt (OUT: $OUT or .)
# On the GPU machine, from the repository root; call K = 1, 2, ... in turn,
# then OUT/models.txt holds the whole table.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
calls=""
for model in resnet50 mobilenet_v2 efficientnet_b0 convnext_tiny vit_b_16 swin_t \
             bert distilbert gpt2 llama vit t5_encoder; do
  for dtype in fp32 fp16; do
    calls="$calls $model:$dtype"
  done
done
if [ "${1:-list}" = list ]; then
  k=1
  for c in $calls; do
    echo "$k $c"
    k=$((k + 1))
  done
  exit 0
fi
k=$1
bundle=$2
out=${3:-${OUT:-.}}
call=$(echo $calls | tr ' ' '\n' | sed -n "${k}p")
[ -n "$call" ] || { echo "run_models.sh: no call $k (see 'list')" >&2; exit 1; }
model=${call%:*}
dtype=${call#*:}
mkdir -p "$out"
cd "$root/test/gpu"
log="$out/models-$k.log"
status=0
PYTHONUNBUFFERED=1 PYTHONPATH="$bundle/python" python3 models.py run "$bundle/bin/brrrc" \
  "${TMPDIR:-/tmp}/brrr-models" --only "$model" --dtypes "$dtype" --batches 1,32 \
  > "$log" 2>&1 || status=$?
grep -E "^(model|$model) " "$log" >> "$out/models.txt" || true
tail -n 3 "$log"
exit $status
