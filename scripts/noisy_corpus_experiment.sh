#!/usr/bin/env bash
# What filtering buys a translator: the training split plus synthetic noise (every kind the
# filter is trained on, FRACTION of the result), then one configuration trained three times with
# the same number of steps: on the noisy corpus as it is, on what atento-filter keeps of it, and
# on the clean split. All three validate on the same clean validation split. Prints a table of
# validation next-word accuracy and the share of accuracy lost to the noise that filtering wins
# back ((filtered - raw) / (clean - raw)), plus what the filter kept of each noise kind.
#
#   scripts/noisy_corpus_experiment.sh --filter DIR --split DIR [--config FILE] [--steps N]
#       [--fraction F] [--threshold T] [--threads N] [--out DIR]
#   --split DIR: a directory holding train.tsv, valid.tsv and test.tsv (a translation model
#   directory has them: the split it was trained on; the filter should be trained on the same
#   training split, never on the validation or test parts).
# Defaults: configs/fast.json, 2400 steps (its 15-minute budget here, fixed so that load on the
# machine cannot change it), 30% noise, threshold 0.5, 2 threads, runs/noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
filter="" split="" config=configs/fast.json steps=2400 fraction=0.3 threshold=0.5 threads=2
out=runs/noisy
while [ $# -gt 0 ]; do
  case "$1" in
    --filter) filter=$2 ;;
    --split) split=$2 ;;
    --config) config=$2 ;;
    --steps) steps=$2 ;;
    --fraction) fraction=$2 ;;
    --threshold) threshold=$2 ;;
    --threads) threads=$2 ;;
    --out) out=$2 ;;
    *) echo "usage: $0 --filter DIR --split DIR [--config FILE] [--steps N] [--fraction F]" \
         "[--threshold T] [--threads N] [--out DIR]" >&2; exit 2 ;;
  esac
  shift 2
done
for f in train valid test; do
  [ -f "$split/$f.tsv" ] || { echo "error: no $split/$f.tsv (--split)" >&2; exit 2; }
done
[ -f "$filter/config.json" ] || { echo "error: no filter model in '$filter' (--filter)" >&2; exit 2; }
[ -x build/atento_make_noisy ] || { echo "error: build first (scripts/setup.sh)" >&2; exit 2; }
mkdir -p "$out"

echo "== noisy corpus: $split/train.tsv + ${fraction} synthetic noise"
build/atento_make_noisy "$split/train.tsv" "$out/noisy.tsv" "$fraction" 4242 "$out/noisy_labels.tsv"
echo "== scoring it with $filter"
build/atento-filter --model "$filter" --input "$out/noisy.tsv" --output "$out/scored.tsv" \
  --threads "$threads"
awk -F'\t' -v t="$threshold" '$1 >= t { print $2 "\t" $3 }' "$out/scored.tsv" >"$out/filtered.tsv"

train() {  # NAME CORPUS
  echo "== training '$1' on $2 ($steps steps)"
  build/atento-train --config "$config" --out "$out/$1" \
    --set data.train_file="$2" --set data.valid_file="$split/valid.tsv" \
    --set data.test_file="$split/test.tsv" --set train.max_steps="$steps" \
    --set train.time_budget_minutes=0 --set train.max_epochs=0 --set train.threads="$threads" \
    >"$out/$1.log" 2>&1 || { tail -5 "$out/$1.log"; exit 1; }
}
train raw "$out/noisy.tsv"
train filtered "$out/filtered.tsv"
train clean "$split/train.tsv"

python3 - "$out" "$threshold" <<'PY'
import json, sys, collections
out, threshold = sys.argv[1], float(sys.argv[2])
acc = {}
for run in ("raw", "filtered", "clean"):
    best = json.load(open(f"{out}/{run}/best.json"))
    acc[run] = best["next_word_accuracy"]
pairs = {run: sum(1 for _ in open(f"{out}/{name}"))
         for run, name in (("raw", "noisy.tsv"), ("filtered", "filtered.tsv"))}
print("| training corpus | pairs | validation next-word accuracy |")
print("|---|---|---|")
print(f"| noisy, as it is | {pairs['raw']:,} | {acc['raw']:.4f} |")
print(f"| noisy, after atento-filter (score >= {threshold}) | {pairs['filtered']:,} | {acc['filtered']:.4f} |")
clean_pairs = sum(1 for _ in open(f"{out}/noisy_labels.tsv") if _.startswith("1\t"))
print(f"| clean split | {clean_pairs:,} | {acc['clean']:.4f} |")
lost = acc["clean"] - acc["raw"]
if lost > 0:
    print(f"accuracy lost to noise: {lost:.4f}; recovered by filtering: {(acc['filtered'] - acc['raw']) / lost:.0%}")
else:
    print(f"accuracy lost to noise: {lost:.4f} (none: nothing to recover)")
kept, total = collections.Counter(), collections.Counter()
for scored, labelled in zip(open(f"{out}/scored.tsv"), open(f"{out}/noisy_labels.tsv")):
    kind = labelled.split("\t", 2)[1]
    total[kind] += 1
    kept[kind] += float(scored.split("\t", 1)[0]) >= threshold
print("kept by the filter: " + ", ".join(f"{k} {kept[k]}/{total[k]}" for k in sorted(total)))
PY
