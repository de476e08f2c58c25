#!/usr/bin/env bash
# atento-serve's web page and POST /attention, end to end on a small model trained on the
# sample corpus: /attention answers what `atento-translate --attention` writes, with LibreTranslate's
# errors; the page's files are served from the binary; then headless Chromium (Debian's chromium
# driven by puppeteer-core, tests/page_client/page_test.js) types sentences, presses Translate,
# reads the translation and the alternatives (equal to POST /translate's), switches translation,
# layer and head, and checks the heatmap's shape, labels and weights against POST /attention;
# screenshots go to build/page.png and build/page_phone.png. Without chromium, node/npm or
# puppeteer-core the browser part is skipped (exit 77, saying why) once the rest has passed.
# $ATENTO_E2E_MODEL=DIR reuses a trained model instead of training one.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
serve_prologue
# One decoding thread on both sides: the weights then agree to the last bit.
start_server_binary "$WORK/serve.err" "$BUILD/atento-serve" --model "$model" --threads 1 \
  || { fail "the server does not start"; finish; exit 1; }
pass "starts on a free loopback port ($URL)"

# attention BODY: POST /attention; the status in $code, the body in $WORK/body.
attention() {
  code=$(curl -s -o "$WORK/body" -w '%{http_code}' -H "Content-Type: application/json" \
    --data-binary @- "$URL/attention" <<<"$1")
}

# --- POST /attention ----------------------------------------------------------------------
text=$'I like the red house. Where is the station?\nGood morning.'
printf '%s\n' "$text" >"$WORK/text.en"
"$BUILD/atento-translate" --model "$model" --threads 1 --input "$WORK/text.en" \
  --attention "$WORK/expected.json" >/dev/null 2>"$WORK/translate.err" \
  || { cat "$WORK/translate.err"; fail "atento-translate --attention"; }
attention "{\"q\": $(json_string "$text"), \"source\": \"en\", \"target\": \"es\"}"
python3 - "$WORK/body" "$WORK/expected.json" <<'PY' \
  && pass "POST /attention: the JSON atento-translate --attention writes (2 lines, 3 sentences)" \
  || fail "POST /attention differs from atento-translate --attention: $code $(head -c 300 "$WORK/body")"
import json, sys
got, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert [(r["line"], r["piece"]) for r in got] == [(1, 1), (1, 2), (2, 1)], got
assert got == want, "records differ"
r = got[0]
assert all(len(head) == len(r["layers"][0][0]) and all(len(row) == len(r["source_tokens"])
           for row in head) for layer in r["layers"] for head in layer), "ragged weights"
PY
# Concurrent requests, /attention beside /translate: each /attention answer is the one above.
mkdir -p "$WORK/many"
python3 -c 'import json,sys; print(json.dumps({"q": sys.argv[1], "source": "en", "target": "es"}))' \
  "$text" >"$WORK/many/request.json"
cp "$WORK/body" "$WORK/many/expected"
export URL WORK
seq 1 12 | xargs -P 12 -I{} sh -c 'path=translate; [ $(({} % 2)) = 0 ] && path=attention
  curl -s -o "$WORK/many/{}.$path" -w "%{http_code}\n" -H "Content-Type: application/json" \
    --data-binary @"$WORK/many/request.json" "$URL/$path"' >"$WORK/many/codes"
answers_same=1
for f in "$WORK"/many/*.attention; do cmp -s "$f" "$WORK/many/expected" || answers_same=0; done
[ "$(grep -c '^200$' "$WORK/many/codes")" = 12 ] && [ "$answers_same" = 1 ] \
  && pass "12 concurrent requests, 6 of them /attention: all answered, /attention's as alone" \
  || fail "concurrent requests: $(sort "$WORK/many/codes" | uniq -c | tr '\n' ' ') same: $answers_same"
q='{"q": "Where is the station?", "source": "en", "target": "es", "alternatives": 2}'
attention "$q"
cp "$WORK/body" "$WORK/alternatives.json"
curl -s -H "Content-Type: application/json" -d "$q" "$URL/translate" >"$WORK/translate.json"
python3 - "$WORK/alternatives.json" "$WORK/translate.json" <<'PY' \
  && pass "alternatives: each record holds the attention of the beam's other translations, those of POST /translate" \
  || fail "alternatives: $(head -c 300 "$WORK/alternatives.json")"
import json, sys
records, translated = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
text = lambda tokens: "".join(tokens).replace("\u2581", " ").strip()
assert len(records) == 1 and len(records[0]["alternatives"]) == 2, records
assert text(records[0]["output_tokens"]) == translated["translatedText"].strip(), translated
for alt, want in zip(records[0]["alternatives"], translated["alternatives"]):
    assert set(alt) == {"output_tokens", "layers"}, alt.keys()
    assert text(alt["output_tokens"]) == want.strip(), (alt["output_tokens"], want)
    assert len(alt["layers"]) == len(records[0]["layers"])
PY
code=$(curl -s -o "$WORK/body" -w '%{http_code}' --data-urlencode "q=Good morning." -d source=en \
  -d target=es "$URL/attention")
[ "$code" = 200 ] && python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))[0]["source_tokens"]' \
  "$WORK/body" && pass "a form body (curl -d) works as for /translate" || fail "form body: $code"

attention '{"q": ["Hello.", "Bye."], "source": "en", "target": "es"}'
expect_json_error 400 "q an array (one string only)"
attention '{"q": "Hello.", "source": "en", "target": "fr"}'; expect_json_error 400 "an unknown target"
attention '{"q": "Hello.", "source": "en",'; expect_json_error 400 "invalid JSON"
attention '{"q": "", "source": "en", "target": "es"}'; expect_json_error 400 "empty q"
attention '{"q": "Hello.", "source": "en", "target": "es", "beam": 2, "alternatives": 3}'
expect_json_error 400 "more alternatives than the beam gives"
attention "{\"q\": \"$(head -c 5001 /dev/zero | tr '\0' a)\", \"source\": \"en\", \"target\": \"es\"}"
expect_json_error 400 "q over --max-chars"
attention "{\"q\": \"$(printf 'Hello. %.0s' $(seq 1 33))\", \"source\": \"en\", \"target\": \"es\"}"
expect_json_error 400 "33 sentences (more than 32 translations)"
attention "{\"q\": \"$(printf 'Hello. %.0s' $(seq 1 11))\", \"source\": \"en\", \"target\": \"es\", \"alternatives\": 2}"
expect_json_error 400 "11 sentences with 2 alternatives (33 translations)"
attention "{\"q\": \"$(printf 'Hello. %.0s' $(seq 1 32))\", \"source\": \"en\", \"target\": \"es\"}"
[ "$code" = 200 ] && [ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$WORK/body")" = 32 ] \
  && pass "32 sentences: 32 records" || fail "32 sentences: $code $(head -c 200 "$WORK/body")"
code=$(curl -s -o "$WORK/body" -w '%{http_code}' "$URL/attention"); expect_json_error 404 "GET /attention"
attention '{"q": "   ", "source": "en", "target": "es"}'
[ "$code" = 200 ] && [ "$(cat "$WORK/body")" = "[]" ] && pass "a blank text: no record, []" \
  || fail "a blank text: $code $(head -c 80 "$WORK/body")"
[ "$(curl -s -m 10 "$URL/health")" = '{"status":"ok"}' ] && pass "still serves after bad requests" \
  || fail "does not serve after bad requests"

# --- the page's files, from the binary -----------------------------------------------------
for file in app/serve/page/*; do
  name=${file##*/}
  path=/$name; [ "$name" = index.html ] && path=/
  case "$name" in
    *.html) type="text/html; charset=utf-8" ;; *.css) type="text/css; charset=utf-8" ;;
    *.js) type="text/javascript; charset=utf-8" ;; *.svg) type="image/svg+xml" ;;
    *) type="" ;;
  esac
  got=$(curl -s -o "$WORK/file" -w '%{http_code} %{content_type}' "$URL$path")
  [ "$got" = "200 $type" ] && cmp -s "$WORK/file" "$file" \
    && pass "GET $path: $name as it is in the source tree ($type)" || fail "GET $path: $got"
done
code=$(curl -s -o "$WORK/body" -w '%{http_code}' "$URL/pageXcss"); expect_json_error 404 "a path like a file's"

# --- the page in a browser -----------------------------------------------------------------
if [ "$failures" -gt 0 ]; then finish; exit 1; fi
require_browser || { echo "$checks passed, 0 failed; the browser part skipped"; exit 77; }
node_checks node "$PAGE_CLIENT/page_test.js" "$URL" "$CHROMIUM" "$BUILD/page.png" \
  "I like the red house." "Where is the station?"

kill -TERM "$server_pid"; wait "$server_pid"; status=$?; server_pid=""
[ "$status" = 0 ] && pass "SIGTERM: exits 0" || fail "SIGTERM: exit status $status"
finish
