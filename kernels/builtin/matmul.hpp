// The tutorial's matmul: i, j = cuda.grid(2), so x indexes rows of C (uncoalesced).
#pragma once

#include "matmul_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& matmul() {
    static const KernelSpec spec = [] {
        KernelSpec s = matmul_spec_base();
        s.name = "matmul";
        s.summary = "C = A·B, one thread per element of C, x indexing rows (the tutorial's)";
        s.body = [](ModelThread& t) {
            const MatmulOperands m(t, 8, 9);
            matmul_x_row(context_of(t), m.A, m.B, m.C);
        };
        s.covering_grid = cover_x_rows;
        s.cuda_source =
            "__global__ void matmul(const float* A, const float* B, float* C,\n"
            "                       size_t rows, size_t cols, size_t inner, size_t b_cols) {\n"
            "    size_t i = blockIdx.x * blockDim.x + threadIdx.x;  // x indexes rows\n"
            "    size_t j = blockIdx.y * blockDim.y + threadIdx.y;\n"
            "    if (i < rows && j < cols) {\n"
            "        float tmp = 0;\n"
            "        for (size_t k = 0; k < inner; ++k)\n"
            "            tmp += A[i * inner + k] * B[k * b_cols + j];\n"
            "        C[i * cols + j] = tmp;\n"
            "    }\n"
            "}\n";
        return s;
    }();
    return spec;
}

}  // namespace threadmap::builtin
