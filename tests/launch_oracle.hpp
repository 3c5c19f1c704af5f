// An independent oracle for the tests: the mapping of each kernel written from CUDA's rules
// directly (nested loops over the grid, its own id arithmetic, its own reading of each
// kernel), sharing no code with the emulator. Slow on purpose: small launches only.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/core/launch_config.hpp"
#include "kernels/core/workload.hpp"

namespace oracle {

struct Map {
    std::vector<uint64_t> first;    // smallest global id that wrote the element; ~0 if none
    std::vector<uint64_t> touches;  // threads that wrote it
    uint64_t threads_active = 0;
};

Map compute(const threadmap::Workload& w, const threadmap::LaunchConfig& l);

}  // namespace oracle
