// A histogram with a plain `+= 1`: threads that count into one bin race (read, add, write).
#pragma once

#include "kernels/builtin/histogram_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& histogram_racy() {
    static const KernelSpec spec = [] {
        KernelSpec spec = histogram_spec_base();
        spec.name = "histogram-racy";
        spec.summary = "bins[data[i] % nbins] += 1: threads counting into one bin race";
        spec.body = [](ModelThread& t) {
            const auto data = t.input_array<int>(0);
            const auto bins = t.array<int>(1);
            const uint64_t i = grid_x(context_of(t));
            if (i < t.param(kHistN)) {
                const uint64_t bin = uint64_t(data.load(i, 4)) % t.param(kHistBins);
                bins.store(bin, bins.load(bin, 4) + 1, 4);
            }
        };
        spec.cuda_source =
            "__global__ void histogram(const int* data, int* bins, size_t n, int nbins) {\n"
            "    size_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n)\n"
            "        bins[data[i] % nbins] += 1;  // read, add one, write back\n"
            "}\n";
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
