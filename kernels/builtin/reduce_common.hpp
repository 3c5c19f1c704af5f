// What the reductions share: each block sums its blockDim.x values of `in` in shared memory
// (sdata, one float per thread) and writes one partial sum, partial[blockIdx.x].
#pragma once

#include "kernels/builtin/builtin_support.hpp"

namespace threadmap::builtin {

enum ReduceArray : size_t { kIn, kPartial, kSdata };

// Lines 1-6 and 12-14 of both reductions; line 7-11 is the loop that differs.
inline std::string reduce_source(const std::string& name, const std::string& loop) {
    return "__global__ void " + name +
           "(const float* in, float* partial, size_t n) {\n"
           "    extern __shared__ float sdata[];  // blockDim.x floats\n"
           "    unsigned tid = threadIdx.x;\n"
           "    size_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    sdata[tid] = i < n ? in[i] : 0;\n"
           "    __syncthreads();\n" +
           loop +
           "    if (tid == 0)\n"
           "        partial[blockIdx.x] = sdata[0];\n"
           "}\n";
}

// The body around the loop: `step(t, sdata, tid)` runs lines 7-11.
template <class Step>
void reduce_body(ModelThread& t, Step step) {
    const auto in = t.input_array<float>(kIn);
    const auto partial = t.array<float>(kPartial);
    const auto sdata = t.shared_array<float>(kSdata);
    const uint32_t tid = t.threadIdx.x;
    const uint64_t i = grid_x(context_of(t));
    sdata.store(tid, i < t.param(0) ? in.load(i, 5) : 0.0f, 5);
    t.syncthreads(6);
    step(t, sdata, tid);
    if (tid == 0) partial.store(t.blockIdx.x, sdata.load(0, 13), 13);
}

inline KernelSpec reduce_spec_base() {
    KernelSpec spec;
    spec.params = {{"n", "values summed", 1 << 16}};
    spec.arrays = {
        {"in", MemorySpace::Global, ValueType::Float32, ArrayRole::Input, shape_n},
        {"partial", MemorySpace::Global, ValueType::Float32, ArrayRole::Output,
         [](const Params&, const LaunchConfig& launch) { return std::vector<uint64_t>{launch.grid.x}; }},
        {"sdata", MemorySpace::Shared, ValueType::Float32, ArrayRole::Scratch,
         [](const Params&, const LaunchConfig& launch) { return std::vector<uint64_t>{launch.block.x}; }, true}};
    spec.uses_barriers = true;
    spec.covering_grid = cover_n;
    spec.default_block = {256, 1, 1};
    spec.fill_input = fill_counting;
    spec.flops = [](const Params& p) { return double(p[0]); };  // an add per value, about
    // Block b's sum of in[b·blockDim.x …] (integers below 2^24: exact in float in any order).
    spec.reference = [](const Params& p, const LaunchConfig& launch, const KernelSpec::Bits& in) {
        KernelSpec::Bits out(3);
        out[kPartial].resize(launch.grid.x);
        for (uint64_t b = 0; b < launch.grid.x; ++b) {
            float sum = 0;
            for (uint64_t i = b * launch.block.x; i < std::min<uint64_t>((b + 1) * launch.block.x, p[0]); ++i)
                sum += bits_float(in[kIn][i]);
            out[kPartial][b] = float_bits(sum);
        }
        return out;
    };
    return spec;
}

}  // namespace threadmap::builtin
