// The timing model; see timing_model.hpp.
#include "timing_model.hpp"

#include <algorithm>

namespace threadmap {

WorkloadCost workload_cost(const Workload& w) {
    WorkloadCost c;
    const uint64_t f = sizeof(float);
    if (is_matrix(w.kernel)) {
        const uint64_t a = w.a_rows * w.inner * f, b = w.inner * w.b_cols * f, out = w.rows * w.cols * f;
        c.h2d_bytes = a + b;
        c.d2h_bytes = out;
        c.kernel_bytes = a + b + out;
        c.flops = 2.0 * double(w.rows) * double(w.cols) * double(w.inner);
    } else {
        c.h2d_bytes = c.d2h_bytes = w.n * f;
        c.kernel_bytes = 2 * w.n * f;  // read and written
        c.flops = double(w.n);
    }
    return c;
}

double modeled_copy_seconds(const DeviceProfile& p, uint64_t bytes, bool pinned) {
    return p.copy_latency_s + double(bytes) / ((pinned ? p.pinned_gbps : p.pageable_gbps) * 1e9);
}

double modeled_kernel_seconds(const DeviceProfile& p, const WorkloadCost& c) {
    return p.launch_latency_s +
           std::max(double(c.kernel_bytes) / (p.memory_gbps * 1e9), c.flops / (p.fp32_gflops * 1e9));
}

ModeledTimes model_times(const DeviceProfile& p, const WorkloadCost& c, bool pinned) {
    ModeledTimes t;
    t.h2d = modeled_copy_seconds(p, c.h2d_bytes, pinned);
    t.kernel = modeled_kernel_seconds(p, c);
    t.d2h = modeled_copy_seconds(p, c.d2h_bytes, pinned);
    t.first_launch = p.startup_s + t.kernel;
    return t;
}

}  // namespace threadmap
