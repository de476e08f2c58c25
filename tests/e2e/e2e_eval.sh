#!/usr/bin/env bash
# atento-eval without a model: --hyps against --refs, signatures, chrF++, per-sentence scores,
# paired bootstrap resampling, and the errors of that mode. Needs no trained model.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
E="$BUILD/atento-eval"

# References: the sample corpus's Spanish sides; a good system (the references, a few words
# dropped) and a poor one (most sentences cut to their first two words).
cut -f2 data/sample/sample.tsv | head -400 >"$WORK/refs.es"
python3 - "$WORK/refs.es" "$WORK/good.es" "$WORK/poor.es" <<'PY'
import sys
refs = open(sys.argv[1], encoding="utf-8").read().splitlines()
good = [" ".join(r.split()[1:]) if i % 7 == 0 else r for i, r in enumerate(refs)]
poor = [" ".join(r.split()[:2]) if i % 3 else r for i, r in enumerate(refs)]
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(good) + "\n")
open(sys.argv[3], "w", encoding="utf-8").write("\n".join(poor) + "\n")
PY
n=$(wc -l <"$WORK/refs.es")

# --- scoring without a model ---------------------------------------------------------------------
expect_exit 0 "scores a translation file against references without a model" -- "$E" \
  --hyps "$WORK/good.es" --refs "$WORK/refs.es"
grep -qE '^BLEU\|nrefs:1\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:atento-[0-9.]+ = [0-9.]+' \
  "$WORK/stdout" && pass "the table carries the BLEU signature" || fail "no BLEU signature line"
grep -qE '^chrF2\|nrefs:1\|case:mixed\|eff:yes\|nc:6\|nw:0\|space:no\|version:atento-' "$WORK/stdout" \
  && pass "the table carries the chrF signature" || fail "no chrF signature line"
expect_exit 0 "references scored against themselves" -- "$E" --hyps "$WORK/refs.es" \
  --refs "$WORK/refs.es" --json --chrf-word-order 2
python3 - "$WORK/stdout" "$n" <<'PY' && pass "identical text: BLEU and chrF++ 100, signatures in the JSON" \
  || fail "JSON of an identical system"
import json, sys
r = json.load(open(sys.argv[1]))
assert abs(r["bleu"] - 100) < 1e-9 and abs(r["chrf"] - 100) < 1e-9, r
assert r["sentences"] == int(sys.argv[2]) and r["chrf_name"] == "chrF2++", r
assert "|nw:2|" in r["chrf_signature"] and r["bleu_signature"].startswith("nrefs:1|"), r
PY

# Several reference files: "" lines are "no reference here"; nrefs says how many.
awk 'NR % 2 {print; next} {print ""}' "$WORK/good.es" >"$WORK/refs2.es"
expect_exit 0 "several --refs files" -- "$E" --hyps "$WORK/good.es" --refs "$WORK/refs.es" \
  "$WORK/refs2.es" --json
python3 - "$WORK/stdout" <<'PY' && pass "nrefs:var when lines have 1 or 2 references" || fail "nrefs"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["bleu_signature"].startswith("nrefs:var|") and r["refs"][1].endswith("refs2.es"), r
PY

# --- per-sentence scores -------------------------------------------------------------------------
expect_exit 0 "writes per-sentence scores" -- "$E" --hyps "$WORK/poor.es" --refs "$WORK/refs.es" \
  --per-sentence "$WORK/sent.tsv"
[ "$(wc -l <"$WORK/sent.tsv")" = "$n" ] && pass "one per-sentence line per hypothesis" \
  || fail "$(wc -l <"$WORK/sent.tsv") per-sentence lines for $n hypotheses"
awk -F'\t' 'NF != 2 || $1 < 0 || $1 > 100 || $2 < 0 || $2 > 100 {bad = 1} END {exit bad}' \
  "$WORK/sent.tsv" && pass "per-sentence lines are BLEU<TAB>chrF in [0, 100]" || fail "per-sentence format"
[ "$(sed -n 1p "$WORK/sent.tsv")" = "100.0000	100.0000" ] \
  && pass "an exact sentence scores 100 and 100" || fail "line 1: $(sed -n 1p "$WORK/sent.tsv")"

# --- paired bootstrap ----------------------------------------------------------------------------
pbs() { "$E" --hyps "$WORK/poor.es" --refs "$WORK/refs.es" --json --paired-bs "$@"; }
pbs "$WORK/good.es" >"$WORK/pbs1.json" 2>"$WORK/stderr" && pbs "$WORK/good.es" >"$WORK/pbs2.json" \
  && pbs "$WORK/good.es" --bs-seed 7 >"$WORK/pbs3.json" && pbs "$WORK/poor.es" >"$WORK/self.json" \
  && pass "paired bootstrap runs" || fail "paired bootstrap: $(cat "$WORK/stderr")"
python3 - "$WORK"/pbs1.json "$WORK"/pbs2.json "$WORK"/pbs3.json "$WORK"/self.json <<'PY' \
  && pass "bootstrap: reproducible on a seed; a better system significant, itself not" \
  || fail "bootstrap figures"
import json, sys
a, b, c, s = (json.load(open(p))["paired_bs"] for p in sys.argv[1:])
assert a == b, "same seed, different figures"
assert a["resamples"] == 1000 and a["seed"] == 12345 and c["seed"] == 7
for m in ("bleu", "chrf"):
    assert a[m]["system"]["mean"] != c[m]["system"]["mean"], "another seed, same draws"
    assert a[m]["p_value"] < 0.01 and a[m]["significant"], a[m]
    assert a[m]["system"]["score"] > a[m]["baseline"]["score"]
    assert s[m]["p_value"] == 1.0 and not s[m]["significant"], s[m]
    assert "|bs:1000|seed:12345|" in a[m]["signature"], a[m]["signature"]
PY
expect_exit 0 "paired bootstrap as a table" -- "$E" --hyps "$WORK/poor.es" --refs "$WORK/refs.es" \
  --paired-bs "$WORK/good.es" --paired-bs-n 200
grep -qE "^  system .*good\.es  p = 0\.[0-9]{4} \*$" "$WORK/stdout" \
  && pass "the table marks the significant difference" || fail "paired table"

# --- errors --------------------------------------------------------------------------------------
head -n $((n - 1)) "$WORK/refs.es" >"$WORK/short.es"
expect_exit 1 "hypotheses and references of different lengths" -- "$E" --hyps "$WORK/good.es" \
  --refs "$WORK/short.es"
expect_stderr "^error: .*good\.es has $n lines but .*short\.es has $((n - 1))" \
  "the error names both files and both counts"
head -n $((n - 1)) "$WORK/good.es" >"$WORK/good_short.es"
expect_exit 1 "a --paired-bs file of another length" -- pbs "$WORK/good_short.es"
expect_stderr "good_short\.es has $((n - 1)) lines but .*poor\.es has $n" "names both files"
printf 'uno\ndos\n' >"$WORK/two.es"
printf 'uno\n\n' >"$WORK/gap.es"
expect_exit 1 "an empty reference line" -- "$E" --hyps "$WORK/two.es" --refs "$WORK/gap.es"
expect_stderr "^error: .*gap\.es:2: empty reference" "names the file and the line"
expect_exit 2 "nothing to evaluate" -- "$E"
expect_stderr "^error: nothing to evaluate" "says what to give"
expect_exit 2 "--refs without --hyps" -- "$E" --refs "$WORK/refs.es"
expect_exit 2 "--beam needs a model" -- "$E" --hyps "$WORK/good.es" --refs "$WORK/refs.es" --beam 2
expect_exit 2 "--bs-seed needs --paired-bs" -- "$E" --hyps "$WORK/good.es" --refs "$WORK/refs.es" \
  --bs-seed 3
expect_exit 2 "a negative seed" -- "$E" --hyps "$WORK/good.es" --refs "$WORK/refs.es" \
  --paired-bs "$WORK/good.es" --bs-seed -1
expect_exit 2 "a missing hypothesis file" -- "$E" --hyps "$WORK/none.es" --refs "$WORK/refs.es"
expect_exit 1 "an unwritable per-sentence file" -- "$E" --hyps "$WORK/good.es" \
  --refs "$WORK/refs.es" --per-sentence /dev/full/x.tsv

finish
