#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ (clang-14, AddressSanitizer + UndefinedBehavior-
# Sanitizer) into build-fuzz/ and runs each for SECONDS (default 60), one after the other,
# starting from the committed seeds (tests/fuzz/<target>/). Prints one table row per target:
# executions, coverage (edges, features), corpus size, crashes. A crash, leak or sanitizer
# report leaves its input in build-fuzz/artifacts/ and makes the script exit 1.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]   e.g. scripts/fuzz.sh 600; scripts/fuzz.sh 30 corpus
#   FUZZ_JOBS=N   compile jobs (default: nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(corpus config words spm checkpoint_state translate_lines html lexicon weights)
# libFuzzer and the sanitizer runtimes of clang (CI does not need them: see scripts/sanitize.sh).
if ! command -v clang++-14 >/dev/null || ! dpkg-query -W libclang-rt-14-dev >/dev/null 2>&1; then
  echo "fuzz: installing clang-14 libclang-rt-14-dev"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    clang-14 libclang-rt-14-dev
fi

if [ ! -f build-fuzz/CMakeCache.txt ]; then
  # direct: no dlopen(RTLD_DEEPBIND) (ASan cannot run it); the fuzz targets that use
  # SentencePiece link no LibTorch, so the two protobuf copies never meet.
  CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release \
    -DATENTO_FUZZ=ON -DATENTO_SPM_ISOLATION=direct -DBUILD_TESTING=OFF -DATENTO_SERVER=OFF \
    >/dev/null
fi
cmake --build build-fuzz -j"${FUZZ_JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"

mkdir -p build-fuzz/artifacts
failed=0
printf '| target | seconds | executions | exec/s | coverage (edges) | features | corpus | result |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for target in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$target
  mkdir -p "$corpus"
  cp -n tests/fuzz/"$target"/* "$corpus"/ 2>/dev/null || true
  log=build-fuzz/fuzz_$target.log
  options=(-max_total_time="$seconds" -print_final_stats=1 -timeout=30 -rss_limit_mb=4096
           -artifact_prefix=build-fuzz/artifacts/"$target"- -max_len=16384)
  env=()
  # LibTorch (not instrumented) keeps allocations alive until exit by design (its thread pools,
  # registries, caches): leak detection would report them, not the project's code.
  [ "$target" = weights ] && env=(ASAN_OPTIONS=detect_leaks=0)
  result=ok
  env "${env[@]}" UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    build-fuzz/fuzz_"$target" "${options[@]}" "$corpus" >"$log" 2>&1 || result="FAILED (see $log)"
  [ "$result" = ok ] || failed=1
  runs=$(sed -n 's/^stat::number_of_executed_units: //p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: //p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' | tail -1)
  read -r _ cov _ ft _ corp <<<"${last:-cov: ? ft: ? corp: ?}"
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$target" "$seconds" "${runs:-?}" \
    "${rate:-?}" "$cov" "$ft" "$corp" "$result"
done
exit $failed
