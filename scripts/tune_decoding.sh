#!/usr/bin/env bash
# Beam size and length penalty chosen on the validation split, never on test; it asserts nothing.
#   scripts/tune_decoding.sh MODEL_DIR [--pairs N] [--beams "1 4 8"] [--penalties "0.6 1.0 1.4"]
# Translates the first N (default 3,000) pairs of MODEL_DIR/valid.tsv with every beam size and
# length penalty (one greedy run: the penalty does not change greedy search) and prints BLEU,
# chrF and the share of short outputs for each, best BLEU last. Set the winner with
# `--set translate.beam=B --set translate.length_penalty=P` or in the model's configuration.
# $BUILD names the build directory (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-}
[ -n "$model" ] && shift || { echo "usage: scripts/tune_decoding.sh MODEL_DIR [--pairs N]" >&2; exit 2; }
pairs=3000
beams="1 4 8"
penalties="0.6 1.0 1.4"
while [ $# -gt 0 ]; do
  case "$1" in
    --pairs) pairs=$2; shift 2 ;;
    --beams) beams=$2; shift 2 ;;
    --penalties) penalties=$2; shift 2 ;;
    *) echo "error: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -f "$model/valid.tsv" ] || { echo "error: $model/valid.tsv missing: not a model directory" >&2; exit 2; }
out=$model/tuning
mkdir -p "$out"
head -n "$pairs" "$model/valid.tsv" >"$out/valid.tsv"
printf '%-5s %-8s %7s %7s %7s\n' beam penalty BLEU chrF short%
for beam in $beams; do
  for penalty in $penalties; do
    json=$out/beam$beam-lp$penalty.json
    "${BUILD:-build}/atento-eval" --model "$model" --pairs "$out/valid.tsv" --json --beam "$beam" \
      --set translate.length_penalty="$penalty" >"$json"
    python3 - "$json" "$beam" "$penalty" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
short = r["short_outputs"]
print("%-5s %-8s %7.2f %7.2f %7s" % (sys.argv[2], sys.argv[3], r["bleu"], r["chrf"],
      "-" if short is None else "%.2f" % (100 * short)))
PY
    if [ "$beam" = 1 ]; then break; fi  # the penalty does not change greedy search
  done
done | tee "$out/table.txt"
sort -k3,3 -g "$out/table.txt" | tail -1 | awk '{print "best on validation: beam " $1 ", length penalty " $2 " (BLEU " $3 ")"}'
