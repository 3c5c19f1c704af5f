#!/usr/bin/env bash
# Lesson benchmark: every lesson opened in the window under Xvfb (1600x900), then its
# blockDim.x typed to two other values and back to the lesson's; prints one JSON line per lesson
# with the time from each change to its new map (with its findings) on screen — "changes" for
# the two launches not shown before, "back" for the return, which the window keeps
# (app/window_state/picture_cache.hpp) — the longest frame after the first, the longest after
# the first map landed (the changes' own frames), and a summary line.
# Usage: scripts/bench-lessons.sh [BUILD_DIR [LESSON...]]   (default: build, every lesson)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}/app/threadmap
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" lessons --format json > "$out/lessons.json"
if [ $# -gt 1 ]; then
  printf '%s\n' "${@:2}" > "$out/ids"
else
  python3 -c 'import json,sys; [print(l["id"]) for l in json.load(open(sys.argv[1]))["lessons"]]' "$out/lessons.json" \
    > "$out/ids"
fi
while read -r id; do
  # The lesson's blockDim.x, and another that keeps the block within 1,024 threads.
  x=$("$bin" map --preset "$id" --format json --no-elements 2>/dev/null |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["launch"]["block"][0])' 2>/dev/null || echo 32)
  other=$([ "$x" = 16 ] && echo 8 || echo 16)
  third=$([ "$x" = 8 ] || [ "$other" = 8 ] && echo 4 || echo 8)
  printf '2 wait idle\n31 click blockDim.x\n32 key ctrl+a\n33 type %s\n34 key enter\n36 wait idle\n41 click blockDim.x\n42 key ctrl+a\n43 type %s\n44 key enter\n46 wait idle\n61 click blockDim.x\n62 key ctrl+a\n63 type %s\n64 key enter\n66 wait idle\n90 quit\n' \
    "$other" "$third" "$x" > "$out/change.replay"
  if XDG_CONFIG_HOME="$out" timeout 120 xvfb-run -a -s "-screen 0 1600x900x24" "$bin" --no-settings --preset "$id" \
      --window-size 1600x900 --replay "$out/change.replay" --frame-report "$out/$id.json" > /dev/null 2>&1; then
    python3 - "$out/$id.json" "$id" "$x" "$other" "$third" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
changes = [round(x, 1) for x in r["change_to_screen_ms"][1:]]
# The frames after the first map landed (the first frame where no work runs after some did):
# the changes' own, apart from the first map's (the colour buffer's first allocation).
busy = r["computing"]
landed = next((i for i in range(1, len(busy)) if busy[i - 1] and not busy[i]), len(busy))
print(json.dumps({"bench": "lesson_change_to_screen_ms", "lesson": sys.argv[2],
                  "blockDim_x": f"{sys.argv[3]} -> {sys.argv[4]} -> {sys.argv[5]} -> {sys.argv[3]}",
                  "changes": changes[:2], "back": changes[2:], "first_map": round(r["change_to_screen_ms"][0], 1),
                  "longest_frame_ms": round(max(r["frame_ms"][1:]), 1),
                  "longest_change_frame_ms": round(max(r["frame_ms"][landed + 1:], default=0), 1)}))
PY
  else
    echo "{\"bench\": \"lesson_change_to_screen_ms\", \"lesson\": \"$id\", \"error\": \"the window did not finish the replay\"}"
  fi
done < "$out/ids" | tee "$out/all.jsonl"
python3 - "$out/all.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
changes = sorted(c for r in rows for c in r.get("changes", []))
back = sorted(c for r in rows for c in r.get("back", []))
if changes:
    print(json.dumps({"bench": "lesson_change_to_screen_summary", "lessons": len(rows), "changes": len(changes),
                      "median_ms": round(statistics.median(changes), 1), "max_ms": changes[-1],
                      "over_50_ms": sum(c > 50 for c in changes),
                      "back_median_ms": round(statistics.median(back), 1) if back else None,
                      "back_max_ms": back[-1] if back else None,
                      "frames_over_50_ms": sum(r.get("longest_frame_ms", 0) > 50 for r in rows),
                      "change_frames_over_50_ms": sum(r.get("longest_change_frame_ms", 0) > 50 for r in rows)}))
PY
