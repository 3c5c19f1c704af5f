// The GPU tests' random launches, shared with a test that runs without a GPU: every one
// must be valid on a device (a block of at most 1,024 threads), by construction, or the
// first GPU run fails on its first batch instead of testing anything.
#pragma once

#include <algorithm>
#include <random>

#include "kernels/core/launch_config.hpp"
#include "kernels/builtin/registry.hpp"
#include "kernels/core/sanitizer.hpp"
#include "kernels/core/workload.hpp"

namespace threadmap {

// How many random launches a test tries: all of them in a plain build, a tenth under the
// sanitizers, where each costs some ten times as much (CI's plain run tries them all; the
// sanitizers look for memory errors, which a tenth of the launches reach as well).
inline int random_trials(int n) { return THREADMAP_ASAN ? std::max(1, n / 10) : n; }

class RandomLaunches {
  public:
    explicit RandomLaunches(uint32_t seed) : rng_(seed) {}

    uint32_t pick(uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng_); }

    // Blocks up to 256×4×2 shrunk along x to 1,024 threads; every third one 1D.
    LaunchConfig launch(int trial) {
        LaunchConfig launch;
        launch.block = {pick(1, 256), pick(1, 4), pick(1, 2)};
        launch.grid = {pick(1, 40), pick(1, 5), pick(1, 3)};
        if (trial % 3 == 0) launch.block.y = launch.block.z = launch.grid.y = launch.grid.z = 1;
        launch.block.x = std::min(launch.block.x, 1024 / (launch.block.y * launch.block.z));
        return launch;
    }

    // The kernels with a fast body in turn (the registry's order), on small shapes.
    Workload workload(int trial) {
        const FastKernel* kernel = all_kernels()[size_t(trial) % all_kernels().size()];
        if (!is_matrix(kernel)) return array_workload(kernel, pick(1, 5000));
        const uint32_t rows = pick(1, 150), cols = pick(1, 150);
        return matmul_workload(kernel, rows, cols, pick(1, 16));
    }

  private:
    std::mt19937 rng_;
};

}  // namespace threadmap
