#!/usr/bin/env python3
"""The real-text sets of scripts/bench_real_text.sh and scripts/bench_html.sh.

real_text_set.py TRAIN.tsv TEST.tsv OUT_DIR SENTENCES: the test split's unseen-source pairs
(English never in TRAIN), in their order (the first SENTENCES when > 0), written to
OUT_DIR/sentences.tsv, and joined 3 to 6 at a time (seeded) into OUT_DIR/paragraphs.tsv, their
references joined the same way; OUT_DIR/sizes.txt: the sentences of each paragraph;
OUT_DIR/typographic.tsv: the paragraphs with the English in a word processor's punctuation
(apostrophes and quotes curly, as web pages and documents have them; the corpus has straight ones);
OUT_DIR/capitals.tsv: the paragraphs written in capitals, their references too (headings,
warnings, shouting); OUT_DIR/lower_case.tsv: the paragraphs' English in lower case (chat, search
boxes, speech recognisers); OUT_DIR/title_case.tsv: each sentence's English in title case, as
headings are written (every word capitalised but articles, conjunctions and short prepositions).
The references of the last two are the plain paragraphs' own.
"""
import random, re, sys


def typographic(text):
    """Straight quotes and apostrophes made curly: an opening one after a space or bracket."""
    text = re.sub(r'(^|[\s(\[])"', "\\1\u201c", text)
    text = re.sub(r"(^|[\s(\[])'", "\\1\u2018", text)
    return text.replace('"', "\u201d").replace("'", "\u2019")


MINOR = {"a", "an", "the", "and", "but", "or", "nor", "for", "of", "in", "on", "at", "to", "by",
         "up", "as"}


def title_case(sentence):
    """Each word capitalised but the minor ones after the first ("Where Is the Station?")."""
    words = sentence.split(" ")
    return " ".join(w if i > 0 and w.lower() in MINOR else w[:1].upper() + w[1:]
                    for i, w in enumerate(words))


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
     open(sys.argv[3] + "/sizes.txt", "w") as z, \
     open(sys.argv[3] + "/typographic.tsv", "w", encoding="utf-8") as t, \
     open(sys.argv[3] + "/capitals.tsv", "w", encoding="utf-8") as c, \
     open(sys.argv[3] + "/lower_case.tsv", "w", encoding="utf-8") as lc, \
     open(sys.argv[3] + "/title_case.tsv", "w", encoding="utf-8") as tc:
    for en, es in pairs:
        s.write(en + "\t" + es + "\n")
    while i < len(pairs):
        n = rng.randint(3, 6)
        group = pairs[i:i + n]
        en, es = " ".join(e for e, _ in group), " ".join(ref for _, ref in group)
        p.write(en + "\t" + es + "\n")
        t.write(typographic(en) + "\t" + es + "\n")
        c.write(en.upper() + "\t" + es.upper() + "\n")
        lc.write(en.lower() + "\t" + es + "\n")
        tc.write(" ".join(title_case(e) for e, _ in group) + "\t" + es + "\n")
        z.write("%d\n" % len(group))
        i += n
