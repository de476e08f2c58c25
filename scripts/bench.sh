#!/usr/bin/env bash
# Benchmarks on the real corpus, printed side by side; they assert nothing.
#   scripts/bench.sh [--minutes M] [--threads N] [--precision fp32|bf16|auto] [--skip-train]
# 1. training throughput of configs/book.json: Atento vs the PyTorch peer (same threads, data);
#    the peer runs in fp32 and, where Atento trains in bf16 (train.precision auto on a CPU with
#    native bfloat16), in bf16 too: one ratio per peer precision (--precision sets Atento's
#    train.precision; default: book.json's, fp32)
# 2. translation throughput on the first 2,000 test sentences: greedy cached / uncached, beam 4
# 3. decoding cost growth with forced output lengths 10, 20, 40, 60: cached vs uncached
# 4. peak memory (RSS) of training the book config and of translating with the base model
# Needs runs/data/spa-eng.tsv (scripts/get_data.sh) and, for 3–4, a base model in runs/base
# (else a short one is trained into runs/bench-base). The peer is ../shared/tools/ref_torch.py
# (Debian python3-torch, /usr/bin/python3); its row is skipped when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=3
threads=2
skip_train=0
precision_flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --precision) precision_flags=(--set train.precision="$2"); shift 2 ;;
    --skip-train) skip_train=1; shift ;;
    *) echo "error: unknown option $1" >&2; exit 2 ;;
  esac
done
corpus=runs/data/spa-eng.tsv
[ -s "$corpus" ] || { echo "error: $corpus missing: run scripts/get_data.sh first" >&2; exit 2; }
peer=${ATENTO_PEER:-../shared/tools/ref_torch.py}
zip=${ATENTO_SPA_ENG_ZIP:-../shared/data/spa-eng.zip}
out=runs/bench
mkdir -p "$out"
export OMP_NUM_THREADS=$threads
json() { python3 -c "import json,sys; e=[json.loads(l) for l in open(sys.argv[1])]; print($2)" "$1"; }
rss_mb() { awk '/Maximum resident/ {printf "%.0f", $6/1024}' "$1"; }

echo "== 1. training throughput, configs/book.json, $minutes min, $threads thread(s)"
if [ "$skip_train" = 0 ]; then
  rm -rf "$out/book"
  /usr/bin/time -v -o "$out/book.time" build/atento-train --config configs/book.json \
    --out "$out/book" --set data.corpus="$corpus" --set train.threads="$threads" \
    --set train.max_epochs=0 --set train.time_budget_minutes="$minutes" \
    --set train.valid_subset=1000 --set train.log_every_steps=20 --set train.bleu_sentences=0 \
    "${precision_flags[@]}" >/dev/null 2>"$out/book.err"
fi
atento=$(json "$out/book/log.jsonl" \
  "round([x for x in e if x['event']=='train'][-1]['target_tokens'] / [x for x in e if x['event']=='train'][-1]['elapsed_s'], 1)")
precision=$(json "$out/book/log.jsonl" \
  "[x for x in e if x['event'] in ('start', 'resume')][-1].get('precision', 'fp32')")
printf '%-34s %10s target tokens/s (%s)\n' "atento (C++, LibTorch)" "$atento" "$precision"
if [ -f "$peer" ] && [ -f "$zip" ] && /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  # The peer in fp32 always; in bf16 too where Atento trained in bf16 (train.precision auto on
  # a CPU with native bfloat16), so that one ratio compares equal precisions.
  peer_precisions=fp32
  [ "$precision" = bf16 ] && peer_precisions="fp32 bf16"
  for p in $peer_precisions; do
    /usr/bin/python3 "$peer" --zip "$zip" --minutes "$minutes" --threads "$threads" \
      --val-limit 1000 --val-every-min 1000 --precision "$p" >"$out/peer-$p.jsonl" \
      2>"$out/peer-$p.err"
    ref=$(json "$out/peer-$p.jsonl" "[x for x in e if x['event']=='train'][-1]['tgt_tokens_per_s']")
    printf '%-34s %10s target tokens/s (%s)\n' "peer (PyTorch, ref_torch.py)" "$ref" "$p"
    python3 -c "print('%-34s %10.2fx' % ('ratio atento ($precision) / peer ($p)', $atento / $ref))"
  done
else
  echo "peer: skipped (needs $peer, $zip and Debian python3-torch)"
fi

echo
echo "== 2. translation throughput, first 2,000 test sentences"
base=runs/base
if [ ! -f "$base/model.safetensors" ] && [ ! -f "$base/model.pt" ]; then
  base=$out/base
  if [ ! -f "$base/model.safetensors" ] && [ ! -f "$base/model.pt" ]; then
    echo "(no runs/base: training a short base model into $base for sections 2–4)"
    build/atento-train --config configs/base.json --out "$base" --set data.corpus="$corpus" \
      --set train.max_steps=300 --set train.valid_subset=500 --set train.eval_every_steps=300 \
      >/dev/null 2>"$out/base.err"
  fi
fi
head -2000 "$base/test.tsv" | cut -f1 >"$out/test2000.en"
for run in "greedy cached:--beam 1" "greedy --no-cache:--beam 1 --no-cache" "beam 4 cached:--beam 4"; do
  name=${run%%:*}; flags=${run#*:}
  # shellcheck disable=SC2086
  build/atento-translate --model "$base" --input "$out/test2000.en" --output "$out/hyp.es" \
    --threads "$threads" $flags 2>"$out/translate.err"
  printf '%-20s %s\n' "$name" "$(grep -o 'translated.*' "$out/translate.err")"
done

echo
echo "== 3. decoding cost growth (greedy, outputs forced to N tokens, first 200 sentences)"
head -200 "$out/test2000.en" >"$out/test200.en"
printf '%-8s %12s %12s %8s\n' "tokens" "cached s" "uncached s" "ratio"
for n in 10 20 40 60; do
  t() {
    # shellcheck disable=SC2068
    build/atento-translate --model "$base" --input "$out/test200.en" --output /dev/null \
      --beam 1 --force-len "$n" --threads "$threads" $@ 2>&1 | grep -o 'in [0-9.]* s' | awk '{print $2}'
  }
  c=$(t); u=$(t --no-cache)
  python3 -c "print('%-8d %12.2f %12.2f %7.2fx' % ($n, $c, $u, $u / $c))"
done

echo
echo "== 4. peak memory (maximum resident set size)"
[ -f "$out/book.time" ] && printf '%-44s %6s MB\n' "training configs/book.json (batch 64)" "$(rss_mb "$out/book.time")"
/usr/bin/time -v -o "$out/translate.time" build/atento-translate --model "$base" \
  --input "$out/test2000.en" --output /dev/null --threads "$threads" 2>/dev/null
printf '%-44s %6s MB\n' "translating 2,000 sentences, $base, beam 4" "$(rss_mb "$out/translate.time")"
