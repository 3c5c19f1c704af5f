// Deterministic kernel inputs; see kernel_data.hpp.
#include "kernels/core/kernel_data.hpp"

#include <cstring>

namespace threadmap {

void reset_output(const Workload& w, ZeroedBuffer<float>& out) {
    const bool fresh = out.size() != element_count(w);
    if (fresh) out = ZeroedBuffer<float>(element_count(w));  // fresh pages are zeros already
    if (is_matrix(w.kernel)) {
        if (!fresh) std::memset(out.data(), 0, out.size() * sizeof(float));  // C starts as np.zeros
        return;
    }
    for (uint64_t i = 0; i < out.size(); ++i) out[i] = initial_array_value(i);
}

KernelData make_kernel_data(const Workload& w) {
    KernelData data;
    reset_output(w, data.out);
    make_inputs(w, data);
    return data;
}

void make_inputs(const Workload& w, KernelData& data) {
    data.a = {};
    data.b = {};
    if (is_matrix(w.kernel)) {
        data.a = ZeroedBuffer<float>(w.a_rows * w.inner);
        for (uint64_t i = 0; i < w.a_rows; ++i)
            for (uint64_t k = 0; k < w.inner; ++k) data.a[i * w.inner + k] = matrix_a_value(i, k);
        data.b = ZeroedBuffer<float>(w.inner * w.b_cols);
        for (uint64_t k = 0; k < w.inner; ++k)
            for (uint64_t j = 0; j < w.b_cols; ++j) data.b[k * w.b_cols + j] = matrix_b_value(k, j);
    }
}

}  // namespace threadmap
