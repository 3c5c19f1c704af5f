#!/usr/bin/env bash
# Instructions per recorded access at the findings level (`threadmap check`), counted by
# cachegrind: a figure that does not wander with the machine's speed, as this project's VM's
# wall times do (up to 2x between minutes). Each BUILD's `check` of each launch runs under
# `valgrind --tool=cachegrind`; its instructions less those of `threadmap --version` (the
# process's start), over the loads, stores and atomics the launch made (`accesses` in the last
# BUILD's `check --format json`; the launches are the same in every build). The five kernels of
# issue 38's per-access figure, as `model-bench levels` launches them but smaller, so that each
# build takes a minute or so under valgrind. Prints one JSON line per launch, then the medians.
# Usage: scripts/bench-instructions.sh BUILD_DIR [BUILD_DIR...]   (needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [BUILD_DIR...]" >&2; exit 2; }
command -v valgrind > /dev/null || { echo "$0: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

instructions() {  # instructions one run of ARGS made; the launches have no findings (exit 0)
  if ! valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null --log-file="$out/log" "$@" \
      > /dev/null 2>&1; then
    echo "$0: '$*' failed under valgrind" >&2
    exit 1
  fi
  sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$out/log" | tr -d ,
}

# model-bench levels' launches (its tutorial's matmul as it is), the others smaller.
launches=(
  "increment --n 1048576 --block 256"
  "matmul --rows 200 --cols 200 --inner 200 --a_rows 300 --b_cols 300 --block 32,32"
  "transpose-tiled --rows 512 --cols 512 --block 32,32"
  "reduce-sequential --n 262144 --block 256"
  "matmul-tiled --rows 128 --cols 128 --inner 128 --block 16,16"
)
last="${!#}"
builds=("$@")
for i in "${!builds[@]}"; do instructions "${builds[$i]}/app/threadmap" --version > "$out/start.$i"; done
for launch in "${launches[@]}"; do
  # shellcheck disable=SC2086
  accesses=$("$last/app/threadmap" check --kernel $launch --format json |
             python3 -c 'import json,sys; print(json.load(sys.stdin)["accesses"])')
  row="{\"bench\":\"instructions_per_access\",\"launch\":\"$launch\",\"accesses\":$accesses"
  for i in "${!builds[@]}"; do
    # shellcheck disable=SC2086
    total=$(instructions "${builds[$i]}/app/threadmap" check --kernel $launch)
    row+=",\"${builds[$i]}\":$(python3 -c "print(round(($total - $(cat "$out/start.$i")) / $accesses, 1))")"
  done
  echo "$row}"
done | tee "$out/rows"
python3 - "$out/rows" "$@" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(json.dumps({"bench": "instructions_per_access_median",
                  **{b: statistics.median(r[b] for r in rows) for b in sys.argv[2:]}}))
PY
