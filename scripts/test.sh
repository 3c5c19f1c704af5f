#!/usr/bin/env bash
# Sets up and builds threadmap if needed, then runs the whole test suite.
# --sanitize: a separate CPU-only build under AddressSanitizer and UBSan (build-sanitize/),
# without the window tests (Xvfb and llvmpipe are slow and noisy under ASan).
set -euo pipefail
cd "$(dirname "$0")/.."
ctest_args=()
jobs=$(nproc)
if [ "${1:-}" = "--sanitize" ]; then
  export BUILD_DIR=build-sanitize
  export CMAKE_ARGS="-DTHREADMAP_SANITIZE=ON -DTHREADMAP_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo"
  export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  # LeakSanitizer cannot always stop the threads of Mesa's llvmpipe (see test_render_cli.cpp):
  # one test at a time, and a test that fails gets one more run.
  ctest_args=(-LE gui --repeat until-pass:2)
  jobs=1
fi
scripts/setup.sh
cd "${BUILD_DIR:-build}"
# The GPU tests first and verbose, so a skip shows its reason (ctest hides skipped output).
if [ "${1:-}" != "--sanitize" ]; then
  ctest -R '^gpu_tests$' -V | grep -E "SKIPPED|GPU tests on|test cases|Skipped|Passed|Failed" || true
fi
ctest --output-on-failure -j"$jobs" -E '^gpu_tests$' "${ctest_args[@]}"
