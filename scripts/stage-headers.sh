#!/usr/bin/env bash
# Copies this machine's Debian header-only libraries (CLI11, nlohmann-json, doctest) into
# .deps/include (and doctest's CMake module into .deps/cmake) — an ignored folder, never committed — so that a machine with no package
# registry (the GPU machine of scripts/device-check.sh) can build threadmap's command line
# and tests. Carry .deps along with the working tree.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps/include
for dir in CLI nlohmann doctest; do
  [ -d "/usr/include/$dir" ] || { echo "stage-headers: /usr/include/$dir missing: run scripts/setup.sh first" >&2; exit 1; }
  rm -rf ".deps/include/$dir"
  cp -r "/usr/include/$dir" .deps/include/
done
# doctest_discover_tests lives in doctest's CMake module.
mkdir -p .deps/cmake
cp /usr/lib/cmake/doctest/doctest.cmake /usr/lib/cmake/doctest/doctestAddTests.cmake .deps/cmake/
echo "staged $(du -sh .deps | cut -f1) of headers in .deps/include"
