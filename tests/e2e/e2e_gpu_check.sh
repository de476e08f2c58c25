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
expect_exit 2 "an unknown section to skip is a usage error" -- "$G" --dry-run --skip "ctest bogus"
expect_stderr "bogus" "and names it"
expect_exit 2 "a configuration that does not exist is a usage error" -- "$G" --dry-run --configs "fast nope:1"
expect_stderr "configs/nope.json" "and names its file"
expect_exit 2 "a configuration's minutes must be a number" -- "$G" --dry-run --configs "fast:soon"
# A short lease: per-configuration minutes, the rest before a deadline, sections left out.
expect_exit 0 "the dry run of a short lease prints its plan" -- "$G" --dry-run --libtorch /opt/lt \
  --minutes 4 --configs "fast:0.5 base:rest" --deadline 600 --book-minutes 0.3 --skip "ctest crash bf16"
for step in "--target atento-train atento-translate atento-eval atento_tests_model" \
            "configs/fast.json .*time_budget_minutes=0.5" "configs/base.json .*time_budget_minutes=4" \
            "configs/book.json .*time_budget_minutes=0.3" "crash check skipped" "bf16 skipped"; do
  grep -qE -- "$step" "$WORK/stdout" && pass "the short plan has: $step" || fail "the short plan lacks: $step"
done
for absent in "ctest --test-dir" "train.precision=bf16" "crash_plain"; do
  grep -q -- "$absent" "$WORK/stdout" && fail "the short plan still runs: $absent" \
    || pass "the short plan leaves out: $absent"
done
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  expect_exit 3 "without a CUDA device it exits 3" -- "$G" --libtorch /opt/libtorch
  expect_stderr "no CUDA device" "and says why"
fi
finish
