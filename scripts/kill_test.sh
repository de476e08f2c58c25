#!/usr/bin/env bash
# Durability under SIGKILL: trains a small model on the sample corpus and kills atento-train
# with SIGKILL at N moments: random ones (start-up, training steps, validations, checkpoints
# every 2 steps), and every third one as soon as a checkpoint write has begun. After each kill: the model
# directory loads and translates (or, killed before its first checkpoint, is refused with a
# clear error: exit 1, or 2 when the directory does not exist yet), `latest` names a complete
# checkpoint, and the next run resumes from it.
# At the end the run finishes normally and translates.
#
#   scripts/kill_test.sh [--kills N] [--build DIR] [--seed S]     (defaults: 30, build, 1)
# Prints one line per kill and a summary; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
kills=30 build=build seed=1
while [ $# -gt 0 ]; do
  case $1 in
    --kills) kills=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    *) echo "usage: $0 [--kills N] [--build DIR] [--seed S]" >&2; exit 2 ;;
  esac
done
TRAIN=$build/atento-train TRANSLATE=$build/atento-translate
[ -x "$TRAIN" ] && [ -x "$TRANSLATE" ] || { echo "error: build $build first" >&2; exit 2; }
work=$(mktemp -d /tmp/atento-kill.XXXXXX)
trap 'rm -rf "$work"' EXIT
dir=$work/model
RANDOM=$seed
export OMP_NUM_THREADS=1
settings=(--config configs/sample.json --out "$dir" --set tokenizer.kind=words
          --set tokenizer.vocab_size=2000 --set tokenizer.src_len=20 --set tokenizer.tgt_len=21
          --set model.max_len=20 --set train.threads=1 --set train.eval_every_steps=2
          --set train.valid_subset=16 --set train.log_every_steps=1 --set train.patience=0
          --set train.max_epochs=0)
failures=0 loaded=0 refused=0 inside=0

fail() { failures=$((failures + 1)); echo "FAIL: $*"; }

# The checkpoint `latest` names holds every file; prints its step.
check_latest() {
  local name
  name=$(cat "$dir/checkpoints/latest") || return 1
  for f in model.pt optimizer.pt state.json; do
    [ -s "$dir/checkpoints/$name/$f" ] || { echo "latest names $name without $f"; return 1; }
  done
  echo "${name#step-}"
}

# What an interrupted write leaves: temporary files, and step directories `latest` does not name.
leftovers() {
  local latest
  latest=$(cat "$dir/checkpoints/latest" 2>/dev/null)
  { find "$dir" -name '*.tmp.*' 2>/dev/null
    find "$dir/checkpoints" -mindepth 1 -maxdepth 1 -name 'step-*' ! -name "$latest" 2>/dev/null
  } | sort
}

# After a kill: loads and translates, or refuses cleanly when nothing was written yet.
check_directory() {
  local out code step
  out=$(echo "Where is Tom?" | "$TRANSLATE" --model "$dir" 2>"$work/err")
  code=$?
  if [ -f "$dir/checkpoints/latest" ]; then
    step=$(check_latest) || { fail "kill $1: $step"; return; }
    if [ "$code" = 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ]; then
      loaded=$((loaded + 1)); echo "kill $1: step $step loads and translates"
    else
      fail "kill $1: checkpoint step-$step does not translate (exit $code): $(tail -1 "$work/err")"
    fi
  elif [ -s "$dir/model.safetensors" ]; then
    # Killed between the first validation's best weights and the first checkpoint:
    # the directory holds a finished model already, and the translator uses it.
    if [ "$code" = 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ]; then
      loaded=$((loaded + 1)); echo "kill $1: best weights before the first checkpoint translate"
    else
      fail "kill $1: best weights without a checkpoint: exit $code: $(tail -1 "$work/err")"
    fi
  elif { [ "$code" = 1 ] || { [ "$code" = 2 ] && [ ! -d "$dir" ]; }; } &&
       grep -q '^error: ' "$work/err"; then
    # 2: killed before the directory existed, a usage error like any missing --model.
    refused=$((refused + 1)); echo "kill $1: before the first checkpoint; refused: $(cat "$work/err")"
  else
    fail "kill $1: no checkpoint yet and exit $code: $(tail -1 "$work/err")"
  fi
}

for i in $(seq 1 "$kills"); do
  before=$(leftovers)
  "$TRAIN" "${settings[@]}" --set train.max_steps=100000 >/dev/null 2>"$work/train.err" &
  pid=$!
  # Every other round with no checkpoint yet waits for the first one (a loaded machine may not
  # reach it within the random delay, and every restart would begin again from nothing).
  if [ ! -f "$dir/checkpoints/latest" ] && [ $((i % 2)) = 0 ]; then
    for _ in $(seq 1 600); do
      { [ -f "$dir/checkpoints/latest" ] || ! kill -0 "$pid" 2>/dev/null; } && break
      sleep 0.2
    done
  fi
  if [ -f "$dir/checkpoints/latest" ] && [ $((i % 3)) = 0 ]; then
    # Every third round aims at a checkpoint write: the kill lands as soon as a temporary file
    # of one shows up (polled; the write may also be over by then).
    for _ in $(seq 1 2000); do
      compgen -G "$dir/checkpoints/*/*.tmp.*" >/dev/null && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.01
    done
  else
    # 0.5 to 6.4 s more: LibTorch loading, the split and tokenizers, steps, validations,
    # checkpoints.
    sleep "$((RANDOM % 6)).$((RANDOM % 10))"
    sleep 0.5
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"; fail "kill $i: the trainer ended by itself (exit $?): $(tail -2 "$work/train.err")"
    continue
  fi
  kill -KILL "$pid"; wait "$pid" 2>/dev/null
  if [ -n "$(comm -13 <(printf '%s\n' "$before") <(leftovers))" ]; then
    inside=$((inside + 1)); printf '(inside a write) '
  fi
  check_directory "$i"
done

# The interrupted run resumes and finishes: two more steps past the last checkpoint.
step=$(check_latest 2>/dev/null || echo 0)
if "$TRAIN" "${settings[@]}" --set train.max_steps=$((step + 2)) >/dev/null 2>"$work/train.err" &&
   echo "Where is Tom?" | "$TRANSLATE" --model "$dir" >/dev/null 2>&1; then
  echo "resumed from step $step to $((step + 2)) and translated"
else
  fail "the run does not resume from step $step: $(tail -2 "$work/train.err")"
fi
echo "kill_test: $kills SIGKILLs: $loaded loaded and translated, $refused before any checkpoint" \
     "(refused cleanly), $inside interrupted a write; $failures failures"
[ "$failures" -eq 0 ]
