#!/usr/bin/env bash
# The pair filter end to end on the sample corpus: a tiny translation model, a filter fine-tuned
# from it, then scoring, --threshold, malformed lines, --evaluate and bad usage.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
TRAIN="$BUILD/atento-train"
FILTER="$BUILD/atento-filter"

# --- a tiny pretrained translation model, then the filter -------------------------------
pre=$WORK/pre
expect_exit 0 "trains a tiny translation model" -- "$TRAIN" --config configs/sample.json \
  --out "$pre" --set train.max_steps=40 --set train.eval_every_steps=0 "${SAMPLE_SETTINGS[@]}"
out=$WORK/filter
expect_exit 0 "trains a filter from it" -- "$TRAIN" --config configs/filter.json --out "$out" \
  --set filter.pretrained="$pre" --set train.max_steps=150 --set train.eval_every_steps=50 \
  --set train.warmup_steps=10 --set train.lr=0.001 "${SAMPLE_SETTINGS[@]}"
for f in config.json model.safetensors best.json log.jsonl train.tsv valid.tsv test.tsv test_noisy.tsv \
         spm.en.model spm.es.model checkpoints/latest; do
  [ -s "$out/$f" ] && pass "filter directory has $f" || fail "filter directory lacks $f"
done
cmp -s "$pre/spm.en.model" "$out/spm.en.model" && pass "tokenizers copied from the pretrained" \
  || fail "tokenizers differ from the pretrained model's"
acc=$(json_get "$out/log.jsonl" "max(e['accuracy'] for e in events if e['event']=='valid')")
python3 -c "import sys; sys.exit(not ($acc > 0.6))" && pass "validation accuracy $acc > 0.6" \
  || fail "validation accuracy only $acc"
types=$(cut -f2 "$out/test_noisy.tsv" | sort -u | tr '\n' ' ')
[ "$(cut -f2 "$out/test_noisy.tsv" | sort -u | wc -l)" = 7 ] && pass "noisy test has every type" \
  || fail "noisy test types: $types"
expect_exit 0 "a finished filter run re-run resumes and stops" -- "$TRAIN" \
  --config configs/filter.json --out "$out" --set filter.pretrained="$pre" \
  --set train.max_steps=150 --set train.eval_every_steps=50 --set train.warmup_steps=10 \
  --set train.lr=0.001 "${SAMPLE_SETTINGS[@]}"
grep -q '"event":"resume"' "$out/log.jsonl" && pass "re-run logs a resume" || fail "no resume"
expect_exit 2 "resuming with another filter setting is refused" -- "$TRAIN" \
  --config configs/filter.json --out "$out" --set filter.pretrained="$pre" \
  --set filter.random_init=true --set train.max_steps=150 "${SAMPLE_SETTINGS[@]}"
expect_stderr "filter.random_init is false there and true here" "names the setting that differs"
# --- the one training loop: keep-N and SIGTERM as for translation models ------------------
keep=$WORK/filter-keep
"$TRAIN" --config configs/filter.json --out "$keep" --set filter.pretrained="$pre" \
  --set train.eval_every_steps=3 --set train.keep_checkpoints=2 --set train.max_steps=100000 \
  --set train.warmup_steps=1 "${SAMPLE_SETTINGS[@]}" >/dev/null 2>"$WORK/keep.err" &
pid=$!
for _ in $(seq 1 600); do
  [ "$(grep -c '"event":"valid"' "$keep/log.jsonl" 2>/dev/null)" -ge 4 ] && break; sleep 0.2
done
kill -TERM $pid; wait $pid; code=$?
[ "$code" = 143 ] && pass "filter: SIGTERM exits 143" || fail "filter: SIGTERM exit $code"
grep -q "checkpoint saved" "$WORK/keep.err" && pass "filter: SIGTERM reports the checkpoint" \
  || fail "filter: no checkpoint message"
[ "$(json_get "$keep/log.jsonl" "[e['event'] for e in events][-1]")" = interrupted ] \
  && pass "filter: the log ends with an interrupted event" || fail "filter: no interrupted event"
kept=$(ls -d "$keep"/checkpoints/step-* | wc -l)
[ "$kept" = 2 ] && pass "filter: train.keep_checkpoints=2 keeps two checkpoints" \
  || fail "filter: $kept checkpoints kept, expected 2"
step=$(python3 -c "import json;print(json.load(open('$keep/checkpoints/'+open('$keep/checkpoints/latest').read().strip()+'/state.json'))['step'])")
expect_exit 0 "filter: the interrupted run resumes" -- "$TRAIN" --config configs/filter.json \
  --out "$keep" --set filter.pretrained="$pre" --set train.eval_every_steps=3 \
  --set train.keep_checkpoints=2 --set train.max_steps=$((step + 2)) --set train.warmup_steps=1 \
  "${SAMPLE_SETTINGS[@]}"
pairs=$(json_get "$keep/log.jsonl" "[e['pairs'] for e in events if e['event']=='train'][-1]")
[ "${pairs:-0}" -gt 0 ] && pass "filter: the log counts pairs ($pairs)" || fail "filter: pairs $pairs"

acc2=$WORK/filter-acc2
expect_exit 0 "train.accumulate=2 trains a filter" -- "$TRAIN" --config configs/filter.json \
  --out "$acc2" "${SAMPLE_SETTINGS[@]}" --set filter.pretrained="$pre" --set train.max_steps=4 \
  --set train.warmup_steps=2 --set train.accumulate=2 --set train.batch_size=8 --set train.log_every_steps=1 \
  --set train.valid_subset=10 --set train.precision=bf16
expect_stderr " pairs/s " "the filter's progress counts pairs per second"
expect_stderr "validation examples, bf16" "train.precision=bf16: the banner names it"
[ "$(json_get "$acc2/log.jsonl" "events[0]['precision']")" = bf16 ] \
  && pass "the start event logs precision bf16" || fail "start event precision is not bf16"
[ "$(json_get "$out/log.jsonl" "events[0]['precision']")" != "" ] \
  && pass "the first filter run logs its precision" || fail "no precision logged"
expect_stderr "/ 20 validation examples" "train.valid_subset=10: 10 validation pairs and 10 negatives"
[ "$(json_get "$acc2/log.jsonl" "[e for e in events if e['event']=='train'][0]['batch_pairs']")" = 16 ] \
  && pass "a step of two batches of 8 counts 16 pairs" || fail "accumulate: batch_pairs is not 16"

# --- scoring ------------------------------------------------------------------------------
head -20 "$out/test.tsv" >"$WORK/pairs.tsv"
expect_exit 0 "scores a file" -- "$FILTER" --model "$out" --input "$WORK/pairs.tsv" \
  --output "$WORK/scored.tsv"
[ "$(wc -l <"$WORK/scored.tsv")" = 20 ] && pass "one output line per input line" \
  || fail "$(wc -l <"$WORK/scored.tsv") output lines for 20"
awk -F'\t' 'NF!=3 || $1<0 || $1>1 {bad=1} END {exit bad}' "$WORK/scored.tsv" \
  && pass "score<TAB>English<TAB>Spanish, scores in [0,1]" || fail "bad output columns"
expect_stderr "pairs/s" "reports pairs/s on stderr"
check_output_kinds "filter --output" -- "$FILTER" --model "$out" --input "$WORK/pairs.tsv" \
  --output @OUT
expect_exit 0 "--device cpu scores" -- "$FILTER" --model "$out" --input "$WORK/pairs.tsv" \
  --device cpu
expect_exit 2 "a bad --device is a usage error" -- "$FILTER" --model "$out" \
  --input "$WORK/pairs.tsv" --device tpu
"$FILTER" --model "$out" <"$WORK/pairs.tsv" >"$WORK/stdout.tsv" 2>/dev/null
cmp -s "$WORK/scored.tsv" "$WORK/stdout.tsv" && pass "stdin to stdout gives the same scores" \
  || fail "stdin/stdout output differs from --input/--output"
expect_exit 0 "threshold 0 keeps every pair" -- "$FILTER" --model "$out" \
  --input "$WORK/pairs.tsv" --threshold 0
[ "$(wc -l <"$WORK/stdout")" = 20 ] && pass "threshold 0: 20 lines" || fail "threshold 0 dropped pairs"
expect_exit 0 "threshold 1 keeps only perfect scores" -- "$FILTER" --model "$out" \
  --input "$WORK/pairs.tsv" --threshold 1
awk -F'\t' '$1<1 {bad=1} END {exit bad}' "$WORK/stdout" && pass "kept pairs reach the threshold" \
  || fail "a kept pair scores below the threshold"

# --- malformed lines: reported by line number, scored 0 -----------------------------------
printf 'Hello.\tHola.\nno tab here\n\tempty English\nbad \xff utf8\tmalo\nGood night.\tBuenas noches.\n' \
  >"$WORK/mixed.tsv"
expect_exit 0 "malformed lines do not stop scoring" -- "$FILTER" --model "$out" \
  --input "$WORK/mixed.tsv"
expect_stderr ":2: no tab" "line 2 reported (no tab)"
expect_stderr ":3: empty English side" "line 3 reported (empty side)"
expect_stderr ":4: invalid UTF-8" "line 4 reported (invalid UTF-8)"
[ "$(wc -l <"$WORK/stdout")" = 5 ] && pass "five lines out for five in" || fail "line count"
[ "$(sed -n 2p "$WORK/stdout" | cut -f1)" = "0.0000" ] && pass "a malformed line scores 0" \
  || fail "malformed line 2 scored $(sed -n 2p "$WORK/stdout" | cut -f1)"

# --- evaluation on the held-out noisy test set --------------------------------------------
expect_exit 0 "evaluates the noisy test set" -- "$FILTER" --model "$out" \
  --evaluate "$out/test_noisy.tsv"
for row in all misaligned neighbour truncated deletion untranslated swapped; do
  grep -q "^$row " "$WORK/stdout" && pass "evaluation reports $row" || fail "no $row row"
done
grep -q "ROC-AUC" "$WORK/stdout" && pass "evaluation reports ROC-AUC" || fail "no ROC-AUC"
t=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['f1_threshold'])" "$out/best.json")
grep -q "^threshold 0.5000 (filter.threshold)" "$WORK/stdout" \
  && pass "evaluation at filter.threshold" || fail "no table at filter.threshold"
grep -q "^threshold $(printf '%.4f' "$t") (the best F1 on the validation examples" "$WORK/stdout" \
  && pass "and at best.json's validation threshold $t" || fail "no table at the validation threshold $t"
[ "$(grep -c '^all ' "$WORK/stdout")" = 2 ] && pass "two tables" || fail "not two 'all' rows"
expect_exit 0 "--threshold sets the evaluation's threshold" -- "$FILTER" --model "$out" \
  --evaluate "$out/test_noisy.tsv" --threshold 0.25
[ "$(grep -c '^all ' "$WORK/stdout")" = 1 ] && grep -q "^threshold 0.2500 (--threshold)" "$WORK/stdout" \
  && pass "one table, at --threshold" || fail "--threshold: not one table at 0.25"

# --- the noisy corpus of scripts/noisy_corpus_experiment.sh ----------------------------------
clean=$out/train.tsv
n=$(wc -l <"$clean")
expect_exit 0 "makes a noisy corpus" -- "$BUILD/atento_make_noisy" "$clean" "$WORK/noisy.tsv" 0.3 \
  7 "$WORK/noisy_labels.tsv"
noisy=$(wc -l <"$WORK/noisy.tsv")
expected=$(python3 -c "print($n + round($n * 0.3 / 0.7))")
[ "$noisy" = "$expected" ] && pass "noise is 30% of the noisy corpus ($noisy lines)" \
  || fail "noisy corpus has $noisy lines, expected $expected"
[ "$(grep -c $'^1\tclean\t' "$WORK/noisy_labels.tsv")" = "$n" ] \
  && pass "every clean pair is kept" || fail "clean pairs lost"
cut -f3,4 "$WORK/noisy_labels.tsv" | cmp -s - "$WORK/noisy.tsv" \
  && pass "labels list the corpus's pairs in its order" || fail "labels and corpus differ"
expect_exit 1 "a fraction of 1 is refused" -- "$BUILD/atento_make_noisy" "$clean" \
  "$WORK/x.tsv" 1 7
exp=$WORK/experiment
expect_exit 0 "the experiment script runs at two thresholds" -- scripts/noisy_corpus_experiment.sh \
  --filter "$out" --split "$out" --config configs/sample.json --steps 3 --threads 1 \
  --threshold "0.5 validation" --out "$exp" --build "$BUILD"
grep -q "^| noisy, after atento-filter (score >= 0.5) " "$WORK/stdout" \
  && grep -q "^| noisy, after atento-filter (score >= $t) " "$WORK/stdout" \
  && pass "one row per threshold, 'validation' read from best.json ($t)" \
  || fail "experiment table lacks a threshold row"
[ -s "$exp/filtered-$t/best.json" ] && [ -s "$exp/clean/best.json" ] && [ -s "$exp/raw/best.json" ] \
  && pass "raw, filtered and clean runs trained" || fail "an experiment run is missing"
kept=$(awk -F'\t' -v t="$t" '$1 >= t' "$exp/scored.tsv" | wc -l)
[ "$(wc -l <"$exp/filtered-$t.tsv")" = "$kept" ] \
  && pass "the filtered corpus holds the $kept pairs scoring at least $t" || fail "filtered corpus size"
expect_exit 2 "a threshold that is not a number is refused" -- scripts/noisy_corpus_experiment.sh \
  --filter "$out" --split "$out" --threshold "0.5 high" --out "$exp" --build "$BUILD"
expect_stderr "'high' is not a number in \[0, 1\]" "names the bad threshold"

# --- the score combination: the classifier's logit beside the translation model's -----------
# cross-entropy per token (and a reverse model's), fitted on the validation examples
combo=$WORK/combo
cp -r "$out" "$combo"
"$FILTER" --model "$combo" --evaluate "$out/test_noisy.tsv" >"$WORK/before.txt" 2>/dev/null
[ "$(head -1 "$WORK/before.txt")" = "scores: the classifier alone" ] \
  && pass "without combination.json the classifier scores alone" || fail "scores line: $(head -1 "$WORK/before.txt")"
expect_exit 0 "fits the score combination" -- "$FILTER" --model "$combo" --fit-combination \
  --threads 2
[ -s "$combo/combination.json" ] && pass "writes combination.json" || fail "no combination.json"
cp "$WORK/stdout" "$WORK/fit.txt"
for row in classifier_logit forward_ce "classifier alone" combination; do
  grep -q "^$row " "$WORK/fit.txt" && pass "the fit reports $row" || fail "the fit lacks $row"
done
valid_pairs=$(wc -l <"$combo/valid.tsv")
python3 - "$combo/combination.json" "$valid_pairs" <<'PY' && pass "combination.json: two features, finite weights, fitted on the validation pairs and their negatives" || fail "combination.json is not as expected"
import json, math, sys
c = json.load(open(sys.argv[1]))
assert c["features"] == ["classifier_logit", "forward_ce"], c["features"]
assert all(math.isfinite(w) for w in c["weights"] + [c["bias"]])
assert c["validation"]["examples"] > int(sys.argv[2]), c["validation"]
assert 0 <= c["f1_threshold"] <= 1
PY
expect_exit 0 "evaluates with the combination" -- "$FILTER" --model "$combo" \
  --evaluate "$out/test_noisy.tsv" --threads 2
[ "$(head -1 "$WORK/stdout")" = "scores: the score combination (combination.json: classifier_logit, forward_ce)" ] \
  && pass "--evaluate says the combination scores" || fail "scores line: $(head -1 "$WORK/stdout")"
for row in all misaligned neighbour truncated deletion untranslated swapped; do
  grep -q "^$row " "$WORK/stdout" && pass "combination: evaluation reports $row" || fail "combination: no $row row"
done
grep -q "^threshold [0-9.]* (the best F1 on the validation examples, from combination.json)" "$WORK/stdout" \
  && pass "second table at combination.json's threshold" || fail "no table at the combination's threshold"
cmp -s "$WORK/stdout" "$WORK/before.txt" && fail "the combination left every figure unchanged" \
  || pass "the combination changes the scores"
expect_exit 0 "--no-combination evaluates with the classifier alone" -- "$FILTER" --model "$combo" \
  --evaluate "$out/test_noisy.tsv" --no-combination
cmp -s "$WORK/stdout" "$WORK/before.txt" && pass "--no-combination gives the figures from before the fit" \
  || fail "--no-combination differs from the classifier alone"
expect_exit 0 "scores a file with the combination" -- "$FILTER" --model "$combo" \
  --input "$WORK/pairs.tsv"
[ "$(wc -l <"$WORK/stdout")" = 20 ] && awk -F'\t' 'NF!=3 || $1<0 || $1>1 {bad=1} END {exit bad}' "$WORK/stdout" \
  && pass "combination: 20 lines, scores in [0,1]" || fail "combination: bad scoring output"
expect_stderr "pairs/s" "combination: reports pairs/s"
long=$(python3 -c "print(' '.join(['word'] * 400))")
printf '%s\t%s\nHello.\tHola.\n' "$long" "$long" >"$WORK/long.tsv"
expect_exit 0 "pairs longer than the models' lengths are cut, not refused" -- "$FILTER" \
  --model "$combo" --input "$WORK/long.tsv"
[ "$(wc -l <"$WORK/stdout")" = 2 ] && pass "long pair: two lines out" || fail "long pair: line count"
# a reverse (Spanish→English) model: the dual conditional cross-entropy
awk -F'\t' '{print $2 "\t" $1}' "$pre/train.tsv" "$pre/valid.tsv" >"$WORK/swapped.tsv"
rev=$WORK/reverse
expect_exit 0 "trains a tiny Spanish-to-English model" -- "$TRAIN" --config configs/sample.json \
  --out "$rev" --set data.corpus="$WORK/swapped.tsv" --set data.source_lang=es \
  --set data.target_lang=en --set train.max_steps=20 --set train.eval_every_steps=0 \
  "${SAMPLE_SETTINGS[@]}"
expect_exit 0 "fits the dual combination with --reverse-model" -- "$FILTER" --model "$combo" \
  --fit-combination --reverse-model "$rev"
grep -q "^reverse_ce " "$WORK/stdout" && grep -q "^ce_difference " "$WORK/stdout" \
  && pass "the dual fit reports reverse_ce and ce_difference" || fail "the dual fit lacks its features"
expect_exit 0 "evaluates with the dual combination" -- "$FILTER" --model "$combo" \
  --evaluate "$out/test_noisy.tsv"
grep -q "^scores: the score combination (combination.json: classifier_logit, forward_ce, reverse_ce, ce_difference)" \
  "$WORK/stdout" && pass "--evaluate names the four features" || fail "dual: $(head -1 "$WORK/stdout")"
cp "$combo/combination.json" "$WORK/dual.json"
expect_exit 1 "a reverse model of the forward direction is an error" -- "$FILTER" --model "$combo" \
  --fit-combination --reverse-model "$pre"
expect_stderr "translates en→es and the forward model .*en→es; a reverse model translates es→en" \
  "names both directions and the one wanted"
cmp -s "$combo/combination.json" "$WORK/dual.json" && pass "the refused fit left combination.json as it was" \
  || fail "the refused fit changed combination.json"
# bad combinations: a missing translation model, a malformed file
orphan=$WORK/orphan
cp -r "$combo" "$orphan"
python3 - "$orphan/config.json" "$WORK/nowhere" <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); c["filter"]["pretrained"] = sys.argv[2]
json.dump(c, open(sys.argv[1], "w"))
PY
expect_exit 1 "a combination whose translation model is gone is an error" -- "$FILTER" \
  --model "$orphan" --input "$WORK/pairs.tsv"
expect_stderr "filter.pretrained '$WORK/nowhere'" "names the setting and the missing path"
expect_exit 0 "--no-combination still scores it" -- "$FILTER" --model "$orphan" \
  --input "$WORK/pairs.tsv" --no-combination
expect_exit 1 "--fit-combination without the translation model is an error" -- "$FILTER" \
  --model "$orphan" --fit-combination
expect_stderr "$WORK/nowhere" "names the missing path"
echo '{"features": ["classifier_logit"]}' >"$combo/combination.json"
expect_exit 1 "a malformed combination.json is an error" -- "$FILTER" --model "$combo" \
  --input "$WORK/pairs.tsv"
expect_stderr "combination.json: features" "names the file and the field"
expect_exit 2 "--reverse-model needs --fit-combination" -- "$FILTER" --model "$combo" \
  --input "$WORK/pairs.tsv" --reverse-model "$rev"
expect_exit 2 "--no-combination and --fit-combination exclude each other" -- "$FILTER" \
  --model "$combo" --fit-combination --no-combination
expect_exit 2 "--fit-combination does not evaluate" -- "$FILTER" --model "$combo" \
  --fit-combination --evaluate "$out/test_noisy.tsv"

# --- bad usage ----------------------------------------------------------------------------
expect_exit 2 "a threshold above 1 is a usage error" -- "$FILTER" --model "$out" --threshold 2
expect_exit 2 "a missing input is a usage error" -- "$FILTER" --model "$out" \
  --input "$WORK/none.tsv"
expect_exit 2 "batch size -1 is a usage error" -- "$FILTER" --model "$out" --batch-size -1
expect_exit 2 "a translation model is not a filter" -- "$FILTER" --model "$pre" \
  --input "$WORK/pairs.tsv"
expect_stderr "not a filter" "says the directory holds a translation model"
echo "Hello." >"$WORK/hello.en"
expect_exit 2 "a filter is not a translation model" -- "$BUILD/atento-translate" --model "$out" \
  --input "$WORK/hello.en"
expect_stderr "holds a pair filter, not a translation model" "says the directory holds a filter"
printf 'x\tnope\tHello\tHola\n' >"$WORK/badlabel.tsv"
expect_exit 1 "a malformed labelled file is an error" -- "$FILTER" --model "$out" \
  --evaluate "$WORK/badlabel.tsv"
expect_stderr "badlabel.tsv:1" "names the file and line"
finish
