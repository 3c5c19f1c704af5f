#!/usr/bin/env bash
# Whole-process benchmark of the CLI: each command run N times (default 7), its wall time
# (median, min, max, in ms to 0.1) and peak memory (median, from the kernel's account of the
# child) printed as one JSON line per command and build; the builds take turns run by run, so
# that they meet the same machine state. Give two build folders to compare a change with its
# base side by side (e.g. `git worktree add /tmp/base <commit> && cmake -S /tmp/base -B
# /tmp/base-build && make -C /tmp/base-build threadmap`).
# Usage: scripts/bench-cli.sh [BUILD_DIR ...]   (default: build)   Environment: RUNS (default 7)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - "${RUNS:-7}" "${@:-build}" <<'PY'
import json, os, statistics, subprocess, sys, time

runs, builds = int(sys.argv[1]), sys.argv[2:]
commands = [
    "--version",
    "map --preset seed-increment --format json",
    "map --kernel increment --n 16777216 --format json --no-elements",
    "check --kernel increment --n 16777216",
    "check --preset tiled-matmul",
    "check --kernel reduce-sequential --n 4000000 --block 256",
    "check --kernel matmul-tiled --rows 512 --cols 512 --inner 512",
]

def run(binary, args):
    start = time.perf_counter()
    child = subprocess.Popen([binary] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    ms = (time.perf_counter() - start) * 1000
    err = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    return ms, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), err

for command in commands:
    seen = {b: [] for b in builds}
    failed = {}
    for _ in range(runs):
        for b in builds:
            if b in failed:
                continue
            ms, mb, code, err = run(os.path.join(b, "app", "threadmap"), command.split())
            if code != 0:
                failed[b] = err.strip()[:200]
            seen[b].append((ms, mb))
    for b in builds:
        if b in failed:
            print(json.dumps({"build": b, "command": command, "error": failed[b]}))
            continue
        ms = sorted(m for m, _ in seen[b])
        print(json.dumps({"build": b, "command": command, "runs": len(ms), "median_ms": round(statistics.median(ms), 1),
                          "min_ms": round(ms[0], 1), "max_ms": round(ms[-1], 1),
                          "peak_mb": round(statistics.median(mb for _, mb in seen[b]))}), flush=True)
PY
