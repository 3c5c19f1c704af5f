// What the transposes share: out (cols×rows) = inᵀ (in is rows×cols); the tiled ones use
// 32×32 blocks and a shared tile (a column of a 32-wide tile is one bank: the 32-way conflict).
#pragma once

#include "kernels/builtin/builtin_support.hpp"

namespace threadmap::builtin {

enum TransposeParam : size_t { kTRows, kTCols };
enum TransposeArray : size_t { kTIn, kTOut, kTTile };
inline constexpr uint32_t kTransposeTile = 32;

inline KernelSpec transpose_spec_base() {
    KernelSpec spec;
    spec.params = {{"rows", "rows of in", 200}, {"cols", "columns of in", 300}};
    spec.arrays = {
        {"in", MemorySpace::Global, ValueType::Float32, ArrayRole::Input,
         [](const Params& p, const LaunchConfig&) {
             return std::vector<uint64_t>{p[kTRows], p[kTCols]};
         }},
        {"out", MemorySpace::Global, ValueType::Float32, ArrayRole::Output, [](const Params& p, const LaunchConfig&) {
             return std::vector<uint64_t>{p[kTCols], p[kTRows]};
         }}};
    spec.covering_grid = [](const Params& p, const Dim3& b) {
        return Dim3{blocks_to_cover(p[kTCols], b.x), blocks_to_cover(p[kTRows], b.y), 1};
    };
    spec.default_block = {kTransposeTile, kTransposeTile, 1};
    spec.fill_input = fill_counting;
    spec.reference = [](const Params& p, const LaunchConfig&, const KernelSpec::Bits& in) {
        KernelSpec::Bits out(2);
        out[kTOut].resize(p[kTRows] * p[kTCols]);
        for (uint64_t r = 0; r < p[kTRows]; ++r)
            for (uint64_t c = 0; c < p[kTCols]; ++c) out[kTOut][c * p[kTRows] + r] = in[kTIn][r * p[kTCols] + c];
        return out;
    };
    return spec;
}

}  // namespace threadmap::builtin
