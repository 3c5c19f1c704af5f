// The histogram fixed with atomicAdd: each count is one indivisible read-add-write.
#pragma once

#include "kernels/builtin/histogram_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& histogram_atomic() {
    static const KernelSpec spec = [] {
        KernelSpec spec = histogram_spec_base();
        spec.name = "histogram-atomic";
        spec.summary = "atomicAdd(&bins[data[i] % nbins], 1): no race";
        spec.uses_atomics = true;
        spec.atomic_results_unused = true;  // the counts' old values are dropped
        spec.body = [](ModelThread& t) {
            const auto data = t.input_array<int>(0);
            const auto bins = t.array<int>(1);
            const uint64_t i = grid_x(context_of(t));
            if (i < t.param(kHistN)) bins.atomic_add(uint64_t(data.load(i, 4)) % t.param(kHistBins), 1, 4);
        };
        spec.cuda_source =
            "__global__ void histogram(const int* data, int* bins, size_t n, int nbins) {\n"
            "    size_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n)\n"
            "        atomicAdd(&bins[data[i] % nbins], 1);\n"
            "}\n";
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
