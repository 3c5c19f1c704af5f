// The kernels' real results (not only the map) against references computed separately.
#include <doctest/doctest.h>

#include "tests/launch_oracle.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/emulator/cpu_emulator.hpp"

using namespace threadmap;

TEST_CASE("increment adds one per writing thread - and nothing past the guard") {
    Workload workload = array_workload(&IncrementBody::kernel, 300);
    for (const LaunchConfig launch : {LaunchConfig{{10, 1, 1}, {32, 1, 1}}, LaunchConfig{{2, 1, 1}, {64, 1, 1}},
                                      LaunchConfig{{3, 2, 1}, {128, 2, 1}}}) {
        const LaunchResult result = emulate(workload, launch, 2, OutputValues::Computed);
        const oracle::Map o = oracle::compute(workload, launch);
        for (uint64_t i = 0; i < workload.n; ++i) {
            // Threads that race on one element run one after another here: +1 each.
            REQUIRE(result.data.out[i] == float(i % 1000) + float(o.touches[i]));
        }
    }
}

TEST_CASE("matmul computes C = A·B where the grid covers C - and leaves zeros elsewhere") {
    for (const FastKernel* k : {&MatmulBody::kernel, &MatmulXColBody::kernel}) {
        Workload workload = matmul_workload(k, 45, 30, 17);
        workload.a_rows = 50;  // A and B larger than C, as in the tutorial's seed-matmul
        workload.b_cols = 33;
        const LaunchConfig launch{{2, 2, 1}, {16, 16, 1}};  // covers 32x32: rows 32..44 stay zero
        const LaunchResult result = emulate(workload, launch, 2, OutputValues::Computed);
        const oracle::Map o = oracle::compute(workload, launch);
        for (uint64_t i = 0; i < workload.rows; ++i)
            for (uint64_t j = 0; j < workload.cols; ++j) {
                double expect = 0;
                if (o.touches[i * workload.cols + j] > 0) {
                    for (uint64_t kk = 0; kk < workload.inner; ++kk) {
                        const double a = double(int((i * 7 + kk * 3) % 17) - 8) / 8;
                        const double b = double(int((kk * 5 + j * 11) % 13) - 6) / 8;
                        expect += a * b;
                    }
                }
                REQUIRE(double(result.data.out[i * workload.cols + j]) == expect);
            }
        CHECK(result.stats.elements_untouched == 45 * 30 - 32 * 30);
    }
}

TEST_CASE("the grid-stride loop covers any n with any grid - once per element") {
    Workload workload = array_workload(&IncrementStrideBody::kernel, 1000);
    const LaunchResult result = emulate(workload, {{3, 1, 1}, {50, 1, 1}}, 2, OutputValues::Computed);
    CHECK(result.stats.elements_untouched == 0);
    CHECK(result.stats.elements_multi == 0);
    CHECK(result.stats.threads_active == 150);
    for (uint64_t i = 0; i < workload.n; ++i) REQUIRE(result.data.out[i] == float(i % 1000) + 1);
    CHECK(result.map.toucher(155)->block == Dim3{0, 0, 0});  // 155 = 5 + 150: thread 5 of block 0
}
