#!/usr/bin/env bash
# What filtering buys a translator: the training split plus synthetic noise (every kind the
# filter is trained on, FRACTION of the result), then one configuration trained with the same
# number of steps on the noisy corpus as it is, on what atento-filter keeps of it (once per
# threshold), and on the clean split. All validate on the same clean validation split. Prints a
# table of validation next-word accuracy and, per threshold, the share of accuracy lost to the
# noise that filtering wins back ((filtered - raw) / (clean - raw)), plus what the filter kept of
# each noise kind.
#
#   scripts/noisy_corpus_experiment.sh --filter DIR --split DIR [--config FILE] [--steps N]
#       [--fraction F] [--threshold "T ..."] [--threads N] [--out DIR] [--build DIR]
#   --split DIR: a directory holding train.tsv, valid.tsv and test.tsv (a translation model
#   directory has them: the split it was trained on; the filter should be trained on the same
#   training split, never on the validation or test parts).
#   --threshold: one or more thresholds; "validation" is the threshold with the best F1 on the
#   filter's validation examples: combination.json's f1_threshold where atento-filter
#   --fit-combination wrote one (atento-filter then scores with the combination), else best.json's.
# Defaults: configs/fast.json, 2400 steps (its 15-minute budget on a 2-core AVX2 machine, fixed
# so that load on the machine cannot change it), 30% noise, threshold 0.5, 2 threads,
# runs/noisy, build.
set -euo pipefail
cd "$(dirname "$0")/.."
filter="" split="" config=configs/fast.json steps=2400 fraction=0.3 threshold=0.5 threads=2
out=runs/noisy build=build
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
    --build) build=$2 ;;
    *) echo "usage: $0 --filter DIR --split DIR [--config FILE] [--steps N] [--fraction F]" \
         "[--threshold \"T ...\"] [--threads N] [--out DIR] [--build DIR]" >&2; exit 2 ;;
  esac
  shift 2
done
for f in train valid test; do
  [ -f "$split/$f.tsv" ] || { echo "error: no $split/$f.tsv (--split)" >&2; exit 2; }
done
[ -f "$filter/config.json" ] || { echo "error: no filter model in '$filter' (--filter)" >&2; exit 2; }
[ -x "$build/atento_make_noisy" ] || { echo "error: build first (scripts/setup.sh)" >&2; exit 2; }
thresholds=()
for t in $threshold; do
  if [ "$t" = validation ]; then
    src=$filter/best.json
    [ -f "$filter/combination.json" ] && src=$filter/combination.json
    t=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['f1_threshold'])" \
          "$src" 2>/dev/null) \
      || { echo "error: $src has no f1_threshold (--threshold validation)" >&2; exit 2; }
  fi
  python3 -c "import sys; t=float(sys.argv[1]); sys.exit(not 0 <= t <= 1)" "$t" 2>/dev/null \
    || { echo "error: --threshold '$t' is not a number in [0, 1]" >&2; exit 2; }
  thresholds+=("$t")
done
[ ${#thresholds[@]} -gt 0 ] || { echo "error: --threshold is empty" >&2; exit 2; }
mkdir -p "$out"

echo "== noisy corpus: $split/train.tsv + ${fraction} synthetic noise"
"$build/atento_make_noisy" "$split/train.tsv" "$out/noisy.tsv" "$fraction" 4242 "$out/noisy_labels.tsv"
echo "== scoring it with $filter"
"$build/atento-filter" --model "$filter" --input "$out/noisy.tsv" --output "$out/scored.tsv" \
  --threads "$threads"

train() {  # NAME CORPUS
  echo "== training '$1' on $2 ($steps steps)"
  "$build/atento-train" --config "$config" --out "$out/$1" \
    --set data.train_file="$2" --set data.valid_file="$split/valid.tsv" \
    --set data.test_file="$split/test.tsv" --set train.max_steps="$steps" \
    --set train.time_budget_minutes=0 --set train.max_epochs=0 --set train.threads="$threads" \
    >"$out/$1.log" 2>&1 || { tail -5 "$out/$1.log"; exit 1; }
}
train raw "$out/noisy.tsv"
for t in "${thresholds[@]}"; do
  awk -F'\t' -v t="$t" '$1 >= t { print $2 "\t" $3 }' "$out/scored.tsv" >"$out/filtered-$t.tsv"
  train "filtered-$t" "$out/filtered-$t.tsv"
done
train clean "$split/train.tsv"

python3 - "$out" "${thresholds[@]}" <<'PY'
import json, sys, collections
out, thresholds = sys.argv[1], sys.argv[2:]
def accuracy(run):
    return json.load(open(f"{out}/{run}/best.json"))["next_word_accuracy"]
def lines(name):
    return sum(1 for _ in open(f"{out}/{name}"))
raw, clean = accuracy("raw"), accuracy("clean")
lost = clean - raw
clean_pairs = sum(1 for _ in open(f"{out}/noisy_labels.tsv") if _.startswith("1\t"))
print("| training corpus | pairs | validation next-word accuracy | recovered |")
print("|---|---|---|---|")
print(f"| noisy, as it is | {lines('noisy.tsv'):,} | {raw:.4f} | |")
for t in thresholds:
    acc = accuracy(f"filtered-{t}")
    share = f"{(acc - raw) / lost:.0%}" if lost > 0 else "n/a"
    print(f"| noisy, after atento-filter (score >= {t}) | {lines(f'filtered-{t}.tsv'):,} | {acc:.4f} | {share} |")
print(f"| clean split | {clean_pairs:,} | {clean:.4f} | |")
print(f"accuracy lost to noise: {lost:.4f}" + ("" if lost > 0 else " (none: nothing to recover)"))
rows = [(line.split("\t", 2)[1], float(score.split("\t", 1)[0]))
        for score, line in zip(open(f"{out}/scored.tsv"), open(f"{out}/noisy_labels.tsv"))]
total = collections.Counter(kind for kind, _ in rows)
for t in thresholds:
    kept = collections.Counter(kind for kind, s in rows if s >= float(t))
    print(f"kept at {t}: " + ", ".join(f"{k} {kept[k]}/{total[k]}" for k in sorted(total)))
PY
