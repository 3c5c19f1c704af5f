// A copy that reads `offset` elements further on: with offset 1 each warp's 128 contiguous
// bytes of `in` start 4 bytes past a 32-byte sector, so a load touches 5 sectors where 4
// would do (the misaligned-access lesson); offset 0 or 8 is aligned again.
#pragma once

#include "kernels/builtin/builtin_support.hpp"

namespace threadmap::builtin {

inline const KernelSpec& copy_offset() {
    static const KernelSpec spec = [] {
        KernelSpec spec;
        spec.name = "copy-offset";
        spec.summary = "out[i] = in[i + offset] for i < n: offset 1 makes every warp's load straddle a sector boundary";
        spec.params = {{"n", "elements of out", 1024},
                       {"offset", "elements skipped at the start of in", 1, 0, 1024, SIZE_MAX, false}};
        spec.arrays = {{"in", MemorySpace::Global, ValueType::Float32, ArrayRole::Input,
                        [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[0] + p[1]}; }},
                       {"out", MemorySpace::Global, ValueType::Float32, ArrayRole::Output, shape_n}};
        spec.body = [](ModelThread& t) {
            const auto in = t.input_array<float>(0);
            const auto out = t.array<float>(1);
            const uint64_t i = grid_x(context_of(t));
            if (i < t.param(0)) out.store(i, in.load(i + t.param(1), 4), 4);
        };
        spec.covering_grid = cover_n;
        spec.default_block = {256, 1, 1};
        spec.fill_input = fill_counting;
        spec.reference = [](const Params& p, const LaunchConfig&, const KernelSpec::Bits& in) {
            KernelSpec::Bits out(2);
            out[1].assign(in[0].begin() + std::ptrdiff_t(p[1]), in[0].end());
            return out;
        };
        spec.cuda_source =
            "__global__ void copy_offset(const float* in, float* out, size_t n, size_t offset) {\n"
            "    size_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n)\n"
            "        out[i] = in[i + offset];\n"
            "}\n";
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
