#!/usr/bin/env bash
# The window quits cleanly on SIGTERM even when it comes twice at once, as GNU timeout sends
# it (to the process, then to its group), while quitting takes a while (a 4x export of the
# window is still being written): exit 0, the export finished and the frame report written.
# Usage: test_window_signals.sh THREADMAP
set -uo pipefail
tm=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config
mkdir -p "$work/config/threadmap" "$work/exports"
printf '{"export_scale": 4, "export_dir": "%s"}' "$work/exports" > "$work/config/threadmap/settings.json"
# Inside Xvfb: the window starts a 4x export of itself (Ctrl+Shift+S, encoded off the UI
# thread; quitting waits for it), says so with a state file, then gets two SIGTERMs 10 ms apart.
cat > "$work/inside.sh" <<INSIDE
printf '2 key ctrl+shift+s\n3 state %s\n' "$work/started.json" > "$work/started.replay"
"$tm" --window-size 1600x900 --replay "$work/started.replay" --frame-report "$work/report.json" \\
  > "$work/out.txt" 2>&1 &
pid=\$!
for _ in \$(seq 600); do [ -s "$work/started.json" ] && break; sleep 0.1; done
[ -s "$work/started.json" ] || { echo "FAIL: the window did not start: \$(cat "$work/out.txt")" >&2; exit 1; }
kill -TERM \$pid; sleep 0.01; kill -TERM \$pid 2>/dev/null
wait \$pid
INSIDE
xvfb-run -a -s '-screen 0 1920x1080x24' bash "$work/inside.sh"
status=$?
[ $status -eq 0 ] || { echo "FAIL: two SIGTERMs at once: exit $status (143: the second one killed it)" >&2; exit 1; }
[ -s "$work/report.json" ] || { echo "FAIL: two SIGTERMs at once: no frame report" >&2; exit 1; }
compgen -G "$work/exports/*.png" > /dev/null || { echo "FAIL: the export in flight was not finished" >&2; exit 1; }
echo "window signals: two SIGTERMs at once end the window cleanly while it saves (exit 0, export and frame report written)"
