#!/usr/bin/env bash
# BLEU and chrF of atento-eval side by side with an independent implementation
# (shared/tools/mtscore.py) and, where Python can import it, sacreBLEU itself.
#   scripts/check_metrics.sh HYPS REFS [REFS...]      score these files (line-aligned; "" lines in
#                                                    a second REFS file mean "no such reference")
#   scripts/check_metrics.sh --pairs PAIRS.tsv HYPS   HYPS has one line per distinct English
#                                                    source of PAIRS (as atento-eval --output and
#                                                    atento-translate on those sources write);
#                                                    every Spanish side of a source is a reference
#   scripts/check_metrics.sh --corpus [TSV [N]]       make N hypotheses (default 10000) from a
#                                                    corpus (default runs/data/spa-eng.tsv) and
#                                                    score them: below
# --corpus: N English sources drawn with a fixed seed; refs1/refs2 = their first and second
# Spanish sides ("" when there is only one); the hypothesis is one of the sides, perturbed as a
# system's output would be (words dropped, swapped, repeated, replaced; case, punctuation,
# numbers, apostrophes and HTML entities changed; a tenth left exact). Files go to $OUT
# (default runs/check_metrics). MTSCORE names the independent scorer (default
# ../shared/tools/mtscore.py); BUILD the build directory (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
mtscore=${MTSCORE:-../shared/tools/mtscore.py}
[ -f "$mtscore" ] || { echo "error: $mtscore: no independent scorer (set MTSCORE)" >&2; exit 2; }
[ -x "$build/atento-eval" ] || { echo "error: $build/atento-eval is not built" >&2; exit 2; }
if [ "${1:-}" = --corpus ]; then
  corpus=${2:-runs/data/spa-eng.tsv}
  n=${3:-10000}
  [ -f "$corpus" ] || { echo "error: $corpus: no corpus (scripts/get_data.sh)" >&2; exit 2; }
  out=${OUT:-runs/check_metrics}
  mkdir -p "$out"
  python3 - "$corpus" "$n" "$out" <<'PY'
import random, sys
corpus, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sides = {}
for line in open(corpus, encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if len(f) >= 2 and f[1].strip():
        sides.setdefault(f[0], []).append(f[1])
rng = random.Random(1337)
sources = rng.sample(sorted(sides), min(n, len(sides)))
vocab = sorted({w for s in sources for ref in sides[s] for w in ref.split()})

def perturb(text):
    words = text.split()
    if rng.random() < 0.1 or not words:
        return text
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(9)
        i = rng.randrange(len(words))
        if k == 0 and len(words) > 1: del words[i]
        elif k == 1 and i + 1 < len(words): words[i], words[i + 1] = words[i + 1], words[i]
        elif k == 2: words.insert(i, words[i])
        elif k == 3: words[i] = rng.choice(vocab)
        elif k == 4: words[i] = words[i].swapcase()
        elif k == 5: words[i] = words[i].rstrip(".,!?") or words[i]
        elif k == 6: words.insert(i, rng.choice(["3.5", "1,000", "10-12", "l'eau", "(sí)", "&amp;", "\"no\""]))
        elif k == 7: words[i] += rng.choice([",", ".", "?", "!", ";", ":"])
        else: words[i] = words[i].lower()
    return " ".join(words)

with open(f"{out}/hyps.es", "w", encoding="utf-8") as h, \
     open(f"{out}/refs1.es", "w", encoding="utf-8") as r1, \
     open(f"{out}/refs2.es", "w", encoding="utf-8") as r2:
    for s in sources:
        refs = sides[s]
        h.write(perturb(rng.choice(refs)) + "\n")
        r1.write(refs[0] + "\n")
        r2.write((refs[1] if len(refs) > 1 else "") + "\n")
PY
  set -- "$out/hyps.es" "$out/refs1.es" "$out/refs2.es"
fi
if [ "${1:-}" = --pairs ]; then
  [ $# = 3 ] && [ -f "$2" ] && [ -f "$3" ] || { echo "error: --pairs PAIRS.tsv HYPS" >&2; exit 2; }
  out=${OUT:-runs/check_metrics}
  mkdir -p "$out"
  # refsK.es: the K-th Spanish side of each distinct source, "" when it has fewer.
  k=$(python3 - "$2" "$out" <<'PY'
import sys
order, sides = [], {}
for line in open(sys.argv[1], encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if len(f) < 2:
        continue
    if f[0] not in sides:
        order.append(f[0])
        sides[f[0]] = []
    sides[f[0]].append(f[1])
k = max(len(v) for v in sides.values())
for j in range(k):
    with open(f"{sys.argv[2]}/refs{j + 1}.es", "w", encoding="utf-8") as out:
        out.writelines((sides[s][j] if j < len(sides[s]) else "") + "\n" for s in order)
print(k)
PY
  )
  hyps=$3
  refs=()
  for j in $(seq 1 "$k"); do refs+=("$out/refs$j.es"); done
  set -- "$hyps" "${refs[@]}"
fi
[ $# -ge 2 ] || { sed -n 2,19p "$0" >&2; exit 2; }
hyps=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
refs_flags=()
for r in "$@"; do refs_flags+=(--refs "$r"); done
"$build/atento-eval" --hyps "$hyps" "${refs_flags[@]}" --json --per-sentence "$tmp/sent.tsv" \
  >"$tmp/chrf.json"
"$build/atento-eval" --hyps "$hyps" "${refs_flags[@]}" --json --chrf-word-order 2 \
  --per-sentence "$tmp/sent_pp.tsv" >"$tmp/chrfpp.json"
python3 - "$mtscore" "$tmp" "$hyps" "$@" <<'PY'
import importlib.util, json, sys
mtscore_path, tmp, hyps_path, ref_paths = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
spec = importlib.util.spec_from_file_location("mtscore", mtscore_path)
mtscore = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mtscore)
hyps = open(hyps_path, encoding="utf-8").read().splitlines()
refs = [open(p, encoding="utf-8").read().splitlines() for p in ref_paths]
# Empty references are "no reference" (sacreBLEU's padding), for every scorer alike.
refsets = [[r for r in rs if r] for rs in zip(*refs)]
a = json.load(open(f"{tmp}/chrf.json"))
app = json.load(open(f"{tmp}/chrfpp.json"))
rows = [("BLEU", a["bleu"], mtscore.bleu(hyps, refsets)),
        ("chrF2", a["chrf"], mtscore.chrf(hyps, refsets)),
        ("chrF2++", app["chrf"], None)]
sent = [tuple(map(float, l.split("\t"))) for l in open(f"{tmp}/sent.tsv")]
sent_pp = [tuple(map(float, l.split("\t"))) for l in open(f"{tmp}/sent_pp.tsv")]
sacre = None
try:
    import sacrebleu
    from sacrebleu.metrics import BLEU, CHRF
    streams = [[rs[k] if k < len(rs) else None for rs in refsets]
               for k in range(max(len(rs) for rs in refsets))]
    sacre = {"BLEU": BLEU().corpus_score(hyps, streams).score,
             "chrF2": CHRF().corpus_score(hyps, streams).score,
             "chrF2++": CHRF(word_order=2).corpus_score(hyps, streams).score}
    sb, cf, cpp = BLEU(effective_order=True), CHRF(), CHRF(word_order=2)
    worst = [0.0, 0.0, 0.0]
    for i, (h, rs) in enumerate(zip(hyps, refsets)):
        worst[0] = max(worst[0], abs(sb.sentence_score(h, rs).score - sent[i][0]))
        worst[1] = max(worst[1], abs(cf.sentence_score(h, rs).score - sent[i][1]))
        worst[2] = max(worst[2], abs(cpp.sentence_score(h, rs).score - sent_pp[i][1]))
except ImportError:
    pass
print(f"{len(hyps)} sentences, {a['bleu_signature'].split('|')[0]}; {hyps_path} against {' '.join(ref_paths)}")
print("%-8s %12s %12s %9s" % ("metric", "atento-eval", "mtscore.py", "diff") +
      ("  %12s %9s" % ("sacreBLEU", "diff") if sacre else ""))
for name, ours, theirs in rows:
    line = "%-8s %12.4f " % (name, ours)
    line += "%12.4f %9.4f" % (theirs, ours - theirs) if theirs is not None else "%12s %9s" % ("-", "-")
    if sacre:
        line += "  %12.4f %9.4f" % (sacre[name], ours - sacre[name])
    print(line)
if sacre:
    print("per sentence, largest |atento - sacreBLEU| (4 decimals written): sentence BLEU %.4f, "
          "chrF2 %.4f, chrF2++ %.4f" % tuple(worst))
PY
