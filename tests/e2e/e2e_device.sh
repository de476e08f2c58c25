#!/usr/bin/env bash
# The device as a run-time choice: --device on the three tools, a model trained on one device
# used on another, an older model directory that names model.device, the clear error when CUDA
# is asked for and absent, and bf16 autocast training on the CPU.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
TRAIN="$BUILD/atento-train"
T="$BUILD/atento-translate"
E="$BUILD/atento-eval"
model=$WORK/model
SHORT=(--set train.max_steps=12 --set train.eval_every_steps=6 --set train.log_every_steps=3)

expect_exit 0 "trains with --device cpu" -- "$TRAIN" --config configs/sample.json --out "$model" \
  --device cpu "${SHORT[@]}"
dev=$(json_get "$model/log.jsonl" "[e for e in events if e['event']=='start'][0]['device']")
[ "$dev" = cpu ] && pass "the start event records the device" || fail "start event device: $dev"
has=$(python3 -c "import json,sys; print('device' in json.load(open(sys.argv[1]))['model'])" \
  "$model/config.json")
[ "$has" = False ] && pass "config.json keeps no model.device" || fail "config.json has model.device"
printf 'Good morning.\nThank you.\n' >"$WORK/in.txt"
expect_exit 0 "translates with --device cpu" -- "$T" --model "$model" --input "$WORK/in.txt" \
  --device cpu
expect_exit 0 "evaluates with --device cpu" -- "$E" --model "$model" --pairs "$model/test.tsv" \
  --device cpu --no-translate

# A model directory written when the device was part of the architecture still loads.
cp -r "$model" "$WORK/old"
python3 - "$WORK/old/config.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["model"]["device"] = "cuda"
for section in ("train", "translate"):
    config[section].pop("device", None)
    config[section].pop("precision", None)
json.dump(config, open(path, "w"))
PY
expect_exit 0 "an old config.json with model.device=cuda translates on the CPU" -- "$T" \
  --model "$WORK/old" --input "$WORK/in.txt"
expect_exit 0 "and resumes on the CPU" -- "$TRAIN" --config configs/sample.json --out "$WORK/old" \
  "${SHORT[@]}" --set train.max_steps=15

# Bad device names are usage errors naming the flag or the key.
for tool in "$TRAIN --config configs/sample.json --out $WORK/bogus" "$T --model $model" \
            "$E --model $model --pairs $model/test.tsv"; do
  # shellcheck disable=SC2086
  expect_exit 2 "--device bogus is a usage error ($(basename "${tool%% *}"))" -- $tool --device bogus
  expect_stderr "--device.*expected cpu, cuda or cuda:N" "the message names --device and the choices"
done
expect_exit 2 "--set train.device=tpu is a usage error" -- "$TRAIN" --config configs/sample.json \
  --out "$WORK/bogus" --set train.device=tpu
expect_stderr "train.device" "the message names train.device"

# CUDA asked for: here either it works, or the error is clear (exit 2, naming flag and key).
"$T" --model "$model" --input "$WORK/in.txt" --device cuda >"$WORK/stdout" 2>"$WORK/stderr"
code=$?
if [ "$code" = 0 ]; then
  pass "--device cuda translates (this machine has CUDA)"
elif [ "$code" = 2 ]; then
  pass "--device cuda without CUDA is a usage error (exit 2)"
  expect_stderr "^error: translate.device \(--device.*no CUDA device" \
    "the message names translate.device and --device and says why"
else
  fail "--device cuda: exit $code"; tail -5 "$WORK/stderr"
fi
"$TRAIN" --config configs/sample.json --out "$WORK/cuda" --device cuda:0 "${SHORT[@]}" \
  >"$WORK/stdout" 2>"$WORK/stderr"
code=$?
if [ "$code" = 0 ]; then pass "--device cuda:0 trains (this machine has CUDA)"
elif [ "$code" = 2 ]; then expect_stderr "train.device.*no CUDA device" "atento-train says no CUDA"
else fail "atento-train --device cuda:0: exit $code"; tail -5 "$WORK/stderr"; fi

# bf16 autocast on the CPU: a few steps run and every loss is finite.
expect_exit 0 "trains a few steps in bf16" -- "$TRAIN" --config configs/sample.json \
  --out "$WORK/bf16" "${SHORT[@]}" --set train.precision=bf16
finite=$(json_get "$WORK/bf16/log.jsonl" "all(__import__('math').isfinite(e['loss']) for e in events if e['event'] in ('train','valid')) and sum(e['event']=='train' for e in events)==4")
[ "$finite" = True ] && pass "bf16 losses are finite (4 train lines)" || fail "bf16 losses: $finite"
expect_exit 0 "translates in bf16" -- "$T" --model "$WORK/bf16" --input "$WORK/in.txt" \
  --set translate.precision=bf16
finish
