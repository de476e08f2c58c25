#!/usr/bin/env bash
# Load benchmark of atento-serve, loopback only; it asserts nothing.
#   scripts/bench_serve.sh [--model DIR] [--requests N] [--threads N] [--max-batch N] [--workers N]
#                          [--whole-batches] [--precision fp32|bf16|auto]
# 1. atento-translate, greedy, on the benchmark sentences as one file: sentences/s, peak RSS
# 2. atento-serve (greedy) under 1, 8 and 64 concurrent single-sentence clients
#    (build/atento_serve_load, tests/tools/serve_load.cpp): N requests each run (N/4 for 1
#    client), throughput, p50/p99 latency, failed requests; then the server's peak RSS (VmHWM)
# Sentences: the model's test split sources, repeated up to 2,000. Without --model, the
# sample model in runs/serve-sample is used (trained first when missing, ~2 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
model=""
requests=2000
threads=2
max_batch=32
workers=0
serve_flags=()
translate_flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --max-batch) max_batch=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --whole-batches) serve_flags+=(--whole-batches); shift ;;
    --precision)
      serve_flags+=(--precision "$2")
      translate_flags+=(--set "translate.precision=$2")
      shift 2 ;;
    *) echo "error: unknown option $1" >&2; exit 2 ;;
  esac
done
load=build/atento_serve_load
[ -x "$load" ] || { echo "error: $load missing: build first (scripts/setup.sh)" >&2; exit 2; }
out=runs/bench-serve
mkdir -p "$out"
if [ -z "$model" ]; then
  model=runs/serve-sample
  if [ ! -f "$model/model.safetensors" ] && [ ! -f "$model/model.pt" ]; then
    echo "training the sample model into $model"
    build/atento-train --config configs/sample.json --out "$model" --set train.max_epochs=15 \
      >/dev/null 2>"$out/train.err"
  fi
fi
[ -f "$model/test.tsv" ] || { echo "error: $model/test.tsv missing: not a model directory" >&2; exit 2; }
cut -f1 "$model/test.tsv" | grep -v '^[[:space:]]*$' >"$out/test.en"
: >"$out/sentences.en"
while [ "$(wc -l <"$out/sentences.en")" -lt 2000 ]; do cat "$out/test.en" >>"$out/sentences.en"; done
head -2000 "$out/sentences.en" >"$out/s.en" && mv "$out/s.en" "$out/sentences.en"
export OMP_NUM_THREADS=$threads

echo "== model $model, $threads decoder thread(s), greedy, $(wc -l <"$out/sentences.en") sentences"
/usr/bin/time -v -o "$out/translate.time" build/atento-translate --model "$model" --beam 1 \
  --threads "$threads" --input "$out/sentences.en" --output "$out/translate.es" \
  "${translate_flags[@]}" 2>"$out/translate.err"
batch_rate=$(sed -n 's/.* in \([0-9.]*\) s: \([0-9.]*\) sentences\/s.*/\2/p' "$out/translate.err")
batch_rss=$(awk '/Maximum resident/ {printf "%.1f", $6/1024}' "$out/translate.time")
printf '%-36s %8s sentences/s, peak RSS %s MB\n' "atento-translate (one batch job)" \
  "$batch_rate" "$batch_rss"

build/atento-serve --model "$model" --host 127.0.0.1 --port 0 --beam 1 --threads "$threads" \
  --max-batch "$max_batch" --workers "$workers" "${serve_flags[@]}" 2>"$out/serve.err" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
  port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$out/serve.err")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$out/serve.err"; exit 1; }
"$load" "$port" "$out/sentences.en" 8 64 >/dev/null  # warm-up
printf '%-8s %9s %10s %9s %9s %7s %10s\n' clients requests "sent./s" "p50 ms" "p99 ms" errors \
  "vs batch"
for clients in 1 8 64; do
  n=$requests
  [ "$clients" = 1 ] && n=$((requests / 4))
  timeout 600 "$load" "$port" "$out/sentences.en" "$clients" "$n" \
    >"$out/load-$clients.json"
  python3 - "$out/load-$clients.json" "$batch_rate" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("%-8d %9d %10.1f %9.1f %9.1f %7d %9.0f%%" % (r["clients"], r["requests"],
      r["requests_per_s"], r["p50_ms"], r["p99_ms"], r["errors"],
      100 * r["requests_per_s"] / float(sys.argv[2])))
PY
done
rss=$(awk '/VmHWM/ {printf "%.1f", $2/1024}' "/proc/$pid/status")
kill -TERM "$pid"
wait "$pid" && status=0 || status=$?
trap - EXIT
echo "atento-serve peak RSS ${rss} MB; SIGTERM exit status $status; $(tail -1 "$out/serve.err")"
