// The tiled transposes: a block reads a 32×32 tile along rows into shared memory and writes
// it out along rows of the output, reading the tile down its columns. transpose-tiled's tile
// is 32 wide (a column of it is in one bank: a 32-way conflict); transpose-tiled-padded's is
// 33 (each row shifts by a bank: none).
#pragma once

#include "kernels/builtin/transpose_common.hpp"

namespace threadmap::builtin {

// `width`: the tile's row length in floats (32, or 33 padded).
inline void transpose_tiled_body(ModelThread& t, uint64_t width) {
    const auto in = t.input_array<float>(kTIn);
    const auto out = t.array<float>(kTOut);
    const auto tile = t.shared_array<float>(kTTile);
    const uint64_t rows = t.param(kTRows), cols = t.param(kTCols);
    const uint32_t tx = t.threadIdx.x, ty = t.threadIdx.y;
    uint64_t x = uint64_t(t.blockIdx.x) * kTransposeTile + tx, y = uint64_t(t.blockIdx.y) * kTransposeTile + ty;
    if (x < cols && y < rows) tile.store(ty * width + tx, in.load(y * cols + x, 6), 6);
    t.syncthreads(7);
    x = uint64_t(t.blockIdx.y) * kTransposeTile + tx;  // the transposed block
    y = uint64_t(t.blockIdx.x) * kTransposeTile + ty;
    if (x < rows && y < cols) out.store(y * rows + x, tile.load(tx * width + ty, 11), 11);
}

template <uint64_t Width>
std::vector<uint64_t> tile_shape(const Params&, const LaunchConfig&) {
    return {kTransposeTile, Width};
}

inline KernelSpec transpose_tiled_spec(uint64_t width) {
    KernelSpec spec = transpose_spec_base();
    spec.arrays.push_back({"tile", MemorySpace::Shared, ValueType::Float32, ArrayRole::Scratch,
                           width == kTransposeTile ? tile_shape<kTransposeTile> : tile_shape<kTransposeTile + 1>});
    spec.uses_barriers = true;
    spec.covering_grid = [](const Params& p, const Dim3&) {
        return Dim3{blocks_to_cover(p[kTCols], kTransposeTile), blocks_to_cover(p[kTRows], kTransposeTile), 1};
    };
    const std::string tile = width == kTransposeTile ? "TILE" : "TILE + 1";
    spec.cuda_source =
        "#define TILE 32\n"
        "__global__ void transpose_tiled(const float* in, float* out, size_t rows, size_t cols) {\n"
        "    __shared__ float tile[TILE][" +
        tile +
        "];\n"
        "    size_t x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;\n"
        "    if (x < cols && y < rows)\n"
        "        tile[threadIdx.y][threadIdx.x] = in[y * cols + x];\n"
        "    __syncthreads();\n"
        "    x = blockIdx.y * TILE + threadIdx.x;  // the transposed block\n"
        "    y = blockIdx.x * TILE + threadIdx.y;\n"
        "    if (x < rows && y < cols)\n"
        "        out[y * rows + x] = tile[threadIdx.x][threadIdx.y];\n"
        "}\n";
    return spec;
}

inline const KernelSpec& transpose_tiled() {
    static const KernelSpec spec = [] {
        KernelSpec spec = transpose_tiled_spec(kTransposeTile);
        spec.name = "transpose-tiled";
        spec.summary = "transpose through a 32×32 shared tile: both global accesses along rows (blockDim 32×32)";
        spec.body = [](ModelThread& t) { transpose_tiled_body(t, kTransposeTile); };
        return spec;
    }();
    return spec;
}

inline const KernelSpec& transpose_tiled_padded() {
    static const KernelSpec spec = [] {
        KernelSpec spec = transpose_tiled_spec(kTransposeTile + 1);
        spec.name = "transpose-tiled-padded";
        spec.summary = "transpose-tiled with the tile 33 floats wide: its columns spread over the banks";
        spec.body = [](ModelThread& t) { transpose_tiled_body(t, kTransposeTile + 1); };
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
