#!/usr/bin/env bash
# atento-translate and atento-eval end to end on a small model trained on the sample corpus.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
model=$WORK/model
"$BUILD/atento-train" --config configs/sample.json --out "$model" --set train.max_epochs=15 \
  "${SAMPLE_SETTINGS[@]}" >/dev/null 2>"$WORK/train.err" || { cat "$WORK/train.err"; exit 1; }
T="$BUILD/atento-translate"

# --- one output line per input line, in order ---------------------------------------------
long=$(for i in $(seq 1 60); do printf 'the big red house and '; done)
run="see $(head -c 600 /dev/zero | tr '\0' 'x')"
url="http://example.org/$(head -c 600 /dev/zero | tr '\0' 'y')"
printf 'Good morning.\n\nWhere is the station?\n%s\n\xff\xfe broken\nThank you.\n%s\nGo to %s now.\n' \
  "$long" "$run" "$url" >"$WORK/in.txt"
expect_exit 0 "translates a file" -- "$T" --model "$model" --input "$WORK/in.txt" \
  --output "$WORK/out.txt"
[ "$(wc -l <"$WORK/out.txt")" = 8 ] && pass "8 lines in, 8 lines out" \
  || fail "$(wc -l <"$WORK/out.txt") output lines for 8 input lines"
[ -z "$(sed -n 2p "$WORK/out.txt")" ] && pass "empty line in, empty line out" || fail "line 2 not empty"
[ -n "$(sed -n 1p "$WORK/out.txt")" ] && pass "a sentence gets a translation" || fail "line 1 empty"
grep -q "in.txt:4:" "$WORK/stderr" && fail "a long line of words was cut: $(grep in.txt:4: "$WORK/stderr")" \
  || pass "a line longer than the source length is split, not cut"
[ -n "$(sed -n 4p "$WORK/out.txt")" ] && pass "the long line is translated" || fail "line 4 empty"
expect_stderr "in.txt:7: 1 run\(s\) of text without a space longer than the model's [0-9]+ source tokens; cut" \
  "only a single over-long run is cut, with a warning naming the line"
grep -q "in.txt:8:" "$WORK/stderr" && fail "an address was cut: $(grep in.txt:8: "$WORK/stderr")" \
  || pass "a 619-character address is not cut"
[ "$(sed -n 8p "$WORK/out.txt" | grep -o -F "$url" | wc -l)" = 1 ] \
  && pass "the address is in its line's translation once, as it was" || fail "line 8: $(sed -n 8p "$WORK/out.txt" | head -c 200)"
expect_stderr "in.txt:5: invalid UTF-8" "invalid UTF-8 is reported by line"
expect_stderr "sentences/s" "throughput is reported"
printf 'Good morning.\nThank you.\n' | "$T" --model "$model" >"$WORK/stdout.txt" 2>/dev/null
[ "$(wc -l <"$WORK/stdout.txt")" = 2 ] && pass "stdin to stdout" || fail "stdin/stdout"
(cd "$WORK" && printf 'Good morning.\nThank you.\n' |
  "$T" --model "$model" --input - --output - >"$WORK/dash.txt" 2>/dev/null)
cmp -s "$WORK/dash.txt" "$WORK/stdout.txt" && [ ! -e "$WORK/-" ] \
  && pass "--input - and --output - are stdin and stdout" || fail "--input -/--output -"
printf 'Good morning.\r\nThank you.\r\n' | "$T" --model "$model" >"$WORK/crlf.txt" 2>/dev/null
[ "$(tr -d '\r' <"$WORK/crlf.txt")" = "$(cat "$WORK/stdout.txt")" ] &&
  [ "$(grep -c $'\r$' "$WORK/crlf.txt")" = 2 ] \
  && pass "CRLF lines in, the same translations out with CRLF" || fail "CRLF: $(od -c "$WORK/crlf.txt" | head -3)"
[ "$(sed -n 1p "$WORK/stdout.txt")" = "$(sed -n 1p "$WORK/out.txt")" ] \
  && pass "same sentence, same translation, whatever the batch" || fail "batch-dependent output"

# --- real text: sentences translated on their own, streams, windows -----------------------
# Sentences that start upper-case and end with . ! or ?: joined, each still ends one (UAX #29).
cut -f1 "$model/test.tsv" | grep -E '^[A-Z][^.!?]*[.!?]$' | head -40 >"$WORK/sentences.en"
"$T" --model "$model" --input "$WORK/sentences.en" --beam 1 >"$WORK/sentences.es" 2>/dev/null
# int8 decoding (translate.precision int8) reproduces most fp32 translations.
"$T" --model "$model" --input "$WORK/sentences.en" --beam 1 --precision int8 \
  >"$WORK/sentences.int8.es" 2>/dev/null
same=$(paste -d'\t' "$WORK/sentences.es" "$WORK/sentences.int8.es" | awk -F'\t' '$1 == $2' | wc -l)
total=$(wc -l <"$WORK/sentences.es")
[ "$total" -gt 0 ] && [ $((same * 10)) -ge $((total * 8)) ] \
  && pass "--precision int8: $same of $total translations as in fp32" \
  || fail "--precision int8: only $same of $total translations as in fp32"
# Greedy decoding in the fixed shapes of CUDA graphs (translate.cuda_graphs), eagerly on the
# CPU: the same translations, and the CPU says why there is no graph.
"$T" --model "$model" --input "$WORK/sentences.en" --beam 1 --set translate.cuda_graphs=true \
  >"$WORK/sentences.graphs.es" 2>"$WORK/graphs.err"
cmp -s "$WORK/sentences.graphs.es" "$WORK/sentences.es" \
  && pass "translate.cuda_graphs: the graph form gives the same translations" \
  || fail "translate.cuda_graphs changes translations: $(diff "$WORK/sentences.graphs.es" "$WORK/sentences.es" | head -4)"
grep -q "translate.cuda_graphs: no CUDA graphs on cpu" "$WORK/graphs.err" \
  && pass "translate.cuda_graphs on the CPU says it runs eagerly" \
  || fail "no message for translate.cuda_graphs on the CPU: $(head -3 "$WORK/graphs.err")"
# The same sentences as paragraphs of 1 to 6 sentences a line.
python3 - "$WORK/sentences.en" "$WORK/sentences.es" "$WORK/para.en" "$WORK/para.expected" <<'PY'
import sys
en = [l.rstrip("\n") for l in open(sys.argv[1])]
es = [l.rstrip("\n") for l in open(sys.argv[2])]
sizes, i, k = [1, 3, 6, 2, 4, 5], 0, 0
with open(sys.argv[3], "w") as pe, open(sys.argv[4], "w") as px:
    while i < len(en):
        n, k = sizes[k % len(sizes)], k + 1
        pe.write(" ".join(en[i:i + n]) + "\n")
        px.write(" ".join(t for t in es[i:i + n] if t) + "\n")
        i += n
PY
"$T" --model "$model" --input "$WORK/para.en" --beam 1 >"$WORK/para.es" 2>"$WORK/para.err"
if cmp -s "$WORK/para.es" "$WORK/para.expected"; then
  pass "a paragraph line translates as its sentences one per line, joined"
else
  fail "paragraph translations differ from the sentences': $(diff "$WORK/para.es" "$WORK/para.expected" | head -4)"
fi
# The same paragraphs as word processors write them, with curly apostrophes and quotes.
sed -e "s/'/’/g" -e 's/"/”/g' "$WORK/para.en" >"$WORK/para.curly.en"
grep -q "’" "$WORK/para.curly.en" || fail "no apostrophe in the sentences to make curly"
"$T" --model "$model" --input "$WORK/para.curly.en" --beam 1 >"$WORK/para.curly.es" 2>/dev/null
cmp -s "$WORK/para.curly.es" "$WORK/para.es" \
  && pass "curly apostrophes and quotes translate as the straight ones" \
  || fail "curly punctuation changes translations: $(diff "$WORK/para.curly.es" "$WORK/para.es" | head -4)"
# The same paragraphs in capitals: read in sentence case, translated in capitals.
tr '[:lower:]' '[:upper:]' <"$WORK/para.en" >"$WORK/para.caps.en"
"$T" --model "$model" --input "$WORK/para.caps.en" --beam 1 >"$WORK/para.caps.es" 2>/dev/null
python3 - "$WORK/para.caps.es" "$WORK/para.es" <<'PY' && pass "capitals in, capitals out" \
  || fail "a paragraph in capitals: $(head -2 "$WORK/para.caps.es")"
import sys
caps = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
plain = [l.rstrip("\n") for l in open(sys.argv[2], encoding="utf-8")]
# Every line translated and in capitals; most as their plain paragraph's (the model reads
# "Tom" as "tom" then, so not all).
same = sum(c == p.upper() for c, p in zip(caps, plain))
print("capitals: %d of %d as the plain paragraphs' in capitals" % (same, len(plain)))
sys.exit(0 if len(caps) == len(plain) and all(c and c == c.upper() for c in caps)
         and same * 2 >= len(plain) else 1)
PY
# The same paragraphs in lower case and in title case: read in sentence case, names as the
# vocabulary knows them, so mostly translated as the plain paragraphs.
tr '[:upper:]' '[:lower:]' <"$WORK/para.en" >"$WORK/para.lower.en"
sed -E 's/(^|[ "])([a-z])/\1\u\2/g' "$WORK/para.en" >"$WORK/para.title.en"
grep -q "[A-Z][a-z]* [A-Z][a-z]* [A-Z]" "$WORK/para.title.en" || fail "no line in title case"
for style in lower title; do
  "$T" --model "$model" --input "$WORK/para.$style.en" --beam 1 >"$WORK/para.$style.es" 2>/dev/null
  python3 - "$WORK/para.$style.es" "$WORK/para.es" "$style" <<'PY' \
    && pass "a paragraph in $style case translates as in sentence case" \
    || fail "a paragraph in $style case: $(head -2 "$WORK/para.$style.es")"
import sys
styled = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
plain = [l.rstrip("\n") for l in open(sys.argv[2], encoding="utf-8")]
same = sum(s == p for s, p in zip(styled, plain))
print("%s case: %d of %d as the plain paragraphs'" % (sys.argv[3], same, len(plain)))
sys.exit(0 if len(styled) == len(plain) and all(styled) and same * 2 >= len(plain) else 1)
PY
done
# Web and e-mail addresses and emoji: kept as they are, the rest translated as without them.
python3 - "$WORK/para.en" "$WORK/para.es" "$WORK/para.verbatim.en" "$WORK/para.verbatim.expected" <<'PY'
import re, sys
en = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
es = [l.rstrip("\n") for l in open(sys.argv[2], encoding="utf-8")]
final = re.compile(r"[.!?\u2026\"')\u00bb\u201d\u2019]*$")
def inside(text, emoji):  # before the final punctuation
    m = final.search(text)
    return text[:m.start()] + " " + emoji + text[m.start():]
with open(sys.argv[3], "w", encoding="utf-8") as vin, open(sys.argv[4], "w", encoding="utf-8") as vout:
    for n, (e, s) in enumerate(zip(en, es)):
        emoji, url = ["\U0001F600", "\U0001F44D\U0001F3FD", "\U0001F1EA\U0001F1F8"][n % 3], \
            "(https://example.org/notes/%d?a=1&b=2)" % n
        vin.write(inside(e, emoji) + " " + url + "\n")
        vout.write(inside(s, emoji) + " " + url + "\n")
    vin.write("tom@example.com\n")
    vout.write("tom@example.com\n")
PY
"$T" --model "$model" --input "$WORK/para.verbatim.en" --beam 1 >"$WORK/para.verbatim.es" \
  2>"$WORK/para.verbatim.err"
cmp -s "$WORK/para.verbatim.es" "$WORK/para.verbatim.expected" \
  && pass "emoji and addresses kept as they are, the paragraphs translated as without them" \
  || fail "emoji and addresses: $(diff "$WORK/para.verbatim.es" "$WORK/para.verbatim.expected" | head -4)"
grep -q "no source token" "$WORK/para.verbatim.err" \
  && fail "a line of an address alone was left empty" || pass "a line of an address alone is copied"
expect_exit 0 "--no-split translates each line whole" -- "$T" --model "$model" \
  --input "$WORK/para.en" --beam 1 --no-split --output "$WORK/para.whole.es"
[ "$(wc -l <"$WORK/para.whole.es")" = "$(wc -l <"$WORK/para.en")" ] \
  && pass "--no-split: one line out per line in" || fail "--no-split line count"
"$T" --model "$model" --input "$WORK/sentences.en" --beam 1 --window 3 >"$WORK/window3.es" 2>/dev/null
cmp -s "$WORK/window3.es" "$WORK/sentences.es" && pass "--window 3: same output, input order" \
  || fail "--window 3 changes the output"
# Interactive: each line is answered before the next is written.
coproc TR { "$T" --model "$model" --beam 1 2>/dev/null; }
answered=0
for i in 1 2 3; do
  sentence=$(sed -n "${i}p" "$WORK/sentences.en")
  printf '%s\n' "$sentence" >&"${TR[1]}"
  if IFS= read -r -t 120 reply <&"${TR[0]}" && [ "$reply" = "$(sed -n "${i}p" "$WORK/sentences.es")" ]; then
    answered=$((answered + 1))
  fi
done
exec {TR[1]}>&-
wait "$TR_PID"
[ "$answered" = 3 ] && pass "a pipe is answered line by line, before the next line is sent" \
  || fail "interactive: $answered of 3 lines answered in turn"

# --- KV cache, beams, n-best ------------------------------------------------------------------
cut -f1 "$model/test.tsv" >"$WORK/test.en"
for beam in 1 4; do
  "$T" --model "$model" --input "$WORK/test.en" --beam $beam >"$WORK/c$beam.txt" 2>/dev/null
  "$T" --model "$model" --input "$WORK/test.en" --beam $beam --no-cache >"$WORK/n$beam.txt" 2>/dev/null
  cmp -s "$WORK/c$beam.txt" "$WORK/n$beam.txt" && pass "beam $beam: cached == uncached" \
    || fail "beam $beam: cached and uncached differ"
done
"$T" --model "$model" --input "$WORK/test.en" --beam 1 --batch-size 1 >"$WORK/b1.txt" 2>/dev/null
cmp -s "$WORK/c1.txt" "$WORK/b1.txt" && pass "batch size does not change greedy output" \
  || fail "batch size changes greedy output"
printf 'Where is the station?\n\nThank you.\n' >"$WORK/nb.txt"
"$T" --model "$model" --input "$WORK/nb.txt" --n-best 3 >"$WORK/nbest.txt" 2>/dev/null
[ "$(wc -l <"$WORK/nbest.txt")" = 9 ] && pass "n-best prints N lines per input" || fail "n-best lines"
python3 - "$WORK/nbest.txt" <<'PY' && pass "n-best: ranks 1..3, scores sorted" || fail "n-best order"
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
for g in (rows[0:3], rows[6:9]):
    assert [r[0] for r in g] == ["1", "2", "3"], g
    s = [float(r[1]) for r in g]
    assert s == sorted(s, reverse=True), s
PY

# --- attention maps -------------------------------------------------------------------------
expect_exit 0 "writes attention weights" -- "$T" --model "$model" --input "$WORK/nb.txt" \
  --attention "$WORK/att.json"
python3 - "$WORK/att.json" <<'PY' && pass "attention JSON: layers × heads × output × source, rows sum to 1" || fail "attention JSON"
import json, sys
records = json.load(open(sys.argv[1]))
assert len(records) == 2 and records[0]["line"] == 1 and records[1]["line"] == 3
r = records[0]
assert len(r["layers"]) == 2 and len(r["layers"][0]) == 4
for head in r["layers"][0]:
    assert len(head) == len(r["output_tokens"]) + 1 or len(head) == len(r["output_tokens"])
    for row in head:
        assert len(row) == len(r["source_tokens"]) and abs(sum(row) - 1) < 1e-4, row
PY
if command -v gnuplot >/dev/null; then
  expect_exit 0 "draws an attention heatmap" -- scripts/attention_map.sh "$WORK/att.json" 1 "$WORK/att.png"
  [ -s "$WORK/att.png" ] && pass "heatmap PNG written" || fail "no heatmap PNG"
fi

# --- evaluation -------------------------------------------------------------------------------
expect_exit 0 "evaluates the test split" -- "$BUILD/atento-eval" --model "$model" \
  --pairs "$model/test.tsv" --json --beam 1
python3 - "$WORK/stdout" <<'PY' && pass "eval JSON: all figures, consistent" || fail "eval JSON"
import json, math, sys
r = json.load(open(sys.argv[1]))
for k in ("next_word_accuracy", "loss", "perplexity", "bleu", "chrf", "pairs", "target_tokens", "unseen"):
    assert k in r, k
assert 0 <= r["next_word_accuracy"] <= 1 and r["pairs"] > 0 and r["target_tokens"] > 0
assert abs(r["perplexity"] - math.exp(r["loss"])) < 1e-6 * r["perplexity"]
assert 0 <= r["bleu"] <= 100 and 0 <= r["chrf"] <= 100
assert r["precision"] in ("fp32", "bf16", "int8"), r["precision"]  # auto, resolved
u = r["unseen"]
assert u["pairs"] <= r["pairs"] and 0 <= u["next_word_accuracy"] <= 1
for k in ("new_rare", "new_long"):
    assert r[k]["pairs"] <= u["pairs"], k
for f in (r, u):
    assert 0 <= f["short_outputs"] <= 1 and 0 <= f["short_references"] <= 1
PY
expect_exit 0 "eval --precision fp32 --no-translate" -- "$BUILD/atento-eval" --model "$model" \
  --pairs "$model/test.tsv" --json --precision fp32 --no-translate
json_get "$WORK/stdout" "events[0]['precision']" | grep -qx fp32 \
  && pass "eval JSON names the arithmetic it used" || fail "eval JSON precision"
expect_exit 0 "tune_decoding.sh runs a grid on validation" -- env BUILD="$BUILD" \
  scripts/tune_decoding.sh "$model" --pairs 20 --beams "1 2" --penalties "0.6 1.2"
[ "$(grep -cE '^[12] +[0-9.]+ +[0-9.]+ +[0-9.]+' "$WORK/stdout")" = 3 ] \
  && pass "tuning table: greedy once, beam 2 with two penalties" || fail "tuning table rows"
grep -q "best on validation: beam" "$WORK/stdout" && pass "tuning names the best setting" \
  || fail "no best setting"
expect_exit 0 "eval prints a table" -- "$BUILD/atento-eval" --model "$model" --pairs "$model/test.tsv"
grep -q "BLEU" "$WORK/stdout" && pass "table shows BLEU" || fail "no BLEU in the table"
grep -qE "^BLEU\|nrefs:[0-9a-z]+\|case:mixed\|eff:no\|tok:13a" "$WORK/stdout" \
  && pass "the table carries the BLEU signature" || fail "no BLEU signature"
# --output writes the model's translations (one per distinct source); --hyps scores them again.
sources=$(awk -F'\t' '!seen[$1]++' "$model/test.tsv" | wc -l)
expect_exit 0 "eval writes its translations and per-sentence scores" -- "$BUILD/atento-eval" \
  --model "$model" --pairs "$model/test.tsv" --beam 1 --json --output "$WORK/test.hyp.es" \
  --per-sentence "$WORK/test.sent.tsv"
cp "$WORK/stdout" "$WORK/eval_model.json"
[ "$(wc -l <"$WORK/test.hyp.es")" = "$sources" ] && [ "$(wc -l <"$WORK/test.sent.tsv")" = "$sources" ] \
  && pass "one translation and one per-sentence line per distinct source" \
  || fail "$(wc -l <"$WORK/test.hyp.es") translations, $(wc -l <"$WORK/test.sent.tsv") lines, $sources sources"
expect_exit 0 "eval scores given translations with --hyps, against the model's own" -- \
  "$BUILD/atento-eval" --model "$model" --pairs "$model/test.tsv" --json --hyps "$WORK/test.hyp.es" \
  --paired-bs "$WORK/test.hyp.es"
python3 - "$WORK/eval_model.json" "$WORK/stdout" <<'PY' && pass "--hyps gives the model's figures; itself is no difference" || fail "--hyps figures"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["bleu"] == b["bleu"] and a["chrf"] == b["chrf"], (a["bleu"], b["bleu"])
assert a["bleu_signature"] == b["bleu_signature"] and b["paired_bs"]["bleu"]["p_value"] == 1.0
PY
head -n 1 "$WORK/test.hyp.es" >"$WORK/one.es"
expect_exit 1 "--hyps with another number of lines" -- "$BUILD/atento-eval" --model "$model" \
  --pairs "$model/test.tsv" --hyps "$WORK/one.es"
expect_stderr "one\.es has 1 lines but .*test\.tsv has $sources distinct English sources" \
  "names both files and counts"
# --short-outputs lists the translations that the "short" share counts: an emptied one among them.
sed '1s/.*//' "$WORK/test.hyp.es" >"$WORK/emptied.es"
expect_exit 0 "eval --short-outputs lists the short translations" -- "$BUILD/atento-eval" \
  --model "$model" --pairs "$model/test.tsv" --json --hyps "$WORK/emptied.es" \
  --short-outputs "$WORK/short.tsv"
first_source=$(awk -F'\t' 'NR == 1 {print $1}' "$model/test.tsv")
python3 - "$WORK/stdout" "$WORK/short.tsv" "$first_source" <<'PY2' \
  && pass "one line per short translation, the emptied one first, with flag and references" \
  || fail "--short-outputs lines"
import json, sys
r = json.load(open(sys.argv[1]))
lines = open(sys.argv[2], encoding="utf-8").read().split("\n")[:-1]
assert len(lines) == round(r["short_outputs"] * r["sources"]) >= 1, (len(lines), r["short_outputs"])
rows = [line.split("\t") for line in lines]
assert rows[0][:2] == [sys.argv[3], ""], rows[0]
assert all(len(row) >= 4 and row[2] in ("seen", "unseen") for row in rows), rows
PY2
mkdir -p "$WORK/no_train" && cp -r "$model"/. "$WORK/no_train" && rm "$WORK/no_train/train.tsv"
expect_exit 2 "--short-outputs without the training split" -- "$BUILD/atento-eval" \
  --model "$WORK/no_train" --pairs "$model/test.tsv" --hyps "$WORK/test.hyp.es" \
  --short-outputs "$WORK/short2.tsv"
expect_stderr "short-outputs needs the training split.*no_train/train\.tsv does not exist" \
  "names the missing training split"
[ ! -e "$WORK/short2.tsv" ] && pass "and writes nothing" || fail "wrote a listing anyway"

# --- bad input --------------------------------------------------------------------------------
expect_exit 2 "missing model directory is a usage error" -- "$T" --model "$WORK/none"
mkdir -p "$WORK/notamodel"
expect_exit 1 "a directory without a model is an error" -- "$T" --model "$WORK/notamodel"
expect_stderr "not a model directory" "says it is not a model directory"
expect_exit 2 "architecture overrides are refused" -- "$T" --model "$model" --set model.d_model=8
expect_exit 2 "missing input file is a usage error" -- "$T" --model "$model" --input "$WORK/none.txt"
expect_stderr "none.txt" "missing input is named"
expect_exit 2 "a directory as input is a usage error" -- "$T" --model "$model" --input "$WORK"
expect_stderr "directory" "says the input is a directory"
# A directory a trainer is still creating (its lock held, no config.json yet) is refused at once.
# This shell holds the lock as atento-train does (flock on DIR/.lock).
mkdir -p "$WORK/creating"
exec 9>"$WORK/creating/.lock"
flock -n 9 || fail "cannot take the lock of $WORK/creating"
expect_exit 1 "a directory a trainer is still creating is refused" -- "$T" --model "$WORK/creating" \
  </dev/null
expect_stderr "^error: .*creating.*still creating this model" "says a trainer is creating it"
exec 9>&-
expect_exit 1 "once the lock is released it is just not a model directory" -- "$T" \
  --model "$WORK/creating" </dev/null
expect_stderr "not a model directory" "says it is not a model directory"
for bad in "--beam 0" "--beam -2" "--n-best x" "--batch-size 0" "--threads -1" "--force-len -3"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$bad is a usage error" -- "$T" --model "$model" $bad </dev/null
  expect_stderr "must be at least|expected an integer" "$bad is explained plainly"
done
if grep -q "1797693" "$WORK/stderr"; then fail "range messages print no 309-digit bound"; fi
expect_exit 2 "--force-len beyond the model's max_len is a usage error" -- "$T" --model "$model" \
  --force-len 100000 </dev/null
expect_stderr "force-len: must be at most the model's max_len" "names the limit"
expect_exit 1 "output to an unwritable place is an error" -- "$T" --model "$model" --input "$WORK/in.txt" \
  --output /dev/full/out.txt

# A model directory that does not hang together is refused with the file and the reason.
cp -r "$model" "$WORK/mixed"
python3 - "$WORK/mixed/config.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["model"]["tgt_vocab"] += 7
json.dump(config, open(path, "w"))
PY
expect_exit 1 "a tokenizer that disagrees with config.json is an error" -- "$T" --model "$WORK/mixed" </dev/null
expect_stderr "config.json: model.tgt_vocab" "names the file and the key"
python3 - "$WORK/mixed/config.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["model"]["tgt_vocab"] -= 7
config["format_version"] = 99
json.dump(config, open(path, "w"))
PY
expect_exit 2 "a model directory of another format version is refused" -- "$T" --model "$WORK/mixed" </dev/null
expect_stderr "format_version is 99" "names the version"
expect_exit 1 "missing pairs file is an error" -- "$BUILD/atento-eval" --model "$model" \
  --pairs "$WORK/none.tsv"

# --- output files that are not regular files: written in place, never replaced -------------
check_output_kinds "translate --output" -- "$T" --model "$model" --input "$WORK/nb.txt" \
  --output @OUT
check_output_kinds "translate --attention" -- "$T" --model "$model" --input "$WORK/nb.txt" \
  --output "$WORK/att_out.txt" --attention @OUT
check_output_kinds "eval --output" -- "$BUILD/atento-eval" --model "$model" --beam 1 \
  --pairs "$model/valid.tsv" --output @OUT
ln -s /proc/self/fd/1 "$WORK/stdout_link"
"$T" --model "$model" --input "$WORK/nb.txt" --output "$WORK/stdout_link" >"$WORK/via_fd.txt" 2>/dev/null
[ "$(wc -l <"$WORK/via_fd.txt")" = 3 ] && [ -L "$WORK/stdout_link" ] \
  && pass "a link to this process's stdout is written through" || fail "stdout link replaced"
finish
