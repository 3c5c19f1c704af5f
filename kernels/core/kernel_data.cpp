// Deterministic kernel inputs; see kernel_data.hpp.
#include "kernels/core/kernel_data.hpp"

#include <cstring>

namespace threadmap {

void reset_output(const Workload& workload, ZeroedBuffer<float>& out) {
    const bool fresh = out.size() != element_count(workload);
    if (fresh) out = ZeroedBuffer<float>(element_count(workload));  // fresh pages are zeros already
    if (is_matrix(workload.kernel)) {
        if (!fresh) std::memset(out.data(), 0, out.size() * sizeof(float));  // C starts as np.zeros
        return;
    }
    for (uint64_t i = 0; i < out.size(); ++i) out[i] = initial_array_value(i);
}

KernelData make_kernel_data(const Workload& workload) {
    KernelData data;
    reset_output(workload, data.out);
    make_inputs(workload, data);
    return data;
}

void make_inputs(const Workload& workload, KernelData& data) {
    data.a = {};
    data.b = {};
    if (is_matrix(workload.kernel)) {
        data.a = ZeroedBuffer<float>(workload.a_rows * workload.inner);
        for (uint64_t i = 0; i < workload.a_rows; ++i)
            for (uint64_t k = 0; k < workload.inner; ++k) data.a[i * workload.inner + k] = matrix_a_value(i, k);
        data.b = ZeroedBuffer<float>(workload.inner * workload.b_cols);
        for (uint64_t k = 0; k < workload.inner; ++k)
            for (uint64_t j = 0; j < workload.b_cols; ++j) data.b[k * workload.b_cols + j] = matrix_b_value(k, j);
    }
}

}  // namespace threadmap
