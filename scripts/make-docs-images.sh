#!/usr/bin/env bash
# Regenerates the README's figures with `threadmap render` (no display needed).
# Usage: scripts/make-docs-images.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}/app/threadmap
mkdir -p docs/images
env -u DISPLAY "$bin" render --preset seed-matmul --color block --size 1280x720 --out docs/images/seed-matmul-block.png
# The same figure in the window's dark theme (a dark room; the light one is for paper and lit rooms).
env -u DISPLAY "$bin" render --preset seed-matmul --color block --theme dark --size 1280x720 \
  --out docs/images/seed-matmul-block-dark.png
env -u DISPLAY "$bin" render --preset seed-increment-bug --color coverage --size 1280x720 \
  --out docs/images/seed-increment-bug-coverage.png
env -u DISPLAY "$bin" render --kernel matmul-xcol --rows 48 --cols 80 --inner 8 --block 16,8 --color warp \
  --size 1280x720 --out docs/images/matmul-xcol-warp.png
env -u DISPLAY "$bin" render --preset missing-guard --color findings --size 1280x720 \
  --out docs/images/missing-guard-findings.png
echo "wrote docs/images/*.png"
