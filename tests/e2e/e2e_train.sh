#!/usr/bin/env bash
# atento-train end to end on the sample corpus: learning, the model directory, exact resume,
# SIGINT, and every kind of bad input.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
TRAIN="$BUILD/atento-train"

# --- learning and the model directory ---------------------------------------------------
out=$WORK/sample
expect_exit 0 "trains on the sample corpus" -- "$TRAIN" --config configs/sample.json --out "$out" \
  --set train.max_epochs=12 --set train.eval_every_steps=20 "${SAMPLE_SETTINGS[@]}"
for f in config.json model.safetensors best.json log.jsonl train.tsv valid.tsv test.tsv \
         spm.en.model spm.es.model checkpoints/latest; do
  [ -s "$out/$f" ] && pass "model directory has $f" || fail "model directory lacks $f"
done
params=$(json_get "$out/log.jsonl" "[e for e in events if e['event']=='start'][0]['params']")
[ "${params:-0}" -gt 0 ] && pass "start event records $params parameters" || fail "no params"
first=$(json_get "$out/log.jsonl" "[e['loss'] for e in events if e['event']=='valid'][0]")
last=$(json_get "$out/log.jsonl" "[e['loss'] for e in events if e['event']=='valid'][-1]")
acc0=$(json_get "$out/log.jsonl" "[e['next_word_accuracy'] for e in events if e['event']=='valid'][0]")
acc1=$(json_get "$out/log.jsonl" "max(e['next_word_accuracy'] for e in events if e['event']=='valid')")
python3 -c "import sys; sys.exit(not ($last < $first))" && pass "validation loss falls ($first → $last)" \
  || fail "validation loss did not fall ($first → $last)"
python3 -c "import sys; sys.exit(not ($acc1 > $acc0))" && pass "validation accuracy rises ($acc0 → $acc1)" \
  || fail "validation accuracy did not rise ($acc0 → $acc1)"
lines=$(( $(wc -l <"$out/train.tsv") + $(wc -l <"$out/valid.tsv") + $(wc -l <"$out/test.tsv") ))
[ "$lines" = "$(wc -l <data/sample/sample.tsv)" ] && pass "the split covers the corpus ($lines)" \
  || fail "split has $lines lines"
expect_exit 0 "a finished run re-run does nothing more" -- "$TRAIN" --config configs/sample.json \
  --out "$out" --set train.max_epochs=12 --set train.eval_every_steps=20 "${SAMPLE_SETTINGS[@]}"
grep -q '"event":"resume"' "$out/log.jsonl" && pass "re-run logs a resume" || fail "no resume event"

# --- exact resume: 2N steps at once == N steps, resume, N steps (same threads) ------------
words=(--set tokenizer.kind=words --set tokenizer.vocab_size=2000 --set tokenizer.src_len=20
       --set tokenizer.tgt_len=21 --set model.max_len=20 --set train.threads=1
       --set train.eval_every_steps=0 --set train.log_every_steps=1 --set train.max_epochs=100)
"$TRAIN" --config configs/sample.json --out "$WORK/once" "${words[@]}" --set train.max_steps=30 \
  >/dev/null 2>&1
"$TRAIN" --config configs/sample.json --out "$WORK/twice" "${words[@]}" --set train.max_steps=15 \
  >/dev/null 2>&1
"$TRAIN" --config configs/sample.json --out "$WORK/twice" "${words[@]}" --set train.max_steps=30 \
  >/dev/null 2>&1
pick='[e for e in events if e["event"]=="valid" and e["step"]==30][0]["loss"], [e for e in events if e["event"]=="train" and e["step"]==30][0]["train_loss"]'
a=$(json_get "$WORK/once/log.jsonl" "$pick"); b=$(json_get "$WORK/twice/log.jsonl" "$pick")
[ -n "$a" ] && [ "$a" = "$b" ] && pass "resumed run ends with the same losses ($a)" \
  || fail "resume differs: once ($a) vs twice ($b)"
cmp -s "$WORK/once/model.safetensors" "$WORK/twice/model.safetensors" && pass "resumed weights are bit-identical" \
  || fail "resumed weights differ"
timing='[(e["evaluate_s"], e["save_s"]) for e in events if e["event"]=="valid"]'
json_get "$WORK/twice/log.jsonl" "all(0 <= a and 0 < b for a, b in $timing) and len($timing) >= 2" \
  | grep -qx True && pass "each valid event logs its seconds judging and writing" \
  || fail "valid events lack evaluate_s / save_s: $(json_get "$WORK/twice/log.jsonl" "$timing")"

# --- train.cuda_graphs: on the CPU the steps run their graph form (padded to buckets, the
# --- device-side optimiser) eagerly; without dropout it trains LibTorch's weights ---------
# (eps 1e-4: the attention key bias's gradient is 0 in exact arithmetic and rounding noise in
# floats, which Adam with eps 1e-9 turns into lr-sized steps of either sign.)
nodrop=("${words[@]}" --set model.dropout=0 --set train.max_steps=20 --set train.eps=1e-4)
"$TRAIN" --config configs/sample.json --out "$WORK/eager-form" "${nodrop[@]}" >/dev/null 2>&1
expect_exit 0 "trains with train.cuda_graphs=true on the CPU" -- "$TRAIN" \
  --config configs/sample.json --out "$WORK/graph-form" "${nodrop[@]}" --set train.cuda_graphs=true
expect_stderr "train.cuda_graphs: no CUDA graphs on cpu" "it says that nothing is captured here"
diff=$("$BUILD/atento_weights_diff" "$WORK/eager-form/model.safetensors" "$WORK/graph-form/model.safetensors")
python3 -c "import sys; d=float('$diff'.split()[-1]); sys.exit(not (0 <= d < 1e-3))" 2>/dev/null \
  && pass "the graph form trains LibTorch's weights after 20 steps ($diff)" \
  || fail "the graph form's weights differ: $diff"
"$TRAIN" --config configs/sample.json --out "$WORK/graph-twice" "${nodrop[@]}" \
  --set train.cuda_graphs=true --set train.max_steps=10 >/dev/null 2>&1
"$TRAIN" --config configs/sample.json --out "$WORK/graph-twice" "${nodrop[@]}" \
  --set train.cuda_graphs=true >/dev/null 2>&1
cmp -s "$WORK/graph-form/model.safetensors" "$WORK/graph-twice/model.safetensors" \
  && pass "the graph form resumes bit-identically" || fail "the graph form's resume differs"
expect_exit 0 "train.cuda_graphs with the adaptive softmax trains as before" -- "$TRAIN" \
  --config configs/sample.json --out "$WORK/graph-adaptive" "${nodrop[@]}" --set train.max_steps=3 \
  --set train.cuda_graphs=true --set 'model.adaptive_cutoffs=[50,300]' --set model.tie_embeddings=false
expect_stderr "train.cuda_graphs: off for this run: the adaptive softmax" "and says why it is off"

# --- the linear schedule under a time budget: the rate follows the clock down to 0 ---------
# No validation BLEU here: its translations at every epoch end would spend the 15 s budget.
"$TRAIN" --config configs/sample.json --out "$WORK/clock" "${words[@]}" --set train.lr=0.001 \
  --set train.schedule=linear --set train.warmup_steps=5 --set train.time_budget_minutes=0.25 \
  --set train.bleu_sentences=0 >/dev/null 2>&1
# Each step's rate is lr·(1 − t/15 s) with t read just before the step: after the previous
# step's elapsed_s and before its own (every step is logged), however slow a loaded machine is.
verdict=$(json_get "$WORK/clock/log.jsonl" "(lambda tr, line: 'few steps' if len(tr) < 20 else
  'not falling' if any(b['lr'] > a['lr'] for a, b in zip(tr[5:], tr[6:])) else
  'not every step logged' if any(b['step'] != a['step'] + 1 for a, b in zip(tr, tr[1:])) else
  'off the line' if any(not line(e['elapsed_s']) - 1e-9 <= e['lr'] <= line(p['elapsed_s']) + 1e-9
                        for p, e in zip(tr[5:], tr[6:]))
  else 'ok %d steps, last %.2g' % (len(tr), tr[-1]['lr']))([e for e in events if e['event'] == 'train'],
  lambda t: 0.001 * (1 - t / 15))")
[[ "$verdict" == ok* ]] && pass "linear schedule over the time budget: $verdict" \
  || fail "linear schedule over the time budget: $verdict"

# --- configs/fast.json's adaptive softmax and weight average: exact resume, then use ------
adaptive=("${words[@]}" --set 'model.adaptive_cutoffs=[50,300]' --set model.tie_embeddings=false
          --set train.ema_decay=0.9)
"$TRAIN" --config configs/sample.json --out "$WORK/ada-once" "${adaptive[@]}" \
  --set train.max_steps=20 >/dev/null 2>&1
"$TRAIN" --config configs/sample.json --out "$WORK/ada-twice" "${adaptive[@]}" \
  --set train.max_steps=10 >/dev/null 2>&1
"$TRAIN" --config configs/sample.json --out "$WORK/ada-twice" "${adaptive[@]}" \
  --set train.max_steps=20 >/dev/null 2>&1
pick='[e for e in events if e["event"]=="valid" and e["step"]==20][0]["loss"], [e for e in events if e["event"]=="train" and e["step"]==20][0]["train_loss"]'
a=$(json_get "$WORK/ada-once/log.jsonl" "$pick"); b=$(json_get "$WORK/ada-twice/log.jsonl" "$pick")
[ -n "$a" ] && [ "$a" = "$b" ] && pass "adaptive softmax: resumed run ends with the same losses" \
  || fail "adaptive softmax: resume differs: once ($a) vs twice ($b)"
cmp -s "$WORK/ada-once/model.safetensors" "$WORK/ada-twice/model.safetensors" \
  && pass "weight average: resumed average is bit-identical" || fail "resumed averages differ"
[ -s "$WORK/ada-once/checkpoints/step-20/average.pt" ] && pass "weight average: checkpointed" \
  || fail "weight average: no average.pt in the checkpoint"
acc=$(json_get "$WORK/ada-once/log.jsonl" "[e['next_word_accuracy'] for e in events if e['event']=='valid'][-1]")
python3 -c "import sys; sys.exit(not (0 < $acc <= 1))" 2>/dev/null \
  && pass "adaptive softmax: validation accuracy is counted ($acc)" \
  || fail "adaptive softmax: validation accuracy '$acc'"
n=$(head -3 "$WORK/ada-once/test.tsv" | cut -f1 | "$BUILD/atento-translate" --model "$WORK/ada-once" \
  --beam 2 2>/dev/null | wc -l)
[ "$n" = 3 ] && pass "adaptive softmax: the model translates (beam 2)" \
  || fail "adaptive softmax: translated $n of 3 lines"

# --- checkpoint averaging: the trainer keeps the last N, atento-average writes a model -----
AVERAGE="$BUILD/atento-average"
"$TRAIN" --config configs/sample.json --out "$WORK/keep" "${words[@]}" --set train.ema_decay=0.9 \
  --set train.eval_every_steps=5 --set train.keep_checkpoints=3 --set train.max_steps=20 \
  >/dev/null 2>&1
# Each validation (every 5 steps and at each epoch end) writes a checkpoint.
newest=$(json_get "$WORK/keep/log.jsonl" "' '.join('step-%d' % s for s in sorted({e['step'] for e in events if e['event'] == 'valid'})[-3:])")
kept=$(cd "$WORK/keep/checkpoints" && ls -d step-* | sort -t- -k2 -n | tr '\n' ' ')
[ "$kept" = "$newest " ] && pass "train.keep_checkpoints=3 keeps the newest three ($newest)" \
  || fail "train.keep_checkpoints=3 left '$kept', expected '$newest'"
expect_exit 0 "atento-average averages the last 3 checkpoints" -- \
  "$AVERAGE" --model "$WORK/keep" --out "$WORK/keep-avg" --last 3
steps=$(python3 -c "import json;print(' '.join(json.load(open('$WORK/keep-avg/average.json'))['checkpoints']))")
[ "$steps" = "$newest" ] && pass "average.json names the averaged checkpoints" \
  || fail "average.json names '$steps'"
diff=$("$BUILD/atento_weights_diff" "$WORK/keep-avg/model.safetensors" "$WORK/keep/checkpoints/step-20/model.pt")
[[ "$diff" != "max_abs_diff 0" && "$diff" == max_abs_diff* ]] \
  && pass "the averaged weights differ from the last checkpoint's ($diff)" || fail "average: $diff"
n=$(head -3 "$WORK/keep/test.tsv" | cut -f1 | "$BUILD/atento-translate" --model "$WORK/keep-avg" \
  2>/dev/null | wc -l)
[ "$n" = 3 ] && pass "the averaged model translates" || fail "averaged model translated $n of 3"
expect_exit 0 "atento-average of one checkpoint's weight average" -- \
  "$AVERAGE" --model "$WORK/keep" --out "$WORK/keep-one" --last 1 --weights average
diff=$("$BUILD/atento_weights_diff" "$WORK/keep-one/model.safetensors" "$WORK/keep/checkpoints/step-20/average.pt")
[ "$diff" = "max_abs_diff 0" ] && pass "one checkpoint averages to itself" || fail "one: $diff"
expect_exit 2 "more checkpoints than kept is a usage error" -- \
  "$AVERAGE" --model "$WORK/keep" --out "$WORK/keep-4" --last 4
expect_stderr "--last 4: .* holds 3 complete checkpoint.*train.keep_checkpoints=4" \
  "the error says how many there are and what to set"
[ ! -e "$WORK/keep-4" ] && pass "nothing is written on error" || fail "$WORK/keep-4 was created"
expect_exit 2 "an existing model is not overwritten" -- \
  "$AVERAGE" --model "$WORK/keep" --out "$WORK/keep-avg" --last 2
expect_stderr "already holds a model" "the error names the existing model"
expect_exit 2 "the model directory itself is refused as --out" -- \
  "$AVERAGE" --model "$WORK/keep" --out "$WORK/keep" --last 2
expect_exit 2 "--weights average without a weight average is a usage error" -- \
  "$AVERAGE" --model "$WORK/once" --out "$WORK/once-avg" --last 1 --weights average
expect_stderr "average.pt does not exist .*train.ema_decay" "the error names the missing file"

# --- subword sampling: a new segmentation every epoch, the same after a resume ------------
sampling=(--set tokenizer.sample_alpha=0.2 --set train.threads=1 --set train.eval_every_steps=0
          --set train.log_every_steps=1 --set train.max_epochs=100)
"$TRAIN" --config configs/sample.json --out "$WORK/spl-once" "${sampling[@]}" \
  --set train.max_steps=40 >/dev/null 2>"$WORK/spl.err"
mkdir -p "$WORK/spl-twice" && cp "$WORK"/spl-once/spm.*.model "$WORK/spl-twice/"
"$TRAIN" --config configs/sample.json --out "$WORK/spl-twice" "${sampling[@]}" \
  --set train.max_steps=20 >/dev/null 2>&1
"$TRAIN" --config configs/sample.json --out "$WORK/spl-twice" "${sampling[@]}" \
  --set train.max_steps=40 >/dev/null 2>&1
mkdir -p "$WORK/spl-off" && cp "$WORK"/spl-once/spm.*.model "$WORK/spl-off/"
"$TRAIN" --config configs/sample.json --out "$WORK/spl-off" "${sampling[@]}" \
  --set tokenizer.sample_alpha=0 --set train.max_steps=40 >/dev/null 2>&1
pick='[e for e in events if e["event"]=="valid" and e["step"]==40][0]["loss"], [e for e in events if e["event"]=="train" and e["step"]==40][0]["train_loss"]'
a=$(json_get "$WORK/spl-once/log.jsonl" "$pick"); b=$(json_get "$WORK/spl-twice/log.jsonl" "$pick")
c=$(json_get "$WORK/spl-off/log.jsonl" "$pick")
[ -n "$a" ] && [ "$a" = "$b" ] && pass "subword sampling: resumed run ends with the same losses" \
  || fail "subword sampling: resume differs: once ($a) vs twice ($b)"
cmp -s "$WORK/spl-once/model.safetensors" "$WORK/spl-twice/model.safetensors" \
  && pass "subword sampling: resumed weights are bit-identical" || fail "sampled resume: weights differ"
[ -n "$c" ] && [ "$a" != "$c" ] && pass "subword sampling changes what is learned ($a vs $c)" \
  || fail "subword sampling: same losses as without it ($a vs $c)"
epochs=$(grep -c "training pairs segmented by sampling (alpha 0.2)" "$WORK/spl.err")
[ "$epochs" -ge 2 ] && pass "subword sampling: a new segmentation in each of $epochs epochs" \
  || fail "subword sampling: $epochs segmentation messages"

# --- SIGINT saves a checkpoint, exits 130, and the run resumes ---------------------------
"$TRAIN" --config configs/sample.json --out "$WORK/int" "${words[@]}" --set train.max_steps=100000 \
  >/dev/null 2>"$WORK/int.err" &
pid=$!
for _ in $(seq 1 300); do
  grep -q '"step":5,' "$WORK/int/log.jsonl" 2>/dev/null && break; sleep 0.2
done
# One trainer per model directory: a second one on the same directory stops at once.
expect_exit 1 "a second trainer on a directory in use is refused" -- "$TRAIN" \
  --config configs/sample.json --out "$WORK/int" "${words[@]}" --set train.max_steps=100000
expect_stderr "in use by another atento-train \(pid $pid\)" "names the trainer holding it"
kill -INT $pid; wait $pid; code=$?
[ "$code" = 130 ] && pass "SIGINT exits 130" || fail "SIGINT exit $code"
grep -q "checkpoint saved" "$WORK/int.err" && pass "SIGINT reports the checkpoint" || fail "no message"
step=$(python3 -c "import json;print(json.load(open('$WORK/int/checkpoints/'+open('$WORK/int/checkpoints/latest').read().strip()+'/state.json'))['step'])")
[ "${step:-0}" -ge 5 ] && pass "checkpoint at step $step" || fail "checkpoint step $step"
echo "Hello." | "$BUILD/atento-translate" --model "$WORK/int" >/dev/null 2>&1 \
  && pass "interrupted model is loadable" || fail "interrupted model does not load"
expect_exit 0 "interrupted run resumes" -- "$TRAIN" --config configs/sample.json --out "$WORK/int" \
  "${words[@]}" --set train.max_steps=$((step + 3))

# --- bad input: clear errors, non-zero exits, nothing corrupted ---------------------------
expect_exit 2 "missing --config is a usage error" -- "$TRAIN" --out "$WORK/x"
expect_exit 2 "unknown option is a usage error" -- "$TRAIN" --config configs/sample.json --bogus
expect_exit 2 "unknown key is a config error" -- "$TRAIN" --config configs/sample.json \
  --out "$WORK/x" --set model.d_modle=3
expect_stderr "^error: .*model.d_modle.*unknown key" "unknown key is named"
expect_exit 1 "missing corpus is an error" -- "$TRAIN" --config configs/sample.json \
  --out "$WORK/missing" --set data.corpus="$WORK/nope.tsv"
expect_stderr "^error: .*nope.tsv" "missing corpus is named"
: >"$WORK/empty.tsv"
expect_exit 1 "empty corpus is an error" -- "$TRAIN" --config configs/sample.json \
  --out "$WORK/empty" --set data.corpus="$WORK/empty.tsv"
expect_stderr "^error: .*empty.tsv" "empty corpus is named"
{ head -200 data/sample/sample.tsv; printf 'no tab here\n'; printf 'Only English\t\n'; } \
  >"$WORK/bad.tsv"
expect_exit 0 "bad lines are skipped" -- "$TRAIN" --config configs/sample.json --out "$WORK/bad" \
  "${words[@]}" --set train.max_steps=2 --set data.corpus="$WORK/bad.tsv"
expect_stderr "bad.tsv:201: " "bad line reported as file:line"
expect_exit 1 "strict mode makes a bad line an error" -- "$TRAIN" --config configs/sample.json \
  --out "$WORK/strict" "${words[@]}" --set data.strict=true --set data.corpus="$WORK/bad.tsv"
expect_stderr "^error: .*bad.tsv:201" "strict error names file:line"
expect_exit 1 "unwritable --out is an error" -- "$TRAIN" --config configs/sample.json \
  --out /etc/hostname/model
expect_stderr "^error: .*/etc/hostname/model" "unwritable directory is named"
expect_exit 2 "another architecture in an existing directory is refused" -- "$TRAIN" \
  --config configs/sample.json --out "$WORK/once" "${words[@]}" --set model.d_model=64
expect_stderr "another architecture: model.d_model" "architecture mismatch names the key"
[ -s "$WORK/once/model.safetensors" ] && [ ! -e "$WORK/once/model.pt" ] \
  && pass "the best weights are written as model.safetensors (no model.pt)" \
  || fail "a new directory's best weights are not model.safetensors alone"

# --- an older directory (best weights in model.pt, a pickle) still loads and resumes -------
cp -r "$WORK/once" "$WORK/legacy"
rm "$WORK/legacy/model.safetensors"
cp "$WORK/legacy/checkpoints/step-30/model.pt" "$WORK/legacy/model.pt"
"$BUILD/atento-eval" --model "$WORK/legacy" --pairs "$WORK/legacy/test.tsv" --beam 1 --json \
  >"$WORK/legacy.json" 2>"$WORK/stderr"
weights=$(python3 -c "import json; print(json.load(open('$WORK/legacy.json'))['weights'])")
[ "$weights" = "$WORK/legacy/model.pt" ] && pass "atento-eval loads an older directory's model.pt" \
  || { fail "atento-eval on an older directory read '$weights'"; tail -3 "$WORK/stderr"; }
expect_exit 0 "an older directory resumes" -- "$TRAIN" --config configs/sample.json \
  --out "$WORK/legacy" "${words[@]}" --set train.max_steps=60
end_best=$(json_get "$WORK/legacy/log.jsonl" "[e['best_step'] for e in events if e['event']=='end'][-1]")
if [ "$end_best" -gt 30 ]; then
  [ -s "$WORK/legacy/model.safetensors" ] && [ ! -e "$WORK/legacy/model.pt" ] \
    && pass "its next best (step $end_best) replaces model.pt with model.safetensors" \
    || fail "after a new best at step $end_best: $(ls "$WORK/legacy" | tr '\n' ' ')"
else
  [ -s "$WORK/legacy/model.pt" ] && pass "without a new best its model.pt stays" \
    || fail "model.pt lost without a new best"
fi
"$BUILD/atento-eval" --model "$WORK/legacy" --pairs "$WORK/legacy/test.tsv" --beam 1 --json \
  >/dev/null 2>&1 && pass "the resumed older directory loads" || fail "the resumed older directory does not load"

before=$(cat "$WORK/once/checkpoints/latest")
cp "$WORK/once/model.safetensors" "$WORK/once-best.safetensors"
expect_exit 1 "non-finite loss stops with an error" -- "$TRAIN" --config configs/sample.json \
  --out "$WORK/once" "${words[@]}" --set train.max_steps=60 --set train.lr=1e30 \
  --set train.clip_norm=0 --set train.warmup_steps=0
expect_stderr "non-finite loss" "non-finite loss is reported"
[ "$(cat "$WORK/once/checkpoints/latest")" = "$before" ] && cmp -s "$WORK/once/model.safetensors" "$WORK/once-best.safetensors" \
  && pass "the last good checkpoint is kept" || fail "checkpoint changed after a non-finite loss"
finish
