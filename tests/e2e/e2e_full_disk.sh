#!/usr/bin/env bash
# A checkpoint written to a full file system (a 3 MB tmpfs): atento-train fails with an error
# naming the file and the reason, exits non-zero, and leaves the previous checkpoint intact and
# loadable; with room again, the same command resumes. Needs root to mount the tmpfs: skipped
# (exit 77) otherwise.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
[ "$(id -u)" = 0 ] || { echo "skipped: needs root to mount a tmpfs"; exit 77; }
mnt=$WORK/small
mkdir -p "$mnt"
mount -t tmpfs -o size=3m tmpfs "$mnt" 2>"$WORK/mount.err" \
  || { echo "skipped: cannot mount a tmpfs: $(cat "$WORK/mount.err")"; exit 77; }
trap 'umount "$mnt" 2>/dev/null; rm -rf "$WORK"' EXIT
TRAIN="$BUILD/atento-train"
dir=$mnt/model
small=(--config configs/sample.json --out "$dir" --set tokenizer.kind=words
       --set tokenizer.vocab_size=500 --set tokenizer.src_len=20 --set tokenizer.tgt_len=21
       --set model.max_len=20 --set model.d_model=32 --set model.n_heads=2 --set model.head_dim=16
       --set model.d_ff=64 --set model.encoder_layers=1 --set model.decoder_layers=1
       --set train.threads=1 --set train.eval_every_steps=2 --set train.valid_subset=8
       --set train.max_epochs=0)
expect_exit 0 "trains to a first checkpoint on the small file system" -- "$TRAIN" "${small[@]}" \
  --set train.max_steps=2
before=$(cat "$dir/checkpoints/latest")
cp -r "$dir/checkpoints/$before" "$WORK/saved"
# Fill the file system, leaving 16 KB: the log line fits, a checkpoint (~300 KB) does not.
free_kb=$(df -k --output=avail "$mnt" | tail -1)
dd if=/dev/zero of="$mnt/filler" bs=1k count=$((free_kb - 16)) 2>/dev/null
expect_exit 1 "a checkpoint on a full file system is an error" -- "$TRAIN" "${small[@]}" \
  --set train.max_steps=6
echo "    $(grep '^error: ' "$WORK/stderr")"
expect_stderr "^error: .*No space left on device" "the error gives the reason"
expect_stderr "$dir/" "the error names the file"
[ "$(cat "$dir/checkpoints/latest")" = "$before" ] && pass "latest still names $before" \
  || fail "latest moved to $(cat "$dir/checkpoints/latest")"
diff -r "$WORK/saved" "$dir/checkpoints/$before" >/dev/null \
  && pass "the previous checkpoint is byte for byte intact" || fail "the previous checkpoint changed"
[ -z "$(find "$dir" -name '*.tmp.*')" ] && pass "no temporary file is left behind" \
  || fail "temporary files left: $(find "$dir" -name '*.tmp.*')"
echo "Where is Tom?" | "$BUILD/atento-translate" --model "$dir" >"$WORK/out" 2>"$WORK/stderr"
[ "$?" = 0 ] && [ "$(wc -l <"$WORK/out")" = 1 ] && pass "the model directory still translates" \
  || fail "the model directory does not translate: $(tail -1 "$WORK/stderr")"
rm "$mnt/filler"
expect_exit 0 "with room again the same command resumes and finishes" -- "$TRAIN" "${small[@]}" \
  --set train.max_steps=6
grep -q '"event":"resume"' "$dir/log.jsonl" && pass "it resumed" || fail "no resume event"
finish
