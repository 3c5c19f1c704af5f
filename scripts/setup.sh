#!/usr/bin/env bash
# Installs threadmap's Debian packages when missing (as root, or through sudo), then
# configures and builds. Environment: BUILD_DIR (default build), CMAKE_ARGS (extra -D…).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make pkg-config
          libcli11-dev nlohmann-json3-dev doctest-dev                  # CLI, JSON, tests
          libopenblas0                                                 # the CPU reference (opened when it multiplies)
          libboost-context-dev                                         # fibers for __syncthreads()
          libimgui-dev libglfw3-dev libglm-dev libstb-dev libepoxy-dev  # window and drawing
          libegl-dev libegl-mesa0 libgl1-mesa-dri                      # OpenGL with no display
          fonts-dejavu-core                                            # readable UI text
          xvfb xauth jq x11-xserver-utils                              # window tests (xrdb: HiDPI), monkey
          desktop-file-utils appstream                                 # install test
          python3                                                      # docs and layers checks, gallery
          libclang-15-dev llvm-15-dev libclang-cpp15-dev libseccomp-dev  # learners' kernels
          clang-14)                                                    # libFuzzer targets (scripts/fuzz.sh)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "setup: missing Debian packages: ${missing[*]}; install them as root (apt-get install)" >&2
    exit 1
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

build_dir=${BUILD_DIR:-build}
# shellcheck disable=SC2086  # CMAKE_ARGS is a list of words on purpose
cmake -S . -B "$build_dir" ${CMAKE_ARGS:-} >&2
cmake --build "$build_dir" -j"$(nproc)" >&2
