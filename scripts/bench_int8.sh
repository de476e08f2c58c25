#!/usr/bin/env bash
# int8 decoding against fp32 (and bf16): sentences/s and quality in one run, same sentences.
#   scripts/bench_int8.sh [MODEL_DIR [N [THREADS [ROUNDS [PRECISIONS...]]]]]
#     default runs/base, N = 1000 test pairs, 2 threads, 2 rounds, precisions fp32 int8 bf16
# Translates the distinct English sources of the first N pairs of MODEL_DIR/test.tsv with
# atento-translate, greedy and beam 4, once per precision, and scores each output with
# atento-eval --hyps (BLEU and chrF on all pairs and on the unseen subset: sources absent from
# the model's train.tsv). Speed is CPU seconds (user + sys, /usr/bin/time, best of ROUNDS) minus
# those of the same command on an empty input (loading the model), which a shared machine
# disturbs less than wall-clock time; x_fp32 is fp32's CPU seconds over the precision's (> 1:
# faster). sent/s is atento-translate's own wall-clock rate, best of ROUNDS.
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-runs/base}
n=${2:-1000}
threads=${3:-2}
rounds=${4:-2}
shift $(($# < 4 ? $# : 4))
precisions=("$@")
[ ${#precisions[@]} -gt 0 ] || precisions=(fp32 int8 bf16)
[ -f "$model/model.safetensors" ] || [ -f "$model/model.pt" ] ||  # model.pt: older directories
  { echo "error: $model has no trained model" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
head -n "$n" "$model/test.tsv" >"$out/pairs.tsv"
awk -F'\t' '!seen[$1]++ {print $1}' "$out/pairs.tsv" >"$out/src.en"
: >"$out/empty.en"
echo "$(wc -l <"$out/src.en") sources, $threads threads, best of $rounds rounds"
# CPU seconds (user + sys) of one atento-translate run: translate INPUT OUTPUT BEAM PRECISION
translate() {
  /usr/bin/time -f '%U %S' -o "$out/time" build/atento-translate --model "$model" --input "$1" \
    --output "$2" --beam "$3" --threads "$threads" --precision "$4" 2>"$out/err"
  awk '{print $1 + $2}' "$out/time"
}
# min A B: the smaller number
min() { python3 -c "import sys; print(min(float(sys.argv[1]), float(sys.argv[2])))" "$1" "$2"; }
printf '%-9s %-4s %7s %7s %9s %7s %7s %10s %12s\n' precision beam cpu_s x_fp32 sent/s BLEU chrF \
  unseenBLEU unseen_chrF
for beam in 1 4; do
  declare -A best=() cpu=() load=()
  for round in $(seq 1 "$rounds"); do
    for p in "${precisions[@]}"; do
      seconds=$(translate "$out/empty.en" /dev/null "$beam" "$p")
      load[$p]=$(min "${load[$p]:-1e9}" "$seconds")
      seconds=$(translate "$out/src.en" "$out/$p.$beam.es" "$beam" "$p")
      cpu[$p]=$(min "${cpu[$p]:-1e9}" "$seconds")
      rate=$(grep -oE '[0-9.]+ sentences/s' "$out/err" | tail -1 | cut -d' ' -f1)
      if [ -z "${best[$p]:-}" ] || python3 -c "import sys; sys.exit(not $rate > ${best[$p]})"; then
        best[$p]=$rate
      fi
    done
  done
  base=${precisions[0]}
  base_cpu=$(python3 -c "print(${cpu[$base]} - ${load[$base]})")
  for p in "${precisions[@]}"; do
    build/atento-eval --model "$model" --pairs "$out/pairs.tsv" --hyps "$out/$p.$beam.es" --json \
      >"$out/$p.$beam.json"
    python3 - "$out/$p.$beam.json" "$p" "$beam" "${best[$p]}" "${cpu[$p]}" "${load[$p]}" \
      "$base_cpu" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
p, beam, rate = sys.argv[2], sys.argv[3], float(sys.argv[4])
cpu = float(sys.argv[5]) - float(sys.argv[6])
base = float(sys.argv[7])
u = r.get("unseen", {})
print("%-9s %-4s %7.2f %7.2f %9.2f %7.2f %7.2f %10.2f %12.2f" % (p, beam, cpu, base / max(cpu, 1e-9), rate,
      r["bleu"], r["chrf"], u.get("bleu", float("nan")), u.get("chrf", float("nan"))))
PY
  done
done
