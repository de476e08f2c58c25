#!/usr/bin/env bash
# Checks that a change kept behaviour: the same short trainings and translations with two
# builds (e.g. one of the commit before a refactor and one after), compared byte for byte.
#   scripts/same_behaviour.sh OLD_BUILD_DIR NEW_BUILD_DIR [WORK_DIR]
# Compares the loss/accuracy of every logged step (log.jsonl without timings and the resolved
# config), the final weights and greedy/beam translations of configs/sample.json (200 steps);
# with runs/data/spa-eng.tsv present (scripts/get_data.sh) also configs/fast.json (60 steps).
# One thread everywhere, so that both runs do the same arithmetic in the same order.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: $0 OLD_BUILD_DIR NEW_BUILD_DIR [WORK_DIR]" >&2; exit 2; }
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd)
work=${3:-$(mktemp -d /tmp/atento-same.XXXXXX)}
command -v jq >/dev/null || { echo "error: jq not found (apt-get install jq)" >&2; exit 1; }

run() {  # run BUILD OUT
  local bin=$1 out=$2
  mkdir -p "$out"
  head -60 data/sample/sample.tsv | cut -f1 >"$out/sample.en"  # (cut | head: SIGPIPE under pipefail)
  "$bin/atento-train" --config configs/sample.json --out "$out/sample" --set train.max_steps=200 \
    --set train.eval_every_steps=100 --set train.log_every_steps=10 --set train.threads=1 \
    >/dev/null 2>&1
  for beam in 1 4; do
    "$bin/atento-translate" --model "$out/sample" --input "$out/sample.en" --beam $beam \
      --threads 1 >"$out/sample.beam$beam.es" 2>/dev/null
  done
  if [ -f runs/data/spa-eng.tsv ]; then
    sed -n '1000,1060p' runs/data/spa-eng.tsv | cut -f1 >"$out/real.en"
    "$bin/atento-train" --config configs/fast.json --out "$out/fast" --set train.max_steps=60 \
      --set train.eval_every_steps=30 --set train.log_every_steps=10 --set train.threads=1 \
      --set train.valid_subset=500 >/dev/null 2>&1
    "$bin/atento-translate" --model "$out/fast" --input "$out/real.en" --beam 1 --threads 1 \
      >"$out/fast.beam1.es" 2>/dev/null
  fi
  for m in sample fast; do
    [ -f "$out/$m/log.jsonl" ] || continue
    jq -c 'del(.elapsed_s, .tokens_per_s, .config)' "$out/$m/log.jsonl" >"$out/$m.log"
    # The final weights: the latest checkpoint's (a pickle in every version; the best weights
    # are model.safetensors now, model.pt before).
    cp "$out/$m/checkpoints/$(cat "$out/$m/checkpoints/latest")/model.pt" "$out/$m.weights.pt"
  done
}

run "$old" "$work/old"
run "$new" "$work/new"
status=0
for f in sample.log sample.weights.pt sample.beam1.es sample.beam4.es fast.log fast.weights.pt \
         fast.beam1.es; do
  [ -f "$work/old/$f" ] || continue
  if cmp -s "$work/old/$f" "$work/new/$f"; then echo "same: $f"
  else echo "DIFFERENT: $f"; status=1; fi
done
echo "outputs in $work"
exit $status
