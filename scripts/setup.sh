#!/usr/bin/env bash
# Installs the Debian packages Atento needs (only those missing) and builds it into build/.
# Idempotent: with everything present it makes no apt call and rebuilds only what changed.
#   scripts/setup.sh [CMAKE_OPTION...]   e.g. -DATENTO_SANITIZE_TESTS=ON (scripts/test.sh does)
set -euo pipefail
cd "$(dirname "$0")/.."

# Build and run: LibTorch, SentencePiece, CLI11, nlohmann_json, OpenBLAS, the toolchain.
# Scripts the README shows: gnuplot + python3 (plot_log.sh, attention_map.sh), unzip + curl
# (get_data.sh); atento-serve: cpp-httplib; data-parallel training: Gloo (c10d's CPU backend);
# sentence segmentation: ICU; HTML documents: libxml2; language identification (atento-serve
# /detect): CLD2; release checksums: OpenSSL's libcrypto; atento-translate's and atento-serve's
# allocator: jemalloc; the release test reads safetensors with NumPy; the tests' network
# checks (the server's listen backlog, the two-host namespaces): iproute2; the browser tests of
# atento-serve's page (e2e_page.sh, e2e_page_cors.sh): chromium, driven headless by
# puppeteer-core (npm, installed at test time).
# The sanitizer runtimes of g++ (ctest's atento_tests_asan/_tsan, fuzz_replay_*) come with g++;
# they are listed so that a trimmed toolchain is caught here. scripts/fuzz.sh adds clang-14.
packages=(libtorch-dev libsentencepiece-dev sentencepiece libcli11-dev nlohmann-json3-dev
          libopenblas0-openmp libgtest-dev cmake g++ make pkg-config libasan8 libubsan1 libtsan2
          gnuplot-nox python3 unzip curl ca-certificates libcpp-httplib-dev libgloo-dev libicu-dev
          libssl-dev python3-numpy libcld2-dev chromium libxml2-dev libjemalloc-dev
          iproute2)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node and npm run a real LibreTranslate client in tests/e2e/e2e_serve.sh and puppeteer-core for
# the browser tests; any installed node will do (NodeSource's bundles npm).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# LibTorch calls the system libblas.so.3; OpenBLAS is ~40× the reference BLAS (2048² float
# matmul on 2 AVX2 cores: 4 GFLOP/s reference, 162 GFLOP/s OpenBLAS).
if ! readlink -f /etc/alternatives/libblas.so.3-x86_64-linux-gnu 2>/dev/null | grep -q openblas; then
  echo "setup: warning: libblas.so.3 is not OpenBLAS; training will be slow" >&2
fi

jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$jobs"
echo "setup: built into build/ (atento-train, -translate, -eval, -filter, -serve, -average)"
