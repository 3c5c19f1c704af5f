// What a launch of a built-in kernel asks of an SM, and where each figure comes from:
// registers per thread as nvcc allocated them for that architecture (compiled_resources.cpp),
// shared memory per block from the kernel's arrays at this blockDim (static and dynamic).
#pragma once

#include <optional>
#include <string>

#include "kernels/model/model_emulator.hpp"
#include "kernels/occupancy/occupancy.hpp"

namespace threadmap {

struct LaunchResources {
    KernelResources resources;
    std::string registers_origin;  // "nvcc 13.0.88 for sm_90", or "given (--registers)"
    std::string shared_origin;
};

// registers / shared_bytes: the learner's overrides (--registers, --shared-bytes), if given.
// The error names the architecture when the build's figures do not cover it.
Outcome<LaunchResources> launch_resources(const ModelLaunch& launch, const SmProperties& sm,
                                          std::optional<int> registers, std::optional<uint64_t> shared_bytes);

}  // namespace threadmap
