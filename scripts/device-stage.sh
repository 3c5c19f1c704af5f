#!/usr/bin/env bash
# Prepares, on a machine with Debian's packages and registry, everything the GPU machine of
# scripts/device-check.sh lacks (it has the CUDA toolkit, CMake, ninja and a driver; no
# package registry, no GUI libraries, no EGL loader), in one ignored folder, .deps/:
#   .deps/include, .deps/cmake  the header-only CLI11, nlohmann-json and doctest (and doctest's
#                               CMake module), copied from this machine (scripts/setup.sh)
#   .deps/debs/*.deb            Boost.Context (headers, CMake files, library), GLFW, Dear
#                               ImGui, libepoxy, GLM, stb with what they need to
#                               build and run, and the EGL/GL loaders (libglvnd); device-check.sh
#                               unpacks them into a folder of its own there, never into /
# Carry .deps with the working tree (run's `carry`); the README gives the one call.
# Exit status: 0 when all is staged (and the folder is under the 64 MiB a carry may hold).
# Usage: scripts/device-stage.sh [DIR]   (DIR: default .deps, where CMake and device-check.sh look)
set -euo pipefail
cd "$(dirname "$0")/.."
deps=${1:-.deps}
limit_mib=48  # what travels with the working tree is 64 MiB in all; leave room for the tree

# Build: GLFW, ImGui (static, needs stb), libepoxy, GLM, and the pkg-config files that
# epoxy.pc and glfw need (x11, egl, gl and theirs). Run: the shared libraries they load,
# and glvnd's EGL/GL loaders, which find NVIDIA's driver through its vendor file.
packages=(
  libglfw3 libglfw3-dev libimgui-dev libstb0 libstb-dev libepoxy0 libepoxy-dev libglm-dev
  libx11-6 libx11-dev libxcb1 libxcb1-dev libxau6 libxau-dev libxdmcp6 libxdmcp-dev libbsd0 libmd0
  x11proto-dev xorg-sgml-doctools
  libglvnd0 libglvnd-dev libegl1 libegl-dev libgl1 libgl-dev libglx0 libglx-dev libopengl0 libopengl-dev
  libgles2 libgles-dev
  pkgconf-bin libpkgconf3  # CMake finds ImGui and libepoxy through pkg-config, which may be missing there
  libboost1.74-dev libboost-context1.74-dev libboost-context1.74.0  # fibers for __syncthreads() (kernels/model)
)

for dir in CLI nlohmann doctest; do
  [ -d "/usr/include/$dir" ] || { echo "device-stage: /usr/include/$dir missing: run scripts/setup.sh first" >&2; exit 1; }
done
rm -rf "$deps/include" "$deps/cmake" "$deps/debs"
mkdir -p "$deps/include" "$deps/cmake" "$deps/debs"
for dir in CLI nlohmann doctest; do cp -r "/usr/include/$dir" "$deps/include/"; done
cp /usr/lib/cmake/doctest/doctest.cmake /usr/lib/cmake/doctest/doctestAddTests.cmake "$deps/cmake/"

# apt-get download writes into the current folder; as root its sandbox user must be able to.
(cd "$deps/debs" && apt-get download -q -o APT::Sandbox::User=root "${packages[@]}") > "$deps/debs.log" 2>&1 || {
  tail -n 20 "$deps/debs.log" >&2
  echo "device-stage: apt-get download failed (is Debian's mirror reachable?)" >&2
  exit 1
}
count=$(find "$deps/debs" -name '*.deb' | wc -l)
[ "$count" -eq "${#packages[@]}" ] || { echo "device-stage: $count of ${#packages[@]} packages downloaded" >&2; exit 1; }
size_kib=$(du -sk "$deps" | cut -f1)
if [ "$size_kib" -gt $((limit_mib * 1024)) ]; then
  echo "device-stage: $deps is $((size_kib / 1024)) MiB, over the $limit_mib MiB it may use" >&2
  exit 1
fi
echo "device-stage: staged $count packages and 3 header-only libraries in $deps ($((size_kib / 1024)) MiB)"
