#!/usr/bin/env bash
# How often atento-serve's `source: "auto"` refuses text in the model's source language, and
# lets through text in its target language, on the model's test split; it asserts nothing.
#   scripts/bench_language_id.sh MODEL_DIR [SENTENCES]   (default 3000 of each side)
# Each sentence is one POST /translate {"q": sentence, "source": "auto"} (8 at a time); a 400
# is a refusal. Prints, per side, the sentences sent, refused and accepted, and the languages
# the refusals named.
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:?usage: scripts/bench_language_id.sh MODEL_DIR [SENTENCES]}
n=${2:-3000}
[ -x build/atento-serve ] || { echo "error: build/atento-serve missing: run scripts/setup.sh" >&2; exit 2; }
source tests/e2e/lib_e2e.sh
WORK=$(mktemp -d)
trap 'kill "$server_pid" 2>/dev/null; rm -rf "$WORK"' EXIT
start_server_binary "$WORK/serve.err" build/atento-serve --model "$model" --max-queue 100000
echo "model $model, $n sentences of each side of test.tsv"
/usr/bin/python3 - "$URL" "$model/test.tsv" "$n" <<'PY'
import collections, concurrent.futures, json, sys, urllib.error, urllib.request
url, test, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
pairs = [l.rstrip("\n").split("\t") for l in open(test, encoding="utf-8")][:n]
langs = json.load(urllib.request.urlopen(url + "/languages"))
source, target = langs[0]["code"], langs[0]["targets"][0]

def ask(text):
    body = json.dumps({"q": text, "source": "auto", "target": target}).encode()
    req = urllib.request.Request(url + "/translate", body, {"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(req).read()
        return None
    except urllib.error.HTTPError as e:
        if e.code != 400:
            raise
        return json.load(e)["error"].split(" ")[0]

for side, code in ((0, source), (1, target)):
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        refused = [r for r in pool.map(ask, (p[side] for p in pairs)) if r]
    named = collections.Counter(refused).most_common(6)
    print(f"{code} side: {len(pairs)} sent, {len(refused)} refused "
          f"({100 * len(refused) / len(pairs):.2f}%), {len(pairs) - len(refused)} accepted; "
          f"refusals named {dict(named)}")
PY
