#!/usr/bin/env bash
# scripts/gpu_check.sh where no GPU is needed: its syntax, usage errors, the dry run's plan, and
# the clear exit on a machine without a CUDA device.
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
G=scripts/gpu_check.sh
bash -n "$G" && pass "gpu_check.sh parses (bash -n)" || fail "gpu_check.sh has a syntax error"
expect_exit 2 "an unknown argument is a usage error" -- "$G" --bogus
expect_exit 2 "--libtorch is required" -- "$G"
expect_stderr "--libtorch" "says which argument is missing"
expect_exit 0 "the dry run prints the plan" -- "$G" --dry-run --libtorch /opt/libtorch --deps /opt/deps \
  --peer "$WORK/absent.py" --minutes 1
for step in "cmake -S . -B build-gpu .*-DCMAKE_PREFIX_PATH=/opt/libtorch\\\\;/opt/deps" \
            "ctest --test-dir build-gpu" "atento-train --config configs/fast.json --device cuda" \
            "atento-translate --model runs/gpu_fast --device cpu" "train.precision=bf16" \
            "translate.cuda_graphs=true" "gtest_filter=GreedyGraphs" "peer +skipped"; do
  grep -qE -- "$step" "$WORK/stdout" && pass "the plan has: $step" || fail "the plan lacks: $step"
done
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  expect_exit 3 "without a CUDA device it exits 3" -- "$G" --libtorch /opt/libtorch
  expect_stderr "no CUDA device" "and says why"
fi
finish
