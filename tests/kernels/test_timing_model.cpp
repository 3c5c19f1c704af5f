// The timing model's arithmetic against cases worked by hand.
#include <doctest/doctest.h>

#include "timing_model.hpp"

using namespace threadmap;

namespace {

DeviceProfile round_numbers() {
    DeviceProfile p;
    p.pinned_gbps = 10;  // 10 bytes per ns
    p.pageable_gbps = 2;
    p.copy_latency_s = 1e-5;  // 10 us
    p.memory_gbps = 100;
    p.fp32_gflops = 1000;
    p.launch_latency_s = 5e-6;
    p.startup_s = 0.1;
    return p;
}

}  // namespace

TEST_CASE("copies - latency plus bytes over the link's bandwidth - pinned or pageable") {
    const DeviceProfile p = round_numbers();
    CHECK(modeled_copy_seconds(p, 1'000'000, true) == doctest::Approx(1e-5 + 1e-4));   // 1 MB at 10 GB/s
    CHECK(modeled_copy_seconds(p, 1'000'000, false) == doctest::Approx(1e-5 + 5e-4));  // at 2 GB/s
    CHECK(modeled_copy_seconds(p, 0, true) == doctest::Approx(1e-5));
}

TEST_CASE("kernels - launch latency plus the slower of memory and arithmetic") {
    const DeviceProfile p = round_numbers();
    // increment, n = 1M: 8 MB moved at 100 GB/s = 80 us; 1 MFLOP at 1 TFLOP/s = 1 us.
    const WorkloadCost inc = workload_cost(array_workload(KernelKind::Increment, 1'000'000));
    CHECK(inc.h2d_bytes == 4'000'000);
    CHECK(inc.d2h_bytes == 4'000'000);
    CHECK(inc.kernel_bytes == 8'000'000);
    CHECK(modeled_kernel_seconds(p, inc) == doctest::Approx(5e-6 + 8e-5));
    // matmul 1000³: 2 GFLOP at 1 TFLOP/s = 2 ms beats 12 MB at 100 GB/s = 120 us.
    const WorkloadCost mm = workload_cost(matmul_workload(KernelKind::Matmul, 1000, 1000, 1000));
    CHECK(mm.flops == doctest::Approx(2e9));
    CHECK(mm.h2d_bytes == 8'000'000);
    CHECK(mm.kernel_bytes == 12'000'000);
    CHECK(modeled_kernel_seconds(p, mm) == doctest::Approx(5e-6 + 2e-3));
    const ModeledTimes t = model_times(p, mm, true);
    CHECK(t.h2d == doctest::Approx(1e-5 + 8e-4));
    CHECK(t.d2h == doctest::Approx(1e-5 + 4e-4));
    CHECK(t.first_launch == doctest::Approx(0.1 + 5e-6 + 2e-3));
}

TEST_CASE("a seed-matmul C smaller than A·B copies all of A and B but computes only C") {
    Workload w = matmul_workload(KernelKind::Matmul, 200, 200, 200);
    w.a_rows = w.b_cols = 300;
    const WorkloadCost c = workload_cost(w);
    CHECK(c.h2d_bytes == (300 * 200 + 200 * 300) * 4);
    CHECK(c.d2h_bytes == 200 * 200 * 4);
    CHECK(c.flops == doctest::Approx(2.0 * 200 * 200 * 200));
}
