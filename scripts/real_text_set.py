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
The references of the last two are the plain paragraphs' own. OUT_DIR/verbatim.tsv: the
paragraphs with emoji before or after some sentences' final punctuation and web or e-mail
addresses in brackets after some ("I'm hungry 😋.", "Call me. (tom.12@example.com)"), their
references with the same at the same places; OUT_DIR/verbatim.ops: per sentence, what was added
(the sentence's translation with the same added is the ceiling of that row).
OUT_DIR/unpunctuated.tsv: the sentences, one per line, without their final punctuation, their
references too (search boxes, chat, headings: "where is the station").
OUT_DIR/long.tsv: long sentences, as documents have them and the corpus does not: runs of 2 to
4 consecutive sentences that end with a full stop joined into one with commas and a final "and"
("I missed the bus, it rained, and Tom left."), their references with commas and "y";
OUT_DIR/long.groups: the sentences (lines of sentences.tsv, from 0) in each.
OUT_DIR/list.tsv: the sentences, one per line, as the items of lists, e-mail quotes and
headings ("- Call Tom.", "2. Wash the dishes", "> Where is it?"), their references with the same
marker; OUT_DIR/list.markers: each line's marker. OUT_DIR/social.tsv: the sentences, one per
line, as chat and social networks write them: each with an emoticon after it (":)", "<3"), an
@name before it or a #tag after it, its reference with the same; OUT_DIR/social.ops: what each got.
real_text_set.py --verbatim-ceiling OUT_DIR: that ceiling, from OUT_DIR/sentences.es;
real_text_set.py --long-ceiling TRAIN.tsv OUT_DIR: OUT_DIR/long_ceiling.es, the sentences' own
translations joined as their long sentences are;
OUT_DIR/asides.tsv: pairs of sentences, the second an aside in brackets at the end of the first
("I bought a car (it was cheap)."); OUT_DIR/asides.pairs: the sentences of each.
real_text_set.py --asides-ceiling TRAIN.tsv OUT_DIR: OUT_DIR/asides_ceiling.es, the sentences'
own translations written so;
real_text_set.py --social-ceiling OUT_DIR: OUT_DIR/social_ceiling.es, the sentences' own
translations with the same added;
real_text_set.py --list-ceiling OUT_DIR: OUT_DIR/list_ceiling.es, the sentences' own
translations with their markers;
real_text_set.py --unpunctuated-ceiling OUT_DIR: OUT_DIR/unpunctuated_ceiling.es, the
sentences' own translations (OUT_DIR/sentences.es) without their final punctuation.
"""
import random, re, sys


def typographic(text):
    """Straight quotes and apostrophes made curly: an opening one after a space or bracket."""
    text = re.sub(r'(^|[\s(\[])"', "\\1\u201c", text)
    text = re.sub(r"(^|[\s(\[])'", "\\1\u2018", text)
    return text.replace('"', "\u201d").replace("'", "\u2019")


MINOR = {"a", "an", "the", "and", "but", "or", "nor", "for", "of", "in", "on", "at", "to", "by",
         "up", "as"}


EMOJI = ["\U0001F600", "\U0001F602", "\U0001F44D", "\u2764\uFE0F", "\U0001F64F", "\U0001F622",
         "\U0001F389", "\U0001F1EA\U0001F1F8", "\U0001F468\u200D\U0001F469\u200D\U0001F467"]


def verbatim_op(rng, n):
    """What sentence n gets: ("", "") for nothing, ("inside", emoji) before its final
    punctuation, ("after", text) after it."""
    r = rng.random()
    if r < 0.2:
        return ("inside", rng.choice(EMOJI))
    if r < 0.35:
        return ("after", rng.choice(EMOJI))
    if r < 0.45:
        return ("after", "(https://example.org/notes/%d?lang=en)" % n)
    if r < 0.5:
        return ("after", "(tom.%d@example.com)" % n)
    return ("", "")


EMOTICONS = [":)", ":-)", ";)", ":(", ":D", "<3", ":P"]


def social_op(rng):
    """What a sentence of the social set gets: an emoticon after it, an @name before it or a
    #tag after it."""
    r = rng.random()
    if r < 0.5:
        return ("after", rng.choice(EMOTICONS))
    if r < 0.75:
        return ("before", "@" + rng.choice(["tom_92", "mary", "KenS", "ana_lopez"]))
    return ("after", "#" + rng.choice(["travel", "tbt", "MondayMotivation", "food"]))


def with_op(sentence, op):
    """`sentence` with `op` (verbatim_op, social_op) applied."""
    kind, text = op
    if kind == "before":
        return text + " " + sentence
    if kind == "after":
        return sentence + " " + text
    if kind == "inside":
        m = re.search(r"[.!?\u2026\"')\u00bb]*$", sentence)
        return sentence[:m.start()] + " " + text + sentence[m.start():]
    return sentence


def title_case(sentence):
    """Each word capitalised but the minor ones after the first ("Where Is the Station?")."""
    words = sentence.split(" ")
    return " ".join(w if i > 0 and w.lower() in MINOR else w[:1].upper() + w[1:]
                    for i, w in enumerate(words))


def quoted(group, k, side):
    """The group's sentences (side 0: English, 1: Spanish) with the first k in quotation marks."""
    text = '"' + " ".join(pair[side] for pair in group[:k]) + '"'
    return " ".join([text] + [pair[side] for pair in group[k:]])


def unpunctuated(text):
    """`text` without the punctuation that ends it ("Why?" -> "Why", "Wait..." -> "Wait")."""
    return re.sub(r"[.!?\u2026]+$", "", text.rstrip())


LIST_MARKERS = ["- ", "* ", "\u2022 ", "%d. ", "%s) ", "> "]


def list_marker(rng, k):
    """A list item's marker for sentence k: a bullet, a number, a letter or e-mail quoting."""
    marker = rng.choice(LIST_MARKERS)
    if "%d" in marker:
        return marker % (k % 9 + 1)
    return marker % "abcdefgh"[k % 8] if "%s" in marker else marker


def social_ceiling(out_dir):
    """OUT_DIR/social_ceiling.es: each sentence's own translation with what social.ops added."""
    ops = [tuple(l.rstrip("\n").split("\t")) for l in open(out_dir + "/social.ops", encoding="utf-8")]
    with open(out_dir + "/social_ceiling.es", "w", encoding="utf-8") as out:
        out.writelines(with_op(h.rstrip("\n"), op) + "\n"
                       for op, h in zip(ops, open(out_dir + "/sentences.es", encoding="utf-8")))


def list_ceiling(out_dir):
    """OUT_DIR/list_ceiling.es: each sentence's own translation after its marker."""
    markers = [l.rstrip("\n") for l in open(out_dir + "/list.markers", encoding="utf-8")]
    with open(out_dir + "/list_ceiling.es", "w", encoding="utf-8") as out:
        out.writelines(m + h for m, h in zip(markers, open(out_dir + "/sentences.es",
                                                            encoding="utf-8")))


def unpunctuated_ceiling(out_dir):
    with open(out_dir + "/unpunctuated_ceiling.es", "w", encoding="utf-8") as out:
        out.writelines(unpunctuated(l.rstrip("\n")) + "\n"
                       for l in open(out_dir + "/sentences.es", encoding="utf-8"))


def questions_ceiling(out_dir):
    """OUT_DIR/questions_ceiling.es: the translations of the questions with their marks."""
    hyps = open(out_dir + "/sentences.es", encoding="utf-8").readlines()
    with open(out_dir + "/questions_ceiling.es", "w", encoding="utf-8") as out:
        out.writelines(hyps[int(k)] for k in open(out_dir + "/questions.lines"))


def verbatim_ceiling(out_dir):
    """OUT_DIR/verbatim_ceiling.es: each sentence's own translation (OUT_DIR/sentences.es) with
    what verbatim.ops added to it, joined per paragraph."""
    hyps = [l.rstrip("\n") for l in open(out_dir + "/sentences.es", encoding="utf-8")]
    ops = [tuple(l.rstrip("\n").split("\t")) for l in open(out_dir + "/verbatim.ops", encoding="utf-8")]
    i, out = 0, open(out_dir + "/verbatim_ceiling.es", "w", encoding="utf-8")
    for n in map(int, open(out_dir + "/sizes.txt")):
        out.write(" ".join(with_op(h, op) for h, op in zip(hyps[i:i + n], ops[i:i + n]) if h) + "\n")
        i += n


def casing(train_path):
    """lower(lang, word): True when TRAIN writes `word` (language 0 English, 1 Spanish) in lower
    case more often than capitalised inside its sentences: a word, not a name ("I" aside)."""
    low, cap = {}, {}
    for line in open(train_path, encoding="utf-8"):
        for lang, text in enumerate(line.rstrip("\n").split("\t")[:2]):
            for w in text.split()[1:]:
                w = w.strip(".,;:!?\"'\u00bf\u00a1")
                if w:
                    d = low if w[0].islower() else cap
                    d[(lang, w.lower())] = d.get((lang, w.lower()), 0) + 1
    return lambda lang, w: w != "I" and low.get((lang, w.lower()), 0) > cap.get((lang, w.lower()), 0)


def join_clauses(sentences, lang, lower):
    """Sentences that end with a full stop as one: commas between them, "and" / "y" before the
    last, each after the first opening in lower case where its first word is not a name."""
    out = sentences[0][:-1]
    for k, sentence in enumerate(sentences[1:], 1):
        last = k == len(sentences) - 1
        word = sentence.split()[0].strip(".,;:!?\"'\u00bf\u00a1") if sentence.split() else ""
        if word and lower(lang, word):
            sentence = sentence[0].lower() + sentence[1:]
        joiner = (", and " if lang == 0 else " y ") if last else ", "
        out += joiner + (sentence if last else sentence[:-1])
    return out


def long_ceiling(train_path, out_dir):
    lower = casing(train_path)
    hyps = [l.rstrip("\n") for l in open(out_dir + "/sentences.es", encoding="utf-8")]
    with open(out_dir + "/long_ceiling.es", "w", encoding="utf-8") as out:
        for line in open(out_dir + "/long.groups"):
            group = [hyps[int(k)] for k in line.split()]
            group = [h if h.endswith(".") else h + "." for h in group]
            out.write(join_clauses(group, 1, lower) + "\n")


def write_long(pairs, train_path, out_dir):
    lower, rng = casing(train_path), random.Random(99)
    stopped = [k for k, (en, es) in enumerate(pairs)
               if en.endswith(".") and es.endswith(".") and not en.endswith("..")]
    with open(out_dir + "/long.tsv", "w", encoding="utf-8") as lt, \
         open(out_dir + "/long.groups", "w") as lg:
        i = 0
        while i + 1 < len(stopped):
            group = stopped[i:i + rng.randint(2, 4)]
            i += len(group)
            if len(group) < 2:
                break
            lt.write(join_clauses([pairs[k][0] for k in group], 0, lower) + "\t" +
                     join_clauses([pairs[k][1] for k in group], 1, lower) + "\n")
            lg.write(" ".join(map(str, group)) + "\n")


def aside(sentence, lang, lower):
    """`sentence` (ending with a full stop) as an aside: without its stop, in brackets, its first
    letter in lower case where its first word is not a name."""
    word = sentence.split()[0].strip(".,;:!?\"'\u00bf\u00a1")
    if lower(lang, word):
        sentence = sentence[0].lower() + sentence[1:]
    return "(" + sentence[:-1] + ")"


def write_asides(pairs, train_path, out_dir):
    """OUT_DIR/asides.tsv: two consecutive sentences that end with a full stop, the second (of 2
    to 8 words) an aside in brackets at the end of the first ("I bought a car (it was cheap)."),
    their references the same; OUT_DIR/asides.pairs: the two sentences of each (lines of
    sentences.tsv, from 0)."""
    lower = casing(train_path)
    stopped = [k for k, (en, es) in enumerate(pairs)
               if en.endswith(".") and es.endswith(".") and not en.endswith("..")]
    with open(out_dir + "/asides.tsv", "w", encoding="utf-8") as at, \
         open(out_dir + "/asides.pairs", "w") as ap:
        for a, b in zip(stopped[0::2], stopped[1::2]):
            if not 2 <= len(pairs[b][0].split()) <= 8:
                continue
            at.write("%s %s.\t%s %s.\n" % (pairs[a][0][:-1], aside(pairs[b][0], 0, lower),
                                            pairs[a][1][:-1], aside(pairs[b][1], 1, lower)))
            ap.write("%d %d\n" % (a, b))


def asides_ceiling(train_path, out_dir):
    """OUT_DIR/asides_ceiling.es: the two sentences' own translations written as their aside."""
    lower = casing(train_path)
    hyps = [l.rstrip("\n") for l in open(out_dir + "/sentences.es", encoding="utf-8")]
    with open(out_dir + "/asides_ceiling.es", "w", encoding="utf-8") as out:
        for line in open(out_dir + "/asides.pairs"):
            a, b = (hyps[int(k)] for k in line.split())
            a, b = (h if h.endswith(".") else h + "." for h in (a, b))
            out.write("%s %s.\n" % (a[:-1], aside(b, 1, lower) if b.split() else "()"))


def main():
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
         open(sys.argv[3] + "/title_case.tsv", "w", encoding="utf-8") as tc, \
         open(sys.argv[3] + "/verbatim.tsv", "w", encoding="utf-8") as vb, \
         open(sys.argv[3] + "/verbatim.ops", "w", encoding="utf-8") as vo, \
         open(sys.argv[3] + "/unpunctuated.tsv", "w", encoding="utf-8") as u, \
         open(sys.argv[3] + "/questions.tsv", "w", encoding="utf-8") as q, \
         open(sys.argv[3] + "/questions.lines", "w") as ql, \
         open(sys.argv[3] + "/quoted.tsv", "w", encoding="utf-8") as qt, \
         open(sys.argv[3] + "/list.tsv", "w", encoding="utf-8") as li, \
         open(sys.argv[3] + "/list.markers", "w", encoding="utf-8") as lm, \
         open(sys.argv[3] + "/social.tsv", "w", encoding="utf-8") as so, \
         open(sys.argv[3] + "/social.ops", "w", encoding="utf-8") as sops:
        verbatim_rng = random.Random(2026)  # its own: the paragraphs stay as they were
        list_rng, social_rng = random.Random(7), random.Random(11)
        for k, (en, es) in enumerate(pairs):
            s.write(en + "\t" + es + "\n")
            u.write(unpunctuated(en) + "\t" + unpunctuated(es) + "\n")
            if en.endswith("?"):  # typed without its mark; the reference keeps Spanish's
                q.write(unpunctuated(en) + "\t" + es + "\n")
                ql.write("%d\n" % k)
            marker = list_marker(list_rng, k)
            li.write(marker + en + "\t" + marker + es + "\n")
            lm.write(marker + "\n")
            op = social_op(social_rng)
            so.write(with_op(en, op) + "\t" + with_op(es, op) + "\n")
            sops.write("%s\t%s\n" % op)
        while i < len(pairs):
            n = rng.randint(3, 6)
            group = pairs[i:i + n]
            en, es = " ".join(e for e, _ in group), " ".join(ref for _, ref in group)
            p.write(en + "\t" + es + "\n")
            t.write(typographic(en) + "\t" + es + "\n")
            c.write(en.upper() + "\t" + es.upper() + "\n")
            lc.write(en.lower() + "\t" + es + "\n")
            tc.write(" ".join(title_case(e) for e, _ in group) + "\t" + es + "\n")
            ops = [verbatim_op(verbatim_rng, i + k) for k in range(len(group))]
            vb.write(" ".join(with_op(e, op) for (e, _), op in zip(group, ops)) + "\t" +
                     " ".join(with_op(ref, op) for (_, ref), op in zip(group, ops)) + "\n")
            vo.writelines("%s\t%s\n" % op for op in ops)
            # A quotation of its first sentences (all but the last, or the one), as stories and
            # news quote speech: '"S1 S2" S3', the references quoted the same way.
            k = max(1, len(group) - 1)
            qt.write(quoted(group, k, 0) + "\t" + quoted(group, k, 1) + "\n")
            z.write("%d\n" % len(group))
            i += n
    write_long(pairs, sys.argv[1], sys.argv[3])
    write_asides(pairs, sys.argv[1], sys.argv[3])


if __name__ == "__main__":
    if sys.argv[1] == "--verbatim-ceiling":
        verbatim_ceiling(sys.argv[2])
    elif sys.argv[1] == "--long-ceiling":
        long_ceiling(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "--unpunctuated-ceiling":
        unpunctuated_ceiling(sys.argv[2])
    elif sys.argv[1] == "--asides-ceiling":
        asides_ceiling(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "--social-ceiling":
        social_ceiling(sys.argv[2])
    elif sys.argv[1] == "--list-ceiling":
        list_ceiling(sys.argv[2])
    elif sys.argv[1] == "--questions-ceiling":
        questions_ceiling(sys.argv[2])
    else:
        main()
