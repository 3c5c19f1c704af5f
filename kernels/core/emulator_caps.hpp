// What the CPU emulator agrees to run. A launch can be valid on a GPU and still too big to
// emulate; these caps are checked before anything is allocated, and say which one applies.
#pragma once

#include <optional>
#include <string>

#include "kernels/core/launch_config.hpp"
#include "kernels/core/workload.hpp"
#include "kernels/core/outcome.hpp"

namespace threadmap {

struct EmulatorCaps {
    uint64_t max_elements = uint64_t(1) << 26;       // 67,108,864 per array: ≈ 0.8 GB with the map
    uint64_t max_threads = uint64_t(1) << 30;        // a few seconds of emulation; ids fit in 32 bits
    uint64_t max_inner = uint64_t(1) << 16;          // keeps every matmul sum exact in float
    uint64_t max_multiply_adds = uint64_t(1) << 32;  // matmul: threads launched × inner
};

// Shape caps alone (no launch needed): element counts of every array, the inner dimension.
Outcome<void> check_shape_caps(const Workload& workload, const EmulatorCaps& caps = {});

// The launch's caps, for a launch that validation accepted: "valid on a GPU; above …".
Outcome<void> check_launch_caps(const Workload& workload, const LaunchConfig& launch, const EmulatorCaps& caps = {});

}  // namespace threadmap
