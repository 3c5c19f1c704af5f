// What the histogram kernels share: n values counted into `bins` bins.
#pragma once

#include "kernels/builtin/builtin_support.hpp"

namespace threadmap::builtin {

enum HistogramParam : size_t { kHistN, kHistBins };

// Values spread over the bins unevenly, as real data is (a multiplicative hash of i).
inline uint32_t histogram_value(uint64_t i) { return uint32_t((i * 2654435761u) >> 7) % 1000; }

inline KernelSpec histogram_spec_base() {
    KernelSpec spec;
    spec.params = {{"n", "values counted", 4096}, {"bins", "bins of the histogram", 16, 1, 1 << 20, SIZE_MAX, false}};
    spec.arrays = {{"data", MemorySpace::Global, ValueType::Int32, ArrayRole::Input, shape_n},
                   {"bins", MemorySpace::Global, ValueType::Int32, ArrayRole::Output,
                    [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[kHistBins]}; }}};
    spec.covering_grid = cover_n;
    spec.default_block = {256, 1, 1};
    spec.fill_input = [](const Params&, size_t, std::vector<uint32_t>& bits) {
        for (uint64_t i = 0; i < bits.size(); ++i) bits[i] = histogram_value(i);
    };
    spec.reference = [](const Params& p, const LaunchConfig&, const KernelSpec::Bits& in) {
        KernelSpec::Bits out(2);
        out[1].assign(p[kHistBins], 0u);
        for (uint32_t v : in[0]) ++out[1][v % p[kHistBins]];
        return out;
    };
    return spec;
}

}  // namespace threadmap::builtin
