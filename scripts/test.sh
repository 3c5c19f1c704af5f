#!/usr/bin/env bash
# Sets up and builds threadmap if needed, then runs the whole test suite.
# --sanitize: a separate CPU-only build under AddressSanitizer and UBSan (build-sanitize/).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--sanitize" ]; then
  export BUILD_DIR=build-sanitize
  export CMAKE_ARGS="-DTHREADMAP_SANITIZE=ON -DTHREADMAP_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo"
fi
scripts/setup.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j"$(nproc)"
