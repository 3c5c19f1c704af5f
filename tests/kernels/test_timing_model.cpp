// The timing model's arithmetic against cases worked by hand, for the programs a learner is
// shown: CUDA C++ with explicit copies, and numba given host arrays.
#include <doctest/doctest.h>

#include "kernels/timing/timing_model.hpp"
#include "kernels/builtin/kernel_bodies.hpp"

using namespace threadmap;

namespace {

DeviceProfile round_numbers() {
    DeviceProfile p;
    p.pinned_gbps = 10;  // 10 bytes per ns
    p.pageable_gbps = 2;
    p.copy_latency_s = 1e-5;  // 10 us
    p.memory_gbps = 100;
    p.memory_efficiency = 0.5;  // 50 GB/s achievable
    p.fp32_gflops = 1000;
    p.fp64_gflops = 10;
    p.l1_gbps = 1000;
    p.launch_latency_s = 5e-6;
    p.numba_launch_s = 6e-6;
    p.numba_launch_per_array_s = 4e-6;
    p.alloc_s = 2e-5;
    p.context_s = 0.1;
    p.module_s = 0.01;
    p.numba_compile_s = 0.3;
    return p;
}

const TimedProgram kNumbaTutorial{HostLanguage::Numba, ElementType::Float64, Transfers::HostArrays};

}  // namespace

TEST_CASE("the sectors a launch requests pass through L1 at its bandwidth - when slower than DRAM and arithmetic") {
    const DeviceProfile p = round_numbers();
    // increment, n = 1M: 8 MB at 50 GB/s achievable = 160 us.
    WorkloadCost inc = workload_cost(array_workload(&IncrementBody::kernel, 1'000'000));
    inc.global_sectors = 250'000;  // coalesced: 8 MB in sectors, 8 us at 1 TB/s: DRAM still decides
    CHECK(modeled_kernel_seconds(p, inc) == doctest::Approx(1.6e-4));
    inc.global_sectors = 8'000'000;  // one sector per element: 256 MB through L1 at 1 TB/s = 256 us
    CHECK(modeled_kernel_seconds(p, inc) == doctest::Approx(2.56e-4));
    // A profile with no L1 figure leaves the sectors out.
    DeviceProfile no_l1 = p;
    no_l1.l1_gbps = 0;
    CHECK(modeled_kernel_seconds(no_l1, inc) == doctest::Approx(1.6e-4));
}

TEST_CASE("copies - latency plus bytes over the link's bandwidth - pinned or pageable") {
    const DeviceProfile p = round_numbers();
    CHECK(modeled_copy_seconds(p, 1'000'000, true) == doctest::Approx(1e-5 + 1e-4));   // 1 MB at 10 GB/s
    CHECK(modeled_copy_seconds(p, 1'000'000, false) == doctest::Approx(1e-5 + 5e-4));  // at 2 GB/s
    CHECK(modeled_copy_seconds(p, 0, true) == doctest::Approx(1e-5));
}

TEST_CASE("CUDA C++ float32 - launch plus the slower of achievable bandwidth and FP32 arithmetic") {
    const DeviceProfile p = round_numbers();
    // increment, n = 1M: 8 MB at 50 GB/s achievable = 160 us; 1 MFLOP at 1 TFLOP/s = 1 us.
    const WorkloadCost inc = workload_cost(array_workload(&IncrementBody::kernel, 1'000'000));
    CHECK(inc.h2d_bytes == 4'000'000);
    CHECK(inc.d2h_bytes == 4'000'000);
    CHECK(inc.kernel_bytes == 8'000'000);
    CHECK(inc.allocations_per_call == 0);
    CHECK(modeled_kernel_seconds(p, inc) == doctest::Approx(1.6e-4));
    // matmul 1000³: 2 GFLOP at 1 TFLOP/s = 2 ms beats 12 MB at 50 GB/s = 240 us.
    const WorkloadCost mm = workload_cost(matmul_workload(&MatmulBody::kernel, 1000, 1000, 1000));
    CHECK(mm.flops == doctest::Approx(2e9));
    CHECK(mm.h2d_bytes == 8'000'000);  // A and B in
    CHECK(mm.d2h_bytes == 4'000'000);  // C back
    CHECK(mm.kernel_bytes == 12'000'000);
    const ModeledTimes t = model_times(p, mm, TimedProgram{}, true);
    CHECK(t.alloc == 0);
    CHECK(t.h2d == doctest::Approx(1e-5 + 8e-4));
    CHECK(t.d2h == doctest::Approx(1e-5 + 4e-4));
    CHECK(t.kernel == doctest::Approx(5e-6 + 2e-3));
    CHECK(t.compile == 0);  // CUDA C++ is compiled ahead of time
    CHECK(t.first_launch == doctest::Approx(0.1 + 0.01 + 5e-6 + 2e-3));
}

TEST_CASE("the tutorial's numba matmul - three float64 arrays in and back, allocated every call, FP64") {
    const DeviceProfile p = round_numbers();
    Workload workload = matmul_workload(&MatmulBody::kernel, 200, 200, 200);  // seed-matmul: A 300x200, B 200x300
    workload.a_rows = workload.b_cols = 300;
    const WorkloadCost c = workload_cost(workload, kNumbaTutorial);
    const uint64_t a = 300 * 200 * 8, b = 200 * 300 * 8, out = 200 * 200 * 8;  // 480,000 + 480,000 + 320,000
    CHECK(c.h2d_bytes == a + b + out);                                         // 1,280,000 bytes in …
    CHECK(c.d2h_bytes == a + b + out);  // … and all of it back: numba cannot know what the kernel wrote
    CHECK(c.allocations_per_call == 3);
    CHECK(c.fp64);
    CHECK(c.flops == doctest::Approx(2.0 * 200 * 200 * 200));  // 16 MFLOP
    const ModeledTimes t = model_times(p, c, kNumbaTutorial, false);
    CHECK(t.alloc == doctest::Approx(3 * 2e-5));
    CHECK(t.h2d == doctest::Approx(1e-5 + 1'280'000 / 2e9));  // pageable, 2 GB/s: 640 us
    CHECK(t.d2h == doctest::Approx(t.h2d));
    // 16 MFLOP at the FP64 peak of 10 GFLOP/s = 1.6 ms (FP32 would be 16 us); numba's launch with
    // three arrays: 6 + 3 × 4 = 18 us.
    CHECK(t.kernel == doctest::Approx(18e-6 + 1.6e-3));
    CHECK(t.compile == doctest::Approx(0.3));
    CHECK(t.first_launch == doctest::Approx(0.1 + 0.01 + 0.3 + 18e-6 + 1.6e-3));
}

TEST_CASE("the fixed numba matmul - float32, A and B in, C back once, no allocation per call") {
    const TimedProgram fixed{HostLanguage::Numba, ElementType::Float32, Transfers::Explicit};
    const WorkloadCost c = workload_cost(matmul_workload(&MatmulBody::kernel, 300, 300, 200), fixed);
    CHECK(c.h2d_bytes == (300 * 200 + 200 * 300) * 4);
    CHECK(c.d2h_bytes == 300 * 300 * 4);
    CHECK(c.allocations_per_call == 0);
    CHECK_FALSE(c.fp64);
}

TEST_CASE("resident launches back to back cost the longer of launch and kernel, not their sum") {
    const DeviceProfile p = round_numbers();
    const WorkloadCost tiny = workload_cost(array_workload(&IncrementBody::kernel, 1000));  // 8 KB: 0.16 us
    CHECK(model_times(p, tiny, {}, true, false, 1).kernel == doctest::Approx(5e-6 + 1.6e-7));
    CHECK(model_times(p, tiny, {}, true, true, 1000).kernel == doctest::Approx(5e-6));           // launch-bound
    const WorkloadCost big = workload_cost(array_workload(&IncrementBody::kernel, 10'000'000));  // 1.6 ms
    CHECK(model_times(p, big, {}, true, true, 1000).kernel == doctest::Approx(1.6e-3));
}

TEST_CASE("a profile's ranges - every figure at the end that favours the GPU, or the CPU") {
    DeviceProfile p = round_numbers();
    p.ranges["pageable_gbps"] = {1, 4};
    p.ranges["context_s"] = {0.05, 0.2};
    const DeviceProfile fast = profile_at_bound(p, true), slow = profile_at_bound(p, false);
    CHECK(fast.pageable_gbps == 4);  // higher bandwidth favours the GPU
    CHECK(slow.pageable_gbps == 1);
    CHECK(fast.context_s == 0.05);  // a shorter start-up favours the GPU
    CHECK(slow.context_s == 0.2);
    CHECK(fast.pinned_gbps == p.pinned_gbps);  // no range: unchanged
}

TEST_CASE("waves - a launch of 1.004 waves costs two - with no GPU named there are none") {
    DeviceProfile p = round_numbers();
    p.cc_major = 9;
    p.cc_minor = 0;
    p.sms = 132;
    // increment, 8 registers on 9.0, 1024 threads per block: 2 blocks per SM (64 warp slots),
    // 264 slots. 264 blocks are one full wave; 265 are two, each costing a full wave's time.
    const auto kernel_time = [&](uint64_t blocks) {
        const Workload workload = array_workload(&IncrementBody::kernel, blocks * 1024);
        WorkloadCost c = workload_cost(workload);
        add_waves(c, workload, {{uint32_t(blocks), 1, 1}, {1024, 1, 1}}, p);
        CHECK(c.wave_slots == 264);
        return modeled_kernel_seconds(p, c) / (double(c.kernel_bytes) / (p.memory_gbps * p.memory_efficiency * 1e9));
    };
    CHECK(kernel_time(264) == doctest::Approx(1.0));
    CHECK(kernel_time(265) == doctest::Approx(2.0 * 264 / 265));
    CHECK(kernel_time(528) == doctest::Approx(1.0));
    CHECK(kernel_time(132) == doctest::Approx(2.0));  // half a wave costs a whole one
    WorkloadCost none = workload_cost(array_workload(&IncrementBody::kernel, 1024));
    add_waves(none, array_workload(&IncrementBody::kernel, 1024), {{1, 1, 1}, {1024, 1, 1}}, round_numbers());
    CHECK(none.wave_slots == 0);
    CHECK(wave_factor(none) == 1.0);
}
