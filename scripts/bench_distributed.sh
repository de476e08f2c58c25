#!/usr/bin/env bash
# Data-parallel training on this machine, side by side (asserts nothing): the same
# configuration as 1 rank × T threads and as N ranks × T/N threads (Gloo on loopback), for the
# same wall-clock budget: target tokens/s, the time to a validation accuracy, the accuracy
# reached, and the bytes each rank all-reduces per step.
#   scripts/bench_distributed.sh [--config configs/fast.json] [--minutes 8] [--ranks 2]
#                                [--threads 2] [--target 0.67] [--eval-every 250]
# Needs runs/data/spa-eng.tsv (scripts/get_data.sh) and a build with Gloo (libgloo-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
config=configs/fast.json minutes=8 ranks=2 threads=2 target=0.67 eval_every=250
while [ $# -gt 0 ]; do
  case "$1" in
    --config) config=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --eval-every) eval_every=$2; shift 2 ;;
    *) echo "error: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -s runs/data/spa-eng.tsv ] || { echo "error: runs/data/spa-eng.tsv missing: run scripts/get_data.sh" >&2; exit 2; }
out=runs/bench-distributed
rm -rf "$out"; mkdir -p "$out"
per_rank=$(( threads / ranks > 0 ? threads / ranks : 1 ))
common=(--config "$config" --set train.max_epochs=0 --set train.max_steps=0
        --set train.time_budget_minutes="$minutes" --set train.eval_every_steps="$eval_every"
        --set train.log_every_steps=50)
echo "== $config, $minutes min each: 1 rank × $threads threads, then $ranks ranks × $per_rank"
build/atento-train "${common[@]}" --set train.threads="$threads" --out "$out/one" \
  >/dev/null 2>"$out/one.err"
build/atento-train "${common[@]}" --set train.threads="$per_rank" --nproc "$ranks" \
  --out "$out/many" >/dev/null 2>"$out/many.err"

# report DIR LABEL: tokens/s, time to target, final accuracy, all-reduced bytes per step.
report() {
  python3 - "$1/log.jsonl" "$2" "$target" "$ranks" <<'PY'
import json, sys
path, label, target, ranks = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
events = [json.loads(l) for l in open(path)]
start = next(e for e in events if e["event"] in ("start", "resume"))
train = [e for e in events if e["event"] == "train"][1:]  # the first window includes start-up
valid = [e for e in events if e["event"] == "valid"]
rate = sum(e["tokens_per_s"] for e in train) / max(1, len(train))
hit = next((e for e in valid if e["next_word_accuracy"] >= target), None)
to_target = f'{hit["elapsed_s"]/60:5.1f} min (step {hit["step"]})' if hit else "not reached"
best = max((e["next_word_accuracy"] for e in valid), default=float("nan"))
world = start.get("world_size", 1)
# Gradients (fp32) plus one flag per parameter tensor; a ring all-reduce sends and receives
# 2 (W-1)/W of that per rank.
grad_bytes = 4 * start["params"]
ring = 2 * (ranks - 1) / ranks * grad_bytes if world > 1 else 0
print(f"{label:<22} {rate:9.0f} tok/s   {target:.0%} after {to_target:>22}   "
      f"best {best:.2%}   all-reduce {grad_bytes/2**20:6.1f} MiB/step "
      f"({ring/2**20:.1f} MiB sent per rank)")
PY
}
report "$out/one" "1 rank × $threads threads"
report "$out/many" "$ranks ranks × $per_rank threads"
