#!/usr/bin/env bash
# Differential check of two builds' CLI: runs each command line below with both builds and
# prints every command whose stdout, stderr, exit status or written PNG differs (then the
# first lines of the difference). A refactor that must not change what threadmap prints runs
# this against its base (`git worktree add /tmp/base <commit> && cmake -S /tmp/base -B
# /tmp/base-build && make -C /tmp/base-build threadmap threadmap-kernel-host`). Expected
# differences: measured times and the dates in bench's JSON.
# Usage: scripts/diff-cli.sh BASE_BUILD_DIR [BUILD_DIR]   (default: build); exit 1 when any differs
set -uo pipefail
cd "$(dirname "$0")/.."
base=$1/app/threadmap
new=${2:-build}/app/threadmap
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
commands=$(cat <<'CMDS'
kernels
map --kernel increment --n 1000 --block 128
map --kernel increment --n 1000 --block 128,2 --format json
map --kernel increment-stride --n 1000 --block 64 --grid 3 --format csv
map --kernel matmul --rows 50 --cols 40 --inner 7 --block 8,8 --format json
map --kernel matmul-xcol --rows 50 --cols 40 --block 16,4
map --kernel matmul --rows 0 --cols 5
map --kernel matmul --n 5
map --kernel increment --rows 5
map --kernel increment --n 0
map --kernel increment
map --kernel matmul
map --preset seed-matmul --format json
map --preset seed-matmul-uncoalesced
map --preset seed-increment-bug --format json
map --preset seed-increment --array a --access read --format json
map --kernel matmul --rows 30 --cols 30 --array A --access read --format csv
map --kernel increment --n 100 --block 32 --grid 2
map --kernel increment-unguarded --n 100 --block 32 --format json
map --kernel matmul-store-in-loop --rows 20 --cols 20 --inner 20 --format json
check --kernel increment --n 1000 --block 128,2
check --kernel matmul --rows 64 --cols 64 --inner 64
check --preset seed-matmul
check --preset tiled-matmul
memory --kernel matmul --rows 64 --cols 64 --inner 64
memory --kernel matmul-xcol --rows 64 --cols 64 --inner 64 --json
memory --kernel increment --n 4096 --block 96
memory --preset coalescing
occupancy --kernel increment --n 100000 --block 96 --device-profile h200
occupancy --kernel matmul --rows 300 --cols 300 --block 32,32 --device-profile h200
occupancy --preset occupancy-shared-memory --device-profile h200
bench --kernel increment --n 100000 --backend cpu
bench --kernel matmul --rows 64 --cols 64 --inner 64 --sweep --json
bench --kernel increment --sweep --json
bench --kernel histogram-racy --sweep
map --kernel histogram-atomic --format json
map --kernel transpose-tiled --format json
map --kernel reduce-sequential --n 3000 --block 128 --format json
lessons
render --preset seed-matmul --out @OUT@/r1.png --size 640x360
render --kernel increment --n 700 --block 64 --out @OUT@/r2.png --size 640x360 --color warp
render --kernel matmul-xcol --rows 40 --cols 70 --block 8,8 --grid 10,4 --out @OUT@/r3.png --size 640x360
render --preset seed-increment-bug --out @OUT@/r4.png --size 640x360
render --kernel matmul --rows 40 --cols 70 --block 8,8 --grid 7,12 --out @OUT@/r5.png --size 640x360 --color block
memory --kernel increment-stride --n 5000 --block 128 --grid 4 --json
occupancy --kernel matmul-xcol --rows 300 --cols 300 --block 16,16 --device-profile laptop-gpu
map --kernel increment-stride --n 5000 --block 128 --grid 4 --array a --access read
render --kernel increment-stride --n 3000 --block 64 --grid 5 --out @OUT@/r6.png --size 800x450 --color thread-x
render --kernel matmul --rows 33 --cols 17 --block 4,8 --out @OUT@/r7.png --size 800x450 --color coverage
CMDS
)
differ=0
i=0
while IFS= read -r line; do
  i=$((i + 1))
  for side in base new; do
    dir=$out/$side/$i
    mkdir -p "$dir"
    bin=$([ $side = base ] && echo "$base" || echo "$new")
    # shellcheck disable=SC2086  # the line is words: a command line
    timeout 120 "$bin" ${line//@OUT@/$dir} > "$dir/stdout" 2> "$dir/stderr"
    echo $? > "$dir/rc"
  done
  for f in "$out/base/$i"/*; do
    name=$(basename "$f")
    if ! cmp -s "$f" "$out/new/$i/$name"; then
      echo "differs: threadmap $line ($name)"
      case $name in *.png) ;; *) diff "$f" "$out/new/$i/$name" | head -6 ;; esac
      differ=1
    fi
  done
done <<< "$commands"
echo "diff-cli: $i commands, $([ $differ = 0 ] && echo "all the same" || echo "some differ")"
exit $differ
