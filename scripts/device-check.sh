#!/usr/bin/env bash
# The GPU check, for a fresh machine with the CUDA toolkit, CMake and a driver (nothing else
# assumed). Builds with CUDA for the GPU it finds (the window and offscreen rendering too
# when GLFW, Dear ImGui and libepoxy are installed), then runs: the GPU tests (CUDA map vs
# the emulator on 1,200 random launches, kernel results, the validator vs the device's own
# launch errors, and — with the GUI — the interop colours vs host painting through EGL with
# no display), `threadmap bench` for the tutorial's lessons, `map --backend cuda`, and a
# `render --backend cuda`. Everything lands in OUT_DIR: device-check.log, gpu-tests.log,
# bench.jsonl (one JSON per line), seed-matmul.png. Meant to finish in under 8 minutes.
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

main() {
  echo "== threadmap device check, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv || echo "(no nvidia-smi)"
  nvcc --version | tail -n 2
  # Machine code for the GPU that is here (never "native": the check must say what it built).
  local cap arch_args=()
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
  [ -n "$cap" ] && arch_args=(-DCMAKE_CUDA_ARCHITECTURES="${cap}-real")
  echo "== configure (${arch_args[*]:-default architectures})"
  cmake -S . -B "$build" -DTHREADMAP_CUDA=ON -DCMAKE_BUILD_TYPE=Release "${arch_args[@]}" || return 1
  echo "== build"
  cmake --build "$build" -j"$(nproc)" 2>&1 | grep -E "error|warning|Built target threadmap$" || true
  [ -x "$build/app/threadmap" ] || { echo "build failed"; return 1; }
  local tm="$build/app/threadmap"
  "$tm" --version
  "$tm" devices

  echo "== GPU tests"
  "$build/tests/test_gpu" 2>&1 | tee "$out/gpu-tests.log" | tail -n 25

  echo "== map on the GPU"
  "$tm" map --backend cuda --preset seed-increment-bug --format json --no-elements

  echo "== bench (CUDA events; CPU reference on the host clock)"
  : > "$out/bench.jsonl"
  for lesson in seed-increment seed-increment-bug grid-stride seed-matmul seed-matmul-fixed; do
    "$tm" bench --backend cuda --preset "$lesson" --repeat 20 --json | tr -d '\n' >> "$out/bench.jsonl"
    echo >> "$out/bench.jsonl"
  done
  for flags in "--pinned" "--resident" "--pinned --resident"; do
    # shellcheck disable=SC2086  # $flags is a list of words
    "$tm" bench --backend cuda --kernel increment --n 16777216 --repeat 20 $flags --json | tr -d '\n' >> "$out/bench.jsonl"
    echo >> "$out/bench.jsonl"
  done
  "$tm" bench --backend cuda --kernel increment --n 16777216 --repeat 20

  echo "== render through EGL on the GPU"
  if env -u DISPLAY "$tm" render --backend cuda --preset seed-matmul --out "$out/seed-matmul.png"; then
    echo "wrote seed-matmul.png"
  else
    echo "(no render: built without the GUI, or no EGL device)"
  fi
}

start=$(date +%s)
main 2>&1 | tee "$out/device-check.log"
echo "== done in $(( $(date +%s) - start )) s" | tee -a "$out/device-check.log"
