// increment_by_one, the tutorial's first kernel: pos from the x components only, guarded.
#pragma once

#include "kernels/builtin/builtin_support.hpp"

namespace threadmap::builtin {

inline const KernelSpec& increment() {
    static const KernelSpec spec = [] {
        KernelSpec spec;
        spec.name = "increment";
        spec.fast = &IncrementBody::kernel;
        spec.summary = "a[pos] += 1 for pos = blockIdx.x * blockDim.x + threadIdx.x < n (the tutorial's first kernel)";
        spec.params = {{"n", "elements of a", 500}};
        spec.arrays = {{"a", MemorySpace::Global, ValueType::Float32, ArrayRole::InOut, shape_n}};
        spec.body = [](ModelThread& t) { increment_by_one(context_of(t), RecordedVector{t.array<float>(0), 4, 4}); };
        spec.covering_grid = cover_n;
        spec.default_block = {256, 1, 1};
        spec.fill_input = fill_counting;
        spec.flops = [](const Params& p) { return double(p[0]); };
        spec.reference = [](const Params&, const LaunchConfig&, const KernelSpec::Bits& in) {
            KernelSpec::Bits out(1, in[0]);
            for (uint32_t& b : out[0]) b = float_bits(bits_float(b) + 1);
            return out;
        };
        spec.cuda_source =
            "__global__ void increment_by_one(float* a, size_t n) {\n"
            "    size_t pos = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (pos < n)\n"
            "        a[pos] += 1;\n"
            "}\n";
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
