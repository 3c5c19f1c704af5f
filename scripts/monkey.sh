#!/usr/bin/env bash
# The monkey test: the real window under Xvfb, driven for SECONDS by a random replay script
# (tests/monkey/monkey_script.cpp: clicks, drags, wheel, keys and shortcuts, text typed into
# the launch fields, lesson, colour and tab switches, resizes down to 1x1) from SEED. Ends it
# with SIGTERM after SECONDS (the window quits as from its close button and writes its frame
# report). Fails when the window crashes, exits with an error, or does not quit within 60 s
# of being asked (a hang). Prints frames, the longest frame and resident memory (MB) at the
# start, the end and the peak.
# Usage: scripts/monkey.sh [SECONDS] [SEED] (defaults 60 and 1); BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
seed=${2:-1}
build=$(realpath "${BUILD_DIR:-build}")
for tool in "$build/app/threadmap" "$build/tests/threadmap_monkey_script"; do
  [ -x "$tool" ] || { echo "monkey: $tool is missing: build first (scripts/test.sh)" >&2; exit 2; }
done
command -v xvfb-run > /dev/null || { echo "monkey: xvfb-run is missing: run scripts/setup.sh" >&2; exit 2; }

work=$(mktemp -d /tmp/threadmap-monkey.XXXXXX)
trap 'rm -rf "$work"' EXIT
# More frames than the window can show in the time: the clock, not the script, ends the run.
"$build/tests/threadmap_monkey_script" "$seed" $((seconds * 300 + 600)) 1600 900 > "$work/monkey.replay"
echo "monkey: seed $seed, ${seconds} s, script of $(grep -vc '^#' "$work/monkey.replay") steps"

status=0
(cd "$work" && XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data \
  xvfb-run -a -s '-screen 0 1920x1080x24' \
  timeout --preserve-status --signal=TERM --kill-after=60 "$seconds" "$build/app/threadmap" --no-settings --window-size 1600x900 --replay "$work/monkey.replay" \
  --frame-report "$work/frames.json" > "$work/out.txt" 2>&1) || status=$?
# The window's own status (--preserve-status): 0 when it quit, at the script's end or on
# SIGTERM; 143 if SIGTERM ended it unhandled, 137 if it did not quit within 60 s of it.
if [ "$status" != 0 ]; then
  echo "monkey: FAILED: the window ended with status $status (143: SIGTERM was not handled; 137: it did not quit within 60 s of SIGTERM)" >&2
  tail -n 40 "$work/out.txt" >&2
  exit 1
fi
[ -s "$work/frames.json" ] || {
  echo "monkey: FAILED: no frame report (the window did not quit cleanly)" >&2
  tail -n 40 "$work/out.txt" >&2
  exit 1
}
if grep -E "internal error|AddressSanitizer|runtime error" "$work/out.txt"; then
  echo "monkey: FAILED: see above" >&2
  exit 1
fi
jq -r '"monkey: \(.rss_mb.samples[-1][0] | floor) s, \(.frame_ms | length) frames, longest \(.frame_ms | max | floor) ms; resident memory " +
       "start \(.rss_mb.start | floor) MB, end \(.rss_mb.end | floor) MB, peak \(.rss_mb.max | floor) MB"' \
  "$work/frames.json"
if [ -n "${MONKEY_KEEP:-}" ]; then cp "$work/frames.json" "$work/monkey.replay" "$work/out.txt" "$MONKEY_KEEP/"; fi
