#!/usr/bin/env bash
# An idle window waits for input: once its map is on screen and nothing computes, it draws about
# four frames a second (IdleFrames, app/window/window.cpp), not one per refresh — a software GL
# frame costs a core 10-15 ms, and a learner's laptop should not spend a core on a still picture.
# The window runs without a script (a script's steps keep frames coming) for ten seconds, then
# SIGTERM quits it; its frame report's last three seconds are idle ones, and that is checked too.
# Usage: test_window_idle.sh THREADMAP
set -uo pipefail
tm=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config
xvfb-run -a -s '-screen 0 1280x720x24' timeout -s TERM 10 "$tm" --no-settings --window-size 1280x720 \
  --preset seed-increment --frame-report "$work/report.json" > "$work/out.txt" 2>&1
[ -s "$work/report.json" ] || { echo "FAIL: no frame report: $(cat "$work/out.txt")" >&2; exit 1; }
python3 - "$work/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
starts, computing = r["frame_start_s"], r["computing"]
tail = [i for i, t in enumerate(starts) if t > starts[-1] - 3.0]
if starts[-1] < 5 or any(computing[i] for i in tail) or "map" not in r:
    sys.exit("FAIL: the window was not idle for its last three seconds (still starting or computing)")
# At 4 a second: 12 or 13 frames in three seconds (fewer on a loaded machine, never more); a
# frame per refresh would be 150 or more here.
if len(tail) > 18:
    sys.exit(f"FAIL: the idle window drew {len(tail)} frames in its last three seconds (at most 18 expected)")
if len(tail) < 3:
    sys.exit(f"FAIL: the idle window drew {len(tail)} frames in its last three seconds: it stopped drawing")
print(f"idle window: {len(tail)} frames in its last three seconds")
PY
