// A 1D stencil of radius 3: each block loads its values and a halo of 3 on each side into
// shared memory (the first 3 threads load the halo), then each thread sums 7 neighbours.
#pragma once

#include "kernels/builtin/builtin_support.hpp"

namespace threadmap::builtin {

inline constexpr uint32_t kRadius = 3;

// Lines 6-16 of the CUDA text below, per thread.
inline void stencil_1d_body(ModelThread& t) {
    const auto in = t.input_array<float>(0);
    const auto out = t.array<float>(1);
    const auto temp = t.shared_array<float>(2);
    const uint64_t n = t.param(0), g = grid_x(context_of(t)), b = t.blockDim.x;
    const uint64_t l = t.threadIdx.x + kRadius;
    temp.store(l, g < n ? in.load(g, 6) : 0.0f, 6);
    if (t.threadIdx.x < kRadius) {
        temp.store(l - kRadius, g >= kRadius && g - kRadius < n ? in.load(g - kRadius, 8) : 0.0f, 8);
        temp.store(l + b, g + b < n ? in.load(g + b, 9) : 0.0f, 9);
    }
    t.syncthreads(11);
    if (g < n) {
        float sum = 0;
        for (int k = -int(kRadius); k <= int(kRadius); ++k) sum += temp.load(uint64_t(int64_t(l) + k), 15);
        out.store(g, sum, 16);
    }
}

// out[g]: the sum of in over g-3 … g+3, within the array.
inline KernelSpec::Bits stencil_1d_reference(const Params& p, const LaunchConfig&, const KernelSpec::Bits& in) {
    KernelSpec::Bits out(3);
    out[1].resize(p[0]);
    for (uint64_t g = 0; g < p[0]; ++g) {
        float sum = 0;  // integers: exact in any order
        for (int64_t k = -int64_t(kRadius); k <= int64_t(kRadius); ++k) {
            const int64_t i = int64_t(g) + k;
            if (i >= 0 && i < int64_t(p[0])) sum += bits_float(in[0][uint64_t(i)]);
        }
        out[1][g] = float_bits(sum);
    }
    return out;
}

inline const KernelSpec& stencil_1d() {
    static const KernelSpec spec = [] {
        KernelSpec spec;
        spec.name = "stencil-1d";
        spec.summary = "out[g] = in[g-3] + … + in[g+3]: the block's values and a halo of 3 each side in shared memory";
        spec.params = {{"n", "elements of in and out", 1000}};
        spec.arrays = {{"in", MemorySpace::Global, ValueType::Float32, ArrayRole::Input, shape_n},
                       {"out", MemorySpace::Global, ValueType::Float32, ArrayRole::Output, shape_n},
                       {"temp", MemorySpace::Shared, ValueType::Float32, ArrayRole::Scratch,
                        [](const Params&, const LaunchConfig& launch) {
                            return std::vector<uint64_t>{uint64_t(launch.block.x) + 2 * kRadius};
                        },
                        true}};
        spec.uses_barriers = true;
        spec.covering_grid = cover_n;
        spec.default_block = {128, 1, 1};
        spec.fill_input = fill_counting;
        spec.body = stencil_1d_body;
        spec.flops = [](const Params& p) { return double(p[0]) * 2 * kRadius; };  // 6 adds per output
        spec.reference = stencil_1d_reference;
        spec.cuda_source =
            "#define RADIUS 3\n"
            "__global__ void stencil_1d(const float* in, float* out, size_t n) {\n"
            "    extern __shared__ float temp[];  // blockDim.x + 2 * RADIUS floats\n"
            "    size_t g = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    unsigned l = threadIdx.x + RADIUS;\n"
            "    temp[l] = g < n ? in[g] : 0;\n"
            "    if (threadIdx.x < RADIUS) {  // the first threads load the halo\n"
            "        temp[l - RADIUS] = g >= RADIUS && g - RADIUS < n ? in[g - RADIUS] : 0;\n"
            "        temp[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : 0;\n"
            "    }\n"
            "    __syncthreads();\n"
            "    if (g < n) {\n"
            "        float sum = 0;\n"
            "        for (int k = -RADIUS; k <= RADIUS; ++k)\n"
            "            sum += temp[l + k];\n"
            "        out[g] = sum;\n"
            "    }\n"
            "}\n";
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
