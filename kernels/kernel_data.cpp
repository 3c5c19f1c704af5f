// Deterministic kernel inputs; see kernel_data.hpp.
#include "kernel_data.hpp"

namespace threadmap {

void reset_output(const Workload& w, ZeroedBuffer<float>& out) {
    out = ZeroedBuffer<float>(element_count(w));  // C starts as zeros, as np.zeros gives
    if (is_matrix(w.kernel)) return;
    for (uint64_t i = 0; i < out.size(); ++i) out[i] = initial_array_value(i);
}

KernelData make_kernel_data(const Workload& w) {
    KernelData data;
    reset_output(w, data.out);
    if (is_matrix(w.kernel)) {
        data.a = ZeroedBuffer<float>(w.a_rows * w.inner);
        for (uint64_t i = 0; i < w.a_rows; ++i)
            for (uint64_t k = 0; k < w.inner; ++k) data.a[i * w.inner + k] = matrix_a_value(i, k);
        data.b = ZeroedBuffer<float>(w.inner * w.b_cols);
        for (uint64_t k = 0; k < w.inner; ++k)
            for (uint64_t j = 0; j < w.b_cols; ++j) data.b[k * w.b_cols + j] = matrix_b_value(k, j);
    }
    return data;
}

}  // namespace threadmap
