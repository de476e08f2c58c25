#!/usr/bin/env bash
# The main job: build, data, train, translate, evaluate.
#   scripts/run.sh                 real corpus if present or downloadable, else the sample corpus
#   scripts/run.sh PATH            real corpus from a local spa-eng.zip or TSV
#   scripts/run.sh --sample        the project's own sample corpus (offline, a few minutes)
# Extra atento-train settings can follow: scripts/run.sh --sample --set train.max_epochs=5
set -euo pipefail
cd "$(dirname "$0")/.."

source_arg=""
mode="auto"
if [ $# -gt 0 ] && [ "$1" = "--sample" ]; then mode="sample"; shift
elif [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then source_arg="$1"; mode="real"; shift
fi

scripts/setup.sh

if [ "$mode" = "real" ]; then
  scripts/get_data.sh "$source_arg"
elif [ "$mode" = "auto" ]; then
  if [ -s runs/data/spa-eng.tsv ] || scripts/get_data.sh 2>/dev/null; then mode="real"
  else echo "run: the public corpus is not available (offline?); using the sample corpus"; mode="sample"
  fi
fi

if [ "$mode" = "real" ]; then
  config=configs/base.json; out=runs/base
  extra=(--set data.corpus=runs/data/spa-eng.tsv)
else
  config=configs/sample.json; out=runs/sample
  extra=()
fi

echo "== train ($config → $out)"
build/atento-train --config "$config" --out "$out" "${extra[@]}" "$@"

echo "== translate"
examples=runs/examples.en.txt
cat > "$examples" <<'TXT'
Good morning.
Where is the train station?
I would like a cup of coffee, please.
My sister lives in Madrid.
Tom doesn't want to go to school today.
TXT
build/atento-translate --model "$out" --input "$examples" --output runs/examples.es.txt
paste "$examples" runs/examples.es.txt | sed 's/\t/  →  /'

echo "== evaluate ($out/test.tsv)"
build/atento-eval --model "$out" --pairs "$out/test.tsv" --output "$out/test.hyp.es.txt" \
  | tee "$out/eval.txt"

echo
echo "model:        $out (config.json, model.safetensors, tokenizers, log.jsonl)"
echo "translations: runs/examples.es.txt, $out/test.hyp.es.txt"
echo "metrics:      $out/eval.txt"
