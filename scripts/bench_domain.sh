#!/usr/bin/env bash
# Domain adaptation: a general model that never saw a domain, adapted to it from a few thousand
# in-domain pairs, against the same pairs trained from scratch.
#   scripts/bench_domain.sh CORPUS [OUT]          (OUT default runs/domain)
#   GENERAL_STEPS=N  optimiser steps of the general model (default 3000)
#   ADAPT_STEPS=N    optimiser steps of each in-domain run, the same for all three (default 400)
#   TRAIN_FLAGS="..." extra atento-train flags for every run (e.g. "--threads 2"), before each
#                    run's own settings (which win where both set a key)
#   EVAL_FLAGS="..."  extra atento-eval flags (e.g. "--beam 1")
#   FINETUNE_LR=X    peak learning rate of the two fine-tuning runs (default: base.json's, 2e-3);
#                    they are then named finetuned-lrX and replay-lrX, and the from-scratch run
#                    keeps base.json's rate (the best one for training from nothing)
# The domain: food and drink, every pair whose English side names a food, a drink, a meal or
# eating (a keyword list below; ~4% of spa-eng), grouped by English sentence so that no source
# is in two sets: 1,000 sources are the in-domain test set, the rest adapt. The general model
# trains on every other pair (configs/base.json, its own split); its test split, less the
# sources it trained on, is the general test set (1,000 sources).
# Runs (the in-domain ones from the same pairs, steps, warm-up and learning rate): the general
# model; fine-tuned from it (--init-from); fine-tuned with replay (half of each batch's pairs
# from the general training split); trained from scratch on the in-domain pairs alone.
# Prints in-domain and general BLEU/chrF (beam 4 unless EVAL_FLAGS) for each; writes OUT/results.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:?usage: scripts/bench_domain.sh CORPUS [OUT]}
out=${2:-runs/domain}
general_steps=${GENERAL_STEPS:-3000}
adapt_steps=${ADAPT_STEPS:-400}
finetune_lr=${FINETUNE_LR:-}
tuned=finetuned${finetune_lr:+-lr$finetune_lr}
replayed=replay${finetune_lr:+-lr$finetune_lr}
lr_flags=()
[ -z "$finetune_lr" ] || lr_flags=(--set train.lr="$finetune_lr")
read -r -a flags <<<"${TRAIN_FLAGS:-}"
read -r -a eval_flags <<<"${EVAL_FLAGS:-}"
[ -f "$corpus" ] || { echo "error: no corpus $corpus" >&2; exit 2; }
mkdir -p "$out"
python3 - "$corpus" "$out" <<'PY'
import random, re, sys
corpus, out = sys.argv[1], sys.argv[2]
FOOD = re.compile(r"\b(eat|eats|ate|eaten|eating|food|foods|cook|cooks|cooked|cooking|dinner|"
                  r"lunch|breakfast|restaurant|apple|apples|bread|meat|fish|coffee|tea|soup|cake|"
                  r"milk|egg|eggs|vegetables|fruit|sugar|rice|cheese|wine|beer|hungry|delicious|"
                  r"meal|meals|kitchen|pizza|chicken|salad)\b", re.I)
pairs = [l.rstrip("\n").split("\t") for l in open(corpus, encoding="utf-8")]
pairs = [p[:2] for p in pairs if len(p) >= 2 and p[0] and p[1]]
domain, general = {}, []
for en, es in pairs:
    if FOOD.search(en): domain.setdefault(en, []).append(es)
    else: general.append((en, es))
sources = sorted(domain)
random.Random(1337).shuffle(sources)
def write(name, srcs):
    with open(f"{out}/{name}", "w", encoding="utf-8") as f:
        for en in srcs:
            for es in domain[en]: f.write(f"{en}\t{es}\n")
write("domain_test.tsv", sources[:1000])
write("domain_valid.tsv", sources[1000:1300])
write("domain_train.tsv", sources[1300:])
with open(f"{out}/general.tsv", "w", encoding="utf-8") as f:
    for en, es in general: f.write(f"{en}\t{es}\n")
print(f"domain: {sum(map(len, domain.values()))} pairs ({len(sources)} sources): test 1000 "
      f"sources, valid 300, adapt {len(sources) - 1300}; general corpus {len(general)} pairs",
      file=sys.stderr)
PY
train() {  # train NAME FLAGS...: trains OUT/NAME unless it holds a finished model
  local name=$1; shift
  [ -f "$out/$name/done" ] && return 0
  echo "training $name" >&2
  build/atento-train --config configs/base.json --out "$out/$name" \
    --set train.time_budget_minutes=0 "${flags[@]}" "$@" 2>"$out/$name.err" >/dev/null \
    || { tail -5 "$out/$name.err" >&2; exit 1; }
  touch "$out/$name/done"
}
train general --set data.corpus="$out/general.tsv" --set train.max_steps="$general_steps" \
  --set train.warmup_steps=$((general_steps < 4000 ? general_steps / 10 : 400))
# The general test set: the general model's test split, less the sources it trained on.
python3 - "$out/general/train.tsv" "$out/general/test.tsv" "$out/general_test.tsv" <<'PY'
import random, sys
seen = {l.split("\t")[0] for l in open(sys.argv[1], encoding="utf-8")}
test = {}
for l in open(sys.argv[2], encoding="utf-8"):
    en, es = l.rstrip("\n").split("\t")[:2]
    if en not in seen: test.setdefault(en, []).append(es)
keep = sorted(test)
random.Random(1337).shuffle(keep)
with open(sys.argv[3], "w", encoding="utf-8") as f:
    for en in keep[:1000]:
        for es in test[en]: f.write(f"{en}\t{es}\n")
PY
adapt=(--set data.train_file="$out/domain_train.tsv" --set data.valid_file="$out/domain_valid.tsv"
       --set data.test_file="$out/domain_test.tsv" --set train.max_steps="$adapt_steps"
       --set train.warmup_steps=$((adapt_steps / 10)) --set train.eval_every_steps=$((adapt_steps / 4))
       --set train.max_epochs=0 --set train.patience=0)
train "$tuned" --init-from "$out/general" "${adapt[@]}" "${lr_flags[@]}"
train "$replayed" --init-from "$out/general" "${adapt[@]}" "${lr_flags[@]}" \
  --set data.replay_corpus="$out/general/train.tsv" --set data.replay_fraction=0.5
# From scratch: its own tokenizer, sized for a few thousand pairs.
train scratch "${adapt[@]}" --set tokenizer.vocab_size=2000
score() {  # score MODEL PAIRS -> "BLEU chrF"
  build/atento-eval --model "$1" --pairs "$2" --json "${eval_flags[@]}" 2>/dev/null |
    python3 -c 'import json, sys; r = json.load(sys.stdin); print("%.2f %.2f" % (r["bleu"], r["chrf"]))'
}
{
  printf 'model\tin-domain BLEU\tin-domain chrF\tgeneral BLEU\tgeneral chrF\n'
  for name in general "$tuned" "$replayed" scratch; do
    read -r db dc <<<"$(score "$out/$name" "$out/domain_test.tsv")"
    read -r gb gc <<<"$(score "$out/$name" "$out/general_test.tsv")"
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$db" "$dc" "$gb" "$gc"
  done
} | tee "$out/results.tsv" | column -t -s $'\t'
