// increment without its guard: the threads past the end of a write out of bounds.
#pragma once

#include "kernels/builtin/builtin_support.hpp"

namespace threadmap::builtin {

inline const KernelSpec& increment_unguarded() {
    static const KernelSpec spec = [] {
        KernelSpec spec = increment();
        spec.fast = nullptr;  // the kernel model only: its writes past the end need the model's bounds
        spec.name = "increment-unguarded";
        spec.default_block = {32, 1, 1};
        spec.summary = "a[pos] += 1 with no `if (pos < n)`: every thread past the end touches memory outside a";
        spec.body = [](ModelThread& t) {
            const auto a = t.array<float>(0);
            const uint64_t pos = grid_x(context_of(t));
            a.store(pos, a.load(pos, 3) + 1.0f, 3);
        };
        spec.cuda_source =
            "__global__ void increment_unguarded(float* a) {\n"
            "    size_t pos = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    a[pos] += 1;  // no `if (pos < n)`\n"
            "}\n";
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
