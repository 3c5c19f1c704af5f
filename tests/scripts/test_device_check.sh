#!/usr/bin/env bash
# The GPU check's machinery, without a GPU: the staging script's output, and the check's
# exit status and summary line with no device (a skip, never a pass) and with a step made to
# fail. Usage: test_device_check.sh SOURCE_DIR BUILD_DIR (a build the check uses as it is).
set -euo pipefail
src=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. Staging: the header-only libraries and every package, in the folder asked for.
"$src/scripts/device-stage.sh" "$tmp/deps" > "$tmp/stage.out"
grep -q "^device-stage: staged 37 packages and 3 header-only libraries in $tmp/deps" "$tmp/stage.out" ||
  fail "staging said: $(cat "$tmp/stage.out")"
for f in include/CLI/CLI.hpp include/nlohmann/json.hpp include/doctest/doctest.h cmake/doctest.cmake; do
  [ -f "$tmp/deps/$f" ] || fail "staging left out $f"
done
for p in libglfw3-dev libimgui-dev libepoxy-dev libglm-dev libegl1 libglvnd0 pkgconf-bin libboost-context1.74-dev; do
  compgen -G "$tmp/deps/debs/${p}_*.deb" > /dev/null || fail "staging left out the package $p"
done
[ "$(du -sm "$tmp/deps" | cut -f1)" -lt 48 ] || fail "the staged folder is over 48 MiB"

# 2. No device: the GPU tests are a skip, the check exits non-zero and says so last.
check() {
  THREADMAP_DEVICE_BUILD=$build THREADMAP_DEVICE_PREBUILT=1 THREADMAP_DEVICE_SYSROOT=$tmp/sysroot \
    "$src/scripts/device-check.sh" "$1" > "$1.stdout" 2>&1
}
if check "$tmp/none"; then fail "the check passed with no device"; fi
last=$(tail -n 1 "$tmp/none/device-check.log")
[ "$last" = "device check: 2 passed, 0 failed, 1 skipped" ] || fail "no device, last line: $last"
grep -q -- "-- GPU tests: SKIPPED (SKIPPED: no usable CUDA device" "$tmp/none/device-check.log" ||
  fail "the skip does not say why: $(grep -- '-- GPU tests' "$tmp/none/device-check.log")"

# 3. A step that fails is counted and makes the check fail, whatever follows it.
if THREADMAP_DEVICE_BREAK=devices check "$tmp/broken"; then fail "the check passed with a failing step"; fi
grep -q -- "-- devices: FAILED (exit 1)" "$tmp/broken/device-check.log" || fail "the failing step is not named"
last=$(tail -n 1 "$tmp/broken/device-check.log")
[ "$last" = "device check: 1 passed, 1 failed, 1 skipped" ] || fail "a failing step, last line: $last"
echo "device check machinery: staging, no-device skip and a failing step all reported"
