// Tiled matmul: each 16×16 block stages a tile of A and a tile of B in shared memory, with a
// barrier after the loads (the tiles are complete) and one after the sums (nobody still
// reads a tile the next step overwrites). matmul-tiled-nosync drops the second barrier.
#pragma once

#include "kernels/builtin/matmul_common.hpp"

namespace threadmap::builtin {

inline constexpr uint32_t kTile = 16;
enum TiledArray : size_t { kAs = 3, kBs = 4 };

// `second_barrier`: false for matmul-tiled-nosync (line 15 is a comment there).
inline void matmul_tiled_body(ModelThread& t, bool second_barrier) {
    const auto A = t.input_array<float>(kA), B = t.input_array<float>(kB);
    const auto C = t.array<float>(kC);
    const auto As = t.shared_array<float>(kAs), Bs = t.shared_array<float>(kBs);
    const uint64_t rows = t.param(kRows), cols = t.param(kCols), inner = t.param(kInner), b_cols = t.param(kBCols);
    const uint32_t tx = t.threadIdx.x, ty = t.threadIdx.y;
    const uint64_t row = uint64_t(t.blockIdx.y) * kTile + ty, col = uint64_t(t.blockIdx.x) * kTile + tx;
    float sum = 0;
    for (uint64_t s = 0; s < (inner + kTile - 1) / kTile; ++s) {
        As.store(uint64_t(ty) * kTile + tx,
                 row < rows && s * kTile + tx < inner ? A.load(row * inner + s * kTile + tx, 10) : 0.0f, 10);
        Bs.store(uint64_t(ty) * kTile + tx,
                 col < cols && s * kTile + ty < inner ? B.load((s * kTile + ty) * b_cols + col, 11) : 0.0f, 11);
        t.syncthreads(12);
        for (uint32_t k = 0; k < kTile; ++k)
            sum += As.load(uint64_t(ty) * kTile + k, 14) * Bs.load(uint64_t(k) * kTile + tx, 14);
        if (second_barrier) t.syncthreads(15);
    }
    if (row < rows && col < cols) C.store(row * cols + col, sum, 18);
}

inline std::string matmul_tiled_source(const std::string& line15) {
    return "#define TILE 16\n"
           "__global__ void matmul_tiled(const float* A, const float* B, float* C,\n"
           "                             size_t rows, size_t cols, size_t inner, size_t b_cols) {\n"
           "    __shared__ float As[TILE][TILE];\n"
           "    __shared__ float Bs[TILE][TILE];\n"
           "    unsigned tx = threadIdx.x, ty = threadIdx.y;\n"
           "    size_t row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;\n"
           "    float sum = 0;\n"
           "    for (size_t s = 0; s < (inner + TILE - 1) / TILE; ++s) {\n"
           "        As[ty][tx] = row < rows && s * TILE + tx < inner ? A[row * inner + s * TILE + tx] : 0;\n"
           "        Bs[ty][tx] = col < cols && s * TILE + ty < inner ? B[(s * TILE + ty) * b_cols + col] : 0;\n"
           "        __syncthreads();  // the tiles are complete\n"
           "        for (unsigned k = 0; k < TILE; ++k)\n"
           "            sum += As[ty][k] * Bs[k][tx];\n" +
           line15 +
           "    }\n"
           "    if (row < rows && col < cols)\n"
           "        C[row * cols + col] = sum;\n"
           "}\n";
}

inline KernelSpec matmul_tiled_spec(bool second_barrier) {
    KernelSpec spec = matmul_spec_base();
    const auto tile = [](const Params&, const LaunchConfig&) { return std::vector<uint64_t>{kTile, kTile}; };
    spec.arrays.push_back({"As", MemorySpace::Shared, ValueType::Float32, ArrayRole::Scratch, tile});
    spec.arrays.push_back({"Bs", MemorySpace::Shared, ValueType::Float32, ArrayRole::Scratch, tile});
    spec.uses_barriers = true;
    spec.default_block = {kTile, kTile, 1};
    spec.covering_grid = [](const Params& p, const Dim3&) {
        return Dim3{blocks_to_cover(p[kCols], kTile), blocks_to_cover(p[kRows], kTile), 1};
    };
    spec.cuda_source = matmul_tiled_source(
        second_barrier ? "        __syncthreads();  // nobody still reads the tiles\n"
                       : "        // no __syncthreads() here: the next loads overwrite tiles still read\n");
    return spec;
}

inline const KernelSpec& matmul_tiled() {
    static const KernelSpec spec = [] {
        KernelSpec spec = matmul_tiled_spec(true);
        spec.name = "matmul-tiled";
        spec.summary = "C = A·B with 16×16 tiles of A and B in shared memory, two barriers per step (blockDim 16×16)";
        spec.body = [](ModelThread& t) { matmul_tiled_body(t, true); };
        return spec;
    }();
    return spec;
}

inline const KernelSpec& matmul_tiled_nosync() {
    static const KernelSpec spec = [] {
        KernelSpec spec = matmul_tiled_spec(false);
        spec.name = "matmul-tiled-nosync";
        spec.summary = "matmul-tiled without its second barrier: the next tiles overwrite ones still being read";
        spec.body = [](ModelThread& t) { matmul_tiled_body(t, false); };
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
