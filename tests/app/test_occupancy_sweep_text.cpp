// The sentence under the Occupancy tab's block-size sweep: the fastest modeled time and its
// block size, the learner's and the slowest - and, for a block size the sweep does not try (16
// threads, half a warp), that it is not among them, where it once said "- at yours".
#include <doctest/doctest.h>

#include "app/reports/occupancy_report.hpp"

using namespace threadmap;

namespace {

std::vector<OccupancySweepPoint> sweep_of(std::initializer_list<std::pair<int, double>> times) {
    std::vector<OccupancySweepPoint> sweep;
    for (const auto& [size, seconds] : times) {
        OccupancySweepPoint p;
        p.block_size = size;
        p.kernel_seconds = seconds;
        sweep.push_back(p);
    }
    return sweep;
}

}  // namespace

TEST_CASE("the sweep's sentence gives the fastest, yours and the slowest - or says yours is not a size swept") {
    const auto sweep = sweep_of({{32, 8e-6}, {64, 5.26e-6}, {96, 6.04e-6}});
    CHECK(sweep_time_sentence(sweep, 96) ==
          "Modeled kernel: 5.26 us at 64 threads per block (the fastest), 6.04 us at yours, 8 us at the slowest.");
    CHECK(sweep_time_sentence(sweep, 16) ==
          "Modeled kernel: 5.26 us at 64 threads per block (the fastest), 8 us at the slowest; yours, 16 threads per "
          "block, is not among the sizes swept.");
    CHECK(sweep_time_sentence({}, 16).empty());  // no profile, no times: no sentence
}
