#!/usr/bin/env bash
# atento-serve's LibreTranslate API beyond /translate, end to end with curl on a small model:
# GET /frontend/settings, multipart/form-data bodies (equal to JSON ones), POST /translate_file
# and GET /download_file, CORS (--cors-origin), API keys (--api-keys: 403), rate limits
# (--req-limit: 429), the access log (one line per request) and GET /metrics (Prometheus
# text); the request sequences of LibreTranslate's own web page and of a browser extension; and
# a battery of bad input (malformed multipart, huge files, bogus keys, floods, 200 idle
# connections) after which the server still answers /health.
# $ATENTO_E2E_MODEL=DIR reuses a trained model instead of training one.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
serve_prologue
S="$BUILD/atento-serve"

start_server() { start_server_binary "$1" "$S" --model "$model" "${@:2}"; }
stop_server() { kill -TERM "$server_pid"; wait "$server_pid"; server_pid=""; }

# req OUT ARGS...: curl ARGS, the body in OUT, the status in $code.
req() { local out=$1; shift; code=$(curl -s -o "$out" -w '%{http_code}' "$@"); }
# py EXPR FILE...: a Python assertion over the JSON files (as j[0], j[1]…).
py() {
  python3 -c "import json,sys; j=[json.load(open(f)) for f in sys.argv[1:]]; assert $1, j" "${@:2}" \
    2>"$WORK/py.err"
}
# error_is STATUS MESSAGE WHAT: the last req's status and its {"error": MESSAGE} body.
error_is() {
  if [ "$code" = "$1" ] && py "j[0] == {'error': '''$2'''}" "$WORK/body"; then pass "$3 → $1 $2"
  else fail "$3: $code $(head -c 300 "$WORK/body") (expected $1 {\"error\": \"$2\"})"; fi
}
still_serves() {
  [ "$(curl -s -m 20 "$URL/health")" = '{"status":"ok"}' ] && pass "still serves /health after $1" \
    || fail "does not serve /health after $1"
}
text_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["translatedText"])' "$1"; }

cut -f1 "$model/test.tsv" | head -8 >"$WORK/lines.en"
first=$(head -1 "$WORK/lines.en")

# === a server with the defaults (no keys, no limit, no CORS), its access log in a file ===========
start_server "$WORK/serve.err" --access-log "$WORK/access.log" --max-body 65536 --read-timeout 2 \
  || { fail "the server does not start"; finish; exit 1; }
pass "starts ($URL)"

# --- GET /frontend/settings ----------------------------------------------------------------
req "$WORK/settings.json" "$URL/frontend/settings"
[ "$code" = 200 ] && py "j[0]['charLimit'] == 5000 and j[0]['frontendTimeout'] == 500 \
and j[0]['apiKeys'] is False and j[0]['keyRequired'] is False and j[0]['suggestions'] is False \
and j[0]['filesTranslation'] is True and j[0]['supportedFilesFormat'] == ['.txt', '.html', '.htm'] \
and j[0]['language'] == {'source': {'code': 'en', 'name': 'English'}, \
'target': {'code': 'es', 'name': 'Spanish'}}" "$WORK/settings.json" \
  && pass "GET /frontend/settings: LibreTranslate's fields, the model's languages" \
  || fail "frontend settings: $code $(cat "$WORK/settings.json")"

# --- multipart/form-data equals JSON --------------------------------------------------------
req "$WORK/json.out" -H 'Content-Type: application/json' \
  -d "{\"q\": $(json_string "$first"), \"source\": \"en\", \"target\": \"es\"}" "$URL/translate"
req "$WORK/multipart.out" --form-string "q=$first" -F source=en -F target=es -F format=text \
  "$URL/translate"
[ "$code" = 200 ] && [ -n "$(text_of "$WORK/json.out")" ] \
  && [ "$(text_of "$WORK/multipart.out")" = "$(text_of "$WORK/json.out")" ] \
  && pass "multipart/form-data POST /translate answers what the JSON body does" \
  || fail "multipart: $code $(cat "$WORK/multipart.out") vs $(cat "$WORK/json.out")"
req "$WORK/form.out" --data-urlencode "q=$first" -d source=en -d target=es "$URL/translate"
[ "$(text_of "$WORK/form.out")" = "$(text_of "$WORK/json.out")" ] \
  && pass "a urlencoded form answers the same" || fail "form: $code $(cat "$WORK/form.out")"
args=(); while IFS= read -r line; do args+=(--form-string "q=$line"); done <"$WORK/lines.en"
req "$WORK/multi_q.out" "${args[@]}" -F source=en -F target=es "$URL/translate"
python3 - "$WORK/lines.en" >"$WORK/array.json" <<'PY'
import json, sys
print(json.dumps({"q": open(sys.argv[1]).read().split("\n")[:-1], "source": "en", "target": "es"}))
PY
req "$WORK/array.out" -H 'Content-Type: application/json' -d @"$WORK/array.json" "$URL/translate"
py "j[0]['translatedText'] == j[1]['translatedText'] and len(j[0]['translatedText']) == 8" \
  "$WORK/multi_q.out" "$WORK/array.out" \
  && pass "multipart with q repeated: an array, in order, as a JSON array q" \
  || fail "repeated multipart q: $(head -c 300 "$WORK/multi_q.out")"
req "$WORK/body" -F source=en -F target=es "$URL/translate"
error_is 400 "Invalid request: missing q parameter" "multipart without q"

# --- LibreTranslate's web page: settings, then FormData with format and alternatives --------
req "$WORK/page_settings.json" "$URL/frontend/settings"
src=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["language"]["source"]["code"])' "$WORK/page_settings.json")
tgt=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["language"]["target"]["code"])' "$WORK/page_settings.json")
req "$WORK/page.out" --form-string "q=$first" -F "source=$src" -F "target=$tgt" -F format=text \
  -F alternatives=3 -F api_key= -H 'Origin: http://127.0.0.1' "$URL/translate"
req "$WORK/page_json.out" -H 'Content-Type: application/json' \
  -d "{\"q\": $(json_string "$first"), \"source\": \"en\", \"target\": \"es\", \"alternatives\": 3}" \
  "$URL/translate"
[ "$code" = 200 ] && py "j[0] == j[1] and isinstance(j[0]['translatedText'], str) \
and len(j[0]['alternatives']) == 3" "$WORK/page.out" "$WORK/page_json.out" \
  && pass "LibreTranslate's web page sequence (settings, multipart with alternatives=3 and an empty api_key)" \
  || fail "web page sequence: $(cat "$WORK/page.out")"
# The same page with tags in the text: FormData with format "html" (its isHtml test).
page_html="<p>$first <b>Thank you.</b></p>"
req "$WORK/page_html.out" --form-string "q=$page_html" -F "source=$src" -F "target=$tgt" \
  -F format=html -F api_key= "$URL/translate"
req "$WORK/page_html_json.out" -H 'Content-Type: application/json' \
  -d "{\"q\": $(json_string "$page_html"), \"source\": \"en\", \"target\": \"es\", \"format\": \"html\"}" \
  "$URL/translate"
[ "$code" = 200 ] && py "j[0] == j[1] and j[0]['translatedText'].startswith('<p>') \
and j[0]['translatedText'].count('<b>') == 1 and j[0]['translatedText'].count('</b>') == 1 \
and j[0]['translatedText'].endswith('</p>')" \
  "$WORK/page_html.out" "$WORK/page_html_json.out" \
  && pass "LibreTranslate's web page with tags: multipart format=html keeps <p> and <b> around the translation" \
  || fail "web page html: $(cat "$WORK/page_html.out")"

# --- a browser extension: JSON with an array q ----------------------------------------------
python3 - "$WORK/lines.en" >"$WORK/ext.json" <<'PY'
import json, sys
q = open(sys.argv[1]).read().split("\n")[:3]
print(json.dumps({"q": q, "source": "auto", "target": "es", "format": "text", "api_key": ""}))
PY
req "$WORK/ext.out" -H 'Content-Type: application/json' -d @"$WORK/ext.json" "$URL/translate"
[ "$code" = 200 ] && py "j[0]['translatedText'] == j[1]['translatedText'][:3]" \
  "$WORK/ext.out" "$WORK/array.out" \
  && py "[d['language'] for d in j[0]['detectedLanguage']] == ['en'] * 3" "$WORK/ext.out" \
  && pass "a browser extension's request (source auto, array q, api_key \"\") gives an array of translations, each detected en" \
  || fail "extension: $code $(cat "$WORK/ext.out")"

# --- POST /translate_file and GET /download_file -------------------------------------------
cp "$WORK/lines.en" "$WORK/doc.txt"
req "$WORK/file.out" -F "file=@$WORK/doc.txt" -F source=en -F target=es "$URL/translate_file"
file_url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["translatedFileUrl"])' \
  "$WORK/file.out" 2>/dev/null)
case "$file_url" in
  "$URL"/download_file/*.doc.txt) pass "POST /translate_file → {\"translatedFileUrl\": …/download_file/….doc.txt}" ;;
  *) fail "translate_file: $code $(cat "$WORK/file.out")" ;;
esac
curl -s -D "$WORK/dl.headers" -o "$WORK/dl.txt" "$file_url"
python3 - "$WORK/doc.txt" >"$WORK/whole.json" <<'PY'
import json, sys
print(json.dumps({"q": open(sys.argv[1]).read(), "source": "en", "target": "es"}))
PY
req "$WORK/whole.out" -H 'Content-Type: application/json' -d @"$WORK/whole.json" "$URL/translate"
python3 -c 'import json,sys; sys.stdout.write(json.load(open(sys.argv[1]))["translatedText"])' \
  "$WORK/whole.out" >"$WORK/whole.es"
[ -s "$WORK/dl.txt" ] && cmp -s "$WORK/dl.txt" "$WORK/whole.es" \
  && [ "$(wc -l <"$WORK/dl.txt")" = 8 ] \
  && pass "the downloaded file is the text's translation, line for line" \
  || { fail "downloaded file differs"; diff "$WORK/dl.txt" "$WORK/whole.es" | head -5; }
grep -qi '^Content-Disposition: attachment; filename="doc.txt"' "$WORK/dl.headers" \
  && pass "downloaded as an attachment named doc.txt" \
  || fail "download headers: $(cat "$WORK/dl.headers")"
printf 'Mañana iremos al mercado a comprar fruta y verduras frescas para la cena.\n' >"$WORK/es.txt"
req "$WORK/es.out" -F "file=@$WORK/es.txt" -F source=auto -F target=es "$URL/translate_file"
[ "$code" = 400 ] && grep -q "detected as Spanish" "$WORK/es.out" \
  && pass "translate_file with source auto refuses a Spanish file, saying so" \
  || fail "translate_file auto: $code $(cat "$WORK/es.out")"
printf 'x' >"$WORK/doc.pdf"
req "$WORK/body" -F "file=@$WORK/doc.pdf" -F source=en -F target=es "$URL/translate_file"
error_is 400 "Invalid request: file format not supported" "a .pdf upload"
req "$WORK/body" -F source=en -F target=es "$URL/translate_file"
error_is 400 "Invalid request: missing file parameter" "translate_file without a file"
req "$WORK/body" -F "file=@$WORK/doc.txt" -F target=es "$URL/translate_file"
error_is 400 "Invalid request: missing source parameter" "translate_file without source"
req "$WORK/body" -F "file=@$WORK/doc.txt" -F source=en -F target=de "$URL/translate_file"
error_is 400 "de is not supported" "translate_file to another language"
printf 'caf\xe9\n' >"$WORK/latin1.txt"
req "$WORK/body" -F "file=@$WORK/latin1.txt" -F source=en -F target=es "$URL/translate_file"
error_is 400 "Invalid request: the file is not UTF-8 text" "a file that is not UTF-8"
req "$WORK/body" "$URL/download_file/00000000000000000000000000000000.doc.txt"
[ "$code" = 404 ] && py "'Invalid filename' in j[0]['error']" "$WORK/body" \
  && pass "an unknown download → 404 {\"error\": …}" || fail "unknown download: $code"
req "$WORK/body" "$URL/download_file/..%2F..%2Fetc%2Fpasswd"
[ "$code" = 404 ] && pass "a path in the download name → 404" || fail "traversal: $code"
head -c 70000 /dev/zero | tr '\0' a >"$WORK/huge.txt"
req "$WORK/body" -F "file=@$WORK/huge.txt" -F source=en -F target=es "$URL/translate_file"
[ "$code" = 413 ] && py "j[0]['error']" "$WORK/body" && pass "a file over --max-body → 413 {\"error\": …}" \
  || fail "huge file: $code $(head -c 200 "$WORK/body")"

# --- CORS off: no Access-Control-* header, preflight still answered ------------------------
code=$(curl -s -o /dev/null -D "$WORK/pre.headers" -w '%{http_code}' -X OPTIONS \
  -H 'Origin: http://page.example' -H 'Access-Control-Request-Method: POST' "$URL/translate")
[ "$code" = 204 ] && ! grep -qi '^Access-Control-' "$WORK/pre.headers" \
  && pass "without --cors-origin: OPTIONS → 204 without Access-Control-* headers" \
  || fail "CORS off: $code $(cat "$WORK/pre.headers")"

# --- malformed bodies -----------------------------------------------------------------------
req "$WORK/body" -H 'Content-Type: multipart/form-data; boundary=XYZ' \
  --data-binary $'--XYZ\r\nContent-Disposition: form-data; name="q"\r\n\r\nHello' "$URL/translate"
[ "$code" = 400 ] && py "j[0]['error']" "$WORK/body" && pass "a truncated multipart body → 400 {\"error\": …}" \
  || fail "truncated multipart: $code $(cat "$WORK/body")"
req "$WORK/body" -H 'Content-Type: multipart/form-data' --data-binary 'garbage' "$URL/translate"
[ "$code" = 400 ] && pass "multipart without a boundary → 400" || fail "no boundary: $code"
req "$WORK/body" -H 'Content-Type: multipart/form-data; boundary=XYZ' \
  --data-binary $'--XYZ\r\nContent-Disposition: form-data; name="q"\r\n\r\n\xff\xfe\r\n--XYZ--\r\n' \
  "$URL/translate"
[ "$code" = 400 ] && pass "invalid UTF-8 in a multipart field → 400" || fail "multipart UTF-8: $code"
still_serves "malformed bodies"

# --- the access log: one line per request ----------------------------------------------------
before=$(wc -l <"$WORK/access.log")
for path in /health /languages /frontend/settings /nowhere; do curl -s -o /dev/null "$URL$path"; done
curl -s -o /dev/null -d "q=Hello.&source=en&target=es" "$URL/translate"
sleep 0.5
after=$(wc -l <"$WORK/access.log")
[ $((after - before)) = 5 ] && pass "the access log: one line per request (5 more)" \
  || fail "access log grew by $((after - before)) lines for 5 requests"
tail -1 "$WORK/access.log" | grep -qE \
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}Z 127\.0\.0\.1 POST /translate 200 [0-9]+\.[0-9]ms 6chars$' \
  && pass "access log line: time client method path status ms chars ($(tail -1 "$WORK/access.log"))" \
  || fail "access log line: $(tail -1 "$WORK/access.log")"
grep -q ' GET /nowhere 404 ' "$WORK/access.log" && pass "a 404 is logged too" || fail "no 404 line"
! grep -q 'translate\|GET' "$WORK/serve.err" && pass "--access-log FILE: nothing of it on stderr" \
  || fail "access lines on stderr with --access-log"

# --- GET /metrics -------------------------------------------------------------------------------
metrics() { curl -s "$URL/metrics" >"$1"; }
# metric FILE SAMPLE: the value of SAMPLE (name{labels}) in FILE, 0 when absent.
metric() { awk -v s="$2" '$1 == s {print $2; found=1} END {if (!found) print 0}' "$1"; }
metrics "$WORK/m0"
python3 - "$WORK/m0" <<'PY' && pass "/metrics: every line a comment or name{labels} value" \
  || fail "/metrics does not parse: $(head -c 300 "$WORK/py.err")"
import re, sys
sample = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})? [-+0-9.eE]+$|^[a-zA-Z_:][a-zA-Z0-9_:]*\{le="\+Inf"\} [0-9]+$')
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "" and lines[:-1], "empty or no final newline"
for line in lines[:-1]:
    assert line.startswith("# HELP ") or line.startswith("# TYPE ") or sample.match(line), line
PY
t0=$(metric "$WORK/m0" 'atento_requests_total{path="/translate",status="200"}')
e0=$(metric "$WORK/m0" 'atento_errors_total')
c0=$(metric "$WORK/m0" 'atento_characters_translated_total')
for _ in 1 2 3; do curl -s -o /dev/null -d "q=Hello.&source=en&target=es" "$URL/translate"; done
curl -s -o /dev/null -d "q=Hello.&source=en&target=de" "$URL/translate"
sleep 0.5
metrics "$WORK/m1"
t1=$(metric "$WORK/m1" 'atento_requests_total{path="/translate",status="200"}')
[ "$t1" = $((t0 + 3)) ] && pass "/metrics counts the requests made (translate 200: $t0 → $t1)" \
  || fail "translate 200 counter: $t0 → $t1, expected +3"
[ "$(metric "$WORK/m1" 'atento_requests_total{path="/translate",status="400"}')" -ge 1 ] \
  && [ "$(metric "$WORK/m1" atento_errors_total)" = $((e0 + 1)) ] \
  && pass "/metrics counts the error" || fail "errors: $e0 → $(metric "$WORK/m1" atento_errors_total)"
[ "$(metric "$WORK/m1" atento_characters_translated_total)" = $((c0 + 18)) ] \
  && pass "/metrics counts the characters translated (+18)" \
  || fail "characters: $c0 → $(metric "$WORK/m1" atento_characters_translated_total)"
[ "$(metric "$WORK/m1" atento_sentences_translated_total)" -gt 0 ] \
  && [ "$(metric "$WORK/m1" atento_batch_size_count)" -gt 0 ] \
  && [ "$(metric "$WORK/m1" atento_request_duration_seconds_count)" -gt 0 ] \
  && grep -q '^atento_queue_depth 0$' "$WORK/m1" \
  && pass "/metrics: sentences, batch sizes, latency, queue depth" \
  || fail "metrics families: $(grep -v '^#' "$WORK/m1" | head -20)"

# --- 200 idle connections, then /health ---------------------------------------------------
python3 - "${URL#http://}" <<'PY' &
import socket, sys, time
host, port = sys.argv[1].split(":")
socks = []
for _ in range(200):
    try: socks.append(socket.create_connection((host, int(port)), timeout=5))
    except OSError: break
time.sleep(3)
PY
idle_pid=$!
sleep 1
still_serves "200 idle connections"
wait "$idle_pid"
stop_server

# === CORS and API keys ======================================================================
printf '# keys of the e2e test\ngood-key-1\n\n  good-key-2  # second\n' >"$WORK/keys.txt"
start_server "$WORK/serve2.err" --api-keys "$WORK/keys.txt" --cors-origin http://page.example \
  --cors-origin http://other.example --no-access-log || fail "keys server"
grep -q '2 API key(s)' "$WORK/serve2.err" && pass "starts with 2 API keys" || fail "$(cat "$WORK/serve2.err")"
code=$(curl -s -o /dev/null -D "$WORK/pre.headers" -w '%{http_code}' -X OPTIONS \
  -H 'Origin: http://page.example' -H 'Access-Control-Request-Method: POST' \
  -H 'Access-Control-Request-Headers: Content-Type' "$URL/translate")
[ "$code" = 204 ] && grep -qi '^Access-Control-Allow-Origin: http://page.example' "$WORK/pre.headers" \
  && grep -qi '^Access-Control-Allow-Methods: .*POST' "$WORK/pre.headers" \
  && grep -qi '^Access-Control-Allow-Headers: .*Content-Type' "$WORK/pre.headers" \
  && pass "--cors-origin: the preflight from a listed origin → 204 with Access-Control-Allow-*" \
  || fail "preflight: $code $(cat "$WORK/pre.headers")"
curl -s -o /dev/null -D "$WORK/pre2.headers" -X OPTIONS -H 'Origin: http://evil.example' \
  -H 'Access-Control-Request-Method: POST' "$URL/translate"
! grep -qi '^Access-Control-Allow-Origin' "$WORK/pre2.headers" \
  && pass "an origin not listed gets no Access-Control-Allow-Origin" || fail "evil origin allowed"
curl -s -o /dev/null -D "$WORK/get.headers" -H 'Origin: http://other.example' "$URL/languages"
grep -qi '^Access-Control-Allow-Origin: http://other.example' "$WORK/get.headers" \
  && pass "a GET from a listed origin carries Access-Control-Allow-Origin" \
  || fail "GET CORS: $(cat "$WORK/get.headers")"
req "$WORK/settings2.json" "$URL/frontend/settings"
py "j[0]['apiKeys'] is True and j[0]['keyRequired'] is True" "$WORK/settings2.json" \
  && pass "/frontend/settings: apiKeys and keyRequired true" || fail "$(cat "$WORK/settings2.json")"
req "$WORK/body" -D "$WORK/post.headers" -H 'Origin: http://page.example' \
  -H 'Content-Type: application/json' -d '{"q": "Hello.", "source": "en", "target": "es"}' \
  "$URL/translate"
error_is 403 "Please contact the server operator to get an API key" "no api_key"
grep -qi '^Access-Control-Allow-Origin: http://page.example' "$WORK/post.headers" \
  && pass "an error answer carries the CORS header too (the page can read it)" \
  || fail "no CORS header on the 403"
req "$WORK/body" -H 'Content-Type: application/json' \
  -d '{"q": "Hello.", "source": "en", "target": "es", "api_key": "bogus"}' "$URL/translate"
error_is 403 "Invalid API key" "a bogus api_key (JSON)"
req "$WORK/body" -F q=Hello. -F source=en -F target=es -F api_key=good-key-3 "$URL/translate"
error_is 403 "Invalid API key" "a bogus api_key (multipart)"
req "$WORK/body" -d 'q=Hello.&source=en&target=es&api_key=good-key-1%00' "$URL/translate"
error_is 403 "Invalid API key" "a key with a NUL after a good one (form)"
req "$WORK/body" -H 'Content-Type: application/json' \
  -d '{"q": "Hello.", "source": "en", "target": "es", "api_key": 42}' "$URL/translate"
error_is 403 "Please contact the server operator to get an API key" "a number as api_key"
req "$WORK/body" -F "file=@$WORK/doc.txt" -F source=en -F target=es "$URL/translate_file"
error_is 403 "Please contact the server operator to get an API key" "translate_file without a key"
req "$WORK/k1.out" -H 'Content-Type: application/json' \
  -d '{"q": "Hello.", "source": "en", "target": "es", "api_key": "good-key-1"}' "$URL/translate"
ok_json=$code
req "$WORK/k2.out" -d 'q=Hello.&source=en&target=es&api_key=good-key-2' "$URL/translate"
ok_form=$code
req "$WORK/k3.out" -F q=Hello. -F source=en -F target=es -F api_key=good-key-2 "$URL/translate"
[ "$ok_json/$ok_form/$code" = 200/200/200 ] && py "j[0] == j[1] == j[2]" "$WORK/k1.out" "$WORK/k2.out" "$WORK/k3.out" \
  && pass "a good key (JSON, form, multipart) → 200" || fail "good keys: $ok_json/$ok_form/$code"
req "$WORK/body" "$URL/translate?api_key=good-key-1" -d 'q=Hello.&source=en&target=es'
[ "$code" = 200 ] && pass "a good key in the query string → 200 (as Flask's request.values)" \
  || fail "query key: $code"
req "$WORK/kf.out" -F "file=@$WORK/doc.txt" -F source=en -F target=es -F api_key=good-key-1 \
  "$URL/translate_file"
[ "$code" = 200 ] && pass "translate_file with a good key → 200" || fail "translate_file key: $code"
for path in /health /languages /frontend/settings /metrics; do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL$path")" = 200 ] || fail "GET $path needs a key"
done
pass "GET /health, /languages, /frontend/settings, /metrics need no key"
for _ in $(seq 1 50); do
  curl -s -o /dev/null -d "q=Hi&source=en&target=es&api_key=$RANDOM$RANDOM" "$URL/translate"
done
still_serves "50 bogus keys"
stop_server

# === --req-limit ============================================================================
start_server "$WORK/serve3.err" --req-limit 3 || fail "limited server"
codes=""
for _ in 1 2 3 4; do
  req "$WORK/body" -D "$WORK/limit.headers" -d 'q=Hello.&source=en&target=es' "$URL/translate"
  codes="$codes$code "
done
[ "$codes" = "200 200 200 429 " ] && pass "--req-limit 3: the 4th request in a minute → 429" \
  || fail "rate limit: $codes"
error_is 429 "Slowdown: 3 per 1 minute" "past the limit"
grep -qiE '^Retry-After: [0-9]+' "$WORK/limit.headers" && pass "429 with Retry-After" \
  || fail "no Retry-After: $(cat "$WORK/limit.headers")"
grep -qE '127\.0\.0\.1 POST /translate 429 ' "$WORK/serve3.err" \
  && pass "the access log goes to stderr by default" || fail "no access log on stderr"
req "$WORK/body" -F "file=@$WORK/doc.txt" -F source=en -F target=es "$URL/translate_file"
[ "$code" = 429 ] && pass "translate_file shares the limit" || fail "translate_file limit: $code"
# The bucket refills one request every 20 s: a few may get through while the flood lasts.
for _ in $(seq 1 200); do echo x; done | xargs -P 16 -I{} curl -s -o /dev/null \
  -w '%{http_code}\n' -d 'q=Hello.&source=en&target=es' "$URL/translate" >"$WORK/flood"
refused=$(grep -c '^429$' "$WORK/flood"); served=$(grep -c '^200$' "$WORK/flood")
[ "$((refused + served))" = 200 ] && [ "$refused" -ge 195 ] \
  && pass "a flood of 200 past the limit: $refused refused (429), $served let through by the refill" \
  || fail "flood: $(sort "$WORK/flood" | uniq -c | tr '\n' ' ')"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/languages")" = 200 ] \
  && pass "GET endpoints are not limited" || fail "GET limited"
still_serves "the flood"
stop_server

# === usage errors (exit 2, before the model is loaded) ======================================
printf 'good\nbad key here\n' >"$WORK/bad_keys.txt"
expect_exit 2 "a bad API keys file is a usage error" -- "$S" --model "$model" --api-keys "$WORK/bad_keys.txt"
expect_stderr "error: .*bad_keys.txt:2: invalid API key" "names the file and line"
printf '# nothing\n' >"$WORK/empty_keys.txt"
expect_exit 2 "a keys file without keys is a usage error" -- "$S" --model "$model" --api-keys "$WORK/empty_keys.txt"
expect_stderr "empty_keys.txt: no API key" "says the file holds no key"
expect_exit 2 "a missing keys file is a usage error" -- "$S" --model "$model" --api-keys "$WORK/none.txt"
expect_exit 2 "a bad --cors-origin is a usage error" -- "$S" --model "$model" --cors-origin example.org/x
expect_stderr "cors-origin example.org/x" "names the bad origin"
expect_exit 2 "an access log that cannot be opened is a usage error" -- "$S" --model "$model" \
  --access-log "$WORK/no/such/dir/access.log"
expect_stderr "cannot open the access log" "says it cannot open the access log"
finish
