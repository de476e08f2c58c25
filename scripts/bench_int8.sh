#!/usr/bin/env bash
# int8 decoding against fp32 (and bf16): sentences/s and quality in one run, same sentences.
#   scripts/bench_int8.sh [MODEL_DIR [N [THREADS [ROUNDS [PRECISIONS...]]]]]
#     default runs/base, N = 1000 test pairs, 2 threads, 2 rounds, precisions fp32 int8 bf16
# Translates the distinct English sources of the first N pairs of MODEL_DIR/test.tsv with
# atento-translate, greedy and beam 4, once per precision, and scores each output with
# atento-eval --hyps (BLEU and chrF on all pairs and on the unseen subset: sources absent from
# the model's train.tsv). Ratios are against fp32 in the same run: on a shared machine compare
# those, not the absolute figures.
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-runs/base}
n=${2:-1000}
threads=${3:-2}
rounds=${4:-2}
shift $(($# < 4 ? $# : 4))
precisions=("$@")
[ ${#precisions[@]} -gt 0 ] || precisions=(fp32 int8 bf16)
[ -f "$model/model.pt" ] || { echo "error: $model has no trained model" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
head -n "$n" "$model/test.tsv" >"$out/pairs.tsv"
awk -F'\t' '!seen[$1]++ {print $1}' "$out/pairs.tsv" >"$out/src.en"
echo "$(wc -l <"$out/src.en") sources, $threads threads, best of $rounds rounds"
printf '%-9s %-4s %9s %7s %7s %7s %10s %12s\n' precision beam sent/s x_fp32 BLEU chrF unseenBLEU unseen_chrF
for beam in 1 4; do
  declare -A best=()
  for round in $(seq 1 "$rounds"); do
    for p in "${precisions[@]}"; do
      build/atento-translate --model "$model" --input "$out/src.en" --output "$out/$p.$beam.es" \
        --beam "$beam" --threads "$threads" --precision "$p" 2>"$out/err"
      rate=$(grep -oE '[0-9.]+ sentences/s' "$out/err" | tail -1 | cut -d' ' -f1)
      if [ -z "${best[$p]:-}" ] || python3 -c "import sys; sys.exit(not $rate > ${best[$p]})"; then
        best[$p]=$rate
      fi
    done
  done
  base=${best[${precisions[0]}]}
  for p in "${precisions[@]}"; do
    rate=${best[$p]}
    build/atento-eval --model "$model" --pairs "$out/pairs.tsv" --hyps "$out/$p.$beam.es" --json \
      >"$out/$p.$beam.json"
    python3 - "$out/$p.$beam.json" "$p" "$beam" "$rate" "$base" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
p, beam, rate, base = sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
u = r.get("unseen", {})
print("%-9s %-4s %9.2f %7.2f %7.2f %7.2f %10.2f %12.2f" % (p, beam, rate, rate / base, r["bleu"], r["chrf"],
      u.get("bleu", float("nan")), u.get("chrf", float("nan"))))
PY
  done
done
