#!/usr/bin/env bash
# The layering check: dependencies point one way, app/ -> viz/ -> kernels/. Every project
# header an include names is looked up by file name (headers are unique across folders) and
# its layer compared with the including file's: kernels/ may include only kernels/; viz/
# kernels/ and viz/; app/ anything (shaders/ and assets/ are embedded, never included). GL
# and ImGui headers stay out of kernels/. Exit 1 naming each include that crosses the wrong way.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import os, re, sys
layers = {"kernels": 0, "viz": 1, "app": 2}
headers = {}  # file name -> layer of the folder that holds it
for root in layers:
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith((".hpp", ".h", ".cuh")):
                headers.setdefault(f, set()).add(root)
bad = []
include = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')
for root, level in layers.items():
    for d, _, files in os.walk(root):
        for f in files:
            if not f.endswith((".cpp", ".hpp", ".h", ".cu", ".cuh")):
                continue
            path = os.path.join(d, f)
            for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
                m = include.match(line)
                if not m:
                    continue
                name = m.group(1)
                base = os.path.basename(name)
                if root == "kernels" and re.match(r"(imgui|GLFW/|epoxy/|EGL/|GL/)", name):
                    bad.append(f"{path}:{n}: {name}: kernels/ has no GL and no ImGui")
                owners = headers.get(base)
                if not owners or '"' not in line:
                    continue
                if all(layers[o] > level for o in owners):
                    bad.append(f"{path}:{n}: {name} is in {'/'.join(sorted(owners))}/, above {root}/")
for b in bad:
    print(b)
print(f"check-layers: {len(bad)} include(s) crossing app/ -> viz/ -> kernels/ the wrong way")
sys.exit(1 if bad else 0)
PY
