// The histogram privatised in shared memory: each block counts into its own bins with
// shared-memory atomics, then adds them to the global bins once per bin. Fewer global atomics,
// but `bins` ints of __shared__ memory per block: with thousands of bins that is what limits
// how many blocks an SM holds (the shared-memory occupancy lesson).
#pragma once

#include "kernels/builtin/histogram_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& histogram_shared() {
    static const KernelSpec spec = [] {
        KernelSpec spec = histogram_spec_base();
        spec.name = "histogram-shared";
        spec.summary = "each block counts into its own __shared__ bins (atomicAdd), then adds them to the global bins";
        spec.arrays.push_back({"local", MemorySpace::Shared, ValueType::Int32, ArrayRole::Scratch,
                               [](const Params& p, const LaunchConfig&) { return std::vector<uint64_t>{p[kHistBins]}; },
                               true});
        spec.uses_barriers = true;
        spec.uses_atomics = true;
        spec.atomic_results_unused = true;  // the counts' old values are dropped
        spec.body = [](ModelThread& t) {
            const auto data = t.input_array<int>(0);
            const auto bins = t.array<int>(1);
            const auto local = t.shared_array<int>(2);
            const uint64_t nbins = t.param(kHistBins);
            for (uint64_t b = t.threadIdx.x; b < nbins; b += t.blockDim.x) local.store(b, 0, 4);
            t.syncthreads(5);
            const uint64_t i = grid_x(context_of(t));
            if (i < t.param(kHistN)) local.atomic_add(uint64_t(data.load(i, 8)) % nbins, 1, 8);
            t.syncthreads(9);
            for (uint64_t b = t.threadIdx.x; b < nbins; b += t.blockDim.x) bins.atomic_add(b, local.load(b, 11), 11);
        };
        spec.cuda_source =
            "__global__ void histogram_shared(const int* data, int* bins, size_t n, int nbins) {\n"
            "    extern __shared__ int local[];  // nbins ints: this block's own histogram\n"
            "    for (int b = threadIdx.x; b < nbins; b += blockDim.x)\n"
            "        local[b] = 0;\n"
            "    __syncthreads();\n"
            "    size_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n)\n"
            "        atomicAdd(&local[data[i] % nbins], 1);\n"
            "    __syncthreads();\n"
            "    for (int b = threadIdx.x; b < nbins; b += blockDim.x)\n"
            "        atomicAdd(&bins[b], local[b]);\n"
            "}\n";
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
