#!/usr/bin/env bash
# The length-ratio heuristic on a labelled pair file (label<TAB>noise_type<TAB>English<TAB>Spanish,
# e.g. a filter's test_noisy.tsv): score = shorter side / longer side in characters. Prints
# ROC-AUC and the best F1 over all thresholds (chosen on the same file: an upper bound for the
# heuristic), overall and per noise type, as a baseline for atento-filter --evaluate.
# Usage: scripts/length_ratio_baseline.sh runs/filter/test_noisy.tsv
set -euo pipefail
[ $# -eq 1 ] && [ -f "$1" ] || { echo "usage: $0 LABELLED.tsv" >&2; exit 2; }
python3 - "$1" <<'PY'
import sys
rows = []
for line in open(sys.argv[1], encoding="utf-8"):
    label, kind, en, es = line.rstrip("\n").split("\t", 3)
    rows.append((label == "1", kind, min(len(en), len(es)) / max(len(en), len(es), 1)))

def figures(items):
    pos = sum(1 for y, _ in items if y); neg = len(items) - pos
    ranked = sorted(items, key=lambda t: t[1])
    rank_sum, i = 0.0, 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][1] == ranked[i][1]: j += 1
        rank_sum += sum((i + 1 + j) / 2 for y, _ in ranked[i:j] if y); i = j
    auc = (rank_sum - pos * (pos + 1) / 2) / (pos * neg) if pos and neg else float("nan")
    best, tp, kept, k = 0.0, 0, 0, len(ranked)
    while k > 0:  # sweep the threshold down through the distinct scores
        t = ranked[k - 1][1]
        while k > 0 and ranked[k - 1][1] == t:
            tp += ranked[k - 1][0]; kept += 1; k -= 1
        if tp:
            p, r = tp / kept, tp / pos; best = max(best, 2 * p * r / (p + r))
    return len(items), best, auc

print("type              pairs   best F1   ROC-AUC")
kinds = ["all"] + sorted({k for _, k, _ in rows if k != "clean"})
for kind in kinds:
    items = [(y, s) for y, k, s in rows if kind == "all" or k in (kind, "clean")]
    n, f1, auc = figures(items)
    print(f"{kind:<13} {n:9d} {f1:9.4f} {auc:9.4f}")
PY
