// The matmul fix: x indexes columns, so a warp's threads write neighbouring elements.
#pragma once

#include "kernels/builtin/matmul_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& matmul_xcol() {
    static const KernelSpec spec = [] {
        KernelSpec spec = matmul_spec_base();
        spec.name = "matmul-xcol";
        spec.default_block = {16, 16, 1};
        spec.fast = &MatmulXColBody::kernel;
        spec.summary = "C = A·B, one thread per element of C, x indexing columns (coalesced)";
        spec.body = [](ModelThread& t) {
            const MatmulOperands m(t, 8, 9);
            matmul_x_col(context_of(t), m.A, m.B, m.C);
        };
        spec.covering_grid = cover_x_cols;
        spec.cuda_source =
            matmul_source("matmul_xcol",
                          "    size_t i = blockIdx.y * blockDim.y + threadIdx.y;\n"
                          "    size_t j = blockIdx.x * blockDim.x + threadIdx.x;  // x indexes columns\n",
                          kMatmulLoop);
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
