// The naive transpose: reads along rows (coalesced), writes along columns (strided).
#pragma once

#include "kernels/builtin/transpose_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& transpose_naive() {
    static const KernelSpec spec = [] {
        KernelSpec spec = transpose_spec_base();
        spec.name = "transpose-naive";
        spec.summary = "out[x][y] = in[y][x], one thread per element: reads along rows, writes down columns";
        spec.body = [](ModelThread& t) {
            const auto in = t.input_array<float>(kTIn);
            const auto out = t.array<float>(kTOut);
            const ThreadContext c = context_of(t);
            const uint64_t x = grid_x(c), y = grid_y(c), rows = t.param(kTRows), cols = t.param(kTCols);
            if (x < cols && y < rows) out.store(x * rows + y, in.load(y * cols + x, 5), 5);
        };
        spec.cuda_source =
            "__global__ void transpose_naive(const float* in, float* out, size_t rows, size_t cols) {\n"
            "    size_t x = blockIdx.x * blockDim.x + threadIdx.x;  // column of in\n"
            "    size_t y = blockIdx.y * blockDim.y + threadIdx.y;  // row of in\n"
            "    if (x < cols && y < rows)\n"
            "        out[x * rows + y] = in[y * cols + x];\n"
            "}\n";
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
