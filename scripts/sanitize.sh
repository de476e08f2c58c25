#!/usr/bin/env bash
# Everything the sanitizers check, in one command:
#   1. in build/ (g++): atento_tests_asan (AddressSanitizer + UndefinedBehaviorSanitizer over the
#      unit tests of the LibTorch-free code: data/, the configuration, the checkpoint pointer and
#      state, input lines, the server's request parsing and batcher, metrics), atento_tests_tsan
#      (ThreadSanitizer: request batcher, stop signals, directory lock), atento_tests_asan_torch
#      (ASan + UBSan over the LibTorch-using code and its unit tests: model/, data/batch, the
#      checkpoint directory, optimizer, CLI, data-parallel groups), fuzz_replay_* (every
#      committed fuzz seed and crash regression through the sanitized targets, the weights
#      reader included) and fuzz_smoke_* (15 s of blind mutants per target). CI runs these same
#      ctest entries on every submission (scripts/test.sh);
#   2. scripts/fuzz.sh SECONDS (clang-14): every libFuzzer target, the LibTorch weights and
#      optimizer reader included, for SECONDS each (default 60; the goal is 600).
#   scripts/sanitize.sh [SECONDS]      SECONDS=0 skips the fuzzing
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake -S . -B build -DATENTO_SANITIZE_TESTS=ON >/dev/null
targets=(atento_tests_asan atento_tests_asan_torch atento_tests_tsan)
for source in tests/fuzz/fuzz_*.cpp; do
  name=$(basename "$source" .cpp)
  targets+=("replay_${name#fuzz_}")
done
cmake --build build -j"$(nproc)" --target "${targets[@]}"
(cd build && ctest --output-on-failure -j"$(nproc)" -R '^(atento_tests_asan|atento_tests_tsan|fuzz_replay_|fuzz_smoke_)')
if [ "$seconds" -gt 0 ]; then
  scripts/fuzz.sh "$seconds"
fi
