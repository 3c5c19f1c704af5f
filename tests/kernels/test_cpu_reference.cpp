// The CPU reference (OpenBLAS, a plain loop) computes what the kernels compute.
#include <doctest/doctest.h>

#include "kernels/emulator/cpu_emulator.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/timing/cpu_reference.hpp"

using namespace threadmap;

TEST_CASE("the CPU reference matches the emulated kernels on covering launches") {
    Workload workload = matmul_workload(&MatmulBody::kernel, 70, 45, 33);
    workload.a_rows = 90;  // a C smaller than A·B, as in seed-matmul: lda and ldb still right
    workload.b_cols = 60;
    const LaunchResult result =
        emulate(workload, {covering_grid(workload, {16, 16, 1}), {16, 16, 1}}, 0, OutputValues::Computed);
    const std::vector<float> ref = cpu_reference_result(workload);
    REQUIRE(ref.size() == result.data.out.size());
    for (size_t i = 0; i < ref.size(); ++i) REQUIRE(ref[i] == result.data.out[i]);
    Workload inc = array_workload(&IncrementBody::kernel, 1000);
    const LaunchResult ei = emulate(inc, {covering_grid(inc, {64, 1, 1}), {64, 1, 1}}, 0, OutputValues::Computed);
    const std::vector<float> ri = cpu_reference_result(inc);
    for (size_t i = 0; i < ri.size(); ++i) REQUIRE(ri[i] == ei.data.out[i]);
    const CpuReferenceTiming t = time_cpu_reference(workload, 3);
    CHECK(t.seconds.size() == 3);
    CHECK(t.flops == doctest::Approx(2.0 * 70 * 45 * 33));
}
