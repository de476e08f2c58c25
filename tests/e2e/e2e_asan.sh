#!/usr/bin/env bash
# The executables built with AddressSanitizer + UndefinedBehaviorSanitizer (atento_asan_<tool>,
# LibTorch uninstrumented) end to end on the sample corpus: train, resume, refuse a bad corpus,
# translate (batch, beam, stdin), evaluate, train and run a pair filter, serve. Every command
# must exit as expected and print no sanitizer report. Word-level tokenizers throughout: ASan
# cannot run the SentencePiece plugin (loaded by dlmopen), which these programs load only for
# SentencePiece models. The translations must equal the Release build's, byte for byte.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
if [ ! -x "$BUILD/atento_asan_train" ]; then
  echo "skipped: $BUILD has no sanitizer executables (configured with -DATENTO_SANITIZE_TESTS=OFF)"
  exit 77
fi
# LibTorch keeps allocations alive until exit by design: no leak detection. UBSan exits 1 on a
# report, like a usage error, so each command's stderr is searched for reports as well.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# sanitized CODE DESCRIPTION -- command...: expect_exit, then no sanitizer report on stderr.
sanitized() {
  expect_exit "$@"
  if grep -qE 'ERROR: AddressSanitizer|runtime error:' "$WORK/stderr"; then
    fail "$2: sanitizer report"; grep -m1 -A12 -E 'ERROR: AddressSanitizer|runtime error:' \
      "$WORK/stderr" | sed 's/^/    /'
  fi
}

words=(--set tokenizer.kind=words --set tokenizer.vocab_size=2000 --set tokenizer.src_len=20
       --set tokenizer.tgt_len=21 --set model.max_len=20 --set train.threads=1
       --set train.log_every_steps=5 --set train.max_epochs=100
       --set 'model.adaptive_cutoffs=[50,300]' --set model.tie_embeddings=false
       --set train.ema_decay=0.9)
model=$WORK/model

# --- training: checkpoints, validation, exact resume, a bad corpus -------------------------
sanitized 0 "trains 20 steps" -- "$BUILD/atento_asan_train" --config configs/sample.json \
  --out "$model" "${words[@]}" --set train.max_steps=20 --set train.eval_every_steps=10
sanitized 0 "resumes to 30 steps" -- "$BUILD/atento_asan_train" --config configs/sample.json \
  --out "$model" "${words[@]}" --set train.max_steps=30 --set train.eval_every_steps=10
grep -q '"event":"resume"' "$model/log.jsonl" && pass "the second run resumed" \
  || fail "no resume event"
{ head -50 data/sample/sample.tsv; printf 'no tab here\n'; } >"$WORK/bad.tsv"
sanitized 1 "strict mode refuses a line without a tab" -- "$BUILD/atento_asan_train" \
  --config configs/sample.json --out "$WORK/bad" "${words[@]}" --set data.strict=true \
  --set data.corpus="$WORK/bad.tsv"
expect_stderr "^error: .*bad.tsv:51" "the error names the file and line"

# --- translation: the same output as the Release build ------------------------------------
cut -f1 "$model/test.tsv" >"$WORK/test.en"
for beam in 1 4; do
  sanitized 0 "translates the test split, beam $beam" -- "$BUILD/atento_asan_translate" \
    --model "$model" --input "$WORK/test.en" --output "$WORK/asan.$beam.es" --beam "$beam"
  "$BUILD/atento-translate" --model "$model" --input "$WORK/test.en" --beam "$beam" \
    --output "$WORK/release.$beam.es" 2>/dev/null
  cmp -s "$WORK/asan.$beam.es" "$WORK/release.$beam.es" \
    && pass "beam $beam: $(wc -l <"$WORK/asan.$beam.es") lines, identical to the Release build" \
    || fail "beam $beam: the sanitized build translates differently"
done
sanitized 0 "translates stdin to stdout" -- "$BUILD/atento_asan_translate" --model "$model" \
  <"$WORK/test.en"
cmp -s "$WORK/stdout" "$WORK/asan.4.es" && pass "stdin output equals file output" \
  || fail "stdin output differs"
sanitized 2 "--beam 0 is a usage error" -- "$BUILD/atento_asan_translate" --model "$model" \
  --beam 0 <"$WORK/test.en"

# --- evaluation ---------------------------------------------------------------------------
sanitized 0 "evaluates the test split" -- "$BUILD/atento_asan_eval" --model "$model" \
  --pairs "$model/test.tsv"
grep -qi "bleu" "$WORK/stdout" && pass "evaluation prints BLEU" || fail "no BLEU in the output"

# --- pair filter: train on the translation model, then score ------------------------------
sanitized 0 "trains a pair filter" -- "$BUILD/atento_asan_train" --config configs/filter.json \
  --out "$WORK/filter" --set filter.pretrained="$model" --set train.max_steps=10 \
  --set train.warmup_steps=2 --set train.eval_every_steps=5 --set train.threads=1
sanitized 0 "scores pairs" -- "$BUILD/atento_asan_filter" --model "$WORK/filter" \
  --input "$model/test.tsv"
[ "$(wc -l <"$WORK/stdout")" = "$(wc -l <"$model/test.tsv")" ] \
  && pass "one score per pair" || fail "filter output has $(wc -l <"$WORK/stdout") lines"

# --- server: a translation, a bad request, SIGTERM ----------------------------------------
if [ -x "$BUILD/atento_asan_serve" ]; then
  server_pid=""
  trap '[ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null; rm -rf "$WORK"' EXIT
  start_server_binary "$WORK/serve.err" "$BUILD/atento_asan_serve" --model "$model" \
    || fail "the server did not start"
  line=$(head -1 "$WORK/test.en")
  body=$(python3 -c 'import json,sys; print(json.dumps({"q": sys.argv[1], "source": "en",
"target": "es"}))' "$line")
  got=$(curl -s -H 'Content-Type: application/json' --data-binary "$body" \
    "$URL/translate" | python3 -c 'import json,sys; print(json.load(sys.stdin)["translatedText"])')
  [ "$got" = "$(head -1 "$WORK/asan.4.es")" ] && pass "the server translates as the translator" \
    || fail "server gave '$got'"
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
    --data-binary '{"q": [1, ' "$URL/translate")
  [ "$code" = 400 ] && pass "invalid JSON → 400" || fail "invalid JSON → $code"
  kill -TERM "$server_pid"
  wait "$server_pid"
  status=$?
  [ "$status" = 0 ] && pass "SIGTERM: exit 0" || fail "SIGTERM: exit $status"
  grep -qE 'ERROR: AddressSanitizer|runtime error:' "$WORK/serve.err" \
    && fail "server: sanitizer report" || pass "server: no sanitizer report"
fi
finish
