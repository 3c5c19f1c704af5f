// The tutorial's matmul: i, j = cuda.grid(2), so x indexes rows of C (uncoalesced).
#pragma once

#include "kernels/builtin/matmul_common.hpp"

namespace threadmap::builtin {

inline const KernelSpec& matmul() {
    static const KernelSpec spec = [] {
        KernelSpec spec = matmul_spec_base();
        spec.name = "matmul";
        spec.default_block = {16, 16, 1};
        spec.fast = &MatmulBody::kernel;
        spec.summary = "C = A·B, one thread per element of C, x indexing rows (the tutorial's)";
        spec.body = [](ModelThread& t) {
            const MatmulOperands m(t, 8, 9);
            matmul_x_row(context_of(t), m.A, m.B, m.C);
        };
        spec.covering_grid = cover_x_rows;
        spec.cuda_source = matmul_source("matmul",
                                         "    size_t i = blockIdx.x * blockDim.x + threadIdx.x;  // x indexes rows\n"
                                         "    size_t j = blockIdx.y * blockDim.y + threadIdx.y;\n",
                                         kMatmulLoop);
        return spec;
    }();
    return spec;
}

}  // namespace threadmap::builtin
