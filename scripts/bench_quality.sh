#!/usr/bin/env bash
# Translation quality against the rule-based Apertium system, side by side, same sentences,
# same scorer (atento-eval: sacreBLEU-style BLEU and chrF).
#   scripts/bench_quality.sh [MODEL_DIR [atento-eval flags...]]   (default runs/base)
# Scores the model's test split and the subsets atento-eval reports (below).
# Needs Debian's apertium-eng-spa (installed here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-runs/base}
shift || true
eval_flags=("$@")  # e.g. --beam 1
[ -f "$model/model.safetensors" ] || [ -f "$model/model.pt" ] ||  # model.pt: older directories
  { echo "error: $model has no trained model" >&2; exit 2; }
# (grep without -q reads to the end: -q could stop apertium with SIGPIPE, a failure under pipefail)
if ! command -v apertium >/dev/null || ! apertium -l 2>/dev/null | grep eng-spa >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq --no-install-recommends apertium-eng-spa >/dev/null
fi
out=$model/quality
mkdir -p "$out"
pairs=$model/test.tsv
# Distinct English sources in first-occurrence order, as atento-eval expects translations.
awk -F'\t' '!seen[$1]++ {print $1}' "$pairs" >"$out/test.en"
apertium -u eng-spa <"$out/test.en" >"$out/apertium.es"
build/atento-eval --model "$model" --pairs "$pairs" --json --output "$out/atento.es" "${eval_flags[@]}" \
  >"$out/atento.json"
build/atento-eval --model "$model" --pairs "$pairs" --json --hyps "$out/apertium.es" "${eval_flags[@]}" \
  >"$out/apertium.json"
# The subsets (atento-eval): unseen = the English source never occurs in the model's train.tsv;
# new_rare / new_long = neither side occurs in training and the source holds a word seen at most
# twice there / is longer than training's median. short = outputs under half the words their
# source predicts (likely omissions); refs = the same share among the references.
python3 - "$out/atento.json" "$out/apertium.json" <<'PY'
import json, sys
rows = [("atento", json.load(open(sys.argv[1]))), ("apertium", json.load(open(sys.argv[2])))]
print("%-10s %-9s %7s %8s %7s %7s %7s %7s" % ("system", "subset", "pairs", "sources", "BLEU", "chrF", "short%", "refs%"))
for subset in ("test", "unseen", "new_rare", "new_long"):
    for name, r in rows:
        f = r if subset == "test" else r[subset]
        print("%-10s %-9s %7d %8d %7.2f %7.2f %7.2f %7.2f" % (name, subset, f["pairs"], f["sources"], f["bleu"],
              f["chrf"], 100 * f["short_outputs"], 100 * f["short_references"]))
gap = rows[0][1]["unseen"]["bleu"] - rows[1][1]["unseen"]["bleu"]
print("BLEU gap on unseen sources (atento - apertium): %+.2f" % gap)
PY
