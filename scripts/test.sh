#!/usr/bin/env bash
# Sets up and builds threadmap if needed, then runs the whole test suite; exits non-zero when
# any test fails. The GPU tests run with the rest: with no usable device ctest reports them
# "Skipped" and this script prints the reason they gave.
# --sanitize: a separate build under AddressSanitizer and UBSan (build-sanitize/; -O1, asserts
# on) of everything but the GPU and the window (no CUDA, no GLFW/ImGui/GL: the window's code is
# run by the plain build's window and monkey tests), without the packaging scripts (label
# "once": install, the device check's staging, nvcc's resources); randomised tests try a tenth
# of their launches there (tests/random_launch.hpp);
# its fuzz_* tests replay the fuzz targets' seeds and fixed mutations under the sanitizers. llvmpipe and OpenBLAS run
# without threads there (LP_NUM_THREADS=0, OPENBLAS_NUM_THREADS=1), so LeakSanitizer can stop
# the process and check it: OpenBLAS (opened by a matmul's CPU reference) starts a worker
# thread when it is loaded and ends it at exit, and a thread ending while LeakSanitizer stops the process at exit crashes its tracer
# now and then ("Tracer caught signal 11", google/sanitizers#1353; seen on `threadmap compile`).
# The same crash struck with one thread left (test_cli's lesson figures, 2026-12-02): up to GCC
# 13 the runtime's __tls_get_addr interceptor takes a dynamic TLS block that happens to lie at a
# certain page offset for glibc 2.19's and reads a bogus range from it, which the tracer then
# faults scanning (google/sanitizers#1322), so it does not track them (intercept_tls_get_addr=0).
# The sanitizer tree is a unity build (CMAKE_UNITY_BUILD: the sources of a target compiled 16
# to a file): from scratch it took 351 s against 540 s on this 2-core machine (2026-12-05); the
# plain tree stays one file at a time, so a missing include still fails there.
# --build-only (after --sanitize or alone): set up and build, run nothing (CI builds the
# sanitizer tree while the plain tree's tests run).
set -euo pipefail
cd "$(dirname "$0")/.."
ctest_args=()
window_tests=1
build_only=0
for arg in "$@"; do [ "$arg" = "--build-only" ] && build_only=1; done
if [ "${1:-}" = "--sanitize" ]; then
  export BUILD_DIR=build-sanitize
  export CMAKE_ARGS="-DTHREADMAP_SANITIZE=ON -DTHREADMAP_CUDA=OFF -DTHREADMAP_GUI=OFF -DCMAKE_BUILD_TYPE=Debug -DCMAKE_UNITY_BUILD=ON"
  export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  export ASAN_OPTIONS="intercept_tls_get_addr=0"
  export LP_NUM_THREADS=0
  export OPENBLAS_NUM_THREADS=1
  ctest_args=(-LE "gui|once|render")
  window_tests=0
fi
scripts/setup.sh
[ "$build_only" = 1 ] && exit 0
# One X server for the window tests (tests/app/test_window_gui.cpp reads its display from
# THREADMAP_TEST_DISPLAY): each run of the window used to start its own through xvfb-run, half a
# second each for some fifty runs, and now and then xvfb-run's own cleanup failed a test that had
# passed (exit 5, its temporary folder gone). Xvfb names the free display it took on fd 3;
# -noreset: a server resets when its last client leaves, and a window connecting then (another
# test's, on the other core) could be dropped (xdpyinfo in two loops side by side: 6 of 300
# connections failed without it, none with it).
if [ "$window_tests" = 1 ] && command -v Xvfb >/dev/null; then
  xvfb_dir=$(mktemp -d)
  mkfifo "$xvfb_dir/display"
  Xvfb -displayfd 3 -noreset -screen 0 1920x1080x24 -nolisten tcp 3>"$xvfb_dir/display" 2>"$xvfb_dir/log" &
  xvfb_pid=$!
  trap 'kill "$xvfb_pid" 2>/dev/null; rm -rf "$xvfb_dir"' EXIT
  if read -r -t 30 display <"$xvfb_dir/display"; then
    export THREADMAP_TEST_DISPLAY=":$display"
  else
    echo "Xvfb did not start (the window tests start their own):" && cat "$xvfb_dir/log"
  fi
fi
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j"$(nproc)" "${ctest_args[@]}"
# ctest hides a skipped test's output: show why the GPU tests did not run (a report only;
# their result is already in ctest's exit status above).
awk '/^SKIPPED: no usable CUDA device/ {print "gpu_tests " $0}' Testing/Temporary/LastTest.log
