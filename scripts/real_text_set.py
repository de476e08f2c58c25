#!/usr/bin/env python3
"""The real-text sets of scripts/bench_real_text.sh and scripts/bench_html.sh.

real_text_set.py TRAIN.tsv TEST.tsv OUT_DIR SENTENCES: the test split's unseen-source pairs
(English never in TRAIN), in their order (the first SENTENCES when > 0), written to
OUT_DIR/sentences.tsv, and joined 3 to 6 at a time (seeded) into OUT_DIR/paragraphs.tsv, their
references joined the same way; OUT_DIR/sizes.txt: the sentences of each paragraph.
"""
import random, sys
train = {l.split("\t")[0] for l in open(sys.argv[1], encoding="utf-8")}
seen, pairs = set(), []
for line in open(sys.argv[2], encoding="utf-8"):
    en, es = line.rstrip("\n").split("\t")[:2]
    if en in train or en in seen:
        continue
    seen.add(en)
    pairs.append((en, es))
if int(sys.argv[4]) > 0:
    pairs = pairs[:int(sys.argv[4])]
rng, i = random.Random(1337), 0
with open(sys.argv[3] + "/sentences.tsv", "w", encoding="utf-8") as s, \
     open(sys.argv[3] + "/paragraphs.tsv", "w", encoding="utf-8") as p, \
     open(sys.argv[3] + "/sizes.txt", "w") as z:
    for en, es in pairs:
        s.write(en + "\t" + es + "\n")
    while i < len(pairs):
        n = rng.randint(3, 6)
        group = pairs[i:i + n]
        p.write(" ".join(e for e, _ in group) + "\t" + " ".join(t for _, t in group) + "\n")
        z.write("%d\n" % len(group))
        i += n
