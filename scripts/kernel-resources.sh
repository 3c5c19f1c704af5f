#!/usr/bin/env bash
# The compiler's resource figures for each built-in kernel: registers per thread, static
# __shared__ bytes and barriers, as ptxas reports them (`nvcc --resource-usage`) for each
# architecture the build targets, compiled from the kernel's own CUDA text (`threadmap kernels
# --format json` gives it). The occupancy calculator reads them from
# kernels/builtin/compiled_resources.cpp, which this script writes, so a build without nvcc
# has the same figures and says which nvcc they came from.
# Usage: scripts/kernel-resources.sh THREADMAP [OUT]   write OUT (default kernels/builtin/compiled_resources.cpp)
#        scripts/kernel-resources.sh --check THREADMAP SM
#            compile every kernel for sm_SM now and compare with what THREADMAP keeps; exit 1
#            on a difference (the kept file is stale: rerun the first form), 0 when equal.
set -euo pipefail
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
archs="75 80 86 89 90 100 120"  # cmake/CudaSupport.cmake's CMAKE_CUDA_ARCHITECTURES
check=""
if [ "${1:-}" = "--check" ]; then check=$3; shift; fi
threadmap=${1:?usage: scripts/kernel-resources.sh THREADMAP [OUT] | --check THREADMAP SM}
out=${2:-$(dirname "$0")/../kernels/builtin/compiled_resources.cpp}
[ -x "$nvcc" ] || { echo "kernel-resources: no nvcc ($nvcc)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$threadmap" kernels --format json > "$work/kernels.json"

# ptxas's lines for one kernel: "SM REGISTERS BARRIERS SHARED" per architecture. Device code
# only (-cubin, one architecture at a time): a whole object compiles the host side too, three
# times as long (1.6 s of CPU against 0.5 s for matmul-tiled, 2026-12-07).
figures() {  # $1: kernel name, $2...: architectures
    local name=$1; shift
    jq -r --arg n "$name" '.kernels[] | select(.name == $n) | .cuda_source' "$work/kernels.json" > "$work/k.cu"
    for a in "$@"; do
        "$nvcc" -cubin -o "$work/k.cubin" -gencode "arch=compute_$a,code=sm_$a" --resource-usage "$work/k.cu" 2>&1
    done | awk '
        /Compiling entry function/ { match($0, /sm_[0-9]+/); sm = substr($0, RSTART + 3, RLENGTH - 3) }
        /Used [0-9]+ registers/ {
            regs = 0; bars = 0; smem = 0
            for (i = 1; i <= NF; ++i) {
                if ($(i + 1) ~ /^registers/) regs = $i
                if ($(i + 1) ~ /^barriers/) bars = $i
                if ($(i + 1) == "bytes" && $(i + 2) ~ /^smem/) smem = $i
            }
            print sm, regs, bars, smem
        }'
}

names=$(jq -r '.kernels[].name' "$work/kernels.json")
if [ -n "$check" ]; then
    status=0
    for name in $names; do
        read -r sm regs bars smem < <(figures "$name" "$check")
        kept=$(jq -r --arg n "$name" --arg cc "$((check / 10)).$((check % 10))" \
            '.kernels[] | select(.name == $n) | .compiled[$cc] | "\(.registers) \(.barriers) \(.static_shared_bytes)"' \
            "$work/kernels.json")
        if [ "$kept" != "$regs $bars $smem" ]; then
            echo "$name sm_$sm: nvcc now gives registers/barriers/shared $regs $bars $smem, threadmap keeps $kept" >&2
            status=1
        else
            echo "$name sm_$sm: $regs registers, $bars barriers, $smem bytes static shared (as kept)"
        fi
    done
    exit $status
fi

version=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p')
{
    echo "// Written by scripts/kernel-resources.sh from each built-in kernel's CUDA text with nvcc"
    echo "// $version (ptxas --resource-usage, default optimisation); rerun it after changing a kernel's"
    echo "// CUDA text — the kernel_resources_match_nvcc test fails until then."
    echo "#include \"kernels/builtin/compiled_resources.hpp\""
    echo
    echo "namespace threadmap {"
    echo
    echo "const char* const kCompiledResourcesNvcc = \"nvcc $version\";"
    echo
    echo "// clang-format off"
    echo "const std::vector<CompiledResources> kCompiledResources = {"
    for name in $names; do
        # shellcheck disable=SC2086  # the list of architectures
        figures "$name" $archs | while read -r sm regs bars smem; do
            echo "    {\"$name\", $sm, $regs, $bars, $smem},"
        done
    done
    echo "};"
    echo "// clang-format on"
    echo
    echo "}  // namespace threadmap"
} > "$work/out.cpp"
mv "$work/out.cpp" "$out"
echo "wrote $out ($(grep -c '^    {' "$out") kernel/architecture figures, nvcc $version)"
