#!/usr/bin/env bash
# Runs the shell examples of the README and docs/ as written: every ```sh block, in a fresh
# folder, with `threadmap` the built binary. A command must exit 0, or 3 where it reports
# findings (check's contract); the window's lines (no subcommand) and ./scripts/ lines are
# left out (they open a window or build). A placeholder file the README names (my.cu,
# session.threadmap) is made first.
# Usage: scripts/doc-check.sh [THREADMAP_BINARY]   (default build/app/threadmap)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/app/threadmap}")
work=$(mktemp -d /tmp/threadmap-doc-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat > "$work/my.cu" <<'CU'
__global__ void k(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1;
}
CU
blocks=0
for doc in README.md docs/*.md CONTRIBUTING.md; do
  # Each block as its own script: lines starting ./scripts/ dropped, comments kept.
  while IFS= read -r -d '' block; do
    blocks=$((blocks + 1))
    script="$work/block-$blocks.sh"
    {
      echo "set -euo pipefail"
      echo "threadmap() {"
      echo "  case \"\${1:-}\" in ''|--*|*.threadmap) echo \"  (window, not run: threadmap \$*)\"; return 0;; esac"
      echo "  local rc=0; \"$bin\" \"\$@\" > /dev/null || rc=\$?"
      echo "  if [ \$rc -ne 0 ] && [ \$rc -ne 3 ]; then echo \"$doc: threadmap \$* exited \$rc\"; exit 1; fi"
      echo "  echo \"  ok (\$rc): threadmap \$*\""
      echo "}"
      printf '%s\n' "$block"
    } > "$script"
    (cd "$work" && bash "$script") || { echo "doc-check: FAILED in $doc"; exit 1; }
  done < <(python3 - "$doc" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for m in re.finditer(r"```(?:sh|bash)\n(.*?)```", text, re.S):
    lines = [l for l in m.group(1).split("\n") if not l.lstrip().startswith("./scripts/")]
    sys.stdout.write("\n".join(lines) + "\0")
PY
)
done
echo "doc-check: $blocks shell blocks ran as written"
