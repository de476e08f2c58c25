#!/usr/bin/env bash
# HTML: the paragraph set of scripts/bench_real_text.sh as one HTML document (each paragraph in
# a <p>, some words in <b> or <a href>), translated with --format html, against the same
# paragraphs translated as plain text.
#   scripts/bench_html.sh [MODEL_DIR [atento-translate/atento-eval flags...]]  (default runs/base)
#   SENTENCES=N: only the first N unseen-source sentences (default: all of them)
#   OUT=DIR: where the sets and results go (default MODEL_DIR/real_text)
# Prints: the input tags present in the output, in order, and whether the output is properly
# nested; BLEU/chrF of the output's paragraph texts against the plain paragraphs' translation;
# writes OUT/html_tags_sample.tsv, 50 placed inline tags (source words in the
# tag → target words in the tag) for checking by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-runs/base}
shift || true
flags=("$@")  # e.g. --beam 1
[ -f "$model/model.safetensors" ] || [ -f "$model/model.pt" ] ||  # model.pt: older directories
  { echo "error: $model has no trained model" >&2; exit 2; }
out=${OUT:-$model/real_text}
mkdir -p "$out"
python3 scripts/real_text_set.py "$model/train.tsv" "$model/test.tsv" "$out" "${SENTENCES:-0}"
cut -f1 "$out/paragraphs.tsv" >"$out/paragraphs.en"
# The HTML set: per paragraph (seeded), one or two words in <b>, and one to three in <a href>.
python3 - "$out/paragraphs.en" "$out/paragraphs.html" <<'PY'
import html, random, re, sys
rng = random.Random(1337)
out = ["<!DOCTYPE html>", "<html><head><title>Paragraphs</title></head><body>"]
for n, line in enumerate(open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1]):
    words = line.split(" ")
    # Wrappable: a word with a letter; the tag goes around it without its punctuation.
    ok = [i for i, w in enumerate(words) if re.search(r"[A-Za-z]", w)]
    tags = {}
    for kind in ("b", "a"):
        free = [i for i in ok if all(i not in range(s, e) for s, (e, _) in tags.items())]
        if not free: continue
        start = rng.choice(free)
        length = rng.randint(1, 2) if kind == "b" else rng.randint(1, 3)
        end = start
        while end < len(words) and end - start < length and end in free: end += 1
        tags[start] = (end, kind)
    parts, i = [], 0
    while i < len(words):
        if i in tags:
            end, kind = tags[i]
            inner = " ".join(words[i:end])
            m = re.match(r"^([^A-Za-z0-9]*)(.*?)([^A-Za-z0-9]*)$", inner)
            pre, core, post = m.groups()
            open_tag = "<b>" if kind == "b" else '<a href="https://example.org/%d">' % n
            close_tag = "</b>" if kind == "b" else "</a>"
            parts.append(html.escape(pre, False) + open_tag + html.escape(core, False) + close_tag
                         + html.escape(post, False))
            i = end
        else:
            parts.append(html.escape(words[i], False)); i += 1
    out.append("<p>" + " ".join(parts) + "</p>")
out.append("</body></html>")
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(out) + "\n")
PY
build/atento-translate --model "$model" --format html --input "$out/paragraphs.html" \
  --output "$out/paragraphs.es.html" "${flags[@]}" 2>"$out/html.err"
# The plain paragraphs' translation (scripts/bench_real_text.sh writes it too: kept when it
# has their number of lines).
[ "$( { wc -l <"$out/paragraphs.es"; } 2>/dev/null)" = "$(wc -l <"$out/paragraphs.en")" ] ||
  build/atento-translate --model "$model" --input "$out/paragraphs.en" \
  --output "$out/paragraphs.es" "${flags[@]}" 2>>"$out/html.err"
build/atento-eval --model "$model" --pairs "$out/paragraphs.tsv" --json \
  --hyps "$out/paragraphs.es" "${flags[@]}" >"$out/paragraphs.json" 2>"$out/paragraphs.err"
python3 - "$out" <<'PY'
import html, json, random, sys
from html.parser import HTMLParser
d = sys.argv[1]
VOID = {"br", "img", "input", "meta", "link", "hr", "wbr"}
class Doc(HTMLParser):
    """Start tags in order, nesting, and per <p>: its text and its inline tags' texts."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.starts, self.stack, self.nested = [], [], True
        self.paragraphs, self.inline = [], []   # inline: (paragraph, tag, text)
        self.open_inline = []
    def handle_starttag(self, tag, attrs):
        self.starts.append((tag, tuple(attrs)))
        if tag in VOID: return
        self.stack.append(tag)
        if tag == "p": self.paragraphs.append("")
        elif self.paragraphs and "p" in self.stack:
            self.open_inline.append([tag, dict(attrs).get("href", ""), ""])
    def handle_endtag(self, tag):
        if tag in VOID: return
        if not self.stack or self.stack[-1] != tag: self.nested = False
        if self.stack: self.stack.pop()
        if tag != "p" and self.open_inline and self.open_inline[-1][0] == tag:
            t = self.open_inline.pop()
            self.inline.append((len(self.paragraphs) - 1, t[0], t[1], t[2].strip()))
    def handle_data(self, data):
        if self.paragraphs and "p" in self.stack:
            self.paragraphs[-1] += data
            for t in self.open_inline: t[2] += data
def parse(path):
    p = Doc(); p.feed(open(path, encoding="utf-8").read()); p.close(); return p
src, out = parse(d + "/paragraphs.html"), parse(d + "/paragraphs.es.html")
k = 0
for tag in out.starts:
    if k < len(src.starts) and tag == src.starts[k]: k += 1
with open(d + "/paragraphs_html.es", "w", encoding="utf-8") as f:
    for text in out.paragraphs: f.write(" ".join(text.split()) + "\n")
print("input tags present in the output, in order: %d of %d (%.2f%%); properly nested: %s"
      % (k, len(src.starts), 100.0 * k / max(1, len(src.starts)), "yes" if out.nested else "NO"))
print("paragraphs: %d in, %d out" % (len(src.paragraphs), len(out.paragraphs)))
# 50 inline tags, seeded, for checking by hand.
pairs = [(s, o) for s, o in zip(src.inline, out.inline) if s[:3] == o[:3]]
rng = random.Random(1337)
sample = rng.sample(pairs, min(50, len(pairs)))
with open(d + "/html_tags_sample.tsv", "w", encoding="utf-8") as f:
    f.write("tag\tsource words\ttarget words\tsource paragraph\ttarget paragraph\n")
    for s, o in sample:
        f.write("%s\t%s\t%s\t%s\t%s\n" % (s[1], s[3], o[3], " ".join(src.paragraphs[s[0]].split()),
                                          " ".join(out.paragraphs[o[0]].split())))
print("inline tags matched for the sample: %d (written: %d, %s)"
      % (len(pairs), len(sample), d + "/html_tags_sample.tsv"))
PY
build/atento-eval --model "$model" --pairs "$out/paragraphs.tsv" --json \
  --hyps "$out/paragraphs_html.es" "${flags[@]}" >"$out/paragraphs_html.json" \
  2>"$out/paragraphs_html.err"
python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
p, h = (json.load(open("%s/%s.json" % (d, n))) for n in ("paragraphs", "paragraphs_html"))
print("%-44s %7s %7s %7s" % ("set", "lines", "BLEU", "chrF"))
print("%-44s %7d %7.2f %7.2f" % ("paragraphs, plain text", p["sources"], p["bleu"], p["chrf"]))
print("%-44s %7d %7.2f %7.2f" % ("the same in HTML (--format html), its text", h["sources"],
                                  h["bleu"], h["chrf"]))
print("HTML - plain: %+.2f BLEU" % (h["bleu"] - p["bleu"]))
PY
grep -h "sentences/s" "$out/html.err" | sed 's/^/html: /'
