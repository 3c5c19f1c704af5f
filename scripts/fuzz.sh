#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with coverage and ASan+UBSan, in build-fuzz/; -O2
# with line tables only, asserts on)
# and runs each for SECONDS on a seed corpus made from the real files: the lessons, the
# device profiles, the benchmark replay scripts, and fuzz/seeds/ (launch options, recordings,
# a settings file). CI does not run this: it replays the same seeds with fixed mutations under
# the sanitizers (the fuzz_* tests); this is the long, coverage-guided run.
# Exit status: non-zero when a target finds a crash, a leak or a failed invariant; the
# input that did it is saved in build-fuzz/artifacts/. Last line per target: libFuzzer's
# "Done N runs in S second(s)".
# Learners' kernels (Clang 15) are left out of this build: Clang has its own fuzzing.
# Usage: scripts/fuzz.sh [SECONDS]   (default 20)
#        FUZZ_RUNS=1000000 scripts/fuzz.sh   (each target for that many inputs instead: the long run)
set -euo pipefail
seconds=${1:-20}
cd "$(dirname "$0")/.."
build=build-fuzz
CXX=${CXX_FUZZ:-clang++-14} CC=${CC_FUZZ:-clang-14} cmake -S . -B "$build" -DTHREADMAP_FUZZ=ON -DTHREADMAP_CUDA=OFF -DTHREADMAP_SOURCE=OFF \
  -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only" \
  > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
targets=$(cd fuzz && ls fuzz_*.cpp | sed 's/\.cpp$//')
# shellcheck disable=SC2086  # a list of target names
cmake --build "$build" -j"$(nproc)" --target $targets > "$build.build.log" 2>&1 || { tail -n 40 "$build.build.log"; exit 1; }

# Seed corpora: the real files of each kind and our own seeds (fuzz/seeds/; the CI tests replay
# the same seeds with fixed mutations: fuzz/CMakeLists.txt).
corpus=$build/corpus
rm -rf "$corpus" && mkdir -p "$corpus"/{launch_options,recording,settings,lesson,device_profile,replay,result_stream} "$build/artifacts"
cp assets/lessons/*.json "$corpus/lesson/"
cp assets/devices/*.json "$corpus/device_profile/"
cp bench/*.replay "$corpus/replay/"
for kind in launch_options recording settings result_stream; do cp fuzz/seeds/$kind/* "$corpus/$kind/"; done

# OpenBLAS without its worker thread, and dynamic TLS not tracked: either can crash
# LeakSanitizer's check at exit (see scripts/test.sh).
export ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 OPENBLAS_NUM_THREADS=1
status=0
for t in $targets; do
  name=${t#fuzz_}
  [ -x "$build/fuzz/$t" ] || continue  # settings and replay need the window's libraries
  limit=(-max_total_time="$seconds")
  [ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
  echo "== $t, ${FUZZ_RUNS:-$seconds s}${FUZZ_RUNS:+ runs}"
  # A fixed seed (FUZZ_SEED, default 1): CI walks the same inputs each time, only more or
  # fewer of them; a long run may choose another.
  if ! "$build/fuzz/$t" -seed="${FUZZ_SEED:-1}" "${limit[@]}" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
       -artifact_prefix="$build/artifacts/$name-" "$corpus/$name" > "$build/$t.log" 2>&1; then
    status=1
    tail -n 30 "$build/$t.log"
  fi
  sed -n "/^Done [0-9]* runs/p" "$build/$t.log"  # the summary line, for the report
done
exit $status
