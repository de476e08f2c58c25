#!/usr/bin/env bash
# Real text: paragraphs of several sentences on one line, translated with and without sentence
# segmentation, against the same sentences translated one per line and joined; and the same
# paragraphs with curly apostrophes and quotes, in capitals, in lower case and in title case, and
# with emoji and web and e-mail addresses, as documents write them; and the sentences without
# their final punctuation, as search boxes and chat write them (the questions among them also
# scored against their references' "¿…?"); paragraphs that quote their first sentences; the
# sentences as chat writes them (":)", "@tom", "#travel"), with an aside in brackets ("I bought a
# car (it was cheap).") and as list items ("- ", "2. ", "> "); and long sentences (several joined
# with commas and "and"), clause by clause and whole.
#   scripts/bench_real_text.sh [MODEL_DIR [atento-eval flags...]]   (default runs/base)
#   SENTENCES=N: only the first N unseen-source sentences (default: all of them)
# The set: the test split's unseen-source pairs (English never in the model's train.tsv), in
# their order, joined 3 to 6 at a time (seeded) into paragraphs, their references joined the
# same way. Prints BLEU/chrF per row and the sentences translated per paragraph set.
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-runs/base}
shift || true
eval_flags=("$@")  # e.g. --beam 1
[ -f "$model/model.safetensors" ] || [ -f "$model/model.pt" ] ||  # model.pt: older directories
  { echo "error: $model has no trained model" >&2; exit 2; }
out=$model/real_text
mkdir -p "$out"
python3 scripts/real_text_set.py "$model/train.tsv" "$model/test.tsv" "$out" "${SENTENCES:-0}"
eval_json() {  # eval_json NAME PAIRS FLAGS...
  local name=$1 pairs=$2; shift 2
  build/atento-eval --model "$model" --pairs "$pairs" --json "${eval_flags[@]}" "$@" \
    >"$out/$name.json" 2>"$out/$name.err"
}
eval_json sentences "$out/sentences.tsv" --output "$out/sentences.es"
# The sentences' own translations, joined as their paragraphs are.
python3 - "$out/sentences.es" "$out/sizes.txt" "$out/joined.es" <<'PY'
import sys
hyps = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
i, out = 0, open(sys.argv[3], "w", encoding="utf-8")
for n in map(int, open(sys.argv[2])):
    out.write(" ".join(h for h in hyps[i:i + n] if h) + "\n")
    i += n
PY
eval_json joined "$out/paragraphs.tsv" --hyps "$out/joined.es"
eval_json paragraphs "$out/paragraphs.tsv" --output "$out/paragraphs.es"
eval_json paragraphs_whole "$out/paragraphs.tsv" --no-split
eval_json typographic "$out/typographic.tsv" --output "$out/typographic.es"
eval_json capitals "$out/capitals.tsv" --output "$out/capitals.es"
eval_json lower_case "$out/lower_case.tsv" --output "$out/lower_case.es"
eval_json title_case "$out/title_case.tsv" --output "$out/title_case.es"
eval_json verbatim "$out/verbatim.tsv" --output "$out/verbatim.es"
# Its ceiling: each sentence's own translation with the same emoji and addresses added.
python3 scripts/real_text_set.py --verbatim-ceiling "$out"
eval_json verbatim_ceiling "$out/verbatim.tsv" --hyps "$out/verbatim_ceiling.es"
# Scored without their final marks, as the references are: a question's translation keeps its.
eval_json unpunctuated_typed "$out/unpunctuated.tsv" --output "$out/unpunctuated.es"
python3 scripts/real_text_set.py --unpunctuated-ceiling "$out"
python3 -c 'import re, sys; sys.stdout.writelines(re.sub(r"[.!?\u2026]+$", "", l.rstrip("\n")) + "\n"
                                                 for l in open(sys.argv[1], encoding="utf-8"))' \
  "$out/unpunctuated.es" >"$out/unpunctuated.bare.es"
eval_json unpunctuated "$out/unpunctuated.tsv" --hyps "$out/unpunctuated.bare.es"
eval_json unpunctuated_ceiling "$out/unpunctuated.tsv" --hyps "$out/unpunctuated_ceiling.es"
eval_json questions "$out/questions.tsv" --output "$out/questions.es"
python3 scripts/real_text_set.py --questions-ceiling "$out"
eval_json questions_ceiling "$out/questions.tsv" --hyps "$out/questions_ceiling.es"
eval_json quoted "$out/quoted.tsv" --output "$out/quoted.es"
eval_json social "$out/social.tsv" --output "$out/social.es"
python3 scripts/real_text_set.py --social-ceiling "$out"
eval_json social_ceiling "$out/social.tsv" --hyps "$out/social_ceiling.es"
eval_json asides "$out/asides.tsv" --output "$out/asides.es"
python3 scripts/real_text_set.py --asides-ceiling "$model/train.tsv" "$out"
eval_json asides_ceiling "$out/asides.tsv" --hyps "$out/asides_ceiling.es"
eval_json list "$out/list.tsv" --output "$out/list.es"
python3 scripts/real_text_set.py --list-ceiling "$out"
eval_json list_ceiling "$out/list.tsv" --hyps "$out/list_ceiling.es"
eval_json long "$out/long.tsv" --output "$out/long.es"
eval_json long_whole "$out/long.tsv" --set translate.long_sentence_tokens=0
python3 scripts/real_text_set.py --long-ceiling "$model/train.tsv" "$out"
eval_json long_ceiling "$out/long.tsv" --hyps "$out/long_ceiling.es"
# Their ceiling: the plain paragraphs' own translations in capitals, against the same references.
python3 -c 'import sys; sys.stdout.writelines(l.upper() for l in open(sys.argv[1], encoding="utf-8"))' \
  "$out/paragraphs.es" >"$out/paragraphs.upper.es"
eval_json capitals_ceiling "$out/capitals.tsv" --hyps "$out/paragraphs.upper.es"
cut -f1 "$out/paragraphs.tsv" >"$out/paragraphs.en"
build/atento-translate --model "$model" --input "$out/paragraphs.en" --output /dev/null \
  "${eval_flags[@]}" 2>"$out/translate.err" || true
python3 - "$out" <<'PY'
import json, re, sys
d = sys.argv[1]
rows = [("sentences, one per line", "sentences"),
        ("the same, joined per paragraph", "joined"),
        ("paragraphs, sentence by sentence", "paragraphs"),
        ("paragraphs, each line whole (--no-split)", "paragraphs_whole"),
        ("paragraphs, curly apostrophes and quotes", "typographic"),
        ("paragraphs in capitals (references too)", "capitals"),
        ("the plain paragraphs' translations in capitals", "capitals_ceiling"),
        ("paragraphs in lower case", "lower_case"),
        ("paragraphs in title case", "title_case"),
        ("paragraphs with emoji and addresses", "verbatim"),
        ("their sentences' translations with the same added", "verbatim_ceiling"),
        ("sentences without final punctuation (refs too)", "unpunctuated"),
        ("the sentences' translations without theirs", "unpunctuated_ceiling"),
        ("questions without \"?\" (references with it)", "questions"),
        ("the same questions' translations with it", "questions_ceiling"),
        ("paragraphs quoting their first sentences", "quoted"),
        ("sentences with :), @names, #tags (refs too)", "social"),
        ("the sentences' translations with the same", "social_ceiling"),
        ("sentences with an aside in brackets at the end", "asides"),
        ("the two sentences' translations written so", "asides_ceiling"),
        ("list items (\"- \", \"2. \", \"> \"; references too)", "list"),
        ("the sentences' translations after the marker", "list_ceiling"),
        ("long sentences, clause by clause", "long"),
        ("long sentences, whole (long_sentence_tokens=0)", "long_whole"),
        ("their sentences' translations joined so", "long_ceiling")]
print("%-46s %7s %7s %7s" % ("set", "lines", "BLEU", "chrF"))
for label, name in rows:
    r = json.load(open("%s/%s.json" % (d, name)))
    print("%-46s %7d %7.2f %7.2f" % (label, r["sources"], r["bleu"], r["chrf"]))
sentences = sum(int(n) for n in open(d + "/sizes.txt"))
m = re.search(r"translated (\d+) sentences", open(d + "/translate.err").read())
print("source sentences in the paragraphs: %d; pieces translated: %s" % (sentences, m.group(1) if m else "?"))
j, p = (json.load(open("%s/%s.json" % (d, n)))["bleu"] for n in ("joined", "paragraphs"))
print("paragraphs - joined sentences: %+.2f BLEU" % (p - j))
t = json.load(open(d + "/typographic.json"))["bleu"]
curly = sum(1 for l in open(d + "/typographic.tsv", encoding="utf-8") if re.search("[\u2018-\u201d]", l))
differ = sum(a != b for a, b in zip(open(d + "/paragraphs.es", encoding="utf-8"),
                                    open(d + "/typographic.es", encoding="utf-8")))
marks = [l.split("\t")[0].count('"') for l in open(d + "/quoted.tsv", encoding="utf-8")]
kept = sum(m == h.count('"') for m, h in zip(marks, open(d + "/quoted.es", encoding="utf-8")))
print("quoted paragraphs: %d of %d translations keep their quotation marks" % (kept, len(marks)))
markers = [l.rstrip("\n") for l in open(d + "/list.markers", encoding="utf-8")]
kept = sum(h.startswith(m) for m, h in zip(markers, open(d + "/list.es", encoding="utf-8")))
print("list items: %d of %d translations open with their marker" % (kept, len(markers)))
print("curly - straight paragraphs: %+.2f BLEU; %d paragraphs have a curly character, %d translations differ"
      % (t - p, curly, differ))
PY
