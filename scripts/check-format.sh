#!/usr/bin/env bash
# Fails (exit 1, naming the files) when a tracked C++ or CUDA file differs from what
# clang-format makes of it with the root .clang-format. Installs Debian's clang-format when
# it is missing. Fix with: git ls-files '*.cpp' '*.hpp' '*.cu' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  [ "$(id -u)" -eq 0 ] || { echo "check-format: install clang-format (apt-get install clang-format)" >&2; exit 1; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-format >&2
fi
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu')
if ! clang-format --dry-run --Werror "${files[@]}" 2> /tmp/check-format.$$; then
  grep -E "^[^ ].*: (warning|error):" /tmp/check-format.$$ | cut -d: -f1 | sort -u | sed 's/^/not formatted: /' >&2
  rm -f /tmp/check-format.$$
  exit 1
fi
rm -f /tmp/check-format.$$
echo "check-format: ${#files[@]} files formatted"
