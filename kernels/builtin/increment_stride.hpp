// The grid-stride loop: any grid covers any n, each thread stepping by the grid's width.
#pragma once

#include "kernels/builtin/builtin_support.hpp"

namespace threadmap::builtin {

inline const KernelSpec& increment_stride() {
    static const KernelSpec spec = [] {
        KernelSpec spec = increment();
        spec.name = "increment-stride";
        spec.fast = &IncrementStrideBody::kernel;
        spec.any_grid_covers = true;
        spec.summary = "the grid-stride loop: a[pos] += 1 for pos = global x, then every gridDim.x * blockDim.x";
        spec.body = [](ModelThread& t) {
            threadmap::increment_stride(context_of(t), RecordedVector{t.array<float>(0), 4, 4});
        };
        spec.cuda_source =
            "__global__ void increment_stride(float* a, size_t n) {\n"
            "    size_t stride = (size_t)blockDim.x * gridDim.x;\n"
            "    for (size_t pos = blockIdx.x * blockDim.x + threadIdx.x; pos < n; pos += stride)\n"
            "        a[pos] += 1;\n"
            "}\n";
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
