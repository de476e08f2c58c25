#!/usr/bin/env bash
# The short ctest variant of scripts/kill_test.sh: atento-train killed with SIGKILL at 8 random
# moments; after each the model directory loads, translates and resumes (the full test: 30+).
source "$(dirname "$0")/lib_e2e.sh"
cd "$(dirname "$0")/../.."
if scripts/kill_test.sh --kills 8 --build "$BUILD" --seed 7; then
  pass "8 SIGKILLs: every state loads, translates and resumes"
else
  fail "scripts/kill_test.sh --kills 8 --seed 7 failed"
fi
finish
