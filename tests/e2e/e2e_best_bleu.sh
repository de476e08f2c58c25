#!/usr/bin/env bash
# train.best_metric bleu end to end on the sample corpus: every validation logs the greedy BLEU
# of the first train.bleu_sentences validation sources, the best weights are those of the
# validation with the highest BLEU, atento-eval scores them alike, and a resumed run decides
# as an uninterrupted one.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
TRAIN="$BUILD/atento-train"

# The word tokenizer and one thread: seconds, and an exact resume.
settings=(--set tokenizer.kind=words --set tokenizer.vocab_size=2000 --set tokenizer.src_len=20
          --set tokenizer.tgt_len=21 --set model.max_len=20 --set train.threads=1
          --set train.max_epochs=100 --set train.eval_every_steps=15 --set train.log_every_steps=5
          --set train.patience=0 --set train.keep_checkpoints=20 --set train.best_metric=bleu
          --set train.bleu_sentences=40 --set train.lr=0.003 --set train.warmup_steps=20)
out=$WORK/bleu
expect_exit 0 "trains with train.best_metric=bleu" -- "$TRAIN" --config configs/sample.json \
  --out "$out" "${settings[@]}" --set train.max_steps=120
valids=$(json_get "$out/log.jsonl" "sum(1 for e in events if e['event']=='valid')")
with_bleu=$(json_get "$out/log.jsonl" \
  "sum(1 for e in events if e['event']=='valid' and e.get('bleu_sentences')==40 and 0<=e['bleu']<=100)")
[ "$valids" -ge 8 ] && [ "$with_bleu" = "$valids" ] \
  && pass "every validation ($valids) logs the greedy BLEU of 40 sentences" \
  || fail "$with_bleu of $valids validations log a BLEU of 40 sentences"
distinct=$(json_get "$out/log.jsonl" "len(set(e['bleu'] for e in events if e['event']=='valid'))")
[ "$distinct" -ge 3 ] && pass "BLEU moves during training ($distinct values)" \
  || fail "BLEU took only $distinct value(s)"
# The best is the first validation with the highest BLEU; best.json and the end event agree.
want=$(json_get "$out/log.jsonl" "(lambda v: [e['step'] for e in v if e['bleu']==max(x['bleu'] for x in v)][0])([e for e in events if e['event']=='valid'])")
best_step=$(python3 -c "import json; print(json.load(open('$out/best.json'))['step'])")
end_step=$(json_get "$out/log.jsonl" "[e['best_step'] for e in events if e['event']=='end'][0]")
end_value=$(json_get "$out/log.jsonl" "[e['best_value'] for e in events if e['event']=='end'][0]")
max_bleu=$(json_get "$out/log.jsonl" "max(e['bleu'] for e in events if e['event']=='valid')")
[ "$best_step" = "$want" ] && [ "$end_step" = "$want" ] && [ "$end_value" = "$max_bleu" ] \
  && pass "the best is the highest BLEU (step $want, BLEU $max_bleu)" \
  || fail "best.json step $best_step, end step $end_step value $end_value; highest BLEU at $want ($max_bleu)"
flags=$(json_get "$out/log.jsonl" "[e['best'] for e in events if e['event']=='valid'] == (lambda v: [i == 0 or e['bleu'] > max(x['bleu'] for x in v[:i]) for i, e in enumerate(v)])([e for e in events if e['event']=='valid'])")
[ "$flags" = "True" ] && pass "each validation is flagged best exactly when its BLEU is a new high" \
  || fail "the best flags do not follow BLEU"
best_weights=$out/model.safetensors
diff=$("$BUILD/atento_weights_diff" "$best_weights" "$out/checkpoints/step-$want/model.pt")
[ "$diff" = "max_abs_diff 0" ] && pass "the best weights are step $want's" \
  || fail "the best weights differ from step $want's: $diff"

# atento-eval with greedy search on the same sentences gives the BLEU training logged.
python3 - "$out/valid.tsv" "$WORK/first40.tsv" <<'PY'
import sys
pairs = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")]
first = []
for src, _ in pairs:
    if src not in first and len(first) < 40:
        first.append(src)
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for src, tgt in pairs:
        if src in first:
            out.write(src + "\t" + tgt + "\n")
PY
"$BUILD/atento-eval" --model "$out" --pairs "$WORK/first40.tsv" --beam 1 --json \
  >"$WORK/eval.json" 2>"$WORK/eval.err"
eval_bleu=$(python3 -c "import json; print(json.load(open('$WORK/eval.json'))['bleu'])")
python3 -c "import sys; sys.exit(not abs($eval_bleu - $max_bleu) < 1e-6)" \
  && pass "atento-eval --beam 1 scores the best weights $eval_bleu, as training logged" \
  || fail "atento-eval --beam 1 gives $eval_bleu, training logged $max_bleu"

# Resume: 60 steps, then on to 120, decides as the uninterrupted run.
"$TRAIN" --config configs/sample.json --out "$WORK/twice" "${settings[@]}" --set train.max_steps=60 \
  >/dev/null 2>&1
"$TRAIN" --config configs/sample.json --out "$WORK/twice" "${settings[@]}" \
  --set train.max_steps=120 >/dev/null 2>&1
pick="[(e['step'], e['bleu'], e['best']) for e in events if e['event']=='valid'], [(e['best_step'], e['best_value']) for e in events if e['event']=='end'][-1]"
a=$(json_get "$out/log.jsonl" "$pick")
b=$(json_get "$WORK/twice/log.jsonl" "$pick")
[ -n "$a" ] && [ "$a" = "$b" ] && pass "a resumed run logs the same BLEU and keeps the same best" \
  || fail "resume differs: once $a, twice $b"

# BLEU is logged whatever the metric; 0 sentences switch it off; bleu then is refused.
expect_exit 0 "trains with next-word accuracy" -- "$TRAIN" --config configs/sample.json \
  --out "$WORK/acc" "${settings[@]}" --set train.best_metric=next_word_accuracy \
  --set train.max_steps=30
n=$(json_get "$WORK/acc/log.jsonl" "sum(1 for e in events if e['event']=='valid' and 'bleu' in e)")
v=$(json_get "$WORK/acc/log.jsonl" "sum(1 for e in events if e['event']=='valid')")
[ "$v" -ge 2 ] && [ "$n" = "$v" ] && pass "next_word_accuracy runs log BLEU too ($n validations)" \
  || fail "$n of $v validations logged BLEU"
expect_exit 0 "trains without BLEU" -- "$TRAIN" --config configs/sample.json --out "$WORK/none" \
  "${settings[@]}" --set train.best_metric=loss --set train.bleu_sentences=0 --set train.max_steps=15
n=$(json_get "$WORK/none/log.jsonl" "sum(1 for e in events if 'bleu' in e)")
[ "$n" = 0 ] && pass "train.bleu_sentences=0 logs no BLEU" || fail "$n events logged BLEU"
expect_exit 2 "bleu without sentences is a configuration error" -- "$TRAIN" \
  --config configs/sample.json --out "$WORK/bad" "${settings[@]}" --set train.bleu_sentences=0
expect_stderr "train.bleu_sentences" "the error names train.bleu_sentences"

finish
