// Time follows bytes: the timing model counts the sectors a launch's warps request, worked out
// here by hand for the tutorial's launch (A 300×200, B 200×300, C 200×200, grid 16×16,
// block 32×32), so the seed's matmul and its x-on-columns fix get different kernel times
// although they read and write the same bytes.
#include <doctest/doctest.h>

#include "app/launch/device_profiles.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "app/reports/lesson_text.hpp"
#include "app/launch/lessons.hpp"
#include "app/launch/timing_sectors.hpp"

using namespace threadmap;

namespace {

Workload tutorial(const FastKernel* kernel) {
    Workload workload = matmul_workload(kernel, 200, 200, 200);
    workload.a_rows = workload.b_cols = 300;
    return workload;
}

const LaunchConfig kTutorialLaunch{{16, 16, 1}, {32, 32, 1}};

uint64_t sectors(const FastKernel* kernel, ElementType element) {
    WorkloadCost c = workload_cost(tutorial(kernel));
    const std::string said = add_sectors(c, tutorial(kernel), kTutorialLaunch, *find_device_profile("h200"), element);
    CHECK(said.find("sectors: " + std::to_string(c.global_sectors) + " global load and store sectors") == 0);
    return c.global_sectors;
}

}  // namespace

TEST_CASE("time follows bytes - the tutorial's launch requests the sectors worked out by hand") {
    // x → row: a warp is 32 rows of one column j. Per (j, k): A[i][k] is 32 rows apart, one
    // sector per active lane (rows 0-199 in warps of 32: 6 full and one of 8), 200 per (j, k);
    // B[k][j] is one element for the warp, 1 sector per warp (7 per (j, k)); C[i][j] stores one
    // sector per lane, 200 per j. 200·200·200 + 200·200·7 + 200·200.
    CHECK(sectors(&MatmulBody::kernel, ElementType::Float32) == 8'000'000 + 280'000 + 40'000);
    // 8-byte elements change nothing: every lane still has a sector of its own, B still one.
    CHECK(sectors(&MatmulBody::kernel, ElementType::Float64) == 8'320'000);
    // x → column: a warp is 32 columns of one row i. A[i][k]: 1 sector per warp, 7 per (i, k).
    // B[k][j]: row k starts at byte 1,200·k, 16 bytes into a sector when k is odd: a full warp
    // (128 bytes) takes 4 sectors at even k and 5 at odd, the last warp (8 lanes, 32 bytes) 1
    // and 2: per i, 100·(6·4 + 1) + 100·(6·5 + 2) = 5,700. C[i][j]: rows of 800 bytes, always
    // aligned: 6·4 + 1 = 25 per i.
    CHECK(sectors(&MatmulXColBody::kernel, ElementType::Float32) == 280'000 + 200 * 5'700 + 200 * 25);
    // float64: B's rows are 2,400 bytes, always aligned: a full warp 8 sectors, the last 2;
    // per i 200·(6·8 + 2); C the same 6·8 + 2 per i.
    CHECK(sectors(&MatmulXColBody::kernel, ElementType::Float64) == 280'000 + 200 * 200 * 50 + 200 * 50);
}

TEST_CASE("time follows bytes - the uncoalesced matmul's modeled kernel takes its extra sectors' L1 time") {
    const DeviceProfile& p = *find_device_profile("h200");
    const auto kernel_seconds = [&](const FastKernel* kernel) {
        WorkloadCost c = workload_cost(tutorial(kernel));
        add_waves(c, tutorial(kernel), kTutorialLaunch, p);
        add_sectors(c, tutorial(kernel), kTutorialLaunch, p, ElementType::Float32);
        return std::pair{modeled_kernel_seconds(p, c), wave_factor(c)};
    };
    const auto [rows, waves] = kernel_seconds(&MatmulBody::kernel);
    const auto [cols, same_waves] = kernel_seconds(&MatmulXColBody::kernel);
    CHECK(waves == same_waves);
    // Both are L1-bound on an H200 (DRAM: 640 KB in 0.15 us; 16 MFLOP in 0.24 us): the
    // difference is the extra sectors through L1, 32 bytes each.
    CHECK(rows - cols == doctest::Approx((8'320'000.0 - 1'425'000.0) * 32 / (p.l1_gbps * 1e9) * waves));
    CHECK(rows > 5 * cols);
}

TEST_CASE("time follows bytes - a launch too large to count says so and keeps bytes and flops") {
    const Workload workload = array_workload(&IncrementBody::kernel, 40'000'000);
    WorkloadCost c = workload_cost(workload);
    const std::string said =
        add_sectors(c, workload, {{156'250, 1, 1}, {256, 1, 1}}, *find_device_profile("h200"), ElementType::Float32);
    CHECK(c.global_sectors == 0);
    CHECK(said.find("sectors not counted (the launch makes more than 67108864 loads and stores") == 0);
}

TEST_CASE("the coalescing lesson gives both kernels' sectors and modeled times") {
    const Lesson* lesson = find_lesson("coalescing");
    REQUIRE(lesson);
    const auto& f = lesson_figures(*lesson);
    REQUIRE(f.count("kernel_us"));
    REQUIRE(f.count("other_kernel_us"));
    CHECK(f.at("global_sectors") == "8,320,000");
    CHECK(f.at("other_global_sectors") == "1,285,000");  // its B rows 800 bytes apart: 25 whole sectors each
    CHECK(std::stod(f.at("kernel_us")) > 5 * std::stod(f.at("other_kernel_us")));
    CHECK(fill_lesson_text(lesson->explanation, f).find('{') == std::string::npos);
}
