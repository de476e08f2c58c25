#!/usr/bin/env bash
# The real spa-eng corpus, passed in by path (never committed): get_data.sh yields the
# 118,964-line TSV, and configs/base.json trains, logs, translates and evaluates on it.
# Corpus: $ATENTO_SPA_ENG_ZIP, else ../shared/data/spa-eng.zip beside the checkout; skipped
# (exit 77) when neither exists.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
zip=${ATENTO_SPA_ENG_ZIP:-../shared/data/spa-eng.zip}
if [ ! -f "$zip" ]; then echo "skipped: no corpus at $zip"; exit 77; fi

expect_exit 0 "get_data.sh extracts the corpus" -- scripts/get_data.sh "$zip"
lines=$(wc -l <runs/data/spa-eng.tsv)
[ "$lines" = 118964 ] && pass "runs/data/spa-eng.tsv has 118,964 lines" || fail "$lines lines"

model=$WORK/base
expect_exit 0 "configs/base.json trains on the real corpus" -- "$BUILD/atento-train" \
  --config configs/base.json --out "$model" --set data.corpus=runs/data/spa-eng.tsv \
  --set train.max_steps=20 --set train.valid_subset=300 --set train.log_every_steps=10
for f in train.tsv valid.tsv test.tsv; do
  echo "$f $(wc -l <"$model/$f")"
done
[ "$(wc -l <"$model/test.tsv")" = 17844 ] && pass "test split has 17,844 pairs" || fail "test split size"
json_get "$model/log.jsonl" "[e for e in events if e['event']=='valid'][-1]['next_word_accuracy']" \
  >/dev/null && pass "validation logged" || fail "no validation event"
head -200 "$model/test.tsv" >"$WORK/test200.tsv"
cut -f1 "$WORK/test200.tsv" >"$WORK/test200.en"
expect_exit 0 "translates 200 test sentences" -- "$BUILD/atento-translate" --model "$model" \
  --input "$WORK/test200.en" --output "$WORK/test200.es" --beam 2
[ "$(wc -l <"$WORK/test200.es")" = 200 ] && pass "200 lines out" || fail "line count"
expect_exit 0 "evaluates with --json" -- "$BUILD/atento-eval" --model "$model" \
  --pairs "$WORK/test200.tsv" --json --beam 1
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['unseen']['pairs'] < r['pairs'] <= 200" \
  "$WORK/stdout" && pass "eval reports the unseen-source subset" || fail "eval JSON"
finish
