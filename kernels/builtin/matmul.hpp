// The tutorial's matmul: i, j = cuda.grid(2), so x indexes rows of C (uncoalesced).
#pragma once

#include "kernels/builtin/matmul_common.hpp"

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
        s.cuda_source = matmul_source("matmul",
                                      "    size_t i = blockIdx.x * blockDim.x + threadIdx.x;  // x indexes rows\n"
                                      "    size_t j = blockIdx.y * blockDim.y + threadIdx.y;\n",
                                      kMatmulLoop);
        return s;
    }();
    return spec;
}

}  // namespace threadmap::builtin
