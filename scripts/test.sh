#!/usr/bin/env bash
# The test command: set up (packages, build with the sanitized test binaries), then every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh -DATENTO_SANITIZE_TESTS=ON
cd build
ctest --output-on-failure -j"$(nproc)" "$@"
