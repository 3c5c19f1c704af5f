#!/usr/bin/env bash
# Installs the build into a fresh prefix, then uses it as a user would: the installed binary
# from another folder (nothing read from the source tree), a figure drawn with no display,
# and the desktop entry and AppStream metainfo checked by their own validators.
# Usage: test_install.sh BUILD_DIR HAS_GUI
set -euo pipefail
build=$1 has_gui=$2
prefix=$(mktemp -d /tmp/threadmap-install-XXXXXX)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > "$prefix/install.log"
cd /
"$prefix/bin/threadmap" --version | grep -q '^threadmap ' || { echo "installed --version printed no version"; exit 1; }
test -s "$prefix/share/doc/threadmap/README.md" || { echo "README.md not installed"; exit 1; }
# A learner's kernel: compiled and run by the installed kernel host (libexec/threadmap/), which
# the installed threadmap finds by itself.
if [ -x "$prefix/libexec/threadmap/threadmap-kernel-host" ]; then
  printf '__global__ void inc(float* a, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) a[i] += 1;\n}\n' > "$prefix/inc.cu"
  env -u THREADMAP_KERNEL_HOST "$prefix/bin/threadmap" map --source "$prefix/inc.cu" --bind a=float[40] --bind n=40 \
    --block 32 --format csv > "$prefix/inc.csv"
  [ "$(wc -l < "$prefix/inc.csv")" -gt 40 ] || { echo "the installed kernel host did not run a kernel"; exit 1; }
fi
if [ "$has_gui" = 1 ]; then
  # Under the sanitizer build no leak check here: Mesa keeps small caches for the process
  # (see tests/app/test_render_cli.cpp); the drawing code is leak-checked in-process.
  env -u DISPLAY -u WAYLAND_DISPLAY ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    "$prefix/bin/threadmap" render --preset seed-matmul --size 640x360 --out "$prefix/figure.png"
  [ "$(head -c 8 "$prefix/figure.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "render wrote no PNG"; exit 1; }
  desktop=$prefix/share/applications/io.github.threadmap.Threadmap.desktop
  desktop-file-validate "$desktop"
  grep -q '^Exec=threadmap$' "$desktop"
  appstreamcli validate --no-net "$prefix/share/metainfo/io.github.threadmap.Threadmap.metainfo.xml"
  for icon in scalable/apps/threadmap.svg 48x48/apps/threadmap.png 128x128/apps/threadmap.png 256x256/apps/threadmap.png; do
    test -s "$prefix/share/icons/hicolor/$icon" || { echo "icon $icon not installed"; exit 1; }
  done
fi
echo "installed and ran from $prefix"
