#!/usr/bin/env bash
# Fine-tuning (train.init_from / --init-from) end to end: a new run on another corpus starts
# from a trained model's weights and tokenizers, with its own split, optimizer and schedule;
# replay mixes a share of another corpus into its training split; an architecture that differs
# is refused naming the key; a fine-tuning run resumes from its own checkpoint.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
T="$BUILD/atento-train"
general=$WORK/general
"$T" --config configs/sample.json --out "$general" --set train.max_epochs=6 \
  "${SAMPLE_SETTINGS[@]}" >/dev/null 2>"$WORK/train.err" || { cat "$WORK/train.err"; exit 1; }
# The "domain": pairs of the sample corpus about Tom, 1 in 4 of them.
grep -i "tom" data/sample/sample.tsv >"$WORK/domain.tsv"
n_domain=$(wc -l <"$WORK/domain.tsv")
tuned=$WORK/tuned
short=(--set train.max_steps=20 --set train.eval_every_steps=10 --set train.warmup_steps=5)

expect_exit 0 "fine-tunes from a trained model (--init-from)" -- "$T" --config configs/sample.json \
  --out "$tuned" --init-from "$general" --set data.corpus="$WORK/domain.tsv" "${short[@]}" \
  "${SAMPLE_SETTINGS[@]}"
expect_stderr "starting from $general's weights" "says which model it starts from"
cmp -s "$general/spm.en.model" "$tuned/spm.en.model" && cmp -s "$general/spm.es.model" "$tuned/spm.es.model" \
  && pass "the vocabulary is kept: the tokenizers are the general model's" || fail "tokenizers differ"
[ "$(cat "$tuned/train.tsv" "$tuned/valid.tsv" "$tuned/test.tsv" | wc -l)" = "$n_domain" ] \
  && pass "its own split, of the new corpus ($n_domain pairs)" || fail "split is not the domain's"
[ "$(json_get "$tuned/log.jsonl" '[e["init_from"] for e in events if e["event"]=="start"][0]')" = "$general" ] \
  && pass "the log's start event names init_from" || fail "no init_from in the log"
json_get "$tuned/log.jsonl" '[e["step"] for e in events if e["event"]=="train"][0]' >"$WORK/first_step"
[ "$(cat "$WORK/first_step")" -le 10 ] && pass "its own schedule: steps count from 0" \
  || fail "first logged step $(cat "$WORK/first_step")"

# From scratch on the same pairs and steps: the fine-tuned model starts far ahead.
"$T" --config configs/sample.json --out "$WORK/scratch" --set data.corpus="$WORK/domain.tsv" \
  "${short[@]}" "${SAMPLE_SETTINGS[@]}" >/dev/null 2>&1 || fail "training from scratch"
acc() { json_get "$1/log.jsonl" '[e["next_word_accuracy"] for e in events if e["event"]=="valid"][0]'; }
python3 -c "import sys; a, b = map(float, sys.argv[1:]); assert a > b + 0.05, (a, b)" \
  "$(acc "$tuned")" "$(acc "$WORK/scratch")" \
  && pass "after 10 steps the fine-tuned model is ahead of one from scratch ($(acc "$tuned") vs $(acc "$WORK/scratch"))" \
  || fail "fine-tuning did not start from the trained weights ($(acc "$tuned") vs $(acc "$WORK/scratch"))"

# Resuming a fine-tuning run continues from its own checkpoint, not from init_from again.
expect_exit 0 "a fine-tuning run resumes" -- "$T" --config configs/sample.json --out "$tuned" \
  --init-from "$general" --set data.corpus="$WORK/domain.tsv" --set train.max_steps=30 \
  --set train.eval_every_steps=10 --set train.warmup_steps=5 "${SAMPLE_SETTINGS[@]}"
expect_stderr "resuming $tuned: .*from step 20" "from its checkpoint at step 20"

# --- replay --------------------------------------------------------------------------------
expect_exit 0 "fine-tunes with replay" -- "$T" --config configs/sample.json --out "$WORK/replay" \
  --init-from "$general" --set data.corpus="$WORK/domain.tsv" \
  --set data.replay_corpus=data/sample/sample.tsv --set data.replay_fraction=0.5 "${short[@]}" \
  "${SAMPLE_SETTINGS[@]}"
expect_stderr "replay: [0-9]+ pairs of data/sample/sample.tsv mixed into [0-9]+ training pairs" \
  "says how many pairs were replayed"
own=$(wc -l <"$tuned/train.tsv"); mixed=$(wc -l <"$WORK/replay/train.tsv")
[ "$mixed" = $((2 * own)) ] && pass "replay_fraction 0.5: half of the $mixed training pairs replayed" \
  || fail "replay: $mixed training pairs for $own own ones"

# --- refusals ------------------------------------------------------------------------------
expect_exit 2 "another architecture is refused" -- "$T" --config configs/sample.json \
  --out "$WORK/bad" --init-from "$general" --set model.d_model=64 --set model.head_dim=16
expect_stderr "model.d_model is 128 there and 64 here" "the error names the key and both values"
expect_exit 2 "replay without a corpus is refused" -- "$T" --config configs/sample.json \
  --out "$WORK/bad2" --set data.replay_fraction=0.3
expect_stderr "data.replay_fraction" "the error names the key"
expect_exit 1 "init_from a directory that is not a model is refused" -- "$T" \
  --config configs/sample.json --out "$WORK/bad3" --init-from "$WORK"
expect_stderr "not a model directory" "says so"
finish
