#!/usr/bin/env bash
# HiDPI: on a first start (no settings file) the window takes its UI scale from the monitor's
# content scale, here a virtual display whose Xft.dpi is 192 (200%: GLFW reads the X resource),
# and keeps its own setting afterwards. Usage: test_window_hidpi.sh THREADMAP_BINARY
set -euo pipefail
binary=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/inside.sh" <<INSIDE
set -euo pipefail
printf 'Xft.dpi:\t192\n' | xrdb -nocpp -load -
printf '1 move 5 5\n2 wait idle\n3 state $work/first.json\n4 quit\n' > $work/first.replay
printf '1 move 5 5\n2 wait idle\n3 state $work/second.json\n4 quit\n' > $work/second.replay
XDG_CONFIG_HOME=$work/config "$binary" --replay $work/first.replay
XDG_CONFIG_HOME=$work/config "$binary" --replay $work/second.replay
INSIDE
# -noreset: the resource xrdb sets must outlive its own connection.
xvfb-run -a -s '-noreset -screen 0 1920x1080x24' bash "$work/inside.sh"
first=$(jq '.ui_scale' "$work/first.json")
second=$(jq '.ui_scale' "$work/second.json")
[ "$first" = 2 ] || { echo "FAIL: a first start on a 200% display has UI scale $first, not 2"; exit 1; }
[ "$second" = 2 ] || { echo "FAIL: the next start has UI scale $second, not the saved 2"; exit 1; }
echo "HiDPI: a first start on a 200% display scales the UI by 2, and the setting stays"
