#!/usr/bin/env bash
# The GPU check, for a machine with the CUDA toolkit, CMake and a driver (nothing else
# assumed; scripts/device-stage.sh prepares .deps/ with the rest). Builds with CUDA for the
# GPU it finds, the window and offscreen rendering included when .deps/debs is staged, then
# runs each step under a time limit:
#   the GPU tests (CUDA map = emulator map on random launches and at a launch's limits, kernel
#   results, the validator vs the device's own launch errors), the interop (a GPU-made map
#   painted through EGL on the NVIDIA device, every colour mode vs host painting), `map` and
#   `render` on the GPU, `bench` for the tutorial's lessons (pageable, pinned, resident),
#   compute-sanitizer (memcheck, racecheck) over the GPU tests, ncu's global sectors per
#   request of the tutorial's kernels beside `threadmap memory`'s, and the occupancy calculator against the device's
#   cudaOccupancyMaxActiveBlocksPerMultiprocessor for every built-in kernel.
# Everything lands in OUT_DIR: device-check.log (all of it), build.log, gpu-tests.log,
# bench.jsonl (one JSON per line), seed-matmul.png, ncu-sectors.csv.
#
# Exit status: 0 only when every step passed; a step that fails, times out, or is skipped
# (no device, no EGL device for the interop) makes it non-zero. The last line is
#   device check: N passed, M failed, K skipped
#
# Usage: scripts/device-check.sh OUT_DIR
#   THREADMAP_DEVICE_BUILD=DIR  build there (default /tmp/threadmap-device-build)
#   THREADMAP_DEVICE_PREBUILT=1 use DIR as it is: no configure, no build (this script's test)
#   THREADMAP_DEVICE_BREAK=STEP run `false` in place of STEP (this script's test)
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

# step NAME SECONDS COMMAND…: runs the command under a limit, its output into the log (or
# into $step_log when set). Exit 77 from the command counts as skipped, with its SKIPPED line.
step() {
  local name=$1 limit=$2 rc where=${step_log:-$log}
  shift 2
  [ "${THREADMAP_DEVICE_BREAK:-}" = "$name" ] && set -- false
  say "== $name"
  local mark=0
  [ -f "$where" ] && mark=$(wc -l < "$where")
  timeout --kill-after=10 "$limit" bash -c '"$@"' step "$@" >> "$where" 2>&1
  rc=$?
  case $rc in
    0) passed=$((passed + 1)); say "-- $name: passed" ;;
    77) skipped=$((skipped + 1))
        say "-- $name: SKIPPED ($(tail -n +"$((mark + 1))" "$where" | grep -m1 '^SKIPPED' || echo 'no reason given'))" ;;
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

say "== threadmap device check, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv >> "$log" 2>&1 || say "(no nvidia-smi)"
nvcc --version >> "$log" 2>&1 || say "(no nvcc)"

# The staged packages (scripts/device-stage.sh) go into a folder of their own, never into /:
# headers, pkg-config files and CMake packages for the build, libraries for the run.
sysroot=${THREADMAP_DEVICE_SYSROOT:-/tmp/threadmap-sysroot}
configure_args=()
if compgen -G ".deps/debs/*.deb" > /dev/null; then
  rm -rf "$sysroot" && mkdir -p "$sysroot"
  for deb in .deps/debs/*.deb; do dpkg-deb -x "$deb" "$sysroot" || say "(could not unpack $deb)"; done
  lib="$sysroot/usr/lib/x86_64-linux-gnu"
  export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export PKG_CONFIG_LIBDIR="$lib/pkgconfig:$sysroot/usr/share/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$sysroot"
  configure_args+=(-DTHREADMAP_GUI=ON "-DCMAKE_PREFIX_PATH=$sysroot/usr")
  pkg-config --version > /dev/null 2>&1 || configure_args+=("-DPKG_CONFIG_EXECUTABLE=$sysroot/usr/bin/pkgconf")
  say "staged packages unpacked into $sysroot: building the window and the interop"
else
  say "(no .deps/debs: run scripts/device-stage.sh where Debian's packages are; building without the window)"
fi
# glvnd's EGL finds NVIDIA's driver through its vendor file, wherever the image keeps it.
for vendor in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json \
              /etc/glvnd/egl_vendor.d/10_nvidia.json; do
  if [ -f "$vendor" ]; then
    export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
    say "EGL vendor: $vendor"
    break
  fi
done
[ -d /usr/local/nvidia/lib64 ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/nvidia/lib64"

if [ -z "${THREADMAP_DEVICE_PREBUILT:-}" ]; then
  # Machine code for the GPU that is here (never "native": the check must say what it built).
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
  [ -n "$cap" ] && configure_args+=(-DCMAKE_CUDA_ARCHITECTURES="${cap}-real")
  [ ! -f "$build/CMakeCache.txt" ] && command -v ninja > /dev/null && configure_args+=(-G Ninja)
  step configure 300 cmake -S . -B "$build" -DTHREADMAP_CUDA=ON -DCMAKE_BUILD_TYPE=Release "${configure_args[@]}" ||
    finish
  step_log="$out/build.log" step build 600 cmake --build "$build" -j"$(nproc)" || {
    tail -n 40 "$out/build.log" >> "$log"
    finish
  }
fi
tm="$build/app/threadmap"
tests="$build/tests/test_gpu"
step version 30 "$tm" --version
step devices 60 "$tm" devices

: > "$out/gpu-tests.log"
step_log="$out/gpu-tests.log" step "GPU tests" 300 "$tests" --test-case-exclude='*interop*'
case $? in 77) finish ;; esac  # no usable device: nothing else can run
step_log="$out/gpu-tests.log" step "interop through EGL" 120 "$tests" --test-case='*interop*'
tail -n 30 "$out/gpu-tests.log" >> "$log"

step "map on the GPU" 120 "$tm" map --backend cuda --preset seed-increment-bug --format json --no-elements
# render says on stderr how the colours were made; on the GPU it must be the interop.
render_on_gpu() {
  env -u DISPLAY "$tm" render --backend cuda --preset seed-matmul --out "$out/seed-matmul.png" 2>&1 | tee /dev/stderr |
    grep -q "painted on the GPU"
}
export -f render_on_gpu
export tm out
step "render through interop on the GPU" 120 render_on_gpu

: > "$out/bench.jsonl"
bench_json() { "$tm" bench --backend cuda --repeat 20 --json "$@" | tr -d '\n' >> "$out/bench.jsonl" && echo >> "$out/bench.jsonl"; }
export -f bench_json
for lesson in seed-increment seed-increment-bug grid-stride seed-matmul seed-matmul-fixed; do
  step "bench $lesson" 120 bench_json --preset "$lesson"
done
for flags in "--pinned" "--resident" "--pinned --resident"; do
  # shellcheck disable=SC2086  # $flags is a list of words
  step "bench increment 16M $flags" 120 bench_json --kernel increment --n 16777216 $flags
done
step "bench text, first launch" 60 "$tm" bench --backend cuda --preset seed-matmul --repeat 5

# compute-sanitizer runs every launch far slower: fewer random launches, no thread-cap launch.
export THREADMAP_GPU_TRIALS=60
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool" 240 compute-sanitizer --tool "$tool" --error-exitcode 1 "$tests" \
    --test-case='*random valid launches*,*compute what the CPU reference*'
done
unset THREADMAP_GPU_TRIALS

# Global sectors per request as Nsight Compute counts them, beside the memory view's model.
step "ncu sectors per request vs the memory view" 300 bash scripts/ncu-vs-model.sh "$tm" "$out/ncu-sectors.csv"
# Blocks per SM of every built-in kernel: threadmap's calculator against the device's own.
step "occupancy vs cudaOccupancyMaxActiveBlocksPerMultiprocessor" 300 \
  bash scripts/occupancy-vs-device.sh "$tm" "$out/occupancy-work"
finish
