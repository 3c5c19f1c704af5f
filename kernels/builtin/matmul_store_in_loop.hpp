// The tutorial's matmul exactly as written: C[i, j] = tmp inside the k loop, so every
// element is stored inner times by its one thread (same result, inner× the stores).
#pragma once

#include "kernels/builtin/matmul_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& matmul_store_in_loop() {
    static const KernelSpec spec = [] {
        KernelSpec spec = matmul_spec_base();
        spec.name = "matmul-store-in-loop";
        spec.summary = "the tutorial's matmul as written: C[i, j] stored at every step of the k loop";
        spec.body = [](ModelThread& t) {
            const ThreadContext c = context_of(t);
            const uint64_t i = grid_x(c), j = grid_y(c);
            const auto A = t.input_array<float>(kA), B = t.input_array<float>(kB);
            const auto C = t.array<float>(kC);
            const uint64_t rows = t.param(kRows), cols = t.param(kCols), inner = t.param(kInner);
            const uint64_t b_cols = t.param(kBCols);
            if (i < rows && j < cols) {
                float tmp = 0.0f;
                for (uint64_t k = 0; k < inner; ++k) {
                    tmp += A.load(i * inner + k, 8) * B.load(k * b_cols + j, 8);
                    C.store(i * cols + j, tmp, 9);
                }
            }
        };
        spec.covering_grid = cover_x_rows;
        spec.cuda_source = matmul_source("matmul",
                                         "    size_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                         "    size_t j = blockIdx.y * blockDim.y + threadIdx.y;\n",
                                         "        for (size_t k = 0; k < inner; ++k) {\n"
                                         "            tmp += A[i * inner + k] * B[k * b_cols + j];\n"
                                         "            C[i * cols + j] = tmp;  // stored at every step\n"
                                         "        }\n");
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
