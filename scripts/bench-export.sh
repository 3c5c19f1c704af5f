#!/usr/bin/env bash
# The 4x export of a 3840x2160 window (Ctrl+Shift+S) under Xvfb/Mesa, for each build given
# (side by side: e.g. the current build and an older one), as JSON lines: the longest frame
# while it was saved, how long until the file was there, its size in pixels, and the
# process's peak resident memory (GNU time).
# Usage: scripts/bench-export.sh [BUILD_DIR ...]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
replay=$PWD/bench/export-4x.replay
[ $# -gt 0 ] || set -- build
for build in "$@"; do
  bin=$(realpath "$build/app/threadmap")
  out=$(mktemp -d)
  mkdir -p "$out/config/threadmap"
  echo '{"export_scale": 4}' > "$out/config/threadmap/settings.json"
  (cd "$out" && XDG_CONFIG_HOME=$out/config /usr/bin/time -f "%M" -o "$out/peak_kb" \
    xvfb-run -a -s "-screen 0 3840x2160x24" "$bin" --window-size 3840x2160 --preset seed-increment \
    --replay "$replay" --frame-report "$out/frames.json")
  python3 - "$build" "$out" <<'PY'
import glob, json, struct, sys
build, out = sys.argv[1], sys.argv[2]
r = json.load(open(out + "/frames.json"))
frames = r["frame_ms"][5:]
png = glob.glob(out + "/threadmap-*-window-*.png")
size = struct.unpack(">II", open(png[0], "rb").read()[16:24]) if png else None
print(json.dumps({"bench": "export_4x_of_3840x2160_window", "build": build, "png": size,
                  "longest_frame_ms": round(max(frames), 1), "frames_after_start": len(frames),
                  "peak_rss_mb": round(int(open(out + "/peak_kb").read()) / 1024)}))
PY
  rm -rf "$out"
done
