#!/usr/bin/env bash
# Translation quality against the rule-based Apertium system, side by side, same sentences,
# same scorer (atento-eval: sacreBLEU-style BLEU and chrF).
#   scripts/bench_quality.sh [MODEL_DIR]      (default runs/base)
# Scores the model's test split, and its subset whose English source never occurs in training.
# Needs Debian's apertium-eng-spa (installed here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-runs/base}
[ -f "$model/model.pt" ] || { echo "error: $model has no trained model" >&2; exit 2; }
if ! command -v apertium >/dev/null || ! apertium -l 2>/dev/null | grep -q eng-spa; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq --no-install-recommends apertium-eng-spa >/dev/null
fi
out=$model/quality
mkdir -p "$out"
# The unseen subset: test pairs whose English source is not among the training sources.
python3 - "$model/train.tsv" "$model/test.tsv" "$out/unseen.tsv" <<'PY'
import sys
seen = {l.split("\t")[0] for l in open(sys.argv[1], encoding="utf-8")}
with open(sys.argv[3], "w", encoding="utf-8") as f:
    for l in open(sys.argv[2], encoding="utf-8"):
        if l.split("\t")[0] not in seen:
            f.write(l)
PY
printf '%-10s %-8s %7s %8s %7s %7s\n' system subset pairs sources BLEU chrF
for subset in test unseen; do
  pairs=$model/test.tsv; [ "$subset" = unseen ] && pairs=$out/unseen.tsv
  # distinct English sources in first-occurrence order, as atento-eval expects
  awk -F'\t' '!seen[$1]++ {print $1}' "$pairs" >"$out/$subset.en"
  apertium -u eng-spa <"$out/$subset.en" >"$out/$subset.apertium.es"
  for system in atento apertium; do
    flags=(--hyps "$out/$subset.$system.es")
    [ "$system" = apertium ] && flags=(--translations "$out/$subset.apertium.es")
    build/atento-eval --model "$model" --pairs "$pairs" --json "${flags[@]}" >"$out/$subset.$system.json"
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('%-10s %-8s %7d %8d %7.2f %7.2f' % (sys.argv[2], sys.argv[3], r['pairs'], r['sources'], r['bleu'], r['chrf']))" \
      "$out/$subset.$system.json" "$system" "$subset"
  done
done
