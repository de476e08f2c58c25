#!/usr/bin/env bash
# atento-serve end to end on a small model trained on the sample corpus: translations through
# a real LibreTranslate client (npm `libretranslate` under Node, when node and npm are here) and
# curl equal atento-translate's; every kind of bad input gets a 4xx/5xx JSON error and the
# server keeps serving; SIGTERM finishes the request in flight and exits 0.
# $ATENTO_E2E_MODEL=DIR reuses a trained model instead of training one.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
serve_prologue
S="$BUILD/atento-serve"

# start_server LOG ARGS...: atento-serve with the model on a free loopback port (lib_e2e.sh).
start_server() { start_server_binary "$1" "$S" --model "$model" "${@:2}"; }

# post BODY [CONTENT-TYPE]: POST /translate; the status in $code, the body in $WORK/body.
post() {
  code=$(curl -s -o "$WORK/body" -w '%{http_code}' -H "Content-Type: ${2:-application/json}" \
    --data-binary @- "$URL/translate" <<<"$1")
}

still_serves() {
  [ "$(curl -s -m 10 "$URL/health")" = '{"status":"ok"}' ] && pass "still serves after $1" \
    || fail "does not serve after $1"
}

cut -f1 "$model/test.tsv" | head -24 >"$WORK/lines.en"
"$BUILD/atento-translate" --model "$model" --input "$WORK/lines.en" >"$WORK/expected.es" 2>/dev/null
start_server "$WORK/serve.err" --max-chars 2000 --max-strings 8 --max-queue 64 --max-body 65536 \
  --read-timeout 2 || { fail "the server does not start"; finish; exit 1; }
pass "starts on a free loopback port ($URL)"
# Many clients connecting at once fit its listen backlog (httplib's own is 5: the rest waited
# for a retransmission or failed). ss (Debian iproute2) shows a listening socket's backlog.
if command -v ss >/dev/null; then
  backlog=$(ss -Hltn "sport = :${URL##*:}" | awk '{print $3; exit}')
  [ "${backlog:-0}" -ge 128 ] && pass "listen backlog $backlog" ||
    fail "listen backlog ${backlog:-not found} (expected at least 128)"
else
  echo "skipped: the listen backlog check (no ss here; Debian iproute2)"
fi

# --- the API ------------------------------------------------------------------------------
[ "$(curl -s "$URL/health")" = '{"status":"ok"}' ] && pass "GET /health" || fail "GET /health"
curl -s "$URL/languages" >"$WORK/languages.json"
python3 - "$WORK/languages.json" <<'PY' && pass "GET /languages: en → es" || fail "GET /languages"
import json, sys
langs = json.load(open(sys.argv[1]))
en = [l for l in langs if l["code"] == "en"][0]
assert en["name"] == "English" and en["targets"] == ["es"], langs
assert any(l["code"] == "es" for l in langs), langs
PY

# One request per line, 8 at a time (batched together by the server), through curl.
mkdir -p "$WORK/curl"
export URL WORK
python3 - "$WORK/lines.en" "$WORK/curl" <<'PY'
import json, os, sys
for i, line in enumerate(open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1]):
    with open(os.path.join(sys.argv[2], "%03d.json" % i), "w", encoding="utf-8") as f:
        json.dump({"q": line, "source": "en", "target": "es", "format": "text"}, f)
PY
# each_line_concurrently OUT: the requests in $WORK/curl, 8 at a time; translations to OUT.
each_line_concurrently() {
  rm -f "$WORK"/curl/*.out
  ls "$WORK"/curl/*.json | xargs -P 8 -I{} sh -c \
    'curl -s -H "Content-Type: application/json" --data-binary @{} "$URL/translate" >{}.out'
  for f in "$WORK"/curl/*.json.out; do
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["translatedText"])' "$f"
  done >"$1" 2>/dev/null
}
each_line_concurrently "$WORK/curl.es"
cmp -s "$WORK/curl.es" "$WORK/expected.es" \
  && pass "curl, 24 concurrent JSON requests: translations equal atento-translate's" \
  || { fail "curl translations differ from atento-translate's"; diff "$WORK/curl.es" "$WORK/expected.es" | head; }

python3 - "$WORK/lines.en" >"$WORK/array.json" <<'PY'
import json, sys
print(json.dumps({"q": open(sys.argv[1]).read().split("\n")[:8], "source": "auto", "target": "es"}))
PY
post "$(cat "$WORK/array.json")"
python3 - "$WORK/body" "$WORK/expected.es" <<'PY' && pass "an array q gives an array, in order" \
  || fail "array q: $code $(head -c 300 "$WORK/body")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["translatedText"] == open(sys.argv[2]).read().split("\n")[:8], r
assert r["detectedLanguage"][0]["language"] == "en", r
PY
first=$(head -1 "$WORK/lines.en")
code=$(curl -s -o "$WORK/body" -w '%{http_code}' --data-urlencode "q=$first" -d source=en \
  -d target=es "$URL/translate")
[ "$code" = 200 ] && [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["translatedText"])' \
  "$WORK/body")" = "$(head -1 "$WORK/expected.es")" ] && pass "a form body (curl -d) translates" \
  || fail "form body: $code $(cat "$WORK/body")"
# Language identification: /detect, and source "auto" refusing text in another language.
code=$(curl -s -o "$WORK/body" -w '%{http_code}' -H 'Content-Type: application/json' \
  -d '{"q":"Mañana iremos al mercado a comprar fruta y verduras frescas para la cena."}' \
  "$URL/detect")
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r[0]["language"] == "es", r
assert 50 < r[0]["confidence"] <= 100, r' "$WORK/body" && [ "$code" = 200 ] \
  && pass "POST /detect: Spanish text is es" || fail "POST /detect: $code $(cat "$WORK/body")"
code=$(curl -s -o "$WORK/body" -w '%{http_code}' -d 'q=Good+morning+to+you+all%2C+and+welcome+to+our+little+town.' \
  "$URL/detect")
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r[0]["language"] == "en", r' \
  "$WORK/body" && pass "POST /detect (form body): English text is en" || fail "POST /detect form: $(cat "$WORK/body")"
post '{"q":"Mañana iremos al mercado a comprar fruta y verduras frescas para la cena.","source":"auto","target":"es"}'
expect_json_error 400 "source auto with Spanish text"
grep -q "detected as Spanish" "$WORK/body" && pass "the 400 says the text was detected as Spanish" \
  || fail "the auto refusal does not say what was detected: $(cat "$WORK/body")"
code=$(curl -s -o "$WORK/body" -w '%{http_code}' -H 'Content-Type: application/json' -d '{}' \
  "$URL/detect")
expect_json_error 400 "POST /detect without q"
post '{"q":"Good morning.","source":"en","target":"es","alternatives":2}'
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert isinstance(r["translatedText"], str)
assert len(r["alternatives"]) == 2, r' "$WORK/body" && pass "alternatives: 2 more translations" \
  || fail "alternatives: $code $(cat "$WORK/body")"

# --- a real LibreTranslate client ---------------------------------------------------------
if command -v node >/dev/null && command -v npm >/dev/null; then
  client="$BUILD/serve_client"  # git-ignored; node_modules kept between runs
  mkdir -p "$client"
  cp tests/serve_client/package.json tests/serve_client/package-lock.json \
    tests/serve_client/translate.js "$client/"
  if [ -d "$client/node_modules/libretranslate" ] \
     || (cd "$client" && npm ci --no-audit --no-fund --silent >"$WORK/npm.log" 2>&1); then
    if node "$client/translate.js" "$URL" <"$WORK/lines.en" >"$WORK/node.es" 2>"$WORK/node.err" \
       && cmp -s "$WORK/node.es" "$WORK/expected.es"; then
      pass "npm libretranslate client (Node $(node --version)): translations equal atento-translate's"
    else
      fail "LibreTranslate client: $(tail -3 "$WORK/node.err")"; diff "$WORK/node.es" "$WORK/expected.es" | head
    fi
  else
    echo "note: npm ci failed (offline?); the LibreTranslate client is not tested, curl only:"
    tail -3 "$WORK/npm.log"
  fi
else
  echo "note: node or npm is missing; the LibreTranslate client is not tested, curl only"
fi

# --- bad input: an error each, and the server goes on -------------------------------------
post '{"q": "Hello", "source": "en",'; expect_json_error 400 "invalid JSON"
post '{"q": 42, "source": "en", "target": "es"}'; expect_json_error 400 "q of the wrong type"
post '{"q": "Hello", "source": "en", "target": "de"}'; expect_json_error 400 "unknown language pair"
post '{"q": "", "source": "en", "target": "es"}'; expect_json_error 400 "empty q"
post "{\"q\": \"$(printf 'a%.0s' $(seq 1 2001))\", \"source\": \"en\", \"target\": \"es\"}"
expect_json_error 400 "q over --max-chars"
post "$(printf '{"q": "\xff\xfe broken", "source": "en", "target": "es"}')"
expect_json_error 400 "invalid UTF-8"
post '{"q": ["a","b","c","d","e","f","g","h","i"], "source": "en", "target": "es"}'
expect_json_error 400 "more strings than --max-strings"
post "{\"q\": \"$(head -c 70000 /dev/zero | tr '\0' a)\", \"source\": \"en\", \"target\": \"es\"}"
expect_json_error 413 "body over --max-body"
head -c 70000 /dev/zero | tr '\0' a | sed 's/^/{"q": "/; s/$/", "source": "en", "target": "es"}/' \
  >"$WORK/long.json"
code=$(curl -s -o "$WORK/body" -w '%{http_code}' -H 'Content-Type: application/json' \
  -H 'Transfer-Encoding: chunked' --data-binary @"$WORK/long.json" "$URL/translate")
expect_json_error 413 "a chunked body over --max-body"
code=$(curl -s -o "$WORK/body" -w '%{http_code}' -F file=@"$WORK/long.json;filename=long.txt" \
  -H 'Transfer-Encoding: chunked' -F source=en -F target=es "$URL/translate_file")
expect_json_error 413 "a chunked upload over --max-body"
code=$(curl -s -o "$WORK/body" -w '%{http_code}' -m 3 -X POST "$URL/translate?q=Hi.&source=en&target=es")
expect_json_error 411 "a POST without a Content-Length, at once"
query=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' \
  "$(head -1 "$WORK/lines.en")")
code=$(curl -s -o "$WORK/body" -w '%{http_code}' -d '' "$URL/translate?q=$query&source=en&target=es")
[ "$code" = 200 ] && python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["translatedText"] \
  == open(sys.argv[2], encoding="utf-8").readline().rstrip("\n")' "$WORK/body" "$WORK/expected.es" \
  && pass "a form request's fields from the query string, translated as atento-translate does" \
  || fail "query-string fields: $code $(cat "$WORK/body")"
post 'q=Hello&source=en&target=es' text/plain; expect_json_error 415 "unsupported Content-Type"
code=$(curl -s -o "$WORK/body" -w '%{http_code}' "$URL/nowhere"); expect_json_error 404 "unknown path"
# 70 lines in one string: 70 sentences for a queue of 64.
post "{\"q\": \"$(printf 'Hello.\\n%.0s' $(seq 1 70))\", \"source\": \"en\", \"target\": \"es\"}"
expect_json_error 503 "more sentences than --max-queue"
still_serves "bad requests"
python3 - "${URL#http://}" <<'PY' && pass "a silent client is cut off after the read timeout" \
  || fail "a silent client keeps its connection"
import socket, sys, time
host, port = sys.argv[1].split(":")
s = socket.create_connection((host, int(port)))
s.sendall(b"POST /translate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"q\":")
s.settimeout(10)
start = time.time()
data = s.recv(4096)
while data and b"\r\n\r\n" not in data: data += s.recv(4096)
assert time.time() - start < 9, "no timeout"
PY
still_serves "a slow client"
python3 - "${URL#http://}" <<'PY'
import socket, sys
host, port = sys.argv[1].split(":")
body = b'{"q": ["Good morning.", "Thank you."], "source": "en", "target": "es"}'
s = socket.create_connection((host, int(port)))
s.sendall(b"POST /translate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          b"Content-Length: %d\r\n\r\n" % len(body) + body)
s.close()  # gone before the answer
PY
still_serves "a client that disconnected"
post "{\"q\": $(head -1 "$WORK/lines.en" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))'), \"source\": \"en\", \"target\": \"es\"}"
[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["translatedText"])' "$WORK/body")" \
  = "$(head -1 "$WORK/expected.es")" ] && pass "translates as before after all that" \
  || fail "translation after bad input: $(cat "$WORK/body")"

# --- SIGTERM: the request in flight is answered, then exit 0 --------------------------------
python3 - "${URL#http://}" "$server_pid" >"$WORK/inflight" 2>&1 <<'PY' &
import os, signal, socket, sys, time
host, port = sys.argv[1].split(":")
body = b'{"q": "Good morning.", "source": "en", "target": "es"}'
s = socket.create_connection((host, int(port)))
s.sendall(b"POST /translate HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
          b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:10])
time.sleep(0.5)  # the server is reading this request
os.kill(int(sys.argv[2]), signal.SIGTERM)
time.sleep(0.5)
s.sendall(body[10:])
s.settimeout(20)
data = b""
while True:
    chunk = s.recv(4096)
    if not chunk: break
    data += chunk
print(data.split(b"\r\n")[0].decode())
PY
client_pid=$!
status=timeout
for _ in $(seq 1 300); do
  if ! kill -0 "$server_pid" 2>/dev/null; then wait "$server_pid"; status=$?; break; fi
  sleep 0.1
done
wait "$client_pid"
[ "$status" = 0 ] && pass "SIGTERM: exits 0" || fail "SIGTERM: exit status $status"
server_pid=""
grep -q "200 OK" "$WORK/inflight" && pass "SIGTERM: the request in flight got its answer" \
  || fail "SIGTERM: request in flight: $(cat "$WORK/inflight")"
curl -s -m 2 "$URL/health" >/dev/null && fail "still accepting after SIGTERM" \
  || pass "no longer accepting after SIGTERM"

# --- usage errors -------------------------------------------------------------------------
expect_exit 2 "missing model directory is a usage error" -- "$S" --model "$WORK/none"
expect_exit 2 "a bad port is a usage error" -- "$S" --model "$model" --port 70000
start_server "$WORK/serve2.err" || fail "second server"
expect_exit 1 "a port in use is an error" -- "$S" --model "$model" --port "${URL##*:}"
expect_stderr "cannot listen on 127.0.0.1:${URL##*:}" "says which address it cannot listen on"
kill -INT "$server_pid"; wait "$server_pid"; status=$?; server_pid=""
[ "$status" = 0 ] && pass "SIGINT: exits 0" || fail "SIGINT: exit status $status"

# --- greedy requests: continuous batching (sentences join a running batch between steps) ----
"$BUILD/atento-translate" --model "$model" --beam 1 --input "$WORK/lines.en" \
  >"$WORK/expected1.es" 2>/dev/null
start_server "$WORK/serve3.err" --beam 1 --workers 1 || fail "greedy server"
grep -q "continuous batching" "$WORK/serve3.err" && pass "greedy server: continuous batching" \
  || fail "greedy server does not say it batches continuously: $(cat "$WORK/serve3.err")"
each_line_concurrently "$WORK/curl1.es"
cmp -s "$WORK/curl1.es" "$WORK/expected1.es" \
  && pass "greedy, 24 concurrent requests joining one running batch: translations equal atento-translate --beam 1's" \
  || { fail "greedy translations differ from atento-translate --beam 1's"; diff "$WORK/curl1.es" "$WORK/expected1.es" | head; }
# Paragraphs: the server segments as atento-translate does, so both give the same text.
python3 - "$WORK/lines.en" "$WORK/para.en" "$WORK/para.json" <<'PY'
import json, sys
lines = [l for l in open(sys.argv[1]).read().split("\n") if l][:12]
paragraphs = [" ".join(lines[i:i + 3]) for i in range(0, len(lines), 3)]
open(sys.argv[2], "w").write("\n".join(paragraphs) + "\n")
json.dump({"q": paragraphs, "source": "en", "target": "es"}, open(sys.argv[3], "w"))
PY
"$BUILD/atento-translate" --model "$model" --beam 1 --input "$WORK/para.en" \
  >"$WORK/para.expected" 2>/dev/null
post "$(cat "$WORK/para.json")"
python3 - "$WORK/body" "$WORK/para.expected" <<'PY' && pass "paragraphs: the server's translations equal atento-translate's" \
  || fail "paragraphs: $(head -c 300 "$WORK/body")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["translatedText"] == open(sys.argv[2]).read().split("\n")[:-1], r
assert "warnings" not in r, r
PY
# Addresses and emoji: kept as they are, by the server as by atento-translate.
printf '%s\n' "Good morning 😀. Mail me at tom@example.com, please." \
  "(https://example.org/a?b=1)" >"$WORK/verbatim.en"
"$BUILD/atento-translate" --model "$model" --beam 1 --input "$WORK/verbatim.en" \
  >"$WORK/verbatim.expected" 2>/dev/null
post "$(python3 -c 'import json,sys; print(json.dumps({"q": open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1], "source": "en", "target": "es"}))' "$WORK/verbatim.en")"
python3 - "$WORK/body" "$WORK/verbatim.expected" <<'PY' \
  && pass "emoji and addresses: the server's translations equal atento-translate's, kept as they were" \
  || fail "emoji and addresses: $(head -c 300 "$WORK/body")"
import json, sys
r = json.load(open(sys.argv[1], encoding="utf-8"))["translatedText"]
assert r == open(sys.argv[2], encoding="utf-8").read().split("\n")[:-1], r
assert "\U0001F600" in r[0] and "tom@example.com" in r[0] and r[1] == "(https://example.org/a?b=1)", r
PY
run="see $(head -c 600 /dev/zero | tr '\0' 'x')"
post "{\"q\": \"$run\", \"source\": \"en\", \"target\": \"es\"}"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
assert r["translatedText"] and "cut" in r["warnings"][0], r' "$WORK/body" \
  && pass "an over-long run is cut and the response says so in a warnings field" \
  || fail "cut warning: $(head -c 300 "$WORK/body")"
post '{"q": ["", "Good morning.", "   "], "source": "en", "target": "es"}'
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["translatedText"]
assert r[0] == "" and r[2] == "" and r[1] != "", r' "$WORK/body" \
  && pass "greedy: blank strings stay blank beside a sentence" || fail "greedy blanks: $(cat "$WORK/body")"
kill -TERM "$server_pid"; wait "$server_pid"; status=$?; server_pid=""
[ "$status" = 0 ] && pass "greedy server: SIGTERM exits 0" || fail "greedy server: exit status $status"
finish
