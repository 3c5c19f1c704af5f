#!/usr/bin/env bash
# Window and render benchmarks under Xvfb/Mesa (llvmpipe), printed as JSON lines:
#  1. frame time at 1920x1080 with a 4096x4096 matmul-xcol map on screen (median, p90, max),
#  2. time from a blockDim change to the new 4096x4096 map on screen,
#  3. `threadmap render` of seed-matmul at 1920x1080, start to finish (DISPLAY unset),
#  4. frame time while a launch at the emulator's thread cap (2^30 threads) computes off the
#     UI thread, next to the frames before it.
# Usage: scripts/bench-window.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}/app/threadmap
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

XDG_CONFIG_HOME="$out" xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" --no-settings \
  --kernel matmul-xcol --rows 4096 --cols 4096 --inner 16 --block 32,32 \
  --window-size 1920x1080 --replay bench/window_blockdim_change.replay --frame-report "$out/frames.json"

python3 - "$out/frames.json" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))
frames = list(zip(r["frame_ms"], r["computing"]))[5:]  # after start-up
def stats(v):
    v = sorted(v)
    if not v:
        return {"frames": 0}
    return {"median": round(statistics.median(v), 2), "p90": round(v[int(len(v) * 0.9)], 2), "max": round(v[-1], 2),
            "frames": len(v)}
print(json.dumps({"bench": "frame_ms_1920x1080_4096x4096_map", "map_on_screen": stats([f for f, c in frames if not c]),
                  "while_computing": stats([f for f, c in frames if c])}))
print(json.dumps({"bench": "blockdim_change_to_screen_ms", "first_map": round(r["change_to_screen_ms"][0], 1),
                  "changes": [round(x, 1) for x in r["change_to_screen_ms"][1:]]}))
PY

runs=()
for _ in 1 2 3 4 5; do
  start=$(date +%s.%N)
  env -u DISPLAY "$bin" render --preset seed-matmul --size 1920x1080 --out "$out/seed-matmul.png"
  end=$(date +%s.%N)
  runs+=("$(python3 -c "print(round(($end - $start) * 1000, 1))")")
done
echo "{\"bench\": \"render_seed_matmul_1920x1080_wall_ms\", \"runs\": [$(IFS=,; echo "${runs[*]}")]}"

XDG_CONFIG_HOME="$out" xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" --no-settings \
  --kernel increment --n 1000 --block 1024 --grid 1 \
  --window-size 1920x1080 --replay bench/window_caps_launch.replay --frame-report "$out/caps.json"
python3 - "$out/caps.json" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))
frames = list(zip(r["frame_ms"], r["computing"]))[5:]
idle, busy = [f for f, c in frames if not c], [f for f, c in frames if c]
print(json.dumps({"bench": "frame_ms_while_2e30_thread_launch_computes",
                  "idle_median": round(statistics.median(idle), 2), "computing_median": round(statistics.median(busy), 2),
                  "computing_max": round(max(busy), 2), "frames_computing": len(busy), "max_frame_overall": round(max(idle), 2),
                  "map_computed_to_screen_ms": [round(x, 1) for x in r["change_to_screen_ms"][1:]]}))
PY
