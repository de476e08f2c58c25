#!/usr/bin/env bash
# atento-release end to end: a release holds only what translation needs, checks out with
# sha256sum, translates and evaluates exactly as its training directory does, its safetensors
# weights read by NumPy equal what Atento reads, and bad input is refused without leftovers.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
model=$WORK/model
"$BUILD/atento-train" --config configs/sample.json --out "$model" --set train.max_epochs=4 \
  "${SAMPLE_SETTINGS[@]}" >/dev/null 2>"$WORK/train.err" || { cat "$WORK/train.err"; exit 1; }
R="$BUILD/atento-release"
rel=$WORK/release

cut -f1 "$model/test.tsv" | head -40 >"$WORK/in.en"
"$BUILD/atento-eval" --model "$model" --pairs "$model/test.tsv" --json >"$WORK/metrics.json" \
  2>/dev/null || fail "atento-eval on the training directory"
expect_exit 0 "releases a model" -- "$R" --model "$model" --out "$rel" --metrics "$WORK/metrics.json"
ls "$rel" | sort >"$WORK/files"
{ printf '%s\n' MODEL.md SHA256SUMS config.json lexicon.tsv model.safetensors
  (cd "$model" && ls spm.*.model); } | sort \
  | cmp -s - "$WORK/files" \
  && pass "only config, tokenizer, word lexicon, weights, MODEL.md and SHA256SUMS" \
  || fail "release files: $(tr '\n' ' ' <"$WORK/files")"
(cd "$rel" && sha256sum --quiet -c SHA256SUMS) && pass "sha256sum -c SHA256SUMS" \
  || fail "checksums do not match"
grep -q "en → es" "$rel/MODEL.md" && grep -q "src_len | 40" "$rel/MODEL.md" \
  && grep -q "next_word_accuracy" "$rel/MODEL.md" && grep -q "Training split: [0-9]* pairs" "$rel/MODEL.md" \
  && pass "MODEL.md: languages, recipe, split and metrics" || fail "MODEL.md lacks a section"

# --- a release works as its training directory does ---------------------------------------
for m in "$model" "$rel"; do
  "$BUILD/atento-translate" --model "$m" --input "$WORK/in.en" --output "$WORK/out.$(basename "$m")" \
    2>/dev/null || fail "atento-translate --model $m"
  "$BUILD/atento-translate" --model "$m" --input "$WORK/in.en" --set translate.beam=3 \
    --output "$WORK/beam.$(basename "$m")" 2>/dev/null || fail "beam search with $m"
done
printf '<p>%s <b>%s</b> %s</p>\n' "$(sed -n 1p "$WORK/in.en")" "$(sed -n 2p "$WORK/in.en")" \
  "$(sed -n 3p "$WORK/in.en")" >"$WORK/page.html"
for m in "$model" "$rel"; do
  "$BUILD/atento-translate" --model "$m" --format html --input "$WORK/page.html" \
    --output "$WORK/html.$(basename "$m")" 2>/dev/null || fail "--format html with $m"
done
cmp -s "$WORK/out.model" "$WORK/out.release" && cmp -s "$WORK/beam.model" "$WORK/beam.release" \
  && cmp -s "$WORK/html.model" "$WORK/html.release" \
  && pass "the release translates exactly as its training directory (greedy, beam 3, HTML)" \
  || fail "translations differ"
"$BUILD/atento-eval" --model "$rel" --pairs "$model/test.tsv" --json >"$WORK/metrics.rel.json" \
  2>/dev/null && python3 - "$WORK/metrics.json" "$WORK/metrics.rel.json" <<'PY' \
  && pass "atento-eval: the same figures from the release" || fail "eval figures differ"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
keys = ["next_word_accuracy", "loss", "bleu", "chrf", "pairs", "target_tokens"]
assert [a[k] for k in keys] == [b[k] for k in keys], (a, b)
PY
best=$(ls "$model/model.safetensors" "$model/model.pt" 2>/dev/null | head -1)  # older: model.pt
"$BUILD/atento_weights_diff" "$best" "$rel/model.safetensors" | grep -q "max_abs_diff 0$" \
  && pass "the release holds the training directory's best weights exactly" || fail "weights differ"

# --- NumPy reads the safetensors file as the format defines it ------------------------------
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then  # Debian's python3-numpy
  "$BUILD/atento_weights_diff" --sums "$rel/model.safetensors" >"$WORK/sums.atento"
  /usr/bin/python3 - "$rel/model.safetensors" "$WORK/sums.atento" <<'PY' \
    && pass "NumPy reads every tensor of the release as Atento does" || fail "NumPy disagrees"
import json, struct, sys
import numpy as np
raw = open(sys.argv[1], "rb").read()
(n,) = struct.unpack("<Q", raw[:8])
header, data = json.loads(raw[8:8 + n]), raw[8 + n:]
types = {"F32": "<f4", "I64": "<i8", "F64": "<f8", "I32": "<i4"}
atento = dict((l.split()[0], float(l.split()[1])) for l in open(sys.argv[2]))
header.pop("__metadata__", None)
assert set(header) == set(atento), (len(header), len(atento))
for name, spec in header.items():
    begin, end = spec["data_offsets"]
    values = np.frombuffer(data[begin:end], dtype=types[spec["dtype"]]).reshape(spec["shape"])
    total = float(values.astype(np.float64).sum())
    assert abs(total - atento[name]) <= 1e-9 * max(1.0, abs(total)), (name, total, atento[name])
PY
else
  echo "note: python3-numpy missing (scripts/setup.sh installs it); NumPy check skipped"
fi

# --- bad input ------------------------------------------------------------------------------
expect_exit 1 "an existing, non-empty --out is refused" -- "$R" --model "$model" --out "$rel"
expect_stderr "release: exists and is not an empty directory" "says the output exists"
expect_exit 1 "a directory that is not a model is refused" -- "$R" --model "$WORK" --out "$WORK/r2"
expect_stderr "not a model directory" "says it is not a model directory"
[ ! -e "$WORK/r2" ] && [ -z "$(ls -d "$WORK"/*.partial-* 2>/dev/null)" ] \
  && pass "nothing left behind by a refused release" || fail "leftovers: $(ls "$WORK")"
cp -r "$rel" "$WORK/cut"
head -c 100000 "$rel/model.safetensors" >"$WORK/cut/model.safetensors"
expect_exit 1 "a truncated model.safetensors is refused" -- \
  "$BUILD/atento-translate" --model "$WORK/cut" --input "$WORK/in.en" --output "$WORK/x"
expect_stderr "model.safetensors: not a valid safetensors file" "the error names the file"
finish
