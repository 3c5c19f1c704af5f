// The emulator's map and statistics against the independent oracle, for launches chosen to
// hit every case: 1D/2D/3D, blocks that are not multiples of 32, grids too small (untouched
// elements) and too large (idle threads), y/z > 1 on x-only kernels (multiple touches).
#include <doctest/doctest.h>

#include <random>

#include "tests/launch_oracle.hpp"
#include "kernels/builtin/kernel_bodies.hpp"
#include "kernels/emulator/cpu_emulator.hpp"

using namespace threadmap;

namespace {

void check_level(const Workload& workload, const LaunchConfig& launch, unsigned workers, OutputValues values) {
    CAPTURE(kernel_name(workload.kernel));
    CAPTURE(to_string(launch.grid));
    CAPTURE(to_string(launch.block));
    CAPTURE(workers);
    CAPTURE(int(values));
    const LaunchResult result = emulate(workload, launch, workers, values);
    const oracle::Map o = oracle::compute(workload, launch);
    REQUIRE(result.map.size() == o.touches.size());
    uint64_t untouched = 0, multi = 0;
    for (uint64_t i = 0; i < result.map.size(); ++i) {
        REQUIRE(result.map.touches[i] == o.touches[i]);
        if (o.touches[i] > 0) REQUIRE(result.map.first_toucher[i] == o.first[i]);
        untouched += o.touches[i] == 0;
        multi += o.touches[i] > 1;
    }
    const uint64_t tpb = uint64_t(launch.block.x) * launch.block.y * launch.block.z;
    const uint64_t blocks = uint64_t(launch.grid.x) * launch.grid.y * launch.grid.z;
    CHECK(result.stats.blocks == blocks);
    CHECK(result.stats.threads_launched == blocks * tpb);
    CHECK(result.stats.threads_active == o.threads_active);
    CHECK(result.stats.threads_idle == blocks * tpb - o.threads_active);
    CHECK(result.stats.elements == o.touches.size());
    CHECK(result.stats.elements_untouched == untouched);
    CHECK(result.stats.elements_multi == multi);
    CHECK(result.stats.warps == blocks * ((tpb + 31) / 32));
    CHECK(result.stats.partial_warps == (tpb % 32 ? blocks : 0));
    CHECK(result.data.out.empty() == (values == OutputValues::Skipped));  // the writers level holds no data
}

// At both levels: the map every picture and report gets (values skipped) and the one the value
// tests get (the kernel's output computed too).
void check_against_oracle(const Workload& workload, const LaunchConfig& launch, unsigned workers) {
    check_level(workload, launch, workers, OutputValues::Skipped);
    check_level(workload, launch, workers, OutputValues::Computed);
}

}  // namespace

TEST_CASE("the tutorial's launches - by hand") {
    const Workload workload = array_workload(&IncrementBody::kernel, 500);
    const LaunchResult right = emulate(workload, {{16, 1, 1}, {32, 1, 1}});
    CHECK(right.stats.threads_launched == 512);
    CHECK(right.stats.threads_active == 500);
    CHECK(right.stats.elements_untouched == 0);
    const auto t = right.map.toucher(100);
    REQUIRE(t);
    CHECK(t->block == Dim3{3, 0, 0});  // 100 = 4 + 3 * 32
    CHECK(t->thread == Dim3{4, 0, 0});

    const LaunchResult bug = emulate(workload, {{531, 1, 1}, {32, 1, 1}});
    CHECK(bug.stats.blocks == 531);
    CHECK(bug.stats.threads_launched == 16992);
    CHECK(bug.stats.threads_active == 500);
    CHECK(bug.stats.threads_idle == 16492);
}

TEST_CASE("a 2D block on the x-only increment - several threads write one element") {
    const Workload workload = array_workload(&IncrementBody::kernel, 64);
    const LaunchResult result = emulate(workload, {{2, 1, 1}, {32, 3, 1}});
    CHECK(result.stats.elements_multi == 64);
    CHECK(result.map.touches[5] == 3);
    CHECK(result.map.toucher(5)->thread == Dim3{5, 0, 0});  // the smallest id: ty = 0
    CHECK(result.stats.threads_active == 192);              // all of them wrote, though twice over
}

TEST_CASE("blockIdx.y copies of an x-only grid race on a GPU - the emulator still maps exactly") {
    // Different blocks write the same elements: the parallel run detects it and re-runs.
    check_against_oracle(array_workload(&IncrementBody::kernel, 1000), {{8, 3, 2}, {128, 1, 1}}, 2);
    check_against_oracle(array_workload(&IncrementStrideBody::kernel, 1000), {{3, 2, 1}, {100, 1, 1}}, 4);
}

TEST_CASE("a launch whose blocks race is re-run on one worker - a race-free one keeps its workers") {
    // blockIdx.y = 0 and 1 lie far apart in block order, so two workers get them and both
    // write a[0..1023]: the parallel run must notice and re-run on one worker.
    const LaunchResult racy = emulate(array_workload(&IncrementBody::kernel, 1024), {{4, 2, 1}, {256, 1, 1}}, 2);
    CHECK(racy.workers == 1);
    CHECK(racy.stats.elements_multi == 1024);
    const LaunchResult clean = emulate(array_workload(&IncrementBody::kernel, 1024), {{8, 1, 1}, {128, 1, 1}}, 2);
    CHECK(clean.workers == 2);
    CHECK(clean.stats.elements_multi == 0);
    // Several threads of one block writing one element is no cross-worker race.
    const LaunchResult in_block = emulate(array_workload(&IncrementBody::kernel, 64), {{4, 1, 1}, {16, 2, 1}}, 2);
    CHECK(in_block.workers == 2);
    CHECK(in_block.stats.elements_multi == 64);
}

TEST_CASE("a result whose buffers were moved out is refilled, not trusted - a matmul reads its inputs again") {
    const Workload workload = matmul_workload(&MatmulBody::kernel, 64, 48, 32);
    const LaunchConfig launch{{4, 4, 1}, {16, 16, 1}};
    const LaunchResult want = emulate(workload, launch, 2, OutputValues::Computed);
    for (unsigned workers : {1u, 2u}) {
        CAPTURE(workers);
        // As the window's spare map comes back to be refilled: it keeps its workload, its
        // buffers went to the map that replaced it.
        LaunchResult again = emulate(workload, launch, 2, OutputValues::Computed);
        const LaunchResult taken = std::move(again);
        REQUIRE(emulate_into(workload, launch, again, workers, nullptr, OutputValues::Computed));
        CHECK(again.data.a.size() == taken.data.a.size());
        for (uint64_t i = 0; i < element_count(workload); ++i)
            if (again.data.out[i] != want.data.out[i]) FAIL("C element " << i);
    }
}

TEST_CASE("the fast decoder equals decode_global_id for every block size and both sides of the block table") {
    // Every threads-per-block 1..1024, as a 1D block and folded into 2D/3D shapes.
    for (uint32_t tpb = 1; tpb <= 1024; ++tpb) {
        const Dim3 shapes[] = {{tpb, 1, 1}, tpb % 4 == 0 ? Dim3{tpb / 4, 2, 2} : Dim3{1, tpb, 1}};
        for (const Dim3 block : shapes) {
            const LaunchConfig launch{{7, 3, 2}, block};
            const ToucherDecoder d(launch), untabulated(launch, false);
            const uint64_t threads = launch.blocks() * launch.threads_per_block();
            // Every id of small launches; a stride through larger ones, ends included.
            const uint64_t step = std::max<uint64_t>(1, threads / 4000);
            for (uint64_t id = 0; id < threads; id += step) {
                const Toucher a = d.decode(uint32_t(id)), b = ThreadMap::decode_global_id(id, launch);
                REQUIRE(a.block == b.block);
                REQUIRE(a.thread == b.thread);
                REQUIRE(untabulated.decode(uint32_t(id)).block == b.block);
            }
            const Toucher last = d.decode(uint32_t(threads - 1));
            REQUIRE(last.block == Dim3{6, 2, 1});
        }
    }
    // Grids of 2^20 blocks (tabulated) and 2^20 + 1 (computed), ids up to the 2^30 thread cap.
    for (const LaunchConfig& launch :
         {LaunchConfig{{1u << 20, 1, 1}, {1024, 1, 1}}, LaunchConfig{{(1u << 20) + 1, 1, 1}, {1023, 1, 1}},
          LaunchConfig{{1025, 1024, 1}, {3, 1, 1}}, LaunchConfig{{1024, 1024, 1}, {1, 1, 1}}}) {
        CAPTURE(to_string(launch.grid));
        const ToucherDecoder d(launch);
        const uint64_t threads = launch.blocks() * launch.threads_per_block();
        for (uint64_t id = 0; id < threads; id += 999'983) {
            const Toucher a = d.decode(uint32_t(id)), b = ThreadMap::decode_global_id(id, launch);
            REQUIRE(a.block == b.block);
            REQUIRE(a.thread == b.thread);
        }
        for (uint64_t id = threads - 2000; id < threads; ++id)
            REQUIRE(d.decode(uint32_t(id)).block == ThreadMap::decode_global_id(id, launch).block);
    }
}

TEST_CASE("emulator against the oracle - fixed corner cases") {
    const LaunchConfig cases[] = {
        {{1, 1, 1}, {1, 1, 1}},  {{7, 1, 1}, {33, 1, 1}},  {{3, 1, 1}, {1024, 1, 1}}, {{2, 2, 2}, {5, 3, 2}},
        {{1, 1, 1}, {31, 1, 1}}, {{40, 1, 1}, {32, 1, 1}}, {{1, 5, 1}, {17, 1, 3}},   {{2, 1, 3}, {4, 4, 4}},
    };
    for (const auto& l : cases)
        for (unsigned workers : {1u, 2u, 3u}) {
            check_against_oracle(array_workload(&IncrementBody::kernel, 777), l, workers);
            check_against_oracle(array_workload(&IncrementStrideBody::kernel, 777), l, workers);
            check_against_oracle(matmul_workload(&MatmulBody::kernel, 23, 37, 5), l, workers);
            check_against_oracle(matmul_workload(&MatmulXColBody::kernel, 23, 37, 5), l, workers);
        }
}

TEST_CASE("emulator against the oracle - random launches") {
    std::mt19937 rng(20261130);
    const auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
    for (int trial = 0; trial < 300; ++trial) {
        LaunchConfig launch;
        launch.block = {pick(1, 70), pick(1, 6), pick(1, 3)};
        launch.grid = {pick(1, 12), pick(1, 4), pick(1, 3)};
        if (trial % 3 == 0) launch.block.y = launch.block.z = launch.grid.y = launch.grid.z = 1;  // plenty of pure 1D
        const unsigned workers = pick(1, 4);
        switch (trial % 4) {
            case 0:
                check_against_oracle(array_workload(&IncrementBody::kernel, pick(1, 900)), launch, workers);
                break;
            case 1:
                check_against_oracle(array_workload(&IncrementStrideBody::kernel, pick(1, 900)), launch, workers);
                break;
            case 2:
                check_against_oracle(matmul_workload(&MatmulBody::kernel, pick(1, 60), pick(1, 60), pick(1, 4)), launch,
                                     workers);
                break;
            case 3:
                check_against_oracle(matmul_workload(&MatmulXColBody::kernel, pick(1, 60), pick(1, 60), pick(1, 4)),
                                     launch, workers);
                break;
        }
    }
}

TEST_CASE("a linear id decodes back to the blockIdx and threadIdx it came from") {
    const LaunchConfig launch{{5, 4, 3}, {7, 3, 2}};
    uint64_t id = 0;
    for (uint32_t bz = 0; bz < 3; ++bz)
        for (uint32_t by = 0; by < 4; ++by)
            for (uint32_t bx = 0; bx < 5; ++bx)
                for (uint32_t tz = 0; tz < 2; ++tz)
                    for (uint32_t ty = 0; ty < 3; ++ty)
                        for (uint32_t tx = 0; tx < 7; ++tx, ++id) {
                            const Toucher t = ThreadMap::decode_global_id(id, launch);
                            REQUIRE(t.block == Dim3{bx, by, bz});
                            REQUIRE(t.thread == Dim3{tx, ty, tz});
                        }
}

TEST_CASE("a map holds at most 2^32 threads - the reason names the 32-bit ids") {
    CHECK(check_mapped_threads({{1u << 22, 1, 1}, {1024, 1, 1}}).done());  // exactly 2^32
    const Outcome<void> over = check_mapped_threads({{(1u << 22) + 1, 1, 1}, {1024, 1, 1}});
    REQUIRE_FALSE(over.done());
    CHECK(over.error.find("32 bits") != std::string::npos);
    CHECK(over.error.find("4194305 blocks of 1024") != std::string::npos);
    // 2^31-1 × 65535 × 65535 blocks of 1024 threads: 2^73 threads, counted without overflow
    CHECK_FALSE(check_mapped_threads({{2147483647u, 65535, 65535}, {1024, 1, 1}}).done());
}
