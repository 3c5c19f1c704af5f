#!/usr/bin/env bash
# The occupancy calculator against the device's own: for every built-in kernel (compiled
# from its CUDA text for this GPU) and several block sizes, cudaOccupancyMaxActiveBlocksPer-
# Multiprocessor on the device next to `threadmap occupancy` for the same compute capability,
# SM count, registers (the device's cudaFuncGetAttributes) and shared memory. Prints one line
# per case and exits 1 when any active-blocks figure differs, 77 (with a SKIPPED line) when
# there is no GPU. The registers the build keeps for that architecture are printed beside the
# device's (a difference there is reported, not failed: the driver may add registers).
# Usage: scripts/occupancy-vs-device.sh THREADMAP [WORK_DIR]
set -uo pipefail
tm=${1:?usage: scripts/occupancy-vs-device.sh THREADMAP [WORK_DIR]}
work=${2:-$(mktemp -d)}
mkdir -p "$work"
export PATH="$PATH:/usr/local/cuda/bin"
query=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' ')
[ -n "$query" ] || { echo "SKIPPED: no GPU (nvidia-smi found none)"; exit 77; }
cc=$query
sm=${cc/./}
"$tm" kernels --format json > "$work/kernels.json" || exit 1
status=0 compared=0
printf '%-24s %5s %8s %8s %6s %6s\n' kernel block device threadmap regs kept
for name in $(jq -r '.kernels[].name' "$work/kernels.json"); do
  src="$work/$name.cu"
  jq -r --arg n "$name" '.kernels[] | select(.name == $n) | .cuda_source' "$work/kernels.json" > "$src"
  fn=$(grep -o '__global__ void [A-Za-z_0-9]*' "$src" | head -n 1 | awk '{print $3}')
  kept=$(jq -r --arg n "$name" --arg cc "$cc" '.kernels[] | select(.name == $n) | .compiled[$cc].registers // "-"' \
    "$work/kernels.json")
  cat >> "$src" <<CPP

#include <cstdio>
#include <cstdlib>
// Arguments: pairs of block size and shared bytes per block (static and dynamic).
int main(int argc, char** argv) {
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, $fn);
    if (e != cudaSuccess) { std::printf("error %s\n", cudaGetErrorString(e)); return 2; }
    for (int i = 1; i + 1 < argc; i += 2) {
        const int block = std::atoi(argv[i]);
        const size_t total = std::strtoull(argv[i + 1], nullptr, 10);
        const size_t dynamic = total > a.sharedSizeBytes ? total - a.sharedSizeBytes : 0;
        if (dynamic > a.maxDynamicSharedSizeBytes)
            cudaFuncSetAttribute($fn, cudaFuncAttributeMaxDynamicSharedMemorySize, int(dynamic));
        int blocks = -1;
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, $fn, block, dynamic);
        std::printf("%d %d %d %s\n", block, blocks, a.numRegs, e == cudaSuccess ? "ok" : cudaGetErrorString(e));
    }
    return 0;
}
CPP
  if ! nvcc -arch="sm_$sm" -o "$work/$name" "$src" > "$work/$name.nvcc.log" 2>&1; then
    echo "$name: nvcc failed:"; cat "$work/$name.nvcc.log"; status=1; continue
  fi
  params=()
  for p in $(jq -r --arg n "$name" '.kernels[] | select(.name == $n) | .params[].name' "$work/kernels.json"); do
    case $p in n) params+=(--n 4096) ;; rows|cols) params+=("--$p" 256) ;; inner) params+=(--inner 64) ;; bins) params+=(--bins 16) ;; esac
  done
  args=()
  for block in 32 64 96 128 256 512 1024; do
    shared=$("$tm" occupancy --kernel "$name" "${params[@]}" --block "$block" --cc "$cc" --sms 1 --json 2>/dev/null |
      jq -r '.shared_bytes_per_block') || continue
    [ -n "$shared" ] && [ "$shared" != null ] && args+=("$block" "$shared")
  done
  while read -r block device regs ok; do
    [ "$ok" = ok ] || { echo "$name block $block: the device's calculator failed: $ok"; status=1; continue; }
    ours=$("$tm" occupancy --kernel "$name" "${params[@]}" --block "$block" --cc "$cc" --sms 1 --registers "$regs" \
      --json | jq -r '.active_blocks_per_sm')
    printf '%-24s %5s %8s %8s %6s %6s\n' "$name" "$block" "$device" "$ours" "$regs" "$kept"
    compared=$((compared + 1))
    [ "$device" = "$ours" ] || { echo "  MISMATCH: the device holds $device blocks per SM, threadmap says $ours"; status=1; }
  done < <("$work/$name" "${args[@]}")
done
echo "occupancy vs the device: $compared cases compared, compute capability $cc, $([ $status -eq 0 ] && echo 'all equal' || echo 'DIFFERENCES above')"
exit $status
