#!/usr/bin/env bash
# The layering check. Every project include is written from the repository root
# ("kernels/core/outcome.hpp"), so its folder is in its name. Dependencies point one way:
#   layers:   kernels/ <- viz/ <- app/
#   viz/:     color <- layout <- draw
#   kernels/: core <- model <- builtin <- occupancy <- emulator <- timing <- cuda <- source <- kernel_host
#   app/:     launch <- reports <- window_state <- panels <- window <- commands <- app/ itself
# (kernels/, viz/ and app/'s CMakeLists.txt add their folders in this order, one library
# each). A folder may include its own folder and folders left of it. GL and ImGui headers stay out
# of kernels/, viz/color and viz/layout. A bare include of a project header ("outcome.hpp") fails too.
# Exit 1 naming each include that breaks a rule.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import os, re, sys
order = ["kernels/core", "kernels/model", "kernels/builtin", "kernels/occupancy", "kernels/emulator",
         "kernels/timing", "kernels/cuda", "kernels/source", "kernels/kernel_host",
         "viz/color", "viz/layout", "viz/draw",
         "app/launch", "app/reports", "app/window_state", "app/panels", "app/window", "app/commands", "app"]
rank = {folder: i for i, folder in enumerate(order)}
headers = set()
for d, _, files in os.walk("."):
    headers.update(os.path.basename(f) for f in files if f.endswith((".hpp", ".h", ".cuh")) and "/build" not in d)
include = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
bad = []
for top in ["kernels", "viz", "app", "tests", "bench", "fuzz"]:
    for d, _, files in os.walk(top):
        for f in files:
            if not f.endswith((".cpp", ".hpp", ".h", ".cu", ".cuh")):
                continue
            path = os.path.join(d, f)
            folder = d if d in rank else None
            if top in ("kernels", "viz", "app") and folder is None:
                bad.append(f"{path}: {d}/ is not in the layer order (scripts/check-layers.sh)")
                continue
            for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
                m = include.match(line)
                if not m:
                    continue
                quote, name = m.groups()
                pure = folder and (folder.startswith("kernels") or folder in ("viz/color", "viz/layout"))
                if pure and re.match(r"(imgui|GLFW/|epoxy/|EGL/|GL/)", name):
                    bad.append(f"{path}:{n}: {name}: {folder}/ has no GL and no ImGui")
                if quote != '"' or name.startswith("/"):
                    continue
                if not os.path.exists(name):
                    if os.path.basename(name) in headers:
                        bad.append(f"{path}:{n}: {name}: write a project include from the repository root")
                    continue
                target = os.path.dirname(name)
                if folder and target in rank and rank[target] > rank[folder]:
                    bad.append(f"{path}:{n}: {name} is in {target}/, after {folder}/ in the layer order")
for b in bad:
    print(b)
print(f"check-layers: {len(bad)} include(s) breaking the layer order or written bare")
sys.exit(1 if bad else 0)
PY
