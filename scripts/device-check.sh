#!/usr/bin/env bash
# The GPU check, for a machine with the CUDA toolkit, CMake and a driver (nothing else
# assumed). Builds with CUDA for the GPU it finds (the window and offscreen rendering too
# when GLFW, Dear ImGui and libepoxy are installed), then runs each step under a time limit:
# the GPU tests (CUDA map vs the emulator on random launches, kernel results, the validator vs
# the device's own launch errors, and — with the GUI — the interop colours vs host painting),
# `map --backend cuda`, `bench` for the tutorial's lessons (pageable, pinned, resident) and a
# `render --backend cuda`. Everything lands in OUT_DIR: device-check.log (all of it),
# build.log, gpu-tests.log, bench.jsonl (one JSON per line), seed-matmul.png.
#
# Exit status: 0 only when every step passed; a step that fails, times out, or is skipped
# for lack of a device makes it non-zero. The last line is
#   device check: N passed, M failed, K skipped
#
# Usage: scripts/device-check.sh OUT_DIR
# Where the machine has no package registry, run scripts/stage-headers.sh first on a machine
# with Debian's packages and carry .deps/ along (the header-only CLI11, JSON and doctest).
set -uo pipefail
out=${1:?usage: scripts/device-check.sh OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
build=${THREADMAP_DEVICE_BUILD:-/tmp/threadmap-device-build}  # outside OUT_DIR: only results travel back
export PATH="$PATH:/usr/local/cuda/bin"
log="$out/device-check.log"
: > "$log"
passed=0 failed=0 skipped=0

say() { echo "$*" | tee -a "$log"; }

# step NAME SECONDS COMMAND…: runs the command with its output in the log, under a limit.
# Exit 77 from the command counts as skipped (the GPU tests' "no usable device").
step() {
  local name=$1 limit=$2 rc
  shift 2
  say "== $name"
  timeout --kill-after=10 "$limit" bash -c '"$@"' step "$@" >> "$log" 2>&1
  rc=$?
  case $rc in
    0) passed=$((passed + 1)); say "-- $name: passed" ;;
    77) skipped=$((skipped + 1)); say "-- $name: SKIPPED ($(grep -m1 '^SKIPPED' "$log" || echo 'no device'))" ;;
    124|137) failed=$((failed + 1)); say "-- $name: FAILED (over its ${limit} s limit)" ;;
    *) failed=$((failed + 1)); say "-- $name: FAILED (exit $rc)" ;;
  esac
  return "$rc"
}

finish() {
  say "device check: $passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ]
  exit $?
}

say "== threadmap device check, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv >> "$log" 2>&1 || say "(no nvidia-smi)"
nvcc --version >> "$log" 2>&1 || say "(no nvcc)"
# Machine code for the GPU that is here (never "native": the check must say what it built).
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
arch_args=()
[ -n "$cap" ] && arch_args=(-DCMAKE_CUDA_ARCHITECTURES="${cap}-real")
generator=()
[ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null && generator=(-G Ninja)

step configure 300 cmake -S . -B "$build" "${generator[@]}" -DTHREADMAP_CUDA=ON -DCMAKE_BUILD_TYPE=Release "${arch_args[@]}" || finish
say "== build (log: build.log)"
if timeout 600 cmake --build "$build" -j"$(nproc)" > "$out/build.log" 2>&1; then
  passed=$((passed + 1)); say "-- build: passed"
else
  failed=$((failed + 1)); say "-- build: FAILED"; tail -n 40 "$out/build.log" | tee -a "$log"; finish
fi
tm="$build/app/threadmap"
step version 30 "$tm" --version
step devices 60 "$tm" devices

say "== GPU tests (log: gpu-tests.log)"
timeout --kill-after=10 600 "$build/tests/test_gpu" > "$out/gpu-tests.log" 2>&1
rc=$?
tail -n 25 "$out/gpu-tests.log" >> "$log"
case $rc in
  0) passed=$((passed + 1)); say "-- GPU tests: passed" ;;
  77) skipped=$((skipped + 1)); say "-- GPU tests: SKIPPED ($(grep -m1 '^SKIPPED' "$out/gpu-tests.log"))"
      finish ;;  # nothing else can run without a device
  *) failed=$((failed + 1)); say "-- GPU tests: FAILED (exit $rc)" ;;
esac

step "map on the GPU" 120 "$tm" map --backend cuda --preset seed-increment-bug --format json --no-elements

: > "$out/bench.jsonl"
bench_json() { "$tm" bench --backend cuda --repeat 20 --json "$@" | tr -d '\n' >> "$out/bench.jsonl" && echo >> "$out/bench.jsonl"; }
export -f bench_json
export tm out
for lesson in seed-increment seed-increment-bug grid-stride seed-matmul seed-matmul-fixed; do
  step "bench $lesson" 120 bench_json --preset "$lesson"
done
for flags in "--pinned" "--resident" "--pinned --resident"; do
  # shellcheck disable=SC2086  # $flags is a list of words
  step "bench increment 16M $flags" 120 bench_json --kernel increment --n 16777216 $flags
done

step "render through EGL on the GPU" 120 env -u DISPLAY "$tm" render --backend cuda --preset seed-matmul --out "$out/seed-matmul.png"
finish
