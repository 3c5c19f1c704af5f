#!/usr/bin/env bash
# Sets up and builds threadmap if needed, then runs it with the given arguments
# (none: the default lesson, seed-increment).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec "${BUILD_DIR:-build}/app/threadmap" "$@"
