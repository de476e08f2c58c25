#!/usr/bin/env bash
# HTML end to end on a small model trained on the sample corpus: atento-translate --format html
# keeps every tag (in order, properly nested, malformed input repaired), attributes, entities,
# comments, <script>/<style>/<code>/<pre> untouched, translates the text as text mode does, and
# atento-serve's format "html" gives the same document; bad input (invalid UTF-8, NUL, nesting
# 100,000 deep) is a clear error, never a crash.
# The word lexicon: written by training, an older directory without it still works, a
# malformed one is an error naming its line.
# $ATENTO_E2E_MODEL=DIR reuses a trained model instead of training one.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
model=${ATENTO_E2E_MODEL:-$WORK/model}
if [ -z "${ATENTO_E2E_MODEL:-}" ]; then
  "$BUILD/atento-train" --config configs/sample.json --out "$model" --set train.max_epochs=15 \
    "${SAMPLE_SETTINGS[@]}" >/dev/null 2>"$WORK/train.err" || { cat "$WORK/train.err"; exit 1; }
fi
T="$BUILD/atento-translate"
server_pid=""
trap '[ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null; rm -rf "$WORK"' EXIT

# check_html IN OUT: every start tag of IN is in OUT, in order; OUT's tags are properly nested;
# the markup that is never translated is there unchanged.
check_html() {
  python3 - "$1" "$2" <<'PY'
import sys
from html.parser import HTMLParser
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr"}
class Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.starts, self.events = [], []
    def handle_starttag(self, tag, attrs):
        self.starts.append((tag, sorted(attrs)))
        if tag not in VOID: self.events.append(("+", tag))
    def handle_endtag(self, tag):
        if tag not in VOID: self.events.append(("-", tag))
def parse(path):
    t = Tags(); t.feed(open(path, encoding="utf-8").read()); t.close(); return t
src, out = parse(sys.argv[1]), parse(sys.argv[2])
k = 0
for tag in out.starts:
    if k < len(src.starts) and tag == src.starts[k]: k += 1
assert k == len(src.starts), "input tag %s missing from the output" % (src.starts[k],)
stack = []
for kind, tag in out.events:
    if kind == "+": stack.append(tag)
    else:
        assert stack and stack[-1] == tag, "</%s> closes <%s>" % (tag, stack[-1] if stack else "")
        stack.pop()
assert not stack, "left open: %s" % stack
PY
}

# --- a page -------------------------------------------------------------------------------
cat >"$WORK/page.html" <<'HTML'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Good morning.</title>
<style>p > b { color: red; }</style></head>
<body>
<h1 class="top">Where is the station?</h1>
<p>I have a <b>red</b> car. Tom likes <a href="https://example.org/?a=1&amp;b=2" title="A &amp; B">green tea</a>.</p>
<p>Run <code>ls -l &lt;dir&gt;</code> now. <!-- keep me --> Thank you.</p>
<pre>keep   this
  <b>as</b> it is</pre>
<ul><li>Good morning.</li><li>I am <em>very</em> tired.</li></ul>
<script>if (a < b && c) { x = "<p>not text</p>"; }</script>
</body></html>
HTML
expect_exit 0 "translates a page with --format html" -- "$T" --model "$model" --format html \
  --input "$WORK/page.html" --output "$WORK/page.es.html"
check_html "$WORK/page.html" "$WORK/page.es.html" 2>"$WORK/check.err" \
  && pass "every tag in order and properly nested, attributes kept" \
  || fail "tags: $(tail -1 "$WORK/check.err")"
for kept in '<style>p > b { color: red; }</style>' '<code>ls -l &lt;dir&gt;</code>' \
  '<!-- keep me -->' 'if (a < b && c) { x = "<p>not text</p>"; }' \
  'href="https://example.org/?a=1&amp;b=2" title="A &amp; B"' '<!DOCTYPE html>'; do
  grep -qF -- "$kept" "$WORK/page.es.html" && pass "kept: $kept" || fail "changed: $kept"
done
python3 - "$WORK/page.es.html" <<'PY' && pass "<pre> kept byte for byte" || fail "<pre> changed"
import sys
assert "<pre>keep   this\n  <b>as</b> it is</pre>" in open(sys.argv[1], encoding="utf-8").read()
PY
grep -q "Where is the station" "$WORK/page.es.html" && fail "a heading left untranslated" \
  || pass "the text is translated"
# A block without inline markup reads as text mode's translation of the same text.
text_es=$(printf 'Where is the station?\n' | "$T" --model "$model" 2>/dev/null)
grep -qF "<h1 class=\"top\">$text_es</h1>" "$WORK/page.es.html" \
  && pass "a block translates as its text does in text mode ($text_es)" \
  || fail "block vs text mode: '$text_es' not in: $(grep '<h1' "$WORK/page.es.html")"
printf '<p>Good <b>morning</b>.</p>' | "$T" --model "$model" --format html >"$WORK/stdin.html" \
  2>/dev/null && grep -q '<b>' "$WORK/stdin.html" && pass "a fragment from stdin" \
  || fail "fragment from stdin: $(cat "$WORK/stdin.html")"
grep -q '<html\|<body' "$WORK/stdin.html" && fail "a fragment gained <html>/<body>" \
  || pass "a fragment stays a fragment"
# Addresses and emoji in a block's text: kept as they are, as in text mode, tags still placed.
printf '<p>I love <b>this</b> song 😀. Mail tom@example.com, please.</p>\n' >"$WORK/verbatim.html"
"$T" --model "$model" --format html --input "$WORK/verbatim.html" >"$WORK/verbatim.es.html" 2>/dev/null
check_html "$WORK/verbatim.html" "$WORK/verbatim.es.html" 2>"$WORK/check.err" \
  && [ "$(grep -o '😀' "$WORK/verbatim.es.html" | wc -l)" = 1 ] \
  && [ "$(grep -o 'tom@example.com' "$WORK/verbatim.es.html" | wc -l)" = 1 ] \
  && pass "emoji and an address in HTML text kept once each, tags in order" \
  || fail "emoji and addresses in HTML: $(cat "$WORK/verbatim.es.html") $(tail -1 "$WORK/check.err")"
# A menu: each link or button translated on its own, as text mode translates its text, wholly
# inside its element; separators and line breaks between them kept.
items=("Where is the station?" "Good morning" "Thank you.")
printf '<nav><a href="/">%s</a> | <a href="/b">%s</a>\n  <button>%s</button></nav>\n' \
  "${items[@]}" >"$WORK/menu.html"
mapfile -t items_es < <(printf '%s\n' "${items[@]}" | "$T" --model "$model" 2>/dev/null)
printf '<nav><a href="/">%s</a> | <a href="/b">%s</a>\n  <button>%s</button></nav>\n' \
  "${items_es[@]}" >"$WORK/menu.expected.html"
"$T" --model "$model" --format html --input "$WORK/menu.html" >"$WORK/menu.es.html" 2>/dev/null
cmp -s "$WORK/menu.es.html" "$WORK/menu.expected.html" \
  && pass "a menu's items each translated as text mode translates them, separators kept" \
  || fail "menu: $(cat "$WORK/menu.es.html") instead of $(cat "$WORK/menu.expected.html")"
# Cells without letters copied; elements marked translate="no" (or class notranslate) kept.
printf '<table><tr><td>42</td><td>$9.99</td><td>10:30</td></tr></table>\n<p>Ask <span translate="no">Big Apple</span> now.</p><p class="notranslate">Keep this.</p>\n' \
  >"$WORK/kept.html"
"$T" --model "$model" --format html --input "$WORK/kept.html" >"$WORK/kept.es.html" 2>/dev/null
grep -qF '<table><tr><td>42</td><td>$9.99</td><td>10:30</td></tr></table>' "$WORK/kept.es.html" \
  && grep -qF '<span translate="no">Big Apple</span>' "$WORK/kept.es.html" \
  && grep -qF '<p class="notranslate">Keep this.</p>' "$WORK/kept.es.html" \
  && pass "numbers copied; translate=\"no\" and notranslate kept as they are" \
  || fail "kept markup: $(cat "$WORK/kept.es.html")"

# --- the word lexicon that tags are placed with -------------------------------------------
if [ -z "${ATENTO_E2E_MODEL:-}" ]; then
  [ -s "$model/lexicon.tsv" ] && awk -F'\t' 'NF != 3 { bad = 1 } END { exit bad }' \
    "$model/lexicon.tsv" && pass "training wrote the word lexicon (lexicon.tsv)" \
    || fail "no well-formed lexicon.tsv in $model"
fi
# text_of FILE: the document's text, tags left out (the lexicon moves tags, never words).
text_of() {
  python3 -c 'import re,sys; print(re.sub(r"<[^>]*>", "", open(sys.argv[1], encoding="utf-8").read()))' \
    "$1"
}
for variant in without bad; do
  rm -rf "$WORK/$variant"
  cp -r "$model" "$WORK/$variant"
  rm -f "$WORK/$variant/lexicon.tsv"
done
printf 'house\tcasa\t0.5\nhouse\tla\n' >"$WORK/bad/lexicon.tsv"
expect_exit 0 "a model directory without lexicon.tsv (an older one) translates HTML" -- \
  "$T" --model "$WORK/without" --format html --input "$WORK/page.html" \
  --output "$WORK/page.without.html"
check_html "$WORK/page.html" "$WORK/page.without.html" 2>"$WORK/check.err" \
  && [ "$(text_of "$WORK/page.without.html")" = "$(text_of "$WORK/page.es.html")" ] \
  && pass "without the lexicon: every tag, nested, the same text" \
  || fail "without the lexicon: $(tail -1 "$WORK/check.err")"
expect_exit 1 "a malformed lexicon.tsv" -- "$T" --model "$WORK/bad" --format html \
  --input "$WORK/page.html"
expect_stderr "^error: .*lexicon.tsv:2: expected English<TAB>Spanish<TAB>probability" \
  "the lexicon's file and line named"
rm -rf "$WORK/without" "$WORK/bad"

# --- malformed and bad input --------------------------------------------------------------
printf '<div><b>Good <i>morning</b> Tom.</i><p>Thank you<span>very much<p>Where is it?</div><a href=x>here<ul><li>one<li>two</ul><table><tr><td>yes<td>no</table>' \
  >"$WORK/bad.html"
expect_exit 0 "malformed HTML gets an answer" -- "$T" --model "$model" --format html \
  --input "$WORK/bad.html" --output "$WORK/bad.es.html"
check_html "$WORK/bad.html" "$WORK/bad.es.html" 2>"$WORK/check.err" \
  && pass "malformed: every input tag present and properly nested" \
  || fail "malformed: $(tail -1 "$WORK/check.err")"
printf '<p>caf\xe9 \xff</p>' >"$WORK/latin1.html"
expect_exit 1 "invalid UTF-8" -- "$T" --model "$model" --format html --input "$WORK/latin1.html"
expect_stderr "^error: .*latin1.html: .*not valid UTF-8" "invalid UTF-8 named as such"
printf '<p>a\0b</p>' >"$WORK/nul.html"
expect_exit 1 "a NUL byte" -- "$T" --model "$model" --format html --input "$WORK/nul.html"
expect_stderr "^error: .*NUL" "a NUL byte named as such"
python3 -c 'print("<div>" * 100000 + "x")' >"$WORK/deep.html"
expect_exit 1 "HTML nested 100,000 deep" -- "$T" --model "$model" --format html \
  --input "$WORK/deep.html"
expect_stderr "^error: .*(depth|deep)" "the depth named in the error"
expect_exit 2 "--format html with --n-best" -- "$T" --model "$model" --format html --n-best 2 \
  --input "$WORK/page.html"
expect_exit 2 "an unknown --format" -- "$T" --model "$model" --format pdf --input "$WORK/page.html"

# --- atento-serve: format "html" ----------------------------------------------------------
if [ -x "$BUILD/atento-serve" ]; then
  start_server_binary "$WORK/serve.err" "$BUILD/atento-serve" --model "$model" \
    --max-chars 1000000 --max-body 1000000 || { fail "the server does not start"; finish; exit 1; }
  # post_html FILE [EXTRA_JSON]: POST /translate with FILE as q, format html.
  post_html() {
    python3 -c 'import json,sys; d={"q": open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read(), "source": "en", "target": "es", "format": "html"}; d.update(json.loads(sys.argv[2])); print(json.dumps(d))' \
      "$1" "${2:-{\}}" >"$WORK/request.json"
    code=$(curl -s -o "$WORK/body" -w '%{http_code}' -H 'Content-Type: application/json' \
      --data-binary @"$WORK/request.json" "$URL/translate")
  }
  for doc in page bad; do
    post_html "$WORK/$doc.html"
    python3 -c 'import json,sys; sys.stdout.write(json.load(open(sys.argv[1]))["translatedText"])' \
      "$WORK/body" >"$WORK/$doc.served.html" 2>/dev/null
    cmp -s "$WORK/$doc.served.html" "$WORK/$doc.es.html" \
      && pass "server and command line give the same document ($doc.html)" \
      || fail "server ≠ command line for $doc.html: $(diff "$WORK/$doc.served.html" "$WORK/$doc.es.html" | head -5)"
  done
  # POST /translate_file with an .html file: the same document again, as an attachment.
  cp "$WORK/page.html" "$WORK/upload.html"
  curl -s -F "file=@$WORK/upload.html" -F source=en -F target=es "$URL/translate_file" \
    >"$WORK/file.json"
  file_url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["translatedFileUrl"])' \
    "$WORK/file.json" 2>/dev/null)
  [ -n "$file_url" ] && curl -s -o "$WORK/upload.es.html" "$file_url"
  cmp -s "$WORK/upload.es.html" "$WORK/page.es.html" \
    && pass "POST /translate_file of an .html file gives the same document" \
    || fail "translate_file .html: $(head -c 300 "$WORK/file.json")"
  post_html "$WORK/deep.html"
  [ "$code" = 400 ] && grep -q '"error"' "$WORK/body" && pass "nesting 100,000 deep → 400" \
    || fail "deep HTML: $code $(head -c 200 "$WORK/body")"
  post_html "$WORK/page.html" '{"alternatives": 2}'
  [ "$code" = 400 ] && pass "alternatives with html → 400" || fail "alternatives with html: $code"
  [ "$(curl -s "$URL/health")" = '{"status":"ok"}' ] && pass "still serves" || fail "stopped serving"
  kill -TERM "$server_pid"; wait_exit "$server_pid" 60; server_pid=""
fi
finish
